//! Plain-text inputs: tokenised corpora, Moses alignments and document-start lists.
//! Every error names the file and the 1-based line.

use crate::error::{Error, Problems, Result};
use crate::model::alignment::{self, Links};
use crate::model::tokens;
use std::path::Path;

/// Reads a UTF-8 text file as lines (a final newline is optional; `\r\n` is accepted).
pub fn read_lines(path: &Path) -> Result<Vec<String>> {
    lines(path, std::fs::read(path).map_err(|e| Error::io(path, e))?)
}

/// The lines of a text file's content; `path` is only used in messages. The `from_bytes` of the
/// readers below, which each take these lines.
pub fn lines(path: &Path, bytes: Vec<u8>) -> Result<Vec<String>> {
    if bytes.iter().take(8192).any(|&b| b == 0) {
        return Err(Error::whole_file(path, "this is a binary file, not text"));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::at_line(path, line, "not valid UTF-8 text")
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Ok(text.lines().map(str::to_owned).collect())
}

/// Reads a tokenised corpus: one sentence per line, tokens separated by single spaces.
pub fn read_corpus(path: &Path) -> Result<Vec<String>> {
    corpus(path, read_lines(path)?)
}

pub fn corpus(path: &Path, lines: Vec<String>) -> Result<Vec<String>> {
    for (i, line) in lines.iter().enumerate() {
        if let Some(why) = tokens::malformed(line) {
            return Err(Error::at_line(path, i + 1, format!("the sentence {why}")));
        }
    }
    Ok(lines)
}

/// Reads a Moses alignment file for `source`/`target` sentences and checks every pair against
/// the sentences' token counts. Surplus empty lines at the very end are ignored (the news
/// corpus's MT alignment has one).
pub fn read_alignment(path: &Path, source: &[String], target: &[String], target_name: &Path) -> Result<Vec<Links>> {
    read_alignment_ordered(path, PairOrder::SourceTarget, source, target, target_name)
}

/// The order of the two numbers of each pair in an alignment file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PairOrder {
    /// `i-j`, source index first: Moses, fast_align, eflomal, awesome-align.
    #[default]
    SourceTarget,
    /// `j-i`, target index first.
    TargetSource,
}

impl PairOrder {
    fn other(self) -> PairOrder {
        match self {
            PairOrder::SourceTarget => PairOrder::TargetSource,
            PairOrder::TargetSource => PairOrder::SourceTarget,
        }
    }

    /// A (source, target) link as the file writes it.
    fn written(self, (s, t): (u32, u32)) -> String {
        match self {
            PairOrder::SourceTarget => format!("{s}-{t}"),
            PairOrder::TargetSource => format!("{t}-{s}"),
        }
    }
}

/// What to do with a pair pointing outside its sentences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OutOfRange {
    /// Every such pair is a problem (all of them reported at once).
    #[default]
    Refuse,
    /// Such pairs are left out, and counted ([`Dropped`]): `protest import --drop-bad-links`,
    /// and the readings of the shipped news corpus, whose MT alignment has 40.
    Drop,
}

/// The pairs left out of an alignment by [`OutOfRange::Drop`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dropped {
    pub pairs: usize,
    /// The 1-based lines they were on, ascending.
    pub lines: Vec<usize>,
}

impl Dropped {
    /// "dropped 40 pairs outside their sentences on 37 lines: 869, 1022, …", or `None`.
    pub fn describe(&self, path: &Path) -> Option<String> {
        if self.pairs == 0 {
            return None;
        }
        const LISTED: usize = 20;
        let mut lines: Vec<String> = self.lines.iter().take(LISTED).map(usize::to_string).collect();
        if self.lines.len() > LISTED {
            lines.push("…".into());
        }
        let (pairs, on) = (plural(self.pairs, "pair"), plural(self.lines.len(), "line"));
        Some(format!("{}: dropped {pairs} outside their sentences on {on}: {}", path.display(), lines.join(", ")))
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// An alignment as read: the (source, target) links of every sentence, and what was dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AlignmentRead {
    pub links: Vec<Links>,
    pub dropped: Dropped,
}

/// Keeps the links of a sentence pair of `source_len` and `target_len` tokens that fall inside
/// both; returns how many it left out. The one rule for links outside their sentences, wherever
/// they are dropped rather than refused.
pub fn keep_in_range(links: &mut Links, source_len: u32, target_len: u32) -> usize {
    let before = links.len();
    links.retain(|&(s, t)| s < source_len && t < target_len);
    before - links.len()
}

/// [`read_alignment`] for a file whose pairs may be written target index first; the links
/// returned are always (source, target), and messages quote pairs as the file writes them.
pub fn read_alignment_ordered(
    path: &Path,
    order: PairOrder,
    source: &[String],
    target: &[String],
    target_name: &Path,
) -> Result<Vec<Links>> {
    Ok(alignment(path, read_lines(path)?, order, OutOfRange::Refuse, source, target, target_name)?.links)
}

/// The alignment in `lines` (of the file `path`), every problem of it reported at once (up to
/// [`Problems::SHOWN`]), pairs outside their sentences refused or dropped as `out_of_range` says.
/// Every malformed line and every pair outside its sentences is a problem; when the pairs would
/// all fit read the other way round (`j-i` for `i-j`), the first line says so and how to ask for
/// it.
pub fn alignment(
    path: &Path,
    mut lines: Vec<String>,
    order: PairOrder,
    out_of_range: OutOfRange,
    source: &[String],
    target: &[String],
    target_name: &Path,
) -> Result<AlignmentRead> {
    check_counts(path, &mut lines, source, target, target_name)?;
    let mut problems = Problems::new();
    let mut read = AlignmentRead { links: Vec::with_capacity(lines.len()), dropped: Dropped::default() };
    // Whether every pair would fit its sentences read the other way round.
    let mut fits_reversed = true;
    let mut outside = 0;
    for (i, line) in lines.iter().enumerate() {
        let mut links = match parse_ordered(line, order) {
            Ok(links) => links,
            Err(m) => {
                problems.push(Error::at_line(path, i + 1, m));
                read.links.push(Links::new());
                continue;
            }
        };
        let (src_len, tgt_len) = (tokens::token_count(&source[i]) as u32, tokens::token_count(&target[i]) as u32);
        fits_reversed &= links.iter().all(|&(s, t)| t < src_len && s < tgt_len);
        match out_of_range {
            OutOfRange::Drop => {
                let dropped = keep_in_range(&mut links, src_len, tgt_len);
                if dropped > 0 {
                    read.dropped.pairs += dropped;
                    read.dropped.lines.push(i + 1);
                }
            }
            OutOfRange::Refuse => {
                let line = Line { path, number: i + 1, order, target_name };
                outside += line.refuse_outside(&links, (src_len, tgt_len), &mut problems);
            }
        }
        read.links.push(links);
    }
    if let Some(hint) = outside_hint(path, order, outside, fits_reversed) {
        problems.hint(hint);
    }
    problems.into_result(read)
}

/// Checks that the translation has a sentence per source sentence and the alignment a line per
/// sentence, once surplus empty lines at the very end are left out of `lines`.
fn check_counts(
    path: &Path,
    lines: &mut Vec<String>,
    source: &[String],
    target: &[String],
    target_name: &Path,
) -> Result<()> {
    if target.len() != source.len() {
        return Err(Error::whole_file(
            target_name,
            format!(
                "has {} sentences but the source has {}; a translation needs one line per source sentence",
                target.len(),
                source.len()
            ),
        ));
    }
    while lines.len() > source.len() && lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if lines.len() != source.len() {
        return Err(Error::whole_file(
            path,
            format!(
                "has {} lines but the corpora have {} sentences; the alignment needs one line per sentence",
                lines.len(),
                source.len()
            ),
        ));
    }
    Ok(())
}

/// The (source, target) links of one line written in `order`, sorted as a line read `i-j` is.
fn parse_ordered(line: &str, order: PairOrder) -> std::result::Result<Links, alignment::MalformedPair> {
    let mut links = alignment::parse_line(line)?;
    if order == PairOrder::TargetSource {
        links = links.into_iter().map(|(t, s)| (s, t)).collect();
        links.sort_unstable();
    }
    Ok(links)
}

/// A line of an alignment file, as its messages name it.
struct Line<'a> {
    path: &'a Path,
    number: usize,
    order: PairOrder,
    target_name: &'a Path,
}

impl Line<'_> {
    /// Reports each pair of `links` outside its sentences of `(source, target)` tokens as a
    /// problem, quoted as the file writes it; returns how many there were.
    fn refuse_outside(&self, links: &Links, (src_len, tgt_len): (u32, u32), problems: &mut Problems) -> usize {
        let mut outside = 0;
        for &(s, t) in links.iter().filter(|&&(s, t)| s >= src_len || t >= tgt_len) {
            outside += 1;
            let what = if s >= src_len {
                format!("source index {s} is out of range (the source sentence has {src_len} tokens)")
            } else {
                format!(
                    "target index {t} is out of range ({} has {tgt_len} tokens in this sentence)",
                    self.target_name.display()
                )
            };
            problems.push(Error::at_line(
                self.path,
                self.number,
                format!("pair {}: {what}", self.order.written((s, t))),
            ));
        }
        outside
    }
}

/// What to do about `outside` pairs outside their sentences: read the file the other way round
/// when every pair would fit so, or else leave them out.
fn outside_hint(path: &Path, order: PairOrder, outside: usize, fits_reversed: bool) -> Option<Error> {
    if outside == 0 {
        return None;
    }
    if fits_reversed {
        let (written, option) = match order.other() {
            PairOrder::TargetSource => ("target index first (j-i)", "run again with --reversed"),
            PairOrder::SourceTarget => ("source index first (i-j)", "run again without --reversed"),
        };
        return Some(Error::whole_file(
            path,
            format!("every pair fits its sentences when read {written}: if the aligner wrote them so, {option}"),
        ));
    }
    Some(Error::whole_file(
        path,
        format!(
            "pairs outside their sentences: {outside}; to leave them out and go on, run again with --drop-bad-links"
        ),
    ))
}

/// [`read_alignment`] for files with links outside their sentences (the DiscoMT news corpus's
/// shipped MT alignment has 40): those links are left out. Also returns how many were.
pub fn read_alignment_lenient(path: &Path, source: &[String], target: &[String]) -> Result<(Vec<Links>, usize)> {
    let read = alignment(path, read_lines(path)?, PairOrder::SourceTarget, OutOfRange::Drop, source, target, path)?;
    Ok((read.links, read.dropped.pairs))
}

/// Reads document starts: 0-based sentence numbers, one per line, ascending from 0.
pub fn read_document_starts(path: &Path, sentences: usize) -> Result<Vec<u32>> {
    document_starts(path, &read_lines(path)?, sentences)
}

pub fn document_starts(path: &Path, lines: &[String], sentences: usize) -> Result<Vec<u32>> {
    let mut starts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let n: u32 =
            line.parse().map_err(|_| Error::at_line(path, i + 1, format!("'{line}' is not a sentence number")))?;
        if starts.is_empty() && n != 0 {
            return Err(Error::at_line(
                path,
                i + 1,
                "the first document must start at the first sentence (0 in the file)",
            ));
        }
        if starts.last().is_some_and(|&last| n <= last) {
            return Err(Error::at_line(path, i + 1, format!("document starts must increase ({n} does not)")));
        }
        if n as usize >= sentences {
            return Err(Error::at_line(
                path,
                i + 1,
                format!("{n} (sentence {}) does not exist (the corpora have {sentences})", u64::from(n) + 1),
            ));
        }
        starts.push(n);
    }
    if starts.is_empty() {
        return Err(Error::whole_file(path, "no document starts found"));
    }
    Ok(starts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn file(dir: &tempfile::TempDir, name: &str, content: &[u8]) -> std::path::PathBuf {
        let p = dir.path().join(name);
        fs::write(&p, content).unwrap();
        p
    }

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn corpus_lines_and_their_errors() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(read_corpus(&file(&d, "ok", b"a b\r\nc\n")).unwrap(), lines(&["a b", "c"]));
        let err = read_corpus(&file(&d, "sp", b"a b\nc  d\n")).unwrap_err().to_string();
        assert!(err.ends_with("sp: line 2: the sentence has two spaces in a row (an empty token)"), "{err}");
        let err = read_corpus(&file(&d, "bin", b"a\0b")).unwrap_err().to_string();
        assert!(err.contains("binary"), "{err}");
        let err = read_corpus(&file(&d, "latin1", b"ok\ncaf\xe9\n")).unwrap_err().to_string();
        assert!(err.ends_with("latin1: line 2: not valid UTF-8 text"), "{err}");
        let err = read_corpus(&d.path().join("missing")).unwrap_err().to_string();
        assert!(err.contains("missing"), "{err}");
    }

    #[test]
    fn alignment_checks_counts_and_ranges() {
        let d = tempfile::tempdir().unwrap();
        let src = lines(&["a b", "c"]);
        let tgt = lines(&["x", "y z"]);
        let tname = Path::new("t.fr");
        let ok = read_alignment(&file(&d, "ok", b"0-0 1-0\n0-1\n\n"), &src, &tgt, tname).unwrap();
        assert_eq!(ok, vec![vec![(0, 0), (1, 0)], vec![(0, 1)]]);
        let err = read_alignment(&file(&d, "short", b"0-0\n"), &src, &tgt, tname).unwrap_err().to_string();
        assert!(err.contains("short: has 1 lines but the corpora have 2 sentences"), "{err}");
        let err = read_alignment(&file(&d, "range", b"0-0\n0-2\n"), &src, &tgt, tname).unwrap_err().to_string();
        assert!(err.contains("range: line 2: pair 0-2: target index 2 is out of range (t.fr has 2 tokens"), "{err}");
        let err = read_alignment(&file(&d, "src", b"2-0\n0-0\n"), &src, &tgt, tname).unwrap_err().to_string();
        assert!(err.contains("src: line 1: pair 2-0: source index 2 is out of range"), "{err}");
        let err = read_alignment(&file(&d, "bad", b"0-0\n0:1\n"), &src, &tgt, tname).unwrap_err().to_string();
        assert!(err.contains("bad: line 2: malformed pair '0:1'"), "{err}");
        // Found by fuzzing: a target with fewer sentences than the source used to panic.
        let err = read_alignment(&file(&d, "ok2", b"0-0\n0-0\n"), &src, &tgt[..1], tname).unwrap_err().to_string();
        assert!(err.contains("t.fr: has 1 sentences but the source has 2"), "{err}");
    }

    #[test]
    fn reversed_alignment_files_are_read_target_first() {
        let d = tempfile::tempdir().unwrap();
        let src = lines(&["a b", "c"]);
        let tgt = lines(&["x", "y z"]);
        let tname = Path::new("t.fr");
        let reversed = file(&d, "rev", b"0-1 0-0\n1-0\n");
        let links = read_alignment_ordered(&reversed, PairOrder::TargetSource, &src, &tgt, tname).unwrap();
        assert_eq!(links, vec![vec![(0, 0), (1, 0)], vec![(0, 1)]]);
        let err = read_alignment_ordered(&file(&d, "far", b"0-0\n0-1\n"), PairOrder::TargetSource, &src, &tgt, tname)
            .unwrap_err()
            .to_string();
        assert!(err.contains("far: line 2: pair 0-1: source index 1 is out of range"), "{err}");
    }

    #[test]
    fn document_starts() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(read_document_starts(&file(&d, "ok", b"0\n3\n\n"), 5).unwrap(), vec![0, 3]);
        let err = read_document_starts(&file(&d, "first", b"1\n3\n"), 5).unwrap_err().to_string();
        assert!(
            err.contains("first: line 1: the first document must start at the first sentence (0 in the file)"),
            "{err}"
        );
        let err = read_document_starts(&file(&d, "order", b"0\n3\n2\n"), 5).unwrap_err().to_string();
        assert!(err.contains("order: line 3"), "{err}");
        let err = read_document_starts(&file(&d, "far", b"0\n5\n"), 5).unwrap_err().to_string();
        assert!(err.contains("far: line 2: 5 (sentence 6) does not exist"), "{err}");
        let err = read_document_starts(&file(&d, "nan", b"0\nx\n"), 5).unwrap_err().to_string();
        assert!(err.contains("nan: line 2: 'x' is not a sentence number"), "{err}");
    }
}
