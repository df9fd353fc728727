//! What `protest check` prints about a valid master: enough to see at a glance that nothing was
//! lost in an import, a conversion or a merge.

use crate::model::{AnnotatorId, CorpusRole, Master};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusLine {
    pub name: String,
    pub role: CorpusRole,
    pub sentences: usize,
    pub aligned: bool,
    pub candidates: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryLine {
    pub name: String,
    pub label: String,
    pub anaphoric: bool,
    pub examples: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotatorLine {
    pub id: AnnotatorId,
    pub name: String,
    pub records: usize,
}

/// Counts of everything in a master.
#[derive(Debug, Clone, PartialEq, Eq)]
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
        let records_by = |id: AnnotatorId| master.records.iter().filter(|r| r.annotator == id).count();
        let mut annotators: Vec<AnnotatorLine> = master
            .annotators
            .iter()
            .map(|a| AnnotatorLine { id: a.id, name: a.name.clone(), records: records_by(a.id) })
            .collect();
        let researcher = records_by(AnnotatorId::RESEARCHER);
        if researcher > 0 {
            annotators.insert(
                0,
                AnnotatorLine {
                    id: AnnotatorId::RESEARCHER,
                    name: master.annotator_name(AnnotatorId::RESEARCHER),
                    records: researcher,
                },
            );
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
        writeln!(f, "Annotators: {}", self.annotators.iter().filter(|a| !a.id.is_researcher()).count())?;
        for a in &self.annotators {
            writeln!(f, "  {} ({} records)", a.name, a.records)?;
        }
        writeln!(f, "Records: {}", self.records)?;
        writeln!(f, "Task sets: {}", self.task_sets)
    }
}
