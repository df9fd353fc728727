//! The standard tags of the annotation guidelines (paper 001 §4.3; docs/domain.md, "Questions and tags").

/// The overall translation is too poor to judge the pronoun; not annotated for correctness.
pub const BAD_TRANSLATION: &str = "bad_translation";
/// The translation exists but the word alignment does not highlight it; not annotated either.
pub const INCORRECT_WORD_ALIGNMENT: &str = "incorrect_word_alignment";
/// Correct as a whole, but the aligned target pronoun has a different function (`il faut`).
pub const NONCOMPOSITIONAL_TRANSLATION: &str = "noncompositional_translation";
/// What a French speaker would say differs from prescriptive grammar.
pub const DESC_VS_PRESC: &str = "desc_vs_presc";
/// Doubt whether the antecedent was identified correctly in the source (anaphoric only).
pub const ANT_ENSURE: &str = "ant_ensure";
pub const POLITENESS_TU: &str = "politeness_tu";
pub const POLITENESS_VOUS: &str = "politeness_vous";
pub const POLITENESS_UNKNOWN: &str = "politeness_unknown";

/// The longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 64;

/// The tags that say a translation cannot be judged at all (conflict rule 2; an adjudicator's
/// record with one settles the verdict as undecided).
pub const UNJUDGEABLE: [&str; 2] = [BAD_TRANSLATION, INCORRECT_WORD_ALIGNMENT];

/// The tags that take an example out of normal judging (conflict rules 1–3).
pub const DO_NOT_JUDGE: [&str; 3] = [BAD_TRANSLATION, INCORRECT_WORD_ALIGNMENT, NONCOMPOSITIONAL_TRANSLATION];

/// Exactly one of these goes on every deictic singular "you" (conflict rule 9).
pub const POLITENESS: [&str; 3] = [POLITENESS_TU, POLITENESS_VOUS, POLITENESS_UNKNOWN];

/// A standard tag and when it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StandardTag {
    pub name: &'static str,
    /// Only meaningful for anaphoric examples.
    pub anaphoric_only: bool,
    /// Only meaningful for categories that need a politeness tag.
    pub politeness_only: bool,
}

const fn tag(name: &'static str, anaphoric_only: bool, politeness_only: bool) -> StandardTag {
    StandardTag { name, anaphoric_only, politeness_only }
}

pub const STANDARD: [StandardTag; 8] = [
    tag(BAD_TRANSLATION, false, false),
    tag(INCORRECT_WORD_ALIGNMENT, false, false),
    tag(NONCOMPOSITIONAL_TRANSLATION, false, false),
    tag(DESC_VS_PRESC, false, false),
    tag(ANT_ENSURE, true, false),
    tag(POLITENESS_TU, false, true),
    tag(POLITENESS_VOUS, false, true),
    tag(POLITENESS_UNKNOWN, false, true),
];

/// Whether a string may be used as a tag ([`problem`] finds nothing).
pub fn is_valid(tag: &str) -> bool {
    problem(tag).is_none()
}

/// What keeps a string from being a tag: a tag is one word (so that it
/// survives CSV, LaTeX and the original tool's storage unchanged), in Unicode normal form C,
/// without characters that cannot be seen or that reorder what follows: a tag with a zero-width
/// space or a right-to-left mark would look exactly like a standard tag on screen and count as
/// another one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TagProblem {
    #[error("is empty")]
    Empty,
    #[error("has spaces (a tag is one word)")]
    Spaces,
    /// The first character nobody can see ([`super::text::hidden`]).
    #[error(
        "has an invisible or direction-changing character (U+{:04X}), which would make it look like another tag",
        *.0 as u32
    )]
    Hidden(char),
    #[error("is not in Unicode normal form C (the same letters can be written so that they look alike)")]
    NotNfc,
    /// Longer than [`MAX_TAG_CHARS`]: what a record may hold (an edit, a record from a page),
    /// not what [`problem`] checks.
    #[error("is longer than {MAX_TAG_CHARS} characters")]
    TooLong,
}

/// What keeps a string from being a tag ([`TagProblem`]), or `None`.
pub fn problem(tag: &str) -> Option<TagProblem> {
    if tag.is_empty() {
        return Some(TagProblem::Empty);
    }
    if tag.chars().any(char::is_whitespace) {
        return Some(TagProblem::Spaces);
    }
    if let Some(c) = tag.chars().find(|&c| super::text::hidden(c)) {
        return Some(TagProblem::Hidden(c));
    }
    if !unicode_normalization::is_nfc(tag) {
        return Some(TagProblem::NotNfc);
    }
    None
}

/// A tag as the user typed it, trimmed and in Unicode normal form C, or why it cannot be one.
pub fn normalize(typed: &str) -> Result<String, TagProblem> {
    use unicode_normalization::UnicodeNormalization;
    let tag: String = typed.trim().nfc().collect();
    match problem(&tag) {
        Some(why) => Err(why),
        None => Ok(tag),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_that_would_look_like_another_is_refused() {
        assert_eq!(normalize("  ant_ensure "), Ok("ant_ensure".into()));
        for lookalike in ["ant_\u{200B}ensure", "\u{200F}ant_ensure", "ant_ensure\u{202E}", "\u{FEFF}bad_translation"] {
            let why = normalize(lookalike).unwrap_err();
            assert!(matches!(why, TagProblem::Hidden(_)), "{why}");
            assert!(why.to_string().starts_with("has an invisible or direction-changing character (U+"), "{why}");
        }
        assert_eq!(
            normalize("ant_\u{200B}ensure").unwrap_err().to_string(),
            "has an invisible or direction-changing character (U+200B), which would make it look like another tag"
        );
        assert_eq!(normalize("two words").unwrap_err(), TagProblem::Spaces);
        assert_eq!(normalize("two words").unwrap_err().to_string(), "has spaces (a tag is one word)");
        // Typed decomposed, stored composed: one tag, whatever the keyboard sent.
        assert_eq!(normalize("caf\u{0065}\u{0301}"), Ok("caf\u{00E9}".into()));
        assert_eq!(problem("caf\u{0065}\u{0301}"), Some(TagProblem::NotNfc));
        assert!(problem("caf\u{0065}\u{0301}").unwrap().to_string().contains("normal form C"));
        assert!(is_valid("politeness_vous") && is_valid("négation"));
    }
}
