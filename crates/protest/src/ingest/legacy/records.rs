//! The annotations of an old file: annotators, and one record per candidate and annotator
//! gathered from `annotations`, `tag_annotations` and `token_annotations`.

use super::db::at_row;
use super::old::{self, OldFile};
use super::status;
use super::suite::Suite;
use crate::error::{Error, Result};
use crate::model::{Annotator, AnnotatorId, Candidate, CandidateId, Judgement, Record, tags};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The old tool's researcher, "MASTER".
pub const OLD_RESEARCHER: i64 = -1;

/// Our annotators and how old ids map to ours.
#[derive(Debug, Clone, Default)]
pub(super) struct Annotators {
    pub list: Vec<Annotator>,
    pub ids: HashMap<i64, AnnotatorId>,
    pub notes: Vec<String>,
}

/// The annotators of a master: −1 is our researcher (0); ids from 1 up are kept; any other id
/// gets a free one above them. Names are kept; a name used twice gets the old id added.
pub(super) fn annotators(old: &OldFile) -> Annotators {
    let mut out = Annotators::default();
    out.ids.insert(OLD_RESEARCHER, AnnotatorId::RESEARCHER);
    let mut rows: Vec<_> = old.annotators.iter().filter(|a| a.id != OLD_RESEARCHER).collect();
    rows.sort_by_key(|a| (a.id < 1, a.id));
    let mut next = rows.iter().filter_map(|a| u32::try_from(a.id).ok()).max().unwrap_or(0) + 1;
    for a in rows {
        let id = match u32::try_from(a.id) {
            Ok(id) if id >= 1 => AnnotatorId(id),
            _ => {
                next += 1;
                out.notes.push(format!("annotator {} (old id {}) is now annotator {}", show(a), a.id, next - 1));
                AnnotatorId(next - 1)
            }
        };
        let mut name = show(a);
        if out.list.iter().any(|b| b.name.to_lowercase() == name.to_lowercase()) {
            name = format!("{name} (old id {})", a.id);
            out.notes.push(format!("annotator name '{}' is used twice; old id {} is now '{name}'", show(a), a.id));
        }
        out.ids.insert(a.id, id);
        out.list.push(Annotator { id, name });
    }
    out
}

fn show(a: &super::old::Annotator) -> String {
    match a.name.as_deref().map(str::trim) {
        Some(n) if !n.is_empty() => n.to_owned(),
        _ => format!("Annotator {}", a.id),
    }
}

/// The records of an old file and how its rows were counted into them.
#[derive(Debug, Clone, Default)]
pub(super) struct Gathered {
    pub records: Vec<Record>,
    /// Rows by annotators not converted (batches: copies of other people's work), per table.
    pub skipped: BTreeMap<&'static str, usize>,
    /// Records made for tags or tokens that have no `annotations` row.
    pub implicit: usize,
    pub repeated_tags: usize,
    /// `token_annotations` rows whose `annotation` is empty: no selection.
    pub empty_tokens: usize,
    /// Selected tokens aligned to both the pronoun and an antecedent head: selected in both roles,
    /// so each such row gives two selections.
    pub both_roles: usize,
    /// Selections already made by an earlier row.
    pub repeated_tokens: usize,
}

/// One record per (candidate, annotator) of the annotators in `ids`; rows of other annotators are
/// counted in [`Gathered::skipped`]. Records are timed `time` (the old tool kept no times).
pub(super) fn gather(
    path: &Path,
    old: &OldFile,
    suite: &Suite,
    ids: &HashMap<i64, AnnotatorId>,
    time: DateTime<Utc>,
) -> Result<Gathered> {
    let mut out = Gathered::default();
    let mut records = Pending::new();
    let candidate = |table: &'static str, row: i64, old_id: i64| -> Result<&Candidate> {
        if suite.example_rows.contains(&old_id) {
            return Err(at_row(
                path,
                table,
                row,
                format!(
                    "candidate {old_id} pairs its example with a source corpus, so it has no translation to annotate"
                ),
            ));
        }
        suite.candidate_ids.get(&old_id).and_then(|&id| suite.candidate(id)).ok_or_else(|| {
            at_row(path, table, row, format!("candidate {old_id} is not in table {}", old.candidates_table))
        })
    };

    for a in &old.annotations {
        let c = candidate("annotations", a.id, a.candidate)?;
        let Some(&who) = ids.get(&a.annotator) else {
            *out.skipped.entry("annotations").or_default() += 1;
            continue;
        };
        if let Some((_, _, first)) = records.get(&(c.id, who)) {
            return Err(at_row(
                path,
                "annotations",
                a.id,
                format!(
                    "annotator {}'s annotation of candidate {} is also given by row {first}",
                    a.annotator, a.candidate
                ),
            ));
        }
        let r = record_of(path, a, c, who, suite, time)?;
        records.insert((c.id, who), (r, a.conflict.clone(), a.id));
    }

    for t in &old.tags {
        let c = candidate("tag_annotations", t.id, t.candidate)?;
        let Some(&who) = ids.get(&t.annotator) else {
            *out.skipped.entry("tag_annotations").or_default() += 1;
            continue;
        };
        if !tags::is_valid(&t.tag) {
            return Err(at_row(path, "tag_annotations", t.id, format!("tag '{}' is empty or has spaces", t.tag)));
        }
        if !entry(&mut records, c.id, who, time, &mut out.implicit).tags.insert(t.tag.clone()) {
            out.repeated_tags += 1;
        }
    }
    for t in &old.token_annotations {
        let c = candidate("token_annotations", t.id, t.candidate)?;
        let Some(&who) = ids.get(&t.annotator) else {
            *out.skipped.entry("token_annotations").or_default() += 1;
            continue;
        };
        let bad = |message: String| Err(at_row(path, "token_annotations", t.id, message));
        match t.annotation.as_deref() {
            Some("ok") => {}
            None | Some("") => {
                out.empty_tokens += 1;
                continue;
            }
            Some(other) => return bad(format!("annotation is '{other}'; the old tool marks selected tokens 'ok'")),
        }
        let token = match (u32::try_from(t.line), u32::try_from(t.token)) {
            (Ok(line), Ok(token)) => crate::model::TokenRef::new(line, token),
            _ => return bad(format!("line {} token {} is not a place in the text", t.line, t.token)),
        };
        let roles = c.roles_of(token);
        if roles.is_empty() {
            return bad(format!(
                "line {}, token {} is not among the tokens aligned to the pronoun or to an antecedent head of candidate {} (the only ones the old tool let annotators select)",
                t.line, t.token, t.candidate
            ));
        }
        out.both_roles += roles.len() - 1;
        let record = entry(&mut records, c.id, who, time, &mut out.implicit);
        for role in roles {
            out.repeated_tokens += usize::from(!record.selected.get_mut(role).insert(token));
        }
    }

    for (r, conflict, row) in records.into_values() {
        let mut r = r;
        r.conflict = status::from_old(conflict.as_deref(), &r).map_err(|m| at_row(path, "annotations", row, m))?;
        if status::to_old(&r.conflict, &r) != conflict {
            // Not what the old tool would write for this record: keep its exact words.
            if let Some(original) = conflict {
                r.legacy.insert("conflict_status".into(), original);
            }
        }
        out.records.push(r);
    }
    Ok(out)
}

/// The record an `annotations` row gives: judgements (an old `unsure` kept in `legacy`) and
/// remarks; its conflict status follows once its tags are known.
fn record_of(
    path: &Path,
    a: &old::Annotation,
    c: &Candidate,
    who: AnnotatorId,
    suite: &Suite,
    time: DateTime<Utc>,
) -> Result<Record> {
    let bad = |message: String| Err(at_row(path, "annotations", a.id, message));
    let mut r = Record::new(c.id, who, time);
    for (column, value, slot) in
        [("ant_annotation", &a.antecedent, &mut r.antecedent), ("anaph_annotation", &a.pronoun, &mut r.pronoun)]
    {
        *slot = match value.as_deref() {
            Some("ok") => Judgement::Yes,
            Some("bad") => Judgement::No,
            None | Some("" | "unset") => Judgement::Unset,
            Some("unsure") => {
                r.legacy.insert(column.into(), "unsure".into());
                Judgement::Unset
            }
            Some(other) => return bad(format!("{column} is '{other}'; the old tool writes ok, bad, unset or unsure")),
        };
    }
    let anaphoric = suite.example(c.example).and_then(|e| suite.category(&e.category)).is_some_and(|k| k.anaphoric);
    if r.antecedent.is_set() && !anaphoric {
        return bad(format!(
            "ant_annotation is '{}' but example {} is not anaphoric, so it has no antecedent to judge",
            a.antecedent.as_deref().unwrap_or_default(),
            c.example
        ));
    }
    r.remarks = a.remarks.clone().unwrap_or_default();
    Ok(r)
}

/// Records being gathered, each with its raw conflict status (mapped once its tags are known)
/// and its `annotations` row (0 for none).
type Pending = BTreeMap<(CandidateId, AnnotatorId), (Record, Option<String>, i64)>;

/// The record of a candidate and annotator, made (and counted) if there is none yet.
fn entry<'a>(
    records: &'a mut Pending,
    c: CandidateId,
    who: AnnotatorId,
    time: DateTime<Utc>,
    implicit: &mut usize,
) -> &'a mut Record {
    &mut records
        .entry((c, who))
        .or_insert_with(|| {
            *implicit += 1;
            (Record::new(c, who, time), None, 0)
        })
        .0
}

/// Refuses rows naming an annotator that is neither in table annotators nor the researcher.
pub(super) fn check_annotators(path: &Path, old: &OldFile, ids: &HashMap<i64, AnnotatorId>) -> Result<()> {
    let rows = old
        .annotations
        .iter()
        .map(|a| ("annotations", a.id, a.annotator))
        .chain(old.tags.iter().map(|t| ("tag_annotations", t.id, t.annotator)))
        .chain(old.token_annotations.iter().map(|t| ("token_annotations", t.id, t.annotator)));
    for (table, row, annotator) in rows {
        if !ids.contains_key(&annotator) {
            return Err(unknown_annotator(path, table, row, annotator));
        }
    }
    Ok(())
}

fn unknown_annotator(path: &Path, table: &str, row: i64, annotator: i64) -> Error {
    at_row(path, table, row, format!("annotator_id {annotator} is not in table annotators"))
}
