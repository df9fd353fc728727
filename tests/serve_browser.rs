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
use std::time::Duration;

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
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(installed("chromedriver"))
            .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".into()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
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
        let capabilities = serde_json::json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": installed("chromium"), "args": args },
        });
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let mut builder = ClientBuilder::new(connector);
        builder.capabilities(capabilities.as_object().unwrap().clone());
        let webdriver = format!("http://127.0.0.1:{port}");
        let client = runtime.block_on(async {
            for _ in 0..100 {
                if let Ok(client) = builder.connect(&webdriver).await {
                    return client;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            panic!("chromedriver did not start on {webdriver}");
        });
        Browser { driver, client, runtime, _profile: profile }
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
        wait_for(limit, &format!("a title with '{what}' (it is '{}')", self.title()), || self.title().contains(what));
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
