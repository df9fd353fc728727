//! The window as the web page runs it (docs/serve.md): a part whose changes go to a server
//! through a courier (here one the test answers for), not to a file. What the page says about
//! saving follows the server's answers: "saved" only once a change is acknowledged.

use super::*;
use protest::session::remote::{Failure, NotKept};
use protest::session::{Courier, Remote, Session};
use protest::store::batch_file::Batch;
use protest::web::protocol::{Answers, Change};
use std::sync::{Arc, Mutex};

const SAMPLE: &[u8] = include_bytes!("../../../../sample_batches/sample.master.json");

/// What the page sent and the answers the test gives.
#[derive(Default)]
struct Server {
    sent: Vec<(u64, Vec<Change>)>,
    answers: Vec<(u64, Result<Answers, Failure>)>,
}

#[derive(Clone, Default)]
pub(super) struct Post(Arc<Mutex<Server>>);

impl Courier for Post {
    fn keep(&mut self, _: &[Change]) -> Result<(), NotKept> {
        Ok(())
    }
    fn send(&mut self, number: u64, changes: &[Change]) {
        self.0.lock().unwrap().sent.push((number, changes.to_vec()));
    }
    fn answer(&mut self) -> Option<(u64, Result<Answers, Failure>)> {
        self.0.lock().unwrap().answers.pop()
    }
}

impl Post {
    /// Answers the last request with what `answer` makes of its changes.
    pub(super) fn answer_last_with(&self, answer: impl FnOnce(&[Change]) -> Result<Answers, Failure>) {
        let mut server = self.0.lock().unwrap();
        let (number, changes) = server.sent.last().cloned().expect("a request");
        server.answers.push((number, answer(&changes)));
    }

    /// How many requests the page sent.
    pub(super) fn sent(&self) -> usize {
        self.0.lock().unwrap().sent.len()
    }

    /// Answers the last request: taken, or the server out of reach.
    pub(super) fn answer_last(&self, taken: bool) {
        let mut server = self.0.lock().unwrap();
        let (number, changes) = server.sent.last().cloned().expect("a request");
        let answer = match taken {
            true => Ok(Answers { taken: changes.iter().map(|c| c.id.clone()).collect(), ..Answers::default() }),
            false => Err("the server cannot be reached".into()),
        };
        server.answers.push((number, answer));
    }
}

fn anna() -> Batch {
    let master = protest::store::master_file::from_bytes(Path::new("sample.master.json"), SAMPLE).unwrap();
    protest::batches::export::build(&master, 1, ANNA, chrono::Utc::now()).unwrap()
}

/// The page with Anna's part of task set 1 of the sample, as it opens (no change sent yet).
pub(super) fn page() -> (Harness<'static, App>, Post) {
    let post = Post::default();
    let (remote, problems) = Remote::new("Anna — task set 1", anna(), Vec::new(), Box::new(post.clone()));
    assert!(problems.is_empty());
    let mut app = App::bare(Settings::default(), protest::store::disk::os());
    app.opened(Ok((Session::remote(remote), protest::store::Opened::default())));
    let mut h = window(app);
    h.settle();
    (h, post)
}

#[test]
fn the_page_says_saved_only_once_the_server_acknowledged() {
    let (mut h, post) = page();
    assert!(h.query_by_label("File").is_none(), "no files to open or write in the page");
    assert!(h.query_by_label("Edit").is_some());
    press(&mut h, Key::Enter);
    press(&mut h, Key::N);
    assert!(h.query_by_label("sending 1 change to the server…").is_some());
    assert_eq!(post.0.lock().unwrap().sent.len(), 1);
    post.answer_last(true);
    h.settle();
    assert!(h.query_by_label("every change is saved").is_some());

    // The server out of reach: the page says so, and keeps the change.
    press(&mut h, Key::Y);
    post.answer_last(false);
    h.settle();
    assert!(h.query_by_label("1 change not saved yet: waiting for the server").is_some());
    let banner = "1 change is not saved yet: the server cannot be reached. It is kept in this browser and sent again as soon as the server answers; you can go on working.";
    assert!(h.query_by_label(banner).is_some());
    // It answers again: the same change goes (Retry sends at once) and is acknowledged.
    h.get_by_label("Retry").click();
    h.settle();
    let sent = post.0.lock().unwrap().sent.clone();
    assert_eq!(sent.len(), 3);
    assert_eq!(sent[2].1, sent[1].1, "the same change, with the same id");
    post.answer_last(true);
    h.settle();
    assert!(h.query_by_label("every change is saved").is_some());
    assert!(h.query_by_label(banner).is_none());
}

/// The server may stay away for minutes: what the page says meanwhile takes a bar of its own
/// above the status line and covers nothing of the example, even in the smallest window.
#[test]
fn the_banner_covers_nothing_of_the_example_in_the_smallest_window() {
    let (mut h, post) = page();
    h.set_size(crate::MIN_SIZE);
    h.settle();
    press(&mut h, Key::Enter);
    press(&mut h, Key::N);
    post.answer_last(false);
    h.settle();
    let panel = h.state().side_panel.expect("an example is shown, with its panel");
    let legend = h.get_by_label(crate::panels::translation::LEGEND).rect();
    let banner = h.get_by_label_contains("1 change is not saved yet").rect().union(h.get_by_label("Retry").rect());
    assert!(
        banner.top() >= panel.bottom() && banner.top() >= legend.bottom(),
        "the banner {banner:?} is under the annotation panel {panel:?} and the translation's colour key {legend:?}"
    );
    assert!(h.ctx.content_rect().contains_rect(banner), "and in the window");
}

#[test]
fn the_active_time_on_an_example_is_stored_with_its_record() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    for _ in 0..30 {
        h.step(); // the example on screen for a while, the pointer moving
        h.hover_at(egui::pos2(300.0, 300.0));
    }
    press(&mut h, Key::N);
    let record = saved_record(&f.path, 3, ANNA).expect("saved");
    assert!(record.active_ms.is_some_and(|ms| ms > 0), "{record:?}");
}

/// A change the server did not store because the example changed since (in another tab): the
/// page brings both versions up beside the example, does not say "saved", and the annotator's
/// choice goes to the server as a change made on the saved version.
#[test]
fn two_versions_of_an_example_are_shown_and_the_choice_is_sent() {
    let (mut h, post) = page();
    press(&mut h, Key::Enter);
    let example = h.state().current_candidate().unwrap();
    press(&mut h, Key::N);
    let mut theirs = None;
    post.answer_last_with(|sent| {
        let protest::store::journal::Entry::Put(mine) = &sent[0].entry else { panic!("{sent:?}") };
        let mut other = mine.clone();
        other.pronoun = protest::model::Judgement::Yes;
        other.remarks = "from the other tab".into();
        theirs = Some(other.clone());
        let conflicts = vec![protest::web::protocol::Conflicting { id: sent[0].id.clone(), stored: Some(other) }];
        Ok(Answers { conflicts, ..Answers::default() })
    });
    h.settle();
    let theirs = theirs.unwrap();
    assert!(h.query_by_label_contains(": two versions").is_some(), "the dialog asks");
    assert_eq!(h.state().current_candidate(), Some(example), "beside the example");
    for shown in
        ["Saved on the server", "Yours, in this browser", "pronoun yes", "pronoun no", "remarks \"from the other tab\""]
    {
        assert!(h.query_by_label(shown).is_some(), "{shown}");
    }
    assert!(h.query_by_label("every change is saved").is_none());
    assert!(h.query_by_label("1 change not saved: choose between two versions").is_some());
    // Esc does not make the question go away.
    press(&mut h, Key::Escape);
    assert!(h.query_by_label_contains(": two versions").is_some());
    press(&mut h, Key::M);
    assert!(h.query_by_label_contains(": two versions").is_none());
    let sent = post.0.lock().unwrap().sent.clone();
    assert_eq!(sent.len(), 2);
    let kept = &sent[1].1[0];
    assert_eq!(kept.base, Some(protest::store::based::Base::of(Some(&theirs))), "made on the saved version");
    assert!(
        matches!(&kept.entry, protest::store::journal::Entry::Put(r) if r.pronoun == protest::model::Judgement::No)
    );
    post.answer_last(true);
    h.settle();
    assert!(h.query_by_label("every change is saved").is_some());
}

/// A link the server no longer knows: the page says so and what to do, promises no resending,
/// and offers the changes as a file the researcher can apply.
#[test]
fn a_revoked_link_says_so_and_offers_the_changes_as_a_file() {
    let (mut h, post) = page();
    press(&mut h, Key::Enter);
    press(&mut h, Key::N);
    post.answer_last_with(|_| Err(Failure::NotALink));
    h.settle();
    let banner = "This link no longer works (the server does not know this link: it was revoked, or replaced by a \
                  new one). Ask the researcher for a new one. 1 change is not saved yet. It is kept in this browser: \
                  opening the new link in this browser sends it; or press Download and send the file to the researcher.";
    assert!(h.query_by_label(banner).is_some(), "{banner}");
    assert!(h.query_by_label_contains("sent again as soon as the server answers").is_none());
    assert!(h.query_by_label("1 change not saved: this link no longer works").is_some());
    h.get_by_label("Download").click();
    h.settle();
    let (name, bytes) = h.state().offered.clone().expect("a file offered");
    assert!(name.starts_with("Anna-task-set-1-unsent-"), "{name}");
    let file: protest::web::unsent::Unsent = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(file.changes, post.0.lock().unwrap().sent[0].1);
}
