//! The receipts of `protest serve` (`MASTER.json.receipts`, docs/serve.md): the id of every
//! change a page sent that is stored in the master, one line each, flushed to disk before the
//! page is told. A change sent again — its answer was lost, the server restarted, a second tab
//! or a page opened again sends what it kept — is found here and taken once.
//!
//! Format: a header line `{"receipts":"protest-receipts","version":1,"master":"ID"}`, then one
//! `{"annotator":N,"change":"ID"}` per change. A last line without its newline (a crash while it
//! was written) is dropped: its change was not acknowledged, so the page sends it again.
//!
//! They are kept small: each annotator's newest [`KEEP`] receipts are what a page can still
//! send again, and the file is rewritten with only those (atomically, read back) when it is
//! opened and whenever it has grown to twice what it keeps, so it grows with the annotators,
//! not with every change ever made. A damaged line (not only the last) does not stop the
//! server: the receipts it can read are kept — each was written only once its change was in the
//! journal, so each is true — and the damaged lines are set aside beside the file, with a note.

use super::protocol::ChangeId;
use crate::error::{Error, Result};
use crate::model::AnnotatorId;
use crate::store::disk::{Disk, DiskFile};
use crate::store::{atomic, files, journal};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const FORMAT: &str = "protest-receipts";
const VERSION: u32 = 1;

/// How many receipts are kept for each annotator, newest first: a page sends again only changes
/// whose answer it did not get, and a change older than an annotator's last 10,000 has long
/// had its answer (or, with a page closed that long, meets a record changed since).
pub const KEEP: usize = 10_000;

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    receipts: String,
    version: u32,
    master: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct Line {
    annotator: AnnotatorId,
    change: ChangeId,
}

/// The receipts path for a master file.
pub fn path_for(master: &Path) -> PathBuf {
    let mut name = master.as_os_str().to_owned();
    name.push(".receipts");
    PathBuf::from(name)
}

/// The changes received so far, and the file to add to.
#[derive(Debug)]
pub struct Receipts {
    disk: Arc<dyn Disk>,
    master: PathBuf,
    master_id: String,
    path: PathBuf,
    file: Box<dyn DiskFile>,
    /// The length of the file up to its last whole line: a failed write is cut back to it.
    bytes: u64,
    /// Receipt lines in the file.
    lines: usize,
    kept: KeptReceipts,
    /// What opening found and did about it, to tell the user.
    note: Option<String>,
}

/// The receipts kept: each annotator's newest [`KEEP`].
#[derive(Debug, Default)]
struct KeptReceipts {
    seen: HashSet<(AnnotatorId, ChangeId)>,
    /// Each annotator's receipts, oldest first: which go first.
    order: HashMap<AnnotatorId, VecDeque<ChangeId>>,
}

impl KeptReceipts {
    fn add(&mut self, annotator: AnnotatorId, change: ChangeId) {
        if !self.seen.insert((annotator, change.clone())) {
            return;
        }
        let theirs = self.order.entry(annotator).or_default();
        theirs.push_back(change);
        if theirs.len() > KEEP
            && let Some(oldest) = theirs.pop_front()
        {
            self.seen.remove(&(annotator, oldest));
        }
    }

    /// Every receipt kept, each annotator's oldest first.
    fn all(&self) -> Vec<(AnnotatorId, ChangeId)> {
        let mut annotators: Vec<&AnnotatorId> = self.order.keys().collect();
        annotators.sort();
        annotators.into_iter().flat_map(|a| self.order[a].iter().map(|id| (*a, id.clone()))).collect()
    }
}

impl Receipts {
    /// Opens the receipts of the master at `master` (with id `master_id`), making them if there
    /// are none, and compacts them. The caller holds the master's lock.
    pub fn open(disk: &dyn Disk, master: &Path, master_id: &str) -> Result<Receipts> {
        let path = path_for(master);
        let (read, note) = match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Read::default(), None),
            Err(e) => return Err(Error::io(&path, e)),
            Ok(meta) if !meta.is_file() => {
                return Err(Error::whole_file(&path, "is not a plain file (a link, a folder…); move it away"));
            }
            Ok(_) => {
                let read = read(&path, master_id)?;
                let note = match read.damaged.is_empty() {
                    true => None,
                    false => Some(set_aside(disk, master, &path, &read)?),
                };
                (read, note)
            }
        };
        let mut kept = KeptReceipts::default();
        for (annotator, change) in read.lines {
            kept.add(annotator, change);
        }
        let all = kept.all();
        let (file, bytes) = rewrite(disk, master, &path, master_id, &all)?;
        Ok(Receipts {
            disk: disk.to_shared(),
            master: master.to_path_buf(),
            master_id: master_id.to_owned(),
            path,
            file,
            bytes,
            lines: all.len(),
            kept,
            note,
        })
    }

    /// What opening found, for the user: damaged lines set aside.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Whether `annotator`'s change `id` was stored before.
    pub fn has(&self, annotator: AnnotatorId, id: &ChangeId) -> bool {
        self.kept.seen.contains(&(annotator, id.clone()))
    }

    /// Notes that `annotator`'s change `id` is stored: on disk when this returns Ok.
    pub fn add(&mut self, annotator: AnnotatorId, id: &ChangeId) -> Result<()> {
        self.add_all(&[(annotator, id.clone())])
    }

    /// Notes several stored changes with one flush to disk.
    pub fn add_all(&mut self, taken: &[(AnnotatorId, ChangeId)]) -> Result<()> {
        let mut lines = Vec::new();
        for (annotator, change) in taken {
            serde_json::to_writer(&mut lines, &Line { annotator: *annotator, change: change.clone() })
                .map_err(|e| Error::io(&self.path, std::io::Error::other(e)))?;
            lines.push(b'\n');
        }
        let expected = self.bytes + lines.len() as u64;
        let file = &mut self.file;
        let written =
            file.write_all(&lines).and_then(|()| file.sync()).and_then(|()| journal::appended(&**file, expected));
        if let Err(e) = written {
            // Whatever part reached the disk goes again; if even that fails, the next opening
            // drops a last line cut short.
            let _ = file.truncate(self.bytes).and_then(|()| file.sync());
            return Err(Error::io(&self.path, e));
        }
        self.bytes = expected;
        self.lines += taken.len();
        for (annotator, change) in taken {
            self.kept.add(*annotator, change.clone());
        }
        if self.lines >= 2 * self.kept.seen.len().max(KEEP) {
            // The receipts are saved already; a compaction that fails is tried again later.
            let _ = self.compact();
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.kept.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.seen.is_empty()
    }

    /// Rewrites the file with the receipts kept, atomically, and appends to it from then on. On
    /// failure the file stays as it was.
    fn compact(&mut self) -> Result<()> {
        let all = self.kept.all();
        let (file, bytes) = rewrite(&*self.disk, &self.master, &self.path, &self.master_id, &all)?;
        (self.file, self.bytes, self.lines) = (file, bytes, all.len());
        Ok(())
    }
}

/// Writes the receipts file at `path` anew with `kept` (atomically, read back, with the
/// master's permissions, never writable by others) and opens it to append to; with its length.
fn rewrite(
    disk: &dyn Disk,
    master: &Path,
    path: &Path,
    master_id: &str,
    kept: &[(AnnotatorId, ChangeId)],
) -> Result<(Box<dyn DiskFile>, u64)> {
    let io = |e: serde_json::Error| Error::io(path, std::io::Error::other(e));
    let header = Header { receipts: FORMAT.into(), version: VERSION, master: master_id.into() };
    let mut bytes = serde_json::to_vec(&header).map_err(io)?;
    bytes.push(b'\n');
    for (annotator, change) in kept {
        serde_json::to_writer(&mut bytes, &Line { annotator: *annotator, change: change.clone() }).map_err(io)?;
        bytes.push(b'\n');
    }
    atomic::write_beside(disk, path, master, |w| w.write_all(&bytes))?;
    let file = disk.append(path).map_err(|e| Error::io(path, e))?;
    Ok((file, bytes.len() as u64))
}

/// What a receipts file holds.
#[derive(Debug, Default)]
struct Read {
    /// Every receipt that could be read, oldest first.
    lines: Vec<(AnnotatorId, ChangeId)>,
    /// The lines that could not (numbers from 1, and the bytes).
    damaged: Vec<(usize, Vec<u8>)>,
    /// What is wrong with the first of them.
    problem: String,
}

/// The receipts in the file at `path`, checked to be `master_id`'s. A last line without its
/// newline was cut short by a crash (its change was never acknowledged) and is dropped; any
/// other line that is not a receipt is kept apart ([`Read::damaged`]).
fn read(path: &Path, master_id: &str) -> Result<Read> {
    let bytes = files::read_beside(path).map_err(|e| Error::io(path, e))?.unwrap_or_default();
    let mut read = Read::default();
    let mut lines = bytes.split_inclusive(|&b| b == b'\n').enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let last = lines.peek().is_none();
        if last && !line.ends_with(b"\n") {
            break; // cut short by a crash: that change was never acknowledged
        }
        if i == 0 {
            check_header(path, line, master_id)?;
            continue;
        }
        match serde_json::from_slice::<Line>(line) {
            Ok(line) => read.lines.push((line.annotator, line.change)),
            Err(e) => {
                if read.damaged.is_empty() {
                    read.problem = e.to_string();
                }
                read.damaged.push((i + 1, line.to_vec()));
            }
        }
    }
    Ok(read)
}

/// Refuses receipts that are not PROTEST's of a version this build reads, or another master's.
fn check_header(path: &Path, line: &[u8], master_id: &str) -> Result<()> {
    let header: Header =
        serde_json::from_slice(line).map_err(|e| Error::at_line(path, 1, format!("not a receipts line ({e})")))?;
    if header.receipts != FORMAT || header.version != VERSION {
        return Err(Error::at_line(
            path,
            1,
            format!("unsupported receipts '{}' version {}", header.receipts, header.version),
        ));
    }
    if header.master != master_id {
        return Err(Error::whole_file(
            path,
            format!("these receipts belong to another master (id {}, not {master_id}); move them away", header.master),
        ));
    }
    Ok(())
}

/// Keeps the damaged lines of the receipts at `path` byte for byte in a file of their own beside
/// them (`MASTER.json.receipts.damaged-CRC`), and says so.
fn set_aside(disk: &dyn Disk, master: &Path, path: &Path, read: &Read) -> Result<String> {
    let bytes: Vec<u8> = read.damaged.iter().flat_map(|(_, line)| line.iter().copied()).collect();
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".damaged-{:08x}", crc32fast::hash(&bytes)));
    let aside = PathBuf::from(aside);
    if files::read_beside(&aside).ok().flatten().as_deref() != Some(&bytes[..]) {
        atomic::write_beside(disk, &aside, master, |w| w.write_all(&bytes))?;
    }
    let lines: Vec<String> = read.damaged.iter().map(|(n, _)| n.to_string()).collect();
    Ok(format!(
        "{}: line{} {} could not be read ({}) and {} set aside in {}; the {} receipts that could be read are kept (a change whose receipt was on a damaged line is taken again if its page sends it again, with the same content)",
        path.display(),
        if lines.len() == 1 { "" } else { "s" },
        lines.join(", "),
        read.problem,
        if lines.len() == 1 { "was" } else { "were" },
        aside.display(),
        read.lines.len(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::disk::{self, Fault, Faulty};
    use rand::SeedableRng;

    #[test]
    fn receipts_are_kept_across_openings_and_a_torn_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let master = dir.path().join("m.master.json");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (a, b) = (ChangeId::random(&mut rng), ChangeId::random(&mut rng));
        let mut r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        assert!(r.is_empty());
        r.add(AnnotatorId(1), &a).unwrap();
        assert!(r.has(AnnotatorId(1), &a));
        assert!(!r.has(AnnotatorId(2), &a), "another annotator's change of the same id is another change");
        drop(r);
        // A crash in the middle of the next line.
        let mut f = std::fs::OpenOptions::new().append(true).open(path_for(&master)).unwrap();
        f.write_all(format!(r#"{{"annotator":1,"change":"{b}"#).as_bytes()).unwrap();
        let mut r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        assert!(r.has(AnnotatorId(1), &a));
        assert!(!r.has(AnnotatorId(1), &b));
        assert_eq!(r.len(), 1);
        // The torn line is cut away before the next is added.
        r.add(AnnotatorId(1), &b).unwrap();
        let r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        assert!(r.has(AnnotatorId(1), &a) && r.has(AnnotatorId(1), &b));
    }

    #[test]
    fn receipts_of_another_master_or_a_link_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let master = dir.path().join("m.master.json");
        Receipts::open(&disk::Os, &master, "m1").unwrap();
        let e = Receipts::open(&disk::Os, &master, "m2").unwrap_err().to_string();
        assert!(e.contains("belong to another master (id m1, not m2)"), "{e}");
        let other = dir.path().join("o.master.json");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(path_for(&master), path_for(&other)).unwrap();
            let e = Receipts::open(&disk::Os, &other, "m1").unwrap_err().to_string();
            assert!(e.contains("is not a plain file"), "{e}");
        }
    }

    /// A folder with a master file (its content is not read) to keep receipts beside.
    fn beside_a_master() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let master = dir.path().join("m.master.json");
        std::fs::write(&master, "{}").unwrap();
        (dir, master)
    }

    #[test]
    fn a_damaged_line_in_the_middle_keeps_every_receipt_that_reads_and_sets_it_aside() {
        let (dir, master) = beside_a_master();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let ids: Vec<ChangeId> = (0..3).map(|_| ChangeId::random(&mut rng)).collect();
        let mut r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        r.add(AnnotatorId(1), &ids[0]).unwrap();
        drop(r);
        let damaged = format!("{{\"annotator\":1,\"chan{{\"annotator\":1,\"change\":\"{}\"}}\n", ids[1]);
        let after = format!("{{\"annotator\":2,\"change\":\"{}\"}}\n", ids[2]);
        let mut f = std::fs::OpenOptions::new().append(true).open(path_for(&master)).unwrap();
        f.write_all(format!("{damaged}{after}").as_bytes()).unwrap();
        let r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        assert!(r.has(AnnotatorId(1), &ids[0]) && r.has(AnnotatorId(2), &ids[2]), "before and after the damage");
        assert!(!r.has(AnnotatorId(1), &ids[1]));
        let note = r.note().unwrap();
        assert!(
            note.contains("m.master.json.receipts: line 3 could not be read (")
                && note.contains("the 2 receipts that could be read are kept"),
            "{note}"
        );
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".receipts.damaged-"))
            .collect();
        assert_eq!(aside.len(), 1);
        assert!(note.contains(&aside[0].display().to_string()), "{note}");
        assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), damaged, "byte for byte");
        // The file was rewritten without it: opened again, nothing more to say.
        drop(r);
        let r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        assert_eq!((r.len(), r.note()), (2, None));
    }

    #[test]
    fn receipts_keep_each_annotators_newest_and_stay_small() {
        let (_dir, master) = beside_a_master();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        let bens = ChangeId::random(&mut rng);
        r.add(AnnotatorId(2), &bens).unwrap();
        // One link hammering: far more changes than are kept.
        let annas: Vec<ChangeId> = (0..3 * KEEP).map(|_| ChangeId::random(&mut rng)).collect();
        let mut largest = 0;
        for chunk in annas.chunks(50) {
            let taken: Vec<_> = chunk.iter().map(|id| (AnnotatorId(1), id.clone())).collect();
            r.add_all(&taken).unwrap();
            largest = largest.max(std::fs::metadata(path_for(&master)).unwrap().len());
        }
        assert_eq!(r.len(), KEEP + 1);
        assert!(r.has(AnnotatorId(2), &bens), "another annotator's are kept");
        assert!(r.has(AnnotatorId(1), &annas[3 * KEEP - 1]) && r.has(AnnotatorId(1), &annas[2 * KEEP]));
        assert!(!r.has(AnnotatorId(1), &annas[2 * KEEP - 1]), "the oldest went");
        // About 60 bytes a line: never much more than twice what is kept.
        assert!(largest < 2 * 62 * (KEEP as u64 + 1) + 200, "{largest} bytes");
        drop(r);
        let r = Receipts::open(&disk::Os, &master, "m1").unwrap();
        assert_eq!(r.len(), KEEP + 1);
        let lines = std::fs::read_to_string(path_for(&master)).unwrap().lines().count();
        assert_eq!(lines, 1 + KEEP + 1, "compacted when opened");
    }

    #[test]
    fn a_receipt_written_short_is_not_counted_and_cut_back() {
        let (_dir, master) = beside_a_master();
        let faulty = Faulty::new(Fault::None);
        let mut r = Receipts::open(&faulty, &master, "m1").unwrap();
        let before = std::fs::read(path_for(&master)).unwrap();
        faulty.set(Fault::Lies(crate::store::disk::Op::Write));
        let id = ChangeId::random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1));
        let e = r.add(AnnotatorId(1), &id).unwrap_err().to_string();
        assert!(e.contains("did not store what it reported"), "{e}");
        assert!(!r.has(AnnotatorId(1), &id));
        assert_eq!(std::fs::read(path_for(&master)).unwrap(), before);
        faulty.set(Fault::None);
        r.add(AnnotatorId(1), &id).unwrap();
        assert!(Receipts::open(&disk::Os, &master, "m1").unwrap().has(AnnotatorId(1), &id));
    }

    #[test]
    fn a_receipt_that_cannot_be_written_is_not_counted() {
        let dir = tempfile::tempdir().unwrap();
        let master = dir.path().join("m.master.json");
        let faulty = Faulty::new(Fault::None);
        let mut r = Receipts::open(&faulty, &master, "m1").unwrap();
        faulty.set(Fault::From(0));
        let id = ChangeId::random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1));
        assert!(r.add(AnnotatorId(1), &id).is_err());
        assert!(!r.has(AnnotatorId(1), &id));
    }
}
