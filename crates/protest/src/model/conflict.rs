//! The conflict rules by number, as records store them and the conflict dialog names them
//! (docs/domain.md, "Conflict rules"). Which rules a record fails is worked out in
//! `crate::annotate::conflicts`.

use serde::{Deserialize, Serialize};

/// A failed conflict rule, numbered as in docs/domain.md.
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
    /// The rule's number (docs/domain.md).
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
