use super::*;
use crate::metrics::auto_eval;
use crate::model::{Outcome, TokenRef};

/// Two blocks in DiscEvalMT's layout (made up for the tests), one that cannot be read and one
/// without a correct translation.
const BLOCKS: &str = r#"{
 "3": {"src": ["The bicycles were stolen yesterday.", "They were red."],
       "trg": [{"correct": ["Les vélos ont été volés hier.", "Ils étaient rouges."],
                "incorrect": ["Les vélos ont été volés hier.", "Elles étaient rouges."], "type": "m.pl"},
               {"semi-correct": ["Les bicyclettes ont été volées hier.", "Elles étaient rouges."],
                "incorrect": ["Les bicyclettes ont été volées hier.", "Ils étaient rouges."], "type": "f.pl"}]},
 "7": {"src": ["Where are the keys?", "I have already hidden them."],
       "trg": [{"correct": ["Où sont les clés ?", "Je les ai déjà cachées."],
                "incorrect": ["Où sont les clés ?", "Je les ai déjà cachés."], "type": "f.pl"},
               {"semi-correct": ["Où sont les trousseaux ?", "Je les ai déjà cachés."],
                "incorrect": ["Où sont les trousseaux ?", "Je les ai déjà cachées."], "type": "m.pl"}]},
 "8": {"src": ["Only one sentence."], "trg": []},
 "9": {"src": ["A cat.", "It sleeps."], "trg": [{"incorrect": ["Un chat.", "Elle dort."]}]}
}"#;

fn imported() -> Imported {
    from_json(Path::new("blocks.json"), BLOCKS, "m".into(), DateTime::UNIX_EPOCH).unwrap()
}

#[test]
fn a_master_with_a_document_per_block_and_a_system_per_translation_and_label() {
    let Imported { master: m, unplaced } = imported();
    assert_eq!(
        unplaced,
        [
            Unplaced { block: "8".into(), reason: Unreadable::Source.into() },
            Unplaced { block: "9".into(), reason: Unreadable::NoCorrect.into() },
        ]
    );
    let reasons: Vec<String> = unplaced.iter().map(|u| u.reason.to_string()).collect();
    assert_eq!(reasons, ["'src' is not two sentences", "no correct translation to serve as the reference"]);
    let names: Vec<&str> = m.corpora.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["source", "reference", "t1-correct", "t1-incorrect", "t2-semi-correct", "t2-incorrect"]);
    let labels: Vec<Option<&str>> = m.corpora.iter().map(|c| c.label.as_deref()).collect();
    assert_eq!(labels, [None, None, Some("correct"), Some("incorrect"), Some("semi-correct"), Some("incorrect")]);
    assert_eq!(m.documents, [0, 2]);
    // Example number = block number; the pronoun and the antecedent head the block tests.
    let source = &m.corpora[0];
    let e: Vec<(u32, &str, &str, &str)> = m
        .examples
        .iter()
        .map(|e| {
            let head = source.token(e.antecedents[0].head_ref()).unwrap();
            (e.no.0, source.token(e.pronoun_ref()).unwrap(), head, e.category.as_str())
        })
        .collect();
    assert_eq!(e, [(3, "They", "bicycles", "anaphoric_inter_they"), (7, "them", "keys", "anaphoric_inter_they")]);
    assert_eq!(m.examples[0].antecedents[0], Antecedent { sentence: 0, start: 0, end: 1, head: 1 }, "the bicycles");
    // Each translation's pronoun and head, from the words that differ.
    let words = |corpus: usize, example: u32| {
        let c = m.candidates_of(ExampleNo(example)).find(|c| c.corpus == CorpusId(corpus as u32)).unwrap();
        let corpus = &m.corpora[corpus];
        (corpus.words(&c.pronoun), corpus.words(&c.antecedents[0]))
    };
    assert_eq!(words(1, 3), ("Ils".into(), "vélos".into()));
    assert_eq!(words(5, 3), ("Ils".into(), "bicyclettes".into()));
    assert_eq!(words(3, 7), ("les".into(), "clés".into()), "the clitic the participle agrees with");
    assert_eq!(m.candidates.len(), 10, "a reference and four systems per block");
    assert_eq!(m.candidates_of(ExampleNo(3)).next().map(|c| c.pronoun.clone()), Some(vec![TokenRef::new(1, 0)]));
}

#[test]
fn the_judge_settles_what_the_reference_does_not() {
    let mut m = imported().master;
    m.auto_eval = auto_eval::run(&m, DateTime::UNIX_EPOCH);
    let outcome = |example: u32, system: &str| {
        let corpus = m.corpora.iter().find(|c| c.name == system).unwrap().id;
        let c = m.candidates_of(ExampleNo(example)).find(|c| c.corpus == corpus).unwrap();
        m.auto_eval.entry(c.id).unwrap().outcome
    };
    assert_eq!(outcome(3, "t1-correct"), Outcome::Match);
    assert_eq!(outcome(3, "t1-incorrect"), Outcome::Disagreement);
    assert_eq!(outcome(3, "t2-semi-correct"), Outcome::Agreement);
    assert_eq!(outcome(3, "t2-incorrect"), Outcome::Disagreement);
    // Same pronoun and head as the reference, but the participle disagrees: left to people.
    assert_eq!(outcome(7, "t1-incorrect"), Outcome::Contradicted);
    assert_eq!(outcome(7, "t2-semi-correct"), Outcome::Agreement);
    let figures = crate::metrics::report::breakdown::against_labels(&m, |_| true);
    let all: u64 = figures.values().map(|a| a.candidates).sum();
    let (right, wrong): (u64, u64) = figures.values().fold((0, 0), |(r, w), a| (r + a.right, w + a.wrong));
    assert_eq!((all, right, wrong), (8, 7, 0));
}

#[test]
fn a_file_that_is_not_discevalmt_says_so() {
    let err =
        |text: &str| from_json(Path::new("x.json"), text, "m".into(), DateTime::UNIX_EPOCH).unwrap_err().to_string();
    assert!(err("{\n \"1\": [").starts_with("x.json: line 2: not DiscEvalMT's JSON:"), "{}", err("{\n \"1\": ["));
    assert_eq!(err("[1, 2]"), "x.json: not DiscEvalMT's JSON: expected an object of numbered blocks");
    assert_eq!(
        err(r#"{"1": {"src": ["A.", "B."], "trg": [{"wrong": ["A.", "B."]}]}}"#),
        "x.json: no block of the file could be placed (block 1: translation 1: unknown label 'wrong')"
    );
    let dir = tempfile::tempdir().unwrap();
    let e = import(dir.path(), "m".into(), DateTime::UNIX_EPOCH).unwrap_err().to_string();
    assert!(e.contains("is a folder") || e.contains("not a regular file") || e.contains("directory"), "{e}");
}
