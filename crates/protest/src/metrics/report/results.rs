//! The results table (paper 001, Table 1): per category and annotator, how many records judged
//! the pronoun and the antecedent head correct (✓), incorrect (✗) or gave no judgement (?).

use super::layout::{self, Line};
use super::table::{Cell, Column, Row, Table};
use crate::annotate::status::{Status, Statuses};
use crate::model::{AnnotatorId, Judgement, Master, Role};

/// ✓ ✗ ? counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub yes: u64,
    pub no: u64,
    pub unset: u64,
}

impl Counts {
    pub fn add(&mut self, j: Judgement) {
        match j {
            Judgement::Yes => self.yes += 1,
            Judgement::No => self.no += 1,
            Judgement::Unset => self.unset += 1,
        }
    }

    pub fn plus(self, other: Counts) -> Counts {
        Counts { yes: self.yes + other.yes, no: self.no + other.no, unset: self.unset + other.unset }
    }

    pub fn total(&self) -> u64 {
        self.yes + self.no + self.unset
    }

    fn cells(&self) -> [Cell; 3] {
        [Cell::Count(self.yes), Cell::Count(self.no), Cell::Count(self.unset)]
    }
}

/// The results of one category (or the total).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CategoryResults {
    /// Candidates with at least one record.
    pub items: u64,
    /// Per annotator, in the order of [`Results::annotators`].
    pub pronoun: Vec<Counts>,
    /// Per annotator; `None` for non-anaphoric categories.
    pub antecedent: Option<Vec<Counts>>,
}

impl CategoryResults {
    fn plus(&self, other: &CategoryResults) -> CategoryResults {
        let add = |a: &[Counts], b: &[Counts]| a.iter().zip(b).map(|(&x, &y)| x.plus(y)).collect::<Vec<_>>();
        CategoryResults {
            items: self.items + other.items,
            pronoun: add(&self.pronoun, &other.pronoun),
            antecedent: match (&self.antecedent, &other.antecedent) {
                (Some(a), Some(b)) => Some(add(a, b)),
                (a, b) => a.clone().or_else(|| b.clone()),
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Results {
    /// Everyone with records: the researcher first, then the annotators in master order.
    pub annotators: Vec<AnnotatorId>,
    /// Per category, in master order.
    pub categories: Vec<CategoryResults>,
    pub total: CategoryResults,
    /// Records counted above that have conflicts ([`status::status`]): kept despite failed
    /// rules, or breaking a rule without having been checked. Said in a note, never hidden.
    pub with_conflicts: u64,
}

pub fn results(master: &Master) -> Results {
    results_with(master, &Statuses::of(master))
}

/// [`results`] with the statuses of the master's records at hand (as loading derived them).
pub fn results_with(master: &Master, statuses: &Statuses) -> Results {
    assert_eq!(master.records.len(), statuses.as_slice().len(), "the statuses of another master's records");
    let annotators = super::annotators(master, master.records.iter());
    let position = |a: AnnotatorId| annotators.iter().position(|&x| x == a);
    let mut categories: Vec<CategoryResults> = master
        .categories
        .iter()
        .map(|c| CategoryResults {
            items: 0,
            pronoun: vec![Counts::default(); annotators.len()],
            antecedent: c.anaphoric.then(|| vec![Counts::default(); annotators.len()]),
        })
        .collect();
    // The records come in candidate order: a candidate's are together, so its category is looked
    // up once and it is counted as an item at its first record counted.
    let mut category = None;
    let mut counted = None;
    let mut with_conflicts = 0;
    for (record, &status) in master.records.iter().zip(statuses.as_slice()) {
        if category.is_none_or(|(c, _)| c != record.candidate) {
            category = Some((record.candidate, super::category_index(master, record.candidate)));
        }
        let (Some((_, Some(ci))), Some(ai)) = (category, position(record.annotator)) else {
            continue;
        };
        with_conflicts += u64::from(status == Status::Conflict);
        let results = &mut categories[ci];
        if counted != Some(record.candidate) {
            counted = Some(record.candidate);
            results.items += 1;
        }
        results.pronoun[ai].add(record.judgement(Role::Pronoun));
        if let Some(antecedent) = &mut results.antecedent {
            antecedent[ai].add(record.judgement(Role::Antecedent));
        }
    }
    let empty = CategoryResults { items: 0, pronoun: vec![Counts::default(); annotators.len()], antecedent: None };
    let total = categories.iter().fold(empty, |sum, c| sum.plus(c));
    Results { annotators, categories, total, with_conflicts }
}

impl Results {
    pub fn table(&self, master: &Master) -> Table {
        let names: Vec<String> = self.annotators.iter().map(|&a| master.annotator_name(a)).collect();
        let mut columns = vec![Column::new(["Count"])];
        for role in ["Pronoun", "Antecedent"] {
            for name in &names {
                columns.extend(["✓", "✗", "?"].map(|s| Column::new([role, name.as_str(), s])));
            }
        }
        let cells = |r: &CategoryResults| {
            let mut cells = vec![Cell::Count(r.items)];
            cells.extend(r.pronoun.iter().flat_map(Counts::cells));
            match &r.antecedent {
                Some(a) => cells.extend(a.iter().flat_map(Counts::cells)),
                None => cells.extend(std::iter::repeat_n(Cell::NotApplicable, 3 * names.len())),
            }
            cells
        };
        let mut rows: Vec<Row> =
            layout::lines(&master.categories).iter().map(|l: &Line| l.row(|i| cells(&self.categories[i]))).collect();
        rows.push(Row::total("Total", cells(&self.total)));
        Table {
            name: "results",
            title: format!("Annotation results over {} pronoun translations", self.total.items),
            label_header: "Category".into(),
            columns,
            rows,
            notes: std::iter::once(
                "✓ correct, ✗ incorrect, ? no judgement (e.g. bad translations and incorrect word alignments); \
                 Count: translations with at least one record."
                    .to_owned(),
            )
            .chain((self.with_conflicts > 0).then(|| {
                format!(
                    "{} of the records counted have conflicts: kept despite a failed rule of the guidelines, or \
                     breaking one without having been checked (the category browser lists them).",
                    self.with_conflicts
                )
            }))
            .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{judge, tiny};
    use Judgement::{No, Unset, Yes};

    #[test]
    fn counts_per_category_and_annotator() {
        let mut m = tiny();
        judge(&mut m, 1, 1, Yes, Yes); // anaphoric, reference
        judge(&mut m, 2, 1, No, Yes); // anaphoric, MT
        judge(&mut m, 2, 2, No, No);
        judge(&mut m, 4, 2, Unset, Unset); // pleonastic
        judge(&mut m, 6, 0, Yes, Unset); // deictic you, the researcher
        let r = results(&m);
        assert_eq!(r.annotators, [AnnotatorId(0), AnnotatorId(1), AnnotatorId(2)]);
        let counts = |yes, no, unset| Counts { yes, no, unset };
        let inter_subject = &r.categories[0];
        assert_eq!(inter_subject.items, 2);
        assert_eq!(inter_subject.pronoun, [counts(0, 0, 0), counts(1, 1, 0), counts(0, 1, 0)]);
        assert_eq!(inter_subject.antecedent.as_deref(), Some(&[counts(0, 0, 0), counts(2, 0, 0), counts(0, 1, 0)][..]));
        let pleonastic = &r.categories[9];
        assert_eq!((pleonastic.items, pleonastic.antecedent.is_none()), (1, true));
        assert_eq!(pleonastic.pronoun[2], counts(0, 0, 1));
        assert_eq!(r.categories[10].pronoun[0], counts(1, 0, 0));
        assert_eq!(r.total.items, 4);
        assert_eq!(r.total.pronoun, [counts(1, 0, 0), counts(1, 1, 0), counts(0, 1, 1)]);
        assert_eq!(r.total.antecedent.as_deref(), Some(&[counts(0, 0, 0), counts(2, 0, 0), counts(0, 1, 0)][..]));

        let table = r.table(&m);
        assert_eq!(table.columns.len(), 1 + 2 * 3 * 3);
        assert_eq!(table.columns[4].path, ["Pronoun", "A", "✓"]);
        let pleonastic_row = table.rows.iter().find(|row| row.label == "Pleonastic “it”").unwrap();
        assert_eq!(pleonastic_row.cells[9], Cell::Count(1), "B's ?");
        assert_eq!(pleonastic_row.cells[10], Cell::NotApplicable);
        assert_eq!(table.rows.last().unwrap().cells[0], Cell::Count(4));
        // A's yes on candidate 1 with every token selected is fine; without them it breaks rule 7.
        assert_eq!((r.with_conflicts, table.notes.len()), (0, 1));
        let mut broken = m.records.get(crate::model::CandidateId(1), AnnotatorId(1)).unwrap().clone();
        broken.selected.antecedent.clear();
        m.records.put(broken);
        let r = results(&m);
        assert_eq!(r.with_conflicts, 1);
        assert!(r.table(&m).notes[1].starts_with("1 of the records counted have conflicts"), "{:?}", r.table(&m).notes);
    }
}
