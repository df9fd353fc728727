//! Headless UI tests (egui_kittest): click and type as an annotator would, then read the file
//! and its journal back from disk to see what was saved.

mod batches;
mod calm;
mod frame_time;
mod layout;
mod legacy;
mod overview;
mod prediction;
mod progress;
mod report;
mod saving;
mod stopwatch;
mod traps;
mod trust;
mod typed;
mod web;

use crate::*;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use protest::model::Conflict;
use protest::model::{AnnotatorId, CandidateId, ConflictStatus, Judgement, Master, Record, TokenRef};
use protest::store::Store;
use std::path::Path;

pub(super) const TINY: &str = include_str!("../../../../tests/fixtures/tiny/tiny.master.json");
pub(super) const ANNA: AnnotatorId = AnnotatorId(1);

/// A copy of the tiny fixture (3 examples × reference and MT) in a temporary directory.
/// Candidates: 1 / 2 anaphoric "It" (→ "Elle" / "Il", antecedent "bicycle"), 3 / 4 pleonastic
/// "It" (→ "Il"), 5 / 6 deictic singular "You".
pub(super) struct Fixture {
    pub(super) _dir: tempfile::TempDir,
    pub(super) path: PathBuf,
}

pub(super) fn tiny() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.master.json");
    std::fs::write(&path, TINY).unwrap();
    Fixture { _dir: dir, path }
}

/// The tiny fixture with an annotator, Anna, whose records are conflict-checked.
pub(super) fn tiny_with_anna() -> Fixture {
    let f = tiny();
    let (mut store, _) = Store::<Master>::open(&f.path).unwrap();
    assert_eq!(protest::workflow::annotators::add(&mut store, "Anna").unwrap(), ANNA);
    store.close().unwrap();
    f
}

pub(super) fn harness(path: &Path, annotator: Option<AnnotatorId>) -> Harness<'static, App> {
    let mut settings = Settings::default();
    if let Some(a) = annotator {
        settings.annotators.insert(path.to_path_buf(), a);
    }
    let mut harness = window(App::new(settings, Some(path.to_path_buf()), None));
    harness.settle();
    harness
}

/// `app` in a window of the tests' size, no frame drawn yet.
pub(super) fn window(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(Vec2::new(1280.0, 820.0))
        .with_step_dt(1.0 / 60.0)
        // work that outlasts its grace period adds a frame or two before the result is drawn, and
        // a dialog takes a few to come to its size and place
        .with_max_steps(16)
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app)
}

/// Frames until the window is settled.
pub(super) trait Settle {
    /// Runs frames until nothing moves, with any long work the window started (opening a file,
    /// exporting…) finished and applied: the tests look at results (`progress.rs` looks at the
    /// progress).
    fn settle(&mut self);
}

impl Settle for Harness<'_, App> {
    fn settle(&mut self) {
        self.run();
        while self.state().is_busy() {
            self.state_mut().finish_work();
            self.run();
        }
    }
}

/// Lets held work finish (`work::hold`): frames come while it does, and the first after it
/// applies it.
pub(super) fn release(h: &mut Harness<App>) {
    crate::work::hold(false);
    let start = std::time::Instant::now();
    while h.state().is_busy() && start.elapsed() < std::time::Duration::from_secs(60) {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.settle();
}

/// Clicks `label` and sees its work run off the UI thread: the window shows `heading` and
/// nothing to start anything else with, the open file is with the work; then the work ends.
pub(super) fn click_to_work(h: &mut Harness<App>, label: &str, heading: &str) {
    crate::work::hold(true);
    h.get_by_label(label).click();
    h.step();
    h.step();
    assert!(h.state().is_busy(), "“{label}” runs on a worker thread");
    assert!(h.query_by_label(heading).is_some(), "says what it does: {heading}");
    assert!(h.query_by_label("File").is_none(), "no menu to start anything else with");
    assert!(h.state().session.is_none(), "the open file is with the work");
    release(h);
    assert!(!h.state().is_busy() && h.query_by_label(heading).is_none(), "done: {heading}");
}

/// What is on disk now: the file with its journal replayed (read-only while the app has it).
pub(super) fn saved(path: &Path) -> Master {
    let (store, _) = Store::<Master>::open(path).unwrap();
    store.master().clone()
}

pub(super) fn saved_record(path: &Path, candidate: u32, annotator: AnnotatorId) -> Option<Record> {
    saved(path).records.get(CandidateId(candidate), annotator).cloned()
}

pub(super) fn press(h: &mut Harness<App>, key: Key) {
    h.key_press(key);
    h.settle();
}

pub(super) fn press_with(h: &mut Harness<App>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    h.settle();
}

pub(super) fn click(h: &mut Harness<App>, label: &str) {
    h.get_by_label(label).click();
    h.settle();
}

/// Chooses `item` of the menu `menu`.
pub(super) fn open_menu(h: &mut Harness<App>, menu: &str, item: &str) {
    click(h, menu);
    click(h, item);
}

/// Types into a field, replacing what it holds.
pub(super) fn type_into(h: &mut Harness<App>, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.settle();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.settle();
    h.get_by_label(label).type_text(text);
    h.settle();
}

/// Whether a widget has this accessible name (a label's own text is its value instead).
pub(super) fn named(h: &Harness<App>, name: &str) -> bool {
    h.query_all_by(|n| n.label().as_deref() == Some(name)).next().is_some()
}

/// Whether a radio button or a token is on.
pub(super) fn is_on(h: &Harness<App>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
}

pub(super) fn position(h: &Harness<App>) -> (usize, usize) {
    match &h.state().view {
        View::Example(walk) => (walk.index + 1, walk.set.len()),
        View::Browser | View::Report | View::Predictions => (0, 0),
    }
}

pub(super) const ANAPHORIC_NEW: &str = "Inter-sentential “it”, subject: 2 new";
pub(super) const PLEONASTIC_NEW: &str = "Pleonastic “it”: 2 new";

#[test]
fn a_count_in_the_browser_opens_that_set() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    assert_eq!(position(&h), (1, 2));
    assert!(h.query_by_label("Pleonastic “it”").is_some(), "the category is the title");
    assert!(h.query_by_label("Pronoun correctly translated?").is_some());
    assert!(h.query_by_label("Antecedent head correctly translated?").is_none());
    press(&mut h, Key::Escape);
    assert_eq!(position(&h), (0, 0), "Esc goes back to the browser");
}

#[test]
fn the_browser_counts_its_empty_categories_in_words_that_agree() {
    let f = tiny();
    let h = harness(&f.path, None);
    assert!(h.query_by_label("10 categories have no examples here.").is_some(), "13 categories, 3 with examples");
    // One category without examples.
    let mut master = protest::store::master_file::from_bytes(&f.path, TINY.as_bytes()).unwrap();
    let used: Vec<String> = master.examples.iter().map(|e| e.category.clone()).collect();
    let mut kept = 0;
    master.categories.retain(|c| used.contains(&c.name) || std::mem::replace(&mut kept, 1) == 0);
    let path = f._dir.path().join("one-empty.master.json");
    protest::store::master_file::save(&master, &path).unwrap();
    let h = harness(&path, None);
    assert!(h.query_by_label("1 category has no examples here.").is_some());
}

#[test]
fn judgements_by_click_and_by_key_are_saved() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, ANAPHORIC_NEW);
    assert!(h.query_by_label("Pronoun correctly translated (given the antecedent head)?").is_some());
    click(&mut h, "Antecedent: Yes");
    let r = saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!((r.antecedent, r.pronoun), (Judgement::Yes, Judgement::Unset));
    press(&mut h, Key::N);
    press_with(&mut h, Modifiers::SHIFT, Key::U);
    let r = saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!((r.antecedent, r.pronoun), (Judgement::Unset, Judgement::No));
    // The radios show what was saved.
    assert!(is_on(&h, "Pronoun: No") && is_on(&h, "Antecedent: Unset"));
}

#[test]
fn highlighted_tokens_toggle_and_others_cannot_be_selected() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, ANAPHORIC_NEW); // candidate 1: "J' ai un vélo ." / "Il est rouge ."
    click(&mut h, "Il");
    click(&mut h, "vélo");
    let r = saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(r.selected.pronoun.iter().collect::<Vec<_>>(), [&TokenRef::new(1, 0)]);
    assert_eq!(r.selected.antecedent.iter().collect::<Vec<_>>(), [&TokenRef::new(0, 3)]);
    assert!(is_on(&h, "Il") && is_on(&h, "vélo"));
    click(&mut h, "Il");
    assert!(!is_on(&h, "Il"));
    assert!(saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap().selected.pronoun.is_empty());
    // By key: 1 is the first token aligned to the pronoun, Shift+1 the antecedent's.
    press(&mut h, Key::Num1);
    press_with(&mut h, Modifiers::SHIFT, Key::Num1);
    let r = saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert!(r.selected.pronoun.contains(&TokenRef::new(1, 0)) && r.selected.antecedent.is_empty());
    // Tokens outside the aligned sets are not even offered.
    assert!(h.query_by_label("rouge").is_none() && h.query_by_label("un").is_none());
}

/// A master whose MT output aligns the pronoun "it" and its antecedent head "council" to the same
/// word, "conseil" (an infinitive construction drops the pronoun).
fn both_roles_master(dir: &Path) -> PathBuf {
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let inputs = protest::ingest::from_texts::Inputs {
        source: write("src.en", "The council said it would vote .\n"),
        reference: Some(protest::ingest::from_texts::TranslationInput {
            name: "reference".into(),
            text: write("ref.fr", "Le conseil dit voter .\n"),
            alignment: write("ref.alig", "0-0 1-1 2-2 3-1 4-3 5-3 6-4\n"),
        }),
        systems: Vec::new(),
        documents: None,
        suite: write("suite.tsv", "1\t0\t3\tit\tanaphoric_intra_subject_it\t0:0-1@1\n"),
        languages: Default::default(),
        description: String::new(),
        order: Default::default(),
        out_of_range: Default::default(),
    };
    let master = protest::ingest::from_texts::build(&inputs, "both".into(), chrono::Utc::now()).unwrap();
    let path = dir.join("both.master.json");
    protest::store::master_file::save(&master, &path).unwrap();
    path
}

#[test]
fn a_token_aligned_to_both_roles_asks_which_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = both_roles_master(dir.path());
    let mut h = harness(&path, None);
    click(&mut h, "Intra-sentential “it”, subject: 1 new");
    click(&mut h, "conseil");
    click(&mut h, "Translation of the antecedent head");
    let r = saved_record(&path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(r.selected.antecedent.iter().collect::<Vec<_>>(), [&TokenRef::new(0, 1)]);
    assert!(r.selected.pronoun.is_empty());
    click(&mut h, "conseil");
    click(&mut h, "Translation of the pronoun");
    let r = saved_record(&path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert!(r.selected.pronoun.contains(&TokenRef::new(0, 1)) && r.selected.antecedent.contains(&TokenRef::new(0, 1)));
}

#[test]
fn leaving_with_conflicts_asks_and_each_answer_does_what_it_says() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y); // correct, but no token selected: rule 4
    press(&mut h, Key::ArrowRight);
    let rule = Conflict::PronounYesWithoutTokens.describe();
    assert!(h.query_by_label(rule).is_some(), "the dialog lists the failed rule");
    click(&mut h, "Amend");
    assert!(h.query_by_label(rule).is_none());
    assert_eq!(position(&h), (1, 2), "Amend stays");
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().conflict, ConflictStatus::Unchecked);

    press(&mut h, Key::ArrowRight);
    click(&mut h, "Keep as is");
    assert_eq!(position(&h), (2, 2), "Keep as is moves on");
    let kept = saved_record(&f.path, 3, ANNA).unwrap();
    assert_eq!(kept.conflict, ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens]));

    // A consistent annotation is stored as clear when left; the browser counts both.
    press(&mut h, Key::N);
    press(&mut h, Key::ArrowRight); // the last one: back to the browser
    assert_eq!(position(&h), (0, 0));
    assert_eq!(saved_record(&f.path, 4, ANNA).unwrap().conflict, ConflictStatus::Clear);
    assert!(h.query_by_label("Pleonastic “it”: 1 conflict").is_some());
    assert!(h.query_by_label("Pleonastic “it”: 1 done").is_some());
}

#[test]
fn the_researcher_is_not_conflict_checked() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y);
    press(&mut h, Key::ArrowRight);
    assert_eq!(position(&h), (2, 2));
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().conflict, ConflictStatus::Clear);
}

#[test]
fn undo_and_redo_store_the_earlier_state() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y);
    press(&mut h, Key::N);
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::Yes);
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None, "back to no record at all");
    press_with(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::Yes);
    // Undoing a change made on another example goes back to it.
    press(&mut h, Key::ArrowRight);
    press(&mut h, Key::U); // changes nothing: no blank record, no undo step
    assert_eq!(saved_record(&f.path, 4, AnnotatorId::RESEARCHER), None);
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(position(&h), (1, 2));
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None);
}

#[test]
fn tags_are_added_from_suggestions_or_typed_and_removed() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    h.get_by_label("Tags").click();
    h.settle();
    h.get_by_label("Tags").type_text("desc");
    h.settle();
    click(&mut h, "desc_vs_presc"); // the drop-down, filtered as typed
    h.get_by_label("Tags").type_text("my_own_tag");
    h.settle();
    press(&mut h, Key::Enter);
    // Enter takes the highlighted option: the first fits best (it starts with what was typed).
    h.get_by_label("Tags").type_text("n");
    h.settle();
    press(&mut h, Key::ArrowDown);
    press(&mut h, Key::ArrowUp);
    press(&mut h, Key::Enter);
    let r = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(
        r.tags.iter().map(String::as_str).collect::<Vec<_>>(),
        ["desc_vs_presc", "my_own_tag", "noncompositional_translation"]
    );
    press(&mut h, Key::Escape); // leave the field
    click(&mut h, "Remove tag desc_vs_presc");
    let r = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(r.tags.iter().map(String::as_str).collect::<Vec<_>>(), ["my_own_tag", "noncompositional_translation"]);
}

/// Adds a tag in the tag box (which keeps the keyboard until Esc).
fn add_tag(h: &mut Harness<App>, tag: &str) {
    h.get_by_label("Tags").click();
    h.settle();
    h.get_by_label("Tags").type_text(tag);
    h.settle();
    press(h, Key::Enter);
    press(h, Key::Escape);
}

/// Whether the drop-down offers `tag` once "my_" is typed in the tag box.
fn offered(h: &mut Harness<App>, tag: &str) -> bool {
    h.get_by_label("Tags").click();
    h.settle();
    h.get_by_label("Tags").type_text("my_");
    h.settle();
    assert!(h.query_by_label("new tag: my_").is_some(), "the drop-down is open");
    let offered = h.query_by_label(tag).is_some();
    // Typed and not added, the text would be added on leaving: take it back first.
    press_with(h, Modifiers::COMMAND, Key::A);
    press(h, Key::Backspace);
    press(h, Key::Escape);
    offered
}

#[test]
fn the_tags_offered_and_the_progress_follow_each_change() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    assert!(h.query_by_label("0 of 2 annotated").is_some());
    assert!(!offered(&mut h, "my_own_tag"));
    add_tag(&mut h, "my_own_tag");
    assert!(h.query_by_label("0 of 2 annotated").is_some(), "a tag is not a judgement: still to do");
    press(&mut h, Key::N);
    assert!(h.query_by_label("1 of 2 annotated").is_some(), "judged");
    press(&mut h, Key::ArrowRight);
    assert!(offered(&mut h, "my_own_tag"), "the new tag is offered on the next example");
    press(&mut h, Key::ArrowLeft);
    click(&mut h, "Remove tag my_own_tag");
    assert!(!offered(&mut h, "my_own_tag"), "a tag no record has is not offered");
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(offered(&mut h, "my_own_tag"), "undo gives it back");
    press(&mut h, Key::U);
    assert!(h.query_by_label("0 of 2 annotated").is_some(), "the judgement taken back");
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(h.query_by_label("1 of 2 annotated").is_some(), "undo counts too");
    press(&mut h, Key::Escape);
    assert!(h.query_by_label("Pleonastic “it”: 1 done").is_some(), "the browser follows");
}

#[test]
fn keys_do_not_fire_while_typing_and_remarks_are_saved_soon_after() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::R);
    h.get_by_label(crate::panels::annotation::REMARKS_LABEL).type_text("y n");
    h.settle();
    h.key_press(Key::Y);
    h.settle();
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None, "not saved yet while typing");
    h.run_steps(70); // > 1 s at 60 steps a second
    let r = saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!((r.remarks.as_str(), r.pronoun), ("y n", Judgement::Unset));
    // Remarks typed just before leaving are stored on leaving.
    h.get_by_label(crate::panels::annotation::REMARKS_LABEL).type_text(" more");
    h.settle();
    press(&mut h, Key::Escape); // leaves the field
    press(&mut h, Key::ArrowRight);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().remarks, "y n more");
}

#[test]
fn closing_folds_everything_into_the_file_and_reopening_shows_it() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::N);
    h.state_mut().shutdown();
    drop(h);
    assert!(!protest::store::journal::path_for(&f.path).exists(), "the journal was folded into the file");
    let on_disk = protest::store::master_file::load(&f.path).unwrap();
    assert_eq!(on_disk.records.get(CandidateId(3), AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);
    let mut h = harness(&f.path, None);
    assert!(h.query_by_label("Pleonastic “it”: 1 done").is_some());
    click(&mut h, "Pleonastic “it”: 1 done");
    assert!(is_on(&h, "Pronoun: No"));
}

#[test]
fn recovery_from_the_journal_is_reported() {
    let f = tiny();
    let (mut store, _) = Store::<Master>::open(&f.path).unwrap();
    let mut r = Record::new(CandidateId(4), AnnotatorId::RESEARCHER, chrono::Utc::now());
    r.pronoun = Judgement::Yes;
    store.put(r).unwrap();
    drop(store); // as if the app had crashed
    let h = harness(&f.path, None);
    assert!(h.query_by_label_contains("Recovered 1 change from the journal").is_some());
}

#[test]
fn a_file_open_elsewhere_is_shown_read_only() {
    let f = tiny();
    // Held by `protest serve`: the notice names it, with its address, and what to do.
    let server = protest::store::Holder::Server { address: "http://127.0.0.1:8720/".into() };
    let (_elsewhere, _) = Store::<Master>::open_as(&f.path, &server).unwrap();
    let mut h = harness(&f.path, None);
    assert!(h.query_by_label_contains("Read-only").is_some());
    assert!(
        h.query_by_label_contains("is being served by `protest serve` at http://127.0.0.1:8720/ (process ").is_some()
    );
    assert!(h.query_by_label_contains("stop the server first").is_some());
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None);
    assert!(h.state().messages.errors().next().is_none(), "keys do nothing rather than fail");
    assert!(h.query_by_label("numbers: keys").is_none(), "nor does the legend mention them");
}

#[test]
fn a_missing_file_is_an_error_message_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(&dir.path().join("nope.json"), None);
    assert!(h.query_by_label_contains("Could not open the file").is_some());
    press_with(&mut h, Modifiers::COMMAND, Key::O);
    assert!(h.query_by_label("Path of the file").is_some(), "Ctrl+O works without a file");
}

#[test]
fn the_researcher_can_add_an_annotator_and_annotate_as_them() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, "Annotator");
    h.get_by_label("New annotator's name").click();
    h.settle();
    h.get_by_label("New annotator's name").type_text("Anna");
    h.settle();
    click_to_work(&mut h, "Add", "Adding Anna…");
    assert!(h.query_by_label("New annotator's name").is_none(), "the picker closed");
    assert_eq!(h.state().session.as_ref().unwrap().annotator(), ANNA);
    assert_eq!(saved(&f.path).annotator_name(ANNA), "Anna");
    assert_eq!(h.state().settings.annotators.get(&f.path), Some(&ANNA), "remembered for next time");
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::N);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().pronoun, Judgement::No);
}

#[test]
fn help_shows_the_keys_and_the_guidelines() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    press(&mut h, Key::F1);
    assert!(h.query_by_label("undo the last change (this session, any example)").is_some());
    click(&mut h, "Annotation guidelines");
    assert!(h.query_by_label_contains("Precision over recall").is_some());
    assert!(h.query_all_by_label_contains("politeness_unknown").count() > 0);
    press(&mut h, Key::F1);
    assert!(h.query_by_label("Annotation guidelines").is_none());
    // Esc closes it too, and only it: the example under it stays.
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::F1);
    press(&mut h, Key::Escape);
    assert!(h.query_by_label("Annotation guidelines").is_none(), "Esc closed the help");
    assert!(matches!(h.state().view, View::Example(_)), "and left the example where it was");
    press(&mut h, Key::Escape);
    assert!(matches!(h.state().view, View::Browser), "the next Esc goes back");
}

#[test]
fn closing_the_window_checks_the_example_first() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y); // conflict: rule 4
    let close = |h: &mut Harness<App>| {
        h.input_mut().viewports.entry(egui::ViewportId::ROOT).or_default().events.push(egui::ViewportEvent::Close);
        h.settle();
    };
    close(&mut h);
    assert!(!h.state().may_close, "the close is held back for the dialog");
    press(&mut h, Key::A); // Amend
    assert_eq!(position(&h), (1, 2));
    close(&mut h);
    press(&mut h, Key::K); // Keep as is
    assert!(h.state().may_close);
    assert_eq!(
        saved_record(&f.path, 3, ANNA).unwrap().conflict,
        ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens])
    );
}

#[test]
fn opening_another_file_closes_this_one_and_a_bad_one_keeps_it() {
    let f = tiny();
    let other = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::N);
    press_with(&mut h, Modifiers::COMMAND, Key::O);
    h.get_by_label("Path of the file").click();
    h.settle();
    h.get_by_label("Path of the file").type_text("/no/such/file.json");
    h.settle();
    click(&mut h, "Open");
    assert!(h.query_by_label_contains("Could not open the file").is_some());
    assert_eq!(h.state().session.as_ref().unwrap().path(), f.path, "the open file stays");
    press_with(&mut h, Modifiers::COMMAND, Key::O);
    h.get_by_label("Path of the file").click();
    h.settle();
    h.get_by_label("Path of the file").type_text(other.path.to_str().unwrap());
    h.settle();
    // Opening the other and closing this one (its journal folded in) happen on the worker.
    click_to_work(&mut h, "Open", "Opening tiny.master.json…");
    assert_eq!(h.state().session.as_ref().unwrap().path(), other.path);
    assert!(!protest::store::lock_path(&f.path).exists(), "the first file was closed");
    let first = protest::store::master_file::load(&f.path).unwrap();
    assert_eq!(first.records.get(CandidateId(3), AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);
}

#[test]
fn several_keys_in_one_frame_all_count() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    for key in [Key::N, Key::ArrowRight, Key::Y, Key::Num1] {
        // Straight into the next frame's input: one frame, four keys.
        h.input_mut().events.push(egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::NONE,
        });
    }
    h.settle();
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);
    let r = saved_record(&f.path, 4, AnnotatorId::RESEARCHER).unwrap();
    assert!(r.pronoun == Judgement::Yes && r.selected.pronoun.contains(&TokenRef::new(2, 0)));
}

#[test]
fn the_open_dialog_takes_the_keyboard() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    press_with(&mut h, Modifiers::COMMAND, Key::O);
    assert!(h.get_by_label("Path of the file").is_focused(), "type the path right away");
}

#[test]
fn remarks_typed_just_before_closing_are_kept() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::R);
    h.get_by_label(crate::panels::annotation::REMARKS_LABEL).type_text("last words");
    h.step(); // no time for the delay to pass
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None);
    h.state_mut().shutdown();
    let on_disk = protest::store::master_file::load(&f.path).unwrap();
    assert_eq!(on_disk.records.get(CandidateId(3), AnnotatorId::RESEARCHER).unwrap().remarks, "last words");
}
