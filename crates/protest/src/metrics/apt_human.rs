//! APT against human judgements (paper 003): the case × judgement table per category with the
//! disagreement rate (its Table 3), and the correlation of system-level scores (its Table 2).
//!
//! Which human judgement stands for a candidate (one annotator, an adjudicated record, a
//! majority…) is the caller's rule, passed in as a function. As in the paper, only MT systems
//! count (not the reference), and only candidates with APT case 1, 2 or 3 and a yes/no
//! judgement: cases 1 and 2 say "correct", case 3 "incorrect"; a disagreement is APT and the
//! human saying different things.

use crate::metrics::correlate::Correlation;
use crate::model::{CandidateId, CorpusRole, Judgement, Master};
use crate::scorers::apt::{Case, MasterApt, Weighting};

/// One row of the table: a category, or the total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgreementRow {
    pub category: String,
    /// Assessed candidates per APT case 1, 2 and 3.
    pub cases: [u64; 3],
    /// Assessed candidates the human judged correct / incorrect.
    pub correct: u64,
    pub incorrect: u64,
    /// Disagreements per APT case 1, 2 and 3.
    pub disagreements: [u64; 3],
}

impl AgreementRow {
    /// Candidates both APT and the human judged.
    pub fn assessed(&self) -> u64 {
        self.correct + self.incorrect
    }

    pub fn disagreement_count(&self) -> u64 {
        self.disagreements.iter().sum()
    }

    /// Disagreements in percent of the assessed candidates (NaN if none).
    pub fn disagreement_percent(&self) -> f64 {
        100.0 * self.disagreement_count() as f64 / self.assessed() as f64
    }

    fn add(&mut self, case: Case, human: bool) {
        let apt = match case {
            Case::Identical | Case::Equivalent => true,
            Case::Different => false,
            _ => return,
        };
        let i = case as usize - 1;
        self.cases[i] += 1;
        if human {
            self.correct += 1;
        } else {
            self.incorrect += 1;
        }
        if apt != human {
            self.disagreements[i] += 1;
        }
    }

    fn merge(&mut self, other: &AgreementRow) {
        for (a, b) in
            self.cases.iter_mut().zip(other.cases).chain(self.disagreements.iter_mut().zip(other.disagreements))
        {
            *a += b;
        }
        self.correct += other.correct;
        self.incorrect += other.incorrect;
    }
}

/// The case × judgement table.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    /// Per category, in [`MasterApt::categories`] order.
    pub rows: Vec<AgreementRow>,
    pub total: AgreementRow,
}

fn yes_no(judgement: Option<Judgement>) -> Option<bool> {
    match judgement? {
        Judgement::Yes => Some(true),
        Judgement::No => Some(false),
        Judgement::Unset => None,
    }
}

/// APT cases against the human judgement of each MT system candidate.
pub fn agreement(master: &Master, apt: &MasterApt, verdict: impl Fn(CandidateId) -> Option<Judgement>) -> Agreement {
    let mut rows: Vec<AgreementRow> =
        apt.categories.iter().map(|c| AgreementRow { category: c.clone(), ..AgreementRow::default() }).collect();
    for found in &apt.cases {
        let system = master.corpus(found.corpus).is_some_and(|c| c.role == CorpusRole::System);
        let Some(human) = yes_no(verdict(found.candidate)).filter(|_| system) else { continue };
        if let Some(i) = found.category {
            rows[i].add(found.case, human);
        }
    }
    let mut total = AgreementRow { category: "Total".into(), ..AgreementRow::default() };
    for row in &rows {
        total.merge(row);
    }
    Agreement { rows, total }
}

/// One system's APT-A, APT-B and human score (share of judged candidates judged correct).
#[derive(Debug, Clone, PartialEq)]
pub struct SystemScores {
    pub name: String,
    pub apt_a: f64,
    pub apt_b: f64,
    /// Candidates judged yes or no.
    pub judged: u64,
    /// NaN when none was judged.
    pub human: f64,
}

/// System-level scores of every translation corpus (the reference included, as in paper 003's
/// Table 1).
pub fn system_scores(apt: &MasterApt, verdict: impl Fn(CandidateId) -> Option<Judgement>) -> Vec<SystemScores> {
    apt.systems
        .iter()
        .map(|s| {
            let judged: Vec<bool> = apt
                .cases
                .iter()
                .filter(|c| c.corpus == s.corpus)
                .filter_map(|c| yes_no(verdict(c.candidate)))
                .collect();
            let correct = judged.iter().filter(|&&yes| yes).count();
            SystemScores {
                name: s.name.clone(),
                apt_a: s.score(&s.total, &Weighting::apt_a()),
                apt_b: s.score(&s.total, &Weighting::apt_b()),
                judged: judged.len() as u64,
                human: correct as f64 / judged.len() as f64,
            }
        })
        .collect()
}

/// Pearson and Spearman of APT-A and of APT-B against the human scores (paper 003 Table 2), over
/// the systems with judged candidates.
pub fn correlations(scores: &[SystemScores]) -> [Correlation; 2] {
    let scores: Vec<&SystemScores> = scores.iter().filter(|s| s.human.is_finite()).collect();
    let human: Vec<f64> = scores.iter().map(|s| s.human).collect();
    let with = |name: &str, metric: Vec<f64>| Correlation::of(name, "human", &metric, &human);
    [with("APT-A", scores.iter().map(|s| s.apt_a).collect()), with("APT-B", scores.iter().map(|s| s.apt_b).collect())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scorers::apt::{Preset, evaluate_master};
    use crate::testing::bare_tiny as tiny;

    #[test]
    fn case_by_judgement_per_category() {
        let master = tiny();
        let apt = evaluate_master(&master, &Preset::french());
        // MT candidates: 2 (case 3) judged correct, 4 (case 1) correct, 6 (case 3) incorrect;
        // the reference's candidate 1 is judged too, but only MT systems count.
        let verdict = |c: CandidateId| match c.0 {
            1 | 2 | 4 => Some(Judgement::Yes),
            6 => Some(Judgement::No),
            _ => None,
        };
        let table = agreement(&master, &apt, verdict);
        let rows: Vec<_> = table.rows.iter().map(|r| (r.cases, r.correct, r.incorrect, r.disagreements)).collect();
        assert_eq!(rows, [([0, 0, 1], 1, 0, [0, 0, 1]), ([1, 0, 0], 1, 0, [0, 0, 0]), ([0, 0, 1], 0, 1, [0, 0, 0])]);
        assert_eq!((table.total.assessed(), table.total.disagreement_count()), (3, 1));
        assert_eq!((table.total.cases, table.total.disagreements), ([1, 0, 2], [0, 0, 1]));
        assert_eq!(format!("{:.1}", table.total.disagreement_percent()), "33.3");
        // Unjudged candidates and Unset judgements are left out.
        let none = agreement(&master, &apt, |c| (c.0 == 2).then_some(Judgement::Unset));
        assert_eq!(none.total.assessed(), 0);
        assert!(none.total.disagreement_percent().is_nan());
    }

    #[test]
    fn system_scores_and_their_correlation() {
        let master = tiny();
        let apt = evaluate_master(&master, &Preset::french());
        let verdict = |c: CandidateId| Some(if matches!(c.0, 1 | 3 | 5 | 4) { Judgement::Yes } else { Judgement::No });
        let scores = system_scores(&apt, verdict);
        assert_eq!(scores.len(), 2);
        let unjudged = system_scores(&apt, |c| (c.0 % 2 == 0).then_some(Judgement::Yes));
        assert!(unjudged[0].human.is_nan(), "nobody judged the reference");
        assert!(correlations(&unjudged)[0].pearson.is_nan(), "one system left: no correlation");
        assert_eq!((scores[0].name.as_str(), scores[0].apt_a, scores[0].human), ("reference", 1.0, 1.0));
        assert_eq!((scores[1].apt_a, scores[1].judged, scores[1].human), (1.0 / 3.0, 3, 1.0 / 3.0));
        assert_eq!(unjudged[1].judged, 3);
        let [a, b] = correlations(&scores);
        assert_eq!((a.pearson, a.spearman, b.a.as_str()), (1.0, 1.0, "APT-B"));
    }
}
