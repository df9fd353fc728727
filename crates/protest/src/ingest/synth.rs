//! Synthetic masters of any size, built from a real tokenised, aligned news corpus, for
//! benchmarks and scale tests (`protest synth`, docs/performance.md).
//!
//! The text is real; what the corpus lacks is made up plausibly and reproducibly from a seed:
//!
//! - **systems**: the corpus's real MT output plus copies of it in which some French subject
//!   pronouns are swapped (il ↔ elle ↔ ils …) and some alignment links dropped or shifted;
//! - **examples**: real `it` / `they` / `you` tokens, categorised by simple word rules, with the
//!   nearest preceding noun-ish phrase (a determiner and a content word) as antecedent;
//! - **annotators and records**: judgements, token selections, tags and remarks in realistic
//!   proportions, annotators agreeing most of the time, conflict checks run as on leaving.
//!
//! The corpus is repeated (as whole copies, documents and all) as often as needed to supply the
//! requested number of examples.

use crate::annotate::conflicts;
use crate::error::{Error, Result};
use crate::ingest::{from_texts, texts};
use crate::model::alignment::{Alignment, Links};
use crate::model::tokens;
use crate::model::{
    Annotator, AnnotatorId, Antecedent, Corpus, CorpusId, CorpusRole, Example, ExampleNo, Judgement, Master, Record,
    Role, standard_categories, tags,
};
use crate::store::master_file;
use chrono::{DateTime, Duration};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// The files of a tokenised, aligned corpus with one MT system.
#[derive(Debug, Clone)]
pub struct Sources {
    pub source: PathBuf,
    pub reference: PathBuf,
    pub reference_alignment: PathBuf,
    pub mt: PathBuf,
    pub mt_alignment: PathBuf,
    /// Document starts, one 0-based sentence number per line.
    pub documents: PathBuf,
}

impl Sources {
    /// The files of a folder laid out like the DiscoMT news corpus (`pronoun-test.tok.*`,
    /// `mt-output.*`, `doc-boundaries`) or like the sample's inputs (`news.*`).
    pub fn in_folder(dir: &Path) -> Result<Sources> {
        let discomt = Sources {
            source: dir.join("pronoun-test.tok.en"),
            reference: dir.join("pronoun-test.tok.fr"),
            reference_alignment: dir.join("pronoun-test.tok.en-fr.alig"),
            mt: dir.join("mt-output.fr"),
            mt_alignment: dir.join("mt-output.en-fr.alig"),
            documents: dir.join("doc-boundaries"),
        };
        let sample = Sources {
            source: dir.join("news.en"),
            reference: dir.join("news.ref.fr"),
            reference_alignment: dir.join("news.ref.alig"),
            mt: dir.join("news.mt.fr"),
            mt_alignment: dir.join("news.mt.alig"),
            documents: dir.join("news.docs"),
        };
        [discomt, sample].into_iter().find(|s| s.source.is_file()).ok_or_else(|| {
            Error::whole_file(
                dir,
                "no corpus here: expected pronoun-test.tok.en, pronoun-test.tok.fr, mt-output.fr, their .en-fr.alig \
                 alignments and doc-boundaries (the DiscoMT news layout), or news.en, news.ref.fr, news.mt.fr, \
                 news.ref.alig, news.mt.alig and news.docs",
            )
        })
    }
}

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    pub examples: usize,
    /// MT systems: the real one plus `systems - 1` perturbed copies. Candidates are made for
    /// these and for the reference, so there are `examples × (systems + 1)` of them.
    pub systems: usize,
    /// Annotators, each with a record on a share `coverage` of the candidates.
    pub annotators: usize,
    pub coverage: f64,
    pub seed: u64,
}

impl Params {
    /// `times` × PROTEST: 250 examples per unit, 8 translations (the reference, the real MT
    /// output and 6 perturbed copies), 2 annotators who annotated everything. `protest(1)` has
    /// 2,000 candidates and 4,000 records, `protest(100)` 200,000 and 400,000.
    pub fn protest(times: usize) -> Params {
        Params { examples: 250 * times, systems: 7, annotators: 2, coverage: 1.0, seed: 1 }
    }
}

/// Builds a valid master as described in the module documentation. Deterministic: the same
/// sources and parameters give the same master.
pub fn generate(sources: &Sources, params: &Params) -> Result<Master> {
    crate::progress::stage("Reading the corpus", None);
    let text = Text::read(sources)?;
    let pool = pronoun_pool(&text);
    if pool.is_empty() {
        return Err(Error::whole_file(&sources.source, "no usable it/they/you tokens in the source"));
    }
    if params.systems == 0 {
        return Err(Error::whole_file(&sources.mt, "at least one MT system is needed"));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let copies = params.examples.div_ceil(pool.len()).max(1);
    let created = DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default(); // 2026-01-01
    let mut master = Master::new(format!("synth-{:x}-{}", params.seed, params.examples), created);
    master.description = format!(
        "Synthetic master: {} examples, {} MT systems, {} annotators (seed {}), from {}",
        params.examples,
        params.systems,
        params.annotators,
        params.seed,
        sources.source.display()
    );
    let n = text.source.len() as u32;
    master.documents = (0..copies as u32).flat_map(|c| text.documents.iter().map(move |d| d + c * n)).collect();
    master.corpora.push(corpus(0, "source", CorpusRole::Source, repeat(&text.source, copies), None));
    master.corpora.push(corpus(
        1,
        "reference",
        CorpusRole::Reference,
        repeat(&text.reference, copies),
        Some(repeat(&text.reference_links, copies)),
    ));
    crate::progress::stage("Making the translations", Some(params.systems as u64));
    for s in 0..params.systems {
        crate::progress::advance(1);
        let (mut sentences, mut links) = (repeat(&text.mt, copies), repeat(&text.mt_links, copies));
        let name = if s == 0 { "mt".to_owned() } else { format!("mt-variant-{s}") };
        if s > 0 {
            perturb(&mut sentences, &mut links, &mut rng);
        }
        master.corpora.push(corpus(s as u32 + 2, &name, CorpusRole::System, sentences, Some(links)));
    }
    master.categories = standard_categories();
    master.reindex();

    crate::progress::stage("Choosing the examples and their records", None);
    let picks = rand::seq::index::sample(&mut rng, pool.len() * copies, params.examples.min(pool.len() * copies));
    let mut picks = picks.into_vec();
    picks.sort_unstable();
    master.examples = picks
        .into_iter()
        .enumerate()
        .map(|(i, p)| pool[p % pool.len()].shifted(ExampleNo(i as u32 + 1), (p / pool.len()) as u32 * n))
        .collect();
    master.reindex();
    master.candidates = from_texts::candidates(&master);
    master.reindex();

    master.annotators = (1..=params.annotators as u32)
        .map(|i| Annotator { id: AnnotatorId(i), name: format!("Annotator {i}") })
        .collect();
    master.records = records(&master, params, &mut rng);
    crate::progress::stage("Checking the master", None);
    master_file::check(&sources.source, &master)?;
    Ok(master)
}

fn corpus(id: u32, name: &str, role: CorpusRole, sentences: Vec<String>, links: Option<Vec<Links>>) -> Corpus {
    Corpus {
        id: CorpusId(id),
        name: name.into(),
        role,
        sentences: sentences.into(),
        alignment: links.map(Alignment::new),
        segmentation: None,
        label: None,
        link_origins: None,
    }
}

fn repeat<T: Clone>(items: &[T], copies: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(items.len() * copies);
    for _ in 0..copies {
        out.extend_from_slice(items);
    }
    out
}

/// The corpus as read, with alignment pairs outside their sentences dropped (the DiscoMT MT
/// alignment has about 40; `protest import` rightly refuses them).
struct Text {
    source: Vec<String>,
    reference: Vec<String>,
    reference_links: Vec<Links>,
    mt: Vec<String>,
    mt_links: Vec<Links>,
    documents: Vec<u32>,
}

impl Text {
    fn read(s: &Sources) -> Result<Text> {
        let source = texts::read_corpus(&s.source)?;
        let reference = texts::read_corpus(&s.reference)?;
        let mt = texts::read_corpus(&s.mt)?;
        for (path, t) in [(&s.reference, &reference), (&s.mt, &mt)] {
            if t.len() != source.len() {
                return Err(Error::whole_file(
                    path,
                    format!("has {} sentences but the source has {}", t.len(), source.len()),
                ));
            }
        }
        let (reference_links, _) = texts::read_alignment_lenient(&s.reference_alignment, &source, &reference)?;
        let (mt_links, _) = texts::read_alignment_lenient(&s.mt_alignment, &source, &mt)?;
        let documents = texts::read_document_starts(&s.documents, source.len())?;
        Ok(Text { source, reference, reference_links, mt, mt_links, documents })
    }
}

/// French subject pronouns a perturbed system may confuse with one another.
const FRENCH_PRONOUNS: [&str; 7] = ["il", "elle", "ils", "elles", "ce", "ça", "cela"];

/// Swaps about a fifth of the French pronouns and disturbs about 6% of the alignment links.
fn perturb(sentences: &mut [String], links: &mut [Links], rng: &mut ChaCha8Rng) {
    for (sentence, links) in sentences.iter_mut().zip(links.iter_mut()) {
        let mut changed = false;
        let words: Vec<String> = tokens::tokens(sentence)
            .map(|w| {
                let lower = w.to_lowercase();
                if !FRENCH_PRONOUNS.contains(&lower.as_str()) || !rng.random_bool(0.2) {
                    return w.to_owned();
                }
                changed = true;
                let other = FRENCH_PRONOUNS.iter().filter(|&&p| p != lower).collect::<Vec<_>>();
                let new = **other.choose(rng).unwrap_or(&&"il");
                if w.starts_with(char::is_uppercase) { capitalise(new) } else { new.to_owned() }
            })
            .collect();
        if changed {
            *sentence = words.join(" ");
        }
        let target_len = tokens::token_count(sentence) as u32;
        links.retain_mut(|link| match rng.random_range(0..100) {
            0..3 => false,
            3..6 => {
                let shifted = if rng.random_bool(0.5) { link.1 + 1 } else { link.1.wrapping_sub(1) };
                if shifted < target_len {
                    link.1 = shifted;
                }
                true
            }
            _ => true,
        });
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// An example found in one copy of the corpus.
#[derive(Debug, Clone)]
struct Found {
    sentence: u32,
    token: u32,
    category: &'static str,
    antecedent: Option<Antecedent>,
}

impl Found {
    fn shifted(&self, no: ExampleNo, by: u32) -> Example {
        Example {
            no,
            sentence: self.sentence + by,
            token: self.token,
            category: self.category.to_owned(),
            antecedents: self.antecedent.iter().map(|a| Antecedent { sentence: a.sentence + by, ..*a }).collect(),
        }
    }
}

const DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "his", "her", "its", "their", "our", "my", "some", "many",
    "every", "each", "another",
];
const NOT_NOUNS: &[&str] = &[
    "and", "but", "for", "not", "with", "from", "into", "than", "then", "also", "only", "very", "more", "most", "same",
    "other", "such", "own", "new", "first", "last", "next", "few", "all", "one", "two", "who", "which", "what", "when",
    "where", "there", "here", "was", "were", "been", "being", "have", "has", "had", "will", "would", "can", "could",
    "should", "may", "might", "must", "said", "says",
];
const VERBS_AFTER_SUBJECT: &[&str] = &[
    "is", "was", "'s", "has", "had", "have", "are", "were", "will", "would", "can", "could", "should", "may", "might",
    "must", "does", "did", "do", "seems", "became", "remains", "takes", "said", "says",
];

/// A deterministic number in 0..100 for a position, so the rules can pick minority categories
/// without a random generator (the pool must not depend on the seed).
fn dice(sentence: u32, token: u32) -> u32 {
    let h =
        u64::from(sentence).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(token).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    ((h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) >> 32) as u32 % 100
}

/// Every usable pronoun token of one copy of the corpus, categorised.
fn pronoun_pool(text: &Text) -> Vec<Found> {
    let mut pool = Vec::new();
    for (s, sentence) in text.source.iter().enumerate() {
        let s = s as u32;
        let words: Vec<&str> = tokens::tokens(sentence).collect();
        for (t, word) in words.iter().enumerate() {
            let t = t as u32;
            let found = match word.to_lowercase().as_str() {
                "you" => Some(you(&words, s, t)),
                "it" => it(text, &words, s, t),
                "they" => they(text, s, t),
                _ => None,
            };
            pool.extend(found);
        }
    }
    pool
}

fn you(words: &[&str], s: u32, t: u32) -> Found {
    let before = t.checked_sub(1).map(|i| words[i as usize].to_lowercase());
    let after = words.get(t as usize + 1).map(|w| w.to_lowercase());
    let generic = matches!(before.as_deref(), Some("if" | "when" | "unless"))
        || matches!(after.as_deref(), Some("can" | "need" | "should" | "have" | "must" | "get"));
    let category = if generic {
        "addressee_generic_you"
    } else if words.iter().any(|w| matches!(w.to_lowercase().as_str(), "all" | "everyone" | "guys")) {
        "addressee_deictic_plural_you"
    } else if dice(s, t) < 60 {
        "addressee_deictic_singular_you"
    } else {
        "addressee_generic_you"
    };
    Found { sentence: s, token: t, category, antecedent: None }
}

fn it(text: &Text, words: &[&str], s: u32, t: u32) -> Option<Found> {
    let at = |i: u32| words.get(i as usize).map(|w| w.to_lowercase());
    let after = at(t + 1);
    let before = t.checked_sub(1).and_then(at);
    let pleonastic = matches!(after.as_deref(), Some("rains" | "raining" | "seems" | "appears"))
        || (matches!(after.as_deref(), Some("is" | "was" | "'s"))
            && (t + 2..t + 8).filter_map(at).any(|w| w == "to" || w == "that"));
    let found = |category, antecedent| Some(Found { sentence: s, token: t, category, antecedent });
    if pleonastic {
        return found("pleonastic_it", None);
    }
    if matches!(before.as_deref(), Some("do" | "did" | "does" | "done" | "doing" | "make" | "made")) {
        return found("event_it", None);
    }
    let Some(antecedent) = antecedent_of(text, s, t, false) else { return found("event_it", None) };
    let subject = t == 0 || after.as_deref().is_some_and(|w| VERBS_AFTER_SUBJECT.contains(&w));
    let category = match (dice(s, t) < 4, antecedent.sentence == s, subject) {
        (true, _, _) => "anaphoric_group_it-they",
        (false, true, true) => "anaphoric_intra_subject_it",
        (false, true, false) => "anaphoric_intra_non-subject_it",
        (false, false, true) => "anaphoric_inter_subject_it",
        (false, false, false) => "anaphoric_inter_non-subject_it",
    };
    found(category, Some(antecedent))
}

fn they(text: &Text, s: u32, t: u32) -> Option<Found> {
    let singular = dice(s, t) < 5;
    let antecedent = antecedent_of(text, s, t, !singular)?;
    let category = match (singular, dice(s, t) < 10, antecedent.sentence == s) {
        (true, _, _) => "anaphoric_singular_they",
        (false, true, _) => "anaphoric_group_it-they",
        (false, false, true) => "anaphoric_intra_they",
        (false, false, false) => "anaphoric_inter_they",
    };
    Some(Found { sentence: s, token: t, category, antecedent: Some(antecedent) })
}

/// The nearest noun-ish phrase before the pronoun — a determiner followed within two tokens by a
/// content word — in its sentence or up to two sentences back within its document.
fn antecedent_of(text: &Text, s: u32, t: u32, plural: bool) -> Option<Antecedent> {
    let first = s.saturating_sub(2).max(document_start(&text.documents, s));
    for sentence in (first..=s).rev() {
        let words: Vec<&str> = tokens::tokens(&text.source[sentence as usize]).collect();
        let end = if sentence == s { t as usize } else { words.len() };
        for head in (1..end).rev() {
            let w = words[head];
            let content = w.len() >= 3
                && w.chars().all(|c| c.is_alphabetic() || c == '-')
                && !NOT_NOUNS.contains(&w.to_lowercase().as_str())
                && (!plural || w.ends_with('s'));
            if !content {
                continue;
            }
            let det = (head.saturating_sub(2)..head).find(|&d| DETERMINERS.contains(&words[d].to_lowercase().as_str()));
            if let Some(start) = det {
                return Some(Antecedent { sentence, start: start as u32, end: head as u32, head: head as u32 });
            }
        }
    }
    None
}

fn document_start(documents: &[u32], sentence: u32) -> u32 {
    let after = documents.partition_point(|&d| d <= sentence);
    if after == 0 { 0 } else { documents[after - 1] }
}

/// Every annotator's records: each candidate has a "true" assessment, from which annotators
/// depart now and then, and the usual share of special tags, forgotten selections and remarks.
fn records(master: &Master, params: &Params, rng: &mut ChaCha8Rng) -> crate::model::Records {
    let mut out = Vec::new();
    let start = master.created;
    for (i, candidate) in master.candidates.iter().enumerate() {
        let Some((_, category)) = master.example_of(candidate) else { continue };
        let truth = Truth::draw(rng, !candidate.pronoun.is_empty());
        for a in 1..=params.annotators as u32 {
            if !rng.random_bool(params.coverage.clamp(0.0, 1.0)) {
                continue;
            }
            let when = start + Duration::seconds((i as i64) * 20 + i64::from(a) * 7);
            let mut r = Record::new(candidate.id, AnnotatorId(a), when);
            let disagree = |rng: &mut ChaCha8Rng, j: Judgement| if rng.random_bool(0.1) { flip(j) } else { j };
            if let Some(tag) = truth.special {
                r.tags.insert(tag.to_owned());
                if tag == tags::NONCOMPOSITIONAL_TRANSLATION {
                    r.pronoun = disagree(rng, truth.pronoun);
                }
            } else if rng.random_bool(0.97) {
                r.pronoun = disagree(rng, truth.pronoun);
                if category.anaphoric {
                    r.antecedent = disagree(rng, truth.antecedent);
                }
                for role in Role::ALL {
                    if r.judgement(role) == Judgement::Yes && rng.random_bool(0.96) {
                        r.selected.get_mut(role).extend(candidate.aligned(role));
                    }
                }
                if category.politeness && rng.random_bool(0.95) {
                    let tag = [tags::POLITENESS_TU, tags::POLITENESS_VOUS, tags::POLITENESS_UNKNOWN].choose(rng);
                    r.tags.extend(tag.map(|t| t.to_string()));
                }
                if category.anaphoric && rng.random_bool(0.04) {
                    r.tags.insert(tags::ANT_ENSURE.into());
                }
                if rng.random_bool(0.03) {
                    r.tags.insert(tags::DESC_VS_PRESC.into());
                }
            }
            if rng.random_bool(0.02) {
                r.remarks = "Not sure about this one; the context is ambiguous.".into();
            }
            let conflicts = conflicts::failing(master, &r);
            out.push(conflicts::settle(&r, conflicts));
        }
    }
    out.into_iter().collect()
}

fn flip(j: Judgement) -> Judgement {
    match j {
        Judgement::Yes => Judgement::No,
        Judgement::No => Judgement::Yes,
        Judgement::Unset => Judgement::Unset,
    }
}

/// What a candidate "really" deserves, shared by its annotators.
struct Truth {
    special: Option<&'static str>,
    pronoun: Judgement,
    antecedent: Judgement,
}

impl Truth {
    fn draw(rng: &mut ChaCha8Rng, translated: bool) -> Truth {
        let special = match rng.random_range(0..100) {
            0..3 => Some(tags::BAD_TRANSLATION),
            3..5 => Some(tags::INCORRECT_WORD_ALIGNMENT),
            5..6 => Some(tags::NONCOMPOSITIONAL_TRANSLATION),
            _ => None,
        };
        let yes = |rng: &mut ChaCha8Rng, p| if rng.random_bool(p) { Judgement::Yes } else { Judgement::No };
        let pronoun = yes(rng, if translated { 0.7 } else { 0.15 });
        let antecedent = yes(rng, 0.8);
        Truth { special, pronoun, antecedent }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::validate;
    use std::collections::HashSet;

    fn sample() -> Sources {
        Sources::in_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_batches/inputs")).unwrap()
    }

    fn params(examples: usize) -> Params {
        Params { examples, systems: 3, annotators: 2, coverage: 1.0, seed: 7 }
    }

    #[test]
    fn builds_a_valid_master_of_the_requested_size() {
        let m = generate(&sample(), &params(100)).unwrap();
        assert!(validate::master(&m).is_empty());
        assert_eq!(m.examples.len(), 100);
        assert_eq!(m.translations().count(), 4);
        assert_eq!(m.candidates.len(), 400);
        assert_eq!(m.records.len(), 800);
        assert_eq!(m.annotators.len(), 2);
    }

    #[test]
    fn repeats_the_corpus_when_it_has_too_few_pronouns() {
        let sources = sample();
        let one = generate(&sources, &params(10)).unwrap();
        let many = generate(&sources, &params(600)).unwrap();
        let n = one.sentence_count();
        assert!(many.sentence_count() > n && many.sentence_count().is_multiple_of(n));
        assert_eq!(many.documents.len() as u32, one.documents.len() as u32 * (many.sentence_count() / n));
        // Every example still points at a real English pronoun.
        let source = many.source().unwrap();
        for e in &many.examples {
            let word = source.token(e.pronoun_ref()).unwrap().to_lowercase();
            assert!(["it", "they", "you"].contains(&word.as_str()), "{word}");
        }
        assert_eq!(many.examples.iter().map(|e| e.pronoun_ref()).collect::<HashSet<_>>().len(), 600);
    }

    #[test]
    fn is_reproducible_from_the_seed() {
        let sources = sample();
        let a = generate(&sources, &params(50)).unwrap();
        let b = generate(&sources, &params(50)).unwrap();
        assert!(a == b);
        let c = generate(&sources, &Params { seed: 8, ..params(50) }).unwrap();
        assert!(a.records != c.records);
    }

    #[test]
    fn variants_differ_from_the_real_system_in_pronouns_and_links() {
        let m = generate(&sample(), &params(50)).unwrap();
        let mt = m.corpora.iter().find(|c| c.name == "mt").unwrap();
        let variant = m.corpora.iter().find(|c| c.name == "mt-variant-1").unwrap();
        let changed = mt.sentences.iter().zip(&variant.sentences).filter(|(a, b)| a != b).count();
        assert!(changed > 0 && changed < mt.sentences.len() / 2, "{changed}");
        assert_ne!(mt.alignment, variant.alignment);
        for (a, b) in mt.sentences.iter().zip(&variant.sentences) {
            assert_eq!(tokens::token_count(a), tokens::token_count(b));
        }
    }

    #[test]
    fn covers_the_categories_and_a_realistic_mix_of_records() {
        let m = generate(&sample(), &Params { examples: 300, ..params(0) }).unwrap();
        let used: HashSet<_> = m.examples.iter().map(|e| e.category.as_str()).collect();
        assert!(used.len() >= 10, "{used:?}");
        let records: Vec<_> = m.records.iter().collect();
        let share = |f: &dyn Fn(&Record) -> bool| records.iter().filter(|r| f(r)).count() as f64 / records.len() as f64;
        let yes = share(&|r| r.pronoun == Judgement::Yes);
        assert!((0.4..0.8).contains(&yes), "{yes}");
        assert!(share(&|r| r.tags.contains(tags::BAD_TRANSLATION)) > 0.005);
        assert!(share(&|r| r.conflict.has_conflicts()) > 0.005);
        assert!(share(&|r| !r.selected.is_empty()) > 0.3);
        // Annotators agree most of the time but not always.
        let agree = m
            .candidates
            .iter()
            .filter(|c| {
                let r: Vec<_> = m.records.of_candidate(c.id).collect();
                r[0].pronoun == r[1].pronoun
            })
            .count() as f64
            / m.candidates.len() as f64;
        assert!((0.7..0.97).contains(&agree), "{agree}");
    }

    #[test]
    fn a_folder_without_a_corpus_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = Sources::in_folder(dir.path()).unwrap_err().to_string();
        assert!(err.contains("no corpus here"), "{err}");
    }
}
