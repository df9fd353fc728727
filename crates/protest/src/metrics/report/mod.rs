//! Reports on a master (docs/reports.md): annotation results, inter-annotator
//! agreement, per-system scores, what the automatic match did, and the automatic metrics against
//! the human judgements.
//!
//! Each report is computed as plain data (for the GUI's views and charts) and turned into a
//! [`Table`]; [`registry`] declares every table once, [`Format`] renders tables as text, CSV,
//! Markdown or LaTeX.

pub mod agreement;
pub mod auto_stats;
pub mod breakdown;
pub mod layout;
pub mod metrics;
pub mod registry;
pub mod render;
pub mod results;
pub mod scores;
pub mod table;
pub mod time;

pub use registry::{Section, TABLES, TableKind};
pub use render::Format;
pub use table::{Cell, Column, Row, RowKind, Table};

use crate::annotate::status::Statuses;
use crate::model::{AnnotatorId, CandidateId, CorpusRole, Master, Record};
use registry::Sources;

/// Builds the requested tables.
pub fn tables<'k>(master: &Master, kinds: impl IntoIterator<Item = &'k TableKind>) -> Vec<Table> {
    tables_judged_by(master, kinds, metrics::Judges::Verdicts)
}

/// Builds the requested tables, the APT tables set against `judges`.
pub fn tables_judged_by<'k>(
    master: &Master,
    kinds: impl IntoIterator<Item = &'k TableKind>,
    judges: metrics::Judges,
) -> Vec<Table> {
    build_tables(master, None, kinds, judges)
}

/// [`tables`] with the statuses of the master's records at hand (as loading derived them:
/// [`crate::store::load_master_with_statuses`]), not derived again for the results table.
pub fn tables_with_statuses<'k>(
    master: &Master,
    statuses: &Statuses,
    kinds: impl IntoIterator<Item = &'k TableKind>,
) -> Vec<Table> {
    build_tables(master, Some(statuses), kinds, metrics::Judges::Verdicts)
}

fn build_tables<'k>(
    master: &Master,
    statuses: Option<&Statuses>,
    kinds: impl IntoIterator<Item = &'k TableKind>,
    judges: metrics::Judges,
) -> Vec<Table> {
    use rayon::prelude::*;
    let kinds: Vec<&TableKind> = kinds.into_iter().collect();
    crate::progress::stage("Computing the tables", Some(kinds.len() as u64));
    let progress = crate::progress::current();
    let sources = Sources::new(master, statuses, judges);
    let build = |kind: &TableKind| {
        let table = sources.build(kind);
        if let Some(p) = &progress {
            p.advance(1);
        }
        table
    };
    // APT over the master, which the metrics tables share, is the largest part: it is computed on
    // one side while the other tables are built on the other (what several share computed once,
    // by whichever needs it first), so that no thread sits waiting for APT that another is
    // computing: the side done first helps with APT's candidates instead.
    let uses_apt = |kind: &&TableKind| kind.section() == Some(Section::Metrics);
    let (_, mut others) = rayon::join(
        || {
            if kinds.iter().any(uses_apt) {
                sources.prepare_metrics();
            }
        },
        || kinds.par_iter().filter(|k| !uses_apt(k)).map(|&kind| build(kind)).collect::<Vec<Table>>().into_iter(),
    );
    // Collected in the order asked for.
    kinds
        .iter()
        .map(|kind| if uses_apt(kind) { build(kind) } else { others.next().expect("one table per kind") })
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
    fn the_tables_from_the_statuses_loading_derived_are_the_tables() {
        use crate::model::{ConflictStatus, Judgement};
        let mut m = crate::testing::tiny();
        crate::testing::judge(&mut m, 3, 1, Judgement::No, Judgement::Unset);
        crate::testing::judge(&mut m, 4, 2, Judgement::Yes, Judgement::Unset);
        // Pronoun yes without a token, stored "clear": counted with conflicts all the same.
        let mut broken = m.records.get(CandidateId(4), AnnotatorId(2)).unwrap().clone();
        broken.selected = Default::default();
        broken.conflict = ConflictStatus::Clear;
        m.records.put(broken);
        let (statuses, _) = crate::annotate::status::rederive_all(&mut m);
        let results = results::results(&m);
        assert_eq!(results.with_conflicts, 1);
        assert_eq!(results::results_with(&m, &statuses), results);
        assert_eq!(tables_with_statuses(&m, &statuses, TABLES), tables(&m, TABLES));
    }

    #[test]
    fn every_table_is_named_for_its_kind() {
        let master = crate::testing::tiny();
        let tables = tables(&master, TABLES);
        let names: Vec<&str> = tables.iter().map(|t| t.name).collect();
        assert_eq!(names, TABLES.iter().map(|k| k.name).collect::<Vec<_>>());
        for t in &tables {
            assert!(t.rows.iter().all(|r| r.cells.is_empty() || r.cells.len() == t.columns.len()), "{}", t.name);
        }
    }
}
