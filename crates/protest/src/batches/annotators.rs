//! The annotators of a master: adding and renaming people by name.
//!
//! Ids are what records and batches refer to, so they never change, and an annotator can be
//! removed only while nothing refers to them (no record, no part of a task set); names are what
//! people see and type, so they may change but must stay unambiguous. Names are compared
//! ignoring case and surrounding spaces ("anna" and "Anna " are the same person), because batch
//! file names are made from them and an overview with both "Anna" and "anna" would confuse. A new
//! name must also look unlike every other ([`text::likeness`]: not "Аnna" with a Cyrillic А, nor
//! "Annà", beside "Anna") and hide nothing ([`text::normalize_name`]: no zero-width or
//! direction-changing characters), as tags may not.

use crate::model::{Annotator, AnnotatorId, Master, text};
use std::collections::HashMap;

/// Why an annotator cannot be added or renamed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    #[error("an annotator needs a name")]
    EmptyName,
    /// The name breaks the rule for names (too long, or a character nobody can see).
    #[error("'{}': {why}", name.escape_debug())]
    BadName { name: String, why: text::NameProblem },
    /// The name would look like another annotator's on screen.
    #[error("'{}' looks like '{}', another annotator's name (letters that look the same, accents, case or invisible characters apart); choose a name that can be told apart", name.escape_debug(), existing.escape_debug())]
    LooksLike { name: String, existing: String },
    #[error("there is already an annotator called '{0}'")]
    Taken(String),
    #[error("there is no annotator called '{0}'")]
    Unknown(String),
    #[error("{name} has {records} records in this master, so they cannot be removed")]
    HasRecords { name: String, records: usize },
    #[error("{name} has a part of task set {task_set} ('{task_set_name}'), so they cannot be removed")]
    HasPart { name: String, task_set: u32, task_set_name: String },
    #[error("no annotator id is left: the highest in use is {}, the largest there can be", u32::MAX)]
    NoIdLeft,
}

/// The annotator with this name (ignoring case and surrounding spaces).
pub fn find<'a>(master: &'a Master, name: &str) -> Option<&'a Annotator> {
    let key = key(name);
    master.annotators.iter().find(|a| self::key(&a.name) == key)
}

/// A name typed for someone new, as it would be stored: refused when it is taken, breaks the
/// rule for names, or looks like the name of an annotator other than `except`.
pub fn new_name(master: &Master, typed: &str, except: Option<AnnotatorId>) -> Result<String, RosterError> {
    let name = checked_name(typed)?;
    if let Some(existing) = find(master, &name).filter(|a| Some(a.id) != except) {
        return Err(RosterError::Taken(existing.name.clone()));
    }
    let likeness = text::likeness(&name);
    let others = master.annotators.iter().filter(|a| Some(a.id) != except);
    if let Some(other) = others.into_iter().find(|a| text::likeness(&a.name) == likeness) {
        return Err(RosterError::LooksLike { name, existing: other.name.clone() });
    }
    Ok(name)
}

/// Adds an annotator with the next free id (ids start at 1; 0 is the researcher).
pub fn add(master: &mut Master, name: &str) -> Result<AnnotatorId, RosterError> {
    let name = new_name(master, name, None)?;
    let id = master.next_annotator_id().ok_or(RosterError::NoIdLeft)?;
    master.annotators.push(Annotator { id, name });
    Ok(id)
}

/// The annotator with this name, added first if there is none.
pub fn find_or_add(master: &mut Master, name: &str) -> Result<AnnotatorId, RosterError> {
    match find(master, name) {
        Some(a) => Ok(a.id),
        None => add(master, name),
    }
}

/// Renames an annotator; their id, records and task-set parts stay theirs.
pub fn rename(master: &mut Master, old: &str, new: &str) -> Result<AnnotatorId, RosterError> {
    let id = find(master, old).ok_or_else(|| RosterError::Unknown(old.trim().to_owned()))?.id;
    let new = new_name(master, new, Some(id))?;
    if let Some(a) = master.annotators.iter_mut().find(|a| a.id == id) {
        a.name = new;
    }
    Ok(id)
}

/// How many records (blank ones aside) each annotator has, counted in one pass.
pub fn record_counts(master: &Master) -> HashMap<AnnotatorId, usize> {
    let mut counts = HashMap::new();
    for r in master.records.iter().filter(|r| !r.is_blank()) {
        *counts.entry(r.annotator).or_default() += 1;
    }
    counts
}

/// Removes an annotator nobody needs: without records (blank ones, which hold nothing, go with
/// them) and without a part of any task set.
pub fn remove(master: &mut Master, name: &str) -> Result<AnnotatorId, RosterError> {
    let person = find(master, name).ok_or_else(|| RosterError::Unknown(name.trim().to_owned()))?;
    let (id, name) = (person.id, person.name.clone());
    let records = master.records.iter().filter(|r| r.annotator == id && !r.is_blank()).count();
    if records > 0 {
        return Err(RosterError::HasRecords { name, records });
    }
    if let Some(ts) = master.task_sets.iter().find(|t| t.tasks.iter().any(|task| task.annotator == Some(id))) {
        return Err(RosterError::HasPart { name, task_set: ts.id, task_set_name: ts.name.clone() });
    }
    let blank: Vec<_> = master.records.iter().filter(|r| r.annotator == id).map(|r| r.candidate).collect();
    for candidate in blank {
        master.records.remove(candidate, id);
    }
    master.annotators.retain(|a| a.id != id);
    Ok(id)
}

/// The name trimmed and composed (NFC), or why it cannot be a name.
fn checked_name(typed: &str) -> Result<String, RosterError> {
    if typed.trim().is_empty() {
        return Err(RosterError::EmptyName);
    }
    text::normalize_name(typed).map_err(|why| RosterError::BadName { name: typed.trim().to_owned(), why })
}

/// What makes two names the same name: case and surrounding spaces aside, and however the same
/// accented letters were encoded (NFC).
fn key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.trim().nfc().collect::<String>().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;

    fn master() -> Master {
        Master::new("m".into(), DateTime::UNIX_EPOCH)
    }

    #[test]
    fn ids_start_at_one_and_names_are_unique_ignoring_case() {
        let mut m = master();
        assert_eq!(add(&mut m, " Anna "), Ok(AnnotatorId(1)));
        assert_eq!(add(&mut m, "Ben"), Ok(AnnotatorId(2)));
        assert_eq!(add(&mut m, "anna"), Err(RosterError::Taken("Anna".into())));
        assert_eq!(add(&mut m, "  "), Err(RosterError::EmptyName));
        assert_eq!(m.annotators[0].name, "Anna");
        assert_eq!(find_or_add(&mut m, "BEN"), Ok(AnnotatorId(2)));
        assert_eq!(find_or_add(&mut m, "Clara"), Ok(AnnotatorId(3)));
        assert_eq!(m.annotators.len(), 3);
    }

    #[test]
    fn names_that_look_like_another_or_hide_characters_are_refused() {
        let mut m = master();
        add(&mut m, "Anna").unwrap();
        for lookalike in ["Anna\u{200B}", "Anna\u{202E}", "\u{0410}nna", "Anna\u{0301}", "An\u{0301}na"] {
            let e = add(&mut m, lookalike).unwrap_err();
            assert!(
                matches!(&e, RosterError::LooksLike { existing, .. } if existing == "Anna")
                    || matches!(&e, RosterError::BadName { .. }),
                "{lookalike:?}: {e}"
            );
        }
        let e = add(&mut m, "\u{0410}nna").unwrap_err().to_string();
        assert_eq!(
            e,
            "'Аnna' looks like 'Anna', another annotator's name (letters that look the same, accents, case or invisible characters apart); choose a name that can be told apart"
        );
        let e = add(&mut m, "Anna\u{202E}").unwrap_err().to_string();
        assert!(
            e.starts_with("'Anna\\u{202e}': the name has an invisible or direction-changing character (U+202E)"),
            "{e}"
        );
        assert!(matches!(add(&mut m, "Ben\0"), Err(RosterError::BadName { .. })));
        assert_eq!(m.annotators.len(), 1, "nothing was added");
        // Renaming follows the same rule, against the others only.
        add(&mut m, "Ben").unwrap();
        assert!(matches!(rename(&mut m, "Ben", "\u{0410}nna"), Err(RosterError::LooksLike { .. })));
        assert_eq!(rename(&mut m, "Anna", "Ann\u{00E0}"), Ok(AnnotatorId(1)));
        // A name typed decomposed is the composed one.
        assert_eq!(find(&m, "Anna\u{0300}").map(|a| a.id), Some(AnnotatorId(1)));
        assert_eq!(m.annotator_name(AnnotatorId(1)), "Ann\u{00E0}");
    }

    /// A file may hold any id; the next one is counted, never wrapped round to 0 (the researcher)
    /// or to an id in use.
    #[test]
    fn no_id_is_given_past_the_largest() {
        let mut m = master();
        m.annotators.push(Annotator { id: AnnotatorId(u32::MAX), name: "Max".into() });
        assert_eq!(add(&mut m, "Anna"), Err(RosterError::NoIdLeft));
        assert_eq!(m.annotators.len(), 1);
        m.annotators[0].id = AnnotatorId(u32::MAX - 1);
        assert_eq!(add(&mut m, "Anna"), Ok(AnnotatorId(u32::MAX)));
        assert_eq!(add(&mut m, "Ben"), Err(RosterError::NoIdLeft));
    }

    #[test]
    fn renaming_keeps_the_id() {
        let mut m = master();
        add(&mut m, "Anna").unwrap();
        add(&mut m, "Ben").unwrap();
        assert_eq!(rename(&mut m, "anna", "Anna Martin"), Ok(AnnotatorId(1)));
        assert_eq!(m.annotator_name(AnnotatorId(1)), "Anna Martin");
        // A change of case only is allowed; taking someone else's name is not.
        assert_eq!(rename(&mut m, "Ben", "BEN"), Ok(AnnotatorId(2)));
        assert_eq!(rename(&mut m, "BEN", "anna martin"), Err(RosterError::Taken("Anna Martin".into())));
        assert_eq!(rename(&mut m, "Zoe", "Z"), Err(RosterError::Unknown("Zoe".into())));
        assert_eq!(rename(&mut m, "Ben", " "), Err(RosterError::EmptyName));
        assert_eq!(add(&mut m, "Clara"), Ok(AnnotatorId(3)));
    }

    #[test]
    fn only_an_annotator_nothing_refers_to_is_removed() {
        use crate::model::{Judgement, Purpose, Record, Task, TaskSet};
        let mut m = master();
        for name in ["Anna", "Ben", "Clara"] {
            add(&mut m, name).unwrap();
        }
        let mut r = Record::new(crate::model::CandidateId(1), AnnotatorId(1), DateTime::UNIX_EPOCH);
        m.records.put(r.clone());
        r.pronoun = Judgement::Yes;
        m.records.put(Record { annotator: AnnotatorId(2), ..r });
        m.task_sets.push(TaskSet {
            id: 4,
            name: "pilot".into(),
            created: DateTime::UNIX_EPOCH,
            seed: 1,
            corpora: vec![],
            categories: vec![],
            annotators: 1,
            iaa_size: 0,
            purpose: Purpose::Annotation,
            planner: Default::default(),
            tasks: vec![Task { label: "1".into(), candidates: vec![], annotator: Some(AnnotatorId(3)) }],
        });
        assert_eq!(remove(&mut m, "ben"), Err(RosterError::HasRecords { name: "Ben".into(), records: 1 }));
        let e = remove(&mut m, "Clara").unwrap_err();
        assert_eq!(e.to_string(), "Clara has a part of task set 4 ('pilot'), so they cannot be removed");
        assert_eq!(remove(&mut m, "Zoe"), Err(RosterError::Unknown("Zoe".into())));
        // Anna's only record is blank: it goes with her.
        assert_eq!(remove(&mut m, "Anna"), Ok(AnnotatorId(1)));
        assert_eq!(m.annotators.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["Ben", "Clara"]);
        assert_eq!(m.records.len(), 1);
    }
}
