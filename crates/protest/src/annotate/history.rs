//! Undo and redo of record changes within a session.
//!
//! Each step remembers a whole record before and after a change (`None` = no record), so undoing
//! is just storing the old state again — through the same durable path as any other change.
//! When the record is later settled by the conflict checks (clear, or kept with its conflicts),
//! the step's `after` takes that status in ([`History::settled`]): redoing it gives back the
//! record as it was left, not as it was typed.

use crate::model::{AnnotatorId, CandidateId, Master, Record, Role, TokenRef};
use std::collections::VecDeque;

/// How many steps are kept.
pub const DEPTH: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub before: Option<Record>,
    pub after: Option<Record>,
}

impl Step {
    /// The record the step is about: (candidate, annotator). A step always has a record on at
    /// least one side ([`History::push`] keeps no other).
    pub fn key(&self) -> (CandidateId, AnnotatorId) {
        let record = self.before.as_ref().or(self.after.as_ref()).expect("a step has a record");
        (record.candidate, record.annotator)
    }

    /// What the change did, in words: `pronoun set to yes`, `tag bad_translation added`.
    pub fn describe(&self, master: &Master) -> String {
        describe(master, self.before.as_ref(), self.after.as_ref())
    }
}

#[derive(Debug, Clone, Default)]
pub struct History {
    undo: VecDeque<Step>,
    redo: Vec<Step>,
}

impl History {
    /// Remembers a change; a new change ends the redo chain.
    pub fn push(&mut self, before: Option<Record>, after: Option<Record>) {
        if before == after {
            return;
        }
        self.redo.clear();
        self.undo.push_back(Step { before, after });
        if self.undo.len() > DEPTH {
            self.undo.pop_front();
        }
    }

    /// The record was settled (its conflict status stored, content unchanged): the latest step
    /// that made it takes the settled record as its `after`, so that redo restores it whole.
    pub fn settled(&mut self, record: &Record) {
        let key = (record.candidate, record.annotator);
        let Some(step) = self.undo.iter_mut().rev().find(|s| s.key() == key) else { return };
        if let Some(after) = &mut step.after
            && after.same_content(record)
        {
            *after = record.clone();
        }
    }

    /// The step to revert (store its `before`), if any.
    pub fn undo(&mut self) -> Option<Step> {
        let step = self.undo.pop_back()?;
        self.redo.push(step.clone());
        Some(step)
    }

    /// The step to redo (store its `after`), if any.
    pub fn redo(&mut self) -> Option<Step> {
        let step = self.redo.pop()?;
        self.undo.push_back(step.clone());
        Some(step)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

/// What changed from `before` to `after` (the same record, or none on one side), in words for
/// the annotator: `pronoun set to yes`, `“Il” selected for the pronoun`, `tag bad_translation
/// removed`, `remarks`. Several changes are joined with commas.
pub fn describe(master: &Master, before: Option<&Record>, after: Option<&Record>) -> String {
    let Some(any) = before.or(after) else { return "nothing".into() };
    let blank = Record::new(any.candidate, any.annotator, any.created);
    let (b, a) = (before.unwrap_or(&blank), after.unwrap_or(&blank));
    let mut parts = Vec::new();
    for role in Role::ALL {
        let name = match role {
            Role::Pronoun => "pronoun",
            Role::Antecedent => "antecedent head",
        };
        if b.judgement(role) != a.judgement(role) {
            parts.push(format!("{name} set to {}", judgement_word(a.judgement(role))));
        }
        let word = |t: &TokenRef| {
            let corpus = master.candidate(any.candidate).and_then(|c| master.corpus(c.corpus));
            corpus.and_then(|c| c.token(*t)).map_or_else(|| t.to_string(), |w| format!("“{w}”"))
        };
        for t in a.selected.get(role).difference(b.selected.get(role)) {
            parts.push(format!("{} selected for the {name}", word(t)));
        }
        for t in b.selected.get(role).difference(a.selected.get(role)) {
            parts.push(format!("{} deselected for the {name}", word(t)));
        }
    }
    parts.extend(a.tags.difference(&b.tags).map(|t| format!("tag {t} added")));
    parts.extend(b.tags.difference(&a.tags).map(|t| format!("tag {t} removed")));
    if a.remarks != b.remarks {
        parts.push("remarks changed".into());
    }
    if parts.is_empty() && a.conflict != b.conflict {
        parts.push("conflict status".into());
    }
    if parts.is_empty() { "nothing".into() } else { parts.join(", ") }
}

fn judgement_word(j: crate::model::Judgement) -> &'static str {
    match j {
        crate::model::Judgement::Yes => "yes",
        crate::model::Judgement::No => "no",
        crate::model::Judgement::Unset => "unset",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Conflict;
    use crate::model::{ConflictStatus, Judgement};

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
    fn keeps_at_least_the_last_hundred_steps() {
        let mut h = History::default();
        h.push(None, rec(Judgement::Yes));
        for i in 0..DEPTH + 50 {
            let (a, b) = if i % 2 == 0 { (Judgement::Yes, Judgement::No) } else { (Judgement::No, Judgement::Yes) };
            h.push(rec(a), rec(b));
        }
        let mut n = 0;
        while h.undo().is_some() {
            n += 1;
        }
        assert_eq!(n, DEPTH);
        const { assert!(DEPTH >= 100, "at least 100 steps per session") };
    }

    #[test]
    fn a_settled_record_is_what_redo_gives_back() {
        let mut h = History::default();
        h.push(None, rec(Judgement::Yes));
        let kept = Record {
            conflict: ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens]),
            ..rec(Judgement::Yes).unwrap()
        };
        h.settled(&kept);
        // Another record's settling changes nothing here.
        let other = Record { candidate: CandidateId(2), ..kept.clone() };
        h.settled(&other);
        // Neither does a record whose content differs from the step's (changed since).
        h.settled(&Record { remarks: "later".into(), ..kept.clone() });
        assert_eq!(h.undo().unwrap().after.as_ref(), Some(&kept));
        assert_eq!(h.redo().unwrap().after, Some(kept));
    }

    #[test]
    fn changes_are_described_in_words() {
        let m = crate::testing::tiny();
        let r = |c: u32| Record::new(CandidateId(c), AnnotatorId(1), chrono::DateTime::UNIX_EPOCH);
        let yes = Record { pronoun: Judgement::Yes, ..r(1) };
        assert_eq!(describe(&m, None, Some(&yes)), "pronoun set to yes");
        assert_eq!(describe(&m, Some(&yes), None), "pronoun set to unset");
        let mut selected = yes.clone();
        selected.selected.pronoun.insert(TokenRef::new(1, 0));
        selected.antecedent = Judgement::No;
        selected.tags.insert("bad_translation".into());
        assert_eq!(
            describe(&m, Some(&yes), Some(&selected)),
            "“Il” selected for the pronoun, antecedent head set to no, tag bad_translation added"
        );
        assert_eq!(
            describe(&m, Some(&selected), Some(&yes)),
            "“Il” deselected for the pronoun, antecedent head set to unset, tag bad_translation removed"
        );
        let remarks = Record { remarks: "hm".into(), ..yes.clone() };
        assert_eq!(describe(&m, Some(&yes), Some(&remarks)), "remarks changed");
        let step = Step { before: None, after: Some(yes) };
        assert_eq!((step.key(), step.describe(&m)), ((CandidateId(1), AnnotatorId(1)), "pronoun set to yes".into()));
    }
}
