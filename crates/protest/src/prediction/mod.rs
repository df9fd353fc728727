//! Cross-lingual pronoun prediction, the classification task of DiscoMT 2015 and WMT 2016/17
//! (docs/pronoun-prediction.md): a system predicts the class of the target pronoun that fills
//! each `REPLACE_<i>` placeholder of a human translation.
//!
//! - [`data`]: the task's five-column data file (plain or gzip) and its `.doc-ids`;
//! - [`kind`]: which task a data file is of, from its name and layout (the default scorer);
//! - [`classes`]: the classes of each language pair and scorer, and the words mapped onto them;
//! - [`score`]: the official scorers' statistics and official score, refusing what they refuse;
//! - [`report`]: the scorers' report, character for character;
//! - [`tables`]: the scores as report tables (ranking, confusion matrix, per class);
//! - [`browse`]: a classifier's errors, cell by cell of its confusion matrix, for the window;
//! - [`extract`] and [`import`]: a master's examples as a data set, and a classifier's
//!   predictions for it back into the master as a system;
//! - [`lm`] and [`baseline`]: n-gram language models (ARPA, KenLM's probabilities, lmplz's
//!   estimation) and the shared tasks' language-model baseline.

pub mod baseline;
pub mod browse;
pub mod classes;
pub mod data;
pub mod extract;
pub mod import;
pub mod kind;
pub mod lm;
pub mod report;
pub mod score;
pub mod tables;

pub use classes::{ClassSet, Pair, Scorer, Task};
pub use data::{DataLine, DataSet, Placeholder};
pub use score::{Confusion, Counter, Evaluation, Macro, Refusal, Scores, score_files};
