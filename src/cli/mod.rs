//! Command-line interface: argument definitions and one small function per subcommand.

mod add_system;
mod annotator;
mod apt;
mod apt_master;
mod auto_eval;
mod autoprf;
mod batch;
mod check;
mod convert;
mod correlate;
mod import;
mod man;
mod progress;
mod report;
mod serve;
mod synth;

use clap::{Parser, Subcommand, ValueEnum};
use protest::model::Master;
use protest::store::Store;
use protest::{Error, workflow};
use std::path::Path;
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
    /// Draw no progress on stderr (it is drawn only when stderr is a terminal anyway).
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
    /// Validate a master or batch file and print what it contains.
    Check {
        /// The file to check.
        file: PathBuf,
        /// Output format: text, or json for scripts (docs/json-output.md).
        #[arg(long, short, value_enum, default_value_t = Output::Text)]
        format: Output,
    },
    /// Add a new MT system's output to a master: tokenised, word-aligned, one candidate per example.
    AddSystem(Box<add_system::AddSystemArgs>),
    /// Add, rename or list the annotators of a master.
    Annotator(annotator::AnnotatorArgs),
    /// Task sets and batches: plan, export, import (merge) and adjudicate.
    Batch(batch::BatchArgs),
    /// Match every MT translation against the reference and judged translations; store the results.
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
    /// Serve the annotators of a task set their part in the browser, each at a secret link.
    Serve(serve::ServeArgs),
    /// Generate a synthetic master of any size from a real corpus, for benchmarks and scale tests.
    Synth(Box<synth::SynthArgs>),
    /// Print the completion script of a shell (bash, zsh or fish) for `protest`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command to a folder.
    Man(man::ManArgs),
}

/// What a command prints on stdout: text to read, or JSON for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Output {
    Text,
    Json,
}

/// Prints a JSON document on stdout, pretty, ending with a newline.
pub fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Runs a headless subcommand; errors go to stderr with a non-zero exit code. What the library
/// reports of long work is drawn on stderr when it is a terminal, unless `quiet`.
pub fn run(command: Command, quiet: bool) -> ExitCode {
    quiet_on_broken_pipe();
    let result = match progress::Bar::for_terminal(quiet) {
        Some(bar) => bar.around_stdout(|| protest::progress::reporting(bar.clone(), || run_command(command))),
        None => run_command(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A file in the way is replaced only when told to: say how.
            let remedy = match e.downcast_ref::<Error>() {
                Some(Error::Exists { .. }) => "; use --force to replace it",
                _ => "",
            };
            eprintln!("error: {e:#}{remedy}");
            ExitCode::FAILURE
        }
    }
}

fn run_command(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Open { .. } => unreachable!("the GUI handles open"),
        Command::Import(args) => import::run(*args),
        Command::AddSystem(args) => add_system::run(*args),
        Command::Check { file, format } => check::run(&file, format),
        Command::Annotator(args) => annotator::run(args),
        Command::Batch(args) => batch::run(args),
        Command::AutoEval(args) => auto_eval::run(args),
        Command::Report(args) => report::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Apt(args) => apt::run(args),
        Command::Autoprf(args) => autoprf::run(args),
        Command::AptMaster(args) => apt_master::run(args),
        Command::Correlate(args) => correlate::run(args),
        Command::Synth(args) => synth::run(*args),
        Command::Serve(args) => serve::run(args),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut <Args as clap::CommandFactory>::command(),
                "protest",
                &mut std::io::stdout(),
            );
            Ok(())
        }
        Command::Man(args) => man::run(args),
    }
}

/// Runs `work` on a master opened for changing (refused, with nothing changed, if another
/// PROTEST window has it open or it is read-only), and closes it whatever happens, so no lock is
/// left beside it, nor a journal but a large master's roster changes ([`workflow::on_master`]).
pub fn with_master<T>(path: &Path, work: impl FnOnce(&mut Store<Master>) -> anyhow::Result<T>) -> anyhow::Result<T> {
    let mut failure = None;
    let value = workflow::on_master(path, |store| {
        work(store).map_err(|e| {
            failure = Some(e);
            Error::refused(path, "")
        })
    });
    match (value, failure) {
        (_, Some(e)) => Err(e),
        (value, None) => {
            let value = value?;
            say_journal_left(path);
            Ok(value)
        }
    }
}

/// A large master's roster change stays in its journal until the next full save: a user who
/// copies the master alone would lose it, so the command says so.
fn say_journal_left(master: &Path) {
    let journal = protest::store::journal::path_for(master);
    if journal.exists() {
        println!(
            "{} holds this change until {} is next written in full (by a command such as `batch import`, or by \
             closing it in the app): copy or move the two files together",
            journal.display(),
            master.display()
        );
    }
}

/// Leaves a value that the command is done with to the end of the process instead of freeing it:
/// the command returns and the process exits, which gives all its memory back at once, whereas
/// freeing a 100× master piece by piece (millions of allocations) took a tenth of a second. For
/// values that own nothing but memory (a master; never a store, whose closing releases its lock).
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Library errors about a master's content (a name taken, a task set missing…) become errors
/// naming the master file.
pub trait InFile<T> {
    fn in_file(self, path: &Path) -> Result<T, Error>;
}

impl<T, E: std::fmt::Display> InFile<T> for Result<T, E> {
    fn in_file(self, path: &Path) -> Result<T, Error> {
        self.map_err(|e| Error::whole_file(path, e.to_string()))
    }
}

/// `protest report … | head` should stop quietly when `head` has read enough, like other Unix
/// tools, instead of panicking in `println!`: restore the default SIGPIPE action that the Rust
/// runtime replaces with "ignore".
fn quiet_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; it only resets a signal
    // disposition to the OS default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
