//! Small traps seen in screenshots, each with the check that would have caught it: the field a
//! key types into is in view; no text of the translation is cut by the panel beside it; the
//! conflict dialog leaves the translation it asks about in view; the tag box's drop-down fits its
//! list; a dialog's result replaces its form in view.

use super::layout::{Placed, merged_sample, placed, wide_master};
use super::*;
use super::{ANNA, PLEONASTIC_NEW, click, open_menu, press, tiny_with_anna};
use egui::{Key, Vec2};

/// The layout tests' sizes, and two where the colour key's long words just fit.
const SIZES: [Vec2; 6] = [
    Vec2::new(760.0, 480.0),
    Vec2::new(1024.0, 700.0),
    Vec2::new(1060.0, 700.0),
    Vec2::new(1100.0, 700.0),
    Vec2::new(1280.0, 820.0),
    Vec2::new(1920.0, 1080.0),
];

/// The sample master with its two batches merged: long sentences, everyone's annotations.
fn merged(dir: &tempfile::TempDir) -> PathBuf {
    merged_sample(&dir.path().join("merged"))
}

/// The widget named `name` (or labelled by it), as laid out.
fn widget(h: &Harness<App>, name: &str) -> Placed {
    let id = h.get_by_label(name).accesskit_node().locate().0.0;
    let found = placed(h, |_| true).into_iter().find(|w| w.id == id);
    found.unwrap_or_else(|| panic!("“{name}” is not laid out"))
}

/// Whole and in view: nothing of it clipped away, inside the window.
fn in_view(h: &Harness<App>, w: &Placed) -> bool {
    w.shown.expand(1.0).contains_rect(w.whole) && h.ctx.content_rect().expand(1.0).contains_rect(w.whole)
}

/// R and T in the smallest window: the field they type into is brought into view, below the
/// annotation panel's fold as it is for an anaphoric example.
#[test]
fn the_field_a_key_types_into_is_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&merged(&dir), None);
    h.set_size(crate::MIN_SIZE);
    h.settle();
    press(&mut h, Key::Enter);
    let remarks = widget(&h, crate::panels::annotation::REMARKS_LABEL);
    assert!(!in_view(&h, &remarks), "the remarks are below the fold at first: {remarks:?}");
    for (key, field) in [(Key::R, crate::panels::annotation::REMARKS_LABEL), (Key::T, "Tags")] {
        press(&mut h, key);
        let w = widget(&h, field);
        assert!(in_view(&h, &w), "{key:?} types into “{field}”, out of view: {w:?}");
        press(&mut h, Key::Escape);
    }
    h.state_mut().shutdown();
}

/// Everything drawn left of the annotation (or overview) panel ends where the panel begins: a
/// row wider than the translation (whose selections the overview shows; the colour key's long
/// words) is never cut at the panel's edge, where no scroll bar could show the rest.
#[test]
fn no_text_of_the_translation_is_cut_by_the_panel_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&merged(&dir), None);
    press(&mut h, Key::Enter);
    let mut problems = Vec::new();
    for view in ["translation window", "overview"] {
        if view == "overview" {
            press(&mut h, Key::O);
        }
        for size in SIZES {
            h.set_size(size);
            h.settle();
            let panel = h.state().side_panel.expect("an example is shown, with its panel");
            let cut = placed(&h, |_| true).into_iter().filter(|w| {
                let beside = w.whole.top() >= panel.top() && w.whole.bottom() <= panel.bottom();
                let named = !w.name.is_empty() && w.name != "Resize panel";
                let left_of_panel = named && beside && w.whole.left() < panel.left() - 1.0;
                left_of_panel && w.whole.right() > panel.left() + 0.5 && w.shown.width() > 0.5
            });
            problems.extend(cut.map(|w| format!("{view} at {}×{}: “{}” {:?}", size.x, size.y, w.name, w.whole)));
        }
    }
    assert!(problems.is_empty(), "cut at the panel's edge:\n{}", problems.join("\n"));
    h.state_mut().shutdown();
}

/// The Rule 4 question on the sample's long sentences: the dialog lies over the annotation
/// panel, never over the translation, at every size.
#[test]
fn the_conflict_dialog_leaves_the_translation_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let path = merged(&dir);
    let mut h = harness(&path, Some(ANNA));
    h.state_mut().session.as_mut().unwrap().set_annotator(ANNA);
    h.settle();
    press(&mut h, Key::Enter);
    press(&mut h, Key::Y); // correct, but no token selected: rule 4
    press(&mut h, Key::ArrowRight);
    assert!(h.query_by_label("Check this annotation").is_some(), "the checks ask");
    for size in SIZES {
        h.set_size(size);
        h.settle();
        let panel = h.state().side_panel.expect("the example stays, with its panel");
        let dialog = ["Check this annotation", "Amend", "Keep as is"]
            .map(|l| h.get_by_label(l).rect())
            .into_iter()
            .reduce(|a, b| a.union(b))
            .unwrap();
        assert!(
            dialog.left() >= panel.left(),
            "{size:?}: the dialog {dialog:?} reaches over the translation, left of {panel:?}"
        );
    }
    h.state_mut().shutdown();
}

/// The drop-down is as tall as its list (up to its most) and as wide as the box: typed to one
/// suggestion, then back to many, every one of them is shown whole, without scrolling.
#[test]
fn the_tag_drop_down_fits_its_list() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::T);
    let options = |h: &Harness<App>| -> Vec<Placed> {
        let all = placed(h, |node| {
            node.role() == egui::accesskit::Role::Button || node.role() == egui::accesskit::Role::ListBoxOption
        });
        all.into_iter().filter(|w| w.name.starts_with("new tag: ") || w.name.contains('_')).collect()
    };
    for typed in ["politeness_unk", "p", "_"] {
        h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
        h.settle();
        h.get_by_label("Tags").type_text(typed);
        h.settle();
        let listed = options(&h);
        assert!(!listed.is_empty(), "“{typed}”: the drop-down is open");
        let field = widget(&h, "Tags").whole;
        let narrow: Vec<_> = listed.iter().filter(|w| w.whole.height() > 30.0).map(|w| w.name.as_str()).collect();
        assert!(
            narrow.is_empty(),
            "after “{typed}”, options wrapped in a drop-down narrower than the box {field:?}: {narrow:?}"
        );
        let height: f32 = listed.iter().map(|w| w.whole.height()).sum();
        if height < 200.0 {
            let hidden: Vec<_> = listed.iter().filter(|w| w.shown != w.whole).map(|w| w.name.as_str()).collect();
            assert!(
                hidden.is_empty(),
                "after “{typed}”, a list of {} that fits shows all: {hidden:?} hidden",
                listed.len()
            );
        }
    }
    h.state_mut().shutdown();
}

/// Batches › Plan, scrolled down to the preview at the smallest size, then stored: the result
/// is in view, not the blank where the form was.
#[test]
fn a_stored_plan_shows_its_result_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let sample = settings::sample_copy(Some(dir.path().join("sample"))).unwrap();
    let wide = dir.path().join("wide.master.json");
    wide_master(&sample, &wide);
    let mut h = harness(&wide, None);
    h.set_size(crate::MIN_SIZE);
    h.settle();
    open_menu(&mut h, "Batches", "Plan a task set…");
    let store = "Store “Task set 2” in the master";
    h.get_by_label("Own parts per translation").scroll_to_me();
    h.settle();
    let form = widget(&h, "Name");
    assert!(!in_view(&h, &form), "scrolled down to the preview, the form's top is out of view");
    click(&mut h, store);
    super::release(&mut h);
    let result = widget(&h, "Stored “Task set 2” as task set 2.");
    assert!(in_view(&h, &result), "the result {result:?} is in view");
    h.state_mut().shutdown();
}
