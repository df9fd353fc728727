//! The edits an annotator makes to their record of a candidate — judging, selecting tokens,
//! tagging, remarks — as pure functions, and the questions they answer. The GUI turns clicks and
//! keys into these calls and stores the result; nothing here knows about windows.

use crate::model::from_page::MAX_TAGS;
use crate::model::tags::MAX_TAG_CHARS;
use crate::model::{AnnotatorId, CandidateId, ConflictStatus, Judgement, Master, Record, Role, TokenRef, tags, text};
use chrono::{DateTime, Utc};

/// One change an annotator makes to their record of a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Judge(Role, Judgement),
    /// Select the token for the role if it is not selected, deselect it if it is.
    ToggleToken(Role, TokenRef),
    AddTag(String),
    RemoveTag(String),
    Remarks(String),
}

/// Why an edit cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("candidate {0} does not exist")]
    NoCandidate(CandidateId),
    #[error("only anaphoric examples have an antecedent to judge or select")]
    NotAnaphoric,
    #[error("{1} is not aligned to the {0}, so it cannot be selected for it")]
    NotAligned(Role, TokenRef),
    #[error("this tag {0}")]
    BadTag(tags::TagProblem),
    #[error("a record has at most {MAX_TAGS} tags: remove one before adding another")]
    TooManyTags,
    #[error("this remark cannot be stored: {0}")]
    BadRemarks(String),
}

/// The record after `edit`, starting from `current` (or a new record). The conflict status goes
/// back to unchecked because the content changed. Tags and remarks are held to what a record may
/// have wherever it is stored ([`crate::model::from_page`], [`text`]): what the server would refuse from the
/// page is refused here, before the change is made, in the window and the page alike.
pub fn apply(
    master: &Master,
    candidate: CandidateId,
    annotator: AnnotatorId,
    current: Option<&Record>,
    edit: Edit,
    now: DateTime<Utc>,
) -> Result<Record, EditError> {
    let cand = master.candidate(candidate).ok_or(EditError::NoCandidate(candidate))?;
    let anaphoric = master.example_of(cand).is_some_and(|(_, c)| c.anaphoric);
    let mut record = current.cloned().unwrap_or_else(|| Record::new(candidate, annotator, now));
    match edit {
        Edit::Judge(Role::Antecedent, _) | Edit::ToggleToken(Role::Antecedent, _) if !anaphoric => {
            return Err(EditError::NotAnaphoric);
        }
        Edit::Judge(role, judgement) => *record.judgement_mut(role) = judgement,
        Edit::ToggleToken(role, token) => {
            if !cand.is_aligned(role, token) {
                return Err(EditError::NotAligned(role, token));
            }
            let selected = record.selected.get_mut(role);
            if !selected.remove(&token) {
                selected.insert(token);
            }
        }
        Edit::AddTag(tag) => {
            let tag = tags::normalize(&tag).map_err(EditError::BadTag)?;
            if tag.chars().count() > MAX_TAG_CHARS {
                return Err(EditError::BadTag(tags::TagProblem::TooLong));
            }
            if !record.tags.contains(&tag) && record.tags.len() >= MAX_TAGS {
                return Err(EditError::TooManyTags);
            }
            record.tags.insert(tag);
        }
        Edit::RemoveTag(tag) => {
            record.tags.remove(&tag);
        }
        Edit::Remarks(remarks) => match text::remarks_problem(&remarks) {
            Some(why) => return Err(EditError::BadRemarks(why)),
            None => record.remarks = remarks,
        },
    }
    record.conflict = ConflictStatus::Unchecked;
    record.modified = now;
    Ok(record)
}

/// The question the annotator answers for one judgement (paper 001 §4.1–4.2; docs/domain.md, "Questions and tags").
/// `untranslated`: nothing is aligned to the pronoun, so the question is whether leaving it
/// untranslated is correct.
pub fn question(role: Role, anaphoric: bool, untranslated: bool) -> &'static str {
    match (role, anaphoric, untranslated) {
        (Role::Antecedent, _, _) => "Antecedent head correctly translated?",
        (Role::Pronoun, _, true) => {
            "The pronoun was not translated (nothing is aligned to it). Is leaving it untranslated correct?"
        }
        (Role::Pronoun, true, false) => "Pronoun correctly translated (given the antecedent head)?",
        (Role::Pronoun, false, false) => "Pronoun correctly translated?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::conflicts::{failing, settle};
    use crate::annotate::status::{Status, status};
    use crate::model::Conflict;
    use crate::testing::{bare_tiny as tiny, edit};

    #[test]
    fn tags_and_remarks_the_server_would_refuse_are_refused_before_the_change() {
        let m = tiny();
        let long = "x".repeat(text::MAX_REMARKS_CHARS + 1);
        let why = edit(&m, 2, None, Edit::Remarks(long)).unwrap_err();
        assert_eq!(
            why.to_string(),
            "this remark cannot be stored: 10001 characters, more than the 10000 a remark may have"
        );
        let why = edit(&m, 2, None, Edit::Remarks("abc\u{202E}fed".into())).unwrap_err().to_string();
        assert!(why.contains("(U+202E)"), "{why}");
        let r = edit(&m, 2, None, Edit::Remarks("é".repeat(text::MAX_REMARKS_CHARS))).unwrap();
        assert_eq!(r.remarks.chars().count(), text::MAX_REMARKS_CHARS);
        assert!(crate::model::from_page::check(&r, Some(r.modified)).is_ok(), "what is made, the server takes");

        let why = edit(&m, 2, None, Edit::AddTag("t".repeat(MAX_TAG_CHARS + 1))).unwrap_err();
        assert_eq!(why.to_string(), "this tag is longer than 64 characters");
        let mut r = edit(&m, 2, None, Edit::AddTag("t".repeat(MAX_TAG_CHARS))).unwrap();
        for i in 1..MAX_TAGS {
            r = edit(&m, 2, Some(&r), Edit::AddTag(format!("tag_{i}"))).unwrap();
        }
        assert_eq!(r.tags.len(), MAX_TAGS);
        assert!(crate::model::from_page::check(&r, Some(r.modified)).is_ok());
        assert_eq!(edit(&m, 2, Some(&r), Edit::AddTag("one_more".into())), Err(EditError::TooManyTags));
        assert!(edit(&m, 2, Some(&r), Edit::AddTag("tag_1".into())).is_ok(), "one it has is no new one");
    }

    #[test]
    fn judging_and_selecting_build_a_record() {
        let m = tiny();
        // Candidate 2: MT translation of "It" (→ "Elle") whose antecedent head "bicycle" → "bicyclette".
        let r = edit(&m, 2, None, Edit::Judge(Role::Antecedent, Judgement::Yes)).unwrap();
        let r = edit(&m, 2, Some(&r), Edit::ToggleToken(Role::Antecedent, TokenRef::new(0, 3))).unwrap();
        let r = edit(&m, 2, Some(&r), Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        let r = edit(&m, 2, Some(&r), Edit::ToggleToken(Role::Pronoun, TokenRef::new(1, 0))).unwrap();
        assert_eq!((r.antecedent, r.pronoun), (Judgement::Yes, Judgement::Yes));
        assert!(r.selected.antecedent.contains(&TokenRef::new(0, 3)));
        assert_eq!(failing(&m, &r), vec![]);
        // Toggling again deselects.
        let r = edit(&m, 2, Some(&r), Edit::ToggleToken(Role::Pronoun, TokenRef::new(1, 0))).unwrap();
        assert!(r.selected.pronoun.is_empty());
        assert_eq!(failing(&m, &r), vec![Conflict::PronounYesWithoutTokens]);
    }

    #[test]
    fn only_aligned_tokens_and_anaphoric_antecedents() {
        let m = tiny();
        assert_eq!(
            edit(&m, 2, None, Edit::ToggleToken(Role::Pronoun, TokenRef::new(1, 1))),
            Err(EditError::NotAligned(Role::Pronoun, TokenRef::new(1, 1)))
        );
        assert_eq!(
            EditError::NotAligned(Role::Pronoun, TokenRef::new(1, 1)).to_string(),
            "sentence 2, token 2 ([1, 1] in the file) is not aligned to the pronoun, so it cannot be selected for it"
        );
        assert_eq!(edit(&m, 4, None, Edit::Judge(Role::Antecedent, Judgement::No)), Err(EditError::NotAnaphoric));
        assert_eq!(
            edit(&m, 4, None, Edit::AddTag("two words".into())),
            Err(EditError::BadTag(tags::TagProblem::Spaces))
        );
        assert_eq!(edit(&m, 99, None, Edit::Remarks("x".into())), Err(EditError::NoCandidate(CandidateId(99))));
    }

    #[test]
    fn a_change_unsettles_the_conflict_status() {
        let m = tiny();
        let r = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        let kept = settle(&r, failing(&m, &r));
        assert_eq!(kept.conflict, ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens]));
        assert_eq!(status(&m, Some(&kept)), Status::Conflict);
        let changed = edit(&m, 4, Some(&kept), Edit::Remarks("hm".into())).unwrap();
        assert_eq!(changed.conflict, ConflictStatus::Unchecked);
        // Unchecked, but still breaking rule 4: not done.
        assert_eq!(status(&m, Some(&changed)), Status::Conflict);
        let fixed = edit(&m, 4, Some(&changed), Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        assert_eq!(status(&m, Some(&fixed)), Status::Done);
    }

    #[test]
    fn questions_follow_the_function_and_the_alignment() {
        assert_eq!(question(Role::Pronoun, false, false), "Pronoun correctly translated?");
        assert!(question(Role::Pronoun, true, false).ends_with("(given the antecedent head)?"));
        assert!(question(Role::Pronoun, true, true).contains("Is leaving it untranslated correct?"));
        assert_eq!(question(Role::Antecedent, true, false), "Antecedent head correctly translated?");
    }
}
