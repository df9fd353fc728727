//! The prediction results view (egui_kittest): File › Open prediction results…, the confusion
//! matrix with the official scores, a cell clicked, ← / → through its examples, a system switch.

use super::*;
use super::{click, harness, press, tiny, type_into};
use egui::Key;
use egui_kittest::kittest::Queryable;
use protest::prediction::browse::Item;

/// A gold file of two documents (the .doc-ids beside it) and two systems' predictions.
const GOLD: &str = "\t\tA b .\tC d .\t0-0 1-1 2-2\n\
                    il ce\tIl c'\tIt is it .\tREPLACE_0 est REPLACE_2 .\t0-0 1-1 2-2 3-3\n\
                    ils\tIls\tThey went .\tREPLACE_0 sont partis .\t0-0 1-1 1-2 2-3\n\
                    il\til\tAnd it rained .\tEt REPLACE_1 pleuvait .\t0-0 1-1 2-2 3-3\n\
                    \t\tE f .\tG h .\t0-0\n";
const FIRST: &str = "\nelle ce\nelles\nelle\n\n";
const SECOND: &str = "\nil ce\nils\nelle\n\n";

/// Writes the gold file and the two systems' predictions into `dir`.
pub(super) fn write_files(dir: &Path) {
    std::fs::write(dir.join("talks.en-fr.data"), GOLD).unwrap();
    std::fs::write(dir.join("talks.en-fr.doc-ids"), "7\n7\n7\n7\n8\n").unwrap();
    std::fs::write(dir.join("first.pred"), FIRST).unwrap();
    std::fs::write(dir.join("second.pred"), SECOND).unwrap();
}

fn opened(dir: &Path) -> Harness<'static, App> {
    write_files(dir);
    let f = tiny();
    let mut h = harness(&f.path, None);
    std::mem::forget(f); // the master stays open for the whole test
    open_files(&mut h, dir);
    h
}

/// Opens the prediction results written by [`write_files`] into `dir`.
pub(super) fn open_files(h: &mut Harness<App>, dir: &Path) {
    let gold = dir.join("talks.en-fr.data");
    click(h, "File");
    click(h, "Open prediction results…");
    type_into(h, "Gold file", &gold.display().to_string());
    let predictions = format!("{}\n{}", dir.join("first.pred").display(), dir.join("second.pred").display());
    type_into(h, "Prediction files (one per line)", &predictions);
    click(h, "Open");
}

fn view<'a>(h: &'a Harness<'_, App>) -> &'a crate::panels::prediction::PredictionView {
    assert!(matches!(h.state().view, View::Predictions), "the prediction results are shown");
    h.state().predictions.as_ref().unwrap()
}

#[test]
fn the_matrix_with_the_official_scores_and_a_cell_listed_example_by_example() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(dir.path());
    let v = view(&h);
    let (il, elle) =
        (v.results().task.classes().position("il").unwrap(), v.results().task.classes().position("elle").unwrap());
    assert_eq!(v.cell(), Some((il, elle)), "the largest error is chosen first: il predicted as elle, twice");
    let official = v.results().systems[0].scores.official();
    assert!(named(&h, "gold il, predicted elle: 2") && named(&h, "gold ce, predicted ce: 1"), "the counts");
    assert!(
        h.query_all_by_label_contains(&format!(
            "Official score ({}): {official:.2}%",
            v.results().task.scorer.official_measure()
        ))
        .count()
            == 1,
        "the official score is shown"
    );
    // The example as the translation window shows it (its tokens are drawn, not labels), with
    // what the placeholder had and what was predicted.
    assert!(h.query_by_label("gold il, predicted elle: wrong").is_some());
    assert!(h.query_by_label("1 of 2").is_some());
    assert!(h.query_by_label("A b .").is_some(), "the line before, of the same document");
    assert_eq!(v.current(), Some(Item { line: 1, slot: 0 }));
    press(&mut h, Key::ArrowRight);
    assert_eq!(view(&h).current(), Some(Item { line: 3, slot: 0 }));
    assert!(h.query_by_label("2 of 2").is_some() && h.query_by_label("Line 4, document 7").is_some());
    assert!(h.query_by_label("E f .").is_none(), "the next line is another document");
    press(&mut h, Key::ArrowRight);
    assert_eq!(view(&h).current(), Some(Item { line: 3, slot: 0 }), "stays at the end");
    press(&mut h, Key::ArrowLeft);
    assert_eq!(view(&h).current(), Some(Item { line: 1, slot: 0 }));

    // A click on another cell lists its examples.
    click(&mut h, "gold ils, predicted elles: 1");
    let ils = view(&h).results().task.classes().position("ils").unwrap();
    assert_eq!(view(&h).cell(), Some((ils, view(&h).results().task.classes().position("elles").unwrap())));
    assert!(h.query_by_label("gold ils, predicted elles: wrong").is_some());
    // ↓ goes on to the next cell with examples: the errors row by row, then the right ones.
    press(&mut h, Key::ArrowDown);
    let ce = view(&h).results().task.classes().position("ce").unwrap();
    assert_eq!(view(&h).cell(), Some((ce, ce)));
    assert!(h.query_by_label("gold ce, predicted ce: right").is_some());
    press(&mut h, Key::ArrowUp);
    assert_eq!(view(&h).cell(), Some((ils, view(&h).results().task.classes().position("elles").unwrap())));
}

#[test]
fn the_scorer_is_the_one_the_data_is_for_unless_chosen() {
    // DiscoMT 2015 data (English–French, tokenised): its own scorer, as `baseline` and `extract`.
    let dir = tempfile::tempdir().unwrap();
    let h = opened(dir.path());
    assert_eq!(view(&h).results().task.scorer, protest::prediction::Scorer::Discomt2015);
    assert!(h.query_by_label_contains("discomt2015 scorer, en-fr").is_some(), "and it says so");
    // Chosen, it is taken as chosen.
    let mut h = h;
    click(&mut h, "File");
    click(&mut h, "Open prediction results…");
    let gold = dir.path().join("talks.en-fr.data");
    type_into(&mut h, "Gold file", &gold.display().to_string());
    type_into(&mut h, "Prediction files (one per line)", &dir.path().join("first.pred").display().to_string());
    click(&mut h, "wmt16");
    click(&mut h, "Open");
    assert_eq!(view(&h).results().task.scorer, protest::prediction::Scorer::Wmt16);
}

#[test]
fn the_system_switch_keeps_the_cell_and_esc_goes_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = opened(dir.path());
    let (il, elle) = view(&h).cell().unwrap();
    press(&mut h, Key::CloseBracket);
    assert_eq!(view(&h).system(), 1);
    assert_eq!(view(&h).cell(), Some((il, elle)), "the same cell");
    assert_eq!(view(&h).current(), Some(Item { line: 3, slot: 0 }), "the second system's one il predicted elle");
    assert!(named(&h, "gold il, predicted il: 1"), "its own matrix");
    press(&mut h, Key::OpenBracket);
    assert_eq!(view(&h).system(), 0);
    // A cell the other system has no example in: that system's largest error instead.
    click(&mut h, "gold ils, predicted elles: 1");
    press(&mut h, Key::CloseBracket);
    assert_eq!(view(&h).cell(), Some((il, elle)), "the second system put no ils as elles");
    press(&mut h, Key::OpenBracket);
    let second = format!("second.pred  {:.2}%", view(&h).results().systems[1].scores.official());
    click(&mut h, &second);
    assert_eq!(view(&h).system(), 1, "a click on a system chooses it");
    press(&mut h, Key::Escape);
    assert!(matches!(h.state().view, View::Browser), "Esc goes back to the categories");
}

#[test]
fn a_refused_file_is_named_in_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("talks.en-fr.data"), GOLD).unwrap();
    std::fs::write(dir.path().join("short.pred"), "\nil ce\n").unwrap();
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, "File");
    click(&mut h, "Open prediction results…");
    type_into(&mut h, "Gold file", &dir.path().join("talks.en-fr.data").display().to_string());
    type_into(&mut h, "Prediction files (one per line)", &dir.path().join("short.pred").display().to_string());
    click(&mut h, "Open");
    assert!(h.query_by_label_contains("short.pred: line 3: missing").is_some(), "the dialog says which file and line");
    assert!(matches!(h.state().view, View::Browser));
}
