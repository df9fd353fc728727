//! Checks that a master is internally consistent before anyone works on it.
//!
//! Serde has already checked the shape of the file; these are the rules a JSON schema cannot
//! express: indices in range, references that resolve, one reference per thing. Each problem
//! carries the JSON path of the offending value so the message can point into the file.

use crate::model::numbered_in_file as in_file;
use crate::model::tokens;
use crate::model::{
    Annotator, AnnotatorId, Corpus, CorpusRole, Master, Outcome, Record, Role, Sentences, TaskSet, TokenRef, tags,
};
use rayon::prelude::*;
// rustc's fast hash: the sets hold the master's own ids, 200,000 candidates' at 100×.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// One thing wrong with a master.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// JSON path of the offending value, e.g. `examples[3].antecedents[0].head`.
    pub path: String,
    pub message: String,
}

/// Stop collecting after this many; the first few are what the user will fix first anyway.
pub(crate) const MAX_PROBLEMS: usize = 50;

struct Problems(Vec<Problem>);

impl Problems {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        if self.0.len() < MAX_PROBLEMS {
            self.0.push(Problem { path: path.into(), message: message.into() });
        }
    }

    /// The problems with their paths put under `at`.
    fn with_paths(mut self, at: &str) -> Problems {
        for problem in &mut self.0 {
            problem.path = format!("{at}.{}", problem.path);
        }
        self
    }

    /// Appends problems found separately (on another thread), keeping file order.
    fn extend(&mut self, more: Problems) {
        let room = MAX_PROBLEMS.saturating_sub(self.0.len());
        self.0.extend(more.0.into_iter().take(room));
    }
}

/// Every problem found (at most 50), in file order. An empty list means the master is valid.
///
/// Expects [`Master::reindex`] to have been called.
pub fn master(m: &Master) -> Vec<Problem> {
    // The records (hundreds of thousands in a large master) are checked on another thread
    // meanwhile: they do not need the corpora's token counts.
    let (mut p, in_records) = rayon::join(
        || {
            let mut p = Problems(Vec::new());
            if m.id.trim().is_empty() {
                p.add("id", "the master id is empty");
            }
            if m.revision == u64::MAX {
                // Saving it again would wrap the revision to 0, below its own journal's.
                p.add("revision", format!("revision {} is the largest there can be: the file is damaged", m.revision));
            }
            let counts = corpora(m, &mut p);
            documents(m, &mut p);
            categories(m, &mut p);
            examples(m, &counts, &mut p);
            candidates(m, &counts, &mut p);
            annotators(m, &mut p);
            p
        },
        || {
            let mut p = Problems(Vec::new());
            records(m, &mut p);
            p
        },
    );
    p.extend(in_records);
    task_sets(m, &mut p);
    auto_eval(m, &mut p);
    p.0
}

/// Token counts of every corpus, by corpus position.
type TokenCounts = Vec<Lengths>;

/// Each sentence's number of tokens in one corpus: of every sentence of a master's, of the held
/// ones of a batch's (the others have none), so that checking a batch takes the time and room of
/// what it holds rather than of the sentence count it claims.
enum Lengths {
    All(Vec<u32>),
    Held { len: usize, held: Vec<(u32, u32)> },
}

/// The lengths of a master without a source (a problem reported on its own).
static NO_SENTENCES: Lengths = Lengths::All(Vec::new());

impl Lengths {
    fn of(sentences: &Sentences) -> Lengths {
        let count = |s: &String| tokens::token_count(s) as u32;
        match sentences.as_slice() {
            Some(all) => Lengths::All(all.iter().map(count).collect()),
            None => Lengths::Held {
                len: sentences.len(),
                held: sentences.held().map(|(n, s)| (n as u32, count(s))).collect(),
            },
        }
    }

    /// `None` past the corpus's end.
    fn get(&self, sentence: usize) -> Option<u32> {
        match self {
            Lengths::All(all) => all.get(sentence).copied(),
            Lengths::Held { len, held } => (sentence < *len)
                .then(|| held.binary_search_by_key(&sentence, |&(n, _)| n as usize).map_or(0, |at| held[at].1)),
        }
    }
}

fn corpora(m: &Master, p: &mut Problems) -> TokenCounts {
    let sources = m.corpora.iter().filter(|c| c.role == CorpusRole::Source).count();
    if sources != 1 {
        p.add("corpora", format!("a master needs exactly one source corpus, this one has {sources}"));
    }
    let references = m.corpora.iter().filter(|c| c.role == CorpusRole::Reference).count();
    if references > 1 {
        p.add("corpora", format!("a master has at most one reference translation, this one has {references}"));
    }
    let n = m.sentence_count() as usize;
    let mut ids = HashSet::default();
    let mut names = HashSet::default();
    // Every sentence and alignment link is looked at: corpus by corpus, in parallel.
    let counts: TokenCounts = m.corpora.par_iter().map(|c| Lengths::of(&c.sentences)).collect();
    let source = m.corpora.iter().position(|s| s.role == CorpusRole::Source).map(|i| &counts[i]);
    let insides: Vec<Problems> = m.corpora.par_iter().zip(&counts).map(|(c, n)| inside(c, n, source)).collect();
    for ((ci, c), inside) in m.corpora.iter().enumerate().zip(insides) {
        let at = format!("corpora[{ci}]");
        if !ids.insert(c.id) {
            p.add(format!("{at}.id"), format!("corpus id {} is used twice", c.id));
        }
        if c.name.trim().is_empty() {
            p.add(format!("{at}.name"), "corpus name is empty");
        } else if !names.insert(c.name.as_str()) {
            p.add(format!("{at}.name"), format!("corpus name '{}' is used twice", c.name));
        }
        if c.sentences.len() != n {
            p.add(
                format!("{at}.sentences"),
                format!(
                    "corpus '{}' has {} sentences but corpus '{}' has {n}; all corpora must have the same number",
                    c.name,
                    c.sentences.len(),
                    m.corpora[0].name
                ),
            );
        }
        p.extend(inside.with_paths(&at));
        if let Some((field, problem)) = link_origins_problem(m, c) {
            p.add(format!("{at}.link_origins{field}"), format!("link origins of '{}': {problem}", c.name));
        }
    }
    counts
}

/// What is wrong with a corpus's link origins: they need its alignment, one origin per link, and
/// bridges that are other translations of the master with an alignment.
fn link_origins_problem(m: &Master, c: &Corpus) -> Option<(String, String)> {
    let origins = c.link_origins.as_ref()?;
    let Some(alignment) = &c.alignment else {
        return Some((String::new(), "a corpus without an alignment cannot have link origins".into()));
    };
    if let Some((field, problem)) = origins.problem(alignment) {
        return Some((format!(".{field}"), problem));
    }
    origins.bridges().into_iter().find_map(|bridge| {
        let usable = m.corpus(bridge).is_some_and(|b| b.role.is_translation() && b.alignment.is_some() && b.id != c.id);
        (!usable).then(|| {
            let problem = format!("bridge {bridge} is not another translation of the master with an alignment");
            (".bridges".to_owned(), problem)
        })
    })
}

/// What is wrong inside one corpus: its sentences, and its alignment against the source's
/// (`source`: token counts per sentence) and its own token counts. Paths start below the corpus.
fn inside(c: &Corpus, counts: &Lengths, source: Option<&Lengths>) -> Problems {
    let mut p = Problems(Vec::new());
    for (si, s) in c.sentences.held() {
        if let Some(why) = tokens::malformed(s) {
            p.add(format!("sentences[{si}]"), format!("{} of corpus '{}' {why}", in_file(si as u32), c.name));
        }
    }
    if let Some(segmentation) = &c.segmentation {
        match segmentation.problem(&c.sentences) {
            _ if !c.role.is_translation() => p.add("segmentation", "the source corpus cannot have a segmentation"),
            Some((field, problem)) => {
                p.add(format!("segmentation.{field}"), format!("segmentation of '{}': {problem}", c.name))
            }
            None => {}
        }
    }
    let Some(alignment) = &c.alignment else { return p };
    if !c.role.is_translation() {
        p.add("alignment", "the source corpus cannot have an alignment");
        return p;
    }
    if alignment.len() != c.sentences.len() {
        p.add(
            "alignment",
            format!("alignment of '{}' has {} lines for {} sentences", c.name, alignment.len(), c.sentences.len()),
        );
        return p;
    }
    for (si, links) in alignment.sentences().enumerate() {
        let src_len = source.and_then(|s| s.get(si)).unwrap_or(0);
        let tgt_len = counts.get(si).unwrap_or(0);
        if let Some(&(i, j)) = links.iter().find(|&&(i, j)| i >= src_len || j >= tgt_len) {
            p.add(
                format!("alignment[{si}]"),
                format!(
                    "alignment pair {i}-{j} of '{}' is outside {} ({src_len} source tokens, {tgt_len} target tokens)",
                    c.name,
                    in_file(si as u32)
                ),
            );
        }
    }
    p
}

fn documents(m: &Master, p: &mut Problems) {
    let n = m.sentence_count();
    if n == 0 {
        return;
    }
    if m.documents.first() != Some(&0) {
        p.add("documents", "the first document must start at the first sentence (0 in the file)");
    }
    for (i, w) in m.documents.windows(2).enumerate() {
        if w[1] <= w[0] {
            p.add(
                format!("documents[{}]", i + 1),
                format!("document starts must increase ({} after {}, as the file counts)", w[1], w[0]),
            );
        }
    }
    if let Some(&last) = m.documents.last().filter(|&&l| l >= n) {
        p.add("documents", format!("a document starts at {}, but there are only {n} sentences", in_file(last)));
    }
}

fn categories(m: &Master, p: &mut Problems) {
    let mut names = HashSet::default();
    for (i, c) in m.categories.iter().enumerate() {
        if !tags::is_valid(&c.name) {
            p.add(format!("categories[{i}].name"), format!("category name '{}' is empty or has spaces", c.name));
        } else if !names.insert(c.name.as_str()) {
            p.add(format!("categories[{i}].name"), format!("category '{}' is defined twice", c.name));
        }
    }
}

fn in_range(counts: &Lengths, t: TokenRef) -> bool {
    counts.get(t.sentence as usize).is_some_and(|n| t.token < n)
}

fn source_counts<'a>(m: &Master, counts: &'a TokenCounts) -> &'a Lengths {
    m.corpora.iter().position(|c| c.role == CorpusRole::Source).map_or(&NO_SENTENCES, |i| &counts[i])
}

fn examples(m: &Master, counts: &TokenCounts, p: &mut Problems) {
    let src = source_counts(m, counts);
    let mut seen = HashSet::default();
    for (i, e) in m.examples.iter().enumerate() {
        let at = format!("examples[{i}]");
        let ex = format!("example {}", e.no);
        if !seen.insert(e.no) {
            p.add(format!("{at}.no"), format!("{ex} is defined twice"));
        }
        if !in_range(src, e.pronoun_ref()) {
            p.add(format!("{at}.token"), format!("{ex}: pronoun at {} is outside the source text", e.pronoun_ref()));
        }
        let Some(category) = m.category(&e.category) else {
            p.add(format!("{at}.category"), format!("{ex}: unknown category '{}'", e.category));
            continue;
        };
        if category.anaphoric && e.antecedents.is_empty() {
            p.add(
                format!("{at}.antecedents"),
                format!("{ex}: category '{}' is anaphoric but no antecedent is given", e.category),
            );
        }
        if !category.anaphoric && !e.antecedents.is_empty() {
            p.add(
                format!("{at}.antecedents"),
                format!("{ex}: category '{}' is not anaphoric but antecedents are given", e.category),
            );
        }
        let document = m.document_of(e.sentence);
        for (ai, a) in e.antecedents.iter().enumerate() {
            let at = format!("{at}.antecedents[{ai}]");
            let len = src.get(a.sentence as usize);
            match len {
                None => p.add(format!("{at}.sentence"), format!("{ex}: antecedent {} does not exist", in_file(a.sentence))),
                Some(len) if !(a.start <= a.head && a.head <= a.end && a.end < len) => p.add(
                    at,
                    format!(
                        "{ex}: antecedent span {}-{} with head {} (tokens as the file counts, from 0) does not fit {} ({len} tokens; need start ≤ head ≤ end)",
                        a.start,
                        a.end,
                        a.head,
                        in_file(a.sentence)
                    ),
                ),
                Some(_) if !document.contains(&a.sentence) => p.add(
                    format!("{at}.sentence"),
                    format!("{ex}: antecedent in {} is in another document than the pronoun", in_file(a.sentence)),
                ),
                Some(_) => {}
            }
        }
    }
}

fn candidates(m: &Master, counts: &TokenCounts, p: &mut Problems) {
    let mut ids = HashSet::default();
    let mut pairs = HashSet::default();
    let positions: HashMap<_, _> = m.corpora.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    for (i, c) in m.candidates.iter().enumerate() {
        // Paths and messages are made only for a problem: this runs for every candidate of a
        // large master, and formatting them each time was most of the time taken.
        let at = || format!("candidates[{i}]");
        let cand = || format!("candidate {}", c.id);
        if !ids.insert(c.id) {
            p.add(format!("{}.id", at()), format!("{} is defined twice", cand()));
        }
        let Some(example) = m.example(c.example) else {
            p.add(format!("{}.example", at()), format!("{}: example {} does not exist", cand(), c.example));
            continue;
        };
        let Some(&ci) = positions.get(&c.corpus) else {
            p.add(format!("{}.corpus", at()), format!("{}: corpus {} does not exist", cand(), c.corpus));
            continue;
        };
        let corpus = &m.corpora[ci];
        if !corpus.role.is_translation() {
            p.add(format!("{}.corpus", at()), format!("{}: corpus '{}' is not a translation", cand(), corpus.name));
            continue;
        }
        if !pairs.insert((c.example, c.corpus)) {
            p.add(at(), format!("{}: example {} has two candidates in corpus '{}'", cand(), c.example, corpus.name));
        }
        if c.antecedents.len() != example.antecedents.len() {
            p.add(
                format!("{}.antecedents", at()),
                format!(
                    "{}: {} antecedent translations for the {} antecedents of example {}",
                    cand(),
                    c.antecedents.len(),
                    example.antecedents.len(),
                    c.example
                ),
            );
            continue;
        }
        // The pronoun (no antecedent number) and each antecedent head, with their aligned tokens.
        let heads = std::iter::once((None, example.pronoun_ref(), &c.pronoun)).chain(
            example.antecedents.iter().zip(&c.antecedents).enumerate().map(|(ai, (a, t))| (Some(ai), a.head_ref(), t)),
        );
        for (antecedent, source, targets) in heads {
            let path = || match antecedent {
                None => format!("{}.pronoun", at()),
                Some(ai) => format!("{}.antecedents[{ai}]", at()),
            };
            if let Some(t) = targets.iter().find(|t| t.sentence != source.sentence || !in_range(&counts[ci], **t)) {
                p.add(
                    path(),
                    format!(
                        "{}: aligned token at {t} is not in {} of corpus '{}'",
                        cand(),
                        in_file(source.sentence),
                        corpus.name
                    ),
                );
            } else if let Some(alignment) = &corpus.alignment {
                // Every target is in the source's sentence (checked above): compare token numbers.
                let expected = alignment.links_of(source.sentence, source.token).iter().map(|&(_, t)| t);
                if !targets.iter().map(|t| t.token).eq(expected) {
                    p.add(
                        path(),
                        format!(
                            "{}: aligned tokens differ from what the alignment of '{}' gives for {source}",
                            cand(),
                            corpus.name
                        ),
                    );
                }
            }
        }
    }
}

fn annotators(m: &Master, p: &mut Problems) {
    annotators_of(&m.annotators, p);
}

/// The rules of a master's annotators and task sets, for `annotators` and `task_sets` that are
/// to replace the master's (a roster from a command or a journal): every problem found, in order.
pub fn roster(m: &Master, annotators: &[Annotator], task_sets: &[TaskSet]) -> Vec<Problem> {
    let mut p = Problems(Vec::new());
    annotators_of(annotators, &mut p);
    task_sets_of(m, task_sets, |a| annotators.iter().any(|x| x.id == a), &mut p);
    p.0
}

fn annotators_of(annotators: &[Annotator], p: &mut Problems) {
    let mut ids = HashSet::default();
    let mut names = HashSet::default();
    for (i, a) in annotators.iter().enumerate() {
        let at = format!("annotators[{i}]");
        if a.id.is_researcher() {
            p.add(format!("{at}.id"), "annotator id 0 is reserved for the researcher");
        } else if !ids.insert(a.id) {
            p.add(format!("{at}.id"), format!("annotator id {} is used twice", a.id));
        }
        if a.name.trim().is_empty() {
            p.add(format!("{at}.name"), "annotator name is empty");
        } else if !names.insert(a.name.as_str()) {
            p.add(format!("{at}.name"), format!("annotator name '{}' is used twice", a.name));
        }
    }
}

fn records(m: &Master, p: &mut Problems) {
    for (i, r) in m.records.iter().enumerate() {
        if let Some((field, message)) = record(m, r) {
            p.add(format!("records[{i}].{field}"), message);
        }
    }
}

/// The first problem of one record against its master: the field it is in and what is wrong.
/// Used for records arriving from a journal or a batch as well as for the master's own.
pub fn record(m: &Master, r: &Record) -> Option<(&'static str, String)> {
    let problem = record_problem(m, r)?;
    Some((problem.0, format!("record of candidate {} by annotator {}: {}", r.candidate, r.annotator, problem.1)))
}

/// The field and problem, without naming the record: this runs for every record of a master, and
/// building the message only when there is a problem keeps opening a large master fast.
fn record_problem(m: &Master, r: &Record) -> Option<(&'static str, String)> {
    let Some(candidate) = m.candidate(r.candidate) else {
        return Some(("candidate", "the candidate does not exist".into()));
    };
    if !r.annotator.is_researcher() && m.annotator(r.annotator).is_none() {
        return Some(("annotator", "the annotator does not exist".into()));
    }
    let anaphoric = m.example_of(candidate).is_some_and(|(_, cat)| cat.anaphoric);
    if !anaphoric && r.antecedent.is_set() {
        return Some(("antecedent", "an antecedent judgement on a non-anaphoric example".into()));
    }
    for role in Role::ALL {
        if let Some(t) = r.selected.get(role).iter().find(|&&t| !candidate.is_aligned(role, t)) {
            return Some((
                "selected",
                format!("the token selected for the {role} at {t} is not among the tokens aligned to it"),
            ));
        }
    }
    if let Some((tag, why)) = r.tags.iter().find_map(|t| Some((t, tags::problem(t)?))) {
        return Some(("tags", format!("tag '{}' {why}", tag.escape_debug())));
    }
    if let Some(ms) = r.active_ms.filter(|&ms| ms > crate::annotate::timing::MAX_MS) {
        return Some(("active_ms", format!("an active time of {ms} ms is more than a day")));
    }
    None
}

fn task_sets(m: &Master, p: &mut Problems) {
    task_sets_of(m, &m.task_sets, |a| m.annotator(a).is_some(), p);
}

/// `task_sets` against `m`, with `annotator` saying which annotators exist.
fn task_sets_of(m: &Master, task_sets: &[TaskSet], annotator: impl Fn(AnnotatorId) -> bool, p: &mut Problems) {
    let mut ids = HashSet::default();
    for (i, ts) in task_sets.iter().enumerate() {
        let at = format!("task_sets[{i}]");
        if !ids.insert(ts.id) {
            p.add(format!("{at}.id"), format!("task set id {} is used twice", ts.id));
        }
        if let Some(c) = ts.corpora.iter().find(|&&c| m.corpus(c).is_none()) {
            p.add(format!("{at}.corpora"), format!("task set '{}': corpus {c} does not exist", ts.name));
        }
        if let Some(c) = ts.categories.iter().find(|c| m.category(c).is_none()) {
            p.add(format!("{at}.categories"), format!("task set '{}': unknown category '{c}'", ts.name));
        }
        for (ti, task) in ts.tasks.iter().enumerate() {
            if let Some(c) = task.candidates.iter().find(|&&c| m.candidate(c).is_none()) {
                p.add(format!("{at}.tasks[{ti}]"), format!("task set '{}': candidate {c} does not exist", ts.name));
            }
            if let Some(a) = task.annotator.filter(|&a| !a.is_researcher() && !annotator(a)) {
                p.add(format!("{at}.tasks[{ti}]"), format!("task set '{}': annotator {a} does not exist", ts.name));
            }
        }
    }
}

fn auto_eval(m: &Master, p: &mut Problems) {
    let rounds = &m.auto_eval.rounds;
    if let Some((i, r)) = rounds.iter().enumerate().find(|(i, r)| r.round as usize != i + 1) {
        p.add(format!("auto_eval.rounds[{i}].round"), format!("round {} should be numbered {}", r.round, i + 1));
    }
    let mut previous = None;
    for (i, e) in m.auto_eval.outcomes.iter().enumerate() {
        let at = format!("auto_eval.outcomes[{i}]");
        let of = format!("automatic match of candidate {}", e.candidate);
        if previous.is_some_and(|c| c >= e.candidate) {
            p.add(format!("{at}.candidate"), format!("{of}: outcomes must be in ascending candidate order, one each"));
        }
        previous = Some(e.candidate);
        let Some(candidate) = m.candidate(e.candidate) else {
            p.add(format!("{at}.candidate"), format!("{of}: the candidate does not exist"));
            continue;
        };
        if !m.is_compared(candidate) {
            p.add(format!("{at}.candidate"), format!("{of}: the candidate is not an MT system's translation"));
        }
        if e.round == 0 || e.round as usize > rounds.len() {
            let last = match rounds.len() {
                0 => "no round has been run".to_string(),
                n => format!("the last is round {n}"),
            };
            p.add(format!("{at}.round"), format!("{of}: round {} does not exist ({last})", e.round));
        }
        match (e.outcome, e.reference) {
            (Outcome::Match, None) => {
                p.add(format!("{at}.reference"), format!("{of}: a match must name its reference"))
            }
            (Outcome::Match | Outcome::Contradicted, Some(r)) => {
                if m.candidate(r).is_none_or(|r| r.example != candidate.example || r.id == candidate.id) {
                    p.add(
                        format!("{at}.reference"),
                        format!("{of}: reference {r} is not another candidate of example {}", candidate.example),
                    );
                }
            }
            (_, Some(_)) => {
                p.add(format!("{at}.reference"), format!("{of}: only a match (or a contradicted one) has a reference"))
            }
            (_, None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::alignment::Alignment;
    use crate::model::{AnnotatorId, CandidateId};

    #[test]
    fn problems_come_in_file_order_whichever_thread_finds_them() {
        let mut m = crate::testing::tiny();
        assert_eq!(master(&m), vec![]);
        m.id = " ".into();
        let reference = &mut m.corpora[1];
        let mut links: Vec<Vec<(u32, u32)>> =
            reference.alignment.as_ref().unwrap().sentences().map(<[_]>::to_vec).collect();
        links[2].push((99, 0));
        reference.alignment = Some(Alignment::new(links));
        m.corpora[2].sentences[0].push(' ');
        m.records.put(Record::new(CandidateId(999), AnnotatorId::RESEARCHER, m.created));
        let paths: Vec<String> = master(&m).into_iter().map(|p| p.path).collect();
        let last_record = m.records.len() - 1;
        assert_eq!(
            paths,
            ["id", "corpora[1].alignment[2]", "corpora[2].sentences[0]", &format!("records[{last_record}].candidate")]
        );
    }

    /// The message at `path` of the problems `m` has.
    fn said(m: &Master, path: &str) -> String {
        let problems = master(m);
        let found = problems.iter().find(|p| p.path == path);
        found.unwrap_or_else(|| panic!("no problem at {path}: {problems:?}")).message.clone()
    }

    #[test]
    fn messages_count_sentences_from_1_beside_the_files_numbers() {
        let mut m = crate::testing::tiny();
        let (sentence, end) = (m.examples[0].antecedents[0].sentence, m.examples[0].antecedents[0].end);
        m.corpora[2].sentences[0].push(' ');
        m.examples[0].antecedents[0].end = 40;
        m.documents = vec![0, 99];
        let name = m.corpora[2].name.clone();
        assert_eq!(
            said(&m, "corpora[2].sentences[0]"),
            format!("sentence 1 (0 in the file) of corpus '{name}' starts or ends with a space")
        );
        assert!(
            said(&m, "examples[0].antecedents[0]").ends_with(&format!(
                "antecedent span 2-40 with head 3 (tokens as the file counts, from 0) does not fit sentence {} ({sentence} in the file) (5 tokens; need start ≤ head ≤ end)",
                sentence + 1
            )),
            "{}",
            said(&m, "examples[0].antecedents[0]")
        );
        assert_eq!(
            said(&m, "documents"),
            "a document starts at sentence 100 (99 in the file), but there are only 4 sentences"
        );
        m.examples[0].antecedents[0].end = end;
        m.examples[0].antecedents[0].sentence = 7;
        assert_eq!(
            said(&m, "examples[0].antecedents[0].sentence"),
            "example 1: antecedent sentence 8 (7 in the file) does not exist"
        );
        m.documents = vec![1];
        assert_eq!(said(&m, "documents"), "the first document must start at the first sentence (0 in the file)");
        m.documents = vec![0, 3, 2];
        assert_eq!(said(&m, "documents[2]"), "document starts must increase (2 after 3, as the file counts)");
    }
}
