//! Headless tests of batches in the app: annotator mode on exported batches, and the
//! researcher's dialogs (annotators, plan, export, merge, adjudication), read back from disk.

use super::*;
use super::{
    ANNA, PLEONASTIC_NEW, click, click_to_work, harness, named, position, press, press_with, saved, tiny, type_into,
};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use protest::batches::export;
use protest::batches::plan::{self, Request};
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Purpose, Record};
use protest::session::workspace::Mode;
use protest::store::Store;
use protest::store::batch_file::{self, Batch};
use protest::store::master_file;
use protest::workflow::{self, export::Exporting};
use std::path::{Path, PathBuf};

const BEN: AnnotatorId = AnnotatorId(2);

/// Plans a task set in the master on disk (as the CLI would) and returns its id.
fn plan_task_set(path: &Path, annotators: u32, iaa: u32) -> u32 {
    let (mut store, _) = Store::<Master>::open(path).unwrap();
    let m = store.master();
    let planned = plan::plan(m, &Request::everything(m, annotators, iaa, 7), plan::every, chrono::Utc::now()).unwrap();
    let id = planned.task_set.id;
    store
        .update(|m| {
            m.task_sets.push(planned.task_set);
            Ok(())
        })
        .unwrap();
    store.close().unwrap();
    id
}

/// Exports every part of a task set beside the master; returns the batch files in part order.
fn export_batches(path: &Path, task_set: u32, names: &[&str]) -> Vec<PathBuf> {
    let exporting = Exporting {
        task_set,
        names: names.iter().map(|n| n.to_string()).collect(),
        folder: path.parent().unwrap().to_path_buf(),
        replace: false,
        created: chrono::Utc::now(),
    };
    let exported = workflow::on_master(path, |store| workflow::export::run(store, &exporting)).unwrap().value;
    exported.files.into_iter().map(|f| f.path).collect()
}

/// The batch with its journal replayed.
fn saved_batch(path: &Path) -> Batch {
    let (store, _) = Store::<Batch>::open(path).unwrap();
    store.doc().clone()
}

/// Puts a record into a batch file as its annotator would.
fn annotate_batch(path: &Path, candidate: u32, pronoun: Judgement) {
    let (mut store, _) = Store::<Batch>::open(path).unwrap();
    let who = store.doc().annotator().id;
    let mut r = Record::new(CandidateId(candidate), who, chrono::Utc::now());
    r.pronoun = pronoun;
    store.put(r).unwrap();
    store.close().unwrap();
}

/// Every label on screen.
fn labels(h: &Harness<App>) -> Vec<String> {
    h.query_all_by(|_| true).filter_map(|n| n.accesskit_node().label()).collect()
}

/// Whether any label names a translation corpus of the master: a whole word of a label equal
/// to a corpus name, once category titles (which say "reference" themselves) are set aside.
fn names_a_corpus(h: &Harness<App>, master: &Master) -> Option<String> {
    let names: Vec<String> = master.translations().map(|c| c.name.to_lowercase()).collect();
    let titles: Vec<String> = master.categories.iter().map(|c| c.title().to_lowercase()).collect();
    labels(h).into_iter().find(|label| {
        let mut text = label.to_lowercase();
        for t in &titles {
            text = text.replace(t.as_str(), " ");
        }
        for heading in ["event reference", "addressee reference"] {
            text = text.replace(heading, " ");
        }
        text.split(|c: char| !c.is_alphanumeric()).any(|word| names.contains(&word.to_owned()))
    })
}

#[test]
fn a_batch_opens_in_annotator_mode_in_its_order_without_system_names_and_saves_into_itself() {
    let f = tiny();
    let master_before = std::fs::read(&f.path).unwrap();
    let set = plan_task_set(&f.path, 2, 0);
    let files = export_batches(&f.path, set, &["Anna", "Ben"]);
    let master = saved(&f.path);
    let anna = batch_file::load(&files[0]).unwrap();
    let mut h = harness(&files[0], None);

    assert_eq!(h.state().session.as_ref().unwrap().mode(), Mode::Annotator);
    assert!(h.query_by_label("Anna").is_some(), "the batch's annotator, fixed");
    assert!(h.query_by_label("Annotator").is_none(), "no annotator picker");
    assert!(h.query_by_label("Translation corpus").is_none(), "no corpus filter");
    assert!(h.query_by_label("Batches").is_none(), "no researcher menu");
    assert_eq!(names_a_corpus(&h, &master), None);
    click(&mut h, "File");
    assert!(h.query_by_label("Import old PROTEST file…").is_none());
    press(&mut h, Key::Escape);

    press(&mut h, Key::Enter);
    assert_eq!(position(&h), (1, anna.order().len()));
    let View::Example(walk) = &h.state().view else { panic!("an example is open") };
    assert_eq!(walk.set, anna.order(), "the batch's shuffled order");
    assert_eq!(names_a_corpus(&h, &master), None);
    assert!(h.query_by_label("Annotate").is_none(), "no overview in annotator mode");
    press(&mut h, Key::O);
    assert!(h.query_by_label("Everyone's annotations of this translation").is_none());
    press_with(&mut h, Modifiers::COMMAND, Key::G);
    assert!(h.query_by_label("Example number").is_none(), "no lookup in annotator mode");

    press(&mut h, Key::N);
    let r = saved_batch(&files[0]).content().records.get(CandidateId(1), ANNA).cloned().unwrap();
    assert_eq!(r.pronoun, Judgement::No, "saved into the batch (its journal)");
    h.state_mut().shutdown();
    assert_eq!(batch_file::load(&files[0]).unwrap().content().records.len(), 1, "folded into the batch file");
    assert!(!protest::store::journal::path_for(&files[0]).exists());
    assert_eq!(saved(&f.path).records.len(), 0, "the master is not touched");
    assert_ne!(std::fs::read(&f.path).unwrap(), master_before, "(the master only gained the task set)");
}

#[test]
fn conflict_checks_follow_the_batch() {
    for checks in [true, false] {
        let f = tiny();
        let (mut store, _) = Store::<Master>::open(&f.path).unwrap();
        store
            .update(|m| {
                m.settings.conflict_checks = checks;
                Ok(())
            })
            .unwrap();
        store.close().unwrap();
        let set = plan_task_set(&f.path, 1, 0);
        let files = export_batches(&f.path, set, &["Anna"]);
        let mut h = harness(&files[0], None);
        click(&mut h, PLEONASTIC_NEW);
        press(&mut h, Key::Y); // correct, but no token selected: rule 4
        press(&mut h, Key::ArrowRight);
        let asked = h.query_by_label("Keep as is").is_some();
        assert_eq!(asked, checks, "the conflict dialog appears only with checks on");
    }
}

#[test]
fn a_click_beside_a_dialog_keeps_it_and_what_was_typed_esc_closes_it() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    open_menu(&mut h, "Batches", "Plan a task set…");
    type_into(&mut h, "Seed", "4242");
    // Click the backdrop, far from the dialog in the middle of the window.
    let corner = egui::pos2(5.0, h.ctx.content_rect().bottom() - 5.0);
    h.hover_at(corner);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: corner,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.settle();
    }
    assert!(h.state().modal.is_some());
    assert_eq!(h.get_by_label("Seed").value().as_deref(), Some("4242"));
    press(&mut h, Key::Escape);
    assert!(h.state().modal.is_none());
}

#[test]
fn the_plan_dialog_previews_the_counts_and_stores_the_task_set() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.master.json");
    // The sample as imported, before rebuild.sh planned its task set.
    let mut sample =
        master_file::load(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../sample_batches/sample.master.json")))
            .unwrap();
    sample.task_sets.clear();
    sample.annotators.clear();
    master_file::save(&sample, &path).unwrap();
    let mut h = harness(&path, None);
    open_menu(&mut h, "Batches", "Plan a task set…");
    type_into(&mut h, "Seed", "42");
    type_into(&mut h, "IAA sample size", "30");
    let m = saved(&path);
    let expected = plan::plan(&m, &Request::everything(&m, 2, 30, 42), plan::every, chrono::Utc::now()).unwrap();
    // In the terms of the table: IAA plus own part.
    let (iaa, own) = (expected.summary.total.iaa, &expected.summary.total.own);
    let text = format!(
        "Each annotator gets the {iaa} IAA candidates and their own part: {iaa} + {} = {} candidates for part 1, \
         {iaa} + {} = {} for part 2.",
        own[0],
        iaa + own[0],
        own[1],
        iaa + own[1]
    );
    assert!(h.query_by_label(&text).is_some(), "the preview says: {text}");
    // The per-annotator × translation table of the plan, before it is stored: balanced.
    let balance = expected.summary.balance();
    assert!(balance.spread <= 1 && balance.corpora == ["reference", "mt"], "{balance}");
    for (label, counts) in &balance.rows {
        for (corpus, n) in balance.corpora.iter().map(String::as_str).chain(["total"]).zip(counts) {
            let cell = format!("{label} · {corpus}: {n}");
            assert!(named(&h, &cell), "the table shows {cell}");
        }
    }
    assert!(h.query_by_label(&balance.sentence()).is_some(), "{}", balance.sentence());
    h.get_all_by_role_and_label(egui::accesskit::Role::Button, "none").next().unwrap().click(); // the translations'
    h.settle();
    assert!(h.query_by_label_contains("Nothing to plan: choose at least one translation corpus").is_some());
    h.get_all_by_role_and_label(egui::accesskit::Role::Button, "all").next().unwrap().click();
    h.settle();
    assert!(h.query_by_label(&text).is_some());
    click(&mut h, "Store “Task set 1” in the master");
    assert!(h.query_by_label("Stored “Task set 1” as task set 1.").is_some());
    let stored = &saved(&path).task_sets[0];
    assert_eq!((stored.seed, stored.iaa_size, &stored.tasks), (42, 30, &expected.task_set.tasks));
}

/// The app on `path` with a task set of two parts planned and the export dialog open, the parts
/// given to Anna and Ben.
fn export_dialog_for_anna_and_ben(path: &Path) -> Harness<'static, App> {
    plan_task_set(path, 2, 0);
    let mut h = harness(path, None);
    open_menu(&mut h, "Batches", "Export batches…");
    type_into(&mut h, "Part 1", "Anna");
    type_into(&mut h, "Part 2", "Ben");
    h
}

#[test]
fn the_export_dialog_writes_a_batch_per_part_and_asks_before_replacing() {
    let f = tiny();
    let mut h = export_dialog_for_anna_and_ben(&f.path);
    click(&mut h, "Export");
    let dir = f.path.parent().unwrap();
    let files = [dir.join("tiny.batch-1-anna.json"), dir.join("tiny.batch-1-ben.json")];
    for (file, who) in files.iter().zip([ANNA, BEN]) {
        assert!(h.query_by_label(&file.display().to_string()).is_some(), "lists {}", file.display());
        assert_eq!(batch_file::load(file).unwrap().annotator().id, who);
    }
    let m = saved(&f.path);
    assert_eq!((m.annotator_name(ANNA), m.annotator_name(BEN)), ("Anna".into(), "Ben".into()));
    click(&mut h, "Close");

    // Again: the files exist; nothing is replaced without the tick.
    std::fs::write(&files[0], "annotated work").unwrap();
    open_menu(&mut h, "Batches", "Export batches…");
    click(&mut h, "Export");
    assert!(h.query_by_label_contains("already exists; tick “Replace batch files that exist”").is_some());
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), "annotated work");
    click(&mut h, "Replace batch files that exist");
    click(&mut h, "Export");
    assert!(batch_file::load(&files[0]).is_ok());
}

#[test]
fn an_export_into_a_folder_that_is_not_there_makes_it_and_says_so() {
    let f = tiny();
    let mut h = export_dialog_for_anna_and_ben(&f.path);
    let folder = f.path.parent().unwrap().join("new").join("batches");
    type_into(&mut h, "Folder", &folder.display().to_string());
    click(&mut h, "Export");
    assert!(h.query_by_label(&format!("Created the folder {}.", folder.display())).is_some());
    assert!(batch_file::load(&folder.join("tiny.batch-1-anna.json")).is_ok());
}

#[test]
fn an_export_runs_off_the_ui_thread_and_nothing_else_starts_meanwhile() {
    let f = tiny();
    let mut h = export_dialog_for_anna_and_ben(&f.path);
    crate::work::hold(true);
    h.get_by_label("Export").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Exporting the batches…").is_some(), "says what it does");
    assert!(h.query_by_label("Batches").is_none() && h.query_by_label("Export").is_none(), "nothing to start");
    assert!(h.state().session.is_none(), "the open file is with the work");
    crate::work::hold(false);
    while h.state().is_busy() {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.settle();
    assert!(h.query_by_label("Wrote 2 batch files:").is_some(), "the dialog shows what was written");
    assert!(batch_file::load(&f.path.parent().unwrap().join("tiny.batch-1-anna.json")).is_ok());
}

/// The merge dialog for these files, checked.
fn check_merge(h: &mut Harness<App>, files: &[&Path]) {
    open_menu(h, "Batches", "Import annotated batches…");
    let text = files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join("\n");
    type_into(h, "Batch files (one per line)", &text);
    click(h, "Check");
}

#[test]
fn the_merge_dialog_merges_asks_before_replacing_and_refuses_with_the_file_name() {
    let f = tiny();
    let set = plan_task_set(&f.path, 2, 0);
    let files = export_batches(&f.path, set, &["Anna", "Ben"]);
    annotate_batch(&files[0], 1, Judgement::Yes);
    annotate_batch(&files[1], 1, Judgement::No);
    let mut h = harness(&f.path, None);

    // A refusal names the file, and nothing is merged, not even the good batch.
    check_merge(&mut h, &[&files[0], &f.path]);
    let refusal = format!("{}: format: this is a master file, not a batch file", f.path.display());
    assert!(h.query_by_label_contains(&refusal).is_some(), "shows: {refusal}");
    assert!(h.get_by_label("Merge").accesskit_node().is_disabled(), "nothing to merge");
    click(&mut h, "Cancel");
    assert_eq!(saved(&f.path).records.len(), 0);

    check_merge(&mut h, &[&files[0], &files[1]]);
    assert!(named(&h, "Anna: 1 new") && named(&h, "Ben: 1 new"));
    click(&mut h, "Merge 2 new records");
    assert!(h.query_by_label("Merged 2 records from 2 batch files into the master.").is_some());
    let m = saved(&f.path);
    let anna_first = export::layout(&m, &m.task_sets[0], ANNA).order[0];
    assert_eq!(m.records.get(anna_first, ANNA).unwrap().pronoun, Judgement::Yes);
    click(&mut h, "Close");

    // Anna changes her mind: merging again replaces her record, after asking.
    annotate_batch(&files[0], 1, Judgement::No);
    check_merge(&mut h, &[&files[0], &files[1]]);
    assert!(named(&h, "Anna: 1 replaced") && named(&h, "Ben: 1 unchanged"));
    assert!(h.query_by_label_contains("1 existing record of the same annotators would be replaced").is_some());
    assert_eq!(saved(&f.path).records.get(anna_first, ANNA).unwrap().pronoun, Judgement::Yes, "not before asked");
    click(&mut h, "Replace 1 record and merge");
    assert_eq!(saved(&f.path).records.get(anna_first, ANNA).unwrap().pronoun, Judgement::No);
    assert_eq!(saved(&f.path).records.len(), 2, "Ben's record untouched");
}

#[test]
fn annotators_are_added_and_renamed() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    open_menu(&mut h, "Batches", "Annotators…");
    type_into(&mut h, "Add an annotator", "Anna");
    click_to_work(&mut h, "Add", "Adding Anna…");
    assert!(h.query_by_label("Added Anna.").is_some(), "the dialog says what the work did");
    type_into(&mut h, "Add an annotator", "anna");
    click(&mut h, "Add");
    assert!(h.query_by_label("there is already an annotator called 'Anna'").is_some());
    click(&mut h, "Rename Anna");
    type_into(&mut h, "New name for Anna", "Anna Martin");
    click_to_work(&mut h, "Save", "Renaming Anna…");
    assert!(h.query_by_label("Renamed Anna to Anna Martin.").is_some());
    assert_eq!(saved(&f.path).annotator_name(ANNA), "Anna Martin");
}

/// Adds Anna and Ben to the master at `path`, with their (pronoun, antecedent) judgements of
/// `candidate`.
fn anna_and_ben_judge(path: &Path, candidate: u32, judgements: [(Judgement, Judgement); 2]) {
    let (mut store, _) = Store::<Master>::open(path).unwrap();
    store
        .update(|m| {
            for name in ["Anna", "Ben"] {
                protest::batches::annotators::add(m, name).unwrap();
            }
            for (who, (pronoun, antecedent)) in [ANNA, BEN].into_iter().zip(judgements) {
                let mut r = Record::new(CandidateId(candidate), who, chrono::Utc::now());
                (r.pronoun, r.antecedent) = (pronoun, antecedent);
                m.records.put(r);
            }
            Ok(())
        })
        .unwrap();
    store.close().unwrap();
}

#[test]
fn adjudication_gives_the_disagreements_to_a_further_annotator_as_a_batch() {
    let f = tiny();
    anna_and_ben_judge(&f.path, 3, [(Judgement::Yes, Judgement::Unset), (Judgement::No, Judgement::Unset)]);
    let mut h = harness(&f.path, None);
    open_menu(&mut h, "Batches", "Adjudication…");
    assert!(h.query_by_label_contains("1 candidate has annotators who disagree").is_some());
    type_into(&mut h, "Adjudicator", "Clara");
    assert!(h.query_by_label("1 candidate goes to Clara as “Adjudication by Clara”.").is_some());
    click_to_work(&mut h, "Export the adjudication batch", "Exporting the adjudication batch…");
    let file = f.path.parent().unwrap().join("tiny.batch-1-clara.json");
    assert!(h.query_by_label_contains(&format!("Wrote {}", file.display())).is_some());
    let m = saved(&f.path);
    assert_eq!(m.task_sets[0].purpose, Purpose::Adjudication);
    let clara = batch_file::load(&file).unwrap();
    assert_eq!((clara.annotator().name.as_str(), clara.order().len()), ("Clara", 1));
    // The batch says what is disputed and what the others answered, without their names.
    let disputes = clara.disputes_of(CandidateId(1));
    assert_eq!(disputes.len(), 1);
    assert_eq!(disputes[0].describe(), "the pronoun: ✓ ✗");
    assert!(!std::fs::read_to_string(&file).unwrap().contains("Anna"), "no names");
    let mut h = harness(&file, None);
    press(&mut h, Key::Enter);
    assert!(h.query_by_label("In dispute — the annotators answered ✔, ✖").is_some(), "beside the question");
    assert!(h.query_by_label("Adjudication: your answer settles the question in dispute.").is_some());
}

#[test]
fn an_adjudicator_is_told_which_question_is_disputed_and_that_the_other_stands() {
    // Anaphoric candidate 1: both said the pronoun is wrong; they disagree on the antecedent.
    let f = tiny();
    anna_and_ben_judge(&f.path, 1, [(Judgement::No, Judgement::Yes), (Judgement::No, Judgement::No)]);
    let (mut store, _) = Store::<Master>::open(&f.path).unwrap();
    store
        .update(|m| {
            protest::batches::adjudication::assign(m, "Clara", 3, "", chrono::Utc::now()).unwrap();
            Ok(())
        })
        .unwrap();
    store.close().unwrap();
    // The researcher, annotating as Clara in the master, is told the same as Clara's batch.
    let mut h = harness(&f.path, Some(AnnotatorId(3)));
    click(&mut h, "Inter-sentential “it”, subject: 2 new");
    let on_first = matches!(&h.state().view, View::Example(walk) if walk.current() == CandidateId(1));
    if !on_first {
        press(&mut h, Key::ArrowRight);
    }
    assert!(matches!(&h.state().view, View::Example(walk) if walk.current() == CandidateId(1)));
    let shown = |h: &Harness<App>| h.state().session.as_ref().unwrap().disputes(CandidateId(1));
    assert_eq!(shown(&h)[0].describe(), "the antecedent: ✓ ✗");
    assert!(h.query_by_label("In dispute — the annotators answered ✔, ✖").is_some());
    assert!(
        h.query_by_label_contains("They agree on the pronoun: your answer to it does not change the verdict.")
            .is_some()
    );
}
