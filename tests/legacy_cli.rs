//! `protest convert` as a researcher moving from the original tool runs it, on the demo in
//! tests/fixtures/legacy/: convert the old master and its two batches, merge, check.

use crate::common::{copies, ok, project, refused};
use crate::legacy_db::{Export, demo, export, wild};
use std::fs;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    project("tests/fixtures/legacy")
}

const FILES: [&str; 3] = ["museum.master.db", "museum.batch-anna.db", "museum.batch-ben.db"];

/// A folder with a copy of the demo's old files.
fn workspace() -> tempfile::TempDir {
    copies(&FILES.map(|f| format!("tests/fixtures/legacy/{f}")).iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn an_old_master_and_its_two_batches_convert_merge_and_check() {
    let dir = workspace();
    let d = dir.path();
    let out = ok(d, &["convert", "museum.master.db", "museum.master.json"]);
    for line in [
        "museum.master.db (PROTEST 1.1 master)",
        "pro_candidates           21  → 7 examples, 21 candidates",
        "annotations               2  → 2 records",
        "annotation_tasks         14  → 12 places in tasks, 2 unassigned (task_no −1) left out",
        "wrote museum.master.json",
        "Records: 2",
    ] {
        assert!(out.contains(line), "{line} missing from:\n{out}");
    }
    let e = refused(d, &["convert", "museum.batch-anna.db", "museum.batch-anna.json"]);
    assert!(e.contains("this is an annotation batch; convert its master first"), "{e}");

    for (old, new, who, part) in [
        ("museum.batch-anna.db", "museum.batch-anna.json", "Anna", "1"),
        ("museum.batch-ben.db", "museum.batch-ben.json", "Ben", "2"),
    ] {
        let out = ok(d, &["convert", old, new, "--master", "museum.master.json"]);
        for line in [
            format!("updated museum.master.json: gives {who} part {part} of task set 1 'pilot'"),
            format!("wrote {new} ({who}: 7 candidates, 7 records)"),
            // The original's last export copies only the annotator's own rows.
            "annotations               7  → 7 records".to_owned(),
        ] {
            assert!(out.contains(&line), "{line} missing from:\n{out}");
        }
        assert!(ok(d, &["check", new]).contains(&format!("Annotator: {who}")));
    }
    let out = ok(d, &["batch", "import", "museum.master.json", "museum.batch-anna.json", "museum.batch-ben.json"]);
    assert!(out.contains("merged 14 records into museum.master.json"), "{out}");
    let out = ok(d, &["check", "museum.master.json"]);
    for line in ["museum.master.json: valid", "Anna (7 records: ", "Ben (7 records: ", "Records: 16", "Task sets: 1"] {
        assert!(out.contains(line), "{line} missing from:\n{out}");
    }
    // Converting a batch again finds its place taken and changes nothing in the master.
    let before = fs::read(d.join("museum.master.json")).unwrap();
    let out = ok(d, &["convert", "museum.batch-anna.db", "again.json", "--master", "museum.master.json"]);
    assert!(!out.contains("updated museum.master.json"), "{out}");
    assert_eq!(fs::read(d.join("museum.master.json")).unwrap(), before);

    let e = refused(d, &["convert", "museum.master.db", "museum.master.json"]);
    assert!(e.contains("museum.master.json already exists; use --force to replace it"), "{e}");
    let e = refused(d, &["convert", "museum.master.db", "other.json", "--master", "museum.master.json"]);
    assert!(e.contains("museum.master.db is an old master, not a batch: convert it without --master"), "{e}");
    let e = refused(d, &["convert", "museum.master.db", "x.json", "--reference", "nmt"]);
    assert!(e.contains("there is no translation corpus 'nmt'"), "{e}");
    let out = ok(d, &["convert", "museum.master.db", "x.json", "--no-reference"]);
    assert!(out.contains("no reference, 3 MT systems"), "{out}");

    // The old files are as they were, and nothing was left beside anything.
    for f in FILES {
        assert_eq!(fs::read(d.join(f)).unwrap(), fs::read(fixtures().join(f)).unwrap(), "{f} changed");
    }
    for entry in fs::read_dir(d).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            !name.ends_with(".journal") && !name.ends_with(".lock") && !name.ends_with("-journal"),
            "{name} left behind"
        );
    }
}

#[test]
fn a_master_as_the_original_leaves_it_converts_merges_and_opens() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A source copy per system under one name, AddToDatabase.sql's meta data and no version, a
    // row without an annotator, and a batch of the last export version.
    let db = demo::master(&d.join("wild.db"));
    wild::source_per_system(&db, ["DiscoMT2015.test.en", "DiscoMT2015.test.en"]);
    db.exec("UPDATE corpora SET name = 'DiscoMT2015.test.en' WHERE id = 1");
    wild::add_to_database_meta(&db, false);
    db.exec(&format!(
        "INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks) VALUES ({}, NULL, 'unset', 'ok', 'old')",
        demo::candidate(2, demo::MT_B)
    ));
    drop(db);
    demo::anna_work(&export(
        &d.join("wild.db"),
        &d.join("anna.db"),
        demo::ANNA,
        &[1, 2],
        "2016-05-02 09:30:00",
        Export::OwnRows,
    ));
    let out = ok(d, &["convert", "wild.db", "wild.json"]);
    for line in [
        "wild.db (PROTEST 1.0 master)",
        "corpora                   6  → 4 corpora: source 'DiscoMT2015.test.en', reference 'ref.fr', 2 MT systems",
        "Note: meta_data says file_type 'MasterDB' (what the original's AddToDatabase.sql writes): read as a master",
        "Note: meta_data has no file_version (AddToDatabase.sql writes none): read as PROTEST 1.0",
        "Note: corpora rows 5, 6 are copies of source corpus 1 'DiscoMT2015.test.en'",
        "Note: annotations row 3 has no annotator_id",
        "Kept as annotator 3 'Unknown (old annotator_id NULL/0)'",
        "records are dated 1970-01-01T00:00:00Z",
        "wrote wild.json",
    ] {
        assert!(out.contains(line), "{line} missing from:\n{out}");
    }
    let out = ok(d, &["convert", "wild.db", "mine.json", "--unknown-annotator", "researcher"]);
    assert!(out.contains("They are the researcher's, as asked (--unknown-annotator researcher)"), "{out}");
    let out = ok(d, &["convert", "anna.db", "anna.json", "--master", "wild.json"]);
    assert!(out.contains("wrote anna.json (Anna: 7 candidates, 7 records)"), "{out}");
    let out = ok(d, &["batch", "import", "wild.json", "anna.json"]);
    assert!(out.contains("merged 7 records into wild.json"), "{out}");
    let out = ok(d, &["check", "wild.json"]);
    for line in ["wild.json: valid", "Records: 10", "Unknown (old annotator_id NULL/0) (1 record"] {
        assert!(out.contains(line), "{line} missing from:\n{out}");
    }
}

/// Numbers an old file gives that cannot be true are said, naming the file, table and row: the
/// command fails as any refusal does (exit 1), never with a crash, and writes nothing.
#[test]
fn impossible_numbers_in_an_old_file_are_refused_naming_the_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (sql, expected) in [
        (
            "UPDATE sentences SET line = -1 WHERE corpus = 1 AND line = 0",
            "museum.db: table sentences, row 1: line -1 of corpus 'source.en' is negative: lines number the corpus 0, 1, 2…",
        ),
        (
            "UPDATE pro_candidates SET example_no = 9223372036854775807 WHERE id = 4",
            "museum.db: table pro_candidates, row 4: example_no 9223372036854775807 is not a number from 0 to 4294967295",
        ),
        (
            "INSERT INTO annotators (id, name) VALUES (7, 'Anna' || char(8203))",
            "museum.db: table annotators, row 7: name 'Anna\\u{200b}': the name has an invisible or direction-changing character (U+200B)",
        ),
    ] {
        let db = demo::master(&d.join("museum.db"));
        db.exec(sql);
        drop(db);
        let out = crate::common::protest(d, &["convert", "museum.db", "museum.json"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{sql}: {stderr}");
        assert!(stderr.contains(expected), "{sql}:\n  expected: {expected}\n  got:      {stderr}");
        assert!(!d.join("museum.json").exists());
        fs::remove_file(d.join("museum.db")).unwrap();
    }
}

/// Every row of every table, as text, to compare two old files by content (SQLite may lay the
/// same rows out differently in bytes).
fn dump(path: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    tables.sort();
    let mut rows = Vec::new();
    for t in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{t}\" ORDER BY rowid")).unwrap();
        let n = stmt.column_count();
        let mut q = stmt.query([]).unwrap();
        while let Some(r) = q.next().unwrap() {
            let values: Vec<String> =
                (0..n).map(|i| format!("{:?}", r.get::<_, rusqlite::types::Value>(i).unwrap())).collect();
            rows.push(format!("{t}: {}", values.join(" | ")));
        }
    }
    rows
}

#[test]
fn the_committed_demo_is_what_the_test_helper_writes() {
    let dir = tempfile::tempdir().unwrap();
    for (made, name) in demo::write(dir.path()).iter().zip(FILES) {
        assert_eq!(
            dump(made),
            dump(&fixtures().join(name)),
            "{name} differs: run `cargo test --test integration legacy_cli -- --ignored write_the_demo`"
        );
    }
}

/// Writes tests/fixtures/legacy/ anew: `cargo test --test integration legacy_cli -- --ignored write_the_demo`.
#[test]
#[ignore]
fn write_the_demo() {
    let dir = fixtures();
    fs::create_dir_all(&dir).unwrap();
    let made = demo::write(&dir);
    for path in made {
        // Compact, and in rollback-journal mode like the original tool's files.
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute_batch("PRAGMA journal_mode = DELETE; PRAGMA page_size = 1024; VACUUM;")
            .unwrap();
    }
}
