//! Document-level output on real text: the first three documents of the DiscoMT news corpus
//! (`shared/data/discomt-news-en-fr`, sentences 1–98), its MT output given as a document-level
//! system might give it — documents as paragraphs, a document missing, a title the source lacks,
//! and the shifted lines an LLM's document-level output gave — through `protest add-system` and the
//! core it calls.

use crate::common::{protest, shared_data};
use protest::ingest::from_texts::{self, Inputs, TranslationInput};
use protest::ingest::resegment::{self, Given, Layout, Output, Resegmented, Texts, Weights};
use protest::ingest::tokenize::{Language, tokenize};
use protest::model::{Languages, Origin};
use protest::store::master_file;
use std::fs;
use std::path::Path;

/// Sentences of the first three documents, and where the documents start.
const SENTENCES: usize = 98;
const DOCUMENTS: [u32; 3] = [0, 47, 69];

struct News {
    source: Vec<String>,
    reference: Vec<String>,
    reference_alignment: Vec<String>,
    mt: Vec<String>,
}

fn news() -> Option<News> {
    let dir = shared_data("discomt-news-en-fr")?;
    let lines = |name: &str| -> Vec<String> {
        fs::read_to_string(dir.join(name)).unwrap().lines().take(SENTENCES).map(str::to_owned).collect()
    };
    Some(News {
        source: lines("pronoun-test.tok.en"),
        reference: lines("pronoun-test.tok.fr"),
        reference_alignment: lines("pronoun-test.tok.en-fr.alig"),
        mt: lines("mt-output.fr"),
    })
}

impl News {
    fn documents(&self) -> Vec<&[String]> {
        let bounds: Vec<usize> = DOCUMENTS.iter().map(|&d| d as usize).chain([SENTENCES]).collect();
        bounds.windows(2).map(|w| &self.mt[w[0]..w[1]]).collect()
    }

    /// The output's lines cut into sentences as add-system cuts them.
    fn segment(&self, text: &str) -> Resegmented {
        let translations = [self.reference.as_slice()];
        let texts = Texts { source: &self.source, translations: &translations, documents: &DOCUMENTS };
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let tokenise = |_: usize, line: &str| Ok(tokenize(line, Language::French));
        resegment::resegment(
            &Output::file(Path::new("out.fr"), &lines),
            &texts,
            Given::Detect,
            &Weights::default(),
            &tokenise,
        )
        .unwrap()
    }

    /// The MT output's sentences as add-system stores them.
    fn expected(&self) -> Vec<String> {
        self.mt.iter().map(|l| tokenize(l, Language::French)).collect()
    }
}

#[test]
fn documents_as_paragraphs_come_out_right_or_marked() {
    let Some(news) = news() else { return };
    let text: Vec<String> = news.documents().iter().map(|d| d.join(" ")).collect();
    let r = news.segment(&text.join("\n\n"));
    assert_eq!(r.summary.layout, Layout::Documents);
    let segmentation = r.segmentation.unwrap();
    let expected = news.expected();
    let wrong: Vec<usize> = (0..SENTENCES).filter(|&s| r.sentences[s] != expected[s]).collect();
    assert!(wrong.len() <= 2, "{wrong:?}");
    assert!(wrong.iter().all(|&s| segmentation.is_uncertain(s as u32)), "wrong but not marked: {wrong:?}");
}

#[test]
fn a_document_with_no_output_leaves_its_sentences_empty_and_the_others_right() {
    let Some(news) = news() else { return };
    let documents = news.documents();
    // The second document is missing: two empty lines in a row.
    let text = format!("{}\n\n\n{}", documents[0].join("\n"), documents[2].join(" "));
    let r = news.segment(&text);
    let expected = news.expected();
    for (s, (stored, right)) in r.sentences.iter().zip(&expected).enumerate() {
        if (47..69).contains(&s) {
            let origin = r.segmentation.as_ref().unwrap().origin(s as u32);
            assert_eq!((stored.as_str(), origin), ("", Origin::Omitted));
        } else {
            assert_eq!(stored, right, "sentence {}", s + 1);
        }
    }
    assert_eq!(r.summary.empty_documents, [1]);
    assert!(r.summary.lines().contains(&"no output for document 2: its sentences are empty".to_string()));
}

#[test]
fn a_title_the_source_lacks_is_left_out_and_said() {
    let Some(news) = news() else { return };
    let documents = news.documents();
    // The third document comes with a title of its own: the source's first sentence is the
    // report's headline, this one is new.
    let title = "Revue de presse du 12 février";
    let text =
        format!("{}\n\n{}\n\n{title}\n{}", documents[0].join(" "), documents[1].join("\n"), documents[2].join("\n"));
    let r = news.segment(&text);
    let expected = news.expected();
    let wrong: Vec<usize> = (0..SENTENCES).filter(|&s| r.sentences[s] != expected[s]).collect();
    let segmentation = r.segmentation.as_ref().unwrap();
    assert!(wrong.iter().all(|&s| segmentation.is_uncertain(s as u32)), "wrong but not marked: {wrong:?}");
    assert!((69..SENTENCES).all(|s| r.sentences[s] == expected[s]), "{wrong:?}");
    let passage = r.summary.left_out.iter().find(|p| p.text == "Revue de presse du 12 février").expect("left out");
    assert_eq!(passage.before, 69);
    let said = r.summary.lines().into_iter().find(|l| l.starts_with("left out")).unwrap();
    assert_eq!(
        said,
        "left out (translates no source sentence): line 26, before sentence 70: “Revue de presse du 12 février”"
    );
}

/// A master of the three documents with the source, the reference and one example: number 8,
/// "they" in "So how did they uncover him ?" (sentence 44), the bank being its antecedent.
fn master(news: &News, dir: &Path) -> std::path::PathBuf {
    let write = |name: &str, lines: &[String]| {
        fs::write(dir.join(name), lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
        dir.join(name)
    };
    let sentence = 43;
    let they = news.source[sentence].split(' ').position(|t| t == "they").unwrap();
    let bank = news.source[sentence - 1].split(' ').position(|t| t == "bank").unwrap();
    let suite = format!(
        "# PROTEST test-suite definition v1\n8\t{sentence}\t{they}\tthey\tanaphoric_inter_they\t{}:{}-{bank}@{bank}\n",
        sentence - 1,
        bank - 1
    );
    let docs: Vec<String> = DOCUMENTS.iter().map(u32::to_string).collect();
    let inputs = Inputs {
        source: write("news.en", &news.source),
        reference: Some(TranslationInput {
            name: "reference".into(),
            text: write("news.ref.fr", &news.reference),
            alignment: write("news.ref.alig", &news.reference_alignment),
        }),
        systems: Vec::new(),
        documents: Some(write("news.docs", &docs)),
        suite: write("suite.tsv", &[suite]),
        languages: Languages::default(),
        description: String::new(),
        order: Default::default(),
        out_of_range: Default::default(),
    };
    let master = from_texts::build(&inputs, "news-0001".into(), chrono::Utc::now()).unwrap();
    let path = dir.join("news.master.json");
    master_file::save(&master, &path).unwrap();
    path
}

#[test]
fn the_shifted_lines_of_the_issue_are_put_back_where_they_belong() {
    let Some(news) = news() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = master(&news, dir.path());
    // One line per sentence, but line 42 split in two and lines 60 and 61 on one: as many lines
    // as sentences, and lines 43 to 60 each one sentence off — sentence 44, "So how did they
    // uncover him ?", facing "... la banque a annoncé qu' elle avait perdu 5 milliards ...".
    let mut lines = news.mt.clone();
    let merged = format!("{} {}", lines[59], lines[60]);
    lines.splice(59..61, [merged]);
    let words: Vec<&str> = news.mt[41].split(' ').collect();
    lines.splice(41..42, [words[..5].join(" "), words[5..].join(" ")]);
    assert_eq!(lines.len(), SENTENCES);
    assert!(lines[43].contains("qu' elle avait perdu 5 milliards"));
    fs::write(dir.path().join("shifted.fr"), lines.join("\n") + "\n").unwrap();

    let out = protest(dir.path(), &["add-system", "news.master.json", "shifted.fr", "--name", "shifted"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("layout: one line per source sentence (98 lines)"), "{stdout}");
    assert!(
        stdout.contains("moved: the lines of sentences 42–61 fitted other sentences and were re-segmented"),
        "{stdout}"
    );

    let master = master_file::load(&path).unwrap();
    let corpus = master.corpora.iter().find(|c| c.name == "shifted").unwrap();
    assert_eq!(corpus.sentences, news.expected());
    let candidate = master.candidates.iter().find(|c| c.corpus == corpus.id).unwrap();
    // Not "Elle" of the neighbouring sentence, as when the lines were stored shifted.
    let pronoun = corpus.words(&candidate.pronoun);
    assert!(pronoun.split(' ').any(|w| w == "ils"), "example 8's pronoun: {pronoun}");
    let segmentation = corpus.segmentation.as_ref().unwrap();
    assert_eq!((segmentation.joined.as_slice(), segmentation.split.as_slice()), (&[41][..], &[59, 60][..]));
}

/// Document 8 of the corpus (sentences 225–262), where the reference has a Spanish sentence and
/// a shift of its own (sentences 228–229): its MT output as an LLM might give it, three sentences
/// to a paragraph, segmented with the reference alone and with the MT output in the master too.
/// Every sentence stored wrong is of low confidence.
#[test]
fn the_references_own_shift_leaves_no_wrong_sentence_unmarked() {
    let Some(dir) = shared_data("discomt-news-en-fr") else { return };
    let range = 224..262;
    let lines = |name: &str| -> Vec<String> {
        let text = fs::read_to_string(dir.join(name)).unwrap();
        text.lines().skip(range.start).take(range.len()).map(str::to_owned).collect()
    };
    let (source, reference, mt) = (lines("pronoun-test.tok.en"), lines("pronoun-test.tok.fr"), lines("mt-output.fr"));
    assert!(reference[3].starts_with("Y es que"), "the reference's Spanish sentence");
    let paragraphs: Vec<String> = mt.chunks(3).map(|c| c.join(" ")).collect();
    let expected: Vec<String> = mt.iter().map(|l| tokenize(l, Language::French)).collect();
    let tokenise = |_: usize, line: &str| Ok(tokenize(line, Language::French));
    for translations in [vec![reference.as_slice()], vec![reference.as_slice(), mt.as_slice()]] {
        let texts = Texts { source: &source, translations: &translations, documents: &[0] };
        let output = Output::file(Path::new("llm.fr"), &paragraphs);
        let r = resegment::resegment(&output, &texts, Given::Detect, &Weights::default(), &tokenise).unwrap();
        let segmentation = r.segmentation.unwrap_or_default();
        let wrong: Vec<usize> = (0..source.len()).filter(|&s| r.sentences[s] != expected[s]).collect();
        let unmarked: Vec<usize> = wrong.iter().copied().filter(|&s| !segmentation.is_uncertain(s as u32)).collect();
        assert!(unmarked.is_empty(), "{} translations: wrong but not marked: {unmarked:?}", translations.len());
        assert!(wrong.len() <= 2, "{wrong:?}");
    }
}

/// The first three documents as a folder, as LLM pipelines write them: a file per document,
/// paragraphs between empty lines, a preamble; through `protest add-system`.
#[test]
fn a_folder_of_paragraph_files_is_added_with_every_sentence_right_or_marked() {
    let Some(news) = news() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = master(&news, dir.path());
    let folder = dir.path().join("llm");
    fs::create_dir(&folder).unwrap();
    for (k, document) in news.documents().iter().enumerate() {
        let paragraphs: Vec<String> = document.chunks(4).map(|c| c.join(" ")).collect();
        let preamble = if k == 0 { "Voici la traduction du document :\n\n" } else { "" };
        fs::write(folder.join(format!("doc{}.txt", k + 1)), format!("{preamble}{}\n", paragraphs.join("\n\n")))
            .unwrap();
    }
    let out = protest(dir.path(), &["add-system", "news.master.json", "llm", "--name", "llm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("layout: one file per document (3 files)"), "{stdout}");
    assert!(
        stdout.contains(
            "left out (translates no source sentence): doc1.txt, line 1, before sentence 1: “Voici la traduction du \
             document :”"
        ),
        "{stdout}"
    );
    let master = master_file::load(&path).unwrap();
    let corpus = master.corpora.iter().find(|c| c.name == "llm").unwrap();
    let segmentation = corpus.segmentation.clone().unwrap_or_default();
    let expected = news.expected();
    let wrong: Vec<usize> = (0..SENTENCES).filter(|&s| corpus.sentences[s] != expected[s]).collect();
    assert!(wrong.iter().all(|&s| segmentation.is_uncertain(s as u32)), "wrong but not marked: {wrong:?}");
    assert!(wrong.len() <= 2, "{wrong:?}");
}
