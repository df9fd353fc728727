//! Converting the original PROTEST tool's files through the library: every value of the old
//! tables arrives, refusals name table and row, and converted batches merge like native ones.

use crate::legacy_db::demo::{self, ANNA, BEN, MT_A, MT_B, REFERENCE};
use crate::legacy_db::{OldDb, SCHEMA_1_0};
use chrono::{DateTime, Utc};
use protest::batches::merge::{self, Incoming};
use protest::ingest::legacy::{self, Converted, How, Options, Reference, Unknown};
use protest::model::Conflict;
use protest::model::{
    AnnotatorId, CandidateId, ConflictStatus, CorpusId, CorpusRole, ExampleNo, Judgement, Master, Record, TokenRef,
};
use protest::store::batch_file::Batch;
use std::path::{Path, PathBuf};

fn now() -> DateTime<Utc> {
    "2026-11-25T12:00:00Z".parse().unwrap()
}

fn options(master: Option<&Master>) -> Options<'_> {
    Options { reference: Reference::Guess, master, now: now(), unknown: Unknown::Annotator, shell: Default::default() }
}

fn convert_master(path: &Path) -> (Master, legacy::Report) {
    match legacy::convert(path, &options(None)).unwrap() {
        Converted::Master { master, report } => (master, report),
        Converted::Batch { .. } => panic!("a master was expected"),
    }
}

fn convert_batch(path: &Path, master: &Master) -> (Batch, legacy::Placement, legacy::Report) {
    match legacy::convert(path, &options(Some(master))).unwrap() {
        Converted::Batch { batch, placement, report } => (batch, placement, report),
        Converted::Master { .. } => panic!("a batch was expected"),
    }
}

fn record(m: &Master, candidate: i64, annotator: u32) -> &Record {
    m.records
        .get(CandidateId(candidate as u32), AnnotatorId(annotator))
        .unwrap_or_else(|| panic!("no record of candidate {candidate} by {annotator}"))
}

fn tokens(list: &[(u32, u32)]) -> std::collections::BTreeSet<TokenRef> {
    list.iter().map(|&(s, t)| TokenRef::new(s, t)).collect()
}

#[test]
fn the_demo_master_arrives_whole() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, _, _] = demo::write(dir.path());
    let (m, report) = convert_master(&master_db);
    assert_eq!(m.id, "demo-museum-2016");
    assert!(m.description.starts_with("Demo of the original PROTEST format"));
    assert!(m.settings.conflict_checks);
    assert_eq!(m.documents, [0, 4]);
    let roles: Vec<(u32, &str, CorpusRole)> = m.corpora.iter().map(|c| (c.id.0, c.name.as_str(), c.role)).collect();
    assert_eq!(
        roles,
        [
            (1, "source.en", CorpusRole::Source),
            (2, "ref.fr", CorpusRole::Reference),
            (3, "mt-a.fr", CorpusRole::System),
            (4, "mt-b.fr", CorpusRole::System)
        ]
    );
    assert_eq!(m.corpora[0].sentences, demo::SOURCE_TEXT);
    assert_eq!(m.corpora[3].sentences, demo::MT_B_TEXT);
    assert!(m.corpora.iter().all(|c| c.alignment.is_none()));
    assert_eq!(m.categories.len(), 13);
    let singular_you = m.category("addressee_deictic_singular_you").unwrap();
    assert!(singular_you.politeness && singular_you.label == "Deictic singular “you”");
    // Every example with its place, category and antecedent.
    assert_eq!(m.examples.len(), 7);
    for (no, line, _, pos, _, antecedent) in demo::EXAMPLES {
        let e = m.example(ExampleNo(no as u32)).unwrap();
        assert_eq!((e.sentence, e.token), (line as u32, pos as u32));
        let spans: Vec<_> = e.antecedents.iter().map(|a| (a.sentence, a.start, a.end, a.head)).collect();
        let expected: Vec<_> =
            antecedent.map(|(l, (s, t), _, h)| (l as u32, s as u32, t as u32, h as u32)).into_iter().collect();
        assert_eq!(spans, expected, "example {no}");
    }
    assert_eq!(m.example(ExampleNo(6)).unwrap().category, "anaphoric_intra_non-subject_it");
    // Every candidate keeps its old id and its aligned positions.
    assert_eq!(m.candidates.len(), 21);
    for (no, line, _, _, _, antecedent) in demo::EXAMPLES {
        for corpus in [REFERENCE, MT_A, MT_B] {
            let c = m.candidate(CandidateId(demo::candidate(no, corpus) as u32)).unwrap();
            assert_eq!((c.example, c.corpus), (ExampleNo(no as u32), CorpusId(corpus as u32)));
            let (pronoun, heads) = demo::aligned(no, corpus);
            let at = |l: i64, p: &[i64]| p.iter().map(|&t| TokenRef::new(l as u32, t as u32)).collect::<Vec<_>>();
            assert_eq!(c.pronoun, at(line, &pronoun));
            let expected: Vec<Vec<TokenRef>> = antecedent.map(|(l, ..)| at(l, &heads)).into_iter().collect();
            assert_eq!(c.antecedents, expected);
        }
    }
    assert!(m.candidate(CandidateId(demo::candidate(2, MT_B) as u32)).unwrap().pronoun.is_empty());
    // Annotators: Anna and Ben keep their ids; MASTER is the researcher.
    let names: Vec<(u32, &str)> = m.annotators.iter().map(|a| (a.id.0, a.name.as_str())).collect();
    assert_eq!(names, [(1, "Anna"), (2, "Ben")]);
    let r = record(&m, demo::candidate(1, REFERENCE), 0);
    assert_eq!((r.antecedent, r.pronoun, r.conflict.clone()), (Judgement::Yes, Judgement::Yes, ConflictStatus::Clear));
    assert_eq!(r.selected.pronoun, tokens(&[(1, 0)]));
    assert_eq!(r.selected.antecedent, tokens(&[(0, 6)]));
    assert_eq!(record(&m, demo::candidate(1, MT_A), 0).remarks, "Il does not agree with aile");
    assert_eq!(m.records.len(), 2);
    // Task set "pilot": IAA and two parts; the planner's leftovers are not in it.
    assert_eq!(m.task_sets.len(), 1);
    let ts = &m.task_sets[0];
    assert_eq!((ts.id, ts.name.as_str(), ts.iaa_size, ts.annotators), (1, "pilot", 2, 2));
    let labels: Vec<(&str, usize, Option<AnnotatorId>)> =
        ts.tasks.iter().map(|t| (t.label.as_str(), t.candidates.len(), t.annotator)).collect();
    assert_eq!(labels, [("IAA", 2, None), ("1", 5, None), ("2", 5, None)]);
    assert_eq!(ts.corpora, [CorpusId(3), CorpusId(4)]);
    // The report pairs every table with what it became.
    let text = report.to_string();
    for table in [
        "meta_data",
        "corpora",
        "sentences",
        "documents",
        "categories",
        "pro_candidates",
        "pro_antecedents",
        "translations",
        "annotators",
        "annotations",
        "token_annotations",
        "tag_annotations",
        "annotation_tasks",
        "task_definition",
    ] {
        assert!(text.contains(&format!("\n  {table} ")), "{table} missing from:\n{text}");
    }
    assert_eq!((report.new.examples, report.new.antecedents, report.new.candidates), (7, 4, 21));
    assert_eq!((report.new.aligned_pronoun, report.new.aligned_antecedent), (20, 12));
    assert!(text.contains("2 unassigned (task_no −1) left out"), "{text}");
    assert!(text.contains("'ref.fr' is taken as the human reference"), "{text}");
}

/// The demo converted: the master, then Anna's and Ben's batches against it, each batch's
/// placement applied to the master as `protest convert --master` does.
fn converted_demo(dir: &Path) -> (Master, Vec<Incoming>) {
    let [master_db, anna, ben] = demo::write(dir);
    let (mut m, _) = convert_master(&master_db);
    let mut incoming = Vec::new();
    for old in [anna, ben] {
        let (batch, placement, _) = convert_batch(&old, &m);
        placement.apply(&mut m);
        let path = old.with_extension("json");
        protest::store::batch_file::save(&batch, &path).unwrap();
        incoming.push(Incoming { path: path.clone(), batch: protest::store::batch_file::load(&path).unwrap() });
    }
    (m, incoming)
}

#[test]
fn converted_batches_merge_like_native_ones() {
    let dir = tempfile::tempdir().unwrap();
    let (mut m, incoming) = converted_demo(dir.path());
    // Each batch got its annotator's part of task set "pilot".
    let parts: Vec<_> = m.task_sets[0].tasks.iter().map(|t| t.annotator).collect();
    assert_eq!(parts, [None, Some(AnnotatorId(1)), Some(AnnotatorId(2))]);
    let anna = &incoming[0].batch;
    assert_eq!(anna.annotator().name, "Anna");
    assert_eq!(anna.order().len(), 7);
    assert_eq!(anna.content().records.len(), 7);
    assert!(anna.content().translations().all(|c| c.name.starts_with("Translation ")));
    assert_eq!(anna.master_id, m.id);

    let prepared = merge::prepare(&m, &incoming).unwrap();
    assert_eq!((prepared.new_records(), prepared.replaced()), (14, 0));
    merge::apply(&mut m, &prepared);
    protest::store::master_file::check(Path::new("merged"), &m).unwrap();
    assert_eq!(m.records.len(), 2 + 14);
    // Merging again changes nothing.
    assert!(merge::prepare(&m, &incoming).unwrap().is_empty());

    // Every value of the old batches is in the master, under the old candidate ids.
    let r = record(&m, demo::candidate(1, MT_A), 1);
    assert_eq!((r.antecedent, r.pronoun), (Judgement::Yes, Judgement::No));
    assert_eq!(r.remarks, "Il should be Elle (aile is feminine)");
    assert_eq!(r.selected.antecedent, tokens(&[(0, 6)]));
    assert!(r.selected.pronoun.is_empty() && r.tags.is_empty() && r.conflict == ConflictStatus::Clear);
    let r = record(&m, demo::candidate(4, MT_B), 1);
    assert_eq!((r.pronoun, r.selected.pronoun.clone()), (Judgement::Yes, tokens(&[(4, 2)])));
    assert_eq!(r.tags.iter().collect::<Vec<_>>(), ["politeness_tu"]);
    let r = record(&m, demo::candidate(5, MT_A), 1);
    assert_eq!(
        r.conflict,
        ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens, Conflict::AntecedentYesWithoutTokens])
    );
    assert!(r.legacy.is_empty());
    let r = record(&m, demo::candidate(6, MT_B), 1);
    assert_eq!(
        (r.antecedent, r.pronoun, r.remarks.as_str()),
        (Judgement::Unset, Judgement::Unset, "the clause is garbled")
    );
    assert!(r.tags.contains("bad_translation"));
    let r = record(&m, demo::candidate(4, MT_B), 2);
    assert_eq!(r.tags.iter().collect::<Vec<_>>(), ["desc_vs_presc", "politeness_tu"]);
    let r = record(&m, demo::candidate(2, MT_B), 2);
    assert_eq!(r.conflict, ConflictStatus::Kept(vec![Conflict::JudgedDespiteUnjudgeable]));
    assert!(r.tags.contains("incorrect_word_alignment"));
    let r = record(&m, demo::candidate(5, MT_B), 2);
    assert_eq!((r.antecedent, r.pronoun), (Judgement::Unset, Judgement::Yes));
    assert_eq!(r.legacy.get("ant_annotation").map(String::as_str), Some("unsure"));
    let r = record(&m, demo::candidate(6, MT_A), 2);
    assert_eq!((r.selected.pronoun.clone(), r.selected.antecedent.clone()), (tokens(&[(6, 11)]), tokens(&[(6, 6)])));
    // The researcher's records are untouched, and nobody else's were taken from the batches.
    assert_eq!(record(&m, demo::candidate(1, MT_A), 0).remarks, "Il does not agree with aile");
    assert_eq!(m.records.iter().filter(|r| r.annotator == AnnotatorId(ANNA as u32)).count(), 7);
    assert_eq!(m.records.iter().filter(|r| r.annotator == AnnotatorId(BEN as u32)).count(), 7);
}

#[test]
fn converting_a_batch_again_gives_the_same_batch_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, _] = demo::write(dir.path());
    let (mut m, _) = convert_master(&master_db);
    let (first, placement, _) = convert_batch(&anna, &m);
    assert_eq!(placement.how, How::Assign(vec![1]));
    assert!(placement.changes_master());
    placement.apply(&mut m);
    let (again, placement, report) = convert_batch(&anna, &m);
    assert_eq!(placement.how, How::Existing);
    assert!(!placement.changes_master());
    assert_eq!(again, first);
    assert!(report.to_string().contains("already gives Anna these candidates"), "{report}");
    // And the master converts the same every time (ids, seeds and all).
    assert_eq!(convert_master(&master_db).0.task_sets, convert_master(&master_db).0.task_sets);
}

#[test]
fn a_batch_outside_every_task_set_gets_one_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, ben] = demo::write(dir.path());
    // An old master without task tables, and batches that do not say which tasks they hold.
    OldDb { conn: rusqlite::Connection::open(&master_db).unwrap() }
        .exec("DELETE FROM annotation_tasks; DELETE FROM task_definition;");
    for b in [&anna, &ben] {
        OldDb { conn: rusqlite::Connection::open(b).unwrap() }.exec("DELETE FROM annotation_tasks;");
    }
    let (mut m, _) = convert_master(&master_db);
    assert!(m.task_sets.is_empty());
    let mut incoming = Vec::new();
    for (old, name) in [(anna, "Anna"), (ben, "Ben")] {
        let (batch, placement, _) = convert_batch(&old, &m);
        let How::New(ts) = &placement.how else { panic!("{placement:?}") };
        assert_eq!(ts.name, format!("{name}'s batch from the original PROTEST"));
        assert_eq!(ts.tasks.len(), 1);
        assert_eq!(ts.tasks[0].candidates.len(), 7);
        placement.apply(&mut m);
        incoming.push(Incoming { path: PathBuf::from(name), batch });
    }
    assert_eq!(m.task_sets.iter().map(|t| t.id).collect::<Vec<_>>(), [1, 2]);
    let prepared = merge::prepare(&m, &incoming).unwrap();
    assert_eq!(prepared.new_records(), 14);
}

/// The demo master with extra rows (SQL run on it before converting).
fn demo_master_with(dir: &Path, sql: &str) -> PathBuf {
    let path = dir.join("m.db");
    demo::master(&path).exec(sql);
    path
}

#[test]
fn every_value_of_a_master_with_two_annotators_arrives() {
    let dir = tempfile::tempdir().unwrap();
    let c = |example, corpus| demo::candidate(example, corpus);
    let path = demo_master_with(dir.path(), "");
    let db = OldDb { conn: rusqlite::Connection::open(&path).unwrap() };
    // Anaphoric, both judged by both annotators; Ben was unsure about the pronoun.
    db.annotation(c(3, MT_A), ANNA, "ok", "ok", "fine", "ana_ok ant_ok");
    db.token(c(3, MT_A), ANNA, 3, 1);
    db.token(c(3, MT_A), ANNA, 3, 4);
    db.tag(c(3, MT_A), ANNA, "ant_ensure");
    db.tag(c(3, MT_A), ANNA, "ant_ensure");
    db.exec(&format!(
        "INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status)
         VALUES ({}, {BEN}, 'bad', 'unsure', NULL, 'ana_ok ant_ok')",
        c(3, MT_A)
    ));
    // Non-anaphoric, never checked (no status), with an empty token row.
    db.exec(&format!(
        "INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status)
         VALUES ({0}, {ANNA}, 'unset', 'ok', '', NULL);
         INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({0}, 2, 0, 'ok', {ANNA});
         INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({0}, 2, 1, '', {ANNA});",
        c(2, REFERENCE)
    ));
    // A tag with no annotations row.
    db.tag(c(7, MT_B), BEN, "desc_vs_presc");
    // l' aligned to both the pronoun and the antecedent head, and selected.
    db.translation(REFERENCE, 6, Some(1), 6, 9);
    db.annotation(c(6, REFERENCE), ANNA, "ok", "ok", "", "ana_ok ant_ok");
    db.token(c(6, REFERENCE), ANNA, 6, 9);
    db.token(c(6, REFERENCE), ANNA, 6, 6);
    // A status the record does not bear out (no bad_translation tag): kept word for word.
    db.annotation(c(1, MT_B), BEN, "ok", "ok", "", "ana_bad_translation_annot ant_ok");
    // Politeness.
    db.annotation(c(4, MT_A), ANNA, "unset", "ok", "", "ana_ok ant_ok");
    db.token(c(4, MT_A), ANNA, 4, 3);
    db.tag(c(4, MT_A), ANNA, "politeness_vous");
    drop(db);

    let (m, report) = convert_master(&path);
    let r = record(&m, c(3, MT_A), 1);
    assert_eq!((r.antecedent, r.pronoun, r.remarks.as_str()), (Judgement::Yes, Judgement::Yes, "fine"));
    assert_eq!((r.selected.antecedent.clone(), r.selected.pronoun.clone()), (tokens(&[(3, 1)]), tokens(&[(3, 4)])));
    assert_eq!(r.tags.iter().collect::<Vec<_>>(), ["ant_ensure"]);
    assert_eq!(r.conflict, ConflictStatus::Clear);
    let r = record(&m, c(3, MT_A), 2);
    assert_eq!((r.antecedent, r.pronoun, r.remarks.as_str()), (Judgement::No, Judgement::Unset, ""));
    assert_eq!(r.legacy.iter().collect::<Vec<_>>(), [(&"anaph_annotation".to_owned(), &"unsure".to_owned())]);
    assert!(!r.is_blank());
    let r = record(&m, c(2, REFERENCE), 1);
    assert_eq!((r.pronoun, r.conflict.clone()), (Judgement::Yes, ConflictStatus::Unchecked));
    assert_eq!(r.selected.pronoun, tokens(&[(2, 0)]));
    let r = record(&m, c(7, MT_B), 2);
    assert_eq!((r.pronoun, r.conflict.clone()), (Judgement::Unset, ConflictStatus::Unchecked));
    assert_eq!(r.tags.iter().collect::<Vec<_>>(), ["desc_vs_presc"]);
    let r = record(&m, c(6, REFERENCE), 1);
    assert_eq!(r.selected.pronoun, tokens(&[(6, 9)]));
    assert_eq!(r.selected.antecedent, tokens(&[(6, 6), (6, 9)]));
    let r = record(&m, c(1, MT_B), 2);
    assert_eq!(r.conflict, ConflictStatus::Kept(vec![Conflict::JudgedDespiteUnjudgeable]));
    assert_eq!(r.legacy.get("conflict_status").map(String::as_str), Some("ana_bad_translation_annot ant_ok"));
    let r = record(&m, c(4, MT_A), 1);
    assert_eq!(r.tags.iter().collect::<Vec<_>>(), ["politeness_vous"]);
    assert_eq!(m.records.len(), 2 + 7);

    let n = &report.new;
    assert_eq!((n.records, n.unsure, n.legacy_statuses, n.tags, n.remarks), (9, 1, 1, 3, 2));
    assert_eq!((n.unchecked, n.clear, n.kept), (2, 6, 1));
    assert_eq!((report.old.annotations, report.old.tag_rows, report.old.token_rows), (8, 4, 9));
    let text = report.to_string();
    for note in [
        "1 record is made for tags or selected tokens without an annotations row",
        "1 tag_annotations row repeats a tag of the same record; kept once",
        "1 token_annotations row has an empty annotation: not selected",
        "1 selected token is aligned to both the pronoun and an antecedent head: selected in both roles",
    ] {
        assert!(text.contains(note), "{note} missing from:\n{text}");
    }
    assert!(text.contains("ok 6, bad 1, unset 0, unsure 1 → pronoun yes 6, no 1, unset 2"), "{text}");
    assert!(text.contains("8 records, and 1 more for tags or tokens without an annotations row"), "{text}");
}

#[test]
fn version_1_0_files_convert_where_their_columns_allow() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let db = OldDb::create(&path, SCHEMA_1_0);
    demo::suite(&db, "old-one");
    db.exec(&format!(
        "UPDATE meta_data SET tag_value = 'PROTEST 1.0' WHERE tag = 'file_version';
         DELETE FROM meta_data WHERE tag = 'file_type';
         INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks)
             VALUES ({0}, 1, 'ok', 'unsure', 'old style'), ({1}, -1, '', 'bad', NULL);
         INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({0}, 0, 6, 'ok', 1);",
        demo::candidate(1, MT_A),
        demo::candidate(2, MT_B)
    ));
    drop(db);
    let info = legacy::inspect(&path).unwrap();
    assert_eq!((info.file_type, info.version.as_str()), (legacy::FileType::Master, "PROTEST 1.0"));
    let (m, report) = convert_master(&path);
    let r = record(&m, demo::candidate(1, MT_A), 1);
    assert_eq!((r.antecedent, r.pronoun, r.remarks.as_str()), (Judgement::Yes, Judgement::Unset, "old style"));
    assert_eq!((r.conflict.clone(), r.selected.antecedent.clone()), (ConflictStatus::Unchecked, tokens(&[(0, 6)])));
    assert_eq!(r.legacy.get("anaph_annotation").map(String::as_str), Some("unsure"));
    let r = record(&m, demo::candidate(2, MT_B), 0);
    assert_eq!((r.antecedent, r.pronoun), (Judgement::Unset, Judgement::No));
    assert!(m.task_sets.is_empty());
    let text = report.to_string();
    assert!(text.contains("(PROTEST 1.0 master)") && !text.contains("tag_annotations"), "{text}");
}

#[test]
fn switched_off_conflict_checks_stay_off_in_master_and_batches() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, _] = demo::write(dir.path());
    for file in [&master_db, &anna] {
        OldDb { conn: rusqlite::Connection::open(file).unwrap() }
            .exec("INSERT INTO meta_data VALUES ('config:conflict_checks', 'disabled')");
    }
    let (m, report) = convert_master(&master_db);
    assert!(!m.settings.conflict_checks);
    assert!(report.to_string().contains("conflict checks off (config:conflict_checks disabled)"));
    let (batch, _, report) = convert_batch(&anna, &m);
    assert!(!batch.content().settings.conflict_checks);
    assert!(!report.to_string().contains("the batch follows the master"), "{report}");
}

#[test]
fn the_old_file_is_never_changed() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, _] = demo::write(dir.path());
    let before = |p: &Path| (std::fs::read(p).unwrap(), std::fs::metadata(p).unwrap().modified().unwrap());
    let listing = || {
        let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let (files, master_state, anna_state) = (listing(), before(&master_db), before(&anna));
    let (m, _) = convert_master(&master_db);
    convert_batch(&anna, &m);
    legacy::inspect(&anna).unwrap();
    assert_eq!(before(&master_db), master_state);
    assert_eq!(before(&anna), anna_state);
    assert_eq!(listing(), files, "no journal or other file appeared beside the old ones");
}

#[test]
fn the_reference_is_guessed_named_or_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = demo_master_with(dir.path(), "");
    let roles = |reference: Reference| {
        let converted = legacy::convert(
            &path,
            &Options { reference, master: None, now: now(), unknown: Unknown::Annotator, shell: Default::default() },
        );
        converted.map(|c| match c {
            Converted::Master { master, .. } => {
                master.corpora.iter().map(|c| format!("{}={:?}", c.name, c.role)).collect::<Vec<_>>().join(" ")
            }
            Converted::Batch { .. } => unreachable!(),
        })
    };
    assert_eq!(roles(Reference::Guess).unwrap(), "source.en=Source ref.fr=Reference mt-a.fr=System mt-b.fr=System");
    assert_eq!(
        roles(Reference::Named("mt-b.fr".into())).unwrap(),
        "source.en=Source ref.fr=System mt-a.fr=System mt-b.fr=Reference"
    );
    assert_eq!(roles(Reference::None).unwrap(), "source.en=Source ref.fr=System mt-a.fr=System mt-b.fr=System");
    let e = roles(Reference::Named("nmt".into())).unwrap_err().to_string();
    assert!(e.contains("there is no translation corpus 'nmt'") && e.contains("'ref.fr', 'mt-a.fr', 'mt-b.fr'"), "{e}");
    OldDb { conn: rusqlite::Connection::open(&path).unwrap() }
        .exec("UPDATE corpora SET name = 'mt-a.ref' WHERE id = 3");
    let e = roles(Reference::Guess).unwrap_err().to_string();
    assert!(e.contains("several translation corpora are named like a reference ('ref.fr', 'mt-a.ref')"), "{e}");
}

#[test]
fn identical_copies_of_the_source_become_one() {
    let dir = tempfile::tempdir().unwrap();
    let copy = "INSERT INTO corpora VALUES (5, 'source-for-mt-b.en', 0);
        INSERT INTO sentences (corpus, line, sentence) SELECT 5, line, sentence FROM sentences WHERE corpus = 1;
        UPDATE pro_candidates SET srccorpus = 5 WHERE tgtcorpus = 4;
        UPDATE pro_antecedents SET srccorpus = 5 WHERE tgtcorpus = 4;";
    let (m, report) = convert_master(&demo_master_with(dir.path(), copy));
    assert_eq!(m.corpora.iter().filter(|c| c.role == CorpusRole::Source).count(), 1);
    assert_eq!(m.candidates.len(), 21);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("the 2 source corpora (source.en, source-for-mt-b.en) hold the same text"))
    );
    let dir = tempfile::tempdir().unwrap();
    let path = demo_master_with(
        dir.path(),
        &format!("{copy} UPDATE sentences SET sentence = 'It rains .' WHERE corpus = 5 AND line = 2;"),
    );
    let e = legacy::convert(&path, &options(None)).unwrap_err().to_string();
    assert!(e.contains("source corpora 'source.en' and 'source-for-mt-b.en' differ at line 2"), "{e}");
}

#[test]
fn refusals_name_the_table_and_row() {
    let a_mt = demo::candidate(1, MT_A);
    let cases: Vec<(String, &str)> = vec![
        ("UPDATE meta_data SET tag_value = 'PROTEST 2.0' WHERE tag = 'file_version'".into(), "file version 'PROTEST 2.0' is not supported (this PROTEST converts PROTEST 1.1 and PROTEST 1.0)"),
        ("UPDATE meta_data SET tag_value = 'notes' WHERE tag = 'file_type'".into(), "meta_data says file_type 'notes'"),
        ("DROP TABLE translations".into(), "the file has no translations table"),
        ("ALTER TABLE pro_candidates DROP COLUMN srcpos".into(), "table pro_candidates has no column srcpos"),
        ("INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation) VALUES (999, 1, 'ok', 'ok')".into(), "table annotations, row 3: candidate 999 is not in table pro_candidates"),
        ("INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES (999, 1, 0, 'ok', 1)".into(), "table token_annotations, row 4: candidate 999 is not in table pro_candidates"),
        ("INSERT INTO tag_annotations (candidate, annotator_id, tag) VALUES (999, 1, 'x')".into(), "table tag_annotations, row 1: candidate 999 is not in table pro_candidates"),
        (format!("INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation) VALUES ({a_mt}, 7, 'ok', 'ok')"), "table annotations, row 3: annotator_id 7 is not in table annotators"),
        ("INSERT INTO sentences (corpus, line, sentence) VALUES (9, 0, 'x')".into(), "table sentences, row 33: corpus 9 is not in table corpora"),
        ("UPDATE pro_candidates SET tgtcorpus = 9 WHERE id = 2".into(), "table pro_candidates, row 2: tgtcorpus 9 is not in table corpora"),
        ("UPDATE translations SET tgtpos = 40 WHERE id = 1".into(), "table translations, row 1: tgtpos 40 is outside line 1 of corpus 'ref.fr' (9 tokens)"),
        ("UPDATE translations SET line = 2 WHERE id = 1".into(), "table translations, row 1: line 2 is not the line of the pronoun (line 1)"),
        ("INSERT INTO translations (tgtcorpus, example_no, ant_no, line, tgtpos) VALUES (2, 2, 1, 2, 0)".into(), "table translations, row 33: ant_no 1 is not an antecedent of example 2"),
        ("INSERT INTO translations (tgtcorpus, example_no, ant_no, line, tgtpos) VALUES (2, 9, NULL, 2, 0)".into(), "table translations, row 33: no pro_candidates row has example_no 9 and tgtcorpus 2"),
        ("UPDATE pro_candidates SET line = 12 WHERE id = 1".into(), "table pro_candidates, row 1: line 12 is outside the source text (lines 0–7)"),
        ("UPDATE pro_candidates SET srcpos = 1 WHERE example_no = 1".into(), "table pro_candidates, row 1: srcpro is 'It' but token 1 of line 1 is 'was'; the positions do not fit the text"),
        ("UPDATE pro_candidates SET srcpos = 1, srcpro = 'was' WHERE id = 3".into(), "table pro_candidates, row 3: example 1 is the pronoun at line 1, token 1 (anaphoric_inter_subject_it) here, but line 1, token 0"),
        ("DELETE FROM sentences WHERE corpus = 2 AND line = 3".into(), "corpus 'ref.fr' has no line 3 but a line 4: lines must number the corpus 0, 1, 2… without gaps"),
        ("UPDATE sentences SET line = line + 1".into(), "has no line 0 but a line 1"),
        ("UPDATE sentences SET sentence = 'It  was .' WHERE id = 2".into(), "table sentences, row 2: line 1 of corpus 'source.en' has two spaces in a row"),
        ("UPDATE documents SET start = 5 WHERE corpus = 3 AND start = 4; UPDATE documents SET \"end\" = 4 WHERE corpus = 3 AND start = 0".into(), "table documents splits corpus 'source.en' and corpus 'mt-a.fr' differently (documents starting at lines [0, 4] and [0, 5])"),
        ("UPDATE documents SET start = 5 WHERE corpus = 3 AND start = 4".into(), "table documents, row 5: the document of lines 0–3 of corpus 'mt-a.fr' is not followed by the next one at line 5"),
        (format!("INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({a_mt}, 1, 3, 'ok', 1)"), "table token_annotations, row 4: line 1, token 3 is not among the tokens aligned to the pronoun or to an antecedent head of candidate 2"),
        (format!("INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES ({a_mt}, 1, 0, 'bad', 1)"), "table token_annotations, row 4: annotation is 'bad'; the old tool marks selected tokens 'ok'"),
        (format!("INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation) VALUES ({a_mt}, 1, 'ok', 'maybe')"), "table annotations, row 3: anaph_annotation is 'maybe'; the old tool writes ok, bad, unset or unsure"),
        (format!("INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, conflict_status) VALUES ({a_mt}, 1, 'ok', 'ok', 'ana_ok')"), "table annotations, row 3: conflict_status 'ana_ok' is not a pronoun part and an antecedent part"),
        (format!("INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation) VALUES ({}, 1, 'ok', 'ok')", demo::candidate(2, REFERENCE)), "table annotations, row 3: ant_annotation is 'ok' but example 2 is not anaphoric"),
        ("UPDATE pro_antecedents SET srcstartpos = 4 WHERE tgtcorpus = 4 AND example_no = 1".into(), "table pro_candidates, row 3: example 1 has antecedents (1: line 0, tokens 4–5, head 5) for this candidate but (1: line 0, tokens 3–5, head 5) for row 1"),
        ("UPDATE pro_antecedents SET srcheadpos = 4, srcstartpos = 4 WHERE example_no = 1".into(), "table pro_antecedents, row 1: srchead is 'wing' but token 4 of line 0 is 'new'"),
        ("UPDATE pro_antecedents SET srcendpos = 9 WHERE id = 1".into(), "table pro_antecedents, row 1: the span 3–9 with head 5 does not fit line 0 (7 tokens"),
        ("UPDATE pro_antecedents SET example_no = 9 WHERE id = 1".into(), "table pro_antecedents, row 1: no pro_candidates row has srccorpus 1, tgtcorpus 2 and example_no 9"),
        ("UPDATE categories SET antagreement = 0 WHERE id = 1".into(), "table pro_antecedents, row 1: example 1 is of category anaphoric_inter_subject_it, which is not anaphoric (antagreement 0), yet has antecedents"),
        ("DELETE FROM pro_antecedents WHERE example_no = 3".into(), "table pro_candidates, row 7: example 3 is of category anaphoric_intra_they, which is anaphoric (antagreement 1), but pro_antecedents gives it no antecedent"),
        ("INSERT INTO annotation_tasks (task_no, candidate) VALUES (9, 2)".into(), "table annotation_tasks, row 15: task_no 9 is not in table task_definition"),
        ("UPDATE categories SET description = 'event it' WHERE id = 9".into(), "table categories, row 9: category description 'event it' is empty or has spaces"),
        ("UPDATE corpora SET srctgt = 2 WHERE id = 4".into(), "table corpora, row 4: srctgt is 2; it must be 0 (source) or 1 (translation)"),
        ("UPDATE corpora SET name = 'ref.fr' WHERE id = 4".into(), "table corpora, row 4: corpus name 'ref.fr' is also used by row 2"),
        ("UPDATE pro_candidates SET example_no = 'seven' WHERE id = 4".into(), "table pro_candidates, row 4: example_no should be a whole number, not the text 'seven'"),
        // Every number is checked before it is used as an index or an id.
        ("UPDATE sentences SET line = -1 WHERE corpus = 1 AND line = 0".into(), "line -1 of corpus 'source.en' is negative: lines number the corpus 0, 1, 2…"),
        ("UPDATE sentences SET line = -9223372036854775808 WHERE corpus = 2 AND line = 3".into(), "line -9223372036854775808 of corpus 'ref.fr' is negative"),
        ("UPDATE pro_candidates SET example_no = 9223372036854775807 WHERE id = 4".into(), "table pro_candidates, row 4: example_no 9223372036854775807 is not a number from 0 to 4294967295"),
        ("UPDATE pro_candidates SET example_no = -1 WHERE id = 4".into(), "table pro_candidates, row 4: example_no -1 is not a number from 0 to 4294967295"),
        ("UPDATE documents SET \"end\" = -1 WHERE corpus = 3 AND start = 0; UPDATE documents SET start = 9223372036854775807 WHERE corpus = 3 AND start = 4".into(), "the document of lines 0–-1 of corpus 'mt-a.fr' is not followed by the next one at line 9223372036854775807"),
        ("UPDATE translations SET tgtpos = -9223372036854775808 WHERE id = 1".into(), "table translations, row 1: tgtpos -9223372036854775808 is outside line 1"),
        ("UPDATE pro_antecedents SET srcstartpos = -9223372036854775808 WHERE id = 1".into(), "table pro_antecedents, row 1: the span -9223372036854775808–5 with head 5 does not fit line 0"),
        ("INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES (2, -1, 9223372036854775807, 'ok', 1)".into(), "table token_annotations, row 4: line -1 token 9223372036854775807 is not a place in the text"),
        ("INSERT INTO annotators (id, name) VALUES (4294967295, 'Max'), (-5, 'Neg')".into(), "table annotators, row -5: no annotator id is left for it: the ids in use reach 4294967295"),
        ("INSERT INTO annotators (id, name) VALUES (7, 'Clara' || char(8238))".into(), "table annotators, row 7: name 'Clara\\u{202e}': the name has an invisible or direction-changing character (U+202E)"),
        ("INSERT INTO annotators (id, name) VALUES (7, 'Cl' || char(0) || 'ara')".into(), "table annotators, row 7: name 'Cl\\0ara': the name has an invisible or direction-changing character (U+0000)"),
    ];
    for (sql, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = demo_master_with(dir.path(), &sql);
        let e = legacy::convert(&path, &options(None)).unwrap_err().to_string();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains(expected), "after {sql}:\n  expected: {expected}\n  got:      {e}");
    }
}

#[test]
fn files_that_are_not_old_protest_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.db");
    std::fs::write(&text, "just text, no database").unwrap();
    assert!(!legacy::is_legacy(&text));
    let e = legacy::convert(&text, &options(None)).unwrap_err().to_string();
    assert!(e.contains("not an SQLite database, so not a file of the original PROTEST tool"), "{e}");
    let other = dir.path().join("other.db");
    OldDb::create(&other, "CREATE TABLE people (id integer primary key, name text);");
    assert!(legacy::is_legacy(&other));
    let e = legacy::convert(&other, &options(None)).unwrap_err().to_string();
    assert!(e.contains("an SQLite database without PROTEST's meta_data table"), "{e}");
    assert!(legacy::inspect(&other).is_err());
    // A file with an unfinished transaction beside it is left alone.
    let path = demo_master_with(dir.path(), "");
    std::fs::write(dir.path().join("m.db-journal"), b"hot").unwrap();
    let e = legacy::convert(&path, &options(None)).unwrap_err().to_string();
    assert!(e.contains("m.db-journal exists beside it: a change to the database was not finished"), "{e}");
    let missing = legacy::convert(&dir.path().join("nowhere.db"), &options(None)).unwrap_err();
    assert!(matches!(missing, protest::Error::Io { .. }));
}

#[test]
fn a_batch_must_come_from_the_master_it_is_converted_against() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, _] = demo::write(dir.path());
    let (m, _) = convert_master(&master_db);
    let e = legacy::convert(&anna, &options(None)).unwrap_err().to_string();
    assert!(e.contains("this is an annotation batch; convert its master first"), "{e}");
    let info = legacy::inspect(&anna).unwrap();
    assert_eq!((info.file_type, info.annotator.as_deref()), (legacy::FileType::Batch, Some("Anna")));
    let refused = |sql: &str| {
        let copy = dir.path().join("copy.db");
        std::fs::copy(&anna, &copy).unwrap();
        OldDb { conn: rusqlite::Connection::open(&copy).unwrap() }.exec(sql);
        let e = legacy::convert(&copy, &options(Some(&m))).unwrap_err().to_string();
        std::fs::remove_file(&copy).unwrap();
        e
    };
    let cases = [
        (
            "UPDATE meta_data SET tag_value = 'other' WHERE tag = 'master_id'",
            "this batch was made from the old master 'other', but the converted master given has id 'demo-museum-2016'",
        ),
        (
            "UPDATE sentences SET sentence = 'Il a été conçu .' WHERE corpus = 3 AND line = 1",
            "corpus 'mt-a.fr' differs from the master's at line 1; was the batch made from another master?",
        ),
        (
            "UPDATE translations SET tgtpos = 1 WHERE tgtcorpus = 3 AND example_no = 1 AND ant_no IS NULL",
            "candidate 2 (example 1) has other aligned tokens in the batch than in the master",
        ),
        (
            "UPDATE meta_data SET tag_value = 'Zoe' WHERE tag = 'annotator_name'",
            "the batch is Zoe's (old annotator id 1), but annotator 1 of the converted master is Anna",
        ),
        ("UPDATE meta_data SET tag_value = '-1' WHERE tag = 'annotator_id'", "the batch belongs to the researcher"),
    ];
    for (sql, expected) in cases {
        let e = refused(sql);
        assert!(e.contains(expected), "after {sql}:\n  expected: {expected}\n  got:      {e}");
    }
}

#[test]
fn a_new_annotator_of_a_batch_is_added_to_the_master() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, _] = demo::write(dir.path());
    // A master converted before Anna was added to it.
    let early = dir.path().join("early.db");
    std::fs::copy(&master_db, &early).unwrap();
    OldDb { conn: rusqlite::Connection::open(&early).unwrap() }.exec("DELETE FROM annotators WHERE id = 1");
    let (mut m, _) = convert_master(&early);
    let (batch, placement, _) = convert_batch(&anna, &m);
    assert!(placement.add_annotator);
    assert_eq!((placement.annotator.id, placement.annotator.name.as_str()), (AnnotatorId(1), "Anna"));
    placement.apply(&mut m);
    assert_eq!(m.annotator_name(AnnotatorId(1)), "Anna");
    let prepared = merge::prepare(&m, &[Incoming { path: "anna.json".into(), batch }]).unwrap();
    assert_eq!(prepared.new_records(), 7);
}

/// Names that would look alike on screen: within an old master, told apart by their old ids; a
/// batch's annotator new to the master is added only if their name looks like nobody's there.
#[test]
fn look_alike_annotator_names_are_told_apart_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    // "Аnna" with a Cyrillic А, and "Anna" with an accent, beside the demo's Anna.
    let path = demo_master_with(dir.path(), "INSERT INTO annotators (id, name) VALUES (7, 'Аnna'), (8, 'Annà')");
    let (m, report) = convert_master(&path);
    assert_eq!(m.annotator_name(AnnotatorId(7)), "Аnna (old id 7)");
    assert_eq!(m.annotator_name(AnnotatorId(8)), "Annà (old id 8)");
    let notes = report.notes.join("\n");
    assert!(notes.contains("annotator name 'Аnna' looks like 'Anna'; old id 7 is now 'Аnna (old id 7)'"), "{notes}");

    let [master_db, anna, _] = demo::write(dir.path());
    let early = dir.path().join("early.db");
    std::fs::copy(&master_db, &early).unwrap();
    OldDb { conn: rusqlite::Connection::open(&early).unwrap() }
        .exec("DELETE FROM annotators WHERE id = 1; INSERT INTO annotators (id, name) VALUES (5, 'Аnna')");
    let (m, _) = convert_master(&early);
    let e = legacy::convert(&anna, &options(Some(&m))).unwrap_err().to_string();
    assert!(
        e.contains(
            "the batch's annotator cannot be added to the master: 'Anna' looks like 'Аnna', another annotator's name"
        ),
        "{e}"
    );
}

/// A file of PROTEST's size: 252 examples over 2,000 lines, a reference and six systems (1,764
/// candidates), every candidate annotated by two annotators. Prints how long conversion takes:
/// `cargo test --release --test integration legacy::protest_sized -- --ignored --nocapture`.
#[test]
#[ignore]
fn protest_sized_master_converts_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.db");
    let db = OldDb::create(&path, crate::legacy_db::SCHEMA_1_1);
    db.exec("BEGIN");
    demo::suite(&db, "big");
    db.exec("DELETE FROM sentences; DELETE FROM documents; DELETE FROM pro_candidates; DELETE FROM pro_antecedents; DELETE FROM translations;");
    let texts = [
        demo::SOURCE_TEXT,
        demo::REFERENCE_TEXT,
        demo::MT_A_TEXT,
        demo::MT_B_TEXT,
        demo::MT_A_TEXT,
        demo::MT_B_TEXT,
        demo::MT_A_TEXT,
        demo::MT_B_TEXT,
    ];
    for (i, corpus) in [(5, "mt-c.fr"), (6, "mt-d.fr"), (7, "mt-e.fr"), (8, "mt-f.fr")] {
        db.corpus(i, corpus, 1);
    }
    let blocks = 250;
    for (corpus, text) in (1..).zip(texts) {
        let lines: Vec<&str> = (0..blocks).flat_map(|_| text).collect();
        db.sentences(corpus, &lines);
        for b in 0..blocks {
            db.document(corpus, b * 8, b * 8 + 7);
        }
    }
    let mut id = 0;
    for b in 0..36 {
        for (example, line, pro, pos, category, antecedent) in demo::EXAMPLES {
            let no = b * 7 + example;
            let shift = b * 8;
            for corpus in 2..=8 {
                let like = [REFERENCE, MT_A, MT_B, MT_A, MT_B, MT_A, MT_B][corpus as usize - 2];
                id += 1;
                db.candidate(id, 1, corpus, no, line + shift, pro, pos, category);
                let (pronoun, heads) = demo::aligned(example, like);
                for p in pronoun {
                    db.translation(corpus, no, None, line + shift, p);
                }
                if let Some((l, span, word, head)) = antecedent {
                    db.antecedent(1, corpus, no, 1, l + shift, span, (word, head));
                    for h in heads {
                        db.translation(corpus, no, Some(1), l + shift, h);
                    }
                }
                for who in [ANNA, BEN] {
                    db.annotation(
                        id,
                        who,
                        if antecedent.is_some() { "ok" } else { "unset" },
                        "bad",
                        "",
                        "ana_ok ant_ok",
                    );
                }
            }
        }
    }
    db.exec("COMMIT");
    drop(db);
    let started = std::time::Instant::now();
    let (m, report) = convert_master(&path);
    println!("converted {} candidates, {} records in {:?}", m.candidates.len(), m.records.len(), started.elapsed());
    assert_eq!((report.new.candidates, report.new.records), (1764, 3528));
}

#[test]
fn parts_the_old_file_gives_to_annotators_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let [master_db, anna, _] = demo::write(dir.path());
    OldDb { conn: rusqlite::Connection::open(&master_db).unwrap() }.exec(
        "ALTER TABLE annotation_tasks ADD COLUMN annotator_id integer;
         UPDATE annotation_tasks SET annotator_id = 1 WHERE task_no = 2;
         UPDATE annotation_tasks SET annotator_id = 2 WHERE task_no = 3;",
    );
    let (m, _) = convert_master(&master_db);
    let parts: Vec<_> = m.task_sets[0].tasks.iter().map(|t| t.annotator).collect();
    assert_eq!(parts, [None, Some(AnnotatorId(1)), Some(AnnotatorId(2))]);
    let (_, placement, _) = convert_batch(&anna, &m);
    assert_eq!((placement.task_set, placement.how), (1, How::Existing));
}
