//! APT and AutoPRF over the DiscoMT news corpus repeated 100 times (≈ 495,000 sentences).
//!
//! The big input is generated once in a temporary folder from `shared/data/discomt-news-en-fr`
//! (or, in a checkout without it, from the sample's excerpt of that corpus).
//! `METRICS_BENCH_REPEAT` changes the number of copies (`cargo test` uses one). Figures:
//! docs/metrics.md.

use criterion::{Criterion, criterion_group, criterion_main};
use protest::model::pronouns::FRENCH;
use protest::scorers::apt::AptConfig;
use protest::scorers::autoprf::{self, AlignedCorpus, DocumentStarts};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

const FILES: [&str; 6] = [
    "pronoun-test.tok.en",
    "pronoun-test.tok.fr",
    "pronoun-test.tok.en-fr.alig",
    "mt-output.en",
    "mt-output.fr",
    "mt-output.en-fr.alig",
];

const APT_CONFIG: &str = "[lang]
source: en
target: fr
source_word_separator:
target_word_separator: -
[files]
source: pronoun-test.tok.en
reference: pronoun-test.tok.fr
target: mt-output.fr
alignment_source_reference: pronoun-test.tok.en-fr.alig
alignment_source_target: mt-output.en-fr.alig
list_source_pronouns: source.list
input_type: word
list_target_pronouns: target.list
[dictionary]
equal: equal.groups
similar: similar.groups
source_pronouns: source.list
target_pronouns: target.list
[cases]
cases_to_use: 1,2,3,4,5,6
weigths_per_case: 1,0.5,0,0,0,0
count_OTHER_as_equal: false
[output]
output_file: apt-out
counting_multiword_in_matrix: false
max_length_matrix = 15
";

/// The corpus files under the names the config and the AutoPRF stems use: the DiscoMT news corpus
/// beside the checkout, or else the sample's committed excerpt of it (a fresh clone elsewhere).
fn news_corpus() -> Vec<(&'static str, PathBuf)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(news) = manifest.ancestors().map(|d| d.join("shared/data/discomt-news-en-fr")).find(|d| d.is_dir()) {
        return FILES.iter().chain(&["doc-boundaries"]).map(|&f| (f, news.join(f))).collect();
    }
    let excerpt = manifest.join("../sample_batches/inputs");
    let from = ["news.en", "news.ref.fr", "news.ref.alig", "news.en", "news.mt.fr", "news.mt.alig", "news.docs"];
    FILES.iter().chain(&["doc-boundaries"]).zip(from).map(|(&f, e)| (f, excerpt.join(e))).collect()
}

/// The news corpus `times` times over, with its document starts shifted for each copy.
fn big_corpus(times: usize) -> tempfile::TempDir {
    let files = news_corpus();
    let read = |path: &Path| fs::read_to_string(path).unwrap();
    let sentences = read(&files[0].1).lines().count();
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in &files[..FILES.len()] {
        let text = read(path);
        // One line per sentence: the MT alignment's extra empty last line would shift the copies.
        let lines: Vec<&str> = text.lines().take(sentences).collect();
        let mut out = std::io::BufWriter::new(fs::File::create(dir.path().join(name)).unwrap());
        for _ in 0..times {
            for line in &lines {
                writeln!(out, "{line}").unwrap();
            }
        }
    }
    let starts: Vec<u32> = read(&files[FILES.len()].1).lines().map(|l| l.trim().parse().unwrap()).collect();
    let shifted: String =
        (0..times as u32).flat_map(|k| starts.iter().map(move |s| format!("{}\n", s + k * sentences as u32))).collect();
    fs::write(dir.path().join("doc-boundaries"), shifted).unwrap();
    let write = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
    write("apt.config", APT_CONFIG);
    write("source.list", "it\nthey\n");
    let lines = |items: Vec<String>| items.iter().map(|l| format!("{l}\n")).collect::<String>();
    let groups = |gs: &[&[&str]]| lines(gs.iter().map(|g| g.join(",")).collect());
    write("target.list", &lines(FRENCH.forms().map(String::from).collect()));
    write("equal.groups", &groups(FRENCH.equal));
    write("similar.groups", &groups(FRENCH.similar));
    dir
}

fn metrics(c: &mut Criterion) {
    // `cargo test` runs benchmarks once to check them (without `--bench`): one copy is enough.
    let measuring = std::env::args().any(|a| a == "--bench");
    let times = std::env::var("METRICS_BENCH_REPEAT").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let times = if measuring { times } else { 1 };
    let dir = big_corpus(times);
    let config = AptConfig::read(&dir.path().join("apt.config")).unwrap();
    let stem = dir.path().join("apt-out");
    let corpus = |stem: &str| AlignedCorpus::from_stem(&dir.path().join(stem), "en", "fr");
    let (reference, candidate) = (corpus("pronoun-test.tok"), corpus("mt-output"));
    let documents = DocumentStarts::read(&dir.path().join("doc-boundaries")).unwrap();

    let mut group = c.benchmark_group(format!("news corpus x{times}"));
    group.sample_size(10);
    group.bench_function("apt (writing .score and .detail)", |b| {
        b.iter(|| protest::workflow::metrics::apt(&config, &stem).unwrap())
    });
    group.bench_function("autoprf", |b| b.iter(|| autoprf::evaluate(&reference, &candidate, &documents).unwrap()));
    group.finish();
}

criterion_group!(benches, metrics);
criterion_main!(benches);
