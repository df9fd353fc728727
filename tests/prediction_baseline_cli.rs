//! `protest prediction train-lm`, `lm-score` and `baseline`: a model trained and read back, the
//! hand-made model's probabilities as one number a line, the baseline's choices on lines worked
//! out by hand and scored by `prediction score`, the grid search, the refusals, and a run on the
//! real TEDdev set.

use crate::common::*;
use std::fs;

const HAND_DATA: &str = "il\til\tIt is there .\tREPLACE_0 est là\t0-0 1-1 2-2
\t\tNothing .\tRien .\t0-0 1-1
elle\telle\tShe is .\tREPLACE_0 est\t0-0 1-1
";

fn fixtures() -> tempfile::TempDir {
    let dir =
        copies(&["tests/fixtures/lm/hand.arpa", "tests/fixtures/lm/news.fr.txt", "tests/fixtures/lm/sentences.txt"]);
    fs::write(dir.path().join("hand.en-fr.data"), HAND_DATA).unwrap();
    dir
}

fn numbers(text: &str) -> Vec<f64> {
    text.lines().map(|l| l.parse().unwrap_or_else(|_| panic!("not a number: {l:?}"))).collect()
}

#[test]
fn a_trained_model_is_written_and_scores_every_line() {
    let dir = fixtures();
    let d = dir.path();
    let out = ok(d, &["prediction", "train-lm", "news.fr.txt", "--order", "3", "-o", "news.arpa"]);
    assert!(out.starts_with("news.arpa: 3-gram model of "), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains("D1=")).count(), 3, "{out}");
    let model = read(d.join("news.arpa"));
    assert!(model.starts_with("\\data\\\nngram 1="));
    let e = refused(d, &["prediction", "train-lm", "hand.arpa", "--order", "3", "-o", "news.arpa"]);
    assert!(e.contains("news.arpa already exists; use --force"), "{e}");
    assert_eq!(read(d.join("news.arpa")), model);
    let sentences = read(d.join("sentences.txt")).lines().count();
    let scores = numbers(&ok(d, &["prediction", "lm-score", "news.arpa", "sentences.txt"]));
    assert_eq!(scores.len(), sentences);
    assert!(scores.iter().all(|&s| s < 0.0));
    // Line 20 is "il est là", −1.35 under the hand-made model (worked out in lm/arpa.rs).
    let hand = numbers(&ok(d, &["prediction", "lm-score", "hand.arpa", "sentences.txt"]));
    assert!((hand[19] + 1.35).abs() < 1e-5, "{}", hand[19]);
    // A tiny text has no discounts but lmplz's fallback ones.
    fs::write(d.join("tiny.txt"), "a b\na\n").unwrap();
    let e = refused(d, &["prediction", "train-lm", "tiny.txt", "--order", "2", "-o", "tiny.arpa"]);
    assert!(e.contains("tiny.txt") && e.contains("--discount-fallback"), "{e}");
    assert!(!d.join("tiny.arpa").exists());
    let out =
        protest(d, &["prediction", "train-lm", "tiny.txt", "--order", "2", "-o", "tiny.arpa", "--discount-fallback"]);
    assert!(out.status.success() && String::from_utf8_lossy(&out.stderr).contains("warning: tiny.txt"));
}

#[test]
fn a_model_trained_on_the_sets_own_text_is_warned_of() {
    let dir = fixtures();
    let d = dir.path();
    // A set made from the model's own text: the 40 first sentences, a word of each taken out (39
    // of them long enough for a trigram outside the placeholder).
    let data: String = read(d.join("news.fr.txt"))
        .lines()
        .take(40)
        .map(|sentence| {
            let mut words: Vec<&str> = sentence.split(' ').collect();
            let at = words.len() / 2;
            let placeholder = format!("REPLACE_{at}");
            words[at] = &placeholder;
            format!("\t\tx\t{}\t0-0\n", words.join(" "))
        })
        .collect();
    fs::write(d.join("own.en-fr.data"), data).unwrap();
    ok(d, &["prediction", "train-lm", "news.fr.txt", "--order", "3", "-o", "news.arpa"]);
    let out = protest(d, &["prediction", "baseline", "own.en-fr.data", "--lm", "news.arpa", "-o", "own.pred"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: own.en-fr.data: 39 of its 39 sentences are in the language model word for word"),
        "{err}"
    );
    assert!(err.contains("train it on other text"), "{err}");
    // Text the model has not seen: no warning.
    let out = protest(d, &["prediction", "baseline", "hand.en-fr.data", "--lm", "news.arpa", "-o", "hand.pred"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_baseline_fills_the_placeholders_with_the_most_probable_words() {
    let dir = fixtures();
    let d = dir.path();
    // "il est là" −1.35 beats "elle est là" −1.5; "elle est" −1.0 beats "il est" −1.45.
    ok(d, &["prediction", "baseline", "hand.en-fr.data", "--lm", "hand.arpa", "-o", "pred.data"]);
    let predicted = read(d.join("pred.data"));
    assert_eq!(predicted, HAND_DATA);
    let report = ok(d, &["prediction", "score", "hand.en-fr.data", "pred.data", "--scorer", "discomt2015"]);
    assert!(report.ends_with("pred.data\t22.2222222222222\t100\n"), "{report}");
    // Without -o, on standard output; a penalty that makes leaving the pronoun out cheaper.
    let out = ok(d, &["prediction", "baseline", "hand.en-fr.data", "--lm", "hand.arpa", "--none-penalty", "2"]);
    assert_eq!(out.lines().next().unwrap(), "OTHER\tNONE\tIt is there .\tREPLACE_0 est là\t0-0 1-1 2-2");
    // The grid search on a development set, each step's official score on standard output.
    let out = ok(
        d,
        &[
            "prediction",
            "baseline",
            "hand.en-fr.data",
            "--lm",
            "hand.arpa",
            "--tune",
            "hand.en-fr.data",
            "-o",
            "tuned.data",
        ],
    );
    let steps: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with(['0', '-'])).collect();
    assert_eq!(steps.len(), 9, "{out}");
    assert!(steps[0].ends_with("best") && steps[8].trim_start().starts_with("-4"), "{out}");
    assert_eq!(read(d.join("tuned.data")), HAND_DATA);
}

#[test]
fn the_baseline_refuses_what_it_cannot_do() {
    let dir = fixtures();
    let d = dir.path();
    let e = refused(d, &["prediction", "baseline", "hand.en-fr.data", "--lm", "hand.arpa", "-o", "hand.en-fr.data"]);
    assert!(e.contains("this is the input"), "{e}");
    assert_eq!(read(d.join("hand.en-fr.data")), HAND_DATA);
    let e = refused(d, &["prediction", "baseline", "hand.en-fr.data", "--lm", "news.fr.txt"]);
    assert!(e.contains("news.fr.txt: line 1") && e.contains("ARPA"), "{e}");
    fs::copy(d.join("hand.en-fr.data"), d.join("hand.data")).unwrap();
    let e = refused(d, &["prediction", "baseline", "hand.data", "--lm", "hand.arpa"]);
    assert!(e.contains("--pair"), "{e}");
    let e = refused(
        d,
        &[
            "prediction",
            "baseline",
            "hand.data",
            "--lm",
            "hand.arpa",
            "--pair",
            "en-fr",
            "--tune",
            "hand.data",
            "--none-penalty",
            "-1",
        ],
    );
    assert!(e.contains("cannot be used with"), "{e}");
    let e = refused(d, &["prediction", "lm-score", "missing.arpa", "sentences.txt"]);
    assert!(e.contains("missing.arpa"), "{e}");
}

/// The real development set with a trigram model of the news fixture: every placeholder gets a
/// class of the task, and a harsher NONE penalty leaves fewer pronouns out.
#[test]
fn the_baseline_on_the_real_development_set() {
    let Some(data) = shared_data("discomt2015-clpp") else { return };
    let dir = fixtures();
    let d = dir.path();
    ok(d, &["prediction", "train-lm", "news.fr.txt", "--order", "3", "-o", "news.arpa"]);
    let dev = data.join("TEDdev.en-fr.data");
    let dev = dev.to_str().unwrap();
    let mut nones = Vec::new();
    for penalty in ["0", "-4"] {
        let args = ["prediction", "baseline", dev, "--lm", "news.arpa", "--none-penalty", penalty, "-o", "pred.data"];
        ok(d, &[&args[..], &["--force"]].concat());
        let predicted = read(d.join("pred.data"));
        let gold = read(dev);
        assert_eq!(predicted.lines().count(), gold.lines().count());
        for (p, g) in predicted.lines().zip(gold.lines()) {
            let (p, g): (Vec<&str>, Vec<&str>) = (p.split('\t').collect(), g.split('\t').collect());
            assert_eq!(p[2..], g[2..]);
            assert_eq!(p[0].split(' ').count(), g[0].split(' ').count(), "{g:?}");
        }
        // Scored by the official scorer: every label is one of its classes.
        let report = ok(d, &["prediction", "score", dev, "pred.data", "--scorer", "discomt2015"]);
        assert!(report.contains("pred.data\t"), "{report}");
        nones.push(
            predicted.lines().flat_map(|l| l.split('\t').nth(1).unwrap().split(' ')).filter(|w| *w == "NONE").count(),
        );
    }
    assert!(nones[1] < nones[0], "{nones:?}");
}
