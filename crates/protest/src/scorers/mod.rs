//! The outside scorers, re-implemented so that their output is theirs byte for byte, on inputs as
//! large as whole corpora: APT ([`apt`], the reference's `APT.py` with `improve_alignment.py`) and
//! AutoPRF ([`autoprf`], Hardmeier & Federico's scorer). Both find the sentences worth tokenising
//! with [`scan`] and read only the links of the source pronouns ([`links`]); [`numbers`] writes
//! numbers as each reference tool does (the pronoun prediction task's scorers print theirs
//! through it too). docs/metrics.md describes each and every deviation from its reference.
//!
//! Like the project's own measures above them, they compute and write nothing: their input
//! files are read through [`crate::text_file`], and what they return is written by
//! `crate::workflow::metrics`.

pub mod apt;
pub mod autoprf;
pub mod links;
pub mod numbers;
pub mod scan;
