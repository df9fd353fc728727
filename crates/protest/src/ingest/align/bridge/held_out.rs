//! Held-out checks of aligning through the reference, measured against what is known to be
//! right rather than against itself (docs/alignment.md, "Aligning through the reference"): an
//! exact copy of the reference must match it wherever it can; a lightly edited copy must keep
//! the reference's pronoun and antecedent-head links; matches must hold against people's
//! verdicts. Library code, so that the tests assert what `examples/bridge_quality.rs` prints.

use crate::ingest::align::bridge::words::is_word;
use crate::metrics::auto_eval::matching::{self, Comparison};
use crate::metrics::auto_eval::{self, Precision};
use crate::metrics::verdict::Verdicts;
use crate::model::tokens;
use crate::model::{Candidate, CorpusId, CorpusRole, ExampleNo, Master, TokenRef};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Of the examples whose reference translation serves as a reference (its words complete, and
/// not judged ✗ by people), how many the latest round matched for a system.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settled {
    pub with_reference: usize,
    pub matched: usize,
    /// The examples with a reference that were not matched.
    pub missed: Vec<ExampleNo>,
}

/// [`Settled`] for the candidates of `system` in `master`.
pub fn settled(master: &Master, system: CorpusId) -> Settled {
    let verdicts = Verdicts::new(master);
    let comparison = Comparison::new(master.auto_eval.rule, &master.languages.target);
    let of = |example: ExampleNo, role: CorpusRole| {
        master.candidates_of(example).find(|c| master.corpus(c.corpus).is_some_and(|corpus| corpus.role == role))
    };
    let mut settled = Settled::default();
    for (example, category) in master.examples.iter().filter_map(|e| Some((e, master.category(&e.category)?))) {
        let Some(reference) = of(example.no, CorpusRole::Reference) else { continue };
        let references = matching::references(&verdicts, &comparison, example, category.anaphoric);
        if !references.iter().any(|r| !r.judged && r.candidate == reference.id) {
            continue;
        }
        settled.with_reference += 1;
        let candidate = master.candidates_of(example.no).find(|c| c.corpus == system);
        if candidate.is_some_and(|c| master.auto_eval.matched(c.id)) {
            settled.matched += 1;
        } else {
            settled.missed.push(example.no);
        }
    }
    settled
}

/// The matches of `system` judged by people's verdicts on the candidates of `judged` — a
/// translation of the same text (the one `system` is a copy of), whose candidates people
/// annotated: of the matched candidates with a verdict on every role the match claims, how many
/// were judged ✗.
pub fn precision_through(master: &Master, system: CorpusId, judged: CorpusId) -> Precision {
    let verdicts = Verdicts::new(master);
    let mut p = Precision::default();
    for candidate in master.candidates.iter().filter(|c| c.corpus == system && master.auto_eval.matched(c.id)) {
        let original = master.candidates_of(candidate.example).find(|c| c.corpus == judged);
        if let Some(correct) = original.and_then(|o| auto_eval::human_verdict(&verdicts, o)) {
            p.matches_with_verdict += 1;
            p.judged_incorrect += u32::from(!correct);
        }
    }
    p
}

/// `sentences` (one per sentence of `master`) as a system's output given as paragraphs: each
/// document's sentences on one line, documents separated by an empty line.
pub fn paragraphs(master: &Master, sentences: &[String]) -> Vec<String> {
    let starts: Vec<usize> = master.documents.iter().map(|&d| d as usize).chain([sentences.len()]).collect();
    let documents: Vec<String> = starts.windows(2).map(|w| sentences[w[0]..w[1]].join(" ")).collect();
    documents.join("\n\n").lines().map(str::to_owned).collect()
}

/// How the reference is edited.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edits {
    pub seed: u64,
    /// Shares of the words (not within [`KEEP_AROUND`] of a pronoun's or antecedent head's
    /// translation) replaced by another word of the text, deleted, and followed by an inserted word.
    pub replace: f64,
    pub delete: f64,
    pub insert: f64,
    /// Shares of the sentences run into the next one on one line, and cut in two lines at a
    /// random word.
    pub merge: f64,
    pub split: f64,
}

impl Default for Edits {
    fn default() -> Self {
        Edits { seed: 1, replace: 0.1, delete: 0.05, insert: 0.05, merge: 0.15, split: 0.15 }
    }
}

/// Words this close to a translation of a pronoun or an antecedent head are left as they are.
pub const KEEP_AROUND: u32 = 2;

/// The reference, edited, as a system's output: its documents separated by an empty line, some
/// sentences run together and some cut in two; and where each reference candidate's aligned
/// tokens ended up.
#[derive(Debug, Clone, PartialEq)]
pub struct EditedReference {
    /// Tokenised text (`add-system --tokenised`).
    pub lines: Vec<String>,
    /// Per reference candidate: its example, the new places of its pronoun's aligned tokens and
    /// of each antecedent head's.
    pub expected: Vec<(ExampleNo, Vec<TokenRef>, Vec<Vec<TokenRef>>)>,
}

/// Edits the reference of `master` (which must have one, with its whole text).
pub fn edit_reference(master: &Master, edits: &Edits) -> Option<EditedReference> {
    let reference = master.reference()?;
    let text = reference.sentences.as_slice()?;
    let candidates: Vec<&Candidate> = master.candidates.iter().filter(|c| c.corpus == reference.id).collect();
    let mut keep: HashMap<u32, Vec<u32>> = HashMap::new();
    for at in candidates.iter().flat_map(|c| c.pronoun.iter().chain(c.antecedents.iter().flatten())) {
        keep.entry(at.sentence).or_default().push(at.token);
    }
    let vocabulary: Vec<&str> = text.iter().flat_map(|s| tokens::tokens(s)).filter(|w| is_word(w)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(edits.seed);
    let mut sentences = Vec::with_capacity(text.len());
    let mut places: Vec<Vec<Option<u32>>> = Vec::with_capacity(text.len());
    for (i, sentence) in (0u32..).zip(text) {
        let kept = keep.get(&i).map_or(&[][..], Vec::as_slice);
        let near = |t: u32| kept.iter().any(|&k| k.abs_diff(t) <= KEEP_AROUND);
        let (mut words, mut place) = (Vec::new(), Vec::new());
        for (t, word) in (0u32..).zip(tokens::tokens(sentence)) {
            let roll: f64 = rng.random();
            if near(t) || roll >= edits.replace + edits.delete {
                place.push(Some(words.len() as u32));
                words.push(word);
            } else if roll < edits.replace && !vocabulary.is_empty() {
                place.push(Some(words.len() as u32));
                words.push(vocabulary[rng.random_range(0..vocabulary.len())]);
            } else {
                place.push(None);
            }
            if !near(t) && !near(t + 1) && rng.random::<f64>() < edits.insert && !vocabulary.is_empty() {
                words.push(vocabulary[rng.random_range(0..vocabulary.len())]);
            }
        }
        sentences.push(words.join(" "));
        places.push(place);
    }
    let moved = |at: &TokenRef| {
        let token = places.get(at.sentence as usize)?.get(at.token as usize).copied().flatten()?;
        Some(TokenRef::new(at.sentence, token))
    };
    let moved_all = |ats: &[TokenRef]| ats.iter().filter_map(moved).collect::<Vec<_>>();
    let expected = candidates
        .iter()
        .map(|c| (c.example, moved_all(&c.pronoun), c.antecedents.iter().map(|a| moved_all(a)).collect()))
        .collect();
    Some(EditedReference { lines: layout(master, &sentences, edits, &mut rng), expected })
}

/// The sentences as documents separated by an empty line, some run together, some cut in two.
fn layout(master: &Master, sentences: &[String], edits: &Edits, rng: &mut ChaCha8Rng) -> Vec<String> {
    let mut lines = Vec::new();
    let starts: Vec<usize> = master.documents.iter().map(|&d| d as usize).chain([sentences.len()]).collect();
    for (d, document) in starts.windows(2).enumerate() {
        if d > 0 {
            lines.push(String::new());
        }
        let mut line = String::new();
        for sentence in sentences[document[0]..document[1]].iter().filter(|s| !s.is_empty()) {
            let words: Vec<&str> = tokens::tokens(sentence).collect();
            let cut = if words.len() > 3 && rng.random::<f64>() < edits.split {
                rng.random_range(1..words.len())
            } else {
                words.len()
            };
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&words[..cut].join(" "));
            if cut < words.len() {
                lines.push(std::mem::replace(&mut line, words[cut..].join(" ")));
            }
            if rng.random::<f64>() >= edits.merge {
                lines.push(std::mem::take(&mut line));
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

/// How many of the edited reference's pronoun and antecedent-head links a system kept: those
/// whose aligned tokens are exactly where the reference's went (pronouns or heads the reference
/// left unaligned are not counted: there is nothing to keep).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinksKept {
    pub pronouns: usize,
    pub pronouns_right: usize,
    pub heads: usize,
    pub heads_right: usize,
}

impl LinksKept {
    /// The share of all links right, 0 to 1.
    pub fn share(&self) -> f64 {
        let all = self.pronouns + self.heads;
        if all == 0 { 1.0 } else { (self.pronouns_right + self.heads_right) as f64 / all as f64 }
    }
}

/// [`LinksKept`] for the candidates of `system`, added from `edited`'s lines.
pub fn kept(master: &Master, system: CorpusId, edited: &EditedReference) -> LinksKept {
    let mut kept = LinksKept::default();
    let same = |mut a: Vec<TokenRef>, b: &[TokenRef]| {
        a.sort_unstable();
        a == b
    };
    for (example, pronoun, heads) in &edited.expected {
        let Some(candidate) = master.candidates_of(*example).find(|c| c.corpus == system) else { continue };
        if !pronoun.is_empty() {
            kept.pronouns += 1;
            kept.pronouns_right += usize::from(same(pronoun.clone(), &candidate.pronoun));
        }
        for (expected, got) in heads.iter().zip(&candidate.antecedents).filter(|(e, _)| !e.is_empty()) {
            kept.heads += 1;
            kept.heads_right += usize::from(same(expected.clone(), got));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::add_system::{self, Options, Output};
    use std::path::Path;

    /// `master` with `lines` added as a system, and its corpus.
    fn add(master: &Master, lines: &[String], options: &Options) -> (Master, CorpusId) {
        let system = add_system::prepare(master, "new", Output::file(Path::new("new.fr"), lines), options).unwrap();
        let mut added = master.clone();
        let id = system.add_to(&mut added).unwrap();
        (added, id)
    }

    #[test]
    fn the_edited_reference_keeps_its_pronoun_and_head_links() {
        let sample = crate::testing::sample();
        let edited = edit_reference(&sample, &Edits::default()).unwrap();
        // Edited indeed: words changed, sentences run together and cut, as documents.
        let reference = sample.reference().unwrap().sentences.as_slice().unwrap();
        assert!(edited.lines.len() != reference.len() && edited.lines.iter().any(|l| l.is_empty()));
        let words =
            |lines: &[String]| lines.iter().flat_map(|l| tokens::tokens(l)).map(str::to_owned).collect::<Vec<_>>();
        let (before, after) = (words(reference), words(&edited.lines));
        let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
        assert!(changed > before.len() / 2, "{changed} of {} words moved or changed", before.len());
        let options = Options { tokenised: true, ..Options::default() };
        let (added, id) = add(&sample, &edited.lines, &options);
        let kept = kept(&added, id, &edited);
        assert_eq!((kept.pronouns, kept.heads), (56, 39));
        assert!(kept.share() >= 0.95, "{kept:?}");
    }

    #[test]
    fn the_same_edits_each_time() {
        let sample = crate::testing::sample();
        let edits = Edits { seed: 7, ..Edits::default() };
        assert_eq!(edit_reference(&sample, &edits), edit_reference(&sample, &edits));
        assert_ne!(edit_reference(&sample, &edits), edit_reference(&sample, &Edits::default()));
    }
}
