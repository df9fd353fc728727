//! The annotators of a master: adding and renaming people by name.
//!
//! Ids are what records and batches refer to, so they never change and are never reused; names
//! are what people see and type, so they may change but must stay unambiguous. Names are compared
//! ignoring case and surrounding spaces ("anna" and "Anna " are the same person), because batch
//! file names are made from them and an overview with both "Anna" and "anna" would confuse.

use crate::model::{Annotator, AnnotatorId, Master};

/// Why an annotator cannot be added or renamed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    #[error("an annotator needs a name")]
    EmptyName,
    #[error("there is already an annotator called '{0}'")]
    Taken(String),
    #[error("there is no annotator called '{0}'")]
    Unknown(String),
}

/// The annotator with this name (ignoring case and surrounding spaces).
pub fn find<'a>(master: &'a Master, name: &str) -> Option<&'a Annotator> {
    let key = key(name);
    master.annotators.iter().find(|a| self::key(&a.name) == key)
}

/// Adds an annotator with the next free id (ids start at 1; 0 is the researcher).
pub fn add(master: &mut Master, name: &str) -> Result<AnnotatorId, RosterError> {
    let name = checked_name(name)?;
    if let Some(existing) = find(master, name) {
        return Err(RosterError::Taken(existing.name.clone()));
    }
    let id = master.next_annotator_id();
    master.annotators.push(Annotator { id, name: name.to_owned() });
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
    let new = checked_name(new)?;
    let id = find(master, old).ok_or_else(|| RosterError::Unknown(old.trim().to_owned()))?.id;
    if let Some(other) = find(master, new).filter(|a| a.id != id) {
        return Err(RosterError::Taken(other.name.clone()));
    }
    if let Some(a) = master.annotators.iter_mut().find(|a| a.id == id) {
        a.name = new.to_owned();
    }
    Ok(id)
}

fn checked_name(name: &str) -> Result<&str, RosterError> {
    let name = name.trim();
    if name.is_empty() { Err(RosterError::EmptyName) } else { Ok(name) }
}

fn key(name: &str) -> String {
    name.trim().to_lowercase()
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
        // Removing an annotator never happens, so the next id is still above every one used.
        assert_eq!(add(&mut m, "Clara"), Ok(AnnotatorId(3)));
    }
}
