//! `protest prediction score`, `extract` and `import`: the official scorers' reports on the
//! shipped examples (byte for byte), the real DiscoMT 2015 data scored and checked against an
//! independent computation, every refusal, and the round trip master → extract → predictions
//! equal to the gold → import → every candidate matched.

use crate::common::*;
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::Path;

fn examples() -> tempfile::TempDir {
    copy_of_folder("tests/fixtures/prediction")
}

#[test]
fn reports_are_the_reference_scorers_text() {
    let dir = examples();
    let d = dir.path();
    let cases = [
        (
            ["example.en-fr.gold", "example.en-fr.pred", "--scorer", "discomt2015"],
            "example.en-fr.discomt2015-scorer.txt",
        ),
        (["example.en-fr.gold", "example.en-fr.pred", "--scorer", "wmt16"], "example.en-fr.wmt16-scorer.txt"),
        (["example.en-de.gold", "example.en-de.pred", "--scorer", "wmt16"], "example.en-de.wmt16-scorer.txt"),
    ];
    for (args, expected) in cases {
        let pair = if args[0].contains("en-de") { "en-de" } else { "en-fr" };
        let out = ok(d, &[&["prediction", "score"], &args[..], &["--pair", pair]].concat());
        assert_eq!(out, read(d.join(expected)), "{expected}");
    }
    // The pair from the file's name, as in TEDdev.en-fr.data.
    fs::copy(d.join("example.en-de.gold"), d.join("gold.en-de.data")).unwrap();
    let out = ok(d, &["prediction", "score", "gold.en-de.data", "example.en-de.pred", "--scorer", "wmt16"]);
    assert_eq!(out, read(d.join("example.en-de.wmt16-scorer.txt")));
}

#[test]
fn gzip_files_and_extra_prediction_lines() {
    let dir = examples();
    let d = dir.path();
    for name in ["example.en-fr.gold", "example.en-fr.pred"] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&fs::read(d.join(name)).unwrap()).unwrap();
        fs::write(d.join(format!("{name}.gz")), gz.finish().unwrap()).unwrap();
    }
    let out =
        ok(d, &["prediction", "score", "example.en-fr.gold.gz", "example.en-fr.pred.gz", "--scorer", "discomt2015"]);
    let expected =
        read(d.join("example.en-fr.discomt2015-scorer.txt")).replace("example.en-fr.pred\t", "example.en-fr.pred.gz\t");
    assert_eq!(out, expected);
    // Lines after the gold's are ignored, as by the scorers.
    let mut longer = read(d.join("example.en-fr.pred"));
    longer.push_str("whatever\tis\there\n");
    fs::write(d.join("longer.pred"), longer).unwrap();
    let out = ok(d, &["prediction", "score", "example.en-fr.gold", "longer.pred", "--scorer", "discomt2015"]);
    assert!(out.ends_with("longer.pred\t62.0054887695326\t69.9029126213592\n"), "{out}");
}

/// Writes `name` in `dir` and returns its name.
fn file<'a>(dir: &Path, name: &'a str, text: &str) -> &'a str {
    fs::write(dir.join(name), text).unwrap();
    name
}

#[test]
fn every_refusal_names_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let line = |labels: &str| format!("{labels}\t{labels}\tIt is .\tREPLACE_0 est .\t0-0 1-1\n");
    let gold = file(d, "gold.en-fr.data", &[line(""), line("il"), line("ce ils")].concat());
    let refused_with = |pred_text: &str, gold_name: &str, needle: &str| {
        let pred = file(d, "pred.data", pred_text);
        let err = refused(d, &["prediction", "score", gold_name, pred, "--scorer", "discomt2015"]);
        assert!(err.contains(needle), "expected “{needle}” in: {err}");
    };
    // The prediction file: shorter (the first missing line), a label outside the pair's words,
    // a different number of labels, labels where the gold has none and the reverse.
    refused_with(
        "\nil\n",
        gold,
        "pred.data: line 3: missing: the prediction file is shorter than the gold file gold.en-fr.data",
    );
    refused_with("\nlui\nce ils\n", gold, "pred.data: line 2: wrong file format: the predicted label is 'lui'");
    refused_with(
        "\nil\nce\n",
        gold,
        "pred.data: line 3: different number of labels in the gold (2) and in the predictions file (1)",
    );
    refused_with(
        "il\nil\nce ils\n",
        gold,
        "pred.data: line 1: the gold label is empty, but the predicted label is not: il",
    );
    refused_with(
        "\n\nce ils\n",
        gold,
        "pred.data: line 2: the predicted label is empty, but the gold label is not: il",
    );
    refused_with("\nil\nce  ils\n", gold, "pred.data: line 3: wrong file format: the predicted label is 'ce  ils'");
    fs::write(d.join("latin1.data"), b"\nil\nce \xe7a\n").unwrap();
    let err = refused(d, &["prediction", "score", gold, "latin1.data", "--scorer", "discomt2015"]);
    assert!(err.contains("latin1.data: line 3: not valid UTF-8 text"), "{err}");
    // The gold file: a line not of five columns, or with an empty 3rd to 5th column, a label
    // outside the pair's words, nothing to score.
    let bad = file(d, "bad.en-fr.data", &[line(""), "il\til\tIt is .\tREPLACE_0 est .\n".into()].concat());
    refused_with("\nil\n", bad, "bad.en-fr.data: line 2: wrong file format for a gold file");
    let empty = file(d, "empty.en-fr.data", &[line(""), "il\til\t\tREPLACE_0 est .\t0-0\n".into()].concat());
    refused_with("\nil\n", empty, "empty.en-fr.data: line 2: wrong file format for a gold file");
    let unknown = file(d, "unknown.en-fr.data", &[line(""), line("lui")].concat());
    refused_with("\nil\n", unknown, "unknown.en-fr.data: line 2: wrong file format: the gold label is 'lui'");
    let nothing = file(d, "nothing.en-fr.data", &line(""));
    refused_with("\n", nothing, "nothing.en-fr.data: no line has a gold label: there is nothing to score");
    // An empty alignment passes on a line with a line break, as the reference scorers' pattern
    // lets it (they match the line with its break); not on an unterminated last line.
    let loose = file(d, "loose.en-fr.data", "il\til\tIt .\tREPLACE_0 .\t\n");
    ok(d, &["prediction", "score", loose, file(d, "p", "il\n"), "--scorer", "discomt2015"]);
    let last = file(d, "last.en-fr.data", "il\til\tIt .\tREPLACE_0 .\t");
    refused_with("il\n", last, "last.en-fr.data: line 1: wrong file format");
    // The task: DiscoMT 2015 scored en-fr only; a pair the file's name does not say is asked for.
    let err = refused(d, &["prediction", "score", gold, "pred.data", "--scorer", "discomt2015", "--pair", "en-de"]);
    assert!(err.contains("the discomt2015 scorer scores en-fr only, not en-de"), "{err}");
    let plain = file(d, "gold.txt", &line("il"));
    let err = refused(d, &["prediction", "score", plain, "pred.data", "--scorer", "wmt16"]);
    assert!(err.contains("gold.txt: the file's name does not say the language pair: give --pair"), "{err}");
    let err = refused(d, &["prediction", "score", "missing.data", "pred.data", "--scorer", "wmt16", "--pair", "en-fr"]);
    assert!(err.contains("missing.data: "), "{err}");
}

/// The official classes and the mapping of the DiscoMT 2015 fine and the WMT16 en-fr scorers,
/// written out again here so that the scores below are computed apart from the library.
fn reference_classes(scorer: &str) -> (Vec<&'static str>, HashMap<&'static str, &'static str>) {
    match scorer {
        "discomt2015" => {
            let classes = vec!["ce", "cela", "elle", "elles", "il", "ils", "on", "ça", "OTHER"];
            (classes.clone(), classes.into_iter().map(|c| (c, c)).collect())
        }
        _ => {
            let classes = vec!["ce", "elle", "elles", "il", "ils", "cela", "on", "OTHER"];
            let mut map: HashMap<_, _> = classes.iter().map(|&c| (c, c)).collect();
            map.extend([("c'", "ce"), ("ça", "cela"), ("ca", "cela"), ("ç'", "cela"), ("NONE", "OTHER")]);
            (classes, map)
        }
    }
}

/// Macro-F1, macro-recall and accuracy (in %) of the first columns of two files, computed
/// directly from their text.
fn independent_scores(gold: &str, predicted: &str, scorer: &str) -> (f64, f64, f64) {
    let (classes, map) = reference_classes(scorer);
    let mut pairs: HashMap<(&str, &str), f64> = HashMap::new();
    for (g, p) in gold.lines().zip(predicted.lines()) {
        let (g, p) = (g.split('\t').next().unwrap(), p.split('\t').next().unwrap());
        for (a, b) in g.split_whitespace().zip(p.split_whitespace()) {
            *pairs.entry((map[a], map[b])).or_default() += 1.0;
        }
    }
    let count =
        |f: &dyn Fn(&str, &str) -> bool| pairs.iter().filter(|((g, p), _)| f(g, p)).map(|(_, n)| n).sum::<f64>();
    let total = count(&|_, _| true);
    let (mut f1s, mut recalls) = (0.0, 0.0);
    for class in &classes {
        let right = count(&|g, p| g == *class && p == *class);
        let (in_gold, predicted) = (count(&|g, _| g == *class), count(&|_, p| p == *class));
        let precision = if predicted > 0.0 { 100.0 * right / predicted } else { 0.0 };
        let recall = if in_gold > 0.0 { 100.0 * right / in_gold } else { 0.0 };
        f1s += if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
        recalls += recall;
    }
    let n = classes.len() as f64;
    (f1s / n, recalls / n, 100.0 * count(&|g, p| g == p) / total)
}

/// A system for the real data: every third placeholder given the next class of the list.
fn perturbed(gold: &str) -> String {
    let classes = ["ce", "cela", "elle", "elles", "il", "ils", "on", "ça", "OTHER"];
    let mut n = 0;
    gold.lines()
        .map(|line| {
            let (labels, rest) = line.split_once('\t').unwrap();
            let labels: Vec<&str> = labels
                .split_whitespace()
                .map(|l| {
                    n += 1;
                    let i = classes.iter().position(|c| *c == l).unwrap();
                    if n % 3 == 0 { classes[(i + 1) % classes.len()] } else { l }
                })
                .collect();
            format!("{}\t{rest}\n", labels.join(" "))
        })
        .collect()
}

#[test]
fn the_real_dev_and_test_sets_scored_as_computed_independently() {
    let Some(data) = shared_data("discomt2015-clpp") else { return };
    let dir = tempfile::tempdir().unwrap();
    for (name, placeholders) in [("TEDdev.en-fr.data", 747), ("DiscoMT2015.test.en-fr.data", 1105)] {
        let gold = read(data.join(name));
        let predicted = perturbed(&gold);
        let pred = dir.path().join(format!("{name}.pred"));
        fs::write(&pred, &predicted).unwrap();
        let gold_path = data.join(name);
        let args = |scorer: &'static str, format: &'static str| -> Vec<String> {
            let paths = [gold_path.display().to_string(), pred.display().to_string()];
            ["prediction", "score"]
                .into_iter()
                .map(String::from)
                .chain(paths)
                .chain(["--scorer", scorer, "--format", format].map(String::from))
                .collect()
        };
        let run = |a: Vec<String>| ok(dir.path(), &a.iter().map(String::as_str).collect::<Vec<_>>());
        for scorer in ["discomt2015", "wmt16"] {
            let (f1, recall, accuracy) = independent_scores(&gold, &predicted, scorer);
            let official = if scorer == "discomt2015" { f1 } else { recall };
            let json: serde_json::Value = serde_json::from_str(&run(args(scorer, "json"))).unwrap();
            let ranking = &json["tables"][0]["rows"][0]["values"];
            assert!((ranking[1].as_f64().unwrap() - official).abs() < 1e-9, "{name} {scorer}: {ranking} vs {official}");
            assert!((ranking[2].as_f64().unwrap() - accuracy).abs() < 1e-9, "{name} {scorer}: accuracy");
            assert_eq!(ranking[6], placeholders, "{name}: every placeholder counted");
            let text = run(args(scorer, "text"));
            if scorer == "discomt2015" {
                let summary: Vec<&str> = text.lines().last().unwrap().split('\t').collect();
                assert!((summary[1].parse::<f64>().unwrap() - f1).abs() < 1e-9, "{name}: the summary line");
                assert!((summary[2].parse::<f64>().unwrap() - accuracy).abs() < 1e-9);
                assert!(text.contains(&format!("MACRO-averaged fine-grained F1: {f1:6.2}%")));
            } else {
                assert!(text.ends_with(&format!("MACRO-averaged R: {recall:6.2}%\n\n")), "{text}");
            }
        }
    }
}

#[test]
fn several_systems_ranked_and_the_macro_over_the_classes_present() {
    let dir = examples();
    let d = dir.path();
    fs::copy(d.join("example.en-fr.gold"), d.join("perfect.pred")).unwrap();
    let csv = ok(
        d,
        &[
            "prediction",
            "score",
            "example.en-fr.gold",
            "example.en-fr.pred",
            "perfect.pred",
            "--scorer",
            "wmt16",
            "--pair",
            "en-fr",
            "-f",
            "csv",
        ],
    );
    let ranking: Vec<&str> = csv.split("\n\n").next().unwrap().lines().collect();
    assert_eq!(ranking[0], "System,Rank,Official,Accuracy,Macro P,Macro R,Macro F1,Placeholders");
    assert!(ranking[1].starts_with("perfect.pred,1,100,100,"), "{}", ranking[1]);
    assert!(ranking[2].starts_with("example.en-fr.pred,2,71.497668997669,"), "full precision: {}", ranking[2]);
    let latex = ok(
        d,
        &["prediction", "score", "example.en-fr.gold", "example.en-fr.pred", "--scorer", "discomt2015", "-f", "latex"],
    );
    assert!(latex.contains("\\begin{tabular}") && latex.contains("62.01"), "{latex}");
    let markdown = ok(
        d,
        &[
            "prediction",
            "score",
            "example.en-fr.gold",
            "example.en-fr.pred",
            "--scorer",
            "discomt2015",
            "-f",
            "markdown",
        ],
    );
    assert!(markdown.contains("| ça |") || markdown.contains("| ça"), "{markdown}");

    // en-de: the gold has no `man`, which the scorer's macro average counts as 0 and the
    // findings paper's leaves out.
    let all = ok(
        d,
        &["prediction", "score", "example.en-de.gold", "example.en-de.pred", "--scorer", "wmt16", "--pair", "en-de"],
    );
    let present = ok(
        d,
        &[
            "prediction",
            "score",
            "example.en-de.gold",
            "example.en-de.pred",
            "--scorer",
            "wmt16",
            "--pair",
            "en-de",
            "--macro",
            "present",
        ],
    );
    assert!(all.contains("MACRO-averaged R:  40.35%"));
    // (57.14 + 50.00 + 61.29 + 33.33) / 4 over er, sie, es and OTHER.
    let expected = (100.0 * 8.0 / 14.0 + 100.0 * 10.0 / 20.0 + 100.0 * 19.0 / 31.0 + 100.0 * 5.0 / 15.0) / 4.0;
    assert!(
        present.contains(&format!("MACRO-averaged R over the classes present in the gold: {expected:6.2}%")),
        "{present}"
    );
    assert!(present.contains("MACRO-averaged result over the 4 of 5 classes present in the gold:"));
}

#[test]
fn a_master_extracted_predicted_as_the_gold_and_imported_matches_every_candidate() {
    let dir = unplanned_sample();
    let d = dir.path();
    let out = ok(d, &["prediction", "extract", "sample.master.json", "-o", "set.en-fr.data"]);
    assert!(out.contains("316 lines, 60 placeholders") && out.contains("set.en-fr.doc-ids"), "{out}");
    let err = refused(d, &["prediction", "extract", "sample.master.json", "-o", "set.en-fr.data"]);
    assert!(err.contains("set.en-fr.data already exists; use --force to replace it"), "{err}");
    let err = refused(d, &["prediction", "extract", "sample.master.json", "-o", "sample.master.json", "--force"]);
    assert!(err.contains("sample.master.json: is the master itself"), "{err}");
    let set = read(d.join("set.en-fr.data"));
    assert_eq!(set.lines().count(), read(d.join("set.en-fr.doc-ids")).lines().count());
    // The set scores as a gold file; predictions equal to it score 100.
    let scored = ok(d, &["prediction", "score", "set.en-fr.data", "set.en-fr.data", "--scorer", "wmt16"]);
    assert!(scored.contains("Accuracy (calculated for the above confusion matrix) = 60/60 = 100.00%"), "{scored}");

    let before = protest::store::master_file::load(&d.join("sample.master.json")).unwrap();
    let out = ok(d, &["prediction", "import", "sample.master.json", "set.en-fr.data", "--name", "classifier"]);
    assert!(out.contains("60 examples with the predicted word (0 differing from the reference), 0 without"), "{out}");
    // The match alone: the agreement judge doubts the reference's own "ils" for "recrues"
    // (example 35) and leaves that match to people.
    ok(d, &["auto-eval", "sample.master.json", "--no-agreement"]);
    let master = protest::store::master_file::load(&d.join("sample.master.json")).unwrap();
    let classifier = master.corpora.iter().find(|c| c.name == "classifier").unwrap();
    let reference = master.reference().unwrap();
    assert_eq!(classifier.sentences, reference.sentences, "the gold's words are the reference's");
    let candidates: Vec<_> = master.candidates.iter().filter(|c| c.corpus == classifier.id).collect();
    assert_eq!(candidates.len(), before.examples.len());
    for candidate in candidates {
        let outcome = master.auto_eval.entry(candidate.id).unwrap().outcome;
        let reference_has_words =
            master.candidates_of(candidate.example).any(|c| c.corpus == reference.id && !c.pronoun.is_empty());
        let expected =
            if reference_has_words { protest::model::Outcome::Match } else { protest::model::Outcome::NoTranslation };
        assert_eq!(outcome, expected, "candidate {} of example {}", candidate.id, candidate.example);
    }
    // A second import under the same name is refused, the master unchanged.
    let err = refused(d, &["prediction", "import", "sample.master.json", "set.en-fr.data", "--name", "classifier"]);
    assert!(err.contains("'classifier'"), "{err}");
}

#[test]
fn a_classifiers_other_words_become_its_translation() {
    let dir = unplanned_sample();
    let d = dir.path();
    ok(d, &["prediction", "extract", "sample.master.json", "-o", "set.data"]);
    // Every `il` predicted as `elle`, every OTHER predicted as OTHER with no word named.
    let predicted: String = read(d.join("set.data"))
        .lines()
        .map(|l| {
            let mut columns: Vec<String> = l.split('\t').map(String::from).collect();
            columns[0] =
                columns[0].split(' ').map(|c| if c == "il" { "elle" } else { c }).collect::<Vec<_>>().join(" ");
            columns[1] = String::new();
            columns.join("\t") + "\n"
        })
        .collect();
    fs::write(d.join("clf.data"), predicted).unwrap();
    let out = ok(d, &["prediction", "import", "sample.master.json", "clf.data", "--name", "clf"]);
    assert!(out.contains("(9 differing from the reference)"), "{out}");
    let master = protest::store::master_file::load(&d.join("sample.master.json")).unwrap();
    let clf = master.corpora.iter().find(|c| c.name == "clf").unwrap();
    let reference = master.reference().unwrap();
    let changed: Vec<(&String, &String)> =
        reference.sentences.iter().zip(&clf.sentences).filter(|(r, c)| r != c).collect();
    assert_eq!(changed.len(), 9);
    for (r, c) in changed {
        let diff: Vec<(&str, &str)> = r.split(' ').zip(c.split(' ')).filter(|(a, b)| a != b).collect();
        assert!(diff.iter().all(|(a, b)| a.to_lowercase() == "il" && b.to_lowercase() == "elle"), "{diff:?}");
    }
}

/// Input no data file is — a first line of 128 MiB, a few MB of gzip expanding to 2 GiB, a
/// language model's text of one 50 MB line — is refused quickly, naming the file (and the line),
/// with memory of a few blocks: no command reads it whole.
#[test]
fn absurd_inputs_are_refused_in_time_linear_in_what_was_read() {
    let dir = examples();
    let d = dir.path();
    let refused_with = |args: &[&str], expected: &str| {
        let out = protest(d, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}:\n  expected: {expected}\n  got:      {stderr}");
    };
    // A first line of 128 MiB, in the predictions and in the gold.
    let long = format!("{}\n", "il ".repeat((128 << 20) / 3));
    fs::write(d.join("long.pred"), &long).unwrap();
    fs::write(d.join("long.gold"), &long).unwrap();
    let line_bound = "line 1: longer than 1 MiB, the most a line may have";
    refused_with(
        &["prediction", "score", "example.en-fr.gold", "long.pred", "--scorer", "discomt2015"],
        &format!("long.pred: {line_bound}"),
    );
    refused_with(
        &["prediction", "score", "long.gold", "example.en-fr.pred", "--scorer", "discomt2015"],
        &format!("long.gold: {line_bound}"),
    );
    // 2 GiB of gold lines in some 6 MB of gzip members (what `cat a.gz b.gz` makes), scored
    // against themselves: each line read is checked, so the whole would be read.
    let line = "il\til\tIt is here .\tREPLACE_0 est là .\t0-0 1-1 2-2\n";
    let member = {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(line.repeat((1 << 20) / line.len()).as_bytes()).unwrap();
        encoder.finish().unwrap()
    };
    let bomb = member.repeat(2048);
    assert!(bomb.len() < 8 << 20, "{} bytes", bomb.len());
    fs::write(d.join("bomb.en-fr.data.gz"), bomb).unwrap();
    refused_with(
        &["prediction", "score", "bomb.en-fr.data.gz", "bomb.en-fr.data.gz", "--scorer", "wmt16"],
        "bomb.en-fr.data.gz: the gzip content expands to more than 100 times the file's size",
    );
    // A language model's text of one 50 MB line, of order 8.
    let words: String = (0..(50 << 20) / 8).map(|i| format!("w{:06} ", i % 1_000_000)).collect();
    fs::write(d.join("one-line.txt"), format!("{words}\n")).unwrap();
    refused_with(
        &["prediction", "train-lm", "one-line.txt", "--order", "8", "-o", "one-line.arpa"],
        &format!("one-line.txt: {line_bound}"),
    );
    // Many lines of new words: past the n-gram bound, refused at the line that passes it.
    let text: String = (0..2_000).map(|l| (0..10).map(|w| format!("w{l}x{w} ")).collect::<String>() + "\n").collect();
    fs::write(d.join("many.txt"), text).unwrap();
    let args = ["prediction", "train-lm", "many.txt", "--order", "8", "-o", "many.arpa", "--discount-fallback"];
    refused_with(
        &[&args[..], &["--max-ngrams", "100000"]].concat(),
        "many.txt: line 1516: the text has more than 100000 distinct n-grams of orders 1–8",
    );
    assert!(!d.join("one-line.arpa").exists() && !d.join("many.arpa").exists());
    let out = ok(d, &args);
    assert!(out.contains("8-grams: 10000 "), "{out}");
}
