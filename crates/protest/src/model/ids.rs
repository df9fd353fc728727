//! Identifiers. Newtypes so that a candidate id can never be passed where an example number is
//! meant; all serialise as plain numbers.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// A corpus (source, reference or MT system) of a master.
    CorpusId
);
id_type!(
    /// A test-suite example number (PROTEST numbers its 250 pronouns).
    ExampleNo
);
id_type!(
    /// A candidate: one example translated by one translation corpus.
    CandidateId
);
id_type!(
    /// A person who annotates. [`AnnotatorId::RESEARCHER`] is the master's own user.
    AnnotatorId
);

impl AnnotatorId {
    /// The researcher who owns the master. Their records are never conflict-checked and they need
    /// no entry in the annotator list (the original tool called this user "MASTER", id −1).
    pub const RESEARCHER: AnnotatorId = AnnotatorId(0);

    pub fn is_researcher(self) -> bool {
        self == Self::RESEARCHER
    }
}

/// A token of a corpus: sentence (corpus line, 0-based) and token index within it (0-based).
/// Serialised as a two-element array `[sentence, token]` to keep files compact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "(u32, u32)", into = "(u32, u32)")]
pub struct TokenRef {
    pub sentence: u32,
    pub token: u32,
}

impl TokenRef {
    pub const fn new(sentence: u32, token: u32) -> Self {
        TokenRef { sentence, token }
    }
}

impl From<(u32, u32)> for TokenRef {
    fn from((sentence, token): (u32, u32)) -> Self {
        TokenRef { sentence, token }
    }
}

impl From<TokenRef> for (u32, u32) {
    fn from(t: TokenRef) -> Self {
        (t.sentence, t.token)
    }
}

/// For people, who count from 1, with the numbers the file holds: `sentence 5, token 3 ([4, 2] in
/// the file)`.
impl fmt::Display for TokenRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, t) = (self.sentence, self.token);
        write!(f, "sentence {}, token {} ([{s}, {t}] in the file)", u64::from(s) + 1, u64::from(t) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_shown_counted_from_1_with_the_files_numbers() {
        assert_eq!(TokenRef::new(0, 0).to_string(), "sentence 1, token 1 ([0, 0] in the file)");
        assert_eq!(
            TokenRef::new(u32::MAX, 4).to_string(),
            "sentence 4294967296, token 5 ([4294967295, 4] in the file)"
        );
    }
}
