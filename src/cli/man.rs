//! `protest man [--output DIR]`: the manual page, made by clap_mangen from the same argument
//! definitions as `--help` and the completions, so it is never out of date.

use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write protest.1 and a page per command (protest-batch-export.1 …) to this folder instead
    /// of printing protest.1; it is created if it is not there.
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
}

/// Prints or writes the pages of `command` (the whole command line's definitions).
pub fn run(args: ManArgs, command: clap::Command, p: &Printer) -> anyhow::Result<()> {
    match args.output {
        None => clap_mangen::Man::new(command).render(&mut p.stdout())?,
        Some(dir) => {
            let folder = OutputFolder::make(p, &dir)?;
            clap_mangen::generate_to(command, &dir).map_err(|e| protest::Error::io(&dir, e))?;
            folder.keep();
            let mut pages: Vec<_> = std::fs::read_dir(&dir)?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            pages.retain(|p| p.extension().is_some_and(|x| x == "1"));
            pages.sort();
            p.say(format_args!("wrote {} pages in {}", pages.len(), dir.display()))?;
        }
    }
    Ok(())
}
