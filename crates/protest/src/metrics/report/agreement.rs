//! Inter-annotator agreement (paper 001, Table 2): per judgement, the items several annotators
//! judged, how many they disagree on, Cohen's kappa for two annotators and Krippendorff's alpha
//! for more; and Cohen's kappa for every pair of annotators.
//!
//! "?" (no judgement) is a category of its own. The researcher's records and adjudications are
//! left out: they are not independent judgements.

use super::table::{Cell, Column, Row, Table};
use crate::metrics::stats::{alpha, kappa::Confusion};
use crate::metrics::verdict::Verdicts;
use crate::model::{AnnotatorId, CandidateId, Judgement, Master, Record, Role};

const CATEGORIES: usize = 3;

fn category(j: Judgement) -> usize {
    match j {
        Judgement::Yes => 0,
        Judgement::No => 1,
        Judgement::Unset => 2,
    }
}

/// Agreement on one judgement over all annotators.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleAgreement {
    /// Translations judged by at least two annotators.
    pub items: u64,
    /// Items on which not all of them gave the same value.
    pub disagreements: u64,
    /// Cohen's kappa, when there are exactly two annotators.
    pub kappa: Option<f64>,
    /// Krippendorff's nominal alpha over all annotators.
    pub alpha: Option<f64>,
}

/// Two annotators' confusion matrices (rows: the first's ✓ ✗ ?, columns: the second's) over the
/// items both judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairAgreement {
    pub first: AnnotatorId,
    pub second: AnnotatorId,
    pub pronoun: Confusion,
    pub antecedent: Confusion,
}

impl PairAgreement {
    pub fn of(&self, role: Role) -> &Confusion {
        match role {
            Role::Pronoun => &self.pronoun,
            Role::Antecedent => &self.antecedent,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    /// Annotators with records that count, in master order.
    pub annotators: Vec<AnnotatorId>,
    pub pronoun: RoleAgreement,
    pub antecedent: RoleAgreement,
    /// Every pair of [`Agreement::annotators`], in order.
    pub pairs: Vec<PairAgreement>,
}

impl Agreement {
    pub fn of(&self, role: Role) -> &RoleAgreement {
        match role {
            Role::Pronoun => &self.pronoun,
            Role::Antecedent => &self.antecedent,
        }
    }
}

pub fn agreement(master: &Master) -> Agreement {
    let verdicts = Verdicts::new(master);
    let counted = || master.records.iter().filter(|r| !r.annotator.is_researcher() && !verdicts.is_adjudication(r));
    let annotators = super::annotators(master, counted());
    let anaphoric =
        |c: CandidateId| master.candidate(c).and_then(|c| master.example_of(c)).is_some_and(|(_, cat)| cat.anaphoric);
    // Records come in candidate order: one pass groups them, each candidate's category looked up
    // once (this is most of the report's time on a large master).
    let mut by_candidate: Vec<(bool, Vec<&Record>)> = Vec::new();
    let mut current = None;
    for r in counted() {
        if current != Some(r.candidate) {
            current = Some(r.candidate);
            by_candidate.push((anaphoric(r.candidate), Vec::new()));
        }
        by_candidate.last_mut().expect("pushed above").1.push(r);
    }
    let judged = |role: Role| {
        by_candidate
            .iter()
            .filter(move |(anaphoric, _)| role == Role::Pronoun || *anaphoric)
            .map(|(_, records)| records)
    };
    let mut pairs = Vec::new();
    for (i, &first) in annotators.iter().enumerate() {
        for &second in &annotators[i + 1..] {
            let mut pair = PairAgreement {
                first,
                second,
                pronoun: Confusion::new(CATEGORIES),
                antecedent: Confusion::new(CATEGORIES),
            };
            for role in Role::ALL {
                for records in judged(role) {
                    let of = |a: AnnotatorId| records.iter().find(|r| r.annotator == a);
                    if let (Some(a), Some(b)) = (of(first), of(second)) {
                        let m = if role == Role::Pronoun { &mut pair.pronoun } else { &mut pair.antecedent };
                        m.add(category(a.judgement(role)), category(b.judgement(role)));
                    }
                }
            }
            pairs.push(pair);
        }
    }
    let role_agreement = |role: Role| {
        let units: Vec<Vec<usize>> = judged(role)
            .filter(|records| records.len() >= 2)
            .map(|records| records.iter().map(|r| category(r.judgement(role))).collect())
            .collect();
        RoleAgreement {
            items: units.len() as u64,
            disagreements: units.iter().filter(|u| u.iter().any(|&v| v != u[0])).count() as u64,
            kappa: if annotators.len() == 2 { pairs[0].of(role).kappa() } else { None },
            alpha: alpha::nominal(&units),
        }
    };
    Agreement {
        pronoun: role_agreement(Role::Pronoun),
        antecedent: role_agreement(Role::Antecedent),
        annotators,
        pairs,
    }
}

fn role_label(role: Role) -> &'static str {
    match role {
        Role::Pronoun => "Pronoun",
        Role::Antecedent => "Antecedent",
    }
}

const ABOUT_ITEMS: &str = "Items: translations judged by more than one annotator; ? (no judgement) is a category of its \
     own. The researcher's records and adjudications are left out.";

impl Agreement {
    /// Paper 001's Table 2: items, disagreements and kappa (two annotators) or alpha (more).
    pub fn table(&self) -> Table {
        let n = self.annotators.len();
        let mut columns = vec![Column::new(["Items"]), Column::new(["Disagreements"])];
        let mut notes = vec![ABOUT_ITEMS.to_string()];
        match n {
            2 => {
                columns.push(Column::new(["Kappa"]));
                notes.push("Kappa: Cohen's κ.".into());
            }
            n if n > 2 => {
                columns.push(Column::new(["Alpha"]));
                notes.push(format!(
                    "Alpha: Krippendorff's α (nominal) over all {n} annotators; pairwise κ in table 'pairwise'."
                ));
            }
            _ => notes.push("Agreement needs at least two annotators who judged the same translations.".into()),
        }
        let rows = Role::ALL
            .iter()
            .map(|&role| {
                let a = self.of(role);
                let mut cells = vec![Cell::Count(a.items), Cell::Count(a.disagreements)];
                match n {
                    2 => cells.push(Cell::number(a.kappa, 2)),
                    n if n > 2 => cells.push(Cell::number(a.alpha, 2)),
                    _ => {}
                }
                Row::data(0, role_label(role), cells)
            })
            .collect();
        Table {
            name: "agreement",
            title: "Inter-annotator agreement".into(),
            label_header: "Judgement".into(),
            columns,
            rows,
            notes,
        }
    }

    /// Cohen's kappa for every pair of annotators, one matrix per judgement side by side.
    pub fn pairwise_table(&self, master: &Master) -> Table {
        let names: Vec<String> = self.annotators.iter().map(|&a| master.annotator_name(a)).collect();
        let columns = Role::ALL
            .iter()
            .flat_map(|&role| names.iter().map(move |name| Column::new([role_label(role), name.as_str()])))
            .collect();
        let pair = |a: AnnotatorId, b: AnnotatorId| {
            self.pairs.iter().find(|p| (p.first, p.second) == (a, b) || (p.first, p.second) == (b, a))
        };
        let rows = self
            .annotators
            .iter()
            .zip(&names)
            .map(|(&a, name)| {
                let cells = Role::ALL
                    .iter()
                    .flat_map(|&role| {
                        self.annotators.iter().map(move |&b| match pair(a, b) {
                            None => Cell::NotApplicable,
                            Some(p) => Cell::number(p.of(role).kappa(), 2),
                        })
                    })
                    .collect();
                Row::data(0, name, cells)
            })
            .collect();
        let mut notes = vec!["Cohen's κ over the translations both annotators judged; – where undefined.".to_string()];
        notes.extend(self.pairs.iter().map(|p| {
            let counts = |role: Role| {
                let m = p.of(role);
                format!(
                    "{} {} items with {} disagreeing",
                    m.total(),
                    role_label(role).to_lowercase(),
                    m.disagreements()
                )
            };
            let names = format!("{} – {}", master.annotator_name(p.first), master.annotator_name(p.second));
            format!("{names}: {}; {}.", counts(Role::Pronoun), counts(Role::Antecedent))
        }));
        Table {
            name: "pairwise",
            title: "Pairwise agreement (Cohen's kappa)".into(),
            label_header: "Annotator".into(),
            columns,
            rows,
            notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Annotator;
    use crate::testing::{judge, tiny};
    use Judgement::{No, Unset, Yes};

    #[test]
    fn two_annotators() {
        let mut m = tiny();
        judge(&mut m, 1, 1, Yes, Yes);
        judge(&mut m, 1, 2, Yes, Yes);
        judge(&mut m, 2, 1, No, Yes);
        judge(&mut m, 2, 2, Yes, Unset);
        judge(&mut m, 4, 1, Yes, Unset);
        judge(&mut m, 4, 2, Yes, Unset);
        judge(&mut m, 6, 1, Unset, Unset); // only one annotator: not an item
        judge(&mut m, 6, 0, No, Unset); // the researcher does not count
        let a = agreement(&m);
        assert_eq!(a.annotators, [AnnotatorId(1), AnnotatorId(2)]);
        assert_eq!((a.pronoun.items, a.pronoun.disagreements), (3, 1));
        assert_eq!((a.antecedent.items, a.antecedent.disagreements), (2, 1));
        let pronoun = Confusion::from_rows(vec![vec![2, 0, 0], vec![1, 0, 0], vec![0, 0, 0]]);
        assert_eq!(a.pairs[0].pronoun, pronoun);
        assert_eq!(a.pronoun.kappa, pronoun.kappa());
        assert_eq!(a.pronoun.kappa, Some(0.0), "A's ✗ against B's always ✓: no better than chance");
        let t = a.table();
        assert_eq!(t.columns.last().unwrap().path, ["Kappa"]);
        assert_eq!(t.rows[0].cells, [Cell::Count(3), Cell::Count(1), Cell::number(Some(0.0), 2)]);
    }

    #[test]
    fn three_annotators_get_alpha_and_pairs() {
        let mut m = tiny();
        m.annotators.push(Annotator { id: AnnotatorId(3), name: "C".into() });
        for (annotator, j) in [(1, Yes), (2, Yes), (3, No)] {
            judge(&mut m, 4, annotator, j, Unset);
        }
        for (annotator, j) in [(1, No), (2, No), (3, No)] {
            judge(&mut m, 6, annotator, j, Unset);
        }
        judge(&mut m, 2, 1, Yes, Yes);
        judge(&mut m, 2, 3, Yes, Yes);
        let a = agreement(&m);
        assert_eq!((a.pronoun.items, a.pronoun.disagreements), (3, 1));
        assert_eq!(a.pronoun.kappa, None);
        assert_eq!(a.pronoun.alpha, alpha::nominal(&[vec![0, 0, 1], vec![1, 1, 1], vec![0, 0]]));
        assert_eq!(a.pairs.len(), 3);
        assert_eq!((a.pairs[1].first, a.pairs[1].second), (AnnotatorId(1), AnnotatorId(3)));
        assert_eq!(a.pairs[1].pronoun.total(), 3);
        assert_eq!(a.pairs[0].pronoun.total(), 2, "A and B share two items");
        assert_eq!(a.table().columns.last().unwrap().path, ["Alpha"]);
        let pairwise = a.pairwise_table(&m);
        assert_eq!(pairwise.columns.len(), 6);
        assert_eq!(pairwise.rows[0].cells[0], Cell::NotApplicable, "the diagonal");
        assert_eq!(pairwise.rows[0].cells[1], Cell::number(a.pairs[0].pronoun.kappa(), 2));
    }

    #[test]
    fn adjudications_do_not_count() {
        let mut m = tiny();
        judge(&mut m, 4, 1, Yes, Unset);
        judge(&mut m, 4, 2, No, Unset);
        m.annotators.push(Annotator { id: AnnotatorId(3), name: "C".into() });
        judge(&mut m, 4, 3, Yes, Unset);
        m.task_sets.push(crate::model::TaskSet {
            id: 1,
            name: "adjudication".into(),
            created: m.created,
            seed: 0,
            corpora: vec![],
            categories: vec![],
            annotators: 1,
            iaa_size: 0,
            purpose: crate::model::Purpose::Adjudication,
            planner: crate::model::Planner::RoundRobin,
            tasks: vec![crate::model::Task {
                label: "1".into(),
                candidates: vec![CandidateId(4)],
                annotator: Some(AnnotatorId(3)),
            }],
        });
        let a = agreement(&m);
        assert_eq!(a.annotators, [AnnotatorId(1), AnnotatorId(2)]);
        assert_eq!((a.pronoun.items, a.pronoun.disagreements), (1, 1));
    }
}
