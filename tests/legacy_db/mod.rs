//! Writing files in the original PROTEST tool's SQLite format (docs/legacy.md) for the tests and
//! the demo in tests/fixtures/legacy/: the tables of its schema, rows as it stored them, its batch
//! export ([`export`]), its window's save ([`OldDb::save_record`]) and its batch import
//! ([`import_batch`]), done the way the old tool did them, with ATTACH and its SQL; and the shapes
//! its scripts leave ([`wild`]).
#![allow(dead_code)]

use rusqlite::{Connection, params};
use std::path::Path;

/// The tables of a "PROTEST 1.1" file.
pub const SCHEMA_1_1: &str = r#"
CREATE TABLE meta_data (tag text, tag_value text);
CREATE TABLE corpora (id integer primary key, name text, srctgt integer);
CREATE TABLE sentences (id integer primary key, corpus integer, line integer, sentence text);
CREATE TABLE documents (id integer primary key, corpus integer, start integer, "end" integer);
CREATE TABLE categories (id integer primary key, description text, antagreement integer);
CREATE TABLE pro_candidates (id integer primary key, srccorpus integer, tgtcorpus integer, example_no integer,
    line integer, srcpro text, srcpos integer, srcproindex integer, category_no integer, sequence_no integer);
CREATE TABLE pro_antecedents (id integer primary key, srccorpus integer, tgtcorpus integer, example_no integer,
    ant_no integer, line integer, srcstartpos integer, srcendpos integer, srchead text, srcheadpos integer,
    srcheadindex integer);
CREATE TABLE translations (id integer primary key, tgtcorpus integer, example_no integer, ant_no integer,
    line integer, tgtpos integer);
CREATE TABLE annotators (id integer primary key, name text);
CREATE TABLE annotations (id integer primary key, candidate integer, annotator_id integer, ant_annotation text,
    anaph_annotation text, remarks text, conflict_status text);
CREATE TABLE token_annotations (id integer primary key, candidate integer, line integer, token integer,
    annotation text, annotator_id integer);
CREATE TABLE tag_annotations (id integer primary key, candidate integer, annotator_id integer, tag text);
CREATE TABLE annotation_tasks (id integer primary key, task_no integer, candidate integer);
CREATE TABLE task_definition (id integer primary key, taskset text, label text);
"#;

/// An older "PROTEST 1.0" file: no conflict status, tags or task tables.
pub const SCHEMA_1_0: &str = r#"
CREATE TABLE meta_data (tag text, tag_value text);
CREATE TABLE corpora (id integer primary key, name text, srctgt integer);
CREATE TABLE sentences (id integer primary key, corpus integer, line integer, sentence text);
CREATE TABLE documents (id integer primary key, corpus integer, start integer, "end" integer);
CREATE TABLE categories (id integer primary key, description text, antagreement integer);
CREATE TABLE pro_candidates (id integer primary key, srccorpus integer, tgtcorpus integer, example_no integer,
    line integer, srcpro text, srcpos integer, srcproindex integer, category_no integer, sequence_no integer);
CREATE TABLE pro_antecedents (id integer primary key, srccorpus integer, tgtcorpus integer, example_no integer,
    ant_no integer, line integer, srcstartpos integer, srcendpos integer, srchead text, srcheadpos integer,
    srcheadindex integer);
CREATE TABLE translations (id integer primary key, tgtcorpus integer, example_no integer, ant_no integer,
    line integer, tgtpos integer);
CREATE TABLE annotators (id integer primary key, name text);
CREATE TABLE annotations (id integer primary key, candidate integer, annotator_id integer, ant_annotation text,
    anaph_annotation text, remarks text);
CREATE TABLE token_annotations (id integer primary key, candidate integer, line integer, token integer,
    annotation text, annotator_id integer);
"#;

/// Test files need no durability: no syncs, journal in memory.
const FAST: &str = "PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY;";

/// An old file being written.
pub struct OldDb {
    pub conn: Connection,
}

impl OldDb {
    pub fn create(path: &Path, schema: &str) -> OldDb {
        let _ = std::fs::remove_file(path);
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(FAST).unwrap();
        conn.execute_batch(schema).unwrap();
        OldDb { conn }
    }

    pub fn exec(&self, sql: &str) {
        self.conn.execute_batch(sql).unwrap();
    }

    pub fn meta(&self, tag: &str, value: &str) {
        self.conn.execute("INSERT INTO meta_data VALUES (?1, ?2)", params![tag, value]).unwrap();
    }

    pub fn corpus(&self, id: i64, name: &str, srctgt: i64) {
        self.conn.execute("INSERT INTO corpora VALUES (?1, ?2, ?3)", params![id, name, srctgt]).unwrap();
    }

    pub fn sentences(&self, corpus: i64, lines: &[&str]) {
        for (line, text) in lines.iter().enumerate() {
            self.conn
                .execute(
                    "INSERT INTO sentences (corpus, line, sentence) VALUES (?1, ?2, ?3)",
                    params![corpus, line as i64, text],
                )
                .unwrap();
        }
    }

    pub fn document(&self, corpus: i64, start: i64, end: i64) {
        self.conn
            .execute("INSERT INTO documents (corpus, start, \"end\") VALUES (?1, ?2, ?3)", params![corpus, start, end])
            .unwrap();
    }

    pub fn category(&self, id: i64, description: &str, anaphoric: bool) {
        self.conn
            .execute("INSERT INTO categories VALUES (?1, ?2, ?3)", params![id, description, i64::from(anaphoric)])
            .unwrap();
    }

    #[allow(clippy::too_many_arguments)]
    pub fn candidate(&self, id: i64, src: i64, tgt: i64, example: i64, line: i64, pro: &str, pos: i64, category: i64) {
        self.conn
            .execute(
                "INSERT INTO pro_candidates VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9)",
                params![id, src, tgt, example, line, pro, pos, category, (id * 7919) % 101],
            )
            .unwrap();
    }

    #[allow(clippy::too_many_arguments)]
    pub fn antecedent(
        &self,
        src: i64,
        tgt: i64,
        example: i64,
        ant_no: i64,
        line: i64,
        span: (i64, i64),
        head: (&str, i64),
    ) {
        self.conn
            .execute(
                "INSERT INTO pro_antecedents (srccorpus, tgtcorpus, example_no, ant_no, line, srcstartpos, srcendpos,
                 srchead, srcheadpos, srcheadindex) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0)",
                params![src, tgt, example, ant_no, line, span.0, span.1, head.0, head.1],
            )
            .unwrap();
    }

    pub fn translation(&self, tgt: i64, example: i64, ant_no: Option<i64>, line: i64, pos: i64) {
        self.conn
            .execute(
                "INSERT INTO translations (tgtcorpus, example_no, ant_no, line, tgtpos) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![tgt, example, ant_no, line, pos],
            )
            .unwrap();
    }

    pub fn annotator(&self, id: i64, name: &str) {
        self.conn.execute("INSERT INTO annotators VALUES (?1, ?2)", params![id, name]).unwrap();
    }

    /// An annotations row as the old tool saved it (1.1: with a conflict status).
    pub fn annotation(&self, candidate: i64, annotator: i64, ant: &str, anaph: &str, remarks: &str, status: &str) {
        self.conn
            .execute(
                "INSERT INTO annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![candidate, annotator, ant, anaph, remarks, status],
            )
            .unwrap();
    }

    /// A selected token (`line` is the corpus line).
    pub fn token(&self, candidate: i64, annotator: i64, line: i64, token: i64) {
        self.conn
            .execute(
                "INSERT INTO token_annotations (candidate, line, token, annotation, annotator_id) VALUES (?1, ?2, ?3, 'ok', ?4)",
                params![candidate, line, token, annotator],
            )
            .unwrap();
    }

    pub fn tag(&self, candidate: i64, annotator: i64, tag: &str) {
        self.conn
            .execute(
                "INSERT INTO tag_annotations (candidate, annotator_id, tag) VALUES (?1, ?2, ?3)",
                params![candidate, annotator, tag],
            )
            .unwrap();
    }

    pub fn task(&self, id: i64, taskset: &str, label: &str) {
        self.conn.execute("INSERT INTO task_definition VALUES (?1, ?2, ?3)", params![id, taskset, label]).unwrap();
    }

    pub fn place(&self, task_no: i64, candidate: i64) {
        self.conn
            .execute("INSERT INTO annotation_tasks (task_no, candidate) VALUES (?1, ?2)", params![task_no, candidate])
            .unwrap();
    }
}

/// Whose annotation rows the original tool's batch export copies: it depends on the version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// The last version (`protest/db/Database.java@0d7dd86a`, lines 548–553 and 592–606): only
    /// the batch annotator's annotations, tags and tokens; the batch says `PROTEST 1.1`.
    OwnRows,
    /// An earlier one (`Database.java@e3d8ceed`, lines 484–486 and 525–527): everyone's
    /// annotations and tokens of the batch's candidates and no tags at all; the batch says
    /// `PROTEST 1.0` (line 458) though its tables are 1.1's.
    EveryonesRows,
}

/// The old tool's batch export: a new file with the master's schema (its `CREATE` statements,
/// as `Database.java@0d7dd86a:497-502` copies them) holding what the given tasks need (their
/// candidates with antecedents and aligned tokens, the corpora they use, all categories, the
/// annotator) and the annotation rows `how` says, done with ATTACH and the original's SQL.
pub fn export(master: &Path, batch: &Path, annotator: i64, tasks: &[i64], created: &str, how: Export) -> OldDb {
    let _ = std::fs::remove_file(batch);
    let conn = Connection::open(batch).unwrap();
    conn.execute_batch(FAST).unwrap();
    {
        let source = Connection::open(master).unwrap();
        let mut schema = source
            .prepare("SELECT sql FROM sqlite_master WHERE tbl_name NOT LIKE 'sqlite_%' AND sql IS NOT NULL ORDER BY type DESC")
            .unwrap();
        let statements: Vec<String> = schema.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
        for sql in statements {
            conn.execute_batch(&sql).unwrap();
        }
    }
    conn.execute("ATTACH DATABASE ?1 AS master", [master.to_str().unwrap()]).unwrap();
    let tasks = tasks.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let in_tasks = format!("t.task_no IN ({tasks})");
    let (version, whose, tags) = match how {
        Export::OwnRows => (
            "PROTEST 1.1",
            format!("AND a.annotator_id = {annotator}"),
            format!(
                "INSERT INTO main.tag_annotations SELECT a.* FROM master.tag_annotations AS a, master.annotation_tasks AS t
                 WHERE a.candidate = t.candidate AND a.annotator_id = {annotator} AND {in_tasks};"
            ),
        ),
        Export::EveryonesRows => ("PROTEST 1.0", String::new(), String::new()),
    };
    conn.execute_batch(&format!(
        "INSERT INTO main.meta_data (tag, tag_value) VALUES ('file_version', '{version}');
         INSERT INTO main.meta_data (tag, tag_value) VALUES ('file_type', 'annotation_batch');
         INSERT INTO main.meta_data (tag, tag_value) VALUES ('time_created', '{created}');
         INSERT INTO main.meta_data (tag, tag_value) SELECT tag, tag_value FROM master.meta_data WHERE tag IN ('master_id', 'master_description');
         INSERT INTO main.meta_data (tag, tag_value) VALUES ('annotator_id', '{annotator}');
         INSERT INTO main.meta_data (tag, tag_value) SELECT 'annotator_name', name FROM master.annotators WHERE id = {annotator};
         INSERT INTO main.annotation_tasks SELECT * FROM master.annotation_tasks AS t WHERE {in_tasks};
         INSERT INTO main.annotations SELECT a.* FROM master.annotations AS a, master.annotation_tasks AS t
             WHERE a.candidate = t.candidate {whose} AND {in_tasks};
         INSERT INTO main.annotators SELECT * FROM master.annotators WHERE id = {annotator};
         INSERT INTO main.categories SELECT * FROM master.categories;
         INSERT INTO main.corpora SELECT DISTINCT c.* FROM master.corpora AS c, master.pro_candidates AS e,
             master.annotation_tasks AS t WHERE (c.id = e.srccorpus OR c.id = e.tgtcorpus) AND e.id = t.candidate AND {in_tasks};
         INSERT INTO main.documents SELECT d.* FROM master.documents AS d, main.corpora AS c WHERE d.corpus = c.id;
         INSERT INTO main.pro_antecedents SELECT a.* FROM master.pro_antecedents AS a, master.pro_candidates AS e,
             master.annotation_tasks AS t WHERE e.id = t.candidate AND a.srccorpus = e.srccorpus
             AND a.tgtcorpus = e.tgtcorpus AND a.example_no = e.example_no AND {in_tasks};
         INSERT INTO main.pro_candidates SELECT e.* FROM master.pro_candidates AS e, master.annotation_tasks AS t
             WHERE e.id = t.candidate AND {in_tasks};
         INSERT INTO main.sentences SELECT s.* FROM master.sentences AS s, main.corpora AS c WHERE s.corpus = c.id;
         {tags}
         INSERT INTO main.token_annotations SELECT a.* FROM master.token_annotations AS a, master.annotation_tasks AS t
             WHERE a.candidate = t.candidate {whose} AND {in_tasks};
         INSERT INTO main.translations SELECT tr.* FROM master.translations AS tr, master.annotation_tasks AS t,
             master.pro_candidates AS c WHERE t.candidate = c.id AND tr.example_no = c.example_no
             AND tr.tgtcorpus = c.tgtcorpus AND {in_tasks};
         DETACH DATABASE master;"
    ))
    .unwrap();
    OldDb { conn }
}

/// One record as the original tool's annotation window saves it
/// (`AnnotationRecord.java@f15704f0:237-329`): the candidate's rows of that annotator deleted,
/// then tags (sorted), selected tokens and — unless nothing at all is set — the annotations row
/// inserted anew, so every save gives the rows new ids.
pub struct Saved<'a> {
    pub ant: &'a str,
    pub anaph: &'a str,
    pub remarks: &'a str,
    pub status: &'a str,
    /// (corpus line, token)
    pub tokens: &'a [(i64, i64)],
    pub tags: &'a [&'a str],
}

impl OldDb {
    pub fn save_record(&self, candidate: i64, annotator: i64, r: &Saved) {
        self.exec("BEGIN");
        for table in ["annotations", "token_annotations", "tag_annotations"] {
            self.conn
                .execute(
                    &format!("DELETE FROM {table} WHERE candidate = ?1 AND annotator_id = ?2"),
                    params![candidate, annotator],
                )
                .unwrap();
        }
        let mut tags = r.tags.to_vec();
        tags.sort();
        for tag in tags {
            self.tag(candidate, annotator, tag);
        }
        for &(line, token) in r.tokens {
            self.token(candidate, annotator, line, token);
        }
        let blank =
            r.ant == "unset" && r.anaph == "unset" && r.tags.is_empty() && r.remarks.is_empty() && r.tokens.is_empty();
        if !blank {
            self.annotation(candidate, annotator, r.ant, r.anaph, r.remarks, r.status);
        }
        self.exec("COMMIT");
    }
}

/// The original tool's batch import (`Database.java@0d7dd86a:696-742`), run on the batch with
/// the master attached: it deletes the master rows whose ids are the *batch's* ids of rows with
/// a master row of the same candidate and annotator, then inserts every batch row anew. Imported
/// a second time after the annotator kept working, the master ends up with two rows of a record,
/// and unrelated rows whose ids happened to match are gone.
pub fn import_batch(master: &Path, batch: &Path) {
    let conn = Connection::open(batch).unwrap();
    conn.execute("ATTACH DATABASE ?1 AS master", [master.to_str().unwrap()]).unwrap();
    conn.execute_batch(
        "BEGIN;
         DELETE FROM master.annotations WHERE id IN (SELECT a.id FROM main.annotations AS a, master.annotations AS b
             WHERE a.candidate = b.candidate AND a.annotator_id = b.annotator_id);
         DELETE FROM master.token_annotations WHERE id IN (SELECT a.id FROM main.token_annotations AS a, master.token_annotations AS b
             WHERE a.candidate = b.candidate AND a.annotator_id = b.annotator_id);
         DELETE FROM master.tag_annotations WHERE id IN (SELECT a.id FROM main.tag_annotations AS a, master.tag_annotations AS b
             WHERE a.candidate = b.candidate AND a.annotator_id = b.annotator_id);
         INSERT INTO master.annotations (candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status)
             SELECT candidate, annotator_id, ant_annotation, anaph_annotation, remarks, conflict_status FROM main.annotations;
         INSERT INTO master.token_annotations (candidate, line, token, annotation, annotator_id)
             SELECT candidate, line, token, annotation, annotator_id FROM main.token_annotations;
         INSERT INTO master.tag_annotations (candidate, annotator_id, tag) SELECT candidate, annotator_id, tag FROM main.tag_annotations;
         COMMIT;
         DETACH DATABASE master;",
    )
    .unwrap();
}

/// Files shaped by the original tool's data preparation, upgrade script and bugs, as found in
/// the wild (docs/legacy.md, *Files as found in the wild*): each function changes a demo master
/// the way the original's own scripts and code leave one.
pub mod wild {
    use super::demo::{MT_A, MT_B, SOURCE};
    use super::*;

    /// One source corpus per MT system (`filter-final.sh:41` "Corpus 3/4 is a duplicate of
    /// 1/2"): copies 5 and 6 of the source for mt-a and mt-b, each candidate and antecedent row
    /// naming its own; `names` gives the copies' names.
    pub fn source_per_system(db: &OldDb, names: [&str; 2]) {
        for (copy, name, system) in [(5, names[0], MT_A), (6, names[1], MT_B)] {
            db.corpus(copy, name, 0);
            db.exec(&format!(
                "INSERT INTO sentences (corpus, line, sentence) SELECT {copy}, line, sentence FROM sentences WHERE corpus = {SOURCE} ORDER BY line;
                 INSERT INTO documents (corpus, start, \"end\") SELECT {copy}, start, \"end\" FROM documents WHERE corpus = {SOURCE} ORDER BY id;
                 UPDATE pro_candidates SET srccorpus = {copy} WHERE tgtcorpus = {system};
                 UPDATE pro_antecedents SET srccorpus = {copy} WHERE tgtcorpus = {system};"
            ));
        }
    }

    /// The same system loaded a second time (source copy 7, translation 8), then removed as
    /// `filter-final.sh:44` removes one: by deleting its candidates only, leaving its corpora,
    /// sentences, documents, antecedents and aligned tokens behind.
    pub fn removed_system(db: &OldDb) {
        db.corpus(7, "source.en", 0);
        db.corpus(8, "mt-a.fr", 1);
        db.exec(&format!(
            "INSERT INTO sentences (corpus, line, sentence) SELECT 7, line, sentence FROM sentences WHERE corpus = {SOURCE} ORDER BY line;
             INSERT INTO sentences (corpus, line, sentence) SELECT 8, line, sentence FROM sentences WHERE corpus = {MT_A} ORDER BY line;
             INSERT INTO documents (corpus, start, \"end\") SELECT 7, start, \"end\" FROM documents WHERE corpus = {SOURCE} ORDER BY id;
             INSERT INTO documents (corpus, start, \"end\") SELECT 8, start, \"end\" FROM documents WHERE corpus = {MT_A} ORDER BY id;
             INSERT INTO pro_candidates (srccorpus, tgtcorpus, example_no, line, srcpro, srcpos, srcproindex, category_no, sequence_no)
                 SELECT 7, 8, example_no, line, srcpro, srcpos, srcproindex, category_no, sequence_no FROM pro_candidates WHERE tgtcorpus = {MT_A} ORDER BY id;
             INSERT INTO pro_antecedents (srccorpus, tgtcorpus, example_no, ant_no, line, srcstartpos, srcendpos, srchead, srcheadpos, srcheadindex)
                 SELECT 7, 8, example_no, ant_no, line, srcstartpos, srcendpos, srchead, srcheadpos, srcheadindex FROM pro_antecedents WHERE tgtcorpus = {MT_A} ORDER BY id;
             INSERT INTO translations (tgtcorpus, example_no, ant_no, line, tgtpos)
                 SELECT 8, example_no, ant_no, line, tgtpos FROM translations WHERE tgtcorpus = {MT_A} ORDER BY id;
             DELETE FROM pro_candidates WHERE srccorpus IN (7);"
        ));
    }

    /// The meta data `AddToDatabase.sql` (lines 20–21) writes: file type `MasterDB`, master id
    /// `DiscoMT2015`; `with_version: false` also leaves out the version it never writes.
    pub fn add_to_database_meta(db: &OldDb, with_version: bool) {
        db.exec(
            "UPDATE meta_data SET tag_value = 'MasterDB' WHERE tag = 'file_type';
             UPDATE meta_data SET tag_value = 'DiscoMT2015' WHERE tag = 'master_id';",
        );
        if !with_version {
            db.exec("DELETE FROM meta_data WHERE tag = 'file_version'");
        }
    }

    /// An `annotations` table as the single-user tool left it — no annotator, no conflict status
    /// — with one row (`candidate`: ok / ok, `remarks`); `upgraded` then runs what
    /// `AddToDatabase.sql@8bbd946b` (lines 9–10) adds, which leaves that row's annotator NULL.
    pub fn single_user_annotation(db: &OldDb, candidate: i64, remarks: &str, upgraded: bool) {
        db.exec(&format!(
            "DROP TABLE annotations;
             CREATE TABLE annotations (id integer primary key, candidate integer, ant_annotation text,
                 anaph_annotation text, remarks text);
             INSERT INTO annotations (candidate, ant_annotation, anaph_annotation, remarks) VALUES ({candidate}, 'ok', 'ok', '{remarks}');"
        ));
        if upgraded {
            db.exec(
                "ALTER TABLE annotations ADD COLUMN annotator_id integer;
                 ALTER TABLE annotations ADD COLUMN conflict_status text;",
            );
        }
    }

    /// `annotation_tasks` as the first `AddToDatabase.sql` (@65c87449, lines 24–28) made it:
    /// no `task_no`, so its rows name no task (and no `task_definition` table yet).
    pub fn tasks_without_task_no(db: &OldDb) {
        db.exec(
            "DROP TABLE annotation_tasks;
             DROP TABLE task_definition;
             CREATE TABLE annotation_tasks (id integer primary key autoincrement, example integer, annotator_id int);
             INSERT INTO annotation_tasks (example, annotator_id) VALUES (2, 1);",
        );
    }
}

/// The demo suite: a source, a reference and two MT systems over 8 sentences in 2 documents,
/// with 7 examples (4 anaphoric, one pleonastic, one deictic "you", one event "it").
pub mod demo {
    use super::*;

    pub const SOURCE: i64 = 1;
    pub const REFERENCE: i64 = 2;
    pub const MT_A: i64 = 3;
    pub const MT_B: i64 = 4;
    pub const ANNA: i64 = 1;
    pub const BEN: i64 = 2;
    pub const RESEARCHER: i64 = -1;

    pub const SOURCE_TEXT: [&str; 8] = [
        "The museum opened a new wing .",
        "It was designed by a young architect .",
        "It is raining , so the guides stay inside .",
        "The guides say that they love the new rooms .",
        "Anna , have you seen the paintings ?",
        "They arrived yesterday from Paris .",
        "The boy dropped his ticket and could not find it .",
        "He was told that it happens all the time .",
    ];
    pub const REFERENCE_TEXT: [&str; 8] = [
        "Le musée a ouvert une nouvelle aile .",
        "Elle a été conçue par un jeune architecte .",
        "Il pleut , alors les guides restent à l' intérieur .",
        "Les guides disent qu' ils adorent les nouvelles salles .",
        "Anna , as -tu vu les tableaux ?",
        "Ils sont arrivés hier de Paris .",
        "Le garçon a laissé tomber son billet et ne l' a pas retrouvé .",
        "On lui a dit que cela arrive tout le temps .",
    ];
    pub const MT_A_TEXT: [&str; 8] = [
        "Le musée a ouvert une nouvelle aile .",
        "Il a été conçu par un jeune architecte .",
        "Il pleut , donc les guides restent à l' intérieur .",
        "Les guides disent qu' ils aiment les nouvelles pièces .",
        "Anna , avez -vous vu les peintures ?",
        "Elles sont arrivées hier de Paris .",
        "Le garçon a laissé tomber son billet et ne pouvait pas le trouver .",
        "On lui a dit qu' il arrive tout le temps .",
    ];
    pub const MT_B_TEXT: [&str; 8] = [
        "Le musée a ouvert une aile nouvelle .",
        "Elle a été dessinée par un jeune architecte .",
        "Il pleut , alors les guides restent dedans .",
        "Les guides disent qu' elles aiment les salles neuves .",
        "Anna , tu as vu les tableaux ?",
        "Ils sont arrivés hier de Paris .",
        "Le garçon a perdu son billet et ne pouvait pas le trouver .",
        "On lui a dit que cela arrive tout le temps .",
    ];

    /// (example, line, pronoun, position, category id, antecedent (line, span, head word, head))
    pub type ExampleDef = (i64, i64, &'static str, i64, i64, Option<(i64, (i64, i64), &'static str, i64)>);
    pub const EXAMPLES: [ExampleDef; 7] = [
        (1, 1, "It", 0, 1, Some((0, (3, 5), "wing", 5))),
        (2, 2, "It", 0, 10, None),
        (3, 3, "they", 4, 6, Some((3, (0, 1), "guides", 1))),
        (4, 4, "you", 3, 11, None),
        (5, 5, "They", 0, 5, Some((4, (5, 6), "paintings", 6))),
        (6, 6, "it", 9, 4, Some((6, (3, 4), "ticket", 4))),
        (7, 7, "it", 4, 9, None),
    ];

    /// Aligned target tokens per (example, corpus): pronoun positions and antecedent-head
    /// positions (on the example's and the antecedent's lines).
    pub fn aligned(example: i64, corpus: i64) -> (Vec<i64>, Vec<i64>) {
        let table: [[(&[i64], &[i64]); 3]; 7] = [
            [(&[0], &[6]), (&[0], &[6]), (&[0], &[5])],
            [(&[0], &[]), (&[0], &[]), (&[], &[])], // mt-b: the pronoun was left unaligned
            [(&[4], &[1]), (&[4], &[1]), (&[4], &[1])],
            [(&[3], &[]), (&[3], &[]), (&[2], &[])],
            [(&[0], &[6]), (&[0], &[6]), (&[0], &[6])],
            [(&[9], &[6]), (&[11], &[6]), (&[10], &[5])],
            [(&[5], &[]), (&[5], &[]), (&[5], &[])],
        ];
        let (p, a) = table[example as usize - 1][(corpus - REFERENCE) as usize];
        (p.to_vec(), a.to_vec())
    }

    /// The pro_candidates id of an example in a translation corpus.
    pub fn candidate(example: i64, corpus: i64) -> i64 {
        (example - 1) * 3 + (corpus - REFERENCE) + 1
    }

    /// Writes the suite tables of an old master (no annotations, no tasks).
    pub fn suite(db: &OldDb, master_id: &str) {
        db.meta("file_version", "PROTEST 1.1");
        db.meta("file_type", "master");
        db.meta("master_id", master_id);
        db.meta(
            "master_description",
            "Demo of the original PROTEST format: museum texts, reference and two MT systems",
        );
        db.corpus(SOURCE, "source.en", 0);
        db.corpus(REFERENCE, "ref.fr", 1);
        db.corpus(MT_A, "mt-a.fr", 1);
        db.corpus(MT_B, "mt-b.fr", 1);
        for (id, text) in [(SOURCE, SOURCE_TEXT), (REFERENCE, REFERENCE_TEXT), (MT_A, MT_A_TEXT), (MT_B, MT_B_TEXT)] {
            db.sentences(id, &text);
            db.document(id, 0, 3);
            db.document(id, 4, 7);
        }
        let categories = [
            (1, "anaphoric_inter_subject_it", true),
            (2, "anaphoric_inter_non-subject_it", true),
            (3, "anaphoric_intra_subject_it", true),
            (4, "anaphoric_intra_non-subject_it", true),
            (5, "anaphoric_inter_they", true),
            (6, "anaphoric_intra_they", true),
            (7, "anaphoric_singular_they", true),
            (8, "anaphoric_group_it-they", true),
            (9, "event_it", false),
            (10, "pleonastic_it", false),
            (11, "addressee_deictic_singular_you", false),
            (12, "addressee_deictic_plural_you", false),
            (13, "addressee_generic_you", false),
        ];
        for (id, name, anaphoric) in categories {
            db.category(id, name, anaphoric);
        }
        for (example, line, pro, pos, category, antecedent) in EXAMPLES {
            for corpus in [REFERENCE, MT_A, MT_B] {
                db.candidate(candidate(example, corpus), SOURCE, corpus, example, line, pro, pos, category);
                let (pronoun, head) = aligned(example, corpus);
                for p in pronoun {
                    db.translation(corpus, example, None, line, p);
                }
                if let Some((ant_line, span, word, head_pos)) = antecedent {
                    db.antecedent(SOURCE, corpus, example, 1, ant_line, span, (word, head_pos));
                    for h in head {
                        db.translation(corpus, example, Some(1), ant_line, h);
                    }
                }
            }
        }
        db.annotator(RESEARCHER, "MASTER");
        db.annotator(ANNA, "Anna");
        db.annotator(BEN, "Ben");
    }

    /// Task set "pilot": an IAA sample of two MT candidates, a part each for Anna and Ben, and
    /// two candidates the planner left over (task_no −1).
    pub fn tasks(db: &OldDb) {
        db.task(1, "pilot", "IAA");
        db.task(2, "pilot", "1");
        db.task(3, "pilot", "2");
        for c in [candidate(1, MT_A), candidate(4, MT_B)] {
            db.place(1, c);
        }
        for c in [candidate(2, MT_A), candidate(3, MT_B), candidate(5, MT_A), candidate(6, MT_B), candidate(7, MT_A)] {
            db.place(2, c);
        }
        for c in [candidate(2, MT_B), candidate(3, MT_A), candidate(5, MT_B), candidate(6, MT_A), candidate(7, MT_B)] {
            db.place(3, c);
        }
        for c in [candidate(1, MT_B), candidate(4, MT_A)] {
            db.place(-1, c);
        }
    }

    /// The researcher's own annotations in the master: reference translations judged correct.
    pub fn researcher_work(db: &OldDb) {
        let c = candidate(1, REFERENCE);
        db.annotation(c, RESEARCHER, "ok", "ok", "", "ana_ok ant_ok");
        db.token(c, RESEARCHER, 1, 0);
        db.token(c, RESEARCHER, 0, 6);
        let c = candidate(1, MT_A);
        db.annotation(c, RESEARCHER, "ok", "bad", "Il does not agree with aile", "ana_ok ant_ok");
        db.token(c, RESEARCHER, 0, 6);
    }

    /// The whole demo master: the suite, the task set and the researcher's annotations.
    pub fn master(path: &Path) -> OldDb {
        let db = OldDb::create(path, SCHEMA_1_1);
        suite(&db, "demo-museum-2016");
        tasks(&db);
        researcher_work(&db);
        db
    }

    /// Anna's annotations, written into her batch.
    pub fn anna_work(db: &OldDb) {
        let a = ANNA;
        // IAA: Il for une aile: antecedent right, pronoun wrong.
        let c = candidate(1, MT_A);
        db.annotation(c, a, "ok", "bad", "Il should be Elle (aile is feminine)", "ana_ok ant_ok");
        db.token(c, a, 0, 6);
        // IAA: tu, informal, correct.
        let c = candidate(4, MT_B);
        db.annotation(c, a, "unset", "ok", "", "ana_ok ant_ok");
        db.token(c, a, 4, 2);
        db.tag(c, a, "politeness_tu");
        // Pleonastic il: correct.
        let c = candidate(2, MT_A);
        db.annotation(c, a, "unset", "ok", "", "ana_ok ant_ok");
        db.token(c, a, 2, 0);
        // elles for les guides: wrong gender.
        let c = candidate(3, MT_B);
        db.annotation(c, a, "ok", "bad", "", "ana_ok ant_ok");
        db.token(c, a, 3, 1);
        // Elles for les peintures: correct, but no token selected (kept with the conflict).
        let c = candidate(5, MT_A);
        db.annotation(c, a, "ok", "ok", "peintures is fine too", "ana_notokens ant_notokens");
        // Bad translation: not judged.
        let c = candidate(6, MT_B);
        db.annotation(c, a, "unset", "unset", "the clause is garbled", "ana_ok ant_ok");
        db.tag(c, a, "bad_translation");
        // Event it as il: wrong.
        let c = candidate(7, MT_A);
        db.annotation(c, a, "unset", "bad", "", "ana_ok ant_ok");
    }

    /// Ben's annotations, written into his batch.
    pub fn ben_work(db: &OldDb) {
        let b = BEN;
        let c = candidate(1, MT_A);
        db.annotation(c, b, "ok", "bad", "", "ana_ok ant_ok");
        db.token(c, b, 0, 6);
        let c = candidate(4, MT_B);
        db.annotation(c, b, "unset", "ok", "", "ana_ok ant_ok");
        db.token(c, b, 4, 2);
        db.tag(c, b, "politeness_tu");
        db.tag(c, b, "desc_vs_presc");
        // Unaligned pleonastic: leaving it untranslated is wrong.
        let c = candidate(2, MT_B);
        db.annotation(c, b, "unset", "bad", "Il is there but not highlighted", "ana_incorrect_alignment_annot ant_ok");
        db.tag(c, b, "incorrect_word_alignment");
        let c = candidate(3, MT_A);
        db.annotation(c, b, "ok", "ok", "", "ana_ok ant_ok");
        db.token(c, b, 3, 1);
        db.token(c, b, 3, 4);
        // Antecedent unsure (an older habit), pronoun right.
        let c = candidate(5, MT_B);
        db.annotation(c, b, "unsure", "ok", "", "ana_ok ant_ok");
        db.token(c, b, 5, 0);
        let c = candidate(6, MT_A);
        db.annotation(c, b, "ok", "ok", "", "ana_ok ant_ok");
        db.token(c, b, 6, 6);
        db.token(c, b, 6, 11);
        let c = candidate(7, MT_B);
        db.annotation(c, b, "unset", "ok", "", "ana_ok ant_ok");
        db.token(c, b, 7, 5);
    }

    /// Writes the demo master and Anna's and Ben's annotated batches into `dir`; returns the paths.
    pub fn write(dir: &Path) -> [std::path::PathBuf; 3] {
        let master = dir.join("museum.master.db");
        let anna = dir.join("museum.batch-anna.db");
        let ben = dir.join("museum.batch-ben.db");
        drop(self::master(&master));
        anna_work(&export(&master, &anna, ANNA, &[1, 2], "2016-05-02 09:30:00", Export::OwnRows));
        ben_work(&export(&master, &ben, BEN, &[1, 3], "2016-05-02 09:31:00", Export::OwnRows));
        [master, anna, ben]
    }
}
