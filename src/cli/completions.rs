//! `protest completions SHELL`: the completion script of a shell, made by clap_complete from the
//! same argument definitions as `--help` and the manual page.

use crate::cli::printer::Printer;

/// Prints the script completing `command` (the whole command line's definitions) in `shell`.
pub fn run(shell: clap_complete::Shell, mut command: clap::Command, p: &Printer) -> anyhow::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "protest", &mut script);
    p.out(String::from_utf8_lossy(&script))
}
