//! The test suite: pronoun categories and examples with their antecedents (docs/domain.md, "Concepts" and "Categories").

use super::ids::{ExampleNo, TokenRef};
use serde::{Deserialize, Serialize};

/// Well-known pronoun functions; a master may use others for categories of its own.
pub mod function {
    pub const ANAPHORIC: &str = "anaphoric";
    pub const EVENT: &str = "event";
    pub const PLEONASTIC: &str = "pleonastic";
    pub const ADDRESSEE: &str = "addressee";
}

/// A pronoun category such as `anaphoric_intra_subject_it`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Category {
    pub name: String,
    /// The pronoun function the category belongs to; reports group categories by it.
    pub function: String,
    /// Anaphoric categories have antecedents, and their antecedent head must agree.
    pub anaphoric: bool,
    /// Examples need exactly one politeness tag (deictic singular "you", conflict rule 9).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub politeness: bool,
    /// Human-readable name for tables and titles.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

impl Category {
    /// The label if there is one, the name otherwise.
    pub fn title(&self) -> &str {
        if self.label.is_empty() { &self.name } else { &self.label }
    }

    /// Where an anaphoric category's antecedents are, when its name says so: `inter` (as in
    /// `anaphoric_inter_subject_it`) in sentences other than the pronoun's, `intra` in the
    /// pronoun's own.
    pub fn antecedent_place(&self) -> Option<AntecedentPlace> {
        let words = || self.name.split(['_', '-']);
        match (self.anaphoric, words().any(|w| w == "inter"), words().any(|w| w == "intra")) {
            (true, true, false) => Some(AntecedentPlace::OtherSentence),
            (true, false, true) => Some(AntecedentPlace::SameSentence),
            _ => None,
        }
    }
}

/// Where a category puts the antecedents of its pronouns ([`Category::antecedent_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AntecedentPlace {
    /// Inter-sentential: every antecedent outside the pronoun's sentence.
    OtherSentence,
    /// Intra-sentential: every antecedent in the pronoun's sentence.
    SameSentence,
}

/// PROTEST's 13 categories (docs/domain.md, "Categories") in the order of the paper's results table.
pub fn standard_categories() -> Vec<Category> {
    use function::*;
    let cat = |name: &str, function: &str, label: &str| Category {
        name: name.to_owned(),
        function: function.to_owned(),
        anaphoric: function == ANAPHORIC,
        politeness: name == "addressee_deictic_singular_you",
        label: label.to_owned(),
    };
    vec![
        cat("anaphoric_inter_subject_it", ANAPHORIC, "Inter-sentential “it”, subject"),
        cat("anaphoric_inter_non-subject_it", ANAPHORIC, "Inter-sentential “it”, non-subject"),
        cat("anaphoric_intra_subject_it", ANAPHORIC, "Intra-sentential “it”, subject"),
        cat("anaphoric_intra_non-subject_it", ANAPHORIC, "Intra-sentential “it”, non-subject"),
        cat("anaphoric_inter_they", ANAPHORIC, "Inter-sentential “they”"),
        cat("anaphoric_intra_they", ANAPHORIC, "Intra-sentential “they”"),
        cat("anaphoric_singular_they", ANAPHORIC, "Singular “they”"),
        cat("anaphoric_group_it-they", ANAPHORIC, "Group “it/they”"),
        cat("event_it", EVENT, "Event reference “it”"),
        cat("pleonastic_it", PLEONASTIC, "Pleonastic “it”"),
        cat("addressee_deictic_singular_you", ADDRESSEE, "Deictic singular “you”"),
        cat("addressee_deictic_plural_you", ADDRESSEE, "Deictic plural “you”"),
        cat("addressee_generic_you", ADDRESSEE, "Generic “you”"),
    ]
}

/// An antecedent of an anaphoric pronoun: a token span in one source sentence and its head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Antecedent {
    pub sentence: u32,
    /// First token of the span.
    pub start: u32,
    /// Last token of the span (inclusive).
    pub end: u32,
    /// The head token, inside the span.
    pub head: u32,
}

impl Antecedent {
    pub fn head_ref(&self) -> TokenRef {
        TokenRef::new(self.sentence, self.head)
    }
}

/// One test-suite example: a source pronoun token with its category and antecedents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    pub no: ExampleNo,
    pub sentence: u32,
    pub token: u32,
    pub category: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub antecedents: Vec<Antecedent>,
}

impl Example {
    pub fn pronoun_ref(&self) -> TokenRef {
        TokenRef::new(self.sentence, self.token)
    }
}
