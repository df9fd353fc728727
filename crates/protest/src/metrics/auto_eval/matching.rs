//! The matching rules of docs/auto-eval.md: what is compared, and with which references.

use crate::annotate::window;
use crate::metrics::verdict::Verdicts;
use crate::model::pronouns::Pronouns;
use crate::model::{
    Candidate, CandidateId, Corpus, CorpusRole, Example, Judgement, Language, MatchRule, Outcome, Record, Role,
};

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

/// What a rule compares: the words of a candidate and of an annotator's selection.
#[derive(Debug, Clone, Copy)]
pub struct Comparison {
    pub rule: MatchRule,
    /// The target language's pronoun forms; without them the minimal-token rule keeps every
    /// aligned token (only the selections are minimal).
    pronouns: Option<&'static Pronouns>,
}

impl Comparison {
    /// `rule` for translations into `target_language` (a code such as `fr` or `fr-FR`).
    pub fn new(rule: MatchRule, target_language: &str) -> Comparison {
        Comparison { rule, pronouns: Language::from_code(target_language).pronouns() }
    }

    fn minimal(&self) -> Option<&'static Pronouns> {
        self.pronouns.filter(|_| self.rule == MatchRule::MinimalTokens)
    }

    /// The words a candidate's aligned tokens stand for: all of them under
    /// [`MatchRule::AlignedTokens`]; under [`MatchRule::MinimalTokens`] the pronoun forms among
    /// them (if any) and each head without function words (if anything is left).
    pub fn candidate(&self, corpus: &Corpus, candidate: &Candidate, anaphoric: bool) -> Words {
        self.reduce(Words::of(corpus, candidate, anaphoric))
    }

    /// [`Comparison::candidate`] on the normalised aligned words.
    pub fn reduce(&self, words: Words) -> Words {
        let Some(p) = self.minimal() else { return words };
        let reduce = |words: Vec<String>, keep: &dyn Fn(&str) -> Option<String>| {
            let kept: Vec<String> = words.iter().filter_map(|w| keep(w)).collect();
            let kept = if kept.is_empty() { words } else { kept };
            kept.iter().map(|w| p.identical(w).to_owned()).collect()
        };
        Words {
            pronoun: reduce(words.pronoun, &|w| p.form_of(w).map(str::to_owned)),
            antecedents: words
                .antecedents
                .into_iter()
                .map(|head| reduce(head, &|w| (!p.is_function_word(w)).then(|| w.to_owned())))
                .collect(),
        }
    }

    /// The words of an annotator's minimal selection; under [`MatchRule::MinimalTokens`] with
    /// identical forms taken as one (`c'` = `ce`). Never reduced: a human chose them.
    pub fn selection(&self, corpus: &Corpus, candidate: &Candidate, record: &Record, anaphoric: bool) -> Words {
        let words = Words::selected(corpus, candidate, record, anaphoric);
        let Some(p) = self.minimal() else { return words };
        let identical = |words: Vec<String>| words.iter().map(|w| p.identical(w).to_owned()).collect();
        Words { pronoun: identical(words.pronoun), antecedents: words.antecedents.into_iter().map(identical).collect() }
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
pub fn references(verdicts: &Verdicts, comparison: &Comparison, example: &Example, anaphoric: bool) -> Vec<Reference> {
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
            add(c.id, comparison.candidate(corpus, c, anaphoric), false);
        }
    }
    for (c, corpus) in of_example() {
        if !verdict(c).all(|j| j == Judgement::Yes) {
            continue;
        }
        for record in master.records.of_candidate(c.id) {
            if roles.iter().all(|&role| record.judgement(role) == Judgement::Yes) {
                add(c.id, comparison.selection(corpus, c, record, anaphoric), true);
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

    fn minimal(w: Words) -> Words {
        Comparison::new(MatchRule::MinimalTokens, "fr-FR").reduce(w)
    }

    #[test]
    fn the_minimal_rule_compares_the_pronoun_forms_among_the_aligned_tokens() {
        // Several aligned tokens: the pronoun among them (sample example 14, "Puis ils ont").
        assert_eq!(minimal(words(&["ils", "ont"], &[])), words(&["ils"], &[]));
        assert_eq!(minimal(words(&["puis", "ils", "ont"], &[])), words(&["ils"], &[]));
        // Complementiser and elided conjunction are no pronouns; s' (si, se) neither.
        assert_eq!(minimal(words(&["qu'", "ils"], &[])), words(&["ils"], &[]));
        assert_eq!(minimal(words(&["s'", "il"], &[])), words(&["il"], &[]));
        // Unsplit elisions and hyphenated inversions give their pronoun.
        assert_eq!(minimal(words(&["qu'il"], &[])), words(&["il"], &[]));
        assert_eq!(minimal(words(&["a-t-elle"], &[])), words(&["elle"], &[]));
        // Identical forms are one: c' = ce, cela = ça = ç'.
        assert_eq!(minimal(words(&["c'", "est"], &[])), words(&["ce"], &[]));
        assert_eq!(minimal(words(&["cela"], &[])), minimal(words(&["ça"], &[])));
        // Elided object clitic: a pronoun of its own, not the same as le.
        assert_eq!(minimal(words(&["l'", "ai"], &[])), words(&["l'"], &[]));
        assert_ne!(minimal(words(&["l'"], &[])), minimal(words(&["le"], &[])));
        // Equivalents are not identical: il is not ce.
        assert_ne!(minimal(words(&["il"], &[])), minimal(words(&["c'"], &[])));
        // Two forms stay two, in order.
        assert_eq!(minimal(words(&["te", "t'"], &[])), words(&["te", "t'"], &[]));
        // No pronoun form among them: every token, as the aligned rule has it.
        assert_eq!(minimal(words(&["fait", "ne"], &[])), words(&["fait", "ne"], &[]));
        // Heads lose their function words, unless nothing else is left.
        assert_eq!(minimal(words(&["il"], &[&["les", "utilisateurs"]])), words(&["il"], &[&["utilisateurs"]]));
        assert_eq!(minimal(words(&["il"], &[&["le"]])), words(&["il"], &[&["le"]]));
        // An empty alignment stays empty: no translation.
        assert!(!minimal(words(&[], &[])).is_complete());
        assert!(!minimal(words(&["il"], &[&[]])).is_complete());
    }

    #[test]
    fn the_aligned_rule_and_unknown_languages_keep_every_token() {
        let w = words(&["qu'", "ils", "ont"], &[&["les", "vélos"]]);
        assert_eq!(Comparison::new(MatchRule::AlignedTokens, "fr").reduce(w.clone()), w);
        assert_eq!(Comparison::new(MatchRule::MinimalTokens, "de").reduce(w.clone()), w);
    }

    #[test]
    fn under_the_minimal_rule_a_multi_token_alignment_matches_the_approved_pronoun() {
        let approved = [reference(1, words(&["ils"], &[]), true)];
        let mt = words(&["ils", "ont"], &[]);
        assert_eq!(compare(CandidateId(2), &minimal(mt.clone()), &approved), (Outcome::Match, Some(CandidateId(1))));
        assert_eq!(compare(CandidateId(2), &mt, &approved).0, Outcome::Mismatch, "the aligned rule");
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
