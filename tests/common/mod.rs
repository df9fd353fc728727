//! Helpers shared by the command-line tests: run the built `protest` binary in a folder, and
//! make throw-away copies of fixtures to run it on.
#![allow(dead_code)] // not every helper is used yet

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A file or folder of the project (`tests/fixtures/tiny`, `sample_batches/…`).
pub fn project(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Runs `protest ARGS` in `dir`.
pub fn protest(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protest")).args(args).current_dir(dir).output().unwrap()
}

/// Runs `protest ARGS` in `dir`, expects success and returns its standard output.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let out = protest(dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "protest {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `protest ARGS` in `dir`, expects failure and returns its standard error.
pub fn refused(dir: &Path, args: &[&str]) -> String {
    let out = protest(dir, args);
    assert!(!out.status.success(), "protest {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// A temporary folder with copies of `files` of the project (paths relative to its root).
pub fn copies(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in files {
        let from = project(f);
        fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
    }
    dir
}

/// A temporary folder with the sample master and both bundled annotated batches merged into it
/// (as sample_batches/README.md does): people's judgements of every candidate.
pub fn merged_sample() -> tempfile::TempDir {
    let dir = copies(&[
        "sample_batches/sample.master.json",
        "sample_batches/sample.batch-1-anna.json",
        "sample_batches/sample.batch-1-ben.json",
    ]);
    ok(dir.path(), &["batch", "import", "sample.master.json", "sample.batch-1-anna.json", "sample.batch-1-ben.json"]);
    dir
}

/// A temporary folder with `sample.master.json`: the bundled sample master as imported, before
/// `rebuild.sh` planned its task set 1 and gave the parts to Anna and Ben (no task set, no
/// annotator), for tests that plan and export themselves.
pub fn unplanned_sample() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut master = protest::store::master_file::load(&project("sample_batches/sample.master.json")).unwrap();
    master.task_sets.clear();
    master.annotators.clear();
    protest::store::master_file::save(&master, &dir.path().join("sample.master.json")).unwrap();
    dir
}

/// A fixture folder `tests/fixtures/NAME`.
pub fn fixture(name: &str) -> PathBuf {
    project("tests/fixtures").join(name)
}

/// A temporary folder with a copy of every file of `dir`.
pub fn copy_of(dir: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), tmp.path().join(entry.file_name())).unwrap();
        }
    }
    tmp
}

/// A temporary folder with a copy of every file of a project folder.
pub fn copy_of_folder(relative: &str) -> tempfile::TempDir {
    copy_of(&project(relative))
}

/// A folder of the real corpora the project was given (`shared/data/NAME`, beside the checkout or
/// further up, or under `$PROTEST_SHARED_DATA`). They are not part of the repository, so a fresh
/// clone elsewhere has none: there the checks on the real corpus are skipped, saying so on the
/// terminal even when the test passes (every rule they check is also tested on committed data);
/// in CI (the `CI` variable set), where they must run, a missing folder fails the test.
pub fn shared_data(name: &str) -> Option<PathBuf> {
    let from_env = std::env::var_os("PROTEST_SHARED_DATA").map(|d| PathBuf::from(d).join(name));
    let beside = project("").ancestors().map(|dir| dir.join("shared/data").join(name)).find(|dir| dir.is_dir());
    let found = from_env.filter(|d| d.is_dir()).or(beside);
    if found.is_none() {
        let reason = format!("shared/data/{name} not found (set PROTEST_SHARED_DATA)");
        assert!(std::env::var_os("CI").is_none(), "{reason}: the checks on the real corpus must run in CI");
        // Written to stderr itself, not through `eprintln!`, which the test harness keeps to
        // itself for a test that passes.
        let _ = writeln!(std::io::stderr(), "{reason}: this check on the real corpus is skipped");
    }
    found
}

/// 64-bit FNV-1a, to check a long expected output without copying it into the test.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A text file's content, failing the test with the file's name.
pub fn read(path: impl AsRef<Path>) -> String {
    fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}
