//! Atomic file replacement: write a temporary file in the same folder, flush it to disk, rename
//! it over the target. A crash or a full disk at any moment leaves either the old file or the new
//! one, never a torn mixture.

use crate::error::{Error, Result};
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with what `write` produces. On any failure the old file is untouched and the
/// temporary file is removed.
pub fn write_with(path: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let target = resolve(path);
    let dir = folder(&target);
    let io = |e| Error::io(path, e);
    let mut builder = tempfile::Builder::new();
    let prefix = temp_prefix(&target);
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        // A new file gets the usual 0666 minus the user's umask (open(2) applies it), not the
        // temporary file's private 0600.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let tmp = builder.tempfile_in(&dir).map_err(io)?;
    {
        let mut out = BufWriter::new(tmp.as_file());
        write(&mut out).map_err(io)?;
        out.flush().map_err(io)?;
    }
    if let Ok(meta) = fs::metadata(&target) {
        // Keep the permissions the user gave the file; the temporary file starts private.
        tmp.as_file().set_permissions(meta.permissions()).map_err(io)?;
    }
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(&target).map_err(|e| Error::io(path, e.error))?;
    sync_dir(&dir);
    Ok(())
}

const TEMP_SUFFIX: &str = ".tmp";

/// Temporary files are named after their target (`.NAME.protest-RANDOM.tmp`), so that one left
/// behind by a crash can be recognised and removed by whoever next holds the file's lock.
fn temp_prefix(target: &Path) -> String {
    let name = target.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    // Leave room for the random part within the usual 255-byte limit on names.
    let mut end = name.len().min(200);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.protest-", &name[..end])
}

/// Removes the temporary files that interrupted replacements of `path` left behind (a crash
/// between creating and renaming them); returns how many. Only call this while holding the
/// file's lock, when no replacement of it can be under way.
pub fn remove_leftovers(path: &Path) -> usize {
    let target = resolve(path);
    let prefix = temp_prefix(&target);
    let Ok(entries) = fs::read_dir(folder(&target)) else { return 0 };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
                .is_some_and(|random| !random.is_empty() && random.chars().all(|c| c.is_ascii_alphanumeric()))
        })
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

/// Replaces `path` with `bytes`.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with(path, |w| w.write_all(bytes))
}

/// Whether two paths name the same file (through links, `..` and the like), so that writing one
/// would replace the other. Paths that do not exist yet are compared as written.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn folder(target: &Path) -> PathBuf {
    match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Saving through a symbolic link replaces the file it points to, not the link.
fn resolve(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Makes the rename itself durable. Not every platform can open a directory; the rename is
/// still atomic there, only its durability is left to the OS.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        fs::write(&path, "old").unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn same_file_sees_through_other_spellings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        fs::write(&path, "x").unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        assert!(same_file(&path, &dir.path().join("sub/../m.json")));
        assert!(!same_file(&path, &dir.path().join("n.json")));
        assert!(same_file(Path::new("new.json"), Path::new("new.json")), "not there yet: as written");
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        fs::write(&path, "old").unwrap();
        let err = write_with(&path, |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("m.json") && err.to_string().contains("disk full"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn leftovers_of_this_file_only_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        write(&path, b"x").unwrap();
        let names =
            [".m.json.protest-Ab12cd.tmp", ".m.json.bak.protest-Ab12cd.tmp", ".m.json.protest-.tmp", "other.tmp"];
        for n in names {
            fs::write(dir.path().join(n), "half").unwrap();
        }
        assert_eq!(remove_leftovers(&path), 1);
        assert!(!dir.path().join(names[0]).exists());
        assert!(names[1..].iter().all(|n| dir.path().join(n).exists()));
        // The names of real temporary files match.
        let tmp = tempfile::Builder::new().prefix(&temp_prefix(&path)).suffix(TEMP_SUFFIX).tempfile_in(dir.path());
        let kept = tmp.unwrap().keep().unwrap().1;
        assert_eq!(remove_leftovers(&path), 1);
        assert!(!kept.exists());
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
    }
}
