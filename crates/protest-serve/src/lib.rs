//! `protest serve` (docs/serve.md): holds a master — its lock, as a window does — and serves the
//! annotation window, compiled to WebAssembly ([`page`]), to the annotators of one task set, each
//! at a link with a secret token ([`links`]). A page's changes are taken by the core's
//! [`protest::web::desk::Desk`]: checked as batch import checks a record, appended to the
//! master's journal (flushed to disk) and only then acknowledged. Stopping the server folds the
//! journal into the master, as closing a window does.
//!
//! [`Served::open`] prepares everything that can fail before anything is served; [`serve`] runs
//! the HTTP server (axum on tokio) until told to stop; [`Served::close`] folds and lets go.

pub mod links;
pub mod page;
mod routes;
mod writer;

use chrono::Utc;
use links::Links;
use protest::Error;
use protest::model::{AnnotatorId, Master};
use protest::store::{Holder, Store};
use protest::web::desk::Desk;
use protest::web::receipts::Receipts;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use routes::serve;

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
    /// Where to write the links made (readable by its owner only).
    pub links: Option<PathBuf>,
    /// Annotators (by name) whose links are taken away.
    pub revoke: Vec<String>,
    /// Annotators (by name) who get a new link in place of theirs.
    pub new_link: Vec<String>,
}

/// A link made for an annotator: shown once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLink {
    pub annotator: String,
    pub url: String,
}

/// An annotator the server serves: their part.
pub(crate) struct Served1 {
    pub desk: Desk,
}

/// The master held open for serving, with everything a request needs.
pub struct Served {
    /// The one thread that reads and writes the master: requests send it their work.
    pub(crate) writer: writer::Writer,
    /// By the SHA-256 of their link's token.
    pub(crate) annotators: HashMap<String, Arc<Served1>>,
    path: PathBuf,
    task_set: u32,
}

/// What a change is written to: the master (its store: journal and lock) and the receipts.
pub(crate) struct Holding {
    pub store: Store<Master>,
    pub receipts: Receipts,
}

/// What opening the master for serving made and found.
#[derive(Debug, Default)]
pub struct Opened {
    /// Links made now (each printed once).
    pub made: Vec<NewLink>,
    /// Annotators whose link was revoked now.
    pub revoked: Vec<String>,
    /// Annotators served with the links they had.
    pub kept: Vec<String>,
    /// Changes recovered from the journal (the server or a window stopped without folding).
    pub recovered: usize,
    /// What opening found beside the master and settled (a damaged journal line set aside…).
    pub notes: Vec<String>,
}

impl Served {
    /// Opens the master for serving: takes its lock (refused if a window or another server has
    /// it), chooses the task set, makes the links that are missing or asked for, revokes those
    /// asked, and opens the receipts. Nothing is served yet.
    pub fn open(options: &Options) -> Result<(Arc<Served>, Opened), Error> {
        let path = &options.master;
        let base = options.url.clone().unwrap_or_else(|| format!("http://{}/", options.listen));
        let base = if base.ends_with('/') { base } else { format!("{base}/") };
        // Whoever else opens the master is told the server holds it, and where.
        let (store, found) = Store::<Master>::open_as(path, &Holder::Server { address: base.clone() })?;
        if let Some(why) = &found.read_only {
            let remedy = found.remedy.as_deref().unwrap_or("close it there first");
            return Err(Error::refused(path, format!("cannot be served: {why}; {remedy}")));
        }
        let master = store.master();
        let task_set = choose_task_set(path, master, options.task_set)?;
        let part_of = |a: AnnotatorId| Desk::new(master, task_set, a).ok();
        let served: Vec<(Desk, String)> =
            master.annotators.iter().filter_map(|a| part_of(a.id).map(|d| (d, a.name.clone()))).collect();
        if served.is_empty() {
            return Err(Error::refused(
                path,
                format!(
                    "nobody has a part of task set {task_set} yet: give the parts out first (`protest batch export`, or Batches › Export in the window)"
                ),
            ));
        }
        let by_name = |name: &str| {
            served
                .iter()
                .find(|(_, n)| n.eq_ignore_ascii_case(name.trim()))
                .map(|(d, n)| (d.annotator(), n.clone()))
                .ok_or_else(|| {
                    let names: Vec<&str> = served.iter().map(|(_, n)| n.as_str()).collect();
                    Error::refused(
                        path,
                        format!("'{name}' has no part of task set {task_set} (those who have: {})", names.join(", ")),
                    )
                })
        };
        let now = Utc::now();
        let mut links = Links::load(path, &master.id)?;
        let mut opened =
            Opened { recovered: found.recovered, notes: found.dropped.into_iter().collect(), ..Opened::default() };
        for name in &options.revoke {
            let (id, name) = by_name(name)?;
            links.revoke(task_set, id, now);
            opened.revoked.push(name);
        }
        let asked: Vec<AnnotatorId> =
            options.new_link.iter().map(|n| by_name(n).map(|(id, _)| id)).collect::<Result<_, _>>()?;
        for (desk, name) in &served {
            let id = desk.annotator();
            if asked.contains(&id) || !links.has(task_set, id) {
                let token = links.make(task_set, id, now);
                opened.made.push(NewLink { annotator: name.clone(), url: format!("{base}a/{token}/") });
            } else if !opened.revoked.contains(name) && links.find_of(task_set, id).is_some() {
                opened.kept.push(name.clone());
            }
        }
        if let Some(file) = &options.links {
            let text: String = opened.made.iter().map(|l| format!("{}\t{}\n", l.annotator, l.url)).collect();
            links::write_private(file, text.as_bytes())?;
        }
        links.save()?;
        let receipts = Receipts::open(&*store.disk(), path, &master.id)?;
        opened.notes.extend(receipts.note().map(str::to_owned));
        let mut annotators = HashMap::new();
        for (desk, _) in served {
            if let Some(sha256) = links.find_of(task_set, desk.annotator()) {
                annotators.insert(sha256.to_owned(), Arc::new(Served1 { desk }));
            }
        }
        let served = Served {
            writer: writer::Writer::start(Holding { store, receipts }),
            annotators,
            path: path.clone(),
            task_set,
        };
        Ok((Arc::new(served), opened))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn task_set(&self) -> u32 {
        self.task_set
    }

    /// How many annotators have a link that works.
    pub fn annotators(&self) -> usize {
        self.annotators.len()
    }

    /// Folds the journal into the master and lets go of its lock, as closing a window does.
    pub fn close(self: Arc<Served>) -> Result<(), Error> {
        let served =
            Arc::try_unwrap(self).map_err(|_| Error::refused(Path::new("."), "requests are still being answered"))?;
        let holding = served.writer.stop().ok_or_else(|| {
            Error::refused(
                &served.path,
                "the server's writer stopped unexpectedly; the journal beside the master holds every acknowledged change",
            )
        })?;
        holding.store.close()
    }
}

/// The task set asked for, or the master's only one.
fn choose_task_set(path: &Path, master: &Master, asked: Option<u32>) -> Result<u32, Error> {
    let ids: Vec<u32> = master.task_sets.iter().map(|t| t.id).collect();
    match (asked, ids.as_slice()) {
        (Some(id), _) if ids.contains(&id) => Ok(id),
        (Some(id), _) => Err(Error::refused(path, format!("has no task set {id}"))),
        (None, [only]) => Ok(*only),
        (None, []) => Err(Error::refused(path, "has no task set: plan one first (`protest batch plan`)")),
        (None, _) => Err(Error::refused(
            path,
            format!(
                "has several task sets ({}): say which with --task-set",
                ids.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// Runs `protest serve`: opens the master, says which links there are (the new ones in full,
/// once) on `out`, serves until Ctrl+C or SIGTERM, then folds the journal into the master.
pub fn run(options: &Options, out: &mut dyn std::io::Write) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::io(&options.master, e);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(io)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.listen))
        .map_err(|e| Error::refused(&options.master, format!("cannot listen on {}: {e}", options.listen)))?;
    // Port 0 asks the system for a free one: the links carry the one it gave.
    let listen = listener.local_addr().map_err(io)?;
    let options = &Options { listen, ..options.clone() };
    let (served, opened) = Served::open(options)?;
    let name = options.master.display();
    // Listened for before anything is said: a signal right after it stops the server properly.
    let stop = {
        let _in_runtime = runtime.enter();
        stop_signal().map_err(io)?
    };
    let _ = say_opened(out, &served, &opened, options);
    let stopped = runtime.block_on(serve(Arc::clone(&served), listener, stop));
    // Requests finished: the last handle of the master is ours again.
    drop(runtime);
    let closed = served.close();
    match (&stopped, &closed) {
        (Ok(()), Ok(())) => {
            let _ =
                writeln!(out, "Stopped. Every change the annotators saved is in {name} (its journal was folded in).");
        }
        (_, Err(e)) => {
            let _ = writeln!(
                out,
                "warning: {e}; every acknowledged change is in the journal beside {name} and comes back when it is next opened"
            );
        }
        (Err(_), Ok(())) => {}
    }
    stopped.map_err(io)
}

fn say_opened(
    out: &mut dyn std::io::Write,
    served: &Served,
    opened: &Opened,
    options: &Options,
) -> std::io::Result<()> {
    let name = served.path().display();
    if opened.recovered > 0 {
        writeln!(out, "Recovered {} changes from the journal of {name}.", opened.recovered)?;
    }
    for note in &opened.notes {
        writeln!(out, "note: {note}")?;
    }
    for link in &opened.made {
        writeln!(out, "{}\t{}", link.annotator, link.url)?;
    }
    if !opened.made.is_empty() {
        let written = options.links.as_ref().map(|f| format!(" (also in {})", f.display())).unwrap_or_default();
        writeln!(
            out,
            "Each link above is shown only this once{written}: send it to its annotator only; whoever has it can annotate as them."
        )?;
    }
    for who in &opened.revoked {
        writeln!(out, "{who}'s link is revoked (--new-link {who} makes a new one).")?;
    }
    if !opened.kept.is_empty() {
        writeln!(out, "Links made before still work for: {}.", opened.kept.join(", "))?;
    }
    let ip = options.listen.ip();
    if !ip.is_loopback() {
        writeln!(
            out,
            "warning: {} can be reached from other machines, over plain HTTP: the links' tokens and the annotations travel unencrypted. \
             Put a reverse proxy with TLS in front of it and give its address with --url (docs/serve.md).",
            options.listen
        )?;
    }
    writeln!(
        out,
        "Serving task set {} of {name} to {} annotators on http://{}/ — Ctrl+C stops and folds the journal into the master.",
        served.task_set(),
        served.annotators(),
        options.listen
    )?;
    out.flush()
}

/// What completes on Ctrl+C or SIGTERM; the signals are caught from now on (in a runtime).
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let (mut interrupt, mut terminate) = (signal(SignalKind::interrupt())?, signal(SignalKind::terminate())?);
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

#[cfg(not(unix))]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}
