//! Converting an old annotation batch against its converted master.
//!
//! The batch is made the way `protest batch export` makes one (numbering, neutral corpus names,
//! sparse sentences), from the master with the batch's place in a task set (see
//! [`super::tasks`]); the annotator's old records are then put in under the batch's candidate
//! numbers. Everything the old batch holds besides those records must be what the master holds.

use super::master::lost_data;
use super::old::OldFile;
use super::records::{self, Gathered, OLD_RESEARCHER};
use super::report::{Counts, OldCounts, Report};
use super::suite::{self, Suite};
use super::tasks::{self, Placement};
use super::text::Reference;
use super::{Options, UNKNOWN_TIME, time_note};
use crate::batches::{annotators, export};
use crate::error::{Error, Result};
use crate::model::{Annotator, AnnotatorId, CandidateId, CorpusId, ExampleNo, Master, Record};
use crate::store::Document;
use crate::store::batch_file::Batch;
use crate::store::summary::{count, count_as};
use crate::store::validate;
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

pub(super) fn convert(
    path: &Path,
    old: &OldFile,
    master: &Master,
    options: &Options,
) -> Result<(Batch, Placement, Report)> {
    let refuse = |message: String| Err(Error::whole_file(path, message));
    check_master_id(path, old, master)?;
    let suite = suite::build(path, old, &Reference::None, options.shell)?;
    if suite.candidates.is_empty() {
        return refuse("the batch has no candidates to annotate".into());
    }
    let to_master = match match_suite(&suite, master) {
        Ok(map) => map,
        Err(why) => return refuse(format!("{why}; was the batch made from another master?")),
    };
    let (old_id, annotator, add_annotator, named) = annotator(path, old, master)?;

    let time = UNKNOWN_TIME;
    let gathered = records::gather(path, old, &suite, &HashMap::from([(old_id, annotator.id)]), time)?;
    let in_master = |r: &Record| Record { candidate: to_master[&r.candidate], ..r.clone() };
    let mine: Vec<Record> = gathered.records.iter().map(in_master).collect();
    let all = records::gather(path, old, &suite, &everyone(master, old_id, annotator.id), time)?;
    let others: Vec<Record> = all.records.iter().filter(|r| r.annotator != annotator.id).map(in_master).collect();

    let wanted: BTreeSet<CandidateId> = to_master.values().copied().collect();
    let old_tasks = tasks::batch_tasks(old, |c| suite.candidate_ids.get(&c).map(|id| to_master[id]));
    let Some(placement) = tasks::place(master, annotator.clone(), add_annotator, &wanted, &old_tasks, options.now)
    else {
        return Err(Error::whole_file(path, format!("no task set id is left for it: the master's reach {}", u32::MAX)));
    };
    let mut draft = master.clone();
    placement.apply(&mut draft);
    let (batch, local) = batch_with(path, &draft, &placement, options.now, &mine)?;

    let old_counts = OldCounts::of(old, |a| a == old_id, &gathered.dropped);
    let carried: Vec<&Record> =
        mine.iter().filter_map(|r| batch.content().records.get(local[&r.candidate], annotator.id)).collect();
    let new = Counts::of(batch.content(), carried);
    super::report::verify(&old_counts, &gathered, &new).map_err(|lost| lost_data(path, lost))?;

    let placed = placement.describe(&draft);
    let context = Context { old, suite: &suite, master, annotator: &annotator, old_id, named, placed };
    let notes = context.notes(&gathered, &others, &all.skipped, !mine.is_empty());
    let report = Report::new(path, old, |table, new| context.describe(table, new), old_counts, &gathered, new, notes);
    Ok((batch, placement, report))
}

/// Refuses a batch that names an old master other than `master`.
fn check_master_id(path: &Path, old: &OldFile, master: &Master) -> Result<()> {
    let old_master = old.meta.master_id.as_deref().map(str::trim).filter(|id| !id.is_empty());
    if let Some(id) = old_master.filter(|&id| id != master.id) {
        return Err(Error::whole_file(
            path,
            format!(
                "this batch was made from the old master '{id}', but the converted master given has id '{}'",
                master.id
            ),
        ));
    }
    Ok(())
}

/// Old annotator id → annotator, for every row of the batch. Versions of the old tool before
/// the last copied other people's rows into batches; they are converted only to be compared
/// with the master's.
fn everyone(master: &Master, old_id: i64, annotator: AnnotatorId) -> HashMap<i64, AnnotatorId> {
    let mut everyone: HashMap<i64, AnnotatorId> = HashMap::from([(OLD_RESEARCHER, AnnotatorId::RESEARCHER)]);
    everyone.extend(master.annotators.iter().map(|a| (i64::from(a.id.0), a.id)));
    everyone.insert(old_id, annotator);
    // Rows without an annotator (NULL or 0) are the master's added annotator's, if it has one.
    if let Some(unknown) = master.annotators.iter().find(|a| a.name == records::UNKNOWN_NAME) {
        everyone.entry(0).or_insert(unknown.id);
    }
    everyone
}

/// The batch `protest batch export` makes of the annotator's place in `draft`, with their
/// converted records (`mine`, on master candidates) put in under the batch's candidate numbers,
/// each checked as the master checks its own; and master candidate → batch candidate.
fn batch_with(
    path: &Path,
    draft: &Master,
    placement: &Placement,
    now: DateTime<Utc>,
    mine: &[Record],
) -> Result<(Batch, HashMap<CandidateId, CandidateId>)> {
    let who = placement.annotator.id;
    let mut batch =
        export::build(draft, placement.task_set, who, now).map_err(|e| Error::whole_file(path, e.to_string()))?;
    let ts = draft.task_set(placement.task_set).expect("placed in a task set of the draft");
    let local: HashMap<CandidateId, CandidateId> =
        (1..).zip(export::layout(draft, ts, who).order).map(|(i, c)| (c, CandidateId(i))).collect();
    for r in mine {
        if let Some((_, problem)) = validate::record(draft, r) {
            return Err(Error::whole_file(path, problem));
        }
        batch.master_mut().records.put(Record { candidate: local[&r.candidate], ..r.clone() });
    }
    Ok((batch, local))
}

/// What the report needs to say what each table of an old batch became.
struct Context<'a> {
    old: &'a OldFile,
    suite: &'a Suite,
    master: &'a Master,
    annotator: &'a Annotator,
    old_id: i64,
    /// Whether the batch names its annotator.
    named: bool,
    placed: String,
}

impl Context<'_> {
    /// The report's notes: what the old batch says of itself, what was taken on trust or left
    /// out, and when the original tool made it.
    fn notes(
        &self,
        gathered: &Gathered,
        others: &[Record],
        skipped: &BTreeMap<&str, usize>,
        any_records: bool,
    ) -> Vec<String> {
        let (old, master, annotator, old_id) = (self.old, self.master, self.annotator, self.old_id);
        let mut notes = old.meta.notes.clone();
        notes.extend(self.suite.notes.iter().cloned());
        if !self.named {
            notes.push(format!(
                "the batch does not name its annotator (the master it came from had no annotators row for id {old_id} when it was exported); taken as the master's annotator {}, {}",
                annotator.id, annotator.name
            ));
        }
        let old_checks = !old.meta.checks_disabled;
        if old_checks != master.settings.conflict_checks {
            let on_off = |on: bool| if on { "on" } else { "off" };
            notes.push(format!(
                "the old batch has conflict checks {} but the master has them {}; the batch follows the master",
                on_off(old_checks),
                on_off(master.settings.conflict_checks)
            ));
        }
        notes.extend(compare_others(master, others, skipped));
        notes.extend(Report::gathering_notes(gathered));
        if let Some(t) = old.meta.time_created.as_deref() {
            notes.push(format!("the original tool exported this batch at {} UTC (meta_data time_created)", t.trim()));
        }
        if any_records {
            notes.push(time_note());
        }
        notes
    }

    fn describe(&self, table: &str, new: &Counts) -> String {
        match table {
            "meta_data" => format!(
                "batch of {} (old id {}) for master {}{}",
                self.annotator.name,
                self.old_id,
                self.master.id,
                self.old.meta.time_created.as_deref().map_or(String::new(), |t| format!(", made {t}"))
            ),
            "corpora" => {
                format!("{}, the same as the master's", count_as(self.suite.corpora.len(), "corpus", "corpora"))
            }
            "sentences" => {
                format!("the same as the master's; the batch keeps the {} its context windows need", new.sentences)
            }
            "documents" => "the same as the master's".into(),
            "categories" => {
                format!("the batch keeps the {} of its examples", count_as(new.categories, "category", "categories"))
            }
            "pro_antecedents" | "translations" => "the same as the master's candidates".into(),
            "annotators" => format!("{} (id {})", self.annotator.name, self.annotator.id),
            "annotation_tasks" => format!("its place in the master: {}", self.placed),
            "task_definition" => "(the old tool leaves it empty in batches)".into(),
            _ => format!("{}, numbered 1… in a new order", count(new.candidates, "candidate")),
        }
    }
}

/// The batch's annotator in the master: `(old id, annotator, whether to add them, whether the
/// batch names them)`. A batch that does not name its annotator (the original's export copies
/// the name from the master's annotators table, and finds none when the master had no row) is
/// taken as the master's annotator of that id.
fn annotator(path: &Path, old: &OldFile, master: &Master) -> Result<(i64, Annotator, bool, bool)> {
    let refuse = |message: String| Err(Error::whole_file(path, message));
    let old_id = match old.meta.annotator_id.as_deref().map(|a| a.trim().parse::<i64>()) {
        Some(Ok(id)) => id,
        Some(Err(_)) => return refuse("meta_data annotator_id is not a number".into()),
        None => match old.annotators.as_slice() {
            [only] => only.id,
            _ => return refuse("the batch does not say whose it is (no annotator_id in meta_data)".into()),
        },
    };
    if old_id == OLD_RESEARCHER {
        return refuse(
            "the batch belongs to the researcher (annotator −1, MASTER); batches are annotators' work".into(),
        );
    }
    let given = old
        .meta
        .annotator_name
        .clone()
        .or_else(|| old.annotators.iter().find(|a| a.id == old_id).and_then(|a| a.name.clone()))
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    let named = given.is_some();
    let name = given.unwrap_or_else(|| format!("Annotator {old_id}"));
    let same = |a: &Annotator| {
        let ours = a.name.to_lowercase();
        ours == name.to_lowercase() || ours == format!("{name} (old id {old_id})").to_lowercase()
    };
    let kept = u32::try_from(old_id).ok().filter(|&id| id >= 1).map(AnnotatorId);
    if let Some(a) = kept.and_then(|id| master.annotator(id)) {
        if named && !same(a) {
            return refuse(format!(
                "the batch is {name}'s (old annotator id {old_id}), but annotator {old_id} of the converted master is {}; was it converted from another master?",
                a.name
            ));
        }
        return Ok((old_id, a.clone(), false, named));
    }
    if let Some(a) = master.annotators.iter().find(|a| same(a)) {
        return Ok((old_id, a.clone(), false, true));
    }
    let Some(id) = kept.or_else(|| master.next_annotator_id()) else {
        return refuse(format!("no annotator id is left for {name}: the master's reach {}", u32::MAX));
    };
    // Added to the master as `protest annotator add` would add them.
    let name = annotators::new_name(master, &name, None)
        .map_err(|e| Error::whole_file(path, format!("the batch's annotator cannot be added to the master: {e}")))?;
    Ok((old_id, Annotator { id, name }, true, true))
}

/// Where a batch's suite is not the master's: the first difference found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NotTheMasters {
    #[error("the master has no corpus like the batch's '{name}' (id {id})")]
    NoCorpus { name: String, id: CorpusId },
    #[error("corpus {id} is '{batch}' in the batch but '{master}' in the master")]
    CorpusName { id: CorpusId, batch: String, master: String },
    #[error("corpus '{name}' differs from the master's at line {line}")]
    Text { name: String, line: usize },
    /// Where the documents start, in the batch and in the master.
    #[error("the batch's documents start at lines {batch:?}, the master's at {master:?}")]
    Documents { batch: Vec<u32>, master: Vec<u32> },
    #[error("example {0} is not the same in the batch as in the master")]
    Example(ExampleNo),
    #[error("the master has no candidate of example {example} in corpus {corpus}")]
    NoCandidate { example: ExampleNo, corpus: CorpusId },
    #[error("candidate {candidate} (example {example}) has other aligned tokens in the batch than in the master")]
    Tokens { candidate: CandidateId, example: ExampleNo },
}

/// Batch candidate (as converted from the batch) → master candidate, after checking that the
/// batch's text, documents, examples and aligned positions are the master's.
fn match_suite(
    suite: &Suite,
    master: &Master,
) -> std::result::Result<HashMap<CandidateId, CandidateId>, NotTheMasters> {
    for c in &suite.corpora {
        let ours = if c.role.is_translation() { master.corpus(c.id) } else { master.source() };
        let Some(ours) = ours.filter(|o| o.role.is_translation() == c.role.is_translation()) else {
            return Err(NotTheMasters::NoCorpus { name: c.name.clone(), id: c.id });
        };
        if c.role.is_translation() && ours.name != c.name {
            let (batch, master) = (c.name.clone(), ours.name.clone());
            return Err(NotTheMasters::CorpusName { id: c.id, batch, master });
        }
        if let Some(line) =
            (0..c.sentences.len().max(ours.sentences.len())).find(|&i| c.sentences.get(i) != ours.sentences.get(i))
        {
            return Err(NotTheMasters::Text { name: c.name.clone(), line });
        }
    }
    if suite.has_documents && suite.documents != master.documents {
        let (batch, master) = (suite.documents.clone(), master.documents.clone());
        return Err(NotTheMasters::Documents { batch, master });
    }
    for e in &suite.examples {
        let same_category =
            |name: &str| suite.category(name).map(|c| c.anaphoric) == master.category(name).map(|c| c.anaphoric);
        if master.example(e.no) != Some(e) || !same_category(&e.category) {
            return Err(NotTheMasters::Example(e.no));
        }
    }
    let mut map = HashMap::new();
    for c in &suite.candidates {
        let Some(ours) = master.candidates_of(c.example).find(|o| o.corpus == c.corpus) else {
            return Err(NotTheMasters::NoCandidate { example: c.example, corpus: c.corpus });
        };
        if ours.pronoun != c.pronoun || ours.antecedents != c.antecedents {
            return Err(NotTheMasters::Tokens { candidate: ours.id, example: c.example });
        }
        map.insert(c.id, ours.id);
    }
    Ok(map)
}

/// What became of other annotators' records the old tool copied into the batch.
fn compare_others(master: &Master, others: &[Record], skipped: &BTreeMap<&str, usize>) -> Vec<String> {
    let mut notes = Vec::new();
    if !others.is_empty() {
        let same = others
            .iter()
            .filter(|r| master.records.get(r.candidate, r.annotator).is_some_and(|m| m.same_content(r)))
            .count();
        notes.push(format!(
            "{} of other annotators {} copies the old tool made when exporting; not carried into the batch ({same} equal to the master's{})",
            count(others.len(), "record"),
            if others.len() == 1 { "is one of the" } else { "are" },
            if same < others.len() { format!(", {} differ from it or are not in it", others.len() - same) } else { String::new() }
        ));
    }
    let unknown: usize = skipped.values().sum();
    if unknown > 0 {
        notes.push(format!("{unknown} rows belong to annotators the master does not know; not carried into the batch"));
    }
    notes
}
