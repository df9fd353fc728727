//! The lock beside an open file (`FILE.lock`, an OS advisory lock) that keeps a second PROTEST
//! to a read-only view, and the other reasons a file opens read-only.

use crate::store::files;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Why a file opened read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ReadOnly {
    /// Another PROTEST has it open.
    Locked(String),
    /// The lock file cannot be made or locked (a read-only folder or medium…).
    Unlockable(String),
    /// The file itself has no write permission.
    NoPermission(String),
    /// Something that is not PROTEST's lock file is where the lock goes (a link, a pipe…).
    Planted(String),
}

impl ReadOnly {
    pub(super) fn why(&self) -> &str {
        match self {
            ReadOnly::Locked(why)
            | ReadOnly::Unlockable(why)
            | ReadOnly::NoPermission(why)
            | ReadOnly::Planted(why) => why,
        }
    }

    /// What the user can do about it.
    pub(super) fn remedy(&self) -> &'static str {
        match self {
            ReadOnly::Locked(_) => "close it there first",
            ReadOnly::Unlockable(_) => "copy it to a folder you can write to",
            ReadOnly::NoPermission(_) => "make it writable first (e.g. chmod u+w)",
            ReadOnly::Planted(_) => "PROTEST makes its own once it is gone",
        }
    }
}

/// Whether the file may be written: it has write permission for us (and for someone at all, so
/// that a file made read-only stays so even for the superuser).
pub(super) fn writable(path: &Path) -> std::result::Result<(), String> {
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) }; // loading will say what is wrong
    if meta.permissions().readonly() {
        return Err("has no write permission (it is a read-only file)".into());
    }
    #[cfg(unix)]
    if let Err(e) = rustix::fs::access(path, rustix::fs::Access::WRITE_OK) {
        return Err(format!("cannot be written by this user ({})", std::io::Error::from(e)));
    }
    Ok(())
}

/// The lock path for a master or batch file.
pub fn lock_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// An advisory lock held for as long as the store is open.
#[derive(Debug)]
pub(super) struct Lock {
    path: PathBuf,
    file: File,
}

impl Lock {
    /// The lock of the file at `real` (named `shown` in messages), or why it cannot be had:
    /// someone else holds it, the lock file cannot be written (a read-only folder or medium, for
    /// instance), or something else was put where it goes (a link is never followed).
    pub(super) fn acquire(real: &Path, shown: &Path) -> std::result::Result<Lock, ReadOnly> {
        let path = lock_path(real);
        let unwritable = |e: std::io::Error| {
            ReadOnly::Unlockable(format!("{} cannot be locked for writing ({}: {e})", shown.display(), path.display()))
        };
        for attempt in 1.. {
            let mut options = OpenOptions::new();
            options.read(true).write(true).create(true).truncate(false);
            let mut handle = match files::open_beside(&mut options, &path) {
                Ok(handle) => handle,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    return Err(ReadOnly::Planted(format!("its lock file {}: {e}", path.display())));
                }
                Err(e) => return Err(unwritable(e)),
            };
            match handle.try_lock() {
                // A holder that was closing may have removed the file between our opening and our
                // locking it; a lock on a removed file keeps nobody out, so start again.
                Ok(()) if attempt < 10 && !is_at(&handle, &path) => continue,
                Ok(()) => {
                    let holder = format!(
                        "process {} of {} since {}",
                        std::process::id(),
                        std::env::var("USER").unwrap_or_else(|_| "this user".into()),
                        chrono::Local::now().format("%Y-%m-%d %H:%M")
                    );
                    // Who holds the lock is only information for others; failing to write it is
                    // no reason not to hold it.
                    let _ = handle
                        .set_len(0)
                        .and_then(|()| handle.rewind())
                        .and_then(|()| handle.write_all(holder.as_bytes()));
                    return Ok(Lock { path, file: handle });
                }
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = handle.read_to_string(&mut holder);
                    let holder = holder.trim();
                    let holder = if holder.is_empty() { "another process" } else { holder };
                    return Err(ReadOnly::Locked(format!(
                        "{} is open in another PROTEST window ({holder})",
                        shown.display()
                    )));
                }
                Err(TryLockError::Error(e)) => return Err(unwritable(e)),
            }
        }
        unreachable!("the loop returns")
    }

    // The web page's build (docs/serve.md) has files without handles to close.
    #[cfg_attr(target_arch = "wasm32", allow(clippy::drop_non_drop))]
    pub(super) fn release(self) {
        // Remove the file while still holding the lock, so nobody locks a file we then delete;
        // but only our own: someone may have removed ours and made theirs.
        if is_at(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
        drop(self.file);
    }
}

/// Whether the open `handle` is the file now at `path`.
#[cfg(unix)]
fn is_at(handle: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (handle.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_at(_handle: &File, path: &Path) -> bool {
    // Elsewhere an open file cannot be removed, so it is still there.
    path.exists()
}
