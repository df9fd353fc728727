//! Reports on a master (spec §8, docs/reports.md): annotation results, inter-annotator
//! agreement, per-system scores and what the automatic match did.
//!
//! Each report is computed as plain data (for the GUI's views and charts) and turned into a
//! [`Table`]; [`Format`] renders tables as text, CSV, Markdown or LaTeX.

pub mod agreement;
pub mod auto_stats;
pub mod layout;
pub mod render;
pub mod results;
pub mod scores;
pub mod table;

pub use render::Format;
pub use table::{Cell, Column, Row, RowKind, Table};

use crate::model::{AnnotatorId, CandidateId, Master, Record};
use std::cell::OnceCell;
use std::fmt;
use std::str::FromStr;

/// The tables `protest report` can produce, in the order it prints them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Paper 001, Table 1.
    Results,
    /// Paper 001, Table 2.
    Agreement,
    Pairwise,
    /// Paper 003, Table 1, column PROTEST.
    Scores,
    CategoryScores,
    AutoEval,
    Rounds,
}

impl TableKind {
    pub const ALL: [TableKind; 7] = [
        TableKind::Results,
        TableKind::Agreement,
        TableKind::Pairwise,
        TableKind::Scores,
        TableKind::CategoryScores,
        TableKind::AutoEval,
        TableKind::Rounds,
    ];

    /// The name used by `--table` and for file names; the same as [`Table::name`].
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Results => "results",
            TableKind::Agreement => "agreement",
            TableKind::Pairwise => "pairwise",
            TableKind::Scores => "scores",
            TableKind::CategoryScores => "category-scores",
            TableKind::AutoEval => "auto-eval",
            TableKind::Rounds => "rounds",
        }
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TableKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TableKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<_> = TableKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown table '{s}' (expected one of: {})", names.join(", "))
        })
    }
}

/// Builds the requested tables.
pub fn tables(master: &Master, kinds: &[TableKind]) -> Vec<Table> {
    // Agreement and scores feed two tables each; compute them once, when needed.
    let agreement = OnceCell::new();
    let agreement = || agreement.get_or_init(|| agreement::agreement(master));
    let scores = OnceCell::new();
    let scores = || scores.get_or_init(|| scores::scores(master));
    kinds
        .iter()
        .map(|kind| match kind {
            TableKind::Results => results::results(master).table(master),
            TableKind::Agreement => agreement().table(),
            TableKind::Pairwise => agreement().pairwise_table(master),
            TableKind::Scores => scores().table(),
            TableKind::CategoryScores => scores().category_table(master),
            TableKind::AutoEval => auto_stats::table(master),
            TableKind::Rounds => auto_stats::rounds_table(master),
        })
        .collect()
}

/// The people behind `records`: the researcher first if among them, then annotators in master
/// order.
fn annotators<'a>(master: &Master, records: impl Iterator<Item = &'a Record>) -> Vec<AnnotatorId> {
    let mut with: Vec<AnnotatorId> = records.map(|r| r.annotator).collect();
    with.sort();
    with.dedup();
    let listed = master.annotators.iter().map(|a| a.id);
    std::iter::once(AnnotatorId::RESEARCHER).chain(listed).filter(|a| with.binary_search(a).is_ok()).collect()
}

/// The position in `master.categories` of a candidate's category.
fn category_index(master: &Master, candidate: CandidateId) -> Option<usize> {
    let (example, _) = master.example_of(master.candidate(candidate)?)?;
    master.categories.iter().position(|c| c.name == example.category)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_round_trip() {
        for kind in TableKind::ALL {
            assert_eq!(kind.name().parse(), Ok(kind));
        }
        assert!("kappa".parse::<TableKind>().unwrap_err().contains("results, agreement, pairwise"));
    }

    #[test]
    fn every_table_is_named_for_its_kind() {
        let master = crate::testing::tiny();
        let tables = tables(&master, &TableKind::ALL);
        let names: Vec<&str> = tables.iter().map(|t| t.name).collect();
        assert_eq!(names, TableKind::ALL.map(TableKind::name));
        for t in &tables {
            assert!(t.rows.iter().all(|r| r.cells.is_empty() || r.cells.len() == t.columns.len()), "{}", t.name);
        }
    }
}
