//! The `protest` binary: the annotation window (`protest_gui`) by default, subcommands for
//! headless work (`cli`). Both are thin shells over the `protest` library.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match args.command {
        None => protest_gui::run(None),
        Some(cli::Command::Open { file }) => protest_gui::run(Some(file)),
        Some(command) => cli::run(command, args.quiet),
    }
}
