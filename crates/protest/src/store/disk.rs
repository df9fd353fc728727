//! The few file operations that saving uses, behind one small trait: the seam where a test puts a
//! full disk, a failing `fsync` or a failing rename at any chosen moment — or a disk that lies: a
//! rename that renames nothing, a write that writes short, an `fsync` that does nothing, each
//! reporting success ([`Faulty`]).
//!
//! The store, the journal, the atomic writer and every workflow output write through a
//! [`Disk`]; reading goes straight to the file system, as nothing is at stake there.

use crate::store::files;
use std::fmt;
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The write side of the file system.
pub trait Disk: fmt::Debug + Send + Sync {
    /// Creates a new file for writing; fails if something is at `path` already (a link too).
    fn create(&self, path: &Path) -> io::Result<Box<dyn DiskFile>>;
    /// Opens an existing regular file to append to it, never through a link.
    fn append(&self, path: &Path) -> io::Result<Box<dyn DiskFile>>;
    /// Renames `from` to `to`, replacing `to` atomically.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Gives the file `from` the second name `to` (a hard link, or a copy where the file system
    /// has no links); `to` must not exist.
    fn link(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Makes the renames and removals in a folder durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// Creates a folder whose parent exists (an output folder asked for that is not there yet).
    fn create_dir(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir(dir)
    }
    /// This disk, shared: for what writes through it later (the receipts of `protest serve`).
    fn to_shared(&self) -> Arc<dyn Disk>;
}

/// A file open for writing.
pub trait DiskFile: Write + Send + fmt::Debug {
    /// Waits until what was written is on the disk (`fsync`).
    fn sync(&mut self) -> io::Result<()>;
    /// Cuts the file to `len` bytes.
    fn truncate(&mut self, len: u64) -> io::Result<()>;
    fn set_permissions(&mut self, permissions: Permissions) -> io::Result<()>;
    /// Which file this is, as it is now.
    fn identity(&self) -> io::Result<Identity>;
}

/// Which file is at a path and in what state: device and inode (Unix), size and modification
/// time. A writer compares it with what it last saw there to tell whether another program
/// replaced or changed the file meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Identity {
    pub fn of_metadata(meta: &fs::Metadata) -> Identity {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Identity { device, inode, len: meta.len(), modified: meta.modified().ok() }
    }

    /// The file at `path` now.
    pub fn of_path(path: &Path) -> io::Result<Identity> {
        fs::metadata(path).map(|m| Identity::of_metadata(&m))
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same file (device and inode), whatever its content. Where there are no inodes, only
    /// size and time tell files apart ([`Identity`]'s equality).
    pub fn same_file(&self, other: &Identity) -> bool {
        (self.device, self.inode) == (other.device, other.inode)
    }
}

/// How a file (a master, a batch, a journal) is not as a writer left it: another program
/// removed, replaced or changed it. Each names the file as the user named it.
#[derive(Debug, thiserror::Error)]
pub enum NotAsLeft {
    #[error("{} was removed", .0.display())]
    Removed(PathBuf),
    /// What is there cannot be looked at, so whether it changed is not known.
    #[error("{} cannot be looked at ({error})", path.display())]
    Unseen { path: PathBuf, error: io::Error },
    #[error("{} was replaced", .0.display())]
    Replaced(PathBuf),
    #[error("{} was changed", .0.display())]
    Changed(PathBuf),
    /// A master another program saved: the revision it is at, and the one this writer knows.
    #[error("{} is at revision {theirs}, not {ours} as when it was opened here", path.display())]
    Revision { path: PathBuf, theirs: u64, ours: u64 },
}

impl NotAsLeft {
    /// Whether the file at `at` (named `shown` to the user) is still `left`, the file a writer
    /// opened or last wrote: the same file, with the same size and time.
    pub fn check(shown: &Path, at: &Path, left: &Identity) -> Result<(), NotAsLeft> {
        match Identity::of_path(at) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(NotAsLeft::Removed(shown.to_path_buf())),
            Err(error) => Err(NotAsLeft::Unseen { path: shown.to_path_buf(), error }),
            Ok(now) if !now.same_file(left) => Err(NotAsLeft::Replaced(shown.to_path_buf())),
            Ok(now) if now != *left => Err(NotAsLeft::Changed(shown.to_path_buf())),
            Ok(_) => Ok(()),
        }
    }
}

/// The permissions of a file PROTEST makes: read and write for its owner, read for others
/// (`0644`), less whatever the umask takes away.
pub const NEW_FILE_MODE: u32 = 0o644;

/// The operating system's file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct Os;

/// The real disk, shared.
pub fn os() -> Arc<dyn Disk> {
    Arc::new(Os)
}

impl Disk for Os {
    fn create(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        let mut options = OpenOptions::new();
        // Never through a link: `create_new` fails on anything already there, a link included.
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            // Never writable by others, whatever the umask (it may only take more away): a file
            // that replaces another takes that one's permissions (`atomic`).
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(NEW_FILE_MODE);
        }
        let file = options.open(path)?;
        // Held while the file is open: whoever removes the temporary files a crash left behind
        // leaves alone one that a live process is still writing (`atomic::remove_leftovers`).
        let _ = file.try_lock();
        Ok(Box::new(OsFile(file)))
    }

    fn append(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        // Only the journal is appended to: never through a link planted in its place.
        let file = files::open_beside(OpenOptions::new().append(true), path)?;
        Ok(Box::new(OsFile(file)))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn link(&self, from: &Path, to: &Path) -> io::Result<()> {
        match fs::hard_link(from, to) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
                // Some file systems (FAT, some network shares) have no links.
                let mut copy = OpenOptions::new().write(true).create_new(true).open(to)?;
                let copied = io::copy(&mut File::open(from)?, &mut copy).and_then(|_| copy.sync_all());
                if copied.is_err() {
                    let _ = fs::remove_file(to);
                }
                copied
            }
            linked => linked,
        }
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        // Not every platform can open a folder; the rename is atomic there all the same.
        match File::open(dir) {
            Ok(d) => d.sync_all(),
            Err(_) => Ok(()),
        }
    }

    fn to_shared(&self) -> Arc<dyn Disk> {
        Arc::new(Os)
    }
}

#[derive(Debug)]
struct OsFile(File);

impl Write for OsFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl DiskFile for OsFile {
    fn sync(&mut self) -> io::Result<()> {
        self.0.sync_all()
    }

    fn truncate(&mut self, len: u64) -> io::Result<()> {
        self.0.set_len(len)
    }

    fn set_permissions(&mut self, permissions: Permissions) -> io::Result<()> {
        self.0.set_permissions(permissions)
    }

    fn identity(&self) -> io::Result<Identity> {
        self.0.metadata().map(|m| Identity::of_metadata(&m))
    }
}

/// Kinds of operation a [`Faulty`] disk counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Create,
    Write,
    Sync,
    Truncate,
    SetPermissions,
    Rename,
    Remove,
    Link,
    SyncDir,
    CreateDir,
}

/// When a [`Faulty`] disk fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Never: only count the operations.
    None,
    /// The operation with this number (from 0) fails, as that kind of operation fails: a write
    /// with "no space left" after writing half its bytes, an `fsync` with an I/O error, a rename
    /// or a removal with an I/O error. Every other operation succeeds.
    Once(usize),
    /// From the operation with this number on, the disk is full: every write (and every file
    /// creation) fails with "no space left"; renames, removals and `fsync` still work.
    FullFrom(usize),
    /// From the operation with this number on, every operation fails (a disk that went away).
    From(usize),
    /// The operation with this number (from 0) reports success but is not done, as a lying
    /// file system does it: a rename renames nothing, a write writes half its bytes (a short
    /// write reported whole), an `fsync`, a truncation, a removal, a link or a folder's sync does
    /// nothing. A file is still created when asked (that lie would show at once). Every other
    /// operation is done.
    Lie(usize),
    /// Every operation of this kind lies, as in [`Fault::Lie`]: a file system whose renames,
    /// writes or `fsync` lie (what an `LD_PRELOAD` shim does to a real program).
    Lies(Op),
}

/// What a [`Faulty`] disk does with an operation.
enum Outcome {
    Done,
    Fails(io::Error),
    Lies,
}

/// A disk for tests that fails where it is told to, and counts what is done on it. Clones share
/// the count: keep one to look at while the store writes through another.
#[derive(Debug, Clone)]
pub struct Faulty {
    state: Arc<Mutex<FaultState>>,
}

#[derive(Debug)]
struct FaultState {
    fault: Fault,
    ops: Vec<(Op, PathBuf)>,
    failed: Option<(Op, PathBuf)>,
}

impl Faulty {
    pub fn new(fault: Fault) -> Faulty {
        Faulty { state: Arc::new(Mutex::new(FaultState { fault, ops: Vec::new(), failed: None })) }
    }

    /// This disk, for a store or a workflow to write through.
    pub fn shared(&self) -> Arc<dyn Disk> {
        Arc::new(self.clone())
    }

    /// Changes when it fails, and counts afresh from 0.
    pub fn set(&self, fault: Fault) {
        let mut state = self.lock();
        *state = FaultState { fault, ops: Vec::new(), failed: None };
    }

    /// The operations done (or attempted) since the last [`Faulty::set`], with their files.
    pub fn ops(&self) -> Vec<(Op, PathBuf)> {
        self.lock().ops.clone()
    }

    /// The operation that was made to fail, if one was.
    pub fn failed(&self) -> Option<(Op, PathBuf)> {
        self.lock().failed.clone()
    }

    fn lock(&self) -> MutexGuard<'_, FaultState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Counts an operation; whether it is done, fails (with what error) or lies.
    fn check(&self, op: Op, path: &Path) -> Outcome {
        let mut state = self.lock();
        let n = state.ops.len();
        state.ops.push((op, path.to_path_buf()));
        let fails = match state.fault {
            Fault::None => false,
            Fault::Once(k) => n == k,
            Fault::FullFrom(k) => n >= k && matches!(op, Op::Create | Op::Write),
            Fault::From(k) => n >= k,
            Fault::Lie(k) if n == k && op != Op::Create => {
                state.failed = Some((op, path.to_path_buf()));
                return Outcome::Lies;
            }
            Fault::Lies(kind) if kind == op && op != Op::Create => {
                state.failed = Some((op, path.to_path_buf()));
                return Outcome::Lies;
            }
            Fault::Lie(_) | Fault::Lies(_) => false,
        };
        if !fails {
            return Outcome::Done;
        }
        state.failed = Some((op, path.to_path_buf()));
        Outcome::Fails(os_error(matches!(op, Op::Create | Op::Write)))
    }

    /// Does `op` on `path` unless it must fail or lie (then nothing is done, and a lie says it
    /// was).
    fn run(&self, op: Op, path: &Path, done: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        match self.check(op, path) {
            Outcome::Done => done(),
            Outcome::Fails(e) => Err(e),
            Outcome::Lies => Ok(()),
        }
    }
}

/// The error a full disk (`full`) or a failing device gives, as the system reports it.
fn os_error(full: bool) -> io::Error {
    #[cfg(unix)]
    return io::Error::from_raw_os_error(if full { libc::ENOSPC } else { libc::EIO });
    #[cfg(not(unix))] // the web page (docs/serve.md) has no disk: only its build needs this
    io::Error::from(if full { io::ErrorKind::StorageFull } else { io::ErrorKind::Other })
}

impl Disk for Faulty {
    fn create(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        if let Outcome::Fails(e) = self.check(Op::Create, path) {
            return Err(e);
        }
        let file = Os.create(path)?;
        Ok(Box::new(FaultyFile { disk: self.clone(), path: path.to_path_buf(), file }))
    }

    fn append(&self, path: &Path) -> io::Result<Box<dyn DiskFile>> {
        let file = Os.append(path)?;
        Ok(Box::new(FaultyFile { disk: self.clone(), path: path.to_path_buf(), file }))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.run(Op::Rename, to, || Os.rename(from, to))
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        self.run(Op::Remove, path, || Os.remove(path))
    }

    fn link(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.run(Op::Link, to, || Os.link(from, to))
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.run(Op::SyncDir, dir, || Os.sync_dir(dir))
    }

    fn create_dir(&self, dir: &Path) -> io::Result<()> {
        self.run(Op::CreateDir, dir, || Os.create_dir(dir))
    }

    fn to_shared(&self) -> Arc<dyn Disk> {
        Arc::new(self.clone())
    }
}

#[derive(Debug)]
struct FaultyFile {
    disk: Faulty,
    path: PathBuf,
    file: Box<dyn DiskFile>,
}

impl Write for FaultyFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.disk.check(Op::Write, &self.path) {
            Outcome::Done => self.file.write(buf),
            Outcome::Fails(e) => {
                // A full disk takes what fits, then refuses the rest.
                self.file.write_all(&buf[..buf.len() / 2])?;
                Err(e)
            }
            Outcome::Lies => {
                // Half of it, reported whole.
                self.file.write_all(&buf[..buf.len() / 2])?;
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl DiskFile for FaultyFile {
    fn sync(&mut self) -> io::Result<()> {
        let file = &mut self.file;
        self.disk.run(Op::Sync, &self.path, || file.sync())
    }

    fn truncate(&mut self, len: u64) -> io::Result<()> {
        let file = &mut self.file;
        self.disk.run(Op::Truncate, &self.path, || file.truncate(len))
    }

    fn set_permissions(&mut self, permissions: Permissions) -> io::Result<()> {
        let file = &mut self.file;
        self.disk.run(Op::SetPermissions, &self.path, || file.set_permissions(permissions))
    }

    fn identity(&self) -> io::Result<Identity> {
        self.file.identity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_faulty_disk_fails_the_chosen_operation_only() {
        let dir = tempfile::tempdir().unwrap();
        let disk = Faulty::new(Fault::Once(1));
        let path = dir.path().join("f");
        let mut f = disk.create(&path).unwrap();
        let e = f.write(b"abcd").unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOSPC));
        assert_eq!(fs::read(&path).unwrap(), b"ab", "half of it was written");
        f.write_all(b"ef").unwrap();
        assert_eq!(disk.failed(), Some((Op::Write, path.clone())));
        assert_eq!(disk.ops().len(), 3);

        disk.set(Fault::FullFrom(0));
        let mut f = disk.append(&path).unwrap();
        assert!(f.write(b"x").is_err() && f.write(b"y").is_err());
        f.sync().unwrap();
        disk.rename(&path, &dir.path().join("g")).unwrap();
    }

    #[test]
    fn a_lying_disk_reports_success_and_does_not_do_it() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let disk = Faulty::new(Fault::Lie(1));
        let mut f = disk.create(&a).unwrap();
        assert_eq!(f.write(b"abcd").unwrap(), 4, "reported whole");
        assert_eq!(fs::read(&a).unwrap(), b"ab", "written short");
        assert_eq!(disk.failed(), Some((Op::Write, a.clone())));
        disk.set(Fault::Lies(Op::Rename));
        disk.rename(&a, &b).unwrap();
        assert!(a.exists() && !b.exists(), "nothing renamed");
        f.write_all(b"ef").unwrap();
        assert_eq!(fs::read(&a).unwrap(), b"abef", "other kinds are done");
        disk.set(Fault::Lie(0));
        f.truncate(0).unwrap();
        assert_eq!(fs::read(&a).unwrap(), b"abef", "nor cut");
    }
}
