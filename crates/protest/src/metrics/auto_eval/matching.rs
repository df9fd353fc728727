//! The matching rule of docs/auto-eval.md: what is compared, and with which references.

use crate::annotate::window;
use crate::metrics::verdict::Verdicts;
use crate::model::{Candidate, CandidateId, Corpus, CorpusRole, Example, Judgement, Outcome, Record, Role};

/// The normalised words a translation gives for the pronoun and for each antecedent head
/// (antecedents only in anaphoric examples). Two translations match when these are equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Words {
    pub pronoun: Vec<String>,
    pub antecedents: Vec<Vec<String>>,
}

impl Words {
    /// The words at the aligned positions of `candidate` in `corpus`.
    pub fn of(corpus: &Corpus, candidate: &Candidate, anaphoric: bool) -> Words {
        let t = window::translations(corpus, candidate);
        let normalised = |words: Vec<String>| words.iter().map(|w| normalise(w)).collect();
        Words {
            pronoun: normalised(t.pronoun),
            antecedents: if anaphoric { t.antecedents.into_iter().map(normalised).collect() } else { Vec::new() },
        }
    }

    /// The words of the tokens an annotator selected as the minimal correct translation, split
    /// per antecedent head by the head's aligned tokens.
    pub fn selected(corpus: &Corpus, candidate: &Candidate, record: &Record, anaphoric: bool) -> Words {
        let minimal = Candidate {
            pronoun: record.selected.pronoun.iter().copied().collect(),
            antecedents: candidate
                .antecedents
                .iter()
                .map(|aligned| aligned.iter().copied().filter(|t| record.selected.antecedent.contains(t)).collect())
                .collect(),
            ..candidate.clone()
        };
        Words::of(corpus, &minimal, anaphoric)
    }

    /// Whether there is something to compare: a pronoun translation and one for every head.
    pub fn is_complete(&self) -> bool {
        !self.pronoun.is_empty() && self.antecedents.iter().all(|a| !a.is_empty())
    }
}

/// Case-insensitive comparison, with the typographic apostrophe taken as the plain one
/// (`c’` = `c'`), since tokenisers disagree on it.
pub fn normalise(word: &str) -> String {
    word.to_lowercase().replace('’', "'")
}

/// A translation that a candidate may match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The candidate the words come from.
    pub candidate: CandidateId,
    pub words: Words,
    /// From annotators' judgements rather than the reference corpus.
    pub judged: bool,
}

/// The references of one example, without repeats: the reference corpus's translation unless
/// the verdict on it is "incorrect", then the minimal selections of every record that judged a
/// translation correct whose verdict is correct too. Incomplete ones are left out.
pub fn references(verdicts: &Verdicts, example: &Example, anaphoric: bool) -> Vec<Reference> {
    let master = verdicts.master();
    let roles: &[Role] = if anaphoric { &Role::ALL } else { &[Role::Pronoun] };
    let verdict = |c: &Candidate| {
        let id = c.id;
        roles.iter().map(move |&role| verdicts.decide(id, role).judgement)
    };
    let mut found: Vec<Reference> = Vec::new();
    let mut add = |candidate: CandidateId, words: Words, judged: bool| {
        if words.is_complete() && found.iter().all(|r| r.words != words) {
            found.push(Reference { candidate, words, judged });
        }
    };
    let of_example = || master.candidates_of(example.no).filter_map(|c| Some((c, master.corpus(c.corpus)?)));
    for (c, corpus) in of_example() {
        if corpus.role == CorpusRole::Reference && !verdict(c).any(|j| j == Judgement::No) {
            add(c.id, Words::of(corpus, c, anaphoric), false);
        }
    }
    for (c, corpus) in of_example() {
        if !verdict(c).all(|j| j == Judgement::Yes) {
            continue;
        }
        for record in master.records.of_candidate(c.id) {
            if roles.iter().all(|&role| record.judgement(role) == Judgement::Yes) {
                add(c.id, Words::selected(corpus, c, record, anaphoric), true);
            }
        }
    }
    found
}

/// A candidate's outcome against its example's references (its own judged translation excluded),
/// with the matching reference. The reference corpus comes first, so it is named when it matches.
pub fn compare(candidate: CandidateId, words: &Words, references: &[Reference]) -> (Outcome, Option<CandidateId>) {
    let usable = || references.iter().filter(|r| r.candidate != candidate);
    if !words.is_complete() {
        (Outcome::NoTranslation, None)
    } else if let Some(r) = usable().find(|r| r.words == *words) {
        (Outcome::Match, Some(r.candidate))
    } else if usable().next().is_none() {
        (Outcome::NoReference, None)
    } else {
        (Outcome::Mismatch, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pronoun: &[&str], antecedents: &[&[&str]]) -> Words {
        let owned = |w: &[&str]| w.iter().map(|s| s.to_string()).collect();
        Words { pronoun: owned(pronoun), antecedents: antecedents.iter().map(|a| owned(a)).collect() }
    }

    fn reference(candidate: u32, w: Words, judged: bool) -> Reference {
        Reference { candidate: CandidateId(candidate), words: w, judged }
    }

    #[test]
    fn normalising_ignores_case_and_apostrophe_style() {
        assert_eq!(normalise("C’"), "c'");
        assert_eq!(normalise("Elle"), normalise("ELLE"));
        assert_eq!(normalise("À"), "à");
    }

    #[test]
    fn complete_words_need_the_pronoun_and_every_head() {
        assert!(words(&["il"], &[]).is_complete());
        assert!(words(&["il"], &[&["vélo"], &["roue"]]).is_complete());
        assert!(!words(&[], &[]).is_complete());
        assert!(!words(&["il"], &[&["vélo"], &[]]).is_complete());
    }

    #[test]
    fn outcomes() {
        let refs = [
            reference(1, words(&["il"], &[&["vélo"]]), false),
            reference(5, words(&["elle"], &[&["bicyclette"]]), true),
        ];
        let cmp = |c: u32, w: Words| compare(CandidateId(c), &w, &refs);
        assert_eq!(cmp(2, words(&["il"], &[&["vélo"]])), (Outcome::Match, Some(CandidateId(1))));
        assert_eq!(cmp(3, words(&["elle"], &[&["bicyclette"]])), (Outcome::Match, Some(CandidateId(5))));
        // Both parts must match; order and extra words count.
        assert_eq!(cmp(3, words(&["il"], &[&["bicyclette"]])).0, Outcome::Mismatch);
        assert_eq!(cmp(3, words(&["qu'", "il"], &[&["vélo"]])).0, Outcome::Mismatch);
        assert_eq!(cmp(3, words(&["il"], &[&[]])).0, Outcome::NoTranslation);
        // A candidate is never its own reference.
        assert_eq!(cmp(5, words(&["elle"], &[&["bicyclette"]])).0, Outcome::Mismatch);
        assert_eq!(compare(CandidateId(5), &words(&["elle"], &[&["x"]]), &refs[1..]).0, Outcome::NoReference);
        assert_eq!(compare(CandidateId(2), &words(&["il"], &[]), &[]).0, Outcome::NoReference);
    }
}
