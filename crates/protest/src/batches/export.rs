//! Making batches from a master's task set: giving the task set's parts to annotators, laying a
//! batch out (order, neutral corpus names) and cutting the master down to what it needs.

use crate::annotate::context;
use crate::batches::annotators::{self, RosterError};
use crate::batches::plan;
use crate::metrics::verdict::Verdicts;
use crate::model::{
    Annotator, AnnotatorId, Candidate, CandidateId, Category, Corpus, CorpusId, CorpusRole, Dispute, Example, Master,
    Purpose, Records, Sentences, TaskSet,
};
use crate::store::batch_file::Batch;
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

/// Why a batch cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("there is no task set {0}")]
    NoTaskSet(u32),
    #[error("there is no annotator with id {0}")]
    NoAnnotator(AnnotatorId),
    #[error("{name} has no part in task set {task_set}")]
    NoPart { name: String, task_set: u32 },
    #[error("task set {task_set} has {parts} parts, so it needs {parts} annotator names, not {names}")]
    NameCount { task_set: u32, parts: usize, names: usize },
    #[error("part {label} of task set {task_set} was already given to {holder}")]
    PartTaken { task_set: u32, label: String, holder: String },
    #[error("{0} cannot take two parts of one task set")]
    TwoParts(String),
    #[error("{}", too_few(*task_set, *parts, free))]
    TooFew { task_set: u32, parts: usize, free: Vec<String> },
    #[error(
        "annotators '{first}' and '{second}' would both get the batch file {file}: give them names that differ in more than case and punctuation (`protest annotator rename` for one already there) and export again"
    )]
    SameFile { first: String, second: String, file: String },
    #[error(transparent)]
    Roster(#[from] RosterError),
}

/// A part of a task set and who has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub label: String,
    pub annotator: AnnotatorId,
}

fn too_few(task_set: u32, parts: usize, free: &[String]) -> String {
    let what = format!("task set {task_set} has {parts} parts that nobody has yet");
    match free.len() {
        0 => format!("{what}, and every annotator of the master has a part of it already: name who gets each part"),
        1 => format!(
            "{what}, but only one of the master's annotators has no part of it ({}): name who gets each part",
            free[0]
        ),
        n => format!(
            "{what}, but only {n} of the master's annotators have no part of it ({}): name who gets each part",
            free.join(", ")
        ),
    }
}

/// Who gets each part of a task set (in part order) when nobody is named: a part's annotator
/// keeps it, and the other parts go to the master's annotators who have no part of the task set
/// yet, in the master's order. An empty name where there are too few of them.
pub fn suggested_names(master: &Master, task_set: u32) -> Result<Vec<String>, ExportError> {
    let ts = master.task_set(task_set).ok_or(ExportError::NoTaskSet(task_set))?;
    let holders: Vec<AnnotatorId> = ts.tasks.iter().filter_map(|t| t.annotator).collect();
    let mut free = master.annotators.iter().filter(|a| !holders.contains(&a.id)).map(|a| a.name.clone());
    Ok(ts
        .parts()
        .map(|t| match t.annotator {
            Some(a) => master.annotator_name(a),
            None => free.next().unwrap_or_default(),
        })
        .collect())
}

/// Who got which part when nobody was named, in words: "parts 1, 2 go to Marie, Miryam (the master's annotators without a part of task set 1)".
pub fn chosen(before: &Master, after: &Master, task_set: u32) -> String {
    let parts = |m: &Master| -> Vec<(String, Option<AnnotatorId>)> {
        m.task_set(task_set).into_iter().flat_map(|t| t.parts()).map(|t| (t.label.clone(), t.annotator)).collect()
    };
    let given: Vec<(String, String)> = parts(before)
        .into_iter()
        .zip(parts(after))
        .filter(|((_, old), (_, new))| old != new)
        .filter_map(|((label, _), (_, new))| Some((label, after.annotator_name(new?))))
        .collect();
    let labels: Vec<&str> = given.iter().map(|(l, _)| l.as_str()).collect();
    let names: Vec<&str> = given.iter().map(|(_, n)| n.as_str()).collect();
    let (part, go) = if given.len() == 1 { ("part", "goes") } else { ("parts", "go") };
    format!(
        "{part} {} {go} to {}: the master's annotators without a part of task set {task_set}, in order",
        labels.join(", "),
        names.join(", ")
    )
}

/// [`suggested_names`], refused when the master has too few annotators for the parts.
pub fn default_names(master: &Master, task_set: u32) -> Result<Vec<String>, ExportError> {
    let names = suggested_names(master, task_set)?;
    if names.iter().any(String::is_empty) {
        let ts = master.task_set(task_set).ok_or(ExportError::NoTaskSet(task_set))?;
        let holders: Vec<AnnotatorId> = ts.tasks.iter().filter_map(|t| t.annotator).collect();
        let parts = ts.parts().filter(|t| t.annotator.is_none()).count();
        let free = master.annotators.iter().filter(|a| !holders.contains(&a.id)).map(|a| a.name.clone()).collect();
        return Err(ExportError::TooFew { task_set, parts, free });
    }
    Ok(names)
}

/// Gives the parts of a task set to annotators, adding those not in the master yet. With
/// `names`, one per part in task order; without, [`default_names`]. Giving a part to the annotator
/// who already has it changes nothing, so exporting again is safe. On error the master is
/// unchanged.
pub fn assign(master: &mut Master, task_set: u32, names: &[String]) -> Result<Vec<Part>, ExportError> {
    let defaults;
    let names = if names.is_empty() {
        defaults = default_names(master, task_set)?;
        &defaults[..]
    } else {
        names
    };
    let ts = master.task_set(task_set).ok_or(ExportError::NoTaskSet(task_set))?;
    let parts: Vec<(usize, &str, Option<AnnotatorId>)> = ts
        .tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.is_iaa())
        .map(|(i, t)| (i, t.label.as_str(), t.annotator))
        .collect();
    if names.len() != parts.len() {
        return Err(ExportError::NameCount { task_set, parts: parts.len(), names: names.len() });
    }
    // Decide everything first, so that nothing is changed when something is refused.
    let mut wanted: Vec<(usize, String, String)> = Vec::new(); // (task index, label, name)
    for (n, &(i, label, holder)) in parts.iter().enumerate() {
        let name = names[n].trim().to_owned();
        if name.is_empty() {
            return Err(RosterError::EmptyName.into());
        }
        let existing = annotators::find(master, &name).map(|a| a.id);
        if existing.is_none() {
            // Someone new: a name that may be added, and unlike the others added with it.
            let new = annotators::new_name(master, &name, None)?;
            let likeness = crate::model::text::likeness(&new);
            let mut before = wanted.iter().map(|(_, _, n)| n).filter(|n| annotators::find(master, n).is_none());
            // The same name twice is refused below, as two parts for one person.
            let alike =
                |n: &&String| crate::model::text::likeness(n) == likeness && n.to_lowercase() != new.to_lowercase();
            if let Some(other) = before.find(alike) {
                return Err(RosterError::LooksLike { name: new, existing: other.clone() }.into());
            }
        }
        if let Some(holder) = holder.filter(|&h| Some(h) != existing) {
            return Err(ExportError::PartTaken {
                task_set,
                label: label.into(),
                holder: master.annotator_name(holder),
            });
        }
        if wanted.iter().any(|(_, _, other)| other.to_lowercase() == name.to_lowercase()) {
            return Err(ExportError::TwoParts(name));
        }
        wanted.push((i, label.to_owned(), name));
    }
    let mut given = Vec::new();
    for (i, label, name) in wanted {
        let id = annotators::find_or_add(master, &name)?;
        if let Some(ts) = master.task_set_mut(task_set) {
            ts.tasks[i].annotator = Some(id);
        }
        given.push(Part { label, annotator: id });
    }
    Ok(given)
}

/// How a batch relates to its master: master candidate ids in presentation order (batch candidate
/// `n` is `order[n - 1]`) and master translation corpora in letter order ("Translation A" is
/// `corpora[0]`). Drawn from the task set's seed on the annotator's own stream, so it is the same
/// every time it is computed and the batch need not carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub order: Vec<CandidateId>,
    pub corpora: Vec<CorpusId>,
}

/// The layout of `annotator`'s batch of a task set (empty if they have no part in it).
pub fn layout(master: &Master, task_set: &TaskSet, annotator: AnnotatorId) -> Layout {
    let mut order = plan::candidates_for(task_set, annotator);
    let mut rng = plan::rng(task_set.seed, u64::from(annotator.0));
    plan::shuffle(&mut order, &mut rng);
    let used: BTreeSet<CorpusId> = order.iter().filter_map(|&c| master.candidate(c)).map(|c| c.corpus).collect();
    let mut corpora: Vec<CorpusId> = used.into_iter().collect();
    plan::shuffle(&mut corpora, &mut rng);
    Layout { order, corpora }
}

/// "Translation A", …, "Translation Z", "Translation AA", …
pub fn neutral_name(index: usize) -> String {
    let mut letters = Vec::new();
    let mut n = index + 1;
    while n > 0 {
        n -= 1;
        letters.push(char::from(b'A' + (n % 26) as u8));
        n /= 26;
    }
    format!("Translation {}", letters.iter().rev().collect::<String>())
}

/// The batch of `annotator`'s share of a task set: the candidates in a shuffled order, only the
/// sentences their context windows need, neutral corpus names, and the annotator's records so far.
pub fn build(
    master: &Master,
    task_set: u32,
    annotator: AnnotatorId,
    created: DateTime<Utc>,
) -> Result<Batch, ExportError> {
    Recipe::of(master, task_set, annotator, created)?.build(master)
}

/// What makes a batch beyond the master's texts and records: the task set and the annotator, as
/// they are once the parts are given out. A batch can so be made from the master before that
/// change is saved into it (giving parts out changes only the roster and the task sets), and
/// made while it is written instead of held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    task_set: TaskSet,
    annotator: Annotator,
    created: DateTime<Utc>,
}

impl Recipe {
    /// Checks that `roster` (a master, or its roster and task sets alone) has the task set and
    /// the annotator, and that the annotator has a part of it.
    pub fn of(
        roster: &Master,
        task_set: u32,
        annotator: AnnotatorId,
        created: DateTime<Utc>,
    ) -> Result<Recipe, ExportError> {
        let ts = roster.task_set(task_set).ok_or(ExportError::NoTaskSet(task_set))?;
        let person = roster.annotator(annotator).ok_or(ExportError::NoAnnotator(annotator))?;
        if plan::candidates_for(ts, annotator).is_empty() {
            return Err(ExportError::NoPart { name: person.name.clone(), task_set });
        }
        Ok(Recipe { task_set: ts.clone(), annotator: person.clone(), created })
    }

    pub fn annotator(&self) -> &Annotator {
        &self.annotator
    }

    /// How many candidates the batch has.
    pub fn candidates(&self) -> usize {
        plan::candidates_for(&self.task_set, self.annotator.id).len()
    }

    /// How many of the annotator's records the batch takes from `master`.
    pub fn records(&self, master: &Master) -> usize {
        let who = self.annotator.id;
        plan::candidates_for(&self.task_set, who).into_iter().filter(|&c| master.records.get(c, who).is_some()).count()
    }

    /// Makes the batch from `master`'s texts and records.
    pub fn build(&self, master: &Master) -> Result<Batch, ExportError> {
        let (ts, person, created) = (&self.task_set, &self.annotator, self.created);
        let (task_set, annotator) = (ts.id, person.id);
        let layout = layout(master, ts, annotator);
        if layout.order.is_empty() {
            return Err(ExportError::NoPart { name: person.name.clone(), task_set });
        }
        // A validated master has every candidate of its task sets.
        let originals: Vec<&Candidate> = layout.order.iter().filter_map(|&c| master.candidate(c)).collect();
        let (examples, categories) = examples_of(master, &originals);
        let needed = Needed::of(master, &originals, &examples);

        let mut content = Master::new(master.id.clone(), created);
        content.languages = master.languages.clone();
        content.settings = master.settings.clone();
        content.documents = master.documents.clone();
        content.corpora = cut_corpora(master, &layout, &needed);
        content.categories = categories;
        content.examples = examples;
        content.candidates = renumbered_candidates(&layout, &originals);
        content.annotators = vec![person.clone()];
        content.records = renumbered_records(master, &layout, annotator);
        content.reindex();
        Ok(Batch {
            id: batch_id(task_set, annotator, created),
            master_id: master.id.clone(),
            created,
            task_set,
            purpose: ts.purpose,
            disputes: disputes(master, ts, &layout),
            content,
        })
    }
}

/// For an adjudication batch, the questions in dispute of its candidates, under batch ids.
fn disputes(master: &Master, task_set: &TaskSet, layout: &Layout) -> Vec<Dispute> {
    if task_set.purpose != Purpose::Adjudication {
        return Vec::new();
    }
    let verdicts = Verdicts::new(master);
    let renumbered = layout.order.iter().enumerate().flat_map(|(i, &c)| {
        verdicts.disputes(c).into_iter().map(move |d| Dispute { candidate: CandidateId(i as u32 + 1), ..d })
    });
    renumbered.collect()
}

/// The batch's candidates: numbered from 1 in presentation order, each in its corpus's batch
/// place, so that nothing in the batch gives away the master's order or the systems' names.
fn renumbered_candidates(layout: &Layout, originals: &[&Candidate]) -> Vec<Candidate> {
    let corpus_ids: HashMap<CorpusId, CorpusId> =
        layout.corpora.iter().enumerate().map(|(i, &c)| (c, CorpusId(i as u32 + 1))).collect();
    originals
        .iter()
        .enumerate()
        .map(|(i, c)| Candidate { id: CandidateId(i as u32 + 1), corpus: corpus_ids[&c.corpus], ..(*c).clone() })
        .collect()
}

/// The examples the batch's candidates belong to and the categories of those examples, in the
/// master's order: a batch carries no more of the suite than it shows.
fn examples_of(master: &Master, originals: &[&Candidate]) -> (Vec<Example>, Vec<Category>) {
    let numbers: BTreeSet<_> = originals.iter().map(|c| c.example).collect();
    let examples: Vec<_> = master.examples.iter().filter(|e| numbers.contains(&e.no)).cloned().collect();
    let names: BTreeSet<&str> = examples.iter().map(|e| e.category.as_str()).collect();
    let categories = master.categories.iter().filter(|c| names.contains(c.name.as_str())).cloned().collect();
    (examples, categories)
}

/// Which sentences the batch keeps, one flag per sentence of each corpus: each translation needs
/// its own candidates' context windows, the source needs them all.
struct Needed {
    source: Vec<bool>,
    translations: BTreeMap<CorpusId, Vec<bool>>,
}

impl Needed {
    fn of(master: &Master, originals: &[&Candidate], examples: &[Example]) -> Needed {
        let windows: HashMap<_, Range<u32>> = examples.iter().map(|e| (e.no, context::of_example(master, e))).collect();
        let mut translations: BTreeMap<CorpusId, Vec<bool>> = BTreeMap::new();
        let mut source = vec![false; master.source().map_or(0, |s| s.sentences.len())];
        for c in originals {
            let window = &windows[&c.example];
            let size = || master.corpus(c.corpus).map_or(0, |corpus| corpus.sentences.len());
            mark(translations.entry(c.corpus).or_insert_with(|| vec![false; size()]), window);
            mark(&mut source, window);
        }
        Needed { source, translations }
    }
}

/// Flags the sentences of `window`; a window past the corpus's end keeps nothing beyond it.
fn mark(flags: &mut [bool], window: &Range<u32>) {
    let end = (window.end as usize).min(flags.len());
    if let Some(range) = flags.get_mut((window.start as usize).min(end)..end) {
        range.fill(true);
    }
}

/// The batch's corpora: the source, then the translations in letter order under neutral names,
/// each with only the sentences it needs (the others empty, so sentence numbers stay the same).
fn cut_corpora(master: &Master, layout: &Layout, needed: &Needed) -> Vec<Corpus> {
    let mut corpora = Vec::new();
    if let Some(source) = master.source() {
        corpora.push(Corpus {
            id: CorpusId(0),
            name: source.name.clone(),
            role: CorpusRole::Source,
            sentences: keep(source, &needed.source),
            alignment: None,
            segmentation: None,
            label: None,
            link_origins: None,
        });
    }
    for (i, &id) in layout.corpora.iter().enumerate() {
        let Some(original) = master.corpus(id) else { continue };
        corpora.push(Corpus {
            id: CorpusId(i as u32 + 1),
            name: neutral_name(i),
            role: CorpusRole::System,
            sentences: keep(original, &needed.translations[&id]),
            alignment: None,
            segmentation: None,
            label: None,
            link_origins: None,
        });
    }
    corpora
}

/// `corpus`'s sentences, only the `wanted` ones held.
fn keep(corpus: &Corpus, wanted: &[bool]) -> Sentences {
    let kept = corpus.sentences.held().filter(|&(n, _)| wanted.get(n) == Some(&true));
    Sentences::kept(corpus.sentences.len(), kept.map(|(n, s)| (n as u32, s.clone())).collect())
}

/// The annotator's records so far, on the batch's candidate numbers.
fn renumbered_records(master: &Master, layout: &Layout, annotator: AnnotatorId) -> Records {
    layout
        .order
        .iter()
        .enumerate()
        .filter_map(|(i, &c)| master.records.get(c, annotator).map(|r| (i, r)))
        .map(|(i, r)| crate::model::Record { candidate: CandidateId(i as u32 + 1), ..r.clone() })
        .collect()
}

/// Batch ids name the task set, the annotator and the moment of export, e.g.
/// `ts1-a2-20261126T093000Z`: unique per master in practice, and the same when a batch is
/// rebuilt with the same time.
fn batch_id(task_set: u32, annotator: AnnotatorId, created: DateTime<Utc>) -> String {
    format!("ts{task_set}-a{annotator}-{}", created.format("%Y%m%dT%H%M%SZ"))
}

/// A task set given out: each part's batch with its file name, and whether the roster or the task
/// sets changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenOut {
    pub batches: Vec<Named>,
    pub changed: bool,
    /// When nobody was named and parts went to annotators they did not have before: who got
    /// which, in plain words ([`chosen`]).
    pub chosen: Option<String>,
}

/// A batch to make, and the name of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub file_name: String,
    pub recipe: Recipe,
}

/// Gives the parts of `task_set` out in `draft` (a copy of `master`'s roster and task sets, the
/// only things an export changes) as [`assign`] does, and names each part's batch after
/// `master_file_name` and its annotator. Refused when two annotators' files would have the same
/// name on a file system that folds case and Unicode forms ('Anna!', 'anna?'): one batch would
/// replace the other.
pub fn give_out(
    master: &Master,
    draft: &mut Master,
    task_set: u32,
    names: &[String],
    created: DateTime<Utc>,
    master_file_name: &str,
) -> Result<GivenOut, ExportError> {
    let parts = assign(draft, task_set, names)?;
    let mut batches: Vec<Named> = Vec::with_capacity(parts.len());
    for part in parts {
        let recipe = Recipe::of(draft, task_set, part.annotator, created)?;
        let who = recipe.annotator();
        let file_name = file_name(master_file_name, task_set, &who.name, who.id);
        if let Some(other) = batches.iter().find(|b| same_file(&b.file_name, &file_name)) {
            let first = other.recipe.annotator().name.clone();
            return Err(ExportError::SameFile { first, second: who.name.clone(), file: file_name });
        }
        batches.push(Named { file_name, recipe });
    }
    let changed = draft.annotators != master.annotators || draft.task_sets != master.task_sets;
    let chosen = (names.is_empty() && changed).then(|| chosen(master, draft, task_set));
    Ok(GivenOut { batches, changed, chosen })
}

/// Whether two file names are one on a file system that folds case and Unicode forms.
fn same_file(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let fold = |s: &str| s.nfc().flat_map(char::to_lowercase).collect::<String>();
    fold(a) == fold(b)
}

/// The file name of a batch, e.g. `sample.batch-1-anna.json` for task set 1 of
/// `sample.master.json` given to Anna. Only letters, digits, `-` and `.`, so it can never point
/// outside the folder it is joined to.
pub fn file_name(master_file_name: &str, task_set: u32, annotator: &str, id: AnnotatorId) -> String {
    let stem = master_file_name.strip_suffix(".json").unwrap_or(master_file_name);
    let stem = slug(stem.strip_suffix(".master").unwrap_or(stem));
    let stem = if stem.is_empty() { "batch".to_owned() } else { stem };
    let who = slug(annotator);
    let who = if who.is_empty() { format!("annotator-{id}") } else { who };
    format!("{stem}.batch-{task_set}-{who}.json")
}

/// Lower-case letters and digits, everything else one `-`.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::window;
    use crate::batches::plan::{Request, every};
    use crate::model::{Judgement, Record};

    fn sample() -> Master {
        crate::testing::unplanned_sample()
    }

    /// The sample master with a task set for Anna and Ben (30 IAA, seed 42).
    fn planned() -> Master {
        let mut m = sample();
        let p = plan::plan(&m, &Request::everything(&m, 2, 30, 42), every, DateTime::UNIX_EPOCH).unwrap();
        m.task_sets.push(p.task_set);
        assign(&mut m, 1, &["Anna".into(), "Ben".into()]).unwrap();
        m.reindex();
        m
    }

    const ANNA: AnnotatorId = AnnotatorId(1);

    #[test]
    fn assigning_parts_adds_annotators_once() {
        let mut m = planned();
        assert_eq!(m.annotator_name(ANNA), "Anna");
        let parts = assign(&mut m, 1, &[]).unwrap();
        assert_eq!(
            parts,
            [Part { label: "1".into(), annotator: ANNA }, Part { label: "2".into(), annotator: AnnotatorId(2) }]
        );
        assert_eq!(m.annotators.len(), 2);
        let before = m.clone();
        let refused = assign(&mut m, 1, &["Clara".into(), "Ben".into()]).unwrap_err();
        assert_eq!(refused, ExportError::PartTaken { task_set: 1, label: "1".into(), holder: "Anna".into() });
        assert_eq!(m, before);
        assert_eq!(assign(&mut m, 1, &["x".into()]), Err(ExportError::NameCount { task_set: 1, parts: 2, names: 1 }));
        assert_eq!(assign(&mut m, 9, &[]), Err(ExportError::NoTaskSet(9)));
        // Names that look alike, of someone in the master or of two new people: nothing changes.
        let mut fresh = sample();
        let p = plan::plan(&fresh, &Request::everything(&fresh, 2, 0, 1), every, DateTime::UNIX_EPOCH).unwrap();
        fresh.task_sets.push(p.task_set);
        annotators::add(&mut fresh, "Zoe").unwrap();
        let before = fresh.clone();
        for names in [["Zoë", "Marie"], ["Marie", "Mar\u{0456}e"], ["Marie", "Marie\u{200B}"]] {
            let e = assign(&mut fresh, 1, &names.map(String::from)).unwrap_err();
            assert!(
                matches!(e, ExportError::Roster(RosterError::LooksLike { .. } | RosterError::BadName { .. })),
                "{e}"
            );
            assert_eq!(fresh, before);
        }
        // Unnamed parts go to the master's annotators without a part, in order; with too few,
        // nothing is made up: the refusal names them.
        let mut fresh = sample();
        let p = plan::plan(&fresh, &Request::everything(&fresh, 2, 0, 1), every, DateTime::UNIX_EPOCH).unwrap();
        fresh.task_sets.push(p.task_set);
        let e = assign(&mut fresh, 1, &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "task set 1 has 2 parts that nobody has yet, and every annotator of the master has a part of it already: name who gets each part"
        );
        for name in ["Marie", "Miryam", "Zoe"] {
            annotators::add(&mut fresh, name).unwrap();
        }
        assert_eq!(suggested_names(&fresh, 1).unwrap(), ["Marie", "Miryam"]);
        let mut one = fresh.clone();
        assign(&mut one, 1, &["Zoe".into(), "Marie".into()]).unwrap();
        // Zoe and Marie keep their parts; nobody else is free for a third.
        assert_eq!(suggested_names(&one, 1).unwrap(), ["Zoe", "Marie"]);
        let parts = assign(&mut fresh, 1, &[]).unwrap();
        assert_eq!(parts.iter().map(|p| fresh.annotator_name(p.annotator)).collect::<Vec<_>>(), ["Marie", "Miryam"]);
        assert_eq!(fresh.annotators.len(), 3, "nobody was added");
        let mut again = fresh.clone();
        assert_eq!(
            assign(&mut again, 1, &["Zoe".into(), "zoe".into()]),
            Err(ExportError::PartTaken { task_set: 1, label: "1".into(), holder: "Marie".into() })
        );
        let mut short = sample();
        let p = plan::plan(&short, &Request::everything(&short, 3, 0, 1), every, DateTime::UNIX_EPOCH).unwrap();
        short.task_sets.push(p.task_set);
        annotators::add(&mut short, "Marie").unwrap();
        let e = assign(&mut short, 1, &[]).unwrap_err().to_string();
        assert!(e.contains("only one of the master's annotators has no part of it (Marie)"), "{e}");
    }

    #[test]
    fn a_batch_holds_only_what_its_windows_need() {
        let m = planned();
        let batch = build(&m, 1, ANNA, DateTime::UNIX_EPOCH).unwrap();
        let c = batch.content();
        assert_eq!(c.candidates.len(), 75);
        assert_eq!(c.sentence_count(), m.sentence_count());
        let kept = |corpus: &Corpus| -> BTreeSet<u32> {
            (0..).zip(&corpus.sentences).filter(|(_, s)| !s.is_empty()).map(|(n, _)| n).collect()
        };
        let mut all_needed = BTreeSet::new();
        for corpus in c.translations() {
            let needed: BTreeSet<u32> = c
                .candidates
                .iter()
                .filter(|k| k.corpus == corpus.id)
                .flat_map(|k| context::of_example(&m, m.example(k.example).unwrap()))
                .collect();
            assert_eq!(kept(corpus), needed, "{}", corpus.name);
            all_needed.extend(needed);
        }
        assert_eq!(kept(c.source().unwrap()), all_needed);
        assert!(all_needed.len() < m.sentence_count() as usize / 2, "{} sentences kept", all_needed.len());
        assert!(c.corpora.iter().all(|k| k.alignment.is_none()));
        // The window of every candidate shows the same text as in the master.
        for (local, &original) in c.candidates.iter().zip(&export_layout(&m).order) {
            let in_batch = window::of_candidate(c, local, None).unwrap();
            let in_master = window::of_candidate(&m, m.candidate(original).unwrap(), None).unwrap();
            assert_eq!(in_batch, in_master);
        }
    }

    fn export_layout(m: &Master) -> Layout {
        layout(m, &m.task_sets[0], ANNA)
    }

    #[test]
    fn nothing_tells_which_system_made_a_translation() {
        let m = planned();
        let batch = build(&m, 1, ANNA, DateTime::UNIX_EPOCH).unwrap();
        let c = batch.content();
        let names: Vec<&str> = c.corpora.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["source", "Translation A", "Translation B"]);
        assert!(c.translations().all(|k| k.role == CorpusRole::System));
        assert!(c.description.is_empty());
        let text = batch_file_text(&batch);
        let leaks =
            m.translations().map(|k| format!("\"name\":\"{}\"", k.name)).chain(["\"role\":\"reference\"".into()]);
        for leak in leaks {
            assert!(!text.contains(&leak), "the batch file contains {leak}");
        }
        assert!(text.contains("\"name\":\"Translation B\""));
        // Ids are positions in the shuffled order; the master's ids (odd: reference, even: MT)
        // do not survive, and the order is not the master's.
        assert_eq!(batch.order(), (1..=75).map(CandidateId).collect::<Vec<_>>());
        let order = export_layout(&m).order;
        assert!(!order.is_sorted());
        // Over many seeds, "Translation A" is the reference about half of the time.
        let reference = m.reference().unwrap().id;
        let firsts = (0..40)
            .filter(|&seed| {
                let mut ts = m.task_sets[0].clone();
                ts.seed = seed;
                layout(&m, &ts, ANNA).corpora[0] == reference
            })
            .count();
        assert!((10..=30).contains(&firsts), "{firsts} of 40");
    }

    fn batch_file_text(batch: &Batch) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.json");
        crate::store::batch_file::save(batch, &path).unwrap();
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn the_two_annotators_get_different_orders_and_share_the_iaa_sample() {
        let m = planned();
        let anna = export_layout(&m);
        let ben = layout(&m, &m.task_sets[0], AnnotatorId(2));
        let iaa: BTreeSet<_> = m.task_sets[0].tasks[0].candidates.iter().copied().collect();
        let common: BTreeSet<_> = anna.order.iter().filter(|c| ben.order.contains(c)).copied().collect();
        assert_eq!(common, iaa);
        let positions = |l: &Layout| iaa.iter().map(|c| l.order.iter().position(|o| o == c)).collect::<Vec<_>>();
        assert_ne!(positions(&anna), positions(&ben));
    }

    #[test]
    fn existing_records_come_along_under_batch_ids() {
        let mut m = planned();
        let first = export_layout(&m).order[0];
        let mut r = Record::new(first, ANNA, DateTime::UNIX_EPOCH);
        r.pronoun = Judgement::No;
        m.records.put(r.clone());
        m.records.put(Record { annotator: AnnotatorId(2), ..r });
        let batch = build(&m, 1, ANNA, DateTime::UNIX_EPOCH).unwrap();
        let records: Vec<_> = batch.content().records.iter().collect();
        assert_eq!(records.len(), 1);
        assert_eq!(
            (records[0].candidate, records[0].annotator, records[0].pronoun),
            (CandidateId(1), ANNA, Judgement::No)
        );
    }

    #[test]
    fn refusals() {
        let m = planned();
        assert_eq!(build(&m, 2, ANNA, DateTime::UNIX_EPOCH), Err(ExportError::NoTaskSet(2)));
        assert_eq!(build(&m, 1, AnnotatorId(7), DateTime::UNIX_EPOCH), Err(ExportError::NoAnnotator(AnnotatorId(7))));
        let mut m = m;
        annotators::add(&mut m, "Clara").unwrap();
        assert_eq!(
            build(&m, 1, AnnotatorId(3), DateTime::UNIX_EPOCH),
            Err(ExportError::NoPart { name: "Clara".into(), task_set: 1 })
        );
    }

    #[test]
    fn names() {
        assert_eq!(neutral_name(0), "Translation A");
        assert_eq!(neutral_name(25), "Translation Z");
        assert_eq!(neutral_name(26), "Translation AA");
        assert_eq!(file_name("sample.master.json", 1, "Anna", ANNA), "sample.batch-1-anna.json");
        assert_eq!(file_name("my study.json", 3, "../../etc/Zoë O'Neil", ANNA), "my-study.batch-3-etc-zoë-o-neil.json");
        assert_eq!(file_name(".json", 1, "//", AnnotatorId(4)), "batch.batch-1-annotator-4.json");
    }
}
