//! The reference-by-candidate confusion matrix of an APT run and its printed layout.

use super::reference_order::numpy_argsort;
use super::rules::{Categories, Category, Judged};
use std::collections::HashMap;

/// Counts per (reference category, candidate category); sparse, because without a target list
/// every aligned word is a category.
///
/// A word outside the category list (see [`Category`]) has no row or column. The reference
/// indexes its numpy matrix with `None` for it, which numpy reads as "insert an axis" rather than
/// as an index: `m[r, None]` and `m[None, c]` both select a whole *row* (`r`, resp. `c`), and
/// `m[None, None]` the whole matrix. We reproduce those additions, so that the files agree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfusionMatrix {
    cells: HashMap<(usize, usize), u64>,
    /// Additions to every cell of a row, and of the whole matrix.
    whole_rows: HashMap<usize, u64>,
    everywhere: u64,
}

impl ConfusionMatrix {
    /// Counts one judged instance. With `multiword` every (reference, candidate) pair of its
    /// categories counts; without, only the first of each side in the reference's set order.
    pub fn add(&mut self, judged: &Judged, categories: &Categories, multiword: bool) {
        let (reference, candidate) = (judged.reference.categories(categories), judged.candidate.categories(categories));
        let pairs: Vec<(Category, Category)> = if multiword {
            reference.iter().flat_map(|&r| candidate.iter().map(move |&c| (r, c))).collect()
        } else {
            reference.first().zip(candidate.first()).map(|(&r, &c)| (r, c)).into_iter().collect()
        };
        for pair in pairs {
            match pair {
                (Some(r), Some(c)) => *self.cells.entry((r, c)).or_default() += 1,
                (Some(row), None) | (None, Some(row)) => *self.whole_rows.entry(row).or_default() += 1,
                (None, None) => self.everywhere += 1,
            }
        }
    }

    pub fn get(&self, reference: usize, candidate: usize) -> u64 {
        self.cells.get(&(reference, candidate)).copied().unwrap_or(0)
            + self.whole_rows.get(&reference).copied().unwrap_or(0)
            + self.everywhere
    }

    /// The printed table: categories ordered by their diagonal count, largest first (ties as
    /// numpy's unstable sort leaves them), cut after `max` with a `...` row and column for the
    /// rest, then a `-sum-` row and column.
    pub fn table(&self, categories: &Categories, max: usize) -> MatrixTable {
        let n = categories.len();
        let diagonal: Vec<u64> = (0..n).map(|i| self.get(i, i)).collect();
        let mut order = numpy_argsort(&diagonal);
        order.reverse();
        let shown = n.min(max);
        let cut = n > max;
        let width = shown + usize::from(cut);
        // Where each category lands: its own row/column, or the `...` one.
        let mut place = vec![0; n];
        for (k, &category) in order.iter().enumerate() {
            place[category] = k.min(shown);
        }
        // How many categories each printed row/column stands for.
        let block: Vec<u64> = (0..width).map(|k| if k < shown { 1 } else { (n - shown) as u64 }).collect();
        let mut rows = vec![vec![0u64; width]; width];
        for (&(r, c), &count) in &self.cells {
            rows[place[r]][place[c]] += count;
        }
        for (&r, &count) in &self.whole_rows {
            for (k, size) in block.iter().enumerate() {
                rows[place[r]][k] += count * size;
            }
        }
        for (k, row) in rows.iter_mut().enumerate() {
            for (kc, cell) in row.iter_mut().enumerate() {
                *cell += self.everywhere * block[k] * block[kc];
            }
        }
        let mut labels: Vec<String> = order[..shown].iter().map(|&i| categories.names()[i].clone()).collect();
        if cut {
            labels.push("...".into());
        }
        let column_sums: Vec<u64> = (0..width).map(|c| rows.iter().map(|row| row[c]).sum()).collect();
        let total: u64 = column_sums.iter().sum();
        for row in &mut rows {
            row.push(row.iter().sum());
        }
        rows.push(column_sums.into_iter().chain([total]).collect());
        labels.push("-sum-".into());
        MatrixTable { labels, rows }
    }
}

/// A laid-out confusion matrix: row and column labels (the same) and the counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixTable {
    pub labels: Vec<String>,
    pub rows: Vec<Vec<u64>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scorers::apt::rules::Rules;

    fn rules() -> Rules {
        Rules::new(Categories::from_list(["il".to_owned(), "elle".to_owned(), "ce".to_owned()]), &[], &[], false)
    }

    fn count(matrix: &mut ConfusionMatrix, rules: &Rules, r: Option<&[&str]>, c: Option<&[&str]>, multiword: bool) {
        matrix.add(&rules.judge(r, c), rules.categories(), multiword);
    }

    #[test]
    fn cells_missing_translations_and_multiword() {
        let rules = rules();
        let mut m = ConfusionMatrix::default();
        count(&mut m, &rules, Some(&["il"]), Some(&["il"]), false);
        count(&mut m, &rules, Some(&["il"]), Some(&["elle"]), false);
        count(&mut m, &rules, None, Some(&["elle"]), false);
        count(&mut m, &rules, Some(&["ce"]), None, false);
        count(&mut m, &rules, None::<&[&str]>, None, false);
        // il=0 elle=1 ce=2 OTHER=3 NONE=4
        assert_eq!((m.get(0, 0), m.get(0, 1), m.get(4, 1), m.get(2, 4), m.get(4, 4)), (1, 1, 1, 1, 1));
        // Two words each side: the first of each set only, or every pair.
        count(&mut m, &rules, Some(&["il", "elle"]), Some(&["ce", "OTHER"]), false);
        assert_eq!(m.get(0, 2), 1);
        count(&mut m, &rules, Some(&["il", "elle"]), Some(&["ce", "OTHER"]), true);
        assert_eq!((m.get(0, 2), m.get(0, 3), m.get(1, 2), m.get(1, 3)), (2, 1, 1, 1));
    }

    #[test]
    fn table_orders_cuts_and_sums() {
        let rules = rules();
        let mut m = ConfusionMatrix::default();
        for _ in 0..3 {
            count(&mut m, &rules, Some(&["elle"]), Some(&["elle"]), false);
        }
        count(&mut m, &rules, Some(&["il"]), Some(&["il"]), false);
        count(&mut m, &rules, Some(&["il"]), Some(&["ce"]), false);
        count(&mut m, &rules, Some(&["ce"]), None, false);
        let table = m.table(rules.categories(), 2);
        assert_eq!(table.labels, ["elle", "il", "...", "-sum-"]);
        assert_eq!(
            table.rows,
            [vec![3, 0, 0, 3], vec![0, 1, 1, 2], vec![0, 0, 1, 1], vec![3, 1, 2, 6]],
            "the ... row and column hold ce, OTHER and NONE"
        );
        let full = m.table(rules.categories(), 10);
        assert_eq!(full.labels.len(), 6);
        assert_eq!(full.rows.last().unwrap().last(), Some(&6));
        let none = m.table(rules.categories(), 0);
        assert_eq!(none.labels, ["...", "-sum-"]);
        assert_eq!(none.rows, [vec![6, 6], vec![6, 6]]);
    }
}
