//! The open file, whatever its kind: a master (researcher mode) or a batch (annotator mode).
//!
//! The app talks to a `dyn Workspace` only. A kind of file plugs in by implementing
//! [`Annotatable`] for its [`Document`] type and adding one arm to [`open`].

use protest::batch::{self, Batch};
use protest::model::{AnnotatorId, CandidateId, Master, Record};
use protest::store::{Document, Opened, Store};
use protest::{Error, Result};
use protest::{annotation, annotators};
use std::path::Path;

/// Who the file is for (spec §6).
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
}

impl Annotatable for Master {
    fn mode(&self) -> Mode {
        Mode::Researcher
    }

    fn order(&self) -> Vec<CandidateId> {
        annotation::example_order(self)
    }

    fn annotator(&self) -> Option<AnnotatorId> {
        None
    }
}

/// A change to the whole master, for [`Workspace::update`].
pub type Change<'a> = Box<dyn FnOnce(&mut Master) -> Result<()> + 'a>;

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
}

/// An open file with its journal and lock, as the app uses it.
pub trait Workspace {
    fn path(&self) -> &Path;
    fn master(&self) -> &Master;
    fn mode(&self) -> Mode;
    fn order(&self) -> Vec<CandidateId>;
    fn annotator(&self) -> Option<AnnotatorId>;
    fn is_read_only(&self) -> bool;
    /// Stores a record durably (on disk when this returns).
    fn put(&mut self, record: Record) -> Result<()>;
    fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Result<()>;
    fn add_annotator(&mut self, name: &str) -> Result<AnnotatorId>;
    /// Makes a change beyond single records (task sets, a merge, an automatic-match round, a new
    /// system…) and saves the whole file. `change` must leave the master as it was when it fails.
    fn update(&mut self, change: Change<'_>) -> Result<()>;
    /// Folds the journal into the file and releases the lock.
    fn close(self: Box<Self>) -> Result<()>;
}

impl<D: Annotatable> Workspace for Store<D> {
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

    fn add_annotator(&mut self, name: &str) -> Result<AnnotatorId> {
        let path = self.path().to_path_buf();
        self.update(|doc| annotators::add(doc.master_mut(), name).map_err(|e| Error::whole_file(&path, e.to_string())))
    }

    fn update(&mut self, change: Change<'_>) -> Result<()> {
        Store::update(self, |doc| change(doc.master_mut()))
    }

    fn close(self: Box<Self>) -> Result<()> {
        Store::close(*self)
    }
}

/// Opens a master or a batch (told apart by its `format` field) for the app.
pub fn open(path: &Path) -> Result<(Box<dyn Workspace>, Opened)> {
    if batch::is_batch_file(path) {
        let (store, opened) = Store::<Batch>::open(path)?;
        return Ok((Box::new(store), opened));
    }
    let (store, opened) = Store::<Master>::open(path)?;
    Ok((Box::new(store), opened))
}
