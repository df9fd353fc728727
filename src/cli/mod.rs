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
mod prediction;
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
    /// Add a new MT system's output to a master: one line per sentence or documents in any layout, cut
    /// into sentences and checked; tokenised, word-aligned, one candidate per example.
    AddSystem(Box<add_system::AddSystemArgs>),
    /// Add, rename, remove or list the annotators of a master.
    Annotator(annotator::AnnotatorArgs),
    /// Task sets and batches: plan, export, import (merge), adjudicate and remove.
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
    /// Cross-lingual pronoun prediction (DiscoMT 2015, WMT 2016/17): official scores, the
    /// language-model baseline, and a classifier's predictions to and from a master.
    Prediction(prediction::PredictionArgs),
    /// Serve the annotators of a task set their part in the browser, each at a secret link.
    Serve(serve::ServeArgs),
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
        Command::Prediction(args) => prediction::run(args),
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
/// Succeeds exactly when the change is committed; what opening set aside is a warning, and the
/// last line says when the change is left in the journal, and why if the closing fold failed.
pub fn with_master<T>(path: &Path, work: impl FnOnce(&mut Store<Master>) -> anyhow::Result<T>) -> anyhow::Result<T> {
    let mut failure = None;
    let done = workflow::on_master(path, |store| {
        work(store).map_err(|e| {
            failure = Some(e);
            Error::refused(path, "")
        })
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let done = done?;
    for note in &done.notes {
        eprintln!("warning: {note}");
    }
    say_what_is_left(path, &done);
    Ok(done.value)
}

/// The change is committed; if its journal stays beside the master (a large master's roster
/// change, or a fold that failed), a user who copies the master alone would lose it: say so,
/// last, and why the fold failed if it did.
fn say_what_is_left<T>(master: &Path, done: &workflow::Done<T>) {
    let why = done.fold_failed.as_deref();
    match &done.journal_left {
        Some(journal) => println!(
            "{} holds this change until {} is next written in full (by a command such as `batch import`, or by \
             closing it in the app): copy or move the two files together{}",
            journal.display(),
            master.display(),
            why.map(|e| format!(" (writing it in full now failed: {e})")).unwrap_or_default()
        ),
        None => {
            if let Some(e) = why {
                println!("the change is saved in {}, but closing it failed: {e}", master.display());
            }
        }
    }
}

/// A master as a command that only reads it sees it: with its journal's changes, and a warning
/// on stderr when the journal's last change was cut short or the journal was set aside.
pub fn read_master(path: &Path) -> anyhow::Result<Master> {
    let (master, replay) = protest::store::load_with_journal::<Master>(path)?;
    warn_about_journal(path, &replay);
    Ok(master)
}

/// What a reader set aside of the journal beside `master`, as a warning.
pub fn warn_about_journal(master: &Path, replay: &protest::store::journal::Replay) {
    if let Some(note) = replay.note(&protest::store::journal::path_for(master)) {
        eprintln!("warning: {note}");
    }
}

/// Leaves a value that the command is done with to the end of the process instead of freeing it:
/// the command returns and the process exits, which gives all its memory back at once, whereas
/// freeing a 100× master piece by piece (millions of allocations) took a tenth of a second. For
/// values that own nothing but memory (a master; never a store, whose closing releases its lock).
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// `--format` of the commands printing report tables: text, csv, markdown, latex or json (the
/// extensions txt, md, tex too); listed, so that shells complete them rather than file names.
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = protest::metrics::report::Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    use protest::metrics::report::Format;
    let values = Format::ALL.map(|f| PossibleValue::new(f.name()).alias(f.extension()));
    PossibleValuesParser::new(values).map(|s| s.parse::<Format>().expect("one of the listed formats"))
}

/// The folder a command writes into, made when it was not there (with the folders above it),
/// and said so: the one behaviour of every output folder (`batch export --output-dir` and `batch
/// adjudicate --output-dir` do the same in the library, all or nothing). A command that fails
/// takes back what it made, unless it is no longer empty, and says so too.
#[must_use = "keep it once the files are written, or it is taken back"]
pub struct OutputFolder {
    made: Vec<PathBuf>,
}

impl OutputFolder {
    pub fn make(dir: &Path) -> anyhow::Result<OutputFolder> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        let mut folder = OutputFolder { made: Vec::new() };
        for at in missing.into_iter().rev() {
            std::fs::create_dir(&at).map_err(|e| Error::io(&at, e))?;
            folder.made.push(at);
        }
        if !folder.made.is_empty() {
            println!("created the folder {}", dir.display());
        }
        Ok(folder)
    }

    /// [`OutputFolder::make`] for the folder of an output file.
    pub fn of(file: &Path) -> anyhow::Result<OutputFolder> {
        match file.parent() {
            Some(dir) => OutputFolder::make(dir),
            None => Ok(OutputFolder { made: Vec::new() }),
        }
    }

    /// Keeps the folder: the command wrote its files.
    pub fn keep(mut self) {
        self.made.clear();
    }
}

impl Drop for OutputFolder {
    fn drop(&mut self) {
        let removed = self.made.iter().rev().filter(|dir| std::fs::remove_dir(dir).is_ok()).count();
        if let Some(dir) = self.made.last().filter(|_| removed == self.made.len()) {
            eprintln!("removed the folder {} again: nothing was written into it", dir.display());
        }
    }
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
