//! The tokeniser against the real DiscoMT news corpus (shared/data, beside the repository):
//! plain text made from the corpus's own lines must tokenise back to those lines.

use protest::tokenize::{Language, detokenize, tokenize};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/data/discomt-news-en-fr"))
        .find(|p| p.is_dir())
        .expect("shared/data/discomt-news-en-fr should be beside the repository")
}

/// Share of lines that a naive detokenisation followed by tokenisation reproduces exactly; the
/// first mismatches are printed to help whoever breaks it.
fn reproduced(file: &str, language: Language) -> f64 {
    let text = std::fs::read_to_string(data().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut same = 0;
    for line in &lines {
        let again = tokenize(&detokenize(line, language), language);
        if again == *line {
            same += 1;
        } else if lines.len() - same < 20 {
            println!("{file}\n  corpus: {line}\n  ours:   {again}");
        }
    }
    same as f64 / lines.len() as f64
}

#[test]
fn french_mt_output_is_reproduced() {
    // 99.9 % when written; the rest are English tokens copied into the French by the MT system.
    assert!(reproduced("mt-output.fr", Language::French) > 0.995);
}

#[test]
fn french_reference_is_reproduced() {
    assert!(reproduced("pronoun-test.tok.fr", Language::French) > 0.995);
}

#[test]
fn english_source_is_reproduced() {
    assert!(reproduced("mt-output.en", Language::English) > 0.995);
}
