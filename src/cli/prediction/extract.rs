//! `protest prediction extract`.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ExtractArgs {
    /// The master file.
    master: PathBuf,
}

pub fn run(args: ExtractArgs) -> anyhow::Result<()> {
    anyhow::bail!("{}: protest prediction extract is not built yet", args.master.display())
}
