//! Working with annotators (docs/batches.md): the roster of a master ([`annotators`]), planning
//! task sets ([`plan`]), making batches from them ([`export`]), merging annotated batches back
//! ([`merge`]) and adjudicating what annotators disagree on ([`adjudication`]). These are the
//! rules, as pure functions of the master; [`crate::workflow`] runs them all or nothing.

pub mod adjudication;
pub mod annotators;
pub mod export;
pub mod merge;
pub mod plan;
