//! Loading a file with its journal's changes replayed, each checked as loading checks the file's
//! own.

use crate::annotate::status::Statuses;
use crate::error::Result;
use crate::model::{AnnotatorId, Master};
use crate::store::disk::Identity;
use crate::store::document::Document;
use crate::store::journal::{Entry, Journal, Replay, Roster};
use crate::store::{files, master_file, validate};
use std::path::Path;

/// The file with its journal's changes applied, as opening it would give, without taking its
/// lock or changing anything on disk.
pub fn load_with_journal<D: Document>(path: &Path) -> Result<(D, Replay)> {
    let real = files::resolve(path)?;
    read_consistently(path, &real, load_resolved::<D>)
}

pub(super) fn load_resolved<D: Document>(real: &Path) -> Result<(D, Replay)> {
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
pub(super) fn read_consistently<T>(path: &Path, real: &Path, read: impl Fn(&Path) -> Result<T>) -> Result<T> {
    let mut attempts = 3;
    loop {
        let before = Identity::of_path(real).ok();
        match read(real) {
            Err(_) if attempts > 1 && Identity::of_path(real).ok() != before => attempts -= 1,
            result => return result.map_err(|e| e.renamed(real, path)),
        }
    }
}

/// Reads the journal of the file `doc` was loaded from and applies its changes.
fn replay_journal<D: Document>(doc: &mut D, path: &Path) -> Result<Replay> {
    let (id, revision) = (doc.file_id().to_owned(), doc.master().revision);
    let mut replay = Journal::read(path, &id, revision)?;
    replay_into(doc.master_mut(), &mut replay);
    Ok(replay)
}

/// Applies the changes of a journal to its master, checking each. A change that cannot be
/// applied is damage, like a line that cannot be read: the changes before it are applied, it and
/// those after it are taken out of `replay` ([`Replay::damaged_from`]).
pub fn replay_into(master: &mut Master, replay: &mut Replay) {
    let failed = replay.entries.iter().enumerate().find_map(|(i, entry)| apply(master, entry).err().map(|m| (i, m)));
    if let Some((i, problem)) = failed {
        replay.damaged_from(i, format!("its change cannot be applied: {problem}"));
    }
}

/// Why a change does not fit the master it is applied to; the message says what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Misfit {
    /// The record is not valid against the master (a candidate or annotator it lacks…).
    #[error("{0}")]
    Record(String),
    /// The roster leaves out an annotator whose records the master keeps.
    #[error("the roster leaves out annotator {id} ({name}), whose records the master keeps")]
    LeavesOut { id: AnnotatorId, name: String },
    /// The roster's annotators or task sets do not fit the master.
    #[error("{0}")]
    Roster(String),
    /// A roster change where only records may change (the web page's part).
    #[error("a page changes records only")]
    RecordsOnly,
}

/// Applies one change to `master`, checked as loading checks the master's own (a record valid
/// against it, a roster that fits it).
pub(crate) fn apply(master: &mut Master, entry: &Entry) -> std::result::Result<(), Misfit> {
    match entry {
        Entry::Put(record) => {
            if let Some((_, problem)) = validate::record(master, record) {
                return Err(Misfit::Record(problem));
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
pub(super) fn swap_roster(master: &mut Master, roster: &mut Roster) {
    std::mem::swap(&mut master.annotators, &mut roster.annotators);
    std::mem::swap(&mut master.task_sets, &mut roster.task_sets);
}

/// Whether a roster entry fits `master`: it keeps every annotator (records name them), and its
/// annotators and task sets name only what the master has, each id once — what loading checks of
/// the master's own (`validate`), for a line that may have been edited by hand.
pub(super) fn check_roster(master: &Master, roster: &Roster) -> std::result::Result<(), Misfit> {
    let known = |id: AnnotatorId| id.is_researcher() || roster.annotators.iter().any(|a| a.id == id);
    if let Some(gone) = master.annotators.iter().find(|a| !known(a.id)) {
        return Err(Misfit::LeavesOut { id: gone.id, name: gone.name.clone() });
    }
    match validate::roster(master, &roster.annotators, &roster.task_sets).into_iter().next() {
        Some(problem) => Err(Misfit::Roster(problem.message)),
        None => Ok(()),
    }
}
