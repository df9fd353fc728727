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
