//! The panels of the two views: the category browser, the translation with its annotation or
//! overview panel beside it, and the report with its tables and chart. Each is a small struct
//! (or function) with a `ui` method that draws the session's state and returns what the user did;
//! and the pronoun prediction task's results, which need no open file.

pub mod annotation;
pub mod browser;
pub mod overview;
pub mod prediction;
pub mod report;
pub mod report_table;
pub mod score_chart;
pub mod tag_box;
pub mod translation;
pub mod typed;
