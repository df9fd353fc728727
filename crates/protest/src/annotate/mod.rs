//! One annotator at work, as pure functions of the model: the edits they make to a record
//! ([`edit`]), the tags offered to them ([`suggestions`]), the conflict rules checked when they
//! leave an example ([`conflicts`]), where each candidate stands ([`status`]) in the category
//! browser ([`browse`]) and in a set ([`progress`]), the undo history ([`history`]), the active time spent on each record ([`timing`]), and what
//! the translation window shows — the context around an example ([`context`]), its tokens and
//! their roles ([`window`]), everyone's annotations side by side ([`overview`]) and the lookup of
//! examples and candidates ([`lookup`]).

pub mod browse;
pub mod conflicts;
pub mod context;
pub mod edit;
pub mod history;
pub mod lookup;
pub mod overview;
pub mod progress;
pub mod status;
pub mod suggestions;
pub mod timing;
pub mod window;

/// Which way a step goes through something ordered: to the one before, or the one after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Back,
    Forward,
}
