//! The round-trip summary of a conversion: rows per table of the old file beside what they
//! became, counted from the converted file itself, plus a check that the annotation counts add
//! up exactly (a conversion that fails it writes nothing).

use super::old::{FileType, OldFile};
use super::records::Gathered;
use crate::model::{ConflictStatus, CorpusRole, Judgement, Master, Record};
use crate::store::summary::{count, count_as};
use std::fmt;
use std::path::{Path, PathBuf};

/// Judgement values as the old file has them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OldValues {
    pub ok: usize,
    pub bad: usize,
    /// `unset`, empty or NULL.
    pub unset: usize,
    pub unsure: usize,
}

impl OldValues {
    fn add(&mut self, value: Option<&str>) {
        match value {
            Some("ok") => self.ok += 1,
            Some("bad") => self.bad += 1,
            Some("unsure") => self.unsure += 1,
            _ => self.unset += 1,
        }
    }
}

/// What the old file's annotation rows hold (of the annotators converted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OldCounts {
    pub annotations: usize,
    pub antecedent: OldValues,
    pub pronoun: OldValues,
    pub remarks: usize,
    /// conflict_status NULL / `ana_ok ant_ok` / anything else.
    pub status_none: usize,
    pub status_ok: usize,
    pub status_conflict: usize,
    pub tag_rows: usize,
    /// `token_annotations` rows marked `ok`.
    pub token_rows: usize,
}

impl OldCounts {
    /// Counts the rows of the annotators `converted`, leaving out the `dropped` annotations rows
    /// (older rows of a candidate and annotator given again by a newer one).
    pub(super) fn of(
        old: &OldFile,
        converted: impl Fn(i64) -> bool,
        dropped: &std::collections::BTreeSet<i64>,
    ) -> OldCounts {
        let mut c = OldCounts::default();
        for a in old.annotations.iter().filter(|a| converted(a.annotator) && !dropped.contains(&a.id)) {
            c.annotations += 1;
            c.antecedent.add(a.antecedent.as_deref());
            c.pronoun.add(a.pronoun.as_deref());
            c.remarks += usize::from(a.remarks.as_deref().is_some_and(|r| !r.is_empty()));
            match a.conflict.as_deref().map(|s| s.split_whitespace().collect::<Vec<_>>()) {
                None => c.status_none += 1,
                Some(parts) if parts == ["ana_ok", "ant_ok"] => c.status_ok += 1,
                Some(_) => c.status_conflict += 1,
            }
        }
        c.tag_rows = old.tags.iter().filter(|t| converted(t.annotator)).count();
        c.token_rows = old
            .token_annotations
            .iter()
            .filter(|t| converted(t.annotator) && t.annotation.as_deref() == Some("ok"))
            .count();
        c
    }
}

/// Everything counted in a converted master (or a batch's content).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub corpora: usize,
    pub references: usize,
    pub systems: usize,
    /// Sentences with text, over all corpora.
    pub sentences: usize,
    pub documents: usize,
    pub categories: usize,
    pub examples: usize,
    pub antecedents: usize,
    pub candidates: usize,
    pub aligned_pronoun: usize,
    pub aligned_antecedent: usize,
    pub annotators: usize,
    pub records: usize,
    /// Yes / no / unset.
    pub antecedent: [usize; 3],
    pub pronoun: [usize; 3],
    /// Old "unsure" judgements kept in `legacy`.
    pub unsure: usize,
    pub tags: usize,
    pub remarks: usize,
    pub selected_pronoun: usize,
    pub selected_antecedent: usize,
    pub unchecked: usize,
    pub clear: usize,
    pub kept: usize,
    /// Old conflict strings kept in `legacy` because the rules do not give them back exactly.
    pub legacy_statuses: usize,
    pub task_sets: usize,
    pub tasks: usize,
}

impl Counts {
    /// Counts a master's suite and the given records (all of them, or those a batch carried).
    pub fn of<'a>(m: &Master, records: impl IntoIterator<Item = &'a Record>) -> Counts {
        let mut c = Counts {
            corpora: m.corpora.len(),
            references: m.corpora.iter().filter(|k| k.role == CorpusRole::Reference).count(),
            systems: m.corpora.iter().filter(|k| k.role == CorpusRole::System).count(),
            sentences: m.corpora.iter().flat_map(|k| &k.sentences).filter(|s| !s.is_empty()).count(),
            documents: m.documents.len(),
            categories: m.categories.len(),
            examples: m.examples.len(),
            antecedents: m.examples.iter().map(|e| e.antecedents.len()).sum(),
            candidates: m.candidates.len(),
            aligned_pronoun: m.candidates.iter().map(|k| k.pronoun.len()).sum(),
            aligned_antecedent: m.candidates.iter().flat_map(|k| &k.antecedents).map(Vec::len).sum(),
            annotators: m.annotators.len(),
            task_sets: m.task_sets.len(),
            tasks: m.task_sets.iter().map(|t| t.tasks.len()).sum(),
            ..Counts::default()
        };
        let slot = |j: Judgement| match j {
            Judgement::Yes => 0,
            Judgement::No => 1,
            Judgement::Unset => 2,
        };
        for r in records {
            c.records += 1;
            c.antecedent[slot(r.antecedent)] += 1;
            c.pronoun[slot(r.pronoun)] += 1;
            c.unsure += r.legacy.values().filter(|v| *v == "unsure").count();
            c.legacy_statuses += usize::from(r.legacy.contains_key("conflict_status"));
            c.tags += r.tags.len();
            c.remarks += usize::from(!r.remarks.is_empty());
            c.selected_pronoun += r.selected.pronoun.len();
            c.selected_antecedent += r.selected.antecedent.len();
            match r.conflict {
                ConflictStatus::Unchecked => c.unchecked += 1,
                ConflictStatus::Clear => c.clear += 1,
                ConflictStatus::Kept(_) => c.kept += 1,
            }
        }
        c
    }
}

/// A count of annotation values the conversion would change: what is counted, how many the old
/// file has, and how many were converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {expected} in the old file, {found} converted")]
pub struct Lost {
    pub what: &'static str,
    pub expected: usize,
    pub found: usize,
}

/// Checks that every annotation value of the old rows is in the converted records, by count;
/// the first difference if not.
pub(super) fn verify(old: &OldCounts, gathered: &Gathered, new: &Counts) -> Result<(), Lost> {
    let implicit = gathered.implicit;
    let judged = |v: &OldValues| [v.ok, v.bad, v.unset + v.unsure + implicit];
    let checks = [
        ("records", old.annotations + implicit, new.records),
        ("antecedent yes", judged(&old.antecedent)[0], new.antecedent[0]),
        ("antecedent no", judged(&old.antecedent)[1], new.antecedent[1]),
        ("antecedent unset", judged(&old.antecedent)[2], new.antecedent[2]),
        ("pronoun yes", judged(&old.pronoun)[0], new.pronoun[0]),
        ("pronoun no", judged(&old.pronoun)[1], new.pronoun[1]),
        ("pronoun unset", judged(&old.pronoun)[2], new.pronoun[2]),
        ("unsure judgements", old.antecedent.unsure + old.pronoun.unsure, new.unsure),
        ("remarks", old.remarks, new.remarks),
        ("tags", old.tag_rows - gathered.repeated_tags, new.tags),
        (
            "selected tokens",
            old.token_rows + gathered.both_roles - gathered.repeated_tokens,
            new.selected_pronoun + new.selected_antecedent,
        ),
        ("unchecked statuses", old.status_none + implicit, new.unchecked),
        ("clear statuses", old.status_ok, new.clear),
        ("kept conflicts", old.status_conflict, new.kept),
    ];
    match checks.iter().find(|(_, expected, found)| expected != found) {
        Some(&(what, expected, found)) => Err(Lost { what, expected, found }),
        None => Ok(()),
    }
}

/// The summary printed after a conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub file: PathBuf,
    pub version: String,
    pub kind: FileType,
    /// Old table, its rows, and what they became.
    pub lines: Vec<(&'static str, usize, String)>,
    pub old: OldCounts,
    pub new: Counts,
    /// Decisions taken and rows not carried over, in plain words.
    pub notes: Vec<String>,
}

impl Report {
    /// The summary of converting `old` (read from `file`) into what `new` counts.
    pub(super) fn new(
        file: &Path,
        old: &OldFile,
        describe: impl Fn(&'static str, &Counts) -> String,
        old_counts: OldCounts,
        gathered: &Gathered,
        new: Counts,
        notes: Vec<String>,
    ) -> Report {
        let lines = Report::lines(old, describe, &old_counts, gathered, &new);
        Report {
            file: file.to_path_buf(),
            version: old.meta.version.clone(),
            kind: old.file_type,
            lines,
            old: old_counts,
            new,
            notes,
        }
    }

    /// One line per table of the old file, in the file's order: `describe` tells what a suite or
    /// task table became (given the new counts); the annotation tables are described here, with their values.
    fn lines(
        old: &OldFile,
        describe: impl Fn(&'static str, &Counts) -> String,
        o: &OldCounts,
        g: &Gathered,
        n: &Counts,
    ) -> Vec<(&'static str, usize, String)> {
        let mut lines = Vec::new();
        let skipped = |table: &str| match g.skipped.get(table) {
            Some(&k) if k > 0 => format!("; {} of other annotators not carried", count(k, "row")),
            _ => String::new(),
        };
        for &(table, rows) in &old.row_counts {
            match table {
                "annotations" => {
                    let implicit = match g.implicit {
                        0 => String::new(),
                        k => format!(", and {k} more for tags or tokens without an annotations row"),
                    };
                    let from_rows = count(n.records - g.implicit.min(n.records), "record");
                    let repeated = match g.dropped.len() {
                        0 => String::new(),
                        k => format!(
                            "; {} a candidate and annotator (the newest kept)",
                            count_as(k, "older row repeats", "older rows repeat")
                        ),
                    };
                    lines.push((table, rows, format!("{from_rows}{implicit}{repeated}{}", skipped(table))));
                    let values =
                        |v: &OldValues| format!("ok {}, bad {}, unset {}, unsure {}", v.ok, v.bad, v.unset, v.unsure);
                    let judged = |j: [usize; 3]| format!("yes {}, no {}, unset {}", j[0], j[1], j[2]);
                    lines.push((
                        "  ant_annotation",
                        o.annotations,
                        format!("{} → antecedent {}", values(&o.antecedent), judged(n.antecedent)),
                    ));
                    lines.push((
                        "  anaph_annotation",
                        o.annotations,
                        format!("{} → pronoun {}", values(&o.pronoun), judged(n.pronoun)),
                    ));
                    if o.antecedent.unsure + o.pronoun.unsure > 0 {
                        lines.push((
                            "  (unsure)",
                            o.antecedent.unsure + o.pronoun.unsure,
                            format!("unset, with \"unsure\" kept as a legacy value ({})", n.unsure),
                        ));
                    }
                    lines.push(("  remarks", o.remarks, count(n.remarks, "remark")));
                    let word_for_word = match n.legacy_statuses {
                        0 => String::new(),
                        k => format!(" ({k} also kept word for word as a legacy value)"),
                    };
                    lines.push((
                        "  conflict_status",
                        o.annotations,
                        format!(
                            "none {}, ana_ok ant_ok {}, conflicts {} → unchecked {}, clear {}, kept {}{word_for_word}",
                            o.status_none, o.status_ok, o.status_conflict, n.unchecked, n.clear, n.kept
                        ),
                    ));
                }
                "tag_annotations" => lines.push((table, rows, format!("{}{}", count(n.tags, "tag"), skipped(table)))),
                "token_annotations" => lines.push((
                    table,
                    rows,
                    format!(
                        "{}: {} pronoun, {} antecedent{}",
                        count(n.selected_pronoun + n.selected_antecedent, "selected token"),
                        n.selected_pronoun,
                        n.selected_antecedent,
                        skipped(table)
                    ),
                )),
                _ => lines.push((table, rows, describe(table, n))),
            }
        }
        lines
    }

    /// Notes about rows counted differently, from the gathering.
    pub(super) fn gathering_notes(g: &Gathered) -> Vec<String> {
        let mut notes = g.duplicate_notes.clone();
        if g.implicit > 0 {
            notes.push(format!(
                "{} made for tags or selected tokens without an annotations row (the old tool showed those too)",
                count_as(g.implicit, "record is", "records are")
            ));
        }
        if g.repeated_tags > 0 {
            notes.push(format!(
                "{} a tag of the same record; kept once",
                count_as(g.repeated_tags, "tag_annotations row repeats", "tag_annotations rows repeat")
            ));
        }
        if g.empty_tokens > 0 {
            notes.push(format!(
                "{} an empty annotation: not selected",
                count_as(g.empty_tokens, "token_annotations row has", "token_annotations rows have")
            ));
        }
        if g.both_roles > 0 {
            notes.push(format!(
                "{} aligned to both the pronoun and an antecedent head: selected in both roles",
                count_as(g.both_roles, "selected token is", "selected tokens are")
            ));
        }
        if g.repeated_tokens > 0 {
            notes.push(format!(
                "{} a selection; kept once",
                count_as(g.repeated_tokens, "token_annotations row repeats", "token_annotations rows repeat")
            ));
        }
        notes
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            FileType::Master => "master",
            FileType::Batch => "annotation batch",
        };
        writeln!(f, "{} ({} {kind})", self.file.display(), self.version)?;
        let width = self.lines.iter().map(|(t, _, _)| t.chars().count()).max().unwrap_or(0);
        writeln!(f, "  {:width$}  {:>7}    converted into", "old table", "rows")?;
        for (table, rows, became) in &self.lines {
            writeln!(f, "  {table:width$}  {rows:>7}  → {became}")?;
        }
        for note in &self.notes {
            writeln!(f, "Note: {note}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_finds_any_value_that_did_not_arrive() {
        let old = OldCounts {
            annotations: 2,
            antecedent: OldValues { ok: 1, unset: 1, ..OldValues::default() },
            pronoun: OldValues { ok: 1, unsure: 1, ..OldValues::default() },
            remarks: 1,
            status_ok: 2,
            tag_rows: 3,
            token_rows: 2,
            ..OldCounts::default()
        };
        let gathered = Gathered { repeated_tags: 1, both_roles: 1, ..Gathered::default() };
        let new = Counts {
            records: 2,
            antecedent: [1, 0, 1],
            pronoun: [1, 0, 1],
            unsure: 1,
            remarks: 1,
            tags: 2,
            selected_pronoun: 2,
            selected_antecedent: 1,
            clear: 2,
            ..Counts::default()
        };
        assert_eq!(verify(&old, &gathered, &new), Ok(()));
        let lost_tag = Counts { tags: 1, ..new.clone() };
        assert_eq!(verify(&old, &gathered, &lost_tag), Err(Lost { what: "tags", expected: 2, found: 1 }));
        assert_eq!(verify(&old, &gathered, &lost_tag).unwrap_err().to_string(), "tags: 2 in the old file, 1 converted");
        let lost_unsure = Counts { unsure: 0, ..new.clone() };
        assert_eq!(verify(&old, &gathered, &lost_unsure).unwrap_err().what, "unsure judgements");
        let yes_for_no = Counts { pronoun: [2, 0, 0], ..new };
        assert_eq!(verify(&old, &gathered, &yes_for_no).unwrap_err().what, "pronoun yes");
    }
}
