//! Importing annotated batches into their master ([`crate::batches::merge`] has the rules).

use super::Prepared;
use crate::batches::merge::{self, Incoming, Merge};
use crate::error::{Error, Result};
use crate::model::Master;
use crate::store::Store;
use crate::store::batch_file;
use std::path::PathBuf;

/// Reads batch files as their annotators left them (with any work still in their journals).
pub fn read(paths: &[PathBuf]) -> Result<Vec<Incoming>> {
    crate::progress::stage("Reading the batches", Some(paths.len() as u64));
    paths
        .iter()
        .map(|path| {
            let batch = batch_file::load_current(path)?;
            crate::progress::advance(1);
            Ok(Incoming { path: path.clone(), batch })
        })
        .collect()
}

/// Checks the batches against the master and works out the merge, to show before committing.
pub fn prepare(store: &Store<Master>, incoming: &[Incoming]) -> Result<Prepared<Merge>> {
    crate::progress::stage("Checking the batches against the master", None);
    let merge = merge::prepare(store.master(), incoming)?;
    let draft = (!merge.is_empty()).then(|| {
        let mut draft = store.master().clone();
        merge::apply(&mut draft, &merge);
        draft
    });
    Ok(Prepared::new(store, draft, merge))
}

/// Merges a prepared import into the master: all its records, or none. Records that would
/// replace different ones of the same annotator ([`Merge::replaced`]) are refused unless
/// `replace`.
pub fn commit(store: &mut Store<Master>, prepared: Prepared<Merge>, replace: bool) -> Result<Merge> {
    let merge = &prepared.outcome;
    let replaced = merge.replaced();
    if replaced > 0 && !replace {
        let older: usize = merge.reports.iter().map(|r| r.older).sum();
        let older = if older > 0 { format!(" ({older} of them by older ones)") } else { String::new() };
        return Err(Error::refused(
            store.path(),
            format!("{replaced} existing records would be replaced{older}; nothing was changed"),
        ));
    }
    super::commit(store, prepared)
}

/// [`prepare`] and [`commit`].
pub fn run(store: &mut Store<Master>, incoming: &[Incoming], replace: bool) -> Result<Merge> {
    let prepared = prepare(store, incoming)?;
    commit(store, prepared, replace)
}
