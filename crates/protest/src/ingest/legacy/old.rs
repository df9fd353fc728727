//! The content of an original-tool file as typed rows, one struct per table of
//! docs/legacy.md, before any of it is interpreted.

use super::db::{Col, Db, Row, Rows};
use crate::error::{Error, Result};
use std::path::Path;

/// The versions this build converts.
pub const VERSIONS: [&str; 2] = ["PROTEST 1.1", "PROTEST 1.0"];

/// What an old file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileType {
    Master,
    /// One annotator's batch (`annotation_batch`).
    Batch,
}

/// The `meta_data` table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    pub version: String,
    pub master_id: Option<String>,
    pub master_description: Option<String>,
    pub time_created: Option<String>,
    pub annotator_id: Option<String>,
    pub annotator_name: Option<String>,
    /// `config:conflict_checks` = `disabled`.
    pub checks_disabled: bool,
    /// Every tag, in table order (first value of a repeated tag wins, as in the old tool).
    pub tags: Vec<(String, String)>,
    /// What was assumed in reading it (a `MasterDB` file type, a missing version), for the summary.
    pub notes: Vec<String>,
}

impl Meta {
    pub fn get(&self, tag: &str) -> Option<&str> {
        self.tags.iter().find(|(t, _)| t == tag).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone)]
pub struct Corpus {
    pub id: i64,
    pub name: String,
    pub source: bool,
}

#[derive(Debug, Clone)]
pub struct Sentence {
    pub id: i64,
    pub corpus: i64,
    pub line: i64,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct Document {
    pub id: i64,
    pub corpus: i64,
    pub start: i64,
    pub end: i64,
}

#[derive(Debug, Clone)]
pub struct Category {
    pub id: i64,
    pub description: String,
    pub anaphoric: bool,
}

/// A `pro_candidates` row (`pro_examples` in the oldest files).
#[derive(Debug, Clone)]
pub struct Candidate {
    pub id: i64,
    pub srccorpus: i64,
    pub tgtcorpus: i64,
    pub example_no: i64,
    pub line: i64,
    pub srcpro: Option<String>,
    pub srcpos: i64,
    pub category: i64,
}

#[derive(Debug, Clone)]
pub struct Antecedent {
    pub id: i64,
    pub srccorpus: i64,
    pub tgtcorpus: i64,
    pub example_no: i64,
    pub ant_no: i64,
    pub line: i64,
    pub start: i64,
    pub end: i64,
    pub head_text: Option<String>,
    pub head: i64,
}

#[derive(Debug, Clone)]
pub struct Translation {
    pub id: i64,
    pub tgtcorpus: i64,
    pub example_no: i64,
    /// `None`: aligned to the pronoun; else to that antecedent's head.
    pub ant_no: Option<i64>,
    pub line: i64,
    pub tgtpos: i64,
}

#[derive(Debug, Clone)]
pub struct Annotator {
    pub id: i64,
    pub name: Option<String>,
}

/// The annotator of a row as the original tool read it: JDBC's `getInt` gives 0 for NULL, so rows
/// without an annotator (made before `AddToDatabase.sql` added the column) are annotator 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct OldAnnotator {
    /// `None`: NULL, or no `annotator_id` column at all.
    pub raw: Option<i64>,
}

impl OldAnnotator {
    /// The id the original tool used for the row.
    pub fn id(self) -> i64 {
        self.raw.unwrap_or(0)
    }
}

#[derive(Debug, Clone)]
pub struct Annotation {
    pub id: i64,
    pub candidate: i64,
    /// The id as the original read it (NULL is 0); `who.raw` tells NULL from 0.
    pub annotator: i64,
    pub who: OldAnnotator,
    pub antecedent: Option<String>,
    pub pronoun: Option<String>,
    pub remarks: Option<String>,
    pub conflict: Option<String>,
}

#[derive(Debug, Clone)]
pub struct TokenAnnotation {
    pub id: i64,
    pub candidate: i64,
    pub line: i64,
    pub token: i64,
    pub annotation: Option<String>,
    pub annotator: i64,
    pub who: OldAnnotator,
}

#[derive(Debug, Clone)]
pub struct Tag {
    pub id: i64,
    pub candidate: i64,
    pub annotator: i64,
    pub who: OldAnnotator,
    pub tag: String,
}

/// An `annotation_tasks` row: a candidate's place in a task.
#[derive(Debug, Clone)]
pub struct TaskPlace {
    pub id: i64,
    pub task_no: i64,
    pub candidate: i64,
    /// Only in some files.
    pub annotator: Option<i64>,
}

#[derive(Debug, Clone)]
pub struct TaskDefinition {
    pub id: i64,
    pub taskset: String,
    pub label: String,
}

/// Every table of an old file.
#[derive(Debug, Clone)]
pub struct OldFile {
    pub file_type: FileType,
    pub meta: Meta,
    pub corpora: Vec<Corpus>,
    pub sentences: Vec<Sentence>,
    pub documents: Vec<Document>,
    pub categories: Vec<Category>,
    pub candidates: Vec<Candidate>,
    /// The name of the candidates table as found (`pro_candidates`, or `pro_examples`).
    pub candidates_table: &'static str,
    pub antecedents: Vec<Antecedent>,
    pub translations: Vec<Translation>,
    pub annotators: Vec<Annotator>,
    pub annotations: Vec<Annotation>,
    pub token_annotations: Vec<TokenAnnotation>,
    pub tags: Vec<Tag>,
    pub task_places: Vec<TaskPlace>,
    pub task_definitions: Vec<TaskDefinition>,
    /// `annotation_tasks` has no `task_no` (the shape of the original's first `AddToDatabase.sql`):
    /// its rows name no task and are not converted.
    pub tasks_without_task_no: bool,
    /// Rows per table present in the file, in the order of docs/legacy.md.
    pub row_counts: Vec<(&'static str, usize)>,
}

/// Reads only `meta_data`: what the file is, cheaply (for a GUI deciding what to offer).
pub fn read_meta(path: &Path) -> Result<(FileType, Meta)> {
    meta(path, &Db::open(path)?).map(|(t, m, _)| (t, m))
}

fn meta(path: &Path, db: &Db) -> Result<(FileType, Meta, usize)> {
    let Some(rows) = db.read(&["meta_data"], &[Col::Req(&["tag"]), Col::Req(&["tag_value"])])? else {
        return Err(Error::whole_file(
            path,
            "an SQLite database without PROTEST's meta_data table: not a file of the original PROTEST tool",
        ));
    };
    let mut meta = Meta::default();
    for r in rows.iter() {
        let (Some(tag), Some(value)) = (r.opt_text(0)?, r.opt_text(1)?) else { continue };
        if meta.get(&tag).is_none() {
            meta.tags.push((tag, value));
        }
    }
    let text = |tag: &str| meta.get(tag).map(str::to_owned);
    let mut notes = Vec::new();
    let given_type = text("file_type");
    let file_type = match given_type.as_deref().map(|t| t.trim().to_lowercase()).as_deref() {
        Some("master") => FileType::Master,
        // What the original's AddToDatabase.sql writes (line 20); its own code expects "master".
        Some("masterdb") => {
            notes.push(format!(
                "meta_data says file_type '{}' (what the original's AddToDatabase.sql writes): read as a master",
                given_type.as_deref().unwrap_or_default()
            ));
            FileType::Master
        }
        Some("annotation_batch") => FileType::Batch,
        // The oldest files may not say; only batches name their annotator.
        None if text("annotator_id").is_some() => FileType::Batch,
        None => FileType::Master,
        Some(_) => {
            return Err(Error::whole_file(
                path,
                format!(
                    "meta_data says file_type '{}'; expected 'master', 'MasterDB' or 'annotation_batch'",
                    given_type.as_deref().unwrap_or_default()
                ),
            ));
        }
    };
    let version = match text("file_version") {
        Some(version) => version,
        // AddToDatabase.sql writes a file type but no version; the tables are the 1.0 ones.
        None if given_type.as_deref().is_some_and(|t| t.trim().eq_ignore_ascii_case("masterdb")) => {
            notes.push("meta_data has no file_version (AddToDatabase.sql writes none): read as PROTEST 1.0".into());
            "PROTEST 1.0".to_owned()
        }
        None => {
            return Err(Error::whole_file(
                path,
                "meta_data has no file_version: not a file of the original PROTEST tool",
            ));
        }
    };
    if !VERSIONS.contains(&version.trim()) {
        return Err(Error::whole_file(
            path,
            format!("file version '{version}' is not supported (this PROTEST converts {})", VERSIONS.join(" and ")),
        ));
    }
    let meta = Meta {
        version: version.trim().to_owned(),
        master_id: text("master_id"),
        master_description: text("master_description"),
        time_created: text("time_created"),
        annotator_id: text("annotator_id"),
        annotator_name: text("annotator_name"),
        checks_disabled: meta.get("config:conflict_checks").is_some_and(|v| v.trim() == "disabled"),
        tags: meta.tags,
        notes,
    };
    Ok((file_type, meta, rows.len()))
}

/// Reads every table. Tables the oldest files lack (documents, pro_antecedents, token and tag
/// annotations, tasks) read as empty; the others are required. All the tables are read before
/// any value in them, so a missing table is said before a wrong value.
pub fn read(path: &Path) -> Result<OldFile> {
    let db = Db::open(path)?;
    let (file_type, meta, meta_rows) = meta(path, &db)?;
    let mut tables = Tables { db: &db, path, counts: vec![("meta_data", meta_rows)] };
    let text = tables.text()?;
    let work = tables.work()?;
    Ok(OldFile {
        file_type,
        meta,
        corpora: each(&text.corpora, corpus)?,
        sentences: each(&text.sentences, |r| {
            Ok(Sentence { id: r.id, corpus: r.int(0)?, line: r.int(1)?, text: r.opt_text(2)?.unwrap_or_default() })
        })?,
        documents: each(&text.documents, |r| {
            Ok(Document { id: r.id, corpus: r.int(0)?, start: r.int(1)?, end: r.int(2)? })
        })?,
        categories: each(&text.categories, |r| {
            Ok(Category {
                id: r.id,
                description: r.opt_text(0)?.unwrap_or_default(),
                anaphoric: r.opt_int(1)?.unwrap_or(0) != 0,
            })
        })?,
        candidates_table: text.candidates.as_ref().map_or("pro_candidates", |r| r.table),
        candidates: each(&text.candidates, candidate)?,
        antecedents: each(&text.antecedents, antecedent)?,
        translations: each(&text.translations, translation)?,
        annotators: each(&work.annotators, |r| Ok(Annotator { id: r.id, name: r.opt_text(0)? }))?,
        annotations: each(&work.annotations, annotation)?,
        token_annotations: each(&work.token_annotations, token_annotation)?,
        tags: each(&work.tags, |r| {
            let who = who(r, 1)?;
            Ok(Tag { id: r.id, candidate: r.int(0)?, annotator: who.id(), who, tag: r.text(2)? })
        })?,
        task_places: each(&work.task_places, |r| {
            Ok(TaskPlace { id: r.id, task_no: r.int(0)?, candidate: r.int(1)?, annotator: r.opt_int(2)? })
        })?,
        task_definitions: each(&work.task_definitions, |r| {
            Ok(TaskDefinition {
                id: r.id,
                taskset: r.opt_text(0)?.unwrap_or_default(),
                label: r.opt_text(1)?.unwrap_or_default(),
            })
        })?,
        tasks_without_task_no: work.tasks_without_task_no,
        row_counts: tables.counts,
    })
}

/// The tables of a file being read, with the rows counted in the order read (the report's order).
struct Tables<'a> {
    db: &'a Db,
    path: &'a Path,
    counts: Vec<(&'static str, usize)>,
}

/// The texts and the test suite: corpora, sentences, documents, categories, examples.
struct TextTables {
    corpora: Option<Rows>,
    sentences: Option<Rows>,
    documents: Option<Rows>,
    categories: Option<Rows>,
    candidates: Option<Rows>,
    antecedents: Option<Rows>,
    translations: Option<Rows>,
}

/// The annotators' work: annotators, annotations, selected tokens, tags, tasks.
struct WorkTables {
    annotators: Option<Rows>,
    annotations: Option<Rows>,
    token_annotations: Option<Rows>,
    tags: Option<Rows>,
    task_places: Option<Rows>,
    task_definitions: Option<Rows>,
    tasks_without_task_no: bool,
}

/// The oldest files call the candidate column `example`.
const CANDIDATE: &[&str] = &["candidate", "example"];

impl Tables<'_> {
    /// The first of `names` that the file has, counted; `None` if it has none and it is not
    /// `required`.
    fn table(&mut self, names: &[&'static str], cols: &[Col], required: bool) -> Result<Option<Rows>> {
        let rows = self.db.read(names, cols)?;
        match &rows {
            Some(r) => self.counts.push((r.table, r.len())),
            None if required => {
                return Err(Error::whole_file(
                    self.path,
                    format!("the file has no {} table; is it a file of the original PROTEST tool?", names[0]),
                ));
            }
            None => {}
        }
        Ok(rows)
    }

    fn text(&mut self) -> Result<TextTables> {
        use Col::{Opt, Req};
        let candidate_cols = [
            Req(&["srccorpus"]),
            Req(&["tgtcorpus"]),
            Req(&["example_no"]),
            Req(&["line"]),
            Opt(&["srcpro"]),
            Req(&["srcpos"]),
            Req(&["category_no"]),
        ];
        let antecedent_cols = [
            Req(&["srccorpus"]),
            Req(&["tgtcorpus"]),
            Req(&["example_no"]),
            Req(&["ant_no"]),
            Req(&["line"]),
            Req(&["srcstartpos"]),
            Req(&["srcendpos"]),
            Opt(&["srchead"]),
            Req(&["srcheadpos"]),
        ];
        let translation_cols =
            [Req(&["tgtcorpus"]), Req(&["example_no"]), Req(&["ant_no"]), Req(&["line"]), Req(&["tgtpos"])];
        Ok(TextTables {
            corpora: self.table(&["corpora"], &[Req(&["name"]), Req(&["srctgt"])], true)?,
            sentences: self.table(&["sentences"], &[Req(&["corpus"]), Req(&["line"]), Req(&["sentence"])], true)?,
            documents: self.table(&["documents"], &[Req(&["corpus"]), Req(&["start"]), Req(&["end"])], false)?,
            categories: self.table(&["categories"], &[Req(&["description"]), Opt(&["antagreement"])], true)?,
            candidates: self.table(&["pro_candidates", "pro_examples"], &candidate_cols, true)?,
            antecedents: self.table(&["pro_antecedents"], &antecedent_cols, false)?,
            translations: self.table(&["translations"], &translation_cols, true)?,
        })
    }

    fn work(&mut self) -> Result<WorkTables> {
        use Col::{Opt, Req};
        let annotation_cols = [
            Req(CANDIDATE),
            Opt(&["annotator_id"]),
            Opt(&["ant_annotation"]),
            Opt(&["anaph_annotation"]),
            Opt(&["remarks"]),
            // One version of the old tool's batch import wrote to a misspelt column.
            Opt(&["conflict_status", "confict_status"]),
        ];
        let token_cols =
            [Req(CANDIDATE), Req(&["line"]), Req(&["token"]), Opt(&["annotation"]), Opt(&["annotator_id"])];
        let annotators = self.table(&["annotators"], &[Opt(&["name"])], false)?;
        let annotations = self.table(&["annotations"], &annotation_cols, true)?;
        let token_annotations = self.table(&["token_annotations"], &token_cols, false)?;
        let tags = self.table(&["tag_annotations"], &[Req(CANDIDATE), Opt(&["annotator_id"]), Req(&["tag"])], false)?;
        // The first AddToDatabase.sql (and no code after it) made annotation_tasks without task_no.
        let tasks_without_task_no =
            self.db.columns("annotation_tasks").is_some_and(|c| !c.iter().any(|c| c == "task_no"));
        let task_places = if tasks_without_task_no {
            self.table(&["annotation_tasks"], &[Opt(CANDIDATE)], false)?;
            None
        } else {
            self.table(&["annotation_tasks"], &[Req(&["task_no"]), Req(CANDIDATE), Opt(&["annotator_id"])], false)?
        };
        let task_definitions = self.table(&["task_definition"], &[Opt(&["taskset"]), Opt(&["label"])], false)?;
        Ok(WorkTables {
            annotators,
            annotations,
            token_annotations,
            tags,
            task_places,
            task_definitions,
            tasks_without_task_no,
        })
    }
}

fn corpus(r: &Row) -> Result<Corpus> {
    let srctgt = r.int(1)?;
    if !(0..=1).contains(&srctgt) {
        return Err(r.error(format!("srctgt is {srctgt}; it must be 0 (source) or 1 (translation)")));
    }
    Ok(Corpus { id: r.id, name: r.opt_text(0)?.unwrap_or_default(), source: srctgt == 0 })
}

fn candidate(r: &Row) -> Result<Candidate> {
    Ok(Candidate {
        id: r.id,
        srccorpus: r.int(0)?,
        tgtcorpus: r.int(1)?,
        example_no: r.int(2)?,
        line: r.int(3)?,
        srcpro: r.opt_text(4)?,
        srcpos: r.int(5)?,
        category: r.int(6)?,
    })
}

fn antecedent(r: &Row) -> Result<Antecedent> {
    Ok(Antecedent {
        id: r.id,
        srccorpus: r.int(0)?,
        tgtcorpus: r.int(1)?,
        example_no: r.int(2)?,
        ant_no: r.int(3)?,
        line: r.int(4)?,
        start: r.int(5)?,
        end: r.int(6)?,
        head_text: r.opt_text(7)?,
        head: r.int(8)?,
    })
}

fn translation(r: &Row) -> Result<Translation> {
    Ok(Translation {
        id: r.id,
        tgtcorpus: r.int(0)?,
        example_no: r.int(1)?,
        ant_no: r.opt_int(2)?,
        line: r.int(3)?,
        tgtpos: r.int(4)?,
    })
}

fn annotation(r: &Row) -> Result<Annotation> {
    Ok(Annotation {
        id: r.id,
        candidate: r.int(0)?,
        annotator: who(r, 1)?.id(),
        who: who(r, 1)?,
        antecedent: r.opt_text(2)?,
        pronoun: r.opt_text(3)?,
        remarks: r.opt_text(4)?,
        conflict: r.opt_text(5)?,
    })
}

fn token_annotation(r: &Row) -> Result<TokenAnnotation> {
    Ok(TokenAnnotation {
        id: r.id,
        candidate: r.int(0)?,
        line: r.int(1)?,
        token: r.int(2)?,
        annotation: r.opt_text(3)?,
        annotator: who(r, 4)?.id(),
        who: who(r, 4)?,
    })
}

/// The annotator in column `k`. Rows without one (NULL, or no column) are kept apart: the
/// original read them as 0.
fn who(r: &Row, k: usize) -> Result<OldAnnotator> {
    r.opt_int(k).map(|raw| OldAnnotator { raw })
}

fn each<T>(rows: &Option<Rows>, f: impl Fn(&Row) -> Result<T>) -> Result<Vec<T>> {
    rows.as_ref().map_or(Ok(Vec::new()), |rows| rows.iter().map(|r| f(&r)).collect())
}
