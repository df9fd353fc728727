//! Planning a task set (paper 001 §5; docs/domain.md, "Task sets"): which candidates go to which annotator.
//!
//! The pool is every candidate of the chosen translation corpora and categories that the
//! caller's filter keeps. It is split into strata, one per (corpus, category). The IAA sample,
//! which every annotator gets, takes from each stratum in proportion to its size and at least one
//! (largest-remainder rounding makes the shares add up to the requested size). The rest is dealt
//! round-robin to the annotators in a random order, category by category (and within a category
//! corpus by corpus), so each annotator's part differs from every other's by at most one
//! candidate, overall and in every category, and who gets the extra ones is random.
//!
//! All randomness comes from [`rng`] with the task set's seed, and [`shuffle`] uses nothing but
//! the generator's raw output, so a seed gives the same plan on every platform and with every
//! version of the `rand` crates (ChaCha8's stream is fixed by its specification).

use crate::model::{AnnotatorId, Candidate, CandidateId, CorpusId, Master, Purpose, Task, TaskSet};
use chrono::{DateTime, Utc};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// The label of the task every annotator of a task set gets.
pub const IAA_LABEL: &str = "IAA";

/// What to plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The task set's name; empty gives "Task set N".
    pub name: String,
    pub corpora: Vec<CorpusId>,
    pub categories: Vec<String>,
    pub annotators: u32,
    /// Requested size of the inter-annotator agreement sample; 0 for none.
    pub iaa_size: u32,
    pub seed: u64,
}

impl Request {
    /// Every translation corpus and every category of the master.
    pub fn everything(master: &Master, annotators: u32, iaa_size: u32, seed: u64) -> Request {
        Request {
            name: String::new(),
            corpora: master.translations().map(|c| c.id).collect(),
            categories: master.categories.iter().map(|c| c.name.clone()).collect(),
            annotators,
            iaa_size,
            seed,
        }
    }
}

/// Why a request cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("a task set needs at least one annotator")]
    NoAnnotators,
    #[error(
        "{annotators} annotators for {candidates} candidates: each annotator's part needs at least one candidate; ask for at most {candidates}"
    )]
    TooManyAnnotators { annotators: u32, candidates: usize },
    #[error("choose at least one translation corpus")]
    NoCorpora,
    #[error("choose at least one category")]
    NoCategories,
    #[error("corpus {0} is not a translation corpus of this master")]
    NotATranslation(CorpusId),
    #[error("unknown category '{0}'")]
    UnknownCategory(String),
    #[error("no candidate of the chosen corpora and categories is left to plan")]
    NothingToPlan,
    #[error("there is already a task set called '{name}' (id {id}); choose another name, or replace it")]
    NameTaken { name: String, id: u32 },
    #[error("task set {id} ('{name}') was already given out (batches were exported from it), so it cannot be {what}")]
    GivenOut { name: String, id: u32, what: &'static str },
    #[error("there is no task set {0}")]
    NoTaskSet(u32),
    #[error("{}", crate::metrics::auto_eval::NoRound)]
    NoMatchYet,
}

/// A planned task set and the counts to show before it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub task_set: TaskSet,
    pub summary: Summary,
}

/// Keeps every candidate: the filter for a plan over the whole pool.
pub fn every(_: &Candidate) -> bool {
    true
}

/// Plans a task set for `master`. `keep` filters the pool (e.g. only candidates still needing a
/// human judgement); pass [`every`] for no filter. Pure: the master is not changed, and the
/// same master, request and filter give the same plan.
pub fn plan(
    master: &Master,
    request: &Request,
    keep: impl Fn(&Candidate) -> bool,
    created: DateTime<Utc>,
) -> Result<Plan, PlanError> {
    check(master, request)?;
    let strata = strata(master, request, keep);
    let sizes: Vec<usize> = strata.iter().map(|s| s.len()).collect();
    let pool: usize = sizes.iter().sum();
    if pool == 0 {
        return Err(PlanError::NothingToPlan);
    }
    let mut rng = rng(request.seed, 0);
    let shares = proportional(&sizes, request.iaa_size as usize, &mut rng);
    let (mut iaa, mut rest) = (Vec::new(), Vec::new());
    for (stratum, share) in strata.iter().zip(shares) {
        let mut drawn = stratum.clone();
        shuffle(&mut drawn, &mut rng);
        iaa.extend_from_slice(&drawn[..share]);
        rest.extend_from_slice(&drawn[share..]);
    }
    let k = request.annotators as usize;
    let mut dealer: Vec<usize> = (0..k).collect();
    shuffle(&mut dealer, &mut rng);
    let mut parts = vec![Vec::new(); k];
    for (i, candidate) in rest.into_iter().enumerate() {
        parts[dealer[i % k]].push(candidate);
    }

    let mut tasks = Vec::new();
    if !iaa.is_empty() {
        iaa.sort_unstable();
        tasks.push(Task { label: IAA_LABEL.into(), candidates: iaa, annotator: None });
    }
    for (i, mut part) in parts.into_iter().enumerate() {
        part.sort_unstable();
        tasks.push(Task { label: (i + 1).to_string(), candidates: part, annotator: None });
    }
    let id = next_task_set_id(master);
    let task_set = TaskSet {
        id,
        name: if request.name.trim().is_empty() { format!("Task set {id}") } else { request.name.trim().to_owned() },
        created,
        seed: request.seed,
        corpora: request.corpora.clone(),
        categories: request.categories.clone(),
        annotators: request.annotators,
        iaa_size: request.iaa_size,
        purpose: Purpose::Annotation,
        tasks,
    };
    let pool: Vec<CandidateId> = strata.into_iter().flatten().collect();
    let mut summary = Summary::of(master, &task_set, &pool);
    let drawn = task_set.tasks.iter().find(|t| t.label == IAA_LABEL).map_or(0, |t| t.candidates.len());
    summary.notes = iaa_notes(request.iaa_size as usize, drawn, pool.len(), sizes.iter().filter(|&&n| n > 0).count());
    Ok(Plan { task_set, summary })
}

fn check(master: &Master, request: &Request) -> Result<(), PlanError> {
    if request.annotators == 0 {
        return Err(PlanError::NoAnnotators);
    }
    if request.corpora.is_empty() {
        return Err(PlanError::NoCorpora);
    }
    if request.categories.is_empty() {
        return Err(PlanError::NoCategories);
    }
    if let Some(&c) = request.corpora.iter().find(|&&c| !master.corpus(c).is_some_and(|c| c.role.is_translation())) {
        return Err(PlanError::NotATranslation(c));
    }
    if let Some(c) = request.categories.iter().find(|c| master.category(c).is_none()) {
        return Err(PlanError::UnknownCategory(c.clone()));
    }
    Ok(())
}

/// The pool by (category, corpus), in the request's order, each sorted by candidate id so the
/// draw does not depend on the order of the master's candidate list.
fn strata(master: &Master, request: &Request, keep: impl Fn(&Candidate) -> bool) -> Vec<Vec<CandidateId>> {
    let mut by_stratum: BTreeMap<(usize, usize), Vec<CandidateId>> = BTreeMap::new();
    for candidate in master.candidates.iter().filter(|c| keep(c)) {
        let Some(corpus) = request.corpora.iter().position(|&c| c == candidate.corpus) else { continue };
        let Some((_, category)) = master.example_of(candidate) else { continue };
        let Some(cat) = request.categories.iter().position(|c| *c == category.name) else { continue };
        by_stratum.entry((cat, corpus)).or_default().push(candidate.id);
    }
    by_stratum
        .into_values()
        .map(|mut ids| {
            ids.sort_unstable();
            ids.dedup();
            ids
        })
        .collect()
}

/// Shares of a sample of `requested` drawn from strata of these sizes: in proportion to size,
/// at least one from every non-empty stratum, adding up to the requested size. Largest-remainder
/// rounding; ties are broken at random. When fewer are requested than there are non-empty
/// strata, the at-least-one rule wins and the sample has one per stratum; more than the pool
/// gives the whole pool; zero gives none.
fn proportional(sizes: &[usize], requested: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let pool: usize = sizes.iter().sum();
    let strata = sizes.iter().filter(|&&n| n > 0).count();
    let tie: Vec<u64> = sizes.iter().map(|_| rng.next_u64()).collect();
    if requested == 0 || pool == 0 {
        return vec![0; sizes.len()];
    }
    let total = requested.min(pool).max(strata);
    let mut shares: Vec<usize> = sizes.iter().map(|&n| if n == 0 { 0 } else { (total * n / pool).max(1) }).collect();
    // How far a share is below its exact quota total·n/pool, scaled by pool to stay in integers.
    let shortfall = |i: usize, shares: &[usize]| (total * sizes[i]) as i128 - (shares[i] * pool) as i128;
    let mut sum: usize = shares.iter().sum();
    while sum < total {
        let grow = (0..sizes.len())
            .filter(|&i| shares[i] < sizes[i])
            .max_by_key(|&i| (shortfall(i, &shares), tie[i]))
            .expect("the pool is larger than the sample");
        shares[grow] += 1;
        sum += 1;
    }
    while sum > total {
        let shrink = (0..sizes.len())
            .filter(|&i| shares[i] > 1)
            .min_by_key(|&i| (shortfall(i, &shares), tie[i]))
            .expect("the sample has at least one per stratum");
        shares[shrink] -= 1;
        sum -= 1;
    }
    shares
}

fn iaa_notes(requested: usize, drawn: usize, pool: usize, strata: usize) -> Vec<String> {
    let mut notes = Vec::new();
    if requested > pool {
        notes.push(format!(
            "The IAA sample has all {pool} candidates: {requested} were requested but no more are left."
        ));
    } else if requested > 0 && drawn > requested {
        notes.push(format!(
            "The IAA sample has {drawn} candidates, not {requested}: every one of the {strata} (corpus, category) groups gets at least one."
        ));
    }
    notes
}

/// Whether any part of a task set was given to an annotator (its batches exported, or an old
/// batch converted into it): from then on, batches out there depend on it.
pub fn given_out(task_set: &TaskSet) -> bool {
    task_set.tasks.iter().any(|t| t.annotator.is_some())
}

/// The task set a new one called `name` would replace: `None` when the name is free. A name taken
/// (ignoring case and surrounding spaces) is refused unless `replace`, and a task set given out
/// is never replaced.
pub fn replaced_by_name(master: &Master, name: &str, replace: bool) -> Result<Option<u32>, PlanError> {
    let key = name.trim().to_lowercase();
    let Some(ts) = master.task_sets.iter().find(|t| t.name.trim().to_lowercase() == key) else { return Ok(None) };
    if given_out(ts) {
        return Err(PlanError::GivenOut { name: ts.name.clone(), id: ts.id, what: "replaced" });
    }
    if !replace {
        return Err(PlanError::NameTaken { name: ts.name.clone(), id: ts.id });
    }
    Ok(Some(ts.id))
}

/// Stores a planned task set in the master: in place of the task set `replacing`, keeping its
/// id, or as a new one.
pub fn store(master: &mut Master, mut task_set: TaskSet, replacing: Option<u32>) {
    match replacing.and_then(|id| master.task_sets.iter_mut().find(|t| t.id == id)) {
        Some(old) => {
            task_set.id = old.id;
            *old = task_set;
        }
        None => master.task_sets.push(task_set),
    }
}

/// Removes a task set nothing was given out from.
pub fn remove(master: &mut Master, id: u32) -> Result<TaskSet, PlanError> {
    let i = master.task_sets.iter().position(|t| t.id == id).ok_or(PlanError::NoTaskSet(id))?;
    let ts = &master.task_sets[i];
    if given_out(ts) {
        return Err(PlanError::GivenOut { name: ts.name.clone(), id, what: "removed" });
    }
    Ok(master.task_sets.remove(i))
}

/// The next free task-set id (ids start at 1).
pub fn next_task_set_id(master: &Master) -> u32 {
    master.task_sets.iter().map(|t| t.id + 1).max().unwrap_or(1).max(1)
}

/// What a task set made of these candidates draws from: its translation corpora, and its
/// categories in the master's order (`TaskSet::corpora`, `TaskSet::categories`).
pub fn drawn_from<'a>(
    master: &Master,
    candidates: impl IntoIterator<Item = &'a CandidateId>,
) -> (Vec<CorpusId>, Vec<String>) {
    let found: Vec<&Candidate> = candidates.into_iter().filter_map(|&c| master.candidate(c)).collect();
    let corpora: BTreeSet<CorpusId> = found.iter().map(|c| c.corpus).collect();
    let used: BTreeSet<&str> =
        found.iter().filter_map(|c| master.example(c.example)).map(|e| e.category.as_str()).collect();
    let categories =
        master.categories.iter().filter(|c| used.contains(c.name.as_str())).map(|c| c.name.clone()).collect();
    (corpora.into_iter().collect(), categories)
}

/// The random generator for one use of a seed. Each use has its own `stream` (the plan 0, the
/// presentation order of annotator N's batch N), so they do not interfere.
pub fn rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// Fisher–Yates shuffle on the generator's raw output, with unbiased bounded draws by
/// rejection; written out so that a seed's result can never change with a crate update (batch
/// merges depend on recomputing the same order).
pub fn shuffle<T>(items: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// A uniform draw from `0..n` (n ≥ 1).
fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    // The largest multiple of n that fits; draws at or above it would favour small results.
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// The candidates one annotator gets from a task set: their own parts and, if they have any, the
/// IAA sample. Sorted by id.
pub fn candidates_for(task_set: &TaskSet, annotator: AnnotatorId) -> Vec<CandidateId> {
    if !task_set.tasks.iter().any(|t| t.annotator == Some(annotator)) {
        return Vec::new();
    }
    let shared = |t: &Task| t.label == IAA_LABEL && t.annotator.is_none();
    let set: BTreeSet<CandidateId> = task_set
        .tasks
        .iter()
        .filter(|t| t.annotator == Some(annotator) || shared(t))
        .flat_map(|t| t.candidates.iter().copied())
        .collect();
    set.into_iter().collect()
}

/// Counts of a task set per category and per corpus: the pool it was drawn from, the IAA sample
/// and each annotator's own part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub requested_iaa: u32,
    /// Labels of the annotators' own parts ("1", "2", …), in task order.
    pub parts: Vec<String>,
    pub categories: Vec<Row>,
    pub corpora: Vec<Row>,
    pub total: Row,
    /// What differs from the request, in plain words.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub name: String,
    /// Candidates in the pool the task set was drawn from.
    pub available: usize,
    pub iaa: usize,
    /// Per part, in the order of [`Summary::parts`].
    pub own: Vec<usize>,
}

impl Summary {
    /// The counts of `task_set`, drawn from `pool`, grouped by the master's categories and corpora.
    pub fn of(master: &Master, task_set: &TaskSet, pool: &[CandidateId]) -> Summary {
        let parts: Vec<&Task> = task_set.tasks.iter().filter(|t| t.label != IAA_LABEL).collect();
        let iaa: BTreeSet<CandidateId> =
            task_set.tasks.iter().filter(|t| t.label == IAA_LABEL).flat_map(|t| t.candidates.iter().copied()).collect();
        let iaa: Vec<CandidateId> = iaa.into_iter().collect();
        let empty = |name: &str| Row { name: name.to_owned(), available: 0, iaa: 0, own: vec![0; parts.len()] };
        let mut categories: Vec<Row> = master.categories.iter().map(|c| empty(&c.name)).collect();
        let mut corpora: Vec<Row> = master.translations().map(|c| empty(&c.name)).collect();
        let corpus_rows: HashMap<CorpusId, usize> = master.translations().enumerate().map(|(i, c)| (c.id, i)).collect();
        let mut total = empty("total");
        // One pass over the candidates, each one's category and corpus looked up once (a pass
        // per row took seconds at 100× PROTEST).
        let columns = std::iter::once((None, pool.iter()))
            .chain(std::iter::once((Some(None), iaa.iter())))
            .chain(parts.iter().enumerate().map(|(p, t)| (Some(Some(p)), t.candidates.iter())));
        for (column, candidates) in columns {
            let count = |row: &mut Row| match column {
                None => row.available += 1,
                Some(None) => row.iaa += 1,
                Some(Some(p)) => row.own[p] += 1,
            };
            for &id in candidates {
                count(&mut total);
                let Some(candidate) = master.candidate(id) else { continue };
                if let Some(row) = master.category_position(candidate).and_then(|i| categories.get_mut(i)) {
                    count(row);
                }
                if let Some(&row) = corpus_rows.get(&candidate.corpus) {
                    count(&mut corpora[row]);
                }
            }
        }
        let used = |r: &Row| r.available + r.iaa + r.own.iter().sum::<usize>() > 0;
        categories.retain(used);
        corpora.retain(used);
        Summary {
            requested_iaa: task_set.iaa_size,
            parts: parts.iter().map(|p| p.label.clone()).collect(),
            categories,
            corpora,
            total,
            notes: Vec::new(),
        }
    }

    /// What each annotator gets, in the terms of the table's columns (IAA, own): "Each annotator
    /// gets the 30 IAA candidates and their own part: 30 + 45 = 75 candidates for part 1, 30 + 45
    /// = 75 for part 2."
    pub fn per_annotator_sentence(&self) -> String {
        let iaa = self.total.iaa;
        let each: Vec<String> = self
            .parts
            .iter()
            .zip(&self.total.own)
            .enumerate()
            .map(|(i, (part, own))| {
                let sum = if iaa > 0 { format!("{iaa} + {own} = {}", iaa + own) } else { own.to_string() };
                let unit = if i == 0 { " candidates" } else { "" };
                format!("{sum}{unit} for part {part}")
            })
            .collect();
        if iaa > 0 {
            format!("Each annotator gets the {iaa} IAA candidates and their own part: {}.", each.join(", "))
        } else {
            format!("No IAA sample; each annotator gets their own part: {}.", each.join(", "))
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.categories.iter().chain(&self.corpora).chain([&self.total]);
        let width = rows.clone().map(|r| r.name.chars().count()).max().unwrap_or(0).max(8);
        write!(f, "{:width$}  {:>9}  {:>5}", "", "available", "IAA")?;
        for p in &self.parts {
            write!(f, "  {:>6}", format!("own {p}"))?;
        }
        writeln!(f)?;
        let line = |f: &mut fmt::Formatter<'_>, r: &Row| {
            write!(f, "{:width$}  {:>9}  {:>5}", r.name, r.available, r.iaa)?;
            for n in &r.own {
                write!(f, "  {n:>6}")?;
            }
            writeln!(f)
        };
        for r in &self.categories {
            line(f, r)?;
        }
        writeln!(f)?;
        for r in self.corpora.iter().chain([&self.total]) {
            line(f, r)?;
        }
        writeln!(f, "{}", self.per_annotator_sentence())?;
        for note in &self.notes {
            writeln!(f, "{note}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn sample() -> Master {
        crate::testing::unplanned_sample()
    }

    fn plan_of(m: &Master, annotators: u32, iaa: u32, seed: u64) -> Plan {
        plan(m, &Request::everything(m, annotators, iaa, seed), every, DateTime::UNIX_EPOCH).unwrap()
    }

    fn task<'a>(p: &'a Plan, label: &str) -> &'a [CandidateId] {
        &p.task_set.tasks.iter().find(|t| t.label == label).unwrap().candidates
    }

    #[test]
    fn the_same_seed_gives_the_same_plan_and_another_seed_another() {
        let m = sample();
        assert_eq!(plan_of(&m, 2, 30, 42), plan_of(&m, 2, 30, 42));
        assert_ne!(task(&plan_of(&m, 2, 30, 42), "IAA"), task(&plan_of(&m, 2, 30, 43), "IAA"));
        assert_ne!(task(&plan_of(&m, 2, 30, 42), "1"), task(&plan_of(&m, 2, 30, 43), "1"));
    }

    #[test]
    fn the_seed_fixes_the_shuffle_forever() {
        // Batches are merged by recomputing their order from the seed; if this changes, batches
        // already sent out could no longer be merged.
        let mut items: Vec<u32> = (0..10).collect();
        shuffle(&mut items, &mut rng(42, 0));
        assert_eq!(items, [1, 5, 9, 6, 3, 2, 0, 8, 4, 7]);
    }

    #[test]
    fn every_candidate_is_planned_once_and_parts_differ_by_at_most_one() {
        let m = sample();
        for (annotators, iaa) in [(2, 30), (3, 26), (4, 0), (5, 7)] {
            let p = plan_of(&m, annotators, iaa, 7);
            let mut all: Vec<CandidateId> = p.task_set.tasks.iter().flat_map(|t| t.candidates.clone()).collect();
            all.sort_unstable();
            assert_eq!(all, m.candidates.iter().map(|c| c.id).collect::<Vec<_>>());
            let own: Vec<usize> =
                p.task_set.tasks.iter().filter(|t| t.label != IAA_LABEL).map(|t| t.candidates.len()).collect();
            assert_eq!(own.len(), annotators as usize);
            assert!(own.iter().max().unwrap() - own.iter().min().unwrap() <= 1, "{own:?}");
            // Also within every category.
            for row in &p.summary.categories {
                assert!(row.own.iter().max().unwrap() - row.own.iter().min().unwrap() <= 1, "{row:?}");
            }
        }
    }

    #[test]
    fn the_extra_candidates_go_to_different_annotators_with_different_seeds() {
        let m = sample();
        // 120 − 26 = 94 candidates over 4 annotators: two get 24, two get 23.
        let bigger = |seed| {
            let p = plan_of(&m, 4, 26, seed);
            p.summary.total.own.iter().enumerate().filter(|(_, n)| **n == 24).map(|(i, _)| i).collect::<Vec<_>>()
        };
        let seen: BTreeSet<Vec<usize>> = (0..20).map(bigger).collect();
        assert!(seen.iter().all(|b| b.len() == 2));
        assert!(seen.len() > 2, "{seen:?}");
    }

    #[test]
    fn the_iaa_sample_is_proportional_with_at_least_one_per_stratum() {
        let m = sample();
        let p = plan_of(&m, 2, 60, 1);
        let iaa = task(&p, "IAA");
        assert_eq!(iaa.len(), 60);
        // Half of the pool: every (corpus, category) gives half its size, rounded either way.
        let mut per: HashMap<(CorpusId, String), (usize, usize)> = HashMap::new();
        for c in &m.candidates {
            let key = (c.corpus, m.example_of(c).unwrap().1.name.clone());
            let e = per.entry(key).or_default();
            e.0 += 1;
            e.1 += usize::from(iaa.contains(&c.id));
        }
        for ((_, cat), (size, drawn)) in &per {
            assert!(drawn * 2 == *size || drawn * 2 + 1 == *size || drawn * 2 == size + 1, "{cat}: {drawn} of {size}");
        }
        // Small samples still reach every stratum.
        let p = plan_of(&m, 2, 30, 1);
        let iaa = task(&p, "IAA");
        assert_eq!(iaa.len(), 30);
        let stratum = |c: &CandidateId| {
            let c = m.candidate(*c).unwrap();
            (c.corpus, m.example_of(c).unwrap().1.name.clone())
        };
        let strata: BTreeSet<_> = iaa.iter().map(stratum).collect();
        assert_eq!(strata.len(), 26);
        assert!(p.summary.notes.is_empty());
    }

    #[test]
    fn proportional_rounding() {
        let mut r = rng(0, 0);
        assert_eq!(proportional(&[10, 20, 30], 6, &mut r), [1, 2, 3]);
        assert_eq!(proportional(&[10, 20, 30, 0], 12, &mut r), [2, 4, 6, 0]);
        // 7 of 60: quotas 1.17, 2.33, 3.5 → 1, 2, 3 and the largest remainder (3.5) gets the 7th.
        assert_eq!(proportional(&[10, 20, 30], 7, &mut r), [1, 2, 4]);
        // At least one each, taken back from the most over-served: quotas 0.1, 0.3, 3.6.
        assert_eq!(proportional(&[1, 3, 36], 4, &mut r), [1, 1, 2]);
        // Fewer requested than strata: one each. More than the pool: everything.
        assert_eq!(proportional(&[5, 5, 5], 2, &mut r), [1, 1, 1]);
        assert_eq!(proportional(&[5, 2], 50, &mut r), [5, 2]);
        assert_eq!(proportional(&[5, 2], 0, &mut r), [0, 0]);
    }

    #[test]
    fn notes_explain_a_sample_of_another_size() {
        let m = sample();
        let p = plan_of(&m, 2, 10, 1);
        assert_eq!(task(&p, "IAA").len(), 26);
        assert!(p.summary.notes[0].contains("26 candidates, not 10"), "{:?}", p.summary.notes);
        let p = plan_of(&m, 2, 500, 1);
        assert_eq!(task(&p, "IAA").len(), 120);
        assert_eq!(p.summary.total.own, [0, 0]);
        assert!(p.summary.notes[0].contains("all 120 candidates"));
    }

    #[test]
    fn the_filter_restricts_the_pool() {
        let m = sample();
        let mt = m.corpora.iter().find(|c| c.name == "mt").unwrap().id;
        let request = Request::everything(&m, 2, 26, 3);
        let p = plan(&m, &request, |c| c.corpus == mt, DateTime::UNIX_EPOCH).unwrap();
        assert_eq!(p.summary.total.available, 60);
        assert!(p.task_set.tasks.iter().flat_map(|t| &t.candidates).all(|&c| m.candidate(c).unwrap().corpus == mt));
        // The request still names both corpora; only the filter decided.
        assert_eq!(p.task_set.corpora.len(), 2);
        assert_eq!(plan(&m, &request, |_| false, DateTime::UNIX_EPOCH), Err(PlanError::NothingToPlan));
    }

    #[test]
    fn bad_requests_are_refused() {
        let m = sample();
        let mut r = Request::everything(&m, 0, 10, 1);
        assert_eq!(plan(&m, &r, every, DateTime::UNIX_EPOCH), Err(PlanError::NoAnnotators));
        r.annotators = 2;
        r.corpora = vec![CorpusId(0)];
        assert_eq!(plan(&m, &r, every, DateTime::UNIX_EPOCH), Err(PlanError::NotATranslation(CorpusId(0))));
        r.corpora = vec![CorpusId(1)];
        r.categories = vec!["nope".into()];
        assert_eq!(plan(&m, &r, every, DateTime::UNIX_EPOCH), Err(PlanError::UnknownCategory("nope".into())));
    }

    #[test]
    fn task_sets_are_numbered_and_named() {
        let mut m = sample();
        let p = plan_of(&m, 2, 30, 1);
        assert_eq!((p.task_set.id, p.task_set.name.as_str()), (1, "Task set 1"));
        m.task_sets.push(p.task_set);
        assert_eq!(plan_of(&m, 2, 30, 1).task_set.id, 2);
        let summary = plan_of(&m, 2, 30, 1).summary.to_string();
        assert!(
            summary.contains(
                "Each annotator gets the 30 IAA candidates and their own part: 30 + 45 = 75 candidates for part 1, \
                 30 + 45 = 75 for part 2."
            ),
            "{summary}"
        );
    }
}
