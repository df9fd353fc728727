//! Exporting a task set's batches: the parts given to annotators in the master, one batch file
//! per part ([`crate::batches::export`] has the rules).

use super::{Change, Content, Output, Prepared, Written, check_folder, check_target, commit, draft, refused};
use crate::batches::export;
use crate::error::Result;
use crate::model::Master;
use crate::store::Store;
use chrono::{DateTime, Utc};
use std::path::PathBuf;

/// What to export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exporting {
    pub task_set: u32,
    /// Who gets each part, in part order (added to the master if new). Empty: the parts keep
    /// their annotators, and the others go to the master's annotators without a part of the task
    /// set, in order ([`export::default_names`]).
    pub names: Vec<String>,
    /// The folder the batches go to.
    pub folder: PathBuf,
    /// Replace batch files that exist (never one with annotation work in its journal).
    pub replace: bool,
    pub created: DateTime<Utc>,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    pub files: Vec<Written>,
    /// When nobody was named and parts went to annotators they did not have before: who got
    /// which, in plain words.
    pub chosen: Option<String>,
    /// The output folder, when it was not there and was made for the batches.
    pub created_folder: Option<PathBuf>,
}

/// Checks the export: gives the parts out in a draft of the roster and task sets (the only things
/// an export changes in the master) and checks every batch can be made. The batches themselves
/// are made from the master one at a time while they are written, so that a large master's
/// export holds one batch in memory, not all.
pub fn prepare(store: &Store<Master>, exporting: &Exporting) -> Result<Prepared<Exported>> {
    let master = store.master();
    let folders = check_folder(&exporting.folder)?;
    let mut draft = draft::of(master);
    let master_name = store.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let given =
        export::give_out(master, &mut draft, exporting.task_set, &exporting.names, exporting.created, &master_name)
            .map_err(refused(store.path()))?;
    let mut outputs = Vec::new();
    let mut files: Vec<Written> = Vec::new();
    for export::Named { file_name, recipe } in given.batches {
        let path = exporting.folder.join(file_name);
        check_target(&path, exporting.replace)?;
        files.push(Written {
            path: path.clone(),
            annotator: recipe.annotator().name.clone(),
            candidates: recipe.candidates(),
            records: recipe.records(master),
        });
        outputs.push(Output { path, replace: exporting.replace, content: Content::Export(Box::new(recipe)) });
    }
    let change = given.changed.then(|| Change::Roster(draft::roster(draft)));
    let created_folder = folders.last().cloned();
    let exported = Exported { files, chosen: given.chosen, created_folder };
    let mut prepared = Prepared::changing(store, change, exported);
    prepared.outputs = outputs;
    prepared.folders = folders;
    Ok(prepared)
}

/// Gives the parts out and writes the batches: all of them and the master, or nothing.
pub fn run(store: &mut Store<Master>, exporting: &Exporting) -> Result<Exported> {
    let prepared = prepare(store, exporting)?;
    commit(store, prepared)
}
