//! APT, the Accuracy of Pronoun Translation (paper 000), compatible with its reference tool
//! (`APT.py` with `improve_alignment.py`).
//!
//! [`config`] reads the reference's INI configuration, [`instances`] finds the source pronouns and
//! their translations in the parallel files, [`rules`] decides each instance's [`case::Case`],
//! [`run`] puts it together and [`output`] formats the reference's `.score` and `.detail` files
//! (`crate::workflow::metrics` writes them).
//! [`master`] runs APT over a master's candidates (`crate::metrics::apt_human` sets that against
//! the human judgements).
//! docs/metrics.md describes the configuration and every deviation from the reference.

pub mod case;
pub mod config;
pub mod ini;
pub mod instances;
pub mod master;
pub mod matrix;
pub mod output;
pub mod pronoun_repair;
pub mod reference_order;
pub mod rules;
pub mod run;
pub mod words;

pub use case::{Case, CaseCounts, Weighting};
pub use config::AptConfig;
pub use master::{MasterApt, Preset, SystemApt, evaluate_master};
pub use run::{AptOutcome, evaluate};
