//! Frame time of the translation window, headless (docs/performance.md): opens a master
//! in the app (timing that, the frames drawn while the file is opened on a worker thread, and
//! the first frame), steps into an example and times single frames
//! (`Harness::step`) there, with the overview beside it, and back in the category browser. A measurement, not a test, so it is
//! ignored by default:
//!
//! ```sh
//! PROTEST_FRAME_MASTER=100x.master.json cargo test --release -p protest-gui frame_time -- --ignored --nocapture
//! ```
//!
//! Without `PROTEST_FRAME_MASTER`, a 1× PROTEST master is generated from the sample's inputs.

use super::*;
use egui::Vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use protest::ingest::synth::{self, Params, Sources};
use std::path::Path;
use std::time::{Duration, Instant};

#[test]
#[ignore = "a measurement; run it with --ignored --nocapture"]
fn frame_time_of_the_translation_window() {
    let dir = tempfile::tempdir().unwrap();
    let path = match std::env::var_os("PROTEST_FRAME_MASTER") {
        Some(given) => {
            // Work on a copy: the app keeps a journal and a lock beside the file.
            let copy = dir.path().join("frame.master.json");
            std::fs::copy(given, &copy).unwrap();
            copy
        }
        None => {
            let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_batches/inputs");
            let master = synth::generate(&Sources::in_folder(&inputs).unwrap(), &Params::protest(1)).unwrap();
            let path = dir.path().join("frame.master.json");
            protest::store::master_file::save(&master, &path).unwrap();
            path
        }
    };
    let start = Instant::now();
    let app = App::new(Settings::default(), Some(path), None);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1280.0, 820.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
    // The file opens on a worker thread: frames keep coming meanwhile, each showing the progress.
    let mut frames = Vec::new();
    while h.state().is_busy() {
        let frame = Instant::now();
        h.step();
        if h.state().is_busy() {
            frames.push(frame.elapsed()); // the frame the file arrives in is the browser's first
        }
        std::thread::sleep(Duration::from_millis(16)); // a display's frame rate, about
    }
    frames.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    eprintln!(
        "opening the file: {:.2} s, {} frames drawn meanwhile (max {:.2} ms, median {:.2} ms)",
        start.elapsed().as_secs_f64(),
        frames.len(),
        frames.last().map_or(0.0, |&d| ms(d)),
        frames.get(frames.len() / 2).map_or(0.0, |&d| ms(d)),
    );
    h.step();
    eprintln!("and the first frame of the category browser: {:.2} s", start.elapsed().as_secs_f64());
    h.run();
    h.get_all_by_label_contains("Pleonastic “it”:").next().expect("the pleonastic row").click();
    h.run();
    assert!(matches!(h.state().view, View::Example(_)), "the translation window did not open");
    report("translation window", &mut h);
    h.key_press(egui::Key::O);
    h.run();
    assert_eq!(h.state().side, Side::Overview, "the overview did not open");
    report("translation window with the overview", &mut h);
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(matches!(h.state().view, View::Browser), "the category browser did not open");
    report("category browser", &mut h);
}

/// Times 200 frames and prints their median, 90th percentile and maximum.
fn report(what: &str, h: &mut Harness<App>) {
    let mut frames: Vec<Duration> = (0..200)
        .map(|_| {
            let start = Instant::now();
            h.step();
            start.elapsed()
        })
        .collect();
    frames.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    eprintln!(
        "{what}, 200 frames: median {:.2} ms, 90th percentile {:.2} ms, max {:.2} ms",
        ms(frames[100]),
        ms(frames[180]),
        ms(frames[199])
    );
}
