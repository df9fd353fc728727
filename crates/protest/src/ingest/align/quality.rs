//! Measuring an alignment against another one taken as the reference: precision, recall and F1
//! of the links, for chosen source words (pronouns) whether both alignments point to the same
//! target words, and whether the automatic match reads them the same way.

use crate::metrics::auto_eval::matching::{self, Comparison, Reference, Words};
use crate::model::alignment::Links;
use crate::model::tokens;
use crate::model::{CandidateId, MatchRule, Outcome};
use std::collections::BTreeSet;

/// Link counts of a proposed alignment against a reference one.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LinkScore {
    pub proposed: usize,
    pub reference: usize,
    /// Proposed links that are also in the reference.
    pub matched: usize,
}

impl LinkScore {
    pub fn precision(&self) -> f64 {
        ratio(self.matched, self.proposed)
    }

    pub fn recall(&self) -> f64 {
        ratio(self.matched, self.reference)
    }

    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) }
    }
}

/// Scores the links of the source tokens `select(sentence, source_token)` accepts, over
/// sentence-parallel lists of links.
pub fn link_score(
    proposed: &[Vec<(u32, u32)>],
    reference: &[Vec<(u32, u32)>],
    select: impl Fn(usize, u32) -> bool,
) -> LinkScore {
    let mut score = LinkScore::default();
    for (sentence, (p, r)) in proposed.iter().zip(reference).enumerate() {
        let chosen = |l: &&(u32, u32)| select(sentence, l.0);
        score.proposed += p.iter().filter(chosen).count();
        score.reference += r.iter().filter(chosen).count();
        score.matched += p.iter().filter(chosen).filter(|l| r.contains(l)).count();
    }
    score
}

/// How many of the chosen source tokens the two alignments agree on.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    pub tokens: usize,
    /// Tokens whose target sets overlap, or are both empty.
    pub agreeing: usize,
}

impl Agreement {
    pub fn share(&self) -> f64 {
        ratio(self.agreeing, self.tokens)
    }
}

/// Compares the target sets of the given (sentence, source token) places in two
/// sentence-parallel lists of links.
pub fn target_agreement(
    proposed: &[Vec<(u32, u32)>],
    reference: &[Vec<(u32, u32)>],
    places: impl IntoIterator<Item = (usize, u32)>,
) -> Agreement {
    let targets = |links: &[Vec<(u32, u32)>], sentence: usize, token: u32| -> Vec<u32> {
        links.get(sentence).into_iter().flatten().filter(|l| l.0 == token).map(|l| l.1).collect()
    };
    let mut agreement = Agreement::default();
    for (sentence, token) in places {
        let p = targets(proposed, sentence, token);
        let r = targets(reference, sentence, token);
        agreement.tokens += 1;
        if (p.is_empty() && r.is_empty()) || p.iter().any(|t| r.contains(t)) {
            agreement.agreeing += 1;
        }
    }
    agreement
}

/// A translation's tokenised sentences with their links to the source.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    pub target: &'a [String],
    pub links: &'a [Links],
}

impl Side<'_> {
    /// The normalised words aligned to source token `token` of sentence `sentence`, as the
    /// pronoun's words of a candidate.
    pub fn words(&self, sentence: usize, token: u32) -> Words {
        let text = self.target.get(sentence).map_or("", String::as_str);
        let links = self.links.get(sentence).map_or(&[][..], Vec::as_slice);
        let pronoun = links
            .iter()
            .filter(|l| l.0 == token)
            .filter_map(|l| tokens::token(text, l.1))
            .map(matching::normalise)
            .collect();
        Words { pronoun, antecedents: Vec::new() }
    }
}

/// For chosen source pronouns, how often two alignments of one translation (ours and a given
/// one) lead the automatic match to the same place, against another translation as the only
/// reference (a first round: no judged references).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchAgreement {
    pub pronouns: usize,
    /// The same set of aligned words.
    pub same_set: usize,
    /// The same words as the rule compares them.
    pub same_words: usize,
    /// The same outcome (match, mismatch, no translation, no reference).
    pub same_outcome: usize,
    /// Of the different outcomes, those where one side is unaligned.
    pub one_side_empty: usize,
    /// Both matched, or both not.
    pub same_settled: usize,
}

impl MatchAgreement {
    pub fn share(n: usize, of: usize) -> f64 {
        ratio(n, of)
    }
}

/// [`MatchAgreement`] of `ours` against `given` under `rule`, `reference` being the reference.
pub fn match_agreement(
    ours: &Side,
    given: &Side,
    reference: &Side,
    pronouns: &[(usize, u32)],
    rule: MatchRule,
) -> MatchAgreement {
    let comparison = Comparison::new(rule, "fr");
    let mut a = MatchAgreement { pronouns: pronouns.len(), ..MatchAgreement::default() };
    for &(s, t) in pronouns {
        let (o, g) = (ours.words(s, t), given.words(s, t));
        let set = |w: &Words| w.pronoun.iter().cloned().collect::<BTreeSet<_>>();
        a.same_set += usize::from(set(&o) == set(&g));
        let references: Vec<Reference> = [comparison.reduce(reference.words(s, t))]
            .into_iter()
            .filter(Words::is_complete)
            .map(|words| Reference { candidate: CandidateId(0), words, judged: false })
            .collect();
        let (o, g) = (comparison.reduce(o), comparison.reduce(g));
        let outcome = |w: &Words| matching::compare(CandidateId(1), w, &references).0;
        a.same_words += usize::from(o == g);
        a.same_outcome += usize::from(outcome(&o) == outcome(&g));
        a.one_side_empty += usize::from(outcome(&o) != outcome(&g) && o.pronoun.is_empty() != g.pronoun.is_empty());
        a.same_settled += usize::from((outcome(&o) == Outcome::Match) == (outcome(&g) == Outcome::Match));
    }
    a
}

/// (sentence, token) of every source token `is_pronoun` accepts (in lower case), ascending.
pub fn places(source: &[String], is_pronoun: impl Fn(&str) -> bool) -> Vec<(usize, u32)> {
    let mut places = Vec::new();
    for (i, s) in source.iter().enumerate() {
        for (t, w) in (0u32..).zip(tokens::tokens(s)) {
            if is_pronoun(&w.to_lowercase()) {
                places.push((i, t));
            }
        }
    }
    places
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_recall_f1() {
        let proposed = vec![vec![(0, 0), (1, 1), (1, 2)], vec![(0, 1)]];
        let reference = vec![vec![(0, 0), (1, 2)], vec![(0, 0), (1, 1)]];
        let all = link_score(&proposed, &reference, |_, _| true);
        assert_eq!(all, LinkScore { proposed: 4, reference: 4, matched: 2 });
        assert_eq!((all.precision(), all.recall(), all.f1()), (0.5, 0.5, 0.5));
        let source_1 = link_score(&proposed, &reference, |_, s| s == 1);
        assert_eq!(source_1, LinkScore { proposed: 2, reference: 2, matched: 1 });
        let none = link_score(&proposed, &reference, |_, _| false);
        assert_eq!((none.precision(), none.f1()), (0.0, 0.0));
    }

    #[test]
    fn agreement_needs_overlap_or_two_empty_sets() {
        let proposed = vec![vec![(0, 0), (0, 1), (2, 3)]];
        let reference = vec![vec![(0, 1), (1, 2)]];
        let a = target_agreement(&proposed, &reference, [(0, 0), (0, 1), (0, 2), (0, 3)]);
        // token 0 overlaps (1); token 1 only in the reference; token 2 only proposed; 3 in neither.
        assert_eq!(a, Agreement { tokens: 4, agreeing: 2 });
        assert_eq!(a.share(), 0.5);
        assert_eq!(target_agreement(&proposed, &reference, [(5, 0)]).agreeing, 1, "missing sentences are empty");
    }

    #[test]
    fn the_match_reads_two_alignments_alike_or_not() {
        let source = vec!["It is red , it is .".to_string()];
        let target = vec!["Il est rouge , c' est .".to_string()];
        let reference = vec!["Elle est rouge , c' est .".to_string()];
        let pronouns = places(&source, |w| w == "it");
        assert_eq!(pronouns, [(0, 0), (0, 4)]);
        let links = |l: &[(u32, u32)]| vec![l.to_vec()];
        let (ours, given, refs) =
            (links(&[(0, 0), (4, 4)]), links(&[(0, 0), (4, 4), (4, 5)]), links(&[(0, 0), (4, 4)]));
        let side = |target, links| Side { target, links };
        let a = match_agreement(
            &side(&target, &ours),
            &side(&target, &given),
            &side(&reference, &refs),
            &pronouns,
            MatchRule::MinimalTokens,
        );
        // "Il" against "Il" (both mismatch "Elle"); "c'" against "c' est", the same pronoun form
        // (both match the reference's "c'"), though not the same set of words.
        assert_eq!(
            a,
            MatchAgreement {
                pronouns: 2,
                same_set: 1,
                same_words: 2,
                same_outcome: 2,
                one_side_empty: 0,
                same_settled: 2
            }
        );
        let aligned = match_agreement(
            &side(&target, &ours),
            &side(&target, &given),
            &side(&reference, &refs),
            &pronouns,
            MatchRule::AlignedTokens,
        );
        assert_eq!((aligned.same_words, aligned.same_outcome, aligned.same_settled), (1, 1, 1));
    }
}
