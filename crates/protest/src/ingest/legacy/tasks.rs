//! Task sets: the old `task_definition` and `annotation_tasks` tables as our task sets, and where
//! a converted batch goes in its master's task sets so that it merges like a native one.
//!
//! The old master records which candidates each task has, not who was given it: a batch says
//! that (its annotator and the tasks copied into it). So converting a master gives task sets whose
//! parts have no annotator yet, and converting each batch then gives its annotator their parts —
//! or, when the batch's candidates are not exactly some parts of one task set, a task set of its
//! own. Either way the master gets a task set that gives the annotator exactly the batch's
//! candidates, which is what [`crate::batches::merge`] maps batches through.

use super::db::at_row;
use super::old::OldFile;
use crate::batches::plan;
use crate::error::Result;
use crate::model::{Annotator, AnnotatorId, CandidateId, Master, Purpose, Task, TaskSet};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// How the old task tables were counted into task sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TaskTally {
    /// `annotation_tasks` rows with a negative `task_no`: candidates the old planner left
    /// unassigned (it parks the pool at −1 while drawing).
    pub unassigned: usize,
    /// Rows repeating a candidate already in the same task.
    pub repeated: usize,
}

/// A stable seed for a converted task set, so converting the same file twice gives the same
/// batch orders (FNV-1a of the name).
fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The task sets of an old master, one per distinct `taskset` name in order of first
/// definition, each with its tasks in definition order. Parts get an annotator only where the
/// file has `annotation_tasks.annotator_id` and it is the same for all of a part's rows.
pub(super) fn task_sets(
    path: &Path,
    old: &OldFile,
    master: &Master,
    candidates: &HashMap<i64, CandidateId>,
    annotators: &HashMap<i64, AnnotatorId>,
    created: DateTime<Utc>,
) -> Result<(Vec<TaskSet>, TaskTally)> {
    let mut tally = TaskTally::default();
    let definitions: HashMap<i64, usize> = (0..).zip(&old.task_definitions).map(|(i, d)| (d.id, i)).collect();
    let mut members: Vec<(BTreeSet<CandidateId>, BTreeSet<Option<i64>>)> =
        vec![Default::default(); old.task_definitions.len()];
    for p in &old.task_places {
        if p.task_no < 0 {
            tally.unassigned += 1;
            continue;
        }
        let Some(&d) = definitions.get(&p.task_no) else {
            return Err(at_row(
                path,
                "annotation_tasks",
                p.id,
                format!("task_no {} is not in table task_definition", p.task_no),
            ));
        };
        let Some(&c) = candidates.get(&p.candidate) else {
            return Err(at_row(
                path,
                "annotation_tasks",
                p.id,
                format!("candidate {} is not a candidate of table {}", p.candidate, old.candidates_table),
            ));
        };
        if !members[d].0.insert(c) {
            tally.repeated += 1;
        }
        members[d].1.insert(p.annotator);
    }
    let mut names: Vec<&str> = Vec::new();
    for d in &old.task_definitions {
        if !names.contains(&d.taskset.as_str()) {
            names.push(&d.taskset);
        }
    }
    let mut sets = Vec::new();
    for (n, name) in (1..).zip(names) {
        let mut tasks = Vec::new();
        for (d, (cands, who)) in old.task_definitions.iter().zip(&members).filter(|(d, _)| d.taskset == name) {
            let label = if d.label.trim().is_empty() { d.id.to_string() } else { d.label.trim().to_owned() };
            let mut task = Task { label, candidates: cands.iter().copied().collect(), annotator: None };
            if let ([Some(a)], false) = (who.iter().collect::<Vec<_>>().as_slice(), task.is_iaa()) {
                task.annotator = annotators.get(a).copied().filter(|a| !a.is_researcher());
            }
            tasks.push(task);
        }
        let name = if name.trim().is_empty() { format!("Task set {n}") } else { name.trim().to_owned() };
        sets.push(task_set(master, n, name, tasks, created));
    }
    Ok((sets, tally))
}

/// A task set over these tasks, with what it draws from worked out from its candidates.
fn task_set(master: &Master, id: u32, name: String, tasks: Vec<Task>, created: DateTime<Utc>) -> TaskSet {
    let all: BTreeSet<CandidateId> = tasks.iter().flat_map(|t| t.candidates.iter().copied()).collect();
    let (corpora, categories) = plan::drawn_from(master, &all);
    TaskSet {
        id,
        seed: seed(&format!("{}/{name}", master.id)),
        name,
        created,
        corpora,
        categories,
        annotators: tasks.iter().filter(|t| !t.is_iaa()).count() as u32,
        iaa_size: tasks.iter().filter(|t| t.is_iaa()).map(|t| t.candidates.len() as u32).sum(),
        purpose: Purpose::Annotation,
        planner: Default::default(),
        tasks,
    }
}

/// Where a converted batch goes in the master.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The batch's annotator as the master knows them.
    pub annotator: Annotator,
    /// The annotator is not in the master yet and is added.
    pub add_annotator: bool,
    pub task_set: u32,
    pub how: How,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum How {
    /// The task set already gives the annotator exactly the batch's candidates.
    Existing,
    /// These parts (task indices) of the task set are given to the annotator.
    Assign(Vec<usize>),
    /// A task set of the batch's own is added.
    New(TaskSet),
}

impl Placement {
    /// Whether applying it changes the master.
    pub fn changes_master(&self) -> bool {
        self.add_annotator || self.how != How::Existing
    }

    /// Makes the change in the master (the one it was worked out for).
    pub fn apply(&self, master: &mut Master) {
        if self.add_annotator && master.annotator(self.annotator.id).is_none() {
            master.annotators.push(self.annotator.clone());
        }
        match &self.how {
            How::Existing => {}
            How::Assign(tasks) => {
                if let Some(ts) = master.task_set_mut(self.task_set) {
                    for &i in tasks {
                        ts.tasks[i].annotator = Some(self.annotator.id);
                    }
                }
            }
            How::New(ts) => master.task_sets.push(ts.clone()),
        }
        master.reindex();
    }

    /// What it does, in plain words.
    pub fn describe(&self, master: &Master) -> String {
        let who = &self.annotator.name;
        let added = if self.add_annotator {
            format!("adds annotator {who} (id {}); ", self.annotator.id)
        } else {
            String::new()
        };
        let ts = master.task_set(self.task_set);
        let ts_name = ts.map_or(String::new(), |t| format!(" '{}'", t.name));
        match &self.how {
            How::Existing => format!("{added}task set {}{ts_name} already gives {who} these candidates", self.task_set),
            How::Assign(tasks) => {
                let labels: Vec<&str> =
                    tasks.iter().filter_map(|&i| ts.and_then(|t| t.tasks.get(i))).map(|t| t.label.as_str()).collect();
                format!("{added}gives {who} part {} of task set {}{ts_name}", labels.join(", "), self.task_set)
            }
            How::New(t) => format!(
                "{added}adds task set {} '{}' with {who}'s {} candidates",
                t.id,
                t.name,
                t.tasks[0].candidates.len()
            ),
        }
    }
}

/// Where a batch of `annotator` with `wanted` candidates goes, given the parts its
/// `annotation_tasks` rows name (`old_tasks`, as candidate sets); `None` when it needs a task set
/// of its own and no task set id is left.
pub(super) fn place(
    master: &Master,
    annotator: Annotator,
    add_annotator: bool,
    wanted: &BTreeSet<CandidateId>,
    old_tasks: &[BTreeSet<CandidateId>],
    created: DateTime<Utc>,
) -> Option<Placement> {
    let who = annotator.id;
    let placed = |task_set, how| Placement { annotator: annotator.clone(), add_annotator, task_set, how };
    let gives = |ts: &TaskSet| plan::candidates_for(ts, who).into_iter().collect::<BTreeSet<_>>();
    if let Some(ts) = master.task_sets.iter().find(|ts| gives(ts) == *wanted) {
        return Some(placed(ts.id, How::Existing));
    }
    let union: BTreeSet<CandidateId> = old_tasks.iter().flatten().copied().collect();
    if !old_tasks.is_empty() && union == *wanted {
        for ts in &master.task_sets {
            let Some(found) = old_tasks
                .iter()
                .map(|set| ts.tasks.iter().position(|t| t.candidates.iter().copied().collect::<BTreeSet<_>>() == *set))
                .collect::<Option<Vec<usize>>>()
            else {
                continue;
            };
            let mut draft = ts.clone();
            let mut assign = Vec::new();
            let mut free = true;
            for i in found {
                let task = &mut draft.tasks[i];
                match task.annotator {
                    None if task.is_iaa() => {}
                    None => {
                        task.annotator = Some(who);
                        assign.push(i);
                    }
                    Some(a) => free &= a == who,
                }
            }
            if free && !assign.is_empty() && gives(&draft) == *wanted {
                return Some(placed(ts.id, How::Assign(assign)));
            }
        }
    }
    let name = format!("{}'s batch from the original PROTEST", annotator.name);
    let id = master.next_task_set_id()?;
    let task = Task { label: "1".into(), candidates: wanted.iter().copied().collect(), annotator: Some(who) };
    Some(placed(id, How::New(task_set(master, id, name, vec![task], created))))
}

/// The candidate sets of a batch's tasks, by `task_no` (negative ones are the planner's leftovers).
pub(super) fn batch_tasks(
    old: &OldFile,
    candidates: impl Fn(i64) -> Option<CandidateId>,
) -> Vec<BTreeSet<CandidateId>> {
    let mut by_task: BTreeMap<i64, BTreeSet<CandidateId>> = BTreeMap::new();
    for p in old.task_places.iter().filter(|p| p.task_no >= 0) {
        if let Some(c) = candidates(p.candidate) {
            by_task.entry(p.task_no).or_default().insert(c);
        }
    }
    by_task.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_stable() {
        assert_eq!(seed(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(seed("a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(seed("m/Task set 1"), seed("m/Task set 2"));
    }
}
