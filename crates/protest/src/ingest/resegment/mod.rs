//! Re-segmentation: one translation per source sentence from a system's output in any line
//! layout — one line per sentence, documents as paragraphs, sentences merged or split — never
//! shifted (docs/alignment.md, "Document-level output").
//!
//! The output's lines are grouped by [`layout`] into blocks (a document each, or the whole), each
//! block's tokens aligned monotonically to its sentences by [`dp`] with the costs of [`cues`]:
//! the output's own line breaks and sentence punctuation, the source sentences' lengths, and the
//! words of the other translations the master holds (the reference, earlier systems) and of the
//! source (numbers, names). Every sentence gets its tokens, nothing (omitted), or a share of a
//! merge that could not be split; passages that translate no sentence are left out. Sentences
//! whose translation cannot be vouched for are of low confidence ([`vouch`]): a boundary whose
//! best alternative costs little more, or one the output's text leaves open.
//!
//! Output given one line per sentence is checked line by line in the same way: a line that fits
//! another sentence clearly better is moved (with everything between), and where that cannot be
//! told with confidence the output is refused, naming the sentence where the shift starts.

mod cues;
mod dp;
mod layout;
mod misfit;
mod summary;
mod vouch;

pub use cues::Weights;
pub use layout::{Given, Layout, is_empty as is_empty_line};
pub use summary::Summary;

use crate::error::{Error, Result};
use crate::model::{Origin, Segmentation, tokens};
use cues::{Sentence, Stretch, Token, Vocabulary};
use dp::Step;
use layout::Block;
use rayon::prelude::*;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A system's output as read: its lines, from one file or from a folder's files one after the
/// other.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    /// Where the text comes from (the file or the folder); messages name it.
    pub origin: &'a Path,
    /// One sentence per line parallel to the master's source, or documents in any layout
    /// ([`Layout`]).
    pub lines: &'a [String],
    /// A folder's files, one per document in the master's order; none for a single file.
    pub files: &'a [OutputFile],
}

/// One file of a folder given as a system's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    pub path: PathBuf,
    /// Its lines among the output's.
    pub lines: Range<usize>,
}

impl<'a> Output<'a> {
    /// The lines of one file.
    pub fn file(origin: &'a Path, lines: &'a [String]) -> Output<'a> {
        Output { origin, lines, files: &[] }
    }

    /// The file that line `line` (0-based, of the whole output) is in, and its number there
    /// (from 1): for messages.
    pub fn locate(&self, line: usize) -> (&'a Path, usize) {
        match self.files.iter().find(|f| f.lines.contains(&line)) {
            Some(f) => (&f.path, line - f.lines.start + 1),
            None => (self.origin, line + 1),
        }
    }

    /// The files by name and lines, for the summary.
    fn named_files(&self) -> Vec<(String, Range<usize>)> {
        let name = |p: &Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
        self.files.iter().map(|f| (name(&f.path), f.lines.clone())).collect()
    }
}

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

/// A passage of the output that translates no source sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// Its line in the output (0-based).
    pub line: usize,
    /// The sentence (0-based) it stands before, or the number of sentences at the end.
    pub before: u32,
    pub text: String,
}

/// The beginning of a text, at most `max` characters, with `…` when cut.
pub(super) fn excerpt(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
        None => text.to_owned(),
    }
}

/// The most tokens an output may have (positions are kept in 30 bits).
const MAX_TOKENS: usize = (1 << 30) - 2;

/// Cuts the output into one translation per source sentence. `tokenise` turns a line (0-based
/// number in the whole output, text) into tokens as the master holds them, or says why it cannot.
pub fn resegment(
    output: &Output,
    texts: &Texts,
    given: Given,
    weights: &Weights,
    tokenise: &(dyn Fn(usize, &str) -> Result<String> + Sync),
) -> Result<Resegmented> {
    let (origin, lines) = (output.origin, output.lines);
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
    let files: Vec<Range<usize>> = output.files.iter().map(|f| f.lines.clone()).collect();
    let named = output.named_files();
    let (layout, blocks) = layout::detect(lines, n, texts.documents, given, &files).map_err(|miscount| {
        Error::whole_file(origin, misfit::misfit(&miscount, (lines, &named), &words, &sentences, texts))
    })?;
    let context = Context {
        weights,
        vocabulary: &vocabulary,
        sentences: &sentences,
        translations: !texts.translations.is_empty(),
        tokenised: &tokenised,
        words: &words,
    };
    let done: Vec<BlockResult> =
        blocks.par_iter().map(|block| context.block(block, layout)).collect::<std::result::Result<_, _>>().map_err(
            |line| {
                let (file, line) = output.locate(line);
                Error::at_line(file, line, "the text from here on could not be cut into sentences")
            },
        )?;
    let mut resegmented = assemble(texts, lines, layout, &blocks, done);
    resegmented.summary.files = named;
    Ok(resegmented)
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
    /// The block segmented; `Err` with its first line if no segmentation was found.
    fn block(&self, block: &Block, layout: Layout) -> std::result::Result<BlockResult, usize> {
        let mut tokens: Vec<Token> = Vec::new();
        let mut texts: Vec<&str> = Vec::new();
        // Where each line starts and ends, in tokens, and which line of the output it is. In a
        // folder's files, empty lines only separate paragraphs: a line break like any other.
        let mut spans: Vec<Range<usize>> = Vec::new();
        let mut span_lines: Vec<usize> = Vec::new();
        for line in block.lines.clone() {
            if layout == Layout::DocumentFiles && self.words[line].is_empty() {
                continue;
            }
            span_lines.push(line);
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
        let Some(path) = dp::align(&stretch) else {
            return Err(block.lines.start);
        };
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
                line: spans.iter().position(|s| s.contains(&r.start)).map_or(block.lines.start, |i| span_lines[i]),
                before: (block.sentences.start + path.sentences.iter().take_while(|(s, _)| s.start < r.end).count())
                    as u32,
                text: texts[r.clone()].join(" "),
            })
            .collect();
        let line_goes_to = spans.iter().map(|s| sentence_at(s.start).filter(|_| !s.is_empty())).collect();
        Ok(BlockResult { sentences: segments, left_out, line_goes_to })
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
    let mut omitted = Vec::new();
    for (k, (block, result)) in blocks.iter().zip(done).enumerate() {
        let documents = matches!(layout, Layout::Documents | Layout::DocumentPerLine | Layout::DocumentFiles);
        let empty = !block.sentences.is_empty() && result.sentences.iter().all(|s| s.text.is_empty());
        if documents && empty {
            empty_documents.push(k);
        }
        for segment in result.sentences {
            let s = sentences.len() as u32;
            if segment.origin == Origin::Omitted && !empty {
                omitted.push((s, texts.source[s as usize].clone()));
            }
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
    let unsure_shift = misfit::unsure_shift(&moved, &doubts, &line_goes_to, texts, lines);
    let (counts, _) = segmentation.counts(n);
    let summary = Summary {
        layout,
        lines: lines.len(),
        blocks: blocks.len(),
        files: Vec::new(),
        origins: counts,
        low_confidence: segmentation.low_confidence.clone(),
        vouched: Vec::new(),
        omitted,
        left_out,
        empty_documents,
        moved,
    };
    // Every sentence one whole line as given: nothing to record.
    let segmentation = (segmentation != Segmentation::default()).then_some(segmentation);
    Resegmented { sentences, segmentation, summary, unsure_shift }
}

#[cfg(test)]
mod tests;
