//! `protest autoprf REF_STEM CAND_STEM DOC_STARTS`: AutoPRF as the original scorer prints it.

use crate::cli::printer::Printer;
use protest::scorers::autoprf::{self, AlignedCorpus, DocumentStarts};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct AutoPrfArgs {
    /// Reference stem: STEM.en, STEM.fr and STEM.en-fr.alig (with the default languages).
    reference: PathBuf,
    /// Candidate stem, likewise.
    candidate: PathBuf,
    /// Sentence numbers (from 0) where documents start, one per line, optionally with an id.
    doc_starts: PathBuf,
    /// Suffix of the source files.
    #[arg(long, default_value = "en", value_name = "SUFFIX")]
    source_lang: String,
    /// Suffix of the target files.
    #[arg(long, default_value = "fr", value_name = "SUFFIX")]
    target_lang: String,
    /// Print only precision, recall and F1 (without the recall table per document).
    #[arg(long)]
    brief: bool,
}

pub fn run(args: AutoPrfArgs, p: &Printer) -> anyhow::Result<()> {
    let corpus = |stem| AlignedCorpus::from_stem(stem, &args.source_lang, &args.target_lang);
    protest::progress::stage("Reading the document starts", None);
    let documents = DocumentStarts::read(&args.doc_starts)?;
    let scores = autoprf::evaluate(&corpus(&args.reference), &corpus(&args.candidate), &documents)?;
    p.out(scores.report(!args.brief))?;
    Ok(())
}
