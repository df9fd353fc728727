//! Annotation records: one annotator's judgement of one candidate (docs/domain.md, "Concepts", "Questions and tags").

use super::Conflict;
use super::ids::{AnnotatorId, CandidateId, TokenRef};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A yes / no answer, or none yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    #[default]
    Unset,
    Yes,
    No,
}

impl Judgement {
    pub fn is_set(self) -> bool {
        self != Judgement::Unset
    }

    /// The symbol of the paper's tables: ✓ ✗ ?.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Yes => "✓",
            Judgement::No => "✗",
            Judgement::Unset => "?",
        }
    }
}

/// What a selected token is the translation of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Pronoun,
    Antecedent,
}

impl Role {
    pub const ALL: [Role; 2] = [Role::Pronoun, Role::Antecedent];
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Pronoun => "pronoun",
            Role::Antecedent => "antecedent",
        })
    }
}

/// The minimal correct tokens an annotator selected, per role.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub pronoun: BTreeSet<TokenRef>,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub antecedent: BTreeSet<TokenRef>,
}

impl Selection {
    pub fn get(&self, role: Role) -> &BTreeSet<TokenRef> {
        match role {
            Role::Pronoun => &self.pronoun,
            Role::Antecedent => &self.antecedent,
        }
    }

    pub fn get_mut(&mut self, role: Role) -> &mut BTreeSet<TokenRef> {
        match role {
            Role::Pronoun => &mut self.pronoun,
            Role::Antecedent => &mut self.antecedent,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.pronoun.is_empty() && self.antecedent.is_empty()
    }
}

/// The outcome of the conflict checks, stored with the record (docs/domain.md, "Conflict rules").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConflictStatus {
    /// Not checked yet: the annotator has not left the example since the last change, or the
    /// record belongs to the researcher, or checks are off.
    #[default]
    Unchecked,
    /// Checked; no rule failed.
    Clear,
    /// Checked; these rules failed and the annotator chose to keep the annotation as it is.
    Kept(Vec<Conflict>),
}

impl ConflictStatus {
    pub fn from_conflicts(conflicts: Vec<Conflict>) -> Self {
        if conflicts.is_empty() { ConflictStatus::Clear } else { ConflictStatus::Kept(conflicts) }
    }

    pub fn has_conflicts(&self) -> bool {
        matches!(self, ConflictStatus::Kept(c) if !c.is_empty())
    }
}

/// The column of the original tool's pronoun judgement, the key of its "unsure" in
/// [`Record::legacy`].
pub const LEGACY_PRONOUN: &str = "anaph_annotation";

/// One annotator's annotation of one candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub candidate: CandidateId,
    pub annotator: AnnotatorId,
    /// "Antecedent head correctly translated?" (anaphoric examples only).
    #[serde(default)]
    pub antecedent: Judgement,
    /// "Pronoun correctly translated?" (given the antecedent head, for anaphoric examples).
    #[serde(default)]
    pub pronoun: Judgement,
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub tags: BTreeSet<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub remarks: String,
    #[serde(default, skip_serializing_if = "Selection::is_empty")]
    pub selected: Selection,
    #[serde(default)]
    pub conflict: ConflictStatus,
    /// Values of a record converted from the original PROTEST tool that the fields above cannot
    /// hold exactly, by the old column name (`anaph_annotation: unsure`, an inconsistent
    /// `conflict_status`; see docs/legacy.md). Historical: later edits do not change it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub legacy: BTreeMap<String, String>,
    /// The active time the annotator spent on this record, in milliseconds: the time its example
    /// was on screen while they were at work (docs/domain.md, "Time per record"). `None`: not
    /// measured (a record made before PROTEST measured it, converted or made by a command).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_ms: Option<u64>,
    // Read by a parser for the form we write (800,000 timestamps in a 100× master).
    #[serde(deserialize_with = "super::timestamp::deserialize")]
    pub created: DateTime<Utc>,
    #[serde(deserialize_with = "super::timestamp::deserialize")]
    pub modified: DateTime<Utc>,
}

impl Record {
    pub fn new(candidate: CandidateId, annotator: AnnotatorId, now: DateTime<Utc>) -> Self {
        Record {
            candidate,
            annotator,
            antecedent: Judgement::Unset,
            pronoun: Judgement::Unset,
            tags: BTreeSet::new(),
            remarks: String::new(),
            selected: Selection::default(),
            conflict: ConflictStatus::Unchecked,
            legacy: BTreeMap::new(),
            active_ms: None,
            created: now,
            modified: now,
        }
    }

    pub fn judgement(&self, role: Role) -> Judgement {
        match role {
            Role::Pronoun => self.pronoun,
            Role::Antecedent => self.antecedent,
        }
    }

    pub fn judgement_mut(&mut self, role: Role) -> &mut Judgement {
        match role {
            Role::Pronoun => &mut self.pronoun,
            Role::Antecedent => &mut self.antecedent,
        }
    }

    /// Whether the record says the translation cannot be judged: tagged `bad_translation` or
    /// `incorrect_word_alignment` (docs/domain.md, "Questions and tags").
    pub fn is_unjudgeable(&self) -> bool {
        super::tags::UNJUDGEABLE.iter().any(|t| self.tags.contains(*t))
    }

    /// Whether the pronoun question was answered: yes or no, the original tool's "unsure"
    /// ([`LEGACY_PRONOUN`]), or a tag saying the translation cannot be judged. A record with
    /// remarks, other tags, tokens or only the antecedent's answer is not judged: it is still to
    /// do (docs/domain.md, "Record status").
    pub fn is_judged(&self) -> bool {
        self.pronoun.is_set() || self.is_unjudgeable() || self.legacy.contains_key(LEGACY_PRONOUN)
    }

    /// True when the annotator has entered nothing, so the candidate still counts as new. A
    /// converted record with a legacy value (an old "unsure") is not blank.
    pub fn is_blank(&self) -> bool {
        !self.pronoun.is_set()
            && !self.antecedent.is_set()
            && self.tags.is_empty()
            && self.remarks.trim().is_empty()
            && self.selected.is_empty()
            && self.legacy.is_empty()
    }

    /// The same annotation, ignoring timestamps and conflict status.
    pub fn same_content(&self, other: &Record) -> bool {
        self.candidate == other.candidate
            && self.annotator == other.annotator
            && self.antecedent == other.antecedent
            && self.pronoun == other.pronoun
            && self.tags == other.tags
            && self.remarks == other.remarks
            && self.selected == other.selected
            && self.legacy == other.legacy
    }
}
