//! Planning a task set (paper 001 §5; docs/domain.md, "Task sets"): which candidates go to which annotator.
//!
//! The pool is every candidate of the chosen translation corpora and categories that the
//! caller's filter keeps. It is split into strata, one per (corpus, category). The IAA sample,
//! which every annotator gets, takes from each stratum in proportion to its size and at least one
//! (largest-remainder rounding makes the shares add up to the requested size). The rest of each
//! stratum is split evenly, its extra candidates (the remainder of the division by the number of
//! annotators) each to a different annotator.
//!
//! The [`Planner::Balanced`] planner (the default) then balances those extras, and the IAA
//! sample, over the translations too: each annotator's part differs from every other's by at most
//! one candidate in every (corpus, category) stratum, in every category, in every corpus and
//! overall, and the sample's share of each corpus is as close to its proportion as the
//! (corpus, category) shares allow — one apart where the corpora have as many candidates.
//! Without it, the extras of each category went round-robin, so that the same annotator could
//! get the extra candidate of one system in every category ([`Planner::RoundRobin`], the plans
//! of earlier versions, kept to make them again).
//!
//! All randomness comes from [`rng`] with the task set's seed, and [`shuffle`] uses nothing but
//! the generator's raw output, so a seed gives the same plan on every platform and with every
//! version of the `rand` crates (ChaCha8's stream is fixed by its specification).

use crate::model::{AnnotatorId, Candidate, CandidateId, CorpusId, Master, Planner, Purpose, Task, TaskSet};
use chrono::{DateTime, Utc};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

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
    pub planner: Planner,
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
            planner: Planner::Balanced,
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
    #[error("no task set id is left: the highest in use is {}, the largest there can be", u32::MAX)]
    NoIdLeft,
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
    let (keys, strata) = strata(master, request, keep);
    let sizes: Vec<usize> = strata.iter().map(|s| s.len()).collect();
    let pool: usize = sizes.iter().sum();
    if pool == 0 {
        return Err(PlanError::NothingToPlan);
    }
    let mut rng = rng(request.seed, 0);
    let mut shares = proportional(&sizes, request.iaa_size as usize, &mut rng);
    if request.planner == Planner::Balanced {
        balance_sample(&keys, &sizes, &mut shares, &mut rng);
    }
    let (mut iaa, mut rest) = (Vec::new(), Vec::new());
    for (stratum, &share) in strata.iter().zip(&shares) {
        let mut drawn = stratum.clone();
        shuffle(&mut drawn, &mut rng);
        iaa.extend_from_slice(&drawn[..share]);
        rest.push(drawn[share..].to_vec());
    }
    let k = request.annotators as usize;
    let mut dealer: Vec<usize> = (0..k).collect();
    shuffle(&mut dealer, &mut rng);
    let parts = match request.planner {
        Planner::RoundRobin => round_robin(rest, &dealer),
        Planner::Balanced => balanced(&keys, rest, &dealer),
    };

    let mut tasks = Vec::new();
    if !iaa.is_empty() {
        iaa.sort_unstable();
        tasks.push(Task::iaa(iaa));
    }
    for (i, mut part) in parts.into_iter().enumerate() {
        part.sort_unstable();
        tasks.push(Task { label: (i + 1).to_string(), candidates: part, annotator: None });
    }
    let id = master.next_task_set_id().ok_or(PlanError::NoIdLeft)?;
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
        planner: request.planner,
        tasks,
    };
    let pool: Vec<CandidateId> = strata.into_iter().flatten().collect();
    let mut summary = Summary::of(master, &task_set, &pool);
    let drawn = task_set.iaa_candidates().count();
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
/// draw does not depend on the order of the master's candidate list; with each stratum's
/// (category, corpus) positions in the request.
fn strata(
    master: &Master,
    request: &Request,
    keep: impl Fn(&Candidate) -> bool,
) -> (Vec<(usize, usize)>, Vec<Vec<CandidateId>>) {
    let mut by_stratum: BTreeMap<(usize, usize), Vec<CandidateId>> = BTreeMap::new();
    for candidate in master.candidates.iter().filter(|c| keep(c)) {
        let Some(corpus) = request.corpora.iter().position(|&c| c == candidate.corpus) else { continue };
        let Some((_, category)) = master.example_of(candidate) else { continue };
        let Some(cat) = request.categories.iter().position(|c| *c == category.name) else { continue };
        by_stratum.entry((cat, corpus)).or_default().push(candidate.id);
    }
    by_stratum
        .into_iter()
        .map(|(key, mut ids)| {
            ids.sort_unstable();
            ids.dedup();
            (key, ids)
        })
        .unzip()
}

/// The candidates left after the IAA sample, dealt to the annotators one after the other in
/// the `dealer`'s order, stratum after stratum: the plans of earlier versions.
fn round_robin(rest: Vec<Vec<CandidateId>>, dealer: &[usize]) -> Vec<Vec<CandidateId>> {
    let k = dealer.len();
    let mut parts = vec![Vec::new(); k];
    for (i, candidate) in rest.into_iter().flatten().enumerate() {
        parts[dealer[i % k]].push(candidate);
    }
    parts
}

/// The candidates left after the IAA sample, split evenly per stratum, the extra ones of every
/// stratum dealt like [`round_robin`] deals them and then balanced over categories, corpora and
/// the annotators' totals ([`balance_colours`]).
fn balanced(keys: &[(usize, usize)], rest: Vec<Vec<CandidateId>>, dealer: &[usize]) -> Vec<Vec<CandidateId>> {
    let k = dealer.len();
    // One edge per extra candidate, between its category and its corpus, coloured by annotator.
    let (mut edges, mut colours) = (Vec::new(), Vec::new());
    let mut next = 0;
    for (&key, stratum) in keys.iter().zip(&rest) {
        for _ in 0..stratum.len() % k {
            edges.push(key);
            colours.push(dealer[next % k]);
            next += 1;
        }
    }
    balance_colours(&edges, &mut colours, k);
    let mut parts = vec![Vec::new(); k];
    let mut extras = colours.into_iter();
    for stratum in rest {
        let mut share = vec![stratum.len() / k; k];
        for _ in 0..stratum.len() % k {
            share[extras.next().expect("a colour per extra candidate")] += 1;
        }
        let mut candidates = stratum.into_iter();
        for (part, n) in parts.iter_mut().zip(share) {
            part.extend(candidates.by_ref().take(n));
        }
    }
    parts
}

/// Recolours the edges of a bipartite multigraph — an edge `(left, right)` per extra candidate of
/// a (category, corpus) stratum, its colour the annotator who gets it — so that at every vertex,
/// and over all edges, no colour has two more edges than another, and no two parallel edges
/// (extras of one stratum, each with a different colour to start with) share a colour.
///
/// De Werra's balancing of two colours at a time: while two colours `a`, `b` are two apart
/// somewhere, the edges of those colours are split into trails — from vertices of odd degree
/// first, so that each such vertex ends one trail and every other visit passes through — and each
/// trail is coloured `a`, `b`, `a`, … , which leaves every vertex with as many of each as their
/// sum allows; an odd trail adds one to `a` or `b` overall, as the total needs. The sum of the
/// squared counts (per vertex, and overall) falls with every step, so it ends.
fn balance_colours(edges: &[(usize, usize)], colours: &mut [usize], k: usize) {
    let lefts = edges.iter().map(|e| e.0 + 1).max().unwrap_or(0);
    let rights = edges.iter().map(|e| e.1 + 1).max().unwrap_or(0);
    let vertices = lefts + rights;
    let ends = |e: usize| (edges[e].0, lefts + edges[e].1);
    while let Some((a, b)) = unbalanced_pair(edges.len(), vertices, &ends, colours, k) {
        // Edges of a and b; a stratum with one of each keeps them (already even there).
        let mut by_cell: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for e in (0..edges.len()).filter(|&e| colours[e] == a || colours[e] == b) {
            by_cell.entry(edges[e]).or_default().push(e);
        }
        let free: Vec<usize> = by_cell.into_values().filter(|es| es.len() == 1).flatten().collect();
        let mut incident: Vec<Vec<usize>> = vec![Vec::new(); vertices];
        for &e in &free {
            let (l, r) = ends(e);
            incident[l].push(e);
            incident[r].push(e);
        }
        let mut used = vec![false; edges.len()];
        let mut degree: Vec<usize> = incident.iter().map(Vec::len).collect();
        let mut cursor = vec![0; vertices];
        // a − b over the trails coloured so far.
        let mut surplus = 0i64;
        loop {
            let start = (0..vertices).find(|&v| degree[v] % 2 == 1).or_else(|| (0..vertices).find(|&v| degree[v] > 0));
            let Some(mut at) = start else { break };
            let mut trail = Vec::new();
            loop {
                while cursor[at] < incident[at].len() && used[incident[at][cursor[at]]] {
                    cursor[at] += 1;
                }
                let Some(&e) = incident[at].get(cursor[at]) else { break };
                used[e] = true;
                let (l, r) = ends(e);
                degree[l] -= 1;
                degree[r] -= 1;
                trail.push(e);
                at = if at == l { r } else { l };
            }
            let first = if trail.len() % 2 == 1 && surplus > 0 { b } else { a };
            let second = if first == a { b } else { a };
            for (i, &e) in trail.iter().enumerate() {
                colours[e] = if i % 2 == 0 { first } else { second };
            }
            if trail.len() % 2 == 1 {
                surplus += if first == a { 1 } else { -1 };
            }
        }
    }
}

/// Two colours two or more apart at some vertex or overall, if any.
fn unbalanced_pair(
    edges: usize,
    vertices: usize,
    ends: &dyn Fn(usize) -> (usize, usize),
    colours: &[usize],
    k: usize,
) -> Option<(usize, usize)> {
    let mut at = vec![vec![0i64; k]; vertices + 1];
    for e in 0..edges {
        let (l, r) = ends(e);
        for v in [l, r, vertices] {
            at[v][colours[e]] += 1;
        }
    }
    (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .find(|&(a, b)| at.iter().any(|counts| (counts[a] - counts[b]).abs() >= 2))
}

/// Moves the IAA sample's candidates between the corpora of a category, one at a time, while
/// that brings the corpora's shares closer to their proportions (the sum of the squared
/// distances falls) and keeps every stratum's share within its own rounding (and at least
/// one). Where the corpora have as many candidates in every category, their shares end at most
/// one apart. Categories are tried in a random order, so which corpus gets the odd candidate is
/// random too.
fn balance_sample(keys: &[(usize, usize)], sizes: &[usize], shares: &mut [usize], rng: &mut ChaCha8Rng) {
    let pool: usize = sizes.iter().sum();
    let total: usize = shares.iter().sum();
    if total == 0 {
        return;
    }
    let (pool, total) = (pool as i128, total as i128);
    let quota = |n: usize| {
        let exact = total * n as i128;
        ((exact / pool) as usize, ((exact + pool - 1) / pool) as usize)
    };
    // Where the at-least-one rule took more than the floors leave (many small strata), some
    // strata are already below their floor: any may then go down to one for the corpora's sake.
    let floors: usize = sizes.iter().filter(|&&n| n > 0).map(|&n| quota(n).0.max(1)).sum();
    let floors_fit = floors as i128 <= total;
    // A stratum's share stays within the floor and ceiling of its quota (at least 1), or where
    // it is already.
    let bounds: Vec<(usize, usize)> = sizes
        .iter()
        .zip(shares.iter())
        .map(|(&n, &share)| {
            let (floor, ceil) = quota(n);
            let floor = if floors_fit { floor.max(1) } else { 1 };
            let (low, high) = if n == 0 { (0, 0) } else { (floor, ceil.max(1).min(n)) };
            (low.min(share), high.max(share))
        })
        .collect();
    let corpora = keys.iter().map(|k| k.1 + 1).max().unwrap_or(0);
    let mut categories: Vec<usize> = keys.iter().map(|k| k.0).collect();
    categories.dedup();
    shuffle(&mut categories, rng);
    // How far each corpus is above its proportion, times the pool (integers).
    let mut above = vec![0i128; corpora];
    for (i, &(_, c)) in keys.iter().enumerate() {
        above[c] += shares[i] as i128 * pool - total * sizes[i] as i128;
    }
    loop {
        let step = categories.iter().find_map(|&category| {
            let strata: Vec<usize> = (0..keys.len()).filter(|&i| keys[i].0 == category).collect();
            let from = strata.iter().filter(|&&i| shares[i] > bounds[i].0);
            from.flat_map(|&i| strata.iter().map(move |&j| (i, j)))
                .filter(|&(i, j)| shares[j] < bounds[j].1 && above[keys[i].1] - above[keys[j].1] > pool)
                .max_by_key(|&(i, j)| (above[keys[i].1] - above[keys[j].1], std::cmp::Reverse((i, j))))
        });
        let Some((i, j)) = step else { break };
        shares[i] -= 1;
        shares[j] += 1;
        above[keys[i].1] -= pool;
        above[keys[j].1] += pool;
    }
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

/// How many examples each of the master's categories has, in the master's order: what a plan
/// can draw from, counted once.
pub fn examples_per_category(master: &Master) -> Vec<(String, usize)> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for e in &master.examples {
        *counts.entry(e.category.as_str()).or_default() += 1;
    }
    master.categories.iter().map(|c| (c.name.clone(), counts.get(c.name.as_str()).copied().unwrap_or(0))).collect()
}

/// Stores a planned task set in the master: in place of the task set `replacing`, keeping its
/// id, or as a new one.
pub fn store(master: &mut Master, mut task_set: TaskSet, replacing: Option<u32>) {
    match replacing.and_then(|id| master.task_set_mut(id)) {
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
    let shared = |t: &Task| t.is_iaa() && t.annotator.is_none();
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
        let parts: Vec<&Task> = task_set.parts().collect();
        let iaa: BTreeSet<CandidateId> = task_set.iaa_candidates().collect();
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
        // Balance is a matter between annotators: one part (an adjudication) has none to show.
        if self.parts.len() > 1 {
            writeln!(f)?;
            write!(f, "{}", self.balance())?;
        }
        Ok(())
    }
}

/// Each annotator's own part per translation corpus, and the IAA sample's: the table that shows
/// whether an annotator judges more of one system than the others do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    /// The translation corpora, in master order.
    pub corpora: Vec<String>,
    /// "IAA", then "part 1", "part 2", …; per corpus, then the row's total.
    pub rows: Vec<(String, Vec<usize>)>,
    /// The largest difference between two annotators' own parts in one corpus.
    pub spread: usize,
}

impl Summary {
    /// The per-annotator × translation table of the plan.
    pub fn balance(&self) -> Balance {
        let with_total = |mut counts: Vec<usize>| {
            counts.push(counts.iter().sum());
            counts
        };
        let mut rows = vec![("IAA".to_owned(), with_total(self.corpora.iter().map(|c| c.iaa).collect()))];
        rows.extend(
            self.parts
                .iter()
                .enumerate()
                .map(|(p, part)| (format!("part {part}"), with_total(self.corpora.iter().map(|c| c.own[p]).collect()))),
        );
        let spread = self
            .corpora
            .iter()
            .map(|c| c.own.iter().max().unwrap_or(&0) - c.own.iter().min().unwrap_or(&0))
            .max()
            .unwrap_or(0);
        Balance { corpora: self.corpora.iter().map(|c| c.name.clone()).collect(), rows, spread }
    }
}

impl fmt::Display for Balance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Own parts per translation (every annotator also gets the IAA sample):")?;
        let headers = self.corpora.iter().map(String::as_str).chain(["total"]);
        let widths: Vec<usize> = headers.clone().map(|h| h.chars().count().max(5)).collect();
        write!(f, "{:8}", "")?;
        for (h, w) in headers.zip(&widths) {
            write!(f, "  {h:>w$}")?;
        }
        writeln!(f)?;
        for (label, counts) in &self.rows {
            write!(f, "{label:8}")?;
            for (n, w) in counts.iter().zip(&widths) {
                write!(f, "  {n:>w$}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "{}", self.sentence())
    }
}

impl Balance {
    /// How far apart the annotators' own parts are within a translation, in words.
    pub fn sentence(&self) -> String {
        match self.spread {
            0 => "Within each translation every annotator's own part has as many candidates.".to_owned(),
            1 => "Within each translation the annotators' own parts are at most 1 candidate apart.".to_owned(),
            n => format!("Within a translation the annotators' own parts are up to {n} candidates apart."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IAA_LABEL;
    use std::collections::HashMap;

    fn sample() -> Master {
        crate::testing::unplanned_sample()
    }

    fn plan_of(m: &Master, annotators: u32, iaa: u32, seed: u64) -> Plan {
        plan(m, &Request::everything(m, annotators, iaa, seed), every, DateTime::UNIX_EPOCH).unwrap()
    }

    fn task<'a>(p: &'a Plan, label: &str) -> &'a [CandidateId] {
        p.task_set.tasks.iter().find(|t| t.label == label).map_or(&[], |t| &t.candidates)
    }

    /// A master with `examples[c]` examples of the c-th standard category and one candidate per
    /// example in each of `translations` translation corpora (the first the reference).
    fn random_master(examples: &[usize], translations: usize) -> Master {
        use crate::model::{Corpus, CorpusRole, Example, ExampleNo};
        let mut m = Master::new("random".into(), DateTime::UNIX_EPOCH);
        m.categories = crate::model::standard_categories();
        for c in 0..=translations {
            let role = match c {
                0 => CorpusRole::Source,
                1 => CorpusRole::Reference,
                _ => CorpusRole::System,
            };
            m.corpora.push(Corpus {
                id: CorpusId(c as u32),
                name: format!("c{c}"),
                role,
                sentences: vec!["It is .".to_owned()].into(),
                alignment: None,
                segmentation: None,
                label: None,
                link_origins: None,
            });
        }
        let mut no = 0;
        for (category, &n) in examples.iter().enumerate() {
            for _ in 0..n {
                no += 1;
                let category = m.categories[category].name.clone();
                m.examples.push(Example { no: ExampleNo(no), sentence: 0, token: 0, category, antecedents: vec![] });
                for c in 1..=translations {
                    let id = CandidateId(m.candidates.len() as u32 + 1);
                    let (example, corpus) = (ExampleNo(no), CorpusId(c as u32));
                    m.candidates.push(Candidate { id, example, corpus, pronoun: vec![], antecedents: vec![] });
                }
            }
        }
        m.reindex();
        m
    }

    /// Candidates of each (category, corpus) in one list of a task: the IAA sample or a part.
    fn per_stratum(m: &Master, candidates: &[CandidateId]) -> BTreeMap<(String, CorpusId), usize> {
        let mut counts = BTreeMap::new();
        for &id in candidates {
            let c = m.candidate(id).unwrap();
            *counts.entry((m.example_of(c).unwrap().1.name.clone(), c.corpus)).or_default() += 1;
        }
        counts
    }

    fn spread(counts: impl Iterator<Item = usize> + Clone) -> usize {
        counts.clone().max().unwrap_or(0) - counts.min().unwrap_or(0)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// The bound the study of the news corpus needed: no annotator–system pair over-represented
        /// by more than one candidate per category, and no annotator by more than one per system,
        /// per category or overall; the IAA sample balanced over systems.
        #[test]
        fn balanced_plans_keep_every_annotator_within_one_of_the_others(
            examples in proptest::collection::vec(0usize..12, 1..8),
            translations in 1usize..5,
            annotators in 1u32..7,
            iaa in 0u32..40,
            seed: u64,
            dropped in proptest::collection::vec(proptest::bool::weighted(0.2), 0..40),
        ) {
            let m = random_master(&examples, translations);
            proptest::prop_assume!(!m.candidates.is_empty());
            // Some plans over a pool the filter thinned (strata of different sizes), some over all.
            let keep = |c: &Candidate| !dropped.get(c.id.0 as usize % 41).copied().unwrap_or(false);
            let request = Request::everything(&m, annotators, iaa, seed);
            let Ok(p) = plan(&m, &request, keep, DateTime::UNIX_EPOCH) else {
                proptest::prop_assert!(m.candidates.iter().all(|c| !keep(c)));
                return Ok(());
            };
            let pool: Vec<CandidateId> = m.candidates.iter().filter(|c| keep(c)).map(|c| c.id).collect();
            let mut all: Vec<CandidateId> = p.task_set.tasks.iter().flat_map(|t| t.candidates.clone()).collect();
            all.sort_unstable();
            proptest::prop_assert_eq!(&all, &pool, "every candidate of the pool once");

            let iaa = per_stratum(&m, task(&p, IAA_LABEL));
            let parts: Vec<_> = (1..=annotators).map(|a| per_stratum(&m, task(&p, &a.to_string()))).collect();
            let strata = per_stratum(&m, &pool);
            let k = annotators as usize;
            for (key, &n) in &strata {
                let rest = n - iaa.get(key).copied().unwrap_or(0);
                for part in &parts {
                    let own = part.get(key).copied().unwrap_or(0);
                    proptest::prop_assert!(own == rest / k || own == rest.div_ceil(k), "{key:?}: {own} of {rest}");
                }
            }
            let by = |part: &BTreeMap<(String, CorpusId), usize>, f: &dyn Fn(&(String, CorpusId)) -> bool| {
                part.iter().filter(|(key, _)| f(key)).map(|(_, n)| n).sum::<usize>()
            };
            for corpus in m.translations().map(|c| c.id) {
                let own = parts.iter().map(|p| by(p, &|key| key.1 == corpus));
                proptest::prop_assert!(spread(own.clone()) <= 1, "corpus {corpus}: {:?}", own.collect::<Vec<_>>());
            }
            for category in &m.categories {
                let own = parts.iter().map(|p| by(p, &|key| key.0 == category.name));
                proptest::prop_assert!(spread(own.clone()) <= 1, "{}: {:?}", category.name, own.collect::<Vec<_>>());
            }
            proptest::prop_assert!(spread(parts.iter().map(|p| by(p, &|_| true))) <= 1);
            // The printed table says the same.
            proptest::prop_assert!(p.summary.balance().spread <= 1);
            if dropped.iter().all(|d| !d) {
                let sample: Vec<usize> = m.translations().map(|c| by(&iaa, &|key| key.1 == c.id)).collect();
                proptest::prop_assert!(spread(sample.iter().copied()) <= 1, "IAA per corpus: {sample:?}");
            }
        }
    }

    #[test]
    fn the_news_corpus_study_plan_no_longer_gives_one_annotator_the_extras_of_one_system() {
        // 38 examples in 11 categories, three translations, three annotators, an IAA sample of 30.
        let m = random_master(&[6, 4, 5, 3, 4, 2, 1, 4, 3, 4, 2], 3);
        let p = plan_of(&m, 3, 30, 7);
        let b = p.summary.balance();
        assert!(b.spread <= 1, "{b}");
        let iaa = &b.rows[0].1;
        assert!(iaa[..3].iter().max().unwrap() - iaa[..3].iter().min().unwrap() <= 1, "{b}");
        // The plans of earlier versions are still made with their planner.
        let mut request = Request::everything(&m, 3, 30, 7);
        request.planner = Planner::RoundRobin;
        let old = plan(&m, &request, every, DateTime::UNIX_EPOCH).unwrap();
        assert_eq!(old.task_set.planner, Planner::RoundRobin);
        assert!(old.summary.balance().spread > 1, "{}", old.summary.balance());
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
            let own: Vec<usize> = p.task_set.parts().map(|t| t.candidates.len()).collect();
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

    /// The next task set id is counted, and refused past the largest rather than wrapped round.
    #[test]
    fn no_task_set_id_is_given_past_the_largest() {
        let mut m = sample();
        let mut p = plan_of(&m, 2, 30, 1);
        p.task_set.id = u32::MAX;
        m.task_sets.push(p.task_set);
        let request = Request::everything(&m, 2, 30, 1);
        assert_eq!(plan(&m, &request, every, DateTime::UNIX_EPOCH), Err(PlanError::NoIdLeft));
        m.task_sets[0].id = u32::MAX - 1;
        assert_eq!(plan_of(&m, 2, 30, 1).task_set.id, u32::MAX);
    }
}
