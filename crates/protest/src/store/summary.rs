//! What `protest check` prints about a valid master: enough to see at a glance that nothing was
//! lost in an import, a conversion or a merge.

use crate::annotate::status::{Status, Statuses};
use crate::model::{AnnotatorId, CorpusRole, Master};
use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CorpusLine {
    pub name: String,
    pub role: CorpusRole,
    pub sentences: usize,
    pub aligned: bool,
    pub candidates: usize,
    /// Cut into sentences from document-level output: how many sentences were not one line as
    /// given, and how many have uncertain boundaries (format version 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resegmented: Option<Resegmented>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Resegmented {
    pub inferred: usize,
    pub uncertain: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CategoryLine {
    pub name: String,
    pub label: String,
    pub anaphoric: bool,
    pub examples: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnnotatorLine {
    pub id: AnnotatorId,
    pub name: String,
    pub records: usize,
    /// Of those records, by [`crate::annotate::status::status`]: done, with conflicts (kept, or
    /// breaking a rule unchecked), and still to do with notes (no judgement). The rest are blank.
    pub done: usize,
    pub conflict: usize,
    pub notes: usize,
    /// The same counts for each category the annotator has records in, in master order.
    pub categories: Vec<CategoryCounts>,
}

/// One annotator's records in one category, by status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CategoryCounts {
    pub category: String,
    pub records: usize,
    pub done: usize,
    pub conflict: usize,
    pub notes: usize,
}

impl CategoryCounts {
    fn add(&mut self, status: Status) {
        self.records += 1;
        match status {
            Status::New => {}
            Status::Notes => self.notes += 1,
            Status::Done => self.done += 1,
            Status::Conflict => self.conflict += 1,
        }
    }
}

impl AnnotatorLine {
    fn of(master: &Master, id: AnnotatorId, statuses: &[Filed]) -> AnnotatorLine {
        let counts = |category: &str| CategoryCounts {
            category: category.to_owned(),
            records: 0,
            done: 0,
            conflict: 0,
            notes: 0,
        };
        let mut all = counts("");
        let mut by_category: Vec<CategoryCounts> = master.categories.iter().map(|c| counts(&c.name)).collect();
        for &(_, category, status) in statuses.iter().filter(|(annotator, ..)| *annotator == id) {
            all.add(status);
            if let Some(c) = category.and_then(|i| by_category.get_mut(i)) {
                c.add(status);
            }
        }
        AnnotatorLine {
            id,
            name: master.annotator_name(id),
            records: all.records,
            done: all.done,
            conflict: all.conflict,
            notes: all.notes,
            categories: by_category.into_iter().filter(|c| c.records > 0).collect(),
        }
    }
}

/// A record's annotator, the position of its candidate's category and its status.
type Filed = (AnnotatorId, Option<usize>, Status);

/// [`Filed`] for every record, with its status from `statuses`, on every core (400,000 records at
/// 100× PROTEST).
fn file_records(master: &Master, statuses: &Statuses) -> Vec<Filed> {
    use rayon::prelude::*;
    let records: Vec<_> = master.records.iter().collect();
    assert_eq!(records.len(), statuses.as_slice().len(), "the statuses of another master's records");
    records
        .into_par_iter()
        .zip(statuses.as_slice())
        .map(|(r, &status)| {
            let category = master.candidate(r.candidate).and_then(|c| master.category_position(c));
            (r.annotator, category, status)
        })
        .collect()
}

/// Counts of everything in a master.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub id: String,
    pub version: u32,
    pub corpora: Vec<CorpusLine>,
    pub documents: usize,
    pub sentences: u32,
    pub examples: usize,
    pub categories: Vec<CategoryLine>,
    pub candidates: usize,
    pub annotators: Vec<AnnotatorLine>,
    pub records: usize,
    pub task_sets: usize,
}

impl Summary {
    pub fn of(master: &Master) -> Summary {
        Summary::with_statuses(master, &Statuses::of(master))
    }

    /// [`Summary::of`] with the statuses of the master's records at hand (as loading derived
    /// them: [`crate::store::load_master_with_statuses`]), not derived a second time.
    pub fn with_statuses(master: &Master, statuses: &Statuses) -> Summary {
        let filed = file_records(master, statuses);
        let mut annotators: Vec<AnnotatorLine> =
            master.annotators.iter().map(|a| AnnotatorLine::of(master, a.id, &filed)).collect();
        let researcher = AnnotatorLine::of(master, AnnotatorId::RESEARCHER, &filed);
        if researcher.records > 0 {
            annotators.insert(0, researcher);
        }
        Summary {
            id: master.id.clone(),
            version: master.version,
            corpora: master
                .corpora
                .iter()
                .map(|c| CorpusLine {
                    name: c.name.clone(),
                    role: c.role,
                    sentences: c.sentences.len(),
                    aligned: c.alignment.is_some(),
                    candidates: master.candidates.iter().filter(|k| k.corpus == c.id).count(),
                    resegmented: c.segmentation.as_ref().map(|s| Resegmented {
                        inferred: c.sentences.len() - s.counts(c.sentences.len()).0[0],
                        uncertain: (0..c.sentences.len() as u32).filter(|&n| s.is_uncertain(n)).count(),
                    }),
                })
                .collect(),
            documents: master.documents.len(),
            sentences: master.sentence_count(),
            examples: master.examples.len(),
            categories: master
                .categories
                .iter()
                .map(|c| CategoryLine {
                    name: c.name.clone(),
                    label: c.title().to_string(),
                    anaphoric: c.anaphoric,
                    examples: master.examples.iter().filter(|e| e.category == c.name).count(),
                })
                .collect(),
            candidates: master.candidates.len(),
            annotators,
            records: master.records.len(),
            task_sets: master.task_sets.len(),
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "PROTEST master, format version {}, id {}", self.version, self.id)?;
        writeln!(f, "Corpora: {}", self.corpora.len())?;
        let width = self.corpora.iter().map(|c| c.name.chars().count()).max().unwrap_or(0);
        for c in &self.corpora {
            let role = match c.role {
                CorpusRole::Source => "source",
                CorpusRole::Reference => "reference",
                CorpusRole::System => "MT system",
            };
            write!(f, "  {:width$}  {role:<9}  {} sentences", c.name, c.sentences)?;
            if c.role.is_translation() {
                let aligned = if c.aligned { "word-aligned" } else { "aligned positions only" };
                write!(f, ", {aligned}, {} candidates", c.candidates)?;
            }
            if let Some(r) = c.resegmented {
                write!(f, ", re-segmented ({} inferred, {} uncertain)", r.inferred, r.uncertain)?;
            }
            writeln!(f)?;
        }
        writeln!(f, "Documents: {}", self.documents)?;
        writeln!(f, "Sentences: {}", self.sentences)?;
        writeln!(f, "Examples: {} in {} categories", self.examples, self.categories.len())?;
        let width = self.categories.iter().map(|c| c.name.chars().count()).max().unwrap_or(0);
        for c in &self.categories {
            let kind = if c.anaphoric { "anaphoric" } else { "" };
            writeln!(f, "  {:width$}  {:>4}  {kind:<9}  {}", c.name, c.examples, c.label)?;
        }
        writeln!(f, "Candidates: {}", self.candidates)?;
        let (researcher, annotators): (Vec<_>, Vec<_>) = self.annotators.iter().partition(|a| a.id.is_researcher());
        writeln!(f, "Annotators: {}", annotators.len())?;
        for a in annotators {
            writeln!(f, "  {}", a)?;
        }
        for a in researcher {
            // Not one of the annotators counted above: the master's owner, with records of their own.
            writeln!(f, "{a}")?;
        }
        writeln!(f, "Records: {}", self.records)?;
        writeln!(f, "Task sets: {}", self.task_sets)
    }
}

impl fmt::Display for AnnotatorLine {
    /// `Anna (75 records: 72 done, 2 with conflicts, 1 to do (notes only))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.name, count(self.records, "record"))?;
        let blank = self.records - self.done - self.conflict - self.notes;
        let parts: Vec<String> = [
            (self.done, "done"),
            (self.conflict, "with conflicts"),
            (self.notes, "to do (notes only)"),
            (blank, "blank"),
        ]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if !parts.is_empty() {
            write!(f, ": {}", parts.join(", "))?;
        }
        f.write_str(")")
    }
}

/// `1 record`, `2 records`.
pub fn count(n: usize, what: &str) -> String {
    count_as(n, what, &format!("{what}s"))
}

/// [`count`] with its own plural: `1 corpus`, `2 corpora`; `1 record is`, `2 records are`.
pub fn count_as(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ConflictStatus, Judgement};
    use crate::testing::{judge, tiny};

    #[test]
    fn counts_say_one_or_many() {
        assert_eq!((count(1, "record"), count(0, "record")), ("1 record".into(), "0 records".into()));
        assert_eq!(
            (count_as(1, "corpus", "corpora"), count_as(2, "corpus", "corpora")),
            ("1 corpus".into(), "2 corpora".into())
        );
    }

    #[test]
    fn annotators_are_counted_as_listed_with_their_records_by_status() {
        let mut m = tiny();
        judge(&mut m, 3, 1, Judgement::No, Judgement::Unset);
        // Pronoun yes with every aligned token selected, then one without any: rule 4, stored "clear".
        judge(&mut m, 4, 1, Judgement::Yes, Judgement::Unset);
        let mut broken = m.records.get(crate::model::CandidateId(4), AnnotatorId(1)).unwrap().clone();
        broken.selected = Default::default();
        broken.conflict = ConflictStatus::Clear;
        m.records.put(broken);
        judge(&mut m, 1, 0, Judgement::No, Judgement::No);
        // Remarks alone: not judged, still to do.
        let mut noted = crate::model::Record::new(crate::model::CandidateId(5), AnnotatorId(2), m.created);
        noted.remarks = "come back later".into();
        m.records.put(noted);
        let text = Summary::of(&m).to_string();
        assert!(
            text.contains(
                "Annotators: 2\n  A (2 records: 1 done, 1 with conflicts)\n  B (1 record: 1 to do (notes only))\n"
            ),
            "{text}"
        );
        assert!(text.contains("\nResearcher (1 record: 1 done)\nRecords: 4\n"), "{text}");
    }
}
