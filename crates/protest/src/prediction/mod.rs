//! Cross-lingual pronoun prediction (docs/pronoun-prediction.md).

pub mod lm;
