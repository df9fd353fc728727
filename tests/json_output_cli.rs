//! `--format json` of `check`, `report`, `apt-master` and `auto-eval`: every document parses, and
//! says what the text (or CSV) says.

use crate::common::{copies, merged_sample, ok};
use serde_json::Value;
use std::path::Path;

fn json(dir: &Path, args: &[&str]) -> Value {
    let out = ok(dir, args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("protest {args:?} printed no JSON ({e}):\n{out}"))
}

/// Every table of a JSON document holds the values of its CSV file, typed.
fn same_as_csv(tables: &Value, csv_dir: &Path) {
    let tables = tables["tables"].as_array().expect("a list of tables");
    assert!(!tables.is_empty());
    for table in tables {
        let name = table["name"].as_str().unwrap();
        let csv = std::fs::read_to_string(csv_dir.join(format!("{name}.csv"))).unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let columns: Vec<&str> = table["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(header[0], table["label_header"].as_str().unwrap(), "{name}");
        assert_eq!(header[1..], columns, "{name}");
        let rows = table["rows"].as_array().unwrap();
        let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), records.len(), "{name}: rows");
        for (row, record) in rows.iter().zip(&records) {
            assert_eq!(row["label"].as_str().unwrap(), &record[0], "{name}");
            for (value, text) in row["values"].as_array().unwrap().iter().zip(record.iter().skip(1)) {
                match value {
                    Value::Null => assert_eq!(text, "", "{name}: {}", &record[0]),
                    // The same number: at full precision, APT's sums (made on both cores, in
                    // whichever order the work falls) may differ in the last digit between runs.
                    Value::Number(n) => {
                        let (json, csv) = (n.as_f64().unwrap(), text.parse::<f64>().unwrap());
                        assert!(
                            (json - csv).abs() <= 1e-12 * json.abs().max(1.0),
                            "{name}: {}: {json} {csv}",
                            &record[0]
                        );
                    }
                    Value::String(s) => assert_eq!(s, text, "{name}: {}", &record[0]),
                    other => panic!("{name}: unexpected {other}"),
                }
            }
        }
    }
}

#[test]
fn report_json_has_every_table_with_the_values_of_csv() {
    let dir = merged_sample();
    let d = dir.path();
    ok(d, &["report", "sample.master.json", "--format", "csv", "--output", "csv"]);
    let report = json(d, &["report", "sample.master.json", "--format", "json"]);
    let names: Vec<&str> = report["tables"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    let expected: Vec<&str> = protest::metrics::report::TABLES.iter().map(|t| t.name).collect();
    assert_eq!(names, expected, "every table, in order");
    same_as_csv(&report, &d.join("csv"));
    // One table, and the files of --output.
    let one = json(d, &["report", "sample.master.json", "--format", "json", "--table", "results"]);
    assert_eq!(one["tables"].as_array().unwrap().len(), 1);
    ok(d, &["report", "sample.master.json", "--format", "json", "--output", "json", "--table", "results"]);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(d.join("json/results.json")).unwrap()).unwrap();
    assert_eq!(file, one["tables"][0]);
}

#[test]
fn apt_master_json_has_its_tables_with_the_values_of_csv() {
    let dir = merged_sample();
    let d = dir.path();
    let apt = json(d, &["apt-master", "sample.master.json", "--format", "json"]);
    let names: Vec<&str> = apt["tables"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"apt"), "{names:?}");
    ok(d, &["report", "sample.master.json", "--format", "csv", "--output", "csv"]);
    same_as_csv(&apt, &d.join("csv"));
}

#[test]
fn check_json_has_the_counts_of_the_text() {
    let dir = merged_sample();
    let d = dir.path();
    let text = ok(d, &["check", "sample.master.json"]);
    let check = json(d, &["check", "sample.master.json", "--format", "json"]);
    assert_eq!((check["valid"].as_bool(), check["kind"].as_str()), (Some(true), Some("master")));
    assert_eq!(check["journal"]["changes"], 0);
    let master = &check["master"];
    assert!(text.contains(&format!("Candidates: {}", master["candidates"])), "{text}");
    assert!(text.contains(&format!(
        "Examples: {} in {} categories",
        master["examples"],
        master["categories"].as_array().unwrap().len()
    )));
    for corpus in master["corpora"].as_array().unwrap() {
        assert!(text.contains(corpus["name"].as_str().unwrap()));
    }
    let anna = master["annotators"].as_array().unwrap().iter().find(|a| a["name"] == "Anna").expect("Anna");
    let records = anna["records"].as_u64().unwrap();
    assert!(text.contains(&format!("Anna ({records} records")), "{text}");
    let by_category: u64 = anna["categories"].as_array().unwrap().iter().map(|c| c["records"].as_u64().unwrap()).sum();
    assert_eq!(by_category, records, "her records per category add up");

    let batch = json(d, &["check", "sample.batch-1-anna.json", "--format", "json"]);
    assert_eq!(batch["kind"], "batch");
    assert_eq!(batch["batch"]["annotator"]["name"], "Anna");
    let text = ok(d, &["check", "sample.batch-1-anna.json"]);
    assert!(text.contains(&format!("Records: {}", batch["batch"]["records"])), "{text}");
}

#[test]
fn auto_eval_json_says_what_the_round_did() {
    let dir = copies(&["tests/fixtures/tiny/tiny.master.json"]);
    let d = dir.path();
    let dry = json(d, &["auto-eval", "tiny.master.json", "--dry-run", "--format", "json"]);
    assert_eq!((dry["stored"].as_bool(), dry["round"]["round"].as_u64()), (Some(false), Some(1)));
    let round = json(d, &["auto-eval", "tiny.master.json", "--format", "json"]);
    assert_eq!(round["stored"], true);
    let r = &round["round"];
    let count = |k: &str| r[k].as_u64().unwrap_or(0);
    let counted = ["matches", "mismatches", "no_translation", "no_reference", "agreements", "disagreements"].map(count);
    assert_eq!(counted.iter().sum::<u64>(), round["candidates"].as_u64().unwrap());
    assert_eq!((count("agreements"), r["agreement"].as_bool()), (1, Some(true)), "Elle … bicyclette");
    let automatic = count("matches") + count("agreements") + count("disagreements");
    assert_eq!(round["to_humans"].as_u64().unwrap(), round["candidates"].as_u64().unwrap() - automatic);
    let text = ok(d, &["auto-eval", "tiny.master.json", "--dry-run"]);
    assert!(text.contains(&format!("match           {:>5}", r["matches"].as_u64().unwrap())), "{text}");
    assert!(text.contains(&format!("rule            {}", r["rule"].as_str().unwrap())), "{text}");
    let (with_verdict, incorrect) = (&round["matches_with_verdict"], &round["matches_judged_incorrect"]);
    assert!(
        text.contains(&format!("judged ✗ by humans: {incorrect} of {with_verdict} matches with a verdict")),
        "{text}"
    );
    let agreements = (&round["agreements_judged_incorrect"], &round["agreements_with_verdict"]);
    let disagreements = (&round["disagreements_judged_correct"], &round["disagreements_with_verdict"]);
    assert!(
        text.contains(&format!(
            "judged the other way by humans: {} of {} agreements, {} of {} disagreements with a verdict",
            agreements.0, agreements.1, disagreements.0, disagreements.1
        )),
        "{text}"
    );
    // Each system's matches by how their words were aligned, as the text's last lines say.
    let by = &round["matches_aligned_by"][0];
    assert_eq!(by["system"], "mt");
    let counts = ["bridge", "aligner", "given"].map(|k| by[k].as_u64().unwrap());
    assert_eq!(counts.iter().sum::<u64>(), r["matches"].as_u64().unwrap());
    assert!(
        text.contains(&format!("    mt  bridge {}  aligner {}  given {}", counts[0], counts[1], counts[2])),
        "{text}"
    );
    let aligned = json(d, &["auto-eval", "tiny.master.json", "--rule", "aligned", "--format", "json"]);
    assert_eq!(aligned["round"]["rule"], "aligned_tokens");
}
