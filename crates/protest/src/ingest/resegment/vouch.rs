//! Which sentences' translations the segmentation cannot vouch for. The alignment's own doubt
//! (a boundary whose best alternative costs little more) is not enough: the cues can agree on a
//! wrong boundary, as where two sentences run into one, a source sentence was cut in two, or the
//! other translations are themselves shifted. So a sentence is of low confidence too wherever
//! the output itself leaves its boundaries open:
//!
//! - a boundary neither at a line break nor after sentence punctuation (two sentences run into one
//!   at a comma, a headline without a full stop, an abbreviation such as `M.` read as an end);
//! - a quotation mark at a boundary inside a line (it may belong on either side);
//! - a translation with more sentence ends inside it than its source sentence has (the output
//!   made two sentences of one, or a neighbour's lies inside it), a capitalised function word
//!   inside it after a word (a headline run into a sentence), a line ending with a colon inside
//!   it (a preamble), or a length far from what its source leads to expect — and its neighbours;
//! - an omitted sentence and its neighbours, and the sentences around a passage left out (what
//!   is missing may have gone next door);
//! - two sentences sharing one translation.

use super::cues::{Sentence, Token};
use super::dp::{Path, Step};
use std::ops::Range;

/// What the doubt is judged from.
pub(super) struct Evidence<'a> {
    pub path: &'a Path,
    pub tokens: &'a [Token],
    /// Line breaks at each position `0..=tokens`.
    pub breaks: &'a [u8],
    pub sentences: &'a [Sentence],
    /// A boundary whose best alternative costs less than this more is of low confidence.
    pub sure: f64,
    /// Expected output tokens per source token.
    pub ratio: f64,
}

impl Evidence<'_> {
    /// The length sentence `k`'s translation is expected to have.
    fn expected(&self, k: usize) -> f64 {
        self.sentences.get(k).map_or(0.0, |s| s.source_tokens() as f64 * self.ratio)
    }
}

/// Per sentence of the path: whether the alignment doubts its boundaries (a close alternative),
/// and whether its translation cannot be vouched for (that, or what the output leaves open).
pub(super) fn low_confidence(e: &Evidence) -> (Vec<bool>, Vec<bool>) {
    let n = e.path.sentences.len();
    let mut doubtful = vec![false; n];
    if e.tokens.is_empty() {
        return (doubtful.clone(), doubtful); // nothing to choose: every sentence is empty
    }
    for (k, &margin) in e.path.margins.iter().enumerate() {
        if margin < e.sure {
            doubtful[k] = true;
            doubtful[k + 1] = true;
        }
    }
    let mut low = doubtful.clone();
    let mut mark = |s: usize| {
        if let Some(l) = low.get_mut(s) {
            *l = true;
        }
    };
    for (k, (range, step)) in e.path.sentences.iter().enumerate() {
        let around = k.saturating_sub(1)..(k + 2).min(n);
        match step {
            Step::Merged | Step::WithPrevious => mark(k),
            // What is missing may have moved two sentences on, a neighbour's text taking its place.
            Step::Own if range.is_empty() => (k.saturating_sub(2)..(k + 3).min(n)).for_each(&mut mark),
            Step::Own if misshapen(e, range, k) => around.for_each(&mut mark),
            Step::Own => {}
        }
        // The next sentence with tokens starts here (empty ones between are marked already).
        let next = (k + 1..n).find(|&j| !e.path.sentences[j].0.is_empty());
        if let Some(next) = next.filter(|&j| !range.is_empty() && open_boundary(e, range.end, k, j)) {
            mark(k);
            mark(next);
        }
    }
    for passage in &e.path.left_out {
        let sentences = &e.path.sentences;
        let before = sentences.iter().rposition(|(r, _)| !r.is_empty() && r.end <= passage.start);
        let after = sentences.iter().position(|(r, _)| !r.is_empty() && r.start >= passage.end);
        let empty_beside = (0..n).filter(|&s| {
            let r = &sentences[s].0;
            r.is_empty() && (r.start == passage.start || r.start == passage.end)
        });
        before.into_iter().chain(after).chain(empty_beside).for_each(&mut mark);
    }
    (doubtful, low)
}

/// A boundary at token position `p`, between sentences `k` and `next`, that the output's text
/// does not mark: no line break there and no sentence punctuation before it; or a quotation mark
/// between a sentence end and the next sentence's first word (`… . " Il …`), which may belong to
/// either, when either translation has not as many quotation marks as its source.
fn open_boundary(e: &Evidence, p: usize, k: usize, next: usize) -> bool {
    if e.breaks[p] > 0 {
        return false;
    }
    let t = e.tokens;
    if !t[p - 1].ends_sentence {
        return true;
    }
    let detachable = (t[p - 1].quote && p >= 2 && t[p - 2].ends_sentence) || (t[p].quote && !t[p - 1].quote);
    detachable && (quotes_differ(e, k) || quotes_differ(e, next))
}

/// Whether sentence `k`'s translation has not as many quotation marks as its source.
fn quotes_differ(e: &Evidence, k: usize) -> bool {
    let range = &e.path.sentences[k].0;
    let quotes = e.tokens[range.clone()].iter().filter(|t| t.quote).count();
    e.sentences.get(k).is_some_and(|s| s.quotes() != quotes)
}

/// Whether the translation `range` of sentence `k` does not look like one sentence's: more
/// sentence ends than its source, a sentence starting inside it, a line ending with a colon
/// inside it, or a length far from the expected.
fn misshapen(e: &Evidence, range: &Range<usize>, k: usize) -> bool {
    more_ends_than_source(e, range, k)
        || starts_inside(e, range)
        || implausible_length(e, range, k)
        || finished_line_inside(e, range)
}

/// Whether the translation runs on past a line that ends with a colon (`Voici la traduction :`).
fn finished_line_inside(e: &Evidence, range: &Range<usize>) -> bool {
    (range.start + 1..range.end).any(|q| e.breaks[q] > 0 && e.tokens[q - 1].colon)
}

/// Whether a sentence seems to start inside the translation without punctuation before it: a
/// word the output usually writes small, capitalised (a headline run into the next sentence).
fn starts_inside(e: &Evidence, range: &Range<usize>) -> bool {
    (range.start + 1..range.end).any(|q| sentence_start(e.tokens, q))
}

/// Whether a sentence seems to start at position `q` after a word, without punctuation: a
/// function word capitalised after a word that is not one (`… prévu Il résulte`, not `la Maison`).
fn sentence_start(t: &[Token], q: usize) -> bool {
    let (last, next) = (&t[q - 1], &t[q]);
    next.capital_weight >= 0.7 && next.common && last.alphanumeric && !(last.common && last.small)
}

/// Whether the translation is far shorter or longer than its source leads to expect.
fn implausible_length(e: &Evidence, range: &Range<usize>, k: usize) -> bool {
    let expected = e.expected(k);
    let length = range.len() as f64;
    (length < 0.5 * expected || length > 2.0 * expected) && (length - expected).abs() > 4.0
}

/// Whether a sentence ends before position `q` and a word follows.
fn ends_before(tokens: &[Token], q: usize) -> bool {
    tokens[q - 1].ends_sentence && !tokens[q].ends_sentence && !tokens[q].punctuation
}

/// Whether the translation `range` of sentence `k` holds more sentence ends than its source.
fn more_ends_than_source(e: &Evidence, range: &Range<usize>, k: usize) -> bool {
    // (A quotation mark opening the translation after the previous one's full stop reads as
    // closing that one: it ends nothing here.)
    let inside = (range.start + 2..range.end).filter(|&q| ends_before(e.tokens, q)).count();
    inside > e.sentences.get(k).map_or(0, Sentence::inner_ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::resegment::cues::Vocabulary;

    /// Which sentences are of low confidence, with every margin sure, when the translations are
    /// `parts` (one per source sentence; `\n` starts a new line of the output) after a passage
    /// `left_out` given to no sentence.
    fn judged(left_out: &str, parts: &[&str], sources: &[&str]) -> Vec<usize> {
        let mut vocabulary = Vocabulary::default();
        let (mut words, mut breaks, mut ranges) = (Vec::new(), vec![0u8], Vec::new());
        for (k, part) in [left_out].iter().chain(parts).enumerate() {
            let start = words.len();
            for (i, line) in part.split('\n').enumerate() {
                if i > 0 && !words.is_empty() {
                    breaks[words.len()] += 1;
                }
                for word in line.split(' ').filter(|w| !w.is_empty()) {
                    words.push((word, vocabulary.output(word)));
                    breaks.push(0);
                }
            }
            if k > 0 {
                ranges.push(start..words.len());
            }
        }
        // The vocabulary's counts complete, as they are for the output's tokens.
        let mut tokens: Vec<Token> = Vec::new();
        for (word, id) in words {
            let token = Token::new(&vocabulary, word, id, tokens.last());
            tokens.push(token);
        }
        let sentences: Vec<Sentence> = sources.iter().map(|s| Sentence::new(&mut vocabulary, s, &[])).collect();
        let passage = 0..ranges[0].start;
        let path = Path {
            sentences: ranges.iter().map(|r| (r.clone(), Step::Own)).collect(),
            left_out: if passage.is_empty() { Vec::new() } else { vec![passage] },
            margins: vec![f64::INFINITY; ranges.len() - 1],
        };
        let e =
            Evidence { path: &path, tokens: &tokens, breaks: &breaks, sentences: &sentences, sure: 3.0, ratio: 1.2 };
        let (doubtful, low) = low_confidence(&e);
        assert!(doubtful.iter().all(|d| !d));
        (0..ranges.len()).filter(|&k| low[k]).collect()
    }

    const SOURCES: [&str; 4] =
        ["The bank lost money .", "Its trader hid it .", "He was arrested .", "The police said so ."];
    const NONE: [usize; 0] = [];

    #[test]
    fn boundaries_after_sentence_punctuation_or_at_line_breaks_are_vouched_for() {
        let parts = [
            "La banque a perdu de l' argent .",
            "Son trader l' a caché .",
            "\nIl a été arrêté",
            "\nLa police l' a dit .",
        ];
        assert_eq!(judged("", &parts, &SOURCES), NONE);
    }

    #[test]
    fn a_boundary_at_a_comma_or_after_an_abbreviation_is_not() {
        // Two sentences run into one at a comma.
        let parts = [
            "La banque a perdu de l' argent ,",
            "son trader l' a caché .",
            "Il a été arrêté .",
            "La police l' a dit .",
        ];
        assert_eq!(judged("", &parts, &SOURCES), [0, 1]);
        // "M." read as the end of a sentence.
        let parts = [
            "La banque a perdu .",
            "Son trader l' a caché .",
            "Il a été arrêté , dit M.",
            "Kelly . La police l' a dit .",
        ];
        assert_eq!(judged("", &parts, &SOURCES), [2, 3]);
    }

    #[test]
    fn a_translation_of_two_sentences_and_its_neighbours_are_not() {
        // The second translation holds two sentences where its source has one.
        let parts =
            ["La banque a perdu .", "Son trader . Il l' a caché .", "Il a été arrêté .", "La police l' a dit ."];
        assert_eq!(judged("", &parts, &SOURCES), [0, 1, 2]);
        // A headline run into the next sentence without punctuation (`Il`, a word the output
        // writes small elsewhere, capitalised).
        let parts = ["Pertes Il a perdu .", "il l' a caché .", "il a été arrêté .", "il a parlé ."];
        assert_eq!(judged("", &parts, &SOURCES), [0, 1]);
    }

    #[test]
    fn an_omitted_sentence_and_what_surrounds_it_are_not() {
        let parts = ["La banque a perdu .", "Son trader l' a caché .", "", "\nLa police l' a dit ."];
        assert_eq!(judged("", &parts, &SOURCES), [0, 1, 2, 3]);
        // A passage left out: the sentence after it.
        let parts = ["La banque a perdu de l' argent .", "Son trader l' a caché ."];
        assert_eq!(judged("Voici la traduction :", &parts, &SOURCES[..2]), [0]);
    }

    #[test]
    fn a_quotation_mark_that_may_belong_to_either_sentence_when_the_counts_differ() {
        let sources = ["\" The bank lost money . \"", "\" Its trader hid it . \""];
        // As many as the sources have: the marks say where they belong.
        let parts = ["\" La banque a perdu de l' argent . \"", "\" Son trader l' a caché . \""];
        assert_eq!(judged("", &parts, &sources), NONE);
        // One missing: the middle one may close the first or open the second.
        let parts = ["\" La banque a perdu de l' argent . \"", "Son trader l' a caché . \""];
        assert_eq!(judged("", &parts, &sources), [0, 1]);
    }
}
