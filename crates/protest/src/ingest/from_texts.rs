//! A master built from plain files (`protest import`) — a tokenised source, a reference and any
//! number of MT outputs with their Moses alignments, document starts and a test-suite definition.

use crate::error::{Error, Result};
use crate::ingest::{suite_def, texts};
use crate::model::alignment::Alignment;
use crate::model::tokens;
use crate::model::{
    Candidate, CandidateId, Category, Corpus, CorpusId, CorpusRole, Example, Languages, Master, TokenRef,
    standard_categories,
};
use crate::store::master_file;
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A translation corpus to import: its text and its alignment to the source.
#[derive(Debug, Clone)]
pub struct TranslationInput {
    pub name: String,
    pub text: PathBuf,
    pub alignment: PathBuf,
}

/// Everything `protest import` reads.
#[derive(Debug, Clone)]
pub struct Inputs {
    pub source: PathBuf,
    pub reference: Option<TranslationInput>,
    pub systems: Vec<TranslationInput>,
    /// Document starts; without it the whole text is one document.
    pub documents: Option<PathBuf>,
    pub suite: PathBuf,
    pub languages: Languages,
    pub description: String,
}

/// A fresh random master id.
pub fn new_master_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Reads all inputs and builds a validated master. `id` and `created` are parameters so that a
/// rebuild can be made byte-identical.
pub fn build(inputs: &Inputs, id: String, created: DateTime<Utc>) -> Result<Master> {
    let source = texts::read_corpus(&inputs.source)?;
    let mut master = Master::new(id, created);
    master.languages = inputs.languages.clone();
    master.description = inputs.description.clone();
    master.documents = match &inputs.documents {
        Some(path) => texts::read_document_starts(path, source.len())?,
        None => vec![0],
    };
    master.corpora.push(Corpus {
        id: CorpusId(0),
        name: "source".into(),
        role: CorpusRole::Source,
        sentences: source,
        alignment: None,
        segmentation: None,
    });
    let translations = inputs
        .reference
        .iter()
        .map(|t| (t, CorpusRole::Reference))
        .chain(inputs.systems.iter().map(|t| (t, CorpusRole::System)));
    let mut names: HashSet<&str> = HashSet::from(["source"]);
    for (t, role) in translations {
        if !names.insert(&t.name) {
            return Err(Error::whole_file(&t.text, format!("the corpus name '{}' is used twice", t.name)));
        }
        let corpus = read_translation(t, role, master.next_corpus_id(), &master.corpora[0].sentences, &inputs.source)?;
        master.corpora.push(corpus);
    }

    let def = suite_def::read(&inputs.suite)?;
    master.categories = categories(&inputs.suite, def.categories)?;
    master.reindex();
    master.examples = examples(&master, &inputs.suite, def.examples)?;
    master.reindex();
    master.candidates = candidates(&master);
    master.reindex();
    // Everything above was checked against its own file; this is the safety net.
    master_file::check(&inputs.suite, &master)?;
    Ok(master)
}

fn read_translation(
    t: &TranslationInput,
    role: CorpusRole,
    id: CorpusId,
    source: &[String],
    source_path: &Path,
) -> Result<Corpus> {
    let sentences = texts::read_corpus(&t.text)?;
    if sentences.len() != source.len() {
        return Err(Error::whole_file(
            &t.text,
            format!(
                "has {} sentences but the source {} has {}; a translation needs one line per source sentence",
                sentences.len(),
                source_path.display(),
                source.len()
            ),
        ));
    }
    let links = texts::read_alignment(&t.alignment, source, &sentences, &t.text)?;
    Ok(Corpus { id, name: t.name.clone(), role, sentences, alignment: Some(Alignment::new(links)), segmentation: None })
}

/// PROTEST's categories followed by the file's own.
fn categories(path: &Path, extra: Vec<Category>) -> Result<Vec<Category>> {
    let mut all = standard_categories();
    for c in extra {
        if all.iter().any(|s| s.name == c.name) {
            return Err(Error::whole_file(
                path,
                format!("category '{}' is defined twice (or is a standard one)", c.name),
            ));
        }
        all.push(c);
    }
    Ok(all)
}

/// Checks each example line against the source and the categories; sorted by number.
fn examples(master: &Master, path: &Path, lines: Vec<suite_def::ExampleLine>) -> Result<Vec<Example>> {
    let source = &master.corpora[0];
    let mut seen = HashSet::new();
    let mut examples = Vec::with_capacity(lines.len());
    for l in lines {
        let err = |m: String| Error::at_line(path, l.line, m);
        let e = l.example;
        if !seen.insert(e.no) {
            return Err(err(format!("example {} is defined twice", e.no)));
        }
        let Some(sentence) = source.sentence(e.sentence) else {
            return Err(err(format!(
                "sentence {} does not exist (the source has {})",
                e.sentence,
                source.sentences.len()
            )));
        };
        let count = tokens::token_count(sentence);
        let Some(word) = tokens::token(sentence, e.token) else {
            return Err(err(format!("token {} is out of range (sentence {} has {count} tokens)", e.token, e.sentence)));
        };
        if word != l.pronoun {
            return Err(err(format!(
                "token {} of sentence {} is '{word}', not '{}' (off by one?)",
                e.token, e.sentence, l.pronoun
            )));
        }
        let Some(category) = master.category(&e.category) else {
            let known: Vec<_> = master.categories.iter().map(|c| c.name.as_str()).collect();
            return Err(err(format!("unknown category '{}' (known: {})", e.category, known.join(", "))));
        };
        if category.anaphoric && e.antecedents.is_empty() {
            return Err(err(format!("category '{}' is anaphoric, so the example needs an antecedent", e.category)));
        }
        if !category.anaphoric && !e.antecedents.is_empty() {
            return Err(err(format!(
                "category '{}' is not anaphoric, so the example takes no antecedent (use -)",
                e.category
            )));
        }
        let document = master.document_of(e.sentence);
        for a in &e.antecedents {
            let Some(len) = source.token_count(a.sentence) else {
                return Err(err(format!("antecedent sentence {} does not exist", a.sentence)));
            };
            if a.end as usize >= len {
                return Err(err(format!(
                    "antecedent span {}-{} is out of range (sentence {} has {len} tokens)",
                    a.start, a.end, a.sentence
                )));
            }
            if !document.contains(&a.sentence) {
                return Err(err(format!(
                    "antecedent sentence {} is outside the pronoun's document (sentences {}–{})",
                    a.sentence,
                    document.start,
                    document.end - 1
                )));
            }
        }
        examples.push(e);
    }
    examples.sort_by_key(|e| e.no);
    Ok(examples)
}

/// One candidate per example and translation corpus, with the aligned target tokens.
pub(crate) fn candidates(master: &Master) -> Vec<Candidate> {
    let mut next = CandidateId(1);
    let mut out = Vec::new();
    for example in &master.examples {
        for corpus in master.translations() {
            let Some(alignment) = &corpus.alignment else { continue };
            out.push(candidate(next, example, corpus.id, alignment));
            next.0 += 1;
        }
    }
    out
}

/// The candidate of one example in one translation corpus: the target tokens `alignment` links
/// to the example's pronoun and to each antecedent head.
pub fn candidate(id: CandidateId, example: &Example, corpus: CorpusId, alignment: &Alignment) -> Candidate {
    let aligned = |at: TokenRef| {
        alignment.targets(at.sentence, at.token).into_iter().map(|t| TokenRef::new(at.sentence, t)).collect()
    };
    Candidate {
        id,
        example: example.no,
        corpus,
        pronoun: aligned(example.pronoun_ref()),
        antecedents: example.antecedents.iter().map(|a| aligned(a.head_ref())).collect(),
    }
}
