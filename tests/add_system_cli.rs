//! `protest add-system` as a researcher runs it on the tiny fixture.

use protest::model::{CorpusRole, Master, TokenRef};
use protest::store::master_file;

use crate::common::{copy_of_folder, project, protest};
use std::fs;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    project("tests/fixtures/tiny")
}

/// A copy of the tiny fixture plus an untokenised French output of a new system.
fn workspace() -> tempfile::TempDir {
    let dir = copy_of_folder("tests/fixtures/tiny");
    fs::write(dir.path().join("new.fr"), "J'ai un vélo.\nElle est rouge.\nIl pleut.\nBienvenue !\n").unwrap();
    dir
}

const MASTER: &str = "tiny.master.json";

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

#[test]
fn adds_an_untokenised_output_with_the_built_in_aligner() {
    let dir = workspace();
    let before_files = files(dir.path());
    let out = protest(dir.path(), &["add-system", MASTER, "--name", "newmt", "new.fr"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("added system 'newmt' to tiny.master.json as corpus 3"), "{stdout}");
    assert!(stdout.contains("3 candidates (ids 7–9)") && stdout.contains("built-in aligner"), "{stdout}");
    assert!(stdout.contains("pronouns the aligner left unaligned:"), "{stdout}");
    assert_eq!(files(dir.path()), before_files, "no journal or lock is left behind");

    let check = protest(dir.path(), &["check", MASTER]);
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(
        String::from_utf8(check.stdout)
            .unwrap()
            .contains("newmt      MT system  4 sentences, word-aligned, 3 candidates")
    );

    let master = master_file::load(&dir.path().join(MASTER)).unwrap();
    let original = master_file::load(&fixture().join(MASTER)).unwrap();
    assert_eq!(master.revision, original.revision + 1);
    assert_eq!(master.corpora[..3], original.corpora[..]);
    assert_eq!(master.candidates[..6], original.candidates[..]);
    let corpus = master.corpora.last().unwrap();
    assert_eq!(corpus.role, CorpusRole::System);
    assert_eq!(corpus.sentences[0], "J' ai un vélo .");
    // Example 1: "It is red ." with antecedent head "bicycle" in "I have a bicycle ."
    let words = |at: &[TokenRef]| corpus.words(at);
    let by_example: Vec<_> = master.candidates[6..]
        .iter()
        .map(|c| (c.example.0, words(&c.pronoun), c.antecedents.iter().map(|a| words(a)).collect::<Vec<_>>()))
        .collect();
    assert_eq!(
        by_example,
        vec![(1, "Elle".into(), vec!["vélo".to_string()]), (2, "Il".into(), vec![]), (3, "Bienvenue".into(), vec![])]
    );
}

#[test]
fn accepts_external_alignments_in_either_order() {
    let dir = workspace();
    fs::write(dir.path().join("tok.fr"), "J' ai un vélo .\nElle est rouge .\nIl pleut .\nBienvenue !\n").unwrap();
    fs::write(dir.path().join("fwd.alig"), "0-0 1-1 2-2 3-3 4-4\n0-0 1-1 2-2 3-3\n0-0 1-1 2-1 3-2\n0-0\n").unwrap();
    fs::write(dir.path().join("rev.alig"), "0-0 1-1 2-2 3-3 4-4\n0-0 1-1 2-2 3-3\n0-0 1-1 1-2 2-3\n0-0\n").unwrap();
    let out =
        protest(dir.path(), &["add-system", MASTER, "--name", "a", "tok.fr", "--tokenised", "--alignment", "fwd.alig"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap().contains("alignment read from the given file"));
    let args = ["add-system", MASTER, "--name", "b", "new.fr", "--alignment", "rev.alig", "--reversed"];
    let out = protest(dir.path(), &args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let master = master_file::load(&dir.path().join(MASTER)).unwrap();
    let (a, b) = (&master.corpora[3], &master.corpora[4]);
    assert_eq!(a.alignment, b.alignment, "the reversed file says the same as the forward one");
    assert_eq!(a.sentences, b.sentences, "tokenising gave the tokenised text");
}

/// Runs add-system expecting a refusal; checks the master is byte-for-byte unchanged and no
/// file was left behind; returns the message.
fn refusal(dir: &Path, args: &[&str]) -> String {
    let before = fs::read(dir.join(MASTER)).unwrap();
    let before_files = files(dir);
    let mut all = vec!["add-system", MASTER];
    all.extend_from_slice(args);
    let out = protest(dir, &all);
    assert_eq!(out.status.code(), Some(1), "{args:?} should be refused");
    assert_eq!(fs::read(dir.join(MASTER)).unwrap(), before, "{args:?} changed the master");
    assert_eq!(files(dir), before_files, "{args:?} left files behind");
    String::from_utf8(out.stderr).unwrap().trim_end().to_string()
}

#[test]
fn refusals_name_the_problem_and_leave_the_master_unchanged() {
    let dir = workspace();
    let d = dir.path();
    fs::write(d.join("parts.fr"), "J'ai un vélo.\n\nElle est rouge.\n\nIl pleut. Bienvenue !\n").unwrap();
    fs::write(d.join("binary.fr"), b"J'ai\0un\nv\xe9lo\n").unwrap();
    fs::write(d.join("latin1.fr"), b"J'ai un v\xe9lo.\nElle est rouge.\nIl pleut.\nBienvenue !\n").unwrap();
    fs::write(d.join("spaces.fr"), "J' ai un vélo .\nElle  est rouge .\nIl pleut .\nBienvenue !\n").unwrap();
    fs::write(d.join("far.alig"), "0-0\n0-0 1-7\n0-0\n0-0\n").unwrap();
    fs::write(d.join("few.alig"), "0-0\n0-0\n").unwrap();
    fs::write(d.join("extra.en"), "One.\nTwo.\n").unwrap();
    fs::write(d.join("extra.fr"), "Un.\n").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--name", "x", "parts.fr"],
            "error: parts.fr: has 5 lines in 3 parts separated by empty lines: neither one line per source sentence (the \
             master has 4 sentences) nor one part per document (the master has 2 documents); document 2 (sentences 3–4, \
             “It is raining .”) does not fit line 3 (“Elle est rouge.”): its words fit document 1 better. Give the \
             documents in the master's order",
        ),
        (
            &["--name", "x", "new.fr", "--one-document-per-line"],
            "error: new.fr: has 4 lines but the master has 2 documents (one per line was asked for); document 2 (sentences \
             3–4, “It is raining .”) does not fit line 2 (“Elle est rouge.”): its words fit document 1 better. Give \
             one line per document",
        ),
        (
            &["--name", "mt", "new.fr"],
            "error: new.fr: the name 'mt' is taken (the master has source, reference, mt); choose another",
        ),
        (&["--name", "x", "binary.fr"], "error: binary.fr: this is a binary file, not text"),
        (&["--name", "x", "latin1.fr"], "error: latin1.fr: line 1: not valid UTF-8 text"),
        (
            &["--name", "x", "spaces.fr", "--tokenised"],
            "error: spaces.fr: line 2: the sentence has two spaces in a row (an empty token)",
        ),
        (
            &["--name", "x", "new.fr", "--alignment", "far.alig"],
            "error: far.alig: line 2: pair 1-7: target index 7 is out of range (new.fr has 4 tokens in this sentence)\n  \
             far.alig: pairs outside their sentences: 1; to leave them out and go on, run again with --drop-bad-links",
        ),
        (
            &["--name", "x", "new.fr", "--alignment", "far.alig", "--reversed"],
            "error: far.alig: line 2: pair 1-7: source index 7 is out of range (the source sentence has 4 tokens)\n  \
             far.alig: pairs outside their sentences: 1; to leave them out and go on, run again with --drop-bad-links",
        ),
        (
            &["--name", "x", "new.fr", "--alignment", "few.alig"],
            "error: few.alig: has 2 lines but the corpora have 4 sentences; the alignment needs one line per sentence",
        ),
        (
            &["--name", "x", "new.fr", "--extra-parallel", "extra.en", "extra.fr"],
            "error: extra.fr: has 1 lines but extra.en has 2; parallel text needs one line per sentence on each side",
        ),
    ];
    for (args, expected) in cases {
        let message = refusal(d, args);
        assert!(message.starts_with(expected), "{args:?}: {message}");
    }
    let missing = refusal(d, &["--name", "x", "missing.fr"]);
    assert!(missing.starts_with("error: missing.fr: No such file or directory"), "{missing}");
}

#[test]
fn refuses_while_the_master_is_open_elsewhere() {
    let dir = workspace();
    let window = protest::store::Holder::Window;
    let (store, _) = protest::store::Store::<Master>::open_as(&dir.path().join(MASTER), &window).unwrap();
    let before = fs::read(dir.path().join(MASTER)).unwrap();
    let out = protest(dir.path(), &["add-system", MASTER, "--name", "x", "new.fr"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("is open in a PROTEST window (process ") && err.contains("close it there first"), "{err}");
    assert_eq!(fs::read(dir.path().join(MASTER)).unwrap(), before);
    store.close().unwrap();
}

#[test]
fn adds_a_folder_with_one_file_per_document() {
    let dir = workspace();
    let docs = dir.path().join("llm");
    fs::create_dir(&docs).unwrap();
    // Paragraphs between empty lines; the files in name order, numbers as numbers.
    fs::write(docs.join("doc1.txt"), "J'ai un vélo.\n\nElle est rouge.\n").unwrap();
    fs::write(docs.join("doc2.txt"), "Il pleut. Bienvenue !\n").unwrap();
    let out = protest(dir.path(), &["add-system", MASTER, "llm", "--name", "llm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("  layout: one file per document (2 files)\n"), "{stdout}");
    assert!(stdout.contains("  segmented: 4 sentences — 2 kept as given, 2 split\n"), "{stdout}");
    let master = master_file::load(&dir.path().join(MASTER)).unwrap();
    let corpus = master.corpora.last().unwrap();
    assert_eq!(corpus.sentences, ["J' ai un vélo .", "Elle est rouge .", "Il pleut .", "Bienvenue !"]);
}

/// What cannot be a translation of the master's source is refused before anything is segmented.
#[test]
fn refuses_outputs_that_cannot_be_true() {
    let dir = workspace();
    let d = dir.path();
    let valid = "J'ai un vélo.\nElle est rouge.\nIl pleut.\nBienvenue !\n";
    fs::write(d.join("empty.fr"), "").unwrap();
    fs::write(d.join("blank.fr"), "\n\n \n\n").unwrap();
    fs::write(d.join("trailing.fr"), format!("{valid}{}", "\n".repeat(10_000))).unwrap();
    fs::write(d.join("million.fr"), format!("{valid}{}", "\n".repeat(1_000_000))).unwrap();
    fs::write(d.join("long.fr"), "mot ".repeat(40_000)).unwrap();
    let folder = d.join("three");
    fs::create_dir(&folder).unwrap();
    for k in 1..=3 {
        fs::write(folder.join(format!("{k}.txt")), "Il pleut.\n").unwrap();
    }
    let cases: &[(&[&str], &str)] = &[
        (
            &["--name", "x", "empty.fr"],
            "error: empty.fr: is empty: no text to add as a translation. To add a system that deliberately translates \
             nothing, ask for an empty system (--allow-empty)",
        ),
        (&["--name", "x", "blank.fr"], "error: blank.fr: has 4 lines, all empty: no text to add as a translation."),
        (
            &["--name", "x", "trailing.fr"],
            "error: trailing.fr: has 10004 lines for a master of 4 sentences: more than 20 lines per sentence cannot \
             be a translation of it; 10000 lines at the end are empty, from line 5 on",
        ),
        (
            &["--name", "x", "million.fr"],
            "error: million.fr: is more than 66 kB — over 20 times the size of the master's source, more than a \
             translation of it can be. Is it the right file, for this master?",
        ),
        (&["--name", "x", "long.fr"], "error: long.fr: is more than 66 kB — over 20 times the size"),
        (
            &["--name", "x", "three"],
            "error: three: has 3 files but the master has 2 documents (one file per document); document 1",
        ),
        (
            &["--name", "x", "three", "--one-document-per-line"],
            "error: three: is a folder, with one file per document: one document per line is for a single file",
        ),
    ];
    for (args, expected) in cases {
        let message = refusal(d, args);
        assert!(message.starts_with(expected), "{args:?}: {message}");
    }
    // A system that deliberately translates nothing.
    let out = protest(d, &["add-system", MASTER, "blank.fr", "--name", "nothing", "--allow-empty"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let master = master_file::load(&d.join(MASTER)).unwrap();
    assert!(master.corpora.last().unwrap().sentences.iter().all(|s| s.is_empty()));
}
