//! Changes that carry what they were made on (docs/journal.md, "What a change was made on").
//!
//! A change to a record is made by someone who saw the record as it was: a web page of
//! `protest serve`, a window whose change waits in a recovery file. Applied later on a record that
//! changed meanwhile (in another tab, in a later session), it would replace newer work unseen. So
//! a change carries the [`Version`] of the record it was made on, its [`Base`], and is applied
//! only while the record is still that version — compare and set ([`applies`]). Otherwise the two
//! versions, the record stored now and the one the change makes, are a [`Disagreement`] for the
//! user to settle; their choice is a new change, made on the record stored now.

use super::journal::Entry;
use crate::model::{AnnotatorId, CandidateId, Record};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};

/// Which content a record has: the first 64 bits of the SHA-256 of its JSON with the candidate
/// id left out (a page numbers its candidates its own way, the master another), written as 16
/// lower-case hexadecimal digits. A record changed in any field, its time included, has another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Version(u64);

impl Version {
    pub fn of(record: &Record) -> Version {
        let unnumbered = Record { candidate: CandidateId(0), ..record.clone() };
        let mut hasher = Sha256::new();
        // Writing a record's JSON cannot fail: its maps have string keys, and hashing takes
        // every byte.
        let _ = serde_json::to_writer(&mut hasher, &unnumbered);
        let digest = hasher.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        Version(u64::from_be_bytes(first))
    }
}

/// A string that is not a record's [`Version`] (serde reads a version through it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a record's version is 16 lower-case hexadecimal digits")]
pub struct NotAVersion;

impl TryFrom<String> for Version {
    type Error = NotAVersion;

    fn try_from(s: String) -> Result<Version, NotAVersion> {
        let hex = |c: char| c.is_ascii_digit() || ('a'..='f').contains(&c);
        match u64::from_str_radix(&s, 16) {
            Ok(n) if s.len() == 16 && s.chars().all(hex) => Ok(Version(n)),
            _ => Err(NotAVersion),
        }
    }
}

impl From<Version> for String {
    fn from(v: Version) -> String {
        format!("{:016x}", v.0)
    }
}

/// What a change was made on: the version of the record it replaces, or no record (`null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Base(pub Option<Version>);

impl Base {
    /// What a change made now on `record` (`None`: there is none) is made on.
    pub fn of(record: Option<&Record>) -> Base {
        Base(record.map(Version::of))
    }
}

/// A change of a record with what it was made on: a line of a recovery file, a change a page
/// sends. `base` is `None` when it was not said (a file written by an earlier version of
/// PROTEST): such a change applies only where there is no record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Based {
    #[serde(flatten)]
    pub entry: Entry,
    #[serde(default, deserialize_with = "said", skip_serializing_if = "Option::is_none")]
    pub base: Option<Base>,
}

/// `"base": null` is said (made where there was no record); only a missing `base` is not.
pub fn said<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Base>, D::Error> {
    Base::deserialize(deserializer).map(Some)
}

impl Based {
    /// A change made now on `before`.
    pub fn on(before: Option<&Record>, entry: Entry) -> Based {
        Based { entry, base: Some(Base::of(before)) }
    }
}

/// The record a change is about: (candidate, annotator); `None` for a roster.
pub fn key(entry: &Entry) -> Option<(CandidateId, AnnotatorId)> {
    match entry {
        Entry::Put(r) => Some((r.candidate, r.annotator)),
        Entry::Remove { candidate, annotator } => Some((*candidate, *annotator)),
        Entry::Roster(_) => None,
    }
}

/// The record as a change leaves it (`None`: removed, or a roster).
pub fn result(entry: &Entry) -> Option<&Record> {
    match entry {
        Entry::Put(r) => Some(r),
        Entry::Remove { .. } | Entry::Roster(_) => None,
    }
}

/// Whether a change made on `base` applies to its record as stored now (`stored`, under the same
/// candidate id as the change): it was made on this very version, or it changes nothing (what it
/// makes is there already). One that does not say what it was made on applies only where there
/// is no record. A roster always applies: it is not a record's change.
pub fn applies(stored: Option<&Record>, entry: &Entry, base: Option<Base>) -> bool {
    if let Entry::Roster(_) = entry {
        return true;
    }
    if result(entry) == stored {
        return true;
    }
    match base {
        Some(base) => base == Base::of(stored),
        None => stored.is_none(),
    }
}

/// A change that was not made on the record stored now: both versions, for the user to choose
/// between (the page of `protest serve` after the server answered "conflict", a recovery file
/// offered after the file changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    pub candidate: CandidateId,
    pub annotator: AnnotatorId,
    /// The record stored now (`None`: there is none).
    pub stored: Option<Record>,
    /// The record the change makes (`None`: it removes the record).
    pub proposed: Option<Record>,
}

/// Which version of a [`Disagreement`] to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Stored,
    Proposed,
}

impl Disagreement {
    /// The change `entry` (made on `base`) could not make to `stored`.
    pub fn of(stored: Option<Record>, entry: &Entry) -> Option<Disagreement> {
        let (candidate, annotator) = key(entry)?;
        Some(Disagreement { candidate, annotator, stored, proposed: result(entry).cloned() })
    }

    /// Adds it to `list`, in place of an earlier one of the same record: the later change of a
    /// record was made on the earlier, so it is the one to keep or not.
    pub fn add_to(self, list: &mut Vec<Disagreement>) {
        match list.iter_mut().find(|d| (d.candidate, d.annotator) == (self.candidate, self.annotator)) {
            Some(earlier) => *earlier = self,
            None => list.push(self),
        }
    }

    /// Whether the versions differ only in what nobody chooses between — the time spent on the
    /// record and whether its conflict checks were run — so that it is settled without asking:
    /// the proposed one, with the longer time of the two ([`Disagreement::settle`]).
    pub fn only_in_time(&self) -> bool {
        match (&self.stored, &self.proposed) {
            (Some(s), Some(p)) => s.same_content(p),
            _ => false,
        }
    }

    /// The change that keeps `keep`, made on the record stored now: `None` when keeping what is
    /// stored (nothing changes). The proposed record keeps the longer time of the two, so that
    /// time spent on either side is not taken back.
    pub fn settle(&self, keep: Keep) -> Option<Based> {
        let base = Some(Base::of(self.stored.as_ref()));
        match (keep, &self.proposed) {
            (Keep::Stored, _) => None,
            (Keep::Proposed, None) => {
                Some(Based { entry: Entry::Remove { candidate: self.candidate, annotator: self.annotator }, base })
            }
            (Keep::Proposed, Some(proposed)) => {
                let mut record = proposed.clone();
                let stored_ms = self.stored.as_ref().and_then(|s| s.active_ms);
                record.active_ms = record.active_ms.max(stored_ms);
                Some(Based { entry: Entry::Put(record), base })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Judgement;

    fn record(pronoun: Judgement, remarks: &str) -> Record {
        let mut r = Record::new(CandidateId(8), AnnotatorId(3), chrono::DateTime::UNIX_EPOCH);
        r.pronoun = pronoun;
        r.remarks = remarks.into();
        r
    }

    #[test]
    fn a_version_names_the_content_but_not_the_candidates_number() {
        let r = record(Judgement::No, "closed-tab test");
        let renumbered = Record { candidate: CandidateId(155), ..r.clone() };
        assert_eq!(Version::of(&r), Version::of(&renumbered));
        let mut timed = r.clone();
        timed.active_ms = Some(1);
        assert_ne!(Version::of(&r), Version::of(&timed));
        assert_ne!(Version::of(&r), Version::of(&record(Judgement::Yes, "closed-tab test")));
        let json = serde_json::to_string(&Version::of(&r)).unwrap();
        assert_eq!(json.len(), 18, "{json}");
        assert_eq!(serde_json::from_str::<Version>(&json).unwrap(), Version::of(&r));
        for bad in ["\"ABCDEF0123456789\"", "\"12\"", "\"+bcdef0123456789\"", "12"] {
            assert!(serde_json::from_str::<Version>(bad).is_err(), "{bad}");
        }
        let e = serde_json::from_str::<Version>("\"12\"").unwrap_err().to_string();
        assert!(e.starts_with("a record's version is 16 lower-case hexadecimal digits"), "{e}");
    }

    #[test]
    fn a_change_applies_only_on_the_version_it_was_made_on() {
        let older = record(Judgement::No, "closed-tab test");
        let newer = record(Judgement::Yes, "");
        let change = Entry::Put(older.clone());
        // Made where there was no record: applies while there is none, not over a newer one.
        let made = Some(Base::of(None));
        assert!(applies(None, &change, made));
        assert!(!applies(Some(&newer), &change, made));
        // Made on the newer record: applies on it, not on another.
        assert!(applies(Some(&newer), &change, Some(Base::of(Some(&newer)))));
        let third = record(Judgement::Yes, "third");
        assert!(!applies(Some(&third), &change, Some(Base::of(Some(&newer)))));
        // What it makes is stored already: applying it changes nothing.
        assert!(applies(Some(&older), &change, Some(Base::of(Some(&newer)))));
        // Not said: only where there is no record.
        assert!(applies(None, &change, None));
        assert!(!applies(Some(&newer), &change, None));
        // A removal, the same way.
        let remove = Entry::Remove { candidate: CandidateId(8), annotator: AnnotatorId(3) };
        assert!(applies(Some(&newer), &remove, Some(Base::of(Some(&newer)))));
        assert!(!applies(Some(&third), &remove, Some(Base::of(Some(&newer)))));
        assert!(applies(None, &remove, Some(Base::of(Some(&newer)))), "gone already");
    }

    #[test]
    fn a_based_change_reads_as_it_is_written_and_null_is_no_record() {
        let r = record(Judgement::No, "x");
        let on_nothing = Based::on(None, Entry::Put(r.clone()));
        let json = serde_json::to_string(&on_nothing).unwrap();
        assert!(json.ends_with(",\"base\":null}"), "{json}");
        assert_eq!(serde_json::from_str::<Based>(&json).unwrap(), on_nothing);
        let on_r = Based::on(Some(&r), Entry::Remove { candidate: CandidateId(8), annotator: AnnotatorId(3) });
        let json = serde_json::to_string(&on_r).unwrap();
        assert_eq!(serde_json::from_str::<Based>(&json).unwrap(), on_r);
        // A journal line of an earlier version: not said.
        let old = serde_json::to_string(&Entry::Put(r)).unwrap();
        assert_eq!(serde_json::from_str::<Based>(&old).unwrap().base, None);
    }

    #[test]
    fn a_disagreement_is_settled_by_a_change_made_on_what_is_stored() {
        let mut stored = record(Judgement::Yes, "");
        stored.active_ms = Some(9_000);
        let mut proposed = record(Judgement::No, "closed-tab test");
        proposed.active_ms = Some(4_000);
        let d = Disagreement::of(Some(stored.clone()), &Entry::Put(proposed.clone())).unwrap();
        assert!(!d.only_in_time());
        assert_eq!(d.settle(Keep::Stored), None);
        let kept = d.settle(Keep::Proposed).unwrap();
        assert_eq!(kept.base, Some(Base::of(Some(&stored))));
        let Entry::Put(kept) = &kept.entry else { panic!("{kept:?}") };
        assert_eq!((kept.pronoun, kept.active_ms), (Judgement::No, Some(9_000)), "the longer time");
        assert!(applies(Some(&stored), &Entry::Put(kept.clone()), Some(Base::of(Some(&stored)))));
        // Two of one record: the later one stands.
        let mut list = vec![d.clone()];
        let later = Disagreement { proposed: None, ..d.clone() };
        later.clone().add_to(&mut list);
        assert_eq!(list, [later]);
        // Only the time differs: nothing to ask.
        let timed = Record { active_ms: Some(1), ..stored.clone() };
        assert!(Disagreement::of(Some(stored), &Entry::Put(timed)).unwrap().only_in_time());
    }
}
