//! What tells where a sentence's translation ends in a stretch of output: the output's line
//! breaks and sentence punctuation, the lengths the source sentences lead to expect, and the
//! words — those of the other translations of the same sentence (the reference, earlier systems)
//! and the numbers, names and symbols of the source sentence, which translations keep.
//!
//! Every cue is a cost in nats, the stretch's [`Scores`] for the alignment ([`super::dp`]):
//!
//! - **words**: a token of sentence *i*'s translation is drawn either from the words of *i*'s
//!   other translations (a share `λ` of the tokens) or from the output's general vocabulary
//!   (frequency `p(w)`); against a token of text that translates nothing it scores
//!   `ln(1 − λ + λ / (|words of i| · p(w)))` if it is among *i*'s words (rare words count more),
//!   half that chance for a word sharing its first five letters with one, `ln(1 − λ)` otherwise;
//! - **length**: Gale & Church's: `(L − μ)² / (2σ²μ)` for `L` tokens where `μ` is the source
//!   sentence's length times the stretch's ratio of output to source tokens;
//! - **boundaries**: ending a translation at a line break is free, after sentence punctuation
//!   cheap, anywhere else dear (less before a capital, more before a small letter or
//!   punctuation); a line break inside a translation costs too (less when its line does not end
//!   a sentence);
//! - omitting a sentence, merging two, and leaving a passage out each have a fixed cost.

use super::dp::{Length, Scores};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// The weights of the cues (docs/alignment.md, "Document-level output").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// Share of a translation's tokens found among its sentence's words, with other translations
    /// to compare with and with the source's alone.
    pub lambda_translations: f64,
    pub lambda_source: f64,
    /// The most one matching word counts.
    pub word_cap: f64,
    /// Variance of a translation's length per expected token.
    pub length_variance: f64,
    /// Ending a translation after sentence punctuation, after a colon or semicolon, after an
    /// abbreviation-like word (`etc.`), and anywhere else.
    pub end_sentence: f64,
    pub end_colon: f64,
    /// Ending a translation after a comma (two sentences run into one), before a small letter.
    pub end_comma: f64,
    pub end_abbreviation: f64,
    pub end_anywhere: f64,
    /// Off a boundary that is not a line break or sentence punctuation when the next token starts
    /// with a capital; on any such boundary when it starts with a small letter or punctuation.
    pub before_capital: f64,
    /// More off when the capital is on a word usually written small (`Il`, `Le`), not a name.
    pub before_common_capital: f64,
    pub before_small: f64,
    pub before_punctuation: f64,
    /// Ending a translation at a line break after a line that does not end a sentence (the
    /// costs before a small letter or punctuation apply there too, unless the output claims
    /// one line per sentence).
    pub break_unfinished: f64,
    /// A line break inside a translation, after a line ending with a colon (`Voici la traduction :`,
    /// a preamble), and after a line that does not end a sentence.
    pub join: f64,
    pub join_colon: f64,
    pub join_unfinished: f64,
    /// Off the join when the next line starts with a small letter.
    pub join_before_small: f64,
    /// A line break after a finished sentence inside a translation, and an empty translation,
    /// when the output claims one line per sentence: each a sign of a shift only when the text
    /// shows it (a line holding two sentences, a line cut short), not on the other translations'
    /// word alone — they can be wrong too.
    pub join_claimed: f64,
    pub omit_claimed: f64,
    /// Ending a translation anywhere but after sentence punctuation, and leaving a passage out,
    /// when the output claims one line per sentence.
    pub end_anywhere_claimed: f64,
    pub left_out_claimed: f64,
    /// Two sentences sharing one translation when the output claims one line per sentence.
    pub merge_claimed: f64,
    /// An empty translation, and one where the output has an empty line.
    pub omit: f64,
    pub omit_given: f64,
    /// Two sentences sharing one translation.
    pub merge: f64,
    /// A passage left out, and per token of it (a token of no sentence is less likely than one
    /// of the sentence it stands in; without this, long passages would cost nothing more than
    /// short ones and the search could not drop them).
    pub left_out: f64,
    pub left_out_per_token: f64,
    /// A boundary whose best alternative costs less than this more is of low confidence.
    pub sure: f64,
    /// A quotation mark ending a translation or starting the next where the source sentence
    /// does (off), or does not (on).
    pub quote: f64,
    /// A translation with an odd number of quotation marks for a source sentence with an even
    /// one, or the other way round.
    pub quote_parity: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            lambda_translations: 0.6,
            lambda_source: 0.15,
            word_cap: 5.0,
            length_variance: 0.5,
            end_sentence: 0.5,
            end_colon: 4.0,
            end_comma: 7.0,
            end_abbreviation: 3.0,
            end_anywhere: 9.0,
            before_capital: 1.0,
            before_common_capital: 4.0,
            before_small: 2.5,
            before_punctuation: 4.0,
            break_unfinished: 1.0,
            join: 6.0,
            join_colon: 10.0,
            join_unfinished: 3.0,
            join_before_small: 1.0,
            join_claimed: 14.0,
            omit_claimed: 25.0,
            end_anywhere_claimed: 20.0,
            left_out_claimed: 25.0,
            merge_claimed: 30.0,
            omit: 10.0,
            omit_given: 0.5,
            merge: 14.0,
            left_out: 7.0,
            left_out_per_token: 0.3,
            sure: 3.0,
            quote: 2.0,
            quote_parity: 3.0,
        }
    }
}

const NO_PREFIX: u32 = u32::MAX;

/// A word at least this frequent in the output (one token in 500) is a function word.
const COMMON_RARITY: f64 = 500.0;

/// Words as numbers, compared in lower case; with the output's word frequencies.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    ids: FxHashMap<String, u32>,
    /// Occurrences of each word in the output, and how many of them start with a small letter.
    counts: Vec<u32>,
    small: Vec<u32>,
    output_tokens: u64,
}

impl Vocabulary {
    fn id(&mut self, word: &str) -> u32 {
        let key = lower(word);
        let next = self.ids.len() as u32;
        let id = *self.ids.entry(key.into_owned()).or_insert(next);
        if id as usize == self.counts.len() {
            self.counts.push(0);
            self.small.push(0);
        }
        id
    }

    /// The first five letters of a word of at least six, as a word of its own.
    fn prefix(&mut self, word: &str) -> u32 {
        let mut chars = word.char_indices();
        if !word.chars().all(char::is_alphabetic) || chars.nth(5).is_none() {
            return NO_PREFIX;
        }
        let cut = word.char_indices().nth(5).map_or(word.len(), |(i, _)| i);
        self.id(&format!("\u{1}{}", &word[..cut]))
    }

    /// A token of the output: counted, for the words' frequencies.
    pub fn output(&mut self, word: &str) -> (u32, u32) {
        let id = self.id(word);
        self.counts[id as usize] += 1;
        if word.chars().next().is_some_and(char::is_lowercase) {
            self.small[id as usize] += 1;
        }
        self.output_tokens += 1;
        (id, self.prefix(word))
    }

    /// The share of the word's occurrences in the output that start with a small letter: a
    /// capital on a word usually written small marks a sentence's start, on a name it does not.
    fn small_share(&self, id: u32) -> f64 {
        let i = id as usize;
        f64::from(self.small[i]) / f64::from(self.counts[i].max(1))
    }

    /// `1 / p(w)`, the output's frequency of the word smoothed by one occurrence.
    fn rarity(&self, id: u32) -> f64 {
        (self.output_tokens as f64 + self.counts.len() as f64) / (f64::from(self.counts[id as usize]) + 1.0)
    }
}

fn lower(word: &str) -> std::borrow::Cow<'_, str> {
    if word.chars().any(char::is_uppercase) { word.to_lowercase().into() } else { word.into() }
}

/// The words a sentence's translation is expected to share with what is known of it.
#[derive(Debug, Clone, Default)]
pub(super) struct Sentence {
    words: Vec<u32>,
    prefixes: Vec<u32>,
    /// Source tokens: for the expected length.
    source_tokens: usize,
    /// Sentence ends inside the source sentence (`… here . And …`), not at its end.
    inner_ends: usize,
    /// Double quotation marks in the source sentence.
    quotes: usize,
    /// The source sentence opens with a quotation mark, closes with one (before any final
    /// punctuation), and has an odd number of them.
    opens_quote: bool,
    closes_quote: bool,
    odd_quotes: bool,
}

impl Sentence {
    /// The cues of one source sentence and its other translations (tokenised).
    pub fn new(vocabulary: &mut Vocabulary, source: &str, translations: &[&str]) -> Sentence {
        let mut words = Vec::new();
        let mut prefixes = Vec::new();
        for word in translations.iter().flat_map(|t| crate::model::tokens::tokens(t)) {
            words.push(vocabulary.id(word));
            let prefix = vocabulary.prefix(word);
            if prefix != NO_PREFIX {
                prefixes.push(prefix);
            }
        }
        let source_words = crate::model::tokens::tokens(source);
        let all: Vec<&str> = crate::model::tokens::tokens(source).collect();
        let opens_quote = all.first().is_some_and(|t| is_quote(t));
        let closes_quote = match all[..] {
            [.., last] if is_quote(last) => true,
            [.., quote, last] => is_quote(quote) && !last.chars().any(char::is_alphanumeric),
            _ => false,
        };
        let quotes = all.iter().filter(|t| is_quote(t)).count();
        let odd_quotes = quotes % 2 == 1;
        let inner_ends = inner_ends(&all);
        let mut source_tokens = 0;
        for word in source_words {
            source_tokens += 1;
            // What a translation keeps: numbers, names, symbols.
            if word.chars().any(|c| c.is_ascii_digit() || c.is_uppercase() || !c.is_alphanumeric()) {
                words.push(vocabulary.id(word));
            }
        }
        words.sort_unstable();
        words.dedup();
        prefixes.sort_unstable();
        prefixes.dedup();
        Sentence { words, prefixes, source_tokens, inner_ends, quotes, opens_quote, closes_quote, odd_quotes }
    }

    /// Sentence ends inside the source sentence.
    pub fn inner_ends(&self) -> usize {
        self.inner_ends
    }

    /// Tokens of the source sentence.
    pub fn source_tokens(&self) -> usize {
        self.source_tokens
    }

    /// Double quotation marks in the source sentence.
    pub fn quotes(&self) -> usize {
        self.quotes
    }
}

/// Sentence punctuation (a closing quotation mark or bracket after it ends the sentence too).
fn ends_sentence(token: &str, previous_ends: bool) -> bool {
    matches!(token, "." | "?" | "!" | "..." | "…" | "?!" | "!!")
        || (previous_ends && matches!(token, "\"" | "»" | "”" | ")" | "]"))
}

/// Positions inside `tokens` where a sentence ends and a capitalised word follows (not `Nov . 18`).
fn inner_ends(tokens: &[&str]) -> usize {
    let mut previous = false;
    let mut count = 0;
    for token in tokens {
        if previous && token.chars().next().is_some_and(char::is_uppercase) {
            count += 1;
        }
        previous = ends_sentence(token, previous);
    }
    count
}

/// Double quotation marks: single ones are too often apostrophes cut off (`s ’`).
fn is_quote(token: &str) -> bool {
    matches!(token, "\"" | "«" | "»" | "“" | "”")
}

/// The words of some sentences together, sorted.
pub(super) fn bag(sentences: &[Sentence]) -> Vec<u32> {
    let mut words: Vec<u32> = sentences.iter().flat_map(|s| s.words.iter().copied()).collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// The source tokens of some sentences.
pub(super) fn source_tokens(sentences: &[Sentence]) -> usize {
    sentences.iter().map(|s| s.source_tokens).sum()
}

/// The share of `words` found in the sorted `bag`.
pub(super) fn share_in(words: &[u32], bag: &[u32]) -> f64 {
    let found = words.iter().filter(|w| bag.binary_search(w).is_ok()).count();
    found as f64 / words.len().max(1) as f64
}

/// A token of the output with what its boundaries tell.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token {
    pub word: u32,
    pub prefix: u32,
    /// `.`, `?`, `!`, `...`, `…`, or a closing quote or bracket after one.
    pub ends_sentence: bool,
    /// `:` or `;`.
    pub colon: bool,
    /// `,`.
    pub comma: bool,
    /// Ends with a full stop without being one (`etc.`, `M.`).
    pub abbreviation: bool,
    /// Starts with a capital letter, a digit or an opening quote or dash.
    pub capital: bool,
    /// A capital on a word usually written small (0 to 1: the share of its occurrences in the
    /// output that are small).
    pub capital_weight: f32,
    /// A quotation mark (double: single ones are too often apostrophes cut off, `s ’`).
    pub quote: bool,
    /// Quotation marks before it in the stretch, it included, are odd in number.
    pub odd_quotes: bool,
    pub small: bool,
    /// One of the output's most frequent words (a function word: `le`, `il`, `dans`).
    pub common: bool,
    /// Starts with a letter or digit.
    pub alphanumeric: bool,
    /// Punctuation that does not start a sentence.
    pub punctuation: bool,
}

impl Token {
    /// A token of the output, after `previous`.
    pub fn new(vocabulary: &Vocabulary, text: &str, (word, prefix): (u32, u32), previous: Option<&Token>) -> Token {
        let first = text.chars().next().unwrap_or(' ');
        let quote = is_quote(text);
        Token {
            word,
            prefix,
            ends_sentence: ends_sentence(text, previous.is_some_and(|p| p.ends_sentence)),
            colon: matches!(text, ":" | ";"),
            comma: text == ",",
            abbreviation: text.len() > 1 && text.ends_with('.') && !text.ends_with(".."),
            capital: first.is_uppercase()
                || first.is_ascii_digit()
                || matches!(first, '"' | '«' | '“' | '-' | '–' | '—' | '('),
            capital_weight: if first.is_uppercase() { vocabulary.small_share(word) as f32 } else { 0.0 },
            quote,
            odd_quotes: previous.is_some_and(|p| p.odd_quotes) != quote,
            small: first.is_lowercase(),
            common: vocabulary.rarity(word) <= COMMON_RARITY,
            alphanumeric: first.is_alphanumeric(),
            punctuation: !first.is_alphanumeric() && !matches!(first, '"' | '«' | '“' | '-' | '–' | '—' | '(' | '\''),
        }
    }
}

/// A stretch of output tokens with the source sentences they translate: the [`Scores`] of the
/// alignment.
pub(super) struct Stretch<'a> {
    pub weights: &'a Weights,
    pub vocabulary: &'a Vocabulary,
    pub tokens: &'a [Token],
    /// Line breaks at each position `0..=tokens` (inside the stretch: its edges have none).
    pub breaks: &'a [u8],
    pub sentences: &'a [Sentence],
    /// Whether other translations give words to compare with.
    pub translations: bool,
    /// Whether the output claims one line per sentence.
    pub claimed: bool,
    /// Expected output tokens per source token.
    pub ratio: f64,
    /// `inside` as prefix sums.
    inside: Vec<f64>,
}

impl<'a> Stretch<'a> {
    pub fn new(
        weights: &'a Weights,
        vocabulary: &'a Vocabulary,
        tokens: &'a [Token],
        breaks: &'a [u8],
        sentences: &'a [Sentence],
        translations: bool,
        claimed: bool,
    ) -> Stretch<'a> {
        let source: usize = sentences.iter().map(|s| s.source_tokens).sum();
        let ratio = if source == 0 { 1.0 } else { tokens.len() as f64 / source as f64 };
        let mut inside = Vec::with_capacity(tokens.len() + 2);
        let mut sum = 0.0;
        inside.push(0.0);
        for (q, &count) in breaks.iter().enumerate().take(tokens.len() + 1) {
            sum += f64::from(count) * join(weights, tokens, q, claimed);
            inside.push(sum);
        }
        Stretch { weights, vocabulary, tokens, breaks, sentences, translations, claimed, ratio, inside }
    }

    fn mu(&self, sentence: usize) -> f64 {
        (self.sentences[sentence].source_tokens as f64 * self.ratio).max(1.0)
    }
}

/// The cost of a line break at `q` inside a translation.
fn join(w: &Weights, tokens: &[Token], q: usize, claimed: bool) -> f64 {
    if q == 0 || q >= tokens.len() {
        return 0.0;
    }
    let finished = tokens[q - 1].ends_sentence || tokens[q - 1].colon;
    let cost = match (finished, claimed) {
        (false, _) => w.join_unfinished,
        (true, false) if tokens[q - 1].colon => w.join_colon,
        (true, false) => w.join,
        (true, true) => w.join_claimed,
    };
    let next = &tokens[q];
    if next.small {
        cost - w.join_before_small
    } else if !finished && next.capital {
        // A line without an end before one starting like a sentence: a title, say.
        cost + w.before_common_capital * f64::from(next.capital_weight)
    } else {
        cost
    }
}

impl Scores for Stretch<'_> {
    fn tokens(&self) -> usize {
        self.tokens.len()
    }

    fn sentences(&self) -> usize {
        self.sentences.len()
    }

    fn end(&self, p: usize) -> f64 {
        let t = self.tokens.len();
        if p == 0 {
            return f64::INFINITY; // nothing ends before the first token
        }
        if p >= t || (self.breaks[p] > 0 && self.claimed) {
            return 0.0;
        }
        let w = self.weights;
        let (last, next) = (&self.tokens[p - 1], &self.tokens[p]);
        if self.breaks[p] > 0 {
            let unfinished = if last.ends_sentence { 0.0 } else { w.break_unfinished };
            let before = if next.small {
                w.before_small
            } else if next.punctuation {
                w.before_punctuation
            } else {
                0.0
            };
            return unfinished + before;
        }
        let (cost, strong) = if last.ends_sentence {
            (w.end_sentence, true)
        } else if self.claimed {
            (w.end_anywhere_claimed, false)
        } else if last.colon {
            (w.end_colon, false)
        } else if last.comma && next.small {
            return w.end_comma;
        } else if last.abbreviation {
            (w.end_abbreviation, false)
        } else {
            (w.end_anywhere, false)
        };
        if next.small {
            cost + w.before_small
        } else if next.punctuation {
            cost + w.before_punctuation
        } else if next.capital && !strong {
            cost - w.before_capital - w.before_common_capital * f64::from(next.capital_weight)
        } else {
            cost
        }
    }

    fn end_of(&self, sentence: usize, p: usize) -> f64 {
        let end = self.end(p);
        let t = self.tokens.len();
        if p == 0 || p >= t || self.breaks[p] > 0 {
            return end;
        }
        // Quotation marks at the boundary go with the sentence whose source has them there.
        let fits = |yes: bool| if yes { -self.weights.quote } else { self.weights.quote };
        let mut cost = end;
        if self.tokens[p - 1].quote {
            cost += fits(self.sentences[sentence].closes_quote);
        }
        if self.tokens[p].quote {
            cost += fits(self.sentences.get(sentence + 1).is_some_and(|s| s.opens_quote));
        }
        cost
    }

    fn odd_quotes_before(&self, p: usize) -> bool {
        p > 0 && self.tokens[p - 1].odd_quotes
    }

    fn quote_parity(&self, sentences: Range<usize>, odd: bool) -> f64 {
        let expected = self.sentences[sentences].iter().filter(|s| s.odd_quotes).count() % 2 == 1;
        if odd == expected { 0.0 } else { self.weights.quote_parity }
    }

    fn inside(&self, p: usize) -> f64 {
        self.inside[p]
    }

    fn omit(&self, _sentence: usize, p: usize) -> f64 {
        let w = self.weights;
        match self.breaks.get(p) {
            Some(&b) if b >= 2 => w.omit_given,
            _ if self.claimed => w.omit_claimed,
            _ => w.omit,
        }
    }

    fn length(&self, sentences: Range<usize>) -> Length {
        let mean: f64 = sentences.map(|s| self.mu(s)).sum();
        Length { mean, scale: 1.0 / (2.0 * self.weights.length_variance * mean) }
    }

    fn merge(&self) -> f64 {
        if self.claimed { self.weights.merge_claimed } else { self.weights.merge }
    }

    fn left_out_base(&self) -> f64 {
        if self.claimed { self.weights.left_out_claimed } else { self.weights.left_out }
    }

    fn left_out_per_token(&self) -> f64 {
        self.weights.left_out_per_token
    }

    fn words(&self, sentences: Range<usize>, from: usize, to: usize, out: &mut Vec<f64>) {
        let lambda = if self.translations { self.weights.lambda_translations } else { self.weights.lambda_source };
        let known = &self.sentences[sentences];
        let size: usize = known.iter().map(|s| s.words.len()).sum::<usize>().max(1);
        let chance = lambda / size as f64;
        let miss = (1.0 - lambda).ln();
        let cap = self.weights.word_cap;
        out.clear();
        out.push(0.0);
        let mut sum = 0.0;
        for token in &self.tokens[from..to] {
            let has =
                |list: fn(&Sentence) -> &Vec<u32>, id: u32| known.iter().any(|s| list(s).binary_search(&id).is_ok());
            let share = if has(|s| &s.words, token.word) {
                1.0
            } else if token.prefix != NO_PREFIX && has(|s| &s.prefixes, token.prefix) {
                0.5
            } else {
                0.0
            };
            sum += if share > 0.0 {
                (1.0 - lambda + share * chance * self.vocabulary.rarity(token.word)).ln().min(cap)
            } else {
                miss
            };
            out.push(sum);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_compared_in_lower_case_and_long_ones_by_their_beginning() {
        let mut v = Vocabulary::default();
        assert_eq!(v.output("Maison"), v.output("maison"));
        let (_, prefix) = v.output("traduite");
        assert_eq!(v.output("traduit").1, prefix);
        assert_eq!(v.output("chat").1, NO_PREFIX);
        assert_eq!(v.output("1,5").1, NO_PREFIX);
    }

    #[test]
    fn boundaries_cost_by_what_surrounds_them() {
        let mut v = Vocabulary::default();
        let text = ["Il", "pleut", ".", "Elle", "dort", "etc.", "et", "Paul", ",", "non"];
        let mut tokens: Vec<Token> = Vec::new();
        for word in text {
            let (id, prefix) = v.output(word);
            let token = Token::new(&v, word, (id, prefix), tokens.last());
            tokens.push(token);
        }
        let mut breaks = vec![0; text.len() + 1];
        breaks[5] = 1;
        let w = Weights::default();
        let sentences = [Sentence::default()];
        let s = Stretch::new(&w, &v, &tokens, &breaks, &sentences, false, false);
        assert_eq!(s.end(3), w.end_sentence); // ". Elle"
        // A line break after an unfinished line, before a small letter.
        assert_eq!(s.end(5), w.break_unfinished + w.before_small);
        assert_eq!(s.end(6), w.end_abbreviation + w.before_small); // "etc. et"
        assert_eq!(s.end(7), w.end_anywhere - w.before_capital); // "et Paul", a name
        assert_eq!(s.end(8), w.end_anywhere + w.before_punctuation); // "Paul ,"
        assert_eq!(s.end(10), 0.0);
        // The line break at 5 follows "dort", no sentence end, and comes before a small letter: a
        // cheap join.
        assert_eq!(s.inside(6) - s.inside(5), w.join_unfinished - w.join_before_small);
        assert_eq!(s.inside(5), 0.0);
    }

    #[test]
    fn a_sentences_own_words_score_and_others_cost() {
        let mut v = Vocabulary::default();
        // The rest of the output, where these words are rare.
        for i in 0..2000 {
            v.output(&format!("mot{}", i % 300));
        }
        let out: Vec<Token> = ["Le", "chat", "dort", "Obama", "parle"]
            .iter()
            .map(|w| {
                let (id, prefix) = v.output(w);
                Token::new(&v, w, (id, prefix), None)
            })
            .collect();
        let sentences = [
            Sentence::new(&mut v, "The cat sleeps .", &["le chat dort ."]),
            Sentence::new(&mut v, "Obama speaks .", &["le président parle ."]),
        ];
        let breaks = vec![0; out.len() + 1];
        let w = Weights::default();
        let s = Stretch::new(&w, &v, &out, &breaks, &sentences, true, false);
        let mut first = Vec::new();
        let mut second = Vec::new();
        s.words(0..1, 0, 5, &mut first);
        s.words(1..2, 0, 5, &mut second);
        let gain = |p: &[f64], k: usize| p[k + 1] - p[k];
        assert!(gain(&first, 1) > 0.0 && gain(&second, 1) < 0.0, "chat");
        // "Obama" from the second source sentence, a name.
        assert!(gain(&second, 3) > 0.0 && gain(&first, 3) < 0.0, "Obama");
        let mut both = Vec::new();
        s.words(0..2, 0, 5, &mut both);
        // Two sentences together: a word of either counts.
        assert!([1, 2, 3, 4].iter().all(|&k| gain(&both, k) > 0.0), "{both:?}");
    }
}
