//! Tokenised text: one sentence per line, tokens separated by single spaces (docs/domain.md, "Concepts").
//!
//! Token indices in alignments, examples and selections all count tokens this way, so every part
//! of the tool must split sentences with these functions and nothing else.

/// The tokens of a sentence. An empty sentence has no tokens.
pub fn tokens(sentence: &str) -> impl Iterator<Item = &str> + Clone {
    sentence.split(' ').filter(move |_| !sentence.is_empty())
}

/// Number of tokens of a sentence.
pub fn token_count(sentence: &str) -> usize {
    // Counting bytes rather than iterating over the split is what keeps validating the hundreds
    // of thousands of sentences of a large master fast; the two agree (see the tests).
    if sentence.is_empty() { 0 } else { sentence.bytes().filter(|&b| b == b' ').count() + 1 }
}

/// The `index`-th token of a sentence, if there is one.
pub fn token(sentence: &str, index: u32) -> Option<&str> {
    tokens(sentence).nth(index as usize)
}

/// Why a line is not a well-formed tokenised sentence, if it is not.
pub fn malformed(sentence: &str) -> Option<&'static str> {
    if sentence.bytes().any(|b| matches!(b, b'\t' | b'\n' | b'\r')) {
        Some("contains a tab or line break; tokens must be separated by single spaces")
    } else if sentence.starts_with(' ') || sentence.ends_with(' ') {
        Some("starts or ends with a space")
    } else if sentence.contains("  ") {
        Some("has two spaces in a row (an empty token)")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_single_spaces() {
        assert_eq!(tokens("c' est la vie .").collect::<Vec<_>>(), ["c'", "est", "la", "vie", "."]);
        assert_eq!(token_count("c' est la vie ."), 5);
        assert_eq!(token("c' est la vie .", 1), Some("est"));
        assert_eq!(token("c' est", 2), None);
    }

    #[test]
    fn count_agrees_with_the_tokens() {
        for s in ["a", "a b", "c' est la vie .", " a", "a  b", "a ", "é ü ."] {
            assert_eq!(token_count(s), tokens(s).count(), "{s:?}");
        }
    }

    #[test]
    fn empty_sentence_has_no_tokens() {
        assert_eq!(tokens("").count(), 0);
        assert_eq!(token_count(""), 0);
        assert_eq!(token("", 0), None);
    }

    #[test]
    fn rejects_irregular_spacing() {
        assert!(malformed("a  b").is_some());
        assert!(malformed(" a").is_some());
        assert!(malformed("a\tb").is_some());
        assert!(malformed("a b").is_none());
        assert!(malformed("").is_none());
    }
}
