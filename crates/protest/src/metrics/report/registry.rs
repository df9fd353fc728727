//! Every table of the reports, declared once: its name (for `--table` and file names), a help
//! line, how it is built, and the section of the report view that shows it. `protest report`
//! (its default tables, `--table` names and help), the report view and the exports all read this
//! registry; a new table is one entry in [`TABLES`] and its name in one [`Section`].

use super::table::Table;
use super::{agreement, auto_stats, breakdown, metrics, results, scores, time};
use crate::annotate::status::Statuses;
use crate::metrics::verdict::Decisions;
use crate::model::Master;
use std::fmt;
use std::sync::OnceLock;

/// One table of the reports.
pub struct TableKind {
    /// The name used by `--table` and for file names; the same as [`Table::name`].
    pub name: &'static str,
    /// What the table shows, in one line (`protest report --help`).
    pub help: &'static str,
    build: fn(&Sources) -> Table,
}

/// Every table, in the order `protest report` prints them.
pub const TABLES: &[TableKind] = &[
    TableKind {
        name: "results",
        help: "✓ ✗ ? per category and annotator (paper 001, Table 1)",
        build: |s| match s.statuses {
            Some(statuses) => results::results_with(s.master, statuses).table(s.master),
            None => results::results(s.master).table(s.master),
        },
    },
    TableKind {
        name: "agreement",
        help: "kappa and alpha per judgement (paper 001, Table 2)",
        build: |s| s.agreement().table(),
    },
    TableKind {
        name: "pairwise",
        help: "Cohen's kappa for every pair of annotators",
        build: |s| s.agreement().pairwise_table(s.master),
    },
    TableKind {
        name: "scores",
        help: "share of pronouns translated correctly, per system",
        build: |s| s.scores().table(),
    },
    TableKind {
        name: "category-scores",
        help: "the same per category",
        build: |s| s.scores().category_table(s.master),
    },
    TableKind {
        name: "by-pronoun",
        help: "the scores per system by source pronoun (it, they…)",
        build: |s| breakdown::by_pronoun(s.decisions()),
    },
    TableKind {
        name: "by-distance",
        help: "the scores per system by sentences between pronoun and antecedent",
        build: |s| breakdown::by_distance(s.decisions()),
    },
    TableKind {
        name: "auto-eval",
        help: "what the reference match and the agreement judge settled, per system",
        build: |s| auto_stats::table(s.decisions()),
    },
    TableKind {
        name: "settled",
        help: "the share settled automatically per system, by rule",
        build: |s| breakdown::settled(s.master),
    },
    TableKind {
        name: "by-label",
        help: "automatic outcomes against a contrastive suite's labels",
        build: |s| breakdown::by_label(s.master),
    },
    TableKind {
        name: "rounds",
        help: "each round of the reference match",
        build: |s| auto_stats::rounds_table(s.master),
    },
    TableKind {
        name: "apt",
        help: "APT-A, APT-B and the human score (paper 003, Table 1)",
        build: |s| s.metrics().apt_table(),
    },
    TableKind { name: "apt-categories", help: "APT per category", build: |s| s.metrics().category_table() },
    TableKind {
        name: "apt-vs-human",
        help: "APT cases against human judgements (paper 003, Table 3)",
        build: |s| s.metrics().human_table(),
    },
    TableKind {
        name: "metric-correlation",
        help: "APT and human scores correlated (paper 003, Table 2)",
        build: |s| s.metrics().correlation_table(),
    },
    TableKind {
        name: "time",
        help: "active time per record (median, total) per category and annotator",
        build: |s| time::table(s.master),
    },
];

impl TableKind {
    /// The table called `name`.
    pub fn named(name: &str) -> Option<&'static TableKind> {
        TABLES.iter().find(|t| t.name == name)
    }

    /// The table called `name`, or what the names are (`--table NAME`).
    pub fn parse(name: &str) -> Result<&'static TableKind, UnknownTable> {
        TableKind::named(name).ok_or_else(|| UnknownTable { name: name.to_owned() })
    }

    /// The section of the report view that shows it.
    pub fn section(&self) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.names().contains(&self.name))
    }
}

/// A table name no table has; the message lists the names there are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown table '{name}' (expected one of: {})", TABLES.iter().map(|k| k.name).collect::<Vec<_>>().join(", "))]
pub struct UnknownTable {
    pub name: String,
}

impl PartialEq for TableKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for TableKind {}

impl fmt::Debug for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The parts of the report view, shown one at a time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Section {
    #[default]
    Results,
    Agreement,
    Scores,
    AutoMatch,
    Metrics,
}

impl Section {
    pub const ALL: [Section; 5] =
        [Section::Results, Section::Agreement, Section::Scores, Section::AutoMatch, Section::Metrics];

    pub fn label(self) -> &'static str {
        match self {
            Section::Results => "Annotation results",
            Section::Agreement => "Agreement",
            Section::Scores => "System scores",
            Section::AutoMatch => "Automatic match",
            Section::Metrics => "Automatic metrics",
        }
    }

    /// The names of the section's tables, in the order the view shows them.
    fn names(self) -> &'static [&'static str] {
        match self {
            Section::Results => &["results", "time"],
            Section::Agreement => &["agreement", "pairwise"],
            Section::Scores => &["scores", "category-scores", "by-pronoun", "by-distance"],
            Section::AutoMatch => &["auto-eval", "settled", "by-label", "rounds"],
            Section::Metrics => &["apt", "apt-vs-human", "metric-correlation", "apt-categories"],
        }
    }

    /// The section's tables, in the order the view shows them.
    pub fn tables(self) -> impl Iterator<Item = &'static TableKind> {
        self.names().iter().filter_map(|name| TableKind::named(name))
    }
}

/// What the tables are built from: the master and whose judgements APT is set against, with
/// what several tables share (agreement, scores, the APT metrics) computed once, when first needed.
pub(super) struct Sources<'a> {
    master: &'a Master,
    judges: metrics::Judges,
    /// The statuses of the master's records, if loading derived them already.
    statuses: Option<&'a Statuses>,
    /// Every candidate's verdicts: scores, the reference match's statistics and APT against the
    /// verdicts all ask them of every candidate.
    decisions: OnceLock<Decisions<'a>>,
    agreement: OnceLock<agreement::Agreement>,
    scores: OnceLock<scores::Scores>,
    metrics: OnceLock<metrics::Metrics>,
}

impl<'a> Sources<'a> {
    pub(super) fn new(master: &'a Master, statuses: Option<&'a Statuses>, judges: metrics::Judges) -> Self {
        Sources {
            master,
            judges,
            statuses,
            decisions: OnceLock::new(),
            agreement: OnceLock::new(),
            scores: OnceLock::new(),
            metrics: OnceLock::new(),
        }
    }

    pub(super) fn build(&self, kind: &TableKind) -> Table {
        (kind.build)(self)
    }

    fn agreement(&self) -> &agreement::Agreement {
        self.agreement.get_or_init(|| agreement::agreement(self.master))
    }

    fn decisions(&self) -> &Decisions<'a> {
        self.decisions.get_or_init(|| Decisions::new(self.master))
    }

    fn scores(&self) -> &scores::Scores {
        self.scores.get_or_init(|| scores::scores_of(self.decisions()))
    }

    /// Computes APT over the master and its comparison with the judges, for the metrics tables.
    pub(super) fn prepare_metrics(&self) {
        self.metrics();
    }

    fn metrics(&self) -> &metrics::Metrics {
        self.metrics.get_or_init(|| match self.judges {
            metrics::Judges::Verdicts => metrics::metrics_of(self.decisions()),
            judges => metrics::metrics(self.master, judges),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_is_in_exactly_one_section() {
        for kind in TABLES {
            let sections: Vec<Section> = Section::ALL.into_iter().filter(|s| s.names().contains(&kind.name)).collect();
            assert_eq!(
                sections.len(),
                1,
                "table {} is in sections {sections:?}: the report view shows it in one",
                kind.name
            );
        }
        for section in Section::ALL {
            for name in section.names() {
                assert!(
                    TableKind::named(name).is_some(),
                    "section {section:?} names a table {name} that does not exist"
                );
            }
        }
    }

    #[test]
    fn table_names_round_trip() {
        for kind in TABLES {
            assert_eq!(TableKind::parse(kind.name), Ok(kind));
        }
        assert!(TableKind::parse("kappa").unwrap_err().to_string().contains("results, agreement, pairwise"));
        assert!(
            TableKind::parse("kappa").unwrap_err().to_string().starts_with("unknown table 'kappa' (expected one of: ")
        );
    }

    #[test]
    fn names_are_unique() {
        for (i, kind) in TABLES.iter().enumerate() {
            assert!(TABLES[i + 1..].iter().all(|k| k.name != kind.name), "two tables are called {}", kind.name);
        }
    }
}
