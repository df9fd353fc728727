//! Helpers shared by the metric tests (APT, AutoPRF, correlation).
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `protest` binary in `dir`.
pub fn protest(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protest")).args(args).current_dir(dir).output().unwrap()
}

/// Runs `protest` and returns its standard output, failing the test with its error otherwise.
pub fn protest_ok(args: &[&str], dir: &Path) -> String {
    let out = protest(args, dir);
    assert!(out.status.success(), "protest {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `protest`, expects it to fail, and returns its error output.
pub fn protest_err(args: &[&str], dir: &Path) -> String {
    let out = protest(args, dir);
    assert!(!out.status.success(), "protest {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// A folder of the project's real data (`shared/data/NAME`), found beside the checkout or
/// further up (CI puts `shared/` beside the clone; worktrees sit deeper).
pub fn shared_data(name: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .map(|dir| dir.join("shared/data").join(name))
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| panic!("shared/data/{name} not found above {}", manifest.display()))
}

/// The fixture folder `tests/fixtures/NAME`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A writable copy of a folder's files in a new temporary folder.
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

/// 64-bit FNV-1a, to check a long expected output without copying it into the test.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

pub fn read(path: impl AsRef<Path>) -> String {
    fs::read_to_string(path.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}
