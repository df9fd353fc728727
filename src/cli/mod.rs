//! Command-line interface: the commands' arguments and their dispatch, one module per subcommand
//! with its small `run`. What several commands share has modules named for it: [`printer`] (all
//! they print), [`masters`] (a master opened for changing or reading), [`output_folder`],
//! [`options`] (values of shared options) and [`in_file`] (errors naming the master).

mod add_system;
mod annotator;
mod apt;
mod apt_master;
mod auto_eval;
mod autoprf;
mod batch;
mod check;
mod completions;
mod convert;
mod correlate;
mod import;
mod in_file;
mod man;
mod masters;
mod options;
mod output_folder;
mod prediction;
mod printer;
mod progress;
mod report;
mod sample;
mod serve;
mod suite;
mod synth;

use clap::{CommandFactory, Parser, Subcommand};
use options::Output;
use printer::Printer;
use protest::Error;
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
    /// Print only what the command is asked for (tables, reports, JSON) and errors: no progress,
    /// no word on what was done, no warnings.
    #[arg(long, short, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open a master or batch file in the annotation window.
    Open {
        /// The master or batch file (.json) to open; a file of the original PROTEST tool (.db) is
        /// offered for conversion.
        file: PathBuf,
    },
    /// Build a master from a tokenised source, translations, alignments and a test-suite definition.
    Import(Box<import::ImportArgs>),
    /// Public contrastive test suites (DiscEvalMT) as masters, to evaluate what systems write.
    Suite(suite::SuiteArgs),
    /// Validate a master or batch file and print what it contains.
    Check {
        /// The file to check.
        file: PathBuf,
        /// Output format: text, or json for scripts (docs/json-output.md).
        #[arg(long, short, value_enum, default_value_t = Output::Text)]
        format: Output,
    },
    /// Add a new MT system's output to a master: one line per sentence or documents in any layout, cut
    /// into sentences and checked; tokenised, word-aligned, one candidate per example.
    AddSystem(Box<add_system::AddSystemArgs>),
    /// Add, rename, remove or list the annotators of a master.
    Annotator(annotator::AnnotatorArgs),
    /// Task sets and batches: plan, export, import (merge), adjudicate and remove.
    Batch(batch::BatchArgs),
    /// Match every MT translation against the reference and judged translations and, in French,
    /// judge its pronoun by agreement with the antecedent head's translation; store the results.
    AutoEval(auto_eval::AutoEvalArgs),
    /// Print or export the results, agreement, per-system score, automatic-match and APT tables.
    Report(report::ReportArgs),
    /// APT pronoun metric from a configuration file of the reference tool (writes STEM.score, STEM.detail).
    Apt(apt::AptArgs),
    /// APT per system and category of a master (APT-A and APT-B) against the human verdicts: paper 003's tables.
    AptMaster(apt_master::AptMasterArgs),
    /// AutoPRF pronoun precision/recall, as the original scorer (Hardmeier & Federico 2010).
    Autoprf(autoprf::AutoPrfArgs),
    /// Pearson and Spearman correlation between the numeric columns of a CSV file.
    Correlate(correlate::CorrelateArgs),
    /// Convert the original PROTEST tool's SQLite master or annotation batch into our files.
    Convert(convert::ConvertArgs),
    /// Cross-lingual pronoun prediction (DiscoMT 2015, WMT 2016/17): official scores, the
    /// language-model baseline, and a classifier's predictions to and from a master.
    Prediction(prediction::PredictionArgs),
    /// Serve the annotators of a task set their part in the browser, each at a secret link.
    Serve(serve::ServeArgs),
    /// Write the bundled sample master and its two annotated batches into a folder.
    Sample(sample::SampleArgs),
    /// Generate a synthetic master of any size from a real corpus, for benchmarks and scale tests.
    Synth(Box<synth::SynthArgs>),
    /// Print the completion script of a shell (bash, zsh, fish, elvish or powershell) for `protest`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command to a folder.
    Man(man::ManArgs),
}

/// Runs a headless subcommand; errors go to stderr with a non-zero exit code. What the library
/// reports of long work is drawn on stderr when it is a terminal, unless `quiet`.
pub fn run(command: Command, quiet: bool) -> ExitCode {
    let printer = Printer::new(quiet, command.prints_json());
    let result = match printer.bar() {
        Some(bar) => protest::progress::reporting(bar, || run_command(command, &printer)),
        None => run_command(command, &printer),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A file in the way is replaced only when told to: say how.
            let remedy = match e.downcast_ref::<Error>() {
                Some(Error::Exists { .. }) => "; use --force to replace it",
                _ => "",
            };
            printer.error(format_args!("{e:#}{remedy}"));
            ExitCode::FAILURE
        }
    }
}

impl Command {
    /// Whether the command prints a JSON document on stdout (`--format json`, not to files).
    fn prints_json(&self) -> bool {
        match self {
            Command::Check { format, .. } => *format == Output::Json,
            Command::AutoEval(args) => args.prints_json(),
            Command::Report(args) => args.prints_json(),
            Command::AptMaster(args) => args.prints_json(),
            _ => false,
        }
    }
}

fn run_command(command: Command, p: &Printer) -> anyhow::Result<()> {
    match command {
        Command::Open { .. } => unreachable!("the GUI handles open"),
        Command::Import(args) => import::run(*args, p),
        Command::Suite(args) => suite::run(args, p),
        Command::AddSystem(args) => add_system::run(*args, p),
        Command::Check { file, format } => check::run(&file, format, p),
        Command::Annotator(args) => annotator::run(args, p),
        Command::Batch(args) => batch::run(args, p),
        Command::AutoEval(args) => auto_eval::run(args, p),
        Command::Report(args) => report::run(args, p),
        Command::Convert(args) => convert::run(args, p),
        Command::Apt(args) => apt::run(args, p),
        Command::Autoprf(args) => autoprf::run(args, p),
        Command::AptMaster(args) => apt_master::run(args, p),
        Command::Correlate(args) => correlate::run(args, p),
        Command::Prediction(args) => prediction::run(args, p),
        Command::Sample(args) => sample::run(args, p),
        Command::Synth(args) => synth::run(*args, p),
        Command::Serve(args) => serve::run(args, p),
        Command::Completions { shell } => completions::run(shell, Args::command(), p),
        Command::Man(args) => man::run(args, Args::command(), p),
    }
}
