//! `protest prediction extract MASTER -o SET.data`: the master's examples as a prediction test
//! set, with its `.doc-ids`.

use crate::cli::prediction::unmappable::list_unmappable;
use crate::cli::printer::Printer;
use protest::model::Master;
use protest::prediction::{Pair, Scorer, extract};
use protest::store::load_with_journal;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ExtractArgs {
    /// The master file.
    master: PathBuf,
    /// The data file to write (the task's five columns); NAME.doc-ids is written beside it.
    #[arg(long, short, value_name = "SET.data")]
    output: PathBuf,
    /// Whose classes to write: discomt2015 (default for en-fr; its classes are words of wmt16
    /// too) or wmt16.
    #[arg(long)]
    scorer: Option<Scorer>,
    /// Language pair (default: the master's languages).
    #[arg(long)]
    pair: Option<Pair>,
    /// Replace the files if they exist.
    #[arg(long)]
    force: bool,
}

pub fn run(args: ExtractArgs, p: &Printer) -> anyhow::Result<()> {
    let master = load_with_journal::<Master>(&args.master)?.0;
    let task =
        extract::task_of(&master, args.scorer, args.pair).map_err(|e| protest::Error::whole_file(&args.master, e))?;
    let set = extract::extract(&master, task).map_err(|e| protest::Error::whole_file(&args.master, e))?;
    let ids = extract::write(&protest::store::disk::Os, &set, &args.output, args.force, &args.master)?;
    p.say(format_args!(
        "wrote {} ({} lines, {} placeholders, {task} classes) and {}",
        args.output.display(),
        set.lines.len(),
        set.placed.len(),
        ids.display()
    ))?;
    list_unmappable(p, &set.unmappable, "left out")?;
    Ok(())
}
