//! A part annotated in a web page (docs/serve.md): the annotator's batch in memory, and every
//! change kept in an *outbox* until `protest serve` acknowledges it.
//!
//! This is the page's [`Workspace`]: plain code without input or output of its own. The page
//! gives it a [`Courier`] that keeps the outbox where it outlives the page (the browser's
//! storage) and carries changes to the server and its answers back. A change is put in the outbox
//! and kept before [`Workspace::put`] returns, and leaves it only when the server says it took
//! it (or refused it, which the annotator is told); the others are sent again, oldest first,
//! whenever the server answers again, a little later after each failure.
//!
//! Every change carries the version of the record it was made on ([`crate::store::based`]); the
//! server stores it only on that version. One it answers with another version (another tab's, or
//! a closed tab's change sent late) is a [`Disagreement`]: the page shows the annotator's version
//! and the annotator chooses ([`Remote::choose`]); until then it stays in the browser's
//! storage too, so that closing the tab loses neither. A server that no longer knows the link
//! (revoked, or replaced) is not asked again by itself: the changes are offered as a file
//! ([`crate::web::unsent`]).

use super::workspace::{Mode, Workspace};
use crate::error::{Error, Result};
use crate::model::{AnnotatorId, CandidateId, Master, Record};
use crate::store::Misfit;
use crate::store::based::{self, Base, Disagreement, Keep};
use crate::store::batch_file::Batch;
use crate::store::journal::Entry;
use crate::web::protocol::{Answers, Change, ChangeId, MAX_CHANGES};
use crate::web::unsent::Unsent;
use rand::SeedableRng;
use std::path::{Path, PathBuf};

/// How long a request may go unanswered before it counts as failed (seconds).
pub const PATIENCE: f64 = 20.0;
/// The longest wait between two attempts while the server does not answer (seconds).
pub const MAX_DELAY: f64 = 8.0;

/// Why a request brought no answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The server cannot be reached or cannot take the changes now (and why): they are sent again.
    Away(String),
    /// The server does not know this page's link (revoked, or replaced by a new one): sending
    /// again cannot help.
    NotALink,
}

impl From<&str> for Failure {
    fn from(why: &str) -> Failure {
        Failure::Away(why.to_owned())
    }
}

/// Why the browser did not keep the changes not yet stored: its own words (a script exception
/// as the browser shows it), which have no parts a caller could tell apart.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotKept(pub String);

/// The changes not yet stored could not be kept in this browser ([`Courier::keep`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("could not keep the changes in this browser: {0}")]
pub struct NotKeptHere(pub NotKept);

/// What the page does for a [`Remote`]: keep and carry.
pub trait Courier: Send {
    /// Keeps the changes not yet stored, oldest first, where they outlive the page.
    fn keep(&mut self, outbox: &[Change]) -> std::result::Result<(), NotKept>;
    /// Sends changes to the server, as request number `number`.
    fn send(&mut self, number: u64, changes: &[Change]);
    /// An answer that has come since the last call, with the number of its request: what the
    /// server said, or why there is no answer.
    fn answer(&mut self) -> Option<(u64, std::result::Result<Answers, Failure>)>;
}

/// A record whose change the server answered with another version: the annotator's version is
/// the part's record, the server's is `stored`.
#[derive(Debug, Clone)]
struct Undecided {
    candidate: CandidateId,
    annotator: AnnotatorId,
    stored: Option<Record>,
    /// Kept in the browser as a change with this id, made on `base` (the first conflicting
    /// change's), so that a page opened later sends it and is answered the same way.
    id: ChangeId,
    base: Option<Base>,
}

/// What the page tells the annotator once the link is gone.
const NOT_A_LINK: &str = "the server does not know this link: it was revoked, or replaced by a new one";

/// The open part: the batch, its outbox and its courier.
pub struct Remote {
    /// What the status line names: whose part of which task set.
    label: PathBuf,
    batch: Batch,
    outbox: Vec<Change>,
    /// Changes kept by an earlier page and not made on the part's record as the server gave it
    /// (sent, but shown only if the server takes them as changes made on another version).
    unapplied: Vec<ChangeId>,
    undecided: Vec<Undecided>,
    courier: Box<dyn Courier>,
    rng: rand_chacha::ChaCha12Rng,
    /// The request on its way: its number and when it left.
    in_flight: Option<(u64, f64)>,
    requests: u64,
    /// When to send next, and how long to wait after the next failure.
    next_try: f64,
    delay: f64,
    /// Why the last attempt failed (cleared by an answer).
    failure: Option<String>,
    /// The server does not know the link: nothing is sent again by itself.
    gone: bool,
    /// Changes the server refused, and why: the annotator is told.
    refused: Vec<String>,
    /// Changes the server took since the part was opened.
    taken: usize,
    /// Records of the part changed by an answer (a version the annotator has to choose from):
    /// the views are computed afresh.
    afresh: bool,
}

impl Remote {
    /// The part in `batch` (as the server gave it), with `kept`: changes a page kept but the
    /// server had not acknowledged (this page before a reload, or a closed tab), sent again
    /// first. Those made on the record the part has are applied to it at once; the others only
    /// if the server answers that they were made on another version (then the annotator
    /// chooses). A kept change that no longer fits the batch is reported, not applied.
    pub fn new(
        label: impl Into<PathBuf>,
        batch: Batch,
        kept: Vec<Change>,
        courier: Box<dyn Courier>,
    ) -> (Remote, Vec<String>) {
        let mut remote = Remote {
            label: label.into(),
            batch,
            outbox: Vec::new(),
            unapplied: Vec::new(),
            undecided: Vec::new(),
            courier,
            rng: rand_chacha::ChaCha12Rng::from_os_rng(),
            in_flight: None,
            requests: 0,
            next_try: f64::NEG_INFINITY,
            delay: 1.0,
            failure: None,
            gone: false,
            refused: Vec::new(),
            taken: 0,
            afresh: false,
        };
        let mut problems = Vec::new();
        for change in kept {
            if remote.outbox.iter().any(|c| c.id == change.id) {
                continue; // two tabs kept it
            }
            let made_on_this = change.base.is_some_and(|base| base == Base::of(remote.stored(&change.entry)));
            let fits = match made_on_this {
                true => remote.apply(&change.entry),
                false => remote.fits(&change.entry).map(|()| remote.unapplied.push(change.id.clone())),
            };
            match fits {
                Ok(()) => remote.outbox.push(change),
                Err(why) => problems.push(why.to_string()),
            }
        }
        let kept = remote.keep();
        if let Err(why) = kept {
            problems.push(why.to_string());
        }
        (remote, problems)
    }

    /// Changes waiting for the server, oldest first.
    pub fn outbox(&self) -> &[Change] {
        &self.outbox
    }

    /// Changes the server took since the part was opened.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// The part's record a change is about.
    fn stored(&self, entry: &Entry) -> Option<&Record> {
        let (candidate, annotator) = based::key(entry)?;
        self.batch.content.records.get(candidate, annotator)
    }

    /// Applies a change of a record to the part, checked as the store checks one.
    fn apply(&mut self, entry: &Entry) -> std::result::Result<(), Misfit> {
        if let Entry::Roster(_) = entry {
            return Err(Misfit::RecordsOnly);
        }
        crate::store::apply(&mut self.batch.content, entry)
    }

    /// Whether a change would fit the part (without applying it).
    fn fits(&self, entry: &Entry) -> std::result::Result<(), Misfit> {
        let mut content = self.batch.content.clone();
        crate::store::apply(&mut content, entry)
    }

    fn change(&mut self, entry: Entry) -> Result<()> {
        let base = Base::of(self.stored(&entry));
        self.apply(&entry).map_err(|m| Error::whole_file(&self.label, m.to_string()))?;
        self.send_later(entry, base);
        self.keep().map_err(|why| Error::whole_file(&self.label, why))
    }

    /// Puts a change made on `base` in the outbox, to go with the next poll.
    fn send_later(&mut self, entry: Entry, base: Base) {
        let id = ChangeId::random(&mut self.rng);
        self.outbox.push(Change { id, entry, base: Some(base) });
        if self.failure.is_none() {
            self.next_try = f64::NEG_INFINITY;
        }
    }

    /// Keeps in the browser what is not stored: the outbox, and the annotator's version of each
    /// record the server has another version of.
    fn keep(&mut self) -> std::result::Result<(), NotKeptHere> {
        let kept = self.not_stored();
        self.courier.keep(&kept).map_err(NotKeptHere)
    }

    /// What the server does not have: the outbox, then the annotator's version of each record
    /// the server has another version of, as a change made on what it was first made on.
    fn not_stored(&self) -> Vec<Change> {
        let mut changes = self.outbox.clone();
        for u in &self.undecided {
            let entry = match self.batch.content.records.get(u.candidate, u.annotator) {
                Some(mine) => Entry::Put(mine.clone()),
                None => Entry::Remove { candidate: u.candidate, annotator: u.annotator },
            };
            changes.push(Change { id: u.id.clone(), entry, base: u.base });
        }
        changes
    }

    /// Takes what the server answered.
    fn answered(&mut self, number: u64, answer: std::result::Result<Answers, Failure>, now: f64) {
        if self.in_flight.is_some_and(|(n, _)| n == number) {
            self.in_flight = None;
        }
        let answers = match answer {
            Ok(answers) => answers,
            Err(Failure::NotALink) => {
                self.gone = true;
                self.failure = Some(NOT_A_LINK.into());
                self.next_try = f64::INFINITY;
                return;
            }
            Err(Failure::Away(why)) => return self.failed(why, now),
        };
        self.gone = false;
        let before = self.outbox.len();
        self.outbox.retain(|c| !answers.taken.contains(&c.id));
        self.taken += before - self.outbox.len();
        for refused in &answers.refused {
            if let Some(i) = self.outbox.iter().position(|c| c.id == refused.id) {
                self.outbox.remove(i);
                self.refused.push(refused.why.clone());
            }
        }
        for conflict in answers.conflicts {
            if let Some(i) = self.outbox.iter().position(|c| c.id == conflict.id) {
                let change = self.outbox.remove(i);
                self.disagree(change, conflict.stored);
            }
        }
        match answers.trouble {
            Some(why) => self.failed(why, now),
            None => {
                self.failure = None;
                self.delay = 1.0;
                self.next_try = f64::NEG_INFINITY;
            }
        }
        let outbox = &self.outbox;
        self.unapplied.retain(|id| outbox.iter().any(|c| c.id == *id));
        // Forgetting them is kept too; if that fails they are only sent again.
        let _ = self.keep();
    }

    /// The server has `stored` where `change` was made on another version: the part shows the
    /// annotator's version, and the annotator chooses (unless only the time differs).
    fn disagree(&mut self, change: Change, stored: Option<Record>) {
        let Some((candidate, annotator)) = based::key(&change.entry) else { return };
        self.afresh = true;
        if let Some(i) = self.unapplied.iter().position(|id| *id == change.id) {
            // Not applied when the page opened: it is the annotator's version now.
            self.unapplied.remove(i);
            let _ = self.apply(&change.entry);
        }
        let first = self.undecided.iter().position(|u| (u.candidate, u.annotator) == (candidate, annotator));
        let (id, base) = match first {
            Some(i) => {
                let u = self.undecided.remove(i);
                (u.id, u.base)
            }
            None => (ChangeId::random(&mut self.rng), change.base),
        };
        self.undecided.push(Undecided { candidate, annotator, stored, id, base });
        let only_in_time = self.disagreements().last().is_some_and(Disagreement::only_in_time);
        if only_in_time {
            let _ = self.choose(candidate, annotator, Keep::Proposed);
        }
    }

    fn failed(&mut self, why: String, now: f64) {
        self.failure = Some(why);
        self.next_try = now + self.delay;
        self.delay = (self.delay * 2.0).min(MAX_DELAY);
    }

    /// The server no longer knows this page's link (revoked, or replaced by a new one) and
    /// changes are not saved: sending them again cannot help.
    pub fn link_gone(&self) -> bool {
        self.gone && self.not_saved() > 0
    }

    /// The changes not saved as a file for the researcher (`crate::web::unsent`): its name and
    /// bytes; `None` when there are none.
    pub fn unsent_file(&self) -> Option<(String, Vec<u8>)> {
        let changes = self.not_stored();
        if changes.is_empty() {
            return None;
        }
        let why = self.failure.clone().unwrap_or_else(|| "not sent".into());
        // Informational: a wrong clock must not keep the changes from being offered.
        let written = crate::model::clock::now().unwrap_or(crate::model::clock::EARLIEST);
        let unsent = Unsent::new(&self.batch, changes, why, written);
        Some((unsent.file_name(), unsent.to_bytes()))
    }

    /// Records changed here whose change the server answered with another version
    /// ([`crate::store::based`]): both versions, for the annotator to choose.
    pub fn disagreements(&self) -> Vec<Disagreement> {
        self.undecided
            .iter()
            .map(|u| Disagreement {
                candidate: u.candidate,
                annotator: u.annotator,
                stored: u.stored.clone(),
                proposed: self.batch.content.records.get(u.candidate, u.annotator).cloned(),
            })
            .collect()
    }

    /// Keeps one version of a record the server has another version of: the server's is put in
    /// the part (nothing is sent: the server has it), or the annotator's is sent again as a change
    /// made on the server's. Changes of that record still on their way were made on the
    /// annotator's version and go with it.
    pub fn choose(&mut self, candidate: CandidateId, annotator: AnnotatorId, keep: Keep) -> Result<()> {
        let Some(i) = self.undecided.iter().position(|u| (u.candidate, u.annotator) == (candidate, annotator)) else {
            return Ok(());
        };
        let Some(d) = self.disagreements().into_iter().nth(i) else { return Ok(()) };
        self.undecided.remove(i);
        self.outbox.retain(|c| based::key(&c.entry) != Some((candidate, annotator)));
        let stored_entry = match &d.stored {
            Some(r) => Entry::Put(r.clone()),
            None => Entry::Remove { candidate, annotator },
        };
        match d.settle(keep) {
            None => self.apply(&stored_entry).map_err(|m| Error::whole_file(&self.label, m.to_string()))?,
            Some(change) => {
                self.apply(&change.entry).map_err(|m| Error::whole_file(&self.label, m.to_string()))?;
                self.send_later(change.entry, change.base.unwrap_or(Base(None)));
            }
        }
        self.keep().map_err(|why| Error::whole_file(&self.label, why))
    }

    /// What the annotator must be told that happened by itself (a change the server refused),
    /// each once.
    pub fn notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.refused)
            .into_iter()
            .map(|why| {
                format!("The server refused a change ({why}); reload the page to see your part as the server has it.")
            })
            .collect()
    }
}

impl Workspace for Remote {
    fn path(&self) -> &Path {
        &self.label
    }

    fn master(&self) -> &Master {
        self.batch.content()
    }

    fn mode(&self) -> Mode {
        Mode::Annotator
    }

    fn order(&self) -> Vec<CandidateId> {
        self.batch.order()
    }

    fn annotator(&self) -> Option<AnnotatorId> {
        Some(self.batch.annotator().id)
    }

    fn is_read_only(&self) -> bool {
        false
    }

    fn disputes(&self, candidate: CandidateId, _: AnnotatorId) -> Vec<crate::model::Dispute> {
        self.batch.disputes_of(candidate)
    }

    /// Puts the record here and in the outbox, kept in the browser: Ok once it is kept (it is
    /// acknowledged later). If it cannot be kept, it is still sent, and the error says why.
    fn put(&mut self, record: Record) -> Result<()> {
        self.change(Entry::Put(record))
    }

    fn remove(&mut self, candidate: CandidateId, annotator: AnnotatorId) -> Result<()> {
        self.change(Entry::Remove { candidate, annotator })
    }

    /// The changes not stored: those on their way, and the annotator's versions of records the
    /// server has another version of.
    fn not_saved(&self) -> usize {
        self.outbox.len() + self.undecided.len()
    }

    fn failure(&self) -> Option<&str> {
        self.failure.as_deref().filter(|_| self.not_saved() > 0)
    }

    fn retry(&mut self) -> Result<()> {
        self.next_try = f64::NEG_INFINITY;
        self.delay = 1.0;
        Ok(())
    }

    /// The outbox stays in the browser's storage: a page opened again sends it.
    fn close(self: Box<Self>) -> Result<()> {
        Ok(())
    }

    /// Takes the server's answers, counts a request unanswered for too long as failed, and
    /// sends what waits. Returns whether records changed by themselves (a version the annotator
    /// has to choose from arrived).
    fn poll(&mut self, now: f64) -> bool {
        while let Some((number, answer)) = self.courier.answer() {
            self.answered(number, answer, now);
        }
        if let Some((number, since)) = self.in_flight
            && now - since > PATIENCE
        {
            self.answered(number, Err("the server does not answer".into()), now);
        }
        if self.in_flight.is_none() && !self.outbox.is_empty() && now >= self.next_try {
            self.requests += 1;
            let n = self.outbox.len().min(MAX_CHANGES);
            self.courier.send(self.requests, &self.outbox[..n]);
            self.in_flight = Some((self.requests, now));
        }
        std::mem::take(&mut self.afresh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::edit::Edit;
    use crate::batches::export;
    use crate::model::{Judgement, Role};
    use crate::session::Session;
    use crate::store::based::Keep;
    use crate::web::protocol::Refused;
    use std::sync::{Arc, Mutex};

    /// A courier whose server the test plays: what was kept and sent, and the answers to give.
    #[derive(Default)]
    struct Post {
        kept: Vec<Change>,
        sent: Vec<(u64, Vec<Change>)>,
        answers: Vec<(u64, std::result::Result<Answers, Failure>)>,
    }

    #[derive(Clone, Default)]
    struct Fake(Arc<Mutex<Post>>);

    impl Courier for Fake {
        fn keep(&mut self, outbox: &[Change]) -> std::result::Result<(), NotKept> {
            self.0.lock().unwrap().kept = outbox.to_vec();
            Ok(())
        }
        fn send(&mut self, number: u64, changes: &[Change]) {
            self.0.lock().unwrap().sent.push((number, changes.to_vec()));
        }
        fn answer(&mut self) -> Option<(u64, std::result::Result<Answers, Failure>)> {
            let mut post = self.0.lock().unwrap();
            (!post.answers.is_empty()).then(|| post.answers.remove(0))
        }
    }

    impl Fake {
        fn last_sent(&self) -> (u64, Vec<Change>) {
            self.0.lock().unwrap().sent.last().cloned().expect("something was sent")
        }
        fn answer_with(&self, number: u64, answer: std::result::Result<Answers, Failure>) {
            self.0.lock().unwrap().answers.push((number, answer));
        }
        fn take_all(&self, number: u64, changes: &[Change]) {
            let taken = changes.iter().map(|c| c.id.clone()).collect();
            self.answer_with(number, Ok(Answers { taken, ..Answers::default() }));
        }
    }

    fn anna() -> Batch {
        export::build(&crate::testing::sample(), 1, AnnotatorId(1), chrono::DateTime::UNIX_EPOCH).unwrap()
    }

    fn session(kept: Vec<Change>) -> (Session, Fake, Vec<String>) {
        let fake = Fake::default();
        let (remote, problems) = Remote::new("Anna", anna(), kept, Box::new(fake.clone()));
        (Session::remote(remote), fake, problems)
    }

    #[test]
    fn a_change_is_kept_sent_and_saved_once_acknowledged() {
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        assert_eq!(fake.0.lock().unwrap().kept.len(), 1, "kept before the edit returned");
        assert_eq!(s.sending(), 1);
        assert!(s.not_saved().is_none(), "nothing failed: it is on its way");
        s.poll(0.0);
        let (number, sent) = fake.last_sent();
        assert!(matches!(&sent[0].entry, Entry::Put(r) if r.pronoun == Judgement::Yes && r.candidate == first));
        s.poll(0.5);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 1, "one request at a time");
        fake.take_all(number, &sent);
        s.poll(1.0);
        assert_eq!(s.sending(), 0);
        assert!(fake.0.lock().unwrap().kept.is_empty(), "forgotten once acknowledged");
    }

    #[test]
    fn changes_wait_while_the_server_is_away_and_go_again_unchanged() {
        let (mut s, fake, _) = session(Vec::new());
        let (a, b) = (s.order()[0], s.order()[1]);
        s.edit(a, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        s.poll(0.0);
        let (n1, first) = fake.last_sent();
        fake.answer_with(n1, Err("connection refused".into()));
        s.poll(0.1);
        let n = s.not_saved().expect("the failure is shown");
        assert!(n.remote && n.changes == 1 && n.why.contains("connection refused"), "{n:?}");
        s.edit(b, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        s.poll(0.5);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 1, "not before the delay");
        s.poll(1.2);
        let (n2, again) = fake.last_sent();
        assert_eq!(again.len(), 2);
        assert_eq!(again[0], first[0], "the same change, with the same id");
        // No answer at all (a cut network): after PATIENCE it counts as failed and goes again.
        s.poll(1.3 + PATIENCE);
        assert!(s.not_saved().unwrap().why.contains("does not answer"));
        s.poll(1.3 + PATIENCE + 2.5);
        let (n3, third) = fake.last_sent();
        assert_eq!(third, again);
        // The late answer to the second request still counts: those changes are on the server.
        fake.take_all(n2, &again);
        s.poll(40.0);
        assert_eq!(s.not_saved(), None);
        assert_eq!(s.sending(), 0);
        fake.take_all(n3, &third);
        s.poll(41.0);
        assert_eq!(s.sending(), 0);
    }

    #[test]
    fn a_refused_change_is_said_and_not_sent_again() {
        let (mut s, fake, _) = session(Vec::new());
        s.edit(s.order()[0], Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        s.poll(0.0);
        let (n, sent) = fake.last_sent();
        let refused = vec![Refused { id: sent[0].id.clone(), why: "candidate 1 is not in your part".into() }];
        fake.answer_with(n, Ok(Answers { refused, ..Answers::default() }));
        s.poll(0.1);
        assert_eq!(s.sending(), 0);
        let notices = s.notices();
        assert!(notices[0].contains("refused a change (candidate 1 is not in your part)"), "{notices:?}");
        assert!(s.notices().is_empty(), "said once");
        s.poll(10.0);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 1);
    }

    #[test]
    fn changes_a_page_kept_are_applied_and_sent_again_once() {
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        let kept = fake.0.lock().unwrap().kept.clone();
        // The page is opened again (or a second tab takes them over), and a closed tab kept the same.
        let mut twice = kept.clone();
        twice.extend(kept.clone());
        let (mut s, fake, problems) = session(twice);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(s.record(first).unwrap().pronoun, Judgement::Yes);
        s.poll(0.0);
        assert_eq!(fake.last_sent().1, kept);
        // A kept change that does not fit the part is reported, not applied.
        let mut bad = kept[0].clone();
        if let Entry::Put(r) = &mut bad.entry {
            r.candidate = CandidateId(10_000);
        }
        let (_, _, problems) = session(vec![bad]);
        assert!(problems[0].contains("the candidate does not exist"), "{problems:?}");
    }

    #[test]
    fn the_active_time_goes_into_the_record() {
        let (mut s, _, _) = session(Vec::new());
        let (a, b) = (s.order()[0], s.order()[1]);
        s.active(a, 10.0);
        s.active(a, 14.0);
        s.edit(a, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        assert_eq!(s.record(a).unwrap().active_ms, Some(4_000), "a new record starts with the time so far");
        s.active(a, 20.0);
        s.active(a, 21.5);
        // Leaving adds what was spent after the change (the record settles: selected tokens are
        // missing for a yes, so the checks ask, and *Keep as is* stores it with its time).
        let conflicts = s.leave(a).unwrap();
        if !conflicts.is_empty() {
            s.keep(a, conflicts).unwrap();
        }
        assert_eq!(s.record(a).unwrap().active_ms, Some(11_500));
        // Undo does not take the time back.
        s.active(b, 30.0);
        s.undo().unwrap();
        s.undo().unwrap();
        s.redo().unwrap();
        assert_eq!(s.record(a).unwrap().active_ms, Some(11_500));
        // Nothing is stored for an example left without a record.
        s.active(b, 31.0);
        assert!(s.leave(b).unwrap().is_empty());
        assert!(s.record(b).is_none());
    }

    /// Anna's part as the server gives it once `record` is stored.
    fn anna_with(record: &Record) -> Batch {
        let mut batch = anna();
        crate::store::Document::master_mut(&mut batch).records.put(record.clone());
        batch
    }

    fn answer_conflict(fake: &Fake, stored: Option<Record>) {
        let (n, sent) = fake.last_sent();
        let conflicts = vec![crate::web::protocol::Conflicting { id: sent[0].id.clone(), stored }];
        fake.answer_with(n, Ok(Answers { conflicts, ..Answers::default() }));
    }

    #[test]
    fn each_change_carries_the_version_of_the_record_it_was_made_on() {
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        let made = s.record(first).unwrap().clone();
        s.edit(first, Edit::Remarks("closed-tab test".into())).unwrap();
        let kept = fake.0.lock().unwrap().kept.clone();
        assert_eq!(kept[0].base, Some(Base(None)), "made where there was no record");
        assert_eq!(kept[1].base, Some(Base::of(Some(&made))), "made on the first");
    }

    #[test]
    fn a_closed_tabs_changes_go_first_and_never_over_a_newer_record() {
        // A tab changed the first example (pronoun no, a remark) and closed before sending it.
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        s.edit(first, Edit::Remarks("closed-tab test".into())).unwrap();
        let kept = fake.0.lock().unwrap().kept.clone();
        let closed_tabs = s.record(first).unwrap().clone();

        // Opened again on the part as it was: the changes are applied and on their way at once —
        // nothing says "saved" before the server took them.
        let (mut s, fake, problems) = session(kept.clone());
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(s.record(first), Some(&closed_tabs));
        assert_eq!(s.sending(), 2);
        s.poll(0.0);
        assert_eq!(fake.last_sent().1, kept, "sent first, as they were made");

        // Opened again after the example was annotated anew elsewhere: the part shows the newer
        // record, the changes go, and the server answers each with the newer record.
        let mut newer = Record::new(first, AnnotatorId(1), chrono::Utc::now());
        newer.pronoun = Judgement::Yes;
        let fake = Fake::default();
        let (remote, problems) = Remote::new("Anna", anna_with(&newer), kept.clone(), Box::new(fake.clone()));
        assert!(problems.is_empty(), "{problems:?}");
        let mut s = Session::remote(remote);
        assert_eq!(s.record(first), Some(&newer), "not shown over the newer record");
        assert_eq!(s.sending(), 2);
        s.poll(0.0);
        let (n, sent) = fake.last_sent();
        let conflicts = sent
            .iter()
            .map(|c| crate::web::protocol::Conflicting { id: c.id.clone(), stored: Some(newer.clone()) })
            .collect();
        fake.answer_with(n, Ok(Answers { conflicts, ..Answers::default() }));
        assert!(s.poll(0.1), "the part changed: views afresh");
        // One example, two versions: the page shows the annotator's, keeps it, and asks.
        let d = s.disagreements();
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!((d[0].stored.as_ref(), d[0].proposed.as_ref()), (Some(&newer), Some(&closed_tabs)));
        assert_eq!(s.sending(), 0);
        assert_eq!(s.not_saved(), None, "nothing failed");
        let kept_now = fake.0.lock().unwrap().kept.clone();
        assert_eq!(kept_now.len(), 1, "the annotator's version stays in the browser");
        assert!(matches!(&kept_now[0].entry, Entry::Put(r) if *r == closed_tabs));
        s.poll(10.0);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 1, "not sent again by itself");

        // Keeping the annotator's version is a new change, made on the server's.
        s.choose(&d[0], Keep::Proposed).unwrap();
        assert!(s.disagreements().is_empty());
        s.poll(11.0);
        let (_, sent) = fake.last_sent();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].base, Some(Base::of(Some(&newer))));
        assert!(matches!(&sent[0].entry, Entry::Put(r) if r.same_content(&closed_tabs)));
    }

    #[test]
    fn keeping_the_servers_version_sends_nothing() {
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        s.poll(0.0);
        // Another tab stored a record there first.
        let mut theirs = Record::new(first, AnnotatorId(1), chrono::Utc::now());
        theirs.pronoun = Judgement::Yes;
        answer_conflict(&fake, Some(theirs.clone()));
        s.poll(0.1);
        let d = s.disagreements();
        assert_eq!(d[0].proposed.as_ref().map(|r| r.pronoun), Some(Judgement::No), "shown: the annotator's");
        s.choose(&d[0], Keep::Stored).unwrap();
        assert_eq!(s.record(first), Some(&theirs));
        s.poll(5.0);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 1);
        assert!(fake.0.lock().unwrap().kept.is_empty());
        assert_eq!(s.sending(), 0);
    }

    #[test]
    fn versions_that_differ_only_in_time_are_not_asked_about() {
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.active(first, 0.0);
        s.active(first, 3.0);
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        s.poll(0.0);
        let mut theirs = s.record(first).unwrap().clone();
        theirs.active_ms = Some(60_000);
        answer_conflict(&fake, Some(theirs.clone()));
        s.poll(0.1);
        assert!(s.disagreements().is_empty());
        s.poll(0.2);
        let (_, sent) = fake.last_sent();
        assert_eq!(sent[0].base, Some(Base::of(Some(&theirs))));
        assert!(matches!(&sent[0].entry, Entry::Put(r) if r.active_ms == Some(60_000)), "the longer time");
    }

    #[test]
    fn a_link_the_server_no_longer_knows_is_said_and_its_changes_offered_as_a_file() {
        let (mut s, fake, _) = session(Vec::new());
        let first = s.order()[0];
        s.edit(first, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        s.poll(0.0);
        let (n, sent) = fake.last_sent();
        fake.answer_with(n, Err(Failure::NotALink));
        s.poll(0.1);
        let not_saved = s.not_saved().unwrap();
        assert!(not_saved.link_gone && not_saved.remote && not_saved.changes == 1, "{not_saved:?}");
        assert!(not_saved.why.contains("does not know this link"), "{not_saved:?}");
        s.poll(600.0);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 1, "not sent again by itself: it cannot help");
        let (name, bytes) = s.unsent_file().unwrap();
        assert!(name.starts_with("Anna-task-set-1-unsent-") && name.ends_with(".json"), "{name}");
        let file: Unsent = serde_json::from_slice(&bytes).unwrap();
        assert_eq!((file.format.as_str(), file.task_set, file.annotator.id), ("protest-unsent", 1, AnnotatorId(1)));
        assert_eq!(file.changes, sent, "the changes as the page sends them, with their ids and bases");
        // Retry asks once more (the researcher may have given the link back).
        s.retry().unwrap();
        s.poll(601.0);
        assert_eq!(fake.0.lock().unwrap().sent.len(), 2);
    }
}
