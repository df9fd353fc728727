//! Where a candidate stands for one annotator — new, to do with notes, done or with conflicts —
//! derived from its record and the conflict rules every time it is asked, never taken from what a
//! file says (docs/domain.md, "Record status"). Done means judged: a record with remarks or tags
//! but no answer to the pronoun question is still to do.

use crate::annotate::conflicts;
use crate::model::{AnnotatorId, Candidate, CandidateId, Category, ConflictStatus, Master, Record};

/// Where a candidate stands for one annotator: the one answer every count gives (the category
/// browser, progress, *Continue annotating*, `protest check`, batch import, the web page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Not annotated yet (no record, or a blank one).
    New,
    /// Still to do, with notes: remarks, tags, selected tokens or the antecedent's answer, but
    /// the pronoun question unanswered ([`Record::is_judged`]) and no rule failing. An annotator
    /// who wrote "come back to this" finds it among the work left, not among the work done.
    Notes,
    /// Judged, and every conflict rule passes (whatever status the record has stored: `clear`
    /// is derived, never trusted).
    Done,
    /// With conflicts: kept as it is by its annotator despite failed rules (a person's decision),
    /// or breaking a rule without having been checked; either way someone should look at it.
    Conflict,
}

impl Status {
    /// Whether work is left on the candidate: new, or with notes but not judged.
    pub fn to_do(self) -> bool {
        matches!(self, Status::New | Status::Notes)
    }

    /// Whether the candidate counts as annotated (in progress bars): done, or with conflicts.
    pub fn annotated(self) -> bool {
        !self.to_do()
    }
}

/// The status of a record of `master`, derived from the record and the conflict rules: a record
/// kept with conflicts stays so, any other is checked again, so a stored `clear` or `unchecked`
/// that breaks a rule is never counted as done.
pub fn status(master: &Master, record: Option<&Record>) -> Status {
    let place = record.and_then(|r| master.candidate(r.candidate)).and_then(|c| Some((c, master.example_of(c)?.1)));
    match place {
        Some((candidate, category)) => status_in(master, category, candidate, record),
        // A record of no candidate of the master (validation refuses them): nothing to check.
        None => status_in_no_place(record),
    }
}

/// The status of `annotator`'s record of `candidate`.
pub fn status_of(master: &Master, candidate: CandidateId, annotator: AnnotatorId) -> Status {
    status(master, master.records.get(candidate, annotator))
}

/// [`status`] of a record of `candidate` (of `category`) when the caller has them at hand, as the
/// browser has for every candidate it files: the same answer without looking them up again.
pub(super) fn status_in(
    master: &Master,
    category: &Category,
    candidate: &Candidate,
    record: Option<&Record>,
) -> Status {
    match record {
        Some(r) if conflicts::apply_to(master, r) && !r.conflict.has_conflicts() => {
            if conflicts::check(category, candidate, r).is_empty() { judged(r) } else { Status::Conflict }
        }
        _ => status_in_no_place(record),
    }
}

/// The status as far as it does not depend on the rules.
fn status_in_no_place(record: Option<&Record>) -> Status {
    match record {
        None => Status::New,
        Some(r) if r.is_blank() => Status::New,
        Some(r) if r.conflict.has_conflicts() => Status::Conflict,
        Some(r) => judged(r),
    }
}

/// Done when the record answers the pronoun question, else still to do with its notes.
fn judged(record: &Record) -> Status {
    if record.is_judged() { Status::Done } else { Status::Notes }
}

/// Derives a record's stored conflict status again: `clear` stands only while every rule passes,
/// otherwise it becomes `unchecked` (to be checked when its annotator next leaves it). `kept` is
/// an annotator's decision and stays. True when the status changed.
pub fn rederive(master: &Master, record: &mut Record) -> bool {
    let stale = record.conflict == ConflictStatus::Clear && status(master, Some(record)) == Status::Conflict;
    if stale {
        record.conflict = ConflictStatus::Unchecked;
    }
    stale
}

/// The status of every record of a master, in the order of `master.records`: for counting them
/// all (`protest check`'s summary) without deriving each one again. Derived from the rules like
/// [`status`]; it stays true only while the master's records and settings are unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statuses(Vec<Status>);

impl Statuses {
    /// Derives them on every core: at 100× PROTEST there are some 400,000 records.
    pub fn of(master: &Master) -> Statuses {
        use rayon::prelude::*;
        let records: Vec<&Record> = master.records.iter().collect();
        Statuses(records.into_par_iter().map(|r| status(master, Some(r))).collect())
    }

    /// One status per record, in the order of `master.records`.
    pub fn as_slice(&self) -> &[Status] {
        &self.0
    }
}

/// [`rederive`] for every record of a master (on load); returns every record's status (which
/// re-deriving does not change: a stale `clear` made `unchecked` still breaks its rule) and how
/// many stored statuses changed.
pub fn rederive_all(master: &mut Master) -> (Statuses, usize) {
    let statuses = Statuses::of(master);
    let stale: Vec<Record> = master
        .records
        .iter()
        .zip(statuses.as_slice())
        .filter(|&(r, &s)| r.conflict == ConflictStatus::Clear && s == Status::Conflict)
        .map(|(r, _)| Record { conflict: ConflictStatus::Unchecked, ..r.clone() })
        .collect();
    let n = stale.len();
    // The same keys: the records keep their order, and `statuses` stays theirs.
    for record in stale {
        master.records.put(record);
    }
    (statuses, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::conflicts::settle;
    use crate::annotate::edit::Edit;
    use crate::model::{Conflict, Judgement, Role};
    use crate::testing::{ANNA, bare_tiny as tiny, edit};
    use chrono::Utc;

    #[test]
    fn the_status_is_derived_from_the_rules_not_from_the_stored_conflict_status() {
        let m = tiny();
        assert_eq!(status(&m, None), Status::New);
        assert_eq!(status(&m, Some(&Record::new(CandidateId(4), ANNA, Utc::now()))), Status::New);
        // Pronoun yes, no token selected: rule 4 fails whatever the file says.
        let yes = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        for stored in [ConflictStatus::Unchecked, ConflictStatus::Clear] {
            let r = Record { conflict: stored.clone(), ..yes.clone() };
            assert_eq!(status(&m, Some(&r)), Status::Conflict, "stored {stored:?}");
        }
        // Kept is a person's decision: still with conflicts even once the rules pass.
        let no = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        let kept = Record { conflict: ConflictStatus::Kept(vec![Conflict::TagsWithoutJudgement]), ..no.clone() };
        assert_eq!(status(&m, Some(&kept)), Status::Conflict);
        for stored in [ConflictStatus::Unchecked, ConflictStatus::Clear] {
            assert_eq!(status(&m, Some(&Record { conflict: stored, ..no.clone() })), Status::Done);
        }
        // Two politeness tags on a deictic singular "you" (candidate 6).
        let mut you = edit(&m, 6, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        you.tags = ["politeness_tu", "politeness_vous"].map(String::from).into();
        you.conflict = ConflictStatus::Clear;
        assert_eq!(status(&m, Some(&you)), Status::Conflict);
    }

    #[test]
    fn done_means_judged_and_notes_alone_leave_it_to_do() {
        let m = tiny();
        let with = |candidate: u32, annotator: AnnotatorId, change: &dyn Fn(&mut Record)| {
            let mut r = Record::new(CandidateId(candidate), annotator, Utc::now());
            change(&mut r);
            r.conflict = ConflictStatus::Clear; // as leaving the example stores it
            status(&m, Some(&r))
        };
        let researcher = AnnotatorId::RESEARCHER;
        for who in [ANNA, researcher] {
            assert_eq!(with(4, who, &|r| r.remarks = "come back later".into()), Status::Notes, "{who:?}");
            assert_eq!(with(1, who, &|r| r.antecedent = Judgement::No), Status::Notes, "only the antecedent");
            assert_eq!(with(3, who, &|r| r.pronoun = Judgement::No), Status::Done);
            let unjudgeable = with(3, who, &|r| _ = r.tags.insert(crate::model::tags::BAD_TRANSLATION.into()));
            assert_eq!(unjudgeable, Status::Done, "a translation that cannot be judged is done");
            let unsure = with(3, who, &|r| _ = r.legacy.insert(crate::model::LEGACY_PRONOUN.into(), "unsure".into()));
            assert_eq!(unsure, Status::Done, "the original tool's unsure answered the question");
        }
        // A tag without a judgement breaks rule 6 for an annotator; the researcher is not checked.
        assert_eq!(with(3, ANNA, &|r| _ = r.tags.insert("desc_vs_presc".into())), Status::Conflict);
        assert_eq!(with(3, researcher, &|r| _ = r.tags.insert("desc_vs_presc".into())), Status::Notes);
        // Kept with conflicts is a person's decision, judged or not.
        let kept = with(4, ANNA, &|r| r.remarks = "x".into());
        assert_eq!(kept, Status::Notes);
        let mut r = Record::new(CandidateId(4), ANNA, Utc::now());
        r.remarks = "x".into();
        r.conflict = ConflictStatus::Kept(vec![Conflict::TagsWithoutJudgement]);
        assert_eq!(status(&m, Some(&r)), Status::Conflict);
        assert!(
            Status::Notes.to_do() && Status::New.to_do() && Status::Done.annotated() && Status::Conflict.annotated()
        );
    }

    #[test]
    fn a_stored_clear_that_breaks_a_rule_is_derived_again() {
        let mut m = tiny();
        let mut yes = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        yes.conflict = ConflictStatus::Clear;
        let mut no = edit(&m, 3, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        no.conflict = ConflictStatus::Clear;
        let kept = settle(&yes, vec![Conflict::PronounYesWithoutTokens]);
        let kept = Record { candidate: CandidateId(2), ..kept };
        for r in [yes.clone(), no.clone(), kept.clone()] {
            m.records.put(r);
        }
        let (statuses, changed) = rederive_all(&mut m);
        assert_eq!(changed, 1);
        // Candidates 2 (kept), 3 and 4, in the records' order; the same as derived afresh.
        assert_eq!(statuses.as_slice(), [Status::Conflict, Status::Done, Status::Conflict]);
        assert_eq!(statuses, Statuses::of(&m), "the statuses of the records as they are now");
        assert_eq!(m.records.get(CandidateId(4), ANNA).unwrap().conflict, ConflictStatus::Unchecked);
        assert_eq!(m.records.get(CandidateId(3), ANNA).unwrap().conflict, ConflictStatus::Clear);
        assert_eq!(m.records.get(CandidateId(2), ANNA).unwrap().conflict, kept.conflict);
        assert_eq!(rederive_all(&mut m).1, 0, "once derived, nothing changes");
    }
}
