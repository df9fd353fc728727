//! A corpus's sentences by number.
//!
//! A master holds every sentence of every corpus. A batch holds only the sentences its examples
//! need, out of its master's count, and every other sentence reads as empty. Those others take no
//! room: a batch's memory follows what its file holds, not the number of sentences it says its
//! master has (a number a file can only claim, not show).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Index, IndexMut, Range};

/// What a sentence a batch does not keep reads as.
static EMPTY: String = String::new();

#[derive(Debug, Clone)]
pub struct Sentences(Held);

#[derive(Debug, Clone)]
enum Held {
    /// Every sentence, by number.
    All(Vec<String>),
    /// `count` sentences of which only `kept` (by number, ascending, each below `count`) have
    /// text.
    Kept { count: usize, kept: Vec<(u32, String)> },
}

/// A sentence number quoted from a file, which counts from 0, for people, who count from 1:
/// `sentence 5 (4 in the file)`.
pub fn numbered_in_file(sentence: u32) -> String {
    format!("sentence {} ({sentence} in the file)", u64::from(sentence) + 1)
}

impl Sentences {
    /// `count` sentences with text only at the numbers in `kept`, which must be ascending and
    /// below `count` (a reader checks that before: see `store::batch_file`).
    pub fn kept(count: usize, kept: Vec<(u32, String)>) -> Sentences {
        debug_assert!(kept.windows(2).all(|w| w[0].0 < w[1].0) && kept.last().is_none_or(|l| (l.0 as usize) < count));
        Sentences(Held::Kept { count, kept })
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Held::All(all) => all.len(),
            Held::Kept { count, .. } => *count,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, index: usize) -> Option<&String> {
        match &self.0 {
            Held::All(all) => all.get(index),
            Held::Kept { count, kept } => (index < *count)
                .then(|| kept.binary_search_by_key(&index, |(n, _)| *n as usize).map_or(&EMPTY, |at| &kept[at].1)),
        }
    }

    /// Every sentence in order, the ones a batch does not keep as empty.
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.0 {
            Held::All(all) => Walk::All(all.iter()),
            Held::Kept { count, kept } => Walk::Kept { numbers: 0..*count, kept },
        })
    }

    /// A sentence to change: any of a master's, only a kept one of a batch's.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut String> {
        match &mut self.0 {
            Held::All(all) => all.get_mut(index),
            Held::Kept { kept, .. } => {
                kept.binary_search_by_key(&index, |(n, _)| *n as usize).ok().map(|at| &mut kept[at].1)
            }
        }
    }

    /// The sentences held, with their numbers: every one of a master, only the kept ones of a
    /// batch. What looks at each sentence's text looks here, so its time follows what is held.
    pub fn held(&self) -> impl Iterator<Item = (usize, &String)> {
        let (all, kept): (&[String], &[(u32, String)]) = match &self.0 {
            Held::All(all) => (all, &[]),
            Held::Kept { kept, .. } => (&[], kept),
        };
        all.iter().enumerate().chain(kept.iter().map(|(n, s)| (*n as usize, s)))
    }

    /// The numbers of the sentences held within `range`: all of them in a master, the kept ones
    /// in a batch (found by halving, not by walking the range, which a batch's claimed count can
    /// make as long as it likes).
    pub fn held_in(&self, range: Range<usize>) -> impl Iterator<Item = usize> + '_ {
        let (all, kept): (Range<usize>, &[(u32, String)]) = match &self.0 {
            Held::All(all) => (range.start.min(all.len())..range.end.min(all.len()), &[]),
            Held::Kept { kept, .. } => {
                let from = kept.partition_point(|(n, _)| (*n as usize) < range.start);
                let to = kept.partition_point(|(n, _)| (*n as usize) < range.end);
                (0..0, &kept[from..to.max(from)])
            }
        };
        all.chain(kept.iter().map(|(n, _)| *n as usize))
    }

    /// Every sentence of a master, as a slice; `None` for a batch's.
    pub fn as_slice(&self) -> Option<&[String]> {
        match &self.0 {
            Held::All(all) => Some(all),
            Held::Kept { .. } => None,
        }
    }
}

/// Equal when every sentence is, however each is held.
impl PartialEq for Sentences {
    fn eq(&self, other: &Sentences) -> bool {
        match (&self.0, &other.0) {
            (Held::All(a), Held::All(b)) => a == b,
            _ => self.len() == other.len() && self.iter().eq(other.iter()),
        }
    }
}

impl Eq for Sentences {}

impl<S: AsRef<str>> PartialEq<[S]> for Sentences {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().map(String::as_str).eq(other.iter().map(AsRef::as_ref))
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for Sentences {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for Sentences {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl Default for Sentences {
    fn default() -> Sentences {
        Sentences(Held::All(Vec::new()))
    }
}

impl From<Vec<String>> for Sentences {
    fn from(all: Vec<String>) -> Sentences {
        Sentences(Held::All(all))
    }
}

impl FromIterator<String> for Sentences {
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> Sentences {
        Sentences(Held::All(iter.into_iter().collect()))
    }
}

impl Index<usize> for Sentences {
    type Output = String;

    fn index(&self, index: usize) -> &String {
        match self.get(index) {
            Some(sentence) => sentence,
            None => panic!("sentence {index} of {}", self.len()),
        }
    }
}

impl<'a> IntoIterator for &'a Sentences {
    type Item = &'a String;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Every sentence of a [`Sentences`] in order (see [`Sentences::iter`]).
#[derive(Debug, Clone)]
pub struct Iter<'a>(Walk<'a>);

#[derive(Debug, Clone)]
enum Walk<'a> {
    All(std::slice::Iter<'a, String>),
    /// The numbers still to give and the kept sentences among them, taken off either end.
    Kept {
        numbers: Range<usize>,
        kept: &'a [(u32, String)],
    },
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a String;

    fn next(&mut self) -> Option<&'a String> {
        match &mut self.0 {
            Walk::All(all) => all.next(),
            Walk::Kept { numbers, kept } => {
                let n = numbers.next()?;
                match kept.split_first() {
                    Some(((k, text), rest)) if *k as usize == n => {
                        *kept = rest;
                        Some(text)
                    }
                    _ => Some(&EMPTY),
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = match &self.0 {
            Walk::All(all) => all.len(),
            Walk::Kept { numbers, .. } => numbers.len(),
        };
        (len, Some(len))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Walk::All(all) => all.next_back(),
            Walk::Kept { numbers, kept } => {
                let n = numbers.next_back()?;
                match kept.split_last() {
                    Some(((k, text), rest)) if *k as usize == n => {
                        *kept = rest;
                        Some(text)
                    }
                    _ => Some(&EMPTY),
                }
            }
        }
    }
}

impl IndexMut<usize> for Sentences {
    fn index_mut(&mut self, index: usize) -> &mut String {
        let len = self.len();
        match self.get_mut(index) {
            Some(sentence) => sentence,
            None => panic!("sentence {index} of {len} is not held"),
        }
    }
}

impl Serialize for Sentences {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Sentences {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Sentences, D::Error> {
        Vec::<String>::deserialize(deserializer).map(Sentences::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept() -> Sentences {
        Sentences::kept(5, vec![(1, "b".into()), (3, "d".into())])
    }

    #[test]
    fn a_batch_reads_its_kept_sentences_and_empty_ones_between() {
        let s = kept();
        assert_eq!(s.len(), 5);
        assert_eq!(s.iter().map(String::as_str).collect::<Vec<_>>(), ["", "b", "", "d", ""]);
        assert_eq!((s.get(3), s.get(4), s.get(5)), (Some(&"d".to_string()), Some(&EMPTY), None));
        assert_eq!(s[1], "b");
        assert_eq!(s.held().map(|(n, t)| (n, t.as_str())).collect::<Vec<_>>(), [(1, "b"), (3, "d")]);
        assert_eq!(s.held_in(2..5).collect::<Vec<_>>(), [3]);
        assert_eq!(s.held_in(0..2).collect::<Vec<_>>(), [1]);
        assert_eq!(s.as_slice(), None);
    }

    #[test]
    fn a_master_holds_every_sentence() {
        let s = Sentences::from(vec!["a".to_string(), String::new()]);
        assert_eq!(s.held().count(), 2);
        assert_eq!(s.iter().next_back().map(String::as_str), Some(""));
        assert_eq!(s.as_slice().map(<[String]>::len), Some(2));
        assert_eq!(s.held_in(1..9).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn both_are_written_as_every_sentence_and_read_back_whole() {
        let json = serde_json::to_string(&kept()).unwrap();
        assert_eq!(json, r#"["","b","","d",""]"#);
        let back: Sentences = serde_json::from_str(&json).unwrap();
        assert_eq!(back.as_slice().map(<[String]>::len), Some(5));
        assert!(back.iter().eq(kept().iter()));
    }

    #[test]
    fn a_huge_count_takes_no_room() {
        let s = Sentences::kept(u32::MAX as usize, vec![(7, "h".into())]);
        assert_eq!(s.len(), u32::MAX as usize);
        assert_eq!(s.held().count(), 1);
        assert_eq!(s.get(u32::MAX as usize - 1).map(String::as_str), Some(""));
        assert_eq!(s.held_in(0..u32::MAX as usize).collect::<Vec<_>>(), [7]);
    }
}
