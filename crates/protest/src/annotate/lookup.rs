//! Lookup (docs/domain.md, "Modes and views"): a candidate by its id, or every translation of one source pronoun by its
//! example number, laid side by side for comparison with everyone's judgements.

use crate::annotate::window::{self, Sentence};
use crate::model::{AnnotatorId, CandidateId, Corpus, CorpusRole, ExampleNo, Judgement, Master};

/// Why a lookup found nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    #[error("type a number (e.g. 12)")]
    Empty,
    #[error("'{0}' is not a number")]
    NotANumber(String),
    #[error("there is no example {0} (the examples are numbered {1}–{2})")]
    NoExample(u32, u32, u32),
    #[error("there is no candidate {0} (the candidates are numbered {1}–{2})")]
    NoCandidate(u32, u32, u32),
    #[error("this file has no examples")]
    Nothing,
}

/// A number as typed: spaces and a leading `#` are allowed.
pub fn number(text: &str) -> Result<u32, LookupError> {
    let text = text.trim();
    let digits = text.strip_prefix('#').unwrap_or(text).trim();
    if digits.is_empty() {
        return Err(LookupError::Empty);
    }
    digits.parse().map_err(|_| LookupError::NotANumber(text.to_owned()))
}

/// The example with the typed number.
pub fn example(master: &Master, text: &str) -> Result<ExampleNo, LookupError> {
    let no = number(text)?;
    if master.example(ExampleNo(no)).is_some() {
        return Ok(ExampleNo(no));
    }
    let numbers = master.examples.iter().map(|e| e.no.0);
    let (min, max) = (numbers.clone().min().ok_or(LookupError::Nothing)?, numbers.max().unwrap_or_default());
    Err(LookupError::NoExample(no, min, max))
}

/// The candidate with the typed id.
pub fn candidate(master: &Master, text: &str) -> Result<CandidateId, LookupError> {
    let id = number(text)?;
    if master.candidate(CandidateId(id)).is_some() {
        return Ok(CandidateId(id));
    }
    let ids = master.candidates.iter().map(|c| c.id.0);
    let (min, max) = (ids.clone().min().ok_or(LookupError::Nothing)?, ids.max().unwrap_or_default());
    Err(LookupError::NoCandidate(id, min, max))
}

/// Every translation of one example.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison<'a> {
    pub example: ExampleNo,
    /// The source sentence holding the pronoun, the pronoun and any antecedent head in it marked.
    pub source: Sentence<'a>,
    /// Antecedent heads in earlier sentences, as words.
    pub antecedent_elsewhere: Vec<String>,
    /// The reference first, then the systems in the master's corpus order.
    pub rows: Vec<Translation<'a>>,
}

/// One translation of the pronoun.
#[derive(Debug, Clone, PartialEq)]
pub struct Translation<'a> {
    pub candidate: CandidateId,
    pub corpus: &'a Corpus,
    /// The translated sentence holding the pronoun, with the tokens aligned to the pronoun and
    /// to the antecedent heads marked.
    pub sentence: Sentence<'a>,
    /// What the antecedent heads are translated with in other sentences.
    pub antecedent_elsewhere: Vec<String>,
    /// Everyone's judgements: `(annotator, antecedent, pronoun)`, by annotator id; blank records
    /// left out.
    pub judgements: Vec<(AnnotatorId, Judgement, Judgement)>,
}

/// Every translation of an example; `None` if there is no such example or it has no candidates.
pub fn compare(master: &Master, no: ExampleNo) -> Option<Comparison<'_>> {
    let example = master.example(no)?;
    let rank = |role: CorpusRole| if role == CorpusRole::Reference { 0 } else { 1 };
    let corpus_rank = |c: &Corpus| (rank(c.role), master.corpora.iter().position(|k| k.id == c.id));
    let mut candidates: Vec<_> = master.candidates_of(no).filter_map(|c| Some((c, master.corpus(c.corpus)?))).collect();
    candidates.sort_by_key(|(_, corpus)| corpus_rank(corpus));
    let mut source = None;
    let mut rows = Vec::new();
    for (candidate, corpus) in candidates {
        let Some(w) = window::of_candidate(master, candidate, None) else { continue };
        source = source.or_else(|| pronoun_line(w.source, example.sentence));
        let Some(sentence) = pronoun_line(w.target, example.sentence) else { continue };
        let antecedent_elsewhere = candidate
            .antecedents
            .iter()
            .flatten()
            .filter(|t| t.sentence != example.sentence)
            .filter_map(|&t| corpus.token(t).map(str::to_owned))
            .collect();
        let judgements = master
            .records
            .of_candidate(candidate.id)
            .filter(|r| !r.is_blank())
            .map(|r| (r.annotator, r.antecedent, r.pronoun))
            .collect();
        rows.push(Translation { candidate: candidate.id, corpus, sentence, antecedent_elsewhere, judgements });
    }
    let source_corpus = master.source()?;
    let anaphoric = master.category(&example.category).is_some_and(|c| c.anaphoric);
    let antecedent_elsewhere = example
        .antecedents
        .iter()
        .filter(|a| anaphoric && a.sentence != example.sentence)
        .filter_map(|a| source_corpus.token(a.head_ref()).map(str::to_owned))
        .collect();
    Some(Comparison { example: no, source: source?, antecedent_elsewhere, rows })
}

fn pronoun_line(sentences: Vec<Sentence<'_>>, index: u32) -> Option<Sentence<'_>> {
    sentences.into_iter().find(|s| s.index == index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{judge, tiny};

    #[test]
    fn numbers_as_typed() {
        assert_eq!(number(" 12 "), Ok(12));
        assert_eq!(number("#7"), Ok(7));
        assert_eq!(number(""), Err(LookupError::Empty));
        assert_eq!(number("twelve"), Err(LookupError::NotANumber("twelve".into())));
        assert_eq!(number("-1"), Err(LookupError::NotANumber("-1".into())));
    }

    #[test]
    fn unknown_numbers_say_what_exists() {
        let m = tiny();
        assert_eq!(example(&m, "2"), Ok(ExampleNo(2)));
        assert_eq!(example(&m, "9"), Err(LookupError::NoExample(9, 1, 3)));
        assert_eq!(candidate(&m, "6"), Ok(CandidateId(6)));
        let e = candidate(&m, "0").unwrap_err();
        assert_eq!(e.to_string(), "there is no candidate 0 (the candidates are numbered 1–6)");
    }

    #[test]
    fn every_translation_of_an_example_with_everyones_judgements() {
        let mut m = tiny();
        judge(&mut m, 2, 1, Judgement::No, Judgement::Yes);
        judge(&mut m, 2, 2, Judgement::Yes, Judgement::Yes);
        let c = compare(&m, ExampleNo(1)).unwrap();
        let names: Vec<_> = c.rows.iter().map(|r| r.corpus.name.as_str()).collect();
        assert_eq!(names, ["reference", "mt"]);
        // "It is red ." with the pronoun marked; "bicycle" is in the sentence before.
        assert!(c.source.tokens[0].marks.pronoun && c.source.tokens[0].text == "It");
        assert_eq!(c.antecedent_elsewhere, ["bicycle"]);
        let mt = &c.rows[1];
        assert_eq!(mt.candidate, CandidateId(2));
        assert_eq!(mt.sentence.tokens[0].text, "Elle");
        assert!(mt.sentence.tokens[0].marks.pronoun && !mt.sentence.tokens[1].marks.pronoun);
        assert_eq!(mt.antecedent_elsewhere, ["bicyclette"]);
        assert_eq!(
            mt.judgements,
            [(AnnotatorId(1), Judgement::Yes, Judgement::No), (AnnotatorId(2), Judgement::Yes, Judgement::Yes)]
        );
        assert!(c.rows[0].judgements.is_empty());
        assert_eq!(compare(&m, ExampleNo(9)), None);
    }
}
