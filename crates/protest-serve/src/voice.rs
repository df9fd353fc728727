//! The one owner of what the server prints: every line `protest serve` says goes through the
//! [`Voice`] it was given (the command line's printer), never to stdout or stderr of its own.

/// Where the server's words go: the command line's printer, which owns the terminal.
pub trait Voice: Send + Sync {
    /// The command's answer, shown even when asked to be quiet: the links made.
    fn out(&self, line: &str);
    /// What the server is doing.
    fn say(&self, line: &str);
    /// What went wrong without stopping it.
    fn warn(&self, line: &str);
}
