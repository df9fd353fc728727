//! Word alignments in Moses/Pharaoh format: one line per sentence, `i-j` pairs, 0-based source
//! index `i` and target index `j` (docs/domain.md, "Concepts").

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The links of one sentence, sorted by source then target index, without duplicates.
pub type Links = Vec<(u32, u32)>;

/// A source↔translation alignment: the links of each sentence.
///
/// Kept as one list of every sentence's links, one after the other, and where each sentence's
/// end: a 100× master holds 555,000 aligned sentences, which as a list each took 40 bytes of
/// bookkeeping apiece and an allocation each to build and to free.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Alignment {
    links: Links,
    /// `ends[i]`: where the links of sentence `i` end in `links` (and those of `i + 1` start).
    ends: Vec<usize>,
}

impl Alignment {
    pub fn new(sentences: Vec<Links>) -> Self {
        let mut alignment = Alignment {
            links: Vec::with_capacity(sentences.iter().map(Vec::len).sum()),
            ends: Vec::with_capacity(sentences.len()),
        };
        for mut links in sentences {
            links.sort_unstable();
            links.dedup();
            alignment.push(&links);
        }
        alignment
    }

    /// Adds the next sentence's links (sorted, without duplicates).
    fn push(&mut self, links: &[(u32, u32)]) {
        self.links.extend_from_slice(links);
        self.ends.push(self.links.len());
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn sentence(&self, sentence: u32) -> &[(u32, u32)] {
        let i = sentence as usize;
        match self.ends.get(i) {
            Some(&end) => &self.links[if i == 0 { 0 } else { self.ends[i - 1] }..end],
            None => &[],
        }
    }

    pub fn sentences(&self) -> impl ExactSizeIterator<Item = &[(u32, u32)]> {
        (0..self.ends.len()).map(|i| self.sentence(i as u32))
    }

    /// Target tokens aligned to one source token, ascending.
    pub fn targets(&self, sentence: u32, source_token: u32) -> Vec<u32> {
        self.links_of(sentence, source_token).iter().map(|&(_, t)| t).collect()
    }

    /// The links of one source token, by ascending target token.
    pub fn links_of(&self, sentence: u32, source_token: u32) -> &[(u32, u32)] {
        let links = self.sentence(sentence);
        let start = links.partition_point(|&(s, _)| s < source_token);
        let len = links[start..].partition_point(|&(s, _)| s == source_token);
        &links[start..start + len]
    }

    /// The same links read the other way round (for files written `j-i`).
    pub fn reversed(&self) -> Alignment {
        Alignment::new(self.sentences().map(|l| l.iter().map(|&(s, t)| (t, s)).collect()).collect())
    }
}

/// A pair of a Moses line that is not `i-j` with two non-negative whole numbers: the pair as
/// written, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed pair '{pair}': {problem}")]
pub struct MalformedPair {
    pub pair: String,
    pub problem: PairProblem,
}

/// What is wrong with a [`MalformedPair`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairProblem {
    #[error("expected i-j with two numbers")]
    NoDash,
    /// One side (as written) is not a `u32`.
    #[error("'{0}' is not a non-negative whole number")]
    NotANumber(String),
}

/// Parses one Moses alignment line. The error says which pair is wrong and why.
pub fn parse_line(line: &str) -> Result<Links, MalformedPair> {
    // One pair per `-` in a well-formed line: no room wasted in the millions of lines a large
    // master holds.
    let mut links = Vec::with_capacity(memchr::memchr_iter(b'-', line.as_bytes()).count());
    parse_line_into(line, &mut links)?;
    Ok(links)
}

/// [`parse_line`] into a list reused from line to line (the metrics read millions of lines).
pub fn parse_line_into(line: &str, links: &mut Links) -> Result<(), MalformedPair> {
    links.clear();
    if !parse_plain(line.as_bytes(), |i, j| links.push((i, j))) {
        links.clear();
        parse_any(line, links)?;
    }
    links.sort_unstable();
    links.dedup();
    Ok(())
}

/// The usual line — `i-j` pairs of plain digits (each fitting a `u32`) between ASCII white space —
/// in one pass over its bytes, each pair handed to `pair` in line order; false for anything else,
/// which [`parse_any`] reads (or explains). Generic, so that each reader's `pair` is inlined: the
/// master's alignments keep every pair, the metrics only those of a few source tokens
/// ([`crate::scorers::links`]).
pub(crate) fn parse_plain(bytes: &[u8], mut pair: impl FnMut(u32, u32)) -> bool {
    // `str::split_ascii_whitespace`'s white space.
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r');
    let number = |at: &mut usize| -> Option<u32> {
        let start = *at;
        let mut value: u32 = 0;
        while let Some(&b) = bytes.get(*at) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value.wrapping_mul(10).wrapping_add(u32::from(digit));
            *at += 1;
        }
        // Nine digits never overflow a `u32`: only a longer number (leading zeros, or past
        // `u32::MAX`) is read again with checks.
        match *at - start {
            0 => None,
            1..=9 => Some(value),
            _ => bytes[start..*at].iter().try_fold(0u32, |n, &b| n.checked_mul(10)?.checked_add(u32::from(b - b'0'))),
        }
    };
    let mut at = 0;
    loop {
        while bytes.get(at).is_some_and(|&b| space(b)) {
            at += 1;
        }
        if at == bytes.len() {
            return true;
        }
        let Some(i) = number(&mut at) else { return false };
        if bytes.get(at) != Some(&b'-') {
            return false;
        }
        at += 1;
        let Some(j) = number(&mut at) else { return false };
        if bytes.get(at).is_some_and(|&b| !space(b)) {
            return false;
        }
        pair(i, j);
    }
}

fn parse_any(line: &str, links: &mut Links) -> Result<(), MalformedPair> {
    for pair in line.split_ascii_whitespace() {
        let malformed = |problem| MalformedPair { pair: pair.to_owned(), problem };
        let (i, j) = pair.split_once('-').ok_or_else(|| malformed(PairProblem::NoDash))?;
        let number = |s: &str| s.parse::<u32>().map_err(|_| malformed(PairProblem::NotANumber(s.to_owned())));
        links.push((number(i)?, number(j)?));
    }
    Ok(())
}

/// Writes one sentence's links as a Moses line.
pub fn format_line(links: &[(u32, u32)]) -> String {
    let mut out = String::with_capacity(links.len() * 6);
    format_line_into(links, &mut out);
    out
}

/// [`format_line`] into a buffer reused from line to line (a full save writes millions of them).
fn format_line_into(links: &[(u32, u32)], out: &mut String) {
    out.clear();
    let mut number = itoa::Buffer::new();
    for (n, &(i, j)) in links.iter().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(number.format(i));
        out.push('-');
        out.push_str(number.format(j));
    }
}

/// Serialised as one Moses line per sentence, the format researchers already read.
impl Serialize for Alignment {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        let mut line = String::new();
        for links in self.sentences() {
            format_line_into(links, &mut line);
            seq.serialize_element(line.as_str())?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Alignment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Lines;
        impl<'de> Visitor<'de> for Lines {
            type Value = Alignment;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of Moses alignment lines such as \"0-0 1-2\"")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Alignment, A::Error> {
                let mut alignment =
                    Alignment { links: Vec::new(), ends: Vec::with_capacity(seq.size_hint().unwrap_or(0)) };
                let mut links = Links::new();
                while let Some(line) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    parse_line_into(&line, &mut links)
                        .map_err(|m| de::Error::custom(format!("sentence {}: {m}", alignment.len() + 1)))?;
                    alignment.push(&links);
                }
                // The list grew by doubling: give back what it did not use.
                alignment.links.shrink_to_fit();
                alignment.ends.shrink_to_fit();
                Ok(alignment)
            }
        }
        deserializer.deserialize_seq(Lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_sorts_pairs() {
        assert_eq!(parse_line("2-1 0-0 1-2 0-0").unwrap(), vec![(0, 0), (1, 2), (2, 1)]);
        assert_eq!(parse_line("").unwrap(), vec![]);
        assert_eq!(parse_line("  0-1   3-4 ").unwrap(), vec![(0, 1), (3, 4)]);
    }

    #[test]
    fn malformed_pairs_are_named() {
        let e = parse_line("0-1 3_4").unwrap_err();
        assert_eq!((e.pair.as_str(), &e.problem), ("3_4", &PairProblem::NoDash));
        assert_eq!(e.to_string(), "malformed pair '3_4': expected i-j with two numbers");
        let e = parse_line("0-x").unwrap_err();
        assert_eq!(e.problem, PairProblem::NotANumber("x".into()));
        assert_eq!(e.to_string(), "malformed pair '0-x': 'x' is not a non-negative whole number");
        assert!(parse_line("-1-2").is_err());
        assert!(parse_line("1-").is_err());
        // What the one-pass reading leaves to the general one.
        assert_eq!(parse_line("+1-2 01-3\t4-5").unwrap(), vec![(1, 2), (1, 3), (4, 5)]);
        assert_eq!(parse_line("0-1-2").unwrap_err().problem, PairProblem::NotANumber("1-2".into()));
        assert_eq!(parse_line("0-4294967296").unwrap_err().problem, PairProblem::NotANumber("4294967296".into()));
        assert!(parse_line("0-1\u{b}2-3").is_err(), "a vertical tab does not separate pairs");
    }

    #[test]
    fn targets_of_a_source_token() {
        let a = Alignment::new(vec![vec![(0, 0), (1, 3), (1, 1), (2, 2)]]);
        assert_eq!(a.targets(0, 1), vec![1, 3]);
        assert_eq!(a.targets(0, 5), Vec::<u32>::new());
        assert_eq!(a.targets(7, 0), Vec::<u32>::new());
    }

    #[test]
    fn json_round_trip_uses_moses_lines() {
        let a = Alignment::new(vec![vec![(0, 0), (1, 2)], vec![]]);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"["0-0 1-2",""]"#);
        assert_eq!(serde_json::from_str::<Alignment>(&json).unwrap(), a);
        let err = serde_json::from_str::<Alignment>(r#"["0-0","1:2"]"#).unwrap_err();
        assert!(err.to_string().contains("sentence 2: malformed pair '1:2'"), "{err}");
    }

    #[test]
    fn reversal_swaps_sides() {
        let a = Alignment::new(vec![vec![(0, 1), (2, 0)]]);
        assert_eq!(a.reversed().sentence(0), &[(0, 2), (1, 0)]);
    }

    #[test]
    fn each_sentence_has_its_own_links() {
        let lists = vec![vec![(1, 1), (0, 0)], vec![], vec![(2, 3)], vec![]];
        let a = Alignment::new(lists);
        assert_eq!(a.len(), 4);
        assert_eq!(a.sentence(0), &[(0, 0), (1, 1)]);
        assert_eq!(a.sentence(1), &[]);
        assert_eq!(a.sentence(2), &[(2, 3)]);
        assert_eq!(a.sentence(3), &[]);
        assert_eq!(a.sentence(4), &[], "past the end: no links");
        assert_eq!(a.sentences().collect::<Vec<_>>(), vec![&[(0, 0), (1, 1)][..], &[], &[(2, 3)], &[]]);
        let read: Alignment = serde_json::from_str(r#"["1-1 0-0","","2-3",""]"#).unwrap();
        assert_eq!(read, a);
        assert_eq!(Alignment::default().sentences().len(), 0);
    }
}
