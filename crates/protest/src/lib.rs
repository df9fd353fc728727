//! PROTEST: a pronoun translation test suite with its annotation workflow.
//!
//! This library holds all the logic of the `protest` tool — the data model, file formats, the
//! translation window's content, conflict rules, batches, matching, statistics and metrics — and
//! no user-interface types. The GUI and the command line are thin shells over it.

pub mod add_system;
pub mod adjudication;
pub mod align;
pub mod alignment;
pub mod annotation;
pub mod annotators;
pub mod apt;
pub mod atomic;
pub mod auto_eval;
pub mod autoprf;
pub mod batch;
pub mod conflicts;
pub mod context;
pub mod correlate;
pub mod disk;
pub mod error;
pub mod history;
pub mod import;
pub mod journal;
pub mod json;
pub mod legacy;
pub mod lines;
pub mod lookup;
pub mod master_file;
pub mod merge;
pub mod model;
pub mod overview;
pub mod plan;
pub mod pronoun_alignment;
pub mod report;
pub mod stats;
pub mod store;
pub mod summary;
pub mod synth;
pub mod tokenize;
pub mod tokens;
pub mod validate;
pub mod verdict;
pub mod window;
pub mod workflow;

#[cfg(test)]
mod testing;

pub use error::{Error, Place, Result};
