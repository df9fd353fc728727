//! The annotations of an old file: annotators, and one record per candidate and annotator
//! gathered from `annotations`, `tag_annotations` and `token_annotations`.

use super::db::at_row;
use super::old::{self, OldFile};
use super::status;
use super::suite::Suite;
use crate::error::{Error, Result};
use crate::model::{Annotator, AnnotatorId, Candidate, CandidateId, Judgement, LEGACY_PRONOUN, Record, tags, text};
use crate::shell::Shell;
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// The old tool's researcher, "MASTER".
pub const OLD_RESEARCHER: i64 = -1;

/// The name of the annotator added for rows without one.
pub const UNKNOWN_NAME: &str = "Unknown (old annotator_id NULL/0)";

/// Whose the rows without an annotator are: `annotator_id` NULL (rows made before the original's
/// `AddToDatabase.sql` added the column) or 0, which the original read the same way (JDBC's
/// `getInt` gives 0 for NULL).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unknown {
    /// An annotator of their own, [`UNKNOWN_NAME`]: in the original's last versions annotator 0
    /// is nobody (the researcher is −1), shown as "Annotator null".
    #[default]
    Annotator,
    /// The researcher's: in one version of the original (`ProtestGUI.java@011bb9dc`, lines
    /// 62–66) the master's own user saved as annotator 0.
    Researcher,
}

/// Our annotators and how old ids map to ours.
#[derive(Debug, Clone, Default)]
pub(super) struct Annotators {
    pub list: Vec<Annotator>,
    pub ids: HashMap<i64, AnnotatorId>,
    pub notes: Vec<String>,
    /// The annotator added for rows without one, if any was.
    pub unknown: Option<AnnotatorId>,
}

/// The annotators of a master: −1 is our researcher (0); ids from 1 up are kept; any other id
/// gets a free one above them. Names are kept; a name used twice, or that looks like an earlier
/// one ([`text::likeness`]), gets the old id added. A name that hides characters (zero-width,
/// direction-changing: [`text::normalize_name`]) is refused naming its row. Rows without an
/// annotator (NULL or 0, with no annotators row 0) go to the researcher or to an annotator added
/// for them, as `unknown` says, with a note naming the rows.
pub(super) fn annotators(path: &Path, old: &OldFile, unknown: Unknown, shell: Shell) -> Result<Annotators> {
    let mut out = Annotators::default();
    out.ids.insert(OLD_RESEARCHER, AnnotatorId::RESEARCHER);
    let mut rows: Vec<_> = old.annotators.iter().filter(|a| a.id != OLD_RESEARCHER).collect();
    rows.sort_by_key(|a| (a.id < 1, a.id));
    let mut next = rows.iter().filter_map(|a| u32::try_from(a.id).ok()).max().unwrap_or(0).checked_add(1);
    for a in rows {
        let no_id_left = || {
            at_row(
                path,
                "annotators",
                a.id,
                format!("no annotator id is left for it: the ids in use reach {}", u32::MAX),
            )
        };
        let id = match u32::try_from(a.id) {
            Ok(id) if id >= 1 => AnnotatorId(id),
            _ => {
                let id = next.ok_or_else(no_id_left)?;
                next = id.checked_add(1);
                out.notes.push(format!("annotator {} (old id {}) is now annotator {id}", show(a), a.id));
                AnnotatorId(id)
            }
        };
        let shown = show(a);
        let mut name = text::normalize_name(&shown)
            .map_err(|why| at_row(path, "annotators", a.id, format!("name '{}': {why}", shown.escape_debug())))?;
        let likeness = text::likeness(&name);
        if let Some(b) = out.list.iter().find(|b| text::likeness(&b.name) == likeness) {
            let why = match b.name.to_lowercase() == name.to_lowercase() {
                true => "is used twice".to_owned(),
                false => format!("looks like '{}'", b.name),
            };
            name = format!("{name} (old id {})", a.id);
            out.notes.push(format!("annotator name '{shown}' {why}; old id {} is now '{name}'", a.id));
        }
        out.ids.insert(a.id, id);
        out.list.push(Annotator { id, name });
    }
    let rows = nameless_rows(old);
    if rows.is_empty() {
        return Ok(out);
    }
    let whose = match out.ids.get(&0) {
        Some(&id) => format!("They are read as annotators row 0, now annotator {id}"),
        None if unknown == Unknown::Researcher => {
            out.ids.insert(0, AnnotatorId::RESEARCHER);
            format!("They are the researcher's, as asked{}", shell.says(" (--unknown-annotator researcher)", ""))
        }
        None => {
            let Some(id) = out.list.iter().map(|a| a.id.0).max().unwrap_or(0).checked_add(1).map(AnnotatorId) else {
                return Err(Error::whole_file(
                    path,
                    format!(
                        "no annotator id is left for the rows without an annotator: the ids in use reach {}",
                        u32::MAX
                    ),
                ));
            };
            out.ids.insert(0, id);
            out.list.push(Annotator { id, name: UNKNOWN_NAME.into() });
            out.unknown = Some(id);
            let remedy = shell.says(
                "convert with --unknown-annotator researcher",
                "convert again with “Annotations that name no annotator are my own” ticked",
            );
            format!("Kept as annotator {id} '{UNKNOWN_NAME}'; {remedy} if they are your own")
        }
    };
    out.notes.push(format!(
        "{}. The original tool read all of them as annotator 0 — in its last versions a nameless annotator, in an earlier one the master's own user. {whose}",
        rows.join("; ")
    ));
    Ok(out)
}

/// The rows without an annotator, in words: "annotations rows 3, 4 have no annotator_id; …".
fn nameless_rows(old: &OldFile) -> Vec<String> {
    let mut null: Vec<(&str, Vec<i64>)> = Vec::new();
    let mut zero: Vec<(&str, Vec<i64>)> = Vec::new();
    let tables = [
        ("annotations", old.annotations.iter().map(|a| (a.id, a.who)).collect::<Vec<_>>()),
        ("token_annotations", old.token_annotations.iter().map(|t| (t.id, t.who)).collect()),
        ("tag_annotations", old.tags.iter().map(|t| (t.id, t.who)).collect()),
    ];
    for (table, rows) in tables {
        let of = |raw: Option<i64>| rows.iter().filter(|(_, w)| w.raw == raw).map(|(id, _)| *id).collect::<Vec<_>>();
        for (list, raw) in [(&mut null, None), (&mut zero, Some(0))] {
            let ids = of(raw);
            if !ids.is_empty() {
                list.push((table, ids));
            }
        }
    }
    let say = |list: &[(&str, Vec<i64>)], what: &str| {
        (!list.is_empty()).then(|| {
            let parts: Vec<String> = list.iter().map(|(t, ids)| rows_in(t, ids)).collect();
            let one = list.len() == 1 && list[0].1.len() == 1;
            format!("{} {} {what}", parts.join(" and "), if one { "has" } else { "have" })
        })
    };
    let mut out = Vec::new();
    out.extend(say(&null, "no annotator_id (rows made before the original's AddToDatabase.sql added the column)"));
    out.extend(say(&zero, "annotator_id 0"));
    out
}

/// "annotations row 3", "token_annotations rows 2, 5, 9, 11, 12 and 40 more".
pub(super) fn rows_in(table: &str, ids: &[i64]) -> String {
    const SHOWN: usize = 6;
    let shown: Vec<String> = ids.iter().take(SHOWN).map(i64::to_string).collect();
    let more = if ids.len() > SHOWN { format!(" and {} more", ids.len() - SHOWN) } else { String::new() };
    format!("{table} {} {}{more}", if ids.len() == 1 { "row" } else { "rows" }, shown.join(", "))
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
    /// `annotations` rows not kept because a newer row gives the same candidate and annotator.
    pub dropped: BTreeSet<i64>,
    /// What was kept and dropped of each candidate and annotator with several `annotations` rows.
    pub duplicate_notes: Vec<String>,
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
    let mut g = Gathering { path, old, suite, ids, time, out: Gathered::default(), records: Pending::new() };
    let merged = g.annotations()?;
    g.tags()?;
    g.tokens()?;
    g.note_merged(merged);
    g.finish()
}

/// The records being gathered from an old file's rows, and how the rows were counted.
struct Gathering<'a> {
    path: &'a Path,
    old: &'a OldFile,
    suite: &'a Suite,
    ids: &'a HashMap<i64, AnnotatorId>,
    time: DateTime<Utc>,
    out: Gathered,
    records: Pending,
}

impl<'a> Gathering<'a> {
    /// The candidate a row of `table` is about, refused if it is none.
    fn candidate(&self, table: &'static str, row: i64, old_id: i64) -> Result<&'a Candidate> {
        let (path, suite) = (self.path, self.suite);
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
            at_row(path, table, row, format!("candidate {old_id} is not in table {}", self.old.candidates_table))
        })
    }

    /// The converted annotator of a row of `table`; `None`, counted as skipped, for another's.
    fn annotator(&mut self, table: &'static str, old_id: i64) -> Option<AnnotatorId> {
        let who = self.ids.get(&old_id).copied();
        if who.is_none() {
            *self.out.skipped.entry(table).or_default() += 1;
        }
        who
    }

    /// A record per candidate and annotator from the annotations rows; returns those made from
    /// several rows, with the name of the annotator the kept row names.
    fn annotations(&mut self) -> Result<Vec<((CandidateId, AnnotatorId), String)>> {
        let (path, old, suite) = (self.path, self.old, self.suite);
        // The original's window read a candidate's rows `order by annotator_id` (NULL first; ties
        // in row id order), each overwriting the last (TestSuiteExample.java@03bac4cb:306-315): the
        // newest row of a candidate and annotator is what it showed.
        let mut groups: BTreeMap<(CandidateId, AnnotatorId), Vec<&old::Annotation>> = BTreeMap::new();
        for a in &old.annotations {
            let c = self.candidate("annotations", a.id, a.candidate)?;
            let Some(who) = self.annotator("annotations", a.annotator) else { continue };
            groups.entry((c.id, who)).or_default().push(a);
        }
        let mut merged = Vec::new();
        for ((c, who), mut rows) in groups {
            rows.sort_by_key(|a| (a.who.raw, a.id));
            let candidate = suite.candidate(c).expect("looked up above");
            let mut made = Vec::new();
            for a in &rows {
                made.push(record_of(path, a, candidate, who, suite, self.time)?);
            }
            let (kept, r) = (rows[rows.len() - 1], made.pop().expect("a group has a row"));
            if rows.len() > 1 {
                self.out.dropped.extend(rows[..rows.len() - 1].iter().map(|a| a.id));
                self.out.duplicate_notes.push(duplicate_note(old, &rows));
                merged.push(((c, who), old_annotator_name(old, kept)));
            }
            self.records.insert((c, who), (r, kept.conflict.clone(), kept.id));
        }
        Ok(merged)
    }

    /// The tags, into their records (made for tags without an annotations row).
    fn tags(&mut self) -> Result<()> {
        for t in &self.old.tags {
            let c = self.candidate("tag_annotations", t.id, t.candidate)?;
            let Some(who) = self.annotator("tag_annotations", t.annotator) else { continue };
            if !tags::is_valid(&t.tag) {
                return Err(at_row(
                    self.path,
                    "tag_annotations",
                    t.id,
                    format!("tag '{}' is empty or has spaces", t.tag),
                ));
            }
            if !entry(&mut self.records, c.id, who, self.time, &mut self.out.implicit).tags.insert(t.tag.clone()) {
                self.out.repeated_tags += 1;
            }
        }
        Ok(())
    }

    /// The selected tokens, into their records in every role the token is aligned to.
    fn tokens(&mut self) -> Result<()> {
        for t in &self.old.token_annotations {
            let c = self.candidate("token_annotations", t.id, t.candidate)?;
            let Some(who) = self.annotator("token_annotations", t.annotator) else { continue };
            let bad = |message: String| Err(at_row(self.path, "token_annotations", t.id, message));
            match t.annotation.as_deref() {
                Some("ok") => {}
                None | Some("") => {
                    self.out.empty_tokens += 1;
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
            self.out.both_roles += roles.len() - 1;
            let record = entry(&mut self.records, c.id, who, self.time, &mut self.out.implicit);
            for role in roles {
                self.out.repeated_tokens += usize::from(!record.selected.get_mut(role).insert(token));
            }
        }
        Ok(())
    }

    /// A record made from several annotations rows keeps the tags and tokens of all: say so.
    fn note_merged(&mut self, merged: Vec<((CandidateId, AnnotatorId), String)>) {
        for (key, who) in merged {
            let r = &self.records[&key].0;
            if !r.tags.is_empty() || !r.selected.pronoun.is_empty() || !r.selected.antecedent.is_empty() {
                self.out.duplicate_notes.push(format!(
                    "candidate {}, {who}: the tags and selected tokens are those of all the tag_annotations and token_annotations rows together, as the original tool showed them",
                    key.0
                ));
            }
        }
    }

    /// The records with their conflict statuses, read from the old words.
    fn finish(mut self) -> Result<Gathered> {
        for (mut r, conflict, row) in self.records.into_values() {
            r.conflict =
                status::from_old(conflict.as_deref(), &r).map_err(|m| at_row(self.path, "annotations", row, m))?;
            if status::to_old(&r.conflict, &r) != conflict {
                // Not what the old tool would write for this record: keep its exact words.
                if let Some(original) = conflict {
                    r.legacy.insert("conflict_status".into(), original);
                }
            }
            self.out.records.push(r);
        }
        Ok(self.out)
    }
}

/// What became of several `annotations` rows of one candidate and annotator (in the original's
/// order, the kept one last).
fn duplicate_note(old: &OldFile, rows: &[&old::Annotation]) -> String {
    let kept = rows[rows.len() - 1];
    let values = |a: &old::Annotation| {
        (a.antecedent.clone(), a.pronoun.clone(), a.remarks.clone().unwrap_or_default(), a.conflict.clone())
    };
    let ids: Vec<String> = rows.iter().map(|a| a.id.to_string()).collect();
    let listed = match ids.as_slice() {
        [first, last] => format!("rows {first} and {last} both give"),
        [rest @ .., last] => format!("rows {} and {last} all give", rest.join(", ")),
        [] => String::new(),
    };
    let who = old_annotator_name(old, kept);
    let head = format!("annotations {listed} {who}'s annotation of candidate {}", kept.candidate);
    let dropped = &rows[..rows.len() - 1];
    if dropped.iter().all(|a| values(a) == values(kept)) {
        return format!(
            "{head} and are identical: kept once (the original's batch import adds a candidate's rows again when a batch is imported twice)"
        );
    }
    let show = |v: &Option<String>| v.as_deref().unwrap_or("NULL").to_owned();
    let described: Vec<String> = dropped
        .iter()
        .map(|a| {
            if values(a) == values(kept) {
                format!("row {} (the same)", a.id)
            } else {
                format!(
                    "row {} (ant_annotation '{}', anaph_annotation '{}', remarks '{}', conflict_status '{}')",
                    a.id,
                    show(&a.antecedent),
                    show(&a.pronoun),
                    a.remarks.as_deref().unwrap_or_default(),
                    show(&a.conflict)
                )
            }
        })
        .collect();
    format!(
        "{head}: row {}, the newest, is kept, as the original tool showed it; dropped: {}",
        kept.id,
        described.join(", ")
    )
}

/// "annotator 1 (Anna)", "annotator 0 (no annotator_id)".
fn old_annotator_name(old: &OldFile, a: &old::Annotation) -> String {
    let name = match (a.who.raw, old.annotators.iter().find(|x| x.id == a.annotator)) {
        (None, _) => "no annotator_id".to_owned(),
        (_, Some(x)) => show(x),
        (Some(OLD_RESEARCHER), None) => "MASTER".to_owned(),
        (Some(_), None) => "not in table annotators".to_owned(),
    };
    format!("annotator {} ({name})", a.annotator)
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
        [("ant_annotation", &a.antecedent, &mut r.antecedent), (LEGACY_PRONOUN, &a.pronoun, &mut r.pronoun)]
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
