//! Planning task sets and removing those not given out yet ([`crate::batches::plan`] has the rules).

use super::{Change, Prepared, commit, draft, refused};
use crate::batches::plan::{self, Plan, PlanError, Request};
use crate::error::{Error, Result};
use crate::metrics::auto_eval;
use crate::model::{Master, TaskSet};
use crate::store::Store;
use chrono::{DateTime, Utc};

/// What to plan, beyond [`Request`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planning {
    pub request: Request,
    /// Only candidates the latest automatic reference match left for a human (refused before
    /// the match has run).
    pub only_needing_human: bool,
    /// A task set of the same name that nothing was given out from is replaced (keeping its id);
    /// otherwise a name in use is refused.
    pub replace: bool,
    pub created: DateTime<Utc>,
}

/// A planned task set, ready to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub plan: Plan,
    /// The id of the task set it replaces, if any.
    pub replaces: Option<u32>,
}

/// Plans a task set: what [`run`] would store, for a preview or a dry run. The rules of
/// [`plan::plan`], the filter of [`auto_eval::needing_human`], and the name checks.
pub fn preview(master: &Master, planning: &Planning) -> std::result::Result<Planned, PlanError> {
    crate::progress::stage("Planning the task set", None);
    // A number from the user is checked against what the master holds before anything is made
    // for it: a part per annotator, each with at least one candidate.
    let too_many = |candidates: usize| {
        let annotators = planning.request.annotators;
        (annotators as usize > candidates).then_some(PlanError::TooManyAnnotators { annotators, candidates })
    };
    if let Some(e) = too_many(master.candidates.len()) {
        return Err(e);
    }
    let mut planned = if planning.only_needing_human {
        let keep = auto_eval::needing_human(master).map_err(|_| PlanError::NoMatchYet)?;
        plan::plan(master, &planning.request, keep, planning.created)?
    } else {
        plan::plan(master, &planning.request, plan::every, planning.created)?
    };
    if let Some(e) = too_many(planned.summary.total.available) {
        return Err(e);
    }
    let replaces = plan::replaced_by_name(master, &planned.task_set.name, planning.replace)?;
    if let Some(id) = replaces {
        planned.task_set.id = id;
    }
    Ok(Planned { plan: planned, replaces })
}

/// Checks and plans a task set and works out the master that stores it.
pub fn prepare(store: &Store<Master>, planning: &Planning) -> Result<Prepared<Planned>> {
    let planned = preview(store.master(), planning).map_err(refused(store.path()))?;
    Ok(stage(store, planned))
}

/// Works out the master that stores a task set already planned with [`preview`] against this
/// store's master (a preview shown, then stored, is planned once).
pub fn stage(store: &Store<Master>, planned: Planned) -> Prepared<Planned> {
    // A task set changes only the task sets: no copy of the whole master.
    let mut draft = draft::of(store.master());
    plan::store(&mut draft, planned.plan.task_set.clone(), planned.replaces);
    Prepared::changing(store, Some(Change::Roster(draft::roster(draft))), planned)
}

/// Plans a task set and stores it in the master.
pub fn run(store: &mut Store<Master>, planning: &Planning) -> Result<Planned> {
    let prepared = prepare(store, planning)?;
    commit(store, prepared)
}

/// Removes a task set nothing was given out from; returns it.
pub fn remove(store: &mut Store<Master>, id: u32) -> Result<TaskSet> {
    let mut draft = draft::of(store.master());
    let removed = plan::remove(&mut draft, id).map_err(|e| Error::refused(store.path(), e))?;
    let prepared = Prepared::changing(store, Some(Change::Roster(draft::roster(draft))), removed);
    commit(store, prepared)
}
