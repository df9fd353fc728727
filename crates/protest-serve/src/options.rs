//! What `protest serve` is asked to do: the master, the task set, where to listen and what to call
//! itself in the links, the links to revoke or renew, and the bounds.

use crate::limits::Limits;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The port `protest serve` listens on unless told otherwise.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8720";

/// What `protest serve` was asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    pub master: PathBuf,
    /// The task set whose annotators are served; `None`: the master's only one.
    pub task_set: Option<u32>,
    pub listen: SocketAddr,
    /// The address annotators reach the server at (behind a reverse proxy), for the links;
    /// `None`: `http://LISTEN/`.
    pub url: Option<String>,
    /// Where to add the links made (readable by its owner only).
    pub links: Option<PathBuf>,
    /// Annotators (by name) whose links are taken away.
    pub revoke: Vec<String>,
    /// Annotators (by name) who get a new link in place of theirs.
    pub new_link: Vec<String>,
    pub limits: Limits,
}

/// The address the links start with: `--url`, or where the server listens.
pub(crate) fn base_url(options: &Options) -> String {
    let base = options.url.clone().unwrap_or_else(|| format!("http://{}/", options.listen));
    if base.ends_with('/') { base } else { format!("{base}/") }
}
