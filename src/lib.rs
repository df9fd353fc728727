//! PROTEST: a pronoun translation test suite with its annotation workflow.
//!
//! This library holds all the logic of the `protest` tool — the data model, file formats, the
//! translation window's content, conflict rules, batches, matching, statistics and metrics — and
//! no user-interface types. The GUI and the command line are thin shells over it.

pub mod alignment;
pub mod apt;
pub mod atomic;
pub mod autoprf;
pub mod conflicts;
pub mod context;
pub mod correlate;
pub mod error;
pub mod import;
pub mod json;
pub mod lines;
pub mod master_file;
pub mod model;
pub mod pronoun_alignment;
pub mod summary;
pub mod tokens;
pub mod validate;
pub mod window;

pub use error::{Error, Place, Result};
