//! The journal: an append-only file beside a master or batch (`FILE.journal`) holding every
//! annotation change since the file was last saved in full. Each change is one JSON line,
//! flushed to disk before the change is reported as saved, so an annotation survives a crash
//! at any moment, and saving one change costs the same however large the master is.
//!
//! Giving parts out and planning task sets change only the master's annotators and task sets: they
//! are journaled too, as one line holding the whole new roster ([`Entry::Roster`]), so that such a
//! change to a large master does not rewrite the file.
//!
//! The first line ties the journal to one file and one of its revisions:
//! `{"journal":"protest-journal","version":2,"file_id":"…","revision":7}`. A full save writes the
//! file with the next revision and then starts a new journal; a journal whose revision is older
//! than its file's was already folded in (the crash came between the two steps) and is dropped.
//! See docs/journal.md.

use crate::error::{Error, Result};
use crate::model::{Annotator, AnnotatorId, CandidateId, Record, TaskSet};
use crate::store::disk::{Disk, DiskFile, Identity, NotAsLeft};
use crate::store::{atomic, files, json};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The version written. Version 1 (before [`Entry::Roster`]) is read as well: its lines are a
/// subset of version 2's.
const VERSION: u32 = 2;
const READABLE: [u32; 2] = [1, 2];

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
    /// The master's annotators and task sets are now these (a task set planned or removed, parts
    /// given out). The whole roster in one line, so that a crash leaves the old one or the new one.
    Roster(Roster),
}

/// A master's annotators and task sets: what planning and exporting change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roster {
    pub annotators: Vec<Annotator>,
    pub task_sets: Vec<TaskSet>,
}

/// The journal path for a master or batch file.
pub fn path_for(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// Where the rest of a damaged journal of `file` is set aside: beside the journal, named after it
/// and the CRC-32 of what is set aside (`tiny.master.json.journal.rest-1a2b3c4d`), so that the
/// same damage met again is set aside once; `n` > 0 for another rest of the same CRC.
pub fn rest_path_for(file: &Path, crc: u32, n: usize) -> PathBuf {
    let mut name = path_for(file).into_os_string();
    name.push(format!(".rest-{crc:08x}"));
    if n > 0 {
        name.push(format!("-{n}"));
    }
    PathBuf::from(name)
}

/// The rests of damaged journals set aside beside `file` ([`rest_path_for`]), by name.
pub fn rests(file: &Path) -> Vec<PathBuf> {
    let journal = path_for(file);
    let Some(folder) = journal.parent() else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut found: Vec<PathBuf> =
        entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| is_rest_of(file, p)).collect();
    found.sort();
    found
}

/// Whether `path` is named as a rest of a damaged journal of `file` ([`rest_path_for`]).
pub fn is_rest_of(file: &Path, path: &Path) -> bool {
    let journal = path_for(file);
    if journal.parent() != path.parent() {
        return false;
    }
    let (Some(journal), Some(name)) = (journal.file_name(), path.file_name()) else { return false };
    let prefix = format!("{}.rest-", journal.to_string_lossy());
    name.to_string_lossy().strip_prefix(&prefix).is_some_and(|rest| {
        let (crc, n) = rest.split_once('-').unwrap_or((rest, "1"));
        crc.len() == 8
            && crc.chars().all(|c| c.is_ascii_hexdigit())
            && !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
    })
}

/// The revision a journal of `file` continues, from its first line; `None` when there is no
/// journal or its first line says none.
pub fn revision_of(file: &Path) -> Option<u64> {
    json::top_level_u64(&path_for(file), "revision")
}

/// What a journal held when it was opened.
#[derive(Debug, Default)]
pub struct Replay {
    /// Changes to apply on top of the file, in order: those before a damaged line, if there is one.
    pub entries: Vec<Entry>,
    /// A last line cut short by a crash in the middle of a write, which was never reported as
    /// saved and is ignored.
    pub torn_tail: bool,
    /// The journal was left over from before the last full save and was discarded.
    pub stale: bool,
    /// How many changes that discarded journal held.
    pub discarded: usize,
    /// The revision it continued.
    pub stale_revision: u64,
    /// A line that could not be read, or whose change could not be applied: it and every line
    /// after it are not taken (the changes before it are). A writer opening the file sets them
    /// aside for the user to recover ([`Damage`]).
    pub damaged: Option<Damage>,
    /// The journal's bytes and where each change's line starts in them, to set aside what
    /// follows a change that cannot be applied.
    source: Vec<u8>,
    starts: Vec<usize>,
    header_len: usize,
}

/// A damaged line in a journal and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// Its line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: String,
    /// The journal's first line, then the damaged line and every line after it, byte for byte:
    /// what is set aside ([`salvage`] reads the changes back out of it).
    pub rest: Vec<u8>,
    /// How many lines there are from the damaged one on.
    pub lines: usize,
}

impl Replay {
    /// What to tell the user about the journal at `journal` beyond the changes taken from it: a
    /// last change cut short and dropped, or a journal from before the file's last full save set
    /// aside (its changes are taken to be in the file already). `None` when there is nothing to
    /// say.
    pub fn note(&self, journal: &Path) -> Option<String> {
        if let Some(damage) = &self.damaged {
            return Some(damage.note(journal, self.entries.len(), None));
        }
        if self.stale && self.discarded > 0 {
            let changes =
                if self.discarded == 1 { "1 change".to_owned() } else { format!("{} changes", self.discarded) };
            return Some(format!(
                "{} holds {changes} made to revision {} of the file, which has been saved in full since: it is ignored, as its changes were folded into the file then",
                journal.display(),
                self.stale_revision
            ));
        }
        self.torn_tail.then(|| {
            format!(
                "the last change in {} was cut short (PROTEST stopped while saving it) and was dropped; it had not been reported as saved",
                journal.display()
            )
        })
    }
}

impl Replay {
    /// Takes the changes from the `i`-th on (from 0) out, as damaged: the `i`-th cannot be
    /// applied (`problem`).
    pub fn damaged_from(&mut self, i: usize, problem: String) {
        let Some(&start) = self.starts.get(i) else { return };
        self.entries.truncate(i);
        self.damaged = Some(Damage::at(&self.source, self.header_len, start, i + 2, problem));
        self.torn_tail = false; // a last line cut short is part of what is set aside
    }
}

impl Damage {
    /// The damage at byte `start` of `bytes` (line `line`), whose first `header_len` bytes are
    /// the header line.
    fn at(bytes: &[u8], header_len: usize, start: usize, line: usize, problem: String) -> Damage {
        let mut rest = bytes[..header_len].to_vec();
        rest.extend_from_slice(&bytes[start..]);
        let lines = bytes[start..].split_inclusive(|&b| b == b'\n').count();
        Damage { line, problem, rest, lines }
    }

    /// What to tell the user: which line is damaged and why, how many changes before it are
    /// kept (`kept`), and where the rest was set aside (`aside`; `None` for a reader that
    /// writes nothing).
    pub fn note(&self, journal: &Path, kept: usize, aside: Option<&Path>) -> String {
        let changes = |n: usize| if n == 1 { "1 change".to_owned() } else { format!("{n} changes") };
        let after = match self.lines - 1 {
            0 => String::new(),
            1 => " and the line after it".to_owned(),
            n => format!(" and the {n} lines after it"),
        };
        let rest = match aside {
            Some(aside) => format!(
                "were set aside in {}: opening the file in the PROTEST window offers the changes they hold",
                aside.display()
            ),
            None => "are not taken; opening the file for writing sets them aside, for the window to offer".to_owned(),
        };
        format!(
            "line {} of {} is damaged ({}): the {} before it {} kept; that line{after} {rest}",
            self.line,
            journal.display(),
            self.problem,
            changes(kept),
            if kept == 1 { "is" } else { "are" },
        )
    }
}

/// The changes that can be read out of what a damaged journal left ([`Damage::rest`]): the
/// header's file id and revision, and each later line that is a whole change. The damaged line
/// itself is taken only when a whole change follows what is damaged in it (a line cut short,
/// then the next one written after it); a damaged line that is itself a whole change could not be
/// applied, and is left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Salvaged {
    pub file_id: Option<String>,
    pub revision: Option<u64>,
    pub entries: Vec<Entry>,
    /// Lines that are no change at all.
    pub unreadable: usize,
}

/// Reads a damaged journal's rest ([`Salvaged`]).
pub fn salvage(rest: &[u8]) -> Salvaged {
    let mut lines = json::without_bom(rest).split_inclusive(|&b| b == b'\n');
    let header = lines.next().and_then(|l| serde_json::from_slice::<Header>(l).ok());
    let mut salvaged = Salvaged {
        file_id: header.as_ref().map(|h| h.file_id.clone()),
        revision: header.as_ref().map(|h| h.revision),
        entries: Vec::new(),
        unreadable: 0,
    };
    for (i, line) in lines.enumerate() {
        let entry = match i {
            0 if serde_json::from_slice::<Entry>(line).is_ok() => continue,
            0 => trailing_entry(line),
            _ => serde_json::from_slice::<Entry>(line).ok(),
        };
        match entry {
            Some(entry) => salvaged.entries.push(entry),
            None => salvaged.unreadable += 1,
        }
    }
    salvaged
}

/// A whole change at the end of a damaged line, after what is damaged in it.
fn trailing_entry(line: &[u8]) -> Option<Entry> {
    let starts = [&b"{\"put\":"[..], b"{\"remove\":", b"{\"roster\":"];
    (1..line.len())
        .filter(|&at| starts.iter().any(|s| line[at..].starts_with(s)))
        .find_map(|at| serde_json::from_slice::<Entry>(&line[at..]).ok())
}

/// Refuses a journal that is not a PROTEST journal of a version this build reads, or that belongs
/// to another file.
fn check_header(file: &Path, header: &Header, id: &str) -> Result<()> {
    let path = path_for(file);
    if header.journal != json::JOURNAL_FORMAT || !READABLE.contains(&header.version) {
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
    Ok(())
}

/// An open journal, ready for appends.
#[derive(Debug)]
pub struct Journal {
    disk: Arc<dyn Disk>,
    path: PathBuf,
    file: Option<Box<dyn DiskFile>>,
    /// The revision of the file this journal continues.
    revision: u64,
    entries: usize,
    bytes: u64,
    /// The journal file as this journal last left it, to tell whether someone else changed it.
    identity: Option<Identity>,
    /// A failed append could not be taken back: what follows the last good entry on disk is
    /// unknown, so nothing more may be appended (the store saves in full instead).
    damaged: bool,
}

impl Journal {
    /// Reads the journal of `file` (if any) for the file's `id` and `revision`, without changing
    /// anything on disk.
    pub fn read(file: &Path, id: &str, revision: u64) -> Result<Replay> {
        let path = path_for(file);
        // Never through a link planted in its place, and never a pipe that would block.
        match files::read_beside(&path) {
            Ok(Some(bytes)) => Journal::parse(file, &bytes, id, revision),
            Ok(None) => Ok(Replay::default()),
            Err(e) => Err(Error::io(&path, e)),
        }
    }

    /// Parses the content of the journal of `file`, as [`Journal::read`] does.
    pub fn parse(file: &Path, bytes: &[u8], id: &str, revision: u64) -> Result<Replay> {
        let path = path_for(file);
        let mut replay = Replay::default();
        let bytes = json::without_bom(bytes);
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
        check_header(file, &header, id)?;
        if header.revision < revision {
            replay.stale = true;
            replay.stale_revision = header.revision;
            replay.discarded = lines.filter(|(_, line)| line.ends_with(b"\n")).count();
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
        replay.header_len = first.len();
        let mut start = first.len();
        while let Some((i, line)) = lines.next() {
            if lines.peek().is_none() && !line.ends_with(b"\n") {
                // Cut short by a crash before its newline, even if what is there parses: the
                // change was not flushed, so never reported as saved, and the next append must
                // not land on its line.
                replay.torn_tail = true;
                break;
            }
            match serde_json::from_slice::<Entry>(line) {
                Ok(entry) => {
                    replay.entries.push(entry);
                    replay.starts.push(start);
                }
                Err(e) => {
                    // What follows a damaged line is not taken: it may depend on it. The changes
                    // before it are; the rest is set aside by a writer ([`Damage`]).
                    let problem = match e.classify() {
                        serde_json::error::Category::Eof => "not a whole journal entry (cut short)".to_owned(),
                        // The error's place is within the line, which the message names already.
                        _ => format!("not a journal entry: {}", e.to_string().split(" at line ").next().unwrap_or("")),
                    };
                    replay.damaged = Some(Damage::at(bytes, first.len(), start, i + 1, problem));
                    break;
                }
            }
            start += line.len();
        }
        replay.source = bytes.to_vec();
        Ok(replay)
    }

    /// Starts a new, empty journal for `revision` of the file, replacing any old one atomically.
    pub fn start(disk: Arc<dyn Disk>, file: &Path, id: &str, revision: u64) -> Result<Journal> {
        Journal::start_with(disk, file, id, revision, &[])
    }

    /// Starts a new journal for `revision` of the file holding `entries`, replacing any old one
    /// atomically: the old one stays whole until the new one is complete on disk.
    fn start_with(disk: Arc<dyn Disk>, file: &Path, id: &str, revision: u64, entries: &[Entry]) -> Result<Journal> {
        let path = path_for(file);
        let header = Header { journal: json::JOURNAL_FORMAT.into(), version: VERSION, file_id: id.into(), revision };
        let mut bytes = serde_json::to_vec(&header).map_err(|e| Error::io(&path, e.into()))?;
        bytes.push(b'\n');
        for entry in entries {
            serde_json::to_writer(&mut bytes, entry).map_err(|e| Error::io(&path, e.into()))?;
            bytes.push(b'\n');
        }
        atomic::write_beside(&*disk, &path, file, |w| w.write_all(&bytes))?;
        let handle = disk.append(&path).map_err(|e| Error::io(&path, e))?;
        let identity = handle.identity().ok();
        Ok(Journal {
            disk,
            path,
            file: Some(handle),
            revision,
            entries: entries.len(),
            bytes: bytes.len() as u64,
            identity,
            damaged: false,
        })
    }

    /// Continues an existing journal that was just read and replayed.
    pub fn resume(disk: Arc<dyn Disk>, file: &Path, replay: &Replay, id: &str, revision: u64) -> Result<Journal> {
        if replay.torn_tail || replay.stale || replay.damaged.is_some() || replay.entries.is_empty() {
            // Rewritten rather than appended to after a torn or damaged line: the replayed
            // entries go back in.
            return Journal::start_with(disk, file, id, revision, &replay.entries);
        }
        let path = path_for(file);
        let handle = disk.append(&path).map_err(|e| Error::io(&path, e))?;
        let identity = handle.identity().map_err(|e| Error::io(&path, e))?;
        Ok(Journal {
            disk,
            path,
            file: Some(handle),
            revision,
            entries: replay.entries.len(),
            bytes: identity.len(),
            identity: Some(identity),
            damaged: false,
        })
    }

    /// Appends one change and waits until it is on disk. If that fails, the journal is cut back
    /// to what it was, so the next change does not land after half a line; if even that fails,
    /// the journal is marked damaged ([`Journal::is_damaged`]) and takes no more changes.
    pub fn append(&mut self, entry: &Entry) -> Result<()> {
        self.append_all(std::slice::from_ref(entry))
    }

    /// Appends several changes with one flush to disk (`protest serve` takes the changes that
    /// come together so): all of them, or none.
    pub fn append_all(&mut self, entries: &[Entry]) -> Result<()> {
        if self.damaged {
            return Err(Error::whole_file(&self.path, "a failed change could not be taken back out of the journal"));
        }
        let mut line = Vec::new();
        for entry in entries {
            serde_json::to_writer(&mut line, entry).map_err(|e| Error::io(&self.path, e.into()))?;
            line.push(b'\n');
        }
        let file = self.file.as_mut().ok_or_else(|| Error::whole_file(&self.path, "the journal is closed"))?;
        let expected = self.bytes + line.len() as u64;
        if let Err(e) = file.write_all(&line).and_then(|()| file.sync()).and_then(|()| appended(&**file, expected)) {
            // Whatever part of the line reached the disk goes again.
            let restored = file.truncate(self.bytes).and_then(|()| file.sync());
            self.damaged = restored.is_err();
            self.identity = file.identity().ok();
            return Err(Error::io(&self.path, e));
        }
        self.entries += entries.len();
        self.bytes += line.len() as u64;
        self.identity = file.identity().ok();
        Ok(())
    }

    /// Whether the journal file is still the one this journal wrote, as it left it: nobody
    /// replaced, removed or added to it. Says what happened otherwise.
    pub fn check_unchanged(&self) -> std::result::Result<(), NotAsLeft> {
        let Some(known) = self.identity else { return Ok(()) };
        NotAsLeft::check(&self.path, &self.path, &known)
    }

    /// A failed append could not be taken back (see [`Journal::append`]).
    pub fn is_damaged(&self) -> bool {
        self.damaged
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
        match self.disk.remove(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path, e)),
            _ => Ok(()),
        }
    }
}

/// Whether `entry` reads back from its journal line as it is, and is dated within the years 1970 to
/// 9999 that PROTEST records (`crate::model::clock`): a record dated past 9999 would be written, flushed,
/// reported saved, and then make the journal unreadable at its line. Says why not.
pub fn reads_back(entry: &Entry) -> std::result::Result<(), NotReadBack> {
    if let Entry::Put(record) = entry {
        use chrono::Datelike;
        if let Some(t) = [record.created, record.modified].into_iter().find(|t| !(1970..=9999).contains(&t.year())) {
            return Err(NotReadBack::OutsideTheYears { candidate: record.candidate, time: t });
        }
    }
    let line = serde_json::to_vec(entry).map_err(NotReadBack::NotWritten)?;
    match serde_json::from_slice::<Entry>(&line) {
        Ok(read) if &read == entry => Ok(()),
        Ok(_) => Err(NotReadBack::Different),
        Err(e) => Err(NotReadBack::Unreadable(e)),
    }
}

/// Why a change would not read back from its journal line as it is ([`reads_back`]).
#[derive(Debug, thiserror::Error)]
pub enum NotReadBack {
    /// A record's time (created or modified) outside the years a file holds.
    #[error(
        "the record of candidate {candidate} is dated {time}, outside the years 1970 to 9999 that PROTEST can record (is the clock of the computer that made it right?)"
    )]
    OutsideTheYears { candidate: CandidateId, time: chrono::DateTime<chrono::Utc> },
    /// The change cannot be written as JSON (serde's words).
    #[error("{0}")]
    NotWritten(serde_json::Error),
    #[error("the change would not read back as it is from the journal")]
    Different,
    #[error("the change would not read back from the journal ({0})")]
    Unreadable(serde_json::Error),
}

/// Checks that a file appended to holds `expected` bytes now: a write the system reported whole
/// but did not do in full is caught before the change is reported saved.
pub fn appended(file: &dyn DiskFile, expected: u64) -> std::io::Result<()> {
    let len = file.identity()?.len();
    if len == expected {
        return Ok(());
    }
    Err(std::io::Error::other(format!(
        "it holds {len} bytes after the change was written, not {expected}: the disk or file system did not store what it reported"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::disk::{Fault, Faulty, Op, os};
    use chrono::Utc;
    use std::fs::OpenOptions;

    fn record(c: u32) -> Record {
        Record::new(CandidateId(c), AnnotatorId(1), Utc::now())
    }

    #[test]
    fn appended_entries_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let entries =
            vec![Entry::Put(record(1)), Entry::Remove { candidate: CandidateId(1), annotator: AnnotatorId(1) }];
        let mut j = Journal::start(os(), &file, "id", 3).unwrap();
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
        let mut j = Journal::start(os(), &file, "id", 0).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        drop(j);
        let mut f = OpenOptions::new().append(true).open(path_for(&file)).unwrap();
        f.write_all(b"{\"put\":{\"candidate\":2,").unwrap();
        let replay = Journal::read(&file, "id", 0).unwrap();
        assert_eq!(replay.entries.len(), 1);
        assert!(replay.torn_tail);
        let mut j = Journal::resume(os(), &file, &replay, "id", 0).unwrap();
        j.append(&Entry::Put(record(3))).unwrap();
        let again = Journal::read(&file, "id", 0).unwrap();
        assert_eq!(again.entries.len(), 2);
        assert!(!again.torn_tail);
    }

    #[test]
    fn damage_in_the_middle_keeps_what_comes_before_and_the_rest_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let mut j = Journal::start(os(), &file, "id", 0).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        drop(j);
        let header = std::fs::read_to_string(path_for(&file)).unwrap().lines().next().unwrap().to_owned();
        let rest = "garbage\n{\"remove\":{\"candidate\":1,\"annotator\":1}}\n{\"put\":{\"cand";
        OpenOptions::new().append(true).open(path_for(&file)).unwrap().write_all(rest.as_bytes()).unwrap();
        let replay = Journal::read(&file, "id", 0).unwrap();
        assert!(matches!(replay.entries.as_slice(), [Entry::Put(r)] if r.candidate == CandidateId(1)));
        assert!(!replay.torn_tail, "a line cut short after the damage is part of the rest");
        let damage = replay.damaged.as_ref().unwrap();
        assert_eq!((damage.line, damage.lines), (3, 3));
        assert!(damage.problem.starts_with("not a journal entry: "), "{}", damage.problem);
        assert_eq!(String::from_utf8(damage.rest.clone()).unwrap(), format!("{header}\n{rest}"));
        let note = replay.note(&path_for(&file)).unwrap();
        assert!(
            note.starts_with(&format!("line 3 of {} is damaged (not a journal entry: ", path_for(&file).display())),
            "{note}"
        );
        assert!(
            note.contains("the 1 change before it is kept; that line and the 2 lines after it are not taken"),
            "{note}"
        );
        // What can be read back out of the rest: the removal after the damaged line.
        let salvaged = salvage(&damage.rest);
        assert_eq!((salvaged.file_id.as_deref(), salvaged.revision), (Some("id"), Some(0)));
        assert_eq!(salvaged.entries, [Entry::Remove { candidate: CandidateId(1), annotator: AnnotatorId(1) }]);
        assert_eq!(salvaged.unreadable, 2);
    }

    #[test]
    fn a_line_cut_short_with_the_next_written_after_it_gives_the_next_back() {
        // A write that reported whole but wrote half, then the next change appended after it.
        let half = serde_json::to_string(&Entry::Put(record(2))).unwrap();
        let next = Entry::Put(record(3));
        let line = format!("{}{}\n", &half[..half.len() / 2], serde_json::to_string(&next).unwrap());
        let rest =
            format!("{{\"journal\":\"protest-journal\",\"version\":2,\"file_id\":\"id\",\"revision\":4}}\n{line}");
        let salvaged = salvage(rest.as_bytes());
        assert_eq!((salvaged.entries, salvaged.unreadable, salvaged.revision), (vec![next], 0, Some(4)));
        // A damaged line that is a whole change could not be applied: it is not offered again.
        let whole =
            format!("{{\"journal\":\"protest-journal\",\"version\":2,\"file_id\":\"id\",\"revision\":4}}\n{half}\n");
        assert_eq!(salvage(whole.as_bytes()).entries, []);
    }

    #[test]
    fn a_journal_of_version_1_is_read_and_continued_as_version_2() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let put = Entry::Put(record(1));
        let line = serde_json::to_string(&put).unwrap();
        let v1 =
            format!("{{\"journal\":\"protest-journal\",\"version\":1,\"file_id\":\"id\",\"revision\":0}}\n{line}\n");
        std::fs::write(path_for(&file), &v1).unwrap();
        let replay = Journal::read(&file, "id", 0).unwrap();
        assert_eq!(replay.entries, [put]);
        let mut j = Journal::resume(os(), &file, &replay, "id", 0).unwrap();
        j.append(&Entry::Remove { candidate: CandidateId(1), annotator: AnnotatorId(1) }).unwrap();
        assert_eq!(Journal::read(&file, "id", 0).unwrap().entries.len(), 2);
        // A version this build does not know is refused, naming it.
        std::fs::write(path_for(&file), v1.replace("\"version\":1", "\"version\":3")).unwrap();
        let e = Journal::read(&file, "id", 0).unwrap_err().to_string();
        assert!(e.contains("unsupported journal 'protest-journal' version 3"), "{e}");
    }

    #[test]
    fn revisions_and_ids_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let mut j = Journal::start(os(), &file, "id", 4).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        assert!(Journal::read(&file, "id", 5).unwrap().stale);
        let err = Journal::read(&file, "id", 3).unwrap_err().to_string();
        assert!(err.contains("replaced by an older copy"), "{err}");
        let err = Journal::read(&file, "other", 4).unwrap_err().to_string();
        assert!(err.contains("belongs to another file"), "{err}");
        assert!(Journal::read(&dir.path().join("none.json"), "id", 0).unwrap().entries.is_empty());
    }

    #[test]
    fn a_failed_append_leaves_the_journal_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let disk = Faulty::new(Fault::None);
        let mut j = Journal::start(disk.shared(), &file, "id", 0).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        let before = std::fs::read(path_for(&file)).unwrap();
        // The disk fills up in the middle of the next line: half of it reaches the file.
        disk.set(Fault::Once(0));
        assert!(j.append(&Entry::Put(record(2))).unwrap_err().to_string().contains("No space left"));
        assert_eq!(std::fs::read(path_for(&file)).unwrap(), before);
        // Its fsync fails instead.
        disk.set(Fault::Once(1));
        assert!(j.append(&Entry::Put(record(2))).is_err());
        assert_eq!(std::fs::read(path_for(&file)).unwrap(), before);
        assert!(!j.is_damaged() && j.check_unchanged().is_ok());
        // Space again: the next change follows the good one, and the journal reads back whole.
        disk.set(Fault::None);
        j.append(&Entry::Put(record(3))).unwrap();
        let replay = Journal::read(&file, "id", 0).unwrap();
        let candidates: Vec<u32> = replay
            .entries
            .iter()
            .map(|e| match e {
                Entry::Put(r) => r.candidate.0,
                Entry::Remove { candidate, .. } => candidate.0,
                Entry::Roster(_) => unreachable!("none appended"),
            })
            .collect();
        assert_eq!(candidates, [1, 3]);
        assert!(!replay.torn_tail);
    }

    #[test]
    fn a_journal_that_cannot_be_cut_back_takes_no_more_changes() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let disk = Faulty::new(Fault::None);
        let mut j = Journal::start(disk.shared(), &file, "id", 0).unwrap();
        disk.set(Fault::FullFrom(0));
        assert!(j.append(&Entry::Put(record(1))).is_err());
        // The write failed and so did nothing else: cut back.
        assert!(!j.is_damaged());
        let ops: Vec<Op> = disk.ops().into_iter().map(|(op, _)| op).collect();
        assert_eq!(ops, [Op::Write, Op::Truncate, Op::Sync]);
        disk.set(Fault::From(0)); // the write fails, then the truncation
        assert!(j.append(&Entry::Put(record(1))).is_err());
        assert!(j.is_damaged());
        disk.set(Fault::None);
        let e = j.append(&Entry::Put(record(2))).unwrap_err().to_string();
        assert!(e.contains("could not be taken back"), "{e}");
    }

    #[test]
    fn a_journal_changed_by_someone_else_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.json");
        let mut j = Journal::start(os(), &file, "id", 0).unwrap();
        j.append(&Entry::Put(record(1))).unwrap();
        assert!(j.check_unchanged().is_ok());
        let mut other = OpenOptions::new().append(true).open(path_for(&file)).unwrap();
        other.write_all(b"{\"remove\":{\"candidate\":1,\"annotator\":1}}\n").unwrap();
        let e = j.check_unchanged().unwrap_err();
        assert!(matches!(&e, NotAsLeft::Changed(p) if *p == path_for(&file)), "{e}");
        assert!(e.to_string().ends_with("m.json.journal was changed"));
        std::fs::remove_file(path_for(&file)).unwrap();
        assert!(j.check_unchanged().unwrap_err().to_string().ends_with("was removed"));
        Journal::start(os(), &file, "id", 0).unwrap();
        assert!(j.check_unchanged().unwrap_err().to_string().ends_with("was replaced"));
    }
}
