//! The `protest` binary: the annotation GUI by default, subcommands for headless work.
//! Both are thin shells over the `protest` library.

mod app;
mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match args.command {
        None => app::run(None),
        Some(cli::Command::Open { file }) => app::run(Some(file)),
        Some(command) => cli::run(command),
    }
}
