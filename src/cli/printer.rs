//! Everything the command line prints goes through one [`Printer`] (cargo's `Shell`, uv's
//! `Printer`): it owns stdout, stderr and the progress bar, so that
//!
//! - what is printed on the terminal the bar is drawn on appears above the bar (the bar is
//!   hidden while a line is written, as cargo does), never in the middle of it;
//! - a reader that stops reading (`protest report … | head -1`) ends the output and nothing else:
//!   no panic, no message, the command finishes its work (a change is committed as without the
//!   pipe) and its exit code says how that went;
//! - `--quiet` leaves only what the command was asked for (tables, reports, JSON) and errors:
//!   no progress, no word on what was done, no warnings;
//! - with `--format json` stdout holds the JSON document alone: what was done is not said there.
//!
//! What is printed is sorted by what it is for: [`Printer::out`] the command's answer,
//! [`Printer::say`] what it did, [`Printer::note`] and [`Printer::warn`] remarks on stderr,
//! [`Printer::error`] why it failed.

use super::progress::Bar;
use std::fmt::Display;
use std::io::{ErrorKind, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The command line's output; cheap to clone (one shared state).
#[derive(Clone)]
pub struct Printer(Arc<Inner>);

struct Inner {
    quiet: bool,
    json: bool,
    bar: Option<Arc<Bar>>,
    stdout_is_terminal: bool,
    /// The reader of stdout went away: what is printed after that goes nowhere.
    stdout_closed: AtomicBool,
}

impl Printer {
    /// The printer of a command: `quiet` for `--quiet`, `json` when its stdout is a JSON document.
    /// The progress bar is drawn only when stderr is a terminal and not with `--quiet`.
    pub fn new(quiet: bool, json: bool) -> Printer {
        Printer::with_bar(quiet, json, Bar::for_terminal(quiet))
    }

    fn with_bar(quiet: bool, json: bool, bar: Option<Arc<Bar>>) -> Printer {
        Printer(Arc::new(Inner {
            quiet,
            json,
            bar,
            stdout_is_terminal: std::io::stdout().is_terminal(),
            stdout_closed: AtomicBool::new(false),
        }))
    }

    /// The bar that draws what the library reports of long work, if one is drawn.
    pub fn bar(&self) -> Option<Arc<Bar>> {
        self.0.bar.clone()
    }

    /// The command's answer (a table, a report, a summary), printed as it is, even with `--quiet`.
    pub fn out(&self, text: impl Display) -> anyhow::Result<()> {
        self.to_stdout(text.to_string().as_bytes())
    }

    /// [`Printer::out`] with a newline after it.
    pub fn out_line(&self, line: impl Display) -> anyhow::Result<()> {
        self.out(format_args!("{line}\n"))
    }

    /// A JSON document on stdout, pretty, ending with a newline.
    pub fn json(&self, value: &serde_json::Value) -> anyhow::Result<()> {
        self.out_line(serde_json::to_string_pretty(value)?)
    }

    /// What the command did (`wrote FILE`, `created the folder DIR`), one or more lines on
    /// stdout; nothing with `--quiet` or when stdout holds a JSON document.
    pub fn say(&self, text: impl Display) -> anyhow::Result<()> {
        if self.0.quiet || self.0.json {
            return Ok(());
        }
        let text = text.to_string();
        match text.ends_with('\n') {
            true => self.to_stdout(text.as_bytes()),
            false => self.to_stdout(format!("{text}\n").as_bytes()),
        }
    }

    /// A remark on stderr (what the command assumed, what it did while stdout carries its
    /// answer); nothing with `--quiet`.
    pub fn note(&self, text: impl Display) {
        if !self.0.quiet {
            self.to_stderr(&text.to_string());
        }
    }

    /// `warning: …` on stderr; nothing with `--quiet`.
    pub fn warn(&self, text: impl Display) {
        self.note(format_args!("warning: {text}"));
    }

    /// `error: …` on stderr, always.
    pub fn error(&self, text: impl Display) {
        self.to_stderr(&format!("error: {text}"));
    }

    /// stdout as a writer, for output written piece by piece (a line per sentence…), with the
    /// same care as [`Printer::out`].
    pub fn stdout(&self) -> Stdout<'_> {
        Stdout(self)
    }

    /// Whether the reader of stdout went away: a command printing a long stream may stop.
    pub fn stdout_closed(&self) -> bool {
        self.0.stdout_closed.load(Ordering::Relaxed)
    }

    fn to_stdout(&self, bytes: &[u8]) -> anyhow::Result<()> {
        self.write_stdout(bytes).map_err(|e| anyhow::anyhow!("writing to the standard output: {e}"))
    }

    fn write_stdout(&self, bytes: &[u8]) -> std::io::Result<()> {
        if self.stdout_closed() {
            return Ok(());
        }
        let write = || {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes).and_then(|()| out.flush())
        };
        let written = match &self.0.bar {
            Some(bar) if self.0.stdout_is_terminal => bar.suspend(write),
            _ => write(),
        };
        match written {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.0.stdout_closed.store(true, Ordering::Relaxed);
                Ok(())
            }
            written => written,
        }
    }

    /// A line on stderr, above the bar. A failure to write it cannot be reported anywhere.
    fn to_stderr(&self, text: &str) {
        let write = || {
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{text}");
        };
        match &self.0.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }
}

/// stdout as a [`Write`], through its [`Printer`].
pub struct Stdout<'a>(&'a Printer);

impl Write for Stdout<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write_stdout(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(()) // every write is flushed
    }
}
