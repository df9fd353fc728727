//! `protest serve` (docs/serve.md): holds a master — its lock, as a window does — and serves the
//! annotation window, compiled to WebAssembly ([`page`]), to the annotators of one task set, each
//! at a link with a secret token ([`links`]). A page's changes are taken by the core's
//! [`protest::web::desk::Desk`]: checked as batch import checks a record, appended to the
//! master's journal (flushed to disk) and only then acknowledged. Stopping the server folds the
//! journal into the master, as closing a window does.
//!
//! [`Served::open`] prepares everything that can fail before anything is served; [`serve`] runs
//! the HTTP server (axum on tokio) until told to stop; [`Served::close`] folds and lets go.

mod connections;
mod limits;
pub mod links;
mod negotiate;
pub mod page;
mod routes;
#[cfg(test)]
mod tests;
mod writer;

use links::{Links, LinksFile};
use protest::Error;
use protest::model::{AnnotatorId, Master};
use protest::store::{Holder, Store};
use protest::web::desk::Desk;
use protest::web::receipts::Receipts;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use connections::Stopped;
pub use limits::Limits;
pub use routes::serve;

/// The port `protest serve` listens on unless told otherwise.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8720";

/// Where the server's words go: the command line's printer, which owns the terminal.
pub trait Voice: Send + Sync {
    /// The command's answer, shown even when asked to be quiet: the links made.
    fn out(&self, line: &str);
    /// What the server is doing.
    fn say(&self, line: &str);
    /// What went wrong without stopping it.
    fn warn(&self, line: &str);
}

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
    pub(crate) voice: Arc<dyn Voice>,
    pub(crate) limits: Limits,
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

/// What a start decided, before anything of it is kept.
struct Plan {
    task_set: u32,
    served: Vec<Desk>,
    links: Links,
    opened: Opened,
}

impl Served {
    /// Opens the master for serving: takes its lock (refused if a window or another server has
    /// it), chooses the task set, makes the links that are missing or asked for, revokes those
    /// asked, and opens the receipts. Nothing is served yet.
    ///
    /// All or nothing: everything that can fail is done before the links are kept; then the new
    /// links are added to `--links FILE` and only then kept beside the master (if that fails, the
    /// links file is put back as it was). A start that fails lets the master go as it found it:
    /// no lock, no journal left beside it.
    pub fn open(options: &Options, voice: Arc<dyn Voice>) -> Result<(Arc<Served>, Opened), Error> {
        let path = &options.master;
        // Whoever else opens the master is told the server holds it, and where.
        let (store, found) = Store::<Master>::open_as(path, &Holder::Server { address: base_url(options) })?;
        if let Some(why) = &found.read_only {
            let remedy = found.remedy.as_deref().unwrap_or("close it there first");
            return Err(Error::refused(path, format!("cannot be served: {why}; {remedy}")));
        }
        let prepared = plan(store.master(), options, found.recovered).and_then(|mut plan| {
            let file = options.links.as_deref().map(LinksFile::open).transpose()?;
            let receipts = Receipts::open(&*store.disk(), path, &store.master().id)?;
            plan.opened.notes.extend(found.dropped.iter().cloned());
            plan.opened.notes.extend(receipts.note().map(str::to_owned));
            Ok((plan, file, receipts))
        });
        let (plan, file, receipts) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => return Err(give_back(store, e, &*voice)),
        };
        let writer = match writer::Writer::start(Holding { store, receipts }, Arc::clone(&voice)) {
            Ok(writer) => writer,
            Err(failed) => {
                let (holding, e) = *failed;
                return Err(give_back(holding.store, Error::io(path, e), &*voice));
            }
        };
        if let Err(e) = keep_links(&plan, file.as_ref()) {
            return Err(match writer.stop() {
                Some(holding) => give_back(holding.store, e, &*voice),
                None => e,
            });
        }
        let annotators = plan
            .served
            .into_iter()
            .filter_map(|desk| {
                let sha256 = plan.links.find_of(plan.task_set, desk.annotator())?.to_owned();
                Some((sha256, Arc::new(Served1 { desk })))
            })
            .collect();
        let limits = options.limits.clone();
        let served = Served { writer, annotators, voice, limits, path: path.clone(), task_set: plan.task_set };
        Ok((Arc::new(served), plan.opened))
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

/// Decides what a start does: the task set, who is served, the links revoked and made (in
/// memory only).
/// The address the links start with: `--url`, or where the server listens.
fn base_url(options: &Options) -> String {
    let base = options.url.clone().unwrap_or_else(|| format!("http://{}/", options.listen));
    if base.ends_with('/') { base } else { format!("{base}/") }
}

fn plan(master: &Master, options: &Options, recovered: usize) -> Result<Plan, Error> {
    let path = &options.master;
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
    let now = protest::model::clock::now().map_err(|e| Error::refused(path, format!("cannot be served: {e}")))?;
    let mut links = Links::load(path, &master.id)?;
    let mut opened = Opened { recovered, ..Opened::default() };
    for name in &options.revoke {
        let (id, name) = by_name(name)?;
        links.revoke(task_set, id, now);
        opened.revoked.push(name);
    }
    let base = base_url(options);
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
    Ok(Plan { task_set, served: served.into_iter().map(|(d, _)| d).collect(), links, opened })
}

/// Keeps the links a start made and revoked: first added to the links file asked for (the
/// user's copy), then kept beside the master, after which they work. If they cannot be kept
/// beside the master, the links file is put back as it was.
fn keep_links(plan: &Plan, file: Option<&LinksFile>) -> Result<(), Error> {
    if let Some(file) = file {
        let text: String = plan.opened.made.iter().map(|l| format!("{}\t{}\n", l.annotator, l.url)).collect();
        file.add(&text)?;
    }
    if let Err(e) = plan.links.save() {
        if let Some(file) = file
            && let Err(undone) = file.undo()
        {
            return Err(Error::refused(
                file.path(),
                format!("{e}; the links just added to it do not work, and it could not be put back: {undone}"),
            ));
        }
        return Err(e);
    }
    Ok(())
}

/// A start that failed after taking the master lets it go as it was: the journal folded (or
/// removed when empty) and the lock released. Returns the reason it failed.
fn give_back(store: Store<Master>, why: Error, voice: &dyn Voice) -> Error {
    if let Err(e) = store.close() {
        voice.warn(&format!("{e}; the journal beside the master is kept and comes back when it is next opened"));
    }
    why
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

/// Runs `protest serve`: listens, opens the master, says which links there are (the new ones in
/// full, once) through `voice`, serves until Ctrl+C or SIGTERM (a second one stops at once), then
/// folds the journal into the master.
pub fn run(options: &Options, voice: Arc<dyn Voice>) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::io(&options.master, e);
    let now = std::time::SystemTime::now();
    if protest::model::clock::at(now).is_err() {
        return Err(Error::refused(
            &options.master,
            format!("cannot be served: {}; set the clock right first", routes::clock_problem(now)),
        ));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(io)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.listen))
        .map_err(|e| Error::refused(&options.master, format!("cannot listen on {}: {e}", options.listen)))?;
    // Port 0 asks the system for a free one: the links carry the one it gave.
    let listen = listener.local_addr().map_err(io)?;
    let options = &Options { listen, ..options.clone() };
    // Listened for before the master is opened: nothing can fail once links are made, and a
    // signal right after the server says it serves stops it properly.
    let stop = {
        let _in_runtime = runtime.enter();
        stop_signals().map_err(io)?
    };
    let (served, opened) = Served::open(options, Arc::clone(&voice))?;
    say_opened(&*voice, &served, &opened, options);
    let stopped = runtime.block_on(serve(Arc::clone(&served), listener, stop));
    // Every connection is gone: the last handle of the master is ours again.
    drop(runtime);
    if stopped.dropped > 0 {
        let dropped = match stopped.dropped {
            1 => "1 connection whose request was".to_owned(),
            n => format!("{n} connections whose requests were"),
        };
        voice.say(&format!("Dropped {dropped} not finished (a page sends its changes again)."));
    }
    let name = options.master.display();
    match served.close() {
        Ok(()) => {
            voice.say(&format!("Stopped. Every change the annotators saved is in {name} (its journal was folded in)."))
        }
        Err(e) => voice.warn(&format!(
            "{e}; every acknowledged change is in the journal beside {name} and comes back when it is next opened"
        )),
    }
    Ok(())
}

fn say_opened(voice: &dyn Voice, served: &Served, opened: &Opened, options: &Options) {
    let name = served.path().display();
    if opened.recovered > 0 {
        voice.say(&format!("Recovered {} changes from the journal of {name}.", opened.recovered));
    }
    for note in &opened.notes {
        voice.say(&format!("note: {note}"));
    }
    for link in &opened.made {
        voice.out(&format!("{}\t{}", link.annotator, link.url));
    }
    if !opened.made.is_empty() {
        let written = options.links.as_ref().map(|f| format!(" (also added to {})", f.display())).unwrap_or_default();
        voice.say(&format!(
            "Each link above is shown only this once{written}: send it to its annotator only; whoever has it can annotate as them."
        ));
    }
    for who in &opened.revoked {
        voice.say(&format!("{who}'s link is revoked (--new-link {who} makes a new one)."));
    }
    if !opened.kept.is_empty() {
        voice.say(&format!("Links made before still work for: {}.", opened.kept.join(", ")));
    }
    if !options.listen.ip().is_loopback() {
        voice.warn(&format!(
            "{} can be reached from other machines, over plain HTTP: the links' tokens and the annotations travel unencrypted. \
             Put a reverse proxy with TLS in front of it and give its address with --url (docs/serve.md).",
            options.listen
        ));
    }
    voice.say(&format!(
        "Serving task set {} of {name} to {} annotators on http://{}/ — Ctrl+C stops and folds the journal into the master.",
        served.task_set(),
        served.annotators(),
        options.listen
    ));
}

/// A message for each Ctrl+C or SIGTERM; the signals are caught from now on (in a runtime).
fn stop_signals() -> std::io::Result<tokio::sync::mpsc::UnboundedReceiver<()>> {
    let (tell, told) = tokio::sync::mpsc::unbounded_channel();
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (mut interrupt, mut terminate) = (signal(SignalKind::interrupt())?, signal(SignalKind::terminate())?);
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
                if tell.send(()).is_err() {
                    return;
                }
            }
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            if tell.send(()).is_err() {
                return;
            }
        }
    });
    Ok(told)
}
