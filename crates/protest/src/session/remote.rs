//! A part annotated in a web page (docs/serve.md): the annotator's batch in memory, and every
//! change kept in an *outbox* until `protest serve` acknowledges it.
//!
//! This is the page's [`Workspace`]: plain code without input or output of its own. The page
//! gives it a [`Courier`] that keeps the outbox where it outlives the page (the browser's
//! storage) and carries changes to the server and its answers back. A change is put in the outbox
//! and kept before [`Workspace::put`] returns, and leaves it only when the server says it took
//! it (or refused it, which the annotator is told); the others are sent again, oldest first,
//! whenever the server answers again, a little later after each failure.

use super::workspace::{Mode, Workspace};
use crate::error::{Error, Result};
use crate::model::{AnnotatorId, CandidateId, Master, Record};
use crate::store::Store;
use crate::store::batch_file::Batch;
use crate::store::journal::Entry;
use crate::web::protocol::{Answers, Change, ChangeId, MAX_CHANGES};
use rand::SeedableRng;
use std::path::{Path, PathBuf};

/// How long a request may go unanswered before it counts as failed (seconds).
pub const PATIENCE: f64 = 20.0;
/// The longest wait between two attempts while the server does not answer (seconds).
pub const MAX_DELAY: f64 = 8.0;

/// What the page does for a [`Remote`]: keep and carry.
pub trait Courier: Send {
    /// Keeps the changes not yet acknowledged, oldest first, where they outlive the page.
    fn keep(&mut self, outbox: &[Change]) -> std::result::Result<(), String>;
    /// Sends changes to the server, as request number `number`.
    fn send(&mut self, number: u64, changes: &[Change]);
    /// An answer that has come since the last call, with the number of its request: what the
    /// server said, or why it could not be reached.
    fn answer(&mut self) -> Option<(u64, std::result::Result<Answers, String>)>;
}

/// The open part: the batch, its outbox and its courier.
pub struct Remote {
    /// What the status line names: whose part of which task set.
    label: PathBuf,
    batch: Batch,
    outbox: Vec<Change>,
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
    /// Changes the server refused, and why: the annotator is told.
    refused: Vec<String>,
    /// Changes the server took since the part was opened.
    taken: usize,
}

impl Remote {
    /// The part in `batch` (as the server gave it), with `kept`: changes a page kept but the
    /// server had not acknowledged (this page before a reload, or a closed tab), applied on top
    /// and sent again. A kept change that no longer fits the batch is reported, not applied.
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
            courier,
            rng: rand_chacha::ChaCha12Rng::from_os_rng(),
            in_flight: None,
            requests: 0,
            next_try: f64::NEG_INFINITY,
            delay: 1.0,
            failure: None,
            refused: Vec::new(),
            taken: 0,
        };
        let mut problems = Vec::new();
        for change in kept {
            if remote.outbox.iter().any(|c| c.id == change.id) {
                continue; // two tabs kept it
            }
            match remote.apply(&change.entry) {
                Ok(()) => remote.outbox.push(change),
                Err(why) => problems.push(why),
            }
        }
        let kept = remote.keep();
        if let Err(why) = kept {
            problems.push(why);
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

    /// Applies a change of a record to the part, checked as the store checks one.
    fn apply(&mut self, entry: &Entry) -> std::result::Result<(), String> {
        if let Entry::Roster(_) = entry {
            return Err("a page changes records only".into());
        }
        crate::store::apply(&mut self.batch.content, entry)
    }

    fn change(&mut self, entry: Entry) -> Result<()> {
        self.apply(&entry).map_err(|m| Error::whole_file(&self.label, m))?;
        let id = ChangeId::random(&mut self.rng);
        self.outbox.push(Change { id, entry });
        if self.failure.is_none() {
            self.next_try = f64::NEG_INFINITY; // sent with the next poll
        }
        self.keep().map_err(|why| Error::whole_file(&self.label, why))
    }

    fn keep(&mut self) -> std::result::Result<(), String> {
        self.courier.keep(&self.outbox).map_err(|why| format!("could not keep the changes in this browser: {why}"))
    }

    /// Takes what the server answered.
    fn answered(&mut self, number: u64, answer: std::result::Result<Answers, String>, now: f64) {
        if self.in_flight.is_some_and(|(n, _)| n == number) {
            self.in_flight = None;
        }
        match answer {
            Ok(answers) => {
                let before = self.outbox.len();
                self.outbox.retain(|c| !answers.taken.contains(&c.id));
                self.taken += before - self.outbox.len();
                for refused in &answers.refused {
                    if let Some(i) = self.outbox.iter().position(|c| c.id == refused.id) {
                        self.outbox.remove(i);
                        self.refused.push(refused.why.clone());
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
                // Forgetting them is kept too; if that fails they are only sent again.
                let _ = self.keep();
            }
            Err(why) => self.failed(why, now),
        }
    }

    fn failed(&mut self, why: String, now: f64) {
        self.failure = Some(why);
        self.next_try = now + self.delay;
        self.delay = (self.delay * 2.0).min(MAX_DELAY);
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

    fn master_store(&mut self) -> Option<&mut Store<Master>> {
        None
    }

    fn not_saved(&self) -> usize {
        self.outbox.len()
    }

    fn failure(&self) -> Option<&str> {
        self.failure.as_deref().filter(|_| !self.outbox.is_empty())
    }

    fn detached(&self) -> Option<&str> {
        None
    }

    fn retry(&mut self) -> Result<()> {
        self.next_try = f64::NEG_INFINITY;
        self.delay = 1.0;
        Ok(())
    }

    fn save_copy(&self, path: &Path) -> Result<()> {
        Err(Error::whole_file(path, "the web page keeps no files; your changes are sent to the server"))
    }

    fn save_copy_with(&self, path: &Path, _changes: &[Entry]) -> Result<()> {
        self.save_copy(path)
    }

    fn real_path(&self) -> &Path {
        &self.label
    }

    fn file_id(&self) -> &str {
        crate::store::Document::file_id(&self.batch)
    }

    fn writable(&self) -> Result<()> {
        Ok(())
    }

    /// The browser's storage keeps what the server has not acknowledged; there is no file here
    /// whose journal could lack a change.
    fn unsaved_entries(&self) -> Vec<Entry> {
        self.outbox.iter().map(|change| change.entry.clone()).collect()
    }

    /// The outbox stays in the browser's storage: a page opened again sends it.
    fn close(self: Box<Self>) -> Result<()> {
        Ok(())
    }

    fn remote(&self) -> bool {
        true
    }

    fn notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.refused)
            .into_iter()
            .map(|why| {
                format!("The server refused a change ({why}); reload the page to see your part as the server has it.")
            })
            .collect()
    }

    /// Takes the server's answers, counts a request unanswered for too long as failed, and
    /// sends what waits. The part itself never changes here (false).
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
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::edit::Edit;
    use crate::batches::export;
    use crate::model::{Judgement, Role};
    use crate::session::Session;
    use crate::web::protocol::Refused;
    use std::sync::{Arc, Mutex};

    /// A courier whose server the test plays: what was kept and sent, and the answers to give.
    #[derive(Default)]
    struct Post {
        kept: Vec<Change>,
        sent: Vec<(u64, Vec<Change>)>,
        answers: Vec<(u64, std::result::Result<Answers, String>)>,
    }

    #[derive(Clone, Default)]
    struct Fake(Arc<Mutex<Post>>);

    impl Courier for Fake {
        fn keep(&mut self, outbox: &[Change]) -> std::result::Result<(), String> {
            self.0.lock().unwrap().kept = outbox.to_vec();
            Ok(())
        }
        fn send(&mut self, number: u64, changes: &[Change]) {
            self.0.lock().unwrap().sent.push((number, changes.to_vec()));
        }
        fn answer(&mut self) -> Option<(u64, std::result::Result<Answers, String>)> {
            let mut post = self.0.lock().unwrap();
            (!post.answers.is_empty()).then(|| post.answers.remove(0))
        }
    }

    impl Fake {
        fn last_sent(&self) -> (u64, Vec<Change>) {
            self.0.lock().unwrap().sent.last().cloned().expect("something was sent")
        }
        fn answer_with(&self, number: u64, answer: std::result::Result<Answers, String>) {
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
        (Session::new(Box::new(remote), None), fake, problems)
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
        fake.answer_with(n, Ok(Answers { taken: Vec::new(), refused, trouble: None }));
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
}
