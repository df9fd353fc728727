//! The tokeniser against real news text: plain text made from the corpus's own lines must
//! tokenise back to those lines. Always on the sample's excerpt of the DiscoMT news corpus
//! (committed), and on the whole corpus when the shared data is beside the checkout.

use crate::common::{project, read, shared_data};
use protest::ingest::tokenize::{Language, detokenize, tokenize};
use std::path::Path;

/// Share of lines that a naive detokenisation followed by tokenisation reproduces exactly; the
/// first mismatches are printed to help whoever breaks it.
fn reproduced(file: &Path, language: Language) -> f64 {
    let text = read(file);
    let lines: Vec<&str> = text.lines().collect();
    let mut same = 0;
    for line in &lines {
        let again = tokenize(&detokenize(line, language), language);
        if again == *line {
            same += 1;
        } else if lines.len() - same < 20 {
            println!("{}\n  corpus: {line}\n  ours:   {again}", file.display());
        }
    }
    same as f64 / lines.len() as f64
}

/// Each file of the excerpt, and of the whole corpus if it is there, is reproduced above `share`.
fn check(excerpt: &str, corpus: &str, language: Language, share: f64) {
    let file = project("sample_batches/inputs").join(excerpt);
    assert!(reproduced(&file, language) > share, "{}", file.display());
    if let Some(dir) = shared_data("discomt-news-en-fr") {
        assert!(reproduced(&dir.join(corpus), language) > share, "{corpus}");
    }
}

#[test]
fn french_mt_output_is_reproduced() {
    // 99.9 % of the whole corpus when written; the rest are English tokens the MT system copied.
    check("news.mt.fr", "mt-output.fr", Language::French, 0.995);
}

#[test]
fn french_reference_is_reproduced() {
    check("news.ref.fr", "pronoun-test.tok.fr", Language::French, 0.995);
}

#[test]
fn english_source_is_reproduced() {
    check("news.en", "mt-output.en", Language::English, 0.995);
}
