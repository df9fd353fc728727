//! The pronoun alignment repair of APT (paper 000 §2.3) applied to the built-in aligner's
//! output: a source `it` / `they` left unaligned, or aligned to no target pronoun, gains a link
//! to a likely target pronoun near its neighbours' alignments. The heuristic itself is
//! [`crate::scorers::apt::pronoun_repair`]; this module chooses its word lists for a language pair and runs
//! it over a corpus.

use crate::model::alignment::Links;
use crate::model::pronouns::ENGLISH_THIRD_PERSON;
use crate::model::tokens;
use crate::model::{Language, Languages};
use crate::scorers::apt::pronoun_repair::{self, Options, PronounLists};

/// The word lists for a language pair, if the repair knows it: English third-person pronouns
/// (`he` and `she` so that the French pronouns aligned to them are not taken by an `it` nearby)
/// to the target language's subject pronouns. Object clitics (`le`, `la`, `l'`, `les`) are left
/// out: they are also articles, and an unaligned `it` next to a noun would take the article.
pub fn lists(languages: &Languages) -> Option<PronounLists> {
    let target = Language::from_code(&languages.target).pronouns()?;
    (Language::from_code(&languages.source) == Language::English)
        .then(|| PronounLists::new(ENGLISH_THIRD_PERSON.iter().copied(), target.subject.iter().copied()))
}

/// Repairs the links of every sentence pair in place (words compared in lower case, the
/// paper's procedure: [`Options::PAPER`]). Returns how many links were added.
pub fn repair(source: &[String], target: &[String], links: &mut [Links], lists: &PronounLists) -> usize {
    let mut added = 0;
    for ((s, t), l) in source.iter().zip(target).zip(links.iter_mut()) {
        let lower = |sentence: &str| tokens::tokens(sentence).map(str::to_lowercase).collect::<Vec<_>>();
        let repaired = pronoun_repair::repair_links(&lower(s), &lower(t), l, lists, &Options::PAPER);
        added += repaired.len() - l.len();
        *l = repaired;
    }
    added
}

/// The object clitics that stand before the verb they are the object of (`le voir`, `l'
/// incluant`); `y` and `en` are left out, being mostly a preposition and an adverb.
const OBJECT_CLITICS: &[&str] = &["le", "la", "l'", "les", "lui", "leur"];

/// Forms of *avoir* and *être* that stand between an object clitic and a past participle (`il l'
/// a ouverte`).
const AUXILIARIES: &[&str] =
    &["a", "ai", "as", "avons", "avez", "ont", "avait", "avaient", "est", "sont", "était", "étaient"];

/// For a source pronoun at `position` that nothing links (the aligner nor the repair): the
/// object clitic of the translation of the source word before it (`see it` → `le voir`: `see` ↔
/// `voir`, so `it` ↔ `le`) — right before it, before its auxiliary (`opened it` → `l' a
/// ouverte`), or after its hyphen (`believe it` → `croyez-le`) — when no other source word than
/// that verb holds it. French puts object pronouns before the verb, away from the diagonal, where
/// the aligner misses them; articles come before nouns, not before a verb's translation, so
/// taking one is rare. `target` in lower case.
pub fn object_clitic<T: AsRef<str>>(target: &[T], links: &[(u32, u32)], position: u32) -> Option<u32> {
    if links.iter().any(|l| l.0 == position) {
        return None;
    }
    let verb = position.checked_sub(1)?;
    let word = |t: u32| target.get(t as usize).map_or("", |w| w.as_ref());
    let free = |t: u32| links.iter().all(|&(s, y)| y != t || s == verb);
    let mut translations: Vec<u32> = links.iter().filter(|l| l.0 == verb).map(|l| l.1).collect();
    translations.sort_unstable();
    translations.into_iter().find_map(|v| {
        if OBJECT_CLITICS.iter().any(|c| word(v).strip_suffix(c).is_some_and(|w| w.ends_with('-'))) {
            return Some(v);
        }
        let before = v.checked_sub(1)?;
        let clitic = if AUXILIARIES.contains(&word(before)) { before.checked_sub(1)? } else { before };
        (OBJECT_CLITICS.contains(&word(clitic)) && free(clitic)).then_some(clitic)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en_fr() -> Languages {
        Languages { source: "en".into(), target: "fr-FR".into() }
    }

    #[test]
    fn lists_exist_for_english_to_french_only() {
        let lists = lists(&en_fr()).unwrap();
        assert!(lists.is_source_pronoun("it") && lists.is_source_pronoun("they"));
        assert!(lists.target.contains("elles") && lists.target.contains("c'"));
        assert!(!lists.target.contains("la"), "articles are not candidates");
        assert!(super::lists(&Languages { source: "en".into(), target: "de".into() }).is_none());
    }

    #[test]
    fn an_unaligned_object_it_is_linked_to_the_clitic_before_the_verb() {
        // "better to see it once" / "mieux le voir une fois": see ↔ voir.
        let target: Vec<&str> = "mieux le voir une fois".split(' ').collect();
        assert_eq!(object_clitic(&target, &[(0, 0), (2, 2), (4, 3), (5, 4)], 3), Some(1));
        // Before an auxiliary, after a hyphen, or held by the verb itself.
        assert_eq!(object_clitic(&["il", "l'", "a", "ouverte"], &[(0, 0), (1, 3)], 2), Some(1));
        assert_eq!(object_clitic(&["croyez-le", "ou", "non"], &[(0, 0), (2, 1)], 1), Some(0));
        assert_eq!(object_clitic(&["pour", "l'", "utiliser"], &[(0, 0), (1, 1), (1, 2)], 2), Some(1));
        // Already linked, the clitic held by another word, or no clitic before the verb: nothing.
        assert_eq!(object_clitic(&target, &[(2, 2), (3, 4)], 3), None);
        assert_eq!(object_clitic(&target, &[(1, 1), (2, 2)], 3), None);
        assert_eq!(object_clitic(&["voir", "la", "maison"], &[(2, 0)], 3), None);
        assert_eq!(object_clitic(&target, &[], 0), None);
    }

    #[test]
    fn an_unaligned_it_is_linked_to_the_pronoun_between_its_neighbours() {
        // "The bike ? It is red ." / "Le vélo ? Il est rouge ." with "It" unaligned and the
        // sentence-initial capital: the neighbours "?" (2) and "is" (4) point at 2 and 4.
        let source = vec!["The bike ? It is red .".to_string()];
        let target = vec!["Le vélo ? Il est rouge .".to_string()];
        let mut links = vec![vec![(0, 0), (1, 1), (2, 2), (4, 4), (5, 5), (6, 6)]];
        let added = repair(&source, &target, &mut links, &lists(&en_fr()).unwrap());
        assert_eq!(added, 1);
        assert!(links[0].contains(&(3, 3)), "{:?}", links[0]);
        // A second pass finds nothing left to repair.
        assert_eq!(repair(&source, &target, &mut links, &lists(&en_fr()).unwrap()), 0);
    }
}
