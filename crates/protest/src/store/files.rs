//! Which file a path names, and opening it without surprises: one identity per file, nothing
//! but regular files read, and no link followed for the files PROTEST keeps beside a master.
//!
//! - A master or batch is known by its *resolved* path ([`resolve`]: links and `..` followed
//!   once, when it is opened), and its lock, journal and temporary files are named from that, so
//!   every way of naming the file meets the same lock.
//! - Only a regular file is read ([`open_to_read`], [`read`]): a named pipe would block the
//!   reader forever, a device like `/dev/zero` never ends. The check is made on the opened file
//!   (opened without waiting for a pipe's writer), so nothing can be swapped in between.
//! - The files kept beside a master (its lock and journal) are opened without following a link
//!   ([`read_beside`], [`beside_options`]): a link planted there is refused, never written
//!   through.

use crate::error::{Error, Result};
use std::fs::{self, File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The file a path names: links and `..` resolved, and it must be a regular file. The error
/// names the path as given and says what is there instead.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    let real = fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let meta = fs::metadata(&real).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::io(path, not_a_file(meta.file_type())));
    }
    Ok(real)
}

/// Opens a file for reading, following links, but only if it is a regular file.
pub fn open_to_read(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    no_waiting(&mut options);
    regular(options.open(path)?)
}

/// Reads a whole regular file ([`open_to_read`]).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    read_all(open_to_read(path)?)
}

/// Reads a file kept beside a master (its journal) without following a link; `None` when there
/// is none.
pub fn read_beside(path: &Path) -> io::Result<Option<Vec<u8>>> {
    let mut options = OpenOptions::new();
    options.read(true);
    match open_beside(&mut options, path) {
        Ok(file) => read_all(file).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Opens a file kept beside a master with `options`, refusing a link or anything but a regular
/// file, with a message that says what is there.
pub fn open_beside(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    beside_options(options);
    match options.open(path) {
        Err(e) if is_link_refusal(&e, path) => Err(link_error(path)),
        opened => regular(opened?),
    }
}

/// Makes `options` open without following a link at the last component and without waiting
/// for a pipe's other end.
pub fn beside_options(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// Opening a named pipe to read waits for a writer; without waiting it can be refused.
fn no_waiting(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    let _ = options;
}

/// `O_NOFOLLOW` refuses a link with `ELOOP` (some systems say `EMLINK`).
fn is_link_refusal(e: &io::Error, path: &Path) -> bool {
    #[cfg(unix)]
    if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::EMLINK)) {
        return true;
    }
    let _ = e;
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// What is said of a link where PROTEST keeps its own file.
pub fn link_error(path: &Path) -> io::Error {
    let target = fs::read_link(path).map(|t| format!(" (to {})", t.display())).unwrap_or_default();
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "is a symbolic link{target}; PROTEST never follows a link for the files it keeps beside a master or batch: remove it"
        ),
    )
}

/// The permissions of a file PROTEST keeps beside the master or batch `of` (its journal, its
/// receipts…): those of the file for its owner (read and write), the file's read permissions
/// for others, and never write for others, whatever the umask. `None` when the file cannot be
/// looked at (the new file then keeps what it was made with, `disk::NEW_FILE_MODE`).
pub fn beside_permissions(of: &Path) -> Option<fs::Permissions> {
    let meta = fs::metadata(of).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(fs::Permissions::from_mode((meta.permissions().mode() & 0o644) | 0o600))
    }
    #[cfg(not(unix))]
    Some(meta.permissions())
}

/// Whether `path` is a symbolic link (not following it).
pub fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn regular(file: File) -> io::Result<File> {
    let meta = file.metadata()?;
    if meta.is_file() { Ok(file) } else { Err(not_a_file(meta.file_type())) }
}

fn read_all(mut file: File) -> io::Result<Vec<u8>> {
    // The size of a regular file is what it holds: a hint, never a promise.
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// "is a named pipe (FIFO), not a regular file…"
pub fn not_a_file(kind: FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("is {}, not a regular file; PROTEST reads and writes only regular files", kind_name(kind)),
    )
}

/// What a file type is, in words.
pub fn kind_name(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A named pipe at `path` (made here, not with `crate::testing`, whose fixtures are read
    /// through these functions).
    fn fifo(path: &Path) {
        use rustix::fs::{CWD, Mode, mkfifoat};
        mkfifoat(CWD, path, Mode::RUSR | Mode::WUSR).unwrap();
    }

    #[test]
    fn a_link_is_resolved_to_the_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("m.json");
        fs::write(&real, "{}").unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link.json")).unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        let real = fs::canonicalize(&real).unwrap();
        assert_eq!(resolve(&dir.path().join("link.json")).unwrap(), real);
        assert_eq!(resolve(&dir.path().join("sub/../m.json")).unwrap(), real);
    }

    #[test]
    fn only_regular_files_are_read_and_a_pipe_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("pipe.json");
        fifo(&pipe);
        let e = resolve(&pipe).unwrap_err().to_string();
        assert!(
            e.ends_with(
                "pipe.json: is a named pipe (FIFO), not a regular file; PROTEST reads and writes only regular files"
            ),
            "{e}"
        );
        assert!(read(&pipe).unwrap_err().to_string().starts_with("is a named pipe (FIFO)"));
        let e = resolve(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("/dev/zero: is a character device"), "{e}");
        assert!(read(Path::new("/dev/zero")).is_err());
        assert!(resolve(dir.path()).unwrap_err().to_string().contains("is a folder"));
    }

    #[test]
    fn a_link_beside_a_master_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("rc");
        fs::write(&target, "precious").unwrap();
        let journal = dir.path().join("m.json.journal");
        std::os::unix::fs::symlink(&target, &journal).unwrap();
        let e = read_beside(&journal).unwrap_err().to_string();
        assert!(e.starts_with("is a symbolic link (to ") && e.ends_with(": remove it"), "{e}");
        assert_eq!(read_beside(&dir.path().join("none")).unwrap(), None);
        fs::remove_file(&journal).unwrap();
        fifo(&journal);
        assert!(read_beside(&journal).unwrap_err().to_string().contains("named pipe"));
        assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
    }
}
