//! `protest apt`: the reference implementation's shipped configurations give its shipped outputs,
//! and every option behaves as the reference's does on small hand-made inputs.
//!
//! The expected outputs of the hand-made cases were produced by the reference implementation
//! (APT.py, Python 2.7 with numpy) on the files in tests/fixtures/apt; each test says why they are
//! what they are.

use crate::common::*;
use std::fs;
use std::path::Path;

// ---- The shipped Spanish→English data (shared/data/apt-es-en) ----

/// `output1.score` as shipped with the reference implementation.
const OUTPUT1_SCORE: &str = "Score: 0.4000
Cases: 1,2,3,4,5,6
Weights: 1.0,0.5,0.0,0.0,0.0,0.0
Findings per case: 38,0,42,10,2,3
Total findings: 95
\this\tNONE\tthey\tour\tthat\ti\ther\twith\tbelieved\twe\t...\t-sum-
his\t5\t0\t0\t0\t0\t0\t0\t0\t0\t0\t1\t6
NONE\t0\t3\t0\t0\t0\t0\t0\t0\t0\t0\t2\t5
they\t0\t0\t3\t0\t0\t0\t0\t0\t0\t0\t0\t3
our\t0\t0\t0\t3\t0\t0\t0\t0\t0\t0\t0\t3
that\t0\t0\t0\t0\t3\t0\t0\t0\t0\t0\t2\t5
i\t0\t0\t0\t0\t0\t3\t0\t0\t0\t0\t0\t3
her\t0\t0\t0\t0\t0\t0\t2\t0\t0\t0\t0\t2
with\t0\t0\t0\t0\t0\t0\t0\t2\t0\t0\t1\t3
believed\t0\t0\t0\t0\t0\t0\t0\t0\t2\t0\t0\t2
we\t0\t0\t0\t0\t0\t0\t0\t0\t0\t2\t0\t2
...\t2\t10\t1\t1\t1\t0\t3\t0\t0\t0\t43\t61
-sum-\t7\t13\t4\t4\t4\t3\t5\t2\t2\t2\t49\t95
";

/// The confusion matrix shared by `output2.score` and `output3.score` (the configurations differ
/// only in `count_OTHER_as_equal`, which moves findings between cases, not between cells).
const OUTPUT23_MATRIX: &str =
    "\tOTHER\this\tNONE\tthat\tthey\ti\twe\ther\twho\tshe\ttheir\tits\the\tit\tyou\t...\t-sum-
OTHER\t40\t1\t6\t1\t2\t0\t0\t2\t2\t0\t2\t0\t0\t0\t0\t0\t56
his\t1\t5\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t6
NONE\t2\t0\t3\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t5
that\t2\t0\t0\t3\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t5
they\t0\t0\t0\t0\t3\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t3
i\t0\t0\t0\t0\t0\t3\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t3
we\t0\t0\t0\t0\t0\t0\t2\t0\t0\t0\t0\t0\t0\t0\t0\t0\t2
her\t0\t1\t0\t0\t0\t0\t0\t2\t0\t0\t0\t0\t0\t0\t0\t0\t3
who\t1\t0\t1\t0\t0\t0\t0\t0\t1\t0\t0\t0\t0\t0\t0\t0\t3
she\t0\t0\t0\t0\t0\t0\t0\t0\t0\t1\t0\t0\t0\t0\t0\t0\t1
their\t0\t0\t2\t0\t0\t0\t0\t1\t0\t0\t0\t0\t0\t0\t0\t0\t3
its\t2\t1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t3
he\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0
it\t1\t0\t1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t2
you\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0
...\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0
-sum-\t49\t8\t13\t4\t5\t3\t2\t5\t3\t1\t2\t0\t0\t0\t0\t0\t95
";

const SCORE_HEAD: &str = "Cases: 1,2,3,4,5,6\nWeights: 1.0,0.5,0.0,0.0,0.0,0.0\n";

/// Per shipped configuration: the case column of the reference's `.detail` (95 instances), and
/// the FNV-1a hash and length in bytes of the whole file.
const SHIPPED_DETAILS: [(&str, u64, usize); 3] = [
    (
        "34111116331364443431133333111151333343313353314131133111113434313313133143311131113133131613331",
        0x0549_8a92_cc27_cba5,
        3195,
    ),
    (
        "34111116111164441411131113111351111343113151314111133111311414313111133141111131311131131613111",
        0xdcf5_11d9_101e_b5d3,
        3006,
    ),
    (
        "34133336331364443433333333111351333343313353314131133113313434313313333143333133313333333613333",
        0xac3d_1331_7df8_4b2b,
        3006,
    ),
];

fn shipped_run(n: usize) -> (String, String) {
    let dir = copy_of(&fixture("apt-es-en"));
    let out = ok(dir.path(), &["apt", &format!("config_{n}")]);
    let score = read(dir.path().join(format!("output{n}.score")));
    assert!(out.starts_with(score.lines().next().unwrap()), "the score is printed: {out}");
    (score, read(dir.path().join(format!("output{n}.detail"))))
}

fn check_detail(n: usize, detail: &str) {
    let (cases, hash, len) = SHIPPED_DETAILS[n - 1];
    let got: String = detail.lines().skip(1).map(|l| l.rsplit('\t').next().unwrap()).collect();
    assert_eq!(got, cases, "cases of config_{n}");
    assert_eq!((fnv1a(detail.as_bytes()), detail.len()), (hash, len), "output{n}.detail differs from the reference's");
}

#[test]
fn shipped_config_1_without_target_list() {
    let (score, detail) = shipped_run(1);
    assert_eq!(score, OUTPUT1_SCORE);
    check_detail(1, &detail);
    // Multi-word translations and missing ones, as the reference writes them.
    assert!(detail.contains("\n0\t16\tsu-pl\t15 16\ttheir histories\t-\t-\t4\n"));
    assert!(detail.contains("\n21\t32\tsu-masc-sg\t32 33 35\tto his ,\t27\this\t1\n"));
    assert!(detail.contains("\n38\t30\tél\t30\tcould\t30\tshape\t3\n"));
}

#[test]
fn shipped_config_2_with_target_list_counting_other() {
    let (score, detail) = shipped_run(2);
    assert_eq!(
        score,
        format!("Score: 0.6316\n{SCORE_HEAD}Findings per case: 60,0,20,10,2,3\nTotal findings: 95\n{OUTPUT23_MATRIX}")
    );
    check_detail(2, &detail);
    assert!(detail.contains("\n0\t16\tsu-pl\t15 16\ttheir\t-\t-\t4\n"), "only target-list words are kept");
    assert!(detail.contains("\n1\t9\tdummy-we\t9\tOTHER\t9\tOTHER\t1\n"), "OTHER = OTHER counts as identical");
}

#[test]
fn shipped_config_3_with_target_list_not_counting_other() {
    let (score, detail) = shipped_run(3);
    assert_eq!(
        score,
        format!("Score: 0.2105\n{SCORE_HEAD}Findings per case: 20,0,60,10,2,3\nTotal findings: 95\n{OUTPUT23_MATRIX}")
    );
    check_detail(3, &detail);
    assert!(detail.contains("\n1\t9\tdummy-we\t9\tOTHER\t9\tOTHER\t3\n"));
}

// ---- Hand-made inputs (tests/fixtures/apt) ----

/// The fixture with `edits` applied to its configuration (`(old line start, new line)`), run
/// with `--output out`; returns (score, detail).
fn hand_made(edits: &[(&str, &str)]) -> (String, String) {
    let dir = copy_of(&fixture("apt"));
    edit_config(dir.path(), edits);
    ok(dir.path(), &["apt", "config.ini", "--output", "out"]);
    (read(dir.path().join("out.score")), read(dir.path().join("out.detail")))
}

fn edit_config(dir: &Path, edits: &[(&str, &str)]) {
    let path = dir.join("config.ini");
    let mut text = read(&path);
    for (start, new) in edits {
        let line = text.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no line {start}"));
        text = text.replace(line, new);
    }
    fs::write(path, text).unwrap();
}

const DETAIL_HEADER: &str = "SENT.\tPOS. SOURCE\tSOURCE\tPOS. REF.\tREF.\tPOS. TARGET\tTARGET\tCASE\n";

#[test]
fn every_case_with_lists_groups_and_the_alignment_heuristic() {
    let (score, detail) = hand_made(&[]);
    assert_eq!(
        detail,
        format!(
            "{DETAIL_HEADER}\
             0\t0\tit\t0\til\t0\til\t1\n\
             0\t3\tthey\t3\tils\t3\telles\t3\n\
             0\t5\tit\t4\tle\t-\t-\t4\n\
             1\t3\tit\t3\tça\t4 3\til\t2\n\
             2\t0\tthey\t0\tils\t0\tils\t1\n\
             2\t2\tit\t2 2\tx-il\t-\t-\t4\n"
        )
    );
    // 1 3: the candidate's "it" is aligned to "marche" (OTHER); the heuristic adds "il" (3), which
    //      comes after the original position, replaces OTHER, and is equivalent to "ça".
    // 2 2: "x-it" is found through the source separator; its reference "x-il" is no target-list
    //      word, but its last part is a heuristic target pronoun, so the heuristic adds that very
    //      token (again); outside the categories, it counts in the whole NONE row (reference quirk).
    assert_eq!(
        score,
        "Score: 0.4167\nCases: 1,2,3,4,5,6\nWeights: 1.0,0.5,0.0,0.0,0.0,0.0\n\
         Findings per case: 2,1,1,2,0,0\nTotal findings: 6\n\
         \tNONE\tils\til\tOTHER\t...\t-sum-\n\
         NONE\t1\t1\t1\t1\t5\t9\n\
         ils\t0\t1\t0\t0\t1\t2\n\
         il\t0\t0\t1\t0\t0\t1\n\
         OTHER\t0\t0\t0\t0\t0\t0\n\
         ...\t1\t0\t1\t0\t0\t2\n\
         -sum-\t2\t2\t3\t1\t6\t14\n"
    );
}

#[test]
fn without_target_list_every_aligned_word_is_a_category() {
    let (score, detail) = hand_made(&[
        ("list_target_pronouns", "list_target_pronouns:"),
        ("counting_multiword_in_matrix", "counting_multiword_in_matrix: true"),
        ("max_length_matrix", "max_length_matrix = 20"),
    ]);
    assert!(detail.contains("\n1\t3\tit\t3\tça\t4 3\tmarche il\t2\n"), "{detail}");
    assert!(detail.contains("\n2\t2\tit\t2 2\tx-il x-il\t-\t-\t4\n"), "{detail}");
    // Categories in Python's set order; multi-word translations count every pair.
    let matrix: Vec<&str> = score.lines().skip(5).collect();
    assert_eq!(matrix[0], "\tils\til\tNONE\tx-il\tça\telles\tle\tmarche\t-sum-");
    assert_eq!(matrix[5], "ça\t0\t1\t0\t0\t0\t0\t0\t0\t1");
    assert_eq!(matrix[9], "-sum-\t1\t2\t2\t0\t0\t1\t0\t0\t6");
}

#[test]
fn positions_file_lists_instances_in_its_own_order() {
    let (score, detail) = hand_made(&[
        ("list_source_pronouns", "list_source_pronouns: positions.txt"),
        ("input_type", "input_type: possition"),
        ("source_pronouns", "source_pronouns:"),
        ("target_pronouns", "target_pronouns:"),
    ]);
    // Any token may be listed ("thinks"); the source word is the whole token ("x-it").
    assert_eq!(
        detail,
        format!(
            "{DETAIL_HEADER}\
             2\t2\tx-it\t2\tOTHER\t-\t-\t4\n\
             0\t3\tthey\t3\tils\t3\telles\t3\n\
             1\t1\tthinks\t1\tOTHER\t1\tOTHER\t3\n\
             0\t0\tit\t0\til\t0\til\t1\n"
        )
    );
    assert!(score.starts_with("Score: 0.2500\n"), "{score}");
    // "position" is accepted for the reference's spelling "possition".
    let (_, same) = hand_made(&[
        ("list_source_pronouns", "list_source_pronouns: positions.txt"),
        ("input_type", "input_type: position"),
        ("source_pronouns", "source_pronouns:"),
        ("target_pronouns", "target_pronouns:"),
    ]);
    assert_eq!(same, detail);
}

#[test]
fn cases_subset_weights_and_counting_other() {
    let (score, detail) = hand_made(&[
        ("cases_to_use", "cases_to_use: 1,3,4"),
        ("weigths_per_case", "weigths_per_case: 1,0,0.5"),
        ("count_OTHER_as_equal", "count_OTHER_as_equal: true"),
        ("equal", "equal:"),
        ("similar", "similar:"),
        ("source_word_separator", "source_word_separator:"),
    ]);
    // Without the separator "x-it" is no instance; without groups "ça"/"il" are different (3);
    // case 4 weighs 0.5: (2·1 + 2·0 + 1·0.5) / 5.
    assert!(
        score.starts_with("Score: 0.5000\nCases: 1,3,4\nWeights: 1.0,0.0,0.5\nFindings per case: 2,2,1\n"),
        "{score}"
    );
    assert_eq!(detail.lines().count(), 6);
    assert!(detail.contains("\n1\t3\tit\t3\tça\t4 3\til\t3\n"));
    // A single weight applies to every case, as numpy broadcasts it.
    let (score, _) =
        hand_made(&[("cases_to_use", "cases_to_use: 1,3,4"), ("weigths_per_case", "weights_per_case: 0.25")]);
    assert!(score.starts_with("Score: 0.2500\nCases: 1,3,4\nWeights: 0.25,0.25,0.25\n"), "{score}");
}

#[test]
fn dropped_cases_are_still_detailed_but_not_scored() {
    let (score, detail) =
        hand_made(&[("cases_to_use", "cases_to_use: 1,2"), ("weigths_per_case", "weigths_per_case: 1,0.5")]);
    assert!(
        score.starts_with("Score: 0.8333\nCases: 1,2\nWeights: 1.0,0.5\nFindings per case: 2,1\nTotal findings: 3\n")
    );
    assert_eq!(detail.lines().count(), 7, "all six instances are listed");
}

#[test]
fn output_defaults_to_the_config_and_paths_are_relative_to_it() {
    let dir = copy_of(&fixture("apt"));
    let sub = dir.path().join("cfg");
    fs::create_dir(&sub).unwrap();
    // Input files one folder up, the output stem beside the configuration.
    let text: Vec<String> = read(dir.path().join("config.ini"))
        .lines()
        .map(|line| match line.split_once(": ") {
            Some((key, value))
                if value.contains('.') && value.contains(char::is_alphabetic) && key != "output_file" =>
            {
                format!("{key}: ../{value}")
            }
            Some(("output_file", _)) => "output_file: result".to_owned(),
            _ => line.to_owned(),
        })
        .collect();
    fs::write(sub.join("config.ini"), text.join("\n")).unwrap();
    let out = ok(dir.path(), &["apt", "cfg/config.ini"]);
    assert!(out.contains("6 instances"), "{out}");
    assert!(sub.join("result.score").is_file() && sub.join("result.detail").is_file());
}

#[test]
fn paths_not_beside_the_config_are_looked_up_in_the_working_directory() {
    let dir = copy_of(&fixture("apt"));
    let sub = dir.path().join("cfg");
    fs::create_dir(&sub).unwrap();
    fs::rename(dir.path().join("config.ini"), sub.join("config.ini")).unwrap();
    ok(dir.path(), &["apt", "cfg/config.ini", "--output", "here"]);
    assert!(dir.path().join("here.score").is_file(), "--output is relative to the working directory");
    // A file that is in both places is taken from beside the configuration.
    fs::copy(dir.path().join("source.list"), sub.join("source.list")).unwrap();
    fs::write(sub.join("source.list"), "they\n").unwrap();
    ok(dir.path(), &["apt", "cfg/config.ini", "--output", "here"]);
    assert!(read(dir.path().join("here.score")).contains("Total findings: 2\n"), "only the two they");
}

#[test]
fn configuration_errors_name_the_file_line_and_problem() {
    let err = |edits: &[(&str, &str)]| {
        let dir = copy_of(&fixture("apt"));
        edit_config(dir.path(), edits);
        let err = refused(dir.path(), &["apt", "config.ini"]);
        assert!(!dir.path().join("out.score").exists() && !dir.path().join("out.detail").exists());
        err
    };
    let e = err(&[("reference:", "reference: missing.fr")]);
    assert!(e.contains("config.ini: line 8: reference: no file missing.fr"), "{e}");
    let e = err(&[("list_target_pronouns", "list_target_pronouns: nope.list")]);
    assert!(e.contains("line 14: list_target_pronouns: no file nope.list"), "{e}");
    let e = err(&[("weigths_per_case", "weigths_per_case: 1,0.5")]);
    assert!(e.contains("line 22: 2 weights for 6 cases"), "{e}");
    let e = err(&[("cases_to_use", "cases_to_use: 1,x")]);
    assert!(e.contains("line 21: cases_to_use: \"x\" is not a case number"), "{e}");
    let e = err(&[("count_OTHER_as_equal", "count_OTHER_as_equal: maybe")]);
    assert!(e.contains("line 23: count_OTHER_as_equal is \"maybe\"; expected true or false"), "{e}");
    let e = err(&[("max_length_matrix", "max_length_matrix = -1")]);
    assert!(e.contains("line 27: max_length_matrix is \"-1\""), "{e}");
    let e = err(&[("input_type", "input_type: words")]);
    assert!(e.contains("line 13: input_type is \"words\""), "{e}");
    let e = err(&[("[cases]", "cases here")]);
    assert!(e.contains("line 20: expected a [section] header"), "{e}");
    let e = err(&[("list_source_pronouns", "list_source_pronouns:")]);
    assert!(e.contains("[files] list_source_pronouns is missing or empty"), "{e}");
}

#[test]
fn unknown_keys_and_cases_are_warned_about() {
    let dir = copy_of(&fixture("apt"));
    edit_config(dir.path(), &[("cases_to_use", "cases_to_use: 1,2,3,4,5,6,7\ncolour: blue")]);
    let out = protest(dir.path(), &["apt", "config.ini", "-o", "out"]);
    assert!(out.status.success());
    let warnings = String::from_utf8(out.stderr).unwrap();
    assert!(warnings.contains("case 7 does not exist"), "{warnings}");
    assert!(warnings.contains("line 22: [cases] colour is not an APT option; ignored"), "{warnings}");
}

#[test]
fn corpus_errors_name_the_file_and_line() {
    let run = |file: &str, content: &str| {
        let dir = copy_of(&fixture("apt"));
        fs::write(dir.path().join(file), content).unwrap();
        refused(dir.path(), &["apt", "config.ini"])
    };
    let e = run("candidate.alig", "0-0 1-1 2-2 3-3 4-4\n0-0 1-1 2-2 3-9 4-4\n0-0 1-1\n");
    assert!(e.contains("candidate.alig: line 2: pair 3-9: target index 9 is past the end of line 2"), "{e}");
    let e = run("reference.fr", "Il pleut et ils le disent\n");
    assert!(e.contains("reference.fr: has fewer lines than the source"), "{e}");
    let e = run("reference.alig", "0-0 1-1 2-2 3-3 4-5 5-4\n0-0 1-1 2-2 3-3 4-4\n0-0 1-1 2-2\n0-0\n");
    assert!(e.contains("reference.alig: line 4: the source"), "{e}");
    let e = run("candidate.alig", "0-0 1-1 2-2 3-3 4-4\n0:0\n0-0 1-1\n");
    assert!(e.contains("candidate.alig: line 2: malformed pair '0:0'"), "{e}");
    // Empty lines after the end of an alignment are fine (the news corpus has one).
    let dir = copy_of(&fixture("apt"));
    let alig = read(dir.path().join("candidate.alig")) + "\n\n";
    fs::write(dir.path().join("candidate.alig"), alig).unwrap();
    ok(dir.path(), &["apt", "config.ini"]);
}

#[test]
fn positions_file_errors() {
    let run = |positions: &str| {
        let dir = copy_of(&fixture("apt"));
        fs::write(dir.path().join("positions.txt"), positions).unwrap();
        edit_config(
            dir.path(),
            &[("list_source_pronouns", "list_source_pronouns: positions.txt"), ("input_type", "input_type: possition")],
        );
        refused(dir.path(), &["apt", "config.ini"])
    };
    assert!(run("0 1\n1\n").contains("positions.txt: line 2: expected `sentence position`"));
    assert!(run("0 1\n\n7 0\n").contains("positions.txt: line 3: sentence 8 (7 in the file) does not exist"));
    assert!(
        run("2 9\n").contains("positions.txt: line 1: position 9 is past the end of source sentence 3 (2 in the file)")
    );
}

/// The messages say where they looked and what to do, and an output folder that is
/// not there is made (and said), as for every command's output folder.
#[test]
fn a_missing_file_says_where_it_was_looked_for_and_a_missing_output_folder_is_made() {
    let dir = copy_of(&fixture("apt"));
    let d = dir.path();
    edit_config(d, &[("equal:", "equal: nope.groups")]);
    let e = refused(d, &["apt", "config.ini"]);
    assert!(
        e.contains(
            "config.ini: line 16: equal: no file nope.groups (looked in the working directory, where the \
             configuration is); give a path relative to the configuration's folder, or an absolute one"
        ),
        "{e}"
    );
    let sub = d.join("cfg");
    fs::create_dir(&sub).unwrap();
    fs::rename(d.join("config.ini"), sub.join("config.ini")).unwrap();
    let e = refused(d, &["apt", "cfg/config.ini"]);
    assert!(e.contains("(looked beside the configuration, in cfg, and in the working directory)"), "{e}");
    fs::rename(sub.join("config.ini"), d.join("config.ini")).unwrap();
    edit_config(d, &[("equal:", "equal: equal.groups")]);
    let out = ok(d, &["apt", "config.ini", "-o", "nodir/x"]);
    assert!(out.starts_with("created the folder nodir\n"), "{out}");
    assert!(d.join("nodir/x.score").is_file() && d.join("nodir/x.detail").is_file());
}
