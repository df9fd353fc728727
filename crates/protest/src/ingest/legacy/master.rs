//! Converting an old master into ours.

use super::old::OldFile;
use super::records;
use super::report::{Counts, OldCounts, Report};
use super::suite::{self, Suite};
use super::tasks::{self, TaskTally};
use super::{Options, UNKNOWN_TIME, time_note};
use crate::error::{Error, Result};
use crate::ingest::from_texts;
use crate::model::{Master, Records};
use crate::store::master_file;
use crate::store::summary::{count, count_as};
use std::path::Path;

pub(super) fn convert(path: &Path, old: &OldFile, options: &Options) -> Result<(Master, Report)> {
    // Its progress: a step each for the suite, the records, the task sets, the check, the counts.
    crate::progress::stage("Converting the master", Some(5));
    let suite = suite::build(path, old, &options.reference, options.shell)?;
    crate::progress::advance(1);
    let annotators = records::annotators(path, old, options.unknown, options.shell)?;
    records::check_annotators(path, old, &annotators.ids)?;
    let gathered = records::gather(path, old, &suite, &annotators.ids, UNKNOWN_TIME)?;
    crate::progress::advance(1);

    let mut notes = old.meta.notes.clone();
    notes.extend(suite.notes.iter().cloned());
    let given_id = old.meta.master_id.as_deref().map(str::trim).filter(|id| !id.is_empty());
    let id = given_id.map_or_else(from_texts::new_master_id, str::to_owned);
    if given_id.is_none() {
        notes.push(format!("the file has no master_id: the master gets the new id {id}"));
    }
    let mut m = Master::new(id, options.now);
    m.description = old.meta.master_description.clone().unwrap_or_default();
    m.settings.conflict_checks = !old.meta.checks_disabled;
    m.documents = suite.documents.clone();
    m.corpora = suite.corpora.clone();
    m.categories = suite.categories.clone();
    m.examples = suite.examples.clone();
    m.candidates = suite.candidates.clone();
    m.annotators = annotators.list.clone();
    m.records = gathered.records.iter().cloned().collect::<Records>();
    m.reindex();
    let (task_sets, tally) = tasks::task_sets(path, old, &m, &suite.candidate_ids, &annotators.ids, options.now)?;
    m.task_sets = task_sets;
    m.reindex();
    crate::progress::advance(1);
    master_file::check(path, &m)
        .map_err(|e| Error::whole_file(path, format!("the converted master would not be valid: {e}")))?;
    crate::progress::advance(1);

    let old_counts = OldCounts::of(old, |_| true, &gathered.dropped);
    let new = Counts::of(&m, m.records.iter());
    super::report::verify(&old_counts, &gathered, &new).map_err(|lost| lost_data(path, lost))?;
    crate::progress::advance(1);
    notes.extend(annotators.notes);
    notes.extend(Report::gathering_notes(&gathered));
    notes.extend(task_notes(&tally));
    if old.tasks_without_task_no {
        notes.push("annotation_tasks has no task_no column (the shape of the original's first AddToDatabase.sql, which no code of the tool used): its rows name no task and are not converted".into());
    }
    if !m.records.is_empty() {
        notes.push(time_note());
    }
    let describe = |t, new: &Counts| describe(t, old, &suite, &m, new, &tally, annotators.unknown);
    let report = Report::new(path, old, describe, old_counts, &gathered, new, notes);
    Ok((m, report))
}

/// The error when the counts do not add up: a bug, so nothing is written.
pub(super) fn lost_data(path: &Path, what: impl std::fmt::Display) -> Error {
    Error::whole_file(
        path,
        format!("the conversion would lose data ({what}), so nothing was written; please report this with the file"),
    )
}

/// What a suite or task table of an old master became.
fn describe(
    table: &str,
    old: &OldFile,
    suite: &Suite,
    m: &Master,
    n: &Counts,
    tally: &TaskTally,
    unknown: Option<crate::model::AnnotatorId>,
) -> String {
    match table {
        "meta_data" => format!(
            "master id {}, conflict checks {}",
            m.id,
            if m.settings.conflict_checks { "on" } else { "off (config:conflict_checks disabled)" }
        ),
        "corpora" => format!(
            "{} corpora: source '{}', {}, {}",
            n.corpora,
            m.corpora[0].name,
            m.reference().map_or("no reference".to_owned(), |r| format!("reference '{}'", r.name)),
            count(n.systems, "MT system"),
        ),
        "sentences" => format!("{} in each corpus", count(m.sentence_count() as usize, "sentence")),
        "documents" if !suite.has_documents => "one document (the table is empty)".into(),
        "documents" => format!("{}, the same in every corpus", count(n.documents, "document")),
        "categories" => count_as(n.categories, "category", "categories"),
        "pro_antecedents" => format!(
            "{} (the old file repeats an example's antecedents for each of its candidates)",
            count(n.antecedents, "antecedent")
        ),
        "translations" => format!(
            "{}: {} of pronouns, {} of antecedent heads",
            count(n.aligned_pronoun + n.aligned_antecedent, "aligned token"),
            n.aligned_pronoun,
            n.aligned_antecedent
        ),
        "annotators" => format!(
            "{}{}{}",
            count(n.annotators, "annotator"),
            if old.annotators.iter().any(|a| a.id == records::OLD_RESEARCHER) {
                " and the researcher (old id −1)"
            } else {
                ""
            },
            unknown.map_or(String::new(), |id| format!(", one of them ({id}) added for rows without an annotator"))
        ),
        "annotation_tasks" if old.tasks_without_task_no => {
            "not converted: this table (from the original's AddToDatabase.sql) has no task_no column".into()
        }
        "task_definition" => {
            format!("{} with {}", count(n.task_sets, "task set"), count(n.tasks, "task"))
        }
        "annotation_tasks" => {
            let placed: usize = m.task_sets.iter().flat_map(|t| &t.tasks).map(|t| t.candidates.len()).sum();
            let unassigned = match tally.unassigned {
                0 => String::new(),
                k => format!(", {k} unassigned (task_no −1) left out"),
            };
            format!("{}{unassigned}", count_as(placed, "place in a task", "places in tasks"))
        }
        _ => format!("{} examples, {} candidates", n.examples, n.candidates), // pro_candidates
    }
}

fn task_notes(tally: &TaskTally) -> Vec<String> {
    let mut notes = Vec::new();
    if tally.unassigned > 0 {
        notes.push(format!(
            "{} annotation_tasks rows have task_no −1: candidates the old planner left in no task; they are not carried over",
            tally.unassigned
        ));
    }
    if tally.repeated > 0 {
        notes.push(format!("{} annotation_tasks rows repeat a candidate of the same task; kept once", tally.repeated));
    }
    notes
}
