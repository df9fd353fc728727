//! `protest import` and `protest check` as a user runs them.

use crate::common::{copy_of_folder, project, protest};
use std::fs;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    project("tests/fixtures/tiny")
}

/// A copy of the tiny fixture in a temporary folder, so tests can break files.
fn workspace() -> tempfile::TempDir {
    copy_of_folder("tests/fixtures/tiny")
}

const IMPORT: &[&str] = &[
    "import",
    "--source",
    "source.en",
    "--reference",
    "ref.fr",
    "ref.alig",
    "--system",
    "mt",
    "mt.fr",
    "mt.alig",
    "--documents",
    "docs",
    "--suite",
    "suite.tsv",
    "--id",
    "tiny-0001",
    "--created",
    "2026-11-25T12:00:00Z",
    "-o",
    "out.json",
];

fn import_error(dir: &Path) -> String {
    let out = protest(dir, IMPORT);
    assert!(!out.status.success(), "import should fail");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!dir.join("out.json").exists(), "nothing is written on failure");
    err.trim_end().to_string()
}

#[test]
fn import_rebuilds_the_tiny_fixture_exactly() {
    let dir = workspace();
    let out = protest(dir.path(), IMPORT);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(fs::read(dir.path().join("out.json")).unwrap(), fs::read(fixture().join("tiny.master.json")).unwrap());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Candidates: 6"), "{stdout}");
    // Refuses to overwrite without --force.
    let again = protest(dir.path(), IMPORT);
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists; use --force"));
}

#[test]
fn wrong_sentence_count() {
    let dir = workspace();
    fs::write(dir.path().join("mt.fr"), "J' ai une bicyclette .\nElle est rouge .\nIl pleut .\n").unwrap();
    assert_eq!(
        import_error(dir.path()),
        "error: mt.fr: has 3 sentences but the source source.en has 4; a translation needs one line per source sentence"
    );
}

#[test]
fn alignment_errors_name_file_and_line() {
    let dir = workspace();
    fs::write(dir.path().join("ref.alig"), "0-0\n0-0 1-9\n0-0\n0-1\n").unwrap();
    assert_eq!(
        import_error(dir.path()),
        "error: ref.alig: line 2: pair 1-9: target index 9 is out of range (ref.fr has 4 tokens in this sentence)\n  \
         ref.alig: pairs outside their sentences: 1; to leave them out and go on, run again with --drop-bad-links"
    );
    fs::write(dir.path().join("ref.alig"), "0-0\n0-0\n0=0\n0-1\n").unwrap();
    assert_eq!(
        import_error(dir.path()),
        "error: ref.alig: line 3: malformed pair '0=0': expected i-j with two numbers"
    );
}

#[test]
fn suite_errors_name_file_and_line() {
    let dir = workspace();
    let suite = fs::read_to_string(dir.path().join("suite.tsv")).unwrap();
    let cases = [
        (
            "\t1\t0\tIt\t",
            "\t1\t9\tIt\t",
            "error: suite.tsv: line 2: token 9 is out of range (sentence 2 (1 in the file) has 4 tokens)",
        ),
        (
            "\t1\t0\tIt\t",
            "\t1\t1\tIt\t",
            "error: suite.tsv: line 2: token 1 of sentence 2 (1 in the file) is 'is', not 'It': is the token number off by one? Tokens \
             count from 0",
        ),
        ("pleonastic_it", "pleonastic_they", "error: suite.tsv: line 3: unknown category 'pleonastic_they' (known: "),
        (
            "0:2-3@3",
            "0:2-7@3",
            "error: suite.tsv: line 2: antecedent span 2-7 is out of range (sentence 1 (0 in the file) has 5 tokens)",
        ),
        (
            "0:2-3@3",
            "-",
            "error: suite.tsv: line 2: category 'anaphoric_inter_subject_it' is anaphoric, so the example needs an antecedent",
        ),
    ];
    for (from, to, expected) in cases {
        fs::write(dir.path().join("suite.tsv"), suite.replacen(from, to, 1)).unwrap();
        let err = import_error(dir.path());
        assert!(err.starts_with(expected), "{err}\nexpected: {expected}");
    }
    // An antecedent in the other document.
    fs::write(dir.path().join("suite.tsv"), "1\t2\t0\tIt\tanaphoric_inter_subject_it\t1:0-0@0\n").unwrap();
    assert_eq!(
        import_error(dir.path()),
        "error: suite.tsv: line 1: antecedent sentence 2 (1 in the file) is outside the pronoun's document (sentences 3–4)"
    );
}

#[test]
fn check_counts_the_work_in_the_journal_and_writes_nothing() {
    use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
    let dir = workspace();
    let path = dir.path().join("tiny.master.json");
    let (mut store, _) = protest::store::Store::<Master>::open(&path).unwrap();
    let mut record = Record::new(CandidateId(2), AnnotatorId::RESEARCHER, chrono::Utc::now());
    record.pronoun = Judgement::No;
    store.put(record).unwrap();
    drop(store); // as if the app had crashed: the change is only in the journal
    let (file, journal) = (fs::read(&path).unwrap(), fs::read(protest::store::journal::path_for(&path)).unwrap());
    let out = crate::common::ok(dir.path(), &["check", "tiny.master.json"]);
    assert!(out.contains("tiny.master.json: valid (with 1 change from its journal"), "{out}");
    assert!(out.contains("Records: 1"), "{out}");
    assert_eq!(fs::read(&path).unwrap(), file);
    assert_eq!(fs::read(protest::store::journal::path_for(&path)).unwrap(), journal);
}

#[test]
fn check_prints_a_summary_or_the_error() {
    let out = protest(&fixture(), &["check", "tiny.master.json"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "tiny.master.json: valid",
        "Corpora: 3",
        "mt         MT system  4 sentences, word-aligned, 3 candidates",
        "Documents: 2",
        "Examples: 3 in 13 categories",
        "pleonastic_it                      1",
        "Candidates: 6",
        "Records: 0",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let dir = workspace();
    let broken =
        fs::read_to_string(dir.path().join("tiny.master.json")).unwrap().replace("\"version\":2", "\"version\":3");
    fs::write(dir.path().join("v3.json"), broken).unwrap();
    let out = protest(dir.path(), &["check", "v3.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim_end(),
        "error: v3.json: version: format version 3 is not supported (this build reads versions 1 and 2); it was written by a newer PROTEST, update this one"
    );
}

/// The study of the news corpus: `import` on it as shipped. Its MT alignment has 40 pairs outside
/// their sentences: all are reported in one run (the first 50 of any problems, and the count), the
/// first line saying what to do; with `--drop-bad-links` they are left out, saying how many on
/// which lines, and the master is written (into a folder made for it, and said).
#[test]
fn the_shipped_news_alignment_is_reported_at_once_or_its_bad_pairs_dropped() {
    let Some(data) = crate::common::shared_data("discomt-news-en-fr") else { return };
    let dir = tempfile::tempdir().unwrap();
    // One example: the first "it" of the corpus.
    let source = fs::read_to_string(data.join("mt-output.en")).unwrap();
    let (s, t) = source
        .lines()
        .enumerate()
        .find_map(|(s, line)| line.split(' ').position(|w| w == "it").map(|t| (s, t)))
        .unwrap();
    fs::write(dir.path().join("suite.tsv"), format!("1\t{s}\t{t}\tit\tpleonastic_it\t-\n")).unwrap();
    let d = |name: &str| data.join(name).to_str().unwrap().to_owned();
    let args = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> =
            ["import", "--source", &d("mt-output.en"), "--reference", &d("pronoun-test.tok.fr")]
                .map(String::from)
                .to_vec();
        args.extend([d("pronoun-test.tok.en-fr.alig"), "--system".into(), "mt".into(), d("mt-output.fr")]);
        args.extend([d("mt-output.en-fr.alig"), "--documents".into(), d("doc-boundaries")]);
        args.extend(["--suite", "suite.tsv", "-o", "out/news.json"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let run = |extra: &[&str]| protest(dir.path(), &args(extra).iter().map(String::as_str).collect::<Vec<_>>());
    let refused = run(&[]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "error: 40 problems; fix them all, then run again:", "{err}");
    assert!(lines[1].ends_with(
        "mt-output.en-fr.alig: pairs outside their sentences: 40; to leave them out and go on, run again with \
         --drop-bad-links"
    ));
    assert!(lines[2].contains("mt-output.en-fr.alig: line 869: pair 6-6: source index 6 is out of range"), "{err}");
    assert_eq!(lines.len(), 42, "{err}");
    assert!(!dir.path().join("out").exists(), "nothing written, no folder made");

    let out = run(&["--drop-bad-links"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        said.contains("mt-output.en-fr.alig: dropped 40 pairs outside their sentences on 37 lines: 869, "),
        "{said}"
    );
    assert!(said.starts_with("created the folder out\n"), "{said}");
    assert!(dir.path().join("out/news.json").is_file());
}

/// An alignment written target index first: the message says to pass `--reversed`, which reads it.
#[test]
fn a_reversed_alignment_is_recognised_and_read_with_reversed() {
    let dir = workspace();
    // The reference alignment of the fixture, each pair written j-i; "Il pleut ." is shorter
    // than "It is raining .", so the pairs do not fit read i-j.
    fs::write(dir.path().join("ref.alig"), "0-0 1-1 2-2 3-3 4-4\n0-0 1-1 2-2 3-3\n0-0 1-1 1-2 2-3\n1-0 3-2 4-3\n")
        .unwrap();
    fs::write(dir.path().join("mt.alig"), "0-0 1-1 2-2 3-3 4-4\n0-0 1-1 2-2 3-3\n0-0 1-1 1-2 2-3\n0-0 1-1 2-2 3-3\n")
        .unwrap();
    let err = import_error(dir.path());
    assert!(
        err.contains(
            "ref.alig: every pair fits its sentences when read target index first (j-i): if the aligner wrote them \
             so, run again with --reversed"
        ),
        "{err}"
    );
    let mut args = IMPORT.to_vec();
    args.push("--reversed");
    let out = protest(dir.path(), &args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
