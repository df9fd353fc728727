//! `protest autoprf`: the original scorer's output on the news corpus and on hand-made inputs.

use crate::common::*;
use std::fs;
use std::path::Path;

/// The figures the original (Java) scorer prints for the whole news corpus.
#[test]
fn news_corpus_scores() {
    let Some(dir) = shared_data("discomt-news-en-fr") else { return };
    let out = ok(&dir, &["autoprf", "pronoun-test.tok", "mt-output", "doc-boundaries"]);
    let tail: Vec<&str> = out.lines().rev().take(8).collect();
    assert_eq!(
        tail,
        [
            "TOTAL       626/1961   0.3192    626/1828   0.3425   0.3304",
            "",
            "    they    216/ 582   0.3711    216/ 509   0.4244   0.3960",
            "      it    410/1379   0.2973    410/1319   0.3108   0.3039",
            "",
            "            Precision            Recall              F1",
            "",
            "Precision and recall per input pronoun:",
        ]
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Pronoun translation recall per document:");
    assert_eq!(lines[1], "                           it        they   ");
    assert_eq!(lines[2], "        Document 0     4/   8      1/   6      5/  14   0.3571");
    assert_eq!(lines[3 + 129], "      Document 130     0/   3      0/   3      0/   6   0.0000");
    assert_eq!(lines[3 + 130], "                     410/1319    216/ 509    626/1828   0.3425");
    let brief = ok(&dir, &["autoprf", "--brief", "pronoun-test.tok", "mt-output", "doc-boundaries"]);
    assert!(brief.starts_with("Precision and recall per input pronoun:\n"));
    assert!(out.ends_with(&brief));
}

/// Two small aligned corpora with the same English source.
fn hand_made(dir: &Path) {
    let write = |name: &str, text: &str| fs::write(dir.join(name), text).unwrap();
    let source = "It is red . IT works\nthey say that it rains\nnothing here\n";
    write("ref.en", source);
    write("ref.fr", "Il est rouge . IT marche\nils disent qu' il pleut\nrien ici\n");
    write("ref.en-fr.alig", "0-0 1-1 2-2 3-3 4-4 5-5\n0-0 1-1 2-2 3-3 3-2 4-4\n0-0 1-1\n");
    write("mt.en", source);
    write("mt.fr", "Elle est rouge . IT marche\nils disent qu' il il pleut\nrien ici\n");
    // 5-0: a source index past the end of the sentence, ignored as the original ignores it (it
    // would stop only at an index beyond its longest source sentence so far).
    write("mt.en-fr.alig", "0-0 1-1 2-2 3-3 4-4 5-5\n0-0 1-1 2-2 3-3 3-4 3-2 4-5 5-0\n0-0 1-1 \n\n");
    write("docs", "0 first\n1\n");
}

#[test]
fn clipped_counts_per_document_and_pronoun() {
    let dir = tempfile::tempdir().unwrap();
    hand_made(dir.path());
    let out = ok(dir.path(), &["autoprf", "ref", "mt", "docs"]);
    // "It" (not "IT") → Il / Elle: no match. "they" → ils / ils. "it" → {il, qu'} / {il, il, qu'}:
    // two matches, the second "il" finds no reference "il" left.
    assert_eq!(
        out,
        "Pronoun translation recall per document:
                           it        they   
             first     0/   1      -/   -      0/   1   0.0000
        Document 1     2/   2      1/   1      3/   3   1.0000
                       2/   3      1/   1      3/   4   0.7500

Precision and recall per input pronoun:

            Precision            Recall              F1

      it      2/   4   0.5000      2/   3   0.6667   0.5714
    they      1/   1   1.0000      1/   1   1.0000   1.0000

TOTAL         3/   5   0.6000      3/   4   0.7500   0.6667
"
    );
}

#[test]
fn language_suffixes_are_configurable() {
    let dir = tempfile::tempdir().unwrap();
    hand_made(dir.path());
    for stem in ["ref", "mt"] {
        fs::rename(dir.path().join(format!("{stem}.en")), dir.path().join(format!("{stem}.eng"))).unwrap();
        fs::rename(dir.path().join(format!("{stem}.fr")), dir.path().join(format!("{stem}.fra"))).unwrap();
        fs::rename(dir.path().join(format!("{stem}.en-fr.alig")), dir.path().join(format!("{stem}.eng-fra.alig")))
            .unwrap();
    }
    let out =
        ok(dir.path(), &["autoprf", "--source-lang", "eng", "--target-lang", "fra", "--brief", "ref", "mt", "docs"]);
    assert!(out.ends_with("TOTAL         3/   5   0.6000      3/   4   0.7500   0.6667\n"), "{out}");
    let err = refused(dir.path(), &["autoprf", "ref", "mt", "docs"]);
    assert!(err.contains("ref.en: "), "{err}");
}

#[test]
fn input_errors_name_the_file() {
    let run = |file: &str, text: &str| {
        let dir = tempfile::tempdir().unwrap();
        hand_made(dir.path());
        fs::write(dir.path().join(file), text).unwrap();
        refused(dir.path(), &["autoprf", "ref", "mt", "docs"])
    };
    let e = run("mt.en-fr.alig", "0-0\n3-9\n0-0\n");
    assert!(e.contains("mt.en-fr.alig: line 2: pair 3-9: target index 9 is past the end of line 2 of mt.fr"), "{e}");
    let e = run("mt.en", "It is red . IT works\nthey say that it rains now\nnothing here\n");
    assert!(e.contains("mt.en: line 2: has 6 tokens but line 2 of ref.en has 5"), "{e}");
    let e = run("ref.fr", "Il est rouge . IT marche\n");
    assert!(e.contains("ref.fr: has fewer lines than ref.en"), "{e}");
    let e = run("ref.en-fr.alig", "0-0\n0-0\n0-0\n0-0\n");
    assert!(e.contains("ref.en-fr.alig: line 4: ref.en has only 3 lines"), "{e}");
    let e = run("docs", "0\nsecond\n");
    assert!(e.contains("docs: line 2: expected a sentence number"), "{e}");
    let e = run("docs", "0\n4\n");
    assert!(e.contains("docs: document start 4 is past the end of the corpus (3 sentences)"), "{e}");
    let e = run("docs", "");
    assert!(e.contains("docs: lists no document"), "{e}");
}
