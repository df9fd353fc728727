//! The store's tests: opening, saving, the journal, the lock, and every failure between.

use super::*;
use crate::model::Judgement;
use crate::store::disk::{Fault, Faulty, Op};
use chrono::Utc;
use std::fs::OpenOptions;
use std::io::Write;

pub(super) const TINY: &str = include_str!("../../../../tests/fixtures/tiny/tiny.master.json");

pub(super) fn tiny(dir: &tempfile::TempDir) -> PathBuf {
    let path = dir.path().join("tiny.master.json");
    std::fs::write(&path, TINY).unwrap();
    path
}

/// The tiny master in `dir` opened on a disk whose faults the test sets (none yet), with one
/// change made (candidate 3 judged yes).
pub(super) fn on_faulty_disk(dir: &tempfile::TempDir) -> (PathBuf, Faulty, Store<Master>) {
    let path = tiny(dir);
    let disk = Faulty::new(Fault::None);
    let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    (path, disk, store)
}

pub(super) fn record(candidate: u32, pronoun: Judgement) -> Record {
    let mut r = Record::new(CandidateId(candidate), AnnotatorId::RESEARCHER, Utc::now());
    r.pronoun = pronoun;
    r
}

#[test]
fn changes_survive_without_a_close() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!(opened, Opened::default());
    store.put(record(3, Judgement::Yes)).unwrap();
    store.put(record(4, Judgement::No)).unwrap();
    store.remove(CandidateId(4), AnnotatorId::RESEARCHER).unwrap();
    // The master file itself is untouched; the journal has the changes.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    drop(store); // as if the process died: no close
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!(opened.recovered, 3);
    assert_eq!(store.master().records.len(), 1);
    assert_eq!(store.master().records.get(CandidateId(3), AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::Yes);
}

#[test]
fn the_statuses_loading_derived_are_those_of_the_records_with_the_journal_s_changes() {
    use crate::annotate::status::{Status, Statuses};
    use crate::model::ConflictStatus;
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let mut m = crate::testing::tiny();
    // Anna's pronoun yes without a token: breaks rule 4 whatever the file says ("clear").
    crate::testing::judge(&mut m, 4, 1, Judgement::Yes, Judgement::Unset);
    let mut broken = m.records.get(CandidateId(4), AnnotatorId(1)).unwrap().clone();
    broken.selected = Default::default();
    broken.conflict = ConflictStatus::Clear;
    m.records.put(broken);
    crate::testing::judge(&mut m, 3, 1, Judgement::No, Judgement::Unset);
    master_file::save(&m, &path).unwrap();

    let (loaded, replay, statuses) = load_master_with_statuses(&path).unwrap();
    assert!(replay.entries.is_empty());
    assert_eq!(loaded.records.get(CandidateId(4), AnnotatorId(1)).unwrap().conflict, ConflictStatus::Unchecked);
    assert_eq!(statuses.as_slice(), [Status::Done, Status::Conflict]);
    assert_eq!(statuses, Statuses::of(&loaded));

    // A change in the journal (candidate 4 judged no: done) is counted as it now is.
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let mut fixed = loaded.records.get(CandidateId(4), AnnotatorId(1)).unwrap().clone();
    fixed.pronoun = Judgement::No;
    store.put(fixed).unwrap();
    drop(store); // the change stays in the journal
    let (loaded, replay, statuses) = load_master_with_statuses(&path).unwrap();
    assert_eq!(replay.entries.len(), 1);
    assert_eq!(statuses.as_slice(), [Status::Done, Status::Done]);
    assert_eq!(statuses, Statuses::of(&loaded));
    assert_eq!(
        crate::store::summary::Summary::with_statuses(&loaded, &statuses),
        crate::store::summary::Summary::of(&loaded)
    );
}

#[test]
fn close_folds_the_journal_into_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    store.close().unwrap();
    assert!(!journal::path_for(&path).exists() && !lock_path(&path).exists());
    let m = master_file::load(&path).unwrap();
    assert_eq!(m.revision, 1);
    assert_eq!(m.records.len(), 1);
}

#[test]
fn a_second_opener_is_read_only_until_the_first_closes() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut first, _) = Store::<Master>::open(&path).unwrap();
    first.put(record(3, Judgement::Yes)).unwrap();
    let (mut second, opened) = Store::<Master>::open(&path).unwrap();
    let why = opened.read_only.unwrap();
    assert!(why.contains("is open in another PROTEST program (process"), "{why}");
    assert_eq!(opened.remedy.as_deref(), Some("close it there first"));
    assert!(second.is_read_only());
    // The read-only view still shows the first one's journaled work.
    assert_eq!(second.master().records.len(), 1);
    let err = second.put(record(4, Judgement::No)).unwrap_err().to_string();
    assert!(err.contains("read-only"), "{err}");
    first.close().unwrap();
    drop(second);
    let (third, opened) = Store::<Master>::open(&path).unwrap();
    assert!(opened.read_only.is_none() && !third.is_read_only());
}

#[test]
fn records_that_do_not_fit_are_refused_before_touching_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let err = store.put(record(99, Judgement::Yes)).unwrap_err().to_string();
    assert!(err.contains("candidate 99") && err.contains("does not exist"), "{err}");
    assert_eq!(store.unsaved_changes(), 0);
}

#[test]
fn update_saves_the_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    store
        .update(|m| {
            m.description = "changed".into();
            Ok(())
        })
        .unwrap();
    assert_eq!(store.unsaved_changes(), 0);
    let m = master_file::load(&path).unwrap();
    assert_eq!((m.description.as_str(), m.records.len(), m.revision), ("changed", 1, 1));
    // The journal left over from revision 0 would be stale; the new one is for revision 1.
    drop(store);
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((opened.recovered, store.master().records.len()), (0, 1));
}

#[test]
fn a_journal_that_could_not_be_restarted_is_restarted_before_the_next_change() {
    let dir = tempfile::tempdir().unwrap();
    let (path, disk, mut store) = on_faulty_disk(&dir);
    // The full save writes the file, then fails to start the journal of the new revision.
    disk.set(Fault::None);
    store.save().unwrap();
    let journal = journal::path_for(&path);
    let k = disk
        .ops()
        .iter()
        .position(|(_, p)| p.starts_with(dir.path()) && p.to_string_lossy().contains("journal"))
        .unwrap();
    disk.set(Fault::Once(k));
    // The file is saved (the change is in it): the save succeeded.
    store.save().unwrap();
    assert_eq!(disk.failed().unwrap().0, Op::Create);
    assert_eq!(master_file::load(&path).unwrap().revision, 2);
    assert!(journal.exists(), "the old journal, of revision 1, is still there");
    // This change must not go to the journal of the old revision, which is now stale.
    store.put(record(4, Judgement::No)).unwrap();
    drop(store);
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((opened.recovered, store.master().records.len()), (1, 2));
}

#[test]
fn temporary_files_left_by_a_crash_are_removed_by_the_next_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let leftovers = [".tiny.master.json.protest-Xy12ab.tmp", ".tiny.master.json.journal.protest-Xy12ab.tmp"];
    for name in leftovers {
        std::fs::write(dir.path().join(name), "half a file").unwrap();
    }
    let (first, _) = Store::<Master>::open(&path).unwrap();
    assert!(leftovers.iter().all(|n| !dir.path().join(n).exists()));
    // A read-only opener removes nothing: the holder may be writing.
    std::fs::write(dir.path().join(leftovers[0]), "being written").unwrap();
    let (_second, opened) = Store::<Master>::open(&path).unwrap();
    assert!(opened.read_only.is_some() && dir.path().join(leftovers[0]).exists());
    drop(first);
}

#[test]
fn a_file_whose_lock_cannot_be_written_opens_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    std::fs::create_dir(lock_path(&path)).unwrap();
    let (mut store, opened) = Store::<Master>::open(&path).unwrap();
    let why = opened.read_only.unwrap();
    assert!(why.contains("cannot be locked for writing") && why.contains("tiny.master.json.lock"), "{why}");
    let err = store.put(record(3, Judgement::Yes)).unwrap_err().to_string();
    assert!(err.contains("changes cannot be saved: ") && err.contains("cannot be locked"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
}

#[test]
fn a_file_that_does_not_open_leaves_no_lock_behind() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    assert!(Store::<Master>::open(&missing).is_err());
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "not json").unwrap();
    assert!(Store::<Master>::open(&garbage).is_err());
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("garbage.json")]);
}

#[test]
fn a_change_the_disk_refuses_is_kept_as_not_saved_and_saved_later() {
    let dir = tempfile::tempdir().unwrap();
    let (path, disk, mut store) = on_faulty_disk(&dir);
    disk.set(Fault::FullFrom(0));
    for c in [4, 5] {
        let e = store.put(record(c, Judgement::No)).unwrap_err().to_string();
        assert!(e.contains("No space left"), "{e}");
    }
    // Kept in memory, counted as not saved, and not on disk.
    assert_eq!((store.master().records.len(), store.not_saved()), (3, 2));
    assert!(store.failure().unwrap().contains("No space left"));
    assert_eq!(load_with_journal::<Master>(&path).unwrap().0.records.len(), 1);
    assert!(store.retry().is_err());
    // Space again: the next change saves them all, in order.
    disk.set(Fault::None);
    store.put(record(6, Judgement::Yes)).unwrap();
    assert_eq!((store.not_saved(), store.failure()), (0, None));
    let (on_disk, replay) = load_with_journal::<Master>(&path).unwrap();
    assert_eq!((&on_disk, replay.entries.len(), replay.torn_tail), (store.master(), 4, false));
    // Retrying by hand works too.
    disk.set(Fault::Once(0));
    assert!(store.remove(CandidateId(6), AnnotatorId::RESEARCHER).is_err());
    disk.set(Fault::None);
    store.retry().unwrap();
    assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, store.master());
}

#[test]
fn a_failed_full_save_changes_nothing_in_memory_or_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let (path, disk, mut store) = on_faulty_disk(&dir);
    let before = store.master().clone();
    disk.set(Fault::FullFrom(0));
    let e = store
        .update(|m| {
            m.description = "changed".into();
            Ok(())
        })
        .unwrap_err();
    assert!(e.to_string().contains("No space left"), "{e}");
    assert_eq!(store.master(), &before);
    assert_eq!(store.not_saved(), 0);
    assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, &before);
    assert!(atomic::leftovers(&path).is_empty());
    // The next change is journaled as usual.
    disk.set(Fault::None);
    store.put(record(4, Judgement::No)).unwrap();
    assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, store.master());
}

/// A roster with annotator Zoé (id 1) and a task set giving candidates 1 and 2 to her.
fn roster() -> Roster {
    use crate::model::{Annotator, Task, TaskSet};
    let zoe = AnnotatorId(1);
    Roster {
        annotators: vec![Annotator { id: zoe, name: "Zoé".into() }],
        task_sets: vec![TaskSet {
            id: 1,
            name: "first".into(),
            created: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
            seed: 7,
            corpora: vec![crate::model::CorpusId(1)],
            categories: Vec::new(),
            annotators: 1,
            iaa_size: 0,
            purpose: Default::default(),
            planner: Default::default(),
            tasks: vec![Task {
                label: "1".into(),
                candidates: vec![CandidateId(1), CandidateId(2)],
                annotator: Some(zoe),
            }],
        }],
    }
}

fn roster_of(m: &Master) -> Roster {
    Roster { annotators: m.annotators.clone(), task_sets: m.task_sets.clone() }
}

#[test]
fn a_roster_is_committed_to_the_journal_and_folded_by_the_next_full_save() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let changes = store.changes();
    store.commit_roster(roster()).unwrap();
    assert_eq!(roster_of(store.master()), roster());
    assert_eq!(store.changes(), changes + 1, "what was computed from the master is out of date");
    // The file itself is not rewritten: the roster is one line of the journal.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    let journal = std::fs::read_to_string(journal::path_for(&path)).unwrap();
    assert!(journal.starts_with("{\"journal\":\"protest-journal\",\"version\":2,"), "{journal}");
    assert!(journal.lines().nth(1).unwrap().starts_with("{\"roster\":{\"annotators\":[{\"id\":1,\"name\":\"Zoé\"}]"));
    // A command closes keeping it: no lock, the journal stays, every opening replays it.
    store.close_keeping_journal().unwrap();
    assert!(!lock_path(&path).exists() && journal::path_for(&path).exists());
    let (on_disk, replay) = load_with_journal::<Master>(&path).unwrap();
    assert_eq!((roster_of(&on_disk), replay.entries.len()), (roster(), 1));
    // Annotating on top of it, then closing, folds both into the file.
    let (mut store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!(opened.recovered, 1);
    let mut zoe = record(1, Judgement::Yes);
    zoe.annotator = AnnotatorId(1);
    store.put(zoe).unwrap();
    store.close().unwrap();
    assert!(!journal::path_for(&path).exists());
    let m = master_file::load(&path).unwrap();
    assert_eq!((roster_of(&m), m.records.len(), m.revision), (roster(), 1, 1));
}

#[test]
fn a_command_that_saved_in_full_leaves_no_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store
        .update(|m| {
            m.description = "changed".into();
            Ok(())
        })
        .unwrap();
    store.close_keeping_journal().unwrap();
    assert!(!journal::path_for(&path).exists() && !lock_path(&path).exists());
}

#[test]
fn a_roster_cut_short_anywhere_by_a_crash_leaves_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    let before = std::fs::read(journal::path_for(&path)).unwrap();
    store.commit_roster(roster()).unwrap();
    let after = std::fs::read(journal::path_for(&path)).unwrap();
    drop(store); // killed: no close
    let old = roster_of(&master_file::load(&path).unwrap());
    // The journal as a crash could leave it at every byte of the roster's line.
    for cut in before.len()..=after.len() {
        std::fs::write(journal::path_for(&path), &after[..cut]).unwrap();
        let (m, replay) = load_with_journal::<Master>(&path).unwrap();
        assert_eq!(m.records.len(), 1, "cut at {cut}: the change before it is kept");
        // The line counts once whole, newline included: only then was it flushed.
        let whole = cut == after.len();
        assert_eq!(roster_of(&m), if whole { roster() } else { old.clone() }, "cut at {cut}");
        assert_eq!(replay.torn_tail, cut > before.len() && !whole, "cut at {cut}");
        // Opening to write carries on from there.
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(4, Judgement::No)).unwrap();
        drop(store);
        let m = load_with_journal::<Master>(&path).unwrap().0;
        assert_eq!((roster_of(&m) == roster(), m.records.len()), (whole, 2), "cut at {cut}");
    }
}

#[test]
fn a_roster_that_does_not_fit_the_master_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let mut wrong = roster();
    wrong.task_sets[0].tasks[0].candidates.push(CandidateId(99));
    let e = store.commit_roster(wrong).unwrap_err().to_string();
    assert!(e.contains("task set 'first': candidate 99 does not exist"), "{e}");
    assert!(store.master().task_sets.is_empty() && store.unsaved_changes() == 0);
    // The rules a master's own annotators and task sets are loaded by (`validate::roster`).
    let mut twice = roster();
    twice.annotators.push(crate::model::Annotator { id: AnnotatorId(2), name: "Zoé".into() });
    let e = store.commit_roster(twice).unwrap_err().to_string();
    assert!(e.contains("annotator name 'Zoé' is used twice"), "{e}");
    let mut unknown = roster();
    unknown.task_sets[0].tasks[0].annotator = Some(AnnotatorId(5));
    let e = store.commit_roster(unknown).unwrap_err().to_string();
    assert!(e.contains("task set 'first': annotator 5 does not exist"), "{e}");
    assert!(store.master().task_sets.is_empty() && store.unsaved_changes() == 0);
    // A journal edited by hand to leave out an annotator whose records the master keeps.
    store.commit_roster(roster()).unwrap();
    let mut zoe = record(1, Judgement::Yes);
    zoe.annotator = AnnotatorId(1);
    store.put(zoe).unwrap();
    drop(store);
    let empty = Entry::Roster(Roster { annotators: Vec::new(), task_sets: Vec::new() });
    let mut line = serde_json::to_vec(&empty).unwrap();
    line.push(b'\n');
    OpenOptions::new().append(true).open(journal::path_for(&path)).unwrap().write_all(&line).unwrap();
    // Damage like a line that cannot be read: what comes before it is taken, it is not.
    let (m, replay) = load_with_journal::<Master>(&path).unwrap();
    assert_eq!((replay.entries.len(), m.annotators.len(), m.records.len()), (2, 1, 1));
    let note = replay.note(&journal::path_for(&path)).unwrap();
    assert!(
        note.contains("line 4 of")
            && note.contains("its change cannot be applied: the roster leaves out annotator 1 (Zoé)"),
        "{note}"
    );
    assert!(note.contains("the 2 changes before it are kept"), "{note}");
}

#[test]
fn a_roster_committed_is_in_memory_and_on_disk_or_in_neither_whatever_write_fails() {
    // `pending`: a change not saved before the roster, which then goes in a full save.
    for pending in [false, true] {
        let open = |dir: &tempfile::TempDir| {
            let (path, disk, mut store) = on_faulty_disk(dir);
            if pending {
                disk.set(Fault::Once(0));
                assert!(store.put(record(4, Judgement::No)).is_err());
                disk.set(Fault::None);
            }
            (path, disk, store)
        };
        // Once without faults, to count the disk operations of the commit.
        let dir = tempfile::tempdir().unwrap();
        let (path, disk, mut store) = open(&dir);
        let start = disk.ops().len();
        store.commit_roster(roster()).unwrap();
        let count = disk.ops().len() - start;
        assert_eq!(roster_of(store.master()), roster());
        assert_eq!(store.not_saved(), 0, "the change not saved before is saved with it");
        assert_eq!(&load_with_journal::<Master>(&path).unwrap().0, store.master());
        assert!(count > 0);
        for k in 0..count {
            for fault in [Fault::Once(k), Fault::FullFrom(k)] {
                let dir = tempfile::tempdir().unwrap();
                let (path, disk, mut store) = open(&dir);
                let before = store.master().clone();
                disk.set(fault);
                let result = store.commit_roster(roster());
                disk.set(Fault::None);
                let on_disk = load_with_journal::<Master>(&path).unwrap().0;
                let mut in_memory = store.master().clone();
                let expected = if result.is_ok() { roster() } else { roster_of(&before) };
                assert_eq!(roster_of(&in_memory), expected, "{fault:?} pending {pending}: memory");
                assert_eq!(roster_of(&on_disk), expected, "{fault:?} pending {pending}: disk as memory");
                in_memory.revision = before.revision;
                if result.is_err() {
                    assert_eq!(in_memory, before, "{fault:?} pending {pending}: memory as it was");
                }
                assert_eq!(on_disk.records.len() + store.not_saved(), in_memory.records.len(), "{fault:?}");
                assert!(atomic::leftovers(&path).is_empty(), "{fault:?}");
            }
        }
    }
}

#[test]
fn a_holder_whose_file_was_replaced_stops_writing_and_keeps_its_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut first, _) = Store::<Master>::open(&path).unwrap();
    first.put(record(3, Judgement::Yes)).unwrap();
    // Someone removes the lock; a second writer gets in and saves in full.
    std::fs::remove_file(lock_path(&path)).unwrap();
    let (mut second, opened) = Store::<Master>::open(&path).unwrap();
    assert!(opened.read_only.is_none());
    second
        .update(|m| {
            m.description = "the intruder's".into();
            Ok(())
        })
        .unwrap();
    second.close().unwrap();
    // The first notices at its next change: nothing more is written, the change is kept.
    let e = first.put(record(4, Judgement::No)).unwrap_err().to_string();
    assert!(e.contains("another program changed it") && e.contains("save them as a new file"), "{e}");
    assert!(
        first.detached().is_some_and(|why| why.ends_with("tiny.master.json was replaced")),
        "{:?}",
        first.detached()
    );
    assert_eq!((first.master().records.len(), first.not_saved()), (2, 1));
    assert!(first.writable().is_err());
    let on_disk = master_file::load(&path).unwrap();
    assert_eq!((on_disk.description.as_str(), on_disk.records.len()), ("the intruder's", 1));
    // Closing writes nothing over the intruder's file, and says the change is lost there.
    let copy = dir.path().join("mine.master.json");
    first.save_copy(&copy).unwrap();
    assert!(first.close().is_err());
    assert_eq!(master_file::load(&path).unwrap(), on_disk);
    assert_eq!(master_file::load(&copy).unwrap().records.len(), 2);
}

#[test]
fn a_full_save_checks_the_revision_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    // Another program writes the file in place, same size, at another revision.
    let text = std::fs::read_to_string(&path).unwrap().replacen("\"revision\":0", "\"revision\":7", 1);
    let meta = std::fs::metadata(&path).unwrap();
    std::fs::write(&path, &text).unwrap();
    let when = std::fs::FileTimes::new().set_modified(meta.modified().unwrap());
    std::fs::File::options().write(true).open(&path).unwrap().set_times(when).unwrap();
    let e = store.save().unwrap_err().to_string();
    assert!(e.contains("is at revision 7, not 0"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[cfg(unix)]
#[test]
fn a_file_without_write_permission_opens_read_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (mut store, opened) = Store::<Master>::open(&path).unwrap();
    let why = opened.read_only.unwrap();
    assert!(why.ends_with("tiny.master.json has no write permission (it is a read-only file)"), "{why}");
    let e = store.writable().unwrap_err().to_string();
    assert!(e.contains("make it writable first"), "{e}");
    assert!(store.update(|_| Ok(())).is_err() && store.put(record(3, Judgement::Yes)).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    assert!(!lock_path(&path).exists() && !journal::path_for(&path).exists());
}

#[test]
fn a_torn_last_change_is_dropped_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    drop(store);
    let mut j = OpenOptions::new().append(true).open(journal::path_for(&path)).unwrap();
    j.write_all(b"{\"put\":{\"candidate\":4,").unwrap();
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((opened.recovered, store.master().records.len()), (1, 1));
    assert!(opened.dropped.unwrap().contains("was cut short"));
}

/// Every file in `dir`, with its bytes (a link as `-> TARGET`).
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = match std::fs::read_link(e.path()) {
                Ok(target) => format!("-> {}", target.display()).into_bytes(),
                Err(_) if e.file_type().unwrap().is_file() => std::fs::read(e.path()).unwrap(),
                Err(_) => b"(not a file)".to_vec(),
            };
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

#[cfg(unix)]
#[test]
fn a_link_and_the_real_path_meet_the_same_lock_and_journal() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let (mut through_link, opened) = Store::<Master>::open(&link).unwrap();
    assert!(opened.read_only.is_none());
    assert_eq!(through_link.path(), link.as_path(), "named as the user named it");
    assert_eq!(through_link.real_path(), std::fs::canonicalize(&path).unwrap());
    through_link.put(record(3, Judgement::Yes)).unwrap();
    assert!(lock_path(&path).exists() && journal::path_for(&path).exists());
    assert!(!lock_path(&link).exists() && !journal::path_for(&link).exists());
    // The real path (or any other spelling) finds the file held, and sees the change.
    let spelled = dir.path().join(".").join("tiny.master.json");
    let (other, opened) = Store::<Master>::open(&spelled).unwrap();
    assert!(opened.read_only.unwrap().contains("is open in another PROTEST program"));
    assert_eq!(other.master().records.len(), 1);
    through_link.close().unwrap();
    // Saved into the file itself; the link is still a link.
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
    assert_eq!(load_with_journal::<Master>(&link).unwrap().0.records.len(), 1);
}

#[cfg(unix)]
#[test]
fn links_planted_beside_a_master_are_refused_and_their_targets_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let outside = tempfile::tempdir().unwrap();
    let rc = outside.path().join("rc");
    std::fs::write(&rc, "a user's precious file, one line without its newline").unwrap();
    let planted = |name: &str| {
        let at = dir.path().join(name);
        std::os::unix::fs::symlink(&rc, &at).unwrap();
        at
    };
    // As its lock: the file opens read-only, saying so; nothing is written anywhere.
    let lock = planted("tiny.master.json.lock");
    let before = snapshot(dir.path());
    let (mut store, opened) = Store::<Master>::open(&path).unwrap();
    let why = opened.read_only.unwrap();
    assert!(why.contains("tiny.master.json.lock: is a symbolic link (to ") && why.ends_with("remove it"), "{why}");
    let e = store.writable().unwrap_err().to_string();
    assert!(e.contains("remove it; PROTEST makes its own once it is gone"), "{e}");
    assert!(store.put(record(3, Judgement::Yes)).is_err());
    drop(store);
    std::fs::remove_file(&lock).unwrap();
    // As its journal: refused, naming it, and no lock is left behind.
    let journal = planted("tiny.master.json.journal");
    let e = Store::<Master>::open(&path).unwrap_err().to_string();
    assert!(e.contains("tiny.master.json.journal: is a symbolic link"), "{e}");
    assert!(load_with_journal::<Master>(&path).is_err());
    assert!(!lock_path(&path).exists(), "a failed open leaves no lock");
    assert_eq!(snapshot(dir.path()).len(), before.len());
    std::fs::remove_file(&journal).unwrap();
    // As a leftover temporary file: not followed, not removed, and saving makes its own.
    let temp = planted(".tiny.master.json.protest-Ab12cd.tmp");
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    store.close().unwrap();
    assert!(std::fs::symlink_metadata(&temp).unwrap().file_type().is_symlink());
    assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
    assert_eq!(std::fs::read_to_string(&rc).unwrap(), "a user's precious file, one line without its newline");
    // Nothing was ever written through a link.
    assert_eq!(snapshot(outside.path()).len(), 1);
}

#[cfg(unix)]
#[test]
fn a_pipe_or_a_device_is_refused_at_once_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("m.json");
    crate::testing::mkfifo(&pipe);
    for path in [pipe.as_path(), Path::new("/dev/zero")] {
        let started = std::time::Instant::now();
        let e = Store::<Master>::open(path).unwrap_err().to_string();
        assert!(e.contains(": is a ") && e.contains("not a regular file"), "{e}");
        let e = load_master_with_statuses(path).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }
    assert_eq!(snapshot(dir.path()).iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["m.json"]);
    // A pipe where the lock goes opens the file read-only.
    let path = tiny(&dir);
    crate::testing::mkfifo(&lock_path(&path));
    let (_, opened) = Store::<Master>::open(&path).unwrap();
    assert!(opened.read_only.unwrap().contains("is a named pipe (FIFO)"));
}

#[test]
fn a_temporary_file_a_live_writer_holds_is_not_a_leftover() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::fs::canonicalize(tiny(&dir)).unwrap();
    let live = disk::Os.create(&dir.path().join(".tiny.master.json.protest-Live12.tmp")).unwrap();
    std::fs::write(dir.path().join(".tiny.master.json.protest-Dead12.tmp"), "half").unwrap();
    let (store, _) = Store::<Master>::open(&path).unwrap();
    let left: Vec<String> =
        atomic::leftovers(&path).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(left, [".tiny.master.json.protest-Live12.tmp"]);
    drop((store, live));
}

#[test]
fn a_byte_order_mark_is_skipped_and_the_largest_revision_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.master.json");
    std::fs::write(&path, format!("\u{FEFF}{TINY}")).unwrap();
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    store.close().unwrap();
    assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
    let max = TINY.replacen("\"revision\":0", &format!("\"revision\":{}", u64::MAX), 1);
    assert_ne!(max, TINY);
    std::fs::write(&path, &max).unwrap();
    let e = Store::<Master>::open(&path).unwrap_err().to_string();
    assert!(e.contains("revision 18446744073709551615 is the largest there can be"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), max);
    assert!(!lock_path(&path).exists());
}

#[test]
fn a_journal_older_than_its_file_is_said_to_be_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    let journal = std::fs::read(journal::path_for(&path)).unwrap();
    store.close().unwrap();
    // The journal of revision 0 put back beside the file at revision 1.
    std::fs::write(journal::path_for(&path), &journal).unwrap();
    let (_, replay) = load_with_journal::<Master>(&path).unwrap();
    assert_eq!((replay.stale, replay.discarded), (true, 1));
    let (_, opened) = Store::<Master>::open(&path).unwrap();
    let note = opened.dropped.unwrap();
    assert!(note.contains("holds 1 change made to revision 0") && note.contains("it is ignored"), "{note}");
}
