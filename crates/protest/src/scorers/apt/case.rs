//! APT's six cases and the weighted score over them (paper 000 §2.4).

use std::fmt;

/// How a candidate translation of a source pronoun compares with the reference translation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Case {
    /// 1: the same pronoun (after identical forms are merged).
    Identical = 1,
    /// 2: an equivalent pronoun.
    Equivalent = 2,
    /// 3: a different pronoun.
    Different = 3,
    /// 4: the candidate has no translation.
    NoCandidate = 4,
    /// 5: the reference has no translation.
    NoReference = 5,
    /// 6: neither has one.
    Neither = 6,
}

impl Case {
    pub const ALL: [Case; 6] =
        [Case::Identical, Case::Equivalent, Case::Different, Case::NoCandidate, Case::NoReference, Case::Neither];

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn from_number(n: u8) -> Option<Case> {
        Case::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    pub fn name(self) -> &'static str {
        match self {
            Case::Identical => "identical",
            Case::Equivalent => "equivalent",
            Case::Different => "different",
            Case::NoCandidate => "no candidate",
            Case::NoReference => "no reference",
            Case::Neither => "neither",
        }
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.number().fmt(f)
    }
}

/// Which cases count, with their weights, in the order given (the reference's `cases_to_use` and
/// `weigths_per_case`). A case listed twice keeps its first weight; one not listed is dropped from
/// the score (but still reported per instance).
#[derive(Debug, Clone, PartialEq)]
pub struct Weighting {
    entries: Vec<(Case, f64)>,
}

impl Weighting {
    pub fn new(entries: Vec<(Case, f64)>) -> Self {
        Weighting { entries }
    }

    /// Every case counted: weight 1 for identical, `equivalent` for equivalent, 0 otherwise
    /// (paper 000's setting "w₆ = 0, C_d = ∅").
    pub fn all_cases(equivalent: f64) -> Self {
        let weight = |case| match case {
            Case::Identical => 1.0,
            Case::Equivalent => equivalent,
            _ => 0.0,
        };
        Weighting::new(Case::ALL.iter().map(|&c| (c, weight(c))).collect())
    }

    /// APT-A of paper 003: equivalent pronouns count as wrong.
    pub fn apt_a() -> Self {
        Weighting::all_cases(0.0)
    }

    /// APT-B of paper 003: equivalent pronouns count half.
    pub fn apt_b() -> Self {
        Weighting::all_cases(0.5)
    }

    pub fn entries(&self) -> &[(Case, f64)] {
        &self.entries
    }

    /// The slot a case is counted in, if it is used.
    fn slot(&self, case: Case) -> Option<usize> {
        self.entries.iter().position(|&(c, _)| c == case)
    }
}

/// Findings per case, all six.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    counts: [u64; 6],
}

impl Tally {
    pub fn add(&mut self, case: Case) {
        self.counts[case as usize - 1] += 1;
    }

    pub fn get(&self, case: Case) -> u64 {
        self.counts[case as usize - 1]
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// These findings less those of one case.
    pub fn without(mut self, case: Case) -> Tally {
        self.counts[case as usize - 1] = 0;
        self
    }

    /// The APT score under a weighting (NaN when no used case was found).
    pub fn score(&self, weighting: &Weighting) -> f64 {
        let mut counts = CaseCounts::new(weighting.clone());
        for case in Case::ALL {
            counts.add_many(case, self.get(case));
        }
        counts.score()
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

/// Findings per listed case, in the weighting's order.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseCounts {
    weighting: Weighting,
    counts: Vec<u64>,
}

impl CaseCounts {
    pub fn new(weighting: Weighting) -> Self {
        let counts = vec![0; weighting.entries.len()];
        CaseCounts { weighting, counts }
    }

    /// Counts one finding; false if its case is not used.
    pub fn add(&mut self, case: Case) -> bool {
        self.add_many(case, 1)
    }

    fn add_many(&mut self, case: Case, n: u64) -> bool {
        match self.weighting.slot(case) {
            Some(slot) => {
                self.counts[slot] += n;
                true
            }
            None => false,
        }
    }

    pub fn weighting(&self) -> &Weighting {
        &self.weighting
    }

    /// Findings per listed case, in order (a case listed twice has 0 in its second place).
    pub fn per_slot(&self) -> &[u64] {
        &self.counts
    }

    pub fn of(&self, case: Case) -> u64 {
        self.weighting.slot(case).map_or(0, |slot| self.counts[slot])
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Σ wᵢ·nᵢ / Σ nᵢ, summed in list order as the reference does; NaN without findings.
    pub fn score(&self) -> f64 {
        let weighted =
            self.counts.iter().zip(&self.weighting.entries).fold(0.0, |sum, (&n, &(_, w))| sum + n as f64 * w);
        let total = self.counts.iter().fold(0.0, |sum, &n| sum + n as f64);
        weighted / total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip() {
        for case in Case::ALL {
            assert_eq!(Case::from_number(case.number()), Some(case));
        }
        assert_eq!(Case::from_number(0), None);
        assert_eq!(Case::from_number(7), None);
    }

    #[test]
    fn score_uses_only_listed_cases_with_their_weights() {
        // Cases 1,3,5 with weights 1,0,0.5: case 5 weighs 0.5, cases 2, 4 and 6 are dropped.
        let weighting = Weighting::new(vec![(Case::Identical, 1.0), (Case::Different, 0.0), (Case::NoReference, 0.5)]);
        let mut counts = CaseCounts::new(weighting);
        for case in [Case::Identical, Case::Identical, Case::Different, Case::NoReference, Case::Equivalent] {
            counts.add(case);
        }
        assert!(!counts.add(Case::Neither));
        assert_eq!(counts.per_slot(), [2, 1, 1]);
        assert_eq!(counts.total(), 4);
        assert_eq!(counts.score(), 2.5 / 4.0);
        assert_eq!(counts.of(Case::Equivalent), 0);
    }

    #[test]
    fn a_case_listed_twice_counts_in_its_first_place() {
        let weighting = Weighting::new(vec![(Case::Identical, 1.0), (Case::Identical, 0.0), (Case::Different, 0.0)]);
        let mut counts = CaseCounts::new(weighting);
        counts.add(Case::Identical);
        counts.add(Case::Different);
        assert_eq!(counts.per_slot(), [1, 0, 1]);
        assert_eq!(counts.score(), 0.5);
    }

    #[test]
    fn tally_scores_under_any_weighting() {
        let mut tally = Tally::default();
        for case in [Case::Identical, Case::Identical, Case::Equivalent, Case::NoReference] {
            tally.add(case);
        }
        assert_eq!((tally.get(Case::Identical), tally.total()), (2, 4));
        assert_eq!(tally.score(&Weighting::apt_b()), 2.5 / 4.0);
        let cases_1_to_3 =
            Weighting::new(vec![(Case::Identical, 1.0), (Case::Equivalent, 1.0), (Case::Different, 0.0)]);
        assert_eq!(tally.score(&cases_1_to_3), 1.0);
        let mut sum = tally;
        sum += tally;
        assert_eq!(sum.total(), 8);
    }

    #[test]
    fn apt_a_and_b_differ_in_the_equivalent_weight() {
        let mut a = CaseCounts::new(Weighting::apt_a());
        let mut b = CaseCounts::new(Weighting::apt_b());
        for case in [Case::Identical, Case::Equivalent, Case::Different, Case::Neither] {
            a.add(case);
            b.add(case);
        }
        assert_eq!(a.score(), 0.25);
        assert_eq!(b.score(), 0.375);
        assert!(CaseCounts::new(Weighting::apt_a()).score().is_nan());
    }
}
