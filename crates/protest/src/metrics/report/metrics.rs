//! Automatic metrics against the human judgements (paper 003): APT per system with the human
//! score beside it (its Table 1), APT per category, the APT case × human judgement table per
//! category with the disagreement rate (its Table 3) and the correlation of the system-level APT
//! and human scores (its Table 2).
//!
//! APT is computed by `crate::scorers::apt` with the preset of the master's target language; the human
//! judgement of a candidate is, by default, the pronoun verdict of `crate::metrics::verdict` — the
//! judgement the per-system scores use.

use super::layout;
use super::scores::VERDICT_RULE;
use super::table::{Cell, Column, Row, Table};
use crate::metrics::apt_human::{self, Agreement, AgreementRow, SystemScores};
use crate::metrics::correlate::Correlation;
use crate::metrics::verdict::Decisions;
use crate::model::{AnnotatorId, CandidateId, Category, Judgement, Master, Role};
use crate::scorers::apt::case::Tally;
use crate::scorers::apt::{Case, MasterApt, Preset, SystemApt, Weighting, evaluate_master};

/// Whose judgement of a candidate's pronoun is set against APT.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Judges {
    /// The verdict of `crate::metrics::verdict`: adjudicator, else researcher, else the annotators.
    #[default]
    Verdicts,
    /// Only this annotator's own records (0: the researcher's).
    Annotator(AnnotatorId),
}

/// The fewest translations with human scores a correlation is shown for: any two lie on a line.
pub const MIN_SYSTEMS: usize = 3;

/// APT of a master and its comparison with the human judgements.
#[derive(Debug, Clone, PartialEq)]
pub struct Metrics {
    pub apt: MasterApt,
    /// Paper 003 Table 3.
    pub agreement: Agreement,
    /// Per translation corpus, in the order of `apt.systems`.
    pub scores: Vec<SystemScores>,
    /// The master's categories of `apt.categories`, in the same order (for the row layout).
    categories: Vec<Category>,
    /// Whose judgements were used, in words.
    judged_by: String,
    judges: Judges,
    has_reference: bool,
}

pub fn metrics(master: &Master, judges: Judges) -> Metrics {
    match judges {
        Judges::Verdicts => metrics_of(&Decisions::new(master)),
        Judges::Annotator(a) => judged(master, judges, |c| master.records.get(c, a).map(|r| r.pronoun)),
    }
}

/// [`metrics`] against the pronoun verdicts, decided already.
pub fn metrics_of(decisions: &Decisions) -> Metrics {
    judged(decisions.master(), Judges::Verdicts, |c| Some(decisions.decide(c, Role::Pronoun).judgement))
}

/// APT of `master` against `judges`, whose judgement of a candidate's pronoun `verdict` gives.
fn judged(master: &Master, judges: Judges, verdict: impl Fn(CandidateId) -> Option<Judgement> + Copy) -> Metrics {
    let apt = evaluate_master(master, &Preset::for_language(&master.languages.target));
    let judged_by = match judges {
        Judges::Verdicts => "the pronoun verdict".to_owned(),
        Judges::Annotator(a) if a.is_researcher() => "the researcher's own pronoun judgement".to_owned(),
        Judges::Annotator(a) => format!("{}'s own pronoun judgement", master.annotator_name(a)),
    };
    Metrics {
        agreement: apt_human::agreement(master, &apt, verdict),
        scores: apt_human::system_scores(&apt, verdict),
        categories: master.categories.iter().filter(|c| apt.categories.contains(&c.name)).cloned().collect(),
        judged_by,
        judges,
        has_reference: master.reference().is_some(),
        apt,
    }
}

/// Score columns, then the findings per case.
fn apt_columns() -> Vec<Column> {
    let mut columns = vec![Column::new(["APT-A"]), Column::new(["APT-B"]), Column::new(["Pronouns"])];
    columns.extend(Case::ALL.map(|case| Column::new(["APT case".to_owned(), case.to_string()])));
    columns
}

/// A translation's APT cells from `tally` (its total or a category's).
fn apt_cells(system: &SystemApt, tally: &Tally) -> Vec<Cell> {
    let score = |w: Weighting| Cell::number(Some(system.score(tally, &w)).filter(|s| s.is_finite()), 3);
    let mut cells = vec![score(Weighting::apt_a()), score(Weighting::apt_b()), Cell::Count(tally.total())];
    cells.extend(Case::ALL.map(|case| Cell::Count(tally.get(case))));
    cells
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 { "–".into() } else { format!("{:.1} %", 100.0 * part as f64 / whole as f64) }
}

impl Metrics {
    /// The four tables, in the order `protest report` prints them (`super::TABLES`).
    pub fn tables(&self) -> Vec<Table> {
        vec![self.apt_table(), self.category_table(), self.human_table(), self.correlation_table()]
    }

    /// The note that says whose judgements count.
    fn judges_notes(&self, first: String) -> Vec<String> {
        let mut notes = vec![first];
        if self.judges == Judges::Verdicts {
            notes.push(format!("Verdict where several judged: {VERDICT_RULE}."));
        }
        notes
    }

    fn system_label(&self, system: usize) -> String {
        let s = &self.apt.systems[system];
        super::translation_label(&s.name, s.role)
    }

    /// What APT was computed with; the first notes of the APT tables.
    fn apt_notes(&self) -> Vec<String> {
        let preset = &self.apt.preset;
        let mut notes = vec![
            format!(
                "APT (paper 000) against the reference translation, {} preset: {}; {}.",
                preset.name,
                preset.describe(),
                preset.describe_lists()
            ),
            "Cases: 1 identical, 2 equivalent, 3 different pronoun, 4 no candidate translation, 5 no reference \
             translation, 6 neither. APT-A weighs case 1 as 1 and the others 0, APT-B also case 2 as 0.5; all six \
             cases count (paper 003). – where there are no pronouns."
                .to_string(),
        ];
        if !self.has_reference {
            notes.push("The master has no reference translation: every candidate is case 5 or 6.".into());
        }
        if preset.heuristic.is_some() {
            for system in self.apt.systems.iter().filter(|s| !s.corrected) {
                notes.push(format!(
                    "No alignment correction for '{}': it has only each candidate's aligned tokens (a converted \
                     file), reduced to the target pronouns.",
                    system.name
                ));
            }
        }
        if self.has_reference {
            notes.push(
                "The reference, set against itself, is scored over the pronouns it translates: 1 by definition \
                 (paper 003 Table 1); those it leaves out are counted in case 6 but not scored. The correlation \
                 uses this 1."
                    .into(),
            );
        }
        notes
    }

    /// Paper 003 Table 1: APT-A, APT-B and the findings per case of each translation, and beside
    /// them the human judgements.
    pub fn apt_table(&self) -> Table {
        let mut columns = apt_columns();
        columns.extend([Column::new(["Human", "judged"]), Column::new(["Human", "score"])]);
        let rows = self
            .apt
            .systems
            .iter()
            .zip(&self.scores)
            .enumerate()
            .map(|(i, (system, human))| {
                let mut cells = apt_cells(system, &system.total);
                cells.push(Cell::Count(human.judged));
                cells.push(Cell::number(Some(human.human).filter(|h| h.is_finite()), 3));
                Row::data(0, self.system_label(i), cells)
            })
            .collect();
        let mut notes = self.apt_notes();
        notes.extend(self.judges_notes(format!(
            "Human: the candidates with a ✓ or ✗ by {}, and the share of them judged ✓ (unlike table 'scores', \
             undecided and automatically matched candidates are left out).",
            self.judged_by
        )));
        Table { name: "apt", title: "APT per system".into(), label_header: "System".into(), columns, rows, notes }
    }

    /// APT per category: each category with a row per translation under it.
    pub fn category_table(&self) -> Table {
        let rows = layout::rows_under_categories(&self.categories, |depth, index| {
            let systems = self.apt.systems.iter().enumerate();
            systems
                .map(|(s, system)| {
                    Row::data(depth, self.system_label(s), apt_cells(system, &system.by_category[index]))
                })
                .collect()
        });
        Table {
            name: "apt-categories",
            title: "APT per category and system".into(),
            label_header: "Category".into(),
            columns: apt_columns(),
            rows,
            notes: self.apt_notes(),
        }
    }

    /// Paper 003 Table 3: per category, the candidates APT assessed by case and the humans by
    /// judgement, and how often they disagree.
    pub fn human_table(&self) -> Table {
        let mut columns: Vec<Column> =
            (1..=3).map(|case| Column::new(["APT case".to_owned(), case.to_string()])).collect();
        columns.extend([Column::new(["Human", "✓"]), Column::new(["Human", "✗"])]);
        columns.extend(["n", "of", "%"].map(|c| Column::new(["Disagreement", c])));
        let cells = |row: &AgreementRow| {
            let mut cells: Vec<Cell> = row.cases.iter().map(|&n| Cell::Count(n)).collect();
            cells.extend([row.correct, row.incorrect, row.disagreement_count(), row.assessed()].map(Cell::Count));
            cells.push(Cell::number(Some(row.disagreement_percent()).filter(|p| p.is_finite()), 1));
            cells
        };
        let mut rows: Vec<Row> =
            layout::lines(&self.categories).iter().map(|l| l.row(|i| cells(&self.agreement.rows[i]))).collect();
        let total = &self.agreement.total;
        rows.push(Row::total("Total", cells(total)));
        let mut notes = self.judges_notes(format!(
            "MT systems' candidates (not the reference's) that APT assessed (cases 1–3) and that have a ✓ or ✗ by {}.",
            self.judged_by
        ));
        notes.push(
            "APT says correct for cases 1 and 2, incorrect for case 3; a disagreement is a ✗ on case 1 or 2 or a ✓ \
             on case 3 (paper 003 §6). Disagreement: n of the assessed candidates, in percent."
                .to_string(),
        );
        if total.assessed() > 0 {
            let by_case: Vec<String> = (0..3)
                .map(|i| {
                    let (n, of) = (total.disagreements[i], total.cases[i]);
                    format!("case {}: {n} of {of} ({})", i + 1, percent(n, of))
                })
                .collect();
            notes.push(format!("Disagreements by APT case: {}.", by_case.join("; ")));
        }
        Table {
            name: "apt-vs-human",
            title: "APT against human judgements per category".into(),
            label_header: "Category".into(),
            columns,
            rows,
            notes,
        }
    }

    /// Paper 003 Table 2: Pearson and Spearman between the translations' APT and human scores,
    /// when at least [`MIN_SYSTEMS`] have human scores.
    pub fn correlation_table(&self) -> Table {
        let columns = vec![
            Column::new(["Weights", "c1"]),
            Column::new(["Weights", "c2"]),
            Column::new(["Pearson"]),
            Column::new(["Spearman"]),
        ];
        let with_human: Vec<String> = (0..self.scores.len())
            .filter(|&i| self.scores[i].human.is_finite())
            .map(|i| self.system_label(i))
            .collect();
        let names = if with_human.is_empty() { "none".to_owned() } else { with_human.join(", ") };
        let (rows, notes) = if with_human.len() < MIN_SYSTEMS {
            let note = format!(
                "Not shown: a correlation needs at least {MIN_SYSTEMS} translations with human scores; this master \
                 has {} ({names}).",
                with_human.len()
            );
            (Vec::new(), vec![note])
        } else {
            let [a, b] = apt_human::correlations(&self.scores);
            let number = |x: f64| Cell::number(Some(x).filter(|x| x.is_finite()), 3);
            let row = |label: &str, c2: f64, c: &Correlation| {
                let weights = [1.0, c2].map(|w| Cell::number(Some(w), 1));
                Row::data(0, label, weights.into_iter().chain([number(c.pearson), number(c.spearman)]).collect())
            };
            let rows = vec![row("APT-A", 0.0, &a), row("APT-B", 0.5, &b)];
            let note = format!(
                "Between the APT and human scores of table 'apt', over the {} translations with human scores \
                 ({names}; the reference included, as in paper 003). c1, c2: the weights of APT cases 1 and 2. – \
                 where a score is the same for all.",
                with_human.len()
            );
            let few = crate::metrics::correlate::few_note(with_human.len(), "translations");
            (rows, few.into_iter().chain([note]).collect())
        };
        Table {
            name: "metric-correlation",
            title: "Correlation of APT with the human scores".into(),
            label_header: "Metric".into(),
            columns,
            rows,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::from_texts::{self, Inputs, TranslationInput};
    use crate::metrics::report::RowKind;
    use crate::model::Judgement::{self, No, Yes};
    use crate::testing::{bare_tiny, judge};
    use std::path::Path;

    /// The tiny fixture with a third translation, "copy", equal to the reference.
    fn three_translations() -> Master {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/tiny");
        let translation = |name: &str, stem: &str| TranslationInput {
            name: name.into(),
            text: dir.join(format!("{stem}.fr")),
            alignment: dir.join(format!("{stem}.alig")),
        };
        let inputs = Inputs {
            source: dir.join("source.en"),
            reference: Some(translation("reference", "ref")),
            systems: vec![translation("mt", "mt"), translation("copy", "ref")],
            documents: Some(dir.join("docs")),
            suite: dir.join("suite.tsv"),
            languages: Default::default(),
            description: String::new(),
            order: Default::default(),
            out_of_range: Default::default(),
        };
        from_texts::build(&inputs, "three".into(), bare_tiny().created).unwrap()
    }

    #[test]
    fn the_notes_say_what_apt_read_and_where_it_could_not_correct() {
        let mut master = three_translations();
        let notes = |m: &Master| metrics(m, Judges::Verdicts).apt_table().notes;
        let first = &notes(&master)[0];
        assert!(first.contains("target pronouns il ils elle elles ce c' ça ç' cela ceci on"), "{first}");
        assert!(first.contains("alignment correction of it they he she you to il"), "{first}");
        assert!(!notes(&master).iter().any(|n| n.contains("No alignment correction")));
        master.corpora.iter_mut().find(|c| c.name == "copy").unwrap().alignment = None;
        let uncorrected: Vec<String> =
            notes(&master).into_iter().filter(|n| n.starts_with("No alignment correction")).collect();
        assert_eq!(uncorrected.len(), 1, "{uncorrected:?}");
        assert!(uncorrected[0].contains("'copy': it has only each candidate's aligned tokens"), "{uncorrected:?}");
        master.languages.target = "de".into();
        let german = &notes(&master)[0];
        assert!(german.contains("no target pronoun list") && german.contains("no alignment correction"), "{german}");
    }

    /// The researcher judges the pronoun of a translation's candidates, example by example.
    fn judge_corpus(master: &mut Master, corpus: &str, judgements: [Judgement; 3]) {
        let id = master.corpora.iter().find(|c| c.name == corpus).unwrap().id;
        let candidates: Vec<u32> = master.candidates.iter().filter(|c| c.corpus == id).map(|c| c.id.0).collect();
        for (candidate, judgement) in candidates.into_iter().zip(judgements) {
            judge(master, candidate, 0, judgement, Judgement::Unset);
        }
    }

    fn cells(row: &Row) -> Vec<String> {
        row.cells.iter().map(Cell::plain).collect()
    }

    fn row<'t>(table: &'t Table, label: &str) -> &'t Row {
        table.rows.iter().find(|r| r.label == label).unwrap_or_else(|| panic!("no row {label} in {table:?}"))
    }

    #[test]
    fn apt_beside_the_human_scores() {
        let mut master = three_translations();
        // MT: "Elle" (APT case 3) judged correct, "Il" (case 1) correct, "Tu" (case 3) wrong.
        judge_corpus(&mut master, "mt", [Yes, Yes, No]);
        judge_corpus(&mut master, "copy", [Yes; 3]);
        let metrics = metrics(&master, Judges::Verdicts);
        let apt = metrics.apt_table();
        assert_eq!(apt.name, "apt");
        // APT-A, APT-B, pronouns, cases 1–6, human judged, human score.
        assert_eq!(cells(row(&apt, "mt")), ["0.333", "0.333", "3", "1", "0", "2", "0", "0", "0", "3", "0.667"]);
        assert_eq!(cells(row(&apt, "copy")), ["1.000", "1.000", "3", "3", "0", "0", "0", "0", "0", "3", "1.000"]);
        // Nobody judged the reference.
        assert_eq!(cells(row(&apt, "reference"))[9..], ["0", "–"]);

        let human = metrics.human_table();
        let total = human.rows.last().unwrap();
        assert_eq!(total.kind, RowKind::Total);
        // Cases 1 2 3, ✓ ✗, disagreements n of %: only MT systems count, the reference never.
        assert_eq!(cells(total), ["4", "0", "2", "5", "1", "1", "6", "16.7"]);
        assert!(human.notes.iter().any(|n| n.contains("case 3: 1 of 2 (50.0 %)")), "{:?}", human.notes);

        // Two translations with human scores: too few for a correlation.
        let correlation = metrics.correlation_table();
        assert!(correlation.rows.is_empty());
        assert!(correlation.notes[0].contains("this master has 2 (mt, copy)"), "{:?}", correlation.notes);
    }

    #[test]
    fn correlation_from_three_translations() {
        let mut master = three_translations();
        judge_corpus(&mut master, "reference", [Yes; 3]);
        judge_corpus(&mut master, "mt", [No, Yes, No]);
        judge_corpus(&mut master, "copy", [Yes, Yes, No]);
        let table = metrics(&master, Judges::Verdicts).correlation_table();
        // APT-A: 1, 1/3, 1; human: 1, 1/3, 2/3.
        let pearson = crate::metrics::correlate::pearson(&[1.0, 1.0 / 3.0, 1.0], &[1.0, 1.0 / 3.0, 2.0 / 3.0]);
        assert_eq!(cells(row(&table, "APT-A")), ["1.0", "0.0", &format!("{pearson:.3}"), "0.866"]);
        assert_eq!(cells(row(&table, "APT-B"))[..2], ["1.0", "0.5"]);
        assert!(
            table.notes[0].starts_with("Over 3 translations only: with fewer than 5, a correlation says little"),
            "first, beside the figures: {:?}",
            table.notes
        );
        assert!(table.notes[1].contains("over the 3 translations"), "{:?}", table.notes);
    }

    #[test]
    fn the_reference_scores_one_where_it_translates_and_the_correlation_uses_it() {
        let mut master = three_translations();
        // The reference leaves example 1's pronoun ("It", sentence 1 token 0) untranslated: case 6.
        let reference = master.corpora.iter_mut().find(|c| c.name == "reference").unwrap();
        let mut links: Vec<_> = reference.alignment.as_ref().unwrap().sentences().map(<[_]>::to_vec).collect();
        links[1].retain(|&(s, _)| s != 0);
        reference.alignment = Some(crate::model::alignment::Alignment::new(links));
        master.candidates[0].pronoun.clear();
        judge_corpus(&mut master, "reference", [Yes; 3]);
        judge_corpus(&mut master, "mt", [No, Yes, No]);
        judge_corpus(&mut master, "copy", [Yes, Yes, No]);
        let metrics = metrics(&master, Judges::Verdicts);
        let apt = metrics.apt_table();
        // APT-A, APT-B, pronouns, cases 1–6: scored over the two it translates.
        assert_eq!(cells(row(&apt, "reference"))[..9], ["1.000", "1.000", "3", "2", "0", "0", "0", "0", "1"]);
        assert!(apt.notes.iter().any(|n| n.contains("scored over the pronouns it translates")), "{:?}", apt.notes);
        // The correlation takes the 1 the table shows. APT-A: 1, 1/3, 2/3 (copy: case 5 where the
        // reference has nothing); human: 1, 1/3, 2/3.
        let table = metrics.correlation_table();
        let pearson = crate::metrics::correlate::pearson(&[1.0, 1.0 / 3.0, 2.0 / 3.0], &[1.0, 1.0 / 3.0, 2.0 / 3.0]);
        assert_eq!(cells(row(&table, "APT-A"))[2], format!("{pearson:.3}"));
        assert_eq!(metrics.scores[0].apt_a, 1.0);
    }

    #[test]
    fn one_annotators_own_judgements_or_the_verdict() {
        let mut master = bare_tiny();
        crate::batches::annotators::add(&mut master, "Anna").unwrap();
        judge_corpus(&mut master, "mt", [Yes, Yes, No]);
        // Anna disagrees with the researcher on "Il" (candidate 4).
        judge(&mut master, 4, 1, No, Judgement::Unset);
        let total = |judges| cells(metrics(&master, judges).human_table().rows.last().unwrap());
        // The verdict is the researcher's where both judged.
        assert_eq!(total(Judges::Verdicts)[3..7], ["2", "1", "1", "3"]);
        // Anna judged only "Il": APT case 1, judged wrong — one disagreement of one.
        assert_eq!(total(Judges::Annotator(AnnotatorId(1)))[3..8], ["0", "1", "1", "1", "100.0"]);
        let notes = metrics(&master, Judges::Annotator(AnnotatorId(1))).human_table().notes;
        assert!(notes[0].contains("Anna's own pronoun judgement"), "{notes:?}");
    }

    #[test]
    fn the_preset_follows_the_target_language() {
        let mut master = bare_tiny();
        assert!(metrics(&master, Judges::Verdicts).apt_table().notes[0].contains("French preset"));
        master.languages.target = "de".into();
        let notes = metrics(&master, Judges::Verdicts).apt_table().notes;
        assert!(notes[0].contains("no preset for target language 'de'"), "{notes:?}");
    }

    #[test]
    fn categories_with_a_row_per_translation() {
        let master = bare_tiny();
        let table = metrics(&master, Judges::Verdicts).category_table();
        let labels: Vec<(RowKind, &str)> = table.rows.iter().map(|r| (r.kind, r.label.as_str())).collect();
        assert_eq!(
            labels[labels.len() - 3..],
            [(RowKind::Heading, "Deictic singular “you”"), (RowKind::Data, "reference"), (RowKind::Data, "mt")]
        );
        let pleonastic = table.rows.iter().position(|r| r.label == "Pleonastic “it”").unwrap();
        assert_eq!(cells(&table.rows[pleonastic + 2])[..4], ["1.000", "1.000", "1", "1"]);
    }
}
