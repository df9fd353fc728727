//! A question an adjudicator is asked to settle: the candidate, the question (pronoun or
//! antecedent) on which its annotators' answers differ, and those answers without their names
//! (docs/domain.md, "Verdicts"). An adjudication batch carries them for its candidates.

use super::ids::CandidateId;
use super::record::{Judgement, Record, Role};
use serde::{Deserialize, Serialize};

/// One annotator's answer to a question, as an adjudicator is shown it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Yes,
    No,
    /// No answer, the record saying the translation cannot be judged (`bad_translation`,
    /// `incorrect_word_alignment`).
    CannotBeJudged,
    /// No answer.
    Unset,
}

impl Answer {
    /// The record's answer to `role`'s question.
    pub fn of(record: &Record, role: Role) -> Answer {
        match record.judgement(role) {
            Judgement::Yes => Answer::Yes,
            Judgement::No => Answer::No,
            Judgement::Unset if record.is_unjudgeable() => Answer::CannotBeJudged,
            Judgement::Unset => Answer::Unset,
        }
    }

    /// In the symbols of the tables: ✓, ✗, ? (and why, where the record says).
    pub fn describe(self) -> &'static str {
        match self {
            Answer::Yes => "✓",
            Answer::No => "✗",
            Answer::CannotBeJudged => "? (cannot be judged)",
            Answer::Unset => "?",
        }
    }
}

/// A question in dispute, with the annotators' answers to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispute {
    pub candidate: CandidateId,
    pub role: Role,
    /// The other annotators' answers in the order of [`Answer`] (✓ first), so that the order
    /// does not tell who said what.
    pub answers: Vec<Answer>,
}

impl Dispute {
    /// "the antecedent: ✓ ✓ ✗".
    pub fn describe(&self) -> String {
        let answers: Vec<&str> = self.answers.iter().map(|a| a.describe()).collect();
        format!("the {}: {}", self.role, answers.join(" "))
    }
}
