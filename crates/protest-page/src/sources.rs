//! What the page is built from, and one digest of it all: the sources it compiles (the core, the
//! window, the web crate), what they embed (assets, guidelines, the sample), what decides how they
//! are compiled (the manifests, `Cargo.lock`, `.cargo/config.toml`) and the tool and script that
//! build it. A change to any of them may change the page, so the committed one must be rebuilt.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Files, and folders taken whole (every file under them), relative to the workspace's root.
pub const SOURCES: &[&str] = &[
    ".cargo/config.toml",
    "Cargo.lock",
    "Cargo.toml",
    "assets",
    "crates/protest/Cargo.toml",
    "crates/protest/src",
    "crates/protest-align/Cargo.toml",
    "crates/protest-align/src",
    "crates/protest-gui/Cargo.toml",
    "crates/protest-gui/src",
    "crates/protest-page/Cargo.toml",
    "crates/protest-page/src",
    "crates/protest-web",
    "guidelines",
    "sample_batches/sample.batch-1-anna.json",
    "sample_batches/sample.batch-1-ben.json",
    "sample_batches/sample.master.json",
    "scripts/build-page",
];

/// A source that could not be read.
#[derive(Debug)]
pub struct Unreadable {
    pub path: PathBuf,
    pub why: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

impl std::error::Error for Unreadable {}

/// The hex SHA-256 of every file of [`SOURCES`] under `root`, in the order of their paths: each
/// path (relative, with `/`), its length and its bytes, so that a file moved or split counts as a
/// change too.
pub fn digest_of_sources(root: &Path) -> Result<String, Unreadable> {
    let mut files = Vec::new();
    for source in SOURCES {
        collect(root, Path::new(source), &mut files)?;
    }
    files.sort();
    let mut digest = Sha256::new();
    for relative in &files {
        let path = root.join(relative);
        let bytes = std::fs::read(&path).map_err(|e| Unreadable { path, why: e.to_string() })?;
        digest.update(relative.as_bytes());
        digest.update([0]);
        digest.update((bytes.len() as u64).to_le_bytes());
        digest.update(&bytes);
    }
    Ok(digest.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Adds `relative` (a file) or every file under it (a folder) to `files`, as `/`-separated paths.
fn collect(root: &Path, relative: &Path, files: &mut Vec<String>) -> Result<(), Unreadable> {
    let path = root.join(relative);
    let unreadable = |why: String| Unreadable { path: path.clone(), why };
    let kind = std::fs::symlink_metadata(&path).map_err(|e| unreadable(e.to_string()))?.file_type();
    if kind.is_file() {
        let parts: Vec<_> = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect();
        files.push(parts.join("/"));
    } else if kind.is_dir() {
        for entry in std::fs::read_dir(&path).map_err(|e| unreadable(e.to_string()))? {
            let entry = entry.map_err(|e| unreadable(e.to_string()))?;
            collect(root, &relative.join(entry.file_name()), files)?;
        }
    } else {
        // A link could point anywhere, and what it points to may change unseen.
        return Err(unreadable("neither a file nor a folder (a link?): the page's sources are plain files".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the sources' layout with one file in each place.
    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for source in SOURCES {
            let path = dir.path().join(source);
            let folder = Path::new(source).extension().is_none() && *source != "scripts/build-page";
            let file = if folder { path.join("a.rs") } else { path };
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, source.as_bytes()).unwrap();
        }
        dir
    }

    #[test]
    fn any_change_to_a_source_changes_the_digest() {
        let dir = tree();
        let first = digest_of_sources(dir.path()).unwrap();
        assert_eq!(first, digest_of_sources(dir.path()).unwrap(), "the same sources, the same digest");
        let core = dir.path().join("crates/protest/src/a.rs");
        std::fs::write(&core, "changed").unwrap();
        let changed = digest_of_sources(dir.path()).unwrap();
        assert_ne!(first, changed);
        // A file added, or moved to another name with the same bytes.
        std::fs::write(dir.path().join("crates/protest/src/b.rs"), "").unwrap();
        let added = digest_of_sources(dir.path()).unwrap();
        assert_ne!(changed, added);
        std::fs::rename(dir.path().join("crates/protest/src/b.rs"), dir.path().join("crates/protest/src/c.rs"))
            .unwrap();
        assert_ne!(added, digest_of_sources(dir.path()).unwrap());
        // What the page is not built from does not count.
        std::fs::write(dir.path().join("README.md"), "news").unwrap();
        std::fs::create_dir_all(dir.path().join("crates/protest/tests")).unwrap();
        std::fs::write(dir.path().join("crates/protest/tests/t.rs"), "").unwrap();
        let unrelated = digest_of_sources(dir.path()).unwrap();
        std::fs::remove_file(dir.path().join("README.md")).unwrap();
        assert_eq!(unrelated, digest_of_sources(dir.path()).unwrap());
    }

    #[test]
    fn a_missing_source_or_a_link_is_named() {
        let dir = tree();
        std::fs::remove_file(dir.path().join("Cargo.lock")).unwrap();
        let e = digest_of_sources(dir.path()).unwrap_err();
        assert!(e.to_string().contains("Cargo.lock"), "{e}");
        std::fs::write(dir.path().join("Cargo.lock"), "").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", dir.path().join("guidelines/linked.md")).unwrap();
            let e = digest_of_sources(dir.path()).unwrap_err();
            assert!(e.to_string().contains("guidelines/linked.md") && e.why.contains("a link"), "{e}");
        }
    }
}
