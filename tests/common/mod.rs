//! Helpers shared by the command-line tests: run the built `protest` binary in a folder, and
//! make throw-away copies of fixtures to run it on.
#![allow(dead_code)] // each test binary uses its own subset

use std::fs;
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

/// A temporary folder with a copy of every file of a project folder.
pub fn copy_of_folder(relative: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(project(relative)).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
    }
    dir
}
