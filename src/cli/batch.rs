use super::{InFile, with_master};
use anyhow::bail;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand};
use protest::batch::{self, export};
use protest::model::{AnnotatorId, CorpusId, Master};
use protest::plan::{self, Request};
use protest::{adjudication, annotators, journal, merge};
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
    /// Only show the counts; store nothing.
    #[arg(long)]
    dry_run: bool,
    /// Creation time to record instead of now (RFC 3339), to rebuild a task set identically.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

#[derive(Debug, Args)]
struct ExportArgs {
    master: PathBuf,
    /// The task set to export.
    #[arg(long, value_name = "ID")]
    task_set: u32,
    /// Who gets each part, in part order ("1", "2", …); added to the master if new. Default: the
    /// annotators the parts already have, or "Annotator 1", "Annotator 2", …
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
        let planned = plan::plan(m, &request, plan::every, a.created.unwrap_or_else(Utc::now)).in_file(&a.master)?;
        let ts = &planned.task_set;
        println!(
            "{} (id {}): seed {}, {} annotators, IAA sample of {} requested",
            ts.name, ts.id, ts.seed, ts.annotators, ts.iaa_size
        );
        print!("{}", planned.summary);
        if a.dry_run {
            println!("dry run: nothing stored");
            return Ok(());
        }
        let id = ts.id;
        store.update(|m| {
            m.task_sets.push(planned.task_set);
            Ok(())
        })?;
        let master = a.master.display();
        println!(
            "stored as task set {id} in {master}; write the batches with `protest batch export {master} --task-set {id}`"
        );
        Ok(())
    })
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
        // Export from a copy first: if a batch cannot be written, the master stays as it was.
        let mut draft = store.master().clone();
        let created = a.created.unwrap_or_else(Utc::now);
        let batches = export::export(&mut draft, a.task_set, &a.annotators, created).in_file(&a.master)?;
        let dir = output_dir(&a.master, a.output_dir.as_deref());
        let files = batches
            .iter()
            .map(|b| target(&draft, &a.master, &dir, a.task_set, b.annotator().id, a.force))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if draft.annotators != store.master().annotators || draft.task_sets != store.master().task_sets {
            store.update(|m| export::assign(m, a.task_set, &a.annotators).map(drop).in_file(&a.master))?;
        }
        for (batch, file) in batches.iter().zip(&files) {
            batch::save(batch, file)?;
            println!(
                "wrote {} ({}: {} candidates, {} records)",
                file.display(),
                batch.annotator().name,
                batch.order().len(),
                batch.content().records.len()
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

/// Where a batch goes: a name made only of safe characters inside `dir`. Refuses to replace a
/// batch without `force`, and always refuses one with changes still in its journal.
fn target(
    master: &Master,
    master_path: &Path,
    dir: &Path,
    task_set: u32,
    who: AnnotatorId,
    force: bool,
) -> anyhow::Result<PathBuf> {
    let master_name = master_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = export::file_name(&master_name, task_set, &master.annotator_name(who), who);
    let path = dir.join(name);
    if journal::path_for(&path).exists() {
        bail!(
            "{} has annotation work not yet saved into it ({} exists): open it in PROTEST and close it, or move both away",
            path.display(),
            journal::path_for(&path).display()
        );
    }
    if path.exists() && !force {
        bail!("{} already exists; use --force to replace it", path.display());
    }
    Ok(path)
}

fn import_batches(a: ImportArgs) -> anyhow::Result<()> {
    // Read the batches before touching the master: a wrong file must not leave anything behind.
    let incoming = a
        .batches
        .iter()
        .map(|path| Ok(merge::Incoming { path: path.clone(), batch: batch::load_current(path)? }))
        .collect::<anyhow::Result<Vec<_>>>()?;
    with_master(&a.master, |store| {
        let prepared = merge::prepare(store.master(), &incoming)?;
        for r in &prepared.reports {
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
        if prepared.is_empty() {
            println!("nothing to merge: {} already has all these records", a.master.display());
            return Ok(());
        }
        let replaced = prepared.replaced();
        if replaced > 0 && !a.yes {
            let older: usize = prepared.reports.iter().map(|r| r.older).sum();
            let older = if older > 0 { format!(" ({older} of them by older ones)") } else { String::new() };
            bail!(
                "{replaced} existing records would be replaced{older}; nothing was changed. Run again with --yes to replace them"
            );
        }
        let written = store.update(|m| Ok(merge::apply(m, &prepared)))?;
        println!("merged {written} records into {}", a.master.display());
        Ok(())
    })
}

fn adjudicate(a: AdjudicateArgs) -> anyhow::Result<()> {
    with_master(&a.master, |store| {
        let mut draft = store.master().clone();
        let who = annotators::find_or_add(&mut draft, &a.annotator).in_file(&a.master)?;
        let seed = a.seed.unwrap_or_else(|| u64::from(rand::random::<u32>()));
        let created = a.created.unwrap_or_else(Utc::now);
        let planned = adjudication::plan(&draft, who, seed, &a.name, created).in_file(&a.master)?;
        let ts = planned.task_set;
        println!(
            "{} (id {}): {} candidates with disagreements, seed {seed}",
            ts.name,
            ts.id,
            ts.tasks[0].candidates.len()
        );
        print!("{}", planned.summary);
        if a.dry_run {
            println!("dry run: nothing stored or written");
            return Ok(());
        }
        draft.task_sets.push(ts.clone());
        draft.reindex();
        let dir = output_dir(&a.master, a.output_dir.as_deref());
        let file = target(&draft, &a.master, &dir, ts.id, who, a.force)?;
        let batch = export::build(&draft, ts.id, who, created).in_file(&a.master)?;
        store.update(|m| {
            annotators::find_or_add(m, &a.annotator).in_file(&a.master)?;
            m.task_sets.push(ts);
            Ok(())
        })?;
        batch::save(&batch, &file)?;
        println!("wrote {} ({}: {} candidates)", file.display(), batch.annotator().name, batch.order().len());
        Ok(())
    })
}
