//! `protest annotator …` and `protest batch …` as a researcher runs them, on a copy of the sample
//! master; the annotators' work is done through the library as annotator mode does it.

use chrono::Utc;
use protest::annotate::{conflicts, edit, edit::Edit};
use protest::model::{Candidate, CandidateId, Judgement, Role};
use protest::store::batch_file::{self, Batch};
use protest::store::master_file;
use protest::store::{Document, Store};
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{ok, refused, unplanned_sample};

/// A folder with a copy of the sample master as imported (before its task set was planned).
fn workspace() -> tempfile::TempDir {
    unplanned_sample()
}

/// Only the master is left in the folder besides what a test wrote on purpose: no journal, no lock.
fn assert_clean(dir: &Path) {
    for entry in fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(!name.ends_with(".journal") && !name.ends_with(".lock"), "{name} left behind");
    }
}

/// Plans task set 1 (two annotators, 30 IAA, seed 42) and exports Anna's and Ben's batches.
fn planned_and_exported(dir: &Path) -> (PathBuf, PathBuf) {
    ok(dir, &["batch", "plan", "sample.master.json", "--annotators", "2", "--iaa", "30", "--seed", "42"]);
    let out = ok(
        dir,
        &["batch", "export", "sample.master.json", "--task-set", "1", "--annotator", "Anna", "--annotator", "Ben"],
    );
    assert!(
        out.contains("wrote ") && out.contains("sample.batch-1-anna.json (Anna: 75 candidates, 0 records)"),
        "{out}"
    );
    (dir.join("sample.batch-1-anna.json"), dir.join("sample.batch-1-ben.json"))
}

/// Judges the first `n` candidates of a batch in annotator mode: pronoun `pronoun`, with the
/// aligned pronoun tokens selected when yes, and the conflict checks settled on leaving.
fn annotate(path: &Path, n: usize, pronoun: Judgement) {
    let (mut store, _) = Store::<Batch>::open(path).unwrap();
    let who = store.doc().annotator().id;
    for c in store.doc().order().into_iter().take(n) {
        let m = store.master();
        let current = m.records.get(c, who);
        let mut r = edit::apply(m, c, who, current, Edit::Judge(Role::Pronoun, pronoun), Utc::now()).unwrap();
        if pronoun == Judgement::Yes {
            for t in m.candidate(c).unwrap().pronoun.clone() {
                if !r.selected.pronoun.contains(&t) {
                    r = edit::apply(m, c, who, Some(&r), Edit::ToggleToken(Role::Pronoun, t), Utc::now()).unwrap();
                }
            }
        }
        let r = conflicts::settle(&r, conflicts::failing(m, &r));
        store.put(r).unwrap();
    }
    store.close().unwrap();
}

#[test]
fn annotators_are_added_renamed_and_listed() {
    let dir = workspace();
    let d = dir.path();
    assert!(ok(d, &["annotator", "add", "sample.master.json", "Anna"]).contains("added Anna (id 1)"));
    ok(d, &["annotator", "add", "sample.master.json", "Ben"]);
    let e = refused(d, &["annotator", "add", "sample.master.json", "anna"]);
    assert!(e.contains("sample.master.json: there is already an annotator called 'Anna'"), "{e}");
    ok(d, &["annotator", "rename", "sample.master.json", "Ben", "Benoît"]);
    let e = refused(d, &["annotator", "rename", "sample.master.json", "Zoe", "Z"]);
    assert!(e.contains("there is no annotator called 'Zoe'"), "{e}");
    let list = ok(d, &["annotator", "list", "sample.master.json"]);
    assert_eq!(list, "   1  Anna    0 records\n   2  Benoît  0 records\n");
    assert_clean(d);
}

#[test]
fn a_dry_run_changes_nothing_and_a_plan_is_stored() {
    let dir = workspace();
    let d = dir.path();
    let before = fs::read(d.join("sample.master.json")).unwrap();
    let out = ok(
        d,
        &["batch", "plan", "sample.master.json", "--annotators", "2", "--iaa", "30", "--seed", "42", "--dry-run"],
    );
    assert!(
        out.contains(
            "Each annotator gets the 30 IAA candidates and their own part: 30 + 45 = 75 candidates for part 1, \
             30 + 45 = 75 for part 2."
        ),
        "{out}"
    );
    assert!(out.contains("dry run: nothing stored"));
    assert_eq!(fs::read(d.join("sample.master.json")).unwrap(), before);
    assert_clean(d);
    // The same plan again gives the same table; stored, it is task set 1.
    let stored = ok(d, &["batch", "plan", "sample.master.json", "--annotators", "2", "--iaa", "30", "--seed", "42"]);
    assert_eq!(stored.lines().take(20).collect::<Vec<_>>(), out.lines().take(20).collect::<Vec<_>>());
    let m = master_file::load(&d.join("sample.master.json")).unwrap();
    assert_eq!(m.task_sets.len(), 1);
    assert_eq!(m.task_sets[0].tasks.iter().map(|t| t.candidates.len()).collect::<Vec<_>>(), [30, 45, 45]);
    // Restricted to one corpus and two categories.
    let out = ok(
        d,
        &[
            "batch",
            "plan",
            "sample.master.json",
            "--annotators",
            "3",
            "--iaa",
            "1",
            "--seed",
            "1",
            "--corpus",
            "mt",
            "--category",
            "pleonastic_it",
            "--category",
            "event_it",
            "--name",
            "MT only",
            "--dry-run",
        ],
    );
    let total = out.lines().find(|l| l.starts_with("total")).unwrap();
    assert!(
        out.contains("task set 2 'MT only': seed 1, 3 annotators, IAA sample of 1 requested, balanced planner"),
        "{out}"
    );
    // The per-annotator × translation table of the plan.
    assert!(out.contains("Own parts per translation (every annotator also gets the IAA sample):\n"), "{out}");
    assert!(out.contains("\npart 1"), "{out}");
    assert!(out.contains("Within each translation the annotators' own parts are at most 1 candidate apart."), "{out}");
    let mut counts: Vec<&str> = total.split_whitespace().skip(1).collect();
    counts[2..].sort_unstable();
    assert_eq!(counts, ["10", "2", "2", "3", "3"], "{out}");
    assert!(out.contains("not 1: every one of the 2 (corpus, category) groups gets at least one"), "{out}");
    let e = refused(d, &["batch", "plan", "sample.master.json", "--annotators", "2", "--corpus", "google"]);
    assert!(e.contains("no translation corpus 'google' (there are: reference, mt)"), "{e}");
    assert_clean(d);
}

#[test]
fn export_then_import_brings_the_work_back() {
    let dir = workspace();
    let d = dir.path();
    let (anna, ben) = planned_and_exported(d);
    let check = ok(d, &["check", "sample.batch-1-anna.json"]);
    assert!(check.contains("Annotator: Anna (id 1)") && check.contains("Candidates: 75 (75 new, 0 done"), "{check}");
    annotate(&anna, 75, Judgement::Yes);
    annotate(&ben, 60, Judgement::No);
    let out = ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-anna.json", "sample.batch-1-ben.json"]);
    assert!(out.contains("(Anna, task set 1): 75 records: 75 new, 0 replacing"), "{out}");
    assert!(out.contains("merged 135 records"), "{out}");
    let merged = fs::read(d.join("sample.master.json")).unwrap();
    // Again: nothing to do, and the file is not even rewritten.
    let out = ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-ben.json"]);
    assert!(out.contains("60 already in the master") && out.contains("nothing to merge"), "{out}");
    assert_eq!(fs::read(d.join("sample.master.json")).unwrap(), merged);
    // Ben changes his mind on 5: the import asks first, then replaces only those.
    annotate(&ben, 5, Judgement::Yes);
    let e = refused(d, &["batch", "import", "sample.master.json", "sample.batch-1-ben.json"]);
    assert!(e.contains("5 existing records would be replaced; nothing was changed. Run again with --yes"), "{e}");
    assert_eq!(fs::read(d.join("sample.master.json")).unwrap(), merged);
    let out = ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-ben.json", "--yes"]);
    assert!(
        out.contains("0 new, 5 replacing different ones, 55 already in the master") && out.contains("merged 5 records"),
        "{out}"
    );
    let m = master_file::load(&d.join("sample.master.json")).unwrap();
    let by = |id| m.records.iter().filter(|r| r.annotator.0 == id).count();
    assert_eq!((by(1), by(2)), (75, 60));
    // Re-exporting continues the work: Ben's batch comes back with his records.
    let out = ok(d, &["batch", "export", "sample.master.json", "--task-set", "1", "--force"]);
    assert!(out.contains("(Ben: 75 candidates, 60 records)"), "{out}");
    assert_clean(d);
}

#[test]
fn merge_refusals_name_the_file_and_change_nothing() {
    let dir = workspace();
    let d = dir.path();
    let (anna, _) = planned_and_exported(d);
    annotate(&anna, 3, Judgement::Yes);
    let before = fs::read(d.join("sample.master.json")).unwrap();
    let text = fs::read_to_string(&anna).unwrap();
    let variant = |name: &str, text: &str| {
        fs::write(d.join(name), text).unwrap();
        refused(d, &["batch", "import", "sample.master.json", name])
    };

    let tiny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny/tiny.master.json");
    fs::copy(tiny, d.join("tiny.master.json")).unwrap();
    let e = refused(d, &["batch", "import", "tiny.master.json", "sample.batch-1-anna.json"]);
    assert!(e.contains("sample.batch-1-anna.json: this batch was exported from master 'sample-news-en-fr-0001', not from this one ('tiny-0001')"), "{e}");

    let e = refused(d, &["batch", "import", "sample.master.json", "tiny.master.json"]);
    assert!(e.contains("tiny.master.json: format: this is a master file, not a batch file"), "{e}");

    let e = variant("v3.json", &text.replacen("\"version\":2", "\"version\":3", 1));
    assert!(e.contains("v3.json: version: format version 3 is not supported (this build reads versions 1 and 2); it was written by a newer PROTEST"), "{e}");

    let e = variant("cut.json", &text[..text.len() - 200]);
    assert!(e.contains("cut.json") && e.contains("the file ends too early (truncated?)"), "{e}");

    let e = variant("garbage.json", "PK\u{3}\u{4} not json at all");
    assert!(e.contains("garbage.json: not a PROTEST batch file (not JSON)"), "{e}");

    // Anna's batch relabelled as Ben's: its candidates are not the ones Ben was given.
    let e = variant(
        "relabelled.json",
        &text
            .replacen("\"annotator\":{\"id\":1,\"name\":\"Anna\"}", "\"annotator\":{\"id\":2,\"name\":\"Ben\"}", 1)
            .replace("\"annotator\":1,", "\"annotator\":2,"),
    );
    assert!(
        e.contains("relabelled.json: its candidate 1 (example") && e.contains("does not match master candidate"),
        "{e}"
    );

    // A candidate the task set never gave Anna.
    let mut extra = batch_file::load(&anna).unwrap();
    let content = extra.master_mut();
    let counts = |ex| content.candidates.iter().filter(|c: &&Candidate| c.example == ex).count();
    let lone = content.candidates.iter().find(|c| counts(c.example) == 1).unwrap().clone();
    let other = content.translations().map(|c| c.id).find(|&id| id != lone.corpus).unwrap();
    let n = content.candidates.len() as u32;
    content.candidates.push(Candidate {
        id: CandidateId(n + 1),
        corpus: other,
        pronoun: vec![],
        antecedents: vec![vec![]; lone.antecedents.len()],
        ..lone
    });
    content.reindex();
    batch_file::save(&extra, &d.join("extra.json")).unwrap();
    let e = refused(d, &["batch", "import", "sample.master.json", "extra.json"]);
    assert!(e.contains("extra.json: its candidate 76 is unknown: task set 1 gives Anna only 75 candidates"), "{e}");

    // One bad batch among good ones: nothing is merged.
    let e = refused(d, &["batch", "import", "sample.master.json", "sample.batch-1-anna.json", "v2.json"]);
    assert!(e.contains("v2.json"), "{e}");
    assert_eq!(fs::read(d.join("sample.master.json")).unwrap(), before);
    assert_clean(d);
}

#[test]
fn export_never_overwrites_unsaved_work() {
    let dir = workspace();
    let d = dir.path();
    let (anna, _) = planned_and_exported(d);
    let e = refused(d, &["batch", "export", "sample.master.json", "--task-set", "1"]);
    assert!(e.contains("sample.batch-1-anna.json already exists; use --force"), "{e}");
    // Anna has her batch open (or her session died): even --force leaves it alone.
    let (mut store, _) = Store::<Batch>::open(&anna).unwrap();
    let c = store.doc().order()[0];
    let r = edit::apply(store.master(), c, store.doc().annotator().id, None, Edit::Remarks("hm".into()), Utc::now())
        .unwrap();
    store.put(r).unwrap();
    let e = refused(d, &["batch", "export", "sample.master.json", "--task-set", "1", "--force"]);
    assert!(e.contains("has annotation work not yet saved into it"), "{e}");
    store.close().unwrap();
    // Giving a part to someone else is refused too.
    let e = refused(
        d,
        &[
            "batch",
            "export",
            "sample.master.json",
            "--task-set",
            "1",
            "--annotator",
            "Clara",
            "--annotator",
            "Ben",
            "--force",
        ],
    );
    assert!(e.contains("part 1 of task set 1 was already given to Anna"), "{e}");
    // Output folder: files go there and nowhere else.
    fs::create_dir(d.join("out")).unwrap();
    ok(d, &["batch", "export", "sample.master.json", "--task-set", "1", "--output-dir", "out"]);
    let mut names: Vec<_> =
        fs::read_dir(d.join("out")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["sample.batch-1-anna.json", "sample.batch-1-ben.json"]);
}

#[test]
fn disagreements_go_to_an_adjudicator() {
    let dir = workspace();
    let d = dir.path();
    let (anna, ben) = planned_and_exported(d);
    annotate(&anna, 75, Judgement::Yes);
    annotate(&ben, 75, Judgement::Yes);
    ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-anna.json", "sample.batch-1-ben.json"]);
    let e = refused(d, &["batch", "adjudicate", "sample.master.json", "--annotator", "Clara"]);
    assert!(e.contains("nothing to adjudicate: 0 candidates with disagreements"), "{e}");
    // Ben says no to the first 20 of his batch; those in the IAA sample are disagreements.
    annotate(&ben, 20, Judgement::No);
    ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-ben.json", "--yes"]);
    let m = master_file::load(&d.join("sample.master.json")).unwrap();
    let expected = protest::batches::adjudication::disagreements(&m).len();
    assert!(expected > 0);
    let out = ok(d, &["batch", "adjudicate", "sample.master.json", "--annotator", "Clara", "--seed", "3"]);
    // The task set is named as one, the adjudicator as an annotator (the study of the news corpus:
    // "Adjudication by Dora (id 2)" named the task set's id as if it were Dora's).
    assert!(
        out.contains(&format!(
            "task set 2 'Adjudication by Clara': {expected} candidates with disagreements for Clara (a new annotator, id 3)"
        )),
        "{out}"
    );
    let clara = batch_file::load(&d.join("sample.batch-2-clara.json")).unwrap();
    assert_eq!(clara.order().len(), expected);
    assert_eq!(clara.purpose, protest::model::Purpose::Adjudication);
    let m = master_file::load(&d.join("sample.master.json")).unwrap();
    assert_eq!(m.task_sets[1].tasks[0].annotator, Some(clara.annotator().id));
    // Clara's judgements merge like any batch; the same disagreements are not offered again.
    annotate(&d.join("sample.batch-2-clara.json"), expected, Judgement::No);
    let out = ok(d, &["batch", "import", "sample.master.json", "sample.batch-2-clara.json"]);
    assert!(out.contains(&format!("merged {expected} records")), "{out}");
    let e = refused(d, &["batch", "adjudicate", "sample.master.json", "--annotator", "Clara"]);
    assert!(e.contains(&format!("{expected} of them in earlier adjudication task sets")), "{e}");
    assert_clean(d);
}

/// Judges every candidate of a batch: pronoun ✗, and the antecedent `antecedent` where there is
/// one; conflicts settled on leaving.
fn judge_antecedents(path: &Path, antecedent: Judgement) {
    let (mut store, _) = Store::<Batch>::open(path).unwrap();
    let who = store.doc().annotator().id;
    for c in store.doc().order() {
        let m = store.master();
        let anaphoric = m.candidate(c).and_then(|k| m.example_of(k)).is_some_and(|(_, cat)| cat.anaphoric);
        let mut r = edit::apply(m, c, who, None, Edit::Judge(Role::Pronoun, Judgement::No), Utc::now()).unwrap();
        if anaphoric {
            r = edit::apply(m, c, who, Some(&r), Edit::Judge(Role::Antecedent, antecedent), Utc::now()).unwrap();
        }
        let r = conflicts::settle(&r, conflicts::failing(m, &r));
        store.put(r).unwrap();
    }
    store.close().unwrap();
}

/// Adjudication settles only the question in dispute: annotators who all said the pronoun is
/// wrong and disagreed on the antecedent give the adjudicator the antecedent, with their answers
/// and without their names; the adjudicator's "yes" to the pronoun leaves the unanimous ✗.
#[test]
fn adjudication_settles_only_the_disputed_question() {
    let dir = workspace();
    let d = dir.path();
    let (anna, ben) = planned_and_exported(d);
    judge_antecedents(&anna, Judgement::Yes);
    judge_antecedents(&ben, Judgement::No);
    ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-anna.json", "sample.batch-1-ben.json"]);
    ok(d, &["batch", "adjudicate", "sample.master.json", "--annotator", "Clara", "--seed", "3"]);
    let file = d.join("sample.batch-2-clara.json");
    let text = fs::read_to_string(&file).unwrap();
    assert!(!text.contains("Anna") && !text.contains("Ben"), "no names in the batch");
    let clara = batch_file::load(&file).unwrap();
    assert!(!clara.disputes.is_empty());
    for dispute in &clara.disputes {
        assert_eq!(dispute.role, Role::Antecedent, "only the antecedent is disputed");
        assert_eq!(dispute.describe(), "the antecedent: ✓ ✗");
    }
    // Clara says yes to both questions.
    let (mut store, _) = Store::<Batch>::open(&file).unwrap();
    let who = store.doc().annotator().id;
    for c in store.doc().order() {
        let m = store.master();
        let mut r = edit::apply(m, c, who, None, Edit::Judge(Role::Pronoun, Judgement::Yes), Utc::now()).unwrap();
        r = edit::apply(m, c, who, Some(&r), Edit::Judge(Role::Antecedent, Judgement::Yes), Utc::now()).unwrap();
        let r = conflicts::settle(&r, conflicts::failing(m, &r));
        store.put(r).unwrap();
    }
    store.close().unwrap();
    ok(d, &["batch", "import", "sample.master.json", "sample.batch-2-clara.json"]);
    // Every pronoun is ✗, by the annotators' agreement or a single one: no system has a correct one.
    let scores = ok(d, &["report", "sample.master.json", "-f", "json", "-t", "scores"]);
    let scores: serde_json::Value = serde_json::from_str(&scores).unwrap();
    for row in scores["tables"][0]["rows"].as_array().unwrap() {
        assert_eq!(row["values"][2], 0, "{}: no pronoun judged correct", row["label"]);
    }
    let text = ok(d, &["report", "sample.master.json", "-t", "scores"]);
    let notes = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!notes.contains(" adjudicated"), "no pronoun verdict rests on the adjudication: {notes}");
    // The antecedent, which was disputed, is the adjudicator's.
    let m = master_file::load(&d.join("sample.master.json")).unwrap();
    let verdicts = protest::metrics::verdict::Verdicts::new(&m);
    for &c in &m.task_sets[1].tasks[0].candidates {
        assert_eq!(verdicts.decide(c, Role::Antecedent).judgement, Judgement::Yes);
        assert_eq!(verdicts.decide(c, Role::Pronoun).judgement, Judgement::No);
    }
    assert_clean(d);
}

/// Messages that name what to do (the study of the news corpus). An unknown category lists the
/// known ones; a blank record is said to be skipped (not "already in the master"), and counts agree
/// in number.
#[test]
fn plan_and_merge_messages_say_what_happened_and_what_to_do() {
    let dir = workspace();
    let d = dir.path();
    let e = refused(d, &["batch", "plan", "sample.master.json", "--annotators", "2", "--category", "pleonastic"]);
    assert!(
        e.contains(
            "sample.master.json: unknown category 'pleonastic'; the categories are: anaphoric_inter_subject_it, "
        ) && e.contains(", pleonastic_it, "),
        "{e}"
    );
    let (anna, _) = planned_and_exported(d);
    annotate(&anna, 1, Judgement::Yes);
    // A record with nothing in it: the annotator opened a candidate and left it.
    let (mut store, _) = Store::<Batch>::open(&anna).unwrap();
    let (c, who) = (store.doc().order()[1], store.doc().annotator().id);
    store.put(protest::model::Record::new(c, who, Utc::now())).unwrap();
    store.close().unwrap();
    let out = ok(d, &["batch", "import", "sample.master.json", "sample.batch-1-anna.json"]);
    assert!(
        out.contains(
            "(Anna, task set 1): 2 records: 1 new, 0 replacing different ones, 0 already in the master, 1 blank \
             (nothing entered: skipped)"
        ),
        "{out}"
    );
    assert!(out.contains("merged 1 record into sample.master.json"), "{out}");
}
