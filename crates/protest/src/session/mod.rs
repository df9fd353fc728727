//! A file open for annotation and who is annotating it: every change goes through the
//! [`Session`], so it is stored durably and can be undone. The annotation window is its shell; it
//! holds no state of its own about the file. [`workspace`] opens masters and batches alike,
//! [`LiveView`] keeps a view of the master up to date one change at a time, and [`Opening`] is a set
//! of candidates to work through. A change the file cannot take is kept at once in a
//! [`recovery`] file, which the next opening offers.

mod live_view;
mod opening;
pub mod recovery;
pub mod remote;
pub mod workspace;

#[cfg(test)]
mod tests;

pub use live_view::{Follows, LiveView};
pub use opening::Opening;
pub use remote::{Courier, Remote};

use crate::Error;
use crate::annotate::conflicts::{self, Leaving};
use crate::annotate::edit::{self, Edit, EditError};
use crate::annotate::history::History;
use crate::annotate::suggestions::UsedTags;
use crate::annotate::timing::{self, Stopwatch};
use crate::model::clock::Clock;
use crate::model::{AnnotatorId, CandidateId, Category, Conflict, Master, Record};
use crate::store::Store;
use crate::store::based::{self, Disagreement, Keep};
use crate::store::journal::Entry;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use workspace::{LocalFile, Mode, Workspace};

pub struct Session {
    file: Open,
    annotator: AnnotatorId,
    order: Vec<CandidateId>,
    history: History,
    /// Changes made through this session, so views computed from the master know when to redo it.
    changes: u64,
    /// The records changed since the last change to the whole master, oldest first: change number
    /// `changed_from + 1 + i` is `changed[i]`. Views catch up from it ([`Session::since`]).
    changed: Vec<(CandidateId, AnnotatorId)>,
    changed_from: u64,
    /// The tags in use, for the tag boxes' suggestions every frame.
    tags: UsedTags,
    /// The active time on the example on screen, not yet in its record.
    stopwatch: Stopwatch,
    /// Where the changes the file cannot take are kept.
    keeping: Keeping,
    /// What dates a change (the computer's clock but in tests).
    clock: Clock,
}

/// What is open: a file on this computer, or a part whose changes go to a server.
enum Open {
    Local(Box<dyn LocalFile>),
    Remote(Box<Remote>),
}

impl Open {
    fn workspace(&self) -> &dyn Workspace {
        match self {
            Open::Local(file) => file.as_ref(),
            Open::Remote(remote) => remote.as_ref(),
        }
    }

    fn workspace_mut(&mut self) -> &mut dyn Workspace {
        match self {
            Open::Local(file) => file.as_mut(),
            Open::Remote(remote) => remote.as_mut(),
        }
    }

    fn local(&self) -> Option<&dyn LocalFile> {
        match self {
            Open::Local(file) => Some(file.as_ref()),
            Open::Remote(_) => None,
        }
    }

    fn remote(&self) -> Option<&Remote> {
        match self {
            Open::Remote(remote) => Some(remote),
            Open::Local(_) => None,
        }
    }

    fn master_store(&mut self) -> Option<&mut Store<Master>> {
        match self {
            Open::Local(file) => file.master_store(),
            Open::Remote(_) => None,
        }
    }
}

/// Why a page cannot write a file or apply a recovery file.
const NO_FILES: &str = "the web page keeps no files; your changes are sent to the server";

/// The recovery file of the changes the file cannot take ([`recovery`]).
#[derive(Debug, Default)]
struct Keeping {
    /// The folder of recovery files; `None`: changes not saved live in memory only.
    folder: Option<PathBuf>,
    writer: Option<recovery::Writer>,
    /// Why they could not be kept there either.
    failure: Option<String>,
}

/// Why a change made through the session did not happen, or is not on disk. The messages are
/// the ones the annotation window shows.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The edit is not allowed; the record is as it was.
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The clock is outside the years a record can be dated in; nothing was changed.
    #[error(transparent)]
    Clock(#[from] crate::model::clock::WrongClock),
    /// The change could not be saved, and is not kept in memory either.
    #[error("Could not save: {0}")]
    NotSaved(Error),
    /// Saving what is not saved failed again: it stays kept in memory, not saved.
    #[error("Still not saved: {0}")]
    StillNotSaved(Error),
    /// Closing failed (what the journal holds comes back when the file is next opened).
    #[error("Could not close the file: {0}")]
    Close(Error),
}

/// Changes the session keeps in memory that are not saved, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotSaved {
    pub changes: usize,
    pub why: String,
    /// Another program changed the file: nothing more is written to it here.
    pub detached: bool,
    /// The recovery file that holds them meanwhile, flushed to disk: the next opening of the file
    /// offers them even after a crash.
    pub kept_in: Option<PathBuf>,
    /// Why they could not be kept in a recovery file either.
    pub keep_failed: Option<String>,
    /// They go to a server ([`Remote`]), which does not answer: they are kept in the browser and
    /// sent again.
    pub remote: bool,
    /// The server does not know the page's link any more (revoked, or replaced by a new one):
    /// they cannot be sent; the page offers them as a file ([`Session::unsent_file`]).
    pub link_gone: bool,
}

/// What applying a recovery file did: how many of its changes were applied, and the records
/// changed since its changes were made, with both versions for the user to choose
/// ([`Session::choose`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recovered {
    pub applied: usize,
    pub disagreements: Vec<Disagreement>,
}

/// A change undone or redone: on which candidate, and what it was (`pronoun set to yes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    pub candidate: CandidateId,
    pub what: String,
}

/// What changed since a view of the master was computed, as [`Session::since`] tells it.
pub enum Since<'a> {
    Nothing,
    /// These records (candidate, annotator), oldest first, some perhaps more than once.
    Records(&'a [(CandidateId, AnnotatorId)]),
    /// The whole master may have changed: compute the view afresh.
    Everything,
}

/// Runs `work` on the master at `path`: through `session` when that is this master, open for a
/// researcher (the window then shows the change, and nothing writes behind the open file's
/// back), else on the file itself. The value comes with whether it went through the session.
pub fn on_master<T>(
    session: Option<&mut Session>,
    path: &Path,
    work: impl FnOnce(&mut Store<Master>) -> crate::Result<T>,
) -> crate::Result<(T, bool)> {
    match session.filter(|s| s.is_master_at(path)) {
        Some(session) => session.run(work).map(|value| (value, true)),
        None => crate::workflow::on_master(path, work).map(|done| (done.value, false)),
    }
}

/// What `look` sees of the master at `path`: the one open in `session` when that is this master,
/// open for a researcher ([`on_master`]), else the file as it is on disk.
pub fn with_master<T>(session: Option<&Session>, path: &Path, look: impl FnOnce(&Master) -> T) -> crate::Result<T> {
    if let Some(session) = session.filter(|s| s.is_master_at(path)) {
        return Ok(look(session.master()));
    }
    let (store, _) = Store::<Master>::open(path)?;
    let value = look(store.master());
    store.close()?;
    Ok(value)
}

impl Session {
    /// Whether this is the master at `path`, open for a researcher: changes to that master go
    /// through this session ([`on_master`]).
    pub fn is_master_at(&self, path: &Path) -> bool {
        self.mode() == Mode::Researcher && crate::store::atomic::same_file(self.path(), path)
    }

    /// A file on this computer; `preferred`: the annotator chosen last time for this file, used
    /// if it still exists.
    pub fn new(file: Box<dyn LocalFile>, preferred: Option<AnnotatorId>) -> Self {
        Session::of(Open::Local(file), preferred)
    }

    /// A part annotated in the web page, its changes sent to the server.
    pub fn remote(remote: Remote) -> Self {
        Session::of(Open::Remote(Box::new(remote)), None)
    }

    fn of(file: Open, preferred: Option<AnnotatorId>) -> Self {
        let master = file.workspace().master();
        let annotator = file
            .workspace()
            .annotator()
            .or(preferred.filter(|&a| a.is_researcher() || master.annotator(a).is_some()))
            .unwrap_or(AnnotatorId::RESEARCHER);
        let order = file.workspace().order();
        let tags = UsedTags::new(master);
        Session {
            file,
            annotator,
            order,
            history: History::default(),
            changes: 0,
            changed: Vec::new(),
            changed_from: 0,
            tags,
            keeping: Keeping::default(),
            stopwatch: Stopwatch::default(),
            clock: Clock::SYSTEM,
        }
    }

    /// Dates changes by `clock` from now on (tests play a wrong clock with it).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The time now by the session's clock, for what is made through it (a task set, a batch, a
    /// round of the automatic match), or why the clock cannot be believed.
    pub fn now(&self) -> Result<chrono::DateTime<chrono::Utc>, crate::model::clock::WrongClock> {
        self.clock.now()
    }

    /// Keeps every change the file cannot take in a recovery file in `folder`
    /// ([`recovery::folder_in`] the user's data folder), from now on.
    pub fn keep_unsaved_in(&mut self, folder: PathBuf) {
        self.keeping.folder = Some(folder);
        self.keep_unsaved();
    }

    /// The recovery file holding the changes not saved, while there is one.
    pub fn recovery_path(&self) -> Option<&Path> {
        self.keeping.writer.as_ref().map(recovery::Writer::path)
    }

    /// Makes the recovery file hold exactly what the file may not ([`LocalFile::unsaved_entries`]),
    /// flushed to disk; removes it once that is nothing. (A page's changes are kept in the
    /// browser by its [`Courier`].)
    fn keep_unsaved(&mut self) {
        let (Some(folder), Some(file)) = (self.keeping.folder.clone(), self.file.local()) else { return };
        let entries = file.unsaved_entries();
        if entries.is_empty() {
            if let Some(writer) = self.keeping.writer.take() {
                let _ = writer.remove();
            }
            self.keeping.failure = None;
            return;
        }
        let kept = match &mut self.keeping.writer {
            Some(writer) => writer.keep(&entries),
            None => {
                let header = recovery::Header {
                    recovery: recovery::FORMAT.into(),
                    version: recovery::VERSION,
                    file: file.real_path().to_path_buf(),
                    file_id: file.file_id().to_owned(),
                    revision: file.master().revision,
                    // Informational: a wrong clock must not keep the work from being kept.
                    created: self.clock.now().unwrap_or(crate::model::clock::EARLIEST),
                    why: file.detached().or(file.failure()).unwrap_or("not saved").to_owned(),
                };
                recovery::Writer::start(&folder, header).and_then(|mut writer| {
                    writer.keep(&entries)?;
                    self.keeping.writer = Some(writer);
                    Ok(())
                })
            }
        };
        self.keeping.failure = kept.err().map(|e| format!("{}: {e}", folder.display()));
    }

    /// The recovery files left for this file by windows that could not save their changes (and
    /// then crashed, or were closed without them), oldest first, then the rests of its damaged
    /// journals: to offer, never to apply unasked.
    /// (None for a page: it keeps its changes in the browser.)
    pub fn recoveries(&self) -> Vec<recovery::Found> {
        let Some(file) = self.file.local() else { return Vec::new() };
        let mut found = match &self.keeping.folder {
            Some(folder) => recovery::find(folder, file.real_path(), file.file_id()),
            None => Vec::new(),
        };
        found.retain(|f| Some(f.path.as_path()) != self.recovery_path());
        // And what followed a damaged journal line, set aside beside the file when it was opened.
        found.extend(recovery::find_rests(file.real_path(), file.file_id()));
        found
    }

    /// Applies the changes of a recovery file as the window's own, each checked and saved as an
    /// edit is — and only on the version of its record it was made on: a record changed since is
    /// left as it is, and both versions come back as a [`Disagreement`] for the user to choose.
    /// The file is removed once its changes are all saved (or kept in this session's own
    /// recovery file) and none disagrees; with disagreements it stays until the user has chosen
    /// (and removed it). Record changes are checked first, so that one that no longer fits
    /// applies none.
    pub fn apply_recovery(&mut self, found: &recovery::Found) -> crate::Result<Recovered> {
        let path = self.path().to_path_buf();
        match self.file.local() {
            Some(file) => file.writable()?,
            None => return Err(Error::refused(&found.path, NO_FILES)),
        }
        let refused = |i: usize, why: &dyn std::fmt::Display| {
            Error::refused(&found.path, format!("change {} cannot be applied to {}: {why}", i + 1, path.display()))
        };
        if !found.entries.iter().any(|e| matches!(e.entry, Entry::Roster(_))) {
            for (i, change) in found.entries.iter().enumerate() {
                if let Entry::Put(record) = &change.entry
                    && let Some((_, problem)) = crate::store::validate::record(self.master(), record)
                {
                    return Err(refused(i, &format!("{problem}; nothing was applied")));
                }
            }
        }
        let mut recovered = Recovered::default();
        for (i, change) in found.entries.iter().enumerate() {
            let (entry, applied) = (&change.entry, recovered.applied);
            if let Some((candidate, annotator)) = based::key(entry) {
                let now = self.master().records.get(candidate, annotator);
                if !based::applies(now, entry, change.base) {
                    if let Some(d) = Disagreement::of(now.cloned(), entry) {
                        d.add_to(&mut recovered.disagreements);
                    }
                    continue;
                }
                // A later change of the record stands in place of an earlier one that disagreed.
                recovered.disagreements.retain(|d| (d.candidate, d.annotator) != (candidate, annotator));
            }
            let not_saved = self.file.workspace().not_saved();
            let result = match entry {
                Entry::Put(record) => self.file.workspace_mut().put(record.clone()),
                Entry::Remove { candidate, annotator } => self.file.workspace_mut().remove(*candidate, *annotator),
                Entry::Roster(roster) => match self.file.master_store() {
                    Some(store) => store.commit_roster(roster.clone()),
                    None => Err(Error::refused(&path, "a batch has no annotators or task sets to change")),
                },
            };
            match result {
                // Kept as not saved: in this session's recovery file, like any edit.
                Err(_) if self.file.workspace().not_saved() > not_saved => {}
                Err(e) => {
                    self.applied_whole();
                    return Err(refused(
                        i,
                        &format!("{e} ({applied} before it were applied; the recovery file is kept)"),
                    ));
                }
                Ok(()) => {}
            }
            recovered.applied += 1;
        }
        self.applied_whole();
        let saved = self.file.workspace().not_saved() == 0 || self.recovery_path().is_some();
        if saved && recovered.disagreements.is_empty() {
            found.discard().map_err(|e| Error::io(&found.path, e))?;
        }
        Ok(recovered)
    }

    /// Keeps one version of a record two changes disagree about — a recovery file's and the
    /// file's ([`Session::apply_recovery`]), the page's and the server's
    /// ([`Remote::disagreements`]): keeping the stored one changes nothing; keeping the
    /// proposed one is a new change, made on the stored one (and refused if the record changed
    /// again meanwhile).
    pub fn choose(&mut self, d: &Disagreement, keep: Keep) -> Result<(), SessionError> {
        if let Open::Remote(remote) = &mut self.file {
            remote.choose(d.candidate, d.annotator, keep).map_err(SessionError::NotSaved)?;
            self.changed_whole();
            return Ok(());
        }
        let Some(change) = d.settle(keep) else { return Ok(()) };
        let now = self.master().records.get(d.candidate, d.annotator);
        if !based::applies(now, &change.entry, change.base) {
            let why = format!("the record of candidate {} changed again; look at it anew", d.candidate);
            return Err(SessionError::NotSaved(Error::refused(self.path(), why)));
        }
        self.store_for(d.candidate, d.annotator, based::result(&change.entry).cloned())
    }

    /// Records changed here that the server holds in another version (the web page): both, for
    /// the annotator to choose ([`Session::choose`]).
    pub fn disagreements(&self) -> Vec<Disagreement> {
        self.file.remote().map(Remote::disagreements).unwrap_or_default()
    }

    /// The changes not saved as a file for the researcher, its name and bytes (the web page whose
    /// link no longer works, docs/serve.md).
    pub fn unsent_file(&self) -> Option<(String, Vec<u8>)> {
        self.file.remote()?.unsent_file()
    }

    /// After changes to several records at once: views are computed afresh and undo starts over.
    fn applied_whole(&mut self) {
        self.history = History::default();
        self.order = self.file.workspace().order();
        self.changed_whole();
        self.keep_unsaved();
    }

    /// Writes this file with the changes of a recovery file on top into a new file at `path`,
    /// leaving this one as it is; the recovery file is removed once the new file is written.
    pub fn save_recovery_as(&self, found: &recovery::Found, path: &Path) -> crate::Result<()> {
        let entries: Vec<Entry> = found.entries.iter().map(|b| b.entry.clone()).collect();
        let Some(file) = self.file.local() else { return Err(Error::whole_file(path, NO_FILES)) };
        file.save_copy_with(path, &entries)?;
        found.discard().map_err(|e| Error::io(&found.path, e))
    }

    pub fn master(&self) -> &Master {
        self.file.workspace().master()
    }

    /// The file's path, or (the web page) whose part of which task set.
    pub fn path(&self) -> &Path {
        self.file.workspace().path()
    }

    pub fn mode(&self) -> Mode {
        self.file.workspace().mode()
    }

    pub fn is_read_only(&self) -> bool {
        self.file.workspace().is_read_only()
    }

    /// Candidates in display order.
    pub fn order(&self) -> &[CandidateId] {
        &self.order
    }

    pub fn annotator(&self) -> AnnotatorId {
        self.annotator
    }

    /// The questions of `candidate` the current annotator is asked to settle as its adjudicator,
    /// with the other annotators' answers (docs/domain.md, "Verdicts"); none otherwise.
    pub fn disputes(&self, candidate: CandidateId) -> Vec<crate::model::Dispute> {
        self.file.workspace().disputes(candidate, self.annotator)
    }

    /// Whether the user may pick another annotator (a master; a batch belongs to one).
    pub fn can_switch_annotator(&self) -> bool {
        self.file.workspace().annotator().is_none()
    }

    /// Switches annotator. Undo steps are per annotator, so the history starts afresh.
    pub fn set_annotator(&mut self, annotator: AnnotatorId) {
        if self.can_switch_annotator() && annotator != self.annotator {
            self.annotator = annotator;
            self.history = History::default();
        }
    }

    /// What is not saved and why, while something is not: for the status line and the banner.
    pub fn not_saved(&self) -> Option<NotSaved> {
        let file = self.file.workspace();
        let changes = file.not_saved();
        let kept_in = self.recovery_path().map(Path::to_path_buf);
        let keep_failed = self.keeping.failure.clone();
        if let Some(why) = self.file.local().and_then(|f| f.detached()) {
            return Some(NotSaved {
                changes,
                why: why.to_owned(),
                detached: true,
                kept_in,
                keep_failed,
                remote: false,
                link_gone: false,
            });
        }
        let why = file.failure()?.to_owned();
        (changes > 0).then_some(NotSaved {
            changes,
            why,
            detached: false,
            kept_in,
            keep_failed,
            remote: self.is_remote(),
            link_gone: self.file.remote().is_some_and(Remote::link_gone),
        })
    }

    /// Changes on their way to the server, not acknowledged yet, while nothing failed (a page's,
    /// [`Remote`]); 0 for a file, whose changes are saved when made.
    pub fn sending(&self) -> usize {
        match self.file.remote() {
            Some(remote) if remote.failure().is_none() => {
                remote.not_saved().saturating_sub(remote.disagreements().len())
            }
            _ => 0,
        }
    }

    /// Whether changes go to a server (the web page) rather than to a file.
    pub fn is_remote(&self) -> bool {
        self.file.remote().is_some()
    }

    /// Lets work that goes on by itself take a step (sending changes to the server, reading
    /// again a file another program holds and changed); returns whether the master was read
    /// afresh (views are then computed afresh). Called every frame; `now` in seconds.
    pub fn poll(&mut self, now: f64) -> bool {
        let afresh = self.file.workspace_mut().poll(now);
        if afresh {
            self.order = self.file.workspace().order();
            self.changed_whole();
        }
        afresh
    }

    /// What the annotator must be told that happened by itself (a change the server refused),
    /// each once.
    pub fn notices(&mut self) -> Vec<String> {
        match &mut self.file {
            Open::Remote(remote) => remote.notices(),
            Open::Local(_) => Vec::new(),
        }
    }

    /// Tries again to save what is not saved.
    pub fn retry(&mut self) -> Result<(), SessionError> {
        let result = self.file.workspace_mut().retry().map_err(SessionError::StillNotSaved);
        self.keep_unsaved();
        result
    }

    /// Writes the file as it is here, changes not saved included, into a new file.
    pub fn save_copy(&self, path: &Path) -> crate::Result<()> {
        match self.file.local() {
            Some(file) => file.save_copy(path),
            None => Err(Error::whole_file(path, NO_FILES)),
        }
    }

    /// How many changes have been made through this session: a new number means a changed master.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// What changed after change number `seen` (a view computed when [`Session::changes`] was
    /// `seen` catches up from it).
    pub fn since(&self, seen: u64) -> Since<'_> {
        match seen {
            _ if seen == self.changes => Since::Nothing,
            _ if seen < self.changed_from || seen > self.changes => Since::Everything,
            _ => Since::Records(&self.changed[(seen - self.changed_from) as usize..]),
        }
    }

    /// The tags to offer for a candidate of `category` ([`crate::annotate::suggestions::tag_suggestions`]).
    pub fn tag_suggestions(&self, category: &Category) -> Vec<String> {
        self.tags.suggestions(category)
    }

    /// Counts a change beyond single records: views of the master are computed afresh.
    fn changed_whole(&mut self) {
        self.changes += 1;
        self.changed.clear();
        self.changed_from = self.changes;
        self.tags = UsedTags::new(self.master());
    }

    /// One of the researcher's operations on the master (`crate::workflow`): all or nothing,
    /// in memory and on disk. Masters only: a batch holds one annotator's work and nothing else
    /// changes in it. The operation may add candidates, so the display order is taken afresh.
    pub fn run<T>(&mut self, operation: impl FnOnce(&mut Store<Master>) -> crate::Result<T>) -> crate::Result<T> {
        let path = self.path().to_path_buf();
        let Some(store) = self.file.master_store() else {
            return Err(Error::refused(path, "only a master can be changed this way; this is an annotator's batch"));
        };
        // Which records there were, to tell a merge; not a copy of them (most operations change
        // only the roster).
        let records = store.master().records.version();
        let before = store.changes();
        let value = operation(store);
        // A full save also saves what was not saved.
        self.keep_unsaved();
        let value = value?;
        let Some(store) = self.file.master_store() else { unreachable!("a master above") };
        if store.changes() == before {
            return Ok(value);
        }
        if self.master().records.version() != records {
            // A merge: undoing an earlier step would overwrite what it brought, so the history
            // starts afresh.
            self.history = History::default();
        }
        let annotator = self.annotator;
        if !annotator.is_researcher() && self.master().annotator(annotator).is_none() {
            // The annotator was removed.
            self.annotator = AnnotatorId::RESEARCHER;
            self.history = History::default();
        }
        self.order = self.file.workspace().order();
        self.changed_whole();
        Ok(value)
    }

    /// The current annotator's record of a candidate.
    pub fn record(&self, candidate: CandidateId) -> Option<&Record> {
        self.master().records.get(candidate, self.annotator)
    }

    /// The annotator was at work on `candidate`'s example at `now` (seconds on a clock that only
    /// goes forward): its active time goes into the record with the next change, on leaving, or
    /// when the annotator goes [`away`](Session::away). The shell says so before it acts on the
    /// input, so that a change or leaving counts the time up to it.
    pub fn active(&mut self, candidate: CandidateId, now: f64) {
        self.stopwatch.active(candidate, now);
    }

    /// The annotator went away from the example on screen at `now` (the window lost the
    /// keyboard, the page was hidden): the time up to `now` goes into its record (if there is
    /// one), and nothing counts until the next sign of activity. Does nothing when there is no
    /// time to store, so the shell may say it every frame the window is away.
    pub fn away(&mut self, now: f64) -> Result<(), SessionError> {
        self.stopwatch.away(now);
        match self.stopwatch.on() {
            Some(candidate) if !self.is_read_only() => self.bank(candidate),
            _ => Ok(()),
        }
    }

    /// Stores the active time banked for `candidate` into its record, if it has one that
    /// measures time.
    fn bank(&mut self, candidate: CandidateId) -> Result<(), SessionError> {
        let banked = self.stopwatch.banked(candidate) > 0;
        match self.record(candidate).filter(|r| banked && r.active_ms.is_some()).cloned() {
            Some(record) => {
                let record = self.timed(record, false);
                self.store(candidate, Some(record))
            }
            None => Ok(()),
        }
    }

    /// `record` (the current annotator's) with the active time banked for it: a new record starts
    /// its time here, one made before time was measured stays unmeasured.
    fn timed(&mut self, mut record: Record, new: bool) -> Record {
        if record.annotator == self.annotator {
            let ms = self.stopwatch.take(record.candidate);
            record.active_ms = if new { Some(ms) } else { timing::add(record.active_ms, ms) };
        }
        record
    }

    /// Makes one change to the current annotator's record and stores it.
    pub fn edit(&mut self, candidate: CandidateId, edit: Edit) -> Result<(), SessionError> {
        self.edit_as(candidate, self.annotator, edit)
    }

    /// Makes one change to someone's record (the researcher's tags in the overview) and stores
    /// it; undo takes it back like any other change.
    pub fn edit_as(&mut self, candidate: CandidateId, annotator: AnnotatorId, edit: Edit) -> Result<(), SessionError> {
        let before = self.master().records.get(candidate, annotator).cloned();
        let now = self.clock.now()?;
        let after = edit::apply(self.master(), candidate, annotator, before.as_ref(), edit, now)?;
        let unchanged = match &before {
            Some(b) => b.same_content(&after),
            None => after.is_blank(),
        };
        if unchanged {
            return Ok(());
        }
        let after = self.timed(after, before.is_none());
        self.store_for(candidate, annotator, Some(after.clone()))?;
        self.history.push(before, Some(after));
        Ok(())
    }

    /// Checks the record of the example being left: stores a clear status, or returns the failed
    /// rules for the conflict dialog.
    /// The active time banked for the example goes into its record (if there is one).
    pub fn leave(&mut self, candidate: CandidateId) -> Result<Vec<Conflict>, SessionError> {
        match conflicts::on_leave(self.master(), self.record(candidate)) {
            Leaving::Nothing => self.bank(candidate).map(|()| Vec::new()),
            Leaving::Settle(record) => self.settle(record).map(|()| Vec::new()),
            Leaving::Ask(conflicts) => Ok(conflicts),
        }
    }

    /// *Keep as is*: stores the record with its conflicts.
    pub fn keep(&mut self, candidate: CandidateId, conflicts: Vec<Conflict>) -> Result<(), SessionError> {
        let Some(record) = self.record(candidate) else { return Ok(()) };
        let kept = conflicts::settle(record, conflicts);
        self.settle(kept)
    }

    /// Stores a record's new conflict status; the change that made the record, if still in the
    /// history, now ends with it, so redo gives the record back as it was left.
    fn settle(&mut self, record: Record) -> Result<(), SessionError> {
        let record = self.timed(record, false);
        self.history.settled(&record);
        self.store(record.candidate, Some(record))
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Reverts the last change: stores the whole record as it was before (its conflict status
    /// included). Returns what was undone, to show it.
    pub fn undo(&mut self) -> Result<Option<Undone>, SessionError> {
        let Some(step) = self.history.undo() else { return Ok(None) };
        let (candidate, annotator) = step.key();
        let before = self.keeping_time(step.before.clone());
        if let Err(e) = self.store_for(candidate, annotator, before) {
            self.history.redo(); // keep the history in step with the file
            return Err(e);
        }
        Ok(Some(Undone { candidate, what: step.describe(self.master()) }))
    }

    /// Makes the last undone change again: stores the whole record as it was after it (as it
    /// was left, if the conflict checks settled it). Returns what was redone.
    pub fn redo(&mut self) -> Result<Option<Undone>, SessionError> {
        let Some(step) = self.history.redo() else { return Ok(None) };
        let (candidate, annotator) = step.key();
        let after = self.keeping_time(step.after.clone());
        if let Err(e) = self.store_for(candidate, annotator, after) {
            self.history.undo();
            return Err(e);
        }
        Ok(Some(Undone { candidate, what: step.describe(self.master()) }))
    }

    /// A record as undo or redo gives it back, with the active time its record holds now: time
    /// spent is not taken back with the change.
    fn keeping_time(&self, record: Option<Record>) -> Option<Record> {
        record.map(|mut r| {
            let now = self.master().records.get(r.candidate, r.annotator).and_then(|c| c.active_ms);
            r.active_ms = r.active_ms.map(|t| t.max(now.unwrap_or(0)));
            r
        })
    }

    fn store(&mut self, candidate: CandidateId, record: Option<Record>) -> Result<(), SessionError> {
        self.store_for(candidate, self.annotator, record)
    }

    fn store_for(
        &mut self,
        candidate: CandidateId,
        annotator: AnnotatorId,
        record: Option<Record>,
    ) -> Result<(), SessionError> {
        let tags_of =
            |s: &Self| s.master().records.get(candidate, annotator).map(|r| r.tags.clone()).unwrap_or_default();
        let before: BTreeSet<String> = tags_of(self);
        let kept = record.clone();
        let result = match record {
            Some(r) => self.file.workspace_mut().put(r),
            None => self.file.workspace_mut().remove(candidate, annotator),
        };
        // Whether or not it failed, the views follow what the master now holds, and what the
        // file could not take is kept before the change is shown.
        self.tags.change(&before, &tags_of(self));
        self.changes += 1;
        self.changed.push((candidate, annotator));
        self.keep_unsaved();
        match result {
            Ok(()) => Ok(()),
            // Kept in memory as not saved: the status line and the banner say so until it is.
            Err(_) if self.master().records.get(candidate, annotator) == kept.as_ref() => Ok(()),
            Err(e) => Err(SessionError::NotSaved(e)),
        }
    }

    /// Folds the journal into the file and releases it. The recovery file, if there is one,
    /// goes once everything is saved; it stays (for the next opening to offer) when something is
    /// not, or when another program changed the file, which may have lost what its journal held.
    pub fn close(mut self) -> Result<(), SessionError> {
        let writer = self.keeping.writer.take();
        let detached = self.file.local().is_some_and(|f| f.detached().is_some());
        let closed = match self.file {
            Open::Local(file) => file.close(),
            Open::Remote(remote) => remote.close(),
        };
        let closed = closed.map_err(SessionError::Close);
        if let (Ok(()), false, Some(writer)) = (&closed, detached, writer) {
            let _ = writer.remove();
        }
        closed
    }
}
