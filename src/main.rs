//! The `protest` binary: the annotation window (`protest_gui`) by default, subcommands for
//! headless work (`cli`). Both are thin shells over the `protest` library.

mod cli;

use clap::{CommandFactory, FromArgMatches};
use protest::store::{Holder, set_holder};
use std::process::ExitCode;

fn main() -> ExitCode {
    grow_the_heap_in_large_steps();
    let matches = cli::Args::command().get_matches();
    let args = cli::Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // What the locks this process takes say holds the file, to whoever else opens it.
    set_holder(match &args.command {
        None | Some(cli::Command::Open { .. }) => Holder::Window,
        Some(_) => Holder::Command { command: command_words(&matches) },
    });
    match args.command {
        None => protest_gui::run(None),
        Some(cli::Command::Open { file }) => protest_gui::run(Some(file)),
        Some(command) => cli::run(command, args.quiet),
    }
}

/// The command as typed, without its arguments: `protest batch export`.
fn command_words(matches: &clap::ArgMatches) -> String {
    let mut words = vec!["protest"];
    let mut at = matches;
    while let Some((name, sub)) = at.subcommand() {
        words.push(name);
        at = sub;
    }
    words.join(" ")
}

/// Opening a large master builds its model — some 500 MB in millions of small allocations — on
/// two threads. glibc's allocator grows a thread's heap by little more than each allocation needs,
/// one `mprotect` call (and a lock of the whole address space) at a time: a fifth of the CPU time
/// of opening a 100× master went into those calls. Growing by 64 MiB at a time costs nothing
/// more: memory is only taken from the system when first written to.
fn grow_the_heap_in_large_steps() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called first thing, before any other thread exists; only sets a number.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}
