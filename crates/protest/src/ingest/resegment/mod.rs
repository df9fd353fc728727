//! Re-segmentation: one translation per source sentence from a system's output in any line
//! layout — one line per sentence, documents as paragraphs, sentences merged or split — never
//! shifted (docs/alignment.md, "Document-level output").
//!
//! The output's lines are grouped by [`layout`] into blocks (a document each, or the whole), each
//! block's tokens aligned monotonically to its sentences by [`dp`] with the costs of [`cues`]:
//! the output's own line breaks and sentence punctuation, the source sentences' lengths, and the
//! words of the other translations the master holds (the reference, earlier systems) and of the
//! source (numbers, names). Every sentence gets its tokens, nothing (omitted), or a share of a
//! merge that could not be split; passages that translate no sentence are left out. A boundary
//! whose best alternative costs little more is of low confidence, and so are the two sentences
//! it separates.
//!
//! Output given one line per sentence is checked line by line in the same way: a line that fits
//! another sentence clearly better is moved (with everything between), and where that cannot be
//! told with confidence the output is refused, naming the sentence where the shift starts.

mod cues;
mod dp;
mod layout;
mod vouch;

pub use cues::Weights;
pub use layout::{Given, Layout, is_empty as is_empty_line};

use crate::error::{Error, Result};
use crate::model::{Origin, Segmentation, tokens};
use cues::{Sentence, Stretch, Token, Vocabulary};
use dp::Step;
use layout::{Block, Miscount};
use rayon::prelude::*;
use std::ops::Range;
use std::path::Path;

/// What is known of the sentences the output translates.
#[derive(Debug, Clone, Copy)]
pub struct Texts<'a> {
    /// The tokenised source, one sentence per entry.
    pub source: &'a [String],
    /// Other tokenised translations of the source into the output's language (the reference,
    /// earlier systems): their words are what the output's are compared with.
    pub translations: &'a [&'a [String]],
    /// The first sentence of each document, ascending from 0.
    pub documents: &'a [u32],
}

/// The output, one translation per source sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Resegmented {
    /// Tokenised, one per source sentence.
    pub sentences: Vec<String>,
    /// How each was obtained; `None` when every sentence is one whole line as given.
    pub segmentation: Option<Segmentation>,
    pub summary: Summary,
    /// Output given one line per sentence whose lines had to be moved without confidence: why
    /// it cannot be stored ([`Resegmented::check`]).
    pub unsure_shift: Option<String>,
}

impl Resegmented {
    /// Refuses output given one line per sentence whose lines do not fit their sentences where
    /// it cannot be told with confidence where they belong.
    pub fn check(&self, origin: &Path) -> Result<()> {
        match &self.unsure_shift {
            Some(why) => Err(Error::whole_file(origin, why.clone())),
            None => Ok(()),
        }
    }
}

/// How the output was segmented, for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub layout: Layout,
    /// Lines of the output and blocks they were read as.
    pub lines: usize,
    pub blocks: usize,
    /// Sentences per origin, in the order of [`Origin`].
    pub origins: [usize; 6],
    /// Sentences (0-based) whose boundaries are of low confidence.
    pub low_confidence: Vec<u32>,
    pub left_out: Vec<LeftOut>,
    /// Documents (0-based) for which the output has nothing.
    pub empty_documents: Vec<usize>,
    /// Output given one line per sentence: the runs of sentences (0-based) whose lines fitted
    /// other sentences and were moved.
    pub moved: Vec<Range<u32>>,
}

/// A passage of the output that translates no source sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// Its line in the output (0-based).
    pub line: usize,
    /// The sentence (0-based) it stands before, or the number of sentences at the end.
    pub before: u32,
    pub text: String,
}

/// The most tokens an output may have (positions are kept in 30 bits).
const MAX_TOKENS: usize = (1 << 30) - 2;

/// Cuts `lines`, read from `origin`, into one translation per source sentence. `tokenise` turns a
/// line (0-based number, text) into tokens as the master holds them, or says why it cannot.
pub fn resegment(
    origin: &Path,
    texts: &Texts,
    lines: &[String],
    given: Given,
    weights: &Weights,
    tokenise: &(dyn Fn(usize, &str) -> Result<String> + Sync),
) -> Result<Resegmented> {
    let n = texts.source.len();
    let tokenised: Vec<String> = lines.par_iter().enumerate().map(|(i, l)| tokenise(i, l)).collect::<Result<_>>()?;
    let total: usize = tokenised.iter().map(|l| tokens::token_count(l)).sum();
    if total > MAX_TOKENS {
        return Err(Error::whole_file(origin, format!("has {total} tokens, more than can be segmented")));
    }
    let mut vocabulary = Vocabulary::default();
    let words: Vec<Vec<(u32, u32)>> =
        tokenised.iter().map(|l| tokens::tokens(l).map(|w| vocabulary.output(w)).collect()).collect();
    let sentences: Vec<Sentence> = (0..n)
        .map(|s| {
            let others: Vec<&str> = texts.translations.iter().filter_map(|t| t.get(s)).map(String::as_str).collect();
            Sentence::new(&mut vocabulary, &texts.source[s], &others)
        })
        .collect();
    let (layout, blocks) = layout::detect(lines, n, texts.documents, given)
        .map_err(|miscount| Error::whole_file(origin, misfit(&miscount, lines, &words, &sentences, texts)))?;
    let context = Context {
        weights,
        vocabulary: &vocabulary,
        sentences: &sentences,
        translations: !texts.translations.is_empty(),
        tokenised: &tokenised,
        words: &words,
    };
    let done: Vec<BlockResult> = blocks.par_iter().map(|block| context.block(block, layout)).collect();
    Ok(assemble(texts, lines, layout, &blocks, done))
}

/// What every block is segmented with.
struct Context<'a> {
    weights: &'a Weights,
    vocabulary: &'a Vocabulary,
    sentences: &'a [Sentence],
    translations: bool,
    tokenised: &'a [String],
    words: &'a [Vec<(u32, u32)>],
}

/// One block segmented.
struct BlockResult {
    sentences: Vec<Segment>,
    left_out: Vec<LeftOut>,
    /// For each line of the block, the sentence (0-based, in the whole) its first token went to.
    line_goes_to: Vec<Option<u32>>,
}

/// One sentence's translation.
struct Segment {
    text: String,
    origin: Origin,
    low_confidence: bool,
    /// The alignment itself found a close alternative to its boundaries.
    doubtful: bool,
    /// One line per sentence: the translation is the sentence's own line.
    own_line: bool,
}

impl Context<'_> {
    fn block(&self, block: &Block, layout: Layout) -> BlockResult {
        let mut tokens: Vec<Token> = Vec::new();
        let mut texts: Vec<&str> = Vec::new();
        // Where each line starts and ends, in tokens.
        let mut spans: Vec<Range<usize>> = Vec::new();
        for line in block.lines.clone() {
            let start = tokens.len();
            for (text, &word) in tokens::tokens(&self.tokenised[line]).zip(&self.words[line]) {
                let token = Token::new(self.vocabulary, text, word, tokens.last());
                tokens.push(token);
                texts.push(text);
            }
            spans.push(start..tokens.len());
        }
        let mut breaks = vec![0u8; tokens.len() + 1];
        for span in &spans[..spans.len().saturating_sub(1)] {
            breaks[span.end] = breaks[span.end].saturating_add(1);
        }
        let sentences = &self.sentences[block.sentences.clone()];
        let claimed = layout == Layout::SentencePerLine;
        let stretch =
            Stretch::new(self.weights, self.vocabulary, &tokens, &breaks, sentences, self.translations, claimed);
        let path = dp::align(&stretch);
        let line_break_inside = |r: &Range<usize>| (r.start + 1..r.end).any(|q| breaks[q] > 0);
        let whole_line = |r: &Range<usize>| spans.iter().any(|s| s == r);
        let evidence = vouch::Evidence {
            path: &path,
            tokens: &tokens,
            breaks: &breaks,
            sentences,
            sure: self.weights.sure,
            ratio: stretch.ratio,
        };
        let (doubtful, low) = vouch::low_confidence(&evidence);
        let segments = path
            .sentences
            .iter()
            .enumerate()
            .map(|(k, (range, step))| {
                let own_line = layout == Layout::SentencePerLine && spans[k] == *range;
                let origin = match step {
                    Step::Merged => Origin::Merged,
                    Step::WithPrevious => Origin::WithPrevious,
                    Step::Own if own_line || (!range.is_empty() && whole_line(range)) => Origin::AsGiven,
                    Step::Own if range.is_empty() => Origin::Omitted,
                    Step::Own if line_break_inside(range) => Origin::Joined,
                    Step::Own => Origin::Split,
                };
                // Given lines are trusted where they are kept.
                let (low_confidence, doubtful) = (low[k] && !own_line, doubtful[k] && !own_line);
                Segment { text: texts[range.clone()].join(" "), origin, low_confidence, doubtful, own_line }
            })
            .collect();
        let sentence_at = |p: usize| {
            let k = path.sentences.iter().position(|(r, _)| r.contains(&p))?;
            Some((block.sentences.start + k) as u32)
        };
        let left_out = path
            .left_out
            .iter()
            .map(|r| LeftOut {
                line: block.lines.start + spans.iter().position(|s| s.contains(&r.start)).unwrap_or(0),
                before: (block.sentences.start + path.sentences.iter().take_while(|(s, _)| s.start < r.end).count())
                    as u32,
                text: texts[r.clone()].join(" "),
            })
            .collect();
        let line_goes_to = spans.iter().map(|s| sentence_at(s.start).filter(|_| !s.is_empty())).collect();
        BlockResult { sentences: segments, left_out, line_goes_to }
    }
}

/// The blocks' results as one corpus.
fn assemble(texts: &Texts, lines: &[String], layout: Layout, blocks: &[Block], done: Vec<BlockResult>) -> Resegmented {
    let n = texts.source.len();
    let mut sentences = Vec::with_capacity(n);
    let mut origins = Vec::with_capacity(n);
    let mut doubts = Vec::with_capacity(n);
    let mut moved: Vec<Range<u32>> = Vec::new();
    let mut left_out = Vec::new();
    let mut empty_documents = Vec::new();
    let mut line_goes_to = Vec::new();
    for (k, (block, result)) in blocks.iter().zip(done).enumerate() {
        let documents = matches!(layout, Layout::Documents | Layout::DocumentPerLine);
        if documents && !block.sentences.is_empty() && result.sentences.iter().all(|s| s.text.is_empty()) {
            empty_documents.push(k);
        }
        for segment in result.sentences {
            let s = sentences.len() as u32;
            if layout == Layout::SentencePerLine && !segment.own_line {
                match moved.last_mut() {
                    Some(run) if run.end == s => run.end = s + 1,
                    _ => moved.push(s..s + 1),
                }
            }
            sentences.push(segment.text);
            origins.push((segment.origin, segment.low_confidence));
            doubts.push((segment.origin, segment.doubtful));
        }
        left_out.extend(result.left_out);
        line_goes_to.extend(result.line_goes_to);
    }
    let segmentation = Segmentation::from_sentences(origins.iter().copied());
    // Lines placed elsewhere than their own where the alignment doubts it: a whole line, or every
    // sentence of a run (an uncertain split or join at the end of a sure shift is only marked,
    // like any other).
    let unsure_shift = moved.iter().find_map(|run| {
        let low = |s: &u32| doubts[*s as usize].1;
        let whole_line = |s: &u32| doubts[*s as usize] == (Origin::AsGiven, true);
        let unsure = run.clone().find(whole_line).or_else(|| run.clone().all(|s| low(&s)).then_some(run.start))?;
        let first = run.start;
        let why = shifted(first, origins[first as usize].0, line_goes_to[first as usize], texts, lines);
        Some(format!(
            "the lines do not fit their sentences from sentence {} on: {why}; where they belong cannot be told with \
             confidence (sentence {} is uncertain). Look for a merged, split, missing or extra line there, or give the \
             documents separated by empty lines to have them segmented with the uncertain sentences marked",
            first + 1,
            unsure + 1
        ))
    });
    let (counts, _) = segmentation.counts(n);
    let summary = Summary {
        layout,
        lines: lines.len(),
        blocks: blocks.len(),
        origins: counts,
        low_confidence: segmentation.low_confidence.clone(),
        left_out,
        empty_documents,
        moved,
    };
    // Every sentence one whole line as given: nothing to record.
    let segmentation = (segmentation != Segmentation::default()).then_some(segmentation);
    Resegmented { sentences, segmentation, summary, unsure_shift }
}

/// Why the line of sentence `s` does not fit it, knowing how the sentence got its translation
/// instead and where the line's first words went.
fn shifted(s: u32, origin: Origin, line_goes_to: Option<u32>, texts: &Texts, lines: &[String]) -> String {
    let i = s as usize;
    let source = |k: usize| excerpt(&texts.source[k], 48);
    let line = format!("line {} (“{}”)", i + 1, excerpt(&lines[i], 48));
    match line_goes_to {
        Some(k) if k != s => format!(
            "{line} reads as the translation of sentence {} (“{}”), not of sentence {} (“{}”)",
            k + 1,
            source(k as usize),
            i + 1,
            source(i)
        ),
        _ => match origin {
            Origin::Split => format!("{line} holds more than the translation of sentence {} (“{}”)", i + 1, source(i)),
            Origin::Joined => {
                format!("the translation of sentence {} (“{}”) runs on past {line}", i + 1, source(i))
            }
            _ => format!("{line} does not fit sentence {} (“{}”)", i + 1, source(i)),
        },
    }
}

/// The beginning of a text, at most `max` characters, with `…` when cut.
fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
        None => text.to_owned(),
    }
}

/// Why an output with the wrong number of documents is refused: the first document whose part
/// does not fit it.
fn misfit(
    miscount: &Miscount,
    lines: &[String],
    words: &[Vec<(u32, u32)>],
    sentences: &[Sentence],
    texts: &Texts,
) -> String {
    let documents = texts.documents;
    let (k, why) = first_misfit(miscount, words, sentences, documents);
    let what = miscounted(miscount, lines.len(), sentences.len(), documents.len());
    let doc = document(documents, sentences.len(), k.min(documents.len() - 1));
    let part = part_misfit(miscount.parts.get(k), lines);
    format!(
        "{what}; document {} (sentences {}–{}, “{}”) {part}: {why}. {}",
        k + 1,
        doc.start + 1,
        doc.end,
        quote(texts.source.get(doc.start).map_or("", String::as_str)),
        advice(miscount.layout),
    )
}

/// The sentences of document `k` of `n` sentences.
fn document(documents: &[u32], n: usize, k: usize) -> Range<usize> {
    documents[k] as usize..documents.get(k + 1).map_or(n, |&s| s as usize)
}

/// How a document's part is quoted in messages.
fn quote(text: &str) -> String {
    excerpt(text, 40)
}

/// The first document whose part does not fit it and why: far more or fewer words than its
/// source leads to expect (at the output's overall rate), or words that fit a neighbour better;
/// failing that, the first document without a part or the first part left over.
fn first_misfit(
    miscount: &Miscount,
    words: &[Vec<(u32, u32)>],
    sentences: &[Sentence],
    documents: &[u32],
) -> (usize, String) {
    let n = sentences.len();
    let part_words =
        |k: usize| -> Vec<u32> { miscount.parts[k].clone().flat_map(|l| words[l].iter().map(|w| w.0)).collect() };
    let bags: Vec<Vec<u32>> = (0..documents.len()).map(|k| cues::bag(&sentences[document(documents, n, k)])).collect();
    let source: Vec<usize> =
        (0..documents.len()).map(|k| cues::source_tokens(&sentences[document(documents, n, k)])).collect();
    let output: usize = (0..miscount.parts.len()).map(|k| part_words(k).len()).sum();
    let ratio = output as f64 / source.iter().sum::<usize>().max(1) as f64;
    let fit = |part: &[u32], k: usize| cues::share_in(part, &bags[k]);
    let common = miscount.parts.len().min(documents.len());
    for (k, &source_tokens) in source.iter().enumerate().take(common) {
        let part = part_words(k);
        let expected = ratio * source_tokens as f64;
        let times = part.len() as f64 / expected.max(1.0);
        if !(0.5..=2.0).contains(&times) && (part.len() as f64 - expected).abs() > 8.0 {
            return (k, format!("it holds {times:.1} times the words the document's source leads to expect"));
        }
        let own = fit(&part, k);
        let better = [k.wrapping_sub(1), k + 1]
            .into_iter()
            .filter(|&j| j < documents.len())
            .find(|&j| fit(&part, j) > own + 0.05);
        if let Some(j) = better {
            return (k, format!("its words fit document {} better", j + 1));
        }
    }
    if miscount.parts.len() < documents.len() {
        (common, format!("there are {} for {} documents", miscount.parts.len(), documents.len()))
    } else {
        (common.saturating_sub(1), format!("part {} is left over after the last document", common + 1))
    }
}

/// What the output has against what the master has, in the layout it was read in.
fn miscounted(miscount: &Miscount, lines: usize, n: usize, documents: usize) -> String {
    let count = crate::store::summary::count;
    match miscount.layout {
        Layout::DocumentPerLine => format!(
            "has {} but the master has {} (one per line was asked for)",
            count(miscount.parts.len(), "line"),
            count(documents, "document")
        ),
        _ => format!(
            "has {} in {} parts separated by empty lines: neither one line per source sentence (the master has \
             {n} sentences) nor one part per document (the master has {})",
            count(lines, "line"),
            miscount.parts.len(),
            count(documents, "document")
        ),
    }
}

/// Which lines of the output a document's part is, quoted.
fn part_misfit(part: Option<&Range<usize>>, lines: &[String]) -> String {
    match part {
        Some(range) if range.len() == 1 => {
            format!("does not fit line {} (“{}”)", range.start + 1, quote(&lines[range.start]))
        }
        Some(range) if !range.is_empty() => {
            format!("does not fit lines {}–{} (“{}”)", range.start + 1, range.end, quote(&lines[range.start]))
        }
        Some(range) => format!("does not fit the empty part at line {}", range.start + 1),
        None => "has no part".into(),
    }
}

/// How to give the documents in the layout the output was read in.
fn advice(layout: Layout) -> &'static str {
    match layout {
        Layout::DocumentPerLine => {
            "Give one line per document, in the master's order (an empty one for a document \
                                    with no output)"
        }
        _ => {
            "Give the documents in the master's order, separated by exactly one empty line each (two in a row for a \
              document with no output)"
        }
    }
}

impl Summary {
    /// The summary as lines for people.
    pub fn lines(&self) -> Vec<String> {
        let count = crate::store::summary::count;
        let mut out = vec![match self.layout {
            Layout::SentencePerLine | Layout::Continuous => {
                format!("layout: {} ({})", self.layout.describe(), count(self.lines, "line"))
            }
            _ => format!("layout: {} ({})", self.layout.describe(), count(self.blocks, "document")),
        }];
        let n: usize = self.origins.iter().sum();
        let names = ["kept as given", "split", "joined", "omitted", "merged with the next", "with the previous"];
        let parts: Vec<String> =
            names.iter().zip(self.origins).filter(|(_, c)| *c > 0).map(|(name, c)| format!("{c} {name}")).collect();
        out.push(format!("segmented: {} — {}", count(n, "sentence"), parts.join(", ")));
        if !self.moved.is_empty() {
            out.push(format!(
                "moved: the lines of sentences {} fitted other sentences and were re-segmented",
                numbers(&self.moved)
            ));
        }
        if !self.low_confidence.is_empty() {
            let runs = runs(&self.low_confidence);
            out.push(format!(
                "low confidence: {} (left to people by the automatic match): {}",
                count(self.low_confidence.len(), "sentence"),
                numbers(&runs)
            ));
        }
        if !self.empty_documents.is_empty() {
            let list: Vec<String> = self.empty_documents.iter().map(|d| (d + 1).to_string()).collect();
            out.push(format!("no output for document {}: its sentences are empty", list.join(", ")));
        }
        for passage in &self.left_out {
            out.push(format!(
                "left out (translates no source sentence): line {}, before sentence {}: “{}”",
                passage.line + 1,
                passage.before + 1,
                excerpt(&passage.text, 60)
            ));
        }
        out
    }
}

/// Consecutive numbers as ranges.
fn runs(sorted: &[u32]) -> Vec<Range<u32>> {
    let mut runs: Vec<Range<u32>> = Vec::new();
    for &s in sorted {
        match runs.last_mut() {
            Some(r) if r.end == s => r.end = s + 1,
            _ => runs.push(s..s + 1),
        }
    }
    runs
}

/// 0-based runs as 1-based numbers for people: `44–46, 310`; at most 20 runs, then how many more.
fn numbers(runs: &[Range<u32>]) -> String {
    let shown: Vec<String> = runs
        .iter()
        .take(20)
        .map(|r| if r.len() == 1 { (r.start + 1).to_string() } else { format!("{}–{}", r.start + 1, r.end) })
        .collect();
    let more = runs.len().saturating_sub(20);
    if more > 0 { format!("{} and {more} more", shown.join(", ")) } else { shown.join(", ") }
}

#[cfg(test)]
mod tests;
