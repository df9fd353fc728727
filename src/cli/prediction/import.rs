//! `protest prediction import`.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The master file.
    master: PathBuf,
}

pub fn run(args: ImportArgs) -> anyhow::Result<()> {
    anyhow::bail!("{}: protest prediction import is not built yet", args.master.display())
}
