//! Headless tests of File › Import old PROTEST file and of opening an old file directly, on the
//! demo files of the original tool in tests/fixtures/legacy/.

use super::{click, harness, saved, type_into};
use egui_kittest::kittest::{NodeT, Queryable};
use protest::ingest::legacy::{self, Converted, Options, Reference, Unknown};
use protest::model::{AnnotatorId, Master};
use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/legacy");

/// A folder with copies of the old master and its two batches.
fn old_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["museum.master.db", "museum.batch-anna.db", "museum.batch-ben.db"] {
        std::fs::copy(Path::new(FIXTURES).join(name), dir.path().join(name)).unwrap();
    }
    dir
}

/// What the library makes of the old master.
fn converted_master(dir: &Path) -> Master {
    let options = Options {
        reference: Reference::Guess,
        master: None,
        now: chrono::Utc::now(),
        unknown: Unknown::Annotator,
        shell: Default::default(),
    };
    match legacy::convert(&dir.join("museum.master.db"), &options).unwrap() {
        Converted::Master { master, .. } => master,
        Converted::Batch { .. } => panic!("the master is a master"),
    }
}

#[test]
fn opening_an_old_master_offers_its_conversion_and_opens_the_result() {
    let dir = old_files();
    let old = dir.path().join("museum.master.db");
    let before = std::fs::read(&old).unwrap();
    let mut h = harness(&old, None);
    assert!(h.state().session.is_none(), "not opened as a master");
    assert!(h.query_by_label_contains("is a file of the original PROTEST tool").is_some());
    assert!(h.query_by_label("A PROTEST 1.1 master (master id demo-museum-2016).").is_some());
    let target = dir.path().join("museum.master.json");
    assert_eq!(h.get_by_label("Write the converted file to").value().as_deref(), Some(target.to_str().unwrap()));
    click(&mut h, "Convert");
    // The summary comes first, with nothing written yet.
    assert!(h.query_by_label_contains("Nothing is written yet").is_some());
    assert!(h.query_by_label_contains("pro_candidates           21  → 7 examples, 21 candidates").is_some());
    assert!(!target.exists(), "nothing is written before the user says so");
    click(&mut h, "Write the converted file");
    assert!(h.query_by_label_contains("pro_candidates           21  → 7 examples, 21 candidates").is_some());
    click(&mut h, "Open the converted master");
    assert_eq!(h.state().session.as_ref().unwrap().path(), target);
    let expected = converted_master(dir.path());
    let opened = saved(&target);
    assert_eq!((opened.id.as_str(), &opened.records), (expected.id.as_str(), &expected.records));
    assert_eq!(std::fs::read(&old).unwrap(), before, "the old file is never changed");
    assert!(!h.state().settings.recent.contains(&old), "the old file is no recent file");
}

#[test]
fn an_old_batch_converts_against_the_open_master_and_merges_into_it() {
    let dir = old_files();
    let master_path = dir.path().join("museum.master.json");
    protest::store::master_file::save(&converted_master(dir.path()), &master_path).unwrap();
    let mut h = harness(&master_path, None);
    click(&mut h, "File");
    click(&mut h, "Import old PROTEST file…");
    type_into(&mut h, "The old file", dir.path().join("museum.batch-anna.db").to_str().unwrap());
    assert!(h.query_by_label("A PROTEST 1.1 annotation batch of Anna (master id demo-museum-2016).").is_some());
    let master_field = h.get_by_label("Its converted master").value();
    assert_eq!(master_field.as_deref(), Some(master_path.to_str().unwrap()), "the open master");
    click(&mut h, "Convert");
    let batch = dir.path().join("museum.batch-anna.json");
    assert!(h.query_by_label_contains("The master gains: gives Anna part 1 of task set 1 'pilot'").is_some());
    assert!(!batch.exists() && saved(&master_path).task_sets[0].tasks.iter().all(|t| t.annotator.is_none()));
    click(&mut h, "Write the converted file");
    assert!(h.query_by_label_contains(&format!("Converted into {}", batch.display())).is_some());
    let anna = AnnotatorId(protest::store::batch_file::load(&batch).unwrap().annotator().id.0);
    assert!(saved(&master_path).task_sets[0].tasks.iter().any(|t| t.annotator == Some(anna)), "placed");
    click(&mut h, "Merge it into this master…");
    click(&mut h, "Merge 7 new records");
    let m = saved(&master_path);
    assert_eq!(m.records.iter().filter(|r| r.annotator == anna).count(), 7);
}

#[test]
fn the_converted_file_never_replaces_one_without_asking() {
    let dir = old_files();
    let target = dir.path().join("museum.master.json");
    std::fs::write(&target, "precious").unwrap();
    let mut h = harness(&dir.path().join("museum.master.db"), None);
    click(&mut h, "Convert");
    assert!(h.query_by_label_contains("already exists: tick “Replace the existing file”").is_some());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    click(&mut h, "Replace the existing file");
    click(&mut h, "Convert");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious", "not before the summary is seen");
    click(&mut h, "Write the converted file");
    assert!(protest::store::master_file::load(&target).is_ok());
}

#[test]
fn rows_without_an_annotator_are_the_researchers_only_when_asked() {
    let dir = old_files();
    let old = dir.path().join("museum.master.db");
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute_batch(
            "INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks)
             VALUES (4, NULL, 'unset', 'ok', 'made before annotators existed')",
        )
        .unwrap();
    let mut h = harness(&old, None);
    click(&mut h, "Convert");
    assert!(h.query_by_label_contains("Kept as annotator 3 'Unknown (old annotator_id NULL/0)'").is_some());
    click(&mut h, "Back");
    click(&mut h, "Annotations that name no annotator are my own");
    click(&mut h, "Convert");
    assert!(h.query_by_label_contains("They are the researcher's, as asked").is_some());
    click(&mut h, "Write the converted file");
    let m = saved(&dir.path().join("museum.master.json"));
    let r = m.records.get(protest::model::CandidateId(4), AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(r.remarks, "made before annotators existed");
    assert_eq!(m.annotators.len(), 2);
}

#[test]
fn a_file_that_is_no_protest_file_is_refused_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let f = super::tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, "File");
    click(&mut h, "Import old PROTEST file…");
    let fake = dir.path().join("notes.db");
    std::fs::write(&fake, "SQLite format 3\0 but not really").unwrap();
    type_into(&mut h, "The old file", fake.to_str().unwrap());
    assert!(h.query_by_label_contains(&fake.display().to_string()).is_some(), "the refusal names the file");
    assert!(h.get_by_label("Convert").accesskit_node().is_disabled(), "nothing to convert");
}
