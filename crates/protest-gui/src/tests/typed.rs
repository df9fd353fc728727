//! Typed text is a change like any other (docs/gui.md, "Saving"): remarks, and a tag left in the
//! tag box, are stored a moment after the last keystroke when the window is then left alone —
//! woken up by nothing but its own request, as eframe's event loop does it, where a frame that
//! input brings (a key let go, Esc) replaces a wake-up asked for before it. Until then the status
//! line, and the page's tab title, say what is not saved.

use super::stopwatch::{alone_until, at, key_at, now};
use super::*;
use super::{ANNA, PLEONASTIC_NEW, click, saved_record, tiny, tiny_with_anna};
use crate::panels::annotation::REMARKS_LABEL;
use egui::Key;

fn status(h: &Harness<App>, text: &str) -> bool {
    h.query_by_label(text).is_some()
}

/// Types `text` into the field named `field` at `t`, then Esc: the last keystrokes.
fn typed_then_esc(h: &mut Harness<App>, t: f64, field: &str, text: &str) {
    at(h, t);
    h.get_by_label(field).type_text(text);
    h.run_ok();
    key_at(h, t + 0.2, Key::Escape);
}

/// The tiny master open on its pleonastic example at 100 s, and `key` pressed at 101 s (R: into
/// the remarks, T: into the tag box).
fn on_the_pleonastic_example(key: Key) -> (super::Fixture, Harness<'static, App>) {
    let f = tiny();
    let mut h = harness(&f.path, None);
    at(&mut h, 100.0);
    click(&mut h, PLEONASTIC_NEW);
    key_at(&mut h, 101.0, key);
    (f, h)
}

#[test]
fn a_remark_typed_then_left_alone_is_stored_within_a_second() {
    let (f, mut h) = on_the_pleonastic_example(Key::R);
    typed_then_esc(&mut h, 102.0, REMARKS_LABEL, "closed-tab test");
    assert!(status(&h, "remarks not saved yet"), "the status line says what waits");
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None);
    let stored = |h: &Harness<App>| h.state().panel.remarks_due_at().is_none();
    let when = alone_until(&mut h, 102.2 + 2.0, stored).expect("stored with no input but its own wake-up");
    assert!(when - 102.2 <= 1.0, "stored {:.2} s after the last keystroke", when - 102.2);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().remarks, "closed-tab test");
    h.run_ok();
    assert!(status(&h, "every change is saved"));
}

#[test]
fn a_tag_left_in_the_tag_box_is_added_a_moment_after_the_box_is_left() {
    let (f, mut h) = on_the_pleonastic_example(Key::T);
    at(&mut h, 102.0);
    h.get_by_label("Tags").type_text("polit");
    h.run_ok();
    // Still in the box, its drop-down open: a pause is not the end of the word.
    assert_eq!(alone_until(&mut h, 105.0, |_| saved_record(&f.path, 3, AnnotatorId::RESEARCHER).is_some()), None);
    assert!(status(&h, "tag “polit” not added yet"), "the status line says what waits");
    h.get_by_label("Tags").type_text("eness");
    h.run_ok();
    key_at(&mut h, 105.5, Key::Escape);
    let added = |_: &Harness<App>| saved_record(&f.path, 3, AnnotatorId::RESEARCHER).is_some();
    let when = alone_until(&mut h, 105.5 + 2.0, added).expect("added with no input but its own wake-up");
    assert!(when - 105.5 <= 1.0, "added {:.2} s after Esc", when - 105.5);
    let tags = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().tags;
    assert_eq!(tags.iter().map(String::as_str).collect::<Vec<_>>(), ["politeness"]);
    assert_eq!(
        h.state().messages.current_info(),
        Some("Added the tag “politeness” typed in the tag box of example 2.")
    );
    // Text that is not a tag stays in the box, saying why, and is not tried again and again.
    key_at(&mut h, 110.0, Key::T);
    typed_then_esc(&mut h, 111.0, "Tags", "not sure");
    alone_until(&mut h, 114.0, |_| false);
    assert!(h.query_by_label_contains("“not sure” is not added: it has spaces").is_some());
    assert!(status(&h, "tag “not sure” not added yet"));
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().tags.len(), 1);
}

/// The page: the tab title says what is not saved yet, from the keystroke to the server's answer.
#[test]
fn the_page_title_says_what_is_not_saved_yet() {
    let (mut h, post) = super::web::page();
    at(&mut h, 100.0);
    key_at(&mut h, 100.0, Key::Enter);
    assert_eq!(h.state().page_state().as_deref(), Some("all saved"));
    key_at(&mut h, 101.0, Key::R);
    typed_then_esc(&mut h, 102.0, REMARKS_LABEL, "closed-tab test");
    assert_eq!(h.state().page_state().as_deref(), Some("remarks not saved yet"));
    let sent = |_: &Harness<App>| post.sent() == 1;
    let when = alone_until(&mut h, 104.2, sent).expect("sent with no input but the page's own wake-up");
    assert!(when - 102.2 <= 1.0, "sent {:.2} s after the last keystroke", when - 102.2);
    assert_eq!(h.state().page_state().as_deref(), Some("1 change not saved yet"));
    post.answer_last(true);
    let until = now(&h) + 1.0;
    alone_until(&mut h, until, |h| h.state().page_state().as_deref() == Some("all saved"))
        .expect("saved once the server answered");
}

/// Anna's time and remarks when the window loses the keyboard in the middle of typing (the page
/// is hidden: the tab closing): both stored at once.
#[test]
fn going_away_stores_remarks_typed_at_once() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    at(&mut h, 100.0);
    click(&mut h, PLEONASTIC_NEW);
    key_at(&mut h, 101.0, Key::R);
    at(&mut h, 102.0);
    h.get_by_label(REMARKS_LABEL).type_text("half a");
    h.run_ok();
    h.state_mut().away(102.1);
    let record = saved_record(&f.path, 3, ANNA).expect("stored at once");
    assert_eq!((record.remarks.as_str(), record.active_ms), ("half a", Some(2_100)));
}

/// Pastes `text` into the field that has the keyboard at `t`.
fn pasted_at(h: &mut Harness<App>, t: f64, text: &str) {
    at(h, t);
    h.input_mut().events.push(egui::Event::Paste(text.into()));
    h.run_ok();
}

#[test]
fn remarks_hold_only_what_can_be_stored_and_say_what_was_left_out() {
    use protest::model::text::MAX_REMARKS_CHARS;
    let (f, mut h) = on_the_pleonastic_example(Key::R);
    // Text copied from elsewhere, with a right-to-left override and a NUL in it.
    pasted_at(&mut h, 102.0, "ab\u{202E}c\0d");
    let note = "Left out control or direction-changing characters (U+202E, U+0000), which a remark may not have.";
    assert!(h.query_by_label(note).is_some(), "the box says what it left out");
    alone_until(&mut h, 104.0, |_| false);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().remarks, "abcd");
    assert!(status(&h, "every change is saved"), "stored, not refused");

    // More than a remark may hold: the box takes what fits and says so; that is stored.
    pasted_at(&mut h, 105.0, &"é".repeat(MAX_REMARKS_CHARS));
    let note = "10000 characters, the most a remark may have: what goes past them is not taken.";
    assert!(h.query_by_label(note).is_some(), "the box says it is full");
    alone_until(&mut h, 107.0, |_| false);
    let stored = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().remarks;
    assert_eq!(stored.chars().count(), MAX_REMARKS_CHARS);
    assert!(stored.starts_with("abcdé"));
    assert!(status(&h, "every change is saved"));
    // A keystroke more is not taken; the next example starts without a note.
    h.get_by_label(REMARKS_LABEL).type_text("x");
    h.run_ok();
    assert!(h.query_by_label(note).is_some());
    key_at(&mut h, 108.0, Key::Escape);
    key_at(&mut h, 108.5, Key::ArrowRight);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().remarks, stored);
    assert!(h.query_by_label(note).is_none());
}

/// A pause in typing stores the remark, and the box keeps the keyboard: what is typed next, or a
/// judgement's key, still goes to the box, not to the example.
#[test]
fn the_remarks_box_keeps_the_keyboard_once_a_pause_stored_them() {
    let (f, mut h) = on_the_pleonastic_example(Key::R);
    at(&mut h, 102.0);
    h.get_by_label(REMARKS_LABEL).type_text("closed-tab test");
    h.run_ok();
    let stored = |h: &Harness<App>| h.state().panel.remarks_due_at().is_none();
    alone_until(&mut h, 104.0, stored).expect("stored after the pause");
    key_at(&mut h, 104.5, Key::N);
    let record = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(record.pronoun, protest::model::Judgement::Unset, "N went to the example: {record:?}");
    key_at(&mut h, 105.0, Key::Escape);
    assert!(h.query_by_label(REMARKS_LABEL).is_some(), "Esc leaves the box, not the example");
}

/// The page: a remark stored by a pause while the server cannot be reached (its banner then
/// appears) leaves the keyboard in the box.
#[test]
fn the_page_keeps_the_remarks_box_focused_when_the_server_cannot_be_reached() {
    let (mut h, post) = super::web::page();
    at(&mut h, 100.0);
    key_at(&mut h, 100.0, Key::Enter);
    key_at(&mut h, 101.0, Key::R);
    at(&mut h, 102.0);
    h.get_by_label(REMARKS_LABEL).type_text("closed-tab test");
    h.run_ok();
    let sent = |_: &Harness<App>| post.sent() == 1;
    alone_until(&mut h, 104.0, sent).expect("sent after the pause");
    post.answer_last(false);
    let until = now(&h) + 1.0;
    alone_until(&mut h, until, |_| false);
    assert!(h.query_by_label_contains("the server cannot be reached").is_some());
    let example = h.state().current_candidate().unwrap();
    key_at(&mut h, 105.5, Key::Escape);
    assert_eq!(h.state().current_candidate(), Some(example), "Esc left the box, not the example");
}
