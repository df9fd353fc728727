//! The original tool's files as found in the wild (docs/legacy.md, *Files as found in the
//! wild*): each built the way the original's own scripts and code leave it (`legacy_db`), then
//! converted and checked value by value, with every repair named in the summary.

use crate::legacy_db::demo::{self, ANNA, MT_B, REFERENCE};
use crate::legacy_db::{Export, OldDb, Saved, export, import_batch, wild};
use chrono::{DateTime, Utc};
use protest::batches::merge::{self, Incoming};
use protest::ingest::legacy::{self, Converted, Options, Reference, UNKNOWN_NAME, Unknown};
use protest::model::{AnnotatorId, CandidateId, ConflictStatus, CorpusRole, Judgement, Master, Record, TokenRef};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn now() -> DateTime<Utc> {
    "2026-11-25T12:00:00Z".parse().unwrap()
}

fn convert_master_with(path: &Path, unknown: Unknown) -> (Master, legacy::Report) {
    match legacy::convert(
        path,
        &Options { reference: Reference::Guess, master: None, now: now(), unknown, shell: Default::default() },
    )
    .unwrap()
    {
        Converted::Master { master, report } => (master, report),
        Converted::Batch { .. } => panic!("a master was expected"),
    }
}

fn convert_master(path: &Path) -> (Master, legacy::Report) {
    convert_master_with(path, Unknown::Annotator)
}

/// Converts a batch against `m`, applies its placement and returns it ready to merge.
fn convert_batch(path: &Path, m: &mut Master) -> (Incoming, legacy::Report) {
    let options = Options {
        reference: Reference::Guess,
        master: Some(m),
        now: now(),
        unknown: Unknown::Annotator,
        shell: Default::default(),
    };
    let Converted::Batch { batch, placement, report } = legacy::convert(path, &options).unwrap() else {
        panic!("a batch was expected")
    };
    placement.apply(m);
    (Incoming { path: path.with_extension("json"), batch }, report)
}

fn record(m: &Master, candidate: i64, annotator: u32) -> &Record {
    m.records
        .get(CandidateId(candidate as u32), AnnotatorId(annotator))
        .unwrap_or_else(|| panic!("no record of candidate {candidate} by {annotator}"))
}

fn tokens(list: &[(u32, u32)]) -> BTreeSet<TokenRef> {
    list.iter().map(|&(s, t)| TokenRef::new(s, t)).collect()
}

fn open(path: &Path) -> OldDb {
    OldDb { conn: rusqlite::Connection::open(path).unwrap() }
}

/// A note of the report containing `text`, or a failure showing the whole report.
fn note<'a>(report: &'a legacy::Report, text: &str) -> &'a str {
    report.notes.iter().find(|n| n.contains(text)).unwrap_or_else(|| panic!("no note with {text:?} in:\n{report}"))
}

/// The demo master, and Anna's batch of tasks 1 and 2 exported from it and annotated.
fn demo_with_anna(dir: &Path, shape: impl Fn(&OldDb)) -> (PathBuf, PathBuf) {
    let master = dir.join("wild.master.db");
    let db = demo::master(&master);
    shape(&db);
    drop(db);
    let anna = dir.join("wild.batch-anna.db");
    demo::anna_work(&export(&master, &anna, ANNA, &[1, 2], "2016-05-02 09:30:00", Export::OwnRows));
    (master, anna)
}

#[test]
fn a_source_corpus_per_system_with_the_same_or_other_names_is_kept_once() {
    let plain_dir = tempfile::tempdir().unwrap();
    let (plain, _) = demo_with_anna(plain_dir.path(), |_| {});
    let (expected, _) = convert_master(&plain);
    for names in [["source.en", "source.en"], ["source-mt-a.en", "source-mt-b.en"]] {
        let dir = tempfile::tempdir().unwrap();
        let (master, anna) = demo_with_anna(dir.path(), |db| wild::source_per_system(db, names));
        let (mut m, report) = convert_master(&master);
        let corpora: Vec<(u32, &str, CorpusRole)> =
            m.corpora.iter().map(|c| (c.id.0, c.name.as_str(), c.role)).collect();
        assert_eq!(
            corpora,
            [
                (1, "source.en", CorpusRole::Source),
                (2, "ref.fr", CorpusRole::Reference),
                (3, "mt-a.fr", CorpusRole::System),
                (4, "mt-b.fr", CorpusRole::System)
            ]
        );
        assert_eq!(m.corpora[0].sentences, demo::SOURCE_TEXT);
        // Everything else is what the tidy master gives.
        assert_eq!(
            (&m.examples, &m.candidates, &m.records),
            (&expected.examples, &expected.candidates, &expected.records)
        );
        assert_eq!(m.documents, expected.documents);
        if names[0] == names[1] {
            note(
                &report,
                "corpora rows 5, 6 are copies of source corpus 1 'source.en' (same name, same text; the original's data preparation added the source once per MT system): kept once",
            );
        } else {
            note(
                &report,
                "the 3 source corpora (source.en, source-mt-a.en, source-mt-b.en) hold the same text: kept once, as 'source.en' (the name of row 1)",
            );
        }
        let text = report.to_string();
        assert!(text.contains("corpora                   6  → 4 corpora: source 'source.en'"), "{text}");
        // A batch exported from it holds the copies its candidates use, and merges.
        let (incoming, _) = convert_batch(&anna, &mut m);
        let prepared = merge::prepare(&m, &[incoming]).unwrap();
        assert_eq!(prepared.new_records(), 7);
    }
}

#[test]
fn a_system_removed_by_deleting_its_candidates_is_left_out_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (master, anna) = demo_with_anna(dir.path(), wild::removed_system);
    let (mut m, report) = convert_master(&master);
    assert_eq!(m.corpora.iter().map(|c| c.id.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!((m.candidates.len(), m.examples.len()), (21, 7));
    let plain_dir = tempfile::tempdir().unwrap();
    let (plain, _) = convert_master(&demo_with_anna(plain_dir.path(), |_| {}).0);
    assert_eq!((&m.candidates, &m.examples, &m.records), (&plain.candidates, &plain.examples, &plain.records));
    note(
        &report,
        "corpus 8 'mt-a.fr' (and its source copy 7 'source.en'): no pro_candidates row uses them — a system removed by deleting its candidates, as the original's filter-final.sh does; their 16 sentences, 4 documents rows, 4 pro_antecedents rows and 11 translations rows are not carried",
    );
    let (incoming, _) = convert_batch(&anna, &mut m);
    assert_eq!(merge::prepare(&m, &[incoming]).unwrap().new_records(), 7);
}

#[test]
fn a_master_db_of_the_upgrade_script_is_a_master() {
    for with_version in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let (master, anna) = demo_with_anna(dir.path(), |db| wild::add_to_database_meta(db, with_version));
        let info = legacy::inspect(&master).unwrap();
        let version = if with_version { "PROTEST 1.1" } else { "PROTEST 1.0" };
        assert_eq!((info.file_type, info.version.as_str()), (legacy::FileType::Master, version));
        let (mut m, report) = convert_master(&master);
        assert_eq!((m.id.as_str(), m.candidates.len(), m.records.len()), ("DiscoMT2015", 21, 2));
        note(
            &report,
            "meta_data says file_type 'MasterDB' (what the original's AddToDatabase.sql writes): read as a master",
        );
        if !with_version {
            note(&report, "meta_data has no file_version (AddToDatabase.sql writes none): read as PROTEST 1.0");
        }
        assert!(report.to_string().starts_with(&format!("{} ({version} master)", master.display())), "{report}");
        let (incoming, _) = convert_batch(&anna, &mut m);
        assert_eq!(merge::prepare(&m, &[incoming]).unwrap().new_records(), 7);
    }
    // Any other file type is still refused, by name.
    let dir = tempfile::tempdir().unwrap();
    let (master, _) = demo_with_anna(dir.path(), |db| {
        db.exec("UPDATE meta_data SET tag_value = 'annotator' WHERE tag = 'file_type'")
    });
    let e = legacy::convert(
        &master,
        &Options {
            reference: Reference::Guess,
            master: None,
            now: now(),
            unknown: Unknown::Annotator,
            shell: Default::default(),
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("meta_data says file_type 'annotator'; expected 'master', 'MasterDB' or 'annotation_batch'"),
        "{e}"
    );
}

/// Candidates of the demo by their old ids, as in the scenario of docs/legacy.md.
const C1_REF: i64 = 1;
const C1_MT_A: i64 = 2;
const C2_MT_A: i64 = 5;
const C3_MT_B: i64 = 9;

/// The master as the original's batch import leaves it when Anna's batch is imported, she keeps
/// working in it, and it is imported again (every step the original's own SQL).
fn imported_twice(dir: &Path) -> (PathBuf, PathBuf) {
    let (master, anna) = demo_with_anna(dir, |_| {});
    // Her batch as she left it after the first import: start again from an empty one.
    let batch = open(&anna);
    batch.exec("DELETE FROM annotations; DELETE FROM token_annotations; DELETE FROM tag_annotations;");
    let saved = |ant, anaph, remarks, tokens| Saved { ant, anaph, remarks, status: "ana_ok ant_ok", tokens, tags: &[] };
    batch.save_record(C1_MT_A, ANNA, &saved("ok", "bad", "Il should be Elle", &[(0, 6)]));
    batch.save_record(C2_MT_A, ANNA, &saved("unset", "ok", "", &[(2, 0)]));
    drop(batch);
    import_batch(&master, &anna);
    let batch = open(&anna);
    batch.save_record(C2_MT_A, ANNA, &saved("unset", "bad", "on second thought", &[]));
    batch.save_record(C3_MT_B, ANNA, &saved("ok", "bad", "", &[(3, 1)]));
    drop(batch);
    import_batch(&master, &anna);
    (master, anna)
}

#[test]
fn a_batch_imported_twice_by_the_original_converts_to_what_its_window_showed() {
    let dir = tempfile::tempdir().unwrap();
    let (master, anna) = imported_twice(dir.path());
    // What the original's import left: Anna's records twice, the researcher's rows 1 and 2 gone.
    let rows: Vec<(i64, i64, i64, String, String)> = open(&master)
        .conn
        .prepare("SELECT id, candidate, annotator_id, anaph_annotation, remarks FROM annotations ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let row = |id, c, anaph: &str, remarks: &str| (id, c, ANNA, anaph.to_owned(), remarks.to_owned());
    assert_eq!(
        rows,
        [
            row(3, C1_MT_A, "bad", "Il should be Elle"),
            row(4, C2_MT_A, "ok", ""),
            row(5, C1_MT_A, "bad", "Il should be Elle"),
            row(6, C2_MT_A, "bad", "on second thought"),
            row(7, C3_MT_B, "bad", ""),
        ]
    );

    let (mut m, report) = convert_master(&master);
    let anna_id = ANNA as u32;
    let r = record(&m, C1_MT_A, anna_id);
    assert_eq!((r.antecedent, r.pronoun, r.remarks.as_str()), (Judgement::Yes, Judgement::No, "Il should be Elle"));
    assert_eq!((r.selected.antecedent.clone(), r.selected.pronoun.clone()), (tokens(&[(0, 6)]), tokens(&[])));
    // The newest row's judgement and remarks; the token she deselected is still there, as the
    // original showed it.
    let r = record(&m, C2_MT_A, anna_id);
    assert_eq!((r.antecedent, r.pronoun, r.remarks.as_str()), (Judgement::Unset, Judgement::No, "on second thought"));
    assert_eq!(r.selected.pronoun, tokens(&[(2, 0)]));
    let r = record(&m, C3_MT_B, anna_id);
    assert_eq!(
        (r.antecedent, r.pronoun, r.selected.antecedent.clone()),
        (Judgement::Yes, Judgement::No, tokens(&[(3, 1)]))
    );
    // The researcher's rows the import deleted are gone; their surviving tokens make records.
    for c in [C1_REF, C1_MT_A] {
        let r = record(&m, c, 0);
        assert_eq!(
            (r.antecedent, r.pronoun, r.conflict.clone()),
            (Judgement::Unset, Judgement::Unset, ConflictStatus::Unchecked)
        );
        assert_eq!(r.selected.antecedent, tokens(&[(0, 6)]));
    }
    assert_eq!(m.records.len(), 5);

    let text = report.to_string();
    assert!(
        text.contains("annotations               5  → 3 records, and 2 more for tags or tokens without an annotations row; 2 older rows repeat a candidate and annotator (the newest kept)"),
        "{text}"
    );
    note(
        &report,
        "annotations rows 3 and 5 both give annotator 1 (Anna)'s annotation of candidate 2 and are identical: kept once",
    );
    note(
        &report,
        "annotations rows 4 and 6 both give annotator 1 (Anna)'s annotation of candidate 5: row 6, the newest, is kept, as the original tool showed it; dropped: row 4 (ant_annotation 'unset', anaph_annotation 'ok', remarks '', conflict_status 'ana_ok ant_ok')",
    );
    note(
        &report,
        "candidate 5, annotator 1 (Anna): the tags and selected tokens are those of all the tag_annotations and token_annotations rows together",
    );
    note(&report, "1 token_annotations row repeats a selection; kept once");
    assert_eq!((report.old.annotations, report.new.records), (3, 5));

    // Her batch, converted against that master, replaces the one record she changed since, and
    // no converted record is called older than another.
    let (incoming, _) = convert_batch(&anna, &mut m);
    let prepared = merge::prepare(&m, &[incoming]).unwrap();
    assert_eq!((prepared.new_records(), prepared.replaced(), prepared.reports[0].older), (0, 1, 0));
    merge::apply(&mut m, &prepared);
    assert!(record(&m, C2_MT_A, anna_id).selected.pronoun.is_empty());
}

#[test]
fn rows_without_an_annotator_are_never_silently_the_researchers() {
    // As the upgrade script leaves a single-user file: annotations made before it added the
    // annotator_id column (AddToDatabase.sql@8bbd946b:9-12) get NULL; and one version of the
    // tool saved the master's own work as annotator 0.
    let shape = |db: &OldDb| {
        db.exec(&format!(
            "INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status)
                 VALUES ({0}, NULL, 'ok', 'ok', 'made before annotators existed', NULL);
             INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({0}, 1, 0, 'ok', NULL);
             INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status)
                 VALUES ({1}, 0, 'unset', 'ok', 'saved as annotator 0', 'ana_ok ant_ok');
             INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({1}, 2, 0, 'ok', 0);",
            demo::candidate(1, MT_B),
            demo::candidate(2, REFERENCE)
        ))
    };
    let dir = tempfile::tempdir().unwrap();
    let (master, anna) = demo_with_anna(dir.path(), shape);
    let (mut m, report) = convert_master(&master);
    let names: Vec<(u32, &str)> = m.annotators.iter().map(|a| (a.id.0, a.name.as_str())).collect();
    assert_eq!(names, [(1, "Anna"), (2, "Ben"), (3, UNKNOWN_NAME)]);
    let r = record(&m, demo::candidate(1, MT_B), 3);
    assert_eq!(
        (r.antecedent, r.pronoun, r.remarks.as_str()),
        (Judgement::Yes, Judgement::Yes, "made before annotators existed")
    );
    assert_eq!((r.selected.pronoun.clone(), r.conflict.clone()), (tokens(&[(1, 0)]), ConflictStatus::Unchecked));
    let r = record(&m, demo::candidate(2, REFERENCE), 3);
    assert_eq!(
        (r.pronoun, r.remarks.as_str(), r.conflict.clone()),
        (Judgement::Yes, "saved as annotator 0", ConflictStatus::Clear)
    );
    assert_eq!(
        m.records.iter().filter(|r| r.annotator.is_researcher()).count(),
        2,
        "only the −1 rows are the researcher's"
    );
    note(
        &report,
        "annotations row 3 and token_annotations row 4 have no annotator_id (rows made before the original's AddToDatabase.sql added the column); annotations row 4 and token_annotations row 5 have annotator_id 0. The original tool read all of them as annotator 0 — in its last versions a nameless annotator, in an earlier one the master's own user. Kept as annotator 3 'Unknown (old annotator_id NULL/0)'; convert with --unknown-annotator researcher if they are your own",
    );
    assert!(
        report.to_string().contains(
            "3 annotators and the researcher (old id −1), one of them (3) added for rows without an annotator"
        ),
        "{report}"
    );
    // The batches still merge, and the added annotator is an annotator like the others.
    let (incoming, _) = convert_batch(&anna, &mut m);
    assert_eq!(merge::prepare(&m, &[incoming]).unwrap().new_records(), 7);
    protest::store::master_file::check(Path::new("m"), &m).unwrap();

    // Asked for, they are the researcher's own.
    let (m, report) = convert_master_with(&master, Unknown::Researcher);
    assert_eq!(m.annotators.len(), 2);
    assert_eq!(record(&m, demo::candidate(1, MT_B), 0).remarks, "made before annotators existed");
    assert_eq!(record(&m, demo::candidate(2, REFERENCE), 0).remarks, "saved as annotator 0");
    note(&report, "They are the researcher's, as asked (--unknown-annotator researcher)");
}

#[test]
fn record_times_come_from_no_file_and_cannot_mislead_a_merge() {
    let dir = tempfile::tempdir().unwrap();
    let (master, anna) = demo_with_anna(dir.path(), |_| {});
    let (first, report) = convert_master(&master);
    assert!(first.records.iter().all(|r| r.created == DateTime::<Utc>::UNIX_EPOCH && r.modified == r.created));
    note(&report, "records are dated 1970-01-01T00:00:00Z (\"unknown\")");
    // A copy, or a save in the old tool, changes the file's time but not the conversion.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&master).unwrap().set_modified(later).unwrap();
    let (again, _) = convert_master(&master);
    assert_eq!(again, first);
    // The master is newer than its batch on disk; the batch's records are still not "older".
    let mut m = first;
    let (incoming, report) = convert_batch(&anna, &mut m);
    note(&report, "the original tool exported this batch at 2016-05-02 09:30:00 UTC (meta_data time_created)");
    let prepared = merge::prepare(&m, std::slice::from_ref(&incoming)).unwrap();
    merge::apply(&mut m, &prepared);
    // A record changed in this PROTEST after the conversion is newer than the old batch's.
    let key = (CandidateId(C1_MT_A as u32), AnnotatorId(ANNA as u32));
    let mut edited = m.records.get(key.0, key.1).unwrap().clone();
    edited.remarks = "changed here".into();
    edited.modified = now();
    m.records.put(edited);
    let prepared = merge::prepare(&m, &[incoming]).unwrap();
    assert_eq!((prepared.replaced(), prepared.reports[0].older), (1, 1));
}

#[test]
fn batches_of_every_export_version_convert() {
    let dir = tempfile::tempdir().unwrap();
    let master = dir.path().join("m.db");
    let db = demo::master(&master);
    // Ben's work is in the master already (imported earlier); a later batch for Anna of the
    // same IAA candidates copies it in the earlier export version.
    demo::ben_work(&db);
    // And a row from before annotators existed, on an IAA candidate.
    db.exec("INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation) VALUES (2, NULL, 'ok', 'ok')");
    drop(db);
    let (mut m, _) = convert_master(&master);
    for (how, version, others) in [
        (Export::OwnRows, "PROTEST 1.1", None),
        (
            Export::EveryonesRows,
            "PROTEST 1.0",
            Some(
                "4 records of other annotators are copies the old tool made when exporting; not carried into the batch (3 equal to the master's, 1 differ from it or are not in it)",
            ),
        ),
    ] {
        let anna = dir.path().join(format!("anna-{version}.db"));
        demo::anna_work(&export(&master, &anna, ANNA, &[1, 2], "2016-05-02 09:30:00", how));
        let (incoming, report) = convert_batch(&anna, &mut m);
        assert_eq!(report.version, version);
        assert_eq!(incoming.batch.content().records.len(), 7);
        assert!(incoming.batch.content().records.iter().all(|r| r.annotator == AnnotatorId(ANNA as u32)));
        match others {
            Some(text) => {
                note(&report, text);
                assert!(!report.to_string().contains("annotators the master does not know"), "{report}");
            }
            None => assert!(!report.to_string().contains("other annotators"), "{report}"),
        }
    }
}

#[test]
fn tasks_without_task_no_and_batches_without_a_name_are_said_not_refused() {
    let dir = tempfile::tempdir().unwrap();
    let master = dir.path().join("m.db");
    wild::tasks_without_task_no(&demo::master(&master));
    let (m, report) = convert_master(&master);
    assert!(m.task_sets.is_empty());
    assert!(
        report.to_string().contains("annotation_tasks          1  → not converted: this table (from the original's AddToDatabase.sql) has no task_no column"),
        "{report}"
    );
    // A batch exported when the master had no annotators row for Anna names nobody.
    let dir = tempfile::tempdir().unwrap();
    let (master, anna) = demo_with_anna(dir.path(), |db| db.exec("DELETE FROM annotators WHERE id = 1"));
    open(&master).exec("INSERT INTO annotators VALUES (1, 'Anna')");
    let (mut m, _) = convert_master(&master);
    let (incoming, report) = convert_batch(&anna, &mut m);
    assert_eq!(incoming.batch.annotator().name, "Anna");
    note(
        &report,
        "the batch does not name its annotator (the master it came from had no annotators row for id 1 when it was exported); taken as the master's annotator 1, Anna",
    );
    assert_eq!(merge::prepare(&m, &[incoming]).unwrap().new_records(), 7);
}

#[test]
fn rows_of_the_single_user_tool_are_read_as_without_an_annotator() {
    for upgraded in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let master = dir.path().join("m.db");
        let c = demo::candidate(1, MT_B);
        wild::single_user_annotation(&demo::master(&master), c, "from the first tool", upgraded);
        let (m, report) = convert_master(&master);
        let r = record(&m, c, 3);
        assert_eq!(
            (r.antecedent, r.pronoun, r.remarks.as_str()),
            (Judgement::Yes, Judgement::Yes, "from the first tool")
        );
        assert_eq!(r.conflict, ConflictStatus::Unchecked);
        assert_eq!(m.annotator_name(AnnotatorId(3)), UNKNOWN_NAME);
        note(&report, "annotations row 1 has no annotator_id");
        // The researcher's token rows stay theirs: records without an annotations row.
        assert_eq!(m.records.iter().filter(|r| r.annotator.is_researcher()).count(), 2);
    }
}
