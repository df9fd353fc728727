//! The pronoun alignment repair of APT (paper 000 §2.3) applied to the built-in aligner's
//! output: a source `it` / `they` left unaligned, or aligned to no target pronoun, gains a link
//! to a likely target pronoun near its neighbours' alignments. The heuristic itself is
//! [`crate::metrics::apt::pronoun_repair`]; this module chooses its word lists for a language pair and runs
//! it over a corpus.

use crate::metrics::apt::pronoun_repair::{self, Options, PronounLists};
use crate::model::alignment::Links;
use crate::model::pronouns::ENGLISH_THIRD_PERSON;
use crate::model::tokens;
use crate::model::{Language, Languages};

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
