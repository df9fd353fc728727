//! A master built from plain files (`protest import`) — a tokenised source, a reference and any
//! number of MT outputs with their Moses alignments, document starts and a test-suite definition.

use crate::error::{Error, Problems, Result};
use crate::ingest::texts::{OutOfRange, PairOrder};
use crate::ingest::{suite_def, texts};
use crate::model::alignment::Alignment;
use crate::model::numbered_in_file as in_file;
use crate::model::tokens;
use crate::model::{
    AntecedentPlace, Candidate, CandidateId, Category, Corpus, CorpusId, CorpusRole, Example, ExampleNo, Languages,
    Master, TokenRef, standard_categories,
};
use crate::store::master_file;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
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
    /// How the alignment files write their pairs.
    pub order: PairOrder,
    /// What to do with alignment pairs outside their sentences.
    pub out_of_range: OutOfRange,
}

impl Inputs {
    /// These files, read as the defaults of `protest import` read them: English to French,
    /// `i-j` alignments whose pairs must all fit their sentences.
    pub fn new(
        source: PathBuf,
        reference: Option<TranslationInput>,
        systems: Vec<TranslationInput>,
        documents: Option<PathBuf>,
        suite: PathBuf,
    ) -> Inputs {
        Inputs {
            source,
            reference,
            systems,
            documents,
            suite,
            languages: Languages::default(),
            description: String::new(),
            order: PairOrder::default(),
            out_of_range: OutOfRange::default(),
        }
    }
}

/// A master built from texts, and what was left out of its inputs on the way (in words).
#[derive(Debug, Clone)]
pub struct Imported {
    pub master: Master,
    /// A line per alignment file with pairs dropped ([`OutOfRange::Drop`]).
    pub dropped: Vec<String>,
}

/// A fresh random master id.
pub fn new_master_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// Reads all inputs and builds a validated master. `id` and `created` are parameters so that a
/// rebuild can be made byte-identical.
pub fn build(inputs: &Inputs, id: String, created: DateTime<Utc>) -> Result<Master> {
    import(inputs, id, created).map(|imported| imported.master)
}

/// [`build`], saying what was dropped. Every problem of the translations, their alignments and
/// the test-suite definition is reported at once ([`Problems`]); a source or document file that
/// cannot be read stops at once, since nothing else can be checked without it.
pub fn import(inputs: &Inputs, id: String, created: DateTime<Utc>) -> Result<Imported> {
    let source = texts::read_corpus(&inputs.source)?;
    let mut master = Master::new(id, created);
    master.languages = inputs.languages.clone();
    master.description = inputs.description.clone();
    master.documents = match &inputs.documents {
        Some(path) => texts::read_document_starts(path, source.len())?,
        None => vec![0],
    };
    let mut problems = Problems::new();
    let mut dropped = Vec::new();
    let translations = inputs
        .reference
        .iter()
        .map(|t| (t, CorpusRole::Reference))
        .chain(inputs.systems.iter().map(|t| (t, CorpusRole::System)));
    let mut names: HashSet<&str> = HashSet::from(["source"]);
    let mut read_translations = Vec::new();
    for (t, role) in translations {
        if !names.insert(&t.name) {
            problems.push(Error::whole_file(&t.text, format!("the corpus name '{}' is used twice", t.name)));
            continue;
        }
        // The source is corpus 0.
        let id = CorpusId(1 + read_translations.len() as u32);
        let read = read_translation(t, role, id, &source, inputs);
        if let Some((corpus, left_out)) = problems.check(read) {
            dropped.extend(left_out);
            read_translations.push(corpus);
        }
    }
    let source = Corpus {
        id: CorpusId(0),
        name: "source".into(),
        role: CorpusRole::Source,
        sentences: source.into(),
        alignment: None,
        segmentation: None,
        label: None,
        link_origins: None,
    };
    master.corpora = std::iter::once(source).chain(read_translations).collect();

    let def = suite_def::parse_into(&inputs.suite, &texts::read_lines(&inputs.suite)?, &mut problems);
    master.categories = categories(&inputs.suite, def.categories, &mut problems);
    master.reindex();
    master.examples = examples(&master, &inputs.suite, def.examples, &mut problems);
    problems.into_result(())?;
    master.reindex();
    master.candidates = candidates(&master);
    master.reindex();
    // Everything above was checked against its own file; this is the safety net.
    master_file::check(&inputs.suite, &master)?;
    Ok(Imported { master, dropped })
}

/// A translation corpus and its alignment, with the line saying what was dropped from it.
fn read_translation(
    t: &TranslationInput,
    role: CorpusRole,
    id: CorpusId,
    source: &[String],
    inputs: &Inputs,
) -> Result<(Corpus, Option<String>)> {
    let sentences = texts::read_corpus(&t.text)?;
    if sentences.len() != source.len() {
        return Err(Error::whole_file(
            &t.text,
            format!(
                "has {} sentences but the source {} has {}; a translation needs one line per source sentence",
                sentences.len(),
                inputs.source.display(),
                source.len()
            ),
        ));
    }
    let lines = texts::read_lines(&t.alignment)?;
    let read = texts::alignment(&t.alignment, lines, inputs.order, inputs.out_of_range, source, &sentences, &t.text)?;
    let dropped = read.dropped.describe(&t.alignment);
    let corpus = Corpus {
        id,
        name: t.name.clone(),
        role,
        sentences: sentences.into(),
        alignment: Some(Alignment::new(read.links)),
        segmentation: None,
        label: None,
        link_origins: None,
    };
    Ok((corpus, dropped))
}

/// PROTEST's categories followed by the file's own; one defined twice (or as a standard one)
/// is a problem.
fn categories(path: &Path, extra: Vec<Category>, problems: &mut Problems) -> Vec<Category> {
    let mut all = standard_categories();
    let mut names: HashSet<String> = all.iter().map(|c| c.name.clone()).collect();
    for c in extra {
        if names.insert(c.name.clone()) {
            all.push(c);
        } else {
            problems.push(Error::whole_file(
                path,
                format!("category '{}' is defined twice (or is a standard one)", c.name),
            ));
        }
    }
    all
}

/// Checks each example line against the source and the categories, every problem into
/// `problems`; the good ones sorted by number.
fn examples(master: &Master, path: &Path, lines: Vec<suite_def::ExampleLine>, problems: &mut Problems) -> Vec<Example> {
    let mut seen = HashSet::new();
    let mut tokens_taken: HashMap<(u32, u32), (ExampleNo, usize)> = HashMap::new();
    // Built once: a file of many unknown categories must not list them all again per line.
    let mut known: Option<String> = None;
    let mut examples = Vec::with_capacity(lines.len());
    for l in lines {
        let line = l.line;
        let e = l.example;
        let check = example(master, &l.pronoun, &e, &mut known).and_then(|()| {
            if !seen.insert(e.no) {
                return Err(ExampleProblem::Twice(e.no));
            }
            if let Some((other, other_line)) = tokens_taken.insert((e.sentence, e.token), (e.no, line)) {
                let (sentence, token) = (e.sentence, e.token);
                return Err(ExampleProblem::TokenTaken { example: e.no, sentence, token, other, other_line });
            }
            Ok(())
        });
        match check {
            Ok(()) => examples.push(e),
            Err(m) => problems.push(Error::at_line(path, line, m)),
        }
    }
    examples.sort_by_key(|e| e.no);
    examples
}

/// What is wrong with one example line of a suite definition, against the source and the
/// categories. Sentences are numbers in the file (from 0), named as [`in_file`] names them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExampleProblem {
    #[error("example {0} is defined twice")]
    Twice(ExampleNo),
    /// On the token of an example defined before, at `other_line` of the file.
    #[error(
        "example {example} is on token {token} of {}, as example {other} is (line {other_line}): one example per \
         pronoun token; remove one, or correct its token",
        in_file(*sentence)
    )]
    TokenTaken { example: ExampleNo, sentence: u32, token: u32, other: ExampleNo, other_line: usize },
    #[error("{} does not exist (the source has {sentences})", in_file(*sentence))]
    NoSentence { sentence: u32, sentences: usize },
    #[error("token {token} is out of range ({} has {count} tokens)", in_file(*sentence))]
    NoToken { sentence: u32, token: u32, count: usize },
    /// The source's word at the token is not the pronoun the line gives.
    #[error("token {token} of {} is '{word}', not '{pronoun}': {}", in_file(*sentence), what_to_do(word, pronoun))]
    NotThePronoun { sentence: u32, token: u32, word: String, pronoun: String },
    /// `known`: the categories' names, or the first few of them.
    #[error("unknown category '{category}' (known: {known})")]
    UnknownCategory { category: String, known: String },
    #[error("category '{0}' is anaphoric, so the example needs an antecedent")]
    NeedsAntecedent(String),
    #[error("category '{0}' is not anaphoric, so the example takes no antecedent (use -)")]
    TakesNoAntecedent(String),
    #[error("antecedent {} does not exist", in_file(*.0))]
    NoAntecedentSentence(u32),
    #[error("antecedent span {start}-{end} is out of range ({} has {len} tokens)", in_file(*sentence))]
    SpanOutOfRange { sentence: u32, start: u32, end: u32, len: usize },
    /// The antecedent's sentence is outside the pronoun's document (sentences `first`–`last`, from 1).
    #[error("antecedent {} is outside the pronoun's document (sentences {first}–{last})", in_file(*sentence))]
    OutsideDocument { sentence: u32, first: u32, last: u32 },
    #[error(
        "category '{category}' is inter-sentential, but the antecedent is in the pronoun's {}: use the \
         intra-sentential category, or correct the antecedent",
        in_file(*sentence)
    )]
    NotInterSentential { category: String, sentence: u32 },
    #[error(
        "category '{category}' is intra-sentential, but the antecedent is in {}, not in the pronoun's {}: use \
         the inter-sentential category, or correct the antecedent",
        in_file(*antecedent),
        in_file(*sentence)
    )]
    NotIntraSentential { category: String, antecedent: u32, sentence: u32 },
}

/// What to do about a token that is not the pronoun: write its case, or count from 0.
fn what_to_do(word: &str, pronoun: &str) -> String {
    if word.to_lowercase() == pronoun.to_lowercase() {
        format!("only the case differs: write '{word}' as the source does")
    } else {
        "is the token number off by one? Tokens count from 0".to_owned()
    }
}

/// The problem with one example line, if any. `known` is the list of category names, made the
/// first time an unknown one needs it.
fn example(master: &Master, pronoun: &str, e: &Example, known: &mut Option<String>) -> Result<(), ExampleProblem> {
    let source = &master.corpora[0];
    let (sentence, token) = (e.sentence, e.token);
    let Some(text) = source.sentence(sentence) else {
        return Err(ExampleProblem::NoSentence { sentence, sentences: source.sentences.len() });
    };
    let count = tokens::token_count(text);
    let Some(word) = tokens::token(text, token) else {
        return Err(ExampleProblem::NoToken { sentence, token, count });
    };
    if word != pronoun {
        let (word, pronoun) = (word.to_owned(), pronoun.to_owned());
        return Err(ExampleProblem::NotThePronoun { sentence, token, word, pronoun });
    }
    let Some(category) = master.category(&e.category) else {
        let known = known.get_or_insert_with(|| known_categories(master)).clone();
        return Err(ExampleProblem::UnknownCategory { category: e.category.clone(), known });
    };
    if category.anaphoric && e.antecedents.is_empty() {
        return Err(ExampleProblem::NeedsAntecedent(e.category.clone()));
    }
    if !category.anaphoric && !e.antecedents.is_empty() {
        return Err(ExampleProblem::TakesNoAntecedent(e.category.clone()));
    }
    let document = master.document_of(sentence);
    for a in &e.antecedents {
        let Some(len) = source.token_count(a.sentence) else {
            return Err(ExampleProblem::NoAntecedentSentence(a.sentence));
        };
        if a.end as usize >= len {
            return Err(ExampleProblem::SpanOutOfRange { sentence: a.sentence, start: a.start, end: a.end, len });
        }
        if !document.contains(&a.sentence) {
            let (first, last) = (document.start + 1, document.end);
            return Err(ExampleProblem::OutsideDocument { sentence: a.sentence, first, last });
        }
        match category.antecedent_place() {
            Some(AntecedentPlace::OtherSentence) if a.sentence == sentence => {
                return Err(ExampleProblem::NotInterSentential { category: e.category.clone(), sentence });
            }
            Some(AntecedentPlace::SameSentence) if a.sentence != sentence => {
                let (category, antecedent) = (e.category.clone(), a.sentence);
                return Err(ExampleProblem::NotIntraSentential { category, antecedent, sentence });
            }
            _ => {}
        }
    }
    Ok(())
}

/// The categories' names for a message: all of them, or the first few of a file that defines
/// thousands (a message per line must not repeat them all).
fn known_categories(master: &Master) -> String {
    const LISTED: usize = 40;
    let mut names: Vec<&str> = master.categories.iter().take(LISTED).map(|c| c.name.as_str()).collect();
    let more = master.categories.len().saturating_sub(LISTED);
    let more = format!("… and {more} more");
    if master.categories.len() > LISTED {
        names.push(&more);
    }
    names.join(", ")
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;
    use std::time::{Duration, Instant};

    fn tiny(dir: &Path, suite: &str, systems: &[(&str, &str)]) -> Inputs {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/tiny");
        let suite_path = dir.join("suite.tsv");
        std::fs::write(&suite_path, suite).unwrap();
        let translation = |name: &str, alignment: &str| {
            let path = dir.join(format!("{name}.alig"));
            std::fs::write(&path, alignment).unwrap();
            TranslationInput { name: name.into(), text: fixture.join("mt.fr"), alignment: path }
        };
        Inputs::new(
            fixture.join("source.en"),
            None,
            systems.iter().map(|(name, alignment)| translation(name, alignment)).collect(),
            Some(fixture.join("docs")),
            suite_path,
        )
    }

    const SUITE: &str = "1\t1\t0\tIt\tanaphoric_inter_subject_it\t0:2-3@3\n2\t2\t0\tIt\tpleonastic_it\t-\n";

    #[test]
    fn every_problem_of_the_alignments_and_the_suite_at_once() {
        let dir = tempfile::tempdir().unwrap();
        // Two pairs outside their sentences in one file, a malformed line in another, and three
        // suite mistakes: an example on the token of another, an inter-sentential antecedent in
        // the pronoun's sentence, an intra-sentential one elsewhere.
        let suite = format!(
            "{SUITE}3\t1\t0\tIt\tpleonastic_it\t-\n4\t1\t2\tred\tanaphoric_inter_they\t1:0-0@0\n\
             5\t3\t0\tYou\tanaphoric_intra_subject_it\t2:0-0@0\n"
        );
        let bad = "0-0 9-1\n0-0 1-7\n0-0\n0-0\n";
        let inputs = tiny(dir.path(), &suite, &[("mt", bad), ("other", "0-0\n0:1\n\n\n")]);
        let err = import(&inputs, "m".into(), DateTime::UNIX_EPOCH).unwrap_err().to_string();
        assert!(err.starts_with("6 problems; fix them all, then run again:"), "{err}");
        for expected in [
            "mt.alig: pairs outside their sentences: 2; to leave them out and go on, run again with --drop-bad-links",
            "mt.alig: line 1: pair 9-1: source index 9 is out of range (the source sentence has 5 tokens)",
            "mt.alig: line 2: pair 1-7: target index 7 is out of range",
            "other.alig: line 2: malformed pair '0:1'",
            "suite.tsv: line 3: example 3 is on token 0 of sentence 2 (1 in the file), as example 1 is (line 1)",
            "suite.tsv: line 4: category 'anaphoric_inter_they' is inter-sentential, but the antecedent is in the \
             pronoun's sentence 2 (1 in the file): use the intra-sentential category, or correct the antecedent",
            "suite.tsv: line 5: category 'anaphoric_intra_subject_it' is intra-sentential, but the antecedent is in \
             sentence 3 (2 in the file), not in the pronoun's sentence 4 (3 in the file)",
        ] {
            assert!(err.contains(expected), "{expected}\nnot in\n{err}");
        }
        // Dropping the pairs outside their sentences: said, and only the suite's mistakes are left.
        let mut inputs = tiny(dir.path(), SUITE, &[("mt", bad)]);
        inputs.out_of_range = OutOfRange::Drop;
        let imported = import(&inputs, "m".into(), DateTime::UNIX_EPOCH).unwrap();
        assert_eq!(imported.dropped.len(), 1);
        assert!(imported.dropped[0].ends_with("mt.alig: dropped 2 pairs outside their sentences on 2 lines: 1, 2"));
        assert_eq!(imported.master.corpora[1].alignment.as_ref().unwrap().sentence(0), [(0, 0)]);
    }

    #[test]
    fn an_alignment_written_target_first_says_to_pass_reversed() {
        let dir = tempfile::tempdir().unwrap();
        // "It is raining ." has 4 tokens, "Il pleut ." 3: 0-3 only fits read target first.
        let reversed = "0-0\n0-0\n0-0 0-3\n0-0\n";
        let inputs = tiny(dir.path(), SUITE, &[("mt", reversed)]);
        let err = import(&inputs, "m".into(), DateTime::UNIX_EPOCH).unwrap_err().to_string();
        assert!(err.contains("line 3: pair 0-3: target index 3 is out of range"), "{err}");
        assert!(
            err.contains(
                "every pair fits its sentences when read target index first (j-i): if the aligner wrote them \
                          so, run again with --reversed"
            ),
            "{err}"
        );
        let mut inputs = tiny(dir.path(), SUITE, &[("mt", reversed)]);
        inputs.order = PairOrder::TargetSource;
        assert!(import(&inputs, "m".into(), DateTime::UNIX_EPOCH).is_ok());
    }

    #[test]
    fn a_pronoun_that_differs_in_case_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = tiny(dir.path(), "1\t2\t0\tit\tpleonastic_it\t-\n2\t2\t1\tit\tpleonastic_it\t-\n", &[]);
        let err = import(&inputs, "m".into(), DateTime::UNIX_EPOCH).unwrap_err().to_string();
        assert!(
            err.contains(
                "line 1: token 0 of sentence 3 (2 in the file) is 'It', not 'it': only the case differs: write 'It' as the source does"
            ),
            "{err}"
        );
        assert!(
            err.contains(
                "line 2: token 1 of sentence 3 (2 in the file) is 'is', not 'it': is the token number off by one? Tokens count from 0"
            ),
            "{err}"
        );
    }

    /// Found trying the edges as an attacker would: reading a suite was quadratic in its
    /// `@category` lines (10⁵: 8 s, 10⁶: past 120 s), each new category compared with all before
    /// it. 200,000 categories and as many examples of unknown categories are read here in a few
    /// seconds of a debug build; a quadratic reading takes many minutes. The bound is generous on
    /// purpose — a slow shared machine must not fail it — and is no measurement: it only tells
    /// linear from quadratic.
    #[test]
    fn a_suite_of_hundreds_of_thousands_of_lines_is_read_in_linear_time() {
        let dir = tempfile::tempdir().unwrap();
        let n = 200_000;
        let mut suite = String::from(SUITE);
        for i in 0..n {
            let _ = writeln!(suite, "@category\tc{i}\tf\t-");
        }
        for i in 0..n {
            let _ = writeln!(suite, "{}\t3\t0\tYou\tnone{i}\t-", i + 3);
        }
        let inputs = tiny(dir.path(), &suite, &[]);
        let started = Instant::now();
        let err = import(&inputs, "m".into(), DateTime::UNIX_EPOCH).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
        let Error::Several { problems, total, .. } = err else { panic!("{err}") };
        // Each example's category is unknown (that is checked before the token it is on).
        assert_eq!((problems.len(), total), (Problems::SHOWN, n));
        assert!(problems[0].to_string().contains("(known: anaphoric_inter_subject_it, "), "{}", problems[0]);
        assert!(problems[0].to_string().contains(", … and 199973 more)"), "{}", problems[0]);
    }
}
