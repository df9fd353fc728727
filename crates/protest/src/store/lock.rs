//! The lock beside an open file (`FILE.lock`, an OS advisory lock) that keeps a second PROTEST
//! to a read-only view, and the other reasons a file opens read-only. The lock file says what
//! holds it — a window, `protest serve` at its address, or a command — so that whoever else
//! opens the file is told what to close or wait for.

use crate::store::files;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// What holds a file's lock, as told to whoever else opens the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "holder", rename_all = "snake_case")]
pub enum Holder {
    /// The annotation window.
    Window,
    /// `protest serve`, at the address its links begin with.
    Server { address: String },
    /// A command, as typed without its arguments (`protest batch export`).
    Command { command: String },
    /// Another program built on the library (a test, a tool of one's own).
    Program,
}

static HOLDER: OnceLock<Holder> = OnceLock::new();

/// Says what this process is, for the locks it takes ([`Holder`]): the program's entry sets it
/// once, before anything is opened (the window, or a command). A lock taken before, or in a
/// process that never says, names a [`Holder::Program`]; `protest serve` names itself with its
/// address when it opens its master (`Store::open_as`).
pub fn set_holder(holder: Holder) {
    let _ = HOLDER.set(holder);
}

/// What this process's locks say holds them ([`set_holder`]).
pub(super) fn this_process() -> &'static Holder {
    HOLDER.get().unwrap_or(&Holder::Program)
}

/// What a lock file holds: its holder, and which process of which user since when.
#[derive(Debug, Serialize, Deserialize)]
struct Held {
    #[serde(flatten)]
    holder: Holder,
    process: u32,
    user: String,
    /// `None` when the clock was outside what can be written (`crate::model::clock`).
    since: Option<DateTime<Utc>>,
}

impl Held {
    /// "process 22511 of anna since 2026-11-26 20:15" (local time).
    fn details(&self) -> String {
        let since = self
            .since
            .map(|t| format!(" since {}", t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M")))
            .unwrap_or_default();
        format!("process {} of {}{since}", self.process, quoted(&self.user))
    }
}

/// What a lock file says, as a message quotes it: anyone can write a lock file, so what it holds
/// is shown with its hidden characters written out and cut short ([`HOLDER_BYTES`] in all).
fn quoted(field: &str) -> String {
    crate::model::text::quoted(field, HOLDER_BYTES / 4)
}

/// The most a message says of what a lock file holds, in bytes.
pub const HOLDER_BYTES: usize = 1024;

/// Why a file opened read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ReadOnly {
    /// Another PROTEST has it open: what it is, and what to do about it.
    Locked { why: String, remedy: String },
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
            ReadOnly::Locked { why, .. }
            | ReadOnly::Unlockable(why)
            | ReadOnly::NoPermission(why)
            | ReadOnly::Planted(why) => why,
        }
    }

    /// What the user can do about it.
    pub(super) fn remedy(&self) -> &str {
        match self {
            ReadOnly::Locked { remedy, .. } => remedy,
            ReadOnly::Unlockable(_) => "copy it to a folder you can write to",
            ReadOnly::NoPermission(_) => "make it writable first (e.g. chmod u+w)",
            ReadOnly::Planted(_) => "PROTEST makes its own once it is gone",
        }
    }

    /// The file `shown` is held by what the lock file's `text` says.
    fn held(shown: &Path, text: &str) -> ReadOnly {
        let file = shown.display();
        let (why, remedy) = match serde_json::from_str::<Held>(text.trim()) {
            Ok(held) => {
                let details = held.details();
                match held.holder {
                    Holder::Window => {
                        (format!("{file} is open in a PROTEST window ({details})"), "close it there first")
                    }
                    Holder::Server { address } => (
                        format!("{file} is being served by `protest serve` at {} ({details})", quoted(&address)),
                        "stop the server first (Ctrl+C where it runs); until then annotators work on it through its links",
                    ),
                    Holder::Command { command } => {
                        let command = quoted(&command);
                        (format!("{file} is being changed by `{command}` ({details})"), "wait until it has finished")
                    }
                    Holder::Program => {
                        (format!("{file} is open in another PROTEST program ({details})"), "close it there first")
                    }
                }
            }
            // Written by an older PROTEST (plain words), or not written yet.
            Err(_) => {
                let text = text.trim();
                let holder = if text.is_empty() {
                    "another process".into()
                } else {
                    crate::model::text::quoted(text, HOLDER_BYTES)
                };
                (format!("{file} is open in another PROTEST program ({holder})"), "close it there first")
            }
        };
        ReadOnly::Locked { why, remedy: remedy.to_owned() }
    }
}

/// Why a file may not be written (words that follow its name).
#[derive(Debug, thiserror::Error)]
pub(super) enum Unwritable {
    #[error("has no write permission (it is a read-only file)")]
    ReadOnlyFile,
    /// The system's answer to whether this user may write it.
    #[cfg(unix)]
    #[error("cannot be written by this user ({0})")]
    NotForThisUser(std::io::Error),
}

/// Whether the file may be written: it has write permission for us (and for someone at all, so
/// that a file made read-only stays so even for the superuser).
pub(super) fn writable(path: &Path) -> std::result::Result<(), Unwritable> {
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) }; // loading will say what is wrong
    if meta.permissions().readonly() {
        return Err(Unwritable::ReadOnlyFile);
    }
    #[cfg(unix)]
    if let Err(e) = rustix::fs::access(path, rustix::fs::Access::WRITE_OK) {
        return Err(Unwritable::NotForThisUser(e.into()));
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
    /// The lock of the file at `real` (named `shown` in messages) for `holder`, or why it cannot
    /// be had: someone else holds it, the lock file cannot be written (a read-only folder or
    /// medium, for instance), or something else was put where it goes (a link is never followed).
    pub(super) fn acquire(real: &Path, shown: &Path, holder: &Holder) -> std::result::Result<Lock, ReadOnly> {
        let path = lock_path(real);
        let unwritable = |e: std::io::Error| {
            ReadOnly::Unlockable(format!("{} cannot be locked for writing ({}: {e})", shown.display(), path.display()))
        };
        for attempt in 1.. {
            let mut options = OpenOptions::new();
            options.read(true).write(true).create(true).truncate(false);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(crate::store::disk::NEW_FILE_MODE);
            }
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
                    let held = Held {
                        holder: holder.clone(),
                        process: std::process::id(),
                        user: std::env::var("USER").unwrap_or_else(|_| "this user".into()),
                        since: crate::model::clock::now_if_right(),
                    };
                    // Who holds the lock is only information for others; failing to write it is
                    // no reason not to hold it.
                    let text = serde_json::to_string(&held).unwrap_or_default();
                    let _ = handle
                        .set_len(0)
                        .and_then(|()| handle.rewind())
                        .and_then(|()| handle.write_all(format!("{text}\n").as_bytes()));
                    return Ok(Lock { path, file: handle });
                }
                Err(TryLockError::WouldBlock) => return Err(ReadOnly::held(shown, &holder_text(&mut handle))),
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

/// What the lock file open as `handle` says holds it. A holder writes it just after taking the
/// lock, so a file still empty, or not yet a whole line, is read again a few times (for at most
/// 0.2 s); one short line is all a holder writes, so no more than 4 KiB is read (and bytes that
/// are not UTF-8, or a character cut there, are shown as �).
fn holder_text(handle: &mut File) -> String {
    let mut bytes = Vec::new();
    for _ in 0..10 {
        bytes.clear();
        let read = handle.rewind().and_then(|()| (&mut *handle).take(4096).read_to_end(&mut bytes));
        if read.is_ok() && bytes.ends_with(b"\n") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    String::from_utf8_lossy(&bytes).into_owned()
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
