//! Sentences of a re-segmented output that a translation already in the master vouches for. The
//! re-segmentation leaves to people every sentence whose boundaries the output itself leaves open
//! (`ingest::resegment`), yet where the output's translation of a sentence is word for word a
//! stored translation's of the same sentence — the reference's, whose boundaries are the source's
//! — its boundaries are that translation's: they are known, not inferred. An exact copy of the
//! reference given as paragraphs is then settled as one given line per sentence is.

use super::{Bridge, Through, bridges, words};
use crate::model::tokens;
use crate::model::{Master, Origin, Segmentation};

/// The sentences of low confidence in `segmentation` (of `sentences`, the output's translation
/// of each source sentence) that a translation the output may be aligned through ([`bridges`])
/// vouches for: the same tokens as its translation of the sentence (but for case and apostrophe
/// style), which it does not doubt itself, and which is not also its translation of a neighbour.
/// A sentence holding its neighbour's translation too, or none, is never vouched for.
pub fn vouched(master: &Master, through: Through, sentences: &[String], segmentation: &Segmentation) -> Vec<u32> {
    let bridges = bridges(master, through);
    segmentation
        .low_confidence
        .iter()
        .copied()
        .filter(|&s| !matches!(segmentation.origin(s), Origin::Merged | Origin::WithPrevious | Origin::Omitted))
        .filter(|&s| {
            let mine = key(sentences.get(s as usize).map_or("", String::as_str));
            !mine.is_empty() && bridges.iter().any(|b| vouches(master, b, s, &mine))
        })
        .collect()
}

/// A sentence's tokens as the monolingual alignment compares them.
fn key(sentence: &str) -> Vec<String> {
    tokens::tokens(sentence).map(words::key).collect()
}

/// Whether `bridge`'s translation of sentence `s` is `mine`, sure of its own boundaries, and not
/// its translation of the sentence before or after too (a repeated line could be either).
fn vouches(master: &Master, bridge: &Bridge, s: u32, mine: &[String]) -> bool {
    let text = |s: u32| bridge.sentences.get(s as usize).map(|t| key(t));
    let sure = master.corpus(bridge.corpus).is_some_and(|c| !c.is_uncertain(s));
    let repeated = [s.checked_sub(1), s.checked_add(1)].into_iter().flatten().any(|n| text(n).as_deref() == Some(mine));
    sure && text(s).as_deref() == Some(mine) && !repeated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::add_system::{self, NewSystem, Options, Output};
    use crate::ingest::align::bridge::held_out::paragraphs;
    use std::path::Path;

    fn prepare(master: &Master, lines: &[String], bridge: Through) -> NewSystem {
        let options = Options { bridge, ..Options::default() };
        add_system::prepare(master, "copy", Output::file(Path::new("copy.fr"), lines), &options).unwrap()
    }

    fn low_confidence(system: &NewSystem) -> Vec<u32> {
        system.corpus.segmentation.as_ref().map(|s| s.low_confidence.clone()).unwrap_or_default()
    }

    #[test]
    fn a_copy_of_the_reference_as_paragraphs_is_vouched_for_where_it_has_the_same_words() {
        let sample = crate::testing::sample();
        let mut reference = sample.reference().unwrap().sentences.as_slice().unwrap().to_vec();
        // Without a bridge, the boundaries the paragraphs leave open are left to people.
        let alone = prepare(&sample, &paragraphs(&sample, &reference), Through::Nothing);
        let open = low_confidence(&alone);
        assert!(open.len() > 50, "{open:?}");
        assert!(alone.segmented.as_ref().unwrap().vouched.is_empty());
        // Through the reference, every one of them has the reference's words: none is left.
        let copy = prepare(&sample, &paragraphs(&sample, &reference), Through::Reference);
        assert_eq!(low_confidence(&copy), Vec::<u32>::new());
        let summary = copy.segmented.as_ref().unwrap();
        assert_eq!((&summary.vouched, &summary.low_confidence), (&open, &vec![]));
        assert!(copy.report().lines(1.0).iter().any(|l| l.starts_with("vouched for by a translation in the master")));
        // A word changed in one of them: that one is left to people again.
        let edited = open[open.len() / 2];
        let words: Vec<&str> = tokens::tokens(&reference[edited as usize]).collect();
        let middle = words.len() / 2;
        reference[edited as usize] = [&words[..middle], &["vraiment"], &words[middle..]].concat().join(" ");
        let changed = prepare(&sample, &paragraphs(&sample, &reference), Through::Reference);
        assert!(low_confidence(&changed).contains(&edited), "{:?}", low_confidence(&changed));
        assert!(!changed.segmented.as_ref().unwrap().vouched.contains(&edited));
    }

    fn reference_of(master: &mut Master, id: crate::model::CorpusId) -> &mut crate::model::Corpus {
        master.corpora.iter_mut().find(|c| c.id == id).unwrap()
    }

    #[test]
    fn a_sentence_the_bridge_doubts_or_repeats_is_not_vouched_for() {
        let mut master = crate::testing::sample();
        let reference = master.reference().unwrap().sentences.as_slice().unwrap().to_vec();
        let all = Segmentation { low_confidence: vec![3, 4, 5], ..Segmentation::default() };
        assert_eq!(vouched(&master, Through::Reference, &reference, &all), [3, 4, 5]);
        assert_eq!(vouched(&master, Through::Nothing, &reference, &all), Vec::<u32>::new());
        // Sentence 4 the same as sentence 5 in the reference: either could be the output's.
        let mut repeated = reference.clone();
        repeated[4] = repeated[5].clone();
        let id = master.reference().unwrap().id;
        reference_of(&mut master, id).sentences = repeated.clone().into();
        assert_eq!(vouched(&master, Through::Reference, &repeated, &all), [3]);
        // The reference's own boundaries in doubt at sentence 3; the output's 3 holding 4 too.
        let corpus = reference_of(&mut master, id);
        corpus.sentences = reference.clone().into();
        corpus.segmentation = Some(Segmentation { low_confidence: vec![3], ..Segmentation::default() });
        assert_eq!(vouched(&master, Through::Reference, &reference, &all), [4, 5]);
        let merged = Segmentation { merged: vec![4], with_previous: vec![5], ..all };
        assert_eq!(vouched(&master, Through::Reference, &reference, &merged), Vec::<u32>::new());
    }
}
