//! Adding a new MT system's output to the master. The slow part, [`crate::ingest::add_system::prepare`]
//! (tokenising and aligning), needs only a copy of the master and may run anywhere; this adds
//! its result.

use super::{Prepared, commit};
use crate::error::Result;
use crate::ingest::add_system::NewSystem;
use crate::model::{CorpusId, Master};
use crate::store::Store;

/// Adds the prepared system to the master as it is now, in memory; the outcome is its corpus id.
pub fn prepare(store: &Store<Master>, system: NewSystem) -> Result<Prepared<CorpusId>> {
    let mut draft = store.master().clone();
    let corpus = system.add_to(&mut draft)?;
    Ok(Prepared::new(store, Some(draft), corpus))
}

/// Adds the system and saves the master.
pub fn run(store: &mut Store<Master>, system: NewSystem) -> Result<CorpusId> {
    let prepared = prepare(store, system)?;
    commit(store, prepared)
}
