//! Automatic reference match, the agreement judge and the semi-automatic loop (docs/auto-eval.md;
//! docs/domain.md, "Matching").
//!
//! Each run is a round: every MT system's candidate is compared with the reference translation
//! of its example and with the translations annotators have judged correct so far. Matches count
//! as correct; in French, the agreement judge then settles what the match did not where the
//! pronoun shows a gender the antecedent head's translation agrees or disagrees with
//! ([`agreement`]). The rest is referred to humans, whose judgements feed the next round.

pub mod agreement;
pub mod aligned_by;
pub mod matching;

use crate::metrics::verdict::{Decisions, Verdicts};
use crate::model::{AutoEval, Candidate, CandidateId, CorpusRole, Judgement, Master, MatchEntry, Outcome, Role, Round};
use agreement::{Judge, Verdict};
use chrono::{DateTime, Utc};
use matching::{Comparison, Reference};
use std::collections::HashMap;

/// What a round runs besides the reference match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judges {
    /// The agreement judge ([`agreement`]), for target languages it has a lexicon for.
    pub agreement: bool,
}

impl Default for Judges {
    fn default() -> Self {
        Judges { agreement: true }
    }
}

/// Runs one round over `master` by the rule stored with its results
/// ([`AutoEval::rule`](crate::model::AutoEval)), with the agreement judge, and returns its
/// automatic evaluation with the round added. Pure: the caller stores the result
/// (`master.auto_eval = …`).
pub fn run(master: &Master, now: DateTime<Utc>) -> AutoEval {
    run_with(master, now, Judges::default())
}

/// [`run`] with the judges chosen.
pub fn run_with(master: &Master, now: DateTime<Utc>, judges: Judges) -> AutoEval {
    let verdicts = Verdicts::new(master);
    let previous = &master.auto_eval;
    let comparison = Comparison::new(previous.rule, &master.languages.target);
    let judge = if judges.agreement { Judge::for_language(&master.languages.target) } else { None };
    let number = previous.rounds.len() as u32 + 1;
    let mut references: HashMap<_, Vec<Reference>> = HashMap::new();
    let mut outcomes = Vec::new();
    for candidate in master.candidates.iter().filter(|c| master.is_compared(c)) {
        let (Some((example, category)), Some(corpus)) = (master.example_of(candidate), master.corpus(candidate.corpus))
        else {
            continue;
        };
        let refs = references
            .entry(example.no)
            .or_insert_with(|| matching::references(&verdicts, &comparison, example, category.anaphoric));
        let (outcome, reference) = if uncertain_boundaries(corpus, example) {
            (Outcome::UncertainBoundaries, None)
        } else {
            let words = comparison.candidate(corpus, candidate, category.anaphoric);
            let matched = matching::compare(candidate.id, &words, refs);
            match judge.filter(|_| category.anaphoric) {
                Some(judge) => with_agreement(matched, &judge.judge(corpus, candidate, example)),
                None => matched,
            }
        };
        let round = match previous.entry(candidate.id) {
            Some(old) if old.outcome == outcome && old.reference == reference => old.round,
            _ => number,
        };
        outcomes.push(MatchEntry { candidate: candidate.id, outcome, reference, round });
    }
    outcomes.sort_by_key(|e| e.candidate);
    let mut current = AutoEval { outcomes, rounds: previous.rounds.clone(), rule: previous.rule };
    let judged_references = references.values().flatten().filter(|r| r.judged).count() as u32;
    let round = round_of(&current, previous, number, now, judged_references, judge.is_some());
    current.rounds.push(round);
    current
}

/// The outcome of the reference match with the agreement judge's verdict: an agreement or a
/// disagreement settles what the match did not; a disagreement contradicts a match.
fn with_agreement(matched: (Outcome, Option<CandidateId>), verdict: &Verdict) -> (Outcome, Option<CandidateId>) {
    match (matched.0, verdict) {
        (Outcome::Match, Verdict::Disagrees(_)) => (Outcome::Contradicted, matched.1),
        (Outcome::Mismatch | Outcome::NoReference, Verdict::Agrees(_)) => (Outcome::Agreement, None),
        (Outcome::Mismatch | Outcome::NoReference, Verdict::Disagrees(_)) => (Outcome::Disagreement, None),
        _ => matched,
    }
}

/// The record of a round whose outcomes are `current`'s.
fn round_of(
    current: &AutoEval,
    previous: &AutoEval,
    number: u32,
    run: DateTime<Utc>,
    judged_references: u32,
    agreement: bool,
) -> Round {
    let count = |o: Outcome| current.outcomes.iter().filter(|e| e.outcome == o).count() as u32;
    let newly_settled = |now: &AutoEval, before: &AutoEval| {
        now.outcomes.iter().filter(|e| e.outcome.settles().is_some() && before.settled(e.candidate).is_none()).count()
            as u32
    };
    Round {
        round: number,
        run,
        judged_references,
        matches: count(Outcome::Match),
        mismatches: count(Outcome::Mismatch),
        no_translation: count(Outcome::NoTranslation),
        no_reference: count(Outcome::NoReference),
        uncertain_boundaries: count(Outcome::UncertainBoundaries),
        agreements: count(Outcome::Agreement),
        disagreements: count(Outcome::Disagreement),
        contradicted: count(Outcome::Contradicted),
        settled: newly_settled(current, previous),
        unsettled: newly_settled(previous, current),
        rule: previous.rule,
        agreement,
    }
}

/// Whether the translation of the example's pronoun or of one of its antecedent heads lies in a
/// sentence whose boundaries the system's re-segmented output leaves uncertain: then the match
/// never settles the candidate, whatever its words.
pub fn uncertain_boundaries(corpus: &crate::model::Corpus, example: &crate::model::Example) -> bool {
    std::iter::once(example.sentence)
        .chain(example.antecedents.iter().map(|a| a.sentence))
        .any(|s| corpus.is_uncertain(s))
}

/// How often humans disagree with the automatic outcomes: of the matched candidates with a
/// verdict on every role the match claims (pronoun, and heads in anaphoric examples), how many
/// have ✗ on one; of the agreements and disagreements with a verdict on the pronoun (what the
/// judge claims), how many humans judged the other way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Precision {
    pub matches_with_verdict: u32,
    pub judged_incorrect: u32,
    pub agreements_with_verdict: u32,
    pub agreements_judged_incorrect: u32,
    pub disagreements_with_verdict: u32,
    pub disagreements_judged_correct: u32,
}

impl Precision {
    pub fn of(master: &Master) -> Precision {
        let verdicts = Verdicts::new(master);
        let mut p = Precision::default();
        for candidate in &master.candidates {
            let Some(entry) = master.auto_eval.entry(candidate.id) else { continue };
            let pronoun = || verdicts.decide(candidate.id, Role::Pronoun).judgement;
            match entry.outcome {
                Outcome::Match => {
                    if let Some(correct) = human_verdict(&verdicts, candidate) {
                        p.matches_with_verdict += 1;
                        p.judged_incorrect += u32::from(!correct);
                    }
                }
                Outcome::Agreement if pronoun().is_set() => {
                    p.agreements_with_verdict += 1;
                    p.agreements_judged_incorrect += u32::from(pronoun() == Judgement::No);
                }
                Outcome::Disagreement if pronoun().is_set() => {
                    p.disagreements_with_verdict += 1;
                    p.disagreements_judged_correct += u32::from(pronoun() == Judgement::Yes);
                }
                _ => {}
            }
        }
        p
    }
}

/// Whether the candidate at `position` in `master.candidates` was settled by the agreement
/// judge and humans decided its pronoun the other way: an agreement judged ✗, a disagreement
/// judged ✓. The one definition the reports count by.
pub fn judge_overruled(decisions: &Decisions, position: usize) -> bool {
    let master = decisions.master();
    let outcome = master.auto_eval.entry(master.candidates[position].id).map(|e| e.outcome);
    let pronoun = decisions.at(position, Role::Pronoun).judgement;
    matches!(
        (outcome, pronoun),
        (Some(Outcome::Agreement), Judgement::No) | (Some(Outcome::Disagreement), Judgement::Yes)
    )
}

/// What humans decided on a candidate for every role the match compares: `Some(false)` if ✗ on
/// any, `Some(true)` if ✓ on all, `None` while one is undecided.
pub fn human_verdict(verdicts: &Verdicts, candidate: &Candidate) -> Option<bool> {
    human_verdict_by(verdicts.master(), candidate, |role| verdicts.decide(candidate.id, role).judgement)
}

/// [`human_verdict`] with the candidate's verdict for a role given by `decide` (decided already:
/// [`crate::metrics::verdict::Decisions`]).
pub fn human_verdict_by(master: &Master, candidate: &Candidate, decide: impl Fn(Role) -> Judgement) -> Option<bool> {
    let anaphoric = master.example_of(candidate).is_some_and(|(_, category)| category.anaphoric);
    let roles: &[Role] = if anaphoric { &Role::ALL } else { &[Role::Pronoun] };
    let judgements: Vec<Judgement> = roles.iter().map(|&r| decide(r)).collect();
    if judgements.contains(&Judgement::No) {
        Some(false)
    } else if judgements.iter().all(|&j| j == Judgement::Yes) {
        Some(true)
    } else {
        None
    }
}

/// Whether the candidate at `position` in `master.candidates` is a *match judged ✗*: matched,
/// yet humans decided ✗ on a role the match claims (the pronoun, or an antecedent head in an
/// anaphoric example). The one definition the reports count by (tables 'auto-eval', 'scores').
pub fn match_judged_incorrect(decisions: &Decisions, position: usize) -> bool {
    let master = decisions.master();
    let candidate = &master.candidates[position];
    master.auto_eval.matched(candidate.id)
        && human_verdict_by(master, candidate, |role| decisions.at(position, role).judgement) == Some(false)
}

/// Whether a candidate still needs a human judgement, i.e. the latest round did not settle it
/// (by a match, an agreement or a disagreement). For the category browser and for planning task
/// sets. Says nothing about whether a human has already judged it.
pub fn needs_human(master: &Master, candidate: CandidateId) -> bool {
    master.auto_eval.settled(candidate).is_none()
}

/// Asked to keep only the candidates that need a human on a master where the match never ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the automatic reference match has not been run on this master yet, so it cannot tell which candidates still need a human"
)]
pub struct NoRound;

/// A filter keeping the candidates that still need a human ([`needs_human`]), e.g. for
/// `plan::plan`. Refused before the first round: every candidate would pass, which is not what
/// the caller asked for.
pub fn needing_human(master: &Master) -> Result<impl Fn(&Candidate) -> bool + '_, NoRound> {
    if master.auto_eval.rounds.is_empty() {
        return Err(NoRound);
    }
    Ok(move |c: &Candidate| needs_human(master, c.id))
}

/// What a match was made against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchedWith {
    /// The reference corpus's own translation (its aligned words as the rule reads them).
    ReferenceTranslation,
    /// The tokens annotators selected in a translation they judged correct — the reference
    /// corpus's candidate too, when they selected something other than its aligned words.
    Judged,
}

/// What the latest round matched a candidate with, and the candidate it took the words from;
/// `None` when it is not matched. Only the candidate is stored, so a match on the reference
/// corpus's candidate is told apart by comparing again: its own aligned words, or a selection.
pub fn matched_with(master: &Master, candidate: &Candidate) -> Option<(MatchedWith, CandidateId)> {
    let entry = master.auto_eval.entry(candidate.id).filter(|e| e.outcome == Outcome::Match)?;
    let reference = entry.reference.and_then(|r| master.candidate(r))?;
    let (Some(corpus), Some(reference_corpus), Some((_, category))) =
        (master.corpus(candidate.corpus), master.corpus(reference.corpus), master.example_of(candidate))
    else {
        return Some((MatchedWith::Judged, reference.id));
    };
    let comparison = Comparison::new(master.auto_eval.rule, &master.languages.target);
    let words = |corpus, c| comparison.candidate(corpus, c, category.anaphoric);
    let own = reference_corpus.role == CorpusRole::Reference
        && words(corpus, candidate) == words(reference_corpus, reference);
    Some((if own { MatchedWith::ReferenceTranslation } else { MatchedWith::Judged }, reference.id))
}

/// What the latest round says about a candidate it settled or whose match was contradicted, for
/// the translation window: which translation it matched, or what agrees with what, and since
/// when. `None` for the others.
pub fn match_note(master: &Master, candidate: CandidateId) -> Option<String> {
    let entry = master.auto_eval.entry(candidate)?;
    let c = master.candidate(candidate)?;
    let judged = || {
        let (example, _) = master.example_of(c)?;
        let judge = Judge::for_language(&master.languages.target)?;
        Some(judge.judge(master.corpus(c.corpus)?, c, example).describe())
    };
    let round = entry.round;
    match entry.outcome {
        Outcome::Match => {
            let (with, reference) = matched_with(master, c)?;
            let corpus =
                master.candidate(reference).and_then(|r| master.corpus(r.corpus)).map_or("?", |c| c.name.as_str());
            let what = match with {
                MatchedWith::ReferenceTranslation => "the reference translation".to_owned(),
                MatchedWith::Judged => format!("a translation judged correct ({corpus})"),
            };
            Some(format!("matched automatically: same words as {what} (round {round})"))
        }
        Outcome::Agreement => Some(format!("correct by agreement: {} (round {round})", judged()?)),
        Outcome::Disagreement => Some(format!("incorrect by agreement: {} (round {round})", judged()?)),
        Outcome::Contradicted => Some(format!("matched, but {}: left to people (round {round})", judged()?)),
        _ => None,
    }
}

/// One line on what a round did, for the user who just ran it.
pub fn summary(round: &Round) -> String {
    let mut settled = format!("{} settled this round", round.settled);
    if round.unsettled > 0 {
        settled += &format!(", {} no longer settled", round.unsettled);
    }
    let agreement = if round.agreement {
        format!(", {} agree and {} disagree with their antecedent", round.agreements, round.disagreements)
    } else {
        String::new()
    };
    format!(
        "Round {}: {} of {} MT candidates match{agreement} ({settled}); {} left to humans.",
        round.round,
        round.matches,
        round.candidates(),
        round.candidates() - round.automatic()
    )
}

#[cfg(test)]
mod tests;
