//! Where each link of a translation's word alignment came from (docs/master-format.md,
//! `link_origins`; docs/alignment.md, "Aligning through the reference"), and which target tokens
//! a candidate's pronoun and antecedent heads are aligned to, each with its link's origin — what
//! the automatic match counts by and what a judge of the translation can trust.

use super::alignment::Alignment;
use super::ids::{CorpusId, TokenRef};
use super::{Candidate, Corpus, Master};
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// How a link was made, from the surest to the least sure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkOrigin {
    /// Given with the corpus: imported with it, or read from an alignment file (`add-system
    /// --alignment`) — made by hand or by an external aligner. Every link of a corpus that
    /// records no origins counts as given.
    Given,
    /// Carried over from another translation of the same sentence (the reference, or the
    /// nearest translation with a given alignment) through a monolingual alignment of the two.
    Bridge,
    /// Guessed by the built-in bilingual aligner, for a source token the bridge left unaligned.
    Aligner,
    /// Added by the pronoun repair after the built-in aligner.
    Repair,
}

impl LinkOrigin {
    pub const ALL: [LinkOrigin; 4] = [LinkOrigin::Given, LinkOrigin::Bridge, LinkOrigin::Aligner, LinkOrigin::Repair];

    /// The letter of the file format.
    pub fn letter(self) -> u8 {
        match self {
            LinkOrigin::Given => b'g',
            LinkOrigin::Bridge => b'b',
            LinkOrigin::Aligner => b'a',
            LinkOrigin::Repair => b'r',
        }
    }

    pub fn from_letter(letter: u8) -> Option<LinkOrigin> {
        LinkOrigin::ALL.into_iter().find(|o| o.letter() == letter)
    }

    pub fn name(self) -> &'static str {
        match self {
            LinkOrigin::Given => "given",
            LinkOrigin::Bridge => "bridge",
            LinkOrigin::Aligner => "aligner",
            LinkOrigin::Repair => "repair",
        }
    }

    /// Whether the built-in bilingual aligner (or its pronoun repair) made the link: the least
    /// sure kind, a statistical guess on little text.
    pub fn is_guessed(self) -> bool {
        matches!(self, LinkOrigin::Aligner | LinkOrigin::Repair)
    }
}

/// The origin of every link of a corpus's alignment, sentence by sentence in the alignment's
/// order of links, and the translation each sentence was bridged through (if any of its links
/// was).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkOrigins {
    /// One origin per link, every sentence's one after the other.
    origins: Vec<LinkOrigin>,
    /// `ends[i]`: where the origins of sentence `i` end in `origins`.
    ends: Vec<usize>,
    bridges: Vec<Option<CorpusId>>,
}

/// One sentence's links, each with its origin, and the translation it was bridged through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OriginLinks {
    pub links: Vec<((u32, u32), LinkOrigin)>,
    pub bridge: Option<CorpusId>,
}

impl LinkOrigins {
    /// An alignment and the origins of its links from each sentence's links with their origins.
    /// A link given twice keeps its surest origin.
    pub fn build(sentences: Vec<OriginLinks>) -> (Alignment, LinkOrigins) {
        let mut origins = LinkOrigins::default();
        let mut links = Vec::with_capacity(sentences.len());
        for mut sentence in sentences {
            sentence.links.sort_unstable();
            sentence.links.dedup_by_key(|(link, _)| *link);
            origins.origins.extend(sentence.links.iter().map(|&(_, o)| o));
            origins.ends.push(origins.origins.len());
            origins.bridges.push(sentence.bridge);
            links.push(sentence.links.into_iter().map(|(link, _)| link).collect());
        }
        (Alignment::new(links), origins)
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The origins of one sentence's links, in the alignment's order.
    pub fn sentence(&self, sentence: u32) -> &[LinkOrigin] {
        let i = sentence as usize;
        match self.ends.get(i) {
            Some(&end) => &self.origins[if i == 0 { 0 } else { self.ends[i - 1] }..end],
            None => &[],
        }
    }

    /// The translation whose alignment the sentence's bridged links were carried from.
    pub fn bridge(&self, sentence: u32) -> Option<CorpusId> {
        self.bridges.get(sentence as usize).copied().flatten()
    }

    /// The translations bridged through, each once, in order of first use.
    pub fn bridges(&self) -> Vec<CorpusId> {
        let mut seen = Vec::new();
        for &b in self.bridges.iter().flatten() {
            if !seen.contains(&b) {
                seen.push(b);
            }
        }
        seen
    }

    /// How many links have this origin.
    pub fn count(&self, origin: LinkOrigin) -> usize {
        self.origins.iter().filter(|&&o| o == origin).count()
    }

    /// What is wrong with these origins for `alignment`: the field and the problem. The
    /// bridges' corpora are checked by the caller, who knows the master.
    pub fn problem(&self, alignment: &Alignment) -> Option<(String, String)> {
        if self.len() != alignment.len() {
            let message = format!("{} sentences of link origins for {} of alignment", self.len(), alignment.len());
            return Some(("links".into(), message));
        }
        if self.bridges.len() != self.len() {
            let message = format!("{} bridges for {} sentences", self.bridges.len(), self.len());
            return Some(("bridges".into(), message));
        }
        for (i, links) in alignment.sentences().enumerate() {
            let origins = self.sentence(i as u32);
            if origins.len() != links.len() {
                let message =
                    format!("sentence {i} has {} link origins for its {} alignment links", origins.len(), links.len());
                return Some((format!("links[{i}]"), message));
            }
            let bridged = origins.contains(&LinkOrigin::Bridge);
            match (bridged, self.bridges[i]) {
                (true, None) => {
                    return Some((format!("bridges[{i}]"), format!("sentence {i} has bridged links but no bridge")));
                }
                (false, Some(_)) => {
                    return Some((format!("bridges[{i}]"), format!("sentence {i} has a bridge but no bridged link")));
                }
                _ => {}
            }
        }
        None
    }
}

/// `{"links": ["bba", …], "bridges": [1, null, …]}`: a string per sentence with one letter per
/// link ([`LinkOrigin::letter`]), and the corpus each sentence was bridged through.
impl Serialize for LinkOrigins {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Stored<'a> {
            links: Vec<String>,
            bridges: &'a [Option<CorpusId>],
        }
        let links =
            (0..self.len() as u32).map(|i| self.sentence(i).iter().map(|o| char::from(o.letter())).collect()).collect();
        Stored { links, bridges: &self.bridges }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LinkOrigins {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Stored<'a> {
            #[serde(borrow)]
            links: Vec<std::borrow::Cow<'a, str>>,
            bridges: Vec<Option<CorpusId>>,
        }
        let stored = Stored::deserialize(deserializer)?;
        let mut origins = LinkOrigins { bridges: stored.bridges, ..LinkOrigins::default() };
        for (i, letters) in stored.links.iter().enumerate() {
            for letter in letters.bytes() {
                let origin = LinkOrigin::from_letter(letter).ok_or_else(|| {
                    de::Error::custom(format!(
                        "links[{i}]: '{}' is not a link origin (g given, b bridge, a aligner, r repair)",
                        letters.chars().find(|c| !"gbar".contains(*c)).unwrap_or('?')
                    ))
                })?;
                origins.origins.push(origin);
            }
            origins.ends.push(origins.origins.len());
        }
        Ok(origins)
    }
}

/// A target token aligned to a source token, and where the link came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlignedToken {
    pub at: TokenRef,
    pub origin: LinkOrigin,
}

impl Corpus {
    /// Where the link between source token `source` and target token `target` of a sentence came
    /// from: given for a corpus that records no origins (or no such link).
    pub fn link_origin(&self, sentence: u32, source: u32, target: u32) -> LinkOrigin {
        let (Some(alignment), Some(origins)) = (&self.alignment, &self.link_origins) else {
            return LinkOrigin::Given;
        };
        let links = alignment.sentence(sentence);
        links
            .binary_search(&(source, target))
            .ok()
            .and_then(|k| origins.sentence(sentence).get(k).copied())
            .unwrap_or(LinkOrigin::Given)
    }
}

/// The target tokens a candidate translates its source pronoun and each antecedent head with,
/// each with its link's origin: the candidate's aligned tokens (what annotators see and select
/// from), so also for a corpus without a whole alignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateLinks {
    pub pronoun: Vec<AlignedToken>,
    /// Per antecedent of the example, in order (none for a non-anaphoric example).
    pub antecedents: Vec<Vec<AlignedToken>>,
}

impl CandidateLinks {
    /// The least sure origin among the links of the pronoun and, when `heads`, of every
    /// antecedent head; `None` when none of them is aligned.
    pub fn least_sure(&self, heads: bool) -> Option<LinkOrigin> {
        let antecedents = if heads { self.antecedents.as_slice() } else { &[] };
        self.pronoun.iter().chain(antecedents.iter().flatten()).map(|t| t.origin).max()
    }

    /// Whether the pronoun's translation was aligned by the built-in bilingual aligner alone.
    pub fn pronoun_guessed(&self) -> bool {
        !self.pronoun.is_empty() && self.pronoun.iter().all(|t| t.origin.is_guessed())
    }
}

impl Master {
    /// [`CandidateLinks`] of a candidate; `None` if its example or corpus is missing.
    pub fn candidate_links(&self, candidate: &Candidate) -> Option<CandidateLinks> {
        let (example, category) = self.example_of(candidate)?;
        let corpus = self.corpus(candidate.corpus)?;
        let with_origins = |source: TokenRef, targets: &[TokenRef]| -> Vec<AlignedToken> {
            targets
                .iter()
                .map(|&at| AlignedToken { at, origin: corpus.link_origin(source.sentence, source.token, at.token) })
                .collect()
        };
        let antecedents = if category.anaphoric { example.antecedents.as_slice() } else { &[] };
        Some(CandidateLinks {
            pronoun: with_origins(example.pronoun_ref(), &candidate.pronoun),
            antecedents: antecedents
                .iter()
                .zip(&candidate.antecedents)
                .map(|(a, targets)| with_origins(a.head_ref(), targets))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LinkOrigin::*;

    fn sentence(links: &[((u32, u32), LinkOrigin)], bridge: Option<u32>) -> OriginLinks {
        OriginLinks { links: links.to_vec(), bridge: bridge.map(CorpusId) }
    }

    #[test]
    fn built_with_the_alignment_and_stored_as_letters() {
        let (alignment, origins) = LinkOrigins::build(vec![
            sentence(&[((1, 1), Aligner), ((0, 0), Bridge), ((0, 0), Aligner)], Some(1)),
            sentence(&[], None),
            sentence(&[((2, 0), Repair), ((0, 1), Given)], None),
        ]);
        assert_eq!(alignment.sentence(0), &[(0, 0), (1, 1)]);
        assert_eq!(origins.sentence(0), &[Bridge, Aligner], "a doubled link keeps its surest origin");
        assert_eq!(origins.sentence(2), &[Given, Repair]);
        assert_eq!((origins.bridge(0), origins.bridge(1), origins.bridge(9)), (Some(CorpusId(1)), None, None));
        assert_eq!(LinkOrigin::ALL.map(|o| origins.count(o)), [1, 1, 1, 1]);
        assert_eq!(origins.problem(&alignment), None);
        let json = serde_json::to_string(&origins).unwrap();
        assert_eq!(json, r#"{"links":["ba","","gr"],"bridges":[1,null,null]}"#);
        assert_eq!(serde_json::from_str::<LinkOrigins>(&json).unwrap(), origins);
    }

    #[test]
    fn bad_letters_and_mismatched_lengths_are_named() {
        let err = serde_json::from_str::<LinkOrigins>(r#"{"links":["bb","bx"],"bridges":[1,1]}"#).unwrap_err();
        assert!(err.to_string().contains("links[1]: 'x' is not a link origin"), "{err}");
        let (alignment, _) = LinkOrigins::build(vec![sentence(&[((0, 0), Bridge)], Some(1))]);
        let read = |json: &str| serde_json::from_str::<LinkOrigins>(json).unwrap().problem(&alignment);
        assert_eq!(read(r#"{"links":["b"],"bridges":[1]}"#), None);
        let problem = |json: &str| read(json).map(|(field, message)| format!("{field}: {message}")).unwrap();
        assert!(problem(r#"{"links":["bb"],"bridges":[1]}"#).contains("links[0]: sentence 0 has 2 link origins"));
        assert!(problem(r#"{"links":["b","a"],"bridges":[1,null]}"#).contains("2 sentences of link origins for 1"));
        assert!(problem(r#"{"links":["b"],"bridges":[]}"#).contains("0 bridges for 1 sentences"));
        assert!(problem(r#"{"links":["b"],"bridges":[null]}"#).contains("bridged links but no bridge"));
        assert!(problem(r#"{"links":["a"],"bridges":[1]}"#).contains("a bridge but no bridged link"));
    }

    #[test]
    fn the_least_sure_origin_decides() {
        let token = |t, origin| AlignedToken { at: TokenRef::new(0, t), origin };
        let links = CandidateLinks { pronoun: vec![token(0, Bridge)], antecedents: vec![vec![token(3, Aligner)]] };
        assert_eq!((links.least_sure(false), links.least_sure(true)), (Some(Bridge), Some(Aligner)));
        assert!(!links.pronoun_guessed());
        let guessed = CandidateLinks { pronoun: vec![token(1, Repair), token(2, Aligner)], antecedents: vec![] };
        assert!(guessed.pronoun_guessed());
        assert!(!CandidateLinks { pronoun: vec![], antecedents: vec![] }.pronoun_guessed());
        assert_eq!(CandidateLinks { pronoun: vec![], antecedents: vec![] }.least_sure(true), None);
    }
}
