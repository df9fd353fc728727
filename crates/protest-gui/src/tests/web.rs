//! The window as the web page runs it (docs/serve.md): a part whose changes go to a server
//! through a courier (here one the test answers for), not to a file. What the page says about
//! saving follows the server's answers: "saved" only once a change is acknowledged.

use super::*;
use protest::session::{Courier, Remote, Session};
use protest::store::batch_file::Batch;
use protest::web::protocol::{Answers, Change};
use std::sync::{Arc, Mutex};

const SAMPLE: &[u8] = include_bytes!("../../../../sample_batches/sample.master.json");

/// What the page sent and the answers the test gives.
#[derive(Default)]
struct Server {
    sent: Vec<(u64, Vec<Change>)>,
    answers: Vec<(u64, Result<Answers, String>)>,
}

#[derive(Clone, Default)]
pub(super) struct Post(Arc<Mutex<Server>>);

impl Courier for Post {
    fn keep(&mut self, _: &[Change]) -> Result<(), String> {
        Ok(())
    }
    fn send(&mut self, number: u64, changes: &[Change]) {
        self.0.lock().unwrap().sent.push((number, changes.to_vec()));
    }
    fn answer(&mut self) -> Option<(u64, Result<Answers, String>)> {
        self.0.lock().unwrap().answers.pop()
    }
}

impl Post {
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
            false => Err("the server cannot be reached".to_owned()),
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
    app.opened(Ok((Session::new(Box::new(remote), None), protest::store::Opened::default())));
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
