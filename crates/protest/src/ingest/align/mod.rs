//! Statistical word alignment of tokenised parallel text, for translations that come without
//! one: fast_align's reparameterisation of IBM Model 2 (Dyer, Chahuneau & Smith 2013), trained
//! by EM in both directions and symmetrised with grow-diag-final-and. See docs/alignment.md for
//! the method and its measured quality.
//!
//! Like GIZA++ and fast_align, the models have no separate test stage: train on all the text
//! available, including the sentences to align, then align them.

pub mod bridge;
pub mod quality;
pub mod repair;
mod symmetrise;
mod vocabulary;

pub use protest_align::Settings;
pub use symmetrise::grow_diag_final_and;

use crate::model::alignment::Links;
use protest_align::{Model, UNKNOWN};
use vocabulary::Vocabulary;

/// What the aligner makes of one sentence pair.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guesses {
    /// Both directions symmetrised: the alignment.
    pub symmetric: Links,
    /// The target→source model's links alone (each target word to its likeliest source word):
    /// they link a pronoun a phrase-based translation absorbed into its verb (`make it` →
    /// `rendre`) to that verb, which the symmetrised links rarely keep.
    pub backward: Links,
}

/// Trained models of both directions.
#[derive(Debug)]
pub struct Aligner {
    source_words: Vocabulary,
    target_words: Vocabulary,
    /// Generates target words from source words.
    forward: Model,
    /// Generates source words from target words.
    backward: Model,
}

impl Aligner {
    /// Trains on tokenised sentence pairs (source, target). Both directions train at once, on
    /// two threads.
    pub fn train<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>, settings: &Settings) -> Aligner {
        let mut source_words = Vocabulary::default();
        let mut target_words = Vocabulary::default();
        let (sources, targets): (Vec<_>, Vec<_>) =
            pairs.into_iter().map(|(s, t)| (source_words.encode(s), target_words.encode(t))).unzip();
        let (forward, backward) = std::thread::scope(|scope| {
            let backward = scope.spawn(|| Model::train(&targets, &sources, target_words.len(), settings));
            let forward = Model::train(&sources, &targets, source_words.len(), settings);
            (forward, backward.join().expect("the backward training thread panicked"))
        });
        Aligner { source_words, target_words, forward, backward }
    }

    /// The symmetrised links (source index, target index) of one tokenised sentence pair.
    pub fn align(&self, source: &str, target: &str) -> Links {
        self.guess(source, target).symmetric
    }

    /// The symmetrised links of one tokenised sentence pair, with the target→source model's
    /// own links.
    pub fn guess(&self, source: &str, target: &str) -> Guesses {
        let (forward, backward) = self.directional(source, target);
        let (n, m) = (crate::model::tokens::token_count(source), crate::model::tokens::token_count(target));
        Guesses { symmetric: grow_diag_final_and(n, m, &forward, &backward), backward }
    }

    /// The links of each direction before symmetrisation, both as (source, target) pairs.
    pub fn directional(&self, source: &str, target: &str) -> (Links, Links) {
        let ids =
            |v: &Vocabulary, s: &str| -> Vec<u32> { v.lookup(s).into_iter().map(|w| w.unwrap_or(UNKNOWN)).collect() };
        let (src, tgt) = (ids(&self.source_words, source), ids(&self.target_words, target));
        let forward = self.forward.viterbi(&src, &tgt);
        let backward = self.backward.viterbi(&tgt, &src);
        let forward = forward.iter().enumerate().filter_map(|(t, s)| Some((s.map(|s| s as u32)?, t as u32))).collect();
        let backward =
            backward.iter().enumerate().filter_map(|(s, t)| Some((s as u32, t.map(|t| t as u32)?))).collect();
        (forward, backward)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small English–French text in which every word pair is determined by co-occurrence.
    const PAIRS: [(&str, &str); 11] = [
        ("the house is small", "la maison est petite"),
        ("the house is big", "la maison est grande"),
        ("the car is small", "la voiture est petite"),
        ("a car is big", "une voiture est grande"),
        ("it is small", "elle est petite"),
        ("the red car", "la voiture rouge"),
        ("a red house", "une maison rouge"),
        ("it is red", "elle est rouge"),
        ("red", "rouge"),
        ("car", "voiture"),
        ("house", "maison"),
    ];

    #[test]
    fn aligns_a_toy_corpus_correctly() {
        let aligner = Aligner::train(PAIRS, &Settings::default());
        assert_eq!(aligner.align("the house is small", "la maison est petite"), vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        // Reordering of adjective and noun.
        assert_eq!(aligner.align("the red car", "la voiture rouge"), vec![(0, 0), (1, 2), (2, 1)]);
        assert_eq!(aligner.align("it is red", "elle est rouge"), vec![(0, 0), (1, 1), (2, 2)]);
    }

    #[test]
    fn unseen_words_and_empty_sentences_are_handled() {
        let aligner = Aligner::train(PAIRS, &Settings::default());
        assert_eq!(aligner.align("", "la maison"), vec![]);
        assert_eq!(aligner.align("the house", ""), vec![]);
        let links = aligner.align("the zebra is small", "la zèbre est petite");
        assert!(links.contains(&(0, 0)) && links.contains(&(3, 3)), "{links:?}");
        assert!(links.iter().all(|&(s, t)| s < 4 && t < 4));
    }

    #[test]
    fn case_does_not_matter() {
        let aligner = Aligner::train(PAIRS, &Settings::default());
        assert_eq!(aligner.align("The house is small", "La maison est petite"), vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
    }
}
