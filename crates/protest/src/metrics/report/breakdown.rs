//! The results researchers of pronoun translation break down: the scores of each system by
//! source pronoun form and by antecedent distance, the automatic outcomes against a contrastive
//! suite's labels, and the share each system had settled automatically, by which rule
//! (docs/reports.md).

use super::scores::{Tally, columns};
use super::table::{Cell, Column, Row, Table};
use crate::metrics::auto_eval::agreement::{By, Judge, Verdict};
use crate::metrics::verdict::Decisions;
use crate::model::{Candidate, CorpusRole, Master, Outcome, Role};
use std::collections::BTreeMap;

/// Per translation (master order), the tallies of its candidates under each key `key` gives
/// (candidates without a key are left out), keys in order.
fn tallies<K: Ord>(decisions: &Decisions, key: impl Fn(&Candidate) -> Option<K>) -> Vec<(String, BTreeMap<K, Tally>)> {
    let master = decisions.master();
    let mut out: Vec<(String, BTreeMap<K, Tally>)> = Vec::new();
    for corpus in master.translations() {
        let mut by: BTreeMap<K, Tally> = BTreeMap::new();
        for (i, c) in master.candidates.iter().enumerate().filter(|(_, c)| c.corpus == corpus.id) {
            let Some(k) = key(c) else { continue };
            let outcome = master.auto_eval.entry(c.id).map(|e| e.outcome);
            by.entry(k).or_default().add(decisions.at(i, Role::Pronoun), outcome);
        }
        out.push((super::translation_label(&corpus.name, corpus.role), by));
    }
    out
}

/// A table of the score columns: under each translation, a row per key.
fn scores_by<K: Ord>(
    master: &Master,
    tallies: Vec<(String, BTreeMap<K, Tally>)>,
    label: impl Fn(&K) -> String,
    head: (&'static str, String, String),
    notes: Vec<String>,
) -> Table {
    let judge = master.auto_eval.judge_settled_any();
    let mut rows = Vec::new();
    for (system, by) in &tallies {
        rows.push(Row::heading(0, system));
        rows.extend(by.iter().map(|(k, t)| Row::data(1, label(k), t.cells(judge))));
    }
    let (name, title, label_header) = head;
    Table { name, title, label_header, columns: columns(judge), rows, notes }
}

/// The scores of every translation by the English pronoun of the example (`it`, `they`…).
pub fn by_pronoun(decisions: &Decisions) -> Table {
    let master = decisions.master();
    let source = master.source();
    let form = |c: &Candidate| {
        let example = master.example(c.example)?;
        Some(source?.token(example.pronoun_ref())?.to_lowercase())
    };
    scores_by(
        master,
        tallies(decisions, form),
        |k: &String| k.clone(),
        ("by-pronoun", "Scores per system by source pronoun".into(), "System / pronoun".into()),
        vec![NOTE.into()],
    )
}

/// How far an example's nearest antecedent is from its pronoun, in sentences; `None` for an
/// example without antecedent.
pub fn distance(master: &Master, candidate: &Candidate) -> Option<u32> {
    let example = master.example(candidate.example)?;
    example.antecedents.iter().map(|a| example.sentence.abs_diff(a.sentence)).min()
}

/// The scores of every translation by the distance between pronoun and antecedent.
pub fn by_distance(decisions: &Decisions) -> Table {
    let master = decisions.master();
    let label = |d: &u32| match d {
        0 => "0 (same sentence)".to_owned(),
        1 => "1 (previous sentence)".to_owned(),
        d if *d >= FAR => format!("{FAR} or more"),
        d => d.to_string(),
    };
    scores_by(
        master,
        tallies(decisions, |c| distance(master, c).map(|d| d.min(FAR))),
        label,
        ("by-distance", "Scores per system by antecedent distance".into(), "System / sentences".into()),
        vec![
            "Sentences between the pronoun and its nearest antecedent; examples without antecedent (not \
             anaphoric) are left out."
                .into(),
            NOTE.into(),
        ],
    )
}

/// Distances from which examples are counted together.
const FAR: u32 = 4;

const NOTE: &str = "The columns are those of table 'scores': correct and incorrect by the humans' verdict first, \
     then by the reference match and the agreement judge.";

/// What the automatic outcomes of a contrastive suite's labelled translations say against the
/// labels (correct and semi-correct: ✓, incorrect: ✗).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AgainstLabels {
    pub candidates: u64,
    pub matches: u64,
    pub agreements: u64,
    pub disagreements: u64,
    /// Settled automatically as the label says.
    pub right: u64,
    /// Settled automatically against the label.
    pub wrong: u64,
}

impl AgainstLabels {
    pub fn automatic(&self) -> u64 {
        self.right + self.wrong
    }

    /// The share of candidates settled automatically.
    pub fn coverage(&self) -> Option<f64> {
        (self.candidates > 0).then(|| self.automatic() as f64 / self.candidates as f64)
    }

    /// The share of automatic decisions that agree with the label.
    pub fn precision(&self) -> Option<f64> {
        (self.automatic() > 0).then(|| self.right as f64 / self.automatic() as f64)
    }

    fn add(&mut self, outcome: Option<Outcome>, correct: bool) {
        self.candidates += 1;
        let Some(outcome) = outcome else { return };
        match outcome {
            Outcome::Match => self.matches += 1,
            Outcome::Agreement => self.agreements += 1,
            Outcome::Disagreement => self.disagreements += 1,
            _ => return,
        }
        if outcome.settles() == Some(correct) {
            self.right += 1;
        } else {
            self.wrong += 1;
        }
    }
}

/// The labels of the master's translations, each with what the automatic outcomes say against
/// it; `only`: the candidates to count (all, or those whose pronoun differs between a block's
/// correct and incorrect translations, say).
pub fn against_labels(master: &Master, only: impl Fn(&Candidate) -> bool) -> BTreeMap<String, AgainstLabels> {
    let mut by: BTreeMap<String, AgainstLabels> = BTreeMap::new();
    for c in master.candidates.iter().filter(|c| only(c)) {
        let Some(label) = master.corpus(c.corpus).and_then(|corpus| corpus.label.as_deref()) else { continue };
        let correct = label != "incorrect";
        by.entry(label.to_owned()).or_default().add(master.auto_eval.entry(c.id).map(|e| e.outcome), correct);
    }
    by
}

/// Whether the words a translation labelled correct (or semi-correct) aligns to the example's
/// pronoun differ from those of one labelled incorrect: the candidates a contrastive suite tests
/// by the pronoun itself rather than by a word agreeing with it (`je les ai achetés`).
pub fn pronoun_differs(master: &Master, example: crate::model::ExampleNo) -> bool {
    let words = |correct: bool| -> Vec<String> {
        master
            .candidates_of(example)
            .filter_map(|c| {
                let corpus = master.corpus(c.corpus)?;
                (corpus.label.as_deref()? != "incorrect")
                    .eq(&correct)
                    .then(|| crate::metrics::auto_eval::matching::normalise(&corpus.words(&c.pronoun)))
            })
            .collect()
    };
    let (right, wrong) = (words(true), words(false));
    right.iter().any(|r| wrong.iter().any(|w| w != r))
}

/// The sum of several.
fn total<'a>(all: impl IntoIterator<Item = &'a AgainstLabels>) -> AgainstLabels {
    all.into_iter().fold(AgainstLabels::default(), |mut sum, a| {
        sum.candidates += a.candidates;
        sum.matches += a.matches;
        sum.agreements += a.agreements;
        sum.disagreements += a.disagreements;
        sum.right += a.right;
        sum.wrong += a.wrong;
        sum
    })
}

/// The automatic outcomes against a contrastive suite's labels, per label and in all, and for
/// the candidates whose pronoun differs between correct and incorrect translations.
pub fn by_label(master: &Master) -> Table {
    let by = against_labels(master, |_| true);
    let all = total(by.values());
    let differs = total(against_labels(master, |c| pronoun_differs(master, c.example)).values());
    let cells = |a: &AgainstLabels| {
        vec![
            Cell::Count(a.candidates),
            Cell::Count(a.matches),
            Cell::Count(a.agreements),
            Cell::Count(a.disagreements),
            Cell::Count(a.candidates - a.automatic()),
            Cell::number(a.coverage().map(|c| 100.0 * c), 1),
            Cell::Count(a.right),
            Cell::Count(a.wrong),
            Cell::number(a.precision().map(|p| 100.0 * p), 1),
        ]
    };
    let mut rows: Vec<Row> = by.iter().map(|(label, a)| Row::data(0, label, cells(a))).collect();
    if !rows.is_empty() {
        rows.push(Row::total("All labelled", cells(&all)));
        rows.push(Row::total("Pronoun differs", cells(&differs)));
    }
    Table {
        name: "by-label",
        title: "Automatic outcomes against a contrastive suite's labels".into(),
        label_header: "Label".into(),
        columns: vec![
            Column::new(["Candidates"]),
            Column::new(["Match"]),
            Column::new(["Agreement"]),
            Column::new(["Disagreement"]),
            Column::new(["To people"]),
            Column::new(["Automatic", "%"]),
            Column::new(["As labelled"]),
            Column::new(["Against label"]),
            Column::new(["Precision", "%"]),
        ],
        rows,
        notes: vec![
            "Translations a contrastive suite labels (in masters imported from the suite): correct and semi-correct count as a \
             correct pronoun, incorrect as an incorrect one. Match and agreement say correct, disagreement \
             incorrect; as labelled / against label: how many of those say what the label says. Human verdicts are \
             not counted here. Pronoun differs: the examples whose correct and incorrect translations align \
             different words to the pronoun (not only a participle agreeing with it). No row: the master has no \
             labelled translation."
                .into(),
        ],
    }
}

/// How one MT system's candidates were settled: by which rule, or left to people.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settled {
    pub candidates: u64,
    pub matches: u64,
    pub agreements_by_form: u64,
    pub agreements_by_participle: u64,
    pub disagreements_by_form: u64,
    pub disagreements_by_participle: u64,
}

impl Settled {
    pub fn automatic(&self) -> u64 {
        self.matches
            + self.agreements_by_form
            + self.agreements_by_participle
            + self.disagreements_by_form
            + self.disagreements_by_participle
    }

    fn add(&mut self, outcome: Option<Outcome>, verdict: impl Fn() -> Option<Verdict>) {
        self.candidates += 1;
        let by = |v: Option<Verdict>| match v {
            Some(Verdict::Agrees(e) | Verdict::Disagrees(e)) => e.pronoun.by,
            _ => By::Form,
        };
        match outcome {
            Some(Outcome::Match) => self.matches += 1,
            Some(Outcome::Agreement) if by(verdict()) == By::Participle => self.agreements_by_participle += 1,
            Some(Outcome::Agreement) => self.agreements_by_form += 1,
            Some(Outcome::Disagreement) if by(verdict()) == By::Participle => self.disagreements_by_participle += 1,
            Some(Outcome::Disagreement) => self.disagreements_by_form += 1,
            _ => {}
        }
    }
}

/// The share of every MT system's candidates the latest round settled automatically, and by
/// which rule.
pub fn settled(master: &Master) -> Table {
    let judge = Judge::for_language(&master.languages.target);
    let mut rows = Vec::new();
    for corpus in master.corpora.iter().filter(|c| c.role == CorpusRole::System) {
        let mut s = Settled::default();
        for c in master.candidates.iter().filter(|c| c.corpus == corpus.id) {
            let verdict = || Some(judge?.judge(corpus, c, master.example(c.example)?));
            s.add(master.auto_eval.entry(c.id).map(|e| e.outcome), verdict);
        }
        let share = (s.candidates > 0).then(|| 100.0 * s.automatic() as f64 / s.candidates as f64);
        let mut cells = vec![Cell::Count(s.candidates), Cell::Count(s.automatic()), Cell::number(share, 1)];
        cells.extend(
            [
                s.matches,
                s.agreements_by_form,
                s.agreements_by_participle,
                s.disagreements_by_form,
                s.disagreements_by_participle,
                s.candidates - s.automatic(),
            ]
            .map(Cell::Count),
        );
        rows.push(Row::data(0, &corpus.name, cells));
    }
    Table {
        name: "settled",
        title: "Share settled automatically per system, by rule".into(),
        label_header: "System".into(),
        columns: vec![
            Column::new(["Candidates"]),
            Column::new(["Automatic"]),
            Column::new(["Automatic", "%"]),
            Column::new(["Match"]),
            Column::new(["Agreement", "form"]),
            Column::new(["Agreement", "participle"]),
            Column::new(["Disagreement", "form"]),
            Column::new(["Disagreement", "participle"]),
            Column::new(["To people"]),
        ],
        rows,
        notes: vec![
            "As of the latest round. Match: the reference match. Agreement / disagreement: the agreement judge \
             (French), by the pronoun's own form (elle, celui-ci, la, une after en, les miennes) or by a past \
             participle agreeing with a pronoun that hides its gender (je les ai achetées). To people: everything \
             else, human verdicts aside."
                .into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tiny;

    #[test]
    fn by_pronoun_distance_and_rule_on_the_tiny_master() {
        let mut m = tiny();
        m.auto_eval = crate::metrics::auto_eval::run(&m, m.created);
        let decisions = Decisions::new(&m);
        let t = by_pronoun(&decisions);
        let labels = t.full_labels();
        assert!(labels.contains(&"mt / it".to_owned()) && labels.contains(&"mt / you".to_owned()), "{labels:?}");
        let row = |t: &Table, label: &str| t.rows[t.full_labels().iter().position(|l| l == label).unwrap()].clone();
        // "It" twice (anaphoric: agreement; pleonastic: match), both correct.
        assert_eq!(row(&t, "mt / it").cells[..2], [Cell::Count(2), Cell::Count(2)]);
        let d = by_distance(&decisions);
        assert_eq!(row(&d, "mt / 1 (previous sentence)").cells[0], Cell::Count(1));
        assert_eq!(d.rows.len(), 4, "a heading and a row per translation: only example 1 has an antecedent");
        let s = settled(&m);
        assert_eq!(
            s.rows[0].cells[..5],
            [Cell::Count(3), Cell::Count(2), Cell::number(Some(200.0 / 3.0), 1), Cell::Count(1), Cell::Count(1)]
        );
        // No labels: no rows.
        assert!(by_label(&m).rows.is_empty());
        m.corpora[2].label = Some("incorrect".into());
        let l = by_label(&m);
        assert_eq!(l.rows[0].label, "incorrect");
        // The agreement says correct, the match too: both against the label.
        assert_eq!(l.rows[0].cells[6..8], [Cell::Count(0), Cell::Count(2)]);
    }
}
