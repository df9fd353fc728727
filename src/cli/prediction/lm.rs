//! `protest prediction train-lm TEXT --order N -o MODEL.arpa` and `protest prediction lm-score
//! MODEL TEXT`: the baseline's language model without an outside tool.

use crate::cli::printer::Printer;
use anyhow::bail;
use protest::prediction::lm::{self, arpa, model::MAX_ORDER, train};
use protest::store::{atomic, disk};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct TrainLmArgs {
    /// The text: one sentence a line, words separated by spaces (plain or .gz).
    text: PathBuf,
    /// The length of the longest n-grams (the baseline's models are 5-grams; KenLM's tools read
    /// up to 6 unless rebuilt).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=MAX_ORDER as i64))]
    order: u8,
    /// The model file to write, in the ARPA format.
    #[arg(long, short)]
    output: PathBuf,
    /// Replace the model file if it exists.
    #[arg(long)]
    force: bool,
    /// Where an order's counts give no discounts (small or artificial text), use lmplz's
    /// fallback ones (0.5, 1, 1.5) instead of refusing.
    #[arg(long)]
    discount_fallback: bool,
    /// Take <s>, </s> and <unk> in the text for spaces instead of refusing the text.
    #[arg(long)]
    skip_symbols: bool,
    /// The most distinct n-grams (all orders) the model may have; a text with more is refused.
    /// Memory is about 100 bytes an n-gram.
    #[arg(long, value_name = "N", default_value_t = train::MAX_NGRAMS)]
    max_ngrams: u64,
}

pub fn run_train(args: TrainLmArgs, p: &Printer) -> anyhow::Result<()> {
    check_output(&args.output, &[&args.text], args.force)?;
    let options = train::Options {
        order: usize::from(args.order),
        discount_fallback: args.discount_fallback,
        skip_symbols: args.skip_symbols,
        max_ngrams: args.max_ngrams,
    };
    let estimate = train::train(&args.text, &options)?;
    for warning in &estimate.warnings {
        p.warn(format_args!("{}: {warning}", args.text.display()));
    }
    protest::progress::stage("Writing the model", None);
    atomic::write_with(&disk::Os, &args.output, |out| estimate.write_arpa(out))?;
    let mut out = p.stdout();
    writeln!(out, "{}: {}-gram model of {} words", args.output.display(), args.order, estimate.tokens)?;
    for (n, (count, d)) in (1..).zip(estimate.counts().iter().zip(&estimate.discounts)) {
        writeln!(out, "{n}-grams: {count}  D1={} D2={} D3+={}", d.0[0], d.0[1], d.0[2])?;
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct LmScoreArgs {
    /// The model, in the ARPA format (plain or .gz).
    model: PathBuf,
    /// The text: one sentence a line, words separated by spaces (plain or .gz).
    text: PathBuf,
}

/// Prints each line's log10 probability between `<s>` and `</s>`, one a line, as KenLM's query
/// totals it.
pub fn run_score(args: LmScoreArgs, p: &Printer) -> anyhow::Result<()> {
    let model = read_model(p, &args.model)?;
    protest::progress::stage("Scoring", None);
    let mut lines = protest::prediction::data::open_lines(&args.text)?;
    let mut out = std::io::BufWriter::new(p.stdout());
    while !p.stdout_closed() && lines.advance()? {
        writeln!(out, "{}", model.sentence(lm::words(lines.line())))?;
    }
    out.flush()?;
    Ok(())
}

/// Reads a model, saying on stderr what the reader had to assume.
pub fn read_model(p: &Printer, path: &Path) -> anyhow::Result<lm::Model> {
    protest::progress::stage_bytes("Reading the language model", protest::progress::file_bytes([path]));
    let loaded = arpa::read(path)?;
    for warning in &loaded.warnings {
        p.warn(format_args!("{}: {warning}", path.display()));
    }
    Ok(loaded.model)
}

/// Refuses an output that would replace one of the inputs, or, without `force`, any file.
pub fn check_output(output: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<()> {
    if let Some(input) = inputs.iter().find(|input| atomic::same_file(output, input)) {
        bail!("{}: this is the input {}; write the output to another file", output.display(), input.display());
    }
    match std::fs::symlink_metadata(output) {
        Ok(meta) if meta.is_dir() => Err(protest::Error::refused(output, "is a folder; choose another name").into()),
        Ok(_) if !force => Err(protest::Error::Exists { path: output.to_path_buf() }.into()),
        _ => Ok(()),
    }
}
