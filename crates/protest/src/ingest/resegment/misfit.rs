//! Why an output cannot be stored as it is: lines given one per sentence that do not fit their
//! sentences, or parts that are not the master's documents — each message naming the sentence or
//! document (counted from 1) and the place in the output.

use super::cues::{self, Sentence};
use super::layout::{Layout, Miscount};
use super::{Texts, excerpt};
use crate::model::Origin;
use std::ops::Range;

/// Output given one line per sentence whose lines were placed elsewhere than their own where the
/// alignment doubts it — a whole line, or every sentence of a run (an uncertain split or join at
/// the end of a sure shift is only marked, like any other) — and why it cannot be stored.
/// `doubts` holds each sentence's origin and whether the alignment doubts its boundaries.
pub(super) fn unsure_shift(
    moved: &[Range<u32>],
    doubts: &[(Origin, bool)],
    line_goes_to: &[Option<u32>],
    texts: &Texts,
    lines: &[String],
) -> Option<String> {
    moved.iter().find_map(|run| {
        let low = |s: &u32| doubts[*s as usize].1;
        let whole_line = |s: &u32| doubts[*s as usize] == (Origin::AsGiven, true);
        let unsure = run.clone().find(whole_line).or_else(|| run.clone().all(|s| low(&s)).then_some(run.start))?;
        let first = run.start;
        let why = shifted(first, doubts[first as usize].0, line_goes_to[first as usize], texts, lines);
        Some(format!(
            "the lines do not fit their sentences from sentence {} on: {why}; where they belong cannot be told with \
             confidence (sentence {} is uncertain). Look for a merged, split, missing or extra line there, or give the \
             documents separated by empty lines to have them segmented with the uncertain sentences marked",
            first + 1,
            unsure + 1
        ))
    })
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

/// Why an output with the wrong number of documents is refused: the first document whose part
/// does not fit it.
pub(super) fn misfit(
    miscount: &Miscount,
    (lines, files): (&[String], &[(String, Range<usize>)]),
    words: &[Vec<(u32, u32)>],
    sentences: &[Sentence],
    texts: &Texts,
) -> String {
    let documents = texts.documents;
    let (k, why) = first_misfit(miscount, words, sentences, documents);
    let what = miscounted(miscount, lines.len(), sentences.len(), documents.len());
    let doc = document(documents, sentences.len(), k.min(documents.len() - 1));
    let part = match files.get(k) {
        Some((name, range)) if miscount.layout == Layout::DocumentFiles => {
            let first = range.clone().find(|&l| !lines[l].trim().is_empty());
            let text = first.map_or(String::new(), |l| format!(" (“{}”)", quote(&lines[l])));
            format!("does not fit file {name}{text}")
        }
        _ => part_misfit(miscount.parts.get(k), lines),
    };
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
            let words = crate::store::summary::count(part.len(), "word");
            return (k, format!("it has {words} where the document's source leads to expect about {expected:.0}"));
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
        Layout::DocumentFiles => format!(
            "has {} but the master has {} (one file per document)",
            count(miscount.parts.len(), "file"),
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
            "Give one line per document, in the master's order (an empty one for a document with no output)"
        }
        Layout::DocumentFiles => {
            "Give one text file per document, named so that they sort in the master's order (numbers in names are \
             compared as numbers: doc2 before doc10; names starting with a dot are skipped), an empty file for a \
             document with no output"
        }
        _ => {
            "Give the documents in the master's order, separated by exactly one empty line each (two in a row for a \
             document with no output), each paragraph of a document on a line of its own with no empty line \
             between them; or give a folder with one text file per document, in which empty lines separate \
             paragraphs"
        }
    }
}
