//! The edges, tried as an attacker would: links planted beside a master, a master that
//! is a named pipe or a device, two writers through a link and the real path, batch names that
//! would collide, size fields padded past their checks and absurd counts on the command line.
//! Each is refused with a message naming the file and the problem, and the data is left byte for
//! byte as it was.

use crate::common::{copies, ok, protest, refused, unplanned_sample};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const MASTER: &str = "sample.master.json";

/// Every file under `dir` with its bytes (a link as `-> TARGET`).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = match std::fs::read_link(e.path()) {
                Ok(target) => format!("-> {}", target.display()).into_bytes(),
                Err(_) if e.file_type().unwrap().is_file() => std::fs::read(e.path()).unwrap(),
                Err(_) => b"(not a file)".to_vec(),
            };
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// Runs `protest ARGS` in `dir`, failing the test (instead of hanging it) if it takes longer than
/// a few seconds; returns (success, stdout, stderr).
fn within_seconds(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_protest"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("protest {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

#[test]
fn a_master_that_is_a_pipe_or_a_device_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("m.json"));
    let pipe = ": is a named pipe (FIFO), not a regular file";
    for (args, said) in [
        (&["check", "m.json"][..], pipe),
        (&["annotator", "add", "m.json", "Zed"], pipe),
        (&["check", "/dev/zero"], "/dev/zero: is a character device, not a regular file"),
    ] {
        let (success, _, stderr) = within_seconds(dir.path(), args);
        assert!(!success && stderr.contains(said), "{args:?}: {stderr}");
    }
    assert_eq!(snapshot(dir.path()).keys().collect::<Vec<_>>(), ["m.json"], "no lock file is left");
}

#[test]
fn links_planted_beside_a_master_are_refused_and_never_written_through() {
    let dir = copies(&[&format!("sample_batches/{MASTER}")]);
    let outside = tempfile::tempdir().unwrap();
    let rc = outside.path().join("rc");
    std::fs::write(&rc, "export PATH=~/bin:$PATH").unwrap();
    // As the lock: a writer refuses, naming it; its target stays as it was.
    let lock = dir.path().join(format!("{MASTER}.lock"));
    std::os::unix::fs::symlink(&rc, &lock).unwrap();
    let before = snapshot(dir.path());
    let e = refused(dir.path(), &["annotator", "add", MASTER, "Zed"]);
    assert!(e.contains("sample.master.json.lock: is a symbolic link (to ") && e.contains("remove it"), "{e}");
    assert_eq!(snapshot(dir.path()), before);
    std::fs::remove_file(&lock).unwrap();
    // As the journal (a one-line file without a final newline, once read as a torn journal).
    let journal = dir.path().join(format!("{MASTER}.journal"));
    std::os::unix::fs::symlink(&rc, &journal).unwrap();
    let before = snapshot(dir.path());
    for args in [&["check", MASTER][..], &["annotator", "add", MASTER, "Zed"]] {
        let e = refused(dir.path(), args);
        assert!(e.contains("sample.master.json.journal: is a symbolic link"), "{e}");
        assert_eq!(snapshot(dir.path()), before, "{args:?}");
    }
    // As a batch an export would replace: not written through, even with --force.
    std::fs::remove_file(&journal).unwrap();
    std::os::unix::fs::symlink(&rc, dir.path().join("sample.batch-1-anna.json")).unwrap();
    let before = snapshot(dir.path());
    let e = refused(dir.path(), &["batch", "export", MASTER, "--task-set", "1", "--force"]);
    assert!(e.contains("sample.batch-1-anna.json: is a symbolic link; PROTEST does not write through links"), "{e}");
    assert_eq!(snapshot(dir.path()), before);
    assert_eq!(std::fs::read_to_string(&rc).unwrap(), "export PATH=~/bin:$PATH");
}

#[test]
fn two_writers_through_a_link_and_the_real_path_lose_nothing() {
    let dir = copies(&["tests/fixtures/tiny/tiny.master.json"]);
    std::os::unix::fs::symlink(dir.path().join("tiny.master.json"), dir.path().join("link.json")).unwrap();
    const ROUNDS: usize = 25;
    let writer = |path: &'static str, who: &'static str| {
        let dir = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let mut added = Vec::new();
            for round in 0..ROUNDS {
                let name = format!("{who}{round}");
                let out = Command::new(env!("CARGO_BIN_EXE_protest"))
                    .args(["annotator", "add", path, &name])
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                if out.status.success() {
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    assert!(stdout.starts_with(&format!("added {name} ")), "{stdout}{stderr}");
                    added.push(name);
                } else {
                    // The only way to lose a round: the other one holds the file.
                    assert!(stderr.contains("is being changed by `protest annotator add` (process "), "{stderr}");
                    assert!(stderr.contains("wait until it has finished"), "{stderr}");
                }
            }
            added
        })
    };
    let (a, b) = (writer("link.json", "Link"), writer("tiny.master.json", "Real"));
    let added: Vec<String> = a.join().unwrap().into_iter().chain(b.join().unwrap()).collect();
    let m = protest::store::master_file::load(&dir.path().join("tiny.master.json")).unwrap();
    let names: Vec<&str> = m.annotators.iter().map(|a| a.name.as_str()).collect();
    for name in &added {
        assert!(names.contains(&name.as_str()), "{name} was reported as added and is not in the master");
    }
    assert_eq!(names.len(), added.len());
    assert!(added.len() >= ROUNDS / 2, "too few rounds went through ({})", added.len());
    let left: Vec<String> = snapshot(dir.path()).into_keys().collect();
    assert_eq!(left, ["link.json", "tiny.master.json"]);
}

#[test]
fn batch_names_that_would_collide_are_refused_before_anything_is_written() {
    let dir = unplanned_sample();
    ok(dir.path(), &["batch", "plan", MASTER, "--annotators", "2", "--seed", "1"]);
    let before = snapshot(dir.path());
    let e = refused(
        dir.path(),
        &["batch", "export", MASTER, "--task-set", "1", "--annotator", "Anna!", "--annotator", "anna?"],
    );
    assert!(e.contains("annotators 'Anna!' and 'anna?' would both get the batch file sample.batch-1-anna.json"), "{e}");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn absurd_counts_on_the_command_line_are_refused() {
    let dir = unplanned_sample();
    let before = snapshot(dir.path());
    for n in ["4000000000", "1000000"] {
        let started = Instant::now();
        let e = refused(dir.path(), &["batch", "plan", MASTER, "--annotators", n]);
        assert!(e.contains(&format!("{n} annotators for ")) && e.contains("ask for at most"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(snapshot(dir.path()), before);
    }
}

/// Ids in a file may be anything up to the largest there can be; the next is counted, and refused
/// there rather than wrapped round to the researcher's 0 or to an id in use.
#[test]
fn an_annotator_id_at_the_largest_leaves_no_next_one() {
    let dir = copies(&["tests/fixtures/tiny/tiny.master.json"]);
    let path = dir.path().join("tiny.master.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen("\"annotators\":[]", "\"annotators\":[{\"id\":4294967295,\"name\":\"Max\"}]", 1);
    std::fs::write(&path, text).unwrap();
    let before = snapshot(dir.path());
    let e = refused(dir.path(), &["annotator", "add", "tiny.master.json", "Zed"]);
    assert!(e.contains("no annotator id is left: the highest in use is 4294967295"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(snapshot(dir.path()), before);
}

/// The sample batch with `sentence_count` set to `count`, padded with spaces to `size` bytes.
fn padded_batch(dir: &Path, count: u64, size: usize) -> PathBuf {
    let text = std::fs::read_to_string(crate::common::project("sample_batches/sample.batch-1-anna.json")).unwrap();
    let old = text.split("\"sentence_count\":").nth(1).unwrap().split(',').next().unwrap().to_owned();
    let mut text = text.replacen(&format!("\"sentence_count\":{old}"), &format!("\"sentence_count\":{count}"), 1);
    let end = text.rfind('}').unwrap();
    let padding = " ".repeat(size.saturating_sub(text.len()));
    text.insert_str(end, &padding);
    let path = dir.join(format!("padded-{count}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

/// `protest check FILE`'s peak memory in bytes, with whether it succeeded and what it printed.
///
/// Measured from a fresh run of this test program ([`peak_memory_of_check_in_a_small_process`]):
/// Linux counts, in the peak of a process, the memory of the one it was started from as it was when
/// the program was loaded, and this test program is large by now; a fresh one is a few MB.
fn checked_with_peak_memory(file: &Path) -> (bool, String, u64) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "edges_cli::peak_memory_of_check_in_a_small_process", "--ignored", "--nocapture"])
        .env(PEAK_OF, file)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let field = |name: &str| {
        let line = stdout.lines().find_map(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("{stdout}"));
        line.to_owned()
    };
    (field("succeeded: ") == "true", field("printed: ").replace("\\n", "\n"), field("peak: ").parse().unwrap())
}

const PEAK_OF: &str = "PROTEST_TEST_PEAK_OF_CHECK";

#[test]
#[ignore = "run by checked_with_peak_memory, in a process of its own"]
fn peak_memory_of_check_in_a_small_process() {
    let file = std::env::var_os(PEAK_OF).expect("the file to check");
    let out = Command::new(env!("CARGO_BIN_EXE_protest")).arg("check").arg(file).output().unwrap();
    // SAFETY: an all-zero `rusage` is a valid value for `getrusage` to fill.
    let mut usage = unsafe { std::mem::zeroed::<libc::rusage>() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    println!("succeeded: {}", out.status.success());
    println!("printed: {}", String::from_utf8_lossy(&out.stdout).replace('\n', "\\n"));
    println!("peak: {}", usage.ru_maxrss as u64 * 1024);
}

/// A batch's `sentence_count` is its master's, a number the file can only claim: the batch holds
/// only the sentences its examples need and the others take no room, so checking a batch takes
/// the memory of what its file holds whatever it claims — even 4·10⁹ sentences in a file padded
/// to 16 MB. A claim that is not the master's is refused where it matters, on import.
#[test]
fn claimed_sentence_counts_take_no_room_and_a_wrong_one_is_not_imported() {
    let dir = copies(&[&format!("sample_batches/{MASTER}"), "sample_batches/sample.batch-1-anna.json"]);
    let plain = dir.path().join("sample.batch-1-anna.json");
    let (_, _, plain_peak) = checked_with_peak_memory(&plain);
    for (count, size) in [(4_000_000_000u64, 16 << 20), (1_000_000_000, 4 << 20), (18_500_000, 0)] {
        let path = padded_batch(dir.path(), count, size);
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let before = snapshot(dir.path());
        let (succeeded, out, peak) = checked_with_peak_memory(&path);
        assert!(succeeded && out.contains(&format!("Source sentences kept: 96 of {count}")), "{out}");
        // Within four times the file's size (read whole, then parsed) over the plain file's own
        // check, with 8 MiB for the allocator's rounding: a dense batch took 28 bytes per claimed
        // sentence in every corpus (2 GB for 18.5 M sentences in this 72 KB file).
        let file_size = std::fs::metadata(&path).unwrap().len();
        let bound = plain_peak + 4 * file_size + (8 << 20);
        assert!(peak <= bound, "{count} claimed in {file_size} bytes: peak {peak} > {bound}");

        let e = refused(dir.path(), &["batch", "import", MASTER, name.as_str()]);
        assert!(
            e.contains(&format!("{name}: it says its master has {count} sentences, but this master has 316")),
            "{e}"
        );
        let (store, _) = protest::store::Store::<protest::store::batch_file::Batch>::open(&path).unwrap();
        assert_eq!(u64::from(store.doc().content().sentence_count()), count);
        store.close().unwrap();
        assert_eq!(snapshot(dir.path()), before, "{count}: nothing changed, nothing left");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_file_with_a_byte_order_mark_is_read() {
    let dir = copies(&[&format!("sample_batches/{MASTER}"), "sample_batches/sample.batch-1-anna.json"]);
    for name in [MASTER, "sample.batch-1-anna.json"] {
        let path = dir.path().join(name);
        let text = std::fs::read(&path).unwrap();
        std::fs::write(&path, [b"\xEF\xBB\xBF".as_slice(), &text].concat()).unwrap();
        assert!(ok(dir.path(), &["check", name]).contains(": valid"));
    }
    let out = protest(dir.path(), &["annotator", "add", MASTER, "Zed"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
