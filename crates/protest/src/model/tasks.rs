//! Task sets: which candidates go to which annotator (docs/domain.md, "Task sets").

use super::ids::{AnnotatorId, CandidateId, CorpusId};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A planned distribution of candidates over annotators, reproducible from its seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSet {
    pub id: u32,
    pub name: String,
    pub created: DateTime<Utc>,
    /// The seed of the random draws, so the same choices give the same plan again.
    pub seed: u64,
    pub corpora: Vec<CorpusId>,
    pub categories: Vec<String>,
    /// Number of annotators the set was planned for.
    pub annotators: u32,
    /// Requested size of the inter-annotator agreement sample.
    pub iaa_size: u32,
    #[serde(default)]
    pub purpose: Purpose,
    /// How the candidates were dealt out (absent: [`Planner::RoundRobin`], the only planner of
    /// earlier versions), so that the seed gives the same plan again.
    #[serde(default, skip_serializing_if = "Planner::is_round_robin")]
    pub planner: Planner,
    pub tasks: Vec<Task>,
}

/// How a task set's candidates were dealt out (docs/batches.md, "Plan a task set").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Planner {
    /// Round-robin, category by category: parts balanced per category, not per translation
    /// (the plans of earlier versions; the sample master's task set).
    #[default]
    RoundRobin,
    /// Balanced per translation as well: each annotator's own part over translation × category,
    /// and the IAA sample over translations.
    Balanced,
}

impl Planner {
    pub fn is_round_robin(&self) -> bool {
        *self == Planner::RoundRobin
    }

    /// The name `batch plan --planner` takes.
    pub fn name(self) -> &'static str {
        match self {
            Planner::RoundRobin => "round-robin",
            Planner::Balanced => "balanced",
        }
    }
}

/// Why a task set was made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Ordinary annotation.
    #[default]
    Annotation,
    /// Candidates on which annotators disagreed, given to a further annotator whose judgement
    /// then prevails wherever one judgement per candidate is needed.
    Adjudication,
}

/// One share of a task set: the IAA sample (given to every annotator) or one annotator's part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    /// `IAA`, or `1`, `2`, … for the annotators' own parts.
    pub label: String,
    pub candidates: Vec<CandidateId>,
    /// The annotator the part was given to, once known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotator: Option<AnnotatorId>,
}
