//! The open file, whatever its kind: a master (researcher mode) or a batch (annotator mode).
//!
//! The app talks to a [`Workspace`] only, and to a [`LocalFile`] for what only a file on this
//! computer can do. A kind of file plugs in by implementing [`Annotatable`] for its [`Document`]
//! type and adding one arm to [`open`].

use crate::Result;
use crate::annotate::browse;
use crate::metrics::verdict;
use crate::model::{AnnotatorId, CandidateId, Dispute, Master, Record};
use crate::store::based::Based;
use crate::store::batch_file::{self, Batch};
use crate::store::disk::Disk;
use crate::store::journal::Entry;
use crate::store::{Document, Opened, Store};
use std::path::Path;
use std::sync::Arc;

/// Who the file is for (docs/domain.md, "Modes and views").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A master: every candidate, any annotator, corpus names and the corpus filter.
    Researcher,
    /// A batch: one annotator's candidates in the batch's order, no system names.
    Annotator,
}

/// What the app needs to know about a kind of document beyond storing it.
pub trait Annotatable: Document {
    fn mode(&self) -> Mode;
    /// The candidates, in the order they are shown.
    fn order(&self) -> Vec<CandidateId>;
    /// The annotator the file belongs to, or `None` when the user picks one (a master).
    fn annotator(&self) -> Option<AnnotatorId>;
    /// The store as a master's, for the researcher's operations (`None`: not a master).
    fn as_master(store: &mut Store<Self>) -> Option<&mut Store<Master>>;
    /// The questions of `candidate` that `annotator` is asked to settle as its adjudicator.
    fn disputes(&self, candidate: CandidateId, annotator: AnnotatorId) -> Vec<Dispute>;
}

impl Annotatable for Master {
    fn mode(&self) -> Mode {
        Mode::Researcher
    }

    fn order(&self) -> Vec<CandidateId> {
        browse::example_order(self)
    }

    fn annotator(&self) -> Option<AnnotatorId> {
        None
    }

    fn as_master(store: &mut Store<Self>) -> Option<&mut Store<Master>> {
        Some(store)
    }

    fn disputes(&self, candidate: CandidateId, annotator: AnnotatorId) -> Vec<Dispute> {
        verdict::disputes_for(self, candidate, annotator)
    }
}

impl Annotatable for Batch {
    fn mode(&self) -> Mode {
        Mode::Annotator
    }

    fn order(&self) -> Vec<CandidateId> {
        Batch::order(self)
    }

    fn annotator(&self) -> Option<AnnotatorId> {
        Some(Batch::annotator(self).id)
    }

    fn as_master(_: &mut Store<Self>) -> Option<&mut Store<Master>> {
        None
    }

    /// As the batch carries them: it has no other annotators' records to compute them from.
    fn disputes(&self, candidate: CandidateId, _: AnnotatorId) -> Vec<Dispute> {
        self.disputes_of(candidate)
    }
}

/// What every open part does, wherever its changes go: a file on this computer ([`LocalFile`])
/// or the server behind the web page ([`super::Remote`]).
pub trait Workspace: Send {
    /// What the status line names: the file's path, or whose part of which task set.
    fn path(&self) -> &Path;
    fn master(&self) -> &Master;
    fn mode(&self) -> Mode;
    fn order(&self) -> Vec<CandidateId>;
    fn annotator(&self) -> Option<AnnotatorId>;
    fn is_read_only(&self) -> bool;
    /// Stores a record durably (on disk, or kept in the browser until the server takes it, when
    /// this returns Ok; see [`Store::put`] for a change kept as not saved).
    fn put(&mut self, record: Record) -> Result<()>;
    fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Result<()>;
    /// [`Annotatable::disputes`].
    fn disputes(&self, candidate: CandidateId, annotator: AnnotatorId) -> Vec<Dispute>;
    /// Changes kept in memory that are not saved yet.
    fn not_saved(&self) -> usize;
    /// Why they are not.
    fn failure(&self) -> Option<&str>;
    /// Tries again to save what is not saved.
    fn retry(&mut self) -> Result<()>;
    /// Work that goes on by itself, a step at a time: sending changes and taking answers (the
    /// web page), reading again a file another program holds and changed (a read-only window).
    /// Called every frame, `now` in seconds on a clock that only goes forward. Returns whether
    /// the master was read afresh.
    fn poll(&mut self, now: f64) -> bool;
    /// Lets the file go: folds the journal into it and releases the lock.
    fn close(self: Box<Self>) -> Result<()>;
}

/// What only a file on this computer can do: its journal and lock, copies of it, the recovery
/// file of what it could not take, and the master's store for the researcher's operations.
pub trait LocalFile: Workspace {
    /// The master's store, for the researcher's operations (`crate::workflow`); `None` for a
    /// batch.
    fn master_store(&mut self) -> Option<&mut Store<Master>>;
    /// Another program changed the file: what happened (nothing more is written to it).
    fn detached(&self) -> Option<&str>;
    /// Writes everything, changes not saved included, into a new file.
    fn save_copy(&self, path: &Path) -> Result<()>;
    /// [`LocalFile::save_copy`] with `changes` made on top, each checked.
    fn save_copy_with(&self, path: &Path, changes: &[Entry]) -> Result<()>;
    /// The file itself, links and `..` resolved.
    fn real_path(&self) -> &Path;
    /// The id its journal (and a recovery file) is tied to.
    fn file_id(&self) -> &str;
    /// Whether changes can be saved, and why not.
    fn writable(&self) -> Result<()>;
    /// The changes made here that the file and its journal may not hold, each with what it was
    /// made on ([`Store::unsaved_entries`]).
    fn unsaved_entries(&self) -> Vec<Based>;
}

impl<D: Annotatable + Send> Workspace for Store<D> {
    fn path(&self) -> &Path {
        Store::path(self)
    }

    fn master(&self) -> &Master {
        Store::master(self)
    }

    fn mode(&self) -> Mode {
        self.doc().mode()
    }

    fn order(&self) -> Vec<CandidateId> {
        self.doc().order()
    }

    fn annotator(&self) -> Option<AnnotatorId> {
        self.doc().annotator()
    }

    fn is_read_only(&self) -> bool {
        Store::is_read_only(self)
    }

    fn put(&mut self, record: Record) -> Result<()> {
        Store::put(self, record)
    }

    fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Result<()> {
        Store::remove(self, candidate, annotator)
    }

    fn disputes(&self, candidate: CandidateId, annotator: AnnotatorId) -> Vec<Dispute> {
        self.doc().disputes(candidate, annotator)
    }

    fn not_saved(&self) -> usize {
        Store::not_saved(self)
    }

    fn failure(&self) -> Option<&str> {
        Store::failure(self)
    }

    fn retry(&mut self) -> Result<()> {
        Store::retry(self)
    }

    fn close(self: Box<Self>) -> Result<()> {
        Store::close(*self)
    }

    /// A read-only window follows what the holder saves (`protest serve`'s annotators' work).
    fn poll(&mut self, _now: f64) -> bool {
        self.refresh().unwrap_or(false)
    }
}

impl<D: Annotatable + Send> LocalFile for Store<D> {
    fn master_store(&mut self) -> Option<&mut Store<Master>> {
        D::as_master(self)
    }

    fn detached(&self) -> Option<&str> {
        Store::detached(self)
    }

    fn save_copy(&self, path: &Path) -> Result<()> {
        Store::save_copy(self, path)
    }

    fn save_copy_with(&self, path: &Path, changes: &[Entry]) -> Result<()> {
        Store::save_copy_with(self, path, changes)
    }

    fn real_path(&self) -> &Path {
        Store::real_path(self)
    }

    fn file_id(&self) -> &str {
        self.doc().file_id()
    }

    fn writable(&self) -> Result<()> {
        Store::writable(self)
    }

    fn unsaved_entries(&self) -> Vec<Based> {
        Store::unsaved_entries(self)
    }
}

/// Opens a master or a batch (told apart by its `format` field) for the app, writing through
/// `disk`.
pub fn open(disk: Arc<dyn Disk>, path: &Path) -> Result<(Box<dyn LocalFile>, Opened)> {
    if batch_file::is_batch_file(path) {
        let (store, opened) = Store::<Batch>::open_on(disk, path)?;
        return Ok((Box::new(store), opened));
    }
    let (store, opened) = Store::<Master>::open_on(disk, path)?;
    Ok((Box::new(store), opened))
}
