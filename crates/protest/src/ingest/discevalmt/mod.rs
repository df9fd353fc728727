//! A master from the anaphora set of DiscEvalMT (Bawden, Sennrich, Birch & Haddow 2018), its
//! public JSON: `protest suite import discevalmt` (docs/suite-format.md, "DiscEvalMT").
//!
//! One document per block (the context sentence and the current one), example number = block
//! number, the English pronoun the block tests and its antecedent head ([`place`]), the first
//! correct translation as the reference, and one system per translation and label (`t1-correct`,
//! `t1-incorrect`, `t3-semi-correct`…), each labelled so. A block that cannot be placed is left
//! out and listed with the reason, never guessed. The `type` field (the antecedent's gender and
//! number) is not read: the agreement judge finds that in its lexicon.

pub mod place;

use crate::error::{Error, Result};
use crate::ingest::align::{self, Aligner};
use crate::ingest::from_texts;
use crate::ingest::tokenize::{self, Language};
use crate::model::alignment::Links;
use crate::model::link_origin::OriginLinks;
use crate::model::{
    Antecedent, Candidate, CandidateId, Category, Corpus, CorpusId, CorpusRole, Example, ExampleNo, Languages,
    LinkOrigin, LinkOrigins, Master, function, standard_categories,
};
use crate::store::master_file;
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::path::Path;

/// What a contrastive suite says of a translation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    Correct,
    SemiCorrect,
    Incorrect,
}

impl Label {
    pub const ALL: [Label; 3] = [Label::Correct, Label::SemiCorrect, Label::Incorrect];

    /// The name in DiscEvalMT's files and in the master (`Corpus::label`).
    pub fn name(self) -> &'static str {
        match self {
            Label::Correct => "correct",
            Label::SemiCorrect => "semi-correct",
            Label::Incorrect => "incorrect",
        }
    }

    pub fn from_name(name: &str) -> Option<Label> {
        Label::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Whether the suite counts a translation so labelled as a correct translation of the
    /// pronoun (correct and semi-correct: the antecedent may be translated less well).
    pub fn is_correct(self) -> bool {
        self != Label::Incorrect
    }
}

/// One translation of a block: its entry (1-based, `t1`…), label and two tokenised sentences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    pub entry: usize,
    pub label: Label,
    pub sentences: [String; 2],
}

impl Translation {
    /// The name of the system the translation goes to.
    pub fn system(&self) -> String {
        format!("t{}-{}", self.entry, self.label.name())
    }
}

/// A block as read, tokenised.
#[derive(Debug, Clone)]
struct Block {
    no: u32,
    source: [String; 2],
    translations: Vec<Translation>,
}

/// A block left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplaced {
    pub block: String,
    pub reason: LeftOut,
}

/// Why a block is left out: it cannot be read, or cannot be placed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeftOut {
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
    #[error(transparent)]
    Unplaceable(#[from] place::Unplaceable),
}

/// Why a block of the JSON cannot be read; translations are numbered from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("its number is not a whole number from 1")]
    Number,
    #[error("'src' is not two sentences")]
    Source,
    #[error("'trg' is not a list of translations")]
    Translations,
    #[error("translation {0} is not an object")]
    NotAnObject(usize),
    #[error("translation {translation}: unknown label '{label}'")]
    UnknownLabel { translation: usize, label: String },
    #[error("translation {translation} ({}): not two sentences", label.name())]
    NotTwoSentences { translation: usize, label: Label },
    #[error("no correct translation to serve as the reference")]
    NoCorrect,
}

/// The master, and the blocks left out.
#[derive(Debug, Clone)]
pub struct Imported {
    pub master: Master,
    pub unplaced: Vec<Unplaced>,
}

/// The category of pronouns other than `it` and `they`/`them` (`one`, `mine`, `this one`).
pub const OTHER_CATEGORY: &str = "anaphoric_inter_other";

/// Reads DiscEvalMT's anaphora JSON at `path` and builds a master. `id` and `created` are
/// parameters so that a rebuild can be made identical.
pub fn import(path: &Path, id: String, created: DateTime<Utc>) -> Result<Imported> {
    let bytes = crate::store::files::read(path).map_err(|e| Error::io(path, e))?;
    let text = String::from_utf8(bytes).map_err(|_| Error::whole_file(path, "not valid UTF-8 text"))?;
    from_json(path, &text, id, created)
}

/// [`import`] from the file's text; `path` names it in messages.
pub fn from_json(path: &Path, text: &str, id: String, created: DateTime<Utc>) -> Result<Imported> {
    let json: Value = serde_json::from_str(text)
        .map_err(|e| Error::at_line(path, e.line(), format!("not DiscEvalMT's JSON: {e}")))?;
    let Value::Object(blocks) = json else {
        return Err(Error::whole_file(path, "not DiscEvalMT's JSON: expected an object of numbered blocks"));
    };
    let mut unplaced = Vec::new();
    let mut read: Vec<Block> = Vec::new();
    for (key, value) in &blocks {
        match block(key, value) {
            Ok(b) => read.push(b),
            Err(reason) => unplaced.push(Unplaced { block: key.clone(), reason: reason.into() }),
        }
    }
    read.sort_by_key(|b| b.no);
    crate::progress::stage("Aligning the translations", None);
    let aligner = train(&read);
    let mut placed = Vec::new();
    for b in read {
        let links: Vec<[Links; 2]> =
            b.translations.iter().map(|t| [0, 1].map(|s| aligner.align(&b.source[s], &t.sentences[s]))).collect();
        let context: Vec<Links> = links.iter().map(|l| l[0].clone()).collect();
        match place::place(&b.source, &b.translations, &context) {
            Ok(placement) => placed.push((b, placement, links)),
            Err(reason) => unplaced.push(Unplaced { block: b.no.to_string(), reason: reason.into() }),
        }
    }
    if placed.is_empty() {
        let why = unplaced.first().map(|u| format!(" (block {}: {})", u.block, u.reason)).unwrap_or_default();
        return Err(Error::whole_file(path, format!("no block of the file could be placed{why}")));
    }
    let master = build(path, &placed, id, created)?;
    Ok(Imported { master, unplaced })
}

/// One block of the JSON, tokenised; `Err` says why it cannot be read.
fn block(key: &str, value: &Value) -> Result<Block, Unreadable> {
    let no: u32 = key.parse().ok().filter(|&n| n > 0).ok_or(Unreadable::Number)?;
    let pair = |v: Option<&Value>, language| -> Option<[String; 2]> {
        let [a, b] = v?.as_array()?.as_slice() else { return None };
        Some([a.as_str()?, b.as_str()?].map(|s| tokenize::tokenize(s, language)))
    };
    let source = pair(value.get("src"), Language::English).ok_or(Unreadable::Source)?;
    let entries = value.get("trg").and_then(Value::as_array).ok_or(Unreadable::Translations)?;
    let mut translations = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let translation = i + 1;
        let entry_fields = entry.as_object().ok_or(Unreadable::NotAnObject(translation))?;
        for (label, sentences) in entry_fields.iter().filter(|(k, _)| *k != "type") {
            let label = Label::from_name(label)
                .ok_or_else(|| Unreadable::UnknownLabel { translation, label: label.clone() })?;
            let sentences =
                pair(Some(sentences), Language::French).ok_or(Unreadable::NotTwoSentences { translation, label })?;
            translations.push(Translation { entry: i + 1, label, sentences });
        }
    }
    if !translations.iter().any(|t| t.label == Label::Correct) {
        return Err(Unreadable::NoCorrect);
    }
    Ok(Block { no, source, translations })
}

/// The built-in aligner trained on every pair of sentences of the blocks (each once).
fn train(blocks: &[Block]) -> Aligner {
    let mut pairs: Vec<(&str, &str)> = blocks
        .iter()
        .flat_map(|b| {
            b.translations.iter().flat_map(move |t| [0, 1].map(|s| (b.source[s].as_str(), t.sentences[s].as_str())))
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    Aligner::train(pairs, &align::Settings::default())
}

/// The systems of the placed blocks, in order of entry and label.
fn systems(placed: &[(Block, place::Placement, Vec<[Links; 2]>)]) -> Vec<(usize, Label)> {
    let mut systems: Vec<(usize, Label)> =
        placed.iter().flat_map(|(b, ..)| b.translations.iter().map(|t| (t.entry, t.label))).collect();
    systems.sort_unstable();
    systems.dedup();
    systems
}

/// The master of the placed blocks.
fn build(
    path: &Path,
    placed: &[(Block, place::Placement, Vec<[Links; 2]>)],
    id: String,
    created: DateTime<Utc>,
) -> Result<Master> {
    let mut master = Master::new(id, created);
    master.languages = Languages { source: "en".into(), target: "fr".into() };
    master.description = format!(
        "DiscEvalMT anaphora (Bawden et al. 2018), imported from {}: {} blocks",
        master_file::file_name(path),
        placed.len()
    );
    master.documents = (0..placed.len() as u32).map(|b| 2 * b).collect();
    let source: Vec<String> = placed.iter().flat_map(|(b, ..)| b.source.clone()).collect();
    let systems = systems(placed);
    let mut corpora = vec![corpus(CorpusId(0), "source", CorpusRole::Source, source, None, None)];
    let reference = translations(placed, |b| b.translations.iter().position(|t| t.label == Label::Correct));
    corpora.push(corpus(CorpusId(1), "reference", CorpusRole::Reference, reference.0, Some(reference.1), None));
    for (i, &(entry, label)) in systems.iter().enumerate() {
        let of = |b: &Block| b.translations.iter().position(|t| t.entry == entry && t.label == label);
        let (sentences, links) = translations(placed, of);
        let name = format!("t{entry}-{}", label.name());
        corpora.push(corpus(CorpusId(2 + i as u32), &name, CorpusRole::System, sentences, Some(links), Some(label)));
    }
    master.corpora = corpora;
    master.categories = categories();
    master.examples = placed.iter().enumerate().map(|(i, (b, p, _))| example(b, p, i as u32)).collect();
    master.reindex();
    master.candidates = candidates(&master, placed, &systems);
    master.reindex();
    master_file::check(path, &master)?;
    Ok(master)
}

fn corpus(
    id: CorpusId,
    name: &str,
    role: CorpusRole,
    sentences: Vec<String>,
    links: Option<Vec<OriginLinks>>,
    label: Option<Label>,
) -> Corpus {
    let (alignment, link_origins) = links.map(LinkOrigins::build).unzip();
    Corpus {
        id,
        name: name.to_owned(),
        role,
        sentences: sentences.into(),
        alignment,
        segmentation: None,
        label: label.map(|l| l.name().to_owned()),
        link_origins,
    }
}

/// The sentences and links of one corpus: each block's translation `which` picks (two empty
/// sentences where the block has none), its pronoun and head links set from the placement.
fn translations(
    placed: &[(Block, place::Placement, Vec<[Links; 2]>)],
    which: impl Fn(&Block) -> Option<usize>,
) -> (Vec<String>, Vec<OriginLinks>) {
    let (mut sentences, mut links) = (Vec::new(), Vec::new());
    for (b, placement, aligned) in placed {
        match which(b) {
            Some(t) => {
                let (pronoun, head) = &placement.translations[t];
                sentences.extend(b.translations[t].sentences.clone());
                links.push(relinked(&aligned[t][0], placement.head, head));
                links.push(relinked(&aligned[t][1], placement.pronoun, pronoun));
            }
            None => {
                sentences.extend([String::new(), String::new()]);
                links.extend([0, 1].map(|_| OriginLinks { links: Vec::new(), bridge: None }));
            }
        }
    }
    (sentences, links)
}

/// The aligner's `links` with the source word `from` linked to `to` alone and `to` to nothing
/// else, when the block tells where `from` goes (`to` not empty). Those links count as given
/// (the suite's own contrast says them), the aligner's as its guesses.
fn relinked(links: &Links, from: u32, to: &[u32]) -> OriginLinks {
    let kept = links.iter().copied().filter(|&(s, t)| to.is_empty() || (s != from && !to.contains(&t)));
    let mut out: Vec<_> = kept.map(|link| (link, LinkOrigin::Aligner)).collect();
    out.extend(to.iter().map(|&t| ((from, t), LinkOrigin::Given)));
    out.sort_unstable();
    OriginLinks { links: out, bridge: None }
}

/// PROTEST's categories and the one for other pronouns.
fn categories() -> Vec<Category> {
    let mut all = standard_categories();
    all.push(Category {
        name: OTHER_CATEGORY.into(),
        function: function::ANAPHORIC.into(),
        anaphoric: true,
        politeness: false,
        label: "Inter-sentential, other pronouns (one, mine, this one…)".into(),
    });
    all
}

/// The example of a placed block, the `i`-th: its current sentence is `2 i + 1`.
fn example(b: &Block, p: &place::Placement, i: u32) -> Example {
    let current = place::words(&b.source[1]);
    let context = place::words(&b.source[0]);
    let pronoun = current[p.pronoun as usize].as_str();
    let reference = b.translations.iter().position(|t| t.label == Label::Correct).unwrap_or(0);
    let subject = p.translations[reference]
        .0
        .first()
        .map(|&at| place::words(&b.translations[reference].sentences[1])[at as usize].clone())
        .is_some_and(|w| matches!(w.rsplit('\'').next().unwrap_or(&w), "il" | "elle" | "ils" | "elles"));
    let category = match pronoun {
        "it" if subject => "anaphoric_inter_subject_it",
        "it" => "anaphoric_inter_non-subject_it",
        "they" | "them" => "anaphoric_inter_they",
        _ => OTHER_CATEGORY,
    };
    let mut start = p.head;
    while start > 0 && DETERMINERS.contains(&context[start as usize - 1].as_str()) {
        start -= 1;
    }
    Example {
        no: ExampleNo(b.no),
        sentence: 2 * i + 1,
        token: p.pronoun,
        category: category.into(),
        antecedents: vec![Antecedent { sentence: 2 * i, start, end: p.head, head: p.head }],
    }
}

/// English words an antecedent's span takes in before its head.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their", "such",
    "all",
];

/// One candidate per placed block and corpus that has a translation of it.
fn candidates(
    master: &Master,
    placed: &[(Block, place::Placement, Vec<[Links; 2]>)],
    systems: &[(usize, Label)],
) -> Vec<Candidate> {
    let mut next = 1;
    let mut out = Vec::new();
    for ((b, ..), example) in placed.iter().zip(&master.examples) {
        let has = |corpus: &Corpus| match corpus.role {
            CorpusRole::Reference => true,
            _ => {
                let position = master.corpora.iter().position(|c| c.id == corpus.id).unwrap_or(0);
                systems
                    .get(position.wrapping_sub(2))
                    .is_some_and(|&(entry, label)| b.translations.iter().any(|t| t.entry == entry && t.label == label))
            }
        };
        for corpus in master.translations().filter(|c| has(c)) {
            let Some(alignment) = &corpus.alignment else { continue };
            out.push(from_texts::candidate(CandidateId(next), example, corpus.id, alignment));
            next += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
