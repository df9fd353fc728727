//! The conflict rules (docs/domain.md, "Conflict rules"), run whenever an annotator leaves an example.
//!
//! A pure function of (category, candidate, record) so that the GUI, batch import and tests all
//! agree on what a conflict is.

use crate::model::{Candidate, Category, Conflict, ConflictStatus, Judgement, Master, Record, Role, tags};

/// Every rule the record fails, in rule order. An empty list means the record is consistent.
pub fn check(category: &Category, candidate: &Candidate, record: &Record) -> Vec<Conflict> {
    let mut failed = Vec::new();
    let has = |tag: &str| record.tags.contains(tag);
    let selected = |role: Role| !record.selected.get(role).is_empty();
    let aligned = |role: Role| candidate.aligned(role).next().is_some();
    let judged = record.pronoun.is_set() || record.antecedent.is_set();

    if tags::DO_NOT_JUDGE.iter().filter(|t| has(t)).count() > 1 {
        failed.push(Conflict::SeveralSpecialTags);
    }
    if record.is_unjudgeable() {
        if judged || !record.selected.is_empty() {
            failed.push(Conflict::JudgedDespiteUnjudgeable);
        }
        return failed;
    }
    let noncompositional = has(tags::NONCOMPOSITIONAL_TRANSLATION);
    if noncompositional && (!record.pronoun.is_set() || !record.selected.is_empty()) {
        failed.push(Conflict::NoncompositionalMisjudged);
    }
    if !noncompositional && record.pronoun == Judgement::Yes && aligned(Role::Pronoun) && !selected(Role::Pronoun) {
        failed.push(Conflict::PronounYesWithoutTokens);
    }
    if selected(Role::Pronoun) && record.pronoun != Judgement::Yes {
        failed.push(Conflict::PronounTokensWithoutYes);
    }
    let other_tags = record.tags.iter().any(|t| !tags::DO_NOT_JUDGE.contains(&t.as_str()));
    if other_tags && !record.pronoun.is_set() {
        failed.push(Conflict::TagsWithoutJudgement);
    }
    if !noncompositional
        && record.antecedent == Judgement::Yes
        && aligned(Role::Antecedent)
        && !selected(Role::Antecedent)
    {
        failed.push(Conflict::AntecedentYesWithoutTokens);
    }
    if selected(Role::Antecedent) && record.antecedent != Judgement::Yes {
        failed.push(Conflict::AntecedentTokensWithoutYes);
    }
    if category.politeness && record.pronoun.is_set() && tags::POLITENESS.iter().filter(|t| has(t)).count() != 1 {
        failed.push(Conflict::PolitenessTag);
    }
    failed
}

/// The conflict rules that fail for a record, or none when checks do not apply to it: the
/// researcher's own records, and masters (or batches from masters) with checks switched off.
pub fn failing(master: &Master, record: &Record) -> Vec<Conflict> {
    if !apply_to(master, record) {
        return Vec::new();
    }
    let Some(candidate) = master.candidate(record.candidate) else { return Vec::new() };
    let Some((_, category)) = master.example_of(candidate) else { return Vec::new() };
    check(category, candidate, record)
}

/// Whether the conflict rules apply to a record at all.
pub fn apply_to(master: &Master, record: &Record) -> bool {
    !record.annotator.is_researcher() && master.settings.conflict_checks && !record.is_blank()
}

/// The record with the outcome of the checks stored: clear, or kept with its conflicts when the
/// annotator chose *Keep as is*.
pub fn settle(record: &Record, conflicts: Vec<Conflict>) -> Record {
    let mut settled = record.clone();
    settled.conflict = ConflictStatus::from_conflicts(conflicts);
    settled
}

/// What leaving an example requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leaving {
    /// Nothing to store: no record, a blank one, or one already settled as it is.
    Nothing,
    /// Store this record: every rule passes and its status is now clear.
    Settle(Record),
    /// Ask the annotator about these failed rules (*Amend* or *Keep as is*).
    Ask(Vec<Conflict>),
}

/// Runs the checks for a record the annotator is leaving. A record already kept with exactly
/// these conflicts is not asked about again: the annotator decided, and any later change resets
/// its status to unchecked.
pub fn on_leave(master: &Master, record: Option<&Record>) -> Leaving {
    let Some(record) = record.filter(|r| !r.is_blank()) else { return Leaving::Nothing };
    let conflicts = failing(master, record);
    match &record.conflict {
        _ if conflicts.is_empty() && record.conflict == ConflictStatus::Clear => Leaving::Nothing,
        _ if conflicts.is_empty() => Leaving::Settle(settle(record, conflicts)),
        ConflictStatus::Kept(kept) if *kept == conflicts => Leaving::Nothing,
        _ => Leaving::Ask(conflicts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::edit::{Edit, apply};
    use crate::model::{AnnotatorId, CandidateId, CorpusId, ExampleNo, TokenRef, standard_categories};
    use crate::testing::{ANNA, bare_tiny as tiny, edit};
    use Conflict::*;
    use chrono::Utc;

    fn category(name: &str) -> Category {
        standard_categories().into_iter().find(|c| c.name == name).unwrap()
    }

    fn candidate(pronoun: &[u32], antecedent: &[u32]) -> Candidate {
        Candidate {
            id: CandidateId(1),
            example: ExampleNo(1),
            corpus: CorpusId(1),
            pronoun: pronoun.iter().map(|&t| TokenRef::new(3, t)).collect(),
            antecedents: vec![antecedent.iter().map(|&t| TokenRef::new(2, t)).collect()],
        }
    }

    fn record() -> Record {
        Record::new(CandidateId(1), AnnotatorId(1), Utc::now())
    }

    fn with(mut r: Record, f: impl FnOnce(&mut Record)) -> Record {
        f(&mut r);
        r
    }

    fn tagged(tags: &[&str]) -> Record {
        with(record(), |r| r.tags = tags.iter().map(|t| t.to_string()).collect())
    }

    const ANA: &str = "anaphoric_intra_subject_it";

    #[test]
    fn a_complete_consistent_annotation_passes() {
        let r = with(record(), |r| {
            r.pronoun = Judgement::Yes;
            r.antecedent = Judgement::Yes;
            r.selected.pronoun.insert(TokenRef::new(3, 0));
            r.selected.antecedent.insert(TokenRef::new(2, 4));
        });
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &r), vec![]);
        let no = with(record(), |r| r.pronoun = Judgement::No);
        assert_eq!(check(&category("pleonastic_it"), &candidate(&[0], &[]), &no), vec![]);
    }

    #[test]
    fn rule_1_several_special_tags() {
        let r = with(tagged(&["noncompositional_translation", "incorrect_word_alignment"]), |_| {});
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &r), vec![SeveralSpecialTags]);
    }

    #[test]
    fn rule_2_unjudgeable_yet_judged_stops_further_rules() {
        let r = with(tagged(&["bad_translation", "desc_vs_presc"]), |r| r.pronoun = Judgement::Yes);
        // Rule 4 (yes without tokens) and rule 6 would fail too, but rule 2 ends the checks.
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &r), vec![JudgedDespiteUnjudgeable]);
        let selected = with(tagged(&["incorrect_word_alignment"]), |r| {
            r.selected.antecedent.insert(TokenRef::new(2, 4));
        });
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &selected), vec![JudgedDespiteUnjudgeable]);
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &tagged(&["bad_translation"])), vec![]);
    }

    #[test]
    fn rule_3_noncompositional_needs_pronoun_judgement_and_no_tokens() {
        let cat = category("event_it");
        assert_eq!(
            check(&cat, &candidate(&[0], &[]), &tagged(&["noncompositional_translation"])),
            vec![NoncompositionalMisjudged]
        );
        // Judged yes without tokens is right for it: rule 4 does not apply.
        let yes = with(tagged(&["noncompositional_translation"]), |r| r.pronoun = Judgement::Yes);
        assert_eq!(check(&cat, &candidate(&[0], &[]), &yes), vec![]);
        let tokens = with(yes, |r| {
            r.selected.pronoun.insert(TokenRef::new(3, 0));
        });
        assert_eq!(check(&cat, &candidate(&[0], &[]), &tokens), vec![NoncompositionalMisjudged]);
        // Rule 7 does not apply either.
        let ant = with(tagged(&["noncompositional_translation"]), |r| {
            r.pronoun = Judgement::No;
            r.antecedent = Judgement::Yes;
        });
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &ant), vec![]);
    }

    #[test]
    fn rule_4_pronoun_yes_needs_tokens_when_aligned() {
        let r = with(record(), |r| r.pronoun = Judgement::Yes);
        assert_eq!(check(&category("pleonastic_it"), &candidate(&[0], &[]), &r), vec![PronounYesWithoutTokens]);
        // Untranslated pronoun judged correct: nothing to select.
        assert_eq!(check(&category("pleonastic_it"), &candidate(&[], &[]), &r), vec![]);
    }

    #[test]
    fn rule_5_pronoun_tokens_need_yes() {
        for j in [Judgement::No, Judgement::Unset] {
            let r = with(record(), |r| {
                r.pronoun = j;
                r.selected.pronoun.insert(TokenRef::new(3, 0));
            });
            assert_eq!(check(&category("event_it"), &candidate(&[0], &[]), &r), vec![PronounTokensWithoutYes]);
        }
    }

    #[test]
    fn rule_6_tags_need_a_pronoun_judgement() {
        assert_eq!(
            check(&category("event_it"), &candidate(&[0], &[]), &tagged(&["desc_vs_presc"])),
            vec![TagsWithoutJudgement]
        );
        let judged = with(tagged(&["my_own_tag"]), |r| r.pronoun = Judgement::No);
        assert_eq!(check(&category("event_it"), &candidate(&[0], &[]), &judged), vec![]);
    }

    #[test]
    fn rules_7_and_8_antecedent_tokens() {
        let yes = with(record(), |r| {
            r.pronoun = Judgement::No;
            r.antecedent = Judgement::Yes;
        });
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &yes), vec![AntecedentYesWithoutTokens]);
        assert_eq!(check(&category(ANA), &candidate(&[0], &[]), &yes), vec![]);
        let tokens = with(record(), |r| {
            r.pronoun = Judgement::No;
            r.antecedent = Judgement::No;
            r.selected.antecedent.insert(TokenRef::new(2, 4));
        });
        assert_eq!(check(&category(ANA), &candidate(&[0], &[4]), &tokens), vec![AntecedentTokensWithoutYes]);
    }

    #[test]
    fn rule_9_deictic_singular_you_needs_one_politeness_tag() {
        let cat = category("addressee_deictic_singular_you");
        let judged = |tags: &[&str]| with(tagged(tags), |r| r.pronoun = Judgement::No);
        assert_eq!(check(&cat, &candidate(&[0], &[]), &judged(&[])), vec![PolitenessTag]);
        assert_eq!(
            check(&cat, &candidate(&[0], &[]), &judged(&["politeness_tu", "politeness_vous"])),
            vec![PolitenessTag]
        );
        assert_eq!(check(&cat, &candidate(&[0], &[]), &judged(&["politeness_unknown"])), vec![]);
        // Plural "you" has no such rule.
        assert_eq!(check(&category("addressee_deictic_plural_you"), &candidate(&[0], &[]), &judged(&[])), vec![]);
    }

    #[test]
    fn every_failing_rule_is_reported() {
        let r = with(tagged(&["desc_vs_presc"]), |r| {
            r.antecedent = Judgement::Yes;
            r.selected.pronoun.insert(TokenRef::new(3, 0));
        });
        assert_eq!(
            check(&category(ANA), &candidate(&[0], &[4]), &r),
            vec![PronounTokensWithoutYes, TagsWithoutJudgement, AntecedentYesWithoutTokens]
        );
    }

    #[test]
    fn rule_numbers_are_those_of_the_domain_rules() {
        assert_eq!(SeveralSpecialTags.number(), 1);
        assert_eq!(PolitenessTag.number(), 9);
    }

    /// The researcher's record of candidate 4: pronoun correct, no token selected.
    fn researcher_yes(m: &Master) -> Record {
        apply(m, CandidateId(4), AnnotatorId::RESEARCHER, None, Edit::Judge(Role::Pronoun, Judgement::Yes), Utc::now())
            .unwrap()
    }

    #[test]
    fn researcher_records_and_disabled_checks_are_not_checked() {
        let mut m = tiny();
        let r = researcher_yes(&m);
        assert!(failing(&m, &r).is_empty());
        let r = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        assert!(!failing(&m, &r).is_empty());
        m.settings.conflict_checks = false;
        assert!(failing(&m, &r).is_empty());
    }

    #[test]
    fn leaving_settles_asks_or_does_nothing() {
        let m = tiny();
        assert_eq!(on_leave(&m, None), Leaving::Nothing);
        let blank = Record::new(CandidateId(4), ANNA, Utc::now());
        assert_eq!(on_leave(&m, Some(&blank)), Leaving::Nothing);
        let no = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        let Leaving::Settle(settled) = on_leave(&m, Some(&no)) else { panic!("expected a settled record") };
        assert_eq!(settled.conflict, ConflictStatus::Clear);
        assert_eq!(on_leave(&m, Some(&settled)), Leaving::Nothing);
        let yes = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        assert_eq!(on_leave(&m, Some(&yes)), Leaving::Ask(vec![Conflict::PronounYesWithoutTokens]));
        let kept = settle(&yes, vec![Conflict::PronounYesWithoutTokens]);
        assert_eq!(on_leave(&m, Some(&kept)), Leaving::Nothing);
        // Researcher records are never checked, but still get their status.
        let mine = researcher_yes(&m);
        assert!(matches!(on_leave(&m, Some(&mine)), Leaving::Settle(_)));
    }
}
