//! Working for hours without tripping (an annotator's long session in the real window): done means
//! judged, what was typed is never lost, messages belong to what they are about and fade into the
//! status line, the conflict dialog opens beside the translation it asks about, a dialog's buttons
//! stay where they are, tables use the window's width, places scrolled to are not restored, the
//! focus is clearly drawn, closing a file saves with a progress bar, a window from a larger screen
//! fits this one, and the matching rule is chosen in the window.

use super::*;
use super::{
    ANNA, PLEONASTIC_NEW, click, click_to_work, harness, open_menu, press, press_with, saved, saved_record, tiny,
    tiny_with_anna, type_into,
};
use egui::{Key, Modifiers, Vec2};
use egui_kittest::kittest::Queryable;
use protest::model::{CandidateId, Judgement, MatchRule};

fn current(h: &Harness<App>) -> Option<CandidateId> {
    match &h.state().view {
        View::Example(walk) => Some(walk.current()),
        View::Browser | View::Report | View::Predictions => None,
    }
}

fn remark(h: &mut Harness<App>, text: &str) {
    press(h, Key::R);
    h.get_by_label(crate::panels::annotation::REMARKS_LABEL).type_text(text);
    h.settle();
    press(h, Key::Escape);
}

#[test]
fn a_record_with_only_a_remark_stays_to_do_and_continue_comes_back_to_it() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    // The anaphoric example's two translations judged, then a remark alone on the first
    // pleonastic one ("come back later"), and the second judged.
    click(&mut h, super::ANAPHORIC_NEW);
    for _ in 0..2 {
        press_with(&mut h, Modifiers::SHIFT, Key::N);
        press(&mut h, Key::N);
        press(&mut h, Key::ArrowRight);
    }
    click(&mut h, PLEONASTIC_NEW);
    remark(&mut h, "unsure about this one");
    press(&mut h, Key::ArrowRight);
    press(&mut h, Key::N);
    press(&mut h, Key::ArrowRight);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().remarks, "unsure about this one");
    // Counted as still to do, with notes — not as done.
    assert!(h.query_by_label("Pleonastic “it”: 1 with notes").is_some());
    assert!(h.query_by_label("Pleonastic “it”: 1 done").is_some());
    assert!(h.query_by_label("3 of 6 annotated by Anna").is_some());
    // Continue annotating comes back to it, before the new ones after it.
    press(&mut h, Key::Enter);
    assert_eq!(current(&h), Some(CandidateId(3)));
    // And protest check counts it the same way.
    let summary = protest::store::summary::Summary::of(&saved(&f.path)).to_string();
    assert!(summary.contains("Anna (4 records: 3 done, 1 to do (notes only))"), "{summary}");
}

#[test]
fn text_typed_in_the_tag_box_is_added_on_leaving_and_said_so() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::T);
    h.get_by_label("Tags").type_text("mytag");
    h.settle();
    press(&mut h, Key::Escape);
    assert!(h.query_by_label_contains("“mytag” is not added yet").is_some(), "it does not look like a tag");
    press(&mut h, Key::ArrowRight);
    let tags = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().tags;
    assert_eq!(tags.iter().map(String::as_str).collect::<Vec<_>>(), ["mytag"]);
    assert_eq!(
        h.state().messages.current_info(),
        Some("Added the tag “mytag” typed in the tag box of example 2."),
        "never silently"
    );
}

#[test]
fn text_that_is_not_a_tag_is_kept_for_its_example() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::T);
    h.get_by_label("Tags").type_text("my tag");
    h.settle();
    press(&mut h, Key::Escape);
    press(&mut h, Key::ArrowRight);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None, "not a tag: nothing added");
    let said = h.state().messages.current_info().unwrap_or_default().to_owned();
    assert!(said.contains("was not added: it has spaces") && said.contains("kept there"), "{said}");
    assert_eq!(h.get_by_label("Tags").value().as_deref(), Some(""), "the next example's box is empty");
    press(&mut h, Key::ArrowLeft);
    assert_eq!(h.get_by_label("Tags").value().as_deref(), Some("my tag"), "back with its example");
}

#[test]
fn a_warning_about_an_example_goes_when_the_example_is_left() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press_with(&mut h, Modifiers::SHIFT, Key::Y);
    let warning = "This example is not anaphoric: there is no antecedent to judge.";
    assert!(h.query_by_label(warning).is_some());
    press(&mut h, Key::ArrowRight);
    assert!(h.query_by_label(warning).is_none(), "not over the next example");
    assert_eq!(h.state().messages.last(), Some(warning), "the status line's history keeps it");
}

#[test]
fn information_fades_into_the_status_line_with_the_history_of_the_session() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    let row = h.get_by_label(PLEONASTIC_NEW).rect();
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(h.query_by_label("Nothing to undo.").is_some(), "said at once");
    assert_eq!(h.get_by_label(PLEONASTIC_NEW).rect(), row, "floating: nothing moves");
    h.state_mut().messages.error("Could not save: the disk is full");
    h.settle();
    // A few seconds later the information is gone from over the work; the error stays.
    let now = h.ctx.input(|i| i.time);
    h.input_mut().time = Some(now + crate::messages::INFO_SECONDS + 1.0);
    h.settle();
    assert!(h.query_by_label("Nothing to undo.").is_none());
    assert!(h.query_by_label("Could not save: the disk is full").is_some(), "errors stay until dismissed");
    click(&mut h, "Dismiss message");
    assert!(h.query_by_label("Could not save: the disk is full").is_none());
    // The status line has the last message; a click shows the session's history.
    click(&mut h, "Messages of this session");
    assert!(h.query_by_label("Messages of this session, newest first").is_some());
    assert!(
        h.query_by_label("Nothing to undo.").is_some()
            && h.query_by_label("Could not save: the disk is full").is_some()
    );
}

#[test]
fn the_conflict_dialog_opens_beside_the_translation_it_asks_about() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y); // correct, but no token selected: rule 4
    press(&mut h, Key::ArrowRight);
    for size in [Vec2::new(1280.0, 820.0), Vec2::new(760.0, 480.0)] {
        h.set_size(size);
        h.settle();
        let dialog = ["Check this annotation", "Amend", "Keep as is"]
            .map(|l| h.get_by_label(l).rect())
            .into_iter()
            .reduce(|a, b| a.union(b))
            .unwrap();
        for token in ["pronoun: It", "Il"] {
            let at = h.get_by_label(token).rect();
            assert!(!dialog.expand(16.0).intersects(at), "{size:?}: the dialog {dialog:?} covers “{token}” {at:?}");
        }
    }
}

#[test]
fn the_buttons_of_a_dialog_stay_in_place_when_a_problem_goes() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    open_menu(&mut h, "File", "Add MT system…");
    let before = ["Check and align", "Cancel"].map(|l| h.get_by_label(l).rect());
    click(&mut h, "Check and align"); // nothing given: a problem
    let problem = "Choose the system's output file, or its folder of documents.";
    assert!(h.query_by_label(problem).is_some());
    type_into(&mut h, "Name", "newmt"); // the problem was about the form: it goes
    assert!(h.query_by_label(problem).is_none());
    let after = ["Check and align", "Cancel"].map(|l| h.get_by_label(l).rect());
    assert_eq!(before, after, "the next click lands where the last one did");
}

#[test]
fn report_tables_use_the_width_of_the_window_and_scroll_sideways_beyond_it() {
    // Seven annotators: the annotation results have columns for each, wider than 1100 points.
    let dir = tempfile::tempdir().unwrap();
    let path = settings::sample_copy(Some(dir.path().to_path_buf())).unwrap();
    protest::workflow::on_master(&path, |store| {
        let annas: Vec<_> =
            (1..=8).map(|i| protest::model::Record::new(CandidateId(i), ANNA, chrono::Utc::now())).collect();
        for name in ["Clara", "Dan", "Eve", "Finn", "Gus"] {
            let id = protest::workflow::annotators::add(store, name)?;
            for mut r in annas.clone() {
                (r.annotator, r.pronoun) = (id, Judgement::Yes);
                store.put(r)?;
            }
        }
        Ok(())
    })
    .unwrap();
    let mut h = harness(&path, None);
    click(&mut h, "Report");
    let cells = |h: &Harness<App>| super::layout::placed(h, |n| n.label().is_some_and(|l| l.contains(" · ")));
    h.set_size(Vec2::new(1920.0, 1080.0));
    h.settle();
    let wide = cells(&h);
    let end = wide.iter().map(|c| c.whole.right()).fold(0.0, f32::max);
    assert!(end > 1150.0 && end < 1900.0, "a table wider than tables were cut at: it ends at {end}");
    assert!(wide.iter().all(|c| c.shown == c.whole), "in 1920 points it is shown whole");
    h.set_size(Vec2::new(1024.0, 700.0));
    h.settle();
    let cut: Vec<_> = cells(&h).into_iter().filter(|c| c.shown.width() < c.whole.width()).collect();
    assert!(!cut.is_empty(), "in 1024 points it scrolls sideways");
    assert!(cut.iter().all(|c| c.shown.right() < 1024.0 - 8.0), "at the edge of its scroll area, inside the window");
}

#[test]
fn scroll_places_are_not_restored_when_the_window_opens_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = settings::sample_copy(Some(dir.path().to_path_buf())).unwrap();
    let first_table = |h: &Harness<App>| h.get_by_label_contains("Annotation results over").rect();
    // The window as it starts with what eframe gives back of egui's memory (`kept`), and the
    // report's first table in it.
    let reopened = |kept: Option<&str>, forget: bool| {
        let mut h = super::window(App::new(Settings::default(), Some(path.clone()), None));
        if let Some(kept) = kept {
            h.ctx.memory_mut(|m| *m = ron::from_str(kept).unwrap());
            // eframe gives the memory back before the app's first frame, which sets its style.
            h.state_mut().styled = false;
        }
        if forget {
            settings::forget_places(&h.ctx); // as `run` does with the context eframe made
        }
        h.set_size(Vec2::new(760.0, 480.0));
        h.settle();
        click(&mut h, "Report");
        let at = first_table(&h);
        (h, at)
    };
    let (mut h, top) = reopened(None, true);
    h.hover_at(egui::pos2(380.0, 300.0)); // over the report's tables
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -3000.0),
        modifiers: Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    h.run_steps(40);
    assert!(first_table(&h).top() < top.top() - 100.0, "scrolled down");
    // What eframe keeps of egui's memory when the window closes.
    let kept = h.ctx.memory(|m| ron::to_string(m).unwrap());
    drop(h);
    assert_ne!(reopened(Some(&kept), false).1, top, "egui would scroll there again");
    assert_eq!(reopened(Some(&kept), true).1, top, "the report opens at its top");
}

#[test]
fn tab_draws_a_ring_around_the_focused_widget_and_a_click_ends_it() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    assert_eq!(h.state().ring, None);
    press(&mut h, Key::Tab);
    let focused = h.query_all_by(|n| n.is_focused()).next().expect("Tab focuses a widget").rect();
    assert_eq!(h.state().ring, Some(focused.expand(2.0)), "a clear ring around it");
    click(&mut h, PLEONASTIC_NEW);
    assert_eq!(h.state().ring, None, "the pointer is used again");
}

#[test]
fn closing_saves_off_the_ui_thread_with_a_progress_bar() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::N); // in the journal, to be folded into the file on closing
    crate::work::hold(true);
    h.input_mut().viewports.entry(egui::ViewportId::ROOT).or_default().events.push(egui::ViewportEvent::Close);
    // Frames come while the worker saves (held: its result is not applied yet).
    let started = std::time::Instant::now();
    while h.query_by_label_contains("Saving tiny.master.json: ").is_none() && started.elapsed().as_secs() < 20 {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(h.state().is_busy(), "the file is closed on a worker thread");
    assert!(h.query_by_label("Saving and closing tiny.master.json…").is_some(), "saying so");
    assert!(h.query_by_label_contains("Saving tiny.master.json: ").is_some(), "with a bar of the bytes written");
    assert!(!h.state().may_close, "the window waits for it");
    super::release(&mut h);
    assert!(h.state().may_close);
    assert!(!protest::store::journal::path_for(&f.path).exists(), "the journal was folded into the file");
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);
}

#[test]
fn a_window_larger_than_the_screen_is_fitted_to_it() {
    let f = tiny();
    let mut h = super::window(App::new(Settings::default(), Some(f.path.clone()), None));
    // Remembered at 1280 × 820 (with a 30-point title bar), opened on a 900 × 600 screen.
    let viewport = h.input_mut().viewports.entry(egui::ViewportId::ROOT).or_default();
    viewport.monitor_size = Some(Vec2::new(900.0, 600.0));
    viewport.outer_rect = Some(egui::Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(1280.0, 850.0)));
    viewport.inner_rect = Some(egui::Rect::from_min_size(egui::pos2(0.0, 30.0), Vec2::new(1280.0, 820.0)));
    h.step();
    let commands = &h.output().viewport_output[&egui::ViewportId::ROOT].commands;
    assert!(commands.contains(&egui::ViewportCommand::InnerSize(Vec2::new(868.0, 538.0))), "{commands:?}");
    h.step();
    let commands = &h.output().viewport_output[&egui::ViewportId::ROOT].commands;
    assert!(!commands.iter().any(|c| matches!(c, egui::ViewportCommand::InnerSize(_))), "once, not every frame");
}

#[test]
fn the_matching_rule_is_chosen_in_the_window() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, "Report");
    click(&mut h, "Automatic match");
    assert!(super::is_on(&h, "The pronoun forms among the aligned words"), "the master's rule, at first");
    click(&mut h, "Every aligned word, as earlier versions did");
    click_to_work(&mut h, "Run automatic evaluation", "Running the automatic evaluation…");
    let m = saved(&f.path);
    assert_eq!(m.auto_eval.rule, MatchRule::AlignedTokens, "the rule stored for later rounds");
    assert_eq!(m.auto_eval.rounds.last().unwrap().rule, MatchRule::AlignedTokens);
    assert!(super::is_on(&h, "Every aligned word, as earlier versions did"));
}
