//! `protest auto-eval` on the tiny fixture: the first round matches against the reference, a
//! judged translation settles another system's identical one in the next round, results are
//! stored in the master and reported.

use chrono::{TimeZone, Utc};
use protest::model::{
    Annotator, AnnotatorId, Candidate, CandidateId, Corpus, CorpusId, CorpusRole, Judgement, Master, Outcome, Record,
};
use protest::store::master_file;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny/tiny.master.json");

fn protest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_protest")).args(args).output().unwrap()
}

fn stdout(output: Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The tiny master with a second MT system that translates like the first ("Elle … bicyclette",
/// "Il", "Tu"), saved in `dir`.
fn two_systems(dir: &Path) -> PathBuf {
    let mut m = master_file::load(Path::new(TINY)).unwrap();
    let mt = m.corpora[2].clone();
    m.corpora.push(Corpus { id: CorpusId(3), name: "mt2".into(), role: CorpusRole::System, ..mt });
    let copies: Vec<Candidate> = [2, 4, 6]
        .into_iter()
        .zip(7..)
        .map(|(from, id)| Candidate {
            id: CandidateId(id),
            corpus: CorpusId(3),
            ..m.candidate(CandidateId(from)).unwrap().clone()
        })
        .collect();
    m.candidates.extend(copies);
    m.annotators.push(Annotator { id: AnnotatorId(1), name: "Marie".into() });
    m.reindex();
    let path = dir.join("two.master.json");
    master_file::save(&m, &path).unwrap();
    path
}

fn edit(path: &Path, change: impl FnOnce(&mut Master)) {
    let mut m = master_file::load(path).unwrap();
    change(&mut m);
    master_file::save(&m, path).unwrap();
}

fn outcome(path: &Path, candidate: u32) -> Outcome {
    master_file::load(path).unwrap().auto_eval.entry(CandidateId(candidate)).unwrap().outcome
}

#[test]
fn rounds_settle_more_as_annotation_proceeds() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_systems(dir.path());
    let p = path.to_str().unwrap();

    // The reference match alone: the agreement judge has tests of its own (suite_cli).
    let first = stdout(protest(&["auto-eval", p, "--no-agreement"]));
    assert!(
        first.starts_with("Round 1: 6 MT candidates compared with 'reference' and 0 translations judged correct\n"),
        "{first}"
    );
    assert!(first.contains("  match               2   settled this round: 2\n"), "{first}");
    assert!(first.contains("  mismatch            4\n"), "{first}");
    assert!(first.contains("  to humans           4\n"), "{first}");
    let stored = master_file::load(&path).unwrap();
    assert_eq!((stored.revision, stored.auto_eval.rounds.len(), stored.auto_eval.outcomes.len()), (1, 1, 6));
    assert_eq!(outcome(&path, 7), Outcome::Mismatch);

    // Marie judges the first system's anaphoric translation correct, with its tokens.
    edit(&path, |m| {
        let c = m.candidate(CandidateId(2)).unwrap().clone();
        let mut r = Record::new(c.id, AnnotatorId(1), Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap());
        r.pronoun = Judgement::Yes;
        r.antecedent = Judgement::Yes;
        r.selected.pronoun.extend(&c.pronoun);
        r.selected.antecedent.extend(c.antecedents.iter().flatten());
        m.records.put(r);
    });
    let second = stdout(protest(&["auto-eval", p, "--no-agreement"]));
    assert!(
        second.starts_with("Round 2: 6 MT candidates compared with 'reference' and 1 translations judged correct"),
        "{second}"
    );
    assert!(second.contains("  match               3   settled this round: 1\n"), "{second}");
    assert_eq!(outcome(&path, 7), Outcome::Match);

    let report = stdout(protest(&["report", p, "--format", "csv", "--table", "auto-eval", "--table", "rounds"]));
    let (auto, rounds) = report.split_once("\n\n").unwrap();
    let lines: Vec<&str> = auto.lines().collect();
    assert_eq!(
        lines[0],
        "System,Candidates,Match reference,Match judged,Mismatch,No translation,No reference,Not run,To humans all,To humans open,Matches judged ✗,Aligned by bridge,Aligned by aligner,Aligned by given"
    );
    // The fixture's alignments were given: every match rests on given links.
    assert_eq!(lines[1], "mt,3,1,0,2,0,0,0,2,1,0,0,0,1", "candidate 2 is judged, 6 still open");
    assert_eq!(lines[2], "mt2,3,1,1,1,0,0,0,1,1,0,0,0,2");
    assert_eq!(lines[3], "Total,6,2,1,3,0,0,0,3,2,0,0,0,3");
    let rounds: Vec<Vec<&str>> = rounds.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rounds.iter().map(|r| (r[0], r[2], r[3], r[4])).collect::<Vec<_>>(),
        [("Round 1", "0", "2", "2"), ("Round 2", "1", "3", "1")]
    );
}

#[test]
fn dry_run_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_systems(dir.path());
    let before = std::fs::read(&path).unwrap();
    let out = stdout(protest(&["auto-eval", path.to_str().unwrap(), "--dry-run"]));
    assert!(out.contains("dry run"), "{out}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn stored_results_are_checked_on_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_systems(dir.path());
    stdout(protest(&["auto-eval", path.to_str().unwrap(), "--no-agreement"]));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains(
            "\n \"auto_eval\":{\n  \"outcomes\":[\n   {\"candidate\":2,\"outcome\":\"mismatch\",\"round\":1},\n"
        ),
        "{text}"
    );
    let broken = text.replace(
        "{\"candidate\":4,\"outcome\":\"match\",\"reference\":3,",
        "{\"candidate\":4,\"outcome\":\"match\",\"reference\":5,",
    );
    std::fs::write(&path, broken).unwrap();
    let out = protest(&["check", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("auto_eval.outcomes[1].reference: automatic match of candidate 4: reference 5 is not another candidate of example 2"),
        "{err}"
    );
}

#[test]
fn a_missing_master_is_named() {
    let out = protest(&["auto-eval", "missing.master.json"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.master.json"));
}

#[test]
fn plans_only_the_candidates_that_still_need_a_human() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_systems(dir.path());
    let p = path.to_str().unwrap();
    let plan = ["batch", "plan", p, "--annotators", "1", "--seed", "7", "--only-needing-human"];

    let refused = protest(&plan);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("two.master.json: the automatic reference match has not been run on this master yet")
            && err.contains("run `protest auto-eval` on it first"),
        "{err}"
    );
    assert!(master_file::load(&path).unwrap().task_sets.is_empty());

    stdout(protest(&["auto-eval", p, "--no-agreement"])); // matches 4 and 8 ("Il" = "Il")
    stdout(protest(&plan));
    let m = master_file::load(&path).unwrap();
    let mut planned: Vec<u32> = m.task_sets[0].tasks.iter().flat_map(|t| &t.candidates).map(|c| c.0).collect();
    planned.sort_unstable();
    assert_eq!(planned, [1, 2, 3, 5, 6, 7, 9], "every candidate but the two matched ones");
}

#[test]
fn on_the_merged_sample_the_minimal_rule_settles_more_as_precisely() {
    let dir = crate::common::merged_sample();
    let run =
        |rule: &str| crate::common::ok(dir.path(), &["auto-eval", "sample.master.json", "--dry-run", "--rule", rule]);
    let aligned = run("aligned");
    assert!(aligned.contains("  rule            aligned_tokens\n"), "{aligned}");
    assert!(aligned.contains("  match              17"), "{aligned}");
    assert!(aligned.contains("judged ✗ by humans: 0 of 17 matches with a verdict"), "{aligned}");
    let minimal = run("minimal");
    assert!(minimal.contains("  match              20"), "{minimal}");
    assert!(minimal.contains("judged ✗ by humans: 0 of 20 matches with a verdict"), "{minimal}");

    // Example 14: the MT's "ils ont" against the approved "ils" of the reference's "Puis ils ont".
    let mut master = master_file::load(&dir.path().join("sample.master.json")).unwrap();
    let example = protest::model::ExampleNo(14);
    let of = |corpus: CorpusRole, m: &Master| {
        m.candidates_of(example).find(|c| m.corpus(c.corpus).unwrap().role == corpus).unwrap().clone()
    };
    let (mt, reference) = (of(CorpusRole::System, &master), of(CorpusRole::Reference, &master));
    let approved: Vec<&Record> =
        master.records.of_candidate(reference.id).filter(|r| r.pronoun == Judgement::Yes).collect();
    let words = |c: &Candidate, tokens: &[protest::model::TokenRef]| {
        master.corpus(c.corpus).unwrap().words(tokens).to_lowercase()
    };
    assert!(
        !approved.is_empty()
            && approved
                .iter()
                .all(|r| words(&reference, &r.selected.pronoun.iter().copied().collect::<Vec<_>>()) == "ils")
    );
    assert_eq!(words(&mt, &mt.pronoun), "ils ont");
    for (rule, expected) in [
        (protest::model::MatchRule::AlignedTokens, (Outcome::Mismatch, None)),
        (protest::model::MatchRule::MinimalTokens, (Outcome::Match, Some(reference.id))),
    ] {
        master.auto_eval.rule = rule;
        let evaluated = protest::metrics::auto_eval::run(&master, Utc::now());
        let entry = evaluated.entry(mt.id).unwrap();
        assert_eq!((entry.outcome, entry.reference), expected, "{rule:?}");
    }
}

#[test]
fn the_rule_is_stored_with_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_systems(dir.path());
    let p = path.to_str().unwrap();
    stdout(protest(&["auto-eval", p, "--rule", "aligned"]));
    let stored = master_file::load(&path).unwrap();
    assert_eq!(stored.auto_eval.rule, protest::model::MatchRule::AlignedTokens);
    let second = stdout(protest(&["auto-eval", p]));
    assert!(second.contains("  rule            aligned_tokens\n"), "the stored rule: {second}");
    let third = stdout(protest(&["auto-eval", p, "--rule", "minimal"]));
    assert!(third.contains("  rule            minimal_tokens\n"), "{third}");
    let rounds = stdout(protest(&["report", p, "--format", "csv", "--table", "rounds"]));
    let rules: Vec<&str> = rounds.lines().skip(1).map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(rules, ["aligned_tokens", "aligned_tokens", "minimal_tokens"]);
    let err = protest(&["auto-eval", p, "--rule", "exact"]);
    let said = String::from_utf8_lossy(&err.stderr);
    assert!(!err.status.success() && said.contains("[possible values: minimal, aligned]"), "{said}");
}
