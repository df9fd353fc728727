//! Long work off the UI thread: the window is there at once with what it is doing, nothing else
//! can be started meanwhile, and the result comes when the work is done. `work::hold` keeps the
//! finished work from being applied, so the progress is seen whatever the machine's speed.

use super::*;
use super::{ANAPHORIC_NEW, harness, release, tiny};
use crate::work;
use egui_kittest::kittest::Queryable;

/// The app on `path` as the window starts, its first frames drawn while the file is opened.
fn starting(path: &Path) -> Harness<'static, App> {
    let mut h = super::window(App::new(Settings::default(), Some(path.to_path_buf()), None));
    h.step();
    h.step();
    h
}

#[test]
fn the_window_shows_the_file_being_opened_then_the_file() {
    let f = tiny();
    work::hold(true);
    let mut h = starting(&f.path);
    assert!(h.state().is_busy());
    assert!(h.query_by_label("Opening tiny.master.json…").is_some(), "says what it opens");
    assert!(h.query_by_label(ANAPHORIC_NEW).is_none(), "no file to work on yet");
    assert!(h.query_by_label("File").is_none(), "no menu to start anything else with");
    release(&mut h);
    assert!(!h.state().is_busy());
    assert!(h.query_by_label("Opening tiny.master.json…").is_none());
    assert!(h.query_by_label(ANAPHORIC_NEW).is_some(), "the category browser of the file");
}

#[test]
fn the_report_is_computed_off_the_ui_thread_once() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    work::hold(true);
    h.get_by_label("Report").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Computing the report…").is_some());
    assert_eq!(h.state().report.computations, 0);
    release(&mut h);
    assert_eq!(h.state().report.computations, 1);
    assert!(h.query_by_label("Computing the report…").is_none());
    let first = &h.state().report.tables()[0].title;
    assert!(h.query_by_label_contains(first).is_some(), "the report's first table, {first}");
}

#[test]
fn after_a_long_change_the_next_name_goes_into_the_same_field() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    super::click(&mut h, "Batches");
    super::click(&mut h, "Annotators…");
    for name in ["Ben", "Clara"] {
        h.get_by_label("Add an annotator").type_text(name);
        h.settle();
        // Adding saves the master: long enough on a large one that the dialog gives way to the
        // progress screen, and its field loses the keyboard meanwhile.
        work::hold(true);
        h.key_press(egui::Key::Enter);
        h.step();
        h.step();
        assert!(h.state().is_busy() && h.query_by_label(&format!("Adding {name}…")).is_some());
        release(&mut h);
        assert!(h.get_by_label("Add an annotator").is_focused(), "the field has the keyboard again");
    }
    let names: Vec<String> = super::saved(&f.path).annotators.iter().map(|a| a.name.clone()).collect();
    assert_eq!(names, ["Ben", "Clara"]);
}
