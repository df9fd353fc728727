//! `protest apt CONFIG [--output STEM]`: APT with the reference tool's configuration file.

use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use anyhow::Context;
use protest::scorers::apt::{AptConfig, run::output_paths};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct AptArgs {
    /// The configuration file, in the format of APT's reference implementation.
    config: PathBuf,
    /// Write STEM.score and STEM.detail (default: [output] output_file, next to the config); the
    /// folder is created if it is not there.
    #[arg(long, short, value_name = "STEM")]
    output: Option<PathBuf>,
}

pub fn run(args: AptArgs, p: &Printer) -> anyhow::Result<()> {
    let config = AptConfig::read(&args.config)?;
    for warning in &config.warnings {
        p.warn(format_args!("{}: {warning}", args.config.display()));
    }
    let stem = args.output.or_else(|| config.output.clone()).with_context(|| {
        format!("{}: [output] output_file is empty; set it or give --output STEM", args.config.display())
    })?;
    let folder = OutputFolder::of(p, &stem)?;
    protest::progress::stage("Reading the word lists", None);
    let outcome = protest::workflow::metrics::apt(&config, &stem)?;
    folder.keep();
    let (score, detail) = output_paths(&stem);
    p.say(outcome.score_text(0).lines().next().unwrap_or_default())?;
    p.say(format_args!("{} instances; wrote {} and {}", outcome.instances, score.display(), detail.display()))?;
    Ok(())
}
