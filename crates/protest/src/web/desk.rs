//! What `protest serve` does for one annotator's page (docs/serve.md): it gives out their part
//! of the task set as a batch, and takes the changes the page sends — each checked as batch import
//! checks a record ([`crate::batches::merge::intake`]), stored in the master's journal as that
//! annotator's record ([`Store::put`]: on disk before it returns), and noted in the
//! [`Receipts`] so that a change sent again is taken once. A change is stored only on the version
//! of the record it was made on ([`crate::store::based`]): one made on another is answered with
//! the record stored now, never stored over it.

use super::protocol::{Answers, Change, ChangeId, Conflicting, Refused};
use super::receipts::Receipts;
use crate::batches::export::{self, ExportError, Layout};
use crate::batches::merge::{self, Intake};
use crate::model::from_page::NotFromPage;
use crate::model::{AnnotatorId, CandidateId, Master, Record};
use crate::store::Store;
use crate::store::based;
use crate::store::batch_file::Batch;
use crate::store::journal::Entry;
use chrono::{DateTime, Utc};

/// Why a change from a page is not taken (the page shows it beside the change).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAdmitted {
    /// The record is another annotator's.
    #[error("a change to annotator {0}'s record, not yours")]
    NotYours(AnnotatorId),
    /// The candidate (batch id) is not one of the part's.
    #[error("candidate {0} is not in your part")]
    NotInPart(CandidateId),
    /// A record no page could have made.
    #[error(transparent)]
    NotFromPage(#[from] NotFromPage),
    /// Not valid against the master, as batch import checks it: the field and the problem.
    #[error("{field}: {problem}")]
    Invalid { field: &'static str, problem: String },
    /// A change to the roster: a page changes records only.
    #[error("a page changes records only")]
    NotARecord,
}

/// One annotator's part of a task set, as the server hands it out and takes it back.
#[derive(Debug, Clone)]
pub struct Desk {
    task_set: u32,
    annotator: AnnotatorId,
    /// Batch candidate `n` is master candidate `layout.order[n - 1]`.
    layout: Layout,
}

/// What became of one change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken {
    /// Stored in the master now.
    Stored,
    /// Stored before (its receipt is there): not applied again.
    Again,
}

/// Why a change was not taken.
#[derive(Debug)]
pub enum NotTaken {
    /// It breaks a rule: it will never be taken, and the page is told why.
    Refused(String),
    /// The master or the receipts cannot be written now: the page sends it again later.
    Unavailable(crate::Error),
    /// It was made on another version of its record than this one, stored now (batch candidate
    /// ids): it will never be taken.
    Conflict(Option<Box<Record>>),
}

impl Desk {
    /// `annotator`'s part of task set `task_set` of `master` (refused if they have none).
    pub fn new(master: &Master, task_set: u32, annotator: AnnotatorId) -> Result<Desk, ExportError> {
        let ts = master.task_set(task_set).ok_or(ExportError::NoTaskSet(task_set))?;
        let person = master.annotator(annotator).ok_or(ExportError::NoAnnotator(annotator))?;
        let layout = export::layout(master, ts, annotator);
        if layout.order.is_empty() {
            return Err(ExportError::NoPart { name: person.name.clone(), task_set });
        }
        Ok(Desk { task_set, annotator, layout })
    }

    pub fn annotator(&self) -> AnnotatorId {
        self.annotator
    }

    pub fn task_set(&self) -> u32 {
        self.task_set
    }

    /// The part as a batch, with the annotator's records as the master holds them now.
    pub fn part(&self, master: &Master, now: DateTime<Utc>) -> Result<Batch, ExportError> {
        export::build(master, self.task_set, self.annotator, now)
    }

    /// A change from the page (batch candidate ids) as the master's journal entry: only this
    /// annotator's records of this part, each checked as batch import checks it.
    pub fn intake(&self, master: &Master, entry: &Entry) -> Result<Entry, NotAdmitted> {
        let mine = |who: AnnotatorId| if who == self.annotator { Ok(()) } else { Err(NotAdmitted::NotYours(who)) };
        match entry {
            Entry::Put(record) => {
                mine(record.annotator)?;
                crate::model::from_page::check(record, crate::model::clock::now().ok())?;
                match merge::intake(master, &self.layout, record) {
                    Ok(record) => Ok(Entry::Put(record)),
                    Err(Intake::NotInPart) => Err(NotAdmitted::NotInPart(record.candidate)),
                    Err(Intake::Invalid { field, problem, .. }) => Err(NotAdmitted::Invalid { field, problem }),
                }
            }
            Entry::Remove { candidate, annotator } => {
                mine(*annotator)?;
                let original = self.original(*candidate).ok_or(NotAdmitted::NotInPart(*candidate))?;
                Ok(Entry::Remove { candidate: original, annotator: *annotator })
            }
            Entry::Roster(_) => Err(NotAdmitted::NotARecord),
        }
    }

    /// The master candidate of batch candidate `candidate` (`None`: not in the part).
    pub fn original(&self, candidate: CandidateId) -> Option<CandidateId> {
        candidate.0.checked_sub(1).and_then(|i| self.layout.order.get(i as usize)).copied()
    }

    /// The annotator's record of batch candidate `candidate` as the master holds it now, in
    /// batch ids.
    pub fn record(&self, master: &Master, candidate: CandidateId) -> Option<Record> {
        let original = self.original(candidate)?;
        master.records.get(original, self.annotator).map(|r| Record { candidate, ..r.clone() })
    }

    /// Takes one change: stored in the master's journal, then its receipt; or found among the
    /// receipts (taken before); or refused.
    pub fn take(&self, store: &mut Store<Master>, receipts: &mut Receipts, change: &Change) -> Result<Taken, NotTaken> {
        if receipts.has(self.annotator, &change.id) {
            return Ok(Taken::Again);
        }
        let answers = self.take_all(store, receipts, std::slice::from_ref(change));
        if let Some(conflict) = answers.conflicts.into_iter().next() {
            return Err(NotTaken::Conflict(conflict.stored.map(Box::new)));
        }
        match (answers.taken.is_empty(), answers.refused.into_iter().next(), answers.trouble) {
            (false, _, _) => Ok(Taken::Stored),
            (_, Some(refused), _) => Err(NotTaken::Refused(refused.why)),
            (_, _, trouble) => {
                Err(NotTaken::Unavailable(crate::Error::not_written(store.path(), trouble.unwrap_or_default())))
            }
        }
    }

    /// Takes the changes of one request, in order: the answer for the page.
    pub fn take_all(&self, store: &mut Store<Master>, receipts: &mut Receipts, changes: &[Change]) -> Answers {
        take_together(store, receipts, &[(self, changes)]).pop().unwrap_or_default()
    }
}

/// Takes the changes of several requests at once — each checked, then all stored with one flush
/// of the journal and their receipts with one more — and answers each request: how the server
/// keeps up when many annotators send at the same moment (docs/performance.md). A change whose
/// receipt is there is acknowledged without being applied again; one made on another version of
/// its record than the one it would replace (counting the changes before it) is answered with
/// that record and not stored; if the master or the receipts cannot be written, none of the new
/// changes is acknowledged (the pages send them again: a change stored without its receipt is
/// put again with the same content).
pub fn take_together(
    store: &mut Store<Master>,
    receipts: &mut Receipts,
    requests: &[(&Desk, &[Change])],
) -> Vec<Answers> {
    let mut answers = vec![Answers::default(); requests.len()];
    // New changes to store: the request each is answered in, and its receipt.
    let mut stored: Vec<(usize, (AnnotatorId, ChangeId))> = Vec::new();
    let mut entries = Vec::new();
    // The records as the changes taken so far leave them, by (master candidate, annotator).
    let mut after: Vec<((CandidateId, AnnotatorId), Option<Record>)> = Vec::new();
    for (i, (desk, changes)) in requests.iter().enumerate() {
        for change in changes.iter() {
            let key = (desk.annotator, change.id.clone());
            if receipts.has(desk.annotator, &change.id) {
                answers[i].taken.push(change.id.clone());
            } else if stored.iter().any(|(_, k)| *k == key) {
                stored.push((i, key)); // sent twice at the same moment (two tabs of a page kept it)
            } else {
                let entry = match desk.intake(store.master(), &change.entry) {
                    Ok(entry) => entry,
                    Err(why) => {
                        answers[i].refused.push(Refused { id: change.id.clone(), why: why.to_string() });
                        continue;
                    }
                };
                // A page changes records only (intake refuses the rest).
                let Some(record) = based::key(&entry) else { continue };
                let now = match after.iter().rev().find(|(k, _)| *k == record) {
                    Some((_, now)) => now.clone(),
                    None => store.master().records.get(record.0, record.1).cloned(),
                };
                if based::applies(now.as_ref(), &entry, change.base) {
                    after.push((record, based::result(&entry).cloned()));
                    entries.push(entry);
                    stored.push((i, key));
                } else {
                    let stored = now.map(|r| Record { candidate: change_candidate(&change.entry), ..r });
                    answers[i].conflicts.push(Conflicting { id: change.id.clone(), stored });
                }
            }
        }
    }
    if entries.is_empty() {
        return answers;
    }
    // A change the journal could not take stays in the store's memory as not saved; without a
    // receipt the page sends it again, and putting the same record twice changes nothing.
    let mut receipted: Vec<(AnnotatorId, ChangeId)> = Vec::new();
    for (_, key) in &stored {
        if !receipted.contains(key) {
            receipted.push(key.clone());
        }
    }
    let saved = store.put_all(entries).and_then(|()| receipts.add_all(&receipted));
    match saved {
        Ok(()) => {
            for (i, (_, id)) in stored {
                answers[i].taken.push(id);
            }
        }
        Err(e) => {
            for (i, _) in stored {
                answers[i].trouble = Some(format!("the server could not save your changes: {e}"));
            }
        }
    }
    answers
}

/// The candidate a change from the page is about, in the page's (batch) ids.
fn change_candidate(entry: &Entry) -> CandidateId {
    based::key(entry).map_or(CandidateId(0), |(candidate, _)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CandidateId, Judgement, Record};
    use crate::store::disk::{Fault, Faulty};
    use crate::store::{load_with_journal, master_file};
    use rand::SeedableRng;
    use std::sync::Arc;

    const ANNA: AnnotatorId = AnnotatorId(1);
    const BEN: AnnotatorId = AnnotatorId(2);

    struct Served {
        _dir: tempfile::TempDir,
        path: std::path::PathBuf,
        store: Store<Master>,
        receipts: Receipts,
        faulty: Faulty,
        rng: rand_chacha::ChaCha8Rng,
    }

    fn served() -> Served {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sample.master.json");
        master_file::save(&crate::testing::sample(), &path).unwrap();
        let faulty = Faulty::new(Fault::None);
        let disk: Arc<dyn crate::store::disk::Disk> = Arc::new(faulty.clone());
        let (store, _) = Store::<Master>::open_on(Arc::clone(&disk), &path).unwrap();
        let receipts = Receipts::open(&*disk, &path, &store.master().id).unwrap();
        Served { _dir: dir, path, store, receipts, faulty, rng: rand_chacha::ChaCha8Rng::seed_from_u64(3) }
    }

    impl Served {
        /// A change made on the record as the master holds it now.
        fn change(&mut self, entry: Entry) -> Change {
            let (candidate, annotator) = based::key(&entry).unwrap();
            let now = Desk::new(self.store.master(), 1, annotator)
                .ok()
                .and_then(|d| d.record(self.store.master(), candidate));
            Change { id: ChangeId::random(&mut self.rng), entry, base: Some(based::Base::of(now.as_ref())) }
        }
    }

    /// Anna's record of batch candidate `n` with this pronoun judgement.
    fn put(n: u32, pronoun: Judgement) -> Entry {
        let mut r = Record::new(CandidateId(n), ANNA, chrono::DateTime::UNIX_EPOCH);
        r.pronoun = pronoun;
        r.active_ms = Some(1_500);
        Entry::Put(r)
    }

    #[test]
    fn a_change_is_stored_under_the_master_candidate_and_taken_once() {
        let mut s = served();
        let desk = Desk::new(s.store.master(), 1, ANNA).unwrap();
        let part = desk.part(s.store.master(), Utc::now()).unwrap();
        let original = export::layout(s.store.master(), &s.store.master().task_sets[0], ANNA).order[0];
        assert_eq!(part.order()[0], CandidateId(1));
        let change = s.change(put(1, Judgement::Yes));
        assert_eq!(desk.take(&mut s.store, &mut s.receipts, &change).unwrap(), Taken::Stored);
        // On disk, as any reader of the master sees it: check, report, a read-only window.
        let (on_disk, _) = load_with_journal::<Master>(&s.path).unwrap();
        let stored = on_disk.records.get(original, ANNA).unwrap();
        assert_eq!((stored.pronoun, stored.active_ms), (Judgement::Yes, Some(1_500)));
        // Sent again: not applied again, also after a restart (the receipts are read afresh).
        let journal = std::fs::read(crate::store::journal::path_for(&s.path)).unwrap();
        assert_eq!(desk.take(&mut s.store, &mut s.receipts, &change).unwrap(), Taken::Again);
        let mut reopened = Receipts::open(&crate::store::disk::Os, &s.path, &s.store.master().id).unwrap();
        assert_eq!(desk.take(&mut s.store, &mut reopened, &change).unwrap(), Taken::Again);
        assert_eq!(std::fs::read(crate::store::journal::path_for(&s.path)).unwrap(), journal);
        // The page's next view of the part has it.
        let part = desk.part(s.store.master(), Utc::now()).unwrap();
        assert_eq!(part.content().records.get(CandidateId(1), ANNA).unwrap().pronoun, Judgement::Yes);
        // A removal is mapped the same way.
        let remove = s.change(Entry::Remove { candidate: CandidateId(1), annotator: ANNA });
        desk.take(&mut s.store, &mut s.receipts, &remove).unwrap();
        assert!(s.store.master().records.get(original, ANNA).is_none());
    }

    #[test]
    fn changes_that_come_together_are_stored_together_and_each_once() {
        let mut s = served();
        let (anna, ben) = (Desk::new(s.store.master(), 1, ANNA).unwrap(), Desk::new(s.store.master(), 1, BEN).unwrap());
        let annas = [s.change(put(1, Judgement::Yes)), s.change(put(2, Judgement::No))];
        let mut bens = Record::new(CandidateId(1), BEN, chrono::DateTime::UNIX_EPOCH);
        bens.pronoun = Judgement::No;
        let bens = [s.change(Entry::Put(bens)), s.change(put(1, Judgement::No))];
        // Anna's second tab sends her first change at the same moment.
        let again = [annas[0].clone()];
        let answers = take_together(
            &mut s.store,
            &mut s.receipts,
            &[(&anna, &annas[..]), (&ben, &bens[..]), (&anna, &again[..])],
        );
        let ids = |changes: &[Change]| changes.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
        assert_eq!(answers[0].taken, ids(&annas));
        assert_eq!(answers[1].taken, ids(&bens[..1]));
        assert!(answers[1].refused[0].why.contains("annotator 1's record, not yours"));
        assert_eq!(answers[2].taken, ids(&again));
        let journal = std::fs::read_to_string(crate::store::journal::path_for(&s.path)).unwrap();
        assert_eq!(journal.lines().count(), 1 + 3, "three changes, each once");
        assert_eq!(s.receipts.len(), 3);
    }

    #[test]
    fn changes_outside_the_annotators_part_are_refused() {
        let mut s = served();
        let desk = Desk::new(s.store.master(), 1, ANNA).unwrap();
        let part_len = desk.layout.order.len() as u32;
        let mut bens = Record::new(CandidateId(1), BEN, chrono::DateTime::UNIX_EPOCH);
        bens.pronoun = Judgement::No;
        let mut too_long = Record::new(CandidateId(1), ANNA, chrono::DateTime::UNIX_EPOCH);
        too_long.active_ms = Some(crate::annotate::timing::MAX_MS + 1);
        for (entry, why) in [
            (Entry::Put(bens), "annotator 2's record, not yours"),
            (put(part_len + 1, Judgement::Yes), "is not in your part"),
            (put(0, Judgement::Yes), "candidate 0 is not in your part"),
            (Entry::Remove { candidate: CandidateId(part_len + 1), annotator: ANNA }, "is not in your part"),
            (Entry::Remove { candidate: CandidateId(1), annotator: BEN }, "not yours"),
            (Entry::Put(too_long), "active_ms: record of candidate"),
        ] {
            let change = s.change(entry);
            match desk.take(&mut s.store, &mut s.receipts, &change) {
                Err(NotTaken::Refused(m)) => assert!(m.contains(why), "{m}"),
                other => panic!("{other:?}"),
            }
            assert!(!s.receipts.has(ANNA, &change.id));
        }
        assert!(s.store.master().records.iter().all(|r| r.annotator != ANNA || r.pronoun != Judgement::Yes));
        assert!(Desk::new(s.store.master(), 2, ANNA).is_err());
        assert!(Desk::new(s.store.master(), 1, AnnotatorId(9)).is_err());
    }

    #[test]
    fn a_change_the_disk_refuses_is_not_acknowledged_and_taken_when_sent_again() {
        let mut s = served();
        let desk = Desk::new(s.store.master(), 1, ANNA).unwrap();
        let changes = [s.change(put(1, Judgement::Yes)), s.change(put(2, Judgement::No))];
        s.faulty.set(Fault::From(0));
        let answers = desk.take_all(&mut s.store, &mut s.receipts, &changes);
        assert!(answers.taken.is_empty());
        assert!(answers.trouble.unwrap().contains("could not save"));
        assert!(!s.receipts.has(ANNA, &changes[0].id));
        // One change taken alone: a write that failed, not a refusal by the rules.
        match desk.take(&mut s.store, &mut s.receipts, &changes[0]) {
            Err(NotTaken::Unavailable(crate::Error::NotWritten { message, .. })) => {
                assert!(message.contains("could not save"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        s.faulty.set(Fault::None);
        let answers = desk.take_all(&mut s.store, &mut s.receipts, &changes);
        assert_eq!(answers.taken, changes.iter().map(|c| c.id.clone()).collect::<Vec<_>>());
        assert_eq!(s.store.not_saved(), 0);
        let (on_disk, _) = load_with_journal::<Master>(&s.path).unwrap();
        assert_eq!(on_disk.records.iter().filter(|r| r.annotator == ANNA && r.active_ms == Some(1_500)).count(), 2);
    }

    #[test]
    fn fields_no_page_could_send_are_refused_with_the_reason() {
        let mut s = served();
        let desk = Desk::new(s.store.master(), 1, ANNA).unwrap();
        let year_10000 = chrono::DateTime::parse_from_rfc3339("9999-12-31T23:59:59Z").unwrap().to_utc()
            + chrono::Duration::seconds(1);
        type Spoil = fn(&mut Record, chrono::DateTime<Utc>);
        let cases: [(Spoil, &str); 6] = [
            (|r, t| r.modified = t, "modified: +10000-01-01T00:00:00Z is outside the years 1970–9999"),
            (|r, _| drop(r.legacy.insert("anaph_annotation".into(), "unsure".into())), "legacy: 'anaph_annotation'"),
            (|r, _| r.tags = (0..10_000).map(|i| format!("t{i}")).collect(), "tags: 10000 tags, more than the 32"),
            (|r, _| r.remarks = "x".repeat(900_000), "remarks: 900000 characters, more than the 10000"),
            (|r, _| r.remarks = "a\0b".into(), "remarks: a control or direction-changing character (U+0000)"),
            (|r, _| r.remarks = "\u{202E}olleh".into(), "remarks: a control or direction-changing character (U+202E)"),
        ];
        for (spoil, why) in cases {
            let Entry::Put(mut record) = put(1, Judgement::Yes) else { unreachable!() };
            spoil(&mut record, year_10000);
            let change = s.change(Entry::Put(record));
            match desk.take(&mut s.store, &mut s.receipts, &change) {
                Err(NotTaken::Refused(m)) => assert!(m.starts_with(why), "{m}"),
                other => panic!("{why}: {other:?}"),
            }
        }
        assert!(s.store.master().records.iter().all(|r| r.annotator != ANNA || r.pronoun != Judgement::Yes));
        assert_eq!(s.store.not_saved(), 0);
    }

    #[test]
    fn a_change_is_stored_only_on_the_version_it_was_made_on() {
        let mut s = served();
        let desk = Desk::new(s.store.master(), 1, ANNA).unwrap();
        let original = desk.original(CandidateId(8)).unwrap();
        // Two tabs change example 8, both on the record as it was.
        let older = s.change(put(8, Judgement::No));
        let newer = s.change(put(8, Judgement::Yes));
        assert_eq!(older.base, newer.base);
        assert_eq!(desk.take(&mut s.store, &mut s.receipts, &newer).unwrap(), Taken::Stored);
        let journal = std::fs::read(crate::store::journal::path_for(&s.path)).unwrap();
        // The other arrives later: answered with the record stored now (in the page's ids), not stored.
        match desk.take(&mut s.store, &mut s.receipts, &older) {
            Err(NotTaken::Conflict(Some(stored))) => {
                assert_eq!((stored.candidate, stored.pronoun), (CandidateId(8), Judgement::Yes));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.store.master().records.get(original, ANNA).unwrap().pronoun, Judgement::Yes);
        assert!(!s.receipts.has(ANNA, &older.id), "no receipt: it was not taken");
        // Sent again (its answer lost): the same answer, nothing written.
        assert!(matches!(desk.take(&mut s.store, &mut s.receipts, &older), Err(NotTaken::Conflict(Some(_)))));
        assert_eq!(std::fs::read(crate::store::journal::path_for(&s.path)).unwrap(), journal);
        // The annotator chose their version: a new change, made on the record stored now.
        let chosen = s.change(put(8, Judgement::No));
        assert_eq!(desk.take(&mut s.store, &mut s.receipts, &chosen).unwrap(), Taken::Stored);
        assert_eq!(s.store.master().records.get(original, ANNA).unwrap().pronoun, Judgement::No);

        // In one request, a change made on the one before it (a remark after a judgement) is taken.
        let first = s.change(put(9, Judgement::No));
        let Entry::Put(mut remarked) = put(9, Judgement::No) else { unreachable!() };
        remarked.remarks = "closed-tab test".into();
        let Entry::Put(made) = &first.entry else { unreachable!() };
        let second = Change {
            id: ChangeId::random(&mut s.rng),
            entry: Entry::Put(remarked),
            base: Some(based::Base::of(Some(made))),
        };
        let answers = desk.take_all(&mut s.store, &mut s.receipts, &[first.clone(), second.clone()]);
        assert_eq!(answers.taken, [first.id.clone(), second.id.clone()]);
        // … and in one request of two pages, the second of two changes made on the same record is not.
        let (a, b) = (s.change(put(10, Judgement::Yes)), s.change(put(10, Judgement::No)));
        let answers =
            take_together(&mut s.store, &mut s.receipts, &[(&desk, &[a.clone()][..]), (&desk, &[b.clone()][..])]);
        assert_eq!((answers[0].taken.len(), answers[1].conflicts.len()), (1, 1));
        assert_eq!(answers[1].conflicts[0].stored.as_ref().map(|r| r.pronoun), Some(Judgement::Yes));

        // A change that does not say what it was made on (a page of an earlier version): stored
        // only where there is no record.
        let unsaid = |s: &mut Served, n| Change { base: None, ..s.change(put(n, Judgement::Yes)) };
        let over = unsaid(&mut s, 8);
        assert!(matches!(desk.take(&mut s.store, &mut s.receipts, &over), Err(NotTaken::Conflict(Some(_)))));
        let fresh = unsaid(&mut s, 11);
        assert_eq!(desk.take(&mut s.store, &mut s.receipts, &fresh).unwrap(), Taken::Stored);
    }
}
