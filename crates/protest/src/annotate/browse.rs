//! The category browser's content: for one annotator, a row per category with its new, begun
//! (notes but no judgement), done and conflicting candidates, built once ([`browse`]) or kept up to date one change at a time
//! ([`BrowserRows`]), and the order a master shows its candidates in.

use crate::annotate::status::{Status, status_in, status_of};
use crate::model::{AnnotatorId, CandidateId, CorpusId, Master};
use std::collections::{BTreeSet, HashMap};

/// One row of the category browser: the candidates of a category by status, in display order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryRow {
    pub category: String,
    pub title: String,
    pub new: Vec<CandidateId>,
    /// Still to do, with notes ([`Status::Notes`]).
    pub notes: Vec<CandidateId>,
    pub done: Vec<CandidateId>,
    pub conflict: Vec<CandidateId>,
}

impl CategoryRow {
    fn empty(category: &crate::model::Category) -> CategoryRow {
        CategoryRow {
            category: category.name.clone(),
            title: category.title().to_owned(),
            new: Vec::new(),
            notes: Vec::new(),
            done: Vec::new(),
            conflict: Vec::new(),
        }
    }

    pub fn total(&self) -> usize {
        self.to_do_len() + self.done.len() + self.conflict.len()
    }

    /// How many are still to do: new, or with notes.
    pub fn to_do_len(&self) -> usize {
        self.new.len() + self.notes.len()
    }

    /// Every candidate of the row in display order.
    pub fn all(&self, order: &[CandidateId]) -> Vec<CandidateId> {
        in_order(order, [&self.new, &self.notes, &self.done, &self.conflict])
    }

    /// The candidates still to do (new, or with notes) in display order.
    pub fn to_do(&self, order: &[CandidateId]) -> Vec<CandidateId> {
        in_order(order, [&self.new, &self.notes])
    }

    fn list(&mut self, status: Status) -> &mut Vec<CandidateId> {
        match status {
            Status::New => &mut self.new,
            Status::Notes => &mut self.notes,
            Status::Done => &mut self.done,
            Status::Conflict => &mut self.conflict,
        }
    }
}

/// The members of these lists, in display order.
fn in_order<const N: usize>(order: &[CandidateId], lists: [&Vec<CandidateId>; N]) -> Vec<CandidateId> {
    let members: BTreeSet<_> = lists.into_iter().flatten().collect();
    order.iter().filter(|c| members.contains(c)).copied().collect()
}

/// The category browser for `annotator`: one row per category of the master (in its order), over
/// the candidates of `order` (the display order: example order for a master, the shuffled order
/// of a batch), optionally only those of one translation corpus.
pub fn browse(
    master: &Master,
    annotator: AnnotatorId,
    order: &[CandidateId],
    corpus: Option<CorpusId>,
) -> Vec<CategoryRow> {
    let mut rows: Vec<CategoryRow> = master.categories.iter().map(CategoryRow::empty).collect();
    for &id in order {
        let Some(candidate) = master.candidate(id) else { continue };
        if corpus.is_some_and(|c| c != candidate.corpus) {
            continue;
        }
        // One row per category, in master order.
        let Some(position) = master.category_position(candidate) else { continue };
        let category = &master.categories[position];
        rows[position].list(status_in(master, category, candidate, master.records.get(id, annotator))).push(id);
    }
    rows
}

/// The category browser kept up to date one change at a time. [`browse`] looks at every
/// candidate, which takes tens of milliseconds on a large master (docs/performance.md); after one
/// record changes, [`BrowserRows::update`] moves just that candidate.
#[derive(Debug, Clone)]
pub struct BrowserRows {
    annotator: AnnotatorId,
    /// Per candidate shown: its row and its place in the display order.
    places: HashMap<CandidateId, (usize, usize)>,
    rows: Vec<CategoryRow>,
}

impl BrowserRows {
    /// The browser of [`browse`], with the same arguments.
    pub fn new(master: &Master, annotator: AnnotatorId, order: &[CandidateId], corpus: Option<CorpusId>) -> Self {
        let rows = browse(master, annotator, order, corpus);
        let row_of: HashMap<CandidateId, usize> = rows
            .iter()
            .enumerate()
            .flat_map(|(r, row)| {
                row.new.iter().chain(&row.notes).chain(&row.done).chain(&row.conflict).map(move |&c| (c, r))
            })
            .collect();
        let places = order.iter().enumerate().filter_map(|(rank, c)| Some((*c, (*row_of.get(c)?, rank)))).collect();
        BrowserRows { annotator, places, rows }
    }

    pub fn rows(&self) -> &[CategoryRow] {
        &self.rows
    }

    /// How many of the candidates shown are annotated (done or kept with conflicts).
    pub fn annotated(&self) -> usize {
        self.rows.iter().map(|r| r.done.len() + r.conflict.len()).sum()
    }

    /// Files `candidate` under its current status, after its record changed.
    pub fn update(&mut self, master: &Master, candidate: CandidateId) {
        let Some(&(row, rank)) = self.places.get(&candidate) else { return };
        let row = &mut self.rows[row];
        for list in [&mut row.new, &mut row.notes, &mut row.done, &mut row.conflict] {
            list.retain(|&c| c != candidate);
        }
        let list = row.list(status_of(master, candidate, self.annotator));
        let places = &self.places;
        let at = list.partition_point(|c| places.get(c).is_some_and(|&(_, r)| r < rank));
        list.insert(at, candidate);
    }
}

/// Candidates in example order, and within an example in corpus order (researcher mode).
pub fn example_order(master: &Master) -> Vec<CandidateId> {
    let corpus_rank = |id| master.corpora.iter().position(|c| c.id == id).unwrap_or(usize::MAX);
    let mut ids: Vec<_> = master.candidates.iter().map(|c| (c.example, corpus_rank(c.corpus), c.id)).collect();
    ids.sort_unstable();
    ids.into_iter().map(|(_, _, id)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::conflicts::settle;
    use crate::annotate::edit::Edit;
    use crate::annotate::progress::progress;
    use crate::model::{Conflict, Judgement, Role};
    use crate::testing::{ANNA, bare_tiny as tiny, edit};

    #[test]
    fn browser_counts_by_status_and_corpus() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let done = edit(&m, 3, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        m.records.put(settle(&done, vec![]));
        let conflict = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        m.records.put(settle(&conflict, vec![Conflict::PronounYesWithoutTokens]));
        let order = example_order(&m);
        assert_eq!(order, (1..=6).map(CandidateId).collect::<Vec<_>>());
        let rows = browse(&m, ANNA, &order, None);
        assert_eq!(rows.len(), 13);
        let pleonastic = rows.iter().find(|r| r.category == "pleonastic_it").unwrap();
        assert_eq!(
            (pleonastic.new.len(), pleonastic.done.clone(), pleonastic.conflict.clone()),
            (0, vec![CandidateId(3)], vec![CandidateId(4)])
        );
        assert_eq!(pleonastic.all(&order), vec![CandidateId(3), CandidateId(4)]);
        // Only the MT system's candidates; another annotator sees everything as new.
        let mt = browse(&m, ANNA, &order, Some(CorpusId(2)));
        assert_eq!(mt.iter().map(CategoryRow::total).sum::<usize>(), 3);
        let other = browse(&m, AnnotatorId(2), &order, None);
        assert_eq!(other.iter().map(|r| r.new.len()).sum::<usize>(), 6);
        // Remarks alone: still to do, with notes, and among what Enter opens.
        let noted = edit(&m, 6, None, Edit::Remarks("come back later".into())).unwrap();
        m.records.put(settle(&noted, vec![]));
        let rows = browse(&m, ANNA, &order, None);
        let you = rows.iter().find(|r| r.notes == [CandidateId(6)]).unwrap();
        assert_eq!(
            (you.new.clone(), you.to_do_len(), you.to_do(&order)),
            (vec![CandidateId(5)], 2, vec![CandidateId(5), CandidateId(6)])
        );
        let mut browser = BrowserRows::new(&m, ANNA, &order, None);
        assert_eq!(browser.annotated(), 2, "done and with conflicts, not with notes");
        m.records.remove(CandidateId(6), ANNA);
        browser.update(&m, CandidateId(6));
        assert_eq!(browser.rows(), browse(&m, ANNA, &order, None).as_slice());
    }

    #[test]
    fn the_browser_follows_changes_one_candidate_at_a_time() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let order: Vec<_> = example_order(&m).into_iter().rev().collect();
        let mut browser = BrowserRows::new(&m, ANNA, &order, None);
        assert_eq!(browser.rows(), browse(&m, ANNA, &order, None).as_slice());
        let changes = [
            (3, Some(vec![])),
            (4, Some(vec![Conflict::PronounYesWithoutTokens])),
            (6, Some(vec![])),
            (3, None),
            (4, Some(vec![])),
        ];
        for (c, outcome) in changes {
            match outcome {
                Some(conflicts) => {
                    let r = edit(&m, c, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
                    m.records.put(settle(&r, conflicts));
                }
                None => {
                    m.records.remove(CandidateId(c), ANNA);
                }
            }
            browser.update(&m, CandidateId(c));
            assert_eq!(browser.rows(), browse(&m, ANNA, &order, None).as_slice(), "after changing {c}");
            assert_eq!(browser.annotated(), progress(&m, ANNA, &order), "after changing {c}");
        }
        // Candidates outside the browser (another corpus) are ignored.
        let mut mt_only = BrowserRows::new(&m, ANNA, &order, Some(CorpusId(2)));
        mt_only.update(&m, CandidateId(3));
        assert_eq!(mt_only.rows(), browse(&m, ANNA, &order, Some(CorpusId(2))).as_slice());
    }
}
