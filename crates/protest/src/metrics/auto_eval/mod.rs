//! Automatic reference match and the semi-automatic loop (docs/auto-eval.md; docs/domain.md, "Matching").
//!
//! Each run is a round: every MT system's candidate is compared with the reference translation
//! of its example and with the translations annotators have judged correct so far. Matches count
//! as correct; the rest is referred to humans, whose judgements feed the next round.

pub mod aligned_by;
pub mod matching;

use crate::metrics::verdict::{Decisions, Verdicts};
use crate::model::{AutoEval, Candidate, CandidateId, CorpusRole, Judgement, Master, MatchEntry, Outcome, Role, Round};
use chrono::{DateTime, Utc};
use matching::{Comparison, Reference};
use std::collections::HashMap;

/// Runs one round over `master` by the rule stored with its results
/// ([`AutoEval::rule`](crate::model::AutoEval)) and returns its automatic evaluation with the
/// round added. Pure: the caller stores the result (`master.auto_eval = …`).
pub fn run(master: &Master, now: DateTime<Utc>) -> AutoEval {
    let verdicts = Verdicts::new(master);
    let previous = &master.auto_eval;
    let comparison = Comparison::new(previous.rule, &master.languages.target);
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
            matching::compare(candidate.id, &words, refs)
        };
        let round = match previous.entry(candidate.id) {
            Some(old) if old.outcome == outcome && old.reference == reference => old.round,
            _ => number,
        };
        outcomes.push(MatchEntry { candidate: candidate.id, outcome, reference, round });
    }
    outcomes.sort_by_key(|e| e.candidate);
    let mut current = AutoEval { outcomes, rounds: previous.rounds.clone(), rule: previous.rule };
    let count = |o: Outcome| current.outcomes.iter().filter(|e| e.outcome == o).count() as u32;
    let newly_matched = |now: &AutoEval, before: &AutoEval| {
        now.outcomes.iter().filter(|e| e.outcome == Outcome::Match && !before.matched(e.candidate)).count() as u32
    };
    let round = Round {
        round: number,
        run: now,
        judged_references: references.values().flatten().filter(|r| r.judged).count() as u32,
        matches: count(Outcome::Match),
        mismatches: count(Outcome::Mismatch),
        no_translation: count(Outcome::NoTranslation),
        no_reference: count(Outcome::NoReference),
        uncertain_boundaries: count(Outcome::UncertainBoundaries),
        settled: newly_matched(&current, previous),
        unsettled: newly_matched(previous, &current),
        rule: previous.rule,
    };
    current.rounds.push(round);
    current
}

/// Whether the translation of the example's pronoun or of one of its antecedent heads lies in a
/// sentence whose boundaries the system's re-segmented output leaves uncertain: then the match
/// never settles the candidate, whatever its words.
pub fn uncertain_boundaries(corpus: &crate::model::Corpus, example: &crate::model::Example) -> bool {
    std::iter::once(example.sentence)
        .chain(example.antecedents.iter().map(|a| a.sentence))
        .any(|s| corpus.is_uncertain(s))
}

/// How often humans disagree with the match: of the matched candidates with a verdict on every
/// role the match claims (pronoun, and heads in anaphoric examples), how many have ✗ on one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Precision {
    pub matches_with_verdict: u32,
    pub judged_incorrect: u32,
}

impl Precision {
    pub fn of(master: &Master) -> Precision {
        let verdicts = Verdicts::new(master);
        let mut p = Precision::default();
        for candidate in master.candidates.iter().filter(|c| master.auto_eval.matched(c.id)) {
            if let Some(correct) = human_verdict(&verdicts, candidate) {
                p.matches_with_verdict += 1;
                p.judged_incorrect += u32::from(!correct);
            }
        }
        p
    }
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

/// Whether a candidate still needs a human judgement, i.e. the latest round did not settle it by
/// a match. For the category browser and for planning task sets. Says nothing about whether a
/// human has already judged it.
pub fn needs_human(master: &Master, candidate: CandidateId) -> bool {
    !master.auto_eval.matched(candidate)
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

/// What the latest round says about a matched candidate, for the translation window: which
/// translation it matched and since when. `None` when it is not matched.
pub fn match_note(master: &Master, candidate: CandidateId) -> Option<String> {
    let entry = master.auto_eval.entry(candidate).filter(|e| e.outcome == Outcome::Match)?;
    let (with, reference) = matched_with(master, master.candidate(candidate)?)?;
    let corpus = master.candidate(reference).and_then(|r| master.corpus(r.corpus)).map_or("?", |c| c.name.as_str());
    let what = match with {
        MatchedWith::ReferenceTranslation => "the reference translation".to_owned(),
        MatchedWith::Judged => format!("a translation judged correct ({corpus})"),
    };
    Some(format!("matched automatically: same words as {what} (round {})", entry.round))
}

/// One line on what a round did, for the user who just ran it.
pub fn summary(round: &Round) -> String {
    let mut settled = format!("{} settled this round", round.settled);
    if round.unsettled > 0 {
        settled += &format!(", {} no longer matching", round.unsettled);
    }
    format!(
        "Round {}: {} of {} MT candidates match ({settled}); {} left to humans.",
        round.round,
        round.matches,
        round.candidates(),
        round.candidates() - round.matches
    )
}

#[cfg(test)]
mod tests;
