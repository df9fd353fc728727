use crate::cli::masters::with_master;
use crate::cli::options::created;
use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use anyhow::bail;
use chrono::{DateTime, Utc};
use clap::Args;
use protest::ingest::legacy::{self, FileType, Reference, Unknown};
use protest::shell::Shell;
use protest::store::disk::Os;
use protest::store::summary::Summary;
use protest::workflow;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The original PROTEST tool's file (SQLite): a master or an annotation batch.
    old: PathBuf,
    /// Where to write our master or batch file (.json).
    new: PathBuf,
    /// For a batch: the master converted from its old master. It may gain the batch's annotator
    /// and their part of a task set, so that the batch merges into it.
    #[arg(long, value_name = "MASTER.json")]
    master: Option<PathBuf>,
    /// For a master: the translation corpus that is the human reference (default: the one whose
    /// name has the word "ref" or "reference" in it).
    #[arg(long, value_name = "NAME", conflicts_with = "no_reference")]
    reference: Option<String>,
    /// For a master: no translation is the reference; all are MT systems.
    #[arg(long)]
    no_reference: bool,
    /// For a master: whose the rows without an annotator (annotator_id NULL or 0) are: an
    /// annotator added for them (the original's last versions read 0 as a nameless annotator), or
    /// the researcher (one earlier version saved the master's own work as 0).
    #[arg(long, value_name = "WHO", default_value = "annotator", value_parser = ["annotator", "researcher"])]
    unknown_annotator: String,
    /// Replace NEW if it exists.
    #[arg(long)]
    force: bool,
    /// Creation time to record instead of now (RFC 3339), to convert identically again.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

pub fn run(a: ConvertArgs, p: &Printer) -> anyhow::Result<()> {
    let reference = match (a.reference, a.no_reference) {
        (Some(name), _) => Reference::Named(name),
        (None, true) => Reference::None,
        (None, false) => Reference::Guess,
    };
    let now = created(a.created)?;
    let unknown = if a.unknown_annotator == "researcher" { Unknown::Researcher } else { Unknown::Annotator };
    protest::progress::stage(&format!("Converting {}", a.old.display()), None);
    let folder = OutputFolder::of(p, &a.new)?;
    let Some(master_path) = a.master else {
        let converting = workflow::convert::Converting {
            old: &a.old,
            target: &a.new,
            replace: a.force,
            reference,
            unknown,
            shell: Shell::CommandLine,
            now,
        };
        let converted = workflow::convert::master(&Os, &converting)?;
        folder.keep();
        p.say(&converted.report)?;
        p.say(format_args!("wrote {}", a.new.display()))?;
        p.say(Summary::of(&converted.master))?;
        return Ok(());
    };
    if legacy::inspect(&a.old)?.file_type == FileType::Master {
        bail!("{} is an old master, not a batch: convert it without --master", a.old.display());
    }
    with_master(p, &master_path, |store| {
        let converted = workflow::convert::batch(store, &a.old, &a.new, a.force, now)?;
        folder.keep();
        p.say(&converted.report)?;
        if let Some(what) = &converted.placement {
            p.say(format_args!("updated {}: {what}", master_path.display()))?;
        }
        p.say(format_args!("wrote {}", converted.file))?;
        Ok(())
    })
}
