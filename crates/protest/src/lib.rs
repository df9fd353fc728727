//! PROTEST: a pronoun translation test suite with its annotation workflow.
//!
//! This crate holds all the logic of the `protest` tool and no user-interface types (Cargo keeps
//! it so: it depends on no GUI or command-line crate). The annotation window
//! (`crates/protest-gui`) and the command line (`src/cli`) are thin shells over it.
//!
//! The modules are domains, each using only those listed before it (the `layers` test reads this
//! list and fails on a module that uses one listed after it; test code may build its fixtures
//! with any):
//!
//! - [`model`]: the data — corpora with their tokens and word alignments, the test suite and its
//!   categories, candidates, annotation records, task sets — as plain values with lookups;
//! - [`annotate`]: one annotator at work, as pure functions — edits, the conflict rules, a
//!   record's status, the category browser, undo, and what the translation window shows;
//! - [`scorers`]: the outside scorers re-implemented, byte for byte — APT and AutoPRF over
//!   corpora, and the numbers as each reference tool prints them;
//! - [`metrics`]: the project's own measures over a master — reports, agreement statistics,
//!   verdicts, the automatic reference match, the scorers against the human judgements.
//!   Scorers and metrics are computations that return what to write and write nothing (they
//!   read their input files only through [`text_file`]);
//! - [`store`]: the files — masters and batches on disk, the journal, atomic writes, validation,
//!   and [`store::Store`], an open file that saves every change durably;
//! - [`batches`]: working with annotators — the roster, task sets, batches made and merged back,
//!   adjudication;
//! - [`ingest`]: masters from outside — from texts, from the original tool's files, a new
//!   system's output; tokenising and aligning;
//! - [`workflow`]: every operation a researcher runs on a master, all or nothing;
//! - [`prediction`]: the cross-lingual pronoun prediction task — its data files, official
//!   scorers and baseline, and a classifier's predictions to and from a master;
//! - [`web`]: annotating over the network — the messages between the web page and
//!   `protest serve`, and what the server does with a page's changes;
//! - [`session`]: a file open for annotation — edits stored durably, undo, what is not saved and
//!   the recovery file that keeps it.
//!
//! Beneath them all, for every layer: [`error`] (a check of a line or a value returns an error
//! enum of its own, with the parts its message names, which the caller wraps with the file and
//! place); text files are read line by line through
//! [`text_file`]; long work says how far it has come through [`progress`], to whichever shell
//! listens; a remedy is worded for the [`shell::Shell`] that shows it. The bundled sample is
//! built in ([`sample`]).
//!
//! The domain rules the code relies on are written out in `docs/domain.md`.

pub mod annotate;
pub mod batches;
pub mod error;
pub mod ingest;
pub mod metrics;
pub mod model;
pub mod prediction;
pub mod progress;
pub mod sample;
pub mod scorers;
pub mod session;
pub mod shell;
pub mod store;
pub mod text_file;
pub mod web;
pub mod workflow;

#[cfg(test)]
mod layers;
#[cfg(test)]
mod testing;

pub use error::{Error, Place, Problems, Result};
