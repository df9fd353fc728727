//! One judgement per candidate, where several people judged it: for system scores and for
//! choosing which judged translations may serve as references (docs/reports.md, "Verdicts").
//!
//! Per role (pronoun, antecedent), the first rule that gives a set judgement decides:
//! 1. an adjudicator — an annotator assigned to the candidate in a task set of purpose
//!    adjudication; the latest such task set first;
//! 2. the researcher's own record;
//! 3. the other annotators' set judgements: one alone, all agreeing, or a majority;
//!    a tie leaves the candidate undecided.
//!
//! Unset judgements (e.g. bad translations) never vote.

use crate::model::{AnnotatorId, CandidateId, Judgement, Master, Purpose, Record, Role};
use std::collections::HashMap;

/// What a decision rests on; also the order in which the rules are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Basis {
    Adjudication,
    Researcher,
    /// Exactly one annotator judged.
    Single,
    Unanimous,
    Majority,
    /// As many yes as no: undecided.
    Tie,
    /// Nobody set a judgement: undecided.
    Unjudged,
}

impl Basis {
    pub const ALL: [Basis; 7] = [
        Basis::Adjudication,
        Basis::Researcher,
        Basis::Single,
        Basis::Unanimous,
        Basis::Majority,
        Basis::Tie,
        Basis::Unjudged,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Basis::Adjudication => "adjudicated",
            Basis::Researcher => "the researcher's judgement",
            Basis::Single => "a single annotator",
            Basis::Unanimous => "all annotators agreeing",
            Basis::Majority => "a majority of annotators",
            Basis::Tie => "tied (undecided)",
            Basis::Unjudged => "not judged (undecided)",
        }
    }
}

/// The judgement that counts for one role of one candidate; [`Judgement::Unset`] when undecided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub judgement: Judgement,
    pub basis: Basis,
}

impl Decision {
    pub fn is_decided(&self) -> bool {
        self.judgement.is_set()
    }
}

/// Decides candidates of one master. Build once, ask for many candidates.
#[derive(Debug, Clone)]
pub struct Verdicts<'a> {
    master: &'a Master,
    /// Per candidate, its adjudicators, latest task set first.
    adjudicators: HashMap<CandidateId, Vec<AnnotatorId>>,
}

impl<'a> Verdicts<'a> {
    pub fn new(master: &'a Master) -> Self {
        let mut adjudicators: HashMap<CandidateId, Vec<AnnotatorId>> = HashMap::new();
        let adjudications = master.task_sets.iter().rev().filter(|ts| ts.purpose == Purpose::Adjudication);
        for task in adjudications.flat_map(|ts| &ts.tasks) {
            let Some(annotator) = task.annotator else { continue };
            for &c in &task.candidates {
                let list = adjudicators.entry(c).or_default();
                if !list.contains(&annotator) {
                    list.push(annotator);
                }
            }
        }
        Verdicts { master, adjudicators }
    }

    pub fn master(&self) -> &'a Master {
        self.master
    }

    /// Whether the record was made as an adjudication (its annotator adjudicates its candidate).
    pub fn is_adjudication(&self, record: &Record) -> bool {
        self.adjudicators.get(&record.candidate).is_some_and(|a| a.contains(&record.annotator))
    }

    pub fn decide(&self, candidate: CandidateId, role: Role) -> Decision {
        let set = |r: &Record| Some(r.judgement(role)).filter(|j| j.is_set());
        let decided = |judgement, basis| Decision { judgement, basis };
        let adjudicated = self
            .adjudicators
            .get(&candidate)
            .into_iter()
            .flatten()
            .find_map(|&a| self.master.records.get(candidate, a).and_then(set));
        if let Some(j) = adjudicated {
            return decided(j, Basis::Adjudication);
        }
        // One pass over the candidate's records: reports decide every candidate of a master.
        let (mut researcher, mut yes, mut no) = (None, 0, 0);
        for record in self.master.records.of_candidate(candidate) {
            match set(record) {
                None => {}
                Some(j) if record.annotator.is_researcher() => researcher = Some(j),
                Some(Judgement::Yes) => yes += 1,
                Some(_) => no += 1,
            }
        }
        if let Some(j) = researcher {
            return decided(j, Basis::Researcher);
        }
        match (yes, no) {
            (0, 0) => decided(Judgement::Unset, Basis::Unjudged),
            (1, 0) => decided(Judgement::Yes, Basis::Single),
            (0, 1) => decided(Judgement::No, Basis::Single),
            (_, 0) => decided(Judgement::Yes, Basis::Unanimous),
            (0, _) => decided(Judgement::No, Basis::Unanimous),
            _ if yes > no => decided(Judgement::Yes, Basis::Majority),
            _ if no > yes => decided(Judgement::No, Basis::Majority),
            _ => decided(Judgement::Unset, Basis::Tie),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Annotator, Task, TaskSet};
    use chrono::{TimeZone, Utc};

    fn master() -> Master {
        let mut m = Master::new("m".into(), Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap());
        m.annotators = (1..=4).map(|i| Annotator { id: AnnotatorId(i), name: format!("a{i}") }).collect();
        m
    }

    fn judge(m: &mut Master, candidate: u32, annotator: u32, pronoun: Judgement) {
        let mut r = Record::new(CandidateId(candidate), AnnotatorId(annotator), m.created);
        r.pronoun = pronoun;
        m.records.put(r);
    }

    fn decide(m: &Master, candidate: u32) -> Decision {
        Verdicts::new(m).decide(CandidateId(candidate), Role::Pronoun)
    }

    fn adjudication(candidates: &[u32], annotator: u32) -> TaskSet {
        TaskSet {
            id: 1,
            name: "adjudication".into(),
            created: Utc::now(),
            seed: 0,
            corpora: vec![],
            categories: vec![],
            annotators: 1,
            iaa_size: 0,
            purpose: Purpose::Adjudication,
            tasks: vec![Task {
                label: "1".into(),
                candidates: candidates.iter().map(|&c| CandidateId(c)).collect(),
                annotator: Some(AnnotatorId(annotator)),
            }],
        }
    }

    use Judgement::{No, Unset, Yes};

    #[test]
    fn annotators_vote_and_unset_does_not_count() {
        let mut m = master();
        assert_eq!(decide(&m, 1), Decision { judgement: Unset, basis: Basis::Unjudged });
        judge(&mut m, 1, 1, Yes);
        judge(&mut m, 1, 2, Unset);
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Single });
        judge(&mut m, 1, 3, Yes);
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Unanimous });
        judge(&mut m, 1, 2, No);
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Majority });
        judge(&mut m, 1, 4, No);
        assert_eq!(decide(&m, 1), Decision { judgement: Unset, basis: Basis::Tie });
        assert!(!decide(&m, 1).is_decided());
        // The same for ✗.
        judge(&mut m, 2, 1, No);
        assert_eq!(decide(&m, 2), Decision { judgement: No, basis: Basis::Single });
        judge(&mut m, 2, 2, No);
        assert_eq!(decide(&m, 2), Decision { judgement: No, basis: Basis::Unanimous });
        judge(&mut m, 2, 3, Yes);
        assert_eq!(decide(&m, 2), Decision { judgement: No, basis: Basis::Majority });
    }

    #[test]
    fn the_researcher_overrides_annotators_and_an_adjudicator_overrides_everyone() {
        let mut m = master();
        judge(&mut m, 1, 1, Yes);
        judge(&mut m, 1, 2, Yes);
        judge(&mut m, 1, 0, No);
        assert_eq!(decide(&m, 1), Decision { judgement: No, basis: Basis::Researcher });
        judge(&mut m, 1, 3, Yes);
        m.task_sets.push(adjudication(&[1], 3));
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Adjudication });
        // An adjudicator who left it unset does not decide; the other rules apply.
        judge(&mut m, 1, 3, Unset);
        assert_eq!(decide(&m, 1).basis, Basis::Researcher);
        // The adjudicator's record is not an ordinary vote either way.
        let verdicts = Verdicts::new(&m);
        assert!(verdicts.is_adjudication(m.records.get(CandidateId(1), AnnotatorId(3)).unwrap()));
        assert!(!verdicts.is_adjudication(m.records.get(CandidateId(1), AnnotatorId(1)).unwrap()));
    }

    #[test]
    fn the_latest_adjudication_prevails() {
        let mut m = master();
        judge(&mut m, 1, 1, No);
        judge(&mut m, 1, 2, Yes);
        m.task_sets.push(adjudication(&[1], 1));
        m.task_sets.push(adjudication(&[1], 2));
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Adjudication });
    }
}
