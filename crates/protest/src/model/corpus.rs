//! Corpora: the English source and its translations (reference and MT systems).

use super::ids::{CorpusId, TokenRef};
use crate::model::alignment::Alignment;
use crate::model::link_origin::LinkOrigins;
use crate::model::segmentation::{Origin, Segmentation};
use crate::model::sentences::Sentences;
use crate::model::tokens;
use serde::{Deserialize, Serialize};

/// What a corpus is to the test suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CorpusRole {
    /// The English text the examples are drawn from.
    Source,
    /// The human reference translation.
    Reference,
    /// The output of an MT system.
    System,
}

impl CorpusRole {
    pub fn is_translation(self) -> bool {
        self != CorpusRole::Source
    }
}

/// A tokenised text, one sentence per line, with its alignment to the source if it is a
/// translation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Corpus {
    pub id: CorpusId,
    pub name: String,
    pub role: CorpusRole,
    pub sentences: Sentences,
    /// Source↔this alignment. Absent for the source and for translations brought in without a
    /// whole alignment (the original tool kept only the aligned positions of each candidate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alignment: Option<Alignment>,
    /// How the sentences were cut from a system's output that did not keep one line per source
    /// sentence (format version 2). Absent: one line per sentence, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segmentation: Option<Segmentation>,
    /// What a contrastive test suite says of this translation (`correct`, `semi-correct`,
    /// `incorrect`: `protest suite import`), for the reports by label. Absent for the
    /// translations a suite does not label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Where each link of `alignment` came from (format version 2): written by add-system when it
    /// aligned the output itself. Absent: every link counts as given ([`crate::model::LinkOrigin::Given`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_origins: Option<LinkOrigins>,
}

impl Corpus {
    pub fn sentence(&self, index: u32) -> Option<&str> {
        self.sentences.get(index as usize).map(String::as_str)
    }

    pub fn token(&self, at: TokenRef) -> Option<&str> {
        tokens::token(self.sentence(at.sentence)?, at.token)
    }

    pub fn token_count(&self, sentence: u32) -> Option<usize> {
        self.sentence(sentence).map(tokens::token_count)
    }

    pub fn contains(&self, at: TokenRef) -> bool {
        self.token_count(at.sentence).is_some_and(|n| (at.token as usize) < n)
    }

    /// How the translation of a sentence was obtained from the output.
    pub fn origin(&self, sentence: u32) -> Origin {
        self.segmentation.as_ref().map_or(Origin::AsGiven, |s| s.origin(sentence))
    }

    /// Whether the boundaries of a sentence's translation are uncertain ([`Segmentation::is_uncertain`]).
    pub fn is_uncertain(&self, sentence: u32) -> bool {
        self.segmentation.as_ref().is_some_and(|s| s.is_uncertain(sentence))
    }

    /// The tokens at the given places, joined by spaces (for reports and summaries).
    pub fn words(&self, at: &[TokenRef]) -> String {
        at.iter().filter_map(|&t| self.token(t)).collect::<Vec<_>>().join(" ")
    }
}
