//! How a translation's sentences were obtained from an output that did not keep one line per source
//! sentence: which were cut from longer lines, joined from several, left empty — and which of those
//! boundaries are uncertain (docs/master-format.md, `segmentation`; docs/alignment.md,
//! "Document-level output").

use crate::model::Sentences;
use serde::{Deserialize, Serialize};

/// How one sentence's translation was obtained from the system's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// One whole line of the output, as it was given.
    AsGiven,
    /// Cut from a line that held more: other sentences' translations, or text left out.
    Split,
    /// Made of several lines of the output (whole or cut).
    Joined,
    /// The output has nothing for this sentence: its translation is empty.
    Omitted,
    /// Holds this sentence's translation and the next one's, which could not be told apart.
    Merged,
    /// Translated together with the previous sentence, which holds both: empty here.
    WithPrevious,
}

impl Origin {
    /// Whether the translation's boundaries were inferred rather than given by the output's lines.
    pub fn is_inferred(self) -> bool {
        self != Origin::AsGiven
    }

    /// A few words for people.
    pub fn describe(self) -> &'static str {
        match self {
            Origin::AsGiven => "kept as given",
            Origin::Split => "split from a longer line",
            Origin::Joined => "joined from several lines",
            Origin::Omitted => "omitted (the output has nothing for it)",
            Origin::Merged => "holds the next sentence's translation too (could not be split)",
            Origin::WithPrevious => "translated together with the previous sentence",
        }
    }
}

/// The origin of every sentence of a translation corpus, as lists of 0-based sentence numbers,
/// ascending: a sentence in none of the five origin lists is one whole line as given.
/// `low_confidence` lists the sentences whose boundaries the re-segmentation is unsure of.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segmentation {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub omitted: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with_previous: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub low_confidence: Vec<u32>,
}

impl Segmentation {
    /// From each sentence's origin and whether it is of low confidence, in sentence order.
    pub fn from_sentences(sentences: impl IntoIterator<Item = (Origin, bool)>) -> Segmentation {
        let mut s = Segmentation::default();
        for (n, (origin, low)) in (0..).zip(sentences) {
            if let Some(list) = s.list_mut(origin) {
                list.push(n);
            }
            if low {
                s.low_confidence.push(n);
            }
        }
        s
    }

    fn lists(&self) -> [(Origin, &Vec<u32>); 5] {
        [
            (Origin::Split, &self.split),
            (Origin::Joined, &self.joined),
            (Origin::Omitted, &self.omitted),
            (Origin::Merged, &self.merged),
            (Origin::WithPrevious, &self.with_previous),
        ]
    }

    fn list_mut(&mut self, origin: Origin) -> Option<&mut Vec<u32>> {
        Some(match origin {
            Origin::AsGiven => return None,
            Origin::Split => &mut self.split,
            Origin::Joined => &mut self.joined,
            Origin::Omitted => &mut self.omitted,
            Origin::Merged => &mut self.merged,
            Origin::WithPrevious => &mut self.with_previous,
        })
    }

    pub fn origin(&self, sentence: u32) -> Origin {
        self.lists()
            .into_iter()
            .find(|(_, list)| list.binary_search(&sentence).is_ok())
            .map_or(Origin::AsGiven, |(origin, _)| origin)
    }

    pub fn is_low_confidence(&self, sentence: u32) -> bool {
        self.low_confidence.binary_search(&sentence).is_ok()
    }

    /// Whether the sentence's translation may hold another sentence's words or lack some of its
    /// own: its boundaries are of low confidence, or it shares one translation with a neighbour.
    /// The automatic match never settles such a candidate.
    pub fn is_uncertain(&self, sentence: u32) -> bool {
        self.is_low_confidence(sentence) || matches!(self.origin(sentence), Origin::Merged | Origin::WithPrevious)
    }

    /// How many sentences have each origin (in the order of [`Origin`]), and how many are of low
    /// confidence, out of `sentences`.
    pub fn counts(&self, sentences: usize) -> ([usize; 6], usize) {
        let inferred: usize = self.lists().iter().map(|(_, l)| l.len()).sum();
        let [split, joined, omitted, merged, with_previous] = self.lists().map(|(_, l)| l.len());
        ([sentences.saturating_sub(inferred), split, joined, omitted, merged, with_previous], self.low_confidence.len())
    }

    /// What is wrong with it for a corpus of these sentences: the field and the problem.
    pub fn problem(&self, sentences: &Sentences) -> Option<(&'static str, String)> {
        let n = sentences.len() as u32;
        let named = [
            ("split", &self.split),
            ("joined", &self.joined),
            ("omitted", &self.omitted),
            ("merged", &self.merged),
            ("with_previous", &self.with_previous),
            ("low_confidence", &self.low_confidence),
        ];
        for (name, list) in named {
            if let Some(w) = list.windows(2).find(|w| w[0] >= w[1]) {
                return Some((name, format!("sentence numbers must ascend ({} then {})", w[0], w[1])));
            }
            if let Some(&last) = list.last().filter(|&&last| last >= n) {
                return Some((
                    name,
                    format!("{last} (sentence {}) is beyond the corpus's {n} sentences", u64::from(last) + 1),
                ));
            }
        }
        let mut seen = vec![false; n as usize];
        for (origin, list) in self.lists() {
            for &s in list {
                if std::mem::replace(&mut seen[s as usize], true) {
                    return Some((name_of(origin), format!("{s} (sentence {}) has two origins", s + 1)));
                }
            }
        }
        for &s in self.omitted.iter().chain(&self.with_previous) {
            if !sentences[s as usize].is_empty() {
                let origin = self.origin(s);
                return Some((
                    name_of(origin),
                    format!("{s} (sentence {}) is {} but has a translation", s + 1, name_of(origin)),
                ));
            }
        }
        let pairs =
            |merged: &[u32], with_previous: &[u32]| merged.iter().map(|s| s + 1).eq(with_previous.iter().copied());
        if !pairs(&self.merged, &self.with_previous) {
            return Some(("merged", "each merged sentence must be followed by one translated with_previous".into()));
        }
        None
    }
}

fn name_of(origin: Origin) -> &'static str {
    match origin {
        Origin::AsGiven => "as_given",
        Origin::Split => "split",
        Origin::Joined => "joined",
        Origin::Omitted => "omitted",
        Origin::Merged => "merged",
        Origin::WithPrevious => "with_previous",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(texts: &[&str]) -> Sentences {
        texts.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn origins_are_kept_as_lists_and_read_back_per_sentence() {
        use Origin::*;
        let origins =
            [(AsGiven, false), (Split, true), (Split, false), (Merged, true), (WithPrevious, true), (Omitted, false)];
        let s = Segmentation::from_sentences(origins);
        assert_eq!(
            (s.split.as_slice(), s.merged.as_slice(), s.low_confidence.as_slice()),
            (&[1, 2][..], &[3][..], &[1, 3, 4][..])
        );
        assert_eq!((0..6).map(|n| (s.origin(n), s.is_low_confidence(n))).collect::<Vec<_>>(), origins);
        assert_eq!((0..6).map(|n| s.is_uncertain(n)).collect::<Vec<_>>(), [false, true, false, true, true, false]);
        assert_eq!(s.counts(6), ([1, 2, 0, 1, 1, 1], 3));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"split":[1,2],"omitted":[5],"merged":[3],"with_previous":[4],"low_confidence":[1,3,4]}"#);
        assert_eq!(serde_json::from_str::<Segmentation>(&json).unwrap(), s);
        assert_eq!(s.problem(&sentences(&["a", "b", "c", "d e", "", ""])), None);
    }

    #[test]
    fn problems() {
        let text = sentences(&["a", "b", "", "d"]);
        let cases = [
            (Segmentation { split: vec![1, 1], ..Default::default() }, "split", "must ascend (1 then 1)"),
            (
                Segmentation { low_confidence: vec![4], ..Default::default() },
                "low_confidence",
                "4 (sentence 5) is beyond",
            ),
            (
                Segmentation { split: vec![1], joined: vec![1], ..Default::default() },
                "joined",
                "1 (sentence 2) has two origins",
            ),
            (
                Segmentation { omitted: vec![0], ..Default::default() },
                "omitted",
                "0 (sentence 1) is omitted but has a translation",
            ),
            (
                Segmentation { merged: vec![0], ..Default::default() },
                "merged",
                "followed by one translated with_previous",
            ),
            (
                Segmentation { merged: vec![1], with_previous: vec![3], ..Default::default() },
                "with_previous",
                "has a translation",
            ),
        ];
        for (s, field, message) in cases {
            let (f, m) = s.problem(&text).unwrap();
            assert_eq!(f, field, "{m}");
            assert!(m.contains(message), "{m}");
        }
    }
}
