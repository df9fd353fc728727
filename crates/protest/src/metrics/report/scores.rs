//! Per-system scores (paper 003, Table 1, column "PROTEST"): the share of a translation's decided
//! examples whose pronoun is correct, overall and per category, with what is decided and what the
//! score can still become.
//!
//! A candidate counts as correct when its pronoun verdict (`crate::metrics::verdict`) is ✓, or —
//! where no human decided and none said it cannot be judged — when the reference match or the
//! agreement judge settled it as correct; incorrect when the verdict is ✗, or — there again — when
//! the agreement judge found a disagreement.
//! The antecedent judgement does not enter: the pronoun is already judged given the antecedent
//! head's translation.
//!
//! One definition everywhere (tables, chart, exports): the **score** is correct ÷ decided; the
//! **bounds** are what it would be if every undecided example turned out ✗ (correct ÷ examples)
//! or ✓ ((correct + undecided) ÷ examples); the **interval** is Wilson's 95 % interval over the
//! decided examples.

use super::layout;
use super::table::{Cell, Column, Row, Table};
use crate::metrics::auto_eval;
use crate::metrics::stats::proportion;
use crate::metrics::verdict::{Basis, Decision, Decisions};
use crate::model::{CorpusId, CorpusRole, Judgement, Master, Outcome, Role};
use std::collections::BTreeMap;

/// How a corpus's examples came out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub examples: u64,
    /// Correct by the humans' verdict.
    pub judged_correct: u64,
    /// Correct by the reference match, with no human verdict.
    pub matched: u64,
    /// Correct by the agreement judge, with no human verdict.
    pub agreed: u64,
    /// Incorrect by the humans' verdict.
    pub incorrect: u64,
    /// Incorrect by the agreement judge, with no human verdict.
    pub disagreed: u64,
    /// Neither decided by humans nor settled automatically.
    pub undecided: u64,
}

impl Tally {
    pub fn correct(&self) -> u64 {
        self.judged_correct + self.matched + self.agreed
    }

    /// Incorrect by humans or by the agreement judge.
    pub fn all_incorrect(&self) -> u64 {
        self.incorrect + self.disagreed
    }

    /// Examples whose correctness is known: judged ✓ or ✗ by humans, or settled automatically.
    pub fn decided(&self) -> u64 {
        self.correct() + self.all_incorrect()
    }

    /// Examples settled automatically: matched, agreed or disagreed.
    pub fn automatic(&self) -> u64 {
        self.matched + self.agreed + self.disagreed
    }

    /// Counts one example: its pronoun decision and the latest outcome of the automatic
    /// evaluation. A human verdict, or a human's "cannot be judged", comes first.
    pub fn add(&mut self, decision: Decision, outcome: Option<Outcome>) {
        self.examples += 1;
        let open = decision.open_to_match();
        match (decision.judgement, outcome) {
            (Judgement::Yes, _) => self.judged_correct += 1,
            (Judgement::No, _) => self.incorrect += 1,
            (Judgement::Unset, Some(Outcome::Match)) if open => self.matched += 1,
            (Judgement::Unset, Some(Outcome::Agreement)) if open => self.agreed += 1,
            (Judgement::Unset, Some(Outcome::Disagreement)) if open => self.disagreed += 1,
            (Judgement::Unset, _) => self.undecided += 1,
        }
    }

    /// Share of the decided examples that are correct; `None` while none is decided (a system
    /// nobody has judged yet is not 0 % correct).
    pub fn score(&self) -> Option<f64> {
        (self.decided() > 0).then(|| self.correct() as f64 / self.decided() as f64)
    }

    /// The score if every undecided example turned out ✗: correct ÷ examples. `None` while none
    /// is decided, like the score.
    pub fn lowest(&self) -> Option<f64> {
        (self.decided() > 0).then(|| self.correct() as f64 / self.examples as f64)
    }

    /// The score if every undecided example turned out ✓: (correct + undecided) ÷ examples.
    pub fn highest(&self) -> Option<f64> {
        (self.decided() > 0).then(|| (self.correct() + self.undecided) as f64 / self.examples as f64)
    }

    /// Wilson's 95 % interval of the score, over the decided examples.
    pub fn interval(&self) -> Option<(f64, f64)> {
        proportion::wilson(self.correct(), self.decided())
    }

    /// The counts behind the score, in words.
    pub fn describe(&self) -> String {
        let (agreed, disagreed) = match (self.agreed, self.disagreed) {
            (0, 0) => (String::new(), String::new()),
            (a, d) => (format!(", {a} by agreement"), format!(" ({d} by disagreement)")),
        };
        format!(
            "{} of {} decided correct ({} judged, {} matched{agreed}), {} incorrect{disagreed}; {} of {} undecided",
            self.correct(),
            self.decided(),
            self.judged_correct,
            self.matched,
            self.all_incorrect(),
            self.undecided,
            self.examples
        )
    }

    /// The score with its bounds and interval, in words (the chart's hover text).
    pub fn describe_score(&self) -> Option<String> {
        let (score, lowest, highest, (low, high)) = (self.score()?, self.lowest()?, self.highest()?, self.interval()?);
        let percent = |x: f64| format!("{:.1} %", x * 100.0);
        let mut text = format!("score {} (95 % interval {}–{})", percent(score), percent(low), percent(high));
        if self.undecided > 0 {
            text += &format!("; {}–{} whatever the undecided turn out", percent(lowest), percent(highest));
        }
        Some(text)
    }

    /// The cells of the score tables: examples, decided, where the correct ones come from,
    /// incorrect, undecided, score, bounds, interval; `judge`: with the agreement judge's
    /// columns (correct by agreement, incorrect by disagreement).
    pub fn cells(&self, judge: bool) -> Vec<Cell> {
        let interval = self.interval();
        let mut cells = vec![
            Cell::Count(self.examples),
            Cell::Count(self.decided()),
            Cell::Count(self.judged_correct),
            Cell::Count(self.matched),
        ];
        if judge {
            cells.extend([Cell::Count(self.agreed), Cell::Count(self.incorrect), Cell::Count(self.disagreed)]);
        } else {
            cells.push(Cell::Count(self.incorrect));
        }
        cells.extend([
            Cell::Count(self.undecided),
            Cell::number(self.score(), 3),
            Cell::number(self.lowest(), 3),
            Cell::number(self.highest(), 3),
            Cell::number(interval.map(|i| i.0), 3),
            Cell::number(interval.map(|i| i.1), 3),
        ]);
        cells
    }
}

/// The columns of [`Tally::cells`].
pub fn columns(judge: bool) -> Vec<Column> {
    let mut columns = vec![
        Column::new(["Examples"]),
        Column::new(["Decided"]),
        Column::new(["Correct", "judged"]),
        Column::new(["Correct", "matched"]),
    ];
    if judge {
        columns.extend([
            Column::new(["Correct", "agreement"]),
            Column::new(["Incorrect", "judged"]),
            Column::new(["Incorrect", "disagreement"]),
        ]);
    } else {
        columns.push(Column::new(["Incorrect"]));
    }
    columns.extend([
        Column::new(["Undecided"]),
        Column::new(["Score"]),
        Column::new(["Lowest"]),
        Column::new(["Highest"]),
        Column::new(["CI", "low"]),
        Column::new(["CI", "high"]),
    ]);
    columns
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
    /// Matched candidates a human said cannot be judged: undecided, not correct.
    pub matched_unjudgeable: u64,
    /// Matches judged ✗ ([`crate::metrics::auto_eval::match_judged_incorrect`]).
    pub matches_judged_incorrect: u64,
    /// The agreement judge's outcomes humans decided the other way
    /// ([`crate::metrics::auto_eval::judge_overruled`]).
    pub judge_overruled: u64,
    /// Whether the agreement judge settled any candidate
    /// ([`crate::model::AutoEval::judge_settled_any`]): the tables then show its columns, also
    /// where humans have decided every one of them since.
    pub judge: bool,
}

pub fn scores(master: &Master) -> Scores {
    scores_of(&Decisions::new(master))
}

/// [`scores`] from the candidates' verdicts decided already.
pub fn scores_of(decisions: &Decisions) -> Scores {
    let master = decisions.master();
    let mut scores = Scores {
        systems: Vec::new(),
        bases: BTreeMap::new(),
        matched_and_judged: 0,
        matched_unjudgeable: 0,
        matches_judged_incorrect: 0,
        judge_overruled: 0,
        judge: master.auto_eval.judge_settled_any(),
    };
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
        let outcome = master.auto_eval.entry(candidate.id).map(|e| e.outcome);
        *scores.bases.entry(decision.basis).or_default() += 1;
        scores.matched_and_judged += u64::from(matched && decision.is_decided());
        scores.matched_unjudgeable += u64::from(matched && !decision.is_decided() && !decision.open_to_match());
        scores.matches_judged_incorrect += u64::from(auto_eval::match_judged_incorrect(decisions, i));
        scores.judge_overruled += u64::from(auto_eval::judge_overruled(decisions, i));
        for tally in [&mut system.overall, &mut system.categories[ci]] {
            tally.add(decision, outcome);
        }
    }
    scores
}

fn system_label(s: &SystemScores) -> String {
    super::translation_label(&s.name, s.role)
}

/// The rule of `crate::metrics::verdict`, in words, for the notes of tables that use it.
pub(super) const VERDICT_RULE: &str = "an adjudicator's judgement on the question in dispute (✓, ✗ or cannot \
     be judged: final), else the researcher's, else the annotators' (one alone, all agreeing, or the majority; a tie \
     is undecided; none but \"cannot be judged\" is undecided)";

/// The words for a value left out because nothing was decided.
pub const NOT_JUDGED_YET: &str = "not judged yet";

/// What the columns of the score tables mean.
const COLUMNS_NOTE: &str = "Score: correct ÷ decided. Lowest, Highest: the score if every undecided example \
     turned out ✗ (correct ÷ examples) or ✓ ((correct + undecided) ÷ examples). CI: the 95 % Wilson interval of the \
     score over the decided examples; where the reference match decided many (matches are correct by \
     construction), read the bounds too.";

impl Scores {
    fn rule_notes(&self) -> Vec<String> {
        let mut notes = vec![
            COLUMNS_NOTE.to_owned(),
            format!(
                "Correct: the pronoun verdict is ✓, or no human decided nor said it cannot be judged and the \
                 reference match (or, in French, the agreement judge) settled it as correct; incorrect: ✗, or \
                 there again the agreement judge found a disagreement. Verdict where several judged: {VERDICT_RULE}."
            ),
        ];
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
        if self.judge_overruled > 0 {
            notes.push(format!(
                "{} agreements or disagreements of the agreement judge have a human pronoun verdict the other way, \
                 which counted instead.",
                self.judge_overruled
            ));
        }
        if self.matched_unjudgeable > 0 {
            notes.push(format!(
                "{} matched translations are marked as cannot be judged (bad_translation or \
                 incorrect_word_alignment): undecided, not correct.",
                self.matched_unjudgeable
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
            format!("– {NOT_JUDGED_YET}: {} (no candidate decided by a human or automatically).", names.join(", "))
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

    /// One row per translation: examples, what is decided and how, the score with its bounds
    /// and interval.
    pub fn table(&self) -> Table {
        let judge = self.judge;
        let rows = self.systems.iter().map(|s| Row::data(0, system_label(s), s.overall.cells(judge))).collect();
        Table {
            name: "scores",
            title: "Share of examples translated correctly per system".into(),
            label_header: "System".into(),
            columns: columns(judge),
            rows,
            notes: self.not_judged_note().into_iter().chain(self.rule_notes()).collect(),
        }
    }

    /// The same columns per category: under each category (grouped as in table `results`) a row
    /// per translation, then all categories.
    pub fn category_table(&self, master: &Master) -> Table {
        let judge = self.judge;
        let systems = |depth: usize, tally: &dyn Fn(&SystemScores) -> Tally| {
            self.systems
                .iter()
                .map(move |s| Row::data(depth, system_label(s), tally(s).cells(judge)))
                .collect::<Vec<_>>()
        };
        let mut rows =
            layout::rows_under_categories(&master.categories, |depth, index| systems(depth, &|s| s.categories[index]));
        rows.push(Row::heading(0, "All categories"));
        rows.extend(systems(1, &|s| s.overall));
        let mut notes = vec![format!(
            "Each category's examples per translation; – where there are none, or none is decided ({NOT_JUDGED_YET})."
        )];
        notes.extend(self.not_judged_note());
        notes.extend(self.rule_notes());
        Table {
            name: "category-scores",
            title: "Share of examples translated correctly per category and system".into(),
            label_header: "Category".into(),
            columns: columns(judge),
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

    fn tally(examples: u64, judged_correct: u64, matched: u64, incorrect: u64, undecided: u64) -> Tally {
        Tally { examples, judged_correct, matched, incorrect, undecided, ..Tally::default() }
    }

    /// The reference match alone (the agreement judge's part is tested below).
    fn match_only(m: &Master) -> crate::model::AutoEval {
        let judges = crate::metrics::auto_eval::Judges { agreement: false };
        crate::metrics::auto_eval::run_with(m, m.created, judges)
    }

    #[test]
    fn agreements_and_disagreements_count_where_no_human_decided() {
        let mut m = tiny();
        m.auto_eval = crate::metrics::auto_eval::run(&m, m.created); // 2: elle/bicyclette agree; 4 matches
        let s = scores(&m);
        let mt = s.systems[1].overall;
        assert_eq!((mt.matched, mt.agreed, mt.disagreed, mt.undecided, mt.score()), (1, 1, 0, 1, Some(1.0)));
        assert!(s.judge);
        assert_eq!(s.table().columns.len(), 13);
        assert_eq!(
            mt.describe(),
            "2 of 2 decided correct (0 judged, 1 matched, 1 by agreement), 0 incorrect (0 by disagreement); 1 of 3 undecided"
        );
        // A human's ✗ counts instead, and is counted against the judge.
        judge(&mut m, 2, 1, No, Unset);
        let s = scores(&m);
        assert_eq!((s.systems[1].overall.agreed, s.systems[1].overall.incorrect, s.judge_overruled), (0, 1, 1));
        assert!(s.judge, "the judge's columns stay when humans have decided all it settled");
        assert_eq!(s.table().columns.len(), 13);
        // A human's "cannot be judged" outranks an agreement as it does a match.
        let mut r = crate::model::Record::new(crate::model::CandidateId(2), crate::model::AnnotatorId(1), m.created);
        r.tags.insert(crate::model::tags::BAD_TRANSLATION.into());
        m.records.put(r);
        let t = scores(&m).systems[1].overall;
        assert_eq!((t.agreed, t.incorrect, t.undecided), (0, 0, 2));
    }

    #[test]
    fn humans_first_then_matches() {
        let mut m = tiny();
        m.auto_eval = match_only(&m); // matches candidate 4 (pleonastic Il)
        judge(&mut m, 1, 1, Yes, Yes);
        judge(&mut m, 3, 1, Yes, Unset);
        judge(&mut m, 5, 1, No, Unset);
        judge(&mut m, 2, 1, No, No);
        judge(&mut m, 2, 2, Yes, Yes); // a tie: undecided
        judge(&mut m, 6, 2, Unset, Unset); // nothing said: undecided
        let s = scores(&m);
        let [reference, mt] = &s.systems[..] else { panic!() };
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
        assert_eq!(
            groups[0].tallies[0].describe(),
            "2 of 3 decided correct (2 judged, 0 matched), 1 incorrect; 0 of 3 undecided"
        );

        let table = s.category_table(&m);
        assert_eq!(table.columns, s.table().columns, "the same columns per category");
        let labels = table.full_labels();
        let row = |label: &str| &table.rows[labels.iter().position(|l| l == label).unwrap()];
        assert_eq!(row("Event reference “it” / reference").cells[..2], [Cell::Count(0), Cell::Count(0)]);
        assert_eq!(row("Event reference “it” / reference").cells[6], Cell::number(None, 3));
        assert_eq!(row("All categories / reference").cells[6], Cell::number(Some(2.0 / 3.0), 3));
        assert_eq!(row("All categories / mt").cells, s.table().rows[1].cells);
    }

    #[test]
    fn the_score_is_over_the_decided_with_its_bounds_and_interval() {
        // 12 matched of 76, nobody judging: the classifier. Not 100 % and nothing more.
        let t = tally(76, 0, 12, 0, 64);
        assert_eq!((t.decided(), t.score()), (12, Some(1.0)));
        assert_eq!((t.lowest(), t.highest()), (Some(12.0 / 76.0), Some(1.0)));
        let (low, high) = t.interval().unwrap();
        assert_eq!((format!("{low:.3}"), high), ("0.758".to_owned(), 1.0));
        assert_eq!(
            t.describe_score().unwrap(),
            "score 100.0 % (95 % interval 75.8 %–100.0 %); 15.8 %–100.0 % whatever the undecided turn out"
        );
        // All decided: the bounds meet at the score.
        let t = tally(10, 4, 1, 5, 0);
        assert_eq!((t.score(), t.lowest(), t.highest()), (Some(0.5), Some(0.5), Some(0.5)));
        assert_eq!(t.describe_score().unwrap(), "score 50.0 % (95 % interval 23.7 %–76.3 %)");
        let cells = t.cells(false);
        assert_eq!(cells[1], Cell::Count(10), "decided");
        assert_eq!(cells[9].plain(), "0.237");
        assert_eq!(cells[10].plain(), "0.763");
    }

    #[test]
    fn cannot_be_judged_outranks_the_match() {
        let mut m = tiny();
        m.auto_eval = match_only(&m); // matches candidate 4
        assert_eq!(scores(&m).systems[1].overall, tally(3, 0, 1, 0, 2));
        let mut r = crate::model::Record::new(crate::model::CandidateId(4), crate::model::AnnotatorId(1), m.created);
        r.tags.insert(crate::model::tags::BAD_TRANSLATION.into());
        m.records.put(r);
        let s = scores(&m);
        assert_eq!(s.systems[1].overall, tally(3, 0, 0, 0, 3));
        assert_eq!((s.matched_unjudgeable, s.bases[&Basis::Unjudgeable]), (1, 1));
        assert!(s.table().notes.iter().any(|n| n.starts_with("1 matched translations are marked as cannot be judged")));
    }

    #[test]
    fn a_system_nobody_judged_has_no_score_not_zero() {
        let mut m = tiny();
        let s = scores(&m);
        assert_eq!(s.systems[1].overall.score(), None);
        assert_eq!((s.systems[1].overall.lowest(), s.systems[1].overall.interval()), (None, None));
        let table = s.table();
        assert_eq!(table.rows[1].cells[6..], vec![Cell::number(None, 3); 5]);
        assert!(table.notes[0].starts_with("– not judged yet: 'reference', 'mt'"), "{:?}", table.notes);
        assert!(s.category_table(&m).notes.iter().any(|n| n.contains("not judged yet: 'reference', 'mt'")));
        // One ✗ is a decided 0, drawn with its n; the other system stays without a value.
        judge(&mut m, 2, 1, No, Unset);
        let s = scores(&m);
        assert_eq!((s.systems[1].overall.score(), s.systems[1].overall.decided()), (Some(0.0), 1));
        assert_eq!(s.systems[0].overall.score(), None);
        assert!(s.table().notes[0].starts_with("– not judged yet: 'reference' "), "{:?}", s.table().notes);
        // 1 ✓ of 2 decided, 3 examples: the score is of the decided; the bounds 1/3 and 2/3.
        judge(&mut m, 4, 1, Yes, Unset);
        let t = scores(&m).systems[1].overall;
        assert_eq!((t.score(), t.decided()), (Some(0.5), 2));
        assert_eq!((t.lowest(), t.highest()), (Some(1.0 / 3.0), Some(2.0 / 3.0)));
    }
}
