//! Headless tests (egui_kittest) of what an annotator must be able to trust (issue 14): undo
//! shows what it undoes, redo gives back whole records, a record breaking a rule is never shown
//! as done, the pronoun is on screen, the header does not overlap itself, the keyboard has no
//! traps, and the bundled samples merge.

use super::tests::{ANAPHORIC_NEW, ANNA, PLEONASTIC_NEW, click, harness, press, press_with, saved, tiny_with_anna};
use super::*;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use protest::annotation::{self, Status};
use protest::conflicts::Conflict;
use protest::model::{CandidateId, ConflictStatus, Judgement, Record};

const YOU_NEW: &str = "Deictic singular “you”: 2 new";

/// The candidate on screen, if an example is open.
fn current(h: &Harness<App>) -> Option<CandidateId> {
    match &h.state().view {
        View::Example(walk) => Some(walk.current()),
        View::Browser | View::Report => None,
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
        assert!(h.state().dialog.is_none(), "step {i}: nothing to settle on the way");
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
    assert_eq!(annas(&f.path), before, "every record back as it was, conflict status included");
    assert_eq!(info(&h), "Nothing to redo.");
    // Candidate 5: pronoun judged, no politeness tag (rule 9), not checked yet: not done.
    let m = saved(&f.path);
    assert_eq!(m.records.get(CandidateId(5), ANNA).unwrap().conflict, ConflictStatus::Unchecked);
    assert_eq!(annotation::status_of(&m, CandidateId(5), ANNA), Status::Conflict);
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
