//! Recovery files: the changes the window took but could not write to its file's journal — the
//! disk failed, or another program changed the file so that nothing more is written to it — kept
//! at once, flushed to disk, in a file of their own in the user's data folder, the way an editor
//! keeps a swap file. A crash, a kill or a power cut after the window showed a change no longer
//! loses it: opening the file again offers the recovery file ([`find`]), to apply after seeing
//! what it holds, or to save as a new file; nothing is applied without being asked.
//!
//! A recovery file is named after the resolved path of the file and the time it was started
//! (`tiny.master.json-3f9a…-20261126T201500-4242.protest-recovery`), and holds JSON lines
//! (docs/journal.md, "Recovery files"): a header naming the file, its id and revision, then the
//! changes as journal lines, each with the version of the record it was made on ([`Based`]).
//! Applying them later stores each only on that version: a record changed since is never
//! replaced unasked ([`crate::store::based`]). While its writer lives it holds the file's `flock`,
//! so that another window opening the same master does not offer changes still being made.

use crate::model::{Judgement, Master, Record};
use crate::store::based::Based;
use crate::store::journal::{self, Entry};
use crate::store::{files, json};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The `recovery` field of a recovery file's first line.
pub const FORMAT: &str = "protest-recovery";
/// The version written: version 2 says what each change was made on (`base`); version 1, whose
/// changes do not, is read as well.
pub const VERSION: u32 = 2;
const READABLE: [u32; 2] = [1, 2];
/// How recovery files end.
pub const EXTENSION: &str = "protest-recovery";

/// The first line of a recovery file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub recovery: String,
    pub version: u32,
    /// The file the changes belong to, resolved (links and `..` followed).
    pub file: PathBuf,
    /// Its id (a master's `id`, a batch's `id`).
    pub file_id: String,
    /// Its revision when the changes were made.
    pub revision: u64,
    pub created: DateTime<Utc>,
    /// Why the changes could not be saved into the file.
    pub why: String,
}

/// The user's data folder: where the app keeps what it remembers, the sample's copy and the
/// recovery files (`protest` in the platform's folder for application data: on Linux
/// `$XDG_DATA_HOME/protest` or `~/.local/share/protest`). `None` without a home folder.
pub fn data_folder() -> Option<PathBuf> {
    let base = dirs::data_dir()?;
    // Where the window's toolkit (eframe) keeps its own state, so that everything is together.
    Some(if cfg!(windows) { base.join("protest").join("data") } else { base.join("protest") })
}

/// The folder of recovery files in a data folder.
pub fn folder_in(data_folder: &Path) -> PathBuf {
    data_folder.join("recovery")
}

/// A recovery file being written: it holds exactly the changes last given to [`Writer::keep`].
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: File,
    header_len: u64,
    /// What the file holds after its header, in order.
    kept: Vec<Based>,
}

impl Writer {
    /// Starts a recovery file in `folder` for the file at `real` (resolved).
    pub fn start(folder: &Path, header: Header) -> io::Result<Writer> {
        fs::create_dir_all(folder)?;
        let base = name_for(&header.file, header.created);
        let mut attempt = 0;
        let (path, file) = loop {
            let path = folder.join(match attempt {
                0 => format!("{base}.{EXTENSION}"),
                n => format!("{base}-{n}.{EXTENSION}"),
            });
            let mut options = OpenOptions::new();
            options.read(true).write(true).create_new(true);
            #[cfg(unix)]
            {
                // The user's annotations: theirs alone, whatever the umask.
                use std::os::unix::fs::OpenOptionsExt;
                options.mode(0o600);
            }
            match options.open(&path) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => return Err(e),
                Ok(file) => break (path, file),
            }
        };
        // Held while we write it: another window does not offer what is still being kept.
        let _ = file.try_lock();
        let mut line = serde_json::to_vec(&header).map_err(io::Error::other)?;
        line.push(b'\n');
        let mut writer = Writer { path, file, header_len: line.len() as u64, kept: Vec::new() };
        let started =
            writer.file.write_all(&line).and_then(|()| writer.file.sync_all()).and_then(|()| sync_dir(folder));
        if let Err(e) = started {
            let _ = fs::remove_file(&writer.path);
            return Err(e);
        }
        Ok(writer)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes the file hold `entries` and flushes it to disk: appends what follows what it holds
    /// already (the usual case: one more change), or writes them all again.
    pub fn keep(&mut self, entries: &[Based]) -> io::Result<()> {
        let (from, cut) = match entries.starts_with(&self.kept) {
            true => (self.kept.len(), None),
            false => (0, Some(self.header_len)),
        };
        if from == entries.len() && cut.is_none() {
            return Ok(());
        }
        let mut bytes = Vec::new();
        for entry in &entries[from..] {
            serde_json::to_writer(&mut bytes, entry).map_err(io::Error::other)?;
            bytes.push(b'\n');
        }
        if let Some(len) = cut {
            self.file.set_len(len)?;
        }
        let end = self.file.metadata()?.len();
        use std::io::Seek;
        self.file.seek(io::SeekFrom::Start(end))?;
        self.file.write_all(&bytes)?;
        self.file.sync_all()?;
        self.kept = entries.to_vec();
        Ok(())
    }

    /// Removes the file: everything it held is saved now.
    pub fn remove(self) -> io::Result<()> {
        fs::remove_file(&self.path)
    }
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir) {
        Ok(d) => d.sync_all(),
        Err(_) => Ok(()),
    }
}

/// `NAME-HASH-TIME-PID`: the file's name to recognise it by, a hash of its resolved path to
/// tell apart files of the same name in different folders, and when and by whom it was started.
fn name_for(real: &Path, created: DateTime<Utc>) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    real.hash(&mut hasher);
    let name: String = real
        .file_name()
        .map(|n| n.to_string_lossy().chars().filter(|c| c.is_alphanumeric() || "._-".contains(*c)).take(80).collect())
        .unwrap_or_default();
    format!("{name}-{:016x}-{}-{}", hasher.finish(), created.format("%Y%m%dT%H%M%S"), std::process::id())
}

/// A recovery file found for a file being opened.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub path: PathBuf,
    pub header: Header,
    pub entries: Vec<Based>,
    /// The last line was cut short (the window was killed while writing it, before it showed the
    /// change) and is left out.
    pub torn: bool,
}

/// The recovery files in `folder` for the file whose resolved path is `real` and whose id is
/// `file_id`, oldest first. A file whose writer is still alive (another window) is left out, and
/// so is one that cannot be read (it stays where it is).
pub fn find(folder: &Path, real: &Path, file_id: &str) -> Vec<Found> {
    let Ok(entries) = fs::read_dir(folder) else { return Vec::new() };
    let mut found: Vec<Found> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
        // One that cannot be read is not ours to judge: it stays where it is, for the user.
        .filter_map(|path| read(&path).ok().flatten())
        .filter(|f| f.header.file == real && f.header.file_id == file_id && !f.entries.is_empty())
        .collect();
    found.sort_by(|a, b| a.header.created.cmp(&b.header.created).then_with(|| a.path.cmp(&b.path)));
    found
}

/// Reads a recovery file; `None` when its writer is still alive.
pub fn read(path: &Path) -> io::Result<Option<Found>> {
    let mut options = OpenOptions::new();
    options.read(true);
    let file = files::open_beside(&mut options, path)?;
    if file.try_lock().is_err() {
        return Ok(None);
    }
    let bytes = files::read(path)?;
    parse(path, &bytes).map(Some)
}

/// Parses a recovery file: its header, then every whole line as a change. A last line without
/// its newline was being written when the window stopped, before the change was shown.
pub fn parse(path: &Path, bytes: &[u8]) -> io::Result<Found> {
    let bad = |line: usize, e: serde_json::Error| {
        io::Error::new(io::ErrorKind::InvalidData, format!("line {line}: not a PROTEST recovery file ({e})"))
    };
    let mut lines = json::without_bom(bytes).split_inclusive(|&b| b == b'\n').enumerate().peekable();
    let Some((_, first)) = lines.next() else {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "empty: not a PROTEST recovery file"));
    };
    let header: Header = serde_json::from_slice(first).map_err(|e| bad(1, e))?;
    if header.recovery != FORMAT || !READABLE.contains(&header.version) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("unsupported recovery file '{}' version {}", header.recovery, header.version),
        ));
    }
    let mut found = Found { path: path.to_path_buf(), header, entries: Vec::new(), torn: false };
    while let Some((i, line)) = lines.next() {
        if lines.peek().is_none() && !line.ends_with(b"\n") {
            found.torn = true;
            break;
        }
        found.entries.push(serde_json::from_slice(line).map_err(|e| bad(i + 1, e))?);
    }
    Ok(found)
}

/// One change of a recovery file in words, for the user to see before applying it: "candidate
/// 12, Anna: pronoun yes, antecedent no, tags ant_ensure".
pub fn describe(entry: &Entry, master: &Master) -> String {
    match entry {
        Entry::Put(r) => {
            let what = in_words(r, Some(60)).join(", ");
            format!("candidate {}, {}: {what}", r.candidate, master.annotator_name(r.annotator))
        }
        Entry::Remove { candidate, annotator } => {
            format!("candidate {candidate}, {}: record removed", master.annotator_name(*annotator))
        }
        Entry::Roster(r) => {
            format!("annotators and task sets: {} annotators, {} task sets", r.annotators.len(), r.task_sets.len())
        }
    }
}

/// What a record says, a phrase each — "pronoun yes", "antecedent no", "tags a b", "remarks "…""
/// (their first `remarks` characters, or all) — for the user to tell versions apart.
pub fn in_words(r: &Record, remarks: Option<usize>) -> Vec<String> {
    let word = |j: Judgement| match j {
        Judgement::Yes => "yes",
        Judgement::No => "no",
        Judgement::Unset => "not judged",
    };
    let mut what = vec![format!("pronoun {}", word(r.pronoun))];
    if r.antecedent.is_set() {
        what.push(format!("antecedent {}", word(r.antecedent)));
    }
    if !r.tags.is_empty() {
        what.push(format!("tags {}", r.tags.iter().cloned().collect::<Vec<_>>().join(" ")));
    }
    if !r.remarks.is_empty() {
        let shown: String = r.remarks.chars().take(remarks.unwrap_or(usize::MAX)).collect();
        what.push(format!("remarks \"{shown}\""));
    }
    what
}

/// The rests of damaged journals set aside beside the file whose resolved path is `real` and
/// whose id is `file_id` (`store::journal::rests`), offered as recovery files are: the changes
/// that followed a damaged line of the journal, which were not applied when the file was opened
/// (they may depend on the damaged one). Applying or saving them removes the rest as it removes a
/// recovery file; one without a change that can be read is not offered (it stays, for the user).
pub fn find_rests(real: &Path, file_id: &str) -> Vec<Found> {
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    journal::rests(real)
        .into_iter()
        .filter_map(|path| {
            let bytes = files::read_beside(&path).ok()??;
            let salvaged = journal::salvage(&bytes);
            if salvaged.file_id.as_deref() != Some(file_id) || salvaged.entries.is_empty() {
                return None;
            }
            let unreadable = match salvaged.unreadable {
                0 => String::new(),
                1 => "; 1 line could not be read".to_owned(),
                n => format!("; {n} lines could not be read"),
            };
            let modified = fs::metadata(&path).and_then(|m| m.modified()).ok();
            let header = Header {
                recovery: FORMAT.into(),
                version: VERSION,
                file: real.to_path_buf(),
                file_id: file_id.to_owned(),
                revision: salvaged.revision.unwrap_or_default(),
                created: modified.and_then(|t| crate::model::clock::at(t).ok()).unwrap_or_default(),
                why: format!("a line of the journal of {name} was damaged{unreadable}"),
            };
            // A journal line says nothing of the version it was made on: each is stored only
            // where there is no record, the others shown beside what is there now.
            let entries = salvaged.entries.into_iter().map(|entry| Based { entry, base: None }).collect();
            Some(Found { path, header, entries, torn: false })
        })
        .collect()
}

impl Found {
    /// Whether this is the rest of a damaged journal set aside beside the file ([`find_rests`]),
    /// not a recovery file a window kept.
    pub fn is_journal_rest(&self) -> bool {
        journal::is_rest_of(&self.header.file, &self.path)
    }

    /// Removes the file (its changes were applied, or saved into a new file).
    pub fn discard(&self) -> io::Result<()> {
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, Record};
    use crate::store::based::{Base, Keep};

    /// A new record of candidate `c`, made where there was none.
    fn put(c: u32) -> Based {
        let when = DateTime::from_timestamp(1_767_225_600, 0).unwrap();
        Based { entry: Entry::Put(Record::new(CandidateId(c), AnnotatorId::RESEARCHER, when)), base: Some(Base(None)) }
    }

    fn header(real: &Path) -> Header {
        Header {
            recovery: FORMAT.into(),
            version: VERSION,
            file: real.to_path_buf(),
            file_id: "id".into(),
            revision: 3,
            created: Utc::now(),
            why: "the disk is full".into(),
        }
    }

    #[test]
    fn a_recovery_file_holds_what_it_was_last_given_and_is_found_once_its_writer_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("m.json");
        let mut w = Writer::start(dir.path(), header(&real)).unwrap();
        assert!(w.path().file_name().unwrap().to_string_lossy().starts_with("m.json-"));
        w.keep(&[put(1)]).unwrap();
        w.keep(&[put(1), put(2)]).unwrap();
        // A live writer's file is not offered.
        assert!(find(dir.path(), &real, "id").is_empty());
        let path = w.path().to_path_buf();
        drop(w); // the window dies
        let found = find(dir.path(), &real, "id");
        assert_eq!((found.len(), found[0].entries.clone(), found[0].torn), (1, vec![put(1), put(2)], false));
        assert!(
            find(dir.path(), &real, "another").is_empty()
                && find(dir.path(), &dir.path().join("n.json"), "id").is_empty()
        );
        // Not a continuation: written again whole.
        let mut w = Writer::start(dir.path(), header(&real)).unwrap();
        w.keep(&[put(1), put(2)]).unwrap();
        w.keep(&[put(2), put(3)]).unwrap();
        let again = parse(w.path(), &fs::read(w.path()).unwrap()).unwrap();
        assert_eq!(again.entries, [put(2), put(3)]);
        // Cut short in its last line: the whole lines are kept.
        let mut bytes = fs::read(&path).unwrap();
        bytes.truncate(bytes.len() - 5);
        let torn = parse(&path, &bytes).unwrap();
        assert_eq!((torn.entries, torn.torn), (vec![put(1)], true));
        found[0].discard().unwrap();
        assert!(!path.exists());
    }

    /// A session on a copy of the tiny master, keeping what it cannot save in `folder`.
    fn session(path: &Path, folder: &Path) -> crate::session::Session {
        let (store, opened) = crate::store::Store::<Master>::open(path).unwrap();
        assert!(opened.read_only.is_none());
        let mut session = crate::session::Session::new(Box::new(store), None);
        session.keep_unsaved_in(folder.to_path_buf());
        session
    }

    fn judge(session: &mut crate::session::Session, candidate: u32, j: Judgement) {
        use crate::annotate::edit::Edit;
        session.edit(CandidateId(candidate), Edit::Judge(crate::model::Role::Pronoun, j)).unwrap();
    }

    /// A window on a copy of the tiny master in `dir` that judged candidate 3 (saved); then its
    /// lock is removed by hand and a command goes ahead: the window detaches. Its file, its
    /// recovery folder and the window.
    fn detached(dir: &Path) -> (PathBuf, PathBuf, crate::session::Session) {
        let folder = dir.join("recovery");
        let path = dir.join("tiny.master.json");
        fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/tiny/tiny.master.json"), &path).unwrap();
        let mut first = session(&path, &folder);
        judge(&mut first, 3, Judgement::Yes);
        assert!(first.recovery_path().is_none(), "saved: nothing to keep");
        fs::remove_file(crate::store::lock_path(&path)).unwrap();
        crate::workflow::on_master(&path, |s| crate::workflow::annotators::add(s, "Intruder")).unwrap();
        (path, folder, first)
    }

    fn tiny_copy() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("recovery");
        let path = dir.path().join("tiny.master.json");
        fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/tiny/tiny.master.json"), &path).unwrap();
        (dir, folder, path)
    }

    #[test]
    fn what_followed_a_damaged_journal_line_is_offered_and_applied_on_request() {
        use std::io::Write;
        let (_dir, folder, path) = tiny_copy();
        let mut first = session(&path, &folder);
        judge(&mut first, 3, Judgement::Yes);
        drop(first); // killed: the change is in the journal
        // A line written short (reported whole), then two changes written after it.
        let journal = crate::store::journal::path_for(&path);
        let put = |c: u32, j: Judgement| {
            let mut r = Record::new(
                CandidateId(c),
                AnnotatorId::RESEARCHER,
                DateTime::from_timestamp(1_767_225_600, 0).unwrap(),
            );
            r.pronoun = j;
            serde_json::to_string(&Entry::Put(r)).unwrap()
        };
        let half = put(5, Judgement::No);
        let damaged = format!("{}{}\n{}\n", &half[..40], put(4, Judgement::No), put(6, Judgement::Yes));
        fs::OpenOptions::new().append(true).open(&journal).unwrap().write_all(damaged.as_bytes()).unwrap();

        // Opening takes the change before the damage and offers what follows it, never unasked.
        let mut second = session(&path, &folder);
        assert_eq!(second.master().records.len(), 1);
        let offered = second.recoveries();
        assert_eq!(offered.len(), 1);
        assert_eq!(offered[0].header.why, "a line of the journal of tiny.master.json was damaged");
        assert!(offered[0].is_journal_rest());
        let said: Vec<String> = offered[0].entries.iter().map(|e| describe(&e.entry, second.master())).collect();
        assert_eq!(said, ["candidate 4, Researcher: pronoun no", "candidate 6, Researcher: pronoun yes"]);
        assert_eq!(second.apply_recovery(&offered[0]).unwrap().applied, 2);
        assert!(second.recoveries().is_empty() && !offered[0].path.exists());
        second.close().unwrap();
        assert_eq!(crate::store::master_file::load(&path).unwrap().records.len(), 3);
    }

    #[test]
    fn changes_a_detached_window_took_are_offered_to_the_next_opening() {
        let dir = tempfile::tempdir().unwrap();
        let (path, folder, mut first) = detached(dir.path());
        judge(&mut first, 4, Judgement::No);
        let not_saved = first.not_saved().unwrap();
        assert!(not_saved.detached && not_saved.kept_in.is_some(), "{not_saved:?}");
        // … and keeps, flushed, the change it journaled before and the one it could not save.
        let kept = not_saved.kept_in.unwrap();
        drop(first); // killed: no close
        let found = read(&kept).unwrap().unwrap();
        assert_eq!(found.entries.len(), 2);
        assert_eq!(found.header.file, fs::canonicalize(&path).unwrap());

        // The next opening offers it, says what it holds, and applies it on request.
        let mut second = session(&path, &folder);
        let offered = second.recoveries();
        assert_eq!(offered, std::slice::from_ref(&found));
        let said: Vec<String> = offered[0].entries.iter().map(|e| describe(&e.entry, second.master())).collect();
        assert_eq!(said, ["candidate 3, Researcher: pronoun yes", "candidate 4, Researcher: pronoun no"]);
        // The intruder's command folded the journaled change in; the other is not applied unasked.
        assert_eq!(second.master().records.len(), 1);
        // Saved as a new file first: the file itself stays as it is, the recovery file goes.
        let copy = dir.path().join("recovered.json");
        second.save_recovery_as(&offered[0], &copy).unwrap();
        let saved = crate::store::master_file::load(&copy).unwrap();
        assert_eq!((saved.records.len(), saved.annotators.len()), (2, 1));
        assert!(!kept.exists() && second.recoveries().is_empty());
        // Applied: through the store's checks, saved, and the recovery file removed.
        let mut w = Writer::start(&folder, found.header.clone()).unwrap();
        w.keep(&found.entries).unwrap();
        drop(w);
        let offered = second.recoveries();
        assert_eq!(second.apply_recovery(&offered[0]).unwrap().applied, 2);
        assert!(second.recoveries().is_empty() && second.not_saved().is_none());
        second.close().unwrap();
        let m = crate::store::master_file::load(&path).unwrap();
        assert_eq!((m.records.len(), m.annotators.len()), (2, 1));
        assert!(fs::read_dir(&folder).unwrap().next().is_none(), "no recovery file is left");
    }

    #[test]
    fn a_change_that_no_longer_fits_applies_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tiny.master.json");
        fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/tiny/tiny.master.json"), &path).unwrap();
        let real = fs::canonicalize(&path).unwrap();
        let mut h = header(&real);
        h.file_id = crate::store::master_file::load(&path).unwrap().id;
        let mut w = Writer::start(dir.path(), h).unwrap();
        w.keep(&[put(3), put(99)]).unwrap();
        drop(w);
        let mut s = session(&path, dir.path());
        let offered = s.recoveries();
        let e = s.apply_recovery(&offered[0]).unwrap_err().to_string();
        assert!(e.contains("change 2 cannot be applied") && e.contains("nothing was applied"), "{e}");
        assert_eq!(s.master().records.len(), 0);
        assert!(offered[0].path.exists(), "kept for the user to decide");
    }

    #[test]
    fn a_recovery_file_offered_after_the_file_changed_replaces_no_newer_record_unasked() {
        let dir = tempfile::tempdir().unwrap();
        // Detached, it keeps its next changes: candidate 4 judged no, then yes; 5 no.
        let (path, folder, mut first) = detached(dir.path());
        judge(&mut first, 4, Judgement::No);
        judge(&mut first, 4, Judgement::Yes);
        judge(&mut first, 5, Judgement::No);
        let kept = first.not_saved().unwrap().kept_in.unwrap();
        drop(first); // killed
        let found = read(&kept).unwrap().unwrap();
        assert_eq!(found.header.version, VERSION);
        assert!(found.entries.iter().all(|e| e.base.is_some()), "each says what it was made on");

        // The next window annotates candidate 4 anew before looking at the recovery file.
        let mut second = session(&path, &folder);
        use crate::annotate::edit::Edit;
        second.edit(CandidateId(4), Edit::Remarks("newer work".into())).unwrap();
        let newer = second.master().records.get(CandidateId(4), AnnotatorId::RESEARCHER).unwrap().clone();
        let offered = second.recoveries();
        let recovered = second.apply_recovery(&offered[0]).unwrap();
        // 3 (already there) and 5 applied; 4 left as it is, both versions given back.
        assert_eq!(recovered.applied, 2);
        assert_eq!(recovered.disagreements.len(), 1, "{:?}", recovered.disagreements);
        let d = &recovered.disagreements[0];
        assert_eq!((d.candidate, d.stored.as_ref()), (CandidateId(4), Some(&newer)));
        let proposed = d.proposed.as_ref().unwrap();
        assert_eq!((proposed.pronoun, proposed.remarks.as_str()), (Judgement::Yes, ""), "the later change of 4");
        assert_eq!(second.master().records.get(CandidateId(4), AnnotatorId::RESEARCHER), Some(&newer));
        assert_eq!(
            second.master().records.get(CandidateId(5), AnnotatorId::RESEARCHER).unwrap().pronoun,
            Judgement::No
        );
        assert!(offered[0].path.exists(), "kept until the user has chosen");
        // Keeping the file's version changes nothing; keeping the recovered one is a new change.
        second.choose(d, Keep::Stored).unwrap();
        assert_eq!(second.master().records.get(CandidateId(4), AnnotatorId::RESEARCHER), Some(&newer));
        second.choose(d, Keep::Proposed).unwrap();
        let chosen = second.master().records.get(CandidateId(4), AnnotatorId::RESEARCHER).unwrap().clone();
        assert_eq!((chosen.pronoun, chosen.remarks.as_str()), (Judgement::Yes, ""));
        // Chosen again once the record changed once more: refused, nothing changed.
        second.edit(CandidateId(4), Edit::Remarks("later still".into())).unwrap();
        let later = second.master().records.get(CandidateId(4), AnnotatorId::RESEARCHER).unwrap().clone();
        let e = second.choose(d, Keep::Proposed).unwrap_err().to_string();
        assert!(e.contains("changed again"), "{e}");
        assert_eq!(second.master().records.get(CandidateId(4), AnnotatorId::RESEARCHER), Some(&later));
        second.edit(CandidateId(4), Edit::Remarks(String::new())).unwrap();
        second.close().unwrap();
        let (m, _) = crate::store::load_with_journal::<Master>(&path).unwrap();
        let saved = m.records.get(CandidateId(4), AnnotatorId::RESEARCHER).unwrap();
        assert!(saved.same_content(&chosen), "saved: {saved:?}");

        // A version 1 file does not say what its changes were made on: it replaces no record.
        let mut h = found.header.clone();
        h.version = 1;
        let mut w = Writer::start(&folder, h).unwrap();
        let unsaid = |b: &Based| Based { entry: b.entry.clone(), base: None };
        w.keep(&[unsaid(&found.entries[0]), unsaid(&put(6))]).unwrap();
        let v1 = w.path().to_path_buf();
        drop(w);
        let bytes = fs::read_to_string(&v1).unwrap();
        assert!(!bytes.contains("\"base\""), "{bytes}");
        let mut third = session(&path, &folder);
        let offered: Vec<Found> = third.recoveries().into_iter().filter(|f| f.path == v1).collect();
        let recovered = third.apply_recovery(&offered[0]).unwrap();
        assert_eq!(recovered.applied, 2, "3 as stored already, 6 where there was none");
        assert!(recovered.disagreements.is_empty());
        third.close().unwrap();
    }
}
