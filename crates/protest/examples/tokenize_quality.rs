//! How well the tokeniser reproduces the DiscoMT news corpus: each tokenised line is naively
//! detokenised, tokenised again and compared with the original; tokenising the original again
//! must leave it unchanged. Figures are recorded in docs/tokenisation.md.
//!
//!     cargo run --release --example tokenize_quality -- [DATA_DIR] [--show N]
//!
//! DATA_DIR defaults to the nearest `shared/data/discomt-news-en-fr` above the current folder.

use protest::ingest::tokenize::{Language, detokenize, tokenize};

mod common;

fn main() -> common::Result<()> {
    let common::Args { data, show } = common::Args::parse()?;
    println!("{:<22} {:>6} {:>22} {:>22}", "file", "lines", "detok→tok reproduced", "tok again unchanged");
    for (file, language) in [
        ("mt-output.fr", Language::French),
        ("pronoun-test.tok.fr", Language::French),
        ("mt-output.en", Language::English),
    ] {
        let lines = common::lines(&data.join(file))?;
        let mut reproduced = 0;
        let mut unchanged = 0;
        let mut shown = 0;
        for line in &lines {
            let again = tokenize(&detokenize(line, language), language);
            if again == *line {
                reproduced += 1;
            } else if shown < show {
                shown += 1;
                println!("  corpus: {line}\n  ours:   {again}");
            }
            let retokenised = tokenize(line, language);
            if retokenised == *line {
                unchanged += 1;
            } else if shown < show {
                shown += 1;
                println!("  corpus:      {line}\n  retokenised: {retokenised}");
            }
        }
        let pct = |n: usize| format!("{n} ({:.2} %)", 100.0 * n as f64 / lines.len() as f64);
        println!("{file:<22} {:>6} {:>22} {:>22}", lines.len(), pct(reproduced), pct(unchanged));
    }
    Ok(())
}
