//! `protest serve`: the annotation window in the annotators' browsers (docs/serve.md).

use crate::cli::printer::Printer;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;

/// Serve the annotators of a task set their part in the browser, each at a secret link.
#[derive(Debug, Args)]
#[command(after_help = "Holds the master as an open window does (other windows open it read-only) and serves the \
annotation window to the annotators of the task set, each at a link with a secret token: printed once \
when made, and added to --links FILE if given (never emptied). Every change an annotator makes is checked as \
`batch import` checks it and saved in the master's journal before the page says it is saved; \
`protest check` and `protest report` see it at once. Ctrl+C (or SIGTERM) stops the server: requests \
under way get 10 s (a second Ctrl+C: none), then the journal is folded into the master. Listens on 127.0.0.1 only unless told otherwise: to serve a team, put a \
reverse proxy with TLS in front and pass its address with --url (docs/serve.md).")]
pub struct ServeArgs {
    /// The master file.
    master: PathBuf,
    /// The task set whose annotators are served (default: the master's only one).
    #[arg(long)]
    task_set: Option<u32>,
    /// The address and port to listen on.
    #[arg(long, default_value = protest_serve::DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// The address annotators reach the server at, for the links (e.g. https://annotate.example.org/protest/ behind a reverse proxy).
    #[arg(long)]
    url: Option<String>,
    /// Also add the links made to this file (readable by you only; never emptied: later starts add theirs).
    #[arg(long, value_name = "FILE")]
    links: Option<PathBuf>,
    /// Take this annotator's link away (by name; repeat for several).
    #[arg(long, value_name = "NAME")]
    revoke: Vec<String>,
    /// Give this annotator a new link in place of theirs (by name; repeat for several).
    #[arg(long, value_name = "NAME")]
    new_link: Vec<String>,
}

/// The server speaks through the command line's printer, like every command.
impl protest_serve::Voice for Printer {
    fn out(&self, line: &str) {
        let _ = self.out_line(line);
    }

    fn say(&self, line: &str) {
        let _ = Printer::say(self, line);
    }

    fn warn(&self, line: &str) {
        Printer::warn(self, line);
    }
}

pub fn run(args: ServeArgs, p: &Printer) -> anyhow::Result<()> {
    let options = protest_serve::Options {
        master: args.master,
        task_set: args.task_set,
        listen: args.listen,
        url: args.url,
        links: args.links,
        revoke: args.revoke,
        new_link: args.new_link,
        limits: protest_serve::Limits::default(),
    };
    protest_serve::run(&options, std::sync::Arc::new(p.clone()))?;
    Ok(())
}
