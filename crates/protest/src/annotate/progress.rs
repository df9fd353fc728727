//! How far an annotator is through a set of candidates: counted once ([`progress`]) or kept up to
//! date one change at a time ([`SetProgress`]).

use crate::annotate::status::status_of;
use crate::model::{AnnotatorId, CandidateId, Master};
use std::collections::HashSet;

/// How many of `set` `annotator` has annotated (done or with conflicts; a record with notes but
/// no judgement is still to do).
pub fn progress(master: &Master, annotator: AnnotatorId, set: &[CandidateId]) -> usize {
    set.iter().filter(|&&c| status_of(master, c, annotator).annotated()).count()
}

/// [`progress`] kept up to date one change at a time, for a window showing it every frame: the
/// set may hold tens of thousands of candidates, [`SetProgress::update`] looks at one.
#[derive(Debug, Clone)]
pub struct SetProgress {
    annotator: AnnotatorId,
    members: HashSet<CandidateId>,
    annotated: HashSet<CandidateId>,
}

impl SetProgress {
    /// The progress of `annotator` on `set` (a set: a candidate repeated in it counts once).
    pub fn new(master: &Master, annotator: AnnotatorId, set: &[CandidateId]) -> Self {
        let members: HashSet<CandidateId> = set.iter().copied().collect();
        let annotated = members.iter().copied().filter(|&c| status_of(master, c, annotator).annotated()).collect();
        SetProgress { annotator, members, annotated }
    }

    /// How many of the set are annotated.
    pub fn count(&self) -> usize {
        self.annotated.len()
    }

    /// Takes in the current status of `candidate`, after its record changed.
    pub fn update(&mut self, master: &Master, candidate: CandidateId) {
        if !self.members.contains(&candidate) {
            return;
        }
        if status_of(master, candidate, self.annotator).annotated() {
            self.annotated.insert(candidate);
        } else {
            self.annotated.remove(&candidate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::edit::{Edit, apply};
    use crate::model::{Judgement, Record, Role};
    use crate::testing::{ANNA, bare_tiny as tiny, edit};
    use chrono::Utc;

    #[test]
    fn progress_counts_annotated_candidates_of_the_set() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let set = [CandidateId(3), CandidateId(4), CandidateId(5)];
        assert_eq!(progress(&m, ANNA, &set), 0);
        let r = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        m.records.put(r);
        m.records.put(Record::new(CandidateId(5), ANNA, Utc::now())); // blank: still new
        let r = edit(&m, 1, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        m.records.put(r); // not in the set
        assert_eq!(progress(&m, ANNA, &set), 1);
        assert_eq!(progress(&m, AnnotatorId::RESEARCHER, &set), 0);
    }

    #[test]
    fn progress_follows_changes_one_candidate_at_a_time() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let set = [CandidateId(4), CandidateId(2), CandidateId(5)];
        let mut kept = SetProgress::new(&m, ANNA, &set);
        assert_eq!(kept.count(), 0);
        let changes = [(4, true), (1, true), (5, true), (4, false), (2, true)];
        for (c, judged) in changes {
            if judged {
                let r = edit(&m, c, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
                m.records.put(r);
            } else {
                m.records.remove(CandidateId(c), ANNA);
            }
            kept.update(&m, CandidateId(c));
            assert_eq!(kept.count(), progress(&m, ANNA, &set), "after changing {c}");
        }
        assert_eq!(kept.count(), 2);
        // Another annotator's record does not count.
        let theirs = apply(&m, CandidateId(4), AnnotatorId(2), None, Edit::Remarks("x".into()), Utc::now()).unwrap();
        m.records.put(theirs);
        kept.update(&m, CandidateId(4));
        assert_eq!(kept.count(), 2);
    }
}
