//! Fault injection: every write operation of the workflow layer is run again and again with the
//! disk failing at its k-th operation, for every k — once (a write with "no space left", an
//! `fsync` or a rename with an I/O error…), and full from then on — and after each run:
//!
//! - the master opens, and holds either the state before the operation or the state after it
//!   (after exactly when the operation reported success);
//! - the master in memory is the one on disk;
//! - the other files are all as before or all as after (no batch without its master change, no
//!   master change without its batches);
//! - no temporary file is left (but the copy of a replaced file whose removal, after the commit,
//!   was the operation that failed: the file's next holder removes it).

use super::adjudication::Adjudicating;
use super::export::Exporting;
use super::task_sets::Planning;
use super::*;
use crate::batches::plan::Request;
use crate::ingest::add_system::{AlignmentFile, NewSystem};
use crate::ingest::legacy::{Reference, Unknown};
use crate::ingest::texts::PairOrder;
use crate::model::{AnnotatorId, CandidateId, Judgement, Record};
use crate::shell::Shell;
use crate::store::atomic;
use crate::store::disk::{Fault, Faulty, Op, Os};
use crate::store::{Store, load_with_journal};
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;
use std::fs;

const MASTER: &str = "tiny.master.json";

fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::UNIX_EPOCH + Duration::minutes(minutes)
}

fn tiny_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/tiny")
}

/// Judges a batch's candidates: the first `n`, pronoun `pronoun`.
fn annotate(path: &Path, n: usize, pronoun: Judgement, when: DateTime<Utc>) {
    let (mut store, _) = Store::<Batch>::open(path).unwrap();
    let who = store.doc().annotator().id;
    for c in store.doc().order().into_iter().take(n) {
        let mut r = Record::new(c, who, when);
        r.pronoun = pronoun;
        store.put(r).unwrap();
    }
    store.close().unwrap();
}

/// The tiny master with annotators Anna, Ben and Zoe; task set 1 given to Anna and Ben, their
/// batches exported, annotated (disagreeing) and merged, then one more record in Anna's batch
/// not merged yet; task set 2, "draft", not given out.
fn base(dir: &Path) {
    fs::copy(tiny_dir().join(MASTER), dir.join(MASTER)).unwrap();
    let path = dir.join(MASTER);
    on_master(&path, |store| {
        for name in ["Anna", "Ben", "Zoe"] {
            annotators::add(store, name)?;
        }
        let request = Request { name: "first".into(), ..Request::everything(store.master(), 2, 1, 7) };
        task_sets::run(store, &Planning { request, only_needing_human: false, replace: false, created: at(1) })?;
        let exporting =
            Exporting { task_set: 1, names: vec![], folder: dir.to_path_buf(), replace: false, created: at(2) };
        export::run(store, &exporting)?;
        let request = Request { name: "draft".into(), ..Request::everything(store.master(), 2, 0, 8) };
        task_sets::run(store, &Planning { request, only_needing_human: false, replace: false, created: at(3) })?;
        Ok(())
    })
    .unwrap();
    let (anna, ben) = (dir.join("tiny.batch-1-anna.json"), dir.join("tiny.batch-1-ben.json"));
    annotate(&anna, 2, Judgement::Yes, at(4));
    annotate(&ben, 2, Judgement::No, at(4));
    on_master(&path, |store| merge::run(store, &merge::read(&[anna.clone(), ben.clone()])?, false)).unwrap();
    annotate(&anna, 3, Judgement::Yes, at(5));
}

/// [`base`] with task set 3, "second", planned by a command on a large master: in the journal,
/// not in the file (see [`on_master`]).
fn planned(dir: &Path) {
    base(dir);
    let path = dir.join(MASTER);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let request = Request { name: "second".into(), ..Request::everything(store.master(), 2, 1, 9) };
    task_sets::run(&mut store, &Planning { request, only_needing_human: false, replace: false, created: at(6) })
        .unwrap();
    store.close_keeping_journal().unwrap();
    assert!(journal::path_for(&path).exists(), "the plan is in the journal");
}

/// How the tests convert the museum's old master: the reference guessed, at time 0.
fn museum_conversion<'a>(old: &'a Path, target: &'a Path) -> convert::Converting<'a> {
    convert::Converting {
        old,
        target,
        replace: false,
        reference: Reference::Guess,
        unknown: Unknown::Annotator,
        shell: Shell::CommandLine,
        now: at(0),
    }
}

/// The museum master converted from the original tool's file.
fn museum(dir: &Path) {
    let old = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/legacy");
    for name in ["museum.master.db", "museum.batch-anna.db"] {
        fs::copy(old.join(name), dir.join(name)).unwrap();
    }
    let (old, target) = (dir.join("museum.master.db"), dir.join("museum.master.json"));
    convert::master(&Os, &museum_conversion(&old, &target)).unwrap();
}

/// Every file of a folder but the lock and the journal (the master is compared with its journal
/// applied) and the temporary files (checked apart).
fn files(dir: &Path, master: &str) -> BTreeMap<String, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for e in fs::read_dir(&folder).unwrap().map(|e| e.unwrap()) {
            let path = e.path();
            let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                // A folder counts too, empty or not: one made for outputs must go with them.
                found.insert(format!("{name}/"), Vec::new());
                folders.push(path);
            } else if name != master && !name.ends_with(".lock") && !name.ends_with(".journal") && !is_temporary(&name)
            {
                found.insert(name, fs::read(&path).unwrap());
            }
        }
    }
    found
}

fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(".protest-") && name.ends_with(".tmp")
}

fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| is_temporary(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    found.sort();
    found
}

/// A state of the folder: the master (with its journal) and the other files.
#[derive(Debug, PartialEq)]
struct State {
    master: Master,
    files: BTreeMap<String, Vec<u8>>,
}

fn state(dir: &Path, master: &str) -> State {
    let (mut m, _) = load_with_journal::<Master>(&dir.join(master)).expect("the master opens");
    // The revision counts full saves, also of the same content (a fold).
    m.revision = 0;
    State { master: m, files: files(dir, master) }
}

type Operation = Box<dyn Fn(&mut Store<Master>, &Path) -> Result<()>>;

/// An operation's name, the setup of the folder it starts from, its master, and the operation.
type Case = (&'static str, fn(&Path), &'static str, Operation);

fn operations() -> Vec<Case> {
    let system = |dir: &Path| -> NewSystem {
        let master = master_file::load(&dir.join(MASTER)).unwrap();
        let options = crate::ingest::add_system::Options {
            tokenised: true,
            alignment: Some(AlignmentFile { path: tiny_dir().join("mt.alig"), order: PairOrder::SourceTarget }),
            ..crate::ingest::add_system::Options::default()
        };
        crate::ingest::add_system::prepare_file(&master, "mt2", &tiny_dir().join("mt.fr"), &options).unwrap()
    };
    let planning = |name: &str, replace: bool| Planning {
        request: Request { name: name.into(), ..Request::everything(&crate::testing::bare_tiny(), 2, 1, 9) },
        only_needing_human: false,
        replace,
        created: at(10),
    };
    vec![
        ("add an annotator", base, MASTER, Box::new(|s, _| annotators::add(s, "Clara").map(drop))),
        ("rename an annotator", base, MASTER, Box::new(|s, _| annotators::rename(s, "Ben", "Benoît").map(drop))),
        ("remove an annotator", base, MASTER, Box::new(|s, _| annotators::remove(s, "Zoe").map(drop))),
        (
            "plan a task set",
            base,
            MASTER,
            Box::new(move |s, _| task_sets::run(s, &planning("second", false)).map(drop)),
        ),
        (
            "replace a task set",
            base,
            MASTER,
            Box::new(move |s, _| task_sets::run(s, &planning("draft", true)).map(drop)),
        ),
        ("remove a task set", base, MASTER, Box::new(|s, _| task_sets::remove(s, 2).map(drop))),
        (
            "export batches",
            base,
            MASTER,
            Box::new(|s, dir| {
                let names = vec!["Clara".into(), "Zoe".into()];
                let e = Exporting { task_set: 2, names, folder: dir.to_path_buf(), replace: false, created: at(11) };
                export::run(s, &e).map(drop)
            }),
        ),
        (
            "export batches into a folder that is not there yet",
            base,
            MASTER,
            Box::new(|s, dir| {
                let names = vec!["Clara".into(), "Zoe".into()];
                let folder = dir.join("new/batches");
                let e = Exporting { task_set: 2, names, folder, replace: false, created: at(11) };
                export::run(s, &e).map(drop)
            }),
        ),
        (
            "export batches again, replacing them",
            base,
            MASTER,
            Box::new(|s, dir| {
                let e =
                    Exporting { task_set: 1, names: vec![], folder: dir.to_path_buf(), replace: true, created: at(12) };
                export::run(s, &e).map(drop)
            }),
        ),
        (
            "export a task set planned in the journal",
            planned,
            MASTER,
            Box::new(|s, dir| {
                let names = vec!["Clara".into(), "Zoe".into()];
                let e = Exporting { task_set: 3, names, folder: dir.to_path_buf(), replace: false, created: at(17) };
                export::run(s, &e).map(drop)
            }),
        ),
        (
            "import batches over a task set planned in the journal",
            planned,
            MASTER,
            Box::new(|s, dir| {
                let batches = [dir.join("tiny.batch-1-anna.json"), dir.join("tiny.batch-1-ben.json")];
                merge::run(s, &merge::read(&batches)?, false).map(drop)
            }),
        ),
        (
            "import batches",
            base,
            MASTER,
            Box::new(|s, dir| {
                let batches = [dir.join("tiny.batch-1-anna.json"), dir.join("tiny.batch-1-ben.json")];
                merge::run(s, &merge::read(&batches)?, false).map(drop)
            }),
        ),
        (
            "adjudicate",
            base,
            MASTER,
            Box::new(|s, dir| {
                let a = Adjudicating {
                    name: "Clara".into(),
                    task_set_name: String::new(),
                    seed: 3,
                    folder: dir.to_path_buf(),
                    replace: false,
                    created: at(13),
                };
                adjudication::run(s, &a).map(drop)
            }),
        ),
        (
            "run the automatic match",
            base,
            MASTER,
            Box::new(|s, _| auto_eval::run(s, None, Default::default(), at(14)).map(drop)),
        ),
        ("add a system", base, MASTER, Box::new(move |s, dir| add_system::run(s, system(dir)).map(drop))),
        (
            "convert an old batch",
            museum,
            "museum.master.json",
            Box::new(|s, dir| {
                let (old, new) = (dir.join("museum.batch-anna.db"), dir.join("museum.batch-anna.json"));
                convert::batch(s, &old, &new, false, at(15)).map(drop)
            }),
        ),
        (
            "annotate",
            base,
            MASTER,
            Box::new(|s, _| {
                let mut r = Record::new(CandidateId(6), AnnotatorId(2), at(16));
                r.pronoun = Judgement::Yes;
                s.put(r)
            }),
        ),
    ]
}

/// A fresh copy of the starting folder of an operation.
fn fresh(setup: fn(&Path), cache: &mut BTreeMap<usize, tempfile::TempDir>) -> tempfile::TempDir {
    let from = cache.entry(setup as usize).or_insert_with(|| {
        let dir = tempfile::tempdir().unwrap();
        setup(dir.path());
        dir
    });
    let to = tempfile::tempdir().unwrap();
    for e in fs::read_dir(from.path()).unwrap() {
        let e = e.unwrap();
        let copy = to.path().join(e.file_name());
        fs::copy(e.path(), &copy).unwrap();
        // Converted records take the old file's time.
        let modified = e.metadata().unwrap().modified().unwrap();
        fs::File::options().write(true).open(&copy).unwrap().set_modified(modified).unwrap();
    }
    to
}

/// What differs between two states, briefly.
fn difference(a: &State, b: &State) -> String {
    let mut out = Vec::new();
    if a.master != b.master {
        out.push("the master".to_owned());
    }
    for name in a.files.keys().chain(b.files.keys()) {
        if a.files.get(name) != b.files.get(name) && !out.contains(name) {
            out.push(name.clone());
        }
    }
    format!("differs in {}", out.join(", "))
}

#[test]
fn every_workflow_write_is_all_or_nothing_whatever_fails_when() {
    let mut cache = BTreeMap::new();
    let (mut runs, mut lies_caught) = (0, 0);
    for (name, setup, master_name, operation) in operations() {
        // Once without faults: the state after, and how many disk operations it takes.
        let dir = fresh(setup, &mut cache);
        let before = state(dir.path(), master_name);
        let disk = Faulty::new(Fault::None);
        let (mut store, _) = Store::<Master>::open_on(disk.shared(), &dir.path().join(master_name)).unwrap();
        disk.set(Fault::None);
        operation(&mut store, dir.path()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let count = disk.ops().len();
        drop(store);
        let after = state(dir.path(), master_name);
        assert!(before != after, "{name} changes something");
        assert!(count > 0, "{name} writes");

        for k in 0..count {
            // A disk that fails, fills up, or lies (a short write, a rename not done, an fsync
            // that does nothing, each reported done).
            for fault in [Fault::Once(k), Fault::FullFrom(k), Fault::Lie(k)] {
                runs += 1;
                let dir = fresh(setup, &mut cache);
                let path = dir.path().join(master_name);
                let disk = Faulty::new(Fault::None);
                let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
                disk.set(fault);
                let result = operation(&mut store, dir.path());
                lies_caught += usize::from(matches!(fault, Fault::Lie(_)) && result.is_err());
                let failed = disk.failed();
                let why = format!("{name}, {fault:?} ({failed:?}): {result:?}");
                let now = state(dir.path(), master_name);
                let mut in_memory = store.master().clone();
                in_memory.revision = 0;
                if name == "annotate" && result.is_err() {
                    // A change the journal refused is kept in memory, as not saved.
                    assert!(now == before, "{why}: {}", difference(&now, &before));
                    assert!(in_memory == after.master && store.not_saved() == 1, "{why}: kept as not saved");
                } else {
                    let expected = if result.is_ok() { &after } else { &before };
                    assert!(&now == expected, "{why}: {}", difference(&now, expected));
                    assert!(in_memory == now.master, "{why}: memory is not what is on disk");
                }
                // No temporary file, but a replaced file's copy whose removal failed after the
                // commit, which its next holder removes.
                let left = temporaries(dir.path());
                match failed {
                    Some((Op::Remove, removed)) if result.is_ok() && left == [removed.clone()] => {
                        let target = removed.file_name().unwrap().to_string_lossy();
                        let target = target.trim_start_matches('.').split(".protest-").next().unwrap().to_owned();
                        assert_eq!(atomic::remove_leftovers(&dir.path().join(target)), 1, "{why}");
                    }
                    _ => assert_eq!(left, Vec::<PathBuf>::new(), "{why}"),
                }
                // And the file opens as usual afterwards.
                drop(store);
                let (store, _) = Store::<Master>::open(&path).unwrap_or_else(|e| panic!("{why}: {e}"));
                assert_eq!(store.master().records, now.master.records, "{why}");
                store.close().unwrap();
            }
        }
    }
    assert!(runs > 300, "{runs} runs");
    // Short writes and renames not done are caught (the others leave nothing to catch).
    assert!(lies_caught > 40, "{lies_caught} lies caught");
}

#[test]
fn converting_an_old_master_writes_its_file_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    museum(dir.path());
    let (old, new) = (dir.path().join("museum.master.db"), dir.path().join("again.master.json"));
    let disk = Faulty::new(Fault::None);
    convert::master(&disk, &museum_conversion(&old, &new)).unwrap();
    let whole = fs::read(&new).unwrap();
    let count = disk.ops().len();
    for k in 0..count {
        for fault in [Fault::Once(k), Fault::FullFrom(k)] {
            fs::remove_file(&new).unwrap_or(());
            disk.set(fault);
            match convert::master(&disk, &museum_conversion(&old, &new)) {
                Ok(_) => assert_eq!(fs::read(&new).unwrap(), whole),
                Err(e) => assert!(!new.exists(), "{fault:?}: {e}"),
            }
            assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new(), "{fault:?}");
        }
    }
}

#[test]
fn outputs_that_would_be_in_the_way_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    base(dir.path());
    let path = dir.path().join(MASTER);
    let before = state(dir.path(), MASTER);
    let exporting =
        |folder: PathBuf, replace| Exporting { task_set: 1, names: vec![], folder, replace, created: at(20) };
    // A batch that exists is replaced only when told to; one with work in its journal, never.
    let e = on_master(&path, |s| export::run(s, &exporting(dir.path().to_path_buf(), false))).unwrap_err();
    assert!(matches!(&e, Error::Exists { path } if path.ends_with("tiny.batch-1-anna.json")), "{e}");
    fs::write(journal::path_for(&dir.path().join("tiny.batch-1-anna.json")), "work").unwrap();
    let e = on_master(&path, |s| export::run(s, &exporting(dir.path().to_path_buf(), true))).unwrap_err();
    assert!(e.to_string().contains("has annotation work not yet saved into it"), "{e}");
    fs::remove_file(journal::path_for(&dir.path().join("tiny.batch-1-anna.json"))).unwrap();
    // Nor one made read-only.
    let anna = dir.path().join("tiny.batch-1-anna.json");
    let mut permissions = fs::metadata(&anna).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(&anna, permissions.clone()).unwrap();
    let e = on_master(&path, |s| export::run(s, &exporting(dir.path().to_path_buf(), true))).unwrap_err();
    assert!(e.to_string().contains("has no write permission"), "{e}");
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    fs::set_permissions(&anna, permissions).unwrap();
    // A file in place of a folder, or above it.
    let e = on_master(&path, |s| export::run(s, &exporting(dir.path().join(MASTER).join("out"), false))).unwrap_err();
    assert!(e.to_string().contains("is a file, so the folder"), "{e}");
    let e = on_master(&path, |s| export::run(s, &exporting(dir.path().join(MASTER), false))).unwrap_err();
    assert!(e.to_string().contains("is not a folder"), "{e}");
    assert_eq!(state(dir.path(), MASTER), before);
}

#[test]
fn a_read_only_master_is_refused_untouched() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(MASTER);
        fs::copy(tiny_dir().join(MASTER), &path).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let e = on_master(&path, |s| annotators::add(s, "Anna")).unwrap_err().to_string();
        assert!(e.contains("has no write permission") && e.contains("make it writable first"), "{e}");
        assert_eq!(fs::read(&path).unwrap(), fs::read(tiny_dir().join(MASTER)).unwrap());
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, [MASTER]);
    }
}

#[test]
fn a_second_plan_of_the_same_name_is_refused_or_replaces_one_not_given_out() {
    let dir = tempfile::tempdir().unwrap();
    base(dir.path());
    let path = dir.path().join(MASTER);
    let planning = |name: &str, replace| Planning {
        request: Request { name: name.into(), ..Request::everything(&crate::testing::bare_tiny(), 1, 0, 4) },
        only_needing_human: false,
        replace,
        created: at(30),
    };
    let e = on_master(&path, |s| task_sets::run(s, &planning("Draft ", false))).unwrap_err().to_string();
    assert!(
        e.ends_with("there is already a task set called 'draft' (id 2); choose another name, or replace it"),
        "{e}"
    );
    let e = on_master(&path, |s| task_sets::run(s, &planning("first", true))).unwrap_err().to_string();
    assert!(e.contains("task set 1 ('first') was already given out"), "{e}");
    let replaced = on_master(&path, |s| task_sets::run(s, &planning("draft", true))).unwrap().value;
    assert_eq!((replaced.replaces, replaced.plan.task_set.id), (Some(2), 2));
    let m = master_file::load(&path).unwrap();
    assert_eq!(
        m.task_sets.iter().map(|t| (t.id, t.name.as_str(), t.annotators)).collect::<Vec<_>>(),
        [(1, "first", 2), (2, "draft", 1)]
    );
    let e = on_master(&path, |s| task_sets::remove(s, 1)).unwrap_err().to_string();
    assert!(e.contains("cannot be removed"), "{e}");
    on_master(&path, |s| task_sets::remove(s, 2)).unwrap();
    assert_eq!(master_file::load(&path).unwrap().task_sets.len(), 1);
}

#[test]
fn planning_only_what_needs_a_human_asks_for_the_match_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(MASTER);
    fs::copy(tiny_dir().join(MASTER), &path).unwrap();
    let planning = Planning {
        request: Request::everything(&crate::testing::bare_tiny(), 1, 0, 4),
        only_needing_human: true,
        replace: false,
        created: at(30),
    };
    let e = on_master(&path, |s| task_sets::run(s, &planning)).unwrap_err().to_string();
    assert!(e.contains("the automatic reference match has not been run on this master yet"), "{e}");
    on_master(&path, |s| auto_eval::run(s, None, Default::default(), at(31))).unwrap();
    on_master(&path, |s| task_sets::run(s, &planning)).unwrap();
}

#[test]
fn a_command_on_a_large_master_leaves_its_plan_in_the_journal_until_a_full_save() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(MASTER);
    // The tiny master made large by its description, for a threshold of 1 MiB: past the
    // threshold, the same as past KEEP_JOURNAL_FROM.
    const LARGE: u64 = 1 << 20;
    fn on_large<T>(path: &Path, work: impl FnOnce(&mut Store<Master>) -> Result<T>) -> Result<Done<T>> {
        on_master_keeping_journal_from(crate::store::disk::os(), path, LARGE, work)
    }
    let mut m = master_file::load(&tiny_dir().join(MASTER)).unwrap();
    m.description = "x".repeat(LARGE as usize);
    let mut text = Vec::new();
    master_file::write(&m, &mut text).unwrap();
    fs::write(&path, &text).unwrap();
    let planning = Planning {
        request: Request { name: "first".into(), ..Request::everything(&m, 1, 0, 4) },
        only_needing_human: false,
        replace: false,
        created: at(1),
    };
    on_large(&path, |s| annotators::add(s, "Anna")).unwrap();
    let text = fs::read(&path).unwrap();
    on_large(&path, |s| task_sets::run(s, &planning)).unwrap();
    // The file is as it was; the plan is in the journal, and every reader sees it.
    assert!(fs::read(&path).unwrap() == text && !crate::store::lock_path(&path).exists());
    let (with_plan, replay) = load_with_journal::<Master>(&path).unwrap();
    assert_eq!((with_plan.task_sets.len(), replay.entries.len()), (1, 1));
    // The next full save folds it in.
    on_large(&path, |s| annotators::add(s, "Ben")).unwrap();
    assert!(!journal::path_for(&path).exists());
    let folded = master_file::load(&path).unwrap();
    assert_eq!((folded.task_sets, folded.annotators.len()), (with_plan.task_sets, 2));
}

/// A command's change is committed before its closing fold: when that fold fails (at any of its
/// writes), the command still succeeds, says why, and the change is in the journal it leaves.
#[test]
fn a_command_whose_closing_fold_fails_succeeds_and_keeps_its_change() {
    let dir = tempfile::tempdir().unwrap();
    base(dir.path());
    let path = dir.path().join(MASTER);
    let disk = Faulty::new(Fault::None);
    let planning = |name: &str| Planning {
        request: Request { name: name.into(), ..Request::everything(&master_file::load(&path).unwrap(), 2, 1, 9) },
        only_needing_human: false,
        replace: false,
        created: at(7),
    };
    // Count the closing's operations, then fail each in turn.
    on_master_on(disk.shared(), &path, |s| {
        task_sets::run(s, &planning("counted"))?;
        disk.set(Fault::None);
        Ok(())
    })
    .unwrap();
    let closing = disk.ops().len();
    assert!(closing > 3, "{:?}", disk.ops());
    for k in 0..closing {
        let name = format!("sweep {k}");
        let done = on_master_on(disk.shared(), &path, |s| {
            task_sets::run(s, &planning(&name))?;
            disk.set(Fault::Once(k));
            Ok(())
        })
        .unwrap();
        let on_disk = load_with_journal::<Master>(&path).unwrap().0;
        assert!(on_disk.task_sets.iter().any(|t| t.name == name), "fault at {k}: the change is kept");
        match &done.fold_failed {
            Some(why) => {
                assert!(why.contains("error"), "fault at {k}: {why}");
                assert_eq!(done.journal_left.is_some(), journal::path_for(&path).exists());
            }
            None => assert!(done.journal_left.is_none(), "fault at {k}"),
        }
        // The next command folds whatever was left.
        on_master(&path, |_| Ok(())).unwrap();
        assert!(!journal::path_for(&path).exists());
        assert!(!crate::store::lock_path(&path).exists());
    }
}
