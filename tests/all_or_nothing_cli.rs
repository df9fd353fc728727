//! All or nothing, as a researcher meets it on the command line: every operation is all or nothing, a
//! refusal says why and changes nothing, and the defaults are the master's own.

use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
use protest::store::master_file;
use protest::store::{Store, lock_path};
use std::fs;
use std::path::Path;

use crate::common::{ok, refused, unplanned_sample};

const MASTER: &str = "sample.master.json";

fn workspace() -> tempfile::TempDir {
    unplanned_sample()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

fn plan(d: &Path) {
    ok(d, &["batch", "plan", MASTER, "--annotators", "2", "--iaa", "10", "--seed", "1", "--name", "pilot"]);
}

#[test]
fn an_export_into_a_folder_that_is_not_there_makes_it_and_says_so() {
    let dir = workspace();
    let d = dir.path();
    plan(d);
    let before = fs::read(d.join(MASTER)).unwrap();
    let args = |out: &'static str| {
        ["batch", "export", MASTER, "--task-set", "1", "--annotator", "Anna", "--annotator", "Ben", "--output-dir", out]
    };
    // A folder that cannot be made: refused, nothing changed.
    fs::write(d.join("a file"), "").unwrap();
    let e = refused(d, &args("a file/out"));
    assert!(e.contains("a file: is a file, so the folder a file/out cannot be made"), "{e}");
    assert_eq!(fs::read(d.join(MASTER)).unwrap(), before, "no part was given out, nobody added");
    assert_eq!(names(d), ["a file", MASTER]);
    // One that is not there yet: made, and said, as `report -o` does.
    let out = ok(d, &args("new/batches"));
    assert!(out.starts_with("created the folder new/batches\n"), "{out}");
    assert!(out.contains("sample.batch-1-anna.json (Anna: "), "{out}");
    assert_eq!(names(&d.join("new/batches")), ["sample.batch-1-anna.json", "sample.batch-1-ben.json"]);
}

#[test]
fn an_export_without_names_gives_the_parts_to_the_masters_annotators_and_says_so() {
    let dir = workspace();
    let d = dir.path();
    plan(d);
    ok(d, &["annotator", "add", MASTER, "Marie"]);
    let before = fs::read(d.join(MASTER)).unwrap();
    let e = refused(d, &["batch", "export", MASTER, "--task-set", "1"]);
    assert!(
        e.contains("task set 1 has 2 parts that nobody has yet, but only one of the master's annotators has no part of it (Marie): name who gets each part"),
        "{e}"
    );
    assert_eq!(fs::read(d.join(MASTER)).unwrap(), before);
    ok(d, &["annotator", "add", MASTER, "Miryam"]);
    let out = ok(d, &["batch", "export", MASTER, "--task-set", "1"]);
    assert!(
        out.contains("no --annotator given: parts 1, 2 go to Marie, Miryam: the master's annotators without a part of task set 1, in order"),
        "{out}"
    );
    assert_eq!(names(d), ["sample.batch-1-marie.json", "sample.batch-1-miryam.json", MASTER]);
    let m = master_file::load(&d.join(MASTER)).unwrap();
    assert_eq!(m.annotators.len(), 2, "no \"Annotator 1\" made up");
    // Again: the parts keep their annotators, nothing more is said.
    let out = ok(d, &["batch", "export", MASTER, "--task-set", "1", "--force"]);
    assert!(!out.contains("no --annotator given"), "{out}");
}

#[test]
fn a_read_only_master_is_refused_by_every_writer_and_left_as_it_is() {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = workspace();
        let d = dir.path();
        let path = d.join(MASTER);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
        let before = fs::read(&path).unwrap();
        for args in [
            &["annotator", "add", MASTER, "Carl"][..],
            &["batch", "plan", MASTER, "--annotators", "2"],
            &["auto-eval", MASTER],
        ] {
            let e = refused(d, args);
            assert!(e.contains("sample.master.json has no write permission (it is a read-only file)"), "{e}");
            assert!(e.contains("make it writable first"), "{e}");
            assert_eq!(fs::read(&path).unwrap(), before);
            assert_eq!(names(d), [MASTER]);
        }
        ok(d, &["check", MASTER]);
    }
}

#[test]
fn a_task_set_name_is_used_once_and_one_not_given_out_can_be_replaced_or_removed() {
    let dir = workspace();
    let d = dir.path();
    plan(d);
    let e = refused(d, &["batch", "plan", MASTER, "--annotators", "3", "--name", "Pilot"]);
    assert!(
        e.contains(
            "there is already a task set called 'pilot' (id 1); choose another name, or replace it with --replace"
        ),
        "{e}"
    );
    let out = ok(d, &["batch", "plan", MASTER, "--annotators", "3", "--name", "pilot", "--replace", "--seed", "2"]);
    assert!(out.contains("replaced task set 1"), "{out}");
    let m = master_file::load(&d.join(MASTER)).unwrap();
    assert_eq!(m.task_sets.iter().map(|t| (t.id, t.annotators)).collect::<Vec<_>>(), [(1, 3)]);
    ok(d, &["batch", "export", MASTER, "--task-set", "1", "--annotator", "A", "--annotator", "B", "--annotator", "C"]);
    let e = refused(d, &["batch", "remove", MASTER, "--task-set", "1"]);
    assert!(
        e.contains(
            "task set 1 ('pilot') was already given out (batches were exported from it), so it cannot be removed"
        ),
        "{e}"
    );
    let e = refused(d, &["batch", "plan", MASTER, "--annotators", "2", "--name", "pilot", "--replace"]);
    assert!(e.contains("cannot be replaced"), "{e}");
    ok(d, &["batch", "plan", MASTER, "--annotators", "2", "--name", "second"]);
    assert!(ok(d, &["batch", "remove", MASTER, "--task-set", "2"]).contains("removed task set 2 'second'"));
    assert_eq!(master_file::load(&d.join(MASTER)).unwrap().task_sets.len(), 1);
}

#[test]
fn an_annotator_is_removed_only_while_nothing_refers_to_them() {
    let dir = workspace();
    let d = dir.path();
    for name in ["Anna", "Ben", "Carl"] {
        ok(d, &["annotator", "add", MASTER, name]);
    }
    plan(d);
    ok(d, &["batch", "export", MASTER, "--task-set", "1", "--annotator", "Anna", "--annotator", "Ben"]);
    let e = refused(d, &["annotator", "remove", MASTER, "ben"]);
    assert!(e.contains("Ben has a part of task set 1 ('pilot'), so they cannot be removed"), "{e}");
    assert!(ok(d, &["annotator", "remove", MASTER, "carl"]).contains("removed carl (id 3)"));
    let list = ok(d, &["annotator", "list", MASTER]);
    assert_eq!(list, "   1  Anna  0 records\n   2  Ben   0 records\n");
}

#[test]
fn a_holder_whose_lock_was_removed_loses_nothing_and_overwrites_nothing() {
    let dir = workspace();
    let d = dir.path();
    let path = d.join(MASTER);
    let (mut holder, _) = Store::<Master>::open(&path).unwrap();
    let judge = |c: u32| {
        let mut r = Record::new(CandidateId(c), AnnotatorId::RESEARCHER, chrono::Utc::now());
        r.pronoun = Judgement::Yes;
        r
    };
    holder.put(judge(1)).unwrap();
    fs::remove_file(lock_path(&path)).unwrap();
    // The command line gets in: it folds the holder's journal and adds the intruder.
    ok(d, &["annotator", "add", MASTER, "Intruder"]);
    let e = holder.put(judge(3)).unwrap_err().to_string();
    assert!(e.contains("another program changed it since it was opened here"), "{e}");
    assert!(holder.close().is_err(), "the change it could not save is reported");
    let m = master_file::load(&path).unwrap();
    assert!(protest::batches::annotators::find(&m, "Intruder").is_some(), "not overwritten");
    assert_eq!(m.records.len(), 1, "the holder's saved change is in");
}

#[test]
fn check_says_when_the_journal_ends_in_a_change_cut_short() {
    let dir = workspace();
    let d = dir.path();
    let path = d.join(MASTER);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let mut r = Record::new(CandidateId(1), AnnotatorId::RESEARCHER, chrono::Utc::now());
    r.pronoun = Judgement::No;
    store.put(r).unwrap();
    drop(store); // as if PROTEST had died
    let journal = protest::store::journal::path_for(&path);
    let mut text = fs::read(&journal).unwrap();
    text.extend_from_slice(b"{\"put\":{\"candidate\":2,");
    fs::write(&journal, text).unwrap();
    let _ = fs::remove_file(lock_path(&path)); // a crash leaves it; letting go of the store does not
    let out = ok(d, &["check", MASTER]);
    assert!(
        out.contains("valid (with 1 change from its journal, not yet written into the file; counted below; one more, cut short by a crash while it was being saved, is left out)"),
        "{out}"
    );
}
