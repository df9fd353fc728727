//! Reports on a master (spec §8, docs/reports.md): annotation results, inter-annotator
//! agreement, per-system scores, what the automatic match did, and the automatic metrics against
//! the human judgements.
//!
//! Each report is computed as plain data (for the GUI's views and charts) and turned into a
//! [`Table`]; [`Format`] renders tables as text, CSV, Markdown or LaTeX.

pub mod agreement;
pub mod auto_stats;
pub mod layout;
pub mod metrics;
pub mod render;
pub mod results;
pub mod scores;
pub mod table;

pub use render::Format;
pub use table::{Cell, Column, Row, RowKind, Table};

use crate::model::{AnnotatorId, CandidateId, CorpusRole, Master, Record};
use crate::{Error, Result, atomic};
use std::cell::OnceCell;
use std::fmt;
use std::path::{Path, PathBuf};
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
    /// Paper 003, Table 1, columns APT-A and APT-B.
    Apt,
    AptCategories,
    /// Paper 003, Table 3.
    AptVsHuman,
    /// Paper 003, Table 2.
    MetricCorrelation,
}

impl TableKind {
    pub const ALL: [TableKind; 11] = [
        TableKind::Results,
        TableKind::Agreement,
        TableKind::Pairwise,
        TableKind::Scores,
        TableKind::CategoryScores,
        TableKind::AutoEval,
        TableKind::Rounds,
        TableKind::Apt,
        TableKind::AptCategories,
        TableKind::AptVsHuman,
        TableKind::MetricCorrelation,
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
            TableKind::Apt => "apt",
            TableKind::AptCategories => "apt-categories",
            TableKind::AptVsHuman => "apt-vs-human",
            TableKind::MetricCorrelation => "metric-correlation",
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
    tables_judged_by(master, kinds, metrics::Judges::Verdicts)
}

/// Builds the requested tables, the APT tables set against `judges`.
pub fn tables_judged_by(master: &Master, kinds: &[TableKind], judges: metrics::Judges) -> Vec<Table> {
    // Agreement, scores and metrics feed several tables each; compute them once, when needed.
    let agreement = OnceCell::new();
    let agreement = || agreement.get_or_init(|| agreement::agreement(master));
    let scores = OnceCell::new();
    let scores = || scores.get_or_init(|| scores::scores(master));
    let metrics = OnceCell::new();
    let metrics = || metrics.get_or_init(|| metrics::metrics(master, judges));
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
            TableKind::Apt => metrics().apt_table(),
            TableKind::AptCategories => metrics().category_table(),
            TableKind::AptVsHuman => metrics().human_table(),
            TableKind::MetricCorrelation => metrics().correlation_table(),
        })
        .collect()
}

/// Writes one table to `path` in `format`, replacing the file atomically.
pub fn write_table(path: &Path, table: &Table, format: Format) -> Result<()> {
    atomic::write(&crate::disk::Os, path, format.render(table).as_bytes()).map(drop)
}

/// Writes each table to `dir/NAME.EXT` (e.g. `results.csv`), creating the folder; returns the
/// files written. What `protest report --output DIR` and the GUI's *Export all* do.
pub fn write_tables(dir: &Path, tables: &[Table], format: Format) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    tables
        .iter()
        .map(|table| {
            let path = dir.join(format.file_name(table));
            write_table(&path, table, format).map(|()| path)
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

/// A translation corpus's name in tables, marked if it is the reference and does not say so.
fn translation_label(name: &str, role: CorpusRole) -> String {
    match role {
        CorpusRole::Reference if !name.to_lowercase().contains("reference") => format!("{name} (reference)"),
        _ => name.to_owned(),
    }
}

/// The position in `master.categories` of a candidate's category.
fn category_index(master: &Master, candidate: CandidateId) -> Option<usize> {
    master.category_position(master.candidate(candidate)?)
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
    fn tables_are_written_one_file_each_as_rendered() {
        let dir = tempfile::tempdir().unwrap();
        let master = crate::testing::tiny();
        let tables = tables(&master, &[TableKind::Results, TableKind::Scores]);
        let out = dir.path().join("new folder");
        let written = write_tables(&out, &tables, Format::Latex).unwrap();
        assert_eq!(written, [out.join("results.tex"), out.join("scores.tex")]);
        for (path, table) in written.iter().zip(&tables) {
            assert_eq!(std::fs::read_to_string(path).unwrap(), Format::Latex.render(table));
        }
        let blocked = dir.path().join("a file");
        std::fs::write(&blocked, "").unwrap();
        let err = write_tables(&blocked, &tables, Format::Csv).unwrap_err();
        assert_eq!(err.path(), blocked, "{err}");
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
