//! The page's own clock at work, in headless Chromium: a remark typed and left alone reaches the
//! master with nothing but the page's own wake-up, the tab title and the leave warning saying it
//! waits meanwhile; and a visit's time, played on a scripted clock, is what a stopwatch says.

use super::*;

const ESC: &str = "\u{e00c}";

/// Replaces the page's clock (`performance.now`, egui's frame time on the page) by one the test
/// moves: frozen where it is, then moved on by `advance` only, or let run again from where it
/// was. The page itself has no hook for it: the test swaps the browser's function.
const CLOCK: &str = "
    if (!window.scriptedClock) {
        const real = performance.now.bind(performance);
        let frozen = null, offset = 0;
        performance.now = () => frozen ?? real() + offset;
        window.scriptedClock = {
            freeze() { frozen = performance.now(); },
            advance(ms) { frozen += ms; },
            release() { offset = frozen - real(); frozen = null; },
        };
    }
    window.scriptedClock.freeze();";

impl Browser {
    /// Moves the frozen clock on by `seconds` (a frame or two drawn at the new time).
    fn advance(&self, seconds: f64) {
        self.script(&format!("window.scriptedClock.advance({});", seconds * 1000.0));
        std::thread::sleep(Duration::from_millis(100));
    }

    /// Hides the page (as another tab does), or shows it again.
    fn hidden(&self, hidden: bool) {
        let state = if hidden { "hidden" } else { "visible" };
        self.script(&format!(
            "Object.defineProperty(document, 'hidden', {{ get: () => {hidden}, configurable: true }});
             Object.defineProperty(document, 'visibilityState', {{ get: () => '{state}', configurable: true }});
             document.dispatchEvent(new Event('visibilitychange'));"
        ));
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Anna's record with this remark, once the master has it.
fn with_remark(master: &Path, remark: &str) -> bool {
    records_of(master, ANNA).iter().any(|r| r.remarks == remark)
}

impl Browser {
    /// Types `text` into the window at once, then Esc (the last keystroke); returns when Esc was
    /// sent.
    fn type_then_esc(&self, text: &str) -> std::time::Instant {
        self.runtime.block_on(async {
            let canvas = self.client.find(fantoccini::Locator::Id("protest")).await.unwrap();
            canvas.send_keys(text).await.unwrap();
            canvas.send_keys(ESC).await.unwrap();
        });
        std::time::Instant::now()
    }
}

#[test]
fn a_remark_typed_then_left_alone_reaches_the_master_within_two_seconds() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let browser = Browser::start();
    browser.goto(server.link("Anna"));
    browser.wait_title("Anna (all saved)", LOADING);
    browser.keys(&[ENTER, "r"]);
    let last_key = browser.type_then_esc("closed-tab test");
    wait_for(Duration::from_secs(10), "the remark in the master", || with_remark(&master, "closed-tab test"));
    let took = last_key.elapsed();
    assert!(took < Duration::from_secs(2), "in the master {took:?} after the last keystroke, nothing else done");
    browser.wait_title("Anna (all saved)", Duration::from_secs(20));
    assert!(!browser.would_ask_before_closing());
    browser.screenshot("remark-stored.png");

    // Meanwhile the title says it waits, and closing the tab asks first: seen on a clock the test
    // holds still (so the remark cannot be stored before it is asked), then lets run.
    browser.script(CLOCK);
    browser.keys(&["r"]);
    browser.type_then_esc(" (again)");
    browser.wait_title("Anna (remarks not saved yet)", Duration::from_secs(10));
    assert!(browser.would_ask_before_closing(), "closing the tab while the remark waits asks first");
    browser.script("window.scriptedClock.release();");
    let released = std::time::Instant::now();
    let again = || {
        records_of(&master, ANNA)
            .iter()
            .any(|r| r.remarks.contains("closed-tab test") && r.remarks.contains(" (again)"))
    };
    wait_for(Duration::from_secs(10), "the remark typed again in the master", again);
    assert!(released.elapsed() < Duration::from_secs(2), "{:?} once the clock ran", released.elapsed());
    browser.wait_title("Anna (all saved)", Duration::from_secs(20));
    assert!(server.stop());
}

/// Open an example, 10 s, judge, 20 s, leave — on a clock the test moves — and the record holds
/// 30 s; then the page hidden for 40 s in the middle of another visit, which that does not count.
#[test]
fn a_scripted_visit_stores_the_time_of_a_stopwatch() {
    let (_dir, master) = sample();
    let server = Server::start(&master, "127.0.0.1:0", &[]);
    let browser = Browser::start();
    browser.goto(server.link("Anna"));
    browser.wait_title("Anna (all saved)", LOADING);
    browser.script(CLOCK);
    browser.keys(&[ENTER]);
    browser.advance(10.0);
    browser.keys(&["n"]);
    browser.advance(20.0);
    browser.judge_no_and_next(); // n again (no change), →, and Keep as is if the checks ask
    wait_for(Duration::from_secs(20), "a record", || !records_of(&master, ANNA).is_empty());
    browser.wait_title("(all saved)", Duration::from_secs(20));
    let first = records_of(&master, ANNA)[0].clone();
    let seconds = first.active_ms.expect("measured") as f64 / 1000.0;
    assert!((28.5..=31.5).contains(&seconds), "{seconds} s stored for a 30 s visit");

    // The next example: judged after 5 s, 10 s more, the page hidden for 40 s (the time is
    // stored at once), shown again, 5 s, left: 20 s.
    browser.advance(5.0);
    browser.keys(&["n"]);
    browser.advance(10.0);
    browser.hidden(true);
    let second = || records_of(&master, ANNA).into_iter().find(|r| r.candidate != first.candidate);
    let stored_when_hidden = || second().and_then(|r| r.active_ms) == Some(15_000);
    wait_for(Duration::from_secs(20), "15 s stored as the page is hidden", stored_when_hidden);
    browser.advance(40.0);
    browser.hidden(false);
    browser.advance(5.0);
    browser.judge_no_and_next();
    let done = || second().and_then(|r| r.active_ms).is_some_and(|ms| ms > 15_000);
    wait_for(Duration::from_secs(20), "the second visit's time", done);
    let seconds = second().and_then(|r| r.active_ms).unwrap() as f64 / 1000.0;
    assert!((19.0..=21.0).contains(&seconds), "{seconds} s stored for 20 s at work and 40 s hidden");
    browser.script("window.scriptedClock.release();");
    browser.wait_title("(all saved)", Duration::from_secs(20));
    assert!(server.stop());
}
