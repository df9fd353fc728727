//! The web page of `protest serve` in a real browser: Debian's headless Chromium driven through
//! chromedriver (WebDriver, with fantoccini), both installed by `scripts/setup-browser` (which
//! `scripts/test` runs). An annotator opens a link and annotates by keys; the records are in the
//! master; the server dies in the middle and comes back, a tab is reloaded with changes unsent,
//! a second tab of the same annotator works beside the first — and every judgement arrives once.
//! Screenshots go to `target/serve-browser/`.

mod typing_and_time;

use crate::serve::*;
use fantoccini::{Client, ClientBuilder};
use protest::model::Judgement;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a page may take to load the window (a debug build's program is some 20 MB).
const LOADING: Duration = Duration::from_secs(90);

struct Browser {
    driver: Child,
    client: Client,
    runtime: tokio::runtime::Runtime,
    _profile: tempfile::TempDir,
}

fn installed(program: &str) -> PathBuf {
    let found = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|p| p.is_file());
    found.unwrap_or_else(|| panic!("the browser tests need {program}: run scripts/setup-browser (scripts/test does)"))
}

impl Browser {
    fn start() -> Browser {
        Browser::saving_downloads_in(None)
    }

    /// A browser whose downloads go to `downloads` without asking (if given).
    fn saving_downloads_in(downloads: Option<&Path>) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,800",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect::<Vec<_>>();
        let mut options = serde_json::json!({ "binary": installed("chromium"), "args": args });
        if let Some(dir) = downloads {
            options["prefs"] =
                serde_json::json!({ "download.default_directory": dir, "download.prompt_for_download": false });
        }
        let capabilities = serde_json::json!({ "browserName": "chrome", "goog:chromeOptions": options });
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        // The free port found may be taken by another program before chromedriver listens on it
        // (the browser tests run side by side): then it stops, and starts again on another.
        for _ in 0..5 {
            let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
            let mut driver = Command::new(installed("chromedriver"))
                .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".into()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            let mut builder = ClientBuilder::new(connector);
            builder.capabilities(capabilities.as_object().unwrap().clone());
            let webdriver = format!("http://127.0.0.1:{port}");
            let client = runtime.block_on(async {
                // A loaded machine can take seconds to start it.
                for _ in 0..300 {
                    match builder.connect(&webdriver).await {
                        Ok(client) => return Some(client),
                        Err(_) if driver.try_wait().is_ok_and(|exited| exited.is_some()) => return None,
                        Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                    }
                }
                panic!("chromedriver did not answer on {webdriver} for 30 s");
            });
            match client {
                Some(client) => return Browser { driver, client, runtime, _profile: profile },
                None => continue,
            }
        }
        panic!("chromedriver stopped at once five times (run it by hand to see why)");
    }

    /// Makes the page's viewport `width` × `height` pixels (the window is larger by the browser's
    /// own parts, even headless).
    fn viewport(&self, width: u32, height: u32) {
        let frame = self.script("return [outerWidth - innerWidth, outerHeight - innerHeight];");
        let [dw, dh] = [0, 1].map(|i| frame[i].as_u64().unwrap() as u32);
        self.runtime.block_on(self.client.set_window_size(width + dw, height + dh)).unwrap();
    }

    fn goto(&self, url: &str) {
        self.runtime.block_on(self.client.goto(url)).unwrap();
    }

    fn title(&self) -> String {
        self.runtime.block_on(self.client.title()).unwrap()
    }

    fn script(&self, js: &str) -> serde_json::Value {
        self.runtime.block_on(self.client.execute(js, Vec::new())).unwrap()
    }

    /// Waits until the tab title says `what` (the window sets it: `PROTEST — Anna (all saved)`).
    fn wait_title(&self, what: &str, limit: Duration) {
        let start = Instant::now();
        while !self.title().contains(what) {
            if start.elapsed() > limit {
                self.screenshot("waited-for-title.png");
                panic!(
                    "waited {limit:?} for a title with '{what}' (it is '{}'; see waited-for-title.png)",
                    self.title()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Types `keys` into the window, one at a time, a few frames apart (as a person does).
    fn keys(&self, keys: &[&str]) {
        self.runtime.block_on(async {
            let canvas = self.client.find(fantoccini::Locator::Id("protest")).await.unwrap();
            for key in keys {
                canvas.send_keys(key).await.unwrap();
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        });
    }

    /// Judges the example on screen as not correctly translated and goes to the next (keeping it
    /// as it is if the conflict checks ask).
    fn judge_no_and_next(&self) {
        self.keys(&["n", RIGHT]);
        self.keys(&["k"]);
    }

    fn unsent(&self) -> i64 {
        self.script("return window.protestUnsent ?? -1;").as_i64().unwrap()
    }

    /// Whether closing the tab now would ask first (the page's `beforeunload` handler, run by a
    /// synthetic event so that the tab stays open).
    fn would_ask_before_closing(&self) -> bool {
        let js = "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented;";
        self.script(js).as_bool().unwrap()
    }

    fn screenshot(&self, name: &str) {
        let png = self.runtime.block_on(self.client.screenshot()).unwrap();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-browser");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let client = self.client.clone();
        let _ = self.runtime.block_on(client.close());
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

const ENTER: &str = "\u{e007}";
const RIGHT: &str = "\u{e014}";

fn judged_no(master: &Path) -> usize {
    records_of(master, ANNA).iter().filter(|r| r.pronoun == Judgement::No).count()
}

/// Lines after the header of a journal or receipts file.
fn lines_after_header(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count().saturating_sub(1))
}

#[test]
fn an_annotator_with_only_a_browser_and_a_link_annotates_by_keys() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let browser = Browser::start();
    browser.goto(server.link("Anna"));
    browser.wait_title("Anna (all saved)", LOADING);
    browser.screenshot("categories.png");
    // Drawn without multisampling (egui smooths its own edges), which costs a software renderer most.
    let attributes = "return document.getElementById('protest').getContext('webgl2').getContextAttributes().antialias";
    assert_eq!(browser.script(attributes), serde_json::json!(false));
    browser.keys(&[ENTER]);
    for _ in 0..3 {
        browser.judge_no_and_next();
    }
    wait_for(Duration::from_secs(20), "3 records in the master", || judged_no(&master) == 3);
    browser.wait_title("(all saved)", Duration::from_secs(20));
    browser.screenshot("translation.png");
    assert_eq!(browser.unsent(), 0);
    assert!(!browser.would_ask_before_closing());
    let mine = records_of(&master, ANNA);
    assert!(mine.iter().all(|r| r.active_ms.is_some_and(|ms| ms > 0)), "the active time is stored: {mine:?}");
    // A wrong link gets the plain page, not the window.
    browser.goto(&format!("http://{}/a/{}/", server.addr, "0".repeat(64)));
    let page = browser.runtime.block_on(browser.client.source()).unwrap();
    assert!(page.contains("not a valid PROTEST annotation link"), "{page}");
    assert!(server.stop());
    assert_eq!(
        protest::store::master_file::load(&master).unwrap().records.iter().filter(|r| r.annotator == ANNA).count(),
        3
    );
}

/// The page in a window of the window's minimum size (760 × 480): the window fills it and no
/// more — the page itself never scrolls, every part of the window is laid out inside it (what
/// `protest_gui`'s layout tests check of the page's views at this size) — and an annotator works
/// there by keys, the server going away and coming back. Its screenshots are those of
/// docs/gui.md's "At the smallest size".
#[test]
fn the_page_fits_the_smallest_window_and_works_there() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let addr = server.addr.to_string();
    let browser = Browser::start();
    browser.goto(server.link("Anna"));
    browser.viewport(760, 480);
    browser.wait_title("Anna (all saved)", LOADING);
    let js = "const c = document.getElementById('protest'), e = document.scrollingElement;
        return [innerWidth, innerHeight, c.clientWidth, c.clientHeight, e.scrollWidth, e.scrollHeight];";
    let sizes: Vec<i64> = browser.script(js).as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    let [width, height, canvas_width, canvas_height, page_width, page_height] = sizes[..] else { unreachable!() };
    assert_eq!((width, height), (760, 480), "the page is the window's size: {sizes:?}");
    assert_eq!((canvas_width, canvas_height), (width, height), "the window fills the page: {sizes:?}");
    assert_eq!((page_width, page_height), (width, height), "the page does not scroll: {sizes:?}");
    browser.screenshot("small-categories.png");
    browser.keys(&[ENTER]);
    browser.judge_no_and_next();
    wait_for(Duration::from_secs(20), "1 record", || judged_no(&master) == 1);
    browser.wait_title("(all saved)", Duration::from_secs(20));
    browser.screenshot("small-translation.png");
    server.kill();
    browser.judge_no_and_next();
    browser.wait_title("not saved yet", Duration::from_secs(30));
    browser.screenshot("small-server-gone.png");
    let server = Server::start(&master, &addr, &[]);
    wait_for(Duration::from_secs(30), "2 records", || judged_no(&master) == 2);
    browser.wait_title("(all saved)", Duration::from_secs(20));
    assert!(server.stop());
}

#[test]
fn nothing_is_lost_when_the_server_dies_the_tab_reloads_or_a_second_tab_works_beside() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let (addr, link) = (server.addr.to_string(), server.link("Anna").to_owned());
    let browser = Browser::start();
    browser.goto(&link);
    browser.wait_title("Anna (all saved)", LOADING);
    browser.keys(&[ENTER]);
    browser.judge_no_and_next();
    browser.judge_no_and_next();
    wait_for(Duration::from_secs(20), "2 records", || judged_no(&master) == 2);

    // The server dies (the network is cut): the annotator works on, the page keeps the changes.
    server.kill();
    for _ in 0..3 {
        browser.judge_no_and_next();
    }
    browser.wait_title("not saved yet", Duration::from_secs(30));
    assert!(browser.unsent() > 0);
    assert!(browser.would_ask_before_closing(), "closing the tab now asks first");
    browser.screenshot("server-gone.png");
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(judged_no(&master), 2);

    // It comes back at the same address: the page sends what it kept, once.
    let server = Server::start(&master, &addr, &[]);
    wait_for(Duration::from_secs(30), "5 records", || judged_no(&master) == 5);
    browser.wait_title("(all saved)", Duration::from_secs(20));
    assert_eq!(browser.unsent(), 0);
    assert!(!browser.would_ask_before_closing());

    // A change made while the server is away, then the tab reloaded once it is back: the new
    // page takes over what the old one kept (or the old one sent it first) — it arrives once.
    server.kill();
    browser.judge_no_and_next();
    browser.wait_title("not saved yet", Duration::from_secs(30));
    let server = Server::start(&master, &addr, &[]);
    browser.runtime.block_on(browser.client.refresh()).unwrap();
    browser.wait_title("Anna (all saved)", LOADING);
    wait_for(Duration::from_secs(30), "6 records", || judged_no(&master) == 6);

    // A second tab of the same annotator: both are taken.
    let first = browser.runtime.block_on(browser.client.window()).unwrap();
    let second = browser.runtime.block_on(browser.client.new_window(true)).unwrap();
    browser.runtime.block_on(browser.client.switch_to_window(second.handle)).unwrap();
    browser.goto(&link);
    browser.wait_title("Anna (all saved)", LOADING);
    browser.keys(&[ENTER]);
    browser.judge_no_and_next();
    wait_for(Duration::from_secs(20), "7 records", || judged_no(&master) == 7);
    // The first tab shows what it had and its own work (a reload shows the other tab's): its
    // first example not annotated is the one the second tab just did, so it goes one further.
    browser.runtime.block_on(browser.client.switch_to_window(first)).unwrap();
    browser.keys(&[ENTER, RIGHT]);
    browser.judge_no_and_next();
    wait_for(Duration::from_secs(20), "8 records", || judged_no(&master) == 8);

    // Each change taken was applied once: one journal line per receipt.
    let journal = protest::store::journal::path_for(&master);
    let receipts = protest::web::receipts::path_for(&master);
    assert_eq!(lines_after_header(&journal), lines_after_header(&receipts));
    assert!(server.stop());
    assert_eq!(
        protest::store::master_file::load(&master).unwrap().records.iter().filter(|r| r.annotator == ANNA).count(),
        8
    );
}

/// Anna's record of the `n`th candidate of her part (batch candidate `n`), as readers see it.
fn part_record(master: &Path, n: usize) -> Option<protest::model::Record> {
    let m = as_readers_see(master);
    let layout = protest::batches::export::layout(&m, m.task_set(1).unwrap(), ANNA);
    m.records.get(layout.order[n - 1], ANNA).cloned()
}

impl Browser {
    /// Opens a new tab, closes the one in use (as the annotator closing it: nothing more is sent
    /// from it) and goes on in the new one, which shows nothing yet.
    fn close_tab_for_a_new_one(&self) {
        self.runtime.block_on(async {
            let new = self.client.new_window(true).await.unwrap();
            self.client.close_window().await.unwrap();
            self.client.switch_to_window(new.handle).await.unwrap();
        });
    }

    /// Waits until the tab title says "all saved", checking at every look that it says so only
    /// once `saved` holds (the master has what the page kept); returns every title the page had
    /// on the way (watched from before the window started).
    fn saved_only_when(&self, limit: Duration, mut saved: impl FnMut() -> bool) -> Vec<String> {
        let watch = "window.titles = []; \
            new MutationObserver(() => titles.push(document.title)) \
                .observe(document.querySelector('title'), {childList: true, subtree: true, characterData: true}); \
            return document.title;";
        assert_eq!(self.script(watch), "PROTEST", "watched before the window set a title");
        let start = Instant::now();
        loop {
            let title = self.title();
            if title.contains("(all saved)") {
                if !saved() {
                    let js = "return [window.titles, Object.entries(localStorage).filter(([k]) => k.startsWith('protest-outbox'))];";
                    let seen = self.script(js);
                    panic!("the page said '{title}' before the master had the changes it kept: {seen}");
                }
                let titles = self.script("return window.titles;");
                return titles.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()).collect();
            }
            assert!(start.elapsed() < limit, "waited {limit:?} for 'all saved' (the title is '{title}')");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The replay of a closed tab's changes: made on example 8 while the server was stopped, the tab
/// closed, the link opened again in the same browser once the server is back. The changes go
/// before the page says "all saved"; annotating the example again is never undone by them; and
/// when the example changed elsewhere meanwhile, the page shows both versions and stores the
/// annotator's choice.
#[test]
fn a_closed_tabs_changes_go_first_and_never_replace_newer_work() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let (addr, link, path) = (server.addr.to_string(), server.link("Anna").to_owned(), server.path("Anna"));
    let browser = Browser::start();
    browser.goto(&link);
    browser.wait_title("Anna (all saved)", LOADING);
    // Example 8 of her part, with the server stopped: pronoun no, a remark.
    browser.keys(&[ENTER, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT]);
    assert!(server.stop());
    browser.keys(&["r", "closed-tab test"]);
    // The remark kept (and its sending failed: the server is stopped) while its box has the
    // keyboard; Escape then leaves the box, not the example.
    wait_for(Duration::from_secs(20), "the remark kept", || browser.unsent() == 1);
    browser.keys(&["\u{e00c}"]);
    std::thread::sleep(Duration::from_millis(1500));
    browser.keys(&["n"]);
    browser.wait_title("2 changes not saved yet", Duration::from_secs(30));
    browser.screenshot("closed-tab-before.png");
    browser.close_tab_for_a_new_one();

    // The server back, the link opened again in the same browser: what the closed tab kept goes
    // first, and "all saved" comes only once the master has it.
    let server = Server::start(&master, &addr, &[]);
    browser.goto(&link);
    let kept = |master: &Path| {
        part_record(master, 8).is_some_and(|r| r.pronoun == Judgement::No && r.remarks == "closed-tab test")
    };
    let titles = browser.saved_only_when(LOADING, || kept(&master));
    // The two changes, and the visit's time, stored as the tab closed.
    assert_eq!(titles.first().map(String::as_str), Some("PROTEST — Anna (3 changes not saved yet)"), "{titles:?}");
    assert!(kept(&master));

    // Annotated again (pronoun yes), then the page reloaded: the older changes never come back.
    browser.keys(&[ENTER, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, "y"]);
    let newer = |master: &Path| part_record(master, 8).is_some_and(|r| r.pronoun == Judgement::Yes);
    wait_for(Duration::from_secs(20), "the newer record", || newer(&master));
    browser.wait_title("(all saved)", Duration::from_secs(20));
    browser.runtime.block_on(browser.client.refresh()).unwrap();
    browser.wait_title("Anna (all saved)", LOADING);
    std::thread::sleep(Duration::from_secs(3));
    let record = part_record(&master, 8).unwrap();
    assert_eq!((record.pronoun, record.remarks.as_str()), (Judgement::Yes, "closed-tab test"));

    // Again the server stopped, a change (pronoun no) kept by a tab that is then closed; but
    // before the link is opened again, the example is annotated on another device.
    browser.keys(&[ENTER, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT]);
    assert!(server.stop());
    browser.keys(&["n"]);
    browser.wait_title("1 change not saved yet", Duration::from_secs(30));
    browser.close_tab_for_a_new_one();
    let server = Server::start(&master, &addr, &[]);
    let mut stored = part_record(&master, 8).unwrap();
    stored.candidate = protest::model::CandidateId(8);
    let base = protest::store::based::Base::of(Some(&stored));
    let mut other = stored.clone();
    other.remarks = "other device".into();
    let change = protest::web::protocol::Change {
        id: protest::web::protocol::ChangeId::random(&mut rand::rng()),
        entry: protest::store::journal::Entry::Put(other),
        base: Some(base),
    };
    let body = serde_json::to_vec(&protest::web::protocol::Changes { changes: vec![change] }).unwrap();
    let answer = post(server.addr, &format!("{path}api/changes"), &body);
    assert!(answer.text().contains("\"taken\":[\""), "{}", answer.text());

    // Opened again: the kept change is not stored over the other device's; the page shows both.
    browser.goto(&link);
    browser.wait_title("Anna (1 change not saved yet)", LOADING);
    std::thread::sleep(Duration::from_secs(4));
    browser.screenshot("two-versions.png");
    assert_eq!(browser.title(), "PROTEST — Anna (1 change not saved yet)", "it waits for the annotator");
    let record = part_record(&master, 8).unwrap();
    assert_eq!((record.pronoun, record.remarks.as_str()), (Judgement::Yes, "other device"), "not replaced");
    // The annotator keeps theirs (M): stored, as a change made on the other device's.
    browser.keys(&["m"]);
    let chosen = |master: &Path| part_record(master, 8).is_some_and(|r| r.pronoun == Judgement::No);
    wait_for(Duration::from_secs(20), "the version chosen", || chosen(&master));
    browser.wait_title("(all saved)", Duration::from_secs(20));
    assert_eq!(part_record(&master, 8).unwrap().remarks, "closed-tab test", "theirs, as it was in this browser");
    assert!(server.stop());
}

impl Browser {
    /// Clicks the page at (`x`, `y`) in its viewport, as a person does with the mouse.
    fn click_at(&self, x: f64, y: f64) {
        use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo { duration: None, x, y })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        self.runtime.block_on(self.client.perform_actions(mouse)).unwrap();
    }
}

/// A link revoked while its page is open with a change unsent: the page says the link no longer
/// works (not that it will send again), and its Download gives a file that `protest batch apply`
/// applies to the master.
#[test]
fn a_revoked_links_changes_download_as_a_file_the_researcher_applies() {
    let (dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let (addr, link) = (server.addr.to_string(), server.link("Anna").to_owned());
    let downloads = dir.path().join("downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    let browser = Browser::saving_downloads_in(Some(&downloads));
    browser.goto(&link);
    browser.viewport(1280, 657);
    browser.wait_title("Anna (all saved)", LOADING);
    browser.keys(&[ENTER]);
    browser.judge_no_and_next();
    wait_for(Duration::from_secs(20), "1 record", || judged_no(&master) == 1);
    // The researcher revokes the link (a restart with --revoke) while Anna works on.
    assert!(server.stop());
    let server = Server::start(&master, &addr, &["--revoke", "Anna"]);
    browser.keys(&["n"]);
    browser.wait_title("1 change not saved yet", Duration::from_secs(30));
    std::thread::sleep(Duration::from_secs(2));
    browser.screenshot("revoked.png");
    assert!(browser.would_ask_before_closing());
    // Download: the first button of the bar above the status line, at the left.
    let file = || {
        std::fs::read_dir(&downloads)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "json"))
    };
    for y in (540..=600).rev().step_by(6) {
        browser.click_at(84.0, f64::from(y));
        std::thread::sleep(Duration::from_millis(700));
        if file().is_some() {
            break;
        }
    }
    let file = file().expect("the page's Download gave a file");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("Anna-task-set-1-unsent-"), "{name}");
    assert!(server.stop());
    assert_eq!(judged_no(&master), 1);
    let out = crate::common::ok(dir.path(), &["batch", "apply", "sample.master.json", file.to_str().unwrap()]);
    assert!(out.contains("(Anna, task set 1): 1 stored, 0 stored before"), "{out}");
    assert_eq!(judged_no(&master), 2, "the change made after the link was revoked is in the master");
}
