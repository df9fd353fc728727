//! How an output was segmented, for people: its layout, how the sentences got their
//! translations, and which cannot be vouched for — sentences counted from 1, places named by the
//! output's line (and file, for a folder).

use super::{LeftOut, excerpt};
use crate::ingest::resegment::Layout;
use std::ops::Range;

/// How the output was segmented, for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub layout: Layout,
    /// Lines of the output and blocks they were read as.
    pub lines: usize,
    pub blocks: usize,
    /// A folder's files, in order: each one's name and its lines among the output's.
    pub files: Vec<(String, Range<usize>)>,
    /// Sentences per origin, in the order of [`crate::model::Origin`].
    pub origins: [usize; 6],
    /// Sentences (0-based) whose boundaries are of low confidence.
    pub low_confidence: Vec<u32>,
    /// Sentences (0-based) whose boundaries the output left open, but whose translation is word
    /// for word a stored translation's of the same sentence, which vouches for them
    /// (`align::bridge::vouched`): not of low confidence.
    pub vouched: Vec<u32>,
    /// Sentences (0-based) the output has nothing for, outside documents with no output at all,
    /// with the beginning of their source.
    pub omitted: Vec<(u32, String)>,
    pub left_out: Vec<LeftOut>,
    /// Documents (0-based) for which the output has nothing.
    pub empty_documents: Vec<usize>,
    /// Output given one line per sentence: the runs of sentences (0-based) whose lines fitted
    /// other sentences and were moved.
    pub moved: Vec<Range<u32>>,
}

/// The most omitted sentences named one by one.
const OMITTED_NAMED: usize = 10;

impl Summary {
    /// The summary as lines for people.
    pub fn lines(&self) -> Vec<String> {
        let count = crate::store::summary::count;
        let (what, how_many) = match self.layout {
            Layout::SentencePerLine | Layout::Continuous => ("line", self.lines),
            Layout::DocumentFiles => ("file", self.files.len()),
            _ => ("document", self.blocks),
        };
        let mut out = vec![format!("layout: {} ({})", self.layout.describe(), count(how_many, what))];
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
        if !self.omitted.is_empty() {
            out.push(self.omitted_line());
        }
        if !self.low_confidence.is_empty() {
            let runs = runs(&self.low_confidence);
            out.push(format!(
                "low confidence: {} (left to people by the automatic match): {}",
                count(self.low_confidence.len(), "sentence"),
                numbers(&runs)
            ));
        }
        if !self.vouched.is_empty() {
            out.push(format!(
                "vouched for by a translation in the master (the same words for the sentence): {}: {}",
                count(self.vouched.len(), "sentence"),
                numbers(&runs(&self.vouched))
            ));
        }
        if !self.empty_documents.is_empty() {
            let list: Vec<String> = self.empty_documents.iter().map(|d| (d + 1).to_string()).collect();
            out.push(format!("no output for document {}: its sentences are empty", list.join(", ")));
        }
        for passage in &self.left_out {
            out.push(format!(
                "left out (translates no source sentence): {}, before sentence {}: “{}”",
                self.place(passage.line),
                passage.before + 1,
                excerpt(&passage.text, 60)
            ));
        }
        out
    }

    /// The omitted sentences, named.
    fn omitted_line(&self) -> String {
        let named: Vec<String> = self
            .omitted
            .iter()
            .take(OMITTED_NAMED)
            .map(|(s, source)| format!("sentence {} (“{}”)", s + 1, excerpt(source, 40)))
            .collect();
        let more = self.omitted.len().saturating_sub(OMITTED_NAMED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        format!("omitted (nothing in the output translates it): {}{more}", named.join(", "))
    }

    /// Where line `line` (0-based, of the whole output) is, for people: `line 5`, or in a folder
    /// `003.txt, line 5`.
    pub fn place(&self, line: usize) -> String {
        match self.files.iter().find(|(_, lines)| lines.contains(&line)) {
            Some((name, lines)) => format!("{name}, line {}", line - lines.start + 1),
            None => format!("line {}", line + 1),
        }
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
pub(super) fn numbers(runs: &[Range<u32>]) -> String {
    let shown: Vec<String> = runs
        .iter()
        .take(20)
        .map(|r| if r.len() == 1 { (r.start + 1).to_string() } else { format!("{}–{}", r.start + 1, r.end) })
        .collect();
    let more = runs.len().saturating_sub(20);
    if more > 0 { format!("{} and {more} more", shown.join(", ")) } else { shown.join(", ") }
}
