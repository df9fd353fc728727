//! A set of candidates to work through in the translation window: what a count in the category
//! browser, a lookup or an undo opens.

use super::Session;
use crate::model::CandidateId;

/// A set of candidates to work through, with its title and where to start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub title: String,
    pub set: Vec<CandidateId>,
    pub start: usize,
}

impl Opening {
    /// Every candidate of `candidate`'s category in the session's display order, at `candidate`.
    pub fn of_category(session: &Session, candidate: CandidateId) -> Option<Opening> {
        let master = session.master();
        let position = |c: CandidateId| master.candidate(c).and_then(|c| master.category_position(c));
        let category = position(candidate)?;
        let set: Vec<CandidateId> =
            session.order().iter().copied().filter(|&c| position(c) == Some(category)).collect();
        let start = set.iter().position(|&c| c == candidate)?;
        let title = format!("{} — all", master.categories[category].title());
        Some(Opening { title, set, start })
    }
}
