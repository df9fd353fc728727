//! Interpolated modified Kneser–Ney estimation as KenLM's `lmplz` does it (Heafield et al.
//! 2013, after Chen & Goodman 1998), with no pruning, in memory.
//!
//! Each line of text is a sentence between `<s>` and `</s>`. Every n-gram of the text within a
//! sentence is counted; an n-gram's *adjusted* count is its count when it is of the highest order
//! or begins with `<s>` (nothing can precede it), and otherwise the number of different words
//! that precede it. Each order has three discounts, from how many of its n-grams have adjusted
//! count 1, 2, 3 and 4 (Chen & Goodman's equation 26). With `a` the adjusted count, `D(a)` the
//! discount and `h` the context,
//!
//! ```text
//! p(w | h) = (a(h w) − D(a(h w))) / Σ_v a(h v)  +  γ(h) · p(w | h without its first word)
//! γ(h)     = (D1 · #{v: a(h v) = 1} + D2 · #{… = 2} + D3+ · #{… ≥ 3}) / Σ_v a(h v)
//! ```
//!
//! down to the unigrams, which interpolate with the uniform distribution over the vocabulary
//! (`<unk>` and `</s>` included, `<s>` not); `<unk>` has only that share. `γ(h)` is the backoff
//! weight of `h`. The arithmetic is lmplz's, in single precision, so that the numbers are its own.

use super::arpa;
use crate::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;
use std::io::{self, Write};
use std::path::Path;

const UNKNOWN: u32 = 0;
const BEGIN: u32 = 1;
const END: u32 = 2;
/// No n-gram of this order ends at this position.
const NONE: u32 = u32::MAX;

/// How to estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The length of the longest n-grams.
    pub order: usize,
    /// When an order's counts cannot give discounts (small or artificial text), use lmplz's
    /// fallback ones ([`Discounts::FALLBACK`]) instead of refusing; lmplz's
    /// `--discount_fallback`.
    pub discount_fallback: bool,
    /// Take `<s>`, `</s>` and `<unk>` in the text for spaces instead of refusing the text;
    /// lmplz's `--skip_symbols`.
    pub skip_symbols: bool,
    /// The most distinct n-grams (of all orders, the vocabulary included) the model may have:
    /// memory grows with them ([`BYTES_PER_NGRAM`]), and a text with more is refused.
    pub max_ngrams: u64,
}

/// The default [`Options::max_ngrams`]: some 4 GB of memory.
pub const MAX_NGRAMS: u64 = 40_000_000;

/// About how much memory an n-gram takes while a model is estimated (86 bytes measured on 4.8
/// million n-grams of a 5-gram model: docs/pronoun-prediction.md): its entry in the index, its
/// words and count, its adjusted count, probability and backoff weight, and its share of its
/// context's sums.
pub const BYTES_PER_NGRAM: u64 = 100;

/// One order's discounts, by adjusted count: `D1`, `D2`, `D3+`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Discounts(pub [f32; 3]);

impl Discounts {
    /// lmplz's `--discount_fallback` values.
    pub const FALLBACK: Discounts = Discounts([0.5, 1.0, 1.5]);

    fn of(count: u64) -> usize {
        count.min(3) as usize
    }

    fn get(&self, count: u64) -> f32 {
        match Self::of(count) {
            0 => 0.0,
            k => self.0[k - 1],
        }
    }

    /// The adjusted count less its discount.
    fn apply(&self, count: u64) -> f32 {
        count as f32 - self.get(count)
    }

    /// Chen & Goodman's estimate from the number of n-grams with adjusted count 1 to 4, in
    /// lmplz's single-precision arithmetic; `None` where it is undefined or out of range.
    fn estimate(n: [u64; 5]) -> Option<Discounts> {
        if n[1..4].contains(&0) {
            return None;
        }
        let y = n[1] as f32 / (n[1] as f64 + 2.0 * n[2] as f64) as f32;
        let mut d = [0.0f32; 3];
        for j in 1..4 {
            let amount = j as f32 - (j + 1) as f32 * y * n[j + 1] as f32 / n[j] as f32;
            if !(0.0..=j as f32).contains(&amount) {
                return None;
            }
            d[j - 1] = amount;
        }
        Some(Discounts(d))
    }
}

/// The n-grams of one order above the first, by id in order of first occurrence.
#[derive(Debug, Default)]
struct Grams {
    /// (id of the last n−1 words, first word) → id.
    index: HashMap<u64, u32>,
    first: Vec<u32>,
    /// The id of the last n−1 words, in the order below.
    suffix: Vec<u32>,
    /// The id of the first n−1 words (the context), in the order below.
    prefix: Vec<u32>,
    count: Vec<u64>,
}

/// An estimated model, ready to be written.
#[derive(Debug)]
pub struct Estimate {
    order: usize,
    /// By word id: `<unk>`, `<s>`, `</s>`, then the words in order of first occurrence.
    vocabulary: Vec<Box<str>>,
    /// Orders 2 and up.
    grams: Vec<Grams>,
    /// log10 probabilities, by order and id.
    probs: Vec<Vec<f32>>,
    /// log10 backoff weights, by order (below the highest) and id.
    backoffs: Vec<Vec<f32>>,
    /// Each order's discounts.
    pub discounts: Vec<Discounts>,
    /// The words of the text (without the sentence markers).
    pub tokens: u64,
    /// Orders whose discounts fell back to [`Discounts::FALLBACK`], with why.
    pub warnings: Vec<String>,
}

impl Estimate {
    /// How many n-grams of each order the model has.
    pub fn counts(&self) -> Vec<usize> {
        std::iter::once(self.vocabulary.len()).chain(self.grams.iter().map(|g| g.first.len())).collect()
    }

    /// Writes the model in the ARPA format (unigrams by word id, longer n-grams in order of
    /// first occurrence in the text).
    pub fn write_arpa(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut words = Vec::with_capacity(self.order);
        arpa::write(out, &self.counts(), |n, out| {
            for (id, &prob) in self.probs[n - 1].iter().enumerate() {
                words.clear();
                let mut node = id as u32;
                for k in (2..=n).rev() {
                    let grams = &self.grams[k - 2];
                    words.push(&*self.vocabulary[grams.first[node as usize] as usize]);
                    node = grams.suffix[node as usize];
                }
                words.push(&*self.vocabulary[node as usize]);
                let backoff = self.backoffs.get(n - 1).map(|b| b[id]);
                arpa::write_entry(out, prob, words.iter().copied(), backoff)?;
            }
            Ok(())
        })
    }
}

/// Estimates a model of `text`, one sentence a line (plain or gzip-compressed).
pub fn train(text: &Path, options: &Options) -> Result<Estimate> {
    let order = options.order;
    assert!(order >= 1, "an n-gram model has order 1 or more");
    crate::progress::stage_bytes("Reading the text and counting n-grams", crate::progress::file_bytes([text]));
    let Counts { vocabulary, unigrams, grams, words, sentences } = count_text(text, options)?;
    if sentences == 0 {
        return Err(Error::whole_file(text, "no text to estimate a language model from"));
    }
    let adjusted = adjust(&unigrams, &grams);
    let mut discounts = Vec::with_capacity(order);
    let mut warnings = Vec::new();
    for (n, counts) in (1..).zip(&adjusted) {
        let mut of_count = [0u64; 5];
        for &a in counts {
            if a < 5 {
                of_count[a as usize] += 1;
            }
        }
        match Discounts::estimate(of_count) {
            Some(d) => discounts.push(d),
            None if options.discount_fallback => {
                warnings.push(format!(
                    "{n}-grams: the counts of counts {:?} give no discounts; using D1={} D2={} D3+={}",
                    &of_count[1..],
                    Discounts::FALLBACK.0[0],
                    Discounts::FALLBACK.0[1],
                    Discounts::FALLBACK.0[2]
                ));
                discounts.push(Discounts::FALLBACK);
            }
            None => {
                return Err(Error::whole_file(
                    text,
                    format!(
                        "the {n}-grams' counts of counts (adjusted counts 1–4: {:?}) give no modified Kneser–Ney \
                         discounts; is the text very small or artificial? (--discount-fallback uses lmplz's \
                         fallback discounts)",
                        &of_count[1..]
                    ),
                ));
            }
        }
    }
    crate::progress::stage("Estimating probabilities", None);
    let (probs, backoffs) = estimate(&grams, &adjusted, &discounts, vocabulary.len());
    Ok(Estimate { order, vocabulary, grams, probs, backoffs, discounts, tokens: words, warnings })
}

/// What reading the text gives: the vocabulary, the n-grams of every order with their counts,
/// and how much text there was.
struct Counts {
    /// By word id: `<unk>`, `<s>`, `</s>`, then the words in order of first occurrence.
    vocabulary: Vec<Box<str>>,
    /// The unigram counts, by word id.
    unigrams: Vec<u64>,
    /// Orders 2 and up.
    grams: Vec<Grams>,
    /// The words of the text (without the sentence markers).
    words: u64,
    sentences: u64,
}

/// Reads the text a sentence at a time and counts its n-grams of every order within each
/// sentence: memory grows with the distinct n-grams, not with the text, and a text with more than
/// `options.max_ngrams` of them is refused as soon as it has.
fn count_text(path: &Path, options: &Options) -> Result<Counts> {
    let mut counts = Counts {
        vocabulary: [super::UNKNOWN, super::BEGIN, super::END].map(Box::from).into(),
        unigrams: vec![0; 3],
        grams: (2..=options.order).map(|_| Grams::default()).collect(),
        words: 0,
        sentences: 0,
    };
    let mut ids: HashMap<Box<str>, u32> = counts.vocabulary.iter().cloned().zip(0..).collect();
    let mut distinct = counts.vocabulary.len() as u64;
    let mut sentence = Vec::new();
    let too_many = |lines: &crate::text_file::LineReader| {
        lines.error(format!(
            "the text has more than {} distinct n-grams of orders 1–{}: its model would need more than some {} of \
             memory; --max-ngrams N raises the bound (about {BYTES_PER_NGRAM} bytes an n-gram)",
            options.max_ngrams,
            options.order,
            megabytes(options.max_ngrams.saturating_mul(BYTES_PER_NGRAM))
        ))
    };
    let mut lines = crate::prediction::data::open_lines(path)?;
    while lines.advance()? {
        sentence.clear();
        sentence.push(BEGIN);
        for word in super::words(lines.line()) {
            let id = match ids.get(word) {
                Some(&id) if id <= END => {
                    if options.skip_symbols {
                        continue;
                    }
                    return Err(lines.error(format!(
                        "the text has the word {word}, which a language model reserves (--skip-symbols takes it \
                         for a space)"
                    )));
                }
                Some(&id) => id,
                None => {
                    let id = u32::try_from(counts.vocabulary.len()).map_err(|_| too_many(&lines))?;
                    counts.vocabulary.push(word.into());
                    counts.unigrams.push(0);
                    ids.insert(word.into(), id);
                    distinct += 1;
                    id
                }
            };
            sentence.push(id);
        }
        sentence.push(END);
        counts.words += (sentence.len() - 2) as u64;
        counts.sentences += 1;
        distinct += count_sentence(&sentence, &mut counts.unigrams, &mut counts.grams);
        if distinct > options.max_ngrams {
            return Err(too_many(&lines));
        }
    }
    Ok(counts)
}

/// "400 MB", "4 GB": a memory size in words.
fn megabytes(bytes: u64) -> String {
    match bytes.div_ceil(1_000_000) {
        mb if mb < 10_000 => format!("{mb} MB"),
        mb => format!("{} GB", mb.div_ceil(1_000)),
    }
}

/// Counts the n-grams of every order of one sentence (its word ids between `<s>` and `</s>`);
/// returns how many were new. An n-gram of order n is known by the id of its last n−1 words
/// and its first word, and gets the next id of its order when first seen.
fn count_sentence(tokens: &[u32], unigrams: &mut [u64], grams: &mut [Grams]) -> u64 {
    for &t in &tokens[1..] {
        unigrams[t as usize] += 1;
    }
    let mut new = 0;
    // The id of the (n−1)-gram ending at each position (for n = 2, the word itself).
    let mut below: Vec<u32> = tokens.to_vec();
    let mut here = vec![NONE; tokens.len()];
    for (g, n) in grams.iter_mut().zip(2..) {
        here.fill(NONE);
        for i in 0..tokens.len() {
            let suffix = below[i];
            // The n-gram ending at i starts at i+1−n: it must not reach back past the <s> that
            // starts the (n−1)-gram (if that starts with <s>, so does the sentence).
            if suffix == NONE || tokens[i] == BEGIN || tokens[i + 2 - n] == BEGIN {
                continue;
            }
            let first = tokens[i + 1 - n];
            let next = g.first.len() as u32;
            let id = *g.index.entry((u64::from(suffix) << 32) | u64::from(first)).or_insert_with(|| {
                g.first.push(first);
                g.suffix.push(suffix);
                g.prefix.push(below[i - 1]);
                g.count.push(0);
                new += 1;
                next
            });
            g.count[id as usize] += 1;
            here[i] = id;
        }
        std::mem::swap(&mut below, &mut here);
    }
    new
}

/// Adjusted counts by order and id.
fn adjust(unigrams: &[u64], grams: &[Grams]) -> Vec<Vec<u64>> {
    let order = grams.len() + 1;
    let raw = |n: usize| if n == 1 { unigrams } else { &grams[n - 2].count[..] };
    let mut adjusted: Vec<Vec<u64>> = Vec::with_capacity(order);
    for n in 1..=order {
        let counts = if n == order {
            raw(n).to_vec()
        } else {
            // The number of words seen before the n-gram: the (n+1)-grams ending with it.
            let mut left = vec![0u64; raw(n).len()];
            for &s in &grams[n - 1].suffix {
                left[s as usize] += 1;
            }
            // Nothing precedes <s>: an n-gram beginning with it keeps its count.
            let begins = |id: usize| if n == 1 { id as u32 == BEGIN } else { grams[n - 2].first[id] == BEGIN };
            for (id, a) in left.iter_mut().enumerate() {
                if begins(id) {
                    *a = raw(n)[id];
                }
            }
            left
        };
        adjusted.push(counts);
    }
    adjusted
}

/// Interpolated probabilities and backoff weights, both log10, by order and id.
fn estimate(
    grams: &[Grams],
    adjusted: &[Vec<u64>],
    discounts: &[Discounts],
    vocabulary: usize,
) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let order = adjusted.len();
    // Linear probabilities of the order below, for interpolating.
    let mut below: Vec<f32>;
    let mut probs = Vec::with_capacity(order);
    // γ of each context, by order of the context; filled in one order late.
    let mut gammas: Vec<Vec<Option<f32>>> = Vec::with_capacity(order);

    // Unigrams: one context, the empty one; interpolated with the uniform distribution over the
    // vocabulary less <s>.
    {
        let a = &adjusted[0];
        let (denominator, gamma) = context_weights(a.iter().copied(), &discounts[0]);
        let uniform = (1.0 / f64::from((vocabulary - 1) as f32)) as f32;
        below = a
            .iter()
            .enumerate()
            .map(|(w, &count)| {
                if w as u32 == BEGIN {
                    // <s> is never predicted; probability 1 (log 0) as lmplz writes it.
                    1.0
                } else {
                    discounts[0].apply(count) / denominator + gamma * uniform
                }
            })
            .collect();
        debug_assert_eq!(a[UNKNOWN as usize], 0);
        probs.push(below.iter().map(|&p| log10(p)).collect::<Vec<_>>());
    }
    for n in 2..=order {
        let g = &grams[n - 2];
        let a = &adjusted[n - 1];
        let contexts = adjusted[n - 2].len();
        let mut sums = vec![0u64; contexts];
        let mut of_count = vec![[0u64; 3]; contexts];
        for (id, &count) in a.iter().enumerate() {
            let context = g.prefix[id] as usize;
            sums[context] += count;
            if count > 0 {
                of_count[context][Discounts::of(count) - 1] += 1;
            }
        }
        let d = &discounts[n - 1];
        let gamma: Vec<Option<f32>> = sums
            .iter()
            .zip(&of_count)
            .map(|(&sum, counts)| (sum > 0).then(|| gamma_of(sum as f32, counts, d)))
            .collect();
        let linear: Vec<f32> = a
            .iter()
            .enumerate()
            .map(|(id, &count)| {
                let context = g.prefix[id] as usize;
                let gamma = gamma[context].expect("an n-gram's context has a count");
                d.apply(count) / sums[context] as f32 + gamma * below[g.suffix[id] as usize]
            })
            .collect();
        probs.push(linear.iter().map(|&p| log10(p)).collect());
        gammas.push(gamma);
        below = linear;
    }
    // An n-gram that is no context (ends with </s>, say) backs off with weight 1.
    let backoffs = gammas.iter().map(|g| g.iter().map(|gamma| gamma.unwrap_or(1.0).log10()).collect()).collect();
    (probs, backoffs)
}

/// The denominator and γ of the single context of the unigrams.
fn context_weights(counts: impl Iterator<Item = u64>, d: &Discounts) -> (f32, f32) {
    let mut sum = 0u64;
    let mut of_count = [0u64; 3];
    for count in counts {
        sum += count;
        if count > 0 {
            of_count[Discounts::of(count) - 1] += 1;
        }
    }
    let denominator = sum as f32;
    (denominator, gamma_of(denominator, &of_count, d))
}

/// γ: the discounted mass of a context, as a share of its adjusted counts, summed in lmplz's
/// order.
fn gamma_of(denominator: f32, of_count: &[u64; 3], d: &Discounts) -> f32 {
    let mut gamma = 0.0f32;
    for (k, &n) in of_count.iter().enumerate() {
        gamma += d.0[k] * n as f32;
    }
    gamma / denominator
}

/// log10 as lmplz writes it: rounding can make a probability a hair above 1.
fn log10(p: f32) -> f32 {
    p.log10().min(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prediction::lm::{Model, arpa, words};

    /// tests/fixtures/lm/news.fr.txt: the first 200 sentences of the news corpus's French side.
    const NEWS: &str = include_str!("../../../../../tests/fixtures/lm/news.fr.txt");

    fn estimate_text(text: &str, options: &Options) -> Result<(Estimate, Model)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("text.txt");
        std::fs::write(&path, text).unwrap();
        let estimate = train(&path, options)?;
        let mut arpa_text = Vec::new();
        estimate.write_arpa(&mut arpa_text).unwrap();
        let model_path = dir.path().join("model.arpa");
        std::fs::write(&model_path, arpa_text).unwrap();
        let loaded = arpa::read(&model_path).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        Ok((estimate, loaded.model))
    }

    fn options(order: usize) -> Options {
        Options { order, discount_fallback: false, skip_symbols: false, max_ngrams: MAX_NGRAMS }
    }

    #[test]
    fn discounts_follow_chen_and_goodman() {
        // y = 10 / (10 + 2·5) = 0.5; D1 = 1 − 2y·5/10; D2 = 2 − 3y·3/5; D3+ = 3 − 4y·2/3
        let d = Discounts::estimate([0, 10, 5, 3, 2]).unwrap();
        for (got, expected) in d.0.iter().zip([0.5, 1.1, 3.0 - 4.0 / 3.0]) {
            assert!((got - expected).abs() < 1e-6, "{d:?}");
        }
        assert_eq!(Discounts::estimate([0, 10, 0, 3, 2]), None, "no n-gram seen twice");
        assert_eq!(Discounts::estimate([0, 10, 1, 10, 1]), None, "D2 below 0");
    }

    /// "a b" / "a" / "b a b", order 2, worked out by hand: the unigrams' adjusted counts are the
    /// numbers of different words before them (a: <s> and b; b: a and <s>; </s>: b and a), each 2;
    /// no order has n-grams of every count 1–3, so the fallback discounts 0.5, 1, 1.5 apply.
    #[test]
    fn a_tiny_text_gives_the_hand_computed_model() {
        let text = "a b\na\nb a b\n";
        let refused = estimate_text(text, &options(2)).unwrap_err().to_string();
        assert!(refused.contains("text.txt") && refused.contains("--discount-fallback"), "{refused}");
        let (estimate, model) = estimate_text(text, &Options { discount_fallback: true, ..options(2) }).unwrap();
        assert_eq!(estimate.counts(), [5, 6]);
        assert_eq!(estimate.warnings.len(), 2, "{:?}", estimate.warnings);
        assert_eq!(estimate.tokens, 6);
        // Unigrams: (2 − D2)/6 + γ/|V| with γ = 3·D2/6 = 0.5 and |V| = 4 (<unk>, </s>, a, b).
        let unigram = 1.0 / 6.0 + 0.5 / 4.0;
        // After <s>: a seen twice, b once; γ(<s>) = (D1 + D2)/3 = 0.5. Likewise after a and b.
        let twice = 1.0 / 3.0 + 0.5 * unigram;
        let once = 0.5 / 3.0 + 0.5 * unigram;
        let cases: [(&str, f64); 4] = [
            ("a b", twice * twice * twice),
            ("b", once * twice),
            ("b b", once * 0.5 * unigram * twice),
            // c is <unk>, which has only its share of γ: (0.5/4) · γ(<s>); then </s> after <unk>.
            ("c", 0.5 * (0.5 / 4.0) * unigram),
        ];
        for (sentence, p) in cases {
            let got = model.sentence(words(sentence));
            assert!((f64::from(got) - p.log10()).abs() < 1e-5, "{sentence}: {got} ≠ {}", p.log10());
        }
    }

    /// Interpolated Kneser–Ney is a distribution after every context: the probabilities of all
    /// words but <s> (with </s> and <unk>) add up to 1 — through the ARPA file, read back.
    #[test]
    fn every_context_gives_a_distribution() {
        let (estimate, model) = estimate_text(NEWS, &options(3)).unwrap();
        assert!(estimate.warnings.is_empty(), "{:?}", estimate.warnings);
        let counts = estimate.counts();
        assert!(counts[2] > counts[0], "{counts:?}");
        let vocabulary: Vec<&str> = estimate.vocabulary.iter().map(|w| &**w).filter(|&w| w != "<s>").collect();
        for context in ["", "Le", "à cause de", "Il a", "inconnu mot", "de la Société"] {
            let mut state = model.begin();
            for word in words(context) {
                state = model.score(&state, model.index(word)).1;
            }
            let total: f64 =
                vocabulary.iter().map(|w| 10f64.powf(f64::from(model.score(&state, model.index(w)).0))).sum();
            assert!((total - 1.0).abs() < 1e-4, "after {context:?}: {total}");
        }
    }

    #[test]
    fn the_markers_are_refused_in_the_text_or_taken_for_spaces() {
        let text = "a b\na <s> b\n";
        let refused = estimate_text(text, &Options { discount_fallback: true, ..options(2) }).unwrap_err();
        assert!(refused.to_string().contains("line 2") && refused.to_string().contains("<s>"), "{refused}");
        let options = Options { discount_fallback: true, skip_symbols: true, ..options(2) };
        let (estimate, _) = estimate_text(text, &options).unwrap();
        assert_eq!(estimate.tokens, 4);
    }

    #[test]
    fn a_text_with_more_n_grams_than_the_bound_is_refused_naming_the_line() {
        // 1,000 words, each new: every sentence adds order × its words of n-grams.
        let text: String = (0..100).map(|l| (0..10).map(|w| format!("w{l}x{w} ")).collect::<String>() + "\n").collect();
        let counted = |max_ngrams| estimate_text(&text, &Options { discount_fallback: true, max_ngrams, ..options(3) });
        let (estimate, _) = counted(10_000).unwrap();
        let total: usize = estimate.counts().iter().sum();
        assert_eq!(estimate.counts(), [1_003, 1_100, 1_000]);
        assert!(counted(total as u64).is_ok(), "the bound itself is allowed");
        let err = counted(total as u64 - 1).unwrap_err().to_string();
        assert!(
            err.ends_with(
                "text.txt: line 100: the text has more than 3102 distinct n-grams of orders 1–3: its model would need \
                 more than some 1 MB of memory; --max-ngrams N raises the bound (about 100 bytes an n-gram)"
            ),
            "{err}"
        );
        // 3 markers, then 31 n-grams a sentence: the 17th passes 500.
        assert!(counted(500).unwrap_err().to_string().contains(": line 17: "));
    }

    #[test]
    fn an_empty_text_is_refused() {
        let refused = estimate_text("", &options(3)).unwrap_err().to_string();
        assert!(refused.contains("no text"), "{refused}");
    }
}
