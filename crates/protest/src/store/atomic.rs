//! Atomic file replacement: write a temporary file in the same folder, flush it to disk, read it
//! back and compare it with what was written (length and CRC-32), rename it over the target, and
//! check that the target is now that file (device, inode and size). A crash or a full disk at any
//! moment leaves either the old file or the new one, never a torn mixture; a file system that
//! reports a write or a rename it did not do is caught, and the old file stays. [`Outputs`] does
//! the same for several files at once: all of them or none.
//!
//! Every write goes through a [`Disk`], the seam where tests inject failures.

use crate::error::{Error, Result};
use crate::store::disk::{Disk, DiskFile, Identity};
use crate::store::files;
use rand::Rng;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Big enough that a large master is written in few system calls.
const BUFFER: usize = 1 << 16;

/// Replaces `path` with what `write` produces and returns the new file's identity. On any
/// failure the old file is untouched and the temporary file is removed. The new file keeps the
/// permissions of the one it replaces.
pub fn write_with(
    disk: &dyn Disk,
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Identity> {
    let permissions = fs::metadata(path).ok().map(|m| m.permissions());
    replace(disk, path, permissions, write)
}

/// [`write_with`] for a file PROTEST keeps beside a master or batch `of` (its journal…): its
/// permissions are the file's, never writable by others ([`files::beside_permissions`]).
pub fn write_beside(
    disk: &dyn Disk,
    path: &Path,
    of: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Identity> {
    replace(disk, path, files::beside_permissions(of), write)
}

fn replace(
    disk: &dyn Disk,
    path: &Path,
    permissions: Option<fs::Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Identity> {
    refuse_link(path)?;
    let (temp, mut file) = create_temp(disk, path).map_err(|e| Error::io(path, e))?;
    let written = fill(&mut *file, &temp, permissions, write).and_then(|()| file.identity());
    let identity = match written {
        Ok(identity) => identity,
        Err(e) => {
            drop(file);
            let _ = disk.remove(&temp);
            return Err(Error::io(path, e));
        }
    };
    // Renamed while still open (and so still marked as ours, see `remove_leftovers`).
    if let Err(e) = disk.rename(&temp, path).and_then(|()| renamed(&temp, path, &identity)) {
        drop(file);
        let _ = remove_if_there(disk, &temp, &identity);
        return Err(Error::io(path, e));
    }
    drop(file);
    // Only the durability of the rename is at stake here: the file is in place either way.
    let _ = disk.sync_dir(&folder(path));
    Ok(identity)
}

/// Checks that the file at `target` is the one just renamed there (`written`: device, inode and
/// size), so that a rename the system reported but did not do is caught before anything relies
/// on it (a journal folded in is removed next).
fn renamed(temp: &Path, target: &Path, written: &Identity) -> io::Result<()> {
    match Identity::of_path(target) {
        Ok(now) if now.same_file(written) && now.len() == written.len() => Ok(()),
        now => {
            let what = match now {
                Ok(now) if now.same_file(written) => format!("it holds {} bytes, not {}", now.len(), written.len()),
                _ if !temp.exists() => "another file is there".to_owned(),
                Ok(_) => format!("it is still the file it was, and {} is still there", temp.display()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => format!("it is not there, and {} is", temp.display()),
                Err(e) => format!("it cannot be looked at ({e})"),
            };
            Err(io::Error::other(format!(
                "the system reported the new file renamed into place, but it was not ({what}); the disk or file system does not do what it reports"
            )))
        }
    }
}

/// Removes the temporary file `temp` if it is still there and still the one written
/// (`written`), after its rename failed or was not done.
fn remove_if_there(disk: &dyn Disk, temp: &Path, written: &Identity) -> io::Result<()> {
    match Identity::of_path(temp) {
        Ok(now) if now.same_file(written) => disk.remove(temp),
        _ => Ok(()),
    }
}

/// Nothing is written through a symbolic link: a master opened through one is saved under its
/// resolved path (`store::files::resolve`), and a link where an output goes is refused rather
/// than followed to wherever it points.
fn refuse_link(path: &Path) -> Result<()> {
    if files::is_link(path) {
        let to = fs::canonicalize(path).map(|t| format!(" (to {})", t.display())).unwrap_or_default();
        return Err(Error::refused(
            path,
            format!(
                "is a symbolic link{to}; PROTEST does not write through links: name the file itself, or remove the link"
            ),
        ));
    }
    Ok(())
}

/// Replaces `path` with `bytes`.
pub fn write(disk: &dyn Disk, path: &Path, bytes: &[u8]) -> Result<Identity> {
    write_with(disk, path, |w| w.write_all(bytes))
}

/// Writes the temporary file `temp` in full, flushes it to disk with `permissions` (those of the
/// file it will replace, usually), and reads it back: it must hold exactly what was written.
fn fill(
    file: &mut dyn DiskFile,
    temp: &Path,
    permissions: Option<fs::Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let written = {
        // The bytes written advance the work's progress (a whole master saved: `Store::save`).
        let mut summed = Summing::new(&mut *file);
        let mut out = crate::progress::Counting::writing(BufWriter::with_capacity(BUFFER, &mut summed));
        write(&mut out)?;
        out.flush()?;
        drop(out);
        summed.sum()
    };
    if let Some(permissions) = permissions {
        file.set_permissions(permissions)?;
    }
    file.sync()?;
    read_back(temp, written)
}

/// The length and CRC-32 of some bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sum {
    len: u64,
    crc: u32,
}

/// A writer that sums what its file took: the bytes each `write` reported written.
struct Summing<'a> {
    file: &'a mut dyn DiskFile,
    len: u64,
    crc: crc32fast::Hasher,
}

impl<'a> Summing<'a> {
    fn new(file: &'a mut dyn DiskFile) -> Summing<'a> {
        Summing { file, len: 0, crc: crc32fast::Hasher::new() }
    }

    fn sum(&self) -> Sum {
        Sum { len: self.len, crc: self.crc.clone().finalize() }
    }
}

impl Write for Summing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.len += n as u64;
        self.crc.update(&buf[..n.min(buf.len())]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Reads the file at `path` back and compares it with what was `written`: a write the system
/// reported whole but did not do (a short write, a lost page) is caught before the file replaces
/// anything. The file is read as the system has it now (from its cache, usually), so this checks
/// what the system took, not what the medium will keep.
fn read_back(path: &Path, written: Sum) -> io::Result<()> {
    use std::io::Read;
    let mut file = files::open_to_read(path)?;
    let mut crc = crc32fast::Hasher::new();
    let mut len = 0u64;
    let mut buffer = vec![0; BUFFER];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                crc.update(&buffer[..n]);
                len += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let read = Sum { len, crc: crc.finalize() };
    if read == written {
        return Ok(());
    }
    let what = match read.len == written.len {
        true => "does not hold the bytes written".to_owned(),
        false => format!("holds {} bytes, not the {} written", read.len, written.len),
    };
    Err(io::Error::other(format!(
        "the new file, read back before it replaces this one, {what}: the disk or file system did not store what it reported ({})",
        path.display()
    )))
}

/// A new temporary file beside `target`.
fn create_temp(disk: &dyn Disk, target: &Path) -> io::Result<(PathBuf, Box<dyn DiskFile>)> {
    let dir = folder(target);
    let prefix = temp_prefix(target);
    let mut rng = rand::rng();
    let mut attempt = 0;
    loop {
        let random: String = (0..6).map(|_| char::from(rng.sample(rand::distr::Alphanumeric))).collect();
        let temp = dir.join(format!("{prefix}{random}{TEMP_SUFFIX}"));
        match disk.create(&temp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
            Ok(file) => return Ok((temp, file)),
        }
    }
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

/// The temporary files that interrupted replacements of `path` left behind (a crash between
/// creating and renaming them), by their names. `path` is the resolved path of the file.
pub fn leftovers(path: &Path) -> Vec<PathBuf> {
    let prefix = temp_prefix(path);
    let Ok(entries) = fs::read_dir(folder(path)) else { return Vec::new() };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(TEMP_SUFFIX))
                .is_some_and(|random| !random.is_empty() && random.chars().all(|c| c.is_ascii_alphanumeric()))
        })
        .map(|e| e.path())
        .collect()
}

/// Removes the temporary files that interrupted replacements of `path` left behind; returns how
/// many. Only call this while holding the file's lock. A temporary file that a live process
/// still has open (it holds the file's `flock` from its creation, `disk::Os`) is not a leftover
/// and stays, whatever its name; so does anything but a regular file.
pub fn remove_leftovers(path: &Path) -> usize {
    leftovers(path).into_iter().filter(|p| abandoned(p) && fs::remove_file(p).is_ok()).count()
}

/// The temporary files of `path` ([`leftovers`]) that no live process holds: what interrupted
/// replacements left. Only call this while holding the file's lock.
pub fn abandoned_leftovers(path: &Path) -> Vec<PathBuf> {
    leftovers(path).into_iter().filter(|p| abandoned(p)).collect()
}

/// Removes one of [`abandoned_leftovers`].
pub fn remove_abandoned(path: &Path) {
    let _ = fs::remove_file(path);
}

/// Renames the complete file `from` over `to` and checks that it took (the file at `to` is
/// `from`'s, device, inode and size).
pub fn put_in_place(disk: &dyn Disk, from: &Path, to: &Path) -> io::Result<()> {
    let identity = Identity::of_path(from)?;
    disk.rename(from, to).and_then(|()| renamed(from, to, &identity))?;
    let _ = disk.sync_dir(&folder(to));
    Ok(())
}

/// Whether nobody holds the temporary file at `path` open: it can be locked now.
fn abandoned(path: &Path) -> bool {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    match files::open_beside(&mut options, path) {
        Ok(file) => file.try_lock().is_ok(),
        Err(_) => false,
    }
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

/// Files an operation writes together (the batches of an export, a metric's score and detail):
/// all of them are written, or none. Each is written in full under a temporary name beside its
/// target as it is added; [`Outputs::publish`] renames them all into place. Dropped unpublished,
/// the temporary files are removed.
#[derive(Debug)]
pub struct Outputs<'a> {
    disk: &'a dyn Disk,
    staged: Vec<Staged>,
}

/// A file written in full under a temporary name, still open (and so marked as a live process's,
/// see [`remove_leftovers`]) until it is renamed into place.
#[derive(Debug)]
struct Staged {
    target: PathBuf,
    temp: PathBuf,
    file: Box<dyn DiskFile>,
    /// The file as written, to check that its rename took.
    identity: Identity,
}

impl<'a> Outputs<'a> {
    pub fn new(disk: &'a dyn Disk) -> Outputs<'a> {
        Outputs { disk, staged: Vec::new() }
    }

    /// Writes a file with what `write` produces under a temporary name and flushes it to disk;
    /// its target is not touched until [`Outputs::publish`].
    pub fn add(&mut self, path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
        refuse_link(path)?;
        let (temp, mut file) = create_temp(self.disk, path).map_err(|e| Error::io(path, e))?;
        let permissions = fs::metadata(path).ok().map(|m| m.permissions());
        match fill(&mut *file, &temp, permissions, write).and_then(|()| file.identity()) {
            Ok(identity) => {
                self.staged.push(Staged { target: path.to_path_buf(), temp, file, identity });
                Ok(())
            }
            Err(e) => {
                drop(file);
                let _ = self.disk.remove(&temp);
                Err(Error::io(path, e))
            }
        }
    }

    /// Renames every file into place, keeping each file they replace under a temporary name
    /// until [`Published::keep`]. On failure nothing is left: the temporary files are removed and
    /// the files already replaced are put back.
    pub fn publish(mut self) -> Result<Published<'a>> {
        let disk = self.disk;
        let staged = std::mem::take(&mut self.staged);
        let mut published = Published { disk, files: Vec::new(), kept: false };
        let mut rest = staged.into_iter();
        while let Some(Staged { target, temp, file, identity }) = rest.next() {
            let moved = backup(disk, &target).and_then(|backup| {
                match disk.rename(&temp, &target).and_then(|()| renamed(&temp, &target, &identity)) {
                    Ok(()) => Ok(backup),
                    Err(e) => {
                        if let Some(b) = &backup {
                            let _ = disk.remove(b);
                        }
                        Err(e)
                    }
                }
            });
            drop(file);
            match moved {
                Ok(backup) => published.files.push((target, backup)),
                Err(e) => {
                    let _ = remove_if_there(disk, &temp, &identity);
                    self.staged = rest.collect(); // removed when `self` is dropped
                    return Err(Error::io(&target, e)); // dropping `published` puts the others back
                }
            }
        }
        published.sync();
        Ok(published)
    }
}

impl Drop for Outputs<'_> {
    fn drop(&mut self) {
        for staged in self.staged.drain(..) {
            drop(staged.file);
            let _ = self.disk.remove(&staged.temp);
        }
    }
}

/// Keeps the file at `target`, if there is one, under a second, temporary name.
fn backup(disk: &dyn Disk, target: &Path) -> io::Result<Option<PathBuf>> {
    match fs::symlink_metadata(target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
        Ok(meta) if !meta.is_file() => {
            return Err(io::Error::other("something other than a file is in the way"));
        }
        Ok(_) => {}
    }
    let prefix = temp_prefix(target);
    let mut rng = rand::rng();
    for _ in 0..100 {
        let random: String = (0..6).map(|_| char::from(rng.sample(rand::distr::Alphanumeric))).collect();
        let backup = folder(target).join(format!("{prefix}{random}{TEMP_SUFFIX}"));
        match disk.link(target, &backup) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
            // The copy is what puts the file back if a later one fails: it must be there.
            Ok(()) => match (fs::metadata(target), fs::symlink_metadata(&backup)) {
                (Ok(t), Ok(b)) if b.is_file() && b.len() == t.len() => return Ok(Some(backup)),
                _ => {
                    return Err(io::Error::other(format!(
                        "the system reported a copy of it made as {}, but there is none; the disk or file system does not do what it reports",
                        backup.display()
                    )));
                }
            },
        }
    }
    Err(io::Error::other("no free temporary name"))
}

/// Files that [`Outputs::publish`] put in place. Unless [`Published::keep`] is called, they are
/// taken back when this is dropped: new files removed, replaced files restored.
#[must_use = "published files are taken back unless kept"]
pub struct Published<'a> {
    disk: &'a dyn Disk,
    /// Each target and the temporary name of the file it replaced, if any.
    files: Vec<(PathBuf, Option<PathBuf>)>,
    kept: bool,
}

impl Published<'_> {
    /// The files stay; the ones they replaced are removed.
    pub fn keep(mut self) {
        self.kept = true;
        for (_, backup) in &self.files {
            if let Some(b) = backup {
                // A backup left behind is removed with the other leftovers by the file's next
                // holder; the new file is in place either way.
                let _ = self.disk.remove(b);
            }
        }
    }

    /// Takes the files back (also what dropping does).
    pub fn undo(self) {}

    fn sync(&self) {
        let mut dirs: Vec<PathBuf> = self.files.iter().map(|(t, _)| folder(t)).collect();
        dirs.dedup();
        for d in dirs {
            let _ = self.disk.sync_dir(&d);
        }
    }
}

impl Drop for Published<'_> {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        for (target, backup) in self.files.iter().rev() {
            let _ = match backup {
                Some(b) => self.disk.rename(b, target),
                None => self.disk.remove(target),
            };
        }
        self.sync();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::disk::{Fault, Faulty, Os};

    #[test]
    fn the_bytes_written_advance_the_work() {
        use crate::progress::{Seen, Shared, reporting, stage_bytes};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.master.json");
        let shared = std::sync::Arc::new(Shared::default());
        reporting(shared.clone(), || {
            stage_bytes("Saving", 1000);
            write(&Os, &path, &[b'y'; 990]).unwrap()
        });
        assert_eq!(shared.seen(), Seen { stage: "Saving".into(), steps: Some(1000), done: 990, bytes: true });
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        fs::write(&path, "old").unwrap();
        write(&Os, &path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// What reading a save back costs: `cargo test --release -p protest --lib read_back_speed --
    /// --ignored --nocapture` (docs/performance.md). 266 MB, the size of a 100× master.
    #[test]
    #[ignore = "a measurement, not a test"]
    fn read_back_speed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.master.json");
        let bytes: Vec<u8> = (0..266u32 << 20).map(|i| b"{\"records\":[1,2]}\n"[i as usize % 18]).collect();
        let sum = Sum { len: bytes.len() as u64, crc: crc32fast::hash(&bytes) };
        let mut times = Vec::new();
        for _ in 0..5 {
            let started = std::time::Instant::now();
            write(&Os, &path, &bytes).unwrap();
            let saved = started.elapsed();
            let started = std::time::Instant::now();
            read_back(&path, sum).unwrap();
            times.push((saved, started.elapsed()));
        }
        times.sort();
        let (saved, read) = times[times.len() / 2];
        eprintln!("266 MB: saved in {saved:.2?} (read back included), reading it back alone {read:.2?}");
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
        let err = write_with(&Os, &path, |w| {
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
        write(&Os, &path, b"x").unwrap();
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
        write(&Os, &path, b"new").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o644);
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn outputs_are_all_written_or_none_whatever_fails() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        fs::write(&b, "old b").unwrap();
        let outputs = |disk: &Faulty| -> Result<()> {
            let mut o = Outputs::new(disk);
            o.add(&a, |w| w.write_all(b"new a"))?;
            o.add(&b, |w| w.write_all(b"new b"))?;
            o.publish()?.keep();
            Ok(())
        };
        let faulty = Faulty::new(Fault::None);
        outputs(&faulty).unwrap();
        let ops = faulty.ops().len();
        assert!(ops > 8, "{:?}", faulty.ops());
        assert_eq!(
            (fs::read_to_string(&a).unwrap(), fs::read_to_string(&b).unwrap()),
            ("new a".into(), "new b".into())
        );
        for full in [false, true] {
            for k in 0..ops {
                fs::remove_file(&a).unwrap();
                fs::write(&b, "old b").unwrap();
                faulty.set(if full { Fault::FullFrom(k) } else { Fault::Once(k) });
                match outputs(&faulty) {
                    Ok(()) => {
                        // Only the removal of the replaced file's copy, after the fact, may fail.
                        remove_leftovers(&b);
                        assert_eq!(fs::read_to_string(&a).unwrap(), "new a");
                        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
                    }
                    Err(e) => {
                        assert!(e.to_string().contains(".txt"), "{e}");
                        assert!(!a.exists(), "fault at {k} ({:?})", faulty.failed());
                        assert_eq!(fs::read_to_string(&b).unwrap(), "old b", "fault at {k} ({:?})", faulty.failed());
                    }
                }
                assert_eq!(
                    names(dir.path()),
                    ["a.txt", "b.txt"]
                        .iter()
                        .filter(|n| dir.path().join(n).exists())
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                );
                fs::write(&a, "").unwrap();
            }
        }
    }

    #[test]
    fn published_outputs_are_taken_back_unless_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        fs::write(&b, "old b").unwrap();
        let mut o = Outputs::new(&Os);
        o.add(&a, |w| w.write_all(b"new a")).unwrap();
        o.add(&b, |w| w.write_all(b"new b")).unwrap();
        let published = o.publish().unwrap();
        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
        published.undo();
        assert_eq!(names(dir.path()), ["b.txt"]);
        assert_eq!(fs::read_to_string(&b).unwrap(), "old b");
    }

    #[test]
    fn an_output_into_a_missing_folder_or_onto_a_folder_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("taken")).unwrap();
        for second in [dir.path().join("missing/b.txt"), dir.path().join("taken")] {
            let mut o = Outputs::new(&Os);
            o.add(&dir.path().join("a.txt"), |w| w.write_all(b"a")).unwrap();
            let e = o.add(&second, |w| w.write_all(b"b")).and_then(|()| o.publish().map(Published::keep));
            let e = e.unwrap_err().to_string();
            assert!(e.contains(&second.display().to_string()), "{e}");
            assert_eq!(names(dir.path()), ["taken"]);
        }
    }
}
