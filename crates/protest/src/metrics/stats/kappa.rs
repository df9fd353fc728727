//! Cohen's kappa (Cohen 1960): agreement of two raters beyond chance, from their confusion
//! matrix.

/// Counts of items by (first rater's category, second rater's category); square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confusion {
    counts: Vec<Vec<u64>>,
}

impl Confusion {
    /// An empty matrix over `categories` categories.
    pub fn new(categories: usize) -> Self {
        Confusion { counts: vec![vec![0; categories]; categories] }
    }

    /// From rows of counts (first rater by row, second by column).
    ///
    /// # Panics
    /// If the rows are not all as long as there are rows (a programming error, not user input).
    pub fn from_rows(rows: Vec<Vec<u64>>) -> Self {
        assert!(rows.iter().all(|r| r.len() == rows.len()), "a confusion matrix is square");
        Confusion { counts: rows }
    }

    pub fn add(&mut self, first: usize, second: usize) {
        self.counts[first][second] += 1;
    }

    pub fn get(&self, first: usize, second: usize) -> u64 {
        self.counts[first][second]
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// Items on which the raters agree (the diagonal).
    pub fn agreements(&self) -> u64 {
        (0..self.counts.len()).map(|i| self.counts[i][i]).sum()
    }

    pub fn disagreements(&self) -> u64 {
        self.total() - self.agreements()
    }

    /// The first rater's count per category.
    pub fn first_marginals(&self) -> Vec<u64> {
        self.counts.iter().map(|r| r.iter().sum()).collect()
    }

    /// The second rater's count per category.
    pub fn second_marginals(&self) -> Vec<u64> {
        (0..self.counts.len()).map(|j| self.counts.iter().map(|r| r[j]).sum()).collect()
    }

    /// κ = (p_o − p_e) / (1 − p_e); `None` without items or when chance agreement is already
    /// certain (both raters used one and the same category throughout).
    pub fn kappa(&self) -> Option<f64> {
        let n = self.total() as f64;
        if n == 0.0 {
            return None;
        }
        let observed = self.agreements() as f64 / n;
        let expected: f64 =
            self.first_marginals().iter().zip(self.second_marginals()).map(|(&a, b)| a as f64 * b as f64).sum::<f64>()
                / (n * n);
        (expected < 1.0).then(|| (observed - expected) / (1.0 - expected))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paper 001, Table 2: marginals ✓93 ✗19 ?4 (A) and ✓83 ✗29 ?4 (B), 14 of 116
    /// disagree. Rows are A, columns B, in the order ✓ ✗ ?.
    #[test]
    fn pronoun_agreement_of_paper_001() {
        let m = Confusion::from_rows(vec![vec![82, 11, 0], vec![1, 17, 1], vec![0, 1, 3]]);
        assert_eq!(m.first_marginals(), [93, 19, 4]);
        assert_eq!(m.second_marginals(), [83, 29, 4]);
        assert_eq!((m.total(), m.disagreements()), (116, 14));
        let kappa = m.kappa().unwrap();
        assert_eq!(format!("{kappa:.2}"), "0.69");
        assert!((kappa - 0.68596).abs() < 1e-4, "{kappa}");
    }

    /// Antecedent: ✓64 ✗3 ?1 vs ✓65 ✗3 ?0, 1 of 68 disagree.
    #[test]
    fn antecedent_agreement_of_paper_001() {
        let m = Confusion::from_rows(vec![vec![64, 0, 0], vec![0, 3, 0], vec![1, 0, 0]]);
        assert_eq!(m.first_marginals(), [64, 3, 1]);
        assert_eq!(m.second_marginals(), [65, 3, 0]);
        assert_eq!((m.total(), m.disagreements()), (68, 1));
        assert_eq!(format!("{:.2}", m.kappa().unwrap()), "0.85");
    }

    #[test]
    fn kappa_depends_only_on_marginals_and_diagonal() {
        let paper = Confusion::from_rows(vec![vec![82, 11, 0], vec![1, 17, 1], vec![0, 1, 3]]);
        let same = Confusion::from_rows(vec![vec![81, 12, 0], vec![2, 17, 0], vec![0, 0, 4]]);
        let worse = Confusion::from_rows(vec![vec![80, 12, 1], vec![3, 16, 0], vec![0, 1, 3]]);
        for m in [&same, &worse] {
            assert_eq!(m.first_marginals(), paper.first_marginals());
            assert_eq!(m.second_marginals(), paper.second_marginals());
        }
        assert_eq!((same.disagreements(), worse.disagreements()), (14, 17));
        assert!((same.kappa().unwrap() - paper.kappa().unwrap()).abs() < 1e-12);
        assert!(worse.kappa().unwrap() < paper.kappa().unwrap());
    }

    #[test]
    fn perfect_chance_and_undefined() {
        let mut perfect = Confusion::new(2);
        perfect.add(0, 0);
        perfect.add(1, 1);
        assert_eq!(perfect.kappa(), Some(1.0));
        // Independent raters: observed = expected.
        let chance = Confusion::from_rows(vec![vec![1, 1], vec![1, 1]]);
        assert_eq!(chance.kappa(), Some(0.0));
        assert_eq!(Confusion::new(3).kappa(), None);
        let one_category = Confusion::from_rows(vec![vec![5, 0], vec![0, 0]]);
        assert_eq!(one_category.kappa(), None);
    }
}
