//! How much of the nouns of the news corpus's French reference the lexicon built in knows, and
//! how many of them have one gender, as the agreement judge needs (docs/auto-eval.md, "The
//! lexicon"). A noun here is the word after an article or a determiner that is not a number,
//! punctuation, a function word, a pronoun (`ce qui`, `l'on`) or a number in words. A capitalised
//! word is looked up as written, as the judge looks up a word inside a sentence.
//!
//!     cargo run --release -p protest --example lexicon_coverage -- [DATA_DIR] [--show N]
//!
//! DATA_DIR defaults to the nearest `shared/data/discomt-news-en-fr` above the current folder;
//! `--show N` lists the N most frequent words the lexicon does not know as nouns.

use protest::model::lexicon::Lexicon;
use protest::model::pronouns::FRENCH;
use protest::model::tokens;
use std::collections::HashMap;

mod common;

const DETERMINERS: &[&str] = &[
    "le", "la", "les", "l'", "un", "une", "des", "du", "ce", "cet", "cette", "ces", "mon", "ma", "mes", "ton", "ta",
    "tes", "son", "sa", "ses", "notre", "nos", "votre", "vos", "leurs", "au", "aux",
];

/// Words after a determiner that are no nouns: relatives and negation after `ce` (`ce qui`,
/// `ce n'est`), numbers in words (`les deux`).
const NOT_NOUNS: &[&str] = &[
    "qui", "que", "qu'", "quoi", "dont", "n'", "ne", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
    "dix", "onze", "douze", "quinze", "vingt", "trente", "cent", "mille",
];

#[derive(Default)]
struct Count {
    tokens: usize,
    types: usize,
}

fn main() -> common::Result<()> {
    let common::Args { data, show } = common::Args::parse()?;
    let lexicon = Lexicon::french();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for line in common::lines(&data.join("pronoun-test.tok.fr"))? {
        let words: Vec<String> = tokens::tokens(&line).map(|w| w.replace('’', "'")).collect();
        for pair in words.windows(2) {
            let (before, word) = (pair[0].to_lowercase(), &pair[1]);
            let lower = word.to_lowercase();
            let noun_like = word.chars().any(char::is_alphabetic)
                && !word.chars().any(|c| c.is_ascii_digit())
                && !FRENCH.is_function_word(&lower)
                && FRENCH.form_of(&lower).is_none()
                && !NOT_NOUNS.contains(&lower.as_str());
            if DETERMINERS.contains(&before.as_str()) && noun_like {
                *seen.entry(word.clone()).or_default() += 1;
            }
        }
    }
    let mut classes: [Count; 6] = Default::default();
    let mut unknown: Vec<(&String, usize)> = Vec::new();
    for (word, &n) in &seen {
        // As the judge looks words up: a capital after a determiner is a name's, not looked up in
        // lower case.
        let class = match lexicon.get(word) {
            Some(e) if e.noun.gender().is_some() => 0,
            Some(e) if e.is_noun() => 1,
            Some(_) => 2,
            None if word.starts_with(char::is_uppercase) => match lexicon.get(&word.to_lowercase()) {
                Some(e) if e.is_noun() => 4,
                _ => 5,
            },
            None => 3,
        };
        if class >= 2 {
            unknown.push((word, n));
        }
        classes[class].tokens += n;
        classes[class].types += 1;
    }
    let (tokens, types) = (classes.iter().map(|c| c.tokens).sum::<usize>(), seen.len());
    let percent = |n: usize, of: usize| 100.0 * n as f64 / of as f64;
    println!("| words after a determiner | tokens | % | distinct | % |");
    println!("|---|---:|---:|---:|---:|");
    let names = [
        "a noun of one gender",
        "a noun of either gender (epicene, or two nouns)",
        "known, not as a noun (an adjective, a participle)",
        "not in the lexicon",
        "capitalised, a noun in lower case (État, Banque: not looked up so)",
        "capitalised, not in the lexicon (a name, an acronym)",
    ];
    for (name, c) in names.iter().zip(&classes) {
        println!(
            "| {name} | {} | {:.1} | {} | {:.1} |",
            c.tokens,
            percent(c.tokens, tokens),
            c.types,
            percent(c.types, types)
        );
    }
    println!("| all | {tokens} | 100.0 | {types} | 100.0 |");
    unknown.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (word, n) in unknown.iter().take(show) {
        println!("{n:>6} {word}");
    }
    Ok(())
}
