//! The receipts of `protest serve` (`MASTER.json.receipts`, docs/serve.md): the id of every
//! change a page sent that is stored in the master, one line each, flushed to disk before the
//! page is told. A change sent again — its answer was lost, the server restarted, a second tab
//! or a page opened again sends what it kept — is found here and taken once.
//!
//! Format: a header line `{"receipts":"protest-receipts","version":1,"master":"ID"}`, then one
//! `{"annotator":N,"change":"ID"}` per change. A last line without its newline (a crash while it
//! was written) is dropped: its change was not acknowledged, so the page sends it again.

use super::protocol::ChangeId;
use crate::error::{Error, Result};
use crate::model::AnnotatorId;
use crate::store::disk::{Disk, DiskFile};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

const FORMAT: &str = "protest-receipts";
const VERSION: u32 = 1;

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
    path: PathBuf,
    file: Box<dyn DiskFile>,
    /// The length of the file up to its last whole line: a failed write is cut back to it.
    bytes: u64,
    seen: HashSet<(AnnotatorId, ChangeId)>,
}

impl Receipts {
    /// Opens the receipts of the master at `master` (with id `master_id`), making them if there
    /// are none. The caller holds the master's lock.
    pub fn open(disk: &dyn Disk, master: &Path, master_id: &str) -> Result<Receipts> {
        let path = path_for(master);
        let seen = match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut file = disk.create(&path).map_err(|e| Error::io(&path, e))?;
                let header = Header { receipts: FORMAT.into(), version: VERSION, master: master_id.into() };
                let mut line = serde_json::to_vec(&header).map_err(|e| Error::io(&path, std::io::Error::other(e)))?;
                line.push(b'\n');
                file.write_all(&line).and_then(|()| file.sync()).map_err(|e| Error::io(&path, e))?;
                return Ok(Receipts { path, file, bytes: line.len() as u64, seen: HashSet::new() });
            }
            Err(e) => return Err(Error::io(&path, e)),
            Ok(meta) if !meta.is_file() => {
                return Err(Error::whole_file(&path, "is not a plain file (a link, a folder…); move it away"));
            }
            Ok(_) => read(&path, master_id)?,
        };
        let (seen, bytes) = seen;
        let mut file = disk.append(&path).map_err(|e| Error::io(&path, e))?;
        // A line cut short by a crash goes: what follows must start on a line of its own.
        file.truncate(bytes).and_then(|()| file.sync()).map_err(|e| Error::io(&path, e))?;
        Ok(Receipts { path, file, bytes, seen })
    }

    /// Whether `annotator`'s change `id` was stored before.
    pub fn has(&self, annotator: AnnotatorId, id: &ChangeId) -> bool {
        self.seen.contains(&(annotator, id.clone()))
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
        if let Err(e) = self.file.write_all(&lines).and_then(|()| self.file.sync()) {
            // Whatever part reached the disk goes again; if even that fails, the next opening
            // drops a last line cut short.
            let _ = self.file.truncate(self.bytes).and_then(|()| self.file.sync());
            return Err(Error::io(&self.path, e));
        }
        self.bytes += lines.len() as u64;
        self.seen.extend(taken.iter().cloned());
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}

/// The ids in the receipts file at `path`, checked to be `master_id`'s, and the length of its
/// whole lines.
fn read(path: &Path, master_id: &str) -> Result<(HashSet<(AnnotatorId, ChangeId)>, u64)> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut seen = HashSet::new();
    let mut whole = 0;
    let mut lines = bytes.split_inclusive(|&b| b == b'\n').enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let last = lines.peek().is_none();
        if last && !line.ends_with(b"\n") {
            break; // cut short by a crash: that change was never acknowledged
        }
        whole += line.len() as u64;
        let bad = |e: serde_json::Error| Error::at_line(path, i + 1, format!("not a receipts line ({e})"));
        if i == 0 {
            let header: Header = serde_json::from_slice(line).map_err(bad)?;
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
                    format!(
                        "these receipts belong to another master (id {}, not {master_id}); move them away",
                        header.master
                    ),
                ));
            }
            continue;
        }
        let line: Line = serde_json::from_slice(line).map_err(bad)?;
        seen.insert((line.annotator, line.change));
    }
    Ok((seen, whole))
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
