//! The old tool's `conflict_status` strings and our [`ConflictStatus`] (table in docs/legacy.md).
//!
//! The old tool stored one pronoun part and one antecedent part, e.g. `ana_notokens ant_ok`, each
//! naming at most one failed check. Each maps to one conflict rule (docs/domain.md); `ana_tagsonly` is rule 3
//! when the record is tagged `noncompositional_translation` (the old tool reported an unset
//! pronoun there as "tags but unset") and rule 6 otherwise. [`to_old`] gives the string back from
//! the rules and the record, so a conversion can tell when it was not exact.

use crate::model::Conflict;
use crate::model::{ConflictStatus, Judgement, Record, tags};

/// The pronoun parts, in the old tool's order (its status codes 0–7).
const PRONOUN: [&str; 8] = [
    "ana_ok",
    "ana_notokens",
    "ana_unset",
    "ana_tagsonly",
    "ana_bad_translation_annot",
    "ana_incorrect_alignment_annot",
    "ana_noncompositional_highlight",
    "ana_conflicting_tags",
];

/// The antecedent parts (codes 0–2).
const ANTECEDENT: [&str; 3] = ["ant_ok", "ant_notokens", "ant_unset"];

/// An old `conflict_status` that stands for no status: the string, or the part of it, as the
/// file has it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadStatus {
    #[error("conflict_status '{0}' is not a pronoun part and an antecedent part (like 'ana_ok ant_ok')")]
    NotTwoParts(String),
    /// A part that is none of `known` (the pronoun's parts, or the antecedent's).
    #[error("'{part}' in conflict_status is not one of {}", known.join(", "))]
    UnknownPart { part: String, known: &'static [&'static str] },
}

/// The status an old string stands for on this record (NULL: never checked).
pub fn from_old(old: Option<&str>, record: &Record) -> Result<ConflictStatus, BadStatus> {
    let Some(old) = old else { return Ok(ConflictStatus::Unchecked) };
    let parts: Vec<&str> = old.split_whitespace().collect();
    let [pronoun, antecedent] = parts[..] else {
        return Err(BadStatus::NotTwoParts(old.to_owned()));
    };
    let unknown = |part: &str, known: &'static [&'static str]| BadStatus::UnknownPart { part: part.to_owned(), known };
    let pronoun = match pronoun {
        "ana_ok" => None,
        "ana_notokens" => Some(Conflict::PronounYesWithoutTokens),
        "ana_unset" => Some(Conflict::PronounTokensWithoutYes),
        "ana_tagsonly" if record.tags.contains(tags::NONCOMPOSITIONAL_TRANSLATION) => {
            Some(Conflict::NoncompositionalMisjudged)
        }
        "ana_tagsonly" => Some(Conflict::TagsWithoutJudgement),
        "ana_bad_translation_annot" | "ana_incorrect_alignment_annot" => Some(Conflict::JudgedDespiteUnjudgeable),
        "ana_noncompositional_highlight" => Some(Conflict::NoncompositionalMisjudged),
        "ana_conflicting_tags" => Some(Conflict::SeveralSpecialTags),
        other => return Err(unknown(other, &PRONOUN)),
    };
    let antecedent = match antecedent {
        "ant_ok" => None,
        "ant_notokens" => Some(Conflict::AntecedentYesWithoutTokens),
        "ant_unset" => Some(Conflict::AntecedentTokensWithoutYes),
        other => return Err(unknown(other, &ANTECEDENT)),
    };
    Ok(ConflictStatus::from_conflicts(pronoun.into_iter().chain(antecedent).collect()))
}

/// The string the old tool would have stored for this status on this record, if it has one.
pub fn to_old(status: &ConflictStatus, record: &Record) -> Option<String> {
    let rules: &[Conflict] = match status {
        ConflictStatus::Unchecked => return None,
        ConflictStatus::Clear => &[],
        ConflictStatus::Kept(rules) => rules,
    };
    let mut pronoun = None;
    let mut antecedent = None;
    for &rule in rules {
        let (slot, part) = match rule {
            Conflict::SeveralSpecialTags => (&mut pronoun, "ana_conflicting_tags"),
            Conflict::JudgedDespiteUnjudgeable if record.tags.contains(tags::BAD_TRANSLATION) => {
                (&mut pronoun, "ana_bad_translation_annot")
            }
            Conflict::JudgedDespiteUnjudgeable => (&mut pronoun, "ana_incorrect_alignment_annot"),
            Conflict::NoncompositionalMisjudged if record.pronoun == Judgement::Unset => (&mut pronoun, "ana_tagsonly"),
            Conflict::NoncompositionalMisjudged => (&mut pronoun, "ana_noncompositional_highlight"),
            Conflict::PronounYesWithoutTokens => (&mut pronoun, "ana_notokens"),
            Conflict::PronounTokensWithoutYes => (&mut pronoun, "ana_unset"),
            Conflict::TagsWithoutJudgement => (&mut pronoun, "ana_tagsonly"),
            Conflict::AntecedentYesWithoutTokens => (&mut antecedent, "ant_notokens"),
            Conflict::AntecedentTokensWithoutYes => (&mut antecedent, "ant_unset"),
            Conflict::PolitenessTag => return None,
        };
        if slot.replace(part).is_some() {
            return None; // the old tool stored one failed check per part
        }
    }
    Some(format!("{} {}", pronoun.unwrap_or(PRONOUN[0]), antecedent.unwrap_or(ANTECEDENT[0])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId};
    use Conflict::*;
    use chrono::DateTime;

    fn record(tags: &[&str], pronoun: Judgement) -> Record {
        let mut r = Record::new(CandidateId(1), AnnotatorId(1), DateTime::UNIX_EPOCH);
        r.tags = tags.iter().map(|t| t.to_string()).collect();
        r.pronoun = pronoun;
        r
    }

    #[test]
    fn every_old_string_maps_to_its_rules_and_back() {
        let plain = record(&[], Judgement::Yes);
        let cases: [(&str, Record, Vec<Conflict>); 11] = [
            ("ana_ok ant_ok", plain.clone(), vec![]),
            ("ana_notokens ant_ok", plain.clone(), vec![PronounYesWithoutTokens]),
            ("ana_unset ant_notokens", plain.clone(), vec![PronounTokensWithoutYes, AntecedentYesWithoutTokens]),
            ("ana_tagsonly ant_ok", record(&["desc_vs_presc"], Judgement::Unset), vec![TagsWithoutJudgement]),
            (
                "ana_tagsonly ant_ok",
                record(&["noncompositional_translation"], Judgement::Unset),
                vec![NoncompositionalMisjudged],
            ),
            (
                "ana_bad_translation_annot ant_ok",
                record(&["bad_translation"], Judgement::No),
                vec![JudgedDespiteUnjudgeable],
            ),
            (
                "ana_incorrect_alignment_annot ant_ok",
                record(&["incorrect_word_alignment"], Judgement::No),
                vec![JudgedDespiteUnjudgeable],
            ),
            (
                "ana_noncompositional_highlight ant_ok",
                record(&["noncompositional_translation"], Judgement::Yes),
                vec![NoncompositionalMisjudged],
            ),
            (
                "ana_conflicting_tags ant_ok",
                record(&["bad_translation", "incorrect_word_alignment"], Judgement::Unset),
                vec![SeveralSpecialTags],
            ),
            ("ana_ok ant_unset", plain.clone(), vec![AntecedentTokensWithoutYes]),
            ("ana_ok ant_notokens", plain.clone(), vec![AntecedentYesWithoutTokens]),
        ];
        for (old, r, rules) in cases {
            let status = from_old(Some(old), &r).unwrap();
            assert_eq!(status, ConflictStatus::from_conflicts(rules), "{old}");
            assert_eq!(to_old(&status, &r).as_deref(), Some(old));
        }
        assert_eq!(from_old(None, &plain), Ok(ConflictStatus::Unchecked));
        assert_eq!(to_old(&ConflictStatus::Unchecked, &plain), None);
    }

    #[test]
    fn what_the_old_tool_could_not_store_has_no_string() {
        let r = record(&[], Judgement::Yes);
        assert_eq!(to_old(&ConflictStatus::Kept(vec![PolitenessTag]), &r), None);
        assert_eq!(to_old(&ConflictStatus::Kept(vec![PronounYesWithoutTokens, TagsWithoutJudgement]), &r), None);
        // An inconsistent old string (bad_translation rule without the tag) is not given back.
        let status = from_old(Some("ana_bad_translation_annot ant_ok"), &r).unwrap();
        assert_eq!(to_old(&status, &r).as_deref(), Some("ana_incorrect_alignment_annot ant_ok"));
    }

    #[test]
    fn unknown_strings_are_refused() {
        let r = record(&[], Judgement::Yes);
        assert_eq!(from_old(Some("ana_ok"), &r), Err(BadStatus::NotTwoParts("ana_ok".into())));
        let e = |old| from_old(Some(old), &r).unwrap_err().to_string();
        assert!(e("ana_ok").contains("is not a pronoun part and an antecedent part"));
        assert!(e("ana_what ant_ok").contains("'ana_what' in conflict_status"));
        assert_eq!(e("ana_ok ant_what"), "'ant_what' in conflict_status is not one of ant_ok, ant_notokens, ant_unset");
    }
}
