use super::with_master;
use anyhow::bail;
use chrono::{DateTime, Utc};
use clap::Args;
use protest::legacy::{self, Converted, Options, Reference};
use protest::summary::Summary;
use protest::{batch, master_file};
use std::path::{Path, PathBuf};

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
    /// Replace NEW if it exists.
    #[arg(long)]
    force: bool,
    /// Creation time to record instead of now (RFC 3339), to convert identically again.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

pub fn run(a: ConvertArgs) -> anyhow::Result<()> {
    if a.new.exists() && !a.force {
        bail!("{} already exists; use --force to replace it", a.new.display());
    }
    if same_file(&a.old, &a.new) || a.master.as_deref().is_some_and(|m| same_file(m, &a.new) || same_file(m, &a.old)) {
        bail!("the old file, the new file and the master must be three different files");
    }
    let reference = match (a.reference, a.no_reference) {
        (Some(name), _) => Reference::Named(name),
        (None, true) => Reference::None,
        (None, false) => Reference::Guess,
    };
    let now = a.created.unwrap_or_else(Utc::now);
    let Some(master_path) = a.master else {
        let options = Options { reference, master: None, now };
        let Converted::Master { master, report } = legacy::convert(&a.old, &options)? else {
            unreachable!("a batch without a master is refused");
        };
        master_file::save(&master, &a.new)?;
        print!("{report}");
        println!("wrote {}", a.new.display());
        print!("{}", Summary::of(&master));
        return Ok(());
    };
    with_master(&master_path, |store| {
        let options = Options { reference, master: Some(store.master()), now };
        let (batch, placement, report) = match legacy::convert(&a.old, &options)? {
            Converted::Batch { batch, placement, report } => (batch, placement, report),
            Converted::Master { .. } => {
                bail!("{} is an old master, not a batch: convert it without --master", a.old.display())
            }
        };
        print!("{report}");
        if placement.changes_master() {
            let what = placement.describe(store.master());
            store.update(|m| {
                placement.apply(m);
                Ok(())
            })?;
            println!("updated {}: {what}", master_path.display());
        }
        batch::save(&batch, &a.new)?;
        println!(
            "wrote {} ({}: {} candidates, {} records)",
            a.new.display(),
            batch.annotator().name,
            batch.order().len(),
            batch.content().records.len()
        );
        Ok(())
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
