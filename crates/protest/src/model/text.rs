//! What the words people type may hold: tags, annotator names and remarks are shown to other
//! people, so none may hide characters that cannot be seen or that turn the text around, and a
//! name may not look like another one.

use unicode_normalization::UnicodeNormalization;

/// The longest annotator name, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The longest remark, in characters (some four pages of notes).
pub const MAX_REMARKS_CHARS: usize = 10_000;

/// Characters that show nothing, or change the direction of what follows: controls, format
/// characters (Unicode's Cf: zero-width spaces and joiners, bidirectional marks, embeddings and
/// isolates, the byte-order mark, tag characters), fillers and variation selectors. A word with
/// one looks exactly like the word without it.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || bidi_control(c)
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2065}' | '\u{206A}'..='\u{206F}'
            | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// The characters that change the direction of the text after them (Unicode's bidirectional
/// controls: the Arabic letter mark, the left-to-right and right-to-left marks, embeddings,
/// overrides and isolates).
fn bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `U+202E`: how a character nobody can see is named in a message.
fn code(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// Why what was typed cannot be a name ([`normalize_name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    #[error("a name cannot be empty")]
    Empty,
    #[error("a name has at most {MAX_NAME_CHARS} characters")]
    TooLong,
    /// The first character nobody can see ([`hidden`]).
    #[error("the name has an invisible or direction-changing character ({}), which would make it look like another name", code(*.0))]
    Hidden(char),
}

/// A name as the user typed it, trimmed and in Unicode normal form C, or why it cannot be one: it
/// is empty, longer than [`MAX_NAME_CHARS`], or has a character nobody can see ([`hidden`]).
pub fn normalize_name(typed: &str) -> Result<String, NameProblem> {
    let name: String = typed.trim().nfc().collect();
    if name.is_empty() {
        return Err(NameProblem::Empty);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(NameProblem::TooLong);
    }
    if let Some(c) = name.chars().find(|&c| hidden(c)) {
        return Err(NameProblem::Hidden(c));
    }
    Ok(name)
}

/// What two names that look alike have in common: Unicode's confusable skeleton (TR39: letters of
/// other scripts that look like Latin ones, such as the Cyrillic "а", taken for them; invisible
/// characters dropped) of the name in lower case without its accents. "Anna", "anna", "Аnna"
/// with a Cyrillic А, "Anna" with a zero-width space and "Annà" have one key.
pub fn likeness(name: &str) -> String {
    let bare: String = name.trim().nfd().filter(|&c| !is_mark(c)).collect::<String>().to_lowercase();
    unicode_security::skeleton(&bare).filter(|&c| !is_mark(c)).collect()
}

/// A combining mark (accents and the like, which combine with the letter before them).
fn is_mark(c: char) -> bool {
    unicode_normalization::char::is_combining_mark(c)
}

/// What keeps a remark from being stored, or `None`: longer than [`MAX_REMARKS_CHARS`], or a
/// control character other than a line break (`\n`, `\r`) or a tab (a NUL, an escape), or a bidirectional
/// control that would turn the text after it around.
pub fn remarks_problem(text: &str) -> Option<String> {
    let length = text.chars().count();
    if length > MAX_REMARKS_CHARS {
        return Some(format!("{length} characters, more than the {MAX_REMARKS_CHARS} a remark may have"));
    }
    let bad = |c: char| (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || bidi_control(c);
    let c = text.chars().find(|&c| bad(c))?;
    Some(format!("a control or direction-changing character ({}), which a remark may not have", code(c)))
}

/// Text another program wrote (the holder a lock file names) as a message may quote it: a
/// character nobody can see or that would break the message (a line break, an escape, a
/// direction change: [`hidden`]) written as `\u{1b}`, and the whole cut to at most `max_bytes`
/// bytes, ending in "…" where cut.
pub fn quoted(text: &str, max_bytes: usize) -> String {
    const CUT: char = '…';
    let mut out = String::new();
    // Where to cut if what follows does not fit: there the mark still fits.
    let mut cut_at = 0;
    for c in text.chars() {
        let piece = if hidden(c) { c.escape_unicode().to_string() } else { c.to_string() };
        if out.len() + piece.len() > max_bytes {
            out.truncate(cut_at);
            out.push(CUT);
            return out;
        }
        out.push_str(&piece);
        if out.len() + CUT.len_utf8() <= max_bytes {
            cut_at = out.len();
        }
    }
    out
}

/// Remarks as typed, made into what a remark may hold ([`remarks_problem`]): characters a
/// remark may not have left out, then the text cut at [`MAX_REMARKS_CHARS`]; with what was done,
/// in words for the editor to show (`None`: nothing).
pub fn fit_remarks(typed: &str) -> (String, Option<String>) {
    let bad = |c: char| (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || bidi_control(c);
    let mut left_out: Vec<char> = Vec::new();
    let kept: String = typed
        .chars()
        .filter(|&c| {
            if bad(c) && !left_out.contains(&c) {
                left_out.push(c);
            }
            !bad(c)
        })
        .collect();
    let mut said = Vec::new();
    if !left_out.is_empty() {
        let codes: Vec<String> = left_out.iter().map(|&c| code(c)).collect();
        said.push(format!(
            "left out {} ({}), which a remark may not have",
            if codes.len() == 1 {
                "a control or direction-changing character"
            } else {
                "control or direction-changing characters"
            },
            codes.join(", ")
        ));
    }
    let length = kept.chars().count();
    let fitted: String = kept.chars().take(MAX_REMARKS_CHARS).collect();
    if length > MAX_REMARKS_CHARS {
        said.push(format!(
            "cut at {MAX_REMARKS_CHARS} characters, the most a remark may have ({} left out)",
            length - MAX_REMARKS_CHARS
        ));
    }
    let said = (!said.is_empty()).then(|| said.join("; "));
    (fitted, said)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_look_alike_have_one_likeness() {
        let anna = likeness("Anna");
        for lookalike in [
            "anna",
            " ANNA ",
            "Anna\u{200B}",
            "An\u{202E}na",
            "\u{0410}nna",
            "Anna\u{0301}",
            "Ann\u{00E0}",
            "A\u{FEFF}nna",
        ] {
            assert_eq!(likeness(lookalike), anna, "{lookalike:?}");
        }
        for other in ["Anne", "Hanna", "Ana", "Ben"] {
            assert_ne!(likeness(other), anna, "{other}");
        }
        // Scripts without a Latin look-alike keep their letters.
        assert_ne!(likeness("Мария"), likeness("Марина"));
        assert_eq!(likeness("Мария"), likeness("мария"));
    }

    #[test]
    fn names_are_trimmed_composed_and_visible() {
        assert_eq!(normalize_name("  Anna Martin "), Ok("Anna Martin".into()));
        assert_eq!(normalize_name("Rene\u{0301}"), Ok("Ren\u{00E9}".into()));
        assert_eq!(normalize_name(" "), Err(NameProblem::Empty));
        assert_eq!(normalize_name(" ").unwrap_err().to_string(), "a name cannot be empty");
        assert!(normalize_name(&"x".repeat(MAX_NAME_CHARS)).is_ok());
        assert_eq!(normalize_name(&"x".repeat(MAX_NAME_CHARS + 1)), Err(NameProblem::TooLong));
        assert!(NameProblem::TooLong.to_string().contains("at most 100"));
        for hidden in ["Anna\u{200B}", "An\u{202E}na", "Anna\0", "An\u{2066}na", "Anna\u{0007}"] {
            let why = normalize_name(hidden).unwrap_err().to_string();
            assert!(why.starts_with("the name has an invisible or direction-changing character (U+"), "{why}");
        }
        assert_eq!(
            normalize_name("A\u{200F}nna").unwrap_err().to_string(),
            "the name has an invisible or direction-changing character (U+200F), which would make it look like another name"
        );
    }

    #[test]
    fn remarks_keep_lines_and_tabs_but_no_controls() {
        assert_eq!(remarks_problem("two lines\n\tand a tab; עברית and English"), None);
        assert_eq!(remarks_problem(&"é".repeat(MAX_REMARKS_CHARS)), None);
        assert_eq!(
            remarks_problem(&"x".repeat(900_000)).unwrap(),
            "900000 characters, more than the 10000 a remark may have"
        );
        assert!(remarks_problem("a\0b").unwrap().contains("(U+0000)"));
        assert!(remarks_problem("abc\u{202E}fed").unwrap().contains("(U+202E)"));
        assert!(remarks_problem("\u{1B}[31m").unwrap().contains("(U+001B)"));
        assert_eq!(remarks_problem("a line\r\nbreak"), None);
    }

    #[test]
    fn quoted_text_shows_what_hides_and_is_cut() {
        assert_eq!(quoted("process 7 of anna", 1024), "process 7 of anna");
        assert_eq!(quoted("a\nb\u{1b}[31m\u{202E}c", 1024), "a\\u{a}b\\u{1b}[31m\\u{202e}c");
        let long = quoted(&"é".repeat(1 << 20), 1024);
        assert!(long.len() <= 1024 && long.ends_with("é…"), "{}", long.len());
        assert_eq!(quoted("abcdef", 6), "abcdef", "what fits is not cut");
        assert_eq!(quoted("abcdefg", 6), "abc…");
        // An escape is cut whole, never in the middle.
        assert_eq!(quoted("ab\0\0", 9), "ab…");
    }

    #[test]
    fn typed_remarks_are_fitted_to_what_a_remark_may_hold() {
        assert_eq!(fit_remarks("two lines\n\tand a tab"), ("two lines\n\tand a tab".into(), None));
        let (fitted, said) = fit_remarks("abc\u{202E}fed\0 \u{202E}");
        assert_eq!(fitted, "abcfed ");
        assert_eq!(
            said.unwrap(),
            "left out control or direction-changing characters (U+202E, U+0000), which a remark may not have"
        );
        let (fitted, said) = fit_remarks(&"é".repeat(MAX_REMARKS_CHARS + 5));
        assert_eq!(fitted.chars().count(), MAX_REMARKS_CHARS);
        assert_eq!(said.unwrap(), "cut at 10000 characters, the most a remark may have (5 left out)");
        let (fitted, _) = fit_remarks(&format!("\u{1B}{}", "x".repeat(MAX_REMARKS_CHARS)));
        assert_eq!(remarks_problem(&fitted), None, "what is fitted can be stored");
    }
}
