//! Per-system scores (paper 003, Table 1, column "PROTEST"): the share of a translation's examples
//! whose pronoun is correct, overall and per category.
//!
//! A candidate counts as correct when its pronoun verdict (`crate::metrics::verdict`) is ✓, or — where no
//! human decided — when the reference match settled it. The antecedent judgement does not enter:
//! the pronoun is already judged given the antecedent head's translation.

use super::layout;
use super::table::{Cell, Column, Row, Table};
use crate::metrics::auto_eval;
use crate::metrics::verdict::{Basis, Decisions};
use crate::model::{CorpusId, CorpusRole, Judgement, Master, Role};
use std::collections::BTreeMap;

/// How a corpus's examples came out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub examples: u64,
    /// Correct by the humans' verdict.
    pub judged_correct: u64,
    /// Correct by the reference match, with no human verdict.
    pub matched: u64,
    pub incorrect: u64,
    /// Neither decided by humans nor matched.
    pub undecided: u64,
}

impl Tally {
    pub fn correct(&self) -> u64 {
        self.judged_correct + self.matched
    }

    /// Examples whose correctness is known: judged ✓ or ✗ by humans, or matched.
    pub fn decided(&self) -> u64 {
        self.correct() + self.incorrect
    }

    /// Share of the examples that are correct; `None` while none is decided (a system nobody has
    /// judged yet is not 0 % correct) or without examples.
    pub fn score(&self) -> Option<f64> {
        (self.decided() > 0).then(|| self.correct() as f64 / self.examples as f64)
    }

    /// Share of the decided examples that are correct (the chart's bars, drawn with their n =
    /// [`Tally::decided`]); `None` while none is decided.
    pub fn share_of_decided(&self) -> Option<f64> {
        (self.decided() > 0).then(|| self.correct() as f64 / self.decided() as f64)
    }

    /// The counts behind the score, in words.
    pub fn describe(&self) -> String {
        format!(
            "{} of {} correct ({} judged, {} matched), {} incorrect, {} undecided",
            self.correct(),
            self.examples,
            self.judged_correct,
            self.matched,
            self.incorrect,
            self.undecided
        )
    }
}

/// A group of bars in a chart of scores: all categories, or one category; a tally per system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartGroup {
    pub label: String,
    /// In the order of [`Scores::systems`].
    pub tallies: Vec<Tally>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemScores {
    pub corpus: CorpusId,
    pub name: String,
    pub role: CorpusRole,
    pub overall: Tally,
    /// Per category, in master order.
    pub categories: Vec<Tally>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scores {
    /// Every translation corpus (the reference too), in master order.
    pub systems: Vec<SystemScores>,
    /// How many candidates' pronoun verdicts rest on each rule.
    pub bases: BTreeMap<Basis, u64>,
    /// Matched candidates with a human pronoun verdict, which counted instead of the match.
    pub matched_and_judged: u64,
    /// Matches judged ✗ ([`crate::metrics::auto_eval::match_judged_incorrect`]).
    pub matches_judged_incorrect: u64,
}

pub fn scores(master: &Master) -> Scores {
    scores_of(&Decisions::new(master))
}

/// [`scores`] from the candidates' verdicts decided already.
pub fn scores_of(decisions: &Decisions) -> Scores {
    let master = decisions.master();
    let mut scores =
        Scores { systems: Vec::new(), bases: BTreeMap::new(), matched_and_judged: 0, matches_judged_incorrect: 0 };
    scores.systems = master
        .translations()
        .map(|corpus| SystemScores {
            corpus: corpus.id,
            name: corpus.name.clone(),
            role: corpus.role,
            overall: Tally::default(),
            categories: vec![Tally::default(); master.categories.len()],
        })
        .collect();
    // One pass over the candidates, each to its translation's scores.
    for (i, candidate) in master.candidates.iter().enumerate() {
        let Some(system) = scores.systems.iter_mut().find(|s| s.corpus == candidate.corpus) else { continue };
        let Some(ci) = master.category_position(candidate) else { continue };
        let decision = decisions.at(i, Role::Pronoun);
        let matched = master.auto_eval.matched(candidate.id);
        *scores.bases.entry(decision.basis).or_default() += 1;
        scores.matched_and_judged += u64::from(matched && decision.is_decided());
        scores.matches_judged_incorrect += u64::from(auto_eval::match_judged_incorrect(decisions, i));
        for tally in [&mut system.overall, &mut system.categories[ci]] {
            tally.examples += 1;
            match decision.judgement {
                Judgement::Yes => tally.judged_correct += 1,
                Judgement::No => tally.incorrect += 1,
                Judgement::Unset if matched => tally.matched += 1,
                Judgement::Unset => tally.undecided += 1,
            }
        }
    }
    scores
}

fn system_label(s: &SystemScores) -> String {
    super::translation_label(&s.name, s.role)
}

/// The rule of `crate::metrics::verdict`, in words, for the notes of tables that use it.
pub(super) const VERDICT_RULE: &str = "an adjudicator's judgement (✓, ✗ or cannot be judged: final), else the \
     researcher's, else the annotators' (one alone, all agreeing, or the majority; a tie is undecided)";

/// The words for a value left out because nothing was decided.
pub const NOT_JUDGED_YET: &str = "not judged yet";

impl Scores {
    fn rule_notes(&self) -> Vec<String> {
        let mut notes = vec![format!(
            "Correct: the pronoun verdict is ✓, or no human decided and the reference match settled it. \
             Verdict where several judged: {VERDICT_RULE}."
        )];
        let used: Vec<String> = self.bases.iter().map(|(b, n)| format!("{n} {}", b.describe())).collect();
        if !used.is_empty() {
            notes.push(format!("Pronoun verdicts used: {}.", used.join(", ")));
        }
        if self.matched_and_judged + self.matches_judged_incorrect > 0 {
            notes.push(format!(
                "{} matched translations also have a human pronoun verdict, which counted instead of the match. \
                 Matches judged ✗ (as in table 'auto-eval': ✗ on the pronoun or an antecedent head): {}.",
                self.matched_and_judged, self.matches_judged_incorrect
            ));
        }
        notes
    }

    /// The note naming the translations shown without a score: nothing of theirs is decided.
    fn not_judged_note(&self) -> Option<String> {
        let names: Vec<String> = self
            .systems
            .iter()
            .filter(|s| s.overall.decided() == 0)
            .map(|s| format!("'{}'", system_label(s)))
            .collect();
        (!names.is_empty()).then(|| {
            format!(
                "– {NOT_JUDGED_YET}: {} (no candidate decided by a human or the reference match).",
                names.join(", ")
            )
        })
    }

    /// The groups of a bar chart: all categories first, then every category some system has
    /// examples of, in master order.
    pub fn chart_groups(&self, master: &Master) -> Vec<ChartGroup> {
        let all =
            ChartGroup { label: "All categories".into(), tallies: self.systems.iter().map(|s| s.overall).collect() };
        let categories = master.categories.iter().enumerate().map(|(i, category)| ChartGroup {
            label: category.title().to_owned(),
            tallies: self.systems.iter().map(|s| s.categories[i]).collect(),
        });
        std::iter::once(all).chain(categories.filter(|g| g.tallies.iter().any(|t| t.examples > 0))).collect()
    }

    /// One row per translation: examples, where the correct ones come from, score.
    pub fn table(&self) -> Table {
        let columns = vec![
            Column::new(["Examples"]),
            Column::new(["Correct", "judged"]),
            Column::new(["Correct", "matched"]),
            Column::new(["Incorrect"]),
            Column::new(["Undecided"]),
            Column::new(["Score"]),
        ];
        let rows = self
            .systems
            .iter()
            .map(|s| {
                let t = &s.overall;
                let cells = vec![
                    Cell::Count(t.examples),
                    Cell::Count(t.judged_correct),
                    Cell::Count(t.matched),
                    Cell::Count(t.incorrect),
                    Cell::Count(t.undecided),
                    Cell::number(t.score(), 3),
                ];
                Row::data(0, system_label(s), cells)
            })
            .collect();
        Table {
            name: "scores",
            title: "Share of examples translated correctly per system".into(),
            label_header: "System".into(),
            columns,
            rows,
            notes: self.not_judged_note().into_iter().chain(self.rule_notes()).collect(),
        }
    }

    /// Categories down, systems across: the score of each system in each category.
    pub fn category_table(&self, master: &Master) -> Table {
        let columns = self.systems.iter().map(|s| Column::new([system_label(s)])).collect();
        let cells = |tally: &dyn Fn(&SystemScores) -> Tally| {
            self.systems.iter().map(|s| Cell::number(tally(s).score(), 3)).collect::<Vec<_>>()
        };
        let mut rows: Vec<Row> =
            layout::lines(&master.categories).iter().map(|l| l.row(|i| cells(&|s| s.categories[i]))).collect();
        rows.push(Row::total("All categories", cells(&|s| s.overall)));
        let mut notes = vec![format!(
            "Share of each category's examples translated correctly; – where there are none, or none is decided \
             ({NOT_JUDGED_YET})."
        )];
        notes.extend(self.not_judged_note());
        notes.extend(self.rule_notes());
        Table {
            name: "category-scores",
            title: "Share of examples translated correctly per category and system".into(),
            label_header: "Category".into(),
            columns,
            rows,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{judge, tiny};
    use Judgement::{No, Unset, Yes};

    #[test]
    fn humans_first_then_matches() {
        let mut m = tiny();
        m.auto_eval = crate::metrics::auto_eval::run(&m, m.created); // matches candidate 4 (pleonastic Il)
        judge(&mut m, 1, 1, Yes, Yes);
        judge(&mut m, 3, 1, Yes, Unset);
        judge(&mut m, 5, 1, No, Unset);
        judge(&mut m, 2, 1, No, No);
        judge(&mut m, 2, 2, Yes, Yes); // a tie: undecided
        judge(&mut m, 6, 2, Unset, Unset); // bad translation, say: undecided
        let s = scores(&m);
        let [reference, mt] = &s.systems[..] else { panic!() };
        let tally = |examples, judged_correct, matched, incorrect, undecided| Tally {
            examples,
            judged_correct,
            matched,
            incorrect,
            undecided,
        };
        assert_eq!(reference.overall, tally(3, 2, 0, 1, 0));
        assert_eq!(mt.overall, tally(3, 0, 1, 0, 2));
        assert_eq!(format!("{:.3}", reference.overall.score().unwrap()), "0.667");
        assert_eq!(mt.categories[9], tally(1, 0, 1, 0, 0), "pleonastic: matched");
        assert_eq!(mt.categories[0], tally(1, 0, 0, 0, 1), "anaphoric: tied");
        assert_eq!(mt.categories[1], Tally::default());
        assert_eq!(s.bases[&Basis::Single], 3);
        assert_eq!(s.bases[&Basis::Tie], 1);
        assert_eq!(s.bases[&Basis::Unjudged], 2);

        // A human verdict beats the match.
        judge(&mut m, 4, 2, No, Unset);
        let s = scores(&m);
        assert_eq!(s.systems[1].overall, tally(3, 0, 0, 1, 2));
        assert_eq!((s.matched_and_judged, s.matches_judged_incorrect), (1, 1));

        let groups = s.chart_groups(&m);
        let labels: Vec<&str> = groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(
            labels,
            ["All categories", "Inter-sentential “it”, subject", "Pleonastic “it”", "Deictic singular “you”"]
        );
        assert_eq!(groups[0].tallies, [s.systems[0].overall, s.systems[1].overall]);
        assert_eq!(groups[2].tallies[1], tally(1, 0, 0, 1, 0));
        assert_eq!(groups[0].tallies[0].describe(), "2 of 3 correct (2 judged, 0 matched), 1 incorrect, 0 undecided");

        let table = s.category_table(&m);
        assert_eq!(table.columns[0].path, ["reference"]);
        let event = table.rows.iter().find(|r| r.label.starts_with("Event")).unwrap();
        assert_eq!(event.cells, [Cell::number(None, 3), Cell::number(None, 3)]);
        assert_eq!(table.rows.last().unwrap().cells[0], Cell::number(Some(2.0 / 3.0), 3));
    }

    #[test]
    fn a_system_nobody_judged_has_no_score_not_zero() {
        let mut m = tiny();
        let s = scores(&m);
        assert_eq!(s.systems[1].overall.score(), None);
        assert_eq!(s.systems[1].overall.share_of_decided(), None);
        let table = s.table();
        assert_eq!(table.rows[1].cells[5], Cell::number(None, 3));
        assert!(table.notes[0].starts_with("– not judged yet: 'reference', 'mt'"), "{:?}", table.notes);
        assert!(s.category_table(&m).notes.iter().any(|n| n.contains("not judged yet: 'reference', 'mt'")));
        // One ✗ is a decided 0, drawn with its n; the other system stays without a value.
        judge(&mut m, 2, 1, No, Unset);
        let s = scores(&m);
        assert_eq!(s.systems[1].overall.score(), Some(0.0));
        assert_eq!((s.systems[1].overall.share_of_decided(), s.systems[1].overall.decided()), (Some(0.0), 1));
        assert_eq!(s.systems[0].overall.score(), None);
        assert!(s.table().notes[0].starts_with("– not judged yet: 'reference' "), "{:?}", s.table().notes);
        // The chart's share is of the decided ones: 1 ✓ of 2 decided, 3 examples.
        judge(&mut m, 4, 1, Yes, Unset);
        let t = scores(&m).systems[1].overall;
        assert_eq!((t.score(), t.share_of_decided(), t.decided()), (Some(1.0 / 3.0), Some(0.5), 2));
    }
}
