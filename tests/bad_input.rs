//! Bad input everywhere: files that cannot be read, files that are not ours, huge files
//! and deeply nested JSON are refused with a message naming the file and the problem, quickly,
//! without a panic and without touching the file.

use protest::model::Master;
use protest::store::Store;
use protest::store::journal::Journal;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const TINY: &str = include_str!("fixtures/tiny/tiny.master.json");

fn protest(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protest")).args(args).output().unwrap()
}

/// Runs `protest check FILE`, expects it to fail with a message containing the file name and
/// every one of `expected`, and the file to be unchanged.
fn check_refuses(path: &Path, expected: &[&str]) -> String {
    let before = std::fs::read(path).ok();
    let out = protest(&["check".as_ref(), path.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{} was accepted", path.display());
    assert!(!stderr.contains("panicked"), "{stderr}");
    let name = path.file_name().unwrap().to_string_lossy();
    assert!(stderr.contains(&*name), "the message does not name {name}: {stderr}");
    for e in expected {
        assert!(stderr.contains(e), "expected '{e}' in: {stderr}");
    }
    assert_eq!(std::fs::read(path).ok(), before, "{} was changed", path.display());
    stderr
}

fn file(dir: &tempfile::TempDir, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn files_that_are_not_ours_are_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[u8], &[&str])] = &[
        ("empty.json", b"", &["not a PROTEST master file (not JSON)"]),
        ("picture.json", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", &["not a PROTEST master file (not JSON)"]),
        ("legacy.db", b"SQLite format 3\0rest of the database", &["SQLite database", "protest convert"]),
        ("list.json", b"[1, 2, 3]", &["not a PROTEST master file (not a JSON object)"]),
        ("other.json", br#"{"name": "package.json", "version": "1.0.0"}"#, &["its \"format\" field is not"]),
        (
            "report.json",
            br#"{"format": "protest-report", "version": 1}"#,
            &["this is a report file, not a master file"],
        ),
        ("batch.json", br#"{"format": "protest-batch", "version": 1}"#, &["missing field"]),
        ("future.json", br#"{"format": "protest-master", "version": 99}"#, &["version 99", "newer PROTEST"]),
        ("corpus.en", b"It is raining .\nYou are welcome .\n", &["not a PROTEST master file (not JSON)"]),
        ("cut.json", &TINY.as_bytes()[..TINY.len() / 2], &["ends too early"]),
    ];
    for (name, content, expected) in cases {
        check_refuses(&file(&dir, name, content), expected);
    }
    // A journal given where a master is expected.
    let master = file(&dir, "m.json", TINY.as_bytes());
    let (mut store, _) = Store::<Master>::open(&master).unwrap();
    store.remove(protest::model::CandidateId(1), protest::model::AnnotatorId::RESEARCHER).unwrap();
    check_refuses(&protest::store::journal::path_for(&master), &["this is a PROTEST journal", "not a master file"]);
    // A folder.
    check_refuses(dir.path(), &["is a folder, not a regular file"]);
}

#[test]
fn a_file_that_cannot_be_read_is_named_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "private.master.json", TINY.as_bytes());
    check_refuses(&dir.path().join("missing.master.json"), &["No such file"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::read(&path).is_err() {
            check_refuses(&path, &["Permission denied"]);
        } else if let Some(out) = as_nobody(&path) {
            // Root reads everything; an unprivileged user cannot.
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success() && stderr.contains("private.master.json"), "{stderr}");
            assert!(stderr.contains("Permission denied") && !stderr.contains("panicked"), "{stderr}");
        } else {
            eprintln!("running as root without setpriv: the permission case is not exercised");
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
}

/// `protest check FILE` run as the unprivileged user `nobody`, if `setpriv` is there.
#[cfg(unix)]
fn as_nobody(path: &Path) -> Option<Output> {
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(env!("CARGO_BIN_EXE_protest"))
        .arg("check")
        .arg(path)
        .output()
        .ok()
}

/// A huge file is read into memory like any other (a 100× PROTEST master is about 280 MB, see
/// docs/performance.md), but garbage is refused at its first bad byte.
#[test]
fn a_huge_garbage_file_is_refused_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let mb = 200;
    let garbage = dir.path().join("huge.master.json");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&garbage).unwrap());
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..mb * 1024 * 128 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.write_all(&state.to_le_bytes()).unwrap();
    }
    drop(out);
    let started = Instant::now();
    check_refuses(&garbage, &["not a PROTEST master file (not JSON)"]);
    let random = started.elapsed();

    // Valid JSON as far as it goes, then a string that never ends.
    let endless = dir.path().join("endless.master.json");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&endless).unwrap());
    out.write_all(br#"{"format":"protest-master","version":1,"id":""#).unwrap();
    let chunk = [b'a'; 1 << 20];
    for _ in 0..mb {
        out.write_all(&chunk).unwrap();
    }
    drop(out);
    let started = Instant::now();
    check_refuses(&endless, &["ends too early"]);
    let truncated = started.elapsed();
    eprintln!("{mb} MB refused in {random:.2?} (random bytes) and {truncated:.2?} (unterminated string)");
    // Generous bounds: the machine may be busy; on an idle one both take well under a second.
    assert!(random < Duration::from_secs(20) && truncated < Duration::from_secs(20));
}

/// Deep nesting where a typed value is expected fails at the first level; where any JSON value is
/// read (the header checks) serde_json stops at 128 levels, and in ignored fields it does not
/// recurse: a hostile file cannot overflow the stack.
#[test]
fn deeply_nested_json_is_refused_not_a_stack_overflow() {
    let depth = 100_000;
    let nested = |prefix: &str| {
        let mut s = prefix.to_string();
        s.push_str(&"[".repeat(depth));
        s.push_str(&"]".repeat(depth));
        s.push('}');
        s
    };
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (r#"{"format":"#, "format.master.json", "format (line 1): invalid type"),
        (r#"{"format":"protest-master","version":1,"id":"x","description":"#, "typed.master.json", "invalid type"),
        (r#"{"format":"protest-master","version":1,"id":"x","unknown":"#, "ignored.master.json", "missing field"),
    ];
    for (prefix, name, expected) in cases {
        let path = file(&dir, name, nested(prefix).as_bytes());
        check_refuses(&path, &[expected]);
    }
    let in_records = TINY.replace(r#""records":[]"#, &format!(r#""records":[{{"unknown":{}]"#, &nested("")[..]));
    check_refuses(&file(&dir, "records.master.json", in_records.as_bytes()), &["records[0]"]);

    // In a journal line.
    let master = file(&dir, "m.json", TINY.as_bytes());
    let mut journal = br#"{"journal":"protest-journal","version":1,"file_id":"tiny-0001","revision":0}"#.to_vec();
    journal.push(b'\n');
    journal.extend(nested(r#"{"put":"#).bytes());
    journal.push(b'\n');
    // A damaged line: the changes before it are kept (none), it is set aside, never a crash.
    let replay = Journal::parse(&master, &journal, "tiny-0001", 0).unwrap();
    let damage = replay.damaged.as_ref().expect("line 2 is damaged");
    assert_eq!((replay.entries.len(), damage.line), (0, 2));
    assert!(damage.problem.starts_with("not a journal entry: "), "{}", damage.problem);
}

/// A batch's `sentence_count` is its master's and may be any number (tests/edges_cli.rs: claims
/// take no room), but the sentences the file does hold must be below it.
#[test]
fn a_batch_holding_sentences_beyond_its_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/sample_batches/sample.batch-1-anna.json"))
        .unwrap();
    let count = text.split("\"sentence_count\":").nth(1).unwrap().split(',').next().unwrap().to_owned();
    let path = file(
        &dir,
        "batch-10.json",
        text.replacen(&format!("\"sentence_count\":{count}"), "\"sentence_count\":10", 1).as_bytes(),
    );
    check_refuses(&path, &["corpora[0].sentences[", "must be below 10 and above the one before"]);
    // Opening it for annotation says the same, and leaves nothing behind.
    let open = Store::<protest::store::batch_file::Batch>::open(&path).unwrap_err().to_string();
    assert!(open.contains("must be below 10"), "{open}");
    assert!(!protest::store::lock_path(&path).exists());
}

/// Names that would look like another on screen, or that hide characters, are refused by every
/// command that adds or changes a name, saying which name they look like; the master is left as
/// it was.
#[test]
fn annotator_names_that_hide_characters_or_look_like_another_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let master = file(&dir, "m.json", TINY.as_bytes());
    let run = |args: &[&str]| {
        let mut all: Vec<&std::ffi::OsStr> = vec!["annotator".as_ref(), args[0].as_ref(), master.as_os_str()];
        all.extend(args[1..].iter().map(|a| std::ffi::OsStr::new(*a)));
        protest(&all)
    };
    assert!(run(&["add", "Anna"]).status.success());
    assert!(run(&["add", "Ben"]).status.success());
    let before = std::fs::read(&master).unwrap();
    let long = "x".repeat(101);
    for (name, expected) in [
        ("Anna\u{200B}", "'Anna\\u{200b}': the name has an invisible or direction-changing character (U+200B)"),
        ("Anna\u{202E}", "(U+202E), which would make it look like another name"),
        ("An\u{7}na", "(U+0007)"),
        ("\u{0410}nna", "'Аnna' looks like 'Anna', another annotator's name"),
        ("Anna\u{0301}", "'Anná' looks like 'Anna', another annotator's name"),
        (&long, "a name has at most 100 characters"),
    ] {
        let out = run(&["add", name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name:?}: {stderr}");
        assert!(
            stderr.contains(expected) && stderr.contains("m.json"),
            "{name:?}:\n  expected: {expected}\n  got: {stderr}"
        );
    }
    let out = run(&["rename", "Ben", "\u{0410}nna"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("looks like 'Anna'"), "{out:?}");
    assert_eq!(std::fs::read(&master).unwrap(), before, "the master is unchanged");
    let list = String::from_utf8(run(&["list"]).stdout).unwrap();
    assert!(list.contains("Anna") && list.contains("Ben") && !list.contains('\u{0410}'), "{list}");
}
