//! N-gram language models as the pronoun prediction baseline uses them: backoff models in the
//! ARPA text format, scored exactly as KenLM scores them, and estimated from plain text as
//! KenLM's `lmplz` estimates them (docs/pronoun-prediction.md, "The baseline and its language
//! model").
//!
//! - [`model`]: a backoff model in memory and the log10 probability it gives a word after its
//!   context, or a whole sentence between `<s>` and `</s>`;
//! - [`arpa`]: the ARPA text format, read into a [`Model`] and written by [`train`];
//! - [`train`]: interpolated modified Kneser–Ney estimation.

pub mod arpa;
pub mod model;
pub mod train;

pub use model::{Model, State, WordId};

/// The words of a line of text, for training and for scoring alike: separated by spaces, tabs
/// and the other ASCII white space (as KenLM's tools and Python's `split` separate them on such
/// text); any other character, a no-break space included, belongs to a word.
pub fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split([' ', '\t', '\n', '\r', '\x0b', '\x0c', '\0']).filter(|w| !w.is_empty())
}

/// The markers a model reserves: its text may not contain them as words.
pub const BEGIN: &str = "<s>";
pub const END: &str = "</s>";
pub const UNKNOWN: &str = "<unk>";

/// Models for tests: the hand-made one and ones trained on the news fixture.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Model, arpa, train};

    /// tests/fixtures/lm/hand.arpa: a trigram model written by hand (see arpa.rs's tests).
    pub const HAND: &str = include_str!("../../../../../tests/fixtures/lm/hand.arpa");
    /// tests/fixtures/lm/news.fr.txt: the first 200 sentences of the news corpus's French side.
    pub const NEWS: &str = include_str!("../../../../../tests/fixtures/lm/news.fr.txt");

    pub fn read(arpa_text: &str) -> Model {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.arpa");
        std::fs::write(&path, arpa_text).unwrap();
        arpa::read(&path).unwrap().model
    }

    /// The model `train-lm` estimates from `text`, as ARPA text.
    pub fn trained_arpa(text: &str, order: usize) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("text.txt");
        std::fs::write(&path, text).unwrap();
        let options =
            train::Options { order, discount_fallback: false, skip_symbols: false, max_ngrams: train::MAX_NGRAMS };
        let mut out = Vec::new();
        train::train(&path, &options).unwrap().write_arpa(&mut out).unwrap();
        out
    }

    pub fn news(order: usize) -> Model {
        read(std::str::from_utf8(&trained_arpa(NEWS, order)).unwrap())
    }
}

#[cfg(test)]
mod tests {
    use super::testing;

    /// KenLM's own probabilities (its Python module, `scripts/kenlm-oracle`, which regenerates
    /// the file: KenLM is not installed for the tests) of tests/fixtures/lm/sentences.txt under
    /// the hand-made model and under the trigram model our trainer makes of the news fixture.
    const KENLM: &str = include_str!("../../../../../tests/fixtures/lm/kenlm-scores.tsv");
    const SENTENCES: &str = include_str!("../../../../../tests/fixtures/lm/sentences.txt");

    fn fnv1a(bytes: &[u8]) -> u64 {
        bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    }

    #[test]
    fn kenlm_gives_the_same_probabilities() {
        let news3 = testing::trained_arpa(testing::NEWS, 3);
        let hash = KENLM.lines().find_map(|l| l.strip_prefix("# news3 = ")).and_then(|l| l.rsplit(' ').next());
        assert_eq!(
            hash,
            Some(format!("{:016x}", fnv1a(&news3)).as_str()),
            "the trainer's model of the news fixture is not the one KenLM scored: run scripts/kenlm-oracle"
        );
        let models =
            [("hand", testing::read(testing::HAND)), ("news3", testing::read(std::str::from_utf8(&news3).unwrap()))];
        let sentences: Vec<&str> = SENTENCES.lines().collect();
        let mut compared = 0;
        for line in KENLM.lines().filter(|l| !l.starts_with('#')) {
            let [name, number, kenlm] = line.split('\t').collect::<Vec<_>>()[..] else { panic!("{line}") };
            let model = &models.iter().find(|(n, _)| *n == name).unwrap().1;
            let sentence = sentences[number.parse::<usize>().unwrap() - 1];
            let ours = f64::from(model.sentence(super::words(sentence)));
            let kenlm: f64 = kenlm.parse().unwrap();
            assert!((ours - kenlm).abs() < 1e-4, "{name}, {sentence:?}: ours {ours}, KenLM {kenlm}");
            compared += 1;
        }
        assert_eq!(compared, 2 * sentences.len());
    }
}
