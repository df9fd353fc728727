//! `protest correlate` and `protest apt-master` as a user runs them.

use crate::common::*;
use protest::model::{AnnotatorId, CandidateId, Judgement, Record};
use protest::store::master_file;
use std::fs;

#[test]
fn correlate_reproduces_paper_003_table_2() {
    let out = ok(&fixture("correlate"), &["correlate", "paper003-table1.csv"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 10, "a header and one line per pair of the five columns");
    let pair = |a: &str, b: &str| {
        let line = lines.iter().find(|l| l.starts_with(a) && l[a.len()..].trim_start().starts_with(b)).unwrap();
        line.split_whitespace().rev().take(2).collect::<Vec<_>>()
    };
    // Spearman, Pearson (read from the right).
    assert_eq!(pair("APT-A with heuristics", "PROTEST"), ["0.778", "0.907"]);
    assert_eq!(pair("APT-B with heuristics", "PROTEST"), ["0.803", "0.913"]);
    assert_eq!(pair("APT-A without", "PROTEST"), ["0.778", "0.913"]);
    assert_eq!(pair("APT-B without", "PROTEST"), ["0.803", "0.919"]);
}

#[test]
fn correlate_rejects_bad_tables() {
    let dir = tempfile::tempdir().unwrap();
    let run = |text: &str| {
        fs::write(dir.path().join("t.csv"), text).unwrap();
        refused(dir.path(), &["correlate", "t.csv"])
    };
    assert!(run("system,a,b\nx,1,2\ny,0.5,oops\n").contains("t.csv: line 3: column \"b\": \"oops\" is not a number"));
    assert!(
        run("system,a\nx,1\ny,2\n").contains("t.csv: line 1: need a label column and at least two numeric columns")
    );
    assert!(run("system,a,b\nx,1,2\n").contains("need at least two rows"));
    assert!(run("system,a,b\nx,1,2\ny,1\n").contains("t.csv: line 3:"));
    assert!(refused(dir.path(), &["correlate", "missing.csv"]).contains("missing.csv"));
}

#[test]
fn apt_master_tables_with_and_without_human_judgements() {
    let dir = tempfile::tempdir().unwrap();
    let mut master = master_file::load(&fixture("tiny").join("tiny.master.json")).unwrap();
    let out = ok(dir.path(), &["apt-master", fixture("tiny").join("tiny.master.json").to_str().unwrap()]);
    assert!(out.contains("reference  1.000  1.000         3    3  0  0  0  0  0         0      –"), "{out}");
    assert!(out.contains("mt         0.333  0.333         3    1  0  2  0  0  0         0      –"), "{out}");
    // Nobody judged: every row of the table against the humans is empty.
    let total = out.lines().find(|l| l.starts_with("Total")).unwrap();
    assert_eq!(total.split_whitespace().collect::<Vec<_>>(), ["Total", "0", "0", "0", "0", "0", "0", "0", "–"]);
    // The researcher judges the MT's "Elle" (APT: different) correct, its "Il" correct and its
    // "Tu" wrong: one disagreement out of three.
    for (candidate, judgement) in [(2, Judgement::Yes), (4, Judgement::Yes), (6, Judgement::No)] {
        let mut record = Record::new(CandidateId(candidate), AnnotatorId::RESEARCHER, master.created);
        record.pronoun = judgement;
        master.records.put(record);
    }
    master_file::save(&master, &dir.path().join("judged.json")).unwrap();
    let out = ok(dir.path(), &["apt-master", "judged.json", "--annotator", "0"]);
    let total = out.lines().find(|l| l.starts_with("Total")).unwrap();
    // APT cases 1 2 3, human ✓ ✗, disagreements n of %.
    assert_eq!(total.split_whitespace().collect::<Vec<_>>(), ["Total", "1", "0", "2", "2", "1", "1", "3", "33.3"]);
    let mt = out.lines().find(|l| l.starts_with("mt ")).unwrap();
    assert_eq!(
        mt.split_whitespace().collect::<Vec<_>>(),
        ["mt", "0.333", "0.333", "3", "1", "0", "2", "0", "0", "0", "3", "0.667"]
    );
    assert!(out.contains("the researcher's own pronoun judgement"), "{out}");
    assert!(out.contains("a correlation needs at least 3 translations with human scores"), "{out}");
    // The same tables for a spreadsheet; an unknown annotator is named with those there are.
    let csv = ok(dir.path(), &["apt-master", "judged.json", "--format", "csv"]);
    assert!(csv.lines().any(|l| l.starts_with("Total,1,0,2,2,1,1,3,33.33333")), "{csv}");
    let err = refused(dir.path(), &["apt-master", "judged.json", "--annotator", "Zoe"]);
    assert!(err.contains("judged.json: no annotator 'Zoe' (annotators: none but the researcher (0))"), "{err}");
}

/// The exports carry full precision, so `correlate` on the exported `apt` table gives
/// what the `metric-correlation` table says (to its three decimals), the reference row included
/// as the table's note says.
#[test]
fn correlate_on_the_exported_apt_table_reproduces_the_metric_correlation_table() {
    use protest::ingest::from_texts::{self, Inputs, TranslationInput};
    let dir = tempfile::tempdir().unwrap();
    let tiny = fixture("tiny");
    let translation = |name: &str, stem: &str| TranslationInput {
        name: name.into(),
        text: tiny.join(format!("{stem}.fr")),
        alignment: tiny.join(format!("{stem}.alig")),
    };
    let inputs = Inputs::new(
        tiny.join("source.en"),
        Some(translation("reference", "ref")),
        vec![translation("mt", "mt"), translation("other", "mt"), translation("copy", "ref")],
        Some(tiny.join("docs")),
        tiny.join("suite.tsv"),
    );
    let mut master = from_texts::build(&inputs, "corr".into(), chrono::Utc::now()).unwrap();
    // Human judgements of each translation's three pronouns, in candidate order.
    let judged = [[true; 3], [false, true, false], [true, false, false], [true, true, false]];
    for (corpus, judgements) in master.translations().map(|c| c.id).collect::<Vec<_>>().into_iter().zip(judged) {
        let ids: Vec<CandidateId> = master.candidates.iter().filter(|c| c.corpus == corpus).map(|c| c.id).collect();
        for (id, yes) in ids.into_iter().zip(judgements) {
            let mut record = Record::new(id, AnnotatorId::RESEARCHER, master.created);
            record.pronoun = if yes { Judgement::Yes } else { Judgement::No };
            master.records.put(record);
        }
    }
    master_file::save(&master, &dir.path().join("m.json")).unwrap();
    ok(dir.path(), &["report", "m.json", "-f", "csv", "-t", "apt", "-t", "metric-correlation", "-o", "out"]);
    let table = fs::read_to_string(dir.path().join("out/metric-correlation.csv")).unwrap();
    let rows: Vec<Vec<&str>> = table.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let correlated = ok(dir.path(), &["correlate", "out/apt.csv"]);
    for (metric, row) in ["APT-A", "APT-B"].iter().zip(&rows) {
        let line = correlated
            .lines()
            .find(|l| l.starts_with(metric) && l[metric.len()..].trim_start().starts_with("Human score"))
            .unwrap_or_else(|| panic!("{metric} in {correlated}"));
        let got: Vec<&str> = line.split_whitespace().rev().take(2).collect();
        let three = |x: &str| format!("{:.3}", x.parse::<f64>().unwrap());
        // Spearman, Pearson (read from the right) against the table's Pearson, Spearman.
        assert_eq!(got, [three(row[4]), three(row[3])], "{metric}: {line} vs {row:?}");
    }
}
