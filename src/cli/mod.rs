//! Command-line interface: argument definitions and one small function per subcommand.

mod annotator;
mod batch;
mod check;
mod import;
mod synth;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// PROTEST: annotate and evaluate how machine translation systems translate pronouns.
///
/// Without a subcommand, opens the annotation window on the last file used.
#[derive(Debug, Parser)]
#[command(name = "protest", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open a master or batch file in the annotation window.
    Open {
        /// The master (.json) or batch file to open.
        file: PathBuf,
    },
    /// Build a master from a tokenised source, translations, alignments and a test-suite definition.
    Import(Box<import::ImportArgs>),
    /// Validate a master or batch file and print what it contains.
    Check {
        /// The file to check.
        file: PathBuf,
    },
    /// Add, rename or list the annotators of a master.
    Annotator(annotator::AnnotatorArgs),
    /// Task sets and batches: plan, export, import (merge) and adjudicate.
    Batch(batch::BatchArgs),
    /// Generate a synthetic master of any size from a real corpus, for benchmarks and scale tests.
    Synth(Box<synth::SynthArgs>),
}

/// Runs a headless subcommand; errors go to stderr with a non-zero exit code.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Open { .. } => unreachable!("the GUI handles open"),
        Command::Import(args) => import::run(*args),
        Command::Check { file } => check::run(&file),
        Command::Annotator(args) => annotator::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Synth(args) => synth::run(*args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
