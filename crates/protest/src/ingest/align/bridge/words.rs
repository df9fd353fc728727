//! When two words of two translations of the same sentence are the same word: equal once
//! normalised (case, apostrophe style, Unicode composition), or — where the diff left them apart
//! — the same word inflected, accented differently or elided (`l'` for `le` / `la`).

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// What the diff compares: the word lower-cased, composed, with the typographic apostrophe
/// taken as the plain one (tokenisers disagree on it).
pub fn key(word: &str) -> String {
    word.nfc().flat_map(char::to_lowercase).map(|c| if c == '’' { '\'' } else { c }).collect()
}

/// French elided forms and the words they stand for.
const FRENCH_ELISIONS: &[(&str, &[&str])] = &[
    ("l'", &["le", "la"]),
    ("d'", &["de"]),
    ("j'", &["je"]),
    ("m'", &["me"]),
    ("t'", &["te"]),
    ("s'", &["se", "si"]),
    ("n'", &["ne"]),
    ("c'", &["ce"]),
    ("ç'", &["ça"]),
    ("qu'", &["que"]),
    ("jusqu'", &["jusque"]),
    ("lorsqu'", &["lorsque"]),
    ("puisqu'", &["puisque"]),
    ("quoiqu'", &["quoique"]),
];

/// How alike two keys are, from 0 (unrelated) to 1 (equal): the same word but for its accents,
/// an elision of the other, or the same stem with another ending (`grand` / `grandes`,
/// `était` / `étaient`). Punctuation is only ever like itself.
pub fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    if !is_word(a) || !is_word(b) {
        return 0.0;
    }
    let elides = |x: &str, y: &str| FRENCH_ELISIONS.iter().any(|(e, full)| *e == x && full.contains(&y));
    if elides(a, b) || elides(b, a) {
        return 0.9;
    }
    let (a, b) = (fold(a), fold(b));
    if a == b {
        return 0.95;
    }
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let (short, long) = {
        let (m, n) = (a.chars().count(), b.chars().count());
        (m.min(n), m.max(n))
    };
    if short >= 4 && common == short && long - short <= 3 {
        // One is the other with an ending: number, gender, a verb's person. Not for shorter
        // words, whose endings change the word (`on` / `ont`, `son` / `sont`).
        0.8
    } else if common >= 4 && 2 * common >= long {
        0.7
    } else {
        0.0
    }
}

/// Whether a token holds a letter or a digit (not punctuation).
pub fn is_word(token: &str) -> bool {
    token.chars().any(char::is_alphanumeric)
}

/// Without accents.
fn fold(word: &str) -> String {
    word.nfd().filter(|&c| !is_combining_mark(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_case_apostrophe_style_and_composition() {
        assert_eq!(key("L’"), "l'");
        assert_eq!(key("ÉTAIT"), "était");
        assert_eq!(key("e\u{301}te\u{301}"), "été");
    }

    #[test]
    fn alike_words() {
        assert_eq!(similarity("il", "il"), 1.0);
        assert_eq!(similarity("l'", "la"), 0.9);
        assert_eq!(similarity("le", "l'"), 0.9);
        assert_eq!(similarity("qu'", "que"), 0.9);
        assert_eq!(similarity("l'", "les"), 0.0, "les is no elision of l'");
        assert_eq!(similarity("deja", "déjà"), 0.95);
        assert_eq!(similarity("elle", "elles"), 0.8);
        assert_eq!(similarity("on", "ont"), 0.0);
        assert_eq!(similarity("son", "sont"), 0.0);
        assert_eq!(similarity("grand", "grandes"), 0.8);
        assert_eq!(similarity("était", "étaient"), 0.7);
        assert_eq!(similarity("vélo", "bicyclette"), 0.0);
        assert_eq!(similarity("le", "la"), 0.0, "two different short words");
        assert_eq!(similarity(",", "."), 0.0);
        assert_eq!(similarity(",", "et"), 0.0);
        assert_eq!(similarity(",", ","), 1.0);
    }
}
