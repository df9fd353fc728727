//! Measuring an alignment against another one taken as the reference: precision, recall and F1
//! of the links, and for chosen source words (pronouns) whether both alignments point to the
//! same target words.

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
}
