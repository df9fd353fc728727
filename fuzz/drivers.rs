//! What each fuzz target does with its input, shared by the targets in fuzz_targets/ and by
//! tests/fuzz_regressions.rs, which replays every input that once made one of them panic. Each
//! returns whether the input was accepted; bad input must come back as an error, never a panic.

use protest::ingest::{suite_def, texts};
use protest::model::Master;
use protest::scorers::apt::{AptConfig, ini::Ini};
use protest::store::journal::Journal;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Reads one input; true when it was accepted.
pub type Driver = fn(&[u8]) -> bool;

/// Every target by name (the name of its folder of regression inputs).
pub const TARGETS: &[(&str, Driver)] = &[
    ("master", master),
    ("suite_def", suite_def),
    ("alignment_line", alignment_line),
    ("text_files", text_files),
    ("journal", journal),
    ("batch", batch),
    ("apt_config", apt_config),
];

/// A master file: JSON parsing, format and version checks, validation.
pub fn master(data: &[u8]) -> bool {
    protest::store::master_file::from_bytes(Path::new("fuzz.master.json"), data).is_ok()
}

/// A batch file: JSON, format checks, the sparse corpora and the batch's own validation.
pub fn batch(data: &[u8]) -> bool {
    protest::store::batch_file::from_bytes(Path::new("fuzz.batch.json"), data).is_ok()
}

/// A test-suite definition file, from raw bytes (UTF-8 and line checks included).
pub fn suite_def(data: &[u8]) -> bool {
    let path = Path::new("fuzz.suite.tsv");
    texts::lines(path, data.to_vec()).and_then(|lines| suite_def::parse(path, &lines)).is_ok()
}

/// One Moses alignment line; what is read must write back to the same links.
pub fn alignment_line(data: &[u8]) -> bool {
    let Ok(line) = std::str::from_utf8(data) else { return false };
    let Ok(links) = protest::model::alignment::parse_line(line) else { return false };
    let again = protest::model::alignment::parse_line(&protest::model::alignment::format_line(&links));
    assert_eq!(again.as_ref(), Ok(&links), "an alignment line does not survive writing and reading");
    true
}

/// A source corpus, a target corpus, the alignment between them and document starts, given as
/// one input split at 0xFF bytes (which UTF-8 text never contains), after a byte whose parity
/// chooses the alignment's pair order.
pub fn text_files(data: &[u8]) -> bool {
    // The first byte chooses how the alignment writes its pairs, and whether pairs outside their
    // sentences are dropped.
    let (order, out_of_range, data) = match data.split_first() {
        Some((b, rest)) => (
            if b % 2 == 1 { texts::PairOrder::TargetSource } else { texts::PairOrder::SourceTarget },
            if b & 2 == 2 { texts::OutOfRange::Drop } else { texts::OutOfRange::Refuse },
            rest,
        ),
        None => (texts::PairOrder::SourceTarget, texts::OutOfRange::Refuse, data),
    };
    let mut parts = data.split(|&b| b == 0xff).map(<[u8]>::to_vec);
    let mut next = || parts.next().unwrap_or_default();
    let corpus = |name: &str, bytes: Vec<u8>| {
        let path = Path::new(name);
        texts::lines(path, bytes).and_then(|lines| texts::corpus(path, lines))
    };
    let (Ok(source), Ok(target)) = (corpus("fuzz.en", next()), corpus("fuzz.fr", next())) else { return false };
    let path = Path::new("fuzz.alig");
    let alignment = texts::lines(path, next())
        .and_then(|lines| texts::alignment(path, lines, order, out_of_range, &source, &target, Path::new("fuzz.fr")));
    let path = Path::new("fuzz.docs");
    let documents = texts::lines(path, next()).and_then(|lines| texts::document_starts(path, &lines, source.len()));
    alignment.is_ok() && documents.is_ok()
}

fn tiny() -> &'static Master {
    static TINY: OnceLock<Master> = OnceLock::new();
    TINY.get_or_init(|| {
        let bytes = include_bytes!("../tests/fixtures/tiny/tiny.master.json");
        protest::store::master_file::from_bytes(Path::new("tiny.master.json"), bytes).expect("the fixture is valid")
    })
}

/// A journal read for the tiny fixture master and replayed onto it.
pub fn journal(data: &[u8]) -> bool {
    let file = Path::new("tiny.master.json");
    let master = tiny();
    let Ok(mut replay) = Journal::parse(file, data, &master.id, master.revision) else { return false };
    protest::store::replay_into(&mut master.clone(), &mut replay);
    replay.damaged.is_none()
}

/// APT's example data (tests/fixtures/apt-es-en), found from the fuzz crate or from the tests.
fn apt_data() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        [manifest.join("tests/fixtures/apt-es-en"), manifest.join("../tests/fixtures/apt-es-en")]
            .into_iter()
            .find(|dir| dir.is_dir())
            .expect("APT's example data in tests/fixtures/apt-es-en")
    })
}

/// An APT configuration file, read as if it lay beside APT's example data so that the file
/// names of the shipped configurations resolve; then APT runs on the files it names (the
/// results are not written).
pub fn apt_config(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else { return false };
    let path = apt_data().join("fuzz.config");
    let Ok(ini) = Ini::parse(text, &path) else { return false };
    let Ok(config) = AptConfig::from_ini(&ini) else { return false };
    protest::scorers::apt::evaluate(&config, |_, _| Ok(())).is_ok()
}
