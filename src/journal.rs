//! The journal: an append-only file beside a master or batch (`FILE.journal`) holding every
//! annotation change since the file was last saved in full. Each change is one JSON line,
//! flushed to disk before the change is reported as saved, so an annotation survives a crash
//! at any moment, and saving one change costs the same however large the master is.
//!
//! The first line ties the journal to one file and one of its revisions:
//! `{"journal":"protest-journal","version":1,"file_id":"…","revision":7}`. A full save writes the
//! file with the next revision and then starts a new journal; a journal whose revision is older
//! than its file's was already folded in (the crash came between the two steps) and is dropped.
//! See docs/journal.md.

use crate::atomic;
use crate::error::{Error, Place, Result};
use crate::model::{AnnotatorId, CandidateId, Record};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The `journal` field of a journal's first line.
pub const FORMAT: &str = "protest-journal";
const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    journal: String,
    version: u32,
    file_id: String,
    revision: u64,
}

/// One change to the records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// The record of its (candidate, annotator) is now this.
    Put(Record),
    /// The record of this (candidate, annotator) no longer exists.
    Remove { candidate: CandidateId, annotator: AnnotatorId },
}

/// The journal path for a master or batch file.
pub fn path_for(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// What a journal held when it was opened.
#[derive(Debug, Default)]
pub struct Replay {
    /// Changes to apply on top of the file, in order.
    pub entries: Vec<Entry>,
    /// A last line cut short by a crash in the middle of a write, which was never reported as
    /// saved and is ignored.
    pub torn_tail: bool,
    /// The journal was left over from before the last full save and was discarded.
    pub stale: bool,
}

/// An open journal, ready for appends.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Option<File>,
    /// The revision of the file this journal continues.
    revision: u64,
    entries: usize,
    bytes: u64,
}

impl Journal {
    /// Reads the journal of `file` (if any) for the file's `id` and `revision`, without changing
    /// anything on disk.
    pub fn read(file: &Path, id: &str, revision: u64) -> Result<Replay> {
        let path = path_for(file);
        match std::fs::read(&path) {
            Ok(bytes) => Journal::parse(file, &bytes, id, revision),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Replay::default()),
            Err(e) => Err(Error::io(&path, e)),
        }
    }

    /// Parses the content of the journal of `file`, as [`Journal::read`] does.
    pub fn parse(file: &Path, bytes: &[u8], id: &str, revision: u64) -> Result<Replay> {
        let path = path_for(file);
        let mut replay = Replay::default();
        let mut lines = bytes.split_inclusive(|&b| b == b'\n').enumerate().peekable();
        let Some((_, first)) = lines.next() else { return Ok(replay) };
        let header: Header = match serde_json::from_slice(first) {
            Ok(h) => h,
            // A crash while the very first line was being written: nothing was ever saved in it.
            Err(_) if lines.peek().is_none() && !first.ends_with(b"\n") => {
                replay.torn_tail = true;
                return Ok(replay);
            }
            Err(e) => return Err(Error::at_line(&path, 1, format!("not a PROTEST journal ({e})"))),
        };
        if header.journal != FORMAT || header.version != VERSION {
            return Err(Error::at_line(
                &path,
                1,
                format!("unsupported journal '{}' version {}", header.journal, header.version),
            ));
        }
        if header.file_id != id {
            return Err(Error::whole_file(
                &path,
                format!(
                    "this journal belongs to another file (id {}, not {id}); move it away to open {} without it",
                    header.file_id,
                    file.display()
                ),
            ));
        }
        if header.revision < revision {
            replay.stale = true;
            return Ok(replay);
        }
        if header.revision > revision {
            return Err(Error::whole_file(
                &path,
                format!(
                    "this journal continues revision {} of {}, but the file is at revision {revision} — was it replaced by an older copy? Move the journal away to open the file without its changes",
                    header.revision,
                    file.display()
                ),
            ));
        }
        while let Some((i, line)) = lines.next() {
            match serde_json::from_slice::<Entry>(line) {
                Ok(entry) => replay.entries.push(entry),
                Err(_) if lines.peek().is_none() && !line.ends_with(b"\n") => replay.torn_tail = true,
                Err(e) => {
                    let place = Place::Json { path: String::new(), line: Some(i + 1) };
                    return Err(Error::invalid(&path, Some(place), format!("damaged journal entry: {e}")));
                }
            }
        }
        Ok(replay)
    }

    /// Starts a new, empty journal for `revision` of the file, replacing any old one atomically.
    pub fn start(file: &Path, id: &str, revision: u64) -> Result<Journal> {
        let path = path_for(file);
        let header = Header { journal: FORMAT.into(), version: VERSION, file_id: id.into(), revision };
        let mut line = serde_json::to_vec(&header).map_err(|e| Error::io(&path, e.into()))?;
        line.push(b'\n');
        atomic::write(&path, &line)?;
        let file = OpenOptions::new().append(true).open(&path).map_err(|e| Error::io(&path, e))?;
        Ok(Journal { path, file: Some(file), revision, entries: 0, bytes: line.len() as u64 })
    }

    /// Continues an existing journal that was just read and replayed.
    pub fn resume(file: &Path, replay: &Replay, id: &str, revision: u64) -> Result<Journal> {
        if replay.torn_tail || replay.stale || replay.entries.is_empty() {
            // Rewrite rather than append after a torn line; the replayed entries go back in.
            let mut journal = Journal::start(file, id, revision)?;
            for entry in &replay.entries {
                journal.append(entry)?;
            }
            return Ok(journal);
        }
        let path = path_for(file);
        let handle = OpenOptions::new().append(true).open(&path).map_err(|e| Error::io(&path, e))?;
        let bytes = handle.metadata().map_err(|e| Error::io(&path, e))?.len();
        Ok(Journal { path, file: Some(handle), revision, entries: replay.entries.len(), bytes })
    }

    /// Appends one change and waits until it is on disk.
    pub fn append(&mut self, entry: &Entry) -> Result<()> {
        let mut line = serde_json::to_vec(entry).map_err(|e| Error::io(&self.path, e.into()))?;
        line.push(b'\n');
        let file = self.file.as_mut().ok_or_else(|| Error::whole_file(&self.path, "the journal is closed"))?;
        file.write_all(&line).and_then(|()| file.sync_data()).map_err(|e| Error::io(&self.path, e))?;
        self.entries += 1;
        self.bytes += line.len() as u64;
        Ok(())
    }

    /// The revision of the file this journal continues.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Number of changes in the journal.
    pub fn len(&self) -> usize {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Removes the journal file (after its changes were saved in full and the file is closed).
    pub fn delete(mut self) -> Result<()> {
        self.file = None;
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path, e)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn record(c: u32) -> Record {
        Record::new(CandidateId(c), AnnotatorId(1), Utc::now())
    }

    #[test]
    fn appended_entries_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let entries =
            vec![Entry::Put(record(1)), Entry::Remove { candidate: CandidateId(1), annotator: AnnotatorId(1) }];
        let mut j = Journal::start(&file, "id", 3).unwrap();
        for e in &entries {
            j.append(e).unwrap();
        }
        assert_eq!(j.len(), 2);
        let replay = Journal::read(&file, "id", 3).unwrap();
        assert_eq!(replay.entries, entries);
        assert!(!replay.torn_tail && !replay.stale);
    }

    #[test]
    fn a_torn_last_line_is_ignored_and_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let mut j = Journal::start(&file, "id", 0).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        drop(j);
        let mut f = OpenOptions::new().append(true).open(path_for(&file)).unwrap();
        f.write_all(b"{\"put\":{\"candidate\":2,").unwrap();
        let replay = Journal::read(&file, "id", 0).unwrap();
        assert_eq!(replay.entries.len(), 1);
        assert!(replay.torn_tail);
        let mut j = Journal::resume(&file, &replay, "id", 0).unwrap();
        j.append(&Entry::Put(record(3))).unwrap();
        let again = Journal::read(&file, "id", 0).unwrap();
        assert_eq!(again.entries.len(), 2);
        assert!(!again.torn_tail);
    }

    #[test]
    fn damage_in_the_middle_is_an_error_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let mut j = Journal::start(&file, "id", 0).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        drop(j);
        let mut f = OpenOptions::new().append(true).open(path_for(&file)).unwrap();
        f.write_all(b"garbage\n{\"remove\":{\"candidate\":1,\"annotator\":1}}\n").unwrap();
        let err = Journal::read(&file, "id", 0).unwrap_err().to_string();
        assert!(err.contains("m.json.journal: line 3: damaged journal entry"), "{err}");
    }

    #[test]
    fn revisions_and_ids_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let mut j = Journal::start(&file, "id", 4).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        assert!(Journal::read(&file, "id", 5).unwrap().stale);
        let err = Journal::read(&file, "id", 3).unwrap_err().to_string();
        assert!(err.contains("replaced by an older copy"), "{err}");
        let err = Journal::read(&file, "other", 4).unwrap_err().to_string();
        assert!(err.contains("belongs to another file"), "{err}");
        assert!(Journal::read(&dir.path().join("none.json"), "id", 0).unwrap().entries.is_empty());
    }
}
