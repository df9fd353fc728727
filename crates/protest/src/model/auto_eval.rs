//! Stored results of the automatic evaluation: the reference match and the agreement judge (the
//! rules are in docs/auto-eval.md and `crate::metrics::auto_eval`).

use super::ids::CandidateId;
use super::{Candidate, CorpusRole, Master};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// How an MT system's candidate compares with the references of its example.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Equal to a reference: counts as correct without manual work.
    Match,
    /// Differs from every reference: referred to a human.
    Mismatch,
    /// The candidate has no aligned token for the pronoun or for an antecedent head.
    NoTranslation,
    /// The example has no usable reference to compare with.
    NoReference,
    /// The system's output did not come one line per sentence, and the boundaries of the
    /// translation of the pronoun's sentence (or an antecedent head's) are uncertain: a person
    /// must look (format version 2).
    UncertainBoundaries,
    /// Matching no reference, but its pronoun agrees in gender and number with the noun that
    /// translates the antecedent head, by the French lexicon: counts as correct without manual
    /// work (the agreement judge).
    Agreement,
    /// Matching no reference, and its pronoun disagrees in gender with the noun that translates
    /// the antecedent head (the numbers agreeing): counts as incorrect without manual work.
    Disagreement,
    /// Equal to a reference, yet the agreement judge finds the pronoun (or the participle that
    /// agrees with it) disagreeing with the antecedent head's translation: two automatic rules
    /// contradict each other, so a person must look.
    Contradicted,
}

impl Outcome {
    pub const ALL: [Outcome; 8] = [
        Outcome::Match,
        Outcome::Mismatch,
        Outcome::NoTranslation,
        Outcome::NoReference,
        Outcome::UncertainBoundaries,
        Outcome::Agreement,
        Outcome::Disagreement,
        Outcome::Contradicted,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Match => "match",
            Outcome::Mismatch => "mismatch",
            Outcome::NoTranslation => "no translation",
            Outcome::NoReference => "no reference",
            Outcome::UncertainBoundaries => "uncertain boundaries",
            Outcome::Agreement => "agreement",
            Outcome::Disagreement => "disagreement",
            Outcome::Contradicted => "match contradicted",
        }
    }

    /// What the outcome settles without a person: `Some(true)` correct (a match, an agreement),
    /// `Some(false)` incorrect (a disagreement), `None` left to people.
    pub fn settles(self) -> Option<bool> {
        match self {
            Outcome::Match | Outcome::Agreement => Some(true),
            Outcome::Disagreement => Some(false),
            _ => None,
        }
    }
}

/// What the match compares (docs/auto-eval.md, "The two rules").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchRule {
    /// What the pronoun and each head were translated *as*: annotators' minimal selections, and
    /// a candidate's aligned tokens reduced to the target language's pronoun forms (heads: without
    /// function words), identical forms taken as one. The rule of masters evaluated first by this
    /// version.
    #[default]
    MinimalTokens,
    /// Every aligned token as it stands, against annotators' minimal selections: the only rule
    /// of earlier versions, kept so that published numbers can be reproduced.
    AlignedTokens,
}

impl MatchRule {
    pub const ALL: [MatchRule; 2] = [MatchRule::MinimalTokens, MatchRule::AlignedTokens];

    /// The name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            MatchRule::MinimalTokens => "minimal_tokens",
            MatchRule::AlignedTokens => "aligned_tokens",
        }
    }

    /// What files written before the rule was stored used.
    fn before_rules() -> MatchRule {
        MatchRule::AlignedTokens
    }
}

/// The latest outcome of one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEntry {
    pub candidate: CandidateId,
    pub outcome: Outcome,
    /// For a match (and a contradicted one): the candidate whose translation served as the
    /// reference — the reference corpus's candidate of the same example, or a candidate
    /// annotators judged correct.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<CandidateId>,
    /// The round (1-based) since which the candidate has had this outcome and reference.
    pub round: u32,
}

/// One run of the match, with what it found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based, in order.
    pub round: u32,
    pub run: DateTime<Utc>,
    /// Translations judged correct by annotators that served as additional references.
    pub judged_references: u32,
    pub matches: u32,
    pub mismatches: u32,
    pub no_translation: u32,
    pub no_reference: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub uncertain_boundaries: u32,
    /// Outcomes of the agreement judge ([`Outcome::Agreement`], [`Outcome::Disagreement`],
    /// [`Outcome::Contradicted`]); written only when there are some.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub agreements: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub disagreements: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub contradicted: u32,
    /// Candidates settled automatically now (a match, an agreement or a disagreement) and not
    /// before this round: manual work saved.
    pub settled: u32,
    /// Candidates settled automatically before and no longer (a judgement they relied on
    /// changed, or the rules).
    pub unsettled: u32,
    /// The rule the round compared by.
    #[serde(default = "MatchRule::before_rules")]
    pub rule: MatchRule,
    /// Whether the agreement judge ran in this round (French targets, unless left out); absent
    /// in rounds of earlier versions, which had no judge.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agreement: bool,
}

impl Round {
    /// Candidates the round compared.
    pub fn candidates(&self) -> u32 {
        Outcome::ALL.into_iter().map(|o| self.count(o)).sum()
    }

    /// Candidates the round settled without a person: matches, agreements and disagreements.
    pub fn automatic(&self) -> u32 {
        self.matches + self.agreements + self.disagreements
    }

    pub fn count(&self, outcome: Outcome) -> u32 {
        match outcome {
            Outcome::Match => self.matches,
            Outcome::Mismatch => self.mismatches,
            Outcome::NoTranslation => self.no_translation,
            Outcome::NoReference => self.no_reference,
            Outcome::UncertainBoundaries => self.uncertain_boundaries,
            Outcome::Agreement => self.agreements,
            Outcome::Disagreement => self.disagreements,
            Outcome::Contradicted => self.contradicted,
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The automatic evaluation part of a master: the latest outcome per MT-system candidate and the
/// history of rounds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AutoEval {
    /// By candidate id, ascending, at most one per candidate.
    #[serde(default)]
    pub outcomes: Vec<MatchEntry>,
    /// Oldest first.
    #[serde(default)]
    pub rounds: Vec<Round>,
    /// The rule the next round compares by. Results stored before there was a choice were
    /// found with [`MatchRule::AlignedTokens`], and keep it.
    #[serde(default = "MatchRule::before_rules")]
    pub rule: MatchRule,
}

impl AutoEval {
    /// True before the match has ever run with the default rule (the field is then left out of
    /// the file).
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty() && self.rounds.is_empty() && self.rule == MatchRule::default()
    }

    pub fn entry(&self, candidate: CandidateId) -> Option<&MatchEntry> {
        self.outcomes.binary_search_by_key(&candidate, |e| e.candidate).ok().map(|i| &self.outcomes[i])
    }

    /// Whether the latest round settled the candidate as correct by a match.
    pub fn matched(&self, candidate: CandidateId) -> bool {
        self.entry(candidate).is_some_and(|e| e.outcome == Outcome::Match)
    }

    /// Whether the agreement judge settled any candidate in the latest outcomes (an agreement or
    /// a disagreement, whatever humans decided since): the score tables then keep its columns.
    pub fn judge_settled_any(&self) -> bool {
        self.outcomes.iter().any(|e| matches!(e.outcome, Outcome::Agreement | Outcome::Disagreement))
    }

    /// What the latest round settled of the candidate without a person ([`Outcome::settles`]).
    pub fn settled(&self, candidate: CandidateId) -> Option<bool> {
        self.entry(candidate).and_then(|e| e.outcome.settles())
    }
}

impl Master {
    /// Whether the automatic reference match compares a candidate: only MT systems' candidates
    /// are (the reference is what they are compared with).
    pub fn is_compared(&self, candidate: &Candidate) -> bool {
        self.corpus(candidate.corpus).is_some_and(|c| c.role == CorpusRole::System)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_by_candidate() {
        let entry = |id, outcome| MatchEntry { candidate: CandidateId(id), outcome, reference: None, round: 1 };
        let auto = AutoEval {
            outcomes: vec![entry(2, Outcome::Match), entry(4, Outcome::Mismatch), entry(9, Outcome::NoTranslation)],
            rounds: vec![],
            rule: MatchRule::default(),
        };
        assert!(auto.matched(CandidateId(2)));
        assert!(!auto.matched(CandidateId(4)));
        assert!(!auto.matched(CandidateId(3)));
        assert_eq!(auto.entry(CandidateId(9)).map(|e| e.outcome), Some(Outcome::NoTranslation));
        assert!(!auto.is_empty() && AutoEval::default().is_empty());
    }
}

#[cfg(test)]
mod rule_tests {
    use super::*;

    #[test]
    fn results_stored_before_the_rule_keep_the_old_rule() {
        let old: AutoEval = serde_json::from_str(r#"{"outcomes":[],"rounds":[]}"#).unwrap();
        assert_eq!(old.rule, MatchRule::AlignedTokens);
        assert!(!old.is_empty(), "written back with its rule");
        assert_eq!(AutoEval::default().rule, MatchRule::MinimalTokens);
        let json = serde_json::to_string(&AutoEval { rule: MatchRule::MinimalTokens, ..old }).unwrap();
        assert!(json.ends_with(r#""rule":"minimal_tokens"}"#), "{json}");
    }
}
