//! The languages the tool knows by their rules: how to tokenise them and, for the metrics, which
//! words are their pronouns ([`super::pronouns`]).

use super::pronouns::{self, Pronouns};

/// A language whose rules the tool knows; any other is [`Language::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// Elisions keep the apostrophe on the first part: `l' eau`, `qu' il`, `aujourd' hui`.
    French,
    /// Clitics keep the apostrophe on the second part: `it 's`, `don 't`.
    English,
    /// Every apostrophe is a token of its own; no pronoun lists.
    Other,
}

impl Language {
    /// The rules for a language code such as `fr`, `fr-CA`, `fr_FR` or `en`.
    pub fn from_code(code: &str) -> Language {
        let primary = code.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        match primary.as_str() {
            "fr" => Language::French,
            "en" => Language::English,
            _ => Language::Other,
        }
    }

    /// The pronoun forms of the language as a *target* language, if the tool has them.
    pub fn pronouns(self) -> Option<&'static Pronouns> {
        match self {
            Language::French => Some(&pronouns::FRENCH),
            Language::English | Language::Other => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_with_a_region_are_their_language() {
        assert_eq!(Language::from_code("fr-CA"), Language::French);
        assert_eq!(Language::from_code("fr_FR"), Language::French);
        assert_eq!(Language::from_code("EN"), Language::English);
        assert_eq!(Language::from_code("es"), Language::Other);
        assert!(Language::from_code("fr-FR").pronouns().is_some());
        assert!(Language::from_code("de").pronouns().is_none());
    }
}
