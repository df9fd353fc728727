//! Batch files (`protest-batch`, version 2; see docs/batch-format.md): what one annotator needs
//! for the candidates a task set gives them, and their records.
//!
//! In memory a batch is a [`Master`] restricted to those candidates, so every library function
//! (context windows, the annotation edits, conflict checks, the category browser, the store with
//! its journal) works on it unchanged. On disk it keeps only the sentences the context windows
//! need, and nothing that tells which system produced a translation: translation corpora are
//! "Translation A", "Translation B"… in an order drawn per batch, all with the role `system`, and
//! candidates are numbered 1, 2, … in the batch's shuffled presentation order. The mapping back to
//! the master is recomputed from the master's task set when the batch is merged (see
//! [`export::layout`]).

use crate::annotate::{browse, status};
use crate::error::{Error, Place, Result};
use crate::model::{
    Annotator, Candidate, CandidateId, Category, Corpus, CorpusId, CorpusRole, Dispute, Example, Languages, Master,
    Purpose, Records, Sentences, Settings,
};
use crate::store::disk::Os;
use crate::store::{Document, Store};
use crate::store::{atomic, files, journal, json, master_file};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The `format` field of every batch file.
pub const BATCH_FORMAT: &str = "protest-batch";
/// The batch format version this build writes (and the newest it reads). Version 2 adds the
/// records' active time (`active_ms`); version 1 is read as well.
pub const BATCH_VERSION: u32 = 2;
/// The batch format versions this build reads.
pub const BATCH_VERSIONS_READ: &[u32] = &[1, 2];

/// One annotator's share of a task set, with their records.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// Identifies the batch file (its journal is tied to it).
    pub id: String,
    /// The id of the master the batch was exported from; it merges only into that master.
    pub master_id: String,
    pub created: DateTime<Utc>,
    pub task_set: u32,
    pub purpose: Purpose,
    /// In an adjudication batch, the questions in dispute, by batch candidate id, with the other
    /// annotators' answers (no names): what the adjudicator is asked to settle.
    pub disputes: Vec<Dispute>,
    /// The restricted master: its only annotator is the batch's (made by `crate::batches::export`).
    pub(crate) content: Master,
}

impl Batch {
    /// The annotator the batch was made for.
    pub fn annotator(&self) -> &Annotator {
        &self.content.annotators[0]
    }

    /// The restricted master the batch holds.
    pub fn content(&self) -> &Master {
        &self.content
    }

    /// The candidates in the order the annotator is meant to see them (ids 1, 2, …).
    pub fn order(&self) -> Vec<CandidateId> {
        self.content.candidates.iter().map(|c| c.id).collect()
    }

    /// The questions of `candidate` in dispute (none outside an adjudication batch).
    pub fn disputes_of(&self, candidate: CandidateId) -> Vec<Dispute> {
        self.disputes.iter().filter(|d| d.candidate == candidate).cloned().collect()
    }

    /// What `protest check` shows about the batch.
    pub fn summary(&self) -> Summary<'_> {
        Summary(self)
    }
}

impl Document for Batch {
    fn load(path: &Path) -> Result<Self> {
        load(path)
    }

    fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write(self, out)
    }

    fn file_id(&self) -> &str {
        &self.id
    }

    fn master(&self) -> &Master {
        &self.content
    }

    fn master_mut(&mut self) -> &mut Master {
        &mut self.content
    }
}

/// The file as stored: the restricted master with sparse sentences.
#[derive(Debug, Serialize, Deserialize)]
struct BatchFile {
    format: String,
    version: u32,
    id: String,
    master: String,
    annotator: Annotator,
    created: DateTime<Utc>,
    task_set: u32,
    #[serde(default)]
    purpose: Purpose,
    #[serde(default)]
    revision: u64,
    #[serde(default)]
    settings: Settings,
    #[serde(default)]
    languages: Languages,
    documents: Vec<u32>,
    /// Sentences of every corpus of the master, including those not kept.
    sentence_count: u32,
    corpora: Vec<SparseCorpus>,
    categories: Vec<Category>,
    examples: Vec<Example>,
    /// In presentation order, numbered from 1.
    candidates: Vec<Candidate>,
    #[serde(default)]
    records: Records,
    /// Adjudication batches only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    disputes: Vec<Dispute>,
}

/// A corpus with only the sentences the batch needs, as `[sentence number, text]` pairs.
#[derive(Debug, Serialize, Deserialize)]
struct SparseCorpus {
    id: CorpusId,
    name: String,
    role: CorpusRole,
    sentences: Vec<(u32, String)>,
}

/// Whether these bytes are a batch file rather than a master (or anything else): for callers
/// that accept either, before they load it properly. Reads no further than the `format` field
/// (our files' first), so asking about a master of hundreds of megabytes costs nothing.
pub fn is_batch(bytes: &[u8]) -> bool {
    json::top_level::<String, _>(&mut serde_json::Deserializer::from_slice(json::without_bom(bytes)), "format")
        .is_some_and(|f| f == BATCH_FORMAT)
}

/// [`is_batch`] for a file, reading only its beginning. False for a file that cannot be read
/// (or is not a regular file: a named pipe is not waited on).
pub fn is_batch_file(path: &Path) -> bool {
    let Some(reader) = json::beginning(path) else { return false };
    let mut de = serde_json::Deserializer::from_reader(reader);
    json::top_level::<String, _>(&mut de, "format").is_some_and(|f| f == BATCH_FORMAT)
}

/// The batch files of master `master_id` in a folder (the `.json` files whose header says so),
/// sorted by name: for a merge dialog to offer. Unreadable files are skipped.
pub fn batches_in(dir: &Path, master_id: &str) -> Vec<std::path::PathBuf> {
    #[derive(Deserialize)]
    struct Header {
        format: Option<String>,
        master: Option<String>,
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut found: Vec<_> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| {
            let header = files::read(p).ok().and_then(|b| serde_json::from_slice::<Header>(json::without_bom(&b)).ok());
            header.is_some_and(|h| h.format.as_deref() == Some(BATCH_FORMAT) && h.master.as_deref() == Some(master_id))
        })
        .collect();
    found.sort();
    found
}

/// Reads and validates a batch file (without any journal beside it).
pub fn load(path: &Path) -> Result<Batch> {
    let bytes = files::read(path).map_err(|e| Error::io(path, e))?;
    from_bytes(path, &bytes)
}

/// The batch as its annotator last left it: the file plus any changes still in its journal
/// (a window that has it open, or a session that ended without closing). When nobody has it
/// open, the journal is folded into the file on the way, as closing it in PROTEST would do.
pub fn load_current(path: &Path) -> Result<Batch> {
    let batch = load(path)?;
    if !journal::path_for(path).exists() {
        return Ok(batch);
    }
    let (store, opened) = Store::<Batch>::open(path)?;
    let batch = store.doc().clone();
    if opened.read_only.is_none() {
        store.close()?;
    }
    Ok(batch)
}

/// Parses and validates batch bytes; `path` is only used in messages.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Batch> {
    let bytes = json::without_bom(bytes);
    let file: BatchFile =
        json::read(path, bytes, BATCH_FORMAT, BATCH_VERSIONS_READ, |f: &BatchFile| (f.format.as_str(), f.version))?;
    whose_and_in_order(path, &file)?;
    let at = |json_path: String, message: String| at_json(path, json_path, message);
    let count = file.sentence_count as usize;
    let mut corpora = Vec::with_capacity(file.corpora.len());
    for (ci, c) in file.corpora.into_iter().enumerate() {
        let number = |si: usize| c.sentences[si].0;
        let misplaced =
            (0..c.sentences.len()).find(|&si| number(si) as usize >= count || si > 0 && number(si) <= number(si - 1));
        if let Some(si) = misplaced {
            return Err(at(
                format!("corpora[{ci}].sentences[{si}]"),
                format!("sentence number {} must be below {count} and above the one before", number(si)),
            ));
        }
        // Only the kept sentences take room: the count is the master's, a number the file can
        // only claim.
        let sentences = Sentences::kept(count, c.sentences);
        corpora.push(Corpus {
            id: c.id,
            name: c.name,
            role: c.role,
            sentences,
            alignment: None,
            segmentation: None,
            label: None,
            link_origins: None,
        });
    }
    let mut content = Master::new(file.master.clone(), file.created);
    content.revision = file.revision;
    content.settings = file.settings;
    content.languages = file.languages;
    content.documents = file.documents;
    content.corpora = corpora;
    content.categories = file.categories;
    content.examples = file.examples;
    content.candidates = file.candidates;
    content.annotators = vec![file.annotator];
    content.records = file.records;
    content.reindex();
    master_file::check(path, &content)?;
    // Derived state is derived: a stored `clear` that breaks a rule is not trusted.
    status::rederive_all(&mut content);
    Ok(Batch {
        id: file.id,
        master_id: file.master,
        created: file.created,
        task_set: file.task_set,
        purpose: file.purpose,
        disputes: file.disputes,
        content,
    })
}

/// A problem at `json_path` of the batch file at `path`.
fn at_json(path: &Path, json_path: String, message: String) -> Error {
    Error::invalid(path, Some(Place::Json { path: json_path, line: None }), message)
}

/// A batch is one annotator's (not the researcher's), numbers its candidates 1, 2, … in order,
/// holds that annotator's records only and disputes over its own candidates.
fn whose_and_in_order(path: &Path, file: &BatchFile) -> Result<()> {
    let at = |json_path: String, message: String| at_json(path, json_path, message);
    if file.annotator.id.is_researcher() {
        return Err(at("annotator.id".into(), "a batch belongs to an annotator; id 0 is the researcher".into()));
    }
    for (i, c) in file.candidates.iter().enumerate() {
        if c.id.0 as usize != i + 1 {
            return Err(at(
                format!("candidates[{i}].id"),
                format!(
                    "candidate {} is listed at position {}; a batch numbers its candidates 1, 2, … in order",
                    c.id,
                    i + 1
                ),
            ));
        }
    }
    if let Some((i, r)) = file.records.iter().enumerate().find(|(_, r)| r.annotator != file.annotator.id) {
        return Err(at(
            format!("records[{i}].annotator"),
            format!(
                "record by annotator {}, but the batch belongs to {} (id {})",
                r.annotator, file.annotator.name, file.annotator.id
            ),
        ));
    }
    if let Some((i, d)) = file
        .disputes
        .iter()
        .enumerate()
        .find(|(_, d)| d.candidate.0 == 0 || d.candidate.0 as usize > file.candidates.len())
    {
        return Err(at(
            format!("disputes[{i}].candidate"),
            format!("candidate {} is not in the batch ({} candidates)", d.candidate, file.candidates.len()),
        ));
    }
    Ok(())
}

/// Writes a batch atomically in our line layout, keeping only its non-empty sentences.
pub fn save(batch: &Batch, path: &Path) -> Result<()> {
    atomic::write_with(&Os, path, |w| write(batch, w)).map(drop)
}

/// Writes a batch in our line layout, keeping only its non-empty sentences.
pub fn write(batch: &Batch, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let m = &batch.content;
    let file = BatchFile {
        format: BATCH_FORMAT.into(),
        version: BATCH_VERSION,
        id: batch.id.clone(),
        master: batch.master_id.clone(),
        annotator: batch.annotator().clone(),
        created: batch.created,
        task_set: batch.task_set,
        purpose: batch.purpose,
        revision: m.revision,
        settings: m.settings.clone(),
        languages: m.languages.clone(),
        documents: m.documents.clone(),
        sentence_count: m.sentence_count(),
        corpora: m
            .corpora
            .iter()
            .map(|c| SparseCorpus {
                id: c.id,
                name: c.name.clone(),
                role: c.role,
                sentences: c
                    .sentences
                    .held()
                    .filter(|(_, s)| !s.is_empty())
                    .map(|(n, s)| (n as u32, s.clone()))
                    .collect(),
            })
            .collect(),
        categories: m.categories.clone(),
        examples: m.examples.clone(),
        candidates: m.candidates.clone(),
        records: m.records.clone(),
        disputes: batch.disputes.clone(),
    };
    json::write(out, &file)
}

/// What `protest check` prints about a batch.
pub struct Summary<'a>(&'a Batch);

impl Summary<'_> {
    /// What `protest check --format json` prints about the batch: the same counts as the text.
    pub fn json(&self) -> serde_json::Value {
        let b = self.0;
        let m = &b.content;
        let purpose = match b.purpose {
            Purpose::Annotation => "annotation",
            Purpose::Adjudication => "adjudication",
        };
        let corpora: Vec<serde_json::Value> = m
            .translations()
            .map(|c| {
                let n = m.candidates.iter().filter(|k| k.corpus == c.id).count();
                serde_json::json!({ "name": c.name, "candidates": n })
            })
            .collect();
        let rows = browse::browse(m, b.annotator().id, &b.order(), None);
        let categories: Vec<serde_json::Value> = rows
            .iter()
            .filter(|r| r.total() > 0)
            .map(|r| {
                serde_json::json!({
                    "name": r.category, "new": r.new.len(), "notes": r.notes.len(), "done": r.done.len(),
                    "conflict": r.conflict.len(),
                })
            })
            .collect();
        serde_json::json!({
            "format_version": BATCH_VERSION,
            "id": b.id,
            "master": b.master_id,
            "task_set": b.task_set,
            "purpose": purpose,
            "annotator": { "id": b.annotator().id, "name": b.annotator().name },
            "created": b.created,
            "corpora": corpora,
            "source_sentences_kept": m.source().map_or(0, |s| s.sentences.held().filter(|(_, s)| !s.is_empty()).count()),
            "sentences": m.sentence_count(),
            "categories": categories,
            "candidates": m.candidates.len(),
            "records": m.records.len(),
        })
    }
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        let m = &b.content;
        let purpose = match b.purpose {
            Purpose::Annotation => "annotation",
            Purpose::Adjudication => "adjudication",
        };
        writeln!(f, "PROTEST batch, format version {BATCH_VERSION}, id {}", b.id)?;
        writeln!(f, "Master: {}, task set {} ({purpose})", b.master_id, b.task_set)?;
        writeln!(f, "Annotator: {} (id {})", b.annotator().name, b.annotator().id)?;
        writeln!(f, "Created: {}", b.created.format("%Y-%m-%d %H:%M UTC"))?;
        for c in m.translations() {
            let n = m.candidates.iter().filter(|k| k.corpus == c.id).count();
            writeln!(f, "  {}: {n} candidates", c.name)?;
        }
        let kept = m.source().map_or(0, |s| s.sentences.held().filter(|(_, s)| !s.is_empty()).count());
        writeln!(f, "Source sentences kept: {kept} of {}", m.sentence_count())?;
        let rows = browse::browse(m, b.annotator().id, &b.order(), None);
        let width = rows.iter().map(|r| r.category.chars().count()).max().unwrap_or(0);
        writeln!(
            f,
            "{:w$}  {:>5}  {:>5}  {:>5}  {:>8}",
            "Categories",
            "new",
            "notes",
            "done",
            "conflict",
            w = width + 2
        )?;
        for r in rows.iter().filter(|r| r.total() > 0) {
            let (new, notes, done, conflict) = (r.new.len(), r.notes.len(), r.done.len(), r.conflict.len());
            writeln!(f, "  {:width$}  {new:>5}  {notes:>5}  {done:>5}  {conflict:>8}", r.category)?;
        }
        let count = |pick: fn(&browse::CategoryRow) -> usize| rows.iter().map(pick).sum::<usize>();
        let notes = match count(|r| r.notes.len()) {
            0 => String::new(),
            n => format!(", {n} to do (notes only)"),
        };
        writeln!(
            f,
            "Candidates: {} ({} new, {} done, {} with conflicts{notes})",
            m.candidates.len(),
            count(|r| r.new.len()),
            count(|r| r.done.len()),
            count(|r| r.conflict.len()),
        )?;
        writeln!(f, "Records: {}", m.records.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::edit::{self, Edit};
    use crate::batches::export;
    use crate::batches::plan::{self, Request, every};
    use crate::model::{AnnotatorId, ConflictStatus, Judgement, Record, Role};
    use std::path::PathBuf;

    /// The sample master planned for Anna and Ben, and Anna's batch written to a temporary folder.
    fn anna_batch(dir: &tempfile::TempDir) -> (Master, PathBuf) {
        let mut m = crate::testing::unplanned_sample();
        let p = plan::plan(&m, &Request::everything(&m, 2, 30, 42), every, DateTime::UNIX_EPOCH).unwrap();
        m.task_sets.push(p.task_set);
        export::assign(&mut m, 1, &["Anna".into(), "Ben".into()]).unwrap();
        m.reindex();
        let batch = export::build(&m, 1, AnnotatorId(1), DateTime::UNIX_EPOCH).unwrap();
        let path = dir.path().join("anna.json");
        save(&batch, &path).unwrap();
        (m, path)
    }

    #[test]
    fn a_saved_batch_loads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let (m, path) = anna_batch(&dir);
        let loaded = load(&path).unwrap();
        assert_eq!(loaded, export::build(&m, 1, AnnotatorId(1), DateTime::UNIX_EPOCH).unwrap());
        assert_eq!(loaded.annotator().name, "Anna");
        assert!(is_batch(&std::fs::read(&path).unwrap()) && is_batch_file(&path));
        assert!(!is_batch(include_bytes!("../../../../sample_batches/sample.master.json")));
        let master = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_batches/sample.master.json");
        assert!(!is_batch_file(&master) && !is_batch_file(&dir.path().join("missing.json")));
        // Only the beginning counts: a batch cut short is still a batch (its loader says what is wrong).
        let bytes = std::fs::read(&path).unwrap();
        assert!(is_batch(&bytes[..bytes.len() / 2]));
        assert!(!is_batch(br#"{"format": 1}"#) && !is_batch(b"[]") && !is_batch(b""));
        // Sparse on disk: far smaller than the master.
        let size = std::fs::metadata(&path).unwrap().len() as usize;
        assert!(size * 2 < include_bytes!("../../../../sample_batches/sample.master.json").len(), "{size} bytes");
    }

    #[test]
    fn a_record_stored_as_clear_that_breaks_a_rule_is_not_counted_as_done() {
        let dir = tempfile::tempdir().unwrap();
        let (m, path) = anna_batch(&dir);
        let mut batch = export::build(&m, 1, AnnotatorId(1), DateTime::UNIX_EPOCH).unwrap();
        // The first candidate with a token aligned to its pronoun, which rule 4 then asks for.
        let aligned = |c: &CandidateId| batch.content().candidate(*c).is_some_and(|c| !c.pronoun.is_empty());
        let first = batch.order().into_iter().find(aligned).unwrap();
        // Pronoun yes, no token selected (rule 4), and the file says "clear".
        let r = edit::apply(
            batch.content(),
            first,
            AnnotatorId(1),
            None,
            Edit::Judge(Role::Pronoun, Judgement::Yes),
            DateTime::UNIX_EPOCH,
        )
        .unwrap();
        batch.master_mut().records.put(Record { conflict: ConflictStatus::Clear, ..r });
        save(&batch, &path).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("\"conflict\":\"clear\""));
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.content().records.get(first, AnnotatorId(1)).unwrap().conflict, ConflictStatus::Unchecked);
        let summary = loaded.summary().to_string();
        assert!(summary.contains("Candidates: 75 (74 new, 0 done, 1 with conflicts)"), "{summary}");
    }

    #[test]
    fn disputes_come_back_and_one_of_no_candidate_is_refused() {
        use crate::model::{Answer, Dispute};
        let dir = tempfile::tempdir().unwrap();
        let (m, path) = anna_batch(&dir);
        let mut batch = export::build(&m, 1, AnnotatorId(1), DateTime::UNIX_EPOCH).unwrap();
        assert!(batch.disputes.is_empty(), "an annotation batch has none");
        assert!(!std::fs::read_to_string(&path).unwrap().contains("disputes"), "nor the field");
        let dispute = |candidate| Dispute {
            candidate: CandidateId(candidate),
            role: Role::Antecedent,
            answers: vec![Answer::Yes, Answer::CannotBeJudged],
        };
        batch.disputes = vec![dispute(2)];
        save(&batch, &path).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains(r#""answers":["yes","cannot_be_judged"]"#));
        let loaded = load(&path).unwrap();
        assert_eq!(
            (loaded.disputes_of(CandidateId(2)), loaded.disputes_of(CandidateId(1))),
            (vec![dispute(2)], vec![])
        );
        batch.disputes = vec![dispute(2), dispute(76)];
        save(&batch, &path).unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(e.contains("anna.json") && e.contains("disputes[1].candidate"), "{e}");
        assert!(e.contains("candidate 76 is not in the batch (75 candidates)"), "{e}");
    }

    #[test]
    fn the_batches_of_a_master_are_found_in_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (m, path) = anna_batch(&dir);
        std::fs::write(dir.path().join("master.json"), include_bytes!("../../../../sample_batches/sample.master.json"))
            .unwrap();
        std::fs::write(dir.path().join("broken.json"), "{").unwrap();
        assert_eq!(batches_in(dir.path(), &m.id), [path]);
        assert!(batches_in(dir.path(), "another master").is_empty());
        assert!(batches_in(&dir.path().join("nowhere"), &m.id).is_empty());
    }

    #[test]
    fn annotator_work_survives_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = anna_batch(&dir);
        let (mut store, _) = Store::<Batch>::open(&path).unwrap();
        let anna = store.doc().annotator().id;
        let first = store.doc().order()[0];
        let r = edit::apply(store.master(), first, anna, None, Edit::Judge(Role::Pronoun, Judgement::No), Utc::now())
            .unwrap();
        let r = edit::apply(store.master(), first, anna, Some(&r), Edit::Remarks("wrong gender".into()), Utc::now())
            .unwrap();
        store.put(r.clone()).unwrap();
        drop(store); // no close: as if the app was killed
        let (store, opened) = Store::<Batch>::open(&path).unwrap();
        assert_eq!(opened.recovered, 1);
        assert_eq!(store.master().records.get(first, anna), Some(&r));
        store.close().unwrap();
        let folded = load(&path).unwrap();
        assert_eq!(folded.content().records.get(first, anna), Some(&r));
        assert_eq!(folded.content().revision, 1);
    }

    #[test]
    fn load_current_includes_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = anna_batch(&dir);
        let (mut store, _) = Store::<Batch>::open(&path).unwrap();
        let c = store.doc().order()[3];
        let r = edit::apply(
            store.master(),
            c,
            AnnotatorId(1),
            None,
            Edit::Judge(Role::Pronoun, Judgement::Yes),
            Utc::now(),
        )
        .unwrap();
        store.put(r).unwrap();
        // Still open in "another window": read without taking it over.
        assert_eq!(load_current(&path).unwrap().content().records.len(), 1);
        assert_eq!(load(&path).unwrap().content().records.len(), 0);
        drop(store);
        // Left by a crash: folded into the file.
        assert_eq!(load_current(&path).unwrap().content().records.len(), 1);
        assert!(!journal::path_for(&path).exists());
        assert_eq!(load(&path).unwrap().content().records.len(), 1);
    }

    #[test]
    fn a_version_1_batch_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = anna_batch(&dir);
        let text = std::fs::read_to_string(&path).unwrap().replacen("\"version\":2", "\"version\":1", 1);
        let batch = from_bytes(Path::new("b.json"), text.as_bytes()).unwrap();
        assert_eq!(batch, load(&path).unwrap());
    }

    #[test]
    fn damaged_batches_are_refused_with_the_place() {
        let dir = tempfile::tempdir().unwrap();
        let (_, path) = anna_batch(&dir);
        let text = std::fs::read_to_string(&path).unwrap();
        let refused = |text: &str| from_bytes(Path::new("b.json"), text.as_bytes()).unwrap_err().to_string();
        let e = refused(&text.replacen("{\"id\":2,", "{\"id\":7,", 1));
        assert!(e.contains("candidates[1].id: candidate 7 is listed at position 2"), "{e}");
        let e = refused(&text.replacen("\"sentence_count\":316", "\"sentence_count\":100", 1));
        assert!(e.contains("must be below 100"), "{e}");
        let e = refused(&text.replacen("\n    [5,\"Another group", "\n    [4,\"Another group", 1));
        assert!(
            e.contains("corpora[0].sentences[1]: sentence number 4 must be below 316 and above the one before"),
            "{e}"
        );
        let e = refused(&text.replacen("\"annotator\":{\"id\":1", "\"annotator\":{\"id\":0", 1));
        assert!(e.contains("b.json: annotator.id: a batch belongs to an annotator"), "{e}");
        let e = refused(&text.replacen("\"version\":2", "\"version\":3", 1));
        assert!(e.contains("format version 3 is not supported"), "{e}");
        let e = refused(&text[..text.len() / 2]);
        assert!(e.contains("truncated"), "{e}");
        let e = refused(&String::from_utf8_lossy(include_bytes!("../../../../sample_batches/sample.master.json")));
        assert!(e.contains("this is a master file, not a batch file"), "{e}");
    }
}
