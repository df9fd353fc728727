//! How an output's lines are laid out: one line per source sentence; the master's documents
//! separated by one empty line each, in any line layout; one document per line; or running text
//! with no empty line. Each layout groups the lines into blocks, each with the source sentences
//! it translates.

use std::ops::Range;

/// The layout of an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One line per source sentence: the lines are checked against their sentences, and moved
    /// only where they clearly fit another.
    SentencePerLine,
    /// The master's documents, in its order, separated by one empty line each.
    Documents,
    /// One document per line (`--one-document-per-line`).
    DocumentPerLine,
    /// A folder with one file per document, empty lines separating paragraphs.
    DocumentFiles,
    /// Running text without empty lines and not one line per sentence: the whole is aligned to
    /// all the sentences.
    Continuous,
}

impl Layout {
    pub fn describe(self) -> &'static str {
        match self {
            Layout::SentencePerLine => "one line per source sentence",
            Layout::Documents => "documents separated by an empty line",
            Layout::DocumentPerLine => "one document per line",
            Layout::DocumentFiles => "one file per document",
            Layout::Continuous => "running text (neither one line per sentence nor documents separated by empty lines)",
        }
    }
}

/// What the user says about the layout; the rest is told from the lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Given {
    #[default]
    Detect,
    DocumentPerLine,
}

/// Lines of the output and the sentences they translate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Block {
    pub lines: Range<usize>,
    pub sentences: Range<usize>,
}

/// The output looks like documents, but not as many as the master has: its parts, as line
/// ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Miscount {
    pub layout: Layout,
    pub parts: Vec<Range<usize>>,
}

/// Whether a line separates documents (empty or only white space).
pub fn is_empty(line: &str) -> bool {
    line.trim().is_empty()
}

/// The layout of `lines` for a master of `sentences` sentences whose documents start at
/// `documents`, and its blocks; `files` are the lines of each file of a folder (none for a single
/// file).
pub(super) fn detect(
    lines: &[String],
    sentences: usize,
    documents: &[u32],
    given: Given,
    files: &[Range<usize>],
) -> Result<(Layout, Vec<Block>), Miscount> {
    let document = |k: usize| {
        let start = documents[k] as usize;
        start..documents.get(k + 1).map_or(sentences, |&s| s as usize)
    };
    if !files.is_empty() {
        if files.len() != documents.len() {
            return Err(Miscount { layout: Layout::DocumentFiles, parts: files.to_vec() });
        }
        let blocks = files.iter().enumerate().map(|(k, f)| Block { lines: f.clone(), sentences: document(k) });
        return Ok((Layout::DocumentFiles, blocks.collect()));
    }
    let mut end = lines.len();
    while end > 0 && is_empty(&lines[end - 1]) {
        end -= 1;
    }
    if given == Given::DocumentPerLine {
        if end != documents.len() {
            return Err(Miscount { layout: Layout::DocumentPerLine, parts: (0..end).map(|i| i..i + 1).collect() });
        }
        let blocks = (0..end).map(|k| Block { lines: k..k + 1, sentences: document(k) }).collect();
        return Ok((Layout::DocumentPerLine, blocks));
    }
    // Empty lines at the end are not sentences when there are too many lines.
    if end <= sentences && lines.len() >= sentences {
        return Ok((Layout::SentencePerLine, vec![Block { lines: 0..sentences, sentences: 0..sentences }]));
    }
    // Empty lines at the end separate empty documents only when that makes the count.
    let (trimmed, whole) = (parts(&lines[..end]), parts(lines));
    let parts = if trimmed.len() == documents.len() {
        trimmed
    } else if whole.len() == documents.len() {
        whole
    } else if trimmed.len() == 1 {
        return Ok((Layout::Continuous, vec![Block { lines: 0..end, sentences: 0..sentences }]));
    } else {
        return Err(Miscount { layout: Layout::Documents, parts: trimmed });
    };
    let blocks = parts.into_iter().enumerate().map(|(k, lines)| Block { lines, sentences: document(k) }).collect();
    Ok((Layout::Documents, blocks))
}

/// The line ranges between empty lines.
fn parts(lines: &[String]) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, line) in lines.iter().enumerate() {
        if is_empty(line) {
            parts.push(start..i);
            start = i + 1;
        }
    }
    parts.push(start..lines.len());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.split('\n').map(str::to_owned).collect()
    }

    #[test]
    fn layouts_are_told_from_the_lines() {
        let docs = [0, 2];
        let detect = |text: &str| detect(&lines(text), 4, &docs, Given::Detect, &[]);
        // Four lines, one per sentence, an empty one among them (an empty translation) and
        // empty lines after them.
        let (layout, blocks) = detect("a\n\nc\nd\n\n").unwrap();
        assert_eq!((layout, blocks), (Layout::SentencePerLine, vec![Block { lines: 0..4, sentences: 0..4 }]));
        // Two documents, each in any layout.
        let (layout, blocks) = detect("a b\n\nc\nd\ne\n").unwrap();
        assert_eq!(layout, Layout::Documents);
        assert_eq!(blocks, [Block { lines: 0..1, sentences: 0..2 }, Block { lines: 2..5, sentences: 2..4 }]);
        // An empty document: two empty lines in a row.
        let three = detect("a b\n\n\nc d\ne");
        assert_eq!(three, Err(Miscount { layout: Layout::Documents, parts: vec![0..1, 2..2, 3..5] }));
        // An empty last document: an empty line at the end.
        let (_, blocks) = detect("a b c\n").unwrap();
        assert_eq!(blocks, [Block { lines: 0..1, sentences: 0..2 }, Block { lines: 2..2, sentences: 2..4 }]);
        // No empty line and not one line per sentence.
        let (layout, blocks) = detect("a b\nc d e").unwrap();
        assert_eq!((layout, blocks), (Layout::Continuous, vec![Block { lines: 0..2, sentences: 0..4 }]));
    }

    #[test]
    fn one_document_per_line_counts_lines() {
        let docs = [0, 2, 3];
        let (layout, blocks) = detect(&lines("a b\n\nc d\n"), 4, &docs, Given::DocumentPerLine, &[]).unwrap();
        assert_eq!(layout, Layout::DocumentPerLine);
        assert_eq!(blocks[1], Block { lines: 1..2, sentences: 2..3 });
        let err = detect(&lines("a b\nc d\n"), 4, &docs, Given::DocumentPerLine, &[]).unwrap_err();
        assert_eq!(err, Miscount { layout: Layout::DocumentPerLine, parts: vec![0..1, 1..2] });
    }

    #[test]
    fn a_folder_has_one_file_per_document() {
        let docs = [0, 2];
        // Empty lines inside a file separate paragraphs; an empty file is a document with no output.
        let text = lines("a b\n\nc\nd\n");
        let (layout, blocks) = detect(&text, 4, &docs, Given::Detect, &[0..4, 4..4]).unwrap();
        assert_eq!(text.len(), 5);
        assert_eq!(layout, Layout::DocumentFiles);
        assert_eq!(blocks, [Block { lines: 0..4, sentences: 0..2 }, Block { lines: 4..4, sentences: 2..4 }]);
        let one_file = [0..2, 2..4][..1].to_vec();
        let err = detect(&text, 4, &docs, Given::Detect, &one_file).unwrap_err();
        assert_eq!(err, Miscount { layout: Layout::DocumentFiles, parts: one_file });
    }
}
