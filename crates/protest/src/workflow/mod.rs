//! The researcher's operations on a master, one function each, for the command line and the GUI
//! alike: annotators ([`annotators`]), task sets ([`task_sets`]), batch export ([`export`]),
//! batch import ([`merge`]), adjudication ([`adjudication`]), the automatic reference match
//! ([`auto_eval`]), a new system ([`add_system`]), converting the original tool's files
//! ([`convert`]), writing what the metrics computed ([`metrics`]) and a copy of the bundled sample
//! ([`sample`]).
//!
//! Every operation is all or nothing, in memory and on disk, in the same four steps:
//!
//! 1. *prepare* (`prepare` in each module): check everything and compute the new master and every
//!    file to write, in memory; nothing is written, and a refusal changes nothing;
//! 2. *write the outputs* (batch files…): each in full under a temporary name beside it, then
//!    all renamed into place ([`crate::store::atomic::Outputs`]); exported batches are made
//!    from the master one at a time as they are written, after every check;
//! 3. *commit the master*: one atomic save of the whole file ([`Store::commit`], which also
//!    checks that the file is still the one opened, revision included; or
//!    [`Store::commit_roster`] when only the roster and task sets change: one line appended to
//!    the journal and flushed, so that a large master is neither copied nor rewritten for them);
//!    if it fails, the outputs are taken back;
//! 4. only then the master in memory changes.
//!
//! A [`Prepared`] operation can be shown first (a preview, a dry run) and then committed with
//! [`commit`]; each module's `run` does both.

pub mod add_system;
pub mod adjudication;
pub mod annotators;
pub mod auto_eval;
#[cfg(not(target_arch = "wasm32"))]
pub mod convert;
pub mod export;
pub mod merge;
pub mod metrics;
pub mod sample;
pub mod task_sets;

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::model::Master;
use crate::store::Store;
use crate::store::atomic::Outputs;
use crate::store::batch_file::{self, Batch};
use crate::store::journal::{self, Roster};
use crate::store::master_file;
use std::path::{Path, PathBuf};

/// An operation checked and computed against the master as it was, with nothing written yet.
#[derive(Debug)]
#[must_use = "nothing happens until it is committed"]
pub struct Prepared<T> {
    /// How the master changes; `None` when it does not.
    change: Option<Change>,
    outputs: Vec<Output>,
    /// Folders to create before the outputs are written, outermost first.
    folders: Vec<PathBuf>,
    /// The store's change count it was prepared at.
    base: u64,
    /// What the operation did, to tell its user.
    pub outcome: T,
}

impl<T> Prepared<T> {
    fn new(store: &Store<Master>, master: Option<Master>, outcome: T) -> Prepared<T> {
        Prepared::changing(store, master.map(|m| Change::Whole(Box::new(m))), outcome)
    }

    fn changing(store: &Store<Master>, change: Option<Change>, outcome: T) -> Prepared<T> {
        Prepared { change, outputs: Vec::new(), folders: Vec::new(), base: store.changes(), outcome }
    }
}

/// The master after an operation.
#[derive(Debug)]
enum Change {
    Whole(Box<Master>),
    /// Only the roster and the task sets change (giving parts out, planning): the new ones, so
    /// that a large master is not copied whole for them.
    Roster(Roster),
}

/// The roster and task sets of a master, in an otherwise empty master (the functions of
/// [`crate::batches`] that change them take a master), and back.
mod draft {
    use crate::model::Master;
    use crate::store::journal::Roster;

    pub(super) fn of(master: &Master) -> Master {
        let mut draft = Master::new(master.id.clone(), master.created);
        draft.annotators = master.annotators.clone();
        draft.task_sets = master.task_sets.clone();
        draft
    }

    pub(super) fn roster(draft: Master) -> Roster {
        Roster { annotators: draft.annotators, task_sets: draft.task_sets }
    }
}

/// A file an operation writes.
#[derive(Debug)]
struct Output {
    path: PathBuf,
    /// An existing file there may be replaced.
    replace: bool,
    content: Content,
}

#[derive(Debug)]
enum Content {
    Batch(Box<Batch>),
    #[cfg_attr(target_arch = "wasm32", allow(dead_code, reason = "only a conversion writes a master"))]
    Master(Box<Master>),
    /// A batch made from the open master while it is written, so that a large export holds one
    /// batch in memory at a time; its making was checked when the operation was prepared.
    Export(Box<crate::batches::export::Recipe>),
}

impl Content {
    /// Writes the content; `master` is the open master an [`Content::Export`] is made from.
    fn write(&self, master: Option<&Master>, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Content::Batch(b) => batch_file::write(b, out),
            Content::Master(m) => master_file::write(m, out),
            Content::Export(part) => match master {
                Some(master) => batch_file::write(&part.build(master).map_err(std::io::Error::other)?, out),
                None => Err(std::io::Error::other("a batch is made from an open master")),
            },
        }
    }
}

/// Writes the outputs of a prepared operation and commits its master; returns what it did. If
/// anything fails, nothing changed, in memory or on disk.
pub fn commit<T>(store: &mut Store<Master>, prepared: Prepared<T>) -> Result<T> {
    store.writable()?;
    if store.changes() != prepared.base {
        return Err(Error::refused(store.path(), "the master changed since this was prepared; try again"));
    }
    let disk = store.disk();
    // Declared before the outputs, so dropped after them: on failure the files go, then the
    // folders made for them.
    let folders = Folders::make(&*disk, &prepared.folders)?;
    let mut outputs = Outputs::new(&*disk);
    crate::progress::stage("Writing the files", Some(prepared.outputs.len() as u64));
    for o in &prepared.outputs {
        // Checked again: a file may have appeared since.
        check_target(&o.path, o.replace)?;
        outputs.add(&o.path, |w| o.content.write(Some(store.master()), w))?;
        crate::progress::advance(1);
    }
    let published = outputs.publish()?;
    // On failure, dropping `published` takes the outputs back.
    match prepared.change {
        Some(Change::Whole(master)) => {
            crate::progress::stage("Saving the master", None);
            store.commit(*master)?;
        }
        Some(Change::Roster(roster)) => {
            crate::progress::stage("Saving the master", None);
            store.commit_roster(roster)?;
        }
        None => {}
    }
    published.keep();
    folders.keep();
    Ok(prepared.outcome)
}

/// Output folders made for an operation: taken back (if still empty) unless kept.
struct Folders {
    made: Vec<PathBuf>,
}

impl Folders {
    fn make(disk: &dyn crate::store::disk::Disk, dirs: &[PathBuf]) -> Result<Folders> {
        let mut folders = Folders { made: Vec::new() };
        for dir in dirs {
            disk.create_dir(dir).map_err(|e| Error::io(dir, e))?;
            folders.made.push(dir.clone());
        }
        Ok(folders)
    }

    fn keep(mut self) {
        self.made.clear();
    }
}

impl Drop for Folders {
    fn drop(&mut self) {
        for dir in self.made.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Writes files that belong to no open master (a converted master) all or none.
#[cfg(not(target_arch = "wasm32"))]
fn write_alone(disk: &dyn crate::store::disk::Disk, outputs: &[Output]) -> Result<()> {
    let mut staged = Outputs::new(disk);
    crate::progress::stage("Writing the files", Some(outputs.len() as u64));
    for o in outputs {
        check_target(&o.path, o.replace)?;
        staged.add(&o.path, |w| o.content.write(None, w))?;
        crate::progress::advance(1);
    }
    staged.publish()?.keep();
    Ok(())
}

/// Opens the master at `path` for changing, runs `work` on it and closes it (folding its
/// journal), so nothing is left beside it — except beside a master of [`KEEP_JOURNAL_FROM`] bytes
/// or more: there a roster committed to the journal (planning, giving parts out:
/// [`Store::commit_roster`]) stays in it, replayed by every opening and folded by the next full
/// save, so that such a command does not rewrite the whole large file for a few lines. Refused,
/// with nothing changed, when the file cannot be written (another PROTEST has it open, or it is
/// read-only).
///
/// Succeeds exactly when `work` did: its change is committed then (in the file, or in the
/// journal beside it), and a failure of the closing fold afterwards loses nothing — it is told
/// in [`Done::fold_failed`], not returned as an error.
pub fn on_master<T>(path: &Path, work: impl FnOnce(&mut Store<Master>) -> Result<T>) -> Result<Done<T>> {
    on_master_on(crate::store::disk::os(), path, work)
}

/// [`on_master`], writing through `disk`.
pub fn on_master_on<T>(
    disk: std::sync::Arc<dyn crate::store::disk::Disk>,
    path: &Path,
    work: impl FnOnce(&mut Store<Master>) -> Result<T>,
) -> Result<Done<T>> {
    on_master_keeping_journal_from(disk, path, KEEP_JOURNAL_FROM, work)
}

/// [`on_master_on`], with the size from which the journal is kept as a parameter (the tests' is
/// small: a master of [`KEEP_JOURNAL_FROM`] takes seconds to write and read again).
pub(crate) fn on_master_keeping_journal_from<T>(
    disk: std::sync::Arc<dyn crate::store::disk::Disk>,
    path: &Path,
    keep_journal_from: u64,
    work: impl FnOnce(&mut Store<Master>) -> Result<T>,
) -> Result<Done<T>> {
    let (mut store, opened) = Store::<Master>::open_on(disk, path)?;
    store.writable()?;
    let result = work(&mut store);
    crate::progress::stage("Closing the master", None);
    let real = store.real_path().to_path_buf();
    let large = std::fs::metadata(&real).is_ok_and(|m| m.len() >= keep_journal_from);
    let closed = if large { store.close_keeping_journal() } else { store.close() };
    let value = result?;
    let journal = journal::path_for(&real);
    Ok(Done {
        value,
        notes: opened.dropped.into_iter().collect(),
        journal_left: journal.exists().then_some(journal),
        fold_failed: closed.err().map(|e| e.to_string()),
    })
}

/// What [`on_master`] did: the value of the work, and what to tell the user about the files.
#[derive(Debug)]
pub struct Done<T> {
    pub value: T,
    /// What opening found and set aside (a last change cut short by a crash…).
    pub notes: Vec<String>,
    /// The journal left beside the master, holding a change not yet written into the file (a
    /// large master's roster change, or one whose fold failed).
    pub journal_left: Option<PathBuf>,
    /// Why writing the file in full on closing failed, after the change was committed.
    pub fold_failed: Option<String>,
}

/// The size from which a command leaves its roster changes in the journal rather than rewrite the
/// master ([`on_master`]): 64 MiB, about 5× PROTEST's size, whose full save takes a quarter of a
/// second; a smaller master stays one self-contained file after every command.
pub const KEEP_JOURNAL_FROM: u64 = 64 << 20;

/// Where outputs go by default: the master's folder.
pub fn default_folder(master_path: &Path) -> PathBuf {
    match std::path::absolute(master_path).ok().as_deref().and_then(Path::parent) {
        Some(dir) => dir.to_path_buf(),
        None => PathBuf::from("."),
    }
}

/// Checks that outputs can go into `dir`: a folder, or nothing yet — then it is created, with
/// the missing folders above it, when the operation is committed (the same for every output
/// folder: created, and said so). Returns the folders to create, outermost first.
fn check_folder(dir: &Path) -> Result<Vec<PathBuf>> {
    // The current folder, as a relative path's parent.
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let mut missing = Vec::new();
    for at in dir.ancestors().filter(|a| !a.as_os_str().is_empty()) {
        match std::fs::metadata(at) {
            Ok(meta) if meta.is_dir() => break,
            Ok(_) if at == dir => return Err(Error::refused(dir, "is not a folder; choose a folder for the files")),
            Ok(_) => {
                return Err(Error::refused(at, format!("is a file, so the folder {} cannot be made", dir.display())));
            }
            // Not there, or under a file (which the next step up finds).
            Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
                missing.push(at.to_path_buf())
            }
            Err(e) => return Err(Error::io(at, e)),
        }
    }
    missing.reverse();
    Ok(missing)
}

/// Checks that a file may be written at `path`: nothing is there, or `replace` and it is a
/// writable file without annotation work still in its journal.
fn check_target(path: &Path, replace: bool) -> Result<()> {
    if journal::path_for(path).exists() {
        return Err(Error::refused(
            path,
            format!(
                "has annotation work not yet saved into it ({} exists): open it in PROTEST and close it, or move both away",
                journal::path_for(path).display()
            ),
        ));
    }
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(meta) if meta.is_dir() => Err(Error::refused(path, "is a folder; choose another name")),
        Ok(meta) if meta.file_type().is_symlink() => Err(Error::refused(
            path,
            "is a symbolic link; PROTEST does not write through links: remove it or choose another folder",
        )),
        Ok(meta) if !meta.is_file() => Err(Error::refused(
            path,
            format!(
                "is {}, not a file; remove it or choose another folder",
                crate::store::files::kind_name(meta.file_type())
            ),
        )),
        Ok(meta) if replace && meta.permissions().readonly() => {
            Err(Error::refused(path, "has no write permission (it is a read-only file), so it is not replaced"))
        }
        Ok(_) if replace => Ok(()),
        Ok(_) => Err(Error::Exists { path: path.to_path_buf() }),
    }
}

/// A library refusal about the master at `path`.
fn refused<E: std::fmt::Display>(path: &Path) -> impl FnOnce(E) -> Error + '_ {
    move |e| Error::refused(path, e)
}

/// A batch file an operation wrote, for its user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub path: PathBuf,
    pub annotator: String,
    pub candidates: usize,
    pub records: usize,
}

/// `PATH (ANNOTATOR: N candidates, M records)`, as the command line reports a batch it wrote.
impl std::fmt::Display for Written {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Written { path, annotator, candidates, records } = self;
        write!(f, "{} ({annotator}: {candidates} candidates, {records} records)", path.display())
    }
}

impl Written {
    fn of(path: &Path, batch: &Batch) -> Written {
        Written {
            path: path.to_path_buf(),
            annotator: batch.annotator().name.clone(),
            candidates: batch.order().len(),
            records: batch.content().records.len(),
        }
    }
}
