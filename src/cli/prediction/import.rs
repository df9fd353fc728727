//! `protest prediction import MASTER PRED --name NAME`: a classifier's predictions for the
//! master's extracted set, added to the master as a system.

use crate::cli::masters::{leave_to_exit, with_master};
use crate::cli::prediction::unmappable::list_unmappable;
use crate::cli::printer::Printer;
use protest::prediction::{Pair, Scorer, extract, import};
use protest::store::master_file;
use protest::workflow;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The master the set was extracted from; changed in place (atomically) only when
    /// everything checks out.
    master: PathBuf,
    /// The predictions: the task's layout, one line per line of the extracted set (only the
    /// first two columns are used; the third, if there, must be the set's source sentence).
    predictions: PathBuf,
    /// Name of the new system; must not be in use in the master.
    #[arg(long)]
    name: String,
    /// The classes the set was extracted with (default: as `extract`).
    #[arg(long)]
    scorer: Option<Scorer>,
    /// Language pair (default: the master's languages).
    #[arg(long)]
    pair: Option<Pair>,
}

pub fn run(args: ImportArgs, p: &Printer) -> anyhow::Result<()> {
    // Everything that can fail on the inputs happens before the master is opened for writing.
    let master = master_file::load(&args.master)?;
    let task =
        extract::task_of(&master, args.scorer, args.pair).map_err(|m| protest::Error::whole_file(&args.master, m))?;
    let imported = import::prepare(&master, &args.master, task, &args.name, &args.predictions)?;
    leave_to_exit(master);
    let report = imported.system.report();
    let official = imported.scores.official();
    let (placed, changed, unmappable) = (imported.placed, imported.changed, imported.unmappable);
    let corpus = with_master(p, &args.master, |store| Ok(workflow::add_system::run(store, imported.system)?))?;
    p.say(format_args!("added system '{}' to {} as corpus {corpus}", args.name, args.master.display()))?;
    p.say(format_args!(
        "  {placed} examples with the predicted word ({changed} differing from the reference), {} without",
        unmappable.len()
    ))?;
    p.say(format_args!("  official score on the master's set ({task}): {official:.2}%"))?;
    for line in report.lines(0.0).iter().filter(|l| !l.starts_with("alignment")) {
        p.say(format_args!("  {line}"))?;
    }
    list_unmappable(p, &unmappable, "without a candidate")?;
    p.say(format_args!(
        "next: `protest auto-eval {}` matches its candidates against the reference",
        args.master.display()
    ))?;
    Ok(())
}
