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
mod printer;
mod progress;
mod report;
mod sample;
mod serve;
mod suite;
mod synth;

pub use printer::Printer;

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

/// What a command prints on stdout: text to read, or JSON for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Output {
    Text,
    Json,
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
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut <Args as clap::CommandFactory>::command(), "protest", &mut script);
            p.out(String::from_utf8_lossy(&script))
        }
        Command::Man(args) => man::run(args, p),
    }
}

/// Runs `work` on a master opened for changing (refused, with nothing changed, if another
/// PROTEST window has it open or it is read-only), and closes it whatever happens, so no lock is
/// left beside it, nor a journal but a large master's roster changes ([`workflow::on_master`]).
/// Succeeds exactly when the change is committed; what opening set aside is a warning, and the
/// last line says when the change is left in the journal, and why if the closing fold failed.
pub fn with_master<T>(
    p: &Printer,
    path: &Path,
    work: impl FnOnce(&mut Store<Master>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
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
        p.warn(note);
    }
    say_what_is_left(p, path, &done)?;
    Ok(done.value)
}

/// The change is committed; if its journal stays beside the master (a large master's roster
/// change, or a fold that failed), a user who copies the master alone would lose it: say so,
/// last, and why the fold failed if it did.
fn say_what_is_left<T>(p: &Printer, master: &Path, done: &workflow::Done<T>) -> anyhow::Result<()> {
    let why = done.fold_failed.as_deref();
    match &done.journal_left {
        Some(journal) => p.say(format_args!(
            "{} holds this change until {} is next written in full (by a command such as `batch import`, or by \
             closing it in the app): copy or move the two files together{}",
            journal.display(),
            master.display(),
            why.map(|e| format!(" (writing it in full now failed: {e})")).unwrap_or_default()
        )),
        None => match why {
            Some(e) => p.say(format_args!("the change is saved in {}, but closing it failed: {e}", master.display())),
            None => Ok(()),
        },
    }
}

/// A master as a command that only reads it sees it: with its journal's changes, and a warning
/// on stderr when the journal's last change was cut short or the journal was set aside.
pub fn read_master(p: &Printer, path: &Path) -> anyhow::Result<Master> {
    let (master, replay) = protest::store::load_with_journal::<Master>(path)?;
    warn_about_journal(p, path, &replay);
    Ok(master)
}

/// What a reader set aside of the journal beside `master`, as a warning.
pub fn warn_about_journal(p: &Printer, master: &Path, replay: &protest::store::journal::Replay) {
    if let Some(note) = replay.note(&protest::store::journal::path_for(master)) {
        p.warn(note);
    }
}

/// Leaves a value that the command is done with to the end of the process instead of freeing it:
/// the command returns and the process exits, which gives all its memory back at once, whereas
/// freeing a 100× master piece by piece (millions of allocations) took a tenth of a second. For
/// values that own nothing but memory (a master; never a store, whose closing releases its lock).
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}

/// The time to record: `--created` when given (checked, as the clock is, to be in the years a
/// file holds), else the clock's time, refused when the clock is set outside them.
pub fn created(given: Option<chrono::DateTime<chrono::Utc>>) -> anyhow::Result<chrono::DateTime<chrono::Utc>> {
    use protest::model::clock;
    match given {
        Some(t) if clock::in_range(t) => Ok(t),
        Some(t) => anyhow::bail!("--created {}: a time in the years 1970–9999 is needed", t.to_rfc3339()),
        None => Ok(clock::now()?),
    }
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
    printer: Printer,
}

impl OutputFolder {
    pub fn make(p: &Printer, dir: &Path) -> anyhow::Result<OutputFolder> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        let mut folder = OutputFolder { made: Vec::new(), printer: p.clone() };
        for at in missing.into_iter().rev() {
            std::fs::create_dir(&at).map_err(|e| Error::io(&at, e))?;
            folder.made.push(at);
        }
        if !folder.made.is_empty() {
            p.say(format_args!("created the folder {}", dir.display()))?;
        }
        Ok(folder)
    }

    /// [`OutputFolder::make`] for the folder of an output file.
    pub fn of(p: &Printer, file: &Path) -> anyhow::Result<OutputFolder> {
        match file.parent() {
            Some(dir) => OutputFolder::make(p, dir),
            None => Ok(OutputFolder { made: Vec::new(), printer: p.clone() }),
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
            self.printer.note(format_args!("removed the folder {} again: nothing was written into it", dir.display()));
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
