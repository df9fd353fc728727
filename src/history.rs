//! Undo and redo of record changes within a session.
//!
//! Each step remembers a record before and after a change (`None` = no record), so undoing is
//! just storing the old state again — through the same durable path as any other change.

use crate::model::Record;

/// How many steps are kept.
pub const DEPTH: usize = 100;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub before: Option<Record>,
    pub after: Option<Record>,
}

#[derive(Debug, Clone, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
}

impl History {
    /// Remembers a change; a new change ends the redo chain.
    pub fn push(&mut self, before: Option<Record>, after: Option<Record>) {
        if before == after {
            return;
        }
        self.redo.clear();
        self.undo.push(Step { before, after });
        if self.undo.len() > DEPTH {
            self.undo.remove(0);
        }
    }

    /// The step to revert (store its `before`), if any.
    pub fn undo(&mut self) -> Option<Step> {
        let step = self.undo.pop()?;
        self.redo.push(step.clone());
        Some(step)
    }

    /// The step to redo (store its `after`), if any.
    pub fn redo(&mut self) -> Option<Step> {
        let step = self.redo.pop()?;
        self.undo.push(step.clone());
        Some(step)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, Judgement};

    fn rec(j: Judgement) -> Option<Record> {
        let mut r = Record::new(CandidateId(1), AnnotatorId(1), chrono::DateTime::UNIX_EPOCH);
        r.pronoun = j;
        Some(r)
    }

    #[test]
    fn undo_and_redo_walk_the_steps() {
        let mut h = History::default();
        h.push(None, rec(Judgement::Yes));
        h.push(rec(Judgement::Yes), rec(Judgement::No));
        let s = h.undo().unwrap();
        assert_eq!(s.before, rec(Judgement::Yes));
        let s = h.undo().unwrap();
        assert_eq!(s.before, None);
        assert!(h.undo().is_none() && h.can_redo());
        assert_eq!(h.redo().unwrap().after, rec(Judgement::Yes));
        h.push(rec(Judgement::Yes), rec(Judgement::Unset));
        assert!(!h.can_redo(), "a new change ends the redo chain");
    }

    #[test]
    fn keeps_the_last_hundred_steps() {
        let mut h = History::default();
        h.push(None, rec(Judgement::Yes));
        for i in 0..150 {
            let (a, b) = if i % 2 == 0 { (Judgement::Yes, Judgement::No) } else { (Judgement::No, Judgement::Yes) };
            h.push(rec(a), rec(b));
        }
        let mut n = 0;
        while h.undo().is_some() {
            n += 1;
        }
        assert_eq!(n, DEPTH);
    }
}
