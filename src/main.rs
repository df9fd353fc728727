//! The `protest` binary: the annotation window (`protest_gui`) by default, subcommands for
//! headless work (`cli`). Both are thin shells over the `protest` library.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    grow_the_heap_in_large_steps();
    let args = cli::Args::parse();
    match args.command {
        None => protest_gui::run(None),
        Some(cli::Command::Open { file }) => protest_gui::run(Some(file)),
        Some(command) => cli::run(command, args.quiet),
    }
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
