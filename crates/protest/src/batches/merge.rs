//! Bringing annotated batches back into their master (docs/domain.md, "Task sets").
//!
//! [`prepare`] checks everything and works out what would change, without changing anything:
//! each batch must belong to this master and to one of its task sets as it is now, its annotator
//! must be the master's, and every record must be valid against the master. [`apply`] then puts
//! the records in one go. Only the batch annotator's records of the batch's candidates are ever
//! written; records with the same content are left alone (timestamps included), so importing a
//! batch twice changes nothing, and records are never removed. The result does not depend on the
//! order the batches come in: each (candidate, annotator) has one record, and two batches that
//! disagree about the same one are refused together.

use crate::annotate::status;
use crate::batches::export;
use crate::error::{Error, Place, Result};
use crate::model::{Annotator, AnnotatorId, CandidateId, ExampleNo, Master, Record, TaskSet};
use crate::store::batch_file::Batch;
use crate::store::validate;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A batch to merge and the file it came from (for messages).
#[derive(Debug, Clone)]
pub struct Incoming {
    pub path: PathBuf,
    pub batch: Batch,
}

/// What merging one batch would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub path: PathBuf,
    pub annotator: String,
    pub task_set: u32,
    /// Records in the batch.
    pub records: usize,
    /// Records the master does not have yet.
    pub new: usize,
    /// Records that would replace a different one of the same annotator and candidate.
    pub replaced: usize,
    /// Of those replaced, how many are older than the master's (an older copy of the batch?).
    pub older: usize,
    /// Records the master already has with the same content: left alone.
    pub unchanged: usize,
    /// Blank records (nothing judged, tagged, written or selected) the master has none for:
    /// skipped, since they hold nothing to merge.
    pub blank: usize,
}

/// A checked merge, ready to [`apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub reports: Vec<Report>,
    records: Vec<Record>,
}

impl Merge {
    /// Existing records that would be replaced, over all batches: ask before applying.
    pub fn replaced(&self) -> usize {
        self.reports.iter().map(|r| r.replaced).sum()
    }

    /// How many records merging writes: the new ones and the replacements.
    pub fn written(&self) -> usize {
        self.records.len()
    }

    pub fn new_records(&self) -> usize {
        self.reports.iter().map(|r| r.new).sum()
    }

    /// Nothing would change: every record is already in the master.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}

/// Checks the batches against the master and works out the merge. The first problem is an error
/// naming the batch file; then nothing may be merged.
pub fn prepare(master: &Master, incoming: &[Incoming]) -> Result<Merge> {
    let mut reports = Vec::new();
    let mut chosen: BTreeMap<(CandidateId, AnnotatorId), (Record, &PathBuf)> = BTreeMap::new();
    for inc in incoming {
        let mapped = map_records(master, inc)?;
        let mut report = Report {
            path: inc.path.clone(),
            annotator: master.annotator_name(inc.batch.annotator().id),
            task_set: inc.batch.task_set,
            records: mapped.len(),
            new: 0,
            replaced: 0,
            older: 0,
            unchanged: 0,
            blank: 0,
        };
        for record in mapped {
            let key = (record.candidate, record.annotator);
            if let Some((other, other_path)) = chosen.get(&key) {
                if other.same_content(&record) && other.conflict == record.conflict {
                    continue;
                }
                return Err(Error::whole_file(
                    &inc.path,
                    format!(
                        "its record of master candidate {} differs from the one in {}; merge them one at a time",
                        record.candidate,
                        other_path.display()
                    ),
                ));
            }
            match master.records.get(record.candidate, record.annotator) {
                None if record.is_blank() => report.blank += 1,
                None => report.new += 1,
                Some(old) if old.same_content(&record) && old.conflict == record.conflict => report.unchanged += 1,
                Some(old) => {
                    report.replaced += 1;
                    report.older += usize::from(record.modified < old.modified);
                }
            }
            chosen.insert(key, (record, &inc.path));
        }
        reports.push(report);
    }
    let records = chosen
        .into_values()
        .map(|(r, _)| r)
        .filter(|r| match master.records.get(r.candidate, r.annotator) {
            None => !r.is_blank(),
            // The same record with more active time (the annotator looked at it again): the time
            // is taken; it is counted with the unchanged records.
            Some(old) => !(old.same_content(r) && old.conflict == r.conflict) || r.active_ms > old.active_ms,
        })
        .collect();
    Ok(Merge { reports, records })
}

/// Puts the merge's records into the master; returns how many were written.
pub fn apply(master: &mut Master, merge: &Merge) -> usize {
    for record in &merge.records {
        master.records.put(record.clone());
    }
    merge.records.len()
}

/// The batch's records under master candidate ids, after checking that the batch is this
/// master's and matches the task set it came from.
fn map_records(master: &Master, inc: &Incoming) -> Result<Vec<Record>> {
    let (path, batch) = (&inc.path, &inc.batch);
    let refuse = |why: NotFromHere| Error::whole_file(path, why);
    let part = Part::of(master, batch).map_err(refuse)?;
    part.check_candidates(master, batch.content()).map_err(refuse)?;
    let mut mapped = Vec::with_capacity(batch.content().records.len());
    for (i, r) in batch.content().records.iter().enumerate() {
        match intake(master, &part.layout, r) {
            Ok(record) => mapped.push(record),
            Err(Intake::NotInPart) => {
                return Err(refuse(NotFromHere::RecordOfNone(r.candidate)));
            }
            Err(Intake::Invalid { field, problem, original }) => {
                return Err(Error::invalid(
                    path,
                    Some(Place::Json { path: format!("records[{i}].{field}"), line: None }),
                    format!("(batch candidate {} is master candidate {original}) {problem}", r.candidate),
                ));
            }
        }
    }
    Ok(mapped)
}

/// Why a batch is not one of this master's parts as the master is now. Names are annotators';
/// `given` how many candidates the task set gives the annotator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NotFromHere {
    #[error("this batch was exported from master '{batch}', not from this one ('{master}')")]
    OtherMaster { batch: String, master: String },
    #[error(
        "it says its master has {claimed} sentences, but this master has {has}; the batch is damaged or was exported from another copy of the master"
    )]
    Sentences { claimed: u32, has: u32 },
    #[error("its annotator {name} (id {id}) is not in this master; was the batch exported from another copy of it?")]
    NoAnnotator { name: String, id: AnnotatorId },
    #[error("task set {0} is not in this master; was the batch exported from another copy of it?")]
    NoTaskSet(u32),
    #[error("{name} has no part in task set {task_set} of this master")]
    NoPart { name: String, task_set: u32 },
    #[error("its candidate {candidate} is unknown: task set {task_set} gives {name} only {given} candidates")]
    UnknownCandidate { candidate: CandidateId, task_set: u32, name: String, given: usize },
    #[error("its candidate {candidate} (master candidate {original}) no longer exists in the master")]
    Gone { candidate: CandidateId, original: CandidateId },
    /// The batch's candidate and example, and the master's candidate and its example.
    #[error(
        "its candidate {candidate} (example {example}) does not match master candidate {original} (example {theirs}); the batch does not come from task set {task_set} of this master as it is now"
    )]
    Mismatch { candidate: CandidateId, example: ExampleNo, original: CandidateId, theirs: ExampleNo, task_set: u32 },
    #[error("it has {has} candidates, but task set {task_set} gives {name} {given}")]
    Count { has: usize, task_set: u32, name: String, given: usize },
    #[error("its record of candidate {0} is for a candidate it does not have")]
    RecordOfNone(CandidateId),
}

/// The master's side of a batch: its annotator, its task set and the layout that maps its
/// candidates and corpora to the master's.
struct Part<'a> {
    annotator: &'a Annotator,
    task_set: &'a TaskSet,
    layout: export::Layout,
}

impl<'a> Part<'a> {
    /// The batch's part in `master`, refused when the batch is another master's or claims another
    /// number of sentences, or its annotator or task set is not in this one, or the annotator has
    /// no part of the task set.
    fn of(master: &'a Master, batch: &Batch) -> std::result::Result<Part<'a>, NotFromHere> {
        if batch.master_id != master.id {
            return Err(NotFromHere::OtherMaster { batch: batch.master_id.clone(), master: master.id.clone() });
        }
        let (claimed, has) = (batch.content.sentence_count(), master.sentence_count());
        if claimed != has {
            return Err(NotFromHere::Sentences { claimed, has });
        }
        let annotator = batch.annotator();
        let Some(ours) = master.annotator(annotator.id) else {
            return Err(NotFromHere::NoAnnotator { name: annotator.name.clone(), id: annotator.id });
        };
        let Some(task_set) = master.task_set(batch.task_set) else {
            return Err(NotFromHere::NoTaskSet(batch.task_set));
        };
        let layout = export::layout(master, task_set, annotator.id);
        if layout.order.is_empty() {
            return Err(NotFromHere::NoPart { name: ours.name.clone(), task_set: task_set.id });
        }
        Ok(Part { annotator: ours, task_set, layout })
    }

    /// Refuses a batch whose candidates are not, one for one, those its layout gives the
    /// annotator as the master has them now: the batch was made from another state of the master.
    fn check_candidates(&self, master: &Master, content: &Master) -> std::result::Result<(), NotFromHere> {
        let (layout, task_set, ours) = (&self.layout, self.task_set.id, self.annotator);
        for local in &content.candidates {
            let candidate = local.id;
            let Some(original) = original_of(layout, candidate) else {
                let (name, given) = (ours.name.clone(), layout.order.len());
                return Err(NotFromHere::UnknownCandidate { candidate, task_set, name, given });
            };
            let Some(theirs) = master.candidate(original) else {
                return Err(NotFromHere::Gone { candidate, original });
            };
            let corpus = layout.corpora.iter().position(|&c| c == theirs.corpus).map(|i| i as u32 + 1);
            let same = local.example == theirs.example
                && Some(local.corpus.0) == corpus
                && local.pronoun == theirs.pronoun
                && local.antecedents == theirs.antecedents;
            if !same {
                let (example, theirs) = (local.example, theirs.example);
                return Err(NotFromHere::Mismatch { candidate, example, original, theirs, task_set });
            }
        }
        if content.candidates.len() != layout.order.len() {
            let (name, given) = (ours.name.clone(), layout.order.len());
            return Err(NotFromHere::Count { has: content.candidates.len(), task_set, name, given });
        }
        Ok(())
    }
}

/// Why a batch's record cannot come into the master.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intake {
    /// Its candidate is not one of the batch's.
    NotInPart,
    /// It is not valid against the master: the field and the problem.
    Invalid { field: &'static str, problem: String, original: CandidateId },
}

/// A record of a batch (batch candidate id) as it comes into the master: under the master
/// candidate that `layout` maps it to, valid against the master, and with a `clear` status that
/// breaks a rule turned into `unchecked` (`clear` is derived, not taken on trust). What merging
/// checks of every record, and `protest serve` of every change a page sends.
pub fn intake(master: &Master, layout: &export::Layout, record: &Record) -> std::result::Result<Record, Intake> {
    let original = original_of(layout, record.candidate).ok_or(Intake::NotInPart)?;
    let mut record = Record { candidate: original, ..record.clone() };
    if let Some((field, problem)) = validate::record(master, &record) {
        return Err(Intake::Invalid { field, problem, original });
    }
    status::rederive(master, &mut record);
    Ok(record)
}

/// The master candidate of a batch candidate (batch ids are positions in the order, from 1).
fn original_of(layout: &export::Layout, local: CandidateId) -> Option<CandidateId> {
    (local.0 as usize).checked_sub(1).and_then(|i| layout.order.get(i)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::edit::{self, Edit};
    use crate::batches::export::{assign, build};
    use crate::batches::plan::{self, Request, every};
    use crate::model::{Judgement, Role};
    use chrono::{DateTime, Duration, Utc};

    fn planned() -> Master {
        let mut m = crate::testing::unplanned_sample();
        let p = plan::plan(&m, &Request::everything(&m, 2, 30, 42), every, DateTime::UNIX_EPOCH).unwrap();
        m.task_sets.push(p.task_set);
        assign(&mut m, 1, &["Anna".into(), "Ben".into()]).unwrap();
        m.reindex();
        m
    }

    const ANNA: AnnotatorId = AnnotatorId(1);
    const BEN: AnnotatorId = AnnotatorId(2);

    fn t(minutes: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + Duration::minutes(minutes)
    }

    /// A batch for `who` in which the first `n` candidates were judged `pronoun`.
    fn annotated(m: &Master, who: AnnotatorId, n: usize, pronoun: Judgement, at: DateTime<Utc>) -> Incoming {
        let mut batch = build(m, 1, who, t(0)).unwrap();
        let order = batch.order();
        for &c in order.iter().take(n) {
            let content = batch.content().clone();
            let r = edit::apply(&content, c, who, None, Edit::Judge(Role::Pronoun, pronoun), at).unwrap();
            crate::store::Document::master_mut(&mut batch).records.put(r);
        }
        Incoming { path: PathBuf::from(format!("{}.json", m.annotator_name(who))), batch }
    }

    fn merged(m: &Master, incoming: &[Incoming]) -> Master {
        let mut m = m.clone();
        let merge = prepare(&m, incoming).unwrap();
        apply(&mut m, &merge);
        m
    }

    #[test]
    fn records_come_back_under_master_ids() {
        let m = planned();
        let anna = annotated(&m, ANNA, 5, Judgement::Yes, t(1));
        let merge = prepare(&m, std::slice::from_ref(&anna)).unwrap();
        assert_eq!((merge.new_records(), merge.replaced()), (5, 0));
        let after = merged(&m, &[anna]);
        let order = export::layout(&m, &m.task_sets[0], ANNA).order;
        for &c in &order[..5] {
            assert_eq!(after.records.get(c, ANNA).unwrap().pronoun, Judgement::Yes);
        }
        assert_eq!(after.records.len(), 5);
    }

    #[test]
    fn a_longer_active_time_is_taken_without_asking() {
        let m = planned();
        let timed = |ms: Option<u64>| {
            let mut anna = annotated(&m, ANNA, 3, Judgement::Yes, t(1));
            let records = &mut crate::store::Document::master_mut(&mut anna.batch).records;
            for mut r in records.iter().cloned().collect::<Vec<_>>() {
                r.active_ms = ms;
                records.put(r);
            }
            anna
        };
        let once = merged(&m, &[timed(Some(5_000))]);
        let longer = prepare(&once, &[timed(Some(9_000))]).unwrap();
        assert_eq!((longer.replaced(), longer.reports[0].unchanged, longer.written()), (0, 3, 3));
        let after = merged(&once, &[timed(Some(9_000))]);
        assert!(after.records.iter().all(|r| r.active_ms == Some(9_000)));
        // A shorter time or none (an older copy of the batch) changes nothing.
        assert!(prepare(&after, &[timed(Some(1_000))]).unwrap().is_empty());
        assert!(prepare(&after, &[timed(None)]).unwrap().is_empty());
    }

    #[test]
    fn merging_twice_changes_nothing_and_order_does_not_matter() {
        let m = planned();
        let anna = annotated(&m, ANNA, 40, Judgement::Yes, t(1));
        let ben = annotated(&m, BEN, 50, Judgement::No, t(2));
        let once = merged(&m, std::slice::from_ref(&anna));
        let again = prepare(&once, std::slice::from_ref(&anna)).unwrap();
        assert!(again.is_empty());
        assert_eq!(again.reports[0].unchanged, 40);
        let ab = merged(&merged(&m, std::slice::from_ref(&anna)), std::slice::from_ref(&ben));
        let ba = merged(&merged(&m, std::slice::from_ref(&ben)), std::slice::from_ref(&anna));
        assert_eq!(ab, ba);
        assert_eq!(ab, merged(&m, &[ben, anna]));
        assert_eq!(ab.records.iter().filter(|r| r.annotator == ANNA).count(), 40);
        assert_eq!(ab.records.iter().filter(|r| r.annotator == BEN).count(), 50);
    }

    #[test]
    fn blank_records_are_counted_as_skipped_not_as_already_there() {
        let m = planned();
        let mut anna = annotated(&m, ANNA, 2, Judgement::Yes, t(1));
        let c = anna.batch.order()[5];
        crate::store::Document::master_mut(&mut anna.batch).records.put(Record::new(c, ANNA, t(2)));
        let merge = prepare(&m, std::slice::from_ref(&anna)).unwrap();
        let r = &merge.reports[0];
        assert_eq!((r.records, r.new, r.unchanged, r.blank, merge.written()), (3, 2, 0, 1, 2));
    }

    #[test]
    fn changed_records_are_counted_as_replacements_and_others_are_untouched() {
        let m = planned();
        let base =
            merged(&m, &[annotated(&m, ANNA, 10, Judgement::Yes, t(1)), annotated(&m, BEN, 10, Judgement::Yes, t(1))]);
        // Anna changed her mind on the first 3 later; the other 7 are the same.
        let mut anna = annotated(&m, ANNA, 10, Judgement::Yes, t(1));
        let content = anna.batch.content().clone();
        for c in anna.batch.order().into_iter().take(3) {
            let old = content.records.get(c, ANNA);
            let r = edit::apply(&content, c, ANNA, old, Edit::Judge(Role::Pronoun, Judgement::No), t(5)).unwrap();
            crate::store::Document::master_mut(&mut anna.batch).records.put(r);
        }
        let merge = prepare(&base, std::slice::from_ref(&anna)).unwrap();
        let report = &merge.reports[0];
        assert_eq!((report.records, report.new, report.replaced, report.older, report.unchanged), (10, 0, 3, 0, 7));
        let after = merged(&base, &[anna]);
        let bens = |m: &Master| m.records.iter().filter(|r| r.annotator == BEN).cloned().collect::<Vec<_>>();
        assert_eq!(bens(&after), bens(&base));
        assert_eq!(after.records.iter().filter(|r| r.pronoun == Judgement::No).count(), 3);
        // Unchanged records keep their timestamps.
        let kept: Vec<_> =
            after.records.iter().filter(|r| r.annotator == ANNA && r.pronoun == Judgement::Yes).collect();
        assert!(kept.len() == 7 && kept.iter().all(|r| r.modified == t(1)));
        // Importing the older copy over the newer records is flagged.
        let older = prepare(&after, &[annotated(&m, ANNA, 10, Judgement::Yes, t(1))]).unwrap();
        assert_eq!((older.replaced(), older.reports[0].older), (3, 3));
    }

    #[test]
    fn refusals_name_the_file_and_the_problem() {
        let m = planned();
        let err = |m: &Master, inc: Incoming| prepare(m, &[inc]).unwrap_err().to_string();

        let mut foreign = m.clone();
        foreign.id = "another-master".into();
        let e = err(&foreign, annotated(&m, ANNA, 1, Judgement::Yes, t(1)));
        assert!(e.starts_with("Anna.json: this batch was exported from master 'sample-news-en-fr-0001', not from this one ('another-master')"), "{e}");

        let mut no_task_set = m.clone();
        no_task_set.task_sets.clear();
        assert!(
            err(&no_task_set, annotated(&m, ANNA, 1, Judgement::Yes, t(1)))
                .contains("task set 1 is not in this master")
        );

        let mut no_anna = m.clone();
        no_anna.annotators.retain(|a| a.id != ANNA);
        assert!(
            err(&no_anna, annotated(&m, ANNA, 1, Judgement::Yes, t(1)))
                .contains("annotator Anna (id 1) is not in this master")
        );

        // A re-planned task set under the same id: the batch no longer matches it.
        let mut replanned = m.clone();
        replanned.task_sets[0].seed = 43;
        let e = err(&replanned, annotated(&m, ANNA, 1, Judgement::Yes, t(1)));
        assert!(e.contains("does not match master candidate") || e.contains("is unknown"), "{e}");

        // A candidate beyond the annotator's share.
        let mut extra = annotated(&m, ANNA, 0, Judgement::Yes, t(1));
        let content = crate::store::Document::master_mut(&mut extra.batch);
        let mut c = content.candidates[0].clone();
        c.id = CandidateId(76);
        content.candidates.push(c);
        content.reindex();
        assert!(err(&m, extra).contains("its candidate 76 is unknown: task set 1 gives Anna only 75 candidates"));
    }

    #[test]
    fn a_stored_clear_that_breaks_a_rule_comes_in_unchecked() {
        let m = planned();
        // Anna's first candidate with a token aligned to its pronoun judged yes with no token
        // selected, the file claiming "clear".
        let mut anna = annotated(&m, ANNA, 0, Judgement::Yes, t(1));
        let order = anna.batch.order();
        let aligned = |c: &CandidateId| anna.batch.content().candidate(*c).is_some_and(|c| !c.pronoun.is_empty());
        let at = order.iter().position(aligned).unwrap();
        let local = order[at];
        let content = crate::store::Document::master_mut(&mut anna.batch);
        let r = edit::apply(content, local, ANNA, None, Edit::Judge(Role::Pronoun, Judgement::Yes), t(1)).unwrap();
        content.records.put(Record { conflict: crate::model::ConflictStatus::Clear, ..r });
        assert_eq!(status::status_of(anna.batch.content(), local, ANNA), status::Status::Conflict);
        let after = merged(&m, &[anna]);
        let original = export::layout(&m, &m.task_sets[0], ANNA).order[at];
        let merged = after.records.get(original, ANNA).unwrap();
        assert_eq!(merged.conflict, crate::model::ConflictStatus::Unchecked);
        assert_eq!(status::status(&after, Some(merged)), status::Status::Conflict, "never counted as done");
    }

    #[test]
    fn two_batches_disagreeing_about_one_record_are_refused() {
        let m = planned();
        let a = annotated(&m, ANNA, 2, Judgement::Yes, t(1));
        let mut b = annotated(&m, ANNA, 2, Judgement::No, t(2));
        b.path = PathBuf::from("Anna-copy.json");
        let e = prepare(&m, &[a.clone(), b]).unwrap_err().to_string();
        assert!(
            e.starts_with("Anna-copy.json: its record of master candidate")
                && e.contains("differs from the one in Anna.json"),
            "{e}"
        );
        // The same batch twice is fine.
        assert_eq!(prepare(&m, &[a.clone(), a]).unwrap().new_records(), 2);
    }
}
