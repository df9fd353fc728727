//! The sample batches (sample_batches/README.md): the committed annotated batches are what
//! `make_batches.sh` exports, annotated with the hand-written judgement tables in
//! `sample_batches/annotations/`; and they merge back into the sample master in either order.
//!
//! To rebuild the committed batches after a change of the batch format or of a table:
//! `cargo test --test integration sample_batches -- --ignored`.

use chrono::{DateTime, Duration, Utc};
use protest::annotate::{conflicts, edit, edit::Edit};
use protest::batches::adjudication;
use protest::batches::export;
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Role, TokenRef};
use protest::store::Store;
use protest::store::batch_file::Batch;
use protest::store::master_file;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_batches")
}

/// Runs make_batches.sh into `dir`: the planned master and the two empty batches.
fn make_batches(dir: &Path) {
    let out = Command::new("bash")
        .arg(root().join("make_batches.sh"))
        .arg(dir)
        .env("PROTEST", env!("CARGO_BIN_EXE_protest"))
        .output()
        .unwrap();
    assert!(out.status.success(), "make_batches.sh failed: {}", String::from_utf8_lossy(&out.stderr));
}

/// One line of a judgement table.
#[derive(Debug)]
struct Row {
    example: u32,
    corpus: String,
    antecedent: Judgement,
    pronoun: Judgement,
    antecedent_tokens: Vec<String>,
    pronoun_tokens: Vec<String>,
    tags: Vec<String>,
    remarks: String,
}

fn read_table(path: &Path) -> Vec<Row> {
    let judgement = |s: &str| match s {
        "yes" => Judgement::Yes,
        "no" => Judgement::No,
        "-" => Judgement::Unset,
        other => panic!("{}: judgement '{other}'", path.display()),
    };
    let words = |s: &str| if s == "-" { Vec::new() } else { s.split(' ').map(String::from).collect() };
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 8, "{}: {line}", path.display());
            Row {
                example: f[0].parse().unwrap(),
                corpus: f[1].into(),
                antecedent: judgement(f[2]),
                pronoun: judgement(f[3]),
                antecedent_tokens: words(f[4]),
                pronoun_tokens: words(f[5]),
                tags: words(f[6]),
                remarks: f[7].into(),
            }
        })
        .collect()
}

/// Annotates a batch from a table, as its annotator would in annotator mode: candidate after
/// candidate in the batch's order, one edit at a time, running the conflict checks on leaving
/// each (and keeping the annotation as it is when one fails). Two sessions a day apart.
fn fill(master: &Master, batch: &Path, table: &[Row], start: DateTime<Utc>) {
    let (mut store, _) = Store::<Batch>::open(batch).unwrap();
    let who = store.doc().annotator().id;
    let layout = export::layout(master, &master.task_sets[0], who);
    let mut rows: BTreeMap<CandidateId, &Row> = BTreeMap::new();
    for row in table {
        let corpus = master.corpora.iter().find(|c| c.name == row.corpus).unwrap().id;
        let c = master
            .candidates_of(protest::model::ExampleNo(row.example))
            .find(|c| c.corpus == corpus)
            .unwrap_or_else(|| panic!("no candidate for example {} {}", row.example, row.corpus));
        assert!(rows.insert(c.id, row).is_none(), "example {} {} twice", row.example, row.corpus);
    }
    let planned: BTreeSet<CandidateId> = layout.order.iter().copied().collect();
    let written: BTreeSet<CandidateId> = rows.keys().copied().collect();
    let describe = |ids: Vec<&CandidateId>| -> Vec<String> {
        ids.iter()
            .map(|&&id| {
                let c = master.candidate(id).unwrap();
                format!("{} {}", c.example, master.corpus(c.corpus).unwrap().name)
            })
            .collect()
    };
    assert!(
        planned == written,
        "the table does not match the batch: missing {:?}, not in the batch {:?}",
        describe(planned.difference(&written).collect()),
        describe(written.difference(&planned).collect())
    );
    for (position, original) in layout.order.iter().enumerate() {
        let row = rows[original];
        let local = CandidateId(position as u32 + 1);
        let session = if position < 40 { Duration::zero() } else { Duration::hours(19) };
        let mut now = start + session + Duration::seconds(position as i64 * 83 + (row.example as i64 * 37) % 45);
        let mut edits = Vec::new();
        for (role, judgement, words) in [
            (Role::Antecedent, row.antecedent, &row.antecedent_tokens),
            (Role::Pronoun, row.pronoun, &row.pronoun_tokens),
        ] {
            if judgement.is_set() {
                edits.push(Edit::Judge(role, judgement));
            }
            let candidate = store.master().candidate(local).unwrap();
            let mut free: Vec<TokenRef> = candidate.aligned(role).collect();
            for word in words {
                let content = store.master();
                let at = free
                    .iter()
                    .position(|&t| content.corpus(candidate.corpus).unwrap().token(t) == Some(word.as_str()))
                    .unwrap_or_else(|| {
                        panic!("example {} {}: '{word}' is not aligned to the {role}", row.example, row.corpus)
                    });
                edits.push(Edit::ToggleToken(role, free.remove(at)));
            }
        }
        edits.extend(row.tags.iter().map(|t| Edit::AddTag(t.clone())));
        if !row.remarks.is_empty() {
            edits.push(Edit::Remarks(row.remarks.clone()));
        }
        let mut record = store.master().records.get(local, who).cloned();
        for edit in edits {
            now += Duration::seconds(6);
            record = Some(edit::apply(store.master(), local, who, record.as_ref(), edit, now).unwrap());
        }
        let record = record.unwrap();
        let record = conflicts::settle(&record, conflicts::failing(store.master(), &record));
        store.put(record).unwrap();
    }
    store.close().unwrap();
}

const ANNA_STARTS: &str = "2026-11-27T13:10:00Z";
const BEN_STARTS: &str = "2026-11-28T08:45:00Z";

/// make_batches.sh into `dir`, then both batches annotated from the tables.
fn annotated_batches(dir: &Path) -> Master {
    make_batches(dir);
    let master = master_file::load(&dir.join("sample.master.json")).unwrap();
    for (name, start) in [("anna", ANNA_STARTS), ("ben", BEN_STARTS)] {
        let table = read_table(&root().join(format!("annotations/{name}.txt")));
        fill(&master, &dir.join(format!("sample.batch-1-{name}.json")), &table, start.parse().unwrap());
    }
    master
}

const BATCHES: [&str; 2] = ["sample.batch-1-anna.json", "sample.batch-1-ben.json"];

#[test]
fn committed_batches_are_the_documented_workflow() {
    let dir = tempfile::tempdir().unwrap();
    annotated_batches(dir.path());
    for name in BATCHES {
        assert!(
            fs::read(dir.path().join(name)).unwrap() == fs::read(root().join(name)).unwrap(),
            "sample_batches/{name} is out of date: run `cargo test --test integration sample_batches -- --ignored`"
        );
    }
}

#[test]
#[ignore = "rewrites the committed sample batches"]
fn regenerate_sample_batches() {
    let dir = tempfile::tempdir().unwrap();
    annotated_batches(dir.path());
    for name in BATCHES {
        fs::copy(dir.path().join(name), root().join(name)).unwrap();
    }
}

fn import(dir: &Path, batches: &[&str]) {
    let mut args = vec!["batch".to_owned(), "import".into(), "sample.master.json".into()];
    args.extend(batches.iter().map(|b| root().join(b).display().to_string()));
    let out = Command::new(env!("CARGO_BIN_EXE_protest")).args(&args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A folder with a copy of the bundled sample master, as the app's first start makes one.
fn copy_of_the_sample() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(root().join("sample.master.json"), dir.path().join("sample.master.json")).unwrap();
    dir
}

#[test]
fn the_bundled_master_knows_the_task_set_and_the_annotators_of_the_bundled_batches() {
    let m = master_file::load(&root().join("sample.master.json")).unwrap();
    for name in BATCHES {
        let batch = protest::store::batch_file::load(&root().join(name)).unwrap();
        assert_eq!(batch.master_id, m.id);
        let who = batch.annotator();
        assert_eq!(m.annotator(who.id).map(|a| a.name.as_str()), Some(who.name.as_str()), "{name}");
        let task_set = m.task_set(batch.task_set).expect("the batch's task set");
        assert!(task_set.tasks.iter().any(|t| t.annotator == Some(who.id)), "{name}: no part for {}", who.name);
    }
}

#[test]
fn both_batches_merge_in_either_order_into_a_copy_of_the_bundled_master() {
    let (first, second) = (copy_of_the_sample(), copy_of_the_sample());
    import(first.path(), &[BATCHES[0]]);
    import(first.path(), &[BATCHES[1]]);
    import(second.path(), &[BATCHES[1]]);
    import(second.path(), &[BATCHES[0]]);
    let a = fs::read(first.path().join("sample.master.json")).unwrap();
    assert!(a == fs::read(second.path().join("sample.master.json")).unwrap(), "the two orders differ");

    let m = master_file::load(&first.path().join("sample.master.json")).unwrap();
    let by = |id| m.records.iter().filter(|r| r.annotator == AnnotatorId(id)).count();
    assert_eq!((by(1), by(2), m.records.len()), (75, 75, 150));
    // The 30 IAA candidates have both annotators' records; every candidate has at least one.
    let iaa = &m.task_sets[0].tasks[0].candidates;
    assert_eq!(iaa.len(), 30);
    assert!(iaa.iter().all(|&c| m.records.of_candidate(c).count() == 2));
    assert!(m.candidates.iter().all(|c| m.records.of_candidate(c.id).count() >= 1));
    // As in the paper, they disagree on a handful of pronouns and on one antecedent.
    let disagreements = adjudication::disagreements(&m);
    let on = |role| disagreements.iter().filter(|d| d.roles.contains(&role)).count();
    assert_eq!((on(Role::Pronoun), on(Role::Antecedent)), (4, 1));
    assert!(disagreements.iter().all(|d| iaa.contains(&d.candidate)));
}
