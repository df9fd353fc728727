//! Tokenisation of plain text into the conventions of PROTEST's corpora: those of the Moses
//! tokeniser as used for the DiscoMT news data (French elisions split after the apostrophe,
//! `c' est`; punctuation as separate tokens; hyphenated words and numbers kept whole; `&`, `<`
//! and `>` escaped). The rules, with examples, are in docs/tokenisation.md.
//!
//! Tokenising already tokenised text leaves it unchanged (elided words and clitics that are
//! already split off keep their apostrophe), so a user who is unsure whether an MT output is
//! tokenised can let it be tokenised again. The exception is an apostrophe that was split off
//! inside a word that is no elision (`Poor' s`): on its own it reads as a quotation mark.

mod detokenize;
mod prefixes;

pub use detokenize::detokenize;

use prefixes::Prefix;

pub use crate::model::Language;

/// French words that end in an elided vowel, written with the apostrophe they keep as a token.
const FRENCH_ELISIONS: &[&str] = &[
    "c'", "d'", "j'", "l'", "m'", "n'", "s'", "t'", "qu'", "jusqu'", "lorsqu'", "puisqu'", "quoiqu'", "quelqu'",
    "presqu'", "aujourd'",
];

/// English clitics, written with the apostrophe they start with as a token.
const ENGLISH_CLITICS: &[&str] = &["'s", "'t", "'re", "'ve", "'m", "'d", "'ll"];

/// Tokenises one line of plain text: tokens separated by single spaces, no leading or trailing
/// space (see [`crate::model::tokens`]).
pub fn tokenize(line: &str, language: Language) -> String {
    let text = normalise(line);
    let mut tokens = Vec::new();
    for chunk in text.split_whitespace() {
        let chars: Vec<char> = chunk.chars().collect();
        let mut start = 0;
        for (i, &c) in chars.iter().enumerate() {
            if is_special(c) {
                split_word(&chars[start..i], language, &mut tokens);
                tokens.push(c.to_string());
                start = i + 1;
            }
        }
        split_word(&chars[start..], language, &mut tokens);
    }
    split_final_full_stops(&mut tokens, language);
    tokens.iter().map(|t| escape(t)).collect::<Vec<_>>().join(" ")
}

/// Undoes XML escapes (an MT system trained on escaped text may emit them), maps typographic
/// apostrophes inside words and backquotes to `'` and two single quotes to `"`, turns other
/// whitespace into spaces and drops control characters.
fn normalise(line: &str) -> String {
    let line = unescape(line).replace("''", "\"").replace('`', "'");
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    for (i, &c) in chars.iter().enumerate() {
        let between_letters =
            || i > 0 && chars[i - 1].is_alphabetic() && chars.get(i + 1).is_some_and(|n| n.is_alphabetic());
        match c {
            '\u{2019}' if between_letters() => out.push('\''),
            c if c.is_whitespace() => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Characters that always form a token of their own: everything except letters, digits and the
/// four characters whose splitting depends on their neighbours (`.` `'` `,` `-`; the hyphen never
/// splits).
fn is_special(c: char) -> bool {
    !(c.is_alphanumeric() || matches!(c, '.' | '\'' | ',' | '-'))
}

/// Splits a run of letters, digits, `.`, `'`, `,` and `-`: runs of two or more full stops and
/// commas that are not between two digits become tokens; apostrophes follow the language.
fn split_word(word: &[char], language: Language, tokens: &mut Vec<String>) {
    let mut current = String::new();
    let flush = |current: &mut String, tokens: &mut Vec<String>| {
        if !current.is_empty() {
            tokens.push(std::mem::take(current));
        }
    };
    let mut i = 0;
    while i < word.len() {
        let c = word[i];
        let prev = i.checked_sub(1).map(|p| word[p]);
        let next = word.get(i + 1).copied();
        match c {
            '.' if next == Some('.') => {
                let run = word[i..].iter().take_while(|&&d| d == '.').count();
                flush(&mut current, tokens);
                tokens.push(".".repeat(run));
                i += run;
                continue;
            }
            ',' if !(prev.is_some_and(char::is_numeric) && next.is_some_and(char::is_numeric)) => {
                flush(&mut current, tokens);
                tokens.push(",".into());
            }
            '\'' => match apostrophe(language, &current, prev, &word[i + 1..]) {
                Apostrophe::EndsToken => {
                    current.push('\'');
                    flush(&mut current, tokens);
                }
                Apostrophe::StartsToken => {
                    flush(&mut current, tokens);
                    current.push('\'');
                }
                Apostrophe::Alone => {
                    flush(&mut current, tokens);
                    tokens.push("'".into());
                }
            },
            c => current.push(c),
        }
        i += 1;
    }
    flush(&mut current, tokens);
}

/// Where an apostrophe goes.
enum Apostrophe {
    /// `l'|eau`, and `l'` already split off.
    EndsToken,
    /// `don|'t`, `1990|'s`, and `'s` already split off.
    StartsToken,
    /// A quotation mark.
    Alone,
}

/// Decides for an apostrophe after `before` (the token so far; `prev` is the character before
/// it, if any in this word) and before `after` (the rest of the word).
fn apostrophe(language: Language, before: &str, prev: Option<char>, after: &[char]) -> Apostrophe {
    let letter_before = prev.is_some_and(char::is_alphabetic);
    let letter_after = after.first().is_some_and(|c| c.is_alphabetic());
    match language {
        Language::French if letter_before && letter_after => Apostrophe::EndsToken,
        Language::French if letter_before && after.is_empty() && is_elision(before) => Apostrophe::EndsToken,
        Language::English if letter_before && letter_after => Apostrophe::StartsToken,
        Language::English if prev.is_some_and(char::is_numeric) && after.first() == Some(&'s') => {
            Apostrophe::StartsToken
        }
        Language::English if prev.is_none() && is_clitic(after) => Apostrophe::StartsToken,
        _ => Apostrophe::Alone,
    }
}

/// Whether `word` (without its apostrophe) is an elided French word, also at the end of a
/// hyphenated compound (`main-d'`).
fn is_elision(word: &str) -> bool {
    let last = word.rsplit('-').next().unwrap_or(word);
    let word = format!("{}'", last.to_lowercase());
    FRENCH_ELISIONS.contains(&word.as_str())
}

fn is_clitic(after: &[char]) -> bool {
    let clitic: String = std::iter::once('\'').chain(after.iter().flat_map(|c| c.to_lowercase())).collect();
    ENGLISH_CLITICS.contains(&clitic.as_str())
}

/// Splits the full stop off a token that ends a sentence. A token keeps it when it is an
/// abbreviation with inner full stops and letters (`U.S.`, `p.ex.`), a listed abbreviation or an
/// initial (`M.`, `etc.`), or when the next token starts in lower case (`Kft. dans`).
fn split_final_full_stops(tokens: &mut Vec<String>, language: Language) {
    let mut out = Vec::with_capacity(tokens.len() + 1);
    for i in 0..tokens.len() {
        let token = &tokens[i];
        let Some(word) = token.strip_suffix('.').filter(|w| !w.is_empty() && !w.ends_with('.')) else {
            out.push(std::mem::take(&mut tokens[i]));
            continue;
        };
        let next = tokens.get(i + 1).and_then(|t| t.chars().next());
        let keep = (word.contains('.') && word.chars().any(char::is_alphabetic))
            || next.is_some_and(char::is_lowercase)
            || match prefixes::lookup(language, word) {
                Some(Prefix::Always) => true,
                Some(Prefix::BeforeNumber) => next.is_some_and(|c| c.is_ascii_digit()),
                None => false,
            };
        if keep {
            out.push(std::mem::take(&mut tokens[i]));
        } else {
            out.push(word.to_string());
            out.push(".".into());
        }
    }
    *tokens = out;
}

/// The XML escapes of the corpora (only these three characters are escaped there).
fn escape(token: &str) -> String {
    if !token.contains(['&', '<', '>']) {
        return token.to_string();
    }
    token.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Replaces XML character references and the five named entities by their characters; leaves
/// anything else starting with `&` alone.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let entity = rest.find(';').filter(|&end| end <= 10).and_then(|end| Some((decode(&rest[1..end])?, end)));
        match entity {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fr(text: &str) -> String {
        tokenize(text, Language::French)
    }

    fn en(text: &str) -> String {
        tokenize(text, Language::English)
    }

    #[test]
    fn french_elisions_keep_the_apostrophe_on_the_first_part() {
        assert_eq!(fr("C'est l'eau qu'il a bue."), "C' est l' eau qu' il a bue .");
        assert_eq!(fr("J'ai dit qu'aujourd'hui n'est pas d'accord"), "J' ai dit qu' aujourd' hui n' est pas d' accord");
        assert_eq!(fr("jusqu'à lorsqu'on presqu'île"), "jusqu' à lorsqu' on presqu' île");
        assert_eq!(fr("l’eau"), "l' eau", "a typographic apostrophe inside a word is an apostrophe");
        assert_eq!(fr("la main-d'oeuvre"), "la main-d' oeuvre");
    }

    #[test]
    fn lone_apostrophes_are_quotation_marks() {
        assert_eq!(fr("le 'Parrain' de Coppola"), "le ' Parrain ' de Coppola");
        assert_eq!(fr("classe ’ 20"), "classe ’ 20", "a typographic quote between words stays a token");
        assert_eq!(en("the 'Godfather' film"), "the ' Godfather ' film");
    }

    #[test]
    fn english_clitics_keep_the_apostrophe_on_the_second_part() {
        assert_eq!(en("It's the 1990's, don't you think?"), "It 's the 1990 's , don 't you think ?");
        assert_eq!(en("Sotheby's"), "Sotheby 's");
    }

    #[test]
    fn other_languages_split_every_apostrophe() {
        assert_eq!(tokenize("l'acqua", Language::Other), "l ' acqua");
        assert_eq!(Language::from_code("fr-CA"), Language::French);
        assert_eq!(Language::from_code("EN"), Language::English);
        assert_eq!(Language::from_code("es"), Language::Other);
    }

    #[test]
    fn punctuation_symbols_and_quotes_are_tokens() {
        assert_eq!(
            fr("« Oui », dit-il (enfin) : 5% de 20€ ; vraiment ?!"),
            "« Oui » , dit-il ( enfin ) : 5 % de 20 € ; vraiment ? !"
        );
        assert_eq!(fr("Il a dit \"non\"."), "Il a dit \" non \" .");
        assert_eq!(fr("Il a dit ''non''."), "Il a dit \" non \" .");
        assert_eq!(fr("Attendez... voilà…"), "Attendez ... voilà …");
        assert_eq!(fr("a/b [c]"), "a / b [ c ]");
    }

    #[test]
    fn hyphens_never_split() {
        assert_eq!(
            fr("Est-ce peut-être a-t-il lui-même 1964-1993 -- oui - non"),
            "Est-ce peut-être a-t-il lui-même 1964-1993 -- oui - non"
        );
    }

    #[test]
    fn numbers_keep_inner_commas_and_full_stops() {
        assert_eq!(
            fr("1,6 million, 4,488.88 et 15945.7 points,5 000"),
            "1,6 million , 4,488.88 et 15945.7 points , 5 000"
        );
        assert_eq!(fr("il en a 5, pas 6."), "il en a 5 , pas 6 .");
        assert_eq!(en("1,000,000 dollars"), "1,000,000 dollars");
    }

    #[test]
    fn full_stops_end_sentences_except_after_abbreviations() {
        assert_eq!(fr("M. Dupont est arrivé."), "M. Dupont est arrivé .");
        assert_eq!(fr("des pommes, des poires, etc."), "des pommes , des poires , etc.");
        assert_eq!(fr("les U.S. et Mobil.cz."), "les U.S. et Mobil.cz.");
        assert_eq!(fr("la société Pigal Kft. dans les"), "la société Pigal Kft. dans les", "lower case follows");
        assert_eq!(fr("Verdant Power Inc. De New York"), "Verdant Power Inc . De New York");
        assert_eq!(fr("Dr. Motte"), "Dr . Motte", "Dr is not a French abbreviation");
        assert_eq!(en("Dr. Motte and No. 5. No. Yes."), "Dr. Motte and No. 5 . No . Yes .");
        assert_eq!(fr("fin.Début"), "fin.Début", "a full stop inside a token stays");
    }

    #[test]
    fn xml_special_characters_are_escaped_once() {
        assert_eq!(fr("AT&T"), "AT &amp; T");
        assert_eq!(fr("R&amp;D"), "R &amp; D", "escaped input is not escaped twice");
        assert_eq!(fr("( > 89 dB )"), "( &gt; 89 dB )");
        assert_eq!(fr("a &lt; b &quot;c&quot; &#233;t&#xE9;"), "a &lt; b \" c \" été");
        assert_eq!(fr("&unknown; & co"), "&amp; unknown ; &amp; co");
    }

    #[test]
    fn whitespace_and_control_characters() {
        assert_eq!(fr("  un\tdeux\u{a0}trois\u{1}  "), "un deux trois");
        assert_eq!(fr(""), "");
        assert_eq!(fr(" \t "), "");
    }

    #[test]
    fn tokenising_twice_changes_nothing() {
        for (text, language) in [
            ("C'est l'eau qu'il a bue aujourd'hui, jusqu'à 5,3 % de main-d'oeuvre.", Language::French),
            ("Don't say it's 1990's \"news\" at AT&T... Mr. Smith.", Language::English),
        ] {
            let once = tokenize(text, language);
            assert_eq!(tokenize(&once, language), once);
            assert!(crate::model::tokens::malformed(&once).is_none());
        }
    }
}
