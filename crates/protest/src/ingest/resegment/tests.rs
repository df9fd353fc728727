use super::*;

/// Two documents of three sentences, with a reference translation.
const SOURCE: [&str; 6] = [
    "The bank lost five billion euros .",
    "Its trader had hidden the losses for months .",
    "He was arrested on Monday .",
    "Heavy snow fell on Prague last night .",
    "Trams stopped running in the city centre .",
    "The airport stayed open .",
];
const REFERENCE: [&str; 6] = [
    "La banque a perdu cinq milliards d' euros .",
    "Son courtier avait caché les pertes pendant des mois .",
    "Il a été arrêté lundi .",
    "De fortes chutes de neige sont tombées sur Prague la nuit dernière .",
    "Les trams ont cessé de circuler dans le centre-ville .",
    "L' aéroport est resté ouvert .",
];
/// A system's translation, one sentence per entry.
const OUTPUT: [&str; 6] = [
    "La banque a perdu cinq milliards d' euros .",
    "Son trader avait dissimulé les pertes durant des mois .",
    "Il a été arrêté le lundi .",
    "Une forte neige est tombée sur Prague hier soir .",
    "Les trams ne circulaient plus dans le centre-ville .",
    "L' aéroport est resté ouvert .",
];

fn owned(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

fn run(text: &str, given: Given) -> Result<Resegmented> {
    let source = owned(&SOURCE);
    let reference = owned(&REFERENCE);
    let translations = [reference.as_slice()];
    let texts = Texts { source: &source, translations: &translations, documents: &[0, 3] };
    let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let tokenise = |_: usize, line: &str| Ok(crate::ingest::tokenize::tokenize(line, Language::French));
    resegment(&Output::file(Path::new("out.fr"), &lines), &texts, given, &Weights::default(), &tokenise)
}

use crate::model::Language;
use std::path::PathBuf;

fn origins(r: &Resegmented) -> Vec<Origin> {
    (0..6).map(|s| r.segmentation.as_ref().map_or(Origin::AsGiven, |g| g.origin(s))).collect()
}

#[test]
fn one_line_per_sentence_is_kept_as_given_and_recorded_as_nothing() {
    let r = run(&OUTPUT.join("\n"), Given::Detect).unwrap();
    assert_eq!(r.sentences, owned(&OUTPUT));
    assert_eq!(r.segmentation, None);
    assert_eq!(r.summary.layout, Layout::SentencePerLine);
    assert_eq!(
        r.summary.lines(),
        ["layout: one line per source sentence (6 lines)", "segmented: 6 sentences — 6 kept as given"]
    );
}

#[test]
fn documents_as_paragraphs_are_split_into_their_sentences() {
    let text = format!("{}\n\n{}", OUTPUT[..3].join(" "), OUTPUT[3..].join(" "));
    let r = run(&text, Given::Detect).unwrap();
    assert_eq!(r.sentences, owned(&OUTPUT));
    assert_eq!(origins(&r), [Origin::Split; 6]);
    assert_eq!(r.summary.layout, Layout::Documents);
    assert_eq!(
        r.summary.lines()[..2],
        ["layout: documents separated by an empty line (2 documents)", "segmented: 6 sentences — 6 split"]
    );
    // The same, one document per line.
    let text = format!("{}\n{}\n", OUTPUT[..3].join(" "), OUTPUT[3..].join(" "));
    let r = run(&text, Given::DocumentPerLine).unwrap();
    assert_eq!((r.sentences, r.summary.layout), (owned(&OUTPUT), Layout::DocumentPerLine));
}

#[test]
fn merged_and_split_lines_are_undone() {
    // Sentences 1 and 2 on one line; sentence 5 over two lines.
    let text = format!(
        "{} {}\n{}\n\n{}\nLes trams ne circulaient plus\ndans le centre-ville .\n{}",
        OUTPUT[0], OUTPUT[1], OUTPUT[2], OUTPUT[3], OUTPUT[5]
    );
    let r = run(&text, Given::Detect).unwrap();
    assert_eq!(r.sentences, owned(&OUTPUT));
    use Origin::*;
    assert_eq!(origins(&r), [Split, Split, AsGiven, AsGiven, Joined, AsGiven]);
    assert!(r.summary.lines()[1].ends_with("3 kept as given, 2 split, 1 joined"), "{:?}", r.summary.lines());
}

#[test]
fn a_document_without_output_leaves_its_sentences_empty() {
    // An empty line first: the first document has no output.
    let text = format!("\n{}", OUTPUT[3..].join(" "));
    let r = run(&text, Given::Detect).unwrap();
    assert_eq!(r.sentences[..3], ["", "", ""]);
    assert_eq!(r.sentences[3..], owned(&OUTPUT[3..]));
    assert_eq!(origins(&r)[..3], [Origin::Omitted; 3]);
    // Nothing to choose: not of low confidence.
    assert!(r.summary.low_confidence.is_empty());
    assert!(r.summary.lines().contains(&"no output for document 1: its sentences are empty".to_string()));
}

#[test]
fn text_that_translates_no_sentence_is_left_out() {
    let text = format!("Voici la traduction demandée :\n{}\n\n{}", OUTPUT[..3].join("\n"), OUTPUT[3..].join("\n"));
    let r = run(&text, Given::Detect).unwrap();
    assert_eq!(r.sentences, owned(&OUTPUT));
    let passage = LeftOut { line: 0, before: 0, text: "Voici la traduction demandée :".into() };
    assert_eq!(r.summary.left_out, [passage]);
    assert!(
        r.summary
            .lines()
            .last()
            .unwrap()
            .starts_with("left out (translates no source sentence): line 1, before sentence 1:"),
        "{:?}",
        r.summary.lines()
    );
}

#[test]
fn a_shift_in_one_line_per_sentence_is_undone() {
    // Sentences 2 and 3 share a line and sentence 5 is split in two: six lines, every line in
    // between one sentence off.
    let lines = [
        OUTPUT[0],
        &format!("{} {}", OUTPUT[1], OUTPUT[2]),
        OUTPUT[3],
        "Les trams ne circulaient plus",
        "dans le centre-ville .",
        OUTPUT[5],
    ];
    let r = run(&lines.join("\n"), Given::Detect).unwrap();
    assert_eq!(r.summary.layout, Layout::SentencePerLine);
    assert_eq!(r.sentences, owned(&OUTPUT));
    assert_eq!(r.unsure_shift, None);
    assert_eq!(r.summary.moved, vec![1..5]);
    assert!(
        r.summary
            .lines()
            .contains(&"moved: the lines of sentences 2–5 fitted other sentences and were re-segmented".into())
    );
}

#[test]
fn a_shift_that_cannot_be_placed_with_confidence_is_refused() {
    let source = owned(&SOURCE);
    let texts = Texts { source: &source, translations: &[], documents: &[0, 3] };
    let lines = owned(&OUTPUT);
    let segment = |text: &str, origin, low_confidence, own_line| Segment {
        text: text.into(),
        origin,
        low_confidence,
        doubtful: low_confidence,
        own_line,
    };
    let block = |second: Segment, third: Segment| BlockResult {
        sentences: vec![
            segment(OUTPUT[0], Origin::AsGiven, false, true),
            second,
            third,
            segment(OUTPUT[3], Origin::AsGiven, false, true),
            segment(OUTPUT[4], Origin::AsGiven, false, true),
            segment(OUTPUT[5], Origin::AsGiven, false, true),
        ],
        left_out: Vec::new(),
        line_goes_to: vec![Some(0), Some(2), Some(1), Some(3), Some(4), Some(5)],
    };
    let blocks = [Block { lines: 0..6, sentences: 0..6 }];
    // Sentence 2 got line 3 whole, without confidence: refused, naming where the shift starts.
    let unsure = block(segment(OUTPUT[2], Origin::AsGiven, true, false), segment("", Origin::Omitted, false, false));
    let r = assemble(&texts, &lines, Layout::SentencePerLine, &blocks, vec![unsure]);
    let err = r.check(Path::new("out.fr")).unwrap_err().to_string();
    assert_eq!(
        err,
        "out.fr: the lines do not fit their sentences from sentence 2 on: line 2 (“Son trader avait dissimulé les \
         pertes durant des…”) reads as the translation of sentence 3 (“He was arrested on Monday .”), not of sentence 2 \
         (“Its trader had hidden the losses for months .”); where they belong cannot be told with confidence (sentence \
         2 is uncertain). Look for a merged, split, missing or extra line there, or give the documents separated by \
         empty lines to have them segmented with the uncertain sentences marked"
    );
    // The same shift placed with confidence: stored, and said.
    let sure = block(segment(OUTPUT[2], Origin::AsGiven, false, false), segment("", Origin::Omitted, false, false));
    let r = assemble(&texts, &lines, Layout::SentencePerLine, &blocks, vec![sure]);
    assert!(r.check(Path::new("out.fr")).is_ok());
    assert_eq!(r.summary.moved, vec![1..3]);
    // Only the split at the end of a sure shift uncertain: marked, not refused.
    let split = block(segment(OUTPUT[1], Origin::AsGiven, false, false), segment("Il a", Origin::Split, true, false));
    let r = assemble(&texts, &lines, Layout::SentencePerLine, &blocks, vec![split]);
    assert!(r.check(Path::new("out.fr")).is_ok());
    assert_eq!(r.segmentation.unwrap().low_confidence, [2]);
}

#[test]
fn a_wrong_number_of_documents_names_the_first_that_does_not_fit() {
    // Three parts for two documents: the first document's last sentence stands apart.
    let text = format!("{}\n\n{}\n\n{}", OUTPUT[..2].join(" "), OUTPUT[2], OUTPUT[3..].join(" "));
    let err = run(&text, Given::Detect).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "out.fr: has 5 lines in 3 parts separated by empty lines: neither one line per source sentence (the master \
             has 6 sentences) nor one part per document (the master has 2 documents); document 2 (sentences 4–6, \
             “Heavy snow fell on Prague last night .”) does not fit line 3 (“Il a été arrêté le lundi .”): "
        ),
        "{err}"
    );
    // One document per line, one line too few.
    let err = run(&OUTPUT.join(" "), Given::DocumentPerLine).unwrap_err().to_string();
    assert!(err.contains("has 1 line but the master has 2 documents"), "{err}");
    assert!(err.contains("document 2 (sentences 4–6, “Heavy snow fell on Prague last night .”) has no part"), "{err}");
}

/// The output as a folder: one file per document, each given as its lines.
fn run_files(files: &[&str]) -> Result<Resegmented> {
    let source = owned(&SOURCE);
    let reference = owned(&REFERENCE);
    let translations = [reference.as_slice()];
    let texts = Texts { source: &source, translations: &translations, documents: &[0, 3] };
    let mut lines: Vec<String> = Vec::new();
    let mut parts = Vec::new();
    for (k, text) in files.iter().enumerate() {
        let start = lines.len();
        lines.extend(text.lines().map(str::to_owned));
        parts.push(OutputFile { path: PathBuf::from(format!("out/doc{}.txt", k + 1)), lines: start..lines.len() });
    }
    let tokenise = |_: usize, line: &str| Ok(crate::ingest::tokenize::tokenize(line, Language::French));
    let output = Output { origin: Path::new("out"), lines: &lines, files: &parts };
    resegment(&output, &texts, Given::Detect, &Weights::default(), &tokenise)
}

#[test]
fn a_folder_of_documents_with_paragraphs_between_empty_lines() {
    let first = format!("Voici la traduction :\n\n{}\n\n{}\n", OUTPUT[0], OUTPUT[1..3].join(" "));
    let second = format!("{}\n\n\n{}\n", OUTPUT[3..5].join(" "), OUTPUT[5]);
    let r = run_files(&[&first, &second]).unwrap();
    assert_eq!(r.sentences, owned(&OUTPUT));
    use Origin::*;
    assert_eq!(origins(&r), [AsGiven, Split, Split, Split, Split, AsGiven]);
    let lines = r.summary.lines();
    assert_eq!(
        lines[..2],
        ["layout: one file per document (2 files)", "segmented: 6 sentences — 2 kept as given, 4 split"]
    );
    assert!(
        lines.contains(
            &"left out (translates no source sentence): doc1.txt, line 1, before sentence 1: “Voici la traduction :”"
                .into()
        ),
        "{lines:?}"
    );
    // An empty file is a document with no output; a file too many is refused, naming it.
    let r = run_files(&["", &second]).unwrap();
    assert_eq!(r.summary.empty_documents, [0]);
    let err = run_files(&[&first, &second, "Encore.\n"]).unwrap_err().to_string();
    assert!(
        err.starts_with("out: has 3 files but the master has 2 documents (one file per document); document 2"),
        "{err}"
    );
    assert!(err.contains("Give one text file per document, named so that they sort in the master's order"), "{err}");
}

#[test]
fn an_omitted_sentence_is_named_and_its_neighbours_are_of_low_confidence() {
    let text = format!("{} {}\n\n{}", OUTPUT[0], OUTPUT[2], OUTPUT[3..].join(" "));
    let r = run(&text, Given::Detect).unwrap();
    assert_eq!(r.sentences[1], "");
    assert_eq!(r.summary.omitted, [(1, SOURCE[1].to_string())]);
    assert!(
        r.summary.lines().contains(
            &"omitted (nothing in the output translates it): sentence 2 (“Its trader had hidden the losses for \
                        mon…”)"
                .to_string()
        ),
        "{:?}",
        r.summary.lines()
    );
    assert_eq!(r.summary.low_confidence[..3], [0, 1, 2]);
}

#[test]
fn paragraphs_between_empty_lines_in_one_file_are_refused_saying_how_to_give_them() {
    // The first document's headline alone, then its other sentences, then the second document:
    // three parts for two documents.
    let text = format!("{}\n\n{}\n\n{}", OUTPUT[0], OUTPUT[1..3].join(" "), OUTPUT[3..].join(" "));
    let err = run(&text, Given::Detect).unwrap_err().to_string();
    assert!(err.contains("has 5 lines in 3 parts separated by empty lines"), "{err}");
    assert!(
        err.ends_with(
            "each paragraph of a document on a line of its own with no empty line between them; or give a folder with \
             one text file per document, in which empty lines separate paragraphs"
        ),
        "{err}"
    );
}

#[test]
fn a_part_far_shorter_than_its_document_says_how_many_words() {
    let long: Vec<String> = (0..12).map(|i| format!("Phrase numéro {i} de ce long document .")).collect();
    let source: Vec<String> = (0..14).map(|i| format!("Sentence number {i} of this long document .")).collect();
    let texts = Texts { source: &source, translations: &[], documents: &[0, 2] };
    let lines = vec!["Titre".to_string(), String::new(), long.join(" "), String::new(), "Encore une .".into()];
    let tokenise = |_: usize, line: &str| Ok(crate::ingest::tokenize::tokenize(line, Language::French));
    let err =
        resegment(&Output::file(Path::new("out.fr"), &lines), &texts, Given::Detect, &Weights::default(), &tokenise)
            .unwrap_err()
            .to_string();
    assert!(err.contains("document 1 (sentences 1–2, “Sentence number 0 of this long document…”) does not fit line 1 (“Titre”): it has 1 word where the document's source leads to expect about 14"), "{err}");
}
