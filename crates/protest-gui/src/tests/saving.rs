//! Headless tests of what the app shows when saving fails: a disk that refuses writes (through
//! the library's fault-injecting disk), a file another program replaced, a read-only file. What
//! the user cannot see did not happen: a change not saved is shown as such until it is.

use super::*;
use super::{ANNA, PLEONASTIC_NEW, click, click_to_work, press, saved, saved_record, tiny, tiny_with_anna, type_into};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use protest::model::{AnnotatorId, Judgement, Master};
use protest::store::Store;
use protest::store::disk::{Fault, Faulty};
use protest::workflow;

fn harness_on(path: &Path, disk: &Faulty) -> Harness<'static, App> {
    let mut harness = super::window(App::on_disk(Settings::default(), Some(path.to_path_buf()), None, disk.shared()));
    harness.settle();
    harness
}

fn status(h: &Harness<App>, text: &str) -> bool {
    let found = h.query_by_label(text).is_some();
    if !found {
        let labels: Vec<String> = h
            .query_all_by(|_| true)
            .filter_map(|n| {
                let node = egui_kittest::kittest::NodeT::accesskit_node(&n);
                node.label().or(node.value())
            })
            .filter(|l| l.contains("saved") || l.contains("Removed") || l.contains("task set"))
            .collect();
        eprintln!("no {text:?} among {labels:?}");
    }
    found
}

/// Changes the app keeps that are not saved.
fn not_saved(h: &Harness<App>) -> usize {
    h.state().session.as_ref().and_then(|s| s.not_saved()).map_or(0, |n| n.changes)
}

#[test]
fn a_change_the_disk_refuses_stays_shown_as_not_saved_until_it_is() {
    let f = tiny();
    let disk = Faulty::new(Fault::None);
    let mut h = harness_on(&f.path, &disk);
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::N);
    assert!(status(&h, "every change is saved"));

    // The disk is full from now on.
    disk.set(Fault::FullFrom(0));
    press(&mut h, Key::Y);
    assert!(status(&h, "1 change not saved"), "the status line says so");
    assert!(!status(&h, "every change is saved"));
    let banner = "1 change is not saved: ";
    assert!(h.query_by_label_contains(banner).is_some(), "a banner says so");
    assert!(h.query_by_label_contains("No space left on device").is_some(), "and why");
    assert!(h.query_by_label("Retry").is_some());
    // The change is shown (kept in memory) but nothing of it is on disk.
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);
    let shown = h
        .state()
        .session
        .as_ref()
        .unwrap()
        .master()
        .records
        .get(protest::model::CandidateId(3), AnnotatorId::RESEARCHER)
        .unwrap()
        .pronoun;
    assert_eq!(shown, Judgement::Yes);
    assert!(h.state().messages.errors().next().is_none(), "the not-saved banner is the one message");

    press(&mut h, Key::ArrowRight); // leaving the example may store its checked status too
    press(&mut h, Key::N);
    let pending = not_saved(&h);
    assert!(pending >= 2);
    let line = format!("{pending} changes not saved");
    assert!(status(&h, &line));
    click(&mut h, "Retry");
    assert!(status(&h, &line), "still full: still not saved");

    // Space again: Retry saves both, and the banner goes.
    disk.set(Fault::None);
    click(&mut h, "Retry");
    assert!(status(&h, "every change is saved") && not_saved(&h) == 0);
    assert!(h.query_by_label_contains(banner).is_none() && h.query_by_label("Retry").is_none());
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::Yes);
    assert_eq!(saved_record(&f.path, 4, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);

    // The next change saves what is pending too, without Retry.
    disk.set(Fault::Once(0));
    press(&mut h, Key::Y);
    assert!(status(&h, "1 change not saved"));
    press(&mut h, Key::N);
    assert!(status(&h, "every change is saved"));
    assert_eq!(saved(&f.path), *h.state().session.as_ref().unwrap().master());
}

#[test]
fn a_failed_full_save_changes_nothing_and_says_so() {
    let f = tiny_with_anna();
    let disk = Faulty::new(Fault::None);
    let mut h = harness_on(&f.path, &disk);
    let before = saved(&f.path);
    disk.set(Fault::FullFrom(0));
    click(&mut h, "Annotator");
    h.get_by_label("New annotator's name").click();
    h.settle();
    h.get_by_label("New annotator's name").type_text("Carl");
    h.settle();
    click(&mut h, "Add");
    assert!(h.query_by_label_contains("Could not add Carl").is_some());
    assert!(h.query_by_label_contains("No space left on device (os error 28). Nothing was changed.").is_some());
    let session = h.state().session.as_ref().unwrap();
    assert_eq!(session.master().annotators.len(), 1, "Carl is not in the list");
    assert_eq!(session.annotator(), AnnotatorId::RESEARCHER);
    assert!(status(&h, "every change is saved"), "nothing is pending: the file is as it was");
    assert_eq!(saved(&f.path), before);

    // The same in a dialog; then with space again it works.
    open_menu(&mut h, "Batches", "Annotators…");
    type_into(&mut h, "Add an annotator", "Carl");
    click(&mut h, "Add");
    assert_eq!(h.query_all_by_label_contains("Nothing was changed.").count(), 2, "the banner and the dialog");
    disk.set(Fault::None);
    click(&mut h, "Add");
    assert!(h.query_by_label("Added Carl.").is_some());
    assert_eq!(saved(&f.path).annotator_name(AnnotatorId(2)), "Carl");
}

#[test]
fn quitting_with_changes_not_saved_warns_first() {
    let f = tiny();
    let disk = Faulty::new(Fault::None);
    let mut h = harness_on(&f.path, &disk);
    click(&mut h, PLEONASTIC_NEW);
    disk.set(Fault::FullFrom(0));
    press(&mut h, Key::Y);
    click(&mut h, "File");
    click(&mut h, "Quit");
    assert!(!h.state().may_close, "not closed");
    assert!(h.query_by_label_contains("Quitting now loses the changes that are not saved").is_some());
    // Space again: quitting saves first, then quits.
    disk.set(Fault::None);
    click(&mut h, "File");
    click(&mut h, "Quit");
    assert!(h.state().may_close);
    assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::Yes);
}

/// Judges the first new pleonastic "it"; then someone removes the lock and changes the master from
/// the command line; then the window judges the next one, which it can no longer save.
pub(super) fn judged_then_detached(h: &mut Harness<App>, path: &Path) {
    click(h, PLEONASTIC_NEW);
    press(h, Key::N);
    std::fs::remove_file(protest::store::lock_path(path)).unwrap();
    workflow::on_master(path, |store| workflow::annotators::add(store, "Intruder")).unwrap();
    press(h, Key::ArrowRight);
    press(h, Key::Y);
}

#[test]
fn a_file_another_program_replaced_is_not_written_and_a_copy_keeps_the_work() {
    let f = tiny_with_anna();
    let mut h = super::harness(&f.path, Some(ANNA));
    judged_then_detached(&mut h, &f.path);
    assert!(h.query_by_label_contains("Another program changed this file since it was opened here").is_some());
    assert!(h.query_by_label_contains("keep them with File › Save a copy as…").is_some());
    assert!(h.query_by_label("Retry").is_none(), "trying again cannot help");
    let line = format!("not saved: the file was changed elsewhere ({} changes kept here)", not_saved(&h));
    assert!(status(&h, &line));
    // Nothing here overwrites the intruder's file.
    assert_eq!(saved(&f.path).annotator_name(AnnotatorId(2)), "Intruder");

    open_menu(&mut h, "File", "Save a copy as…");
    let copy = f.path.with_file_name("mine.master.json");
    type_into(&mut h, "The copy", &copy.display().to_string());
    click_to_work(&mut h, "Save the copy", "Saving a copy…");
    assert!(h.query_by_label_contains("Saved a copy as").is_some());
    click(&mut h, "Open the copy");
    assert_eq!(h.state().session.as_ref().unwrap().path(), copy);
    assert!(status(&h, "every change is saved"));
    let mine: Master = protest::store::master_file::load(&copy).unwrap();
    assert_eq!(mine.records.len(), 2, "both changes are in the copy");
    assert!(protest::batches::annotators::find(&saved(&f.path), "Intruder").is_some(), "the intruder's file kept");
}

#[cfg(unix)]
#[test]
fn a_read_only_file_opens_read_only_with_a_banner() {
    use std::os::unix::fs::PermissionsExt;
    let f = tiny();
    std::fs::set_permissions(&f.path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut h = super::harness(&f.path, None);
    assert!(h.query_by_label_contains("tiny.master.json has no write permission").is_some());
    assert!(status(&h, "read-only: changes are not saved"));
    click(&mut h, PLEONASTIC_NEW);
    press(&mut h, Key::Y);
    assert_eq!(std::fs::read_to_string(&f.path).unwrap(), super::TINY);
    assert!(!protest::store::lock_path(&f.path).exists());
}

#[test]
fn an_annotator_without_records_is_removed_and_one_with_records_is_not() {
    let f = tiny_with_anna();
    let (mut store, _) = Store::<Master>::open(&f.path).unwrap();
    workflow::annotators::add(&mut store, "Ben").unwrap();
    let mut r = protest::model::Record::new(protest::model::CandidateId(3), ANNA, chrono::Utc::now());
    r.pronoun = Judgement::Yes;
    store.put(r).unwrap();
    store.close().unwrap();
    let mut h = super::harness(&f.path, None);
    open_menu(&mut h, "Batches", "Annotators…");
    click(&mut h, "Remove Anna");
    assert!(h.query_by_label("Anna has 1 records in this master, so they cannot be removed").is_some());
    click_to_work(&mut h, "Remove Ben", "Removing Ben…");
    assert!(h.query_by_label("Removed Ben.").is_some());
    let m = saved(&f.path);
    assert_eq!(m.annotators.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["Anna"]);
}

#[test]
fn a_task_set_of_the_same_name_is_replaced_only_when_asked_and_one_not_given_out_is_removed() {
    let f = tiny();
    let mut h = super::harness(&f.path, None);
    open_menu(&mut h, "Batches", "Plan a task set…");
    type_into(&mut h, "Name", "pilot");
    click(&mut h, "Store “pilot” in the master");
    click(&mut h, "Close");
    open_menu(&mut h, "Batches", "Plan a task set…");
    type_into(&mut h, "Name", "Pilot");
    assert!(h.query_by_label_contains("There is already a task set called 'pilot' (id 1)").is_some());
    click(&mut h, "Replace the task set of this name (no batch was exported from it)");
    click(&mut h, "Replace task set 1 with “Pilot”");
    assert!(h.query_by_label("Stored “Pilot” as task set 1.").is_some());
    assert_eq!(saved(&f.path).task_sets.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["Pilot"]);
    click(&mut h, "Close");
    open_menu(&mut h, "Batches", "Plan a task set…");
    click(&mut h, "Task sets in this master");
    click_to_work(&mut h, "Remove task set Pilot", "Removing the task set…");
    assert!(status(&h, "Removed task set 1 “Pilot”."));
    assert!(saved(&f.path).task_sets.is_empty());
}

/// The app on `path` as the user's own: its data folder is `data` (where recovery files go).
pub(super) fn harness_with_data(path: &Path, data: &Path) -> Harness<'static, App> {
    let mut settings = Settings::default();
    settings.annotators.insert(path.to_path_buf(), ANNA);
    let mut harness = super::window(App::new(settings, Some(path.to_path_buf()), Some(data.to_path_buf())));
    harness.settle();
    harness
}

#[test]
fn changes_a_detached_window_could_not_save_are_offered_when_the_file_opens_again() {
    let f = tiny_with_anna();
    let data = tempfile::tempdir().unwrap();
    let mut h = harness_with_data(&f.path, data.path());
    // The window detaches, and keeps what it shows.
    judged_then_detached(&mut h, &f.path);
    assert!(h.query_by_label_contains("opening this file again offers them, even after a crash").is_some());
    let kept = h.state().session.as_ref().unwrap().recovery_path().unwrap().to_path_buf();
    assert!(kept.starts_with(data.path().join("recovery")), "{}", kept.display());
    drop(h); // killed: the window never closes its file

    // Opened again: what the recovery file holds is shown, and nothing is applied unasked.
    let mut h = harness_with_data(&f.path, data.path());
    assert!(h.query_by_label("Changes that were not saved").is_some());
    assert!(h.query_by_label_contains("A PROTEST window could not save").is_some());
    assert!(h.query_by_label("candidate 4, Anna: pronoun yes").is_some());
    assert_eq!(saved_record(&f.path, 4, ANNA), None);
    click(&mut h, "Keep for later");
    assert!(h.query_by_label("Changes that were not saved").is_none() && kept.exists());
    h.state_mut().shutdown();
    drop(h);

    // Offered again next time; applied, through the same checks as any change, and saved.
    let mut h = harness_with_data(&f.path, data.path());
    click(&mut h, "Apply them to this file");
    assert!(h.query_by_label_contains("recovered changes.").is_some());
    assert_eq!(saved_record(&f.path, 4, ANNA).unwrap().pronoun, Judgement::Yes);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().pronoun, Judgement::No);
    assert!(!kept.exists());
    click(&mut h, "Close");
    assert!(status(&h, "every change is saved"));
}

/// A recovery file offered after the file changed: applying it replaces no record changed since;
/// both versions are shown and what the user keeps is saved.
#[test]
fn a_recovery_file_offered_after_the_file_changed_shows_both_versions_and_keeps_the_choice() {
    let f = tiny_with_anna();
    let data = tempfile::tempdir().unwrap();
    let mut h = harness_with_data(&f.path, data.path());
    judged_then_detached(&mut h, &f.path); // candidate 4 judged yes: kept in a recovery file
    let kept = h.state().session.as_ref().unwrap().recovery_path().unwrap().to_path_buf();
    drop(h); // killed
    // Meanwhile the master's record of candidate 4 is made anew (another window, a command).
    let mut newer = protest::model::Record::new(protest::model::CandidateId(4), ANNA, chrono::Utc::now());
    newer.pronoun = Judgement::No;
    newer.remarks = "made since".into();
    workflow::on_master(&f.path, |store| store.put(newer.clone())).unwrap();

    let mut h = harness_with_data(&f.path, data.path());
    assert!(h.query_by_label("Changes that were not saved").is_some());
    click(&mut h, "Apply them to this file");
    assert!(h.query_by_label_contains("changed in this file since the recovered change to it was made").is_some());
    for shown in ["In the file now", "In the recovery file", "pronoun no", "pronoun yes", "remarks \"made since\""] {
        assert!(h.query_by_label(shown).is_some(), "{shown}");
    }
    assert_eq!(saved_record(&f.path, 4, ANNA).unwrap().remarks, "made since", "not replaced unasked");
    assert!(kept.exists(), "kept until the user has chosen");
    click(&mut h, "Keep the recovered one");
    assert!(h.query_by_label_contains("kept what you chose").is_some());
    let chosen = saved_record(&f.path, 4, ANNA).unwrap();
    assert_eq!((chosen.pronoun, chosen.remarks.as_str()), (Judgement::Yes, ""));
    assert!(!kept.exists());
}

#[test]
fn what_followed_a_damaged_journal_line_is_offered_when_the_file_opens() {
    use std::io::Write;
    let f = tiny_with_anna();
    let data = tempfile::tempdir().unwrap();
    let (mut store, _) = Store::<Master>::open(&f.path).unwrap();
    let record = |c: u32, j: Judgement| {
        let mut r = protest::model::Record::new(protest::model::CandidateId(c), ANNA, chrono::Utc::now());
        r.pronoun = j;
        r
    };
    store.put(record(3, Judgement::No)).unwrap();
    store.put(record(4, Judgement::No)).unwrap();
    store.put(record(4, Judgement::Yes)).unwrap();
    drop(store);
    // The journal's second change cut in half, newline kept, with the third after it.
    let journal = protest::store::journal::path_for(&f.path);
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let half = lines[2].len() / 2;
    lines[2].truncate(half);
    std::fs::File::create(&journal).unwrap().write_all((lines.join("\n") + "\n").as_bytes()).unwrap();

    let mut h = harness_with_data(&f.path, data.path());
    assert!(h.query_by_label_contains("Line 3 of ").is_some(), "the opening says which line");
    assert!(h.query_by_label("Changes that were not saved").is_some());
    assert!(
        h.query_by_label_contains("1 change written into this file's journal after a damaged line was set aside on")
            .is_some()
    );
    assert!(h.query_by_label("candidate 4, Anna: pronoun yes").is_some());
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().pronoun, Judgement::No, "before the damage: kept");
    assert_eq!(saved_record(&f.path, 4, ANNA), None, "after it: not applied unasked");
    click(&mut h, "Apply them to this file");
    assert_eq!(saved_record(&f.path, 4, ANNA).unwrap().pronoun, Judgement::Yes);
    assert!(protest::store::journal::rests(&std::fs::canonicalize(&f.path).unwrap()).is_empty());
}

#[test]
fn a_clock_outside_1970_to_9999_is_said_and_nothing_is_dated_by_it() {
    use protest::model::clock::Clock;
    let now = chrono::Utc::now().timestamp();
    let day = 86_400;
    for (moved, says) in [(-now - day, "1969-12-31"), (253_402_300_800 - now + day, "+10000-01-0")] {
        let f = tiny();
        let mut h = super::harness(&f.path, None);
        h.state_mut().set_clock(Clock::moved_by(moved));
        click(&mut h, PLEONASTIC_NEW);
        press(&mut h, Key::N);
        let said = format!("The change was not made: the computer's clock says {says}");
        assert!(h.query_by_label_contains(&said).is_some(), "the message area says what the clock says");
        assert!(h.query_by_label_contains("outside the years 1970–9999").is_some());
        assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER), None, "nothing dated by it is stored");
        assert!(status(&h, "every change is saved"), "and nothing waits to be");

        // Once the clock is right, the same key is stored.
        h.state_mut().set_clock(Clock::SYSTEM);
        press(&mut h, Key::N);
        assert_eq!(saved_record(&f.path, 3, AnnotatorId::RESEARCHER).unwrap().pronoun, Judgement::No);

        // What the window makes otherwise is not dated by it either: the automatic match says so.
        h.state_mut().set_clock(Clock::moved_by(moved));
        let before = std::fs::read(&f.path).unwrap();
        press(&mut h, Key::Escape); // back to the browser
        click(&mut h, "Report");
        click(&mut h, "Automatic match");
        click_to_work(&mut h, "Run automatic evaluation", "Running the automatic evaluation…");
        let said = format!("Could not store the automatic evaluation: the computer's clock says {says}");
        assert!(h.query_by_label_contains(&said).is_some(), "the automatic match says what the clock says");
        assert_eq!(std::fs::read(&f.path).unwrap(), before);
    }
}
