//! Task sets: which candidates go to which annotator (docs/domain.md, "Task sets").

use super::ids::{AnnotatorId, CandidateId, CorpusId};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The label of the task every annotator of a task set gets.
pub const IAA_LABEL: &str = "IAA";

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

impl TaskSet {
    /// The annotators' own parts, in part order (the IAA sample is in every part's batch).
    pub fn parts(&self) -> impl Iterator<Item = &Task> {
        self.tasks.iter().filter(|t| !t.is_iaa())
    }

    /// The candidates of the IAA sample, which every annotator gets.
    pub fn iaa_candidates(&self) -> impl Iterator<Item = CandidateId> + '_ {
        self.tasks.iter().filter(|t| t.is_iaa()).flat_map(|t| t.candidates.iter().copied())
    }

    /// How many candidates each part's batch holds: its own part and the IAA sample.
    pub fn part_sizes(&self) -> Vec<usize> {
        let iaa = self.iaa_candidates().count();
        self.parts().map(|t| t.candidates.len() + iaa).collect()
    }
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

impl Task {
    /// The IAA sample, not yet given to anyone (every annotator gets it).
    pub fn iaa(candidates: Vec<CandidateId>) -> Task {
        Task { label: IAA_LABEL.into(), candidates, annotator: None }
    }

    /// Whether this is the IAA sample rather than one annotator's own part.
    pub fn is_iaa(&self) -> bool {
        self.label == IAA_LABEL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_s_batch_holds_its_own_candidates_and_the_iaa_sample() {
        let part = |label: &str, ids: &[u32]| Task {
            label: label.into(),
            candidates: ids.iter().copied().map(CandidateId).collect(),
            annotator: None,
        };
        let tasks = vec![part("1", &[1, 2, 3]), Task::iaa(vec![CandidateId(9), CandidateId(8)]), part("2", &[4])];
        let ts = TaskSet {
            id: 1,
            name: "t".into(),
            created: DateTime::UNIX_EPOCH,
            seed: 0,
            corpora: Vec::new(),
            categories: Vec::new(),
            annotators: 2,
            iaa_size: 2,
            purpose: Purpose::Annotation,
            planner: Planner::Balanced,
            tasks,
        };
        assert!(ts.tasks[1].is_iaa() && !ts.tasks[0].is_iaa());
        assert_eq!(ts.parts().map(|t| t.label.as_str()).collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(ts.iaa_candidates().collect::<Vec<_>>(), [CandidateId(9), CandidateId(8)]);
        assert_eq!(ts.part_sizes(), [5, 3]);
    }
}
