//! The changes a page could not send, as a file (docs/serve.md, "A link that no longer works").
//! When the server no longer knows a page's link (revoked, or replaced by a new one), trying again
//! cannot help: the page offers the changes it holds as a file, for the annotator to send to the
//! researcher, who applies it with `protest batch apply` ([`apply`]). Each change is taken as the
//! server takes it ([`super::desk::take_together`]): once (its id's receipt), and only on the
//! version of its record it was made on — a record changed since is not replaced unless asked.
//!
//! The file is JSON (`protest-unsent`, version 1): the master's id, the task set, the annotator
//! (id and name), when and why it was written, and the changes as the page sends them
//! ([`Change`]: id, `put` or `remove` in the part's candidate ids, `base`).

use super::protocol::Change;
use crate::error::{Error, Result};
use crate::model::Annotator;
use crate::store::batch_file::Batch;
use crate::store::{files, json};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `format` field of the file.
pub const FORMAT: &str = "protest-unsent";
/// The version written (and the only one read).
pub const VERSION: u32 = 1;

/// A page's changes not saved, for the researcher.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unsent {
    pub format: String,
    pub version: u32,
    /// The id of the master the part is of.
    pub master: String,
    pub task_set: u32,
    pub annotator: Annotator,
    pub written: DateTime<Utc>,
    /// Why the page could not send them.
    pub why: String,
    /// Oldest first, in the part's candidate ids.
    pub changes: Vec<Change>,
}

impl Unsent {
    /// The changes of `batch`'s page.
    pub fn new(batch: &Batch, changes: Vec<Change>, why: impl Into<String>, now: DateTime<Utc>) -> Unsent {
        Unsent {
            format: FORMAT.into(),
            version: VERSION,
            master: batch.master_id.clone(),
            task_set: batch.task_set,
            annotator: batch.annotator().clone(),
            written: now,
            why: why.into(),
            changes,
        }
    }

    /// A name to save it under: the annotator's name (letters, digits, `-` and `_` only), the task
    /// set and the time, `Cleo-task-set-1-unsent-20261127-1430.json`.
    pub fn file_name(&self) -> String {
        let name: String =
            self.annotator.name.chars().filter(|c| c.is_alphanumeric() || "-_".contains(*c)).take(40).collect();
        let name = if name.is_empty() { format!("annotator-{}", self.annotator.id) } else { name };
        format!("{name}-task-set-{}-unsent-{}.json", self.task_set, self.written.format("%Y%m%d-%H%M"))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        // Writing to memory fails only if serialising does, and these types always serialise.
        let _ = json::write(&mut bytes, self);
        bytes
    }

    /// Reads such a file, refusing anything else by name (a batch, a master, not JSON…).
    pub fn read(path: &Path) -> Result<Unsent> {
        let bytes = files::read(path).map_err(|e| Error::io(path, e))?;
        json::read(path, json::without_bom(&bytes), FORMAT, &[VERSION], |u: &Unsent| (u.format.as_str(), u.version))
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use applying::{Applied, apply};

#[cfg(not(target_arch = "wasm32"))]
mod applying {
    use super::Unsent;
    use crate::error::{Error, Result};
    use crate::model::{CandidateId, Master};
    use crate::store::Store;
    use crate::store::based::{Base, Disagreement};
    use crate::web::desk::{Desk, take_together};
    use crate::web::protocol::Change;
    use crate::web::receipts::Receipts;
    use std::path::Path;

    /// What applying a file of unsent changes did.
    #[derive(Debug, Clone, Default, PartialEq, Eq)]
    pub struct Applied {
        /// Changes stored now.
        pub stored: usize,
        /// Changes the server had taken before (their receipts are there): not applied again.
        pub before: usize,
        /// Changes made on another version of their record than the one stored now, in master
        /// candidate ids: not applied (unless asked, then stored over it and counted here too).
        pub conflicts: Vec<Disagreement>,
        /// Whether the conflicting changes were stored over the newer records (as asked).
        pub replaced: bool,
        /// Changes that break a rule, and why: never applied.
        pub refused: Vec<String>,
    }

    /// Applies the changes of `unsent` (read from `path`) to the master held in `store`, as
    /// `protest serve` takes a page's changes: each once, checked as batch import checks a
    /// record, and only on the version of its record it was made on; with `over_newer`, those made
    /// on another version are stored over the record stored now as well (the researcher chose
    /// them after seeing both). Refused, changing nothing, when the file is another master's or
    /// names an annotator this master does not have in that task set.
    pub fn apply(
        store: &mut Store<Master>,
        receipts: &mut Receipts,
        path: &Path,
        unsent: &Unsent,
        over_newer: bool,
    ) -> Result<Applied> {
        let master = store.master();
        let refuse = |why: String| Error::whole_file(path, why);
        if unsent.master != master.id {
            return Err(refuse(format!(
                "these changes were made on a part of master '{}', not of this one ('{}')",
                unsent.master, master.id
            )));
        }
        let who = &unsent.annotator;
        match master.annotator(who.id) {
            Some(a) if a.name == who.name => {}
            Some(a) => {
                return Err(refuse(format!(
                    "these are {}'s changes, but annotator {} of this master is {}",
                    who.name, who.id, a.name
                )));
            }
            None => return Err(refuse(format!("this master has no annotator {} ({})", who.id, who.name))),
        }
        let desk = Desk::new(master, unsent.task_set, who.id).map_err(|e| refuse(e.to_string()))?;
        let before = unsent.changes.iter().filter(|c| receipts.has(who.id, &c.id)).count();
        let answers = take_together(store, receipts, &[(&desk, &unsent.changes)]).pop().unwrap_or_default();
        if let Some(trouble) = answers.trouble {
            return Err(Error::not_written(store.path(), trouble));
        }
        let mut applied = Applied {
            stored: answers.taken.len() - before,
            before,
            refused: answers.refused.into_iter().map(|r| r.why).collect(),
            ..Applied::default()
        };
        let conflicting: Vec<(Change, Disagreement)> = answers
            .conflicts
            .into_iter()
            .filter_map(|c| {
                let change = unsent.changes.iter().find(|ch| ch.id == c.id)?;
                let made = Disagreement::of(c.stored.clone(), &change.entry)?;
                // Made again on the record stored now: what storing it over that record means.
                let again = Change { base: Some(Base::of(c.stored.as_ref())), ..change.clone() };
                Some((again, in_master_ids(&desk, made)))
            })
            .collect();
        if over_newer && !conflicting.is_empty() {
            let again: Vec<Change> = conflicting.iter().map(|(c, _)| c.clone()).collect();
            let answers = take_together(store, receipts, &[(&desk, &again)]).pop().unwrap_or_default();
            if let Some(trouble) = answers.trouble {
                return Err(Error::not_written(store.path(), trouble));
            }
            applied.stored += answers.taken.len();
            applied.replaced = true;
        }
        applied.conflicts = conflicting.into_iter().map(|(_, d)| d).collect();
        Ok(applied)
    }

    /// A disagreement about a part's candidate, about the master's.
    fn in_master_ids(desk: &Desk, mut d: Disagreement) -> Disagreement {
        let original = desk.original(d.candidate).unwrap_or(CandidateId(0));
        d.candidate = original;
        for record in [&mut d.stored, &mut d.proposed].into_iter().flatten() {
            record.candidate = original;
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
    use crate::store::Store;
    use crate::store::based::Base;
    use crate::store::journal::Entry;
    use crate::web::desk::Desk;
    use crate::web::protocol::ChangeId;
    use crate::web::receipts::Receipts;
    use rand::SeedableRng;

    const ANNA: AnnotatorId = AnnotatorId(1);

    fn put(n: u32, pronoun: Judgement, remarks: &str) -> Entry {
        let mut r = Record::new(CandidateId(n), ANNA, chrono::DateTime::UNIX_EPOCH);
        r.pronoun = pronoun;
        r.remarks = remarks.into();
        Entry::Put(r)
    }

    #[test]
    fn a_file_of_unsent_changes_is_applied_once_and_never_over_a_newer_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.master.json");
        crate::store::master_file::save(&crate::testing::sample(), &path).unwrap();
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        let mut receipts = Receipts::open(&crate::store::disk::Os, &path, &store.master().id).unwrap();
        let desk = Desk::new(store.master(), 1, ANNA).unwrap();
        let part = desk.part(store.master(), chrono::Utc::now()).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let base = |n: u32, store: &Store<Master>| Some(Base::of(desk.record(store.master(), CandidateId(n)).as_ref()));
        // Two changes made while the link worked: on 1, and on 2, which then changes elsewhere.
        let changes = vec![
            Change { id: ChangeId::random(&mut rng), entry: put(1, Judgement::No, "a"), base: base(1, &store) },
            Change {
                id: ChangeId::random(&mut rng),
                entry: put(2, Judgement::No, "closed-tab test"),
                base: base(2, &store),
            },
        ];
        let unsent = Unsent::new(&part, changes.clone(), "the server does not know this link", chrono::Utc::now());
        let file = dir.path().join(unsent.file_name());
        assert!(unsent.file_name().starts_with("Anna-task-set-1-unsent-"), "{}", unsent.file_name());
        std::fs::write(&file, unsent.to_bytes()).unwrap();
        let newer =
            Change { id: ChangeId::random(&mut rng), entry: put(2, Judgement::Yes, "newer"), base: base(2, &store) };
        desk.take_all(&mut store, &mut receipts, &[newer]);

        let read = Unsent::read(&file).unwrap();
        assert_eq!(read, unsent);
        let applied = apply(&mut store, &mut receipts, &file, &read, false).unwrap();
        assert_eq!((applied.stored, applied.before, applied.replaced), (1, 0, false));
        assert_eq!(applied.conflicts.len(), 1);
        let conflict = &applied.conflicts[0];
        let original = desk.original(CandidateId(2)).unwrap();
        assert_eq!(conflict.candidate, original, "in the master's ids");
        assert_eq!(conflict.stored.as_ref().unwrap().remarks, "newer");
        assert_eq!(conflict.proposed.as_ref().unwrap().remarks, "closed-tab test");
        assert_eq!(store.master().records.get(original, ANNA).unwrap().remarks, "newer", "the newer record stays");
        // Again: the first is not applied twice; the researcher now chooses the file's version.
        let applied = apply(&mut store, &mut receipts, &file, &read, true).unwrap();
        assert_eq!((applied.stored, applied.before, applied.replaced), (1, 1, true));
        assert_eq!(store.master().records.get(original, ANNA).unwrap().remarks, "closed-tab test");
        // Taken now: the page sending it later (a new link in the same browser) changes nothing.
        let again = desk.take_all(&mut store, &mut receipts, &changes[1..]);
        assert_eq!(again.taken, [changes[1].id.clone()]);

        // Another master's file, another annotator's name, another kind of file: refused by name.
        let mut foreign = read.clone();
        foreign.master = "another".into();
        let e = apply(&mut store, &mut receipts, &file, &foreign, false).unwrap_err().to_string();
        assert!(e.contains("not of this one"), "{e}");
        let mut renamed = read.clone();
        renamed.annotator.name = "Zoe".into();
        let e = apply(&mut store, &mut receipts, &file, &renamed, false).unwrap_err().to_string();
        assert!(e.contains("these are Zoe's changes, but annotator 1 of this master is Anna"), "{e}");
        let e = Unsent::read(&path).unwrap_err().to_string();
        assert!(e.contains("sample.master.json") && e.contains("unsent"), "{e}");
    }
}
