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
pub mod based;
pub mod batch_file;
pub mod disk;
mod document;
pub mod files;
pub mod journal;
pub mod json;
mod leftovers;
mod lock;
pub mod master_file;
mod replay;
pub mod summary;
pub mod validate;

pub use document::Document;
pub use lock::{Holder, lock_path, set_holder};
pub use replay::Misfit;
pub(crate) use replay::apply;
pub use replay::{load_master_with_statuses, load_with_journal, replay_into};

use crate::error::{Error, Result};
use crate::model::{AnnotatorId, CandidateId, Master, Record};
use based::Based;
use disk::{Disk, Identity, NotAsLeft};
use journal::{Entry, Journal, Roster};
use lock::{Lock, ReadOnly, writable};
use replay::{check_roster, load_resolved, read_consistently, swap_roster};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Fold the journal into the file once it holds this much.
pub const FOLD_BYTES: u64 = 8 << 20;

/// What opening found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Opened {
    /// Changes recovered from the journal (work since the last full save, e.g. before a crash).
    pub recovered: usize,
    /// Why the file is read-only: someone else has it open (a window, `protest serve` at its
    /// address, a command), or it cannot be written.
    pub read_only: Option<String>,
    /// What to do about it, when read-only: close it there, stop the server, make it writable…
    pub remedy: Option<String>,
    /// What opening found and settled, to tell the user: the journal's last change was cut short
    /// by a crash while it was being written (so never reported as saved) and was dropped; a
    /// journal left from before the file's last full save was set aside; a damaged journal line
    /// and what follows it were set aside; a complete save that had not replaced the file was put
    /// in its place.
    pub dropped: Option<String>,
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
    /// The journal size at which to fold next.
    fold_at: u64,
    /// The file as this store last read or wrote it.
    file: Option<Identity>,
    /// Changes made in memory that are not on disk yet, oldest first, each with the version of
    /// the record it was made on.
    pending: Vec<Based>,
    /// The changes in the journal since it was started (the file's last full save): what is lost
    /// with it if another program removes or replaces it ([`Store::unsaved_entries`]).
    journaled: Vec<Based>,
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
        Store::open_on_as(disk, path, lock::this_process())
    }

    /// [`Store::open`] for `holder`, which the lock names to whoever else opens the file (this
    /// process's own [`set_holder`] otherwise): `protest serve` with its address.
    pub fn open_as(path: &Path, holder: &Holder) -> Result<(Self, Opened)> {
        Store::open_on_as(disk::os(), path, holder)
    }

    fn open_on_as(disk: Arc<dyn Disk>, path: &Path, holder: &Holder) -> Result<(Self, Opened)> {
        let real = files::resolve(path)?;
        let lock = match writable(&real) {
            Err(why) => Err(ReadOnly::NoPermission(format!("{} {why}", path.display()))),
            Ok(()) => Lock::acquire(&real, path, holder),
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
        let mut notes = Vec::new();
        if locked {
            // A crash in the middle of a full save leaves its temporary file behind (nobody else
            // can be writing this file or its journal now); one that holds saved work the file
            // does not is put in its place.
            notes.extend(leftovers::settle::<D>(&*disk, &real, path)?);
            atomic::remove_leftovers(&journal::path_for(&real));
        }
        // Without the lock we read while the holder may be folding its journal into the file;
        // reading again then is `read_consistently`'s.
        let (doc, mut replay) = read_consistently(path, &real, |real| load_resolved::<D>(real))?;
        let journal_path = journal::path_for(&real);
        let (journal, file) = match locked {
            true => {
                // What follows a damaged line is kept apart before the journal is rewritten
                // without it.
                if let Some(damage) = &replay.damaged {
                    let aside = leftovers::set_aside(&*disk, &real, damage)?;
                    notes.push(damage.note(&journal_path, replay.entries.len(), Some(&aside)));
                }
                let journal = Journal::resume(Arc::clone(&disk), &real, &replay, doc.file_id(), doc.master().revision)?;
                (Some(journal), Some(Identity::of_path(&real).map_err(|e| Error::io(path, e))?))
            }
            false => (None, None),
        };
        if !(locked && replay.damaged.is_some()) {
            notes.extend(replay.note(&journal_path));
        }
        let opened = Opened {
            recovered: replay.entries.len(),
            read_only: read_only.as_ref().map(|r| r.why().to_owned()),
            remedy: read_only.as_ref().map(|r| r.remedy().to_owned()),
            dropped: (!notes.is_empty()).then(|| notes.join("; ")),
        };
        let store = Store {
            disk,
            path: path.to_path_buf(),
            real,
            doc,
            journal,
            lock: None,
            read_only,
            fold_at: FOLD_BYTES,
            file,
            pending: Vec::new(),
            // What these were made on was not kept.
            journaled: match locked {
                true => replay.entries.drain(..).map(|entry| Based { entry, base: None }).collect(),
                false => Vec::new(),
            },
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
            journal::reads_back(entry).map_err(|problem| Error::whole_file(&self.path, problem))?;
        }
        for entry in entries {
            let before = based::key(&entry).and_then(|(c, a)| self.doc.master().records.get(c, a).cloned());
            apply(self.doc.master_mut(), &entry).map_err(|m| Error::whole_file(&self.path, m.to_string()))?;
            self.changes += 1;
            self.pending.push(Based::on(before.as_ref(), entry));
        }
        self.flush()
    }

    /// A store opened read-only because another program holds the file (a window, or
    /// `protest serve`, docs/serve.md) reads the file and its journal again when either changed
    /// since it last read them, so that it shows what the holder saved meanwhile. Returns whether
    /// it did. Nothing is written; a store that holds the file does nothing.
    pub fn refresh(&mut self) -> Result<bool> {
        let now = identities(&self.path);
        if !matches!(self.read_only, Some(ReadOnly::Locked { .. })) || now == self.read {
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
        let entries: Vec<Entry> = self.pending.iter().map(|b| b.entry.clone()).collect();
        journal.append_all(&entries)?;
        self.journaled.append(&mut self.pending);
        self.fold_if_grown();
        Ok(())
    }

    /// Folds the journal into the file once it has grown past the threshold. The changes are
    /// saved already; a fold that fails is tried again once the journal has grown by as much again.
    fn fold_if_grown(&mut self) {
        let bytes = self.journal.as_ref().map_or(0, Journal::bytes);
        if bytes > self.fold_at {
            self.fold_at = bytes + FOLD_BYTES;
            if self.save().is_ok() {
                self.fold_at = FOLD_BYTES;
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
        check_roster(self.doc.master(), &roster).map_err(|m| Error::whole_file(&self.path, m.to_string()))?;
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
        self.journaled.push(Based { entry: entry.clone(), base: None });
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
    /// (`crate::session::recovery`), each with the version of the record it was made on.
    pub fn unsaved_entries(&self) -> Vec<Based> {
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
        // What cannot be looked at is left to the write, which will say what is wrong.
        let problem =
            NotAsLeft::check(&self.path, &self.real, &known).err().filter(|e| !matches!(e, NotAsLeft::Unseen { .. }));
        let problem = problem.or_else(|| self.journal.as_ref().and_then(|j| j.check_unchanged().err())).or_else(|| {
            let ours = self.doc.master().revision;
            let theirs = full.then(|| json::top_level_u64(&self.real, "revision")).flatten();
            theirs.filter(|&r| r != ours).map(|theirs| NotAsLeft::Revision { path: self.path.clone(), theirs, ours })
        });
        match problem {
            None => Ok(()),
            Some(why) => {
                let why = why.to_string();
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

/// A store let go without [`Store::close`] — a start that failed after opening the file, an error
/// on the way — leaves nothing beside the file that holds nothing: a journal without a change
/// (still the one it started, with nothing not saved) is removed, and the lock file released. A
/// journal with changes stays, for the next opening to replay; so does everything of a store
/// that another program detached. A crash runs none of this: its journal and lock file are
/// recovered and taken over by the next opener.
impl<D: Document> Drop for Store<D> {
    fn drop(&mut self) {
        if self.detached.is_some() {
            return;
        }
        if let Some(journal) = self.journal.take() {
            let empty = journal.is_empty() && !journal.is_damaged() && self.pending.is_empty();
            if empty && journal.check_unchanged().is_ok() {
                let _ = journal.delete();
            }
        }
        if let Some(lock) = self.lock.take() {
            lock.release();
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

/// Which file and journal are at `path` now (for [`Store::refresh`]).
fn identities(path: &Path) -> (Option<Identity>, Option<Identity>) {
    (Identity::of_path(path).ok(), Identity::of_path(&journal::path_for(path)).ok())
}

#[cfg(test)]
mod lying_tests;
#[cfg(test)]
mod tests;
