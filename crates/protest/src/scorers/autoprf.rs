//! AutoPRF: the pronoun precision/recall of Hardmeier & Federico (2010), compatible with their
//! scorer (`discomt.eval.PronounEvaluation`).
//!
//! For every source token `it`, `they`, `It` or `They` (not `IT`), counted under its lowercase
//! form, the target tokens aligned to it in the reference (R) and in the candidate (C) are
//! compared as strings: each candidate token matches a still unmatched equal reference token
//! (clipped counts). Precision is Σ matches / |C|, recall Σ matches / |R|, per pronoun, per
//! document (recall) and in total. Numbers are computed in single precision and printed with
//! four decimals as Java prints them, so that the output is the original's.
//!
//! A corpus is given by a stem `NAME` standing for `NAME.en`, `NAME.fr` and `NAME.en-fr.alig`
//! (the language suffixes can be changed). The files are read line by line, in step; memory
//! holds the counts only.

use crate::error::{Error, Result};
use crate::model::alignment::{self, Links};
use crate::scorers::apt::words::{reuse, split_spaces};
use crate::scorers::links;
use crate::scorers::numbers::java_fixed4;
use crate::scorers::scan::WordScan;
use crate::text_file::LineReader;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The source tokens the original scorer evaluates, exactly as written.
pub const TRIGGERS: [&str; 4] = ["it", "they", "It", "They"];

/// The three files a stem stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlignedCorpus {
    pub source: PathBuf,
    pub target: PathBuf,
    pub alignment: PathBuf,
}

impl AlignedCorpus {
    /// `STEM.SOURCE`, `STEM.TARGET` and `STEM.SOURCE-TARGET.alig`.
    pub fn from_stem(stem: &Path, source: &str, target: &str) -> Self {
        let with = |suffix: String| {
            let mut name = stem.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        };
        AlignedCorpus {
            source: with(format!(".{source}")),
            target: with(format!(".{target}")),
            alignment: with(format!(".{source}-{target}.alig")),
        }
    }
}

/// Counts of one pronoun: matched candidate tokens, aligned reference and candidate tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub matches: u32,
    pub reference: u32,
    pub candidate: u32,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.matches += other.matches;
        self.reference += other.reference;
        self.candidate += other.candidate;
    }
}

/// One document's counts per (lowercased) pronoun.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Document {
    pub id: String,
    pub counts: BTreeMap<String, Counts>,
}

/// The scores of one candidate against one reference.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AutoPrf {
    pub documents: Vec<Document>,
}

/// Where documents start: a 0-based sentence number per line, optionally followed by a document
/// id (else the id is `Document N`, counted from 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentStarts {
    pub path: PathBuf,
    pub starts: Vec<(u32, String)>,
}

impl DocumentStarts {
    pub fn read(path: &Path) -> Result<DocumentStarts> {
        Ok(DocumentStarts { path: path.to_path_buf(), starts: read_document_starts(path)? })
    }
}

fn read_document_starts(path: &Path) -> Result<Vec<(u32, String)>> {
    let mut reader = LineReader::open(path)?;
    let mut starts = Vec::new();
    while reader.advance()? {
        let line = reader.line();
        // Java: line.split("\\s", 2).
        let (number, id) = match line.split_once(|c: char| " \t\u{b}\u{c}\r".contains(c)) {
            Some((number, id)) => (number, id.to_owned()),
            None => (line, format!("Document {}", starts.len())),
        };
        let start = number.parse::<u32>().map_err(|_| {
            reader.error(format!(
                "expected a sentence number (counted from 0), optionally followed by an id; found {line:?}"
            ))
        })?;
        starts.push((start, id));
    }
    if starts.is_empty() {
        return Err(Error::whole_file(path, "lists no document"));
    }
    Ok(starts)
}

/// Scores `candidate` against `reference` over the documents starting at `starts`.
pub fn evaluate(reference: &AlignedCorpus, candidate: &AlignedCorpus, documents: &DocumentStarts) -> Result<AutoPrf> {
    let files = [reference, candidate].map(|c| [&c.source, &c.target, &c.alignment].map(PathBuf::as_path));
    crate::progress::stage_bytes("Scoring AutoPRF", crate::progress::file_bytes(files.concat()));
    let starts = &documents.starts;
    let path = &documents.path;
    let mut documents: Vec<Document> =
        starts.iter().map(|(_, id)| Document { id: id.clone(), counts: BTreeMap::new() }).collect();
    let mut reference = CorpusReader::open(reference)?;
    let mut candidate = CorpusReader::open(candidate)?;
    let triggers = WordScan::new(TRIGGERS.map(str::as_bytes), b" ");
    // The current sentence's links, triggers and target tokens, kept from line to line.
    let (mut reference_links, mut candidate_links) = (Links::new(), Links::new());
    let mut found: Vec<(u32, &'static str)> = Vec::new();
    let mut positions: Vec<u32> = Vec::new();
    let (mut reference_words, mut candidate_words): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut document = 0;
    let mut sentence = 0u32;
    loop {
        if !advance_both(&mut reference, &mut candidate, sentence)? {
            break;
        }
        let line = reference.source.line();
        let tokens = source_tokens(&reference, &candidate, sentence)?;
        // The original moves to the next document once a token lies at or after its start.
        while document + 1 < starts.len() && sentence >= starts[document + 1].0 && tokens > 0 {
            document += 1;
        }
        // The triggers are found whole in the line, a token's position being the spaces before
        // it; only the sentences with one are looked at closely (a quarter of a news corpus).
        found.clear();
        let position = |at: usize| memchr::memchr_iter(b' ', &line.as_bytes()[..at]).count() as u32;
        found.extend(triggers.each(line.as_bytes()).map(|(at, len)| {
            // Counted under its lowercase form.
            let pronoun = match &line[at..at + len] {
                "It" | "it" => "it",
                _ => "they",
            };
            (position(at), pronoun)
        }));
        if !found.is_empty() {
            positions.clear();
            positions.extend(found.iter().map(|&(position, _)| position));
            let mut reference_target = reuse(std::mem::take(&mut reference_words));
            let mut candidate_target = reuse(std::mem::take(&mut candidate_words));
            java_tokens_into(reference.target.line(), &mut reference_target);
            java_tokens_into(candidate.target.line(), &mut candidate_target);
            reference.align(&positions, tokens, reference_target.len(), &mut reference_links)?;
            candidate.align(&positions, tokens, candidate_target.len(), &mut candidate_links)?;
            let counts = &mut documents[document].counts;
            for &(position, pronoun) in &found {
                let found = clipped(
                    &aligned_to(&reference_links, position, &reference_target),
                    &aligned_to(&candidate_links, position, &candidate_target),
                );
                match counts.get_mut(pronoun) {
                    Some(counts) => counts.add(found),
                    None => counts.entry(pronoun.to_owned()).or_default().add(found),
                }
            }
            reference_words = reuse(reference_target);
            candidate_words = reuse(candidate_target);
        }
        sentence += 1;
    }
    if let Some((start, _)) = starts.iter().find(|(start, _)| *start > sentence) {
        return Err(Error::whole_file(
            path,
            format!("document start {start} is past the end of the corpus ({sentence} sentences)"),
        ));
    }
    Ok(AutoPrf { documents })
}

/// Moves both corpora to their next sentence; false when both have ended, an error when only one
/// has.
fn advance_both(reference: &mut CorpusReader, candidate: &mut CorpusReader, sentence: u32) -> Result<bool> {
    let (more_reference, more_candidate) = (reference.advance()?, candidate.advance()?);
    if more_reference == more_candidate {
        return Ok(more_reference);
    }
    let (shorter, longer) = if more_reference { (candidate, reference) } else { (reference, candidate) };
    Err(Error::whole_file(
        &shorter.files.source,
        format!("has {sentence} sentences but {} has more", longer.files.source.display()),
    ))
}

/// The tokens of the current source sentence, which both corpora must count alike.
fn source_tokens(reference: &CorpusReader, candidate: &CorpusReader, sentence: u32) -> Result<usize> {
    let line = reference.source.line();
    let tokens = java_token_count(line);
    // The candidate's source is most often the same line, counted already.
    let candidate_line = candidate.source.line();
    let candidate_tokens = if candidate_line == line { tokens } else { java_token_count(candidate_line) };
    if tokens != candidate_tokens {
        return Err(candidate.source.error(format!(
            "has {candidate_tokens} tokens but line {} of {} has {tokens}; both sources must be tokenised alike",
            sentence + 1,
            reference.files.source.display(),
        )));
    }
    Ok(tokens)
}

/// Clipped matching of one pronoun's aligned tokens.
fn clipped(reference: &[&str], candidate: &[&str]) -> Counts {
    let mut unmatched: Vec<&str> = reference.to_vec();
    let mut matches = 0;
    for word in candidate {
        if let Some(i) = unmatched.iter().position(|r| r == word) {
            unmatched.swap_remove(i);
            matches += 1;
        }
    }
    Counts { matches, reference: reference.len() as u32, candidate: candidate.len() as u32 }
}

/// Java's `line.split(" ")`: single spaces, trailing empty tokens dropped (but an empty line is
/// one empty token).
#[cfg(test)]
fn java_tokens(line: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    java_tokens_into(line, &mut tokens);
    tokens
}

/// [`java_tokens`] added to a list kept from line to line.
fn java_tokens_into<'l>(line: &'l str, tokens: &mut Vec<&'l str>) {
    let start = tokens.len();
    if line.is_empty() {
        tokens.push("");
        return;
    }
    tokens.extend(split_spaces(line));
    while tokens.len() > start && tokens.last() == Some(&"") {
        tokens.pop();
    }
}

/// `java_tokens(line).len()`, without making the tokens.
fn java_token_count(line: &str) -> usize {
    if line.is_empty() {
        return 1;
    }
    let trailing = line.len() - line.trim_end_matches(' ').len();
    if trailing == line.len() {
        return 0;
    }
    memchr::memchr_iter(b' ', line.as_bytes()).count() + 1 - trailing
}

/// One aligned corpus read line by line.
struct CorpusReader {
    files: AlignedCorpus,
    source: LineReader,
    target: LineReader,
    alignment: LineReader,
}

impl CorpusReader {
    fn open(files: &AlignedCorpus) -> Result<Self> {
        let retained = files.alignment.with_extension("lines-retained");
        if retained.exists() {
            return Err(Error::whole_file(retained, "alignment filters (.lines-retained) are not supported"));
        }
        Ok(CorpusReader {
            source: LineReader::open(&files.source)?,
            target: LineReader::open(&files.target)?,
            alignment: LineReader::open(&files.alignment)?,
            files: files.clone(),
        })
    }

    /// The next sentence of all three files; false at the end. Empty lines may follow the last
    /// alignment line (the news corpus's MT alignment has one).
    fn advance(&mut self) -> Result<bool> {
        let (source, target) = (self.source.advance()?, self.target.advance()?);
        if source != target {
            let (short, long) = if source { (&self.target, &self.source) } else { (&self.source, &self.target) };
            return Err(Error::whole_file(
                short.path(),
                format!("has fewer lines than {} ({})", long.path().display(), long.line_number()),
            ));
        }
        if !source {
            while self.alignment.advance()? {
                if !self.alignment.line().trim().is_empty() {
                    return Err(self.alignment.error(format!(
                        "{} has only {} lines; this alignment has more",
                        self.files.source.display(),
                        self.source.line_number()
                    )));
                }
            }
            return Ok(false);
        }
        if !self.alignment.advance()? {
            return Err(Error::whole_file(
                &self.files.alignment,
                format!("has fewer lines than {} ({})", self.files.source.display(), self.source.line_number()),
            ));
        }
        Ok(true)
    }

    /// Reads the links of the source tokens `sources` from the alignment line of a sentence of
    /// `source_len` tokens translated by `target` tokens. A pair whose source index is past the
    /// end of the sentence is ignored, as the original ignores it; a target index past the end is
    /// an error (the original would read a token of a later sentence).
    fn align(&self, sources: &[u32], source_len: usize, target: usize, links: &mut Links) -> Result<()> {
        let line = self.alignment.line();
        let below = u32::try_from(source_len).unwrap_or(u32::MAX);
        let reach = links::links_and_reach(line, sources, below, links).map_err(|m| self.alignment.error(m))?;
        if reach.is_none_or(|t| (t as usize) < target) {
            return Ok(());
        }
        // The message names the first such pair of all the sorted links.
        alignment::parse_line_into(line, links).map_err(|m| self.alignment.error(m))?;
        match links.iter().find(|&&(s, t)| (s as usize) < source_len && t as usize >= target) {
            Some((s, t)) => Err(self.alignment.error(format!(
                "pair {s}-{t}: target index {t} is past the end of line {} of {} ({target} tokens)",
                self.target.line_number(),
                self.files.target.display(),
            ))),
            None => Ok(()),
        }
    }
}

/// The target tokens aligned to one source token, in the order of the (sorted) links.
fn aligned_to<'t>(links: &Links, position: u32, target: &[&'t str]) -> Vec<&'t str> {
    let from = links.partition_point(|&(s, _)| s < position);
    links[from..].iter().take_while(|&&(s, _)| s == position).map(|&(_, t)| target[t as usize]).collect()
}

impl AutoPrf {
    /// The pronouns the original reports: those with candidate tokens in some document, sorted.
    pub fn pronouns(&self) -> Vec<&str> {
        let mut pronouns: Vec<&str> = self
            .documents
            .iter()
            .flat_map(|d| d.counts.iter().filter(|(_, c)| c.candidate > 0).map(|(p, _)| p.as_str()))
            .collect();
        pronouns.sort_unstable();
        pronouns.dedup();
        pronouns
    }

    /// Counts of one pronoun over all documents.
    pub fn pronoun_total(&self, pronoun: &str) -> Counts {
        let mut total = Counts::default();
        for d in &self.documents {
            total.add(d.counts.get(pronoun).copied().unwrap_or_default());
        }
        total
    }

    /// Counts over the reported pronouns and all documents.
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for p in self.pronouns() {
            total.add(self.pronoun_total(p));
        }
        total
    }

    /// The original's output: with `per_document`, its recall table per document (what it
    /// prints at verbosity 1), then precision, recall and F1 per pronoun and in total.
    pub fn report(&self, per_document: bool) -> String {
        let pronouns = self.pronouns();
        let mut out = String::new();
        if per_document {
            out.push_str("Pronoun translation recall per document:\n");
            out.push_str(&" ".repeat(20));
            for p in &pronouns {
                let _ = write!(out, "{p:>9}   ");
            }
            out.push('\n');
            for d in &self.documents {
                let _ = write!(out, "{:>18}  ", d.id);
                let (mut matches, mut reference) = (0, 0);
                for p in &pronouns {
                    let c = d.counts.get(*p).copied().unwrap_or_default();
                    if c.reference > 0 {
                        let _ = write!(out, "{:4}/{:4}   ", c.matches, c.reference);
                    } else {
                        out.push_str("   -/   -   ");
                    }
                    matches += c.matches;
                    reference += c.reference;
                }
                let _ = writeln!(out, "{matches:4}/{reference:4}   {}", java_fixed4(ratio(matches, reference)));
            }
            out.push_str(&" ".repeat(20));
            for p in &pronouns {
                let c = self.pronoun_total(p);
                let _ = write!(out, "{:4}/{:4}   ", c.matches, c.reference);
            }
            let t = self.total();
            let _ =
                write!(out, "{:4}/{:4}   {}\n\n", t.matches, t.reference, java_fixed4(ratio(t.matches, t.reference)));
        }
        out.push_str("Precision and recall per input pronoun:\n\n");
        out.push_str("            Precision            Recall              F1\n\n");
        for p in &pronouns {
            let c = self.pronoun_total(p);
            let _ = writeln!(out, "{p:>8}   {}", scores(c));
        }
        let _ = writeln!(out, "\nTOTAL      {}", scores(self.total()));
        out
    }
}

/// `m/c precision m/r recall F1` as the original prints it.
fn scores(c: Counts) -> String {
    let (precision, recall) = (ratio(c.matches, c.candidate), ratio(c.matches, c.reference));
    let f1 = 2.0 * precision * recall / (precision + recall);
    format!(
        "{:4}/{:4}   {}   {:4}/{:4}   {}   {}",
        c.matches,
        c.candidate,
        java_fixed4(precision),
        c.matches,
        c.reference,
        java_fixed4(recall),
        java_fixed4(f1)
    )
}

/// A ratio in single precision, as the original computes it (0/0 is NaN).
fn ratio(numerator: u32, denominator: u32) -> f32 {
    numerator as f32 / denominator as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_counts() {
        assert_eq!(clipped(&["il", "que"], &["il", "il", "que"]), Counts { matches: 2, reference: 2, candidate: 3 });
        assert_eq!(clipped(&["il", "il"], &["il"]), Counts { matches: 1, reference: 2, candidate: 1 });
        assert_eq!(clipped(&[], &["il"]), Counts { matches: 0, reference: 0, candidate: 1 });
        assert_eq!(clipped(&["Il"], &["il"]).matches, 0, "exact string comparison");
    }

    #[test]
    fn java_split() {
        assert_eq!(java_tokens("a b  c  "), ["a", "b", "", "c"]);
        assert_eq!(java_tokens(""), [""]);
        assert_eq!(java_tokens("   "), Vec::<&str>::new());
        for line in ["a b  c  ", "", "   ", " a", "a", "a  b", "\tit ", "It is"] {
            assert_eq!(java_token_count(line), java_tokens(line).len(), "{line:?}");
        }
    }

    #[test]
    fn stems() {
        let c = AlignedCorpus::from_stem(Path::new("dir/mt-output"), "en", "fr");
        assert_eq!(c.source, Path::new("dir/mt-output.en"));
        assert_eq!(c.target, Path::new("dir/mt-output.fr"));
        assert_eq!(c.alignment, Path::new("dir/mt-output.en-fr.alig"));
    }
}
