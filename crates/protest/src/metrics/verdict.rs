//! One judgement per candidate, where several people judged it: for system scores and for
//! choosing which judged translations may serve as references (docs/reports.md, "Verdicts").
//!
//! Per role (pronoun, antecedent), the first rule that applies decides:
//! 1. an adjudicator — an annotator assigned to the candidate in a task set of purpose
//!    adjudication; the latest such task set first — on a question **in dispute** (the other
//!    annotators' answers to it differ, [`in_dispute`]), whose record gives ✓ or ✗, or says the
//!    translation cannot be judged (`bad_translation`, `incorrect_word_alignment`): that is
//!    final, the candidate then stays undecided whatever the others said, since settling such a
//!    case is what an adjudicator is asked for. On a question not in dispute (only the
//!    antecedent was disputed, say) the adjudicator's record does not count: a unanimous answer
//!    stands;
//! 2. the researcher's own record;
//! 3. the other annotators' set judgements: one alone, all agreeing, or a majority;
//!    a tie leaves the candidate undecided.
//!
//! Otherwise unset judgements (e.g. bad translations) never vote; but where nobody gave ✓ or ✗
//! and someone said the translation cannot be judged, that is what the verdict says
//! ([`Basis::Unjudgeable`]), and the automatic reference match does not settle it either
//! ([`Decision::open_to_match`]).

use crate::model::{AnnotatorId, Answer, CandidateId, Dispute, Judgement, Master, Purpose, Record, Role};
use std::collections::HashMap;

/// What a decision rests on; also the order in which the rules are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Basis {
    Adjudication,
    /// The adjudicator said the translation cannot be judged: undecided, and final.
    AdjudicatedUnjudgeable,
    Researcher,
    /// Exactly one annotator judged.
    Single,
    Unanimous,
    Majority,
    /// As many yes as no: undecided.
    Tie,
    /// Nobody set a judgement, and someone said the translation cannot be judged: undecided,
    /// and not for the reference match to settle.
    Unjudgeable,
    /// Nobody set a judgement: undecided.
    Unjudged,
}

impl Basis {
    pub const ALL: [Basis; 9] = [
        Basis::Adjudication,
        Basis::AdjudicatedUnjudgeable,
        Basis::Researcher,
        Basis::Single,
        Basis::Unanimous,
        Basis::Majority,
        Basis::Tie,
        Basis::Unjudgeable,
        Basis::Unjudged,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Basis::Adjudication => "adjudicated",
            Basis::AdjudicatedUnjudgeable => "adjudicated as cannot be judged (undecided)",
            Basis::Researcher => "the researcher's judgement",
            Basis::Single => "a single annotator",
            Basis::Unanimous => "all annotators agreeing",
            Basis::Majority => "a majority of annotators",
            Basis::Tie => "tied (undecided)",
            Basis::Unjudgeable => "marked as cannot be judged (undecided)",
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

    /// Whether the automatic reference match may settle the candidate: no human decided it, and
    /// no human said it cannot be judged — that is a human's answer too, and a match of words
    /// does not overrule it.
    pub fn open_to_match(&self) -> bool {
        matches!(self.basis, Basis::Tie | Basis::Unjudged)
    }
}

/// Whether the annotators' answers to `role`'s question differ among `records` (one candidate's):
/// ✓, ✗ and ? are three answers, as in the agreement figures; the researcher's records and blank
/// ones (nothing entered) do not count. Such a question is what adjudication settles.
pub fn in_dispute<'r>(records: impl IntoIterator<Item = &'r Record>, role: Role) -> bool {
    let mut answers =
        records.into_iter().filter(|r| !r.annotator.is_researcher() && !r.is_blank()).map(|r| r.judgement(role));
    let Some(first) = answers.next() else { return false };
    answers.any(|j| j != first)
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
        self.decide_among(candidate, role, self.master.records.of_candidate(candidate))
    }

    /// The adjudicators of a candidate, latest task set first.
    fn adjudicators_of(&self, candidate: CandidateId) -> &[AnnotatorId] {
        self.adjudicators.get(&candidate).map_or(&[], Vec::as_slice)
    }

    /// The questions of `candidate` in dispute among its annotators (its adjudicators' own
    /// records left out), each with their answers: what an adjudicator is asked to settle.
    pub fn disputes(&self, candidate: CandidateId) -> Vec<Dispute> {
        disputes_among(self.master, candidate, self.adjudicators_of(candidate))
    }

    /// [`Verdicts::decide`] from `records`, the candidate's records in annotator order.
    fn decide_among<'r>(
        &self,
        candidate: CandidateId,
        role: Role,
        records: impl Iterator<Item = &'r Record> + Clone,
    ) -> Decision {
        let set = |r: &Record| Some(r.judgement(role)).filter(|j| j.is_set());
        let decided = |judgement, basis| Decision { judgement, basis };
        let adjudicators = self.adjudicators_of(candidate);
        // Everyone else's records: the adjudicators' count only on a question in dispute.
        let others = records.clone().filter(|r| !adjudicators.contains(&r.annotator));
        if !adjudicators.is_empty() && in_dispute(others.clone(), role) {
            // An adjudicator's ✓ or ✗, or their "cannot be judged", is final.
            let adjudicated = adjudicators.iter().find_map(|&a| {
                let record = records.clone().find(|r| r.annotator == a)?;
                match set(record) {
                    Some(j) => Some(decided(j, Basis::Adjudication)),
                    None if record.is_unjudgeable() => Some(decided(Judgement::Unset, Basis::AdjudicatedUnjudgeable)),
                    None => None,
                }
            });
            if let Some(decision) = adjudicated {
                return decision;
            }
        }
        // One pass over the candidate's records: reports decide every candidate of a master.
        let (mut researcher, mut yes, mut no, mut unjudgeable) = (None, 0, 0, false);
        for record in others {
            unjudgeable |= record.is_unjudgeable();
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
            (0, 0) if unjudgeable => decided(Judgement::Unset, Basis::Unjudgeable),
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

    /// Every candidate decided, both roles, in one walk through the records (which come in
    /// candidate order) rather than a look-up per candidate and role.
    pub fn decide_all(&self) -> Decisions<'a> {
        let master = self.master;
        let unjudged = Decision { judgement: Judgement::Unset, basis: Basis::Unjudged };
        // A candidate without records is unjudged: no rule has a judgement to go on.
        let mut decided = vec![[unjudged; 2]; master.candidates.len()];
        let records: Vec<&Record> = master.records.iter().collect();
        for group in records.chunk_by(|a, b| a.candidate == b.candidate) {
            let candidate = group[0].candidate;
            // Records of no candidate (refused on loading) decide nothing that anyone asks.
            let Some(i) = master.candidate_position(candidate) else { continue };
            decided[i] = Role::ALL.map(|role| self.decide_among(candidate, role, group.iter().copied()));
        }
        Decisions { master, decided }
    }
}

/// The questions of `candidate` that `adjudicator` is asked to settle: [`Verdicts::disputes`] if
/// they adjudicate it, else none. For one candidate at a time (the annotation panel), without
/// deciding anything else.
pub fn disputes_for(master: &Master, candidate: CandidateId, adjudicator: AnnotatorId) -> Vec<Dispute> {
    let mut adjudicators: Vec<AnnotatorId> = master
        .task_sets
        .iter()
        .filter(|ts| ts.purpose == Purpose::Adjudication)
        .flat_map(|ts| &ts.tasks)
        .filter(|task| task.candidates.contains(&candidate))
        .filter_map(|task| task.annotator)
        .collect();
    adjudicators.dedup();
    if !adjudicators.contains(&adjudicator) {
        return Vec::new();
    }
    disputes_among(master, candidate, &adjudicators)
}

/// The questions of `candidate` on which the records of everyone but `adjudicators` differ.
fn disputes_among(master: &Master, candidate: CandidateId, adjudicators: &[AnnotatorId]) -> Vec<Dispute> {
    let others: Vec<&Record> =
        master.records.of_candidate(candidate).filter(|r| !adjudicators.contains(&r.annotator)).collect();
    Role::ALL
        .into_iter()
        .filter(|&role| in_dispute(others.iter().copied(), role))
        .map(|role| {
            let mut answers: Vec<Answer> = others
                .iter()
                .filter(|r| !r.annotator.is_researcher() && !r.is_blank())
                .map(|r| Answer::of(r, role))
                .collect();
            answers.sort();
            Dispute { candidate, role, answers }
        })
        .collect()
}

/// What [`Verdicts::decide`] says of every candidate of a master, for both roles, decided once:
/// the reports ask it of every candidate in several tables (scores, the reference match's
/// statistics, APT against the verdicts).
#[derive(Debug, Clone)]
pub struct Decisions<'a> {
    master: &'a Master,
    /// By candidate position in `master.candidates`; by role in the order of [`Role::ALL`].
    decided: Vec<[Decision; 2]>,
}

impl<'a> Decisions<'a> {
    pub fn new(master: &'a Master) -> Self {
        Verdicts::new(master).decide_all()
    }

    pub fn master(&self) -> &'a Master {
        self.master
    }

    /// The decision for the candidate at `position` in `master.candidates`.
    pub fn at(&self, position: usize, role: Role) -> Decision {
        self.decided[position][role as usize]
    }

    /// [`Verdicts::decide`]; a candidate the master does not have is unjudged.
    pub fn decide(&self, candidate: CandidateId, role: Role) -> Decision {
        match self.master.candidate_position(candidate) {
            Some(i) => self.at(i, role),
            None => Decision { judgement: Judgement::Unset, basis: Basis::Unjudged },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Annotator, Candidate, CorpusId, ExampleNo, Task, TaskSet};
    use chrono::{TimeZone, Utc};

    fn master() -> Master {
        let mut m = Master::new("m".into(), Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap());
        m.annotators = (1..=4).map(|i| Annotator { id: AnnotatorId(i), name: format!("a{i}") }).collect();
        // Candidates 3, 2, 1 (not in id order), for the decisions taken all at once.
        m.candidates = (1..=3)
            .rev()
            .map(|i| Candidate {
                id: CandidateId(i),
                example: ExampleNo(1),
                corpus: CorpusId(1),
                pronoun: vec![],
                antecedents: vec![],
            })
            .collect();
        m.reindex();
        m
    }

    fn judge(m: &mut Master, candidate: u32, annotator: u32, pronoun: Judgement) {
        let mut r = Record::new(CandidateId(candidate), AnnotatorId(annotator), m.created);
        r.pronoun = pronoun;
        m.records.put(r);
    }

    /// The pronoun verdict, after checking that every candidate's verdicts (both roles) decided
    /// all at once are those decided one by one.
    fn decide(m: &Master, candidate: u32) -> Decision {
        let (verdicts, decisions) = (Verdicts::new(m), Decisions::new(m));
        for c in &m.candidates {
            for role in Role::ALL {
                assert_eq!(decisions.decide(c.id, role), verdicts.decide(c.id, role), "candidate {}, {role}", c.id);
            }
        }
        verdicts.decide(CandidateId(candidate), Role::Pronoun)
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
            planner: Default::default(),
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
        // Annotators 1 and 2 disagree: the question goes to annotator 3.
        judge(&mut m, 1, 2, No);
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
    fn an_adjudicators_cannot_be_judged_is_final() {
        // Example 3 of the study of the news corpus: three say the translation cannot be judged,
        // among them the adjudicator; one says ✗. The adjudicator settles it: undecided.
        let mut m = master();
        for a in [1, 2, 4] {
            let mut r = Record::new(CandidateId(1), AnnotatorId(a), m.created);
            r.tags.insert(crate::model::tags::BAD_TRANSLATION.into());
            m.records.put(r);
        }
        judge(&mut m, 1, 3, No);
        assert_eq!(decide(&m, 1), Decision { judgement: No, basis: Basis::Single }, "without adjudication");
        m.task_sets.push(adjudication(&[1], 4));
        assert_eq!(decide(&m, 1), Decision { judgement: Unset, basis: Basis::AdjudicatedUnjudgeable });
        // Only the pronoun was disputed: the antecedent, which nobody answered, is not the
        // adjudicator's to settle (but three said the translation cannot be judged).
        assert_eq!(Verdicts::new(&m).decide(CandidateId(1), Role::Antecedent).basis, Basis::Unjudgeable);
        // Also over the researcher's judgement; an adjudication task set without the
        // adjudicator's record leaves the other rules.
        judge(&mut m, 1, 0, Yes);
        assert_eq!(decide(&m, 1).basis, Basis::AdjudicatedUnjudgeable);
        m.records.remove(CandidateId(1), AnnotatorId(4));
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Researcher });
    }

    #[test]
    fn the_latest_adjudication_prevails() {
        let mut m = master();
        judge(&mut m, 1, 1, No);
        judge(&mut m, 1, 2, Yes);
        judge(&mut m, 1, 3, No);
        judge(&mut m, 1, 4, Yes);
        m.task_sets.push(adjudication(&[1], 3));
        assert_eq!(decide(&m, 1), Decision { judgement: No, basis: Basis::Adjudication });
        m.task_sets.push(adjudication(&[1], 4));
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Adjudication });
    }

    fn judge_both(m: &mut Master, candidate: u32, annotator: u32, pronoun: Judgement, antecedent: Judgement) {
        let mut r = Record::new(CandidateId(candidate), AnnotatorId(annotator), m.created);
        (r.pronoun, r.antecedent) = (pronoun, antecedent);
        m.records.put(r);
    }

    #[test]
    fn adjudication_settles_only_the_question_in_dispute() {
        // All three said the pronoun is wrong; they disagreed on the antecedent.
        let mut m = master();
        judge_both(&mut m, 1, 1, No, Yes);
        judge_both(&mut m, 1, 2, No, No);
        judge_both(&mut m, 1, 3, No, Yes);
        m.task_sets.push(adjudication(&[1], 4));
        judge_both(&mut m, 1, 4, Yes, No);
        assert_eq!(decide(&m, 1), Decision { judgement: No, basis: Basis::Unanimous }, "the pronoun stands");
        let antecedent = Verdicts::new(&m).decide(CandidateId(1), Role::Antecedent);
        assert_eq!(antecedent, Decision { judgement: No, basis: Basis::Adjudication });
        // What the adjudicator is shown: the antecedent only, the answers without names.
        let disputes = Verdicts::new(&m).disputes(CandidateId(1));
        assert_eq!(
            disputes,
            [Dispute {
                candidate: CandidateId(1),
                role: Role::Antecedent,
                answers: vec![Answer::Yes, Answer::Yes, Answer::No]
            }]
        );
        assert_eq!(disputes[0].describe(), "the antecedent: ✓ ✓ ✗");
        assert_eq!(disputes_for(&m, CandidateId(1), AnnotatorId(4)), disputes, "for the adjudicator");
        assert_eq!(disputes_for(&m, CandidateId(1), AnnotatorId(3)), [], "for anyone else, nothing");
        // The adjudicator's own record does not make the pronoun disputed, nor does it vote.
        judge_both(&mut m, 1, 3, Yes, Yes);
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Adjudication });
        assert_eq!(Verdicts::new(&m).disputes(CandidateId(1)).len(), 2);
    }

    #[test]
    fn cannot_be_judged_is_an_answer_the_match_does_not_overrule() {
        let mut m = master();
        let mut r = Record::new(CandidateId(1), AnnotatorId(1), m.created);
        r.tags.insert(crate::model::tags::BAD_TRANSLATION.into());
        m.records.put(r);
        let decision = decide(&m, 1);
        assert_eq!(decision, Decision { judgement: Unset, basis: Basis::Unjudgeable });
        assert!(!decision.open_to_match());
        assert!(decide(&m, 2).open_to_match(), "nobody judged it");
        judge(&mut m, 1, 2, Yes);
        assert_eq!(decide(&m, 1), Decision { judgement: Yes, basis: Basis::Single }, "a ✓ is a verdict");
        judge(&mut m, 1, 3, No);
        assert!(decide(&m, 1).open_to_match(), "a tie, as before");
        assert_eq!(
            Verdicts::new(&m).disputes(CandidateId(1))[0].answers,
            [Answer::Yes, Answer::No, Answer::CannotBeJudged]
        );
    }
}
