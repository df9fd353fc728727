//! Adding, renaming and removing the master's annotators ([`crate::batches::annotators`] has the rules).

use super::{Prepared, commit, refused};
use crate::batches::annotators as roster;
use crate::error::Result;
use crate::model::{AnnotatorId, Master};
use crate::store::Store;

/// Adds an annotator; returns their new id.
pub fn add(store: &mut Store<Master>, name: &str) -> Result<AnnotatorId> {
    let prepared = prepare(store, |m| roster::add(m, name))?;
    commit(store, prepared)
}

/// Renames an annotator; their id, records and parts stay theirs.
pub fn rename(store: &mut Store<Master>, old: &str, new: &str) -> Result<AnnotatorId> {
    let prepared = prepare(store, |m| roster::rename(m, old, new))?;
    commit(store, prepared)
}

/// Removes an annotator who has no records and no part of a task set.
pub fn remove(store: &mut Store<Master>, name: &str) -> Result<AnnotatorId> {
    let prepared = prepare(store, |m| roster::remove(m, name))?;
    commit(store, prepared)
}

fn prepare(
    store: &Store<Master>,
    change: impl FnOnce(&mut Master) -> std::result::Result<AnnotatorId, roster::RosterError>,
) -> Result<Prepared<AnnotatorId>> {
    let mut draft = store.master().clone();
    let id = change(&mut draft).map_err(refused(store.path()))?;
    let changed = draft != *store.master();
    Ok(Prepared::new(store, changed.then_some(draft), id))
}
