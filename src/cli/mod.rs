//! Command-line interface: argument definitions and one small function per subcommand.

mod apt;
mod apt_master;
mod autoprf;
mod check;
mod correlate;
mod import;

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
    /// APT pronoun metric from a configuration file of the reference tool (writes STEM.score, STEM.detail).
    Apt(apt::AptArgs),
    /// APT per system and category of a master (French preset, APT-A and APT-B), optionally against human judgements.
    AptMaster(apt_master::AptMasterArgs),
    /// Pearson and Spearman correlation between the numeric columns of a CSV file.
    Correlate(correlate::CorrelateArgs),
    /// AutoPRF pronoun precision/recall, as the original scorer (Hardmeier & Federico 2010).
    Autoprf(autoprf::AutoPrfArgs),
    /// Validate a master file and print what it contains.
    Check {
        /// The file to check.
        file: PathBuf,
    },
}

/// Runs a headless subcommand; errors go to stderr with a non-zero exit code.
pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Open { .. } => unreachable!("the GUI handles open"),
        Command::Import(args) => import::run(*args),
        Command::Check { file } => check::run(&file),
        Command::Apt(args) => apt::run(args),
        Command::Autoprf(args) => autoprf::run(args),
        Command::AptMaster(args) => apt_master::run(args),
        Command::Correlate(args) => correlate::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
