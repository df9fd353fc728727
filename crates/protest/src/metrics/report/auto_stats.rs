//! What the automatic reference match and the agreement judge did, per MT system and per round.

use super::table::{Cell, Column, Row, Table};
use crate::metrics::auto_eval::aligned_by::{self, AlignedBy};
use crate::metrics::auto_eval::{self, MatchedWith};
use crate::metrics::verdict::Decisions;
use crate::model::{CorpusId, CorpusRole, Master, Outcome, Role};

/// One MT system's candidates by outcome of the latest round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemMatches {
    pub corpus: CorpusId,
    pub name: String,
    pub counts: MatchCounts,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchCounts {
    pub candidates: u64,
    /// Matched the reference corpus's own translation.
    pub reference_matches: u64,
    /// Matched the tokens annotators selected in a translation they judged correct (the
    /// reference corpus's too).
    pub judged_matches: u64,
    pub mismatches: u64,
    pub no_translation: u64,
    pub no_reference: u64,
    /// Left to humans because the sentence boundaries around the pronoun are uncertain.
    pub uncertain_boundaries: u64,
    /// Settled by the agreement judge: correct, incorrect.
    pub agreements: u64,
    pub disagreements: u64,
    /// Matched, but the agreement judge disagrees: left to humans.
    pub contradicted: u64,
    /// Not compared yet (added after the latest round, or the match never ran).
    pub not_run: u64,
    /// Not matched and with no human verdict on the pronoun yet.
    pub open: u64,
    /// Matched, yet judged ✗ by humans: a measure of the match's precision.
    pub matches_judged_incorrect: u64,
    /// Agreements judged ✗ and disagreements judged ✓ by humans: the judge's precision.
    pub judge_overruled: u64,
    /// The matches by how the words they compared were aligned, in [`AlignedBy::ALL`] order
    /// (bridge, aligner, given).
    pub aligned_by: [u64; 3],
}

impl MatchCounts {
    pub fn matches(&self) -> u64 {
        self.reference_matches + self.judged_matches
    }

    /// Candidates settled without a person: matches, agreements, disagreements.
    pub fn automatic(&self) -> u64 {
        self.matches() + self.agreements + self.disagreements
    }

    /// Candidates the match and the judge leave to humans.
    pub fn to_humans(&self) -> u64 {
        self.candidates - self.automatic()
    }

    /// The table's cells; `uncertain`: with the column of uncertain boundaries (after no
    /// reference); `judge`: with the agreement judge's columns.
    fn cells(&self, uncertain: bool, judge: bool) -> Vec<Cell> {
        let mut cells = vec![self.candidates, self.reference_matches, self.judged_matches];
        if judge {
            cells.extend([self.agreements, self.disagreements, self.contradicted]);
        }
        cells.extend([self.mismatches, self.no_translation, self.no_reference]);
        if uncertain {
            cells.push(self.uncertain_boundaries);
        }
        cells.extend([self.not_run, self.to_humans(), self.open, self.matches_judged_incorrect]);
        if judge {
            cells.push(self.judge_overruled);
        }
        cells.extend(self.aligned_by);
        cells.into_iter().map(Cell::Count).collect()
    }

    fn plus(mut self, o: &MatchCounts) -> MatchCounts {
        self.candidates += o.candidates;
        self.reference_matches += o.reference_matches;
        self.judged_matches += o.judged_matches;
        self.mismatches += o.mismatches;
        self.no_translation += o.no_translation;
        self.no_reference += o.no_reference;
        self.uncertain_boundaries += o.uncertain_boundaries;
        self.agreements += o.agreements;
        self.disagreements += o.disagreements;
        self.contradicted += o.contradicted;
        self.not_run += o.not_run;
        self.open += o.open;
        self.matches_judged_incorrect += o.matches_judged_incorrect;
        self.judge_overruled += o.judge_overruled;
        for (mine, theirs) in self.aligned_by.iter_mut().zip(o.aligned_by) {
            *mine += theirs;
        }
        self
    }
}

/// Per MT system, in master order.
pub fn system_matches(decisions: &Decisions) -> Vec<SystemMatches> {
    let master = decisions.master();
    master
        .corpora
        .iter()
        .filter(|c| c.role == CorpusRole::System)
        .map(|corpus| {
            let mut s = MatchCounts::default();
            for (i, candidate) in master.candidates.iter().enumerate().filter(|(_, c)| c.corpus == corpus.id) {
                s.candidates += 1;
                let verdict = decisions.at(i, Role::Pronoun).judgement;
                let entry = master.auto_eval.entry(candidate.id);
                match entry.map(|e| e.outcome) {
                    Some(Outcome::Match) => match auto_eval::matched_with(master, candidate) {
                        Some((MatchedWith::ReferenceTranslation, _)) => s.reference_matches += 1,
                        _ => s.judged_matches += 1,
                    },
                    Some(Outcome::Mismatch) => s.mismatches += 1,
                    Some(Outcome::NoTranslation) => s.no_translation += 1,
                    Some(Outcome::NoReference) => s.no_reference += 1,
                    Some(Outcome::UncertainBoundaries) => s.uncertain_boundaries += 1,
                    Some(Outcome::Agreement) => s.agreements += 1,
                    Some(Outcome::Disagreement) => s.disagreements += 1,
                    Some(Outcome::Contradicted) => s.contradicted += 1,
                    None => s.not_run += 1,
                }
                if let Some(by) = aligned_by::aligned_by(master, candidate) {
                    s.aligned_by[AlignedBy::ALL.iter().position(|&b| b == by).unwrap_or(0)] += 1;
                }
                let settled = master.auto_eval.settled(candidate.id).is_some();
                s.open += u64::from(!settled && !verdict.is_set());
                s.matches_judged_incorrect += u64::from(auto_eval::match_judged_incorrect(decisions, i));
                s.judge_overruled += u64::from(auto_eval::judge_overruled(decisions, i));
            }
            SystemMatches { corpus: corpus.id, name: corpus.name.clone(), counts: s }
        })
        .collect()
}

/// The automatic-match statistics table, with a total over the systems.
pub fn table(decisions: &Decisions) -> Table {
    let master = decisions.master();
    let systems = system_matches(decisions);
    let total = systems.iter().fold(MatchCounts::default(), |sum, s| sum.plus(&s.counts));
    // Only masters with re-segmented output can have these; only rounds with the agreement
    // judge those.
    let uncertain = total.uncertain_boundaries > 0;
    let judge = master.auto_eval.rounds.last().is_some_and(|r| r.agreement)
        || total.agreements + total.disagreements + total.contradicted > 0;
    let mut columns =
        vec![Column::new(["Candidates"]), Column::new(["Match", "reference"]), Column::new(["Match", "judged"])];
    if judge {
        columns.extend([
            Column::new(["Agreement", "✓"]),
            Column::new(["Disagreement", "✗"]),
            Column::new(["Match", "contradicted"]),
        ]);
    }
    columns.extend([Column::new(["Mismatch"]), Column::new(["No translation"]), Column::new(["No reference"])]);
    if uncertain {
        columns.push(Column::new(["Uncertain boundaries"]));
    }
    columns.extend([
        Column::new(["Not run"]),
        Column::new(["To humans", "all"]),
        Column::new(["To humans", "open"]),
        Column::new(["Matches judged ✗"]),
    ]);
    if judge {
        columns.push(Column::new(["Judge overruled"]));
    }
    columns.extend(AlignedBy::ALL.map(|by| Column::new(["Aligned by", by.name()])));
    let mut rows: Vec<Row> = systems.iter().map(|s| Row::data(0, &s.name, s.counts.cells(uncertain, judge))).collect();
    rows.push(Row::total("Total", total.cells(uncertain, judge)));
    let latest = match master.auto_eval.rounds.last() {
        Some(r) => format!("As of round {}, run {}.", r.round, r.run.format("%Y-%m-%d %H:%M UTC")),
        None => "The automatic reference match has not been run on this master yet.".into(),
    };
    Table {
        name: "auto-eval",
        title: "Automatic reference match and agreement judge per system".into(),
        label_header: "System".into(),
        columns,
        rows,
        notes: vec![
            latest,
            "Match reference/judged: equal to the reference translation / to a translation annotators judged correct. \
             Agreement ✓ / Disagreement ✗ (French): matching no reference, the pronoun agrees / disagrees in gender \
             with the noun translating the antecedent head, by the lexicon; Match contradicted: matched, but the \
             pronoun (or a participle agreeing with it) disagrees: left to humans. \
             Uncertain boundaries (re-segmented output only): the sentence's translation was cut from the output \
             with low confidence, so the match leaves it to humans. \
             To humans: all not settled automatically; open: of those, without a human verdict on the pronoun yet. \
             Matches judged ✗: matched, yet humans judged the pronoun or an antecedent head incorrect. \
             Judge overruled: agreements whose pronoun humans judged ✗, disagreements they judged ✓. \
             Aligned by: the matches by how the words they compared were aligned — bridge: carried over through \
             the reference (or another translation); aligner: a link of the built-in bilingual aligner among \
             them (the least sure); given: with the corpus (imported, or an alignment file)."
                .into(),
        ],
    }
}

/// The history of rounds: how much each one settled.
pub fn rounds_table(master: &Master) -> Table {
    let uncertain = master.auto_eval.rounds.iter().any(|r| r.uncertain_boundaries > 0);
    let judge = master.auto_eval.rounds.iter().any(|r| r.agreement);
    let mut columns = vec![Column::new(["Run"]), Column::new(["Judged references"]), Column::new(["Matches"])];
    if judge {
        columns.extend([Column::new(["Agreements"]), Column::new(["Disagreements"]), Column::new(["Contradicted"])]);
    }
    columns.extend([
        Column::new(["Settled"]),
        Column::new(["Unsettled"]),
        Column::new(["Mismatch"]),
        Column::new(["No translation"]),
        Column::new(["No reference"]),
    ]);
    if uncertain {
        columns.push(Column::new(["Uncertain boundaries"]));
    }
    columns.push(Column::new(["Rule"]));
    let rows = master
        .auto_eval
        .rounds
        .iter()
        .map(|r| {
            let mut cells = vec![Cell::Text(r.run.format("%Y-%m-%d %H:%M").to_string())];
            let mut counts = vec![r.judged_references, r.matches];
            if judge {
                counts.extend([r.agreements, r.disagreements, r.contradicted]);
            }
            counts.extend([r.settled, r.unsettled, r.mismatches, r.no_translation, r.no_reference]);
            cells.extend(counts.into_iter().map(|n| Cell::Count(n.into())));
            if uncertain {
                cells.push(Cell::Count(r.uncertain_boundaries.into()));
            }
            cells.push(Cell::Text(r.rule.name().to_owned()));
            Row::data(0, format!("Round {}", r.round), cells)
        })
        .collect();
    Table {
        name: "rounds",
        title: "Rounds of the reference match".into(),
        label_header: "Round".into(),
        columns,
        rows,
        notes: vec![
            "Judged references: translations annotators judged correct, used as additional references. \
             Agreements, disagreements, contradicted: the agreement judge's outcomes (rounds that ran it). \
             Settled: settled automatically for the first time; unsettled: no longer settled since a judgement changed \
             (or the rules). \
             Rule: what was compared (minimal_tokens: the pronoun forms among the aligned words; aligned_tokens: \
             every aligned word). Times in UTC."
                .into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Judgement;
    use crate::testing::{judge, tiny};
    use Judgement::{No, Unset, Yes};

    #[test]
    fn per_system_outcomes() {
        let mut m = tiny();
        let before = system_matches(&Decisions::new(&m))[0].counts;
        assert_eq!((before.candidates, before.not_run, before.open), (3, 3, 3));
        m.auto_eval = crate::metrics::auto_eval::run(&m, m.created);
        judge(&mut m, 6, 1, No, Unset);
        let system = &system_matches(&Decisions::new(&m))[0];
        assert_eq!(system.name, "mt");
        let s = system.counts;
        // Candidate 2 ("Elle … bicyclette") is settled by the agreement judge.
        assert_eq!((s.candidates, s.reference_matches, s.judged_matches, s.mismatches), (3, 1, 0, 1));
        assert_eq!((s.agreements, s.disagreements, s.contradicted), (1, 0, 0));
        assert_eq!((s.to_humans(), s.open, s.not_run, s.matches_judged_incorrect), (1, 0, 0, 0));
        assert_eq!(s.aligned_by, [0, 0, 1], "the fixture's alignment was given");
        judge(&mut m, 4, 2, No, Unset);
        judge(&mut m, 1, 2, Yes, Yes);
        judge(&mut m, 2, 2, No, No);
        let s = system_matches(&Decisions::new(&m))[0].counts;
        assert_eq!((s.matches_judged_incorrect, s.judge_overruled), (1, 1));
        let t = table(&Decisions::new(&m));
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[1].cells[0], Cell::Count(3));
        assert_eq!(t.columns.len(), 17, "with the judge's columns and the matches by alignment");
        assert_eq!(t.rows[1].cells[3], Cell::Count(1), "agreement");
        let rounds = rounds_table(&m);
        assert_eq!(rounds.rows[0].label, "Round 1");
        assert_eq!(rounds.rows[0].cells[2], Cell::Count(1));
    }

    #[test]
    fn a_match_on_a_selection_in_the_reference_candidate_is_a_judged_match() {
        // Example 3: the reference has "vous" aligned; an annotator judged it ✓ but selected "Je",
        // and the MT (changed for the test) says "Je": it matches the selection, not the reference
        // translation's own words.
        let mut m = tiny();
        m.corpora.iter_mut().find(|c| c.name == "mt").unwrap().sentences[3] = "Je es bienvenu .".into();
        judge(&mut m, 5, 1, Yes, Unset);
        crate::testing::select_pronoun(&mut m, 5, 1, &[(3, 0)]);
        m.auto_eval = crate::metrics::auto_eval::run(&m, m.created);
        let candidate = m.candidate(crate::model::CandidateId(6)).unwrap();
        let (with, reference) = auto_eval::matched_with(&m, candidate).unwrap();
        assert_eq!((with, reference.0), (MatchedWith::Judged, 5));
        let s = system_matches(&Decisions::new(&m))[0].counts;
        // Example 2 ("Il pleut") matches the reference translation itself.
        assert_eq!((s.reference_matches, s.judged_matches), (1, 1));
        let note = auto_eval::match_note(&m, candidate.id).unwrap();
        assert!(note.contains("a translation judged correct (reference)"), "{note}");
    }
}
