//! The conflict rules of spec §5, run whenever an annotator leaves an example.
//!
//! A pure function of (category, candidate, record) so that the GUI, batch import and tests all
//! agree on what a conflict is.

use crate::model::{Candidate, Category, Judgement, Record, Role, tags};
use serde::{Deserialize, Serialize};

/// A failed conflict rule. The variants are numbered as in the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Conflict {
    /// 1. More than one of the three "do not judge normally" tags.
    SeveralSpecialTags,
    /// 2. `bad_translation` / `incorrect_word_alignment`, yet judged or tokens selected.
    JudgedDespiteUnjudgeable,
    /// 3. `noncompositional_translation`, yet the pronoun is unset or tokens are selected.
    NoncompositionalMisjudged,
    /// 4. Pronoun marked yes with aligned tokens, none selected.
    PronounYesWithoutTokens,
    /// 5. Pronoun tokens selected, pronoun not marked yes.
    PronounTokensWithoutYes,
    /// 6. Other tags given, pronoun unset.
    TagsWithoutJudgement,
    /// 7. Antecedent marked yes with aligned tokens, none selected.
    AntecedentYesWithoutTokens,
    /// 8. Antecedent tokens selected, antecedent not marked yes.
    AntecedentTokensWithoutYes,
    /// 9. Deictic singular "you" judged without exactly one politeness tag.
    PolitenessTag,
}

impl Conflict {
    /// The rule's number in the spec.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The rule in plain words, as the annotator reads it in the conflict dialog.
    pub fn describe(self) -> &'static str {
        match self {
            Conflict::SeveralSpecialTags => {
                "Use only one of bad_translation, incorrect_word_alignment and noncompositional_translation."
            }
            Conflict::JudgedDespiteUnjudgeable => {
                "Tagged bad_translation or incorrect_word_alignment: such examples are not judged, so clear the judgements and the selected tokens."
            }
            Conflict::NoncompositionalMisjudged => {
                "Tagged noncompositional_translation: judge the pronoun (the clause as a whole) and select no tokens."
            }
            Conflict::PronounYesWithoutTokens => {
                "The pronoun is marked correct, but none of its highlighted translation tokens is selected."
            }
            Conflict::PronounTokensWithoutYes => "Pronoun tokens are selected, but the pronoun is not marked correct.",
            Conflict::TagsWithoutJudgement => "Tags are given, but the pronoun is not judged.",
            Conflict::AntecedentYesWithoutTokens => {
                "The antecedent head is marked correct, but none of its highlighted translation tokens is selected."
            }
            Conflict::AntecedentTokensWithoutYes => {
                "Antecedent tokens are selected, but the antecedent head is not marked correct."
            }
            Conflict::PolitenessTag => {
                "A deictic singular “you” needs exactly one of politeness_tu, politeness_vous and politeness_unknown."
            }
        }
    }
}

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
    if has(tags::BAD_TRANSLATION) || has(tags::INCORRECT_WORD_ALIGNMENT) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, CorpusId, ExampleNo, TokenRef, standard_categories};
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
    fn rule_numbers_follow_the_spec() {
        assert_eq!(SeveralSpecialTags.number(), 1);
        assert_eq!(PolitenessTag.number(), 9);
    }
}
