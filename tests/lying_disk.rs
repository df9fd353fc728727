//! `protest` on a file system that lies — a rename that renames nothing, a write that writes
//! short, each reporting success — through an `LD_PRELOAD` shim (`tests/shim/lying_disk.c`, built
//! here with the C compiler that builds the bundled SQLite), a journal damaged in its middle, a
//! umask of 000, a read-only master, and clocks before 1970 and past 9999. Each test prints the
//! figure docs/journal.md gives ("lying rename at the fold: 10 acknowledged, 0 lost"):
//! `cargo test --test integration lying_disk -- --nocapture` rebuilds them.

use crate::common::{ok, protest, refused};
use crate::serve::*;
use protest::model::Judgement;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The shim, built once.
fn shim() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lying_disk.so");
        let source = crate::common::project("tests/shim/lying_disk.c");
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let built = Command::new(&cc)
            .args(["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o"])
            .arg(&out)
            .arg(&source)
            .arg("-ldl")
            .output()
            .unwrap_or_else(|e| panic!("{cc} (a C compiler) is needed to build the shim: {e}"));
        assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
        out
    })
}

/// Makes `command` run on the lying file system, with `lies` (`PROTEST_LIE_…`, see the shim),
/// noting each lie told in `log`.
fn lying(command: &mut Command, lies: &[(&str, &str)], log: &Path) {
    command.env("LD_PRELOAD", shim()).env("PROTEST_LIE_LOG", log);
    for (name, value) in lies {
        command.env(name, value);
    }
}

/// The lies told, one line each (`rename PATH`, `write PATH`).
fn told(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_owned).collect()
}

/// The change with id number `i` (32 hexadecimal digits): Anna's judgement of batch candidate
/// `i`, "no" when `i` is even.
fn numbered(i: u32) -> (String, String) {
    let id = format!("{i:032x}");
    let change = change(&id, i, ANNA, if i.is_multiple_of(2) { "no" } else { "yes" });
    (id, change)
}

/// Sends change `i` until the server takes it (it says why not meanwhile); how many answers
/// it took.
fn acknowledged(server: &Server, i: u32) -> usize {
    let (id, change) = numbered(i);
    let target = format!("{}api/changes", server.path("Anna"));
    for attempt in 1..=5 {
        let answer = post(server.addr, &target, &changes(std::slice::from_ref(&change)));
        assert_eq!(answer.status, 200, "{}", answer.text());
        if answer.text().contains(&format!(r#""taken":["{id}"]"#)) {
            return attempt;
        }
        assert!(answer.text().contains("trouble"), "{}", answer.text());
    }
    panic!("change {i} was never taken")
}

/// How many of changes `1..=n` the master holds as sent (Anna's record of each candidate with
/// its judgement), as readers see it.
fn held(master: &Path, n: u32) -> usize {
    let m = as_readers_see(master);
    let task_set = &m.task_sets[0];
    let order = protest::batches::export::layout(&m, task_set, ANNA).order;
    (1..=n)
        .filter(|&i| {
            let judged = if i.is_multiple_of(2) { Judgement::No } else { Judgement::Yes };
            m.records.get(order[i as usize - 1], ANNA).is_some_and(|r| r.pronoun == judged)
        })
        .count()
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_rename_that_lies_at_the_fold_of_protest_serve_loses_no_acknowledged_change() {
    let (dir, master) = sample();
    let log = dir.path().join("lies.log");
    let server = Server::start_with(&master, "127.0.0.1:0", &[], |c| {
        lying(c, &[("PROTEST_LIE_RENAME", "/sample.master.json")], &log)
    });
    let sent = 10;
    for i in 1..=sent {
        assert_eq!(acknowledged(&server, i), 1);
    }
    let (_, said) = server.stop_saying();
    assert!(!told(&log).is_empty(), "the rename lied");
    let said = said.join("\n");
    assert!(said.contains("the system reported the new file renamed into place, but it was not"), "{said}");
    assert!(said.contains("every acknowledged change is in the journal beside"), "{said}");
    assert!(!said.contains("its journal was folded in"), "{said}");
    assert!(temporaries(dir.path()).is_empty(), "no temporary file to be taken for debris");
    // The next start (on a disk that tells the truth) has every change, and folds them in.
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    assert!(server.output.iter().any(|l| l.contains(&format!("Recovered {sent} changes"))), "{:?}", server.output);
    assert!(server.stop());
    let lost = sent as usize - held(&master, sent);
    println!("lying rename at the fold of protest serve: {sent} acknowledged, {lost} lost");
    assert_eq!(lost, 0);
}

#[test]
fn a_write_that_lies_during_annotator_add_never_exits_0_with_an_unreadable_master() {
    let mut runs = 0;
    for nth in ["1", "2", "3"] {
        let dir = crate::common::copies(&["sample_batches/sample.master.json"]);
        let master = dir.path().join("sample.master.json");
        let before = std::fs::read(&master).unwrap();
        let log = dir.path().join("lies.log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_protest"));
        command.args(["annotator", "add", "sample.master.json", "Cleo"]).current_dir(dir.path());
        lying(
            &mut command,
            &[("PROTEST_LIE_WRITE", ".sample.master.json.protest-"), ("PROTEST_LIE_WRITE_NTH", nth)],
            &log,
        );
        let out = command.output().unwrap();
        assert_eq!(told(&log).len(), 1, "write {nth} lied");
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "write {nth}: {e}");
        assert!(e.contains("sample.master.json: the new file, read back before it replaces this one, holds "), "{e}");
        assert_eq!(std::fs::read(&master).unwrap(), before, "the master as it was");
        assert!(ok(dir.path(), &["check", "sample.master.json"]).contains("valid"));
        assert!(temporaries(dir.path()).is_empty());
        runs += 1;
    }
    println!("short write during annotator add: {runs} of {runs} refused (exit 1), master unchanged and readable");
}

#[test]
fn a_journal_write_that_lies_in_protest_serve_is_not_acknowledged_and_nothing_is_lost_to_kill_9() {
    let (dir, master) = sample();
    let log = dir.path().join("lies.log");
    let server = Server::start_with(&master, "127.0.0.1:0", &[], |c| {
        lying(c, &[("PROTEST_LIE_WRITE", "sample.master.json.journal"), ("PROTEST_LIE_WRITE_NTH", "4")], &log)
    });
    let sent = 10;
    let answers: Vec<usize> = (1..=sent).map(|i| acknowledged(&server, i)).collect();
    assert_eq!(told(&log).len(), 1, "a journal write lied");
    assert_eq!(answers.iter().filter(|&&n| n > 1).count(), 1, "one change was sent twice: {answers:?}");
    server.kill();
    let lost = sent as usize - held(&master, sent);
    println!("half-written journal line in protest serve, then kill -9: {sent} acknowledged, {lost} lost");
    assert_eq!(lost, 0);
    assert!(ok(dir.path(), &["check", "sample.master.json"]).contains("changes from its journal"));
}

#[test]
fn a_journal_damaged_in_its_middle_opens_with_the_rest_offered() {
    let (dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let sent = 10;
    for i in 1..=sent {
        acknowledged(&server, i);
    }
    server.kill();
    // Line 3 (the second change) cut in half, as a write cut short would leave it, with the lines
    // after it whole.
    let journal = protest::store::journal::path_for(&master);
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let half = lines[2].len() / 2;
    lines[2].truncate(half);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();

    let check = ok(dir.path(), &["check", "sample.master.json"]);
    assert!(
        check.contains("with 1 change from its journal, counted below; but line 3 of the journal is damaged ("),
        "{check}"
    );
    assert!(check.contains("that line and the 8 lines after it are not counted"), "{check}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["check", "sample.master.json", "--format", "json"])).unwrap();
    assert_eq!((&json["journal"]["changes"], &json["journal"]["damaged"]["line"]), (&1.into(), &3.into()));
    assert_eq!(json["journal"]["damaged"]["lines"], 9);
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let note = server.output.iter().find(|l| l.starts_with("note: line 3 of")).cloned();
    let note = note.unwrap_or_else(|| panic!("{:?}", server.output));
    assert!(
        note.contains("the 1 change before it is kept; that line and the 8 lines after it were set aside in "),
        "{note}"
    );
    assert!(server.stop());
    let rests = protest::store::journal::rests(&std::fs::canonicalize(&master).unwrap());
    assert_eq!(rests.len(), 1);
    let offered = protest::store::journal::salvage(&std::fs::read(&rests[0]).unwrap());
    let kept = held(&master, sent);
    println!(
        "journal damaged at line 3 of {}: opens; {kept} change kept, {} offered from {}, 1 line unreadable (kept byte for byte)",
        sent + 1,
        offered.entries.len(),
        rests[0].file_name().unwrap().to_string_lossy()
    );
    assert_eq!((kept, offered.entries.len(), offered.unreadable), (1, 8, 1));
}

#[test]
fn files_beside_a_master_are_never_writable_by_others_under_umask_000() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let (_dir, master) = sample();
    let server = Server::start_with(&master, "127.0.0.1:0", &[], |c| {
        // SAFETY: umask only sets a number of the child, between fork and exec.
        unsafe {
            c.pre_exec(|| {
                libc::umask(0);
                Ok(())
            });
        }
    });
    acknowledged(&server, 1);
    let mode = |p: PathBuf| std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
    let master_mode = mode(master.clone());
    assert_eq!(mode(protest::store::journal::path_for(&master)), (master_mode & 0o644) | 0o600);
    assert_eq!(mode(protest::web::receipts::path_for(&master)), (master_mode & 0o644) | 0o600);
    assert_eq!(mode(protest::store::lock_path(&master)), 0o644);
    // While it serves, a command is told what holds the master, and where.
    let e = refused(master.parent().unwrap(), &["annotator", "add", "sample.master.json", "Cleo"]);
    let at = format!("is being served by `protest serve` at http://{}/ (process ", server.addr);
    assert!(e.contains(&at) && e.contains("stop the server first"), "{e}");
    assert!(server.stop());
}

#[test]
fn a_master_without_write_permission_is_refused_naming_that() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, master) = sample();
    std::fs::set_permissions(&master, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = protest(dir.path(), &["serve", "sample.master.json", "--listen", "127.0.0.1:0"]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(e.contains("cannot be served: sample.master.json has no write permission (it is a read-only file); make it writable first"), "{e}");
    assert!(!e.contains("close it there first"), "{e}");
}

#[test]
fn a_clock_before_1970_or_past_9999_is_said_not_a_panic() {
    let dir = crate::common::copies(&["tests/fixtures/tiny/tiny.master.json"]);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    for (offset, says) in [
        (-now - 86_400, "the computer's clock says 1969-12-31"),
        (253_402_300_800 - now + 86_400, "the computer's clock says +10000-01-0"),
    ] {
        let before = std::fs::read(dir.path().join("tiny.master.json")).unwrap();
        let log = dir.path().join("lies.log");
        // Commands that date what they write: a round of the match, a task set.
        for args in [
            &["auto-eval", "tiny.master.json"][..],
            &["batch", "plan", "tiny.master.json", "--annotators", "2", "--name", "pilot"],
        ] {
            let mut command = Command::new(env!("CARGO_BIN_EXE_protest"));
            command.args(args).current_dir(dir.path());
            lying(&mut command, &[("PROTEST_CLOCK_OFFSET", &offset.to_string())], &log);
            let out = command.output().unwrap();
            let e = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {e}");
            assert!(e.contains(says) && e.contains("outside the years 1970–9999"), "{args:?}: {e}");
            assert!(!e.contains("panicked"), "{e}");
            assert_eq!(std::fs::read(dir.path().join("tiny.master.json")).unwrap(), before);
            assert!(!protest::store::lock_path(&dir.path().join("tiny.master.json")).exists());
        }
    }
}

/// `protest serve` on a clock outside 1970–9999 refuses to start and says what the clock says:
/// no panic, no links made, nothing left beside the master.
#[test]
fn protest_serve_on_a_wrong_clock_refuses_to_start_naming_it() {
    let (dir, master) = sample();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    for (offset, says) in [
        (-now - 86_400, "the system clock says 1969-12-31"),
        (253_402_300_800 - now + 86_400, "the system clock says +10000-01-0"),
    ] {
        let before = std::fs::read(&master).unwrap();
        let log = dir.path().join("lies.log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_protest"));
        command.args(["serve", "sample.master.json", "--listen", "127.0.0.1:0", "--links", "links.tsv"]);
        command.current_dir(dir.path());
        lying(&mut command, &[("PROTEST_CLOCK_OFFSET", &offset.to_string())], &log);
        let out = command.output().unwrap();
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{e}");
        assert!(e.contains("cannot be served: ") && e.contains(says) && e.contains("outside 1970–9999"), "{e}");
        assert!(!e.contains("panicked"), "{e}");
        assert_eq!(std::fs::read(&master).unwrap(), before);
        assert!(!dir.path().join("links.tsv").exists(), "no links made");
        assert!(
            !protest::store::lock_path(&master).exists() && !dir.path().join("sample.master.json.journal").exists()
        );
    }
}
