//! Headless tests (egui_kittest) of what an annotator must be able to trust: undo
//! shows what it undoes, redo gives back whole records, a record breaking a rule is never shown
//! as done, the pronoun is on screen, the header does not overlap itself, the keyboard has no
//! traps, and the bundled samples merge.

use super::*;
use super::{
    ANAPHORIC_NEW, ANNA, PLEONASTIC_NEW, click, harness, is_on, named, press, press_with, saved, tiny_with_anna,
};
use crate::dialogs::conflict::ConflictDialog;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use protest::annotate::status::{Status, status_of};
use protest::model::Conflict;
use protest::model::{CandidateId, ConflictStatus, Judgement, Record};

const YOU_NEW: &str = "Deictic singular “you”: 2 new";

/// The candidate on screen, if an example is open.
fn current(h: &Harness<App>) -> Option<CandidateId> {
    match &h.state().view {
        View::Example(walk) => Some(walk.current()),
        View::Browser | View::Report | View::Predictions => None,
    }
}

fn undo(h: &mut Harness<App>) {
    press_with(h, Modifiers::COMMAND, Key::Z);
}

fn redo(h: &mut Harness<App>) {
    press_with(h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
}

/// The message about the last action.
fn info(h: &Harness<App>) -> String {
    h.state().messages.current_info().unwrap_or_default().to_owned()
}

/// Anna's records of every candidate of the tiny fixture, as on disk.
fn annas(path: &Path) -> Vec<Option<Record>> {
    let m = saved(path);
    (1..=6).map(|c| m.records.get(CandidateId(c), ANNA).cloned()).collect()
}

/// Anna's work in two categories: the anaphoric one (candidate 1 kept with a conflict,
/// candidate 2 done), then two changes on candidate 5 in *Deictic singular “you”*, still open.
fn two_categories(h: &mut Harness<App>) {
    click(h, ANAPHORIC_NEW);
    press(h, Key::Y); // pronoun correct, no token selected: rule 4
    press(h, Key::ArrowRight);
    press(h, Key::K); // keep as is
    press_with(h, Modifiers::SHIFT, Key::N);
    press(h, Key::N);
    press(h, Key::ArrowRight); // the last one: clear, back to the browser
    assert!(h.query_by_label("Inter-sentential “it”, subject: 1 conflict").is_some());
    assert!(h.query_by_label("Inter-sentential “it”, subject: 1 done").is_some());
    click(h, YOU_NEW);
    press(h, Key::N);
    press(h, Key::Y);
    assert_eq!(current(h), Some(CandidateId(5)));
}

#[test]
fn each_undo_shows_the_example_it_changes_and_says_what_it_undid() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    two_categories(&mut h);
    // (the candidate on screen, the message) after each Ctrl+Z, newest change first.
    let expected = [
        (5, "Undid: pronoun set to yes, example 3 (reference)"),
        (5, "Undid: pronoun set to no, example 3 (reference)"),
        (2, "Undid: pronoun set to no, example 1 (mt)"),
        (2, "Undid: antecedent head set to no, example 1 (mt)"),
        (1, "Undid: pronoun set to yes, example 1 (reference)"),
    ];
    for (i, (candidate, message)) in expected.into_iter().enumerate() {
        undo(&mut h);
        assert!(!Modal::is::<ConflictDialog>(&h.state().modal), "step {i}: nothing to settle on the way");
        assert_eq!(current(&h), Some(CandidateId(candidate)), "step {i}: the change is on screen");
        assert_eq!(info(&h), message, "step {i}");
        assert!(h.query_by_label(message).is_some(), "step {i}: the message is shown");
    }
    // Another category's changes are undone in that category, with its title on screen.
    assert!(h.query_by_label("Inter-sentential “it”, subject").is_some());
    assert!(annas(&f.path).iter().all(Option::is_none), "every change undone");
    undo(&mut h);
    assert_eq!(info(&h), "Nothing to undo.");
    press(&mut h, Key::Escape);
    assert!(h.query_by_label("Inter-sentential “it”, subject: 2 new").is_some());
    assert!(h.query_by_label(YOU_NEW).is_some());
}

#[test]
fn undo_from_the_browser_opens_the_example() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::ArrowRight);
    press(&mut h, Key::N); // candidate 4
    press(&mut h, Key::Escape);
    assert_eq!(current(&h), None);
    undo(&mut h);
    assert_eq!(current(&h), Some(CandidateId(4)));
    assert_eq!(info(&h), "Undid: pronoun set to no, example 2 (mt)");
    redo(&mut h);
    assert_eq!(info(&h), "Redid: pronoun set to no, example 2 (mt)");
}

#[test]
fn redo_gives_back_whole_records_and_a_record_breaking_a_rule_is_never_done() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    two_categories(&mut h);
    let before = annas(&f.path);
    assert_eq!(before[0].as_ref().unwrap().conflict, ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens]));
    assert_eq!(before[1].as_ref().unwrap().conflict, ConflictStatus::Clear);
    for _ in 0..10 {
        undo(&mut h);
    }
    for _ in 0..10 {
        redo(&mut h);
    }
    // Time spent is not taken back: the active time goes on growing while undo and redo show
    // the examples.
    let untimed = |records: &[Option<Record>]| -> Vec<Option<Record>> {
        records.iter().map(|r| r.clone().map(|r| Record { active_ms: None, ..r })).collect()
    };
    let after = annas(&f.path);
    assert_eq!(untimed(&after), untimed(&before), "every record back as it was, conflict status included");
    assert!(after.iter().zip(&before).all(|(a, b)| a.as_ref().map(|r| r.active_ms) >= b.as_ref().map(|r| r.active_ms)));
    assert_eq!(info(&h), "Nothing to redo.");
    // Candidate 5: pronoun judged, no politeness tag (rule 9), not checked yet: not done.
    let m = saved(&f.path);
    assert_eq!(m.records.get(CandidateId(5), ANNA).unwrap().conflict, ConflictStatus::Unchecked);
    assert_eq!(status_of(&m, CandidateId(5), ANNA), Status::Conflict);
    // Leaving it asks; kept, it is counted as a conflict beside the others.
    press(&mut h, Key::Escape);
    assert!(h.query_by_label(Conflict::PolitenessTag.describe()).is_some());
    press(&mut h, Key::K);
    assert!(h.query_by_label("Inter-sentential “it”, subject: 1 conflict").is_some());
    assert!(h.query_by_label("Inter-sentential “it”, subject: 1 done").is_some());
    assert!(h.query_by_label("Deictic singular “you”: 1 conflict").is_some());
}

#[test]
fn a_stored_clear_that_breaks_a_rule_is_counted_as_a_conflict() {
    let f = tiny_with_anna();
    // Written by another tool: pronoun yes, no token selected, and "clear".
    let (mut store, _) = protest::store::Store::<protest::model::Master>::open(&f.path).unwrap();
    let mut r = Record::new(CandidateId(3), ANNA, chrono::Utc::now());
    r.pronoun = Judgement::Yes;
    r.conflict = ConflictStatus::Clear;
    store.put(r).unwrap();
    store.close().unwrap();
    let h = harness(&f.path, Some(ANNA));
    assert!(h.query_by_label("Pleonastic “it”: 1 conflict").is_some());
    assert!(h.query_by_label("Pleonastic “it”: 0 done").is_some());
    assert!(h.query_by_label_contains("1 of 6 annotated").is_some());
}

/// A copy of the bundled Anna batch (its first example has long context sentences), open in a
/// window of `size`, at its first example.
fn anna_batch(size: Vec2) -> (tempfile::TempDir, Harness<'static, App>) {
    anna_batch_edited(size, |text| text)
}

/// [`anna_batch`] with the file's text changed by `edit` first.
fn anna_batch_edited(size: Vec2, edit: impl Fn(String) -> String) -> (tempfile::TempDir, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.batch-1-anna.json");
    let text = include_str!("../../../../sample_batches/sample.batch-1-anna.json");
    std::fs::write(&path, edit(text.to_owned())).unwrap();
    let mut h = harness(&path, None);
    h.set_size(size);
    h.settle();
    press(&mut h, Key::Enter);
    (dir, h)
}

/// The part of the window where the texts are seen: below the header, above the colour key.
fn text_area(h: &Harness<App>) -> egui::Rect {
    let header = h.get_by_label("All examples").rect();
    let legend = h.get_by_label(crate::panels::translation::LEGEND).rect();
    egui::Rect::from_x_y_ranges(0.0..=h.ctx.content_rect().width(), header.bottom()..=legend.top())
}

fn in_view(h: &Harness<App>, label: &str) -> bool {
    text_area(h).contains_rect(h.get_by_label(label).rect())
}

#[test]
fn an_example_opens_with_the_pronoun_and_the_antecedent_in_view() {
    for size in [Vec2::new(1280.0, 820.0), Vec2::new(1024.0, 700.0)] {
        let (_dir, h) = anna_batch(size);
        assert_eq!(current(&h), Some(CandidateId(1)));
        // Example 26: "they" → "elles", antecedent head "services" → "services", in sentence 144
        // after a context sentence of over 100 tokens.
        assert!(in_view(&h, "elles"), "{size:?}: the pronoun's translation is on screen");
        assert!(in_view(&h, "services"), "{size:?}: the antecedent head's translation too");
    }
}

/// A batch's sentence count is its master's, a number it can only claim: in memory only the
/// sentences the file holds take room, so a batch claiming 4·10⁹ opens and is annotated as any.
#[test]
fn a_batch_claiming_billions_of_sentences_opens_at_its_first_example() {
    let claim = |text: String| text.replacen("\"sentence_count\":316,", "\"sentence_count\":4000000000,", 1);
    let (dir, mut h) = anna_batch_edited(Vec2::new(1024.0, 700.0), claim);
    let path = dir.path().join("sample.batch-1-anna.json");
    let batch = protest::store::batch_file::load(&path).unwrap();
    assert_eq!(batch.content().sentence_count(), 4_000_000_000, "the claim is the file's");
    assert_eq!(current(&h), Some(CandidateId(1)));
    assert!(in_view(&h, "elles") && in_view(&h, "services"), "the pronoun and the antecedent are on screen");
    press(&mut h, Key::ArrowRight);
    assert_eq!(current(&h), Some(CandidateId(2)));
}

/// The sample master (a copy), every candidate in example order, open at `candidate` in a window
/// of `size`.
fn sample_at(candidate: u32, size: Vec2) -> (tempfile::TempDir, Harness<'static, App>) {
    let dir = tempfile::tempdir().unwrap();
    let path = settings::sample_copy(Some(dir.path().to_path_buf())).unwrap();
    let mut h = harness(&path, None);
    h.set_size(size);
    h.settle();
    let set = protest::annotate::browse::example_order(h.state().session.as_ref().unwrap().master());
    let start = set.iter().position(|&c| c == CandidateId(candidate)).unwrap();
    h.state_mut().start(protest::session::Opening { title: "All examples".into(), set, start });
    h.settle();
    (dir, h)
}

/// Whether the source pronoun and its translation (the tokens aligned to it) are on screen, in
/// the space for the texts — or when they are further apart than that space is tall, the
/// translation.
fn pronoun_in_view(h: &Harness<App>) -> Result<(), String> {
    let c = current(h).unwrap();
    let session = h.state().session.as_ref().unwrap();
    let master = session.master();
    let candidate = master.candidate(c).unwrap();
    let example = master.example(candidate.example).unwrap();
    let source = master.source().unwrap().token(example.pronoun_ref()).unwrap();
    let corpus = master.corpus(candidate.corpus).unwrap();
    let area = text_area(h);
    let rect = |label: &str| h.query_all_by_label(label).map(|n| n.rect()).reduce(|a, b| a.union(b));
    let translation: Vec<String> = candidate.pronoun.iter().map(|&t| corpus.words(&[t])).collect();
    let mut labels = translation.clone();
    let both = translation.iter().map(|w| rect(w)).chain([rect(&format!("pronoun: {source}"))]).flatten();
    if both.reduce(|a, b| a.union(b)).is_some_and(|r| r.height() <= area.height() - 24.0) {
        labels.push(format!("pronoun: {source}"));
    }
    for label in &labels {
        let rects: Vec<egui::Rect> = h.query_all_by_label(label).map(|n| n.rect()).collect();
        if rects.is_empty() || !rects.iter().any(|r| area.contains_rect(*r)) {
            return Err(format!("example {}: “{label}” {rects:?} is not in {area:?}", example.no));
        }
    }
    Ok(())
}

#[test]
fn the_pronoun_and_its_translation_are_in_view_when_an_example_opens() {
    // Example 33: the source "They" in sentence 188, "Ils" in its French line under it, the
    // antecedent two sentences up; at 900 × 578 the French line was under the colour key.
    for size in [Vec2::new(900.0, 578.0), Vec2::new(760.0, 480.0), Vec2::new(1280.0, 820.0)] {
        for candidate in [65, 66] {
            let (_dir, h) = sample_at(candidate, size);
            assert_eq!(pronoun_in_view(&h), Ok(()), "{size:?}");
        }
    }
}

#[test]
fn after_the_window_shrinks_every_step_shows_the_pronoun_and_its_translation() {
    // Examples 48 and 49 (sentences 294 and 295), seen first in a wide window, then again in
    // the smallest: each arrival brings the pronoun into view, whatever was shown before.
    let (_dir, mut h) = sample_at(95, Vec2::new(1150.0, 700.0));
    for key in [Key::ArrowRight, Key::ArrowRight, Key::ArrowRight, Key::ArrowLeft] {
        press(&mut h, key);
        assert_eq!(pronoun_in_view(&h), Ok(()), "1150 × 700");
    }
    h.set_size(Vec2::new(760.0, 480.0));
    h.settle();
    assert_eq!(pronoun_in_view(&h), Ok(()), "after the resize");
    for key in [Key::ArrowLeft, Key::ArrowLeft, Key::ArrowRight, Key::ArrowRight, Key::ArrowRight] {
        press(&mut h, key);
        assert_eq!(pronoun_in_view(&h), Ok(()), "760 × 480, after {key:?}");
    }
}

/// Scrolls the texts to the top of the context with the mouse wheel.
fn scroll_to_top(h: &mut Harness<App>) {
    h.hover_at(text_area(h).center());
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 5000.0),
        modifiers: Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run_steps(40); // scrolling is animated
}

#[test]
fn a_resize_brings_the_pronoun_back_into_view() {
    // Anna's first example has a context sentence of over 100 tokens before the pronoun's.
    let (_dir, mut h) = anna_batch(Vec2::new(1024.0, 700.0));
    for size in [Vec2::new(1280.0, 820.0), Vec2::new(760.0, 480.0)] {
        scroll_to_top(&mut h);
        assert!(pronoun_in_view(&h).is_err(), "scrolled by hand to the top of the context: it stays there");
        h.set_size(size);
        h.settle();
        assert_eq!(pronoun_in_view(&h), Ok(()), "{size:?}");
    }
}

#[test]
fn a_digit_key_brings_its_token_into_view() {
    let (_dir, mut h) = anna_batch(Vec2::new(1024.0, 700.0));
    scroll_to_top(&mut h);
    assert!(!in_view(&h, "elles"), "scrolled back to the top of the context");
    assert!(!is_on(&h, "elles"));
    h.key_press(Key::Num1);
    h.run_steps(40);
    assert!(is_on(&h, "elles"), "1 selected the pronoun's first aligned token");
    assert!(in_view(&h, "elles"), "and brought it into view");
}

/// The rects of the header's widgets do not overlap, and all of them are left of the annotation
/// panel, whole.
fn header_fits(h: &Harness<App>, labels: &[&str], size: Vec2) {
    let panel = h.get_by_label(crate::panels::annotation::REMARKS_LABEL).rect().left();
    let rects: Vec<(&str, egui::Rect)> = labels.iter().map(|&l| (l, h.get_by_label(l).rect())).collect();
    for (i, (a, ra)) in rects.iter().enumerate() {
        assert!(ra.left() >= 0.0 && ra.right() <= panel, "{size:?}: {a} {ra:?} is not left of the panel at {panel}");
        for (b, rb) in &rects[i + 1..] {
            assert!(!ra.intersects(*rb), "{size:?}: {a} {ra:?} overlaps {b} {rb:?}");
        }
    }
}

#[test]
fn the_header_does_not_overlap_itself_at_any_window_size() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, ANAPHORIC_NEW);
    let labels = [
        "⬅ Categories",
        "Inter-sentential “it”, subject",
        "⏴ Prev",
        "1 / 2",
        "Next ⏵",
        "Example 1 · translation: reference",
        "0 of 2 annotated",
        "Inter-sentential “it”, subject — new",
    ];
    for size in [Vec2::new(760.0, 480.0), Vec2::new(1024.0, 700.0), Vec2::new(1280.0, 820.0)] {
        h.set_size(size);
        h.settle();
        header_fits(&h, &labels, size);
    }
}

#[test]
fn enter_in_the_empty_tag_field_adds_nothing_and_backspace_takes_back_the_last_tag() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::T);
    press(&mut h, Key::Enter);
    assert_eq!(saved(&f.path).records.get(CandidateId(3), ANNA), None, "no tag, no record");
    assert!(h.get_by_label("Tags").is_focused(), "the field keeps the keyboard");
    // Down picks the first suggestion; Enter adds it. Then one typed.
    press(&mut h, Key::ArrowDown);
    press(&mut h, Key::Enter);
    h.get_by_label("Tags").type_text("my_tag");
    h.settle();
    press(&mut h, Key::Enter);
    let tags = |h: &Harness<App>| {
        let _ = h;
        saved(&f.path).records.get(CandidateId(3), ANNA).map(|r| r.tags.iter().cloned().collect::<Vec<_>>())
    };
    assert_eq!(tags(&h), Some(vec!["bad_translation".to_owned(), "my_tag".to_owned()]));
    press(&mut h, Key::Backspace);
    assert_eq!(tags(&h), Some(vec!["bad_translation".to_owned()]), "the last tag shown goes");
    // Typed text is edited by Backspace as usual.
    h.get_by_label("Tags").type_text("ab");
    h.settle();
    press(&mut h, Key::Backspace);
    assert_eq!(h.get_by_label("Tags").value().as_deref(), Some("a"));
    assert_eq!(tags(&h), Some(vec!["bad_translation".to_owned()]));
}

#[test]
fn names_typed_one_after_the_other_with_enter_are_all_added() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, None);
    h.get_by_label("Batches").click();
    h.settle();
    click(&mut h, "Annotators…");
    for name in ["Ben", "Clara"] {
        h.get_by_label("Add an annotator").type_text(name);
        h.settle();
        press(&mut h, Key::Enter);
    }
    let names: Vec<String> = saved(&f.path).annotators.iter().map(|a| a.name.clone()).collect();
    assert_eq!(names, ["Anna", "Ben", "Clara"]);
    assert!(h.get_by_label("Add an annotator").is_focused());
}

#[test]
fn arrow_keys_choose_a_category_and_enter_opens_its_new_examples() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    // A focused button (here by accessibility, as Tab or a click on a drop-down would) takes
    // Enter, but not the arrows.
    h.get_by_label("Start annotating").focus();
    h.settle();
    // The rows shown: the anaphoric one, the pleonastic one, deictic singular "you".
    press(&mut h, Key::ArrowDown);
    press(&mut h, Key::ArrowDown);
    assert!(is_on(&h, "Pleonastic “it”"), "the chosen row is marked");
    assert!(!is_on(&h, "Inter-sentential “it”, subject"));
    press(&mut h, Key::Enter);
    assert_eq!(current(&h), Some(CandidateId(3)));
    assert!(h.query_by_label("Pleonastic “it” — new").is_some());
    press(&mut h, Key::N);
    press(&mut h, Key::ArrowRight);
    press(&mut h, Key::N);
    press(&mut h, Key::ArrowRight); // the last one: back to the categories
    assert!(h.query_by_label("Pleonastic “it”: 0 new").is_some());
    // The choice stays, and a row without new examples opens all of them.
    press(&mut h, Key::Enter);
    assert!(h.query_by_label("Pleonastic “it” — all").is_some());
    assert_eq!(current(&h), Some(CandidateId(3)));
    press(&mut h, Key::Escape);
    press(&mut h, Key::ArrowUp);
    press(&mut h, Key::Enter);
    assert_eq!(current(&h), Some(CandidateId(1)), "↑ went back to the first row");
    press(&mut h, Key::Escape);
    // Clicking a title chooses its row too.
    click(&mut h, "Deictic singular “you”");
    press(&mut h, Key::Enter);
    assert_eq!(current(&h), Some(CandidateId(5)));
}

#[test]
fn the_bundled_batches_merge_into_the_bundled_master_from_the_import_dialog() {
    let dir = tempfile::tempdir().unwrap();
    // What the first start makes: a copy of the sample with its batches beside it.
    let path = settings::sample_copy(Some(dir.path().to_path_buf())).unwrap();
    // And a batch of another copy of the master (planned again), which cannot be merged.
    let mut other = protest::store::batch_file::load(&dir.path().join("sample.batch-1-ben.json")).unwrap();
    other.task_set = 7;
    protest::store::batch_file::save(&other, &dir.path().join("sample.batch-7-ben.json")).unwrap();
    let mut h = harness(&path, None);
    click(&mut h, "Batches");
    click(&mut h, "Import annotated batches…");
    assert!(
        h.query_by_label_contains(
            "sample.batch-7-ben.json (beside it) cannot be merged: task set 7 is not in this master"
        )
        .is_some()
    );
    assert!(h.query_by_label("+ sample.batch-7-ben.json").is_none(), "only what can be merged is offered");
    click(&mut h, "+ sample.batch-1-anna.json");
    click(&mut h, "+ sample.batch-1-ben.json");
    click(&mut h, "Check");
    assert!(named(&h, "Anna: 75 new") && named(&h, "Ben: 75 new"));
    click(&mut h, "Merge 150 new records");
    assert!(h.query_by_label("Merged 150 records from 2 batch files into the master.").is_some());
    let m = saved(&path);
    assert_eq!(m.records.len(), 150);
    let by = |who| m.records.iter().filter(|r| m.annotator_name(r.annotator) == who).count();
    assert_eq!((by("Anna"), by("Ben")), (75, 75));
}

#[test]
fn a_dialog_stays_where_it_opened_as_its_content_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = settings::sample_copy(Some(dir.path().to_path_buf())).unwrap();
    let mut h = harness(&path, None);
    click(&mut h, "Batches");
    click(&mut h, "Import annotated batches…");
    let title = h.get_by_label("Import annotated batches").rect();
    click(&mut h, "+ sample.batch-1-anna.json");
    click(&mut h, "Check"); // the table of what would change appears below
    assert!(named(&h, "Anna: 75 new"));
    assert_eq!(h.get_by_label("Import annotated batches").rect(), title, "the dialog did not move");
    press(&mut h, Key::Escape);
    // Opened again, it is placed afresh (centred for its content).
    click(&mut h, "Batches");
    click(&mut h, "Import annotated batches…");
    assert!(h.query_by_label("Import annotated batches").is_some());
}

#[test]
fn help_lists_undo_before_redo_and_only_the_keys_of_the_mode() {
    let (_dir, mut h) = anna_batch(Vec2::new(1280.0, 820.0));
    press(&mut h, Key::F1);
    let (undo_key, redo_key) = (h.get_by_label("Ctrl+Z").rect(), h.get_by_label("Ctrl+Shift+Z").rect());
    assert!(undo_key.top() < redo_key.top(), "undo first");
    assert!(h.query_by_label("Ctrl+G").is_none() && h.query_by_label("[ / ]").is_none(), "no researcher keys");
    let f = tiny_with_anna();
    let mut h = harness(&f.path, None);
    press(&mut h, Key::F1);
    assert!(
        h.query_by_label("Ctrl+G").is_some() && h.query_all_by_label("[ / ]").count() == 2,
        "the overview's and the prediction results'"
    );
}

#[test]
fn kept_conflicts_are_listed_with_their_rule_numbers() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y);
    press(&mut h, Key::ArrowRight);
    press(&mut h, Key::K);
    press(&mut h, Key::ArrowLeft);
    assert!(h.query_by_label("Kept with conflicts:").is_some());
    assert!(h.query_by_label("Rule 4").is_some(), "numbered as in the conflict dialog");
    assert!(h.query_by_label(Conflict::PronounYesWithoutTokens.describe()).is_some());
}

#[test]
fn the_category_browser_fits_the_smallest_window() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, None);
    let labels = ["Start annotating", "Only those needing a human", "Translation:", "Translation corpus"];
    for size in [Vec2::new(760.0, 480.0), Vec2::new(1024.0, 700.0)] {
        h.set_size(size);
        h.settle();
        let rects: Vec<(&str, egui::Rect)> = labels.iter().map(|&l| (l, h.get_by_label(l).rect())).collect();
        for (i, (a, ra)) in rects.iter().enumerate() {
            assert!(ra.left() >= 0.0 && ra.right() <= size.x, "{size:?}: {a} {ra:?} is cut off");
            for (b, rb) in &rects[i + 1..] {
                assert!(!ra.intersects(*rb), "{size:?}: {a} {ra:?} overlaps {b} {rb:?}");
            }
        }
    }
}

#[test]
fn the_window_counts_sentences_from_1() {
    // Example 1's pronoun is in the second sentence (1 in the file), its antecedent in the first.
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, ANAPHORIC_NEW);
    // The sentences' numbers are the only labels that are numbers alone (each label comes with
    // its text run).
    let mut numbers: Vec<String> = h
        .query_all_by(|_| true)
        .filter_map(|n| n.accesskit_node().value())
        .filter(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit()))
        .collect();
    numbers.dedup();
    assert_eq!(numbers, ["1", "2"]);
}
