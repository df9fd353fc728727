//! A naive detokeniser: turns tokenised text back into plain text the way a typical MT system
//! prints it. It exists to measure the tokeniser (tokenising its output should give the
//! original tokens back), not to produce publishable text.

use super::{Language, unescape};

/// Joins tokens with the usual spacing: no space before closing punctuation, after opening
/// brackets or after an elided French word; straight double quotes alternate between opening
/// and closing; XML escapes are undone.
pub fn detokenize(tokenised: &str, language: Language) -> String {
    let mut out = String::with_capacity(tokenised.len());
    let mut glue_next = false;
    let mut quote_open = false;
    for token in crate::model::tokens::tokens(tokenised) {
        let token = unescape(token);
        let (glue_before, glue_after) = match token.as_str() {
            "\"" => {
                quote_open = !quote_open;
                (!quote_open, quote_open)
            }
            "," | "." | ";" | ":" | "!" | "?" | "%" | ")" | "]" | "}" | "»" | "..." => (true, false),
            "(" | "[" | "{" | "«" => (false, true),
            t => {
                let elided = language == Language::French && t.len() > 1 && t.ends_with('\'');
                let clitic = language == Language::English && t.len() > 1 && t.starts_with('\'');
                (clitic, elided)
            }
        };
        if !out.is_empty() && !glue_before && !glue_next {
            out.push(' ');
        }
        out.push_str(&token);
        glue_next = glue_after;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tokenize::tokenize;

    #[test]
    fn joins_punctuation_elisions_and_clitics() {
        let fr = "C' est \" vrai \" ( enfin ) : 5 % , l' eau &amp; le vin .";
        assert_eq!(detokenize(fr, Language::French), "C'est \"vrai\" (enfin): 5%, l'eau & le vin.");
        assert_eq!(detokenize("it 's , don 't", Language::English), "it's, don't");
    }

    #[test]
    fn tokenising_the_detokenised_text_gives_the_tokens_back() {
        for line in [
            "Le trader perfide à risqué des milliards à cause de son complexe d' infériorité",
            "M. Dupont ( 54 ans ) l' a dit : \" c' est 1,6 % \" .",
        ] {
            assert_eq!(tokenize(&detokenize(line, Language::French), Language::French), line);
        }
    }
}
