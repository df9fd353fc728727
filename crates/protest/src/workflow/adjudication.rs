//! Adjudication: the candidates annotators disagree on go, as a task set and a batch, to a
//! further annotator ([`crate::batches::adjudication`] has the rules).

use super::{Content, Output, Prepared, Written, check_folder, check_target, commit, refused};
use crate::batches::adjudication;
use crate::batches::export;
use crate::batches::plan::Plan;
use crate::error::Result;
use crate::model::{AnnotatorId, Master};
use crate::store::Store;
use chrono::{DateTime, Utc};
use std::path::PathBuf;

/// What to adjudicate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudicating {
    /// The adjudicator, added to the master if new.
    pub name: String,
    /// The task set's name; empty gives "Adjudication by NAME".
    pub task_set_name: String,
    /// Draws the batch's presentation order.
    pub seed: u64,
    pub folder: PathBuf,
    pub replace: bool,
    pub created: DateTime<Utc>,
}

/// What adjudication stored and wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudicated {
    pub plan: Plan,
    pub adjudicator: AnnotatorId,
    pub file: Written,
    /// The output folder, when it was not there and was made for the batch.
    pub created_folder: Option<PathBuf>,
}

/// What adjudication by `name` would give them, without writing anything: for a preview or a
/// dry run.
pub fn preview(
    master: &Master,
    adjudicating: &Adjudicating,
) -> Result<(Plan, AnnotatorId), adjudication::AdjudicationError> {
    let mut draft = master.clone();
    adjudication::assign(
        &mut draft,
        &adjudicating.name,
        adjudicating.seed,
        &adjudicating.task_set_name,
        adjudicating.created,
    )
}

/// Checks, plans the task set and makes the batch, in memory.
pub fn prepare(store: &Store<Master>, adjudicating: &Adjudicating) -> Result<Prepared<Adjudicated>> {
    let folders = check_folder(&adjudicating.folder)?;
    let a = adjudicating;
    let mut draft = store.master().clone();
    let (plan, who) = adjudication::assign(&mut draft, &a.name, a.seed, &a.task_set_name, a.created)
        .map_err(refused(store.path()))?;
    let id = plan.task_set.id;
    let batch = export::build(&draft, id, who, a.created).map_err(refused(store.path()))?;
    let master_name = store.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let path = a.folder.join(export::file_name(&master_name, id, &batch.annotator().name, who));
    check_target(&path, a.replace)?;
    let file = Written::of(&path, &batch);
    let created_folder = folders.last().cloned();
    let mut prepared = Prepared::new(store, Some(draft), Adjudicated { plan, adjudicator: who, file, created_folder });
    prepared.folders = folders;
    prepared.outputs.push(Output { path, replace: a.replace, content: Content::Batch(Box::new(batch)) });
    Ok(prepared)
}

/// Stores the adjudication task set and writes its batch: both, or nothing.
pub fn run(store: &mut Store<Master>, adjudicating: &Adjudicating) -> Result<Adjudicated> {
    let prepared = prepare(store, adjudicating)?;
    commit(store, prepared)
}
