//! How well and how fast re-segmentation gives each source sentence of the DiscoMT news corpus
//! its translation, on the variants of the MT output that scripts/document-level-variants.py
//! writes (documents as single lines, merges and splits, edits, cancelling pairs): the share of
//! sentences given exactly the right text, how many were marked as of low confidence, how many
//! are wrong without the mark, and the time re-segmenting took (tokenising included, word
//! alignment not). Figures are recorded in docs/alignment.md ("Document-level output"), where
//! scripts/document-level-figures runs this after `protest add-system` on the same files.
//!
//!     cargo run --release --example resegment_quality -- VARIANTS_DIR [DATA_DIR] [--show N] [--runs N]
//!         [--with-mt] [--one-document N] [--set WEIGHT=VALUE]...
//!
//! `--show N` prints the first N wrong sentences of each variant (those not marked first);
//! `--runs N` times N runs; `--with-mt` compares with the MT output as well as the reference, as
//! when the master holds both;
//! `--set` changes one of the cues' `Weights` (by its field name), to try another;
//! `--one-document N` instead re-segments the first N sentences of the MT output as one document
//! given on one line (for the memory a long document takes).

use protest::ingest::resegment::{self, Given, Output, Texts, Weights};
use protest::ingest::system_output;
use protest::ingest::tokenize::{self, Language};
use std::path::{Path, PathBuf};
use std::time::Instant;

// Only some of the shared helpers are used here.
#[allow(dead_code)]
mod common;
use common::{Result, lines};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let variants = PathBuf::from(args.next().ok_or("usage: resegment_quality VARIANTS_DIR [DATA_DIR] [--show N]")?);
    let (mut data, mut show, mut runs, mut one_document, mut with_mt) = (None, 0, 1, None, false);
    let mut weights = Weights::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--show" => show = args.next().and_then(|n| n.parse().ok()).unwrap_or(20),
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(5),
            "--one-document" => one_document = args.next().and_then(|n| n.parse().ok()),
            "--with-mt" => with_mt = true,
            "--set" => {
                let setting = args.next().ok_or("--set NAME=VALUE")?;
                let (name, value) = setting.split_once('=').ok_or("--set NAME=VALUE")?;
                set(&mut weights, name, value.parse()?)?;
            }
            _ => data = Some(PathBuf::from(arg)),
        }
    }
    let data = common::data_dir(data)?;
    let source = lines(&data.join("pronoun-test.tok.en"))?;
    let reference = lines(&data.join("pronoun-test.tok.fr"))?;
    let documents: Vec<u32> =
        lines(&data.join("doc-boundaries"))?.iter().filter_map(|l| l.trim().parse().ok()).collect();
    let mt = lines(&data.join("mt-output.fr"))?;
    let translations: Vec<&[String]> =
        if with_mt { vec![reference.as_slice(), mt.as_slice()] } else { vec![reference.as_slice()] };
    if let Some(n) = one_document {
        return long_document(n, &data, &source, &reference, &weights);
    }
    let texts = Texts { source: &source, translations: &translations, documents: &documents };
    // NAME.fr, or a folder NAME (one file per document), with NAME.expected.
    let mut names: Vec<String> = std::fs::read_dir(&variants)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".expected").map(str::to_owned))
        .collect();
    names.sort();
    println!("{:<22} {:>9} {:>8} {:>10} {:>9}", "variant", "right", "low", "wrong,", "seconds");
    println!("{:<22} {:>9} {:>8} {:>10} {:>9}", "", "", "conf.", "unmarked", "");
    let mut total_time = 0.0;
    for name in names {
        let file = variants.join(format!("{name}.fr"));
        let path = if file.is_file() { file } else { variants.join(&name) };
        let output = system_output::read(&path, &source)?;
        let expected: Vec<String> = lines(&variants.join(format!("{name}.expected")))?
            .iter()
            .map(|l| tokenize::tokenize(l, Language::French))
            .collect();
        let tokenise = |_: usize, line: &str| Ok(tokenize::tokenize(line, Language::French));
        let mut best = f64::INFINITY;
        let mut result = None;
        for _ in 0..runs {
            let started = Instant::now();
            result = Some(resegment::resegment(&output.output(&path), &texts, Given::Detect, &weights, &tokenise));
            best = best.min(started.elapsed().as_secs_f64());
        }
        total_time += best;
        match result.expect("at least one run") {
            Err(e) => println!("{name:<22} refused: {e}"),
            Ok(r) => {
                if let Some(why) = &r.unsure_shift {
                    println!("{name:<22} refused: {why}");
                }
                let segmentation = r.segmentation.unwrap_or_default();
                let wrong: Vec<usize> = (0..expected.len()).filter(|&s| r.sentences[s] != expected[s]).collect();
                let unmarked = wrong.iter().filter(|&&s| !segmentation.is_uncertain(s as u32)).count();
                let right = 100.0 * (expected.len() - wrong.len()) as f64 / expected.len() as f64;
                println!(
                    "{name:<22} {right:>8.2}% {:>8} {unmarked:>10} {best:>9.3}",
                    segmentation.low_confidence.len()
                );
                let (mut shown, rest): (Vec<usize>, Vec<usize>) =
                    wrong.iter().partition(|&&s| !segmentation.is_uncertain(s as u32));
                shown.extend(rest);
                for &s in shown.iter().take(show) {
                    let mark = if segmentation.is_uncertain(s as u32) { "low" } else { "" };
                    println!("  {} {mark} {:?}", s + 1, segmentation.origin(s as u32));
                    println!("    source: {}", source[s]);
                    println!("    wanted: {}", expected[s]);
                    println!("    got:    {}", r.sentences[s]);
                }
            }
        }
    }
    println!("re-segmenting all variants: {total_time:.2} s (best of {runs})");
    Ok(())
}

/// Re-segments the first `n` sentences of the MT output given as one document on one line.
fn long_document(n: usize, data: &Path, source: &[String], reference: &[String], weights: &Weights) -> Result<()> {
    let mt = lines(&data.join("mt-output.fr"))?;
    let n = n.min(mt.len());
    let output = [mt[..n].join(" ")];
    let translations = [&reference[..n]];
    let texts = Texts { source: &source[..n], translations: &translations, documents: &[0] };
    let tokenise = |_: usize, line: &str| Ok(tokenize::tokenize(line, Language::French));
    let started = Instant::now();
    let r = resegment::resegment(&Output::file(Path::new("one"), &output), &texts, Given::Detect, weights, &tokenise)?;
    let seconds = started.elapsed().as_secs_f64();
    let right = (0..n).filter(|&s| r.sentences[s] == tokenize::tokenize(&mt[s], Language::French)).count();
    println!("{:.2} % right in {seconds:.2} s", 100.0 * right as f64 / n as f64);
    Ok(())
}

/// Sets one weight by its name.
fn set(w: &mut Weights, name: &str, value: f64) -> Result<()> {
    let field = match name {
        "lambda_translations" => &mut w.lambda_translations,
        "lambda_source" => &mut w.lambda_source,
        "word_cap" => &mut w.word_cap,
        "length_variance" => &mut w.length_variance,
        "end_sentence" => &mut w.end_sentence,
        "end_colon" => &mut w.end_colon,
        "end_comma" => &mut w.end_comma,
        "end_abbreviation" => &mut w.end_abbreviation,
        "end_anywhere" => &mut w.end_anywhere,
        "before_capital" => &mut w.before_capital,
        "before_small" => &mut w.before_small,
        "before_common_capital" => &mut w.before_common_capital,
        "quote" => &mut w.quote,
        "quote_parity" => &mut w.quote_parity,
        "before_punctuation" => &mut w.before_punctuation,
        "join" => &mut w.join,
        "join_colon" => &mut w.join_colon,
        "break_unfinished" => &mut w.break_unfinished,
        "join_unfinished" => &mut w.join_unfinished,
        "join_before_small" => &mut w.join_before_small,
        "join_claimed" => &mut w.join_claimed,
        "omit_claimed" => &mut w.omit_claimed,
        "end_anywhere_claimed" => &mut w.end_anywhere_claimed,
        "left_out_claimed" => &mut w.left_out_claimed,
        "merge_claimed" => &mut w.merge_claimed,
        "omit" => &mut w.omit,
        "omit_given" => &mut w.omit_given,
        "merge" => &mut w.merge,
        "left_out" => &mut w.left_out,
        "left_out_per_token" => &mut w.left_out_per_token,
        "sure" => &mut w.sure,
        _ => return Err(format!("no weight {name}").into()),
    };
    *field = value;
    Ok(())
}
