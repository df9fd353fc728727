//! Adjudication (as the original team did with a third annotator): candidates
//! on which annotators disagree go, as a task set with purpose
//! [`Purpose::Adjudication`], to a further annotator whose judgement then prevails wherever one
//! judgement per candidate is needed (the reports read the purpose).

use crate::batches::annotators::{self, RosterError};
use crate::batches::plan::{self, Plan, Summary};
use crate::metrics::verdict;
use crate::model::{AnnotatorId, CandidateId, Master, Purpose, Role, Task, TaskSet};
use chrono::{DateTime, Utc};
use std::collections::BTreeSet;

/// A candidate whose annotators do not all give the same judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    pub candidate: CandidateId,
    /// The judgements that differ (pronoun, antecedent or both).
    pub roles: Vec<Role>,
    /// Everyone with a record of the candidate, by id.
    pub annotators: Vec<AnnotatorId>,
}

/// Every candidate that two or more annotators judged differently, by candidate id. Unset (`?`)
/// counts as a judgement of its own, as in the agreement figures; blank records and the
/// researcher's own records do not count.
pub fn disagreements(master: &Master) -> Vec<Disagreement> {
    let mut found = Vec::new();
    for candidate in &master.candidates {
        let records: Vec<_> = master
            .records
            .of_candidate(candidate.id)
            .filter(|r| !r.annotator.is_researcher() && !r.is_blank())
            .collect();
        let roles: Vec<Role> =
            Role::ALL.into_iter().filter(|&role| verdict::in_dispute(records.iter().copied(), role)).collect();
        if !roles.is_empty() {
            found.push(Disagreement {
                candidate: candidate.id,
                roles,
                annotators: records.iter().map(|r| r.annotator).collect(),
            });
        }
    }
    found
}

/// Why no adjudication task set can be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdjudicationError {
    #[error("there is no annotator with id {0}")]
    NoAnnotator(AnnotatorId),
    #[error(
        "nothing to adjudicate: {found} candidates with disagreements, {earlier} of them in earlier adjudication task sets, {own} already annotated by {name}"
    )]
    Nothing { found: usize, earlier: usize, own: usize, name: String },
    #[error(transparent)]
    Roster(#[from] RosterError),
    #[error(transparent)]
    Plan(#[from] plan::PlanError),
}

/// Adds the adjudicator by name (if new) and stores [`plan`]'s task set in the master; returns
/// the plan and the adjudicator's id. On error the master is unchanged.
pub fn assign(
    master: &mut Master,
    name: &str,
    seed: u64,
    task_set_name: &str,
    created: DateTime<Utc>,
) -> Result<(Plan, AnnotatorId), AdjudicationError> {
    let mut draft = master.clone();
    let who = annotators::find_or_add(&mut draft, name)?;
    let planned = plan(&draft, who, seed, task_set_name, created)?;
    draft.task_sets.push(planned.task_set.clone());
    draft.reindex();
    *master = draft;
    Ok((planned, who))
}

/// A task set giving `adjudicator` every disagreement not yet adjudicated. Candidates already in
/// an adjudication task set, and those the adjudicator annotated themselves, are left out (a
/// further annotator judges afresh). `seed` draws the batch's presentation order.
pub fn plan(
    master: &Master,
    adjudicator: AnnotatorId,
    seed: u64,
    name: &str,
    created: DateTime<Utc>,
) -> Result<Plan, AdjudicationError> {
    let person = master.annotator(adjudicator).ok_or(AdjudicationError::NoAnnotator(adjudicator))?;
    let adjudicated: BTreeSet<CandidateId> = master
        .task_sets
        .iter()
        .filter(|t| t.purpose == Purpose::Adjudication)
        .flat_map(|t| t.tasks.iter().flat_map(|task| task.candidates.iter().copied()))
        .collect();
    let found = disagreements(master);
    let fresh: Vec<&Disagreement> = found.iter().filter(|d| !adjudicated.contains(&d.candidate)).collect();
    let candidates: Vec<CandidateId> =
        fresh.iter().filter(|d| !d.annotators.contains(&adjudicator)).map(|d| d.candidate).collect();
    if candidates.is_empty() {
        return Err(AdjudicationError::Nothing {
            found: found.len(),
            earlier: found.len() - fresh.len(),
            own: fresh.len(),
            name: person.name.clone(),
        });
    }
    let (corpora, categories) = plan::drawn_from(master, &candidates);
    let id = master.next_task_set_id().ok_or(plan::PlanError::NoIdLeft)?;
    let task_set = TaskSet {
        id,
        name: if name.trim().is_empty() { format!("Adjudication by {}", person.name) } else { name.trim().to_owned() },
        created,
        seed,
        corpora,
        categories,
        annotators: 1,
        iaa_size: 0,
        purpose: Purpose::Adjudication,
        planner: Default::default(),
        tasks: vec![Task { label: "1".into(), candidates: candidates.clone(), annotator: Some(adjudicator) }],
    };
    let summary = Summary::of(master, &task_set, &candidates);
    Ok(Plan { task_set, summary })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Judgement, Record};

    fn tiny_with_three() -> Master {
        let mut m = crate::testing::bare_tiny();
        for name in ["Anna", "Ben", "Clara"] {
            annotators::add(&mut m, name).unwrap();
        }
        m
    }

    fn judge(m: &mut Master, candidate: u32, who: u32, antecedent: Judgement, pronoun: Judgement) {
        let mut r = Record::new(CandidateId(candidate), AnnotatorId(who), DateTime::UNIX_EPOCH);
        (r.antecedent, r.pronoun) = (antecedent, pronoun);
        m.records.put(r);
    }

    use Judgement::{No, Unset, Yes};

    #[test]
    fn disagreements_are_found_per_judgement() {
        let mut m = tiny_with_three();
        judge(&mut m, 1, 1, Yes, Yes);
        judge(&mut m, 1, 2, Yes, Yes); // agree
        judge(&mut m, 2, 1, Yes, Yes);
        judge(&mut m, 2, 2, Yes, No); // pronoun differs
        judge(&mut m, 3, 1, Unset, Yes);
        judge(&mut m, 3, 2, Unset, Unset); // ? (with a tag below) counts as a judgement
        let mut tagged = m.records.get(CandidateId(3), AnnotatorId(2)).unwrap().clone();
        tagged.tags.insert("bad_translation".into());
        m.records.put(tagged);
        judge(&mut m, 4, 1, Unset, Yes);
        judge(&mut m, 4, 0, Unset, No); // the researcher's own view does not count
        judge(&mut m, 5, 1, Unset, Yes); // one annotator only
        judge(&mut m, 6, 1, Unset, Yes);
        m.records.put(Record::new(CandidateId(6), AnnotatorId(2), DateTime::UNIX_EPOCH)); // blank
        let found = disagreements(&m);
        assert_eq!(
            found,
            vec![
                Disagreement {
                    candidate: CandidateId(2),
                    roles: vec![Role::Pronoun],
                    annotators: vec![AnnotatorId(1), AnnotatorId(2)]
                },
                Disagreement {
                    candidate: CandidateId(3),
                    roles: vec![Role::Pronoun],
                    annotators: vec![AnnotatorId(1), AnnotatorId(2)]
                },
            ]
        );
        judge(&mut m, 1, 3, No, Yes);
        assert_eq!(disagreements(&m)[0].roles, [Role::Antecedent]);
    }

    #[test]
    fn the_task_set_goes_to_the_adjudicator_once() {
        let mut m = tiny_with_three();
        judge(&mut m, 2, 1, Yes, Yes);
        judge(&mut m, 2, 2, Yes, No);
        judge(&mut m, 4, 1, Unset, Yes);
        judge(&mut m, 4, 2, Unset, No);
        let clara = AnnotatorId(3);
        let p = plan(&m, clara, 5, "", DateTime::UNIX_EPOCH).unwrap();
        let ts = &p.task_set;
        assert_eq!(
            (ts.purpose, ts.name.as_str(), ts.annotators, ts.iaa_size),
            (Purpose::Adjudication, "Adjudication by Clara", 1, 0)
        );
        assert_eq!(
            ts.tasks,
            [Task { label: "1".into(), candidates: vec![CandidateId(2), CandidateId(4)], annotator: Some(clara) }]
        );
        assert_eq!(ts.categories, ["anaphoric_inter_subject_it", "pleonastic_it"]);
        assert_eq!(p.summary.total.own, [2]);
        m.task_sets.push(p.task_set);
        // Once planned, the same disagreements are not offered again.
        let e = plan(&m, clara, 5, "", DateTime::UNIX_EPOCH).unwrap_err();
        assert_eq!(
            e.to_string(),
            "nothing to adjudicate: 2 candidates with disagreements, 2 of them in earlier adjudication task sets, 0 already annotated by Clara"
        );
        // One of the disagreeing annotators cannot adjudicate their own disagreement.
        m.task_sets.clear();
        assert!(matches!(
            plan(&m, AnnotatorId(1), 5, "", DateTime::UNIX_EPOCH),
            Err(AdjudicationError::Nothing { own: 2, .. })
        ));
        assert_eq!(
            plan(&m, AnnotatorId(9), 5, "", DateTime::UNIX_EPOCH),
            Err(AdjudicationError::NoAnnotator(AnnotatorId(9)))
        );
    }

    #[test]
    fn assigning_adds_the_adjudicator_and_the_task_set_or_nothing() {
        let mut m = tiny_with_three();
        judge(&mut m, 2, 1, Yes, Yes);
        judge(&mut m, 2, 2, Yes, No);
        let (p, who) = assign(&mut m, "Dora", 5, "", DateTime::UNIX_EPOCH).unwrap();
        assert_eq!(m.annotator_name(who), "Dora");
        assert_eq!(m.task_sets, [p.task_set]);
        let before = m.clone();
        let e = assign(&mut m, "Eve", 5, "", DateTime::UNIX_EPOCH).unwrap_err();
        assert!(matches!(e, AdjudicationError::Nothing { earlier: 1, .. }), "{e}");
        assert_eq!(m, before, "Eve was not added");
        let e = assign(&mut m, " ", 5, "", DateTime::UNIX_EPOCH).unwrap_err();
        assert_eq!(e, AdjudicationError::Roster(RosterError::EmptyName));
    }
}
