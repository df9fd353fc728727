//! An open master or batch: the file, its journal and its lock, behind one API that saves every
//! change durably before reporting success, and never leaves memory and disk telling different
//! stories without saying so.
//!
//! - Annotation changes ([`Store::put`], [`Store::remove`]) go to the journal (one fsynced line
//!   each, see [`crate::store::journal`]), so their cost does not grow with the file. A change the
//!   journal cannot take (a full disk) is kept in memory as *not saved* ([`Store::not_saved`])
//!   and saved before the next change, or by [`Store::retry`].
//! - Other changes ([`Store::update`], [`Store::commit`]) and closing rewrite the file
//!   atomically and start a new journal; so does a journal grown past [`FOLD_BYTES`]. A full save
//!   that fails leaves memory as it was.
//! - A lock file beside the file (`FILE.lock`, an OS advisory lock) keeps a second instance to a
//!   read-only view; the OS drops the lock when its holder dies, so a lock left by a crash is
//!   simply taken over. A file without write permission opens read-only too.
//! - Before every write the store checks that the file and its journal are still the ones it
//!   opened (device, inode, size, time, and the file's `revision`). If another program replaced
//!   or changed them, the store writes nothing more ([`Store::detached`]): the changes made here
//!   stay in memory, for [`Store::save_copy`].
//!
//! - A file is known by its resolved path ([`files::resolve`]): its lock, journal and temporary
//!   files are named from it, so a link and the real path meet the same lock. Nothing is written
//!   through a link, and only regular files are read.
//!
//! All writes go through a [`Disk`].
//!
//! The files behind it are submodules: masters ([`master_file`]) and batches ([`batch_file`]) in
//! our JSON layout ([`json`]), checked by [`validate`]; the journal ([`journal`]); atomic writes
//! ([`atomic`]) through the [`disk`] seam; and what `protest check` prints ([`summary`]).

pub mod atomic;
pub mod batch_file;
pub mod disk;
pub mod files;
pub mod journal;
pub mod json;
pub mod master_file;
pub mod summary;
pub mod validate;

use crate::annotate::status::Statuses;
use crate::error::{Error, Result};
use crate::model::{AnnotatorId, CandidateId, Master, Record};
use disk::{Disk, Identity};
use journal::{Entry, Journal, Replay, Roster};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Fold the journal into the file once it holds this much.
pub const FOLD_BYTES: u64 = 8 << 20;

/// A file the store can keep: a master, or a batch (which holds a restricted master).
pub trait Document: Sized + Clone {
    fn load(path: &Path) -> Result<Self>;
    /// Writes the document in its file format.
    fn write(&self, out: &mut dyn Write) -> std::io::Result<()>;
    /// Identifies the file for its journal.
    fn file_id(&self) -> &str;
    fn master(&self) -> &Master;
    fn master_mut(&mut self) -> &mut Master;
}

impl Document for Master {
    fn load(path: &Path) -> Result<Self> {
        master_file::load(path)
    }

    fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        master_file::write(self, out)
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
    /// Why the file is read-only: someone else has it open, or it cannot be written.
    pub read_only: Option<String>,
    /// The journal's last change was cut short by a crash while it was being written (so it was
    /// never reported as saved) and was dropped, or a journal left from before the file's last
    /// full save was set aside: what to tell the user.
    pub dropped: Option<String>,
}

/// Why a file opened read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
enum ReadOnly {
    /// Another PROTEST has it open.
    Locked(String),
    /// The lock file cannot be made or locked (a read-only folder or medium…).
    Unlockable(String),
    /// The file itself has no write permission.
    NoPermission(String),
    /// Something that is not PROTEST's lock file is where the lock goes (a link, a pipe…).
    Planted(String),
}

impl ReadOnly {
    fn why(&self) -> &str {
        match self {
            ReadOnly::Locked(why)
            | ReadOnly::Unlockable(why)
            | ReadOnly::NoPermission(why)
            | ReadOnly::Planted(why) => why,
        }
    }

    /// What the user can do about it.
    fn remedy(&self) -> &'static str {
        match self {
            ReadOnly::Locked(_) => "close it there first",
            ReadOnly::Unlockable(_) => "copy it to a folder you can write to",
            ReadOnly::NoPermission(_) => "make it writable first (e.g. chmod u+w)",
            ReadOnly::Planted(_) => "PROTEST makes its own once it is gone",
        }
    }
}

/// An open file with its journal and lock.
#[derive(Debug)]
pub struct Store<D: Document> {
    disk: Arc<dyn Disk>,
    /// The path as the user gave it, for messages.
    path: PathBuf,
    /// The file itself ([`files::resolve`]): what is read and written, and what its lock,
    /// journal and temporary files are named from.
    real: PathBuf,
    doc: D,
    /// `None` when read-only, or when it must be started afresh before the next change (the
    /// last full save could not start it).
    journal: Option<Journal>,
    lock: Option<Lock>,
    read_only: Option<ReadOnly>,
    fold_bytes: u64,
    /// The journal size at which to fold next.
    fold_at: u64,
    /// The file as this store last read or wrote it.
    file: Option<Identity>,
    /// Changes made in memory that are not on disk yet, oldest first.
    pending: Vec<Entry>,
    /// The changes in the journal since it was started (the file's last full save): what is lost
    /// with it if another program removes or replaces it ([`Store::unsaved_entries`]).
    journaled: Vec<Entry>,
    /// Why the last attempt to save them failed.
    failure: Option<String>,
    /// Another program replaced or changed the file or its journal: what happened. Nothing more
    /// is written to either.
    detached: Option<String>,
    /// Changes made in memory since opening.
    changes: u64,
    /// Read-only: the file and its journal as last read, to read them again when they change.
    read: (Option<Identity>, Option<Identity>),
}

impl<D: Document> Store<D> {
    /// Opens `path`, taking its lock if nobody holds it, and replays its journal.
    pub fn open(path: &Path) -> Result<(Self, Opened)> {
        Store::open_on(disk::os(), path)
    }

    /// [`Store::open`], writing through `disk`.
    pub fn open_on(disk: Arc<dyn Disk>, path: &Path) -> Result<(Self, Opened)> {
        let real = files::resolve(path)?;
        let lock = match writable(&real) {
            Err(why) => Err(ReadOnly::NoPermission(format!("{} {why}", path.display()))),
            Ok(()) => Lock::acquire(&real, path),
        };
        let opened = Store::open_locked(disk, path, real, lock.as_ref().err().cloned());
        match (opened, lock) {
            (Ok(mut opened), Ok(lock)) => {
                opened.0.lock = Some(lock);
                Ok(opened)
            }
            (opened, lock) => {
                // Leave no lock file beside something that is not ours or not there.
                if let Ok(lock) = lock {
                    lock.release();
                }
                opened
            }
        }
    }

    /// Opens the file, with its lock held unless `read_only` says why not.
    fn open_locked(
        disk: Arc<dyn Disk>,
        path: &Path,
        real: PathBuf,
        read_only: Option<ReadOnly>,
    ) -> Result<(Self, Opened)> {
        let locked = read_only.is_none();
        if locked {
            // A crash in the middle of a full save leaves its temporary file behind; nobody else
            // can be writing this file or its journal now.
            atomic::remove_leftovers(&real);
            atomic::remove_leftovers(&journal::path_for(&real));
        }
        // Without the lock we read while the holder may be folding its journal into the file;
        // reading again then is `read_consistently`'s.
        let (doc, mut replay) = read_consistently(path, &real, |real| load_resolved::<D>(real))?;
        let (journal, file) = match locked {
            true => {
                let journal = Journal::resume(Arc::clone(&disk), &real, &replay, doc.file_id(), doc.master().revision)?;
                (Some(journal), Some(Identity::of_path(&real).map_err(|e| Error::io(path, e))?))
            }
            false => (None, None),
        };
        let opened = Opened {
            recovered: replay.entries.len(),
            read_only: read_only.as_ref().map(|r| r.why().to_owned()),
            dropped: replay.note(&journal::path_for(&real)),
        };
        let store = Store {
            disk,
            path: path.to_path_buf(),
            real,
            doc,
            journal,
            lock: None,
            read_only,
            fold_bytes: FOLD_BYTES,
            fold_at: FOLD_BYTES,
            file,
            pending: Vec::new(),
            journaled: if locked { std::mem::take(&mut replay.entries) } else { Vec::new() },
            failure: None,
            detached: None,
            changes: 0,
            read: identities(path),
        };
        Ok((store, opened))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file itself, links and `..` resolved: what its lock and journal are named from.
    pub fn real_path(&self) -> &Path {
        &self.real
    }

    pub fn doc(&self) -> &D {
        &self.doc
    }

    pub fn master(&self) -> &Master {
        self.doc.master()
    }

    /// What the store writes through (outputs of an operation go the same way).
    pub fn disk(&self) -> Arc<dyn Disk> {
        Arc::clone(&self.disk)
    }

    /// How many changes were made in memory since the file was opened: what was computed from
    /// the document at one count is out of date at another.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    pub fn is_read_only(&self) -> bool {
        self.read_only.is_some()
    }

    /// Whether changes can be saved: the file is open for writing and is still the one opened.
    /// The error says why not and what to do, for a caller about to change the file.
    pub fn writable(&self) -> Result<()> {
        if let Some(ro) = &self.read_only {
            return Err(Error::whole_file(
                &self.path,
                format!("opened read-only, so changes cannot be saved: {}; {}", ro.why(), ro.remedy()),
            ));
        }
        if let Some(why) = &self.detached {
            return Err(self.detached_error(why));
        }
        Ok(())
    }

    /// Another program replaced or changed the file or its journal since it was opened here: what
    /// happened. Nothing more is written to it; [`Store::save_copy`] keeps the changes made here.
    pub fn detached(&self) -> Option<&str> {
        self.detached.as_deref()
    }

    /// Folds the journal into the file once it holds more than `bytes` (default
    /// [`FOLD_BYTES`]); the crash test folds every few changes.
    pub fn set_fold_bytes(&mut self, bytes: u64) {
        self.fold_bytes = bytes;
        self.fold_at = bytes;
    }

    /// Stores a record durably (it is on disk when this returns Ok) and in memory. A record that
    /// does not fit the file is refused and changes nothing. When the disk fails, the error says
    /// why and the change is kept in memory as not saved ([`Store::not_saved`]).
    pub fn put(&mut self, record: Record) -> Result<()> {
        self.change(Entry::Put(record))
    }

    /// Removes a record durably, as [`Store::put`] stores one.
    pub fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Result<()> {
        self.change(Entry::Remove { candidate, annotator })
    }

    fn change(&mut self, entry: Entry) -> Result<()> {
        self.put_all(vec![entry])
    }

    /// Makes several record changes (puts and removals) and saves them with one flush of the
    /// journal, as [`Store::put`] saves one: what `protest serve` does with the changes that come
    /// together. A change that does not fit the file is refused before any is made.
    pub fn put_all(&mut self, entries: Vec<Entry>) -> Result<()> {
        if let Some(ro) = &self.read_only {
            return Err(self.read_only_error(ro));
        }
        for entry in &entries {
            if let Entry::Roster(_) = entry {
                return Err(Error::whole_file(&self.path, "a roster is not a record change"));
            }
            if let Entry::Put(record) = entry
                && let Some((_, problem)) = validate::record(self.doc.master(), record)
            {
                return Err(Error::whole_file(&self.path, problem));
            }
        }
        for entry in entries {
            apply(self.doc.master_mut(), &entry).map_err(|m| Error::whole_file(&self.path, m))?;
            self.changes += 1;
            self.pending.push(entry);
        }
        self.flush()
    }

    /// A store opened read-only because another program holds the file (a window, or
    /// `protest serve`, docs/serve.md) reads the file and its journal again when either changed
    /// since it last read them, so that it shows what the holder saved meanwhile. Returns whether
    /// it did. Nothing is written; a store that holds the file does nothing.
    pub fn refresh(&mut self) -> Result<bool> {
        let now = identities(&self.path);
        if !matches!(self.read_only, Some(ReadOnly::Locked(_))) || now == self.read {
            return Ok(false);
        }
        // The holder may be folding the journal into the file while it is read: read again then.
        let mut attempts = 3;
        let (doc, _) = loop {
            attempts -= 1;
            match load_with_journal::<D>(&self.path) {
                Err(_) if attempts > 0 => std::thread::sleep(std::time::Duration::from_millis(50)),
                loaded => break loaded?,
            }
        };
        self.doc = doc;
        self.read = now;
        self.changes += 1;
        Ok(true)
    }

    /// Changes made in memory but not saved yet, because the disk failed or the file was changed
    /// elsewhere. They are saved with the next change, or by [`Store::retry`].
    pub fn not_saved(&self) -> usize {
        self.pending.len()
    }

    /// Why the last attempt to save failed, while something is not saved.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref().filter(|_| !self.pending.is_empty())
    }

    /// Tries again to save what is not saved.
    pub fn retry(&mut self) -> Result<()> {
        self.flush()
    }

    /// Writes the pending changes to the journal, oldest first.
    fn flush(&mut self) -> Result<()> {
        let result = self.try_flush();
        self.failure = result.as_ref().err().map(|e| e.to_string());
        result
    }

    fn try_flush(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.writable()?;
        self.check_unchanged(false)?;
        let revision = self.doc.master().revision;
        let stale = self.journal.as_ref().is_none_or(|j| j.revision() != revision);
        if self.journal.as_ref().is_some_and(Journal::is_damaged) {
            // What follows the last good line is unknown: save in full, which starts afresh.
            return self.save();
        }
        if stale {
            // The last full save wrote the file but could not start its journal; changes appended
            // to the old one would be discarded as already folded in.
            self.journal = None;
            self.journal = Some(Journal::start(Arc::clone(&self.disk), &self.real, self.doc.file_id(), revision)?);
            self.journaled.clear();
        }
        let journal = self.journal.as_mut().expect("started above");
        journal.append_all(&self.pending)?;
        self.journaled.append(&mut self.pending);
        self.fold_if_grown();
        Ok(())
    }

    /// Folds the journal into the file once it has grown past the threshold. The changes are
    /// saved already; a fold that fails is tried again once the journal has grown by as much again.
    fn fold_if_grown(&mut self) {
        let bytes = self.journal.as_ref().map_or(0, Journal::bytes);
        if bytes > self.fold_at {
            self.fold_at = bytes + self.fold_bytes;
            if self.save().is_ok() {
                self.fold_at = self.fold_bytes;
            }
        }
    }

    /// Makes a change beyond single records (annotators, task sets, a merge…) on a copy of the
    /// document and saves it in full. If `change` or the save fails, nothing changed, in memory
    /// or on disk.
    pub fn update<T>(&mut self, change: impl FnOnce(&mut D) -> Result<T>) -> Result<T> {
        self.writable()?;
        let mut draft = self.doc.clone();
        let value = change(&mut draft)?;
        draft.master_mut().reindex();
        self.commit(draft)?;
        Ok(value)
    }

    /// Replaces the document with `doc` (computed from this one) by one atomic save of the whole
    /// file at the next revision, then in memory. If the save fails, memory and disk stay as they
    /// were. This is the commit of every workflow operation.
    pub fn commit(&mut self, doc: D) -> Result<()> {
        self.save_as_revision(Some(doc))
    }

    /// Replaces the master's annotators and task sets (planning, giving parts out) durably and in
    /// memory, without rewriting the file: the new roster is one line appended to the journal and
    /// flushed, and replaces the old one in memory only once it is on disk. If the append fails,
    /// memory and disk stay as they were. When the journal cannot take it (changes not saved yet,
    /// a journal that could not be started or cut back), the file is saved in full instead, as
    /// [`Store::commit`] does.
    pub fn commit_roster(&mut self, mut roster: Roster) -> Result<()> {
        self.writable()?;
        let revision = self.doc.master().revision;
        let journal_ready = self.pending.is_empty()
            && self.journal.as_ref().is_some_and(|j| !j.is_damaged() && j.revision() == revision);
        if !journal_ready {
            swap_roster(self.doc.master_mut(), &mut roster);
            let saved = self.save_as_revision(None);
            match saved {
                // What was computed from the document before is out of date (the report…).
                Ok(()) => self.changes += 1,
                Err(_) => swap_roster(self.doc.master_mut(), &mut roster),
            }
            return saved;
        }
        self.check_unchanged(false)?;
        check_roster(self.doc.master(), &roster).map_err(|m| Error::whole_file(&self.path, m))?;
        let entry = Entry::Roster(roster);
        let journal = self.journal.as_mut().expect("checked above");
        if let Err(e) = journal.append(&entry) {
            if journal.is_damaged() {
                // The line may be on disk in full although its flush failed, and it could not be
                // cut back: a full save of the roster as it was makes that journal stale.
                let _ = self.save();
            }
            return Err(e);
        }
        self.journaled.push(entry.clone());
        let Entry::Roster(mut roster) = entry else { unreachable!("made above") };
        swap_roster(self.doc.master_mut(), &mut roster);
        self.changes += 1;
        self.fold_if_grown();
        Ok(())
    }

    /// Writes the whole file at the next revision and starts an empty journal.
    pub fn save(&mut self) -> Result<()> {
        self.save_as_revision(None)
    }

    fn save_as_revision(&mut self, replacement: Option<D>) -> Result<()> {
        self.writable()?;
        self.check_unchanged(true)?;
        let revision = next_revision(&self.path, self.doc.master().revision)?;
        // The file written again takes about as many bytes as before: a progress bar of them
        // (seconds for a large master), not a spinner.
        if let Some(before) = std::fs::metadata(&self.real).ok().map(|m| m.len()).filter(|&n| n > 0) {
            crate::progress::stage_bytes(&format!("Saving {}", master_file::file_name(&self.path)), before);
        }
        let written = match replacement {
            Some(mut doc) => {
                doc.master_mut().revision = revision;
                let written = atomic::write_with(&*self.disk, &self.real, |w| doc.write(w));
                written.inspect(|_| {
                    self.doc = doc;
                    self.changes += 1;
                })
            }
            None => {
                let old = std::mem::replace(&mut self.doc.master_mut().revision, revision);
                let written = atomic::write_with(&*self.disk, &self.real, |w| self.doc.write(w));
                if written.is_err() {
                    self.doc.master_mut().revision = old;
                }
                written
            }
        };
        let identity = match written {
            Ok(identity) => identity,
            Err(e) => {
                let e = e.renamed(&self.real, &self.path);
                if !self.pending.is_empty() {
                    self.failure = Some(e.to_string());
                }
                return Err(e);
            }
        };
        // The file holds everything now, the changes not saved before included.
        self.file = Some(identity);
        self.pending.clear();
        self.journaled.clear();
        self.failure = None;
        // If the new journal cannot be started, the next change starts it: the save itself is done.
        self.journal = None;
        self.journal = Journal::start(Arc::clone(&self.disk), &self.real, self.doc.file_id(), revision).ok();
        Ok(())
    }

    /// Writes the document as it is in memory, changes not saved included, into a new file at
    /// `path`, leaving this one as it is: the way out when this file cannot be written.
    pub fn save_copy(&self, path: &Path) -> Result<()> {
        self.save_copy_with(path, &[])
    }

    /// [`Store::save_copy`] with `changes` made on top (those of a recovery file), each checked
    /// as the journal's are: one that does not fit writes nothing. Neither this file nor memory
    /// changes.
    pub fn save_copy_with(&self, path: &Path, changes: &[Entry]) -> Result<()> {
        if atomic::same_file(path, &self.real) {
            return Err(Error::whole_file(path, "this is the file itself; choose another name for the copy"));
        }
        if path.exists() || files::is_link(path) {
            return Err(Error::whole_file(path, "already exists; choose another name for the copy"));
        }
        if changes.is_empty() {
            return atomic::write_with(&*self.disk, path, |w| self.doc.write(w)).map(drop);
        }
        let mut doc = self.doc.clone();
        for (i, change) in changes.iter().enumerate() {
            apply(doc.master_mut(), change)
                .map_err(|m| Error::whole_file(&self.path, format!("change {} cannot be applied: {m}", i + 1)))?;
        }
        atomic::write_with(&*self.disk, path, |w| doc.write(w)).map(drop)
    }

    /// The changes made here that the file and its journal may not hold: those not saved, and
    /// once another program changed the file or its journal ([`Store::detached`]), also those
    /// journaled since the last full save here. What a recovery file keeps
    /// (`crate::session::recovery`).
    pub fn unsaved_entries(&self) -> Vec<Entry> {
        match self.detached {
            Some(_) => self.journaled.iter().chain(&self.pending).cloned().collect(),
            None => self.pending.clone(),
        }
    }

    /// Checks that the file (and its journal) are still the ones this store opened or last
    /// wrote; `full`: for a full save, also that the file's revision is still ours. On a
    /// mismatch the store stops writing.
    fn check_unchanged(&mut self, full: bool) -> Result<()> {
        let Some(known) = self.file else { return Ok(()) };
        let problem = match Identity::of_path(&self.real) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(format!("{} was removed", self.path.display())),
            Err(_) => None, // cannot look: the write will say what is wrong
            Ok(now) if !now.same_file(&known) => Some(format!("{} was replaced", self.path.display())),
            Ok(now) if now != known => Some(format!("{} was changed", self.path.display())),
            Ok(_) => None,
        };
        let problem = problem.or_else(|| self.journal.as_ref().and_then(|j| j.check_unchanged().err())).or_else(|| {
            let ours = self.doc.master().revision;
            let theirs = full.then(|| json::top_level_u64(&self.real, "revision")).flatten();
            theirs
                .filter(|&r| r != ours)
                .map(|r| format!("{} is at revision {r}, not {ours} as when it was opened here", self.path.display()))
        });
        match problem {
            None => Ok(()),
            Some(why) => {
                let error = self.detached_error(&why);
                self.detached = Some(why);
                self.failure = Some(error.to_string());
                Err(error)
            }
        }
    }

    fn detached_error(&self, why: &str) -> Error {
        Error::whole_file(
            &self.path,
            format!(
                "another program changed it since it was opened here ({why}), so nothing more is written to it and neither version is lost; to keep the changes made here, save them as a new file"
            ),
        )
    }

    fn read_only_error(&self, ro: &ReadOnly) -> Error {
        Error::whole_file(&self.path, format!("opened read-only, so changes cannot be saved: {}", ro.why()))
    }

    /// Number of changes kept only in the journal so far.
    pub fn unsaved_changes(&self) -> usize {
        self.journal.as_ref().map_or(0, Journal::len)
    }

    /// Folds the journal into the file, removes it and releases the lock. If the changes cannot
    /// be saved, the journal stays (it keeps what it has) and the error says why; the lock is
    /// released all the same.
    pub fn close(mut self) -> Result<()> {
        if self.read_only.is_some() {
            return Ok(());
        }
        if self.detached.is_some() {
            // The files are someone else's now: leave them, and say what is lost if anything.
            if let Some(lock) = self.lock.take() {
                lock.release();
            }
            return match self.pending.len() {
                0 => Ok(()),
                _ => self.writable(),
            };
        }
        let closed = self.fold_and_delete_journal();
        // Released whatever happened: a journal left by a failed fold is recovered by the next
        // opener, who needs no lock file of ours beside it.
        if let Some(lock) = self.lock.take() {
            lock.release();
        }
        closed
    }

    /// Saves what the journal holds into the file and removes the journal.
    fn fold_and_delete_journal(&mut self) -> Result<()> {
        if self.unsaved_changes() > 0 || !self.pending.is_empty() || self.journal.is_none() {
            self.save()?;
        }
        match self.journal.take() {
            Some(j) => j.delete(),
            // The save could not start its new journal: the old one, if still there, is stale now.
            None => match self.disk.remove(&journal::path_for(&self.real)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(journal::path_for(&self.path), e)),
                _ => Ok(()),
            },
        }
    }

    /// Closes the file as [`Store::close`] does, except that a journal holding changes stays
    /// beside the file instead of being folded into it (any opening replays it; the next full
    /// save folds it): for a command that changed only the roster of a large master, whose full
    /// save would cost more than the change. When something is not saved, or the journal cannot
    /// take more, this is [`Store::close`].
    pub fn close_keeping_journal(mut self) -> Result<()> {
        let healthy = self.journal.as_ref().is_some_and(|j| !j.is_empty() && !j.is_damaged());
        if self.read_only.is_some() || self.detached.is_some() || !self.pending.is_empty() || !healthy {
            return self.close();
        }
        self.journal = None;
        if let Some(lock) = self.lock.take() {
            lock.release();
        }
        Ok(())
    }
}

/// Whether the file may be written: it has write permission for us (and for someone at all, so
/// that a file made read-only stays so even for the superuser).
fn writable(path: &Path) -> std::result::Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) }; // loading will say what is wrong
    if meta.permissions().readonly() {
        return Err("has no write permission (it is a read-only file)".into());
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else { return Ok(()) };
        // SAFETY: `c` is a valid NUL-terminated path; access(2) only reads it.
        if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
            return Err(format!("cannot be written by this user ({})", std::io::Error::last_os_error()));
        }
    }
    Ok(())
}

/// The file with its journal's changes applied, as opening it would give, without taking its
/// lock or changing anything on disk.
pub fn load_with_journal<D: Document>(path: &Path) -> Result<(D, Replay)> {
    let real = files::resolve(path)?;
    read_consistently(path, &real, load_resolved::<D>)
}

fn load_resolved<D: Document>(real: &Path) -> Result<(D, Replay)> {
    let mut doc = D::load(real)?;
    let replay = replay_journal(&mut doc, real)?;
    Ok((doc, replay))
}

/// [`load_with_journal`] of a master, with the status of every record, as `protest check` counts
/// them: those loading derived, unless the journal changed the records (then derived again).
pub fn load_master_with_statuses(path: &Path) -> Result<(Master, Replay, Statuses)> {
    let real = files::resolve(path)?;
    read_consistently(path, &real, |real| {
        let (mut master, statuses) = master_file::load_with_statuses(real)?;
        let replay = replay_journal(&mut master, real)?;
        let statuses = if replay.entries.is_empty() { statuses } else { Statuses::of(&master) };
        Ok((master, replay, statuses))
    })
}

/// Reads the file at `real` (and its journal) with `read`; when that fails because the file was
/// replaced meanwhile — another process folding its journal into it, between our reading of the
/// file and of the journal — reads again, up to three times in all. Errors about the file name it
/// as `path`, the way the user did.
fn read_consistently<T>(path: &Path, real: &Path, read: impl Fn(&Path) -> Result<T>) -> Result<T> {
    let mut attempts = 3;
    loop {
        let before = Identity::of_path(real).ok();
        match read(real) {
            Err(_) if attempts > 1 && Identity::of_path(real).ok() != before => attempts -= 1,
            result => return result.map_err(|e| e.renamed(real, path)),
        }
    }
}

/// The revision after `revision`: a file at the largest number there is cannot be saved again
/// (it would wrap to 0, and a journal of the old revision would then look newer than the file).
fn next_revision(path: &Path, revision: u64) -> Result<u64> {
    revision.checked_add(1).ok_or_else(|| {
        Error::whole_file(
            path,
            format!("its revision {revision} is the largest there can be, so it cannot be saved again"),
        )
    })
}

/// Reads the journal of the file `doc` was loaded from and applies its changes.
fn replay_journal<D: Document>(doc: &mut D, path: &Path) -> Result<Replay> {
    let (id, revision) = (doc.file_id().to_owned(), doc.master().revision);
    let replay = Journal::read(path, &id, revision)?;
    replay_into(doc.master_mut(), &replay, path)?;
    Ok(replay)
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

/// Applies one change to `master`, checked as loading checks the master's own (a record valid
/// against it, a roster that fits it); the message says what is wrong.
pub(crate) fn apply(master: &mut Master, entry: &Entry) -> std::result::Result<(), String> {
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
        Entry::Roster(roster) => {
            check_roster(master, roster)?;
            let mut roster = roster.clone();
            swap_roster(master, &mut roster);
        }
    }
    Ok(())
}

/// Exchanges the master's annotators and task sets with `roster`'s (nothing the master's lookup
/// tables are built from).
fn swap_roster(master: &mut Master, roster: &mut Roster) {
    std::mem::swap(&mut master.annotators, &mut roster.annotators);
    std::mem::swap(&mut master.task_sets, &mut roster.task_sets);
}

/// Whether a roster entry fits `master`: it keeps every annotator (records name them), and its
/// annotators and task sets name only what the master has, each id once — what loading checks of
/// the master's own (`validate`), for a line that may have been edited by hand.
fn check_roster(master: &Master, roster: &Roster) -> std::result::Result<(), String> {
    let known = |id: AnnotatorId| id.is_researcher() || roster.annotators.iter().any(|a| a.id == id);
    if let Some(gone) = master.annotators.iter().find(|a| !known(a.id)) {
        return Err(format!(
            "the roster leaves out annotator {} ({}), whose records the master keeps",
            gone.id, gone.name
        ));
    }
    match validate::roster(master, &roster.annotators, &roster.task_sets).into_iter().next() {
        Some(problem) => Err(problem.message),
        None => Ok(()),
    }
}

/// Which file and journal are at `path` now (for [`Store::refresh`]).
fn identities(path: &Path) -> (Option<Identity>, Option<Identity>) {
    (Identity::of_path(path).ok(), Identity::of_path(&journal::path_for(path)).ok())
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
    /// The lock of the file at `real` (named `shown` in messages), or why it cannot be had:
    /// someone else holds it, the lock file cannot be written (a read-only folder or medium, for
    /// instance), or something else was put where it goes (a link is never followed).
    fn acquire(real: &Path, shown: &Path) -> std::result::Result<Lock, ReadOnly> {
        let path = lock_path(real);
        let unwritable = |e: std::io::Error| {
            ReadOnly::Unlockable(format!("{} cannot be locked for writing ({}: {e})", shown.display(), path.display()))
        };
        for attempt in 1.. {
            let mut options = OpenOptions::new();
            options.read(true).write(true).create(true).truncate(false);
            let mut handle = match files::open_beside(&mut options, &path) {
                Ok(handle) => handle,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    return Err(ReadOnly::Planted(format!("its lock file {}: {e}", path.display())));
                }
                Err(e) => return Err(unwritable(e)),
            };
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
                    return Err(ReadOnly::Locked(format!(
                        "{} is open in another PROTEST window ({holder})",
                        shown.display()
                    )));
                }
                Err(TryLockError::Error(e)) => return Err(unwritable(e)),
            }
        }
        unreachable!("the loop returns")
    }

    // The web page's build (docs/serve.md) has files without handles to close.
    #[cfg_attr(target_arch = "wasm32", allow(clippy::drop_non_drop))]
    fn release(self) {
        // Remove the file while still holding the lock, so nobody locks a file we then delete;
        // but only our own: someone may have removed ours and made theirs.
        if is_at(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
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
    use crate::store::disk::{Fault, Faulty, Op};
    use chrono::Utc;

    const TINY: &str = include_str!("../../../../tests/fixtures/tiny/tiny.master.json");

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
    fn the_statuses_loading_derived_are_those_of_the_records_with_the_journal_s_changes() {
        use crate::annotate::status::{Status, Statuses};
        use crate::model::ConflictStatus;
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let mut m = crate::testing::tiny();
        // Anna's pronoun yes without a token: breaks rule 4 whatever the file says ("clear").
        crate::testing::judge(&mut m, 4, 1, Judgement::Yes, Judgement::Unset);
        let mut broken = m.records.get(CandidateId(4), AnnotatorId(1)).unwrap().clone();
        broken.selected = Default::default();
        broken.conflict = ConflictStatus::Clear;
        m.records.put(broken);
        crate::testing::judge(&mut m, 3, 1, Judgement::No, Judgement::Unset);
        master_file::save(&m, &path).unwrap();

        let (loaded, replay, statuses) = load_master_with_statuses(&path).unwrap();
        assert!(replay.entries.is_empty());
        assert_eq!(loaded.records.get(CandidateId(4), AnnotatorId(1)).unwrap().conflict, ConflictStatus::Unchecked);
        assert_eq!(statuses.as_slice(), [Status::Done, Status::Conflict]);
        assert_eq!(statuses, Statuses::of(&loaded));

        // A change in the journal (candidate 4 judged no: done) is counted as it now is.
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        let mut fixed = loaded.records.get(CandidateId(4), AnnotatorId(1)).unwrap().clone();
        fixed.pronoun = Judgement::No;
        store.put(fixed).unwrap();
        drop(store); // the change stays in the journal
        let (loaded, replay, statuses) = load_master_with_statuses(&path).unwrap();
        assert_eq!(replay.entries.len(), 1);
        assert_eq!(statuses.as_slice(), [Status::Done, Status::Done]);
        assert_eq!(statuses, Statuses::of(&loaded));
        assert_eq!(
            crate::store::summary::Summary::with_statuses(&loaded, &statuses),
            crate::store::summary::Summary::of(&loaded)
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
        let disk = Faulty::new(Fault::None);
        let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        // The full save writes the file, then fails to start the journal of the new revision.
        disk.set(Fault::None);
        store.save().unwrap();
        let journal = journal::path_for(&path);
        let k = disk
            .ops()
            .iter()
            .position(|(_, p)| p.starts_with(dir.path()) && p.to_string_lossy().contains("journal"))
            .unwrap();
        disk.set(Fault::Once(k));
        // The file is saved (the change is in it): the save succeeded.
        store.save().unwrap();
        assert_eq!(disk.failed().unwrap().0, Op::Create);
        assert_eq!(master_file::load(&path).unwrap().revision, 2);
        assert!(journal.exists(), "the old journal, of revision 1, is still there");
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

    #[test]
    fn a_change_the_disk_refuses_is_kept_as_not_saved_and_saved_later() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let disk = Faulty::new(Fault::None);
        let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        disk.set(Fault::FullFrom(0));
        for c in [4, 5] {
            let e = store.put(record(c, Judgement::No)).unwrap_err().to_string();
            assert!(e.contains("No space left"), "{e}");
        }
        // Kept in memory, counted as not saved, and not on disk.
        assert_eq!((store.master().records.len(), store.not_saved()), (3, 2));
        assert!(store.failure().unwrap().contains("No space left"));
        assert_eq!(load_with_journal::<Master>(&path).unwrap().0.records.len(), 1);
        assert!(store.retry().is_err());
        // Space again: the next change saves them all, in order.
        disk.set(Fault::None);
        store.put(record(6, Judgement::Yes)).unwrap();
        assert_eq!((store.not_saved(), store.failure()), (0, None));
        let (on_disk, replay) = load_with_journal::<Master>(&path).unwrap();
        assert_eq!((&on_disk, replay.entries.len(), replay.torn_tail), (store.master(), 4, false));
        // Retrying by hand works too.
        disk.set(Fault::Once(0));
        assert!(store.remove(CandidateId(6), AnnotatorId::RESEARCHER).is_err());
        disk.set(Fault::None);
        store.retry().unwrap();
        assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, store.master());
    }

    #[test]
    fn a_failed_full_save_changes_nothing_in_memory_or_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let disk = Faulty::new(Fault::None);
        let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        let before = store.master().clone();
        disk.set(Fault::FullFrom(0));
        let e = store
            .update(|m| {
                m.description = "changed".into();
                Ok(())
            })
            .unwrap_err();
        assert!(e.to_string().contains("No space left"), "{e}");
        assert_eq!(store.master(), &before);
        assert_eq!(store.not_saved(), 0);
        assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, &before);
        assert!(atomic::leftovers(&path).is_empty());
        // The next change is journaled as usual.
        disk.set(Fault::None);
        store.put(record(4, Judgement::No)).unwrap();
        assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, store.master());
    }

    /// A roster with annotator Zoé (id 1) and a task set giving candidates 1 and 2 to her.
    fn roster() -> Roster {
        use crate::model::{Annotator, Task, TaskSet};
        let zoe = AnnotatorId(1);
        Roster {
            annotators: vec![Annotator { id: zoe, name: "Zoé".into() }],
            task_sets: vec![TaskSet {
                id: 1,
                name: "first".into(),
                created: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
                seed: 7,
                corpora: vec![crate::model::CorpusId(1)],
                categories: Vec::new(),
                annotators: 1,
                iaa_size: 0,
                purpose: Default::default(),
                planner: Default::default(),
                tasks: vec![Task {
                    label: "1".into(),
                    candidates: vec![CandidateId(1), CandidateId(2)],
                    annotator: Some(zoe),
                }],
            }],
        }
    }

    fn roster_of(m: &Master) -> Roster {
        Roster { annotators: m.annotators.clone(), task_sets: m.task_sets.clone() }
    }

    #[test]
    fn a_roster_is_committed_to_the_journal_and_folded_by_the_next_full_save() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        let changes = store.changes();
        store.commit_roster(roster()).unwrap();
        assert_eq!(roster_of(store.master()), roster());
        assert_eq!(store.changes(), changes + 1, "what was computed from the master is out of date");
        // The file itself is not rewritten: the roster is one line of the journal.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
        let journal = std::fs::read_to_string(journal::path_for(&path)).unwrap();
        assert!(journal.starts_with("{\"journal\":\"protest-journal\",\"version\":2,"), "{journal}");
        assert!(
            journal.lines().nth(1).unwrap().starts_with("{\"roster\":{\"annotators\":[{\"id\":1,\"name\":\"Zoé\"}]")
        );
        // A command closes keeping it: no lock, the journal stays, every opening replays it.
        store.close_keeping_journal().unwrap();
        assert!(!lock_path(&path).exists() && journal::path_for(&path).exists());
        let (on_disk, replay) = load_with_journal::<Master>(&path).unwrap();
        assert_eq!((roster_of(&on_disk), replay.entries.len()), (roster(), 1));
        // Annotating on top of it, then closing, folds both into the file.
        let (mut store, opened) = Store::<Master>::open(&path).unwrap();
        assert_eq!(opened.recovered, 1);
        let mut zoe = record(1, Judgement::Yes);
        zoe.annotator = AnnotatorId(1);
        store.put(zoe).unwrap();
        store.close().unwrap();
        assert!(!journal::path_for(&path).exists());
        let m = master_file::load(&path).unwrap();
        assert_eq!((roster_of(&m), m.records.len(), m.revision), (roster(), 1, 1));
    }

    #[test]
    fn a_command_that_saved_in_full_leaves_no_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store
            .update(|m| {
                m.description = "changed".into();
                Ok(())
            })
            .unwrap();
        store.close_keeping_journal().unwrap();
        assert!(!journal::path_for(&path).exists() && !lock_path(&path).exists());
    }

    #[test]
    fn a_roster_cut_short_anywhere_by_a_crash_leaves_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        let before = std::fs::read(journal::path_for(&path)).unwrap();
        store.commit_roster(roster()).unwrap();
        let after = std::fs::read(journal::path_for(&path)).unwrap();
        drop(store); // killed: no close
        let old = roster_of(&master_file::load(&path).unwrap());
        // The journal as a crash could leave it at every byte of the roster's line.
        for cut in before.len()..=after.len() {
            std::fs::write(journal::path_for(&path), &after[..cut]).unwrap();
            let (m, replay) = load_with_journal::<Master>(&path).unwrap();
            assert_eq!(m.records.len(), 1, "cut at {cut}: the change before it is kept");
            // The line counts once whole, newline included: only then was it flushed.
            let whole = cut == after.len();
            assert_eq!(roster_of(&m), if whole { roster() } else { old.clone() }, "cut at {cut}");
            assert_eq!(replay.torn_tail, cut > before.len() && !whole, "cut at {cut}");
            // Opening to write carries on from there.
            let (mut store, _) = Store::<Master>::open(&path).unwrap();
            store.put(record(4, Judgement::No)).unwrap();
            drop(store);
            let m = load_with_journal::<Master>(&path).unwrap().0;
            assert_eq!((roster_of(&m) == roster(), m.records.len()), (whole, 2), "cut at {cut}");
        }
    }

    #[test]
    fn a_roster_that_does_not_fit_the_master_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        let mut wrong = roster();
        wrong.task_sets[0].tasks[0].candidates.push(CandidateId(99));
        let e = store.commit_roster(wrong).unwrap_err().to_string();
        assert!(e.contains("task set 'first': candidate 99 does not exist"), "{e}");
        assert!(store.master().task_sets.is_empty() && store.unsaved_changes() == 0);
        // The rules a master's own annotators and task sets are loaded by (`validate::roster`).
        let mut twice = roster();
        twice.annotators.push(crate::model::Annotator { id: AnnotatorId(2), name: "Zoé".into() });
        let e = store.commit_roster(twice).unwrap_err().to_string();
        assert!(e.contains("annotator name 'Zoé' is used twice"), "{e}");
        let mut unknown = roster();
        unknown.task_sets[0].tasks[0].annotator = Some(AnnotatorId(5));
        let e = store.commit_roster(unknown).unwrap_err().to_string();
        assert!(e.contains("task set 'first': annotator 5 does not exist"), "{e}");
        assert!(store.master().task_sets.is_empty() && store.unsaved_changes() == 0);
        // A journal edited by hand to leave out an annotator whose records the master keeps.
        store.commit_roster(roster()).unwrap();
        let mut zoe = record(1, Judgement::Yes);
        zoe.annotator = AnnotatorId(1);
        store.put(zoe).unwrap();
        drop(store);
        let empty = Entry::Roster(Roster { annotators: Vec::new(), task_sets: Vec::new() });
        let mut line = serde_json::to_vec(&empty).unwrap();
        line.push(b'\n');
        OpenOptions::new().append(true).open(journal::path_for(&path)).unwrap().write_all(&line).unwrap();
        let e = load_with_journal::<Master>(&path).unwrap_err().to_string();
        assert!(e.contains("change 3 cannot be applied: the roster leaves out annotator 1 (Zoé)"), "{e}");
    }

    #[test]
    fn a_roster_committed_is_in_memory_and_on_disk_or_in_neither_whatever_write_fails() {
        // `pending`: a change not saved before the roster, which then goes in a full save.
        for pending in [false, true] {
            let open = |dir: &tempfile::TempDir| {
                let path = tiny(dir);
                let disk = Faulty::new(Fault::None);
                let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
                store.put(record(3, Judgement::Yes)).unwrap();
                if pending {
                    disk.set(Fault::Once(0));
                    assert!(store.put(record(4, Judgement::No)).is_err());
                    disk.set(Fault::None);
                }
                (path, disk, store)
            };
            // Once without faults, to count the disk operations of the commit.
            let dir = tempfile::tempdir().unwrap();
            let (path, disk, mut store) = open(&dir);
            let start = disk.ops().len();
            store.commit_roster(roster()).unwrap();
            let count = disk.ops().len() - start;
            assert_eq!(roster_of(store.master()), roster());
            assert_eq!(store.not_saved(), 0, "the change not saved before is saved with it");
            assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, store.master());
            assert!(count > 0);
            for k in 0..count {
                for fault in [Fault::Once(k), Fault::FullFrom(k)] {
                    let dir = tempfile::tempdir().unwrap();
                    let (path, disk, mut store) = open(&dir);
                    let before = store.master().clone();
                    disk.set(fault);
                    let result = store.commit_roster(roster());
                    disk.set(Fault::None);
                    let on_disk = load_with_journal::<Master>(&path).unwrap().0;
                    let mut in_memory = store.master().clone();
                    let expected = if result.is_ok() { roster() } else { roster_of(&before) };
                    assert_eq!(roster_of(&in_memory), expected, "{fault:?} pending {pending}: memory");
                    assert_eq!(roster_of(&on_disk), expected, "{fault:?} pending {pending}: disk as memory");
                    in_memory.revision = before.revision;
                    if result.is_err() {
                        assert_eq!(in_memory, before, "{fault:?} pending {pending}: memory as it was");
                    }
                    assert_eq!(on_disk.records.len() + store.not_saved(), in_memory.records.len(), "{fault:?}");
                    assert!(atomic::leftovers(&path).is_empty(), "{fault:?}");
                }
            }
        }
    }

    #[test]
    fn a_holder_whose_file_was_replaced_stops_writing_and_keeps_its_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut first, _) = Store::<Master>::open(&path).unwrap();
        first.put(record(3, Judgement::Yes)).unwrap();
        // Someone removes the lock; a second writer gets in and saves in full.
        std::fs::remove_file(lock_path(&path)).unwrap();
        let (mut second, opened) = Store::<Master>::open(&path).unwrap();
        assert!(opened.read_only.is_none());
        second
            .update(|m| {
                m.description = "the intruder's".into();
                Ok(())
            })
            .unwrap();
        second.close().unwrap();
        // The first notices at its next change: nothing more is written, the change is kept.
        let e = first.put(record(4, Judgement::No)).unwrap_err().to_string();
        assert!(e.contains("another program changed it") && e.contains("save them as a new file"), "{e}");
        assert!(
            first.detached().is_some_and(|why| why.ends_with("tiny.master.json was replaced")),
            "{:?}",
            first.detached()
        );
        assert_eq!((first.master().records.len(), first.not_saved()), (2, 1));
        assert!(first.writable().is_err());
        let on_disk = master_file::load(&path).unwrap();
        assert_eq!((on_disk.description.as_str(), on_disk.records.len()), ("the intruder's", 1));
        // Closing writes nothing over the intruder's file, and says the change is lost there.
        let copy = dir.path().join("mine.master.json");
        first.save_copy(&copy).unwrap();
        assert!(first.close().is_err());
        assert_eq!(master_file::load(&path).unwrap(), on_disk);
        assert_eq!(master_file::load(&copy).unwrap().records.len(), 2);
    }

    #[test]
    fn a_full_save_checks_the_revision_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        // Another program writes the file in place, same size, at another revision.
        let text = std::fs::read_to_string(&path).unwrap().replacen("\"revision\":0", "\"revision\":7", 1);
        let meta = std::fs::metadata(&path).unwrap();
        std::fs::write(&path, &text).unwrap();
        let when = std::fs::FileTimes::new().set_modified(meta.modified().unwrap());
        std::fs::File::options().write(true).open(&path).unwrap().set_times(when).unwrap();
        let e = store.save().unwrap_err().to_string();
        assert!(e.contains("is at revision 7, not 0"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_without_write_permission_opens_read_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let (mut store, opened) = Store::<Master>::open(&path).unwrap();
        let why = opened.read_only.unwrap();
        assert!(why.ends_with("tiny.master.json has no write permission (it is a read-only file)"), "{why}");
        let e = store.writable().unwrap_err().to_string();
        assert!(e.contains("make it writable first"), "{e}");
        assert!(store.update(|_| Ok(())).is_err() && store.put(record(3, Judgement::Yes)).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
        assert!(!lock_path(&path).exists() && !journal::path_for(&path).exists());
    }

    #[test]
    fn a_torn_last_change_is_dropped_with_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        drop(store);
        let mut j = OpenOptions::new().append(true).open(journal::path_for(&path)).unwrap();
        j.write_all(b"{\"put\":{\"candidate\":4,").unwrap();
        let (store, opened) = Store::<Master>::open(&path).unwrap();
        assert_eq!((opened.recovered, store.master().records.len()), (1, 1));
        assert!(opened.dropped.unwrap().contains("was cut short"));
    }

    /// Every file in `dir`, with its bytes (a link as `-> TARGET`).
    fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().to_string_lossy().into_owned();
                let bytes = match std::fs::read_link(e.path()) {
                    Ok(target) => format!("-> {}", target.display()).into_bytes(),
                    Err(_) if e.file_type().unwrap().is_file() => std::fs::read(e.path()).unwrap(),
                    Err(_) => b"(not a file)".to_vec(),
                };
                (name, bytes)
            })
            .collect();
        files.sort();
        files
    }

    #[cfg(unix)]
    #[test]
    fn a_link_and_the_real_path_meet_the_same_lock_and_journal() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let (mut through_link, opened) = Store::<Master>::open(&link).unwrap();
        assert!(opened.read_only.is_none());
        assert_eq!(through_link.path(), link.as_path(), "named as the user named it");
        assert_eq!(through_link.real_path(), std::fs::canonicalize(&path).unwrap());
        through_link.put(record(3, Judgement::Yes)).unwrap();
        assert!(lock_path(&path).exists() && journal::path_for(&path).exists());
        assert!(!lock_path(&link).exists() && !journal::path_for(&link).exists());
        // The real path (or any other spelling) finds the file held, and sees the change.
        let spelled = dir.path().join(".").join("tiny.master.json");
        let (other, opened) = Store::<Master>::open(&spelled).unwrap();
        assert!(opened.read_only.unwrap().contains("is open in another PROTEST window"));
        assert_eq!(other.master().records.len(), 1);
        through_link.close().unwrap();
        // Saved into the file itself; the link is still a link.
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
        assert_eq!(load_with_journal::<Master>(&link).unwrap().0.records.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn links_planted_beside_a_master_are_refused_and_their_targets_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let outside = tempfile::tempdir().unwrap();
        let rc = outside.path().join("rc");
        std::fs::write(&rc, "a user's precious file, one line without its newline").unwrap();
        let planted = |name: &str| {
            let at = dir.path().join(name);
            std::os::unix::fs::symlink(&rc, &at).unwrap();
            at
        };
        // As its lock: the file opens read-only, saying so; nothing is written anywhere.
        let lock = planted("tiny.master.json.lock");
        let before = snapshot(dir.path());
        let (mut store, opened) = Store::<Master>::open(&path).unwrap();
        let why = opened.read_only.unwrap();
        assert!(why.contains("tiny.master.json.lock: is a symbolic link (to ") && why.ends_with("remove it"), "{why}");
        let e = store.writable().unwrap_err().to_string();
        assert!(e.contains("remove it; PROTEST makes its own once it is gone"), "{e}");
        assert!(store.put(record(3, Judgement::Yes)).is_err());
        drop(store);
        std::fs::remove_file(&lock).unwrap();
        // As its journal: refused, naming it, and no lock is left behind.
        let journal = planted("tiny.master.json.journal");
        let e = Store::<Master>::open(&path).unwrap_err().to_string();
        assert!(e.contains("tiny.master.json.journal: is a symbolic link"), "{e}");
        assert!(load_with_journal::<Master>(&path).is_err());
        assert!(!lock_path(&path).exists(), "a failed open leaves no lock");
        assert_eq!(snapshot(dir.path()).len(), before.len());
        std::fs::remove_file(&journal).unwrap();
        // As a leftover temporary file: not followed, not removed, and saving makes its own.
        let temp = planted(".tiny.master.json.protest-Ab12cd.tmp");
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        store.close().unwrap();
        assert!(std::fs::symlink_metadata(&temp).unwrap().file_type().is_symlink());
        assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
        assert_eq!(std::fs::read_to_string(&rc).unwrap(), "a user's precious file, one line without its newline");
        // Nothing was ever written through a link.
        assert_eq!(snapshot(outside.path()).len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_or_a_device_is_refused_at_once_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("m.json");
        crate::testing::mkfifo(&pipe);
        for path in [pipe.as_path(), Path::new("/dev/zero")] {
            let started = std::time::Instant::now();
            let e = Store::<Master>::open(path).unwrap_err().to_string();
            assert!(e.contains(": is a ") && e.contains("not a regular file"), "{e}");
            let e = load_master_with_statuses(path).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
            assert!(started.elapsed() < std::time::Duration::from_secs(2));
        }
        assert_eq!(snapshot(dir.path()).iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["m.json"]);
        // A pipe where the lock goes opens the file read-only.
        let path = tiny(&dir);
        crate::testing::mkfifo(&lock_path(&path));
        let (_, opened) = Store::<Master>::open(&path).unwrap();
        assert!(opened.read_only.unwrap().contains("is a named pipe (FIFO)"));
    }

    #[test]
    fn a_temporary_file_a_live_writer_holds_is_not_a_leftover() {
        let dir = tempfile::tempdir().unwrap();
        let path = std::fs::canonicalize(tiny(&dir)).unwrap();
        let live = disk::Os.create(&dir.path().join(".tiny.master.json.protest-Live12.tmp")).unwrap();
        std::fs::write(dir.path().join(".tiny.master.json.protest-Dead12.tmp"), "half").unwrap();
        let (store, _) = Store::<Master>::open(&path).unwrap();
        let left: Vec<String> =
            atomic::leftovers(&path).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(left, [".tiny.master.json.protest-Live12.tmp"]);
        drop((store, live));
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_the_largest_revision_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.master.json");
        std::fs::write(&path, format!("\u{FEFF}{TINY}")).unwrap();
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        store.close().unwrap();
        assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
        let max = TINY.replacen("\"revision\":0", &format!("\"revision\":{}", u64::MAX), 1);
        assert_ne!(max, TINY);
        std::fs::write(&path, &max).unwrap();
        let e = Store::<Master>::open(&path).unwrap_err().to_string();
        assert!(e.contains("revision 18446744073709551615 is the largest there can be"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), max);
        assert!(!lock_path(&path).exists());
    }

    #[test]
    fn a_journal_older_than_its_file_is_said_to_be_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        let journal = std::fs::read(journal::path_for(&path)).unwrap();
        store.close().unwrap();
        // The journal of revision 0 put back beside the file at revision 1.
        std::fs::write(journal::path_for(&path), &journal).unwrap();
        let (_, replay) = load_with_journal::<Master>(&path).unwrap();
        assert_eq!((replay.stale, replay.discarded), (true, 1));
        let (_, opened) = Store::<Master>::open(&path).unwrap();
        let note = opened.dropped.unwrap();
        assert!(note.contains("holds 1 change made to revision 0") && note.contains("it is ignored"), "{note}");
    }
}
