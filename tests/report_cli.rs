//! `protest report` on a master whose annotations reproduce paper 001's sample (Tables 1 and 2):
//! 116 MT translations judged by two annotators, with the paper's counts per category.

use Judgement::{No, Unset, Yes};
use chrono::{TimeZone, Utc};
use protest::model::{
    Annotator, AnnotatorId, Antecedent, Candidate, CandidateId, Corpus, CorpusId, CorpusRole, Example, ExampleNo,
    Judgement, Master, Record, TokenRef, standard_categories,
};
use protest::store::master_file;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// ✓ ✗ ? counts.
type Counts = [u32; 3];
/// A row of Table 1: count, pronoun A, pronoun B, antecedent A and B (anaphoric only).
type PaperRow = (u32, Counts, Counts, Option<(Counts, Counts)>);

/// Paper 001, Table 1, in the order of PROTEST's categories: count, pronoun A, pronoun B,
/// antecedent A, antecedent B (None for non-anaphoric categories).
const TABLE_1: [PaperRow; 13] = [
    (12, [7, 3, 2], [5, 5, 2], Some(([12, 0, 0], [12, 0, 0]))),
    (3, [2, 1, 0], [1, 2, 0], Some(([3, 0, 0], [3, 0, 0]))),
    (11, [10, 1, 0], [10, 1, 0], Some(([11, 0, 0], [11, 0, 0]))),
    (8, [6, 1, 1], [6, 2, 0], Some(([7, 1, 0], [7, 1, 0]))),
    (13, [9, 4, 0], [8, 5, 0], Some(([13, 0, 0], [13, 0, 0]))),
    (10, [6, 4, 0], [5, 5, 0], Some(([9, 0, 1], [10, 0, 0]))),
    (7, [7, 0, 0], [5, 1, 1], Some(([5, 2, 0], [5, 2, 0]))),
    (4, [4, 0, 0], [3, 0, 1], Some(([4, 0, 0], [4, 0, 0]))),
    (14, [10, 4, 0], [8, 6, 0], None),
    (11, [10, 1, 0], [10, 1, 0], None),
    (7, [7, 0, 0], [7, 0, 0], None),
    (6, [5, 0, 1], [5, 1, 0], None),
    (10, [10, 0, 0], [10, 0, 0], None),
];

const VALUES: [Judgement; 3] = [Yes, No, Unset];

/// Pairs of judgements (A, B) with these marginals and as few disagreements as possible, plus
/// `swaps` extra pairs of disagreements made from agreeing ✓✓ and ✗✗ items.
fn pairs(a: Counts, b: Counts, swaps: usize) -> Vec<(Judgement, Judgement)> {
    let mut agree: Vec<(Judgement, Judgement)> = Vec::new();
    let (mut rest_a, mut rest_b) = (Vec::new(), Vec::new());
    for k in 0..3 {
        let common = a[k].min(b[k]) as usize;
        agree.extend(std::iter::repeat_n((VALUES[k], VALUES[k]), common));
        rest_a.extend(std::iter::repeat_n(VALUES[k], a[k] as usize - common));
        rest_b.extend(std::iter::repeat_n(VALUES[k], b[k] as usize - common));
    }
    for _ in 0..swaps {
        let yes = agree.iter().position(|&p| p == (Yes, Yes)).unwrap();
        agree[yes] = (Yes, No);
        let no = agree.iter().position(|&p| p == (No, No)).unwrap();
        agree[no] = (No, Yes);
    }
    agree.into_iter().chain(rest_a.into_iter().zip(rest_b)).collect()
}

/// One MT system, one example per sentence ("the cat saw it ." with antecedent "the cat" where
/// anaphoric), records as in Table 1; the pleonastic category gets two extra disagreements so
/// that there are 14 in all, as in Table 2.
fn paper_master() -> Master {
    let created = Utc.with_ymd_and_hms(2016, 5, 1, 0, 0, 0).unwrap();
    let mut m = Master::new("paper-001".into(), created);
    m.categories = standard_categories();
    m.annotators = vec![
        Annotator { id: AnnotatorId(1), name: "Annotator A".into() },
        Annotator { id: AnnotatorId(2), name: "Annotator B".into() },
    ];
    let mut records = Vec::new();
    for (category, (count, pron_a, pron_b, antecedent)) in m.categories.clone().iter().zip(TABLE_1) {
        let swaps = usize::from(category.name == "pleonastic_it");
        let pronoun = pairs(pron_a, pron_b, swaps);
        let antecedent = antecedent.map(|(a, b)| pairs(a, b, 0));
        assert_eq!(pronoun.len(), count as usize);
        for i in 0..count as usize {
            let sentence = m.examples.len() as u32;
            let no = ExampleNo(sentence + 1);
            let anaphoric = antecedent.is_some();
            m.examples.push(Example {
                no,
                sentence,
                token: 3,
                category: category.name.clone(),
                antecedents: if anaphoric { vec![Antecedent { sentence, start: 0, end: 1, head: 1 }] } else { vec![] },
            });
            let id = CandidateId(no.0);
            m.candidates.push(Candidate {
                id,
                example: no,
                corpus: CorpusId(1),
                pronoun: vec![TokenRef::new(sentence, 2)],
                antecedents: if anaphoric { vec![vec![TokenRef::new(sentence, 1)]] } else { vec![] },
            });
            for (annotator, pick) in [(1, 0), (2, 1)] {
                let mut r = Record::new(id, AnnotatorId(annotator), created);
                let side = |p: (Judgement, Judgement)| if pick == 0 { p.0 } else { p.1 };
                r.pronoun = side(pronoun[i]);
                r.antecedent = antecedent.as_ref().map_or(Unset, |a| side(a[i]));
                if r.pronoun == Yes {
                    r.selected.pronoun.insert(TokenRef::new(sentence, 2));
                }
                if r.antecedent == Yes {
                    r.selected.antecedent.insert(TokenRef::new(sentence, 1));
                }
                records.push(r);
            }
        }
    }
    let n = m.examples.len();
    let corpus = |id, name: &str, role, sentence: &str| Corpus {
        id: CorpusId(id),
        name: name.into(),
        role,
        sentences: vec![sentence.to_string(); n].into(),
        alignment: None,
        segmentation: None,
        label: None,
        link_origins: None,
    };
    m.corpora = vec![
        corpus(0, "source", CorpusRole::Source, "the cat saw it ."),
        corpus(1, "mt", CorpusRole::System, "le chat l' a vu ."),
    ];
    m.documents = vec![0];
    for r in records {
        m.records.put(r);
    }
    m.reindex();
    m
}

fn protest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protest")).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn saved(master: &Master, dir: &Path) -> PathBuf {
    let path = dir.join("paper.master.json");
    master_file::save(master, &path).unwrap();
    master_file::load(&path).expect("the built master is valid");
    path
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
    reader.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect()
}

#[test]
fn results_table_reproduces_paper_001_table_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&paper_master(), dir.path());
    let rows =
        csv_rows(&stdout(&protest(&["report", path.to_str().unwrap(), "--format", "csv", "--table", "results"])));
    assert_eq!(
        rows[0][..5],
        ["Category", "Count", "Pronoun Annotator A ✓", "Pronoun Annotator A ✗", "Pronoun Annotator A ?"]
    );
    assert_eq!(rows[0][11..], ["Antecedent Annotator B ✓", "Antecedent Annotator B ✗", "Antecedent Annotator B ?"]);
    let cells = |(count, pa, pb, ant): PaperRow| {
        let mut v = vec![count.to_string()];
        v.extend(pa.iter().chain(&pb).map(u32::to_string));
        match ant {
            Some((aa, ab)) => v.extend(aa.iter().chain(&ab).map(u32::to_string)),
            None => v.extend(std::iter::repeat_n(String::new(), 6)),
        }
        v
    };
    let labels = [
        "Anaphoric / Inter-sentential “it” / Subject",
        "Anaphoric / Inter-sentential “it” / Non-subject",
        "Anaphoric / Intra-sentential “it” / Subject",
        "Anaphoric / Intra-sentential “it” / Non-subject",
        "Anaphoric / Inter-sentential “they”",
        "Anaphoric / Intra-sentential “they”",
        "Anaphoric / Singular “they”",
        "Anaphoric / Group “it/they”",
        "Event reference “it”",
        "Pleonastic “it”",
        "Addressee reference / Deictic singular “you”",
        "Addressee reference / Deictic plural “you”",
        "Addressee reference / Generic “you”",
    ];
    assert_eq!(rows.len(), 1 + 13 + 1);
    for ((row, label), expected) in rows[1..14].iter().zip(labels).zip(TABLE_1) {
        assert_eq!(row[0], label);
        assert_eq!(row[1..], cells(expected)[..], "{label}");
    }
    // The paper's total row.
    let total = ["Total", "116", "93", "19", "4", "83", "29", "4", "64", "3", "1", "65", "3", "0"];
    assert_eq!(rows[14], total);

    let text = stdout(&protest(&["report", path.to_str().unwrap(), "--table", "results"]));
    assert!(text.starts_with("Annotation results over 116 pronoun translations\n"), "{text}");
    let total_line = text.lines().find(|l| l.starts_with("Total")).unwrap();
    assert_eq!(total_line.split_whitespace().collect::<Vec<_>>(), total);
    let event = text.lines().find(|l| l.starts_with("Event reference")).unwrap();
    let dashes: Vec<&str> = event.split_whitespace().skip(7 + 3).collect();
    assert_eq!(dashes, ["–"; 6], "antecedent columns show – for non-anaphoric: {event}");
}

#[test]
fn agreement_table_reproduces_paper_001_table_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&paper_master(), dir.path());
    let out = stdout(&protest(&["report", path.to_str().unwrap(), "-f", "csv", "-t", "agreement", "-t", "pairwise"]));
    let (agreement, pairwise) = out.split_once("\n\n").unwrap();
    // CSV carries κ at full precision; the paper gives two decimals.
    assert_eq!(csv_rows(agreement)[1][3], "0.685880077369439");
    let rounded = |csv: &str| -> Vec<Vec<String>> {
        let two = |cell: String| match cell.parse::<f64>() {
            Ok(x) if cell.contains('.') => format!("{x:.2}"),
            _ => cell,
        };
        csv_rows(csv).into_iter().map(|row| row.into_iter().map(two).collect()).collect()
    };
    assert_eq!(
        rounded(agreement),
        [
            ["Judgement", "Items", "Disagreements", "Kappa"],
            ["Pronoun", "116", "14", "0.69"],
            ["Antecedent", "68", "1", "0.85"],
        ]
    );
    assert_eq!(
        rounded(pairwise),
        [
            [
                "Annotator",
                "Pronoun Annotator A",
                "Pronoun Annotator B",
                "Antecedent Annotator A",
                "Antecedent Annotator B"
            ],
            ["Annotator A", "", "0.69", "", "0.85"],
            ["Annotator B", "0.69", "", "0.85", ""],
        ]
    );
}

#[test]
fn scores_from_the_judgements_and_their_tie_rule() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&paper_master(), dir.path());
    let out = stdout(&protest(&["report", path.to_str().unwrap(), "-f", "csv", "-t", "scores"]));
    // Worked out by hand from the pairing: both ✓ on 83 − 1 (the pleonastic swap) = 82 items,
    // ✓ against ? on 2 (singular they, group) → 84 correct; both ✗ on 19 − 1 = 18, ✗ against ?
    // on 2 (intra non-subject it, deictic plural you) → 20 incorrect; ✓ against ✗ on 10 (ties)
    // and both ? on 2 → 12 undecided. The score is over the 104 decided: 84 / 104 = 0.808; it
    // can still be 84 / 116 = 0.724 to 96 / 116 = 0.828; Wilson's 95 % interval over the 104
    // decided (z = 1.96): 0.7215 to 0.8719.
    let row = &csv_rows(&out)[1];
    assert_eq!(row[..7], ["mt", "116", "104", "84", "0", "20", "12"]);
    // CSV at full precision.
    assert_eq!(row[7..10], [84.0_f64 / 104.0, 84.0 / 116.0, 96.0 / 116.0].map(|x| x.to_string()));
    let four = |x: &str| format!("{:.4}", x.parse::<f64>().unwrap());
    assert_eq!([four(&row[10]), four(&row[11])], ["0.7215", "0.8719"]);
    assert_eq!(
        csv_rows(&out)[0][1..],
        [
            "Examples",
            "Decided",
            "Correct judged",
            "Correct matched",
            "Incorrect",
            "Undecided",
            "Score",
            "Lowest",
            "Highest",
            "CI low",
            "CI high"
        ]
    );
    let text = stdout(&protest(&["report", path.to_str().unwrap(), "-t", "scores"]));
    let notes = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        notes.contains("Pronoun verdicts used: 4 a single annotator, 100 all annotators agreeing, 10 tied (undecided), 2 not judged (undecided)."),
        "the rule and its use are printed under the table:\n{text}"
    );
}

#[test]
fn exports_every_table_to_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(&paper_master(), dir.path());
    for (format, ext) in [("csv", "csv"), ("markdown", "md"), ("latex", "tex"), ("text", "txt")] {
        let out_dir = dir.path().join(format);
        let printed = stdout(&protest(&[
            "report",
            path.to_str().unwrap(),
            "--format",
            format,
            "--output",
            out_dir.to_str().unwrap(),
        ]));
        let names = ["results", "agreement", "pairwise", "scores", "category-scores", "auto-eval", "rounds"];
        for name in names {
            let file = out_dir.join(format!("{name}.{ext}"));
            assert!(printed.contains(&format!("wrote {}", file.display())), "{printed}");
            let content = std::fs::read_to_string(&file).unwrap();
            match format {
                "csv" => {
                    let rows = csv_rows(&content);
                    assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{name}: every row has every column");
                }
                "latex" => {
                    assert!(content.contains("\\begin{tabular}") && content.ends_with("\\end{table}\n"), "{content}");
                    assert!(!content.contains('✓') && !content.contains('“'), "symbols are given in LaTeX: {content}");
                }
                "markdown" => assert!(content.starts_with("### "), "{content}"),
                _ => assert!(!content.is_empty()),
            }
        }
    }
}

#[test]
fn bad_arguments_are_refused() {
    let out = protest(&["report", "nowhere.master.json"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nowhere.master.json"));
    let out = protest(&["report", "x.json", "--table", "kappa"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("invalid value 'kappa' for '--table <NAME>'") && said.contains("metric-correlation, time]"),
        "{said}"
    );
    let out = protest(&["report", "x.json", "--format", "pdf"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("[possible values: text, csv, markdown, latex, json]"), "{said}");
}
