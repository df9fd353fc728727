//! An open master or batch: the file, its journal and its lock, behind one API that saves every
//! change durably before reporting success.
//!
//! - Annotation changes ([`Store::put`], [`Store::remove`]) go to the journal (one fsynced line
//!   each, see [`crate::journal`]), so their cost does not grow with the file.
//! - Other changes ([`Store::update`]) and closing rewrite the file atomically and start a new
//!   journal; so does a journal grown past [`FOLD_BYTES`].
//! - A lock file beside the file (`FILE.lock`, an OS advisory lock) keeps a second instance to a
//!   read-only view; the OS drops the lock when its holder dies, so a lock left by a crash is
//!   simply taken over.

use crate::atomic;
use crate::error::{Error, Result};
use crate::journal::{self, Entry, Journal, Replay};
use crate::master_file;
use crate::model::{AnnotatorId, CandidateId, Master, Record};
use crate::validate;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Fold the journal into the file once it holds this much.
pub const FOLD_BYTES: u64 = 8 << 20;

/// A file the store can keep: a master, or a batch (which holds a restricted master).
pub trait Document: Sized {
    fn load(path: &Path) -> Result<Self>;
    fn save(&self, path: &Path) -> Result<()>;
    /// Identifies the file for its journal.
    fn file_id(&self) -> &str;
    fn master(&self) -> &Master;
    fn master_mut(&mut self) -> &mut Master;
}

impl Document for Master {
    fn load(path: &Path) -> Result<Self> {
        master_file::load(path)
    }

    fn save(&self, path: &Path) -> Result<()> {
        master_file::save(self, path)
    }

    fn file_id(&self) -> &str {
        &self.id
    }

    fn master(&self) -> &Master {
        self
    }

    fn master_mut(&mut self) -> &mut Master {
        self
    }
}

/// What opening found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Opened {
    /// Changes recovered from the journal (work since the last full save, e.g. before a crash).
    pub recovered: usize,
    /// Someone else has the file open: why we are read-only.
    pub read_only: Option<String>,
}

/// An open file with its journal and lock.
#[derive(Debug)]
pub struct Store<D: Document> {
    path: PathBuf,
    doc: D,
    /// `None` when read-only.
    journal: Option<Journal>,
    lock: Option<Lock>,
    /// Why the file could not be opened for writing.
    read_only: Option<String>,
    fold_bytes: u64,
}

impl<D: Document> Store<D> {
    /// Opens `path`, taking its lock if nobody holds it, and replays its journal.
    pub fn open(path: &Path) -> Result<(Self, Opened)> {
        let lock = Lock::acquire(path);
        if lock.is_ok() {
            // A crash in the middle of a full save leaves its temporary file behind; nobody else
            // can be writing this file or its journal now.
            atomic::remove_leftovers(path);
            atomic::remove_leftovers(&journal::path_for(path));
        }
        // Without the lock we read while the holder may be folding its journal into the file, and
        // could read the file just before and the journal just after: try again then.
        let mut attempts = if lock.is_ok() { 1 } else { 3 };
        let (doc, replay) = loop {
            attempts -= 1;
            match load_with_journal::<D>(path) {
                Err(_) if attempts > 0 => std::thread::sleep(std::time::Duration::from_millis(50)),
                Err(e) => {
                    // Leave no lock file beside something that is not ours or not there.
                    if let Ok(lock) = lock {
                        lock.release();
                    }
                    return Err(e);
                }
                Ok(loaded) => break loaded,
            }
        };
        let journal = match &lock {
            Ok(_) => Some(Journal::resume(path, &replay, doc.file_id(), doc.master().revision)?),
            Err(_) => None,
        };
        let read_only = lock.as_ref().err().map(|why| format!("{} {why}", path.display()));
        let opened = Opened { recovered: replay.entries.len(), read_only: read_only.clone() };
        let store =
            Store { path: path.to_path_buf(), doc, journal, lock: lock.ok(), read_only, fold_bytes: FOLD_BYTES };
        Ok((store, opened))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn doc(&self) -> &D {
        &self.doc
    }

    pub fn master(&self) -> &Master {
        self.doc.master()
    }

    pub fn is_read_only(&self) -> bool {
        self.journal.is_none()
    }

    /// Folds the journal into the file once it holds more than `bytes` (default
    /// [`FOLD_BYTES`]); the crash test folds every few changes.
    pub fn set_fold_bytes(&mut self, bytes: u64) {
        self.fold_bytes = bytes;
    }

    /// Stores a record durably (it is on disk when this returns) and in memory.
    pub fn put(&mut self, record: Record) -> Result<()> {
        self.change(Entry::Put(record))
    }

    /// Removes a record durably.
    pub fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Result<()> {
        self.change(Entry::Remove { candidate, annotator })
    }

    fn change(&mut self, entry: Entry) -> Result<()> {
        let Some(journal) = self.journal.as_mut() else { return Err(self.read_only_error()) };
        if let Entry::Put(record) = &entry
            && let Some((_, problem)) = validate::record(self.doc.master(), record)
        {
            return Err(Error::whole_file(&self.path, problem));
        }
        let revision = self.doc.master().revision;
        if journal.revision() != revision {
            // The last full save wrote the file but could not start its journal; changes appended
            // to the old one would be discarded as already folded in.
            *journal = Journal::start(&self.path, self.doc.file_id(), revision)?;
        }
        journal.append(&entry)?;
        let full = journal.bytes() > self.fold_bytes;
        apply(self.doc.master_mut(), &entry).map_err(|m| Error::whole_file(&self.path, m))?;
        if full {
            self.save()?;
        }
        Ok(())
    }

    /// Makes a change beyond single records (annotators, task sets, a merge…) and saves the
    /// whole file. If `change` fails, nothing was modified on disk; the caller's closure must
    /// leave the document unchanged when it returns an error.
    pub fn update<T>(&mut self, change: impl FnOnce(&mut D) -> Result<T>) -> Result<T> {
        if self.journal.is_none() {
            return Err(self.read_only_error());
        }
        let value = change(&mut self.doc)?;
        self.doc.master_mut().reindex();
        self.save()?;
        Ok(value)
    }

    /// Writes the whole file at the next revision and starts an empty journal.
    pub fn save(&mut self) -> Result<()> {
        if self.journal.is_none() {
            return Err(self.read_only_error());
        }
        let master = self.doc.master_mut();
        master.revision += 1;
        if let Err(e) = self.doc.save(&self.path) {
            self.doc.master_mut().revision -= 1;
            return Err(e);
        }
        let (id, revision) = (self.doc.file_id().to_owned(), self.doc.master().revision);
        self.journal = Some(Journal::start(&self.path, &id, revision)?);
        Ok(())
    }

    fn read_only_error(&self) -> Error {
        let why = self.read_only.as_deref().unwrap_or("");
        Error::whole_file(&self.path, format!("opened read-only, so changes cannot be saved: {why}"))
    }

    /// Number of changes kept only in the journal so far.
    pub fn unsaved_changes(&self) -> usize {
        self.journal.as_ref().map_or(0, Journal::len)
    }

    /// Folds the journal into the file, removes it and releases the lock.
    pub fn close(mut self) -> Result<()> {
        if self.journal.is_none() {
            return Ok(());
        }
        if self.unsaved_changes() > 0 {
            self.save()?;
        }
        if let Some(j) = self.journal.take() {
            j.delete()?;
        }
        if let Some(lock) = self.lock.take() {
            lock.release();
        }
        Ok(())
    }
}

/// The file with its journal's changes applied, as opening it would give, without taking its
/// lock or changing anything on disk.
pub fn load_with_journal<D: Document>(path: &Path) -> Result<(D, Replay)> {
    let mut doc = D::load(path)?;
    let (id, revision) = (doc.file_id().to_owned(), doc.master().revision);
    let replay = Journal::read(path, &id, revision)?;
    replay_into(doc.master_mut(), &replay, path)?;
    Ok((doc, replay))
}

/// Applies the changes of the journal of `file` to its master, checking each.
pub fn replay_into(master: &mut Master, replay: &Replay, file: &Path) -> Result<()> {
    for (i, entry) in replay.entries.iter().enumerate() {
        apply(master, entry).map_err(|m| {
            Error::whole_file(journal::path_for(file), format!("change {} cannot be applied: {m}", i + 1))
        })?;
    }
    Ok(())
}

fn apply(master: &mut Master, entry: &Entry) -> std::result::Result<(), String> {
    match entry {
        Entry::Put(record) => {
            if let Some((_, problem)) = validate::record(master, record) {
                return Err(problem);
            }
            master.records.put(record.clone());
        }
        Entry::Remove { candidate, annotator } => {
            master.records.remove(*candidate, *annotator);
        }
    }
    Ok(())
}

/// The lock path for a master or batch file.
pub fn lock_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// An advisory lock held for as long as the store is open.
#[derive(Debug)]
struct Lock {
    path: PathBuf,
    file: File,
}

impl Lock {
    /// The lock, or why it cannot be had (to end the sentence "FILE …"): someone else holds it,
    /// or the lock file cannot be written (a read-only folder or medium, for instance).
    fn acquire(file: &Path) -> std::result::Result<Lock, String> {
        let path = lock_path(file);
        let unwritable = |e: std::io::Error| format!("cannot be locked for writing ({}: {e})", path.display());
        for attempt in 1.. {
            let mut handle = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(unwritable)?;
            match handle.try_lock() {
                // A holder that was closing may have removed the file between our opening and our
                // locking it; a lock on a removed file keeps nobody out, so start again.
                Ok(()) if attempt < 10 && !is_at(&handle, &path) => continue,
                Ok(()) => {
                    let holder = format!(
                        "process {} of {} since {}",
                        std::process::id(),
                        std::env::var("USER").unwrap_or_else(|_| "this user".into()),
                        chrono::Local::now().format("%Y-%m-%d %H:%M")
                    );
                    // Who holds the lock is only information for others; failing to write it is
                    // no reason not to hold it.
                    let _ = handle
                        .set_len(0)
                        .and_then(|()| handle.rewind())
                        .and_then(|()| handle.write_all(holder.as_bytes()));
                    return Ok(Lock { path, file: handle });
                }
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = handle.read_to_string(&mut holder);
                    let holder = holder.trim();
                    let holder = if holder.is_empty() { "another process" } else { holder };
                    return Err(format!("is open in another PROTEST window ({holder})"));
                }
                Err(TryLockError::Error(e)) => return Err(unwritable(e)),
            }
        }
        unreachable!("the loop returns")
    }

    fn release(self) {
        // Remove the file while still holding the lock, so nobody locks a file we then delete.
        let _ = std::fs::remove_file(&self.path);
        drop(self.file);
    }
}

/// Whether the open `handle` is the file now at `path`.
#[cfg(unix)]
fn is_at(handle: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (handle.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_at(_handle: &File, path: &Path) -> bool {
    // Elsewhere an open file cannot be removed, so it is still there.
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Judgement;
    use chrono::Utc;

    const TINY: &str = include_str!("../tests/fixtures/tiny/tiny.master.json");

    fn tiny(dir: &tempfile::TempDir) -> PathBuf {
        let path = dir.path().join("tiny.master.json");
        std::fs::write(&path, TINY).unwrap();
        path
    }

    fn record(candidate: u32, pronoun: Judgement) -> Record {
        let mut r = Record::new(CandidateId(candidate), AnnotatorId::RESEARCHER, Utc::now());
        r.pronoun = pronoun;
        r
    }

    #[test]
    fn changes_survive_without_a_close() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, opened) = Store::<Master>::open(&path).unwrap();
        assert_eq!(opened, Opened::default());
        store.put(record(3, Judgement::Yes)).unwrap();
        store.put(record(4, Judgement::No)).unwrap();
        store.remove(CandidateId(4), AnnotatorId::RESEARCHER).unwrap();
        // The master file itself is untouched; the journal has the changes.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
        drop(store); // as if the process died: no close
        let (store, opened) = Store::<Master>::open(&path).unwrap();
        assert_eq!(opened.recovered, 3);
        assert_eq!(store.master().records.len(), 1);
        assert_eq!(
            store.master().records.get(CandidateId(3), AnnotatorId::RESEARCHER).unwrap().pronoun,
            Judgement::Yes
        );
    }

    #[test]
    fn close_folds_the_journal_into_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        store.close().unwrap();
        assert!(!journal::path_for(&path).exists() && !lock_path(&path).exists());
        let m = master_file::load(&path).unwrap();
        assert_eq!(m.revision, 1);
        assert_eq!(m.records.len(), 1);
    }

    #[test]
    fn a_second_opener_is_read_only_until_the_first_closes() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut first, _) = Store::<Master>::open(&path).unwrap();
        first.put(record(3, Judgement::Yes)).unwrap();
        let (mut second, opened) = Store::<Master>::open(&path).unwrap();
        let why = opened.read_only.unwrap();
        assert!(why.contains("open in another PROTEST window (process"), "{why}");
        assert!(second.is_read_only());
        // The read-only view still shows the first one's journaled work.
        assert_eq!(second.master().records.len(), 1);
        let err = second.put(record(4, Judgement::No)).unwrap_err().to_string();
        assert!(err.contains("read-only"), "{err}");
        first.close().unwrap();
        drop(second);
        let (third, opened) = Store::<Master>::open(&path).unwrap();
        assert!(opened.read_only.is_none() && !third.is_read_only());
    }

    #[test]
    fn records_that_do_not_fit_are_refused_before_touching_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        let err = store.put(record(99, Judgement::Yes)).unwrap_err().to_string();
        assert!(err.contains("candidate 99") && err.contains("does not exist"), "{err}");
        assert_eq!(store.unsaved_changes(), 0);
    }

    #[test]
    fn update_saves_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        store
            .update(|m| {
                m.description = "changed".into();
                Ok(())
            })
            .unwrap();
        assert_eq!(store.unsaved_changes(), 0);
        let m = master_file::load(&path).unwrap();
        assert_eq!((m.description.as_str(), m.records.len(), m.revision), ("changed", 1, 1));
        // The journal left over from revision 0 would be stale; the new one is for revision 1.
        drop(store);
        let (store, opened) = Store::<Master>::open(&path).unwrap();
        assert_eq!((opened.recovered, store.master().records.len()), (0, 1));
    }

    #[test]
    fn a_journal_that_could_not_be_restarted_is_restarted_before_the_next_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        // The full save writes the file, then fails to start the journal of the new revision.
        let journal = journal::path_for(&path);
        std::fs::remove_file(&journal).unwrap();
        std::fs::create_dir(&journal).unwrap();
        assert!(store.save().is_err());
        std::fs::remove_dir(&journal).unwrap();
        // This change must not go to the journal of the old revision, which is now stale.
        store.put(record(4, Judgement::No)).unwrap();
        drop(store);
        let (store, opened) = Store::<Master>::open(&path).unwrap();
        assert_eq!((opened.recovered, store.master().records.len()), (1, 2));
    }

    #[test]
    fn temporary_files_left_by_a_crash_are_removed_by_the_next_writer() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let leftovers = [".tiny.master.json.protest-Xy12ab.tmp", ".tiny.master.json.journal.protest-Xy12ab.tmp"];
        for name in leftovers {
            std::fs::write(dir.path().join(name), "half a file").unwrap();
        }
        let (first, _) = Store::<Master>::open(&path).unwrap();
        assert!(leftovers.iter().all(|n| !dir.path().join(n).exists()));
        // A read-only opener removes nothing: the holder may be writing.
        std::fs::write(dir.path().join(leftovers[0]), "being written").unwrap();
        let (_second, opened) = Store::<Master>::open(&path).unwrap();
        assert!(opened.read_only.is_some() && dir.path().join(leftovers[0]).exists());
        drop(first);
    }

    #[test]
    fn a_file_whose_lock_cannot_be_written_opens_read_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        std::fs::create_dir(lock_path(&path)).unwrap();
        let (mut store, opened) = Store::<Master>::open(&path).unwrap();
        let why = opened.read_only.unwrap();
        assert!(why.contains("cannot be locked for writing") && why.contains("tiny.master.json.lock"), "{why}");
        let err = store.put(record(3, Judgement::Yes)).unwrap_err().to_string();
        assert!(err.contains("changes cannot be saved: ") && err.contains("cannot be locked"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    }

    #[test]
    fn a_file_that_does_not_open_leaves_no_lock_behind() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        assert!(Store::<Master>::open(&missing).is_err());
        let garbage = dir.path().join("garbage.json");
        std::fs::write(&garbage, "not json").unwrap();
        assert!(Store::<Master>::open(&garbage).is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("garbage.json")]);
    }
}
