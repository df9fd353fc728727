//! The integration tests, as one crate (one build and one link instead of one per file): the
//! `protest` binary run as a user runs it, and the library on the project's fixtures and samples.
//! Each module is one topic; `common` and `legacy_db` are their shared helpers.

mod common;
mod legacy_db;
mod serve;

mod add_system_cli;
mod all_or_nothing_cli;
mod apt_cli;
mod apt_master;
mod auto_eval_cli;
mod autoprf_cli;
mod bad_input;
mod batch_cli;
mod bridge;
mod crash;
mod edges_cli;
mod fuzz_regressions;
mod import_cli;
mod installed_cli;
mod json_output_cli;
mod legacy;
mod legacy_cli;
mod legacy_wild;
mod lock;
mod lying_disk;
mod master_errors;
mod metrics_cli;
mod prediction_baseline_cli;
mod prediction_cli;
mod recovery;
mod report_cli;
mod report_exports_gui;
mod resegment_corpus;
mod sample;
mod sample_batches;
mod serve_browser;
mod serve_cli;
mod shell_cli;
mod suite_cli;
mod tokenize_corpus;
