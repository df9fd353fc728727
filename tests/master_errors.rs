//! Every kind of corrupt master gets a message naming the file, the place and the problem, and
//! loading never panics.

use protest::store::master_file;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const TINY: &str = include_str!("fixtures/tiny/tiny.master.json");

fn tiny() -> Value {
    serde_json::from_str(TINY).unwrap()
}

/// Writes `content` to a temporary `broken.json`, loads it, and returns the error message.
fn load_error(content: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.json");
    std::fs::write(&path, content).unwrap();
    let err = master_file::load(&path).expect_err("the corrupt master must be refused");
    let message = err.to_string();
    assert!(message.starts_with(&path.display().to_string()), "the message names the file: {message}");
    message
}

fn load_value_error(v: &Value) -> String {
    load_error(serde_json::to_string(v).unwrap().as_bytes())
}

#[test]
fn the_fixture_itself_is_valid() {
    let m = master_file::from_bytes(Path::new("tiny.master.json"), TINY.as_bytes()).unwrap();
    assert_eq!(m.candidates.len(), 6);
}

#[test]
fn truncated_json() {
    let cut = &TINY.as_bytes()[..TINY.len() / 2];
    let e = load_error(cut);
    assert!(e.contains("the file ends too early (truncated?)"), "{e}");
    assert!(e.contains("(line "), "names the line: {e}");
}

#[test]
fn wrong_version() {
    let mut v = tiny();
    v["version"] = json!(7);
    let e = load_value_error(&v);
    assert!(e.ends_with("version: format version 7 is not supported (this build reads versions 1 and 2); it was written by a newer PROTEST, update this one"), "{e}");
    v["version"] = json!("one");
    assert!(load_value_error(&v).ends_with("version: the format version is missing or not a whole number"));
}

#[test]
fn wrong_kind_of_file() {
    let mut v = tiny();
    v["format"] = json!("protest-batch");
    assert!(load_value_error(&v).ends_with("format: this is a batch file, not a master file"));
    assert!(load_error(b"SQLite format 3\0rest").contains("SQLite database"));
    assert!(load_error(b"hello world").ends_with("not a PROTEST master file (not JSON)"));
    assert!(load_error(b"[1, 2]").ends_with("not a PROTEST master file (not a JSON object)"));
    assert!(load_error(b"").contains("not a PROTEST master file"));
    assert!(load_error(b"{\"a\": 1}").contains("its \"format\" field is not \"protest-master\""));
}

#[test]
fn out_of_range_token() {
    let mut v = tiny();
    v["examples"][0]["token"] = json!(40);
    let e = load_value_error(&v);
    assert!(
        e.contains("examples[0].token: example 1: pronoun at sentence 1 token 40 is outside the source text"),
        "{e}"
    );
    let mut v = tiny();
    v["candidates"][1]["pronoun"] = json!([[1, 9]]);
    let e = load_value_error(&v);
    assert!(e.ends_with("candidates[1].pronoun: candidate 2: aligned token sentence 1 token 9 is not in sentence 1 of corpus 'reference'") || e.contains("candidates[1].pronoun: candidate 2: aligned token sentence 1 token 9 is not in sentence 1 of corpus 'mt'"), "{e}");
}

#[test]
fn unknown_category() {
    let mut v = tiny();
    v["examples"][1]["category"] = json!("pleonastic_they");
    let e = load_value_error(&v);
    assert!(e.ends_with("examples[1].category: example 2: unknown category 'pleonastic_they'"), "{e}");
}

#[test]
fn unequal_sentence_counts() {
    let mut v = tiny();
    v["corpora"][2]["sentences"].as_array_mut().unwrap().pop();
    let e = load_value_error(&v);
    assert!(e.contains("corpora[2].sentences: corpus 'mt' has 3 sentences but corpus 'source' has 4; all corpora must have the same number"), "{e}");
}

#[test]
fn bad_alignment_pair() {
    let mut v = tiny();
    v["corpora"][1]["alignment"][2] = json!("0-0 1_1");
    let e = load_value_error(&v);
    assert!(e.contains("corpora[1].alignment"), "{e}");
    assert!(e.contains("sentence 3: malformed pair '1_1'"), "{e}");
    let mut v = tiny();
    v["corpora"][1]["alignment"][2] = json!("0-0 1-7");
    let e = load_value_error(&v);
    assert!(e.contains("corpora[1].alignment[2]: alignment pair 1-7 of 'reference' is outside sentence 2 (4 source tokens, 3 target tokens)"), "{e}");
}

#[test]
fn records_must_fit_their_candidates() {
    let mut v = tiny();
    v["annotators"] = json!([{"id": 1, "name": "Anna"}]);
    let record = |c: u32| {
        json!({"candidate": c, "annotator": 1, "pronoun": "yes", "selected": {"pronoun": [[2, 1]]},
        "created": "2026-11-25T12:00:00Z", "modified": "2026-11-25T12:00:00Z"})
    };
    v["records"] = json!([record(3)]);
    let e = load_value_error(&v);
    assert!(e.contains("records[0].selected: record of candidate 3 by annotator 1: selected pronoun token sentence 2 token 1 is not among the tokens aligned to the pronoun"), "{e}");
    v["records"] = json!([record(99)]);
    assert!(
        load_value_error(&v)
            .contains("records[0].candidate: record of candidate 99 by annotator 1: the candidate does not exist")
    );
    v["records"] = json!([record(4), record(4)]);
    assert!(load_value_error(&v).contains("two records for candidate 4 by annotator 1"));
}

#[test]
fn several_problems_are_counted() {
    let mut v = tiny();
    v["examples"][0]["token"] = json!(40);
    v["examples"][1]["category"] = json!("nope");
    let e = load_value_error(&v);
    assert!(e.contains("examples[0].token: example 1:") && e.ends_with(" further problems)"), "{e}");
}

#[test]
fn deep_or_hostile_json_is_refused_without_panicking() {
    let deep = format!(
        "{{\"format\":\"protest-master\",\"version\":1,\"id\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(load_error(deep.as_bytes()).contains("broken.json"));
    let missing: PathBuf = tempfile::tempdir().unwrap().path().join("nope.json");
    let e = master_file::load(&missing).unwrap_err().to_string();
    assert!(e.contains("nope.json") && e.contains("No such file"), "{e}");
}

#[test]
fn version_1_is_read_and_saved_as_version_2() {
    let v1 = TINY.replacen("\"version\":2", "\"version\":1", 1);
    assert_ne!(v1, TINY);
    let m = master_file::from_bytes(Path::new("old.json"), v1.as_bytes()).unwrap();
    assert_eq!(m, master_file::from_bytes(Path::new("tiny"), TINY.as_bytes()).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.json");
    master_file::save(&m, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY, "written as version 2, nothing else changed");
}

#[test]
fn save_and_load_round_trip_is_identical() {
    let m = master_file::from_bytes(Path::new("tiny"), TINY.as_bytes()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("copy.json");
    master_file::save(&m, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    assert_eq!(master_file::load(&path).unwrap(), m);
}
