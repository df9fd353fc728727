//! `protest sample [DIR]`: the sample master and its two annotated batches, built into the
//! program, written into a folder — to try the tool, and the README's walk-through, without the
//! source tree.

use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use protest::store::disk::Os;
use protest::{sample, workflow};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct SampleArgs {
    /// The folder to write into; it is created if it is not there.
    #[arg(default_value = "protest-sample")]
    dir: PathBuf,
    /// Replace the sample's files if they are there.
    #[arg(long)]
    force: bool,
}

pub fn run(args: SampleArgs, p: &Printer) -> anyhow::Result<()> {
    let paths: Vec<PathBuf> = sample::files().map(|(name, _)| args.dir.join(name)).collect();
    if let Some(path) = paths.iter().find(|path| !args.force && std::fs::symlink_metadata(path).is_ok()) {
        return Err(protest::Error::Exists { path: path.clone() }.into());
    }
    let folder = OutputFolder::make(p, &args.dir)?;
    let master = workflow::sample::write_into(&Os, &args.dir)?;
    folder.keep();
    for path in &paths {
        p.say(format_args!("wrote {}", path.display()))?;
    }
    p.say(format_args!("open it with `protest open {}`", master.display()))
}
