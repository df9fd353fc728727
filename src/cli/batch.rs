use crate::cli::in_file::InFile;
use crate::cli::masters::with_master;
use crate::cli::options::created;
use crate::cli::printer::Printer;
use anyhow::bail;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand};
use protest::Error;
use protest::batches::plan::{PlanError, Request};
use protest::model::{CorpusId, Master, Planner};
use protest::store::journal::Entry;
use protest::web::receipts::Receipts;
use protest::web::unsent::{self, Unsent};
use protest::workflow::{self, adjudication::Adjudicating, export::Exporting, task_sets::Planning};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct BatchArgs {
    #[command(subcommand)]
    command: BatchCommand,
}

#[derive(Debug, Subcommand)]
enum BatchCommand {
    /// Plan a task set: an IAA sample for every annotator and the rest split evenly, per
    /// translation and category.
    Plan(PlanArgs),
    /// Write one batch file per annotator of a task set.
    Export(ExportArgs),
    /// Merge annotated batches back into their master.
    Import(ImportArgs),
    /// Apply the changes a web page could not send (the file its Download gave, when its link no
    /// longer worked): each once, and only on the version of its record it was made on.
    Apply(ApplyArgs),
    /// Give the candidates annotators disagree on to a further annotator, as a batch.
    Adjudicate(AdjudicateArgs),
    /// Remove a task set that no batch was exported from.
    Remove(RemoveArgs),
}

/// The help of every batch command's MASTER.
const MASTER_HELP: &str = "The master file (.json) to change";

#[derive(Debug, Args)]
struct PlanArgs {
    #[arg(help = MASTER_HELP)]
    master: PathBuf,
    /// Number of annotators.
    #[arg(long)]
    annotators: u32,
    /// Size of the inter-annotator agreement sample every annotator gets (0: none).
    #[arg(long, default_value_t = 0)]
    iaa: u32,
    /// Seed of the random draws (default: a random one, printed and stored with the task set).
    #[arg(long)]
    seed: Option<u64>,
    /// A translation corpus to draw from, by name; repeat for several (default: all).
    #[arg(long = "corpus", value_name = "NAME")]
    corpora: Vec<String>,
    /// A category to draw from, by name; repeat for several (default: all).
    #[arg(long = "category", value_name = "NAME")]
    categories: Vec<String>,
    /// Name of the task set (default: "Task set N").
    #[arg(long)]
    name: Option<String>,
    /// How the candidates are dealt out: `balanced` per translation and category, or
    /// `round-robin` per category, as earlier versions did (to make one of their task sets
    /// again from its seed).
    #[arg(long, value_enum, default_value_t = PlannerArg::Balanced)]
    planner: PlannerArg,
    /// Only candidates that still need a human: those the latest automatic reference match
    /// (`protest auto-eval`) did not settle.
    #[arg(long)]
    only_needing_human: bool,
    /// Replace the task set of the same name, if no batch was exported from it (keeping its id).
    #[arg(long)]
    replace: bool,
    /// Only show the counts; store nothing.
    #[arg(long)]
    dry_run: bool,
    /// Creation time to record instead of now (RFC 3339), to rebuild a task set identically.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

/// `--planner`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PlannerArg {
    Balanced,
    RoundRobin,
}

impl From<PlannerArg> for Planner {
    fn from(p: PlannerArg) -> Planner {
        match p {
            PlannerArg::Balanced => Planner::Balanced,
            PlannerArg::RoundRobin => Planner::RoundRobin,
        }
    }
}

#[derive(Debug, Args)]
struct RemoveArgs {
    #[arg(help = MASTER_HELP)]
    master: PathBuf,
    /// The task set to remove.
    #[arg(long, value_name = "ID")]
    task_set: u32,
}

#[derive(Debug, Args)]
struct ExportArgs {
    #[arg(help = MASTER_HELP)]
    master: PathBuf,
    /// The task set to export.
    #[arg(long, value_name = "ID")]
    task_set: u32,
    /// Who gets each part, in part order ("1", "2", …); added to the master if new. Default: the
    /// annotators the parts already have, then the master's annotators without a part of the
    /// task set, in order (refused if there are too few).
    #[arg(long = "annotator", value_name = "NAME")]
    annotators: Vec<String>,
    /// Where to write the batches (default: the master's folder); created if it is not there.
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,
    /// Replace batch files that exist.
    #[arg(long)]
    force: bool,
    /// Creation time to record instead of now (RFC 3339), to rebuild batches identically.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

#[derive(Debug, Args)]
struct ImportArgs {
    #[arg(help = MASTER_HELP)]
    master: PathBuf,
    /// The annotated batch files.
    #[arg(required = true)]
    batches: Vec<PathBuf>,
    /// Replace existing records of the same annotator and candidate when the batch differs.
    #[arg(long)]
    yes: bool,
}

#[derive(Debug, Args)]
#[command(after_help = "The file is what the web page of `protest serve` offers when the server no longer knows its \
link (docs/serve.md, \"A link that no longer works\"). Each change is taken as the server takes it: a change the \
server stored before is not applied again, and one made on a record that changed since is not stored over it — \
both versions are listed, and --over-newer stores the file's. Stop `protest serve` first: it holds the master.")]
struct ApplyArgs {
    #[arg(help = MASTER_HELP)]
    master: PathBuf,
    /// The files of changes not sent (`…-unsent-….json`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also store the changes made on records that changed since, over those records.
    #[arg(long)]
    over_newer: bool,
}

#[derive(Debug, Args)]
struct AdjudicateArgs {
    #[arg(help = MASTER_HELP)]
    master: PathBuf,
    /// The further annotator who adjudicates (added to the master if new).
    #[arg(long, value_name = "NAME")]
    annotator: String,
    /// Where to write the batch (default: the master's folder); created if it is not there.
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,
    /// Seed of the batch's presentation order (default: a random one).
    #[arg(long)]
    seed: Option<u64>,
    /// Name of the task set (default: "Adjudication by NAME").
    #[arg(long)]
    name: Option<String>,
    /// Only show what would be adjudicated; store and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Replace a batch file that exists.
    #[arg(long)]
    force: bool,
    /// Creation time to record instead of now (RFC 3339).
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

pub fn run(args: BatchArgs, p: &Printer) -> anyhow::Result<()> {
    match args.command {
        BatchCommand::Plan(a) => plan_task_set(a, p),
        BatchCommand::Export(a) => export_batches(a, p),
        BatchCommand::Import(a) => import_batches(a, p),
        BatchCommand::Apply(a) => apply_unsent(a, p),
        BatchCommand::Adjudicate(a) => adjudicate(a, p),
        BatchCommand::Remove(a) => remove_task_set(a, p),
    }
}

fn plan_task_set(a: PlanArgs, p: &Printer) -> anyhow::Result<()> {
    with_master(p, &a.master, |store| {
        let m = store.master();
        let seed = a.seed.unwrap_or_else(|| u64::from(rand::random::<u32>()));
        let mut request = Request::everything(m, a.annotators, a.iaa, seed);
        request.name = a.name.clone().unwrap_or_default();
        request.planner = a.planner.into();
        if !a.corpora.is_empty() {
            request.corpora =
                a.corpora.iter().map(|name| corpus_named(m, &a.master, name)).collect::<anyhow::Result<_>>()?;
        }
        if !a.categories.is_empty() {
            request.categories = a.categories.clone();
        }
        let planning = Planning {
            request,
            only_needing_human: a.only_needing_human,
            replace: a.replace,
            created: created(a.created)?,
        };
        let planned = workflow::task_sets::preview(m, &planning).map_err(|e| match e {
            PlanError::NoMatchYet => {
                anyhow::anyhow!("{}: {e}; run `protest auto-eval` on it first", a.master.display())
            }
            PlanError::NameTaken { .. } => anyhow::anyhow!("{}: {e} with --replace", a.master.display()),
            PlanError::UnknownCategory(_) => {
                let known: Vec<&str> = m.categories.iter().map(|c| c.name.as_str()).collect();
                anyhow::anyhow!("{}: {e}; the categories are: {}", a.master.display(), known.join(", "))
            }
            e => Error::refused(&a.master, e).into(),
        })?;
        let ts = &planned.plan.task_set;
        p.say(format_args!(
            "task set {} '{}': seed {}, {} annotators, IAA sample of {} requested, {} planner",
            ts.id,
            ts.name,
            ts.seed,
            ts.annotators,
            ts.iaa_size,
            ts.planner.name()
        ))?;
        p.say(&planned.plan.summary)?;
        if a.dry_run {
            p.say(format_args!("dry run: nothing stored"))?;
            return Ok(());
        }
        let stored = workflow::commit(store, workflow::task_sets::stage(store, planned))?;
        let (id, master) = (stored.plan.task_set.id, a.master.display());
        let how = if stored.replaces.is_some() { "replaced task set" } else { "stored as task set" };
        p.say(format_args!(
            "{how} {id} in {master}; write the batches with `protest batch export {master} --task-set {id}`"
        ))?;
        Ok(())
    })
}

fn remove_task_set(a: RemoveArgs, p: &Printer) -> anyhow::Result<()> {
    let removed = with_master(p, &a.master, |store| Ok(workflow::task_sets::remove(store, a.task_set)?))?;
    p.say(format_args!("removed task set {} '{}' from {}", removed.id, removed.name, a.master.display()))?;
    Ok(())
}

fn corpus_named(m: &Master, path: &Path, name: &str) -> anyhow::Result<CorpusId> {
    match m.translations().find(|c| c.name == name) {
        Some(c) => Ok(c.id),
        None => {
            let known: Vec<_> = m.translations().map(|c| c.name.as_str()).collect();
            bail!("{}: no translation corpus '{name}' (there are: {})", path.display(), known.join(", "))
        }
    }
}

fn export_batches(a: ExportArgs, p: &Printer) -> anyhow::Result<()> {
    with_master(p, &a.master, |store| {
        let exporting = Exporting {
            task_set: a.task_set,
            names: a.annotators.clone(),
            folder: a.output_dir.clone().unwrap_or_else(|| workflow::default_folder(&a.master)),
            replace: a.force,
            created: created(a.created)?,
        };
        let exported = workflow::export::run(store, &exporting)?;
        say_created(p, exported.created_folder.as_deref())?;
        if let Some(chosen) = &exported.chosen {
            p.say(format_args!("no --annotator given: {chosen}"))?;
        }
        for f in &exported.files {
            p.say(format_args!("wrote {f}"))?;
        }
        Ok(())
    })
}

fn say_created(p: &Printer, folder: Option<&Path>) -> anyhow::Result<()> {
    match folder {
        Some(folder) => p.say(format_args!("created the folder {}", folder.display())),
        None => Ok(()),
    }
}

fn import_batches(a: ImportArgs, p: &Printer) -> anyhow::Result<()> {
    // Read the batches before touching the master: a wrong file must not leave anything behind.
    let incoming = workflow::merge::read(&a.batches)?;
    with_master(p, &a.master, |store| {
        let prepared = workflow::merge::prepare(store, &incoming)?;
        for r in &prepared.outcome.reports {
            let blank = match r.blank {
                0 => String::new(),
                n => format!(", {n} blank (nothing entered: skipped)"),
            };
            p.say(format_args!(
                "{} ({}, task set {}): {}: {} new, {} replacing different ones, {} already in the master{blank}",
                r.path.display(),
                r.annotator,
                r.task_set,
                records(r.records),
                r.new,
                r.replaced,
                r.unchanged
            ))?;
        }
        if prepared.outcome.is_empty() {
            p.say(format_args!("nothing to merge: {} already has all these records", a.master.display()))?;
            return Ok(());
        }
        let asks = prepared.outcome.replaced() > 0 && !a.yes;
        let merged = workflow::merge::commit(store, prepared, a.yes).map_err(|e| match e {
            Error::Refused { .. } if asks => anyhow::anyhow!("{e}. Run again with --yes to replace them"),
            e => e.into(),
        })?;
        p.say(format_args!("merged {} into {}", records(merged.written()), a.master.display()))?;
        Ok(())
    })
}

fn apply_unsent(a: ApplyArgs, p: &Printer) -> anyhow::Result<()> {
    // Read every file before touching the master: a wrong one must not leave anything behind.
    let files = a.files.iter().map(|f| Ok((f, Unsent::read(f)?))).collect::<Result<Vec<_>, Error>>()?;
    with_master(p, &a.master, |store| {
        let id = store.master().id.clone();
        let mut receipts = Receipts::open(&*store.disk(), &a.master, &id)?;
        for (path, unsent) in &files {
            let applied = unsent::apply(store, &mut receipts, path, unsent, a.over_newer)?;
            p.say(format_args!(
                "{} ({}, task set {}): {} stored, {} stored before, {} made on records changed since, {} refused",
                path.display(),
                unsent.annotator.name,
                unsent.task_set,
                applied.stored,
                applied.before,
                applied.conflicts.len(),
                applied.refused.len()
            ))?;
            let master = store.master();
            let version = |r: &Option<protest::model::Record>| match r {
                Some(r) => protest::session::recovery::describe(&Entry::Put(r.clone()), master),
                None => "no record".to_owned(),
            };
            for d in &applied.conflicts {
                let kept = if applied.replaced {
                    "stored the file's"
                } else {
                    "kept the master's (--over-newer stores the file's)"
                };
                p.say(format_args!(
                    "  the master had {}; the file: {}; {kept}",
                    version(&d.stored),
                    version(&d.proposed)
                ))?;
            }
            for why in &applied.refused {
                p.say(format_args!("  refused: {why}"))?;
            }
        }
        Ok(())
    })
}

/// "1 record", "3 records".
fn records(n: usize) -> String {
    if n == 1 { "1 record".to_owned() } else { format!("{n} records") }
}

fn adjudicate(a: AdjudicateArgs, p: &Printer) -> anyhow::Result<()> {
    with_master(p, &a.master, |store| {
        let adjudicating = Adjudicating {
            name: a.annotator.clone(),
            task_set_name: a.name.clone().unwrap_or_default(),
            seed: a.seed.unwrap_or_else(|| u64::from(rand::random::<u32>())),
            folder: a.output_dir.clone().unwrap_or_else(|| workflow::default_folder(&a.master)),
            replace: a.force,
            created: created(a.created)?,
        };
        let (planned, who) = workflow::adjudication::preview(store.master(), &adjudicating).in_file(&a.master)?;
        let ts = &planned.task_set;
        let adjudicator = match store.master().annotator(who) {
            Some(known) => format!("{} (annotator {})", known.name, who),
            None => format!("{} (a new annotator, id {who})", a.annotator.trim()),
        };
        p.say(format_args!(
            "task set {} '{}': {} candidates with disagreements for {adjudicator}, seed {}",
            ts.id,
            ts.name,
            ts.tasks[0].candidates.len(),
            adjudicating.seed
        ))?;
        p.say(&planned.summary)?;
        if a.dry_run {
            p.say(format_args!("dry run: nothing stored or written"))?;
            return Ok(());
        }
        let done = workflow::adjudication::run(store, &adjudicating)?;
        say_created(p, done.created_folder.as_deref())?;
        let f = &done.file;
        p.say(format_args!("wrote {} ({}: {} candidates)", f.path.display(), f.annotator, f.candidates))?;
        Ok(())
    })
}
