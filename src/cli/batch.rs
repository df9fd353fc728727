use super::{InFile, with_master};
use anyhow::bail;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand};
use protest::Error;
use protest::batches::plan::{PlanError, Request};
use protest::model::{CorpusId, Master};
use protest::workflow::{self, adjudication::Adjudicating, export::Exporting, task_sets::Planning};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct BatchArgs {
    #[command(subcommand)]
    command: BatchCommand,
}

#[derive(Debug, Subcommand)]
enum BatchCommand {
    /// Plan a task set: an IAA sample for every annotator and the rest split evenly.
    Plan(PlanArgs),
    /// Write one batch file per annotator of a task set.
    Export(ExportArgs),
    /// Merge annotated batches back into their master.
    Import(ImportArgs),
    /// Give the candidates annotators disagree on to a further annotator, as a batch.
    Adjudicate(AdjudicateArgs),
    /// Remove a task set that no batch was exported from.
    Remove(RemoveArgs),
}

#[derive(Debug, Args)]
struct PlanArgs {
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
    #[arg(long, default_value = "")]
    name: String,
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

#[derive(Debug, Args)]
struct RemoveArgs {
    master: PathBuf,
    /// The task set to remove.
    #[arg(long, value_name = "ID")]
    task_set: u32,
}

#[derive(Debug, Args)]
struct ExportArgs {
    master: PathBuf,
    /// The task set to export.
    #[arg(long, value_name = "ID")]
    task_set: u32,
    /// Who gets each part, in part order ("1", "2", …); added to the master if new. Default: the
    /// annotators the parts already have, then the master's annotators without a part of the
    /// task set, in order (refused if there are too few).
    #[arg(long = "annotator", value_name = "NAME")]
    annotators: Vec<String>,
    /// Where to write the batches (default: the master's folder).
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
    master: PathBuf,
    /// The annotated batch files.
    #[arg(required = true)]
    batches: Vec<PathBuf>,
    /// Replace existing records of the same annotator and candidate when the batch differs.
    #[arg(long)]
    yes: bool,
}

#[derive(Debug, Args)]
struct AdjudicateArgs {
    master: PathBuf,
    /// The further annotator who adjudicates (added to the master if new).
    #[arg(long, value_name = "NAME")]
    annotator: String,
    /// Where to write the batch (default: the master's folder).
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,
    /// Seed of the batch's presentation order (default: a random one).
    #[arg(long)]
    seed: Option<u64>,
    /// Name of the task set (default: "Adjudication by NAME").
    #[arg(long, default_value = "")]
    name: String,
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

pub fn run(args: BatchArgs) -> anyhow::Result<()> {
    match args.command {
        BatchCommand::Plan(a) => plan_task_set(a),
        BatchCommand::Export(a) => export_batches(a),
        BatchCommand::Import(a) => import_batches(a),
        BatchCommand::Adjudicate(a) => adjudicate(a),
        BatchCommand::Remove(a) => remove_task_set(a),
    }
}

fn plan_task_set(a: PlanArgs) -> anyhow::Result<()> {
    with_master(&a.master, |store| {
        let m = store.master();
        let seed = a.seed.unwrap_or_else(|| u64::from(rand::random::<u32>()));
        let mut request = Request::everything(m, a.annotators, a.iaa, seed);
        request.name = a.name.clone();
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
            created: a.created.unwrap_or_else(Utc::now),
        };
        let planned = workflow::task_sets::preview(m, &planning).map_err(|e| match e {
            PlanError::NoMatchYet => {
                anyhow::anyhow!("{}: {e}; run `protest auto-eval` on it first", a.master.display())
            }
            PlanError::NameTaken { .. } => anyhow::anyhow!("{}: {e} with --replace", a.master.display()),
            e => Error::refused(&a.master, e).into(),
        })?;
        let ts = &planned.plan.task_set;
        println!(
            "{} (id {}): seed {}, {} annotators, IAA sample of {} requested",
            ts.name, ts.id, ts.seed, ts.annotators, ts.iaa_size
        );
        print!("{}", planned.plan.summary);
        if a.dry_run {
            println!("dry run: nothing stored");
            return Ok(());
        }
        let stored = workflow::commit(store, workflow::task_sets::stage(store, planned))?;
        let (id, master) = (stored.plan.task_set.id, a.master.display());
        let how = if stored.replaces.is_some() { "replaced task set" } else { "stored as task set" };
        println!("{how} {id} in {master}; write the batches with `protest batch export {master} --task-set {id}`");
        Ok(())
    })
}

fn remove_task_set(a: RemoveArgs) -> anyhow::Result<()> {
    let removed = with_master(&a.master, |store| Ok(workflow::task_sets::remove(store, a.task_set)?))?;
    println!("removed task set {} '{}' from {}", removed.id, removed.name, a.master.display());
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

fn export_batches(a: ExportArgs) -> anyhow::Result<()> {
    with_master(&a.master, |store| {
        let exporting = Exporting {
            task_set: a.task_set,
            names: a.annotators.clone(),
            folder: output_dir(&a.master, a.output_dir.as_deref()),
            replace: a.force,
            created: a.created.unwrap_or_else(Utc::now),
        };
        let exported = workflow::export::run(store, &exporting)?;
        if let Some(chosen) = &exported.chosen {
            println!("no --annotator given: {chosen}");
        }
        for f in &exported.files {
            println!(
                "wrote {} ({}: {} candidates, {} records)",
                f.path.display(),
                f.annotator,
                f.candidates,
                f.records
            );
        }
        Ok(())
    })
}

fn output_dir(master: &Path, chosen: Option<&Path>) -> PathBuf {
    match chosen {
        Some(dir) => dir.to_path_buf(),
        None => master.parent().map(Path::to_path_buf).unwrap_or_default(),
    }
}

fn import_batches(a: ImportArgs) -> anyhow::Result<()> {
    // Read the batches before touching the master: a wrong file must not leave anything behind.
    let incoming = workflow::merge::read(&a.batches)?;
    with_master(&a.master, |store| {
        let prepared = workflow::merge::prepare(store, &incoming)?;
        for r in &prepared.outcome.reports {
            println!(
                "{} ({}, task set {}): {} records: {} new, {} replacing different ones, {} already in the master",
                r.path.display(),
                r.annotator,
                r.task_set,
                r.records,
                r.new,
                r.replaced,
                r.unchanged
            );
        }
        if prepared.outcome.is_empty() {
            println!("nothing to merge: {} already has all these records", a.master.display());
            return Ok(());
        }
        let asks = prepared.outcome.replaced() > 0 && !a.yes;
        let merged = workflow::merge::commit(store, prepared, a.yes).map_err(|e| match e {
            Error::Refused { .. } if asks => anyhow::anyhow!("{e}. Run again with --yes to replace them"),
            e => e.into(),
        })?;
        println!("merged {} records into {}", merged.written(), a.master.display());
        Ok(())
    })
}

fn adjudicate(a: AdjudicateArgs) -> anyhow::Result<()> {
    with_master(&a.master, |store| {
        let adjudicating = Adjudicating {
            name: a.annotator.clone(),
            task_set_name: a.name.clone(),
            seed: a.seed.unwrap_or_else(|| u64::from(rand::random::<u32>())),
            folder: output_dir(&a.master, a.output_dir.as_deref()),
            replace: a.force,
            created: a.created.unwrap_or_else(Utc::now),
        };
        let (planned, _) = workflow::adjudication::preview(store.master(), &adjudicating).in_file(&a.master)?;
        let ts = &planned.task_set;
        println!(
            "{} (id {}): {} candidates with disagreements, seed {}",
            ts.name,
            ts.id,
            ts.tasks[0].candidates.len(),
            adjudicating.seed
        );
        print!("{}", planned.summary);
        if a.dry_run {
            println!("dry run: nothing stored or written");
            return Ok(());
        }
        let done = workflow::adjudication::run(store, &adjudicating)?;
        let f = &done.file;
        println!("wrote {} ({}: {} candidates)", f.path.display(), f.annotator, f.candidates);
        Ok(())
    })
}
