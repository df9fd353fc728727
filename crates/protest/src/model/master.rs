//! The master: a whole test suite with its translations, annotators and annotations.

use super::auto_eval::AutoEval;
use super::candidate::Candidate;
use super::corpus::{Corpus, CorpusRole};
use super::ids::{AnnotatorId, CandidateId, CorpusId, ExampleNo};
use super::record::Record;
use super::suite::{Category, Example};
use super::tasks::TaskSet;
use chrono::{DateTime, Utc};
use rustc_hash::FxHashMap as HashMap;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// The `format` field of every master file.
pub const MASTER_FORMAT: &str = "protest-master";
/// The master format version this build writes (and the newest it reads).
pub const MASTER_VERSION: u32 = 2;
/// The master format versions this build reads: version 1 is version 2 without its optional
/// fields, and is written back as version 2.
pub const MASTER_VERSIONS_READ: &[u32] = &[1, 2];

/// Source and target language codes (`en`, `fr`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Languages {
    pub source: String,
    pub target: String,
}

impl Default for Languages {
    fn default() -> Self {
        Languages { source: "en".into(), target: "fr".into() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Run the conflict checks (docs/domain.md, "Conflict rules") (for this master and every batch made from it).
    #[serde(default = "yes")]
    pub conflict_checks: bool,
}

fn yes() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Self {
        Settings { conflict_checks: true }
    }
}

/// A named person who annotates. The researcher ([`AnnotatorId::RESEARCHER`]) is implicit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotator {
    pub id: AnnotatorId,
    pub name: String,
}

/// The records of a master, at most one per (candidate, annotator), kept in that order so that
/// files are deterministic and one candidate's records are a contiguous range.
#[derive(Debug, Clone, Default)]
pub struct Records(BTreeMap<(CandidateId, AnnotatorId), Record>, Version);

/// Which content a [`Records`] holds: every change, and every list made afresh, takes a new one,
/// and a copy keeps it. Two equal versions hold the same records, so whoever wants to know
/// whether an operation changed them compares versions rather than keeping a copy of them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version(u64);

impl Default for Version {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Version(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl PartialEq for Records {
    fn eq(&self, other: &Self) -> bool {
        self.1 == other.1 || self.0 == other.0
    }
}

impl Eq for Records {}

impl Records {
    /// Which content this is: the same version, the same records (not the other way round).
    pub fn version(&self) -> Version {
        self.1
    }

    pub fn get(&self, candidate: CandidateId, annotator: AnnotatorId) -> Option<&Record> {
        self.0.get(&(candidate, annotator))
    }

    /// Inserts or replaces the record of its (candidate, annotator); returns the old one.
    pub fn put(&mut self, record: Record) -> Option<Record> {
        self.1 = Version::default();
        self.0.insert((record.candidate, record.annotator), record)
    }

    pub fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Option<Record> {
        self.1 = Version::default();
        self.0.remove(&(candidate, annotator))
    }

    /// All annotators' records of one candidate, by annotator id.
    pub fn of_candidate(&self, candidate: CandidateId) -> impl Iterator<Item = &Record> + Clone {
        // An open-ended range descends the tree once; a closed one finds both ends (reports ask
        // this of every candidate).
        self.0.range((candidate, AnnotatorId(0))..).map_while(move |(&(c, _), r)| (c == candidate).then_some(r))
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Record> {
        self.0.values()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<Record> for Records {
    fn from_iter<I: IntoIterator<Item = Record>>(iter: I) -> Self {
        Records(iter.into_iter().map(|r| ((r.candidate, r.annotator), r)).collect(), Version::default())
    }
}

impl Serialize for Records {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.values())
    }
}

impl<'de> Deserialize<'de> for Records {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct List;
        impl<'de> Visitor<'de> for List {
            type Value = Records;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of annotation records")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Records, A::Error> {
                let mut records = BTreeMap::new();
                while let Some(r) = seq.next_element::<Record>()? {
                    let key = (r.candidate, r.annotator);
                    if records.insert(key, r).is_some() {
                        return Err(de::Error::custom(format!(
                            "two records for candidate {} by annotator {}",
                            key.0, key.1
                        )));
                    }
                }
                Ok(Records(records, Version::default()))
            }
        }
        deserializer.deserialize_seq(List)
    }
}

/// Lookup tables rebuilt from the lists; never stored.
#[derive(Debug, Clone, Default)]
/// Hashed with rustc's fast hash: the keys are the master's own ids, and every record checked,
/// counted or reported looks its candidate up here (millions of look-ups at 100×).
struct Index {
    examples: HashMap<ExampleNo, usize>,
    candidates: HashMap<CandidateId, usize>,
    by_example: HashMap<ExampleNo, Vec<usize>>,
    categories: HashMap<String, usize>,
    /// Per example (by position), the position of its category: reports and validation ask for
    /// the category of every candidate, and hashing its name each time showed.
    example_categories: Vec<Option<usize>>,
}

/// A whole test suite: corpora, examples, candidates, annotators, records and task sets.
///
/// The lists are public so that importers can build masters; whoever changes categories,
/// examples or candidates must call [`Master::reindex`] afterwards.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Master {
    pub format: String,
    pub version: u32,
    /// Identifies the master, so a batch can be checked to belong to it.
    pub id: String,
    #[serde(default)]
    pub description: String,
    pub created: DateTime<Utc>,
    /// Incremented by every full save; ties the journal beside the file to this state.
    #[serde(default)]
    pub revision: u64,
    #[serde(default)]
    pub languages: Languages,
    #[serde(default)]
    pub settings: Settings,
    /// First sentence of each document, ascending, starting at 0.
    pub documents: Vec<u32>,
    pub corpora: Vec<Corpus>,
    pub categories: Vec<Category>,
    pub examples: Vec<Example>,
    pub candidates: Vec<Candidate>,
    #[serde(default)]
    pub annotators: Vec<Annotator>,
    #[serde(default)]
    pub records: Records,
    #[serde(default)]
    pub task_sets: Vec<TaskSet>,
    /// Results of the automatic reference match; left out of the file until it has run.
    #[serde(default, skip_serializing_if = "AutoEval::is_empty")]
    pub auto_eval: AutoEval,
    #[serde(skip)]
    index: Index,
}

impl PartialEq for Master {
    fn eq(&self, other: &Self) -> bool {
        // The index is derived from the rest.
        self.format == other.format
            && self.version == other.version
            && self.id == other.id
            && self.description == other.description
            && self.created == other.created
            && self.revision == other.revision
            && self.languages == other.languages
            && self.settings == other.settings
            && self.documents == other.documents
            && self.corpora == other.corpora
            && self.categories == other.categories
            && self.examples == other.examples
            && self.candidates == other.candidates
            && self.annotators == other.annotators
            && self.records == other.records
            && self.task_sets == other.task_sets
            && self.auto_eval == other.auto_eval
    }
}

impl Master {
    /// An empty master with a fresh id.
    pub fn new(id: String, created: DateTime<Utc>) -> Self {
        Master {
            format: MASTER_FORMAT.into(),
            version: MASTER_VERSION,
            id,
            description: String::new(),
            created,
            revision: 0,
            languages: Languages::default(),
            settings: Settings::default(),
            documents: Vec::new(),
            corpora: Vec::new(),
            categories: Vec::new(),
            examples: Vec::new(),
            candidates: Vec::new(),
            annotators: Vec::new(),
            records: Records::default(),
            task_sets: Vec::new(),
            auto_eval: AutoEval::default(),
            index: Index::default(),
        }
    }

    /// The task set with this id.
    pub fn task_set(&self, id: u32) -> Option<&TaskSet> {
        self.task_sets.iter().find(|t| t.id == id)
    }

    /// The task set with this id, to change.
    pub fn task_set_mut(&mut self, id: u32) -> Option<&mut TaskSet> {
        self.task_sets.iter_mut().find(|t| t.id == id)
    }

    /// Rebuilds the lookup tables after the lists changed.
    pub fn reindex(&mut self) {
        let categories: HashMap<String, usize> =
            self.categories.iter().enumerate().map(|(i, c)| (c.name.clone(), i)).collect();
        let mut index = Index {
            examples: self.examples.iter().enumerate().map(|(i, e)| (e.no, i)).collect(),
            candidates: self.candidates.iter().enumerate().map(|(i, c)| (c.id, i)).collect(),
            by_example: HashMap::default(),
            example_categories: self.examples.iter().map(|e| categories.get(&e.category).copied()).collect(),
            categories,
        };
        for (i, c) in self.candidates.iter().enumerate() {
            index.by_example.entry(c.example).or_default().push(i);
        }
        self.index = index;
    }

    pub fn source(&self) -> Option<&Corpus> {
        self.corpora.iter().find(|c| c.role == CorpusRole::Source)
    }

    pub fn reference(&self) -> Option<&Corpus> {
        self.corpora.iter().find(|c| c.role == CorpusRole::Reference)
    }

    pub fn translations(&self) -> impl Iterator<Item = &Corpus> {
        self.corpora.iter().filter(|c| c.role.is_translation())
    }

    pub fn corpus(&self, id: CorpusId) -> Option<&Corpus> {
        self.corpora.iter().find(|c| c.id == id)
    }

    pub fn category(&self, name: &str) -> Option<&Category> {
        self.index.categories.get(name).map(|&i| &self.categories[i])
    }

    pub fn example(&self, no: ExampleNo) -> Option<&Example> {
        self.index.examples.get(&no).map(|&i| &self.examples[i])
    }

    pub fn candidate(&self, id: CandidateId) -> Option<&Candidate> {
        self.index.candidates.get(&id).map(|&i| &self.candidates[i])
    }

    /// Where the candidate is in `candidates`.
    pub fn candidate_position(&self, id: CandidateId) -> Option<usize> {
        self.index.candidates.get(&id).copied()
    }

    /// Every translation of one example, in the order of the candidate list.
    pub fn candidates_of(&self, example: ExampleNo) -> impl Iterator<Item = &Candidate> {
        self.index.by_example.get(&example).into_iter().flatten().map(|&i| &self.candidates[i])
    }

    /// A candidate's example and category, the two things nearly every caller needs with it.
    pub fn example_of(&self, candidate: &Candidate) -> Option<(&Example, &Category)> {
        let (example, category) = self.example_and_category(candidate)?;
        Some((&self.examples[example], &self.categories[category]))
    }

    /// The position in [`Master::categories`] of a candidate's category (for tallies per category).
    pub fn category_position(&self, candidate: &Candidate) -> Option<usize> {
        self.example_and_category(candidate).map(|(_, category)| category)
    }

    /// The positions of a candidate's example and of its category.
    fn example_and_category(&self, candidate: &Candidate) -> Option<(usize, usize)> {
        let &example = self.index.examples.get(&candidate.example)?;
        Some((example, self.index.example_categories.get(example).copied().flatten()?))
    }

    pub fn annotator(&self, id: AnnotatorId) -> Option<&Annotator> {
        self.annotators.iter().find(|a| a.id == id)
    }

    /// The name to show for an annotator id.
    pub fn annotator_name(&self, id: AnnotatorId) -> String {
        match self.annotator(id) {
            _ if id.is_researcher() => "Researcher".into(),
            Some(a) => a.name.clone(),
            None => format!("annotator {id}"),
        }
    }

    /// Number of sentences (every corpus has the same number).
    pub fn sentence_count(&self) -> u32 {
        self.corpora.first().map_or(0, |c| c.sentences.len() as u32)
    }

    /// The sentence range of the document that contains `sentence`.
    pub fn document_of(&self, sentence: u32) -> Range<u32> {
        let after = self.documents.partition_point(|&start| start <= sentence);
        let start = if after == 0 { 0 } else { self.documents[after - 1] };
        let end = self.documents.get(after).copied().unwrap_or_else(|| self.sentence_count());
        start..end
    }

    /// The next free id above every id in use; `None` when the highest in use is the largest
    /// there can be (a file may hold any id: the next is counted, not wrapped round to a used one).
    pub fn next_candidate_id(&self) -> Option<CandidateId> {
        next_id(self.candidates.iter().map(|c| c.id.0), 1).map(CandidateId)
    }

    pub fn next_corpus_id(&self) -> Option<CorpusId> {
        next_id(self.corpora.iter().map(|c| c.id.0), 0).map(CorpusId)
    }

    /// Task set ids start at 1.
    pub fn next_task_set_id(&self) -> Option<u32> {
        next_id(self.task_sets.iter().map(|t| t.id), 1)
    }

    /// Annotator ids start at 1: 0 is the researcher.
    pub fn next_annotator_id(&self) -> Option<AnnotatorId> {
        next_id(self.annotators.iter().map(|a| a.id.0), 1).map(AnnotatorId)
    }
}

fn next_id(used: impl Iterator<Item = u32>, first: u32) -> Option<u32> {
    used.max().map_or(Some(first), |highest| highest.checked_add(1).map(|next| next.max(first)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;

    #[test]
    fn a_version_names_the_records_a_copy_keeps_and_a_change_leaves() {
        let record = |c| Record::new(CandidateId(c), AnnotatorId(2), DateTime::UNIX_EPOCH);
        let mut records: Records = [record(1), record(2)].into_iter().collect();
        let copy = records.clone();
        assert_eq!(copy.version(), records.version());
        records.put(record(3));
        assert_ne!(records.version(), copy.version());
        assert_ne!(records, copy);
        records.remove(CandidateId(3), AnnotatorId(2));
        // The same records again under a new version: still equal.
        assert_ne!(records.version(), copy.version());
        assert_eq!(records, copy);
        let fresh: Records = [record(1), record(2)].into_iter().collect();
        assert_ne!(fresh.version(), copy.version());
    }
}
