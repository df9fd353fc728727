//! The test suite of an old file: on its texts ([`super::text`]), the categories, the examples
//! with their antecedents, and the candidates with their aligned target positions. Every position
//! is checked against the sentence text, so a file whose numbering is off is refused rather than
//! converted into wrong highlights.

use super::db::at_row;
use super::old::{self, OldFile};
use super::text::{self, Reference};
use crate::error::Result;
use crate::model::tokens;
use crate::model::{
    Antecedent, Candidate, CandidateId, Category, Corpus, CorpusId, Example, ExampleNo, Sentences, TokenRef,
    standard_categories, tags,
};
use crate::shell::Shell;
use crate::store::summary::count_as;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// The suite part of a converted file.
#[derive(Debug, Clone)]
pub(super) struct Suite {
    pub corpora: Vec<Corpus>,
    pub documents: Vec<u32>,
    pub categories: Vec<Category>,
    pub examples: Vec<Example>,
    pub candidates: Vec<Candidate>,
    /// `pro_candidates` id → our candidate (rows of a translation corpus).
    pub candidate_ids: HashMap<i64, CandidateId>,
    /// `pro_candidates` rows paired with a source corpus: they only define an example.
    pub example_rows: BTreeSet<i64>,
    /// Whether the file has document rows (else the text is one document).
    pub has_documents: bool,
    pub notes: Vec<String>,
    /// `translations` rows that repeat a token already aligned.
    pub repeated_translations: usize,
    /// Corpora no candidate uses (a system removed by deleting its candidates): not converted,
    /// nor their documents, antecedent and translation rows.
    pub unused: BTreeSet<i64>,
    /// Candidate id → position in `candidates`.
    positions: HashMap<CandidateId, usize>,
}

impl Suite {
    pub fn candidate(&self, id: CandidateId) -> Option<&Candidate> {
        self.positions.get(&id).map(|&i| &self.candidates[i])
    }

    pub fn example(&self, no: ExampleNo) -> Option<&Example> {
        self.examples.iter().find(|e| e.no == no)
    }

    pub fn category(&self, name: &str) -> Option<&Category> {
        self.categories.iter().find(|c| c.name == name)
    }
}

pub(super) fn build(path: &Path, old: &OldFile, reference: &Reference, shell: Shell) -> Result<Suite> {
    let mut notes = Vec::new();
    let unused = text::unused_corpora(old);
    let corpora = text::corpora(path, old, (reference, shell), &unused, &mut notes)?;
    let documents = text::documents(path, old, &corpora, &unused)?;
    let (categories, category_names) = categories(path, old, &mut notes)?;
    let mut suite = Suite {
        has_documents: documents.is_some(),
        documents: documents.unwrap_or_else(|| vec![0]),
        corpora,
        categories,
        examples: Vec::new(),
        candidates: Vec::new(),
        candidate_ids: HashMap::new(),
        example_rows: BTreeSet::new(),
        notes,
        repeated_translations: 0,
        unused,
        positions: HashMap::new(),
    };
    let ant_nos = examples_and_candidates(path, old, &category_names, &mut suite)?;
    aligned_positions(path, old, &ant_nos, &mut suite)?;
    if let Some(note) = unused_note(old, &suite.unused) {
        suite.notes.push(note);
    }
    suite.positions = (0..).zip(&suite.candidates).map(|(i, c)| (c.id, i)).collect();
    Ok(suite)
}

/// What was left of corpora no candidate uses, in words.
fn unused_note(old: &OldFile, unused: &BTreeSet<i64>) -> Option<String> {
    if unused.is_empty() {
        return None;
    }
    let of = |c: i64| old.corpora.iter().find(|k| k.id == c);
    let named = |c: &&old::Corpus| format!("{} '{}'", c.id, c.name.trim());
    let translations: Vec<String> =
        unused.iter().filter_map(|&c| of(c)).filter(|c| !c.source).map(|c| named(&c)).collect();
    let sources: Vec<String> = unused.iter().filter_map(|&c| of(c)).filter(|c| c.source).map(|c| named(&c)).collect();
    let what = match (translations.as_slice(), sources.as_slice()) {
        (t, []) => format!("{} {}", if t.len() == 1 { "corpus" } else { "corpora" }, t.join(", ")),
        ([], s) => format!("{} {}", if s.len() == 1 { "source copy" } else { "source copies" }, s.join(", ")),
        (t, s) => format!(
            "{} {} (and {} {})",
            if t.len() == 1 { "corpus" } else { "corpora" },
            t.join(", "),
            if s.len() == 1 { "its source copy" } else { "their source copies" },
            s.join(", ")
        ),
    };
    let counted = [
        (old.sentences.iter().filter(|s| unused.contains(&s.corpus)).count(), "sentence", "sentences"),
        (old.documents.iter().filter(|d| unused.contains(&d.corpus)).count(), "documents row", "documents rows"),
        (
            old.antecedents.iter().filter(|a| unused.contains(&a.srccorpus) || unused.contains(&a.tgtcorpus)).count(),
            "pro_antecedents row",
            "pro_antecedents rows",
        ),
        (
            old.translations.iter().filter(|t| unused.contains(&t.tgtcorpus)).count(),
            "translations row",
            "translations rows",
        ),
    ];
    let rows: Vec<String> =
        counted.iter().filter(|(n, ..)| *n > 0).map(|&(n, one, many)| count_as(n, one, many)).collect();
    let carried = match rows.as_slice() {
        [] => String::new(),
        [one] => format!("; its {one} not carried"),
        [rest @ .., last] => format!("; their {} and {last} are not carried", rest.join(", ")),
    };
    Some(format!(
        "{what}: no {} row uses {} — a system removed by deleting its candidates, as the original's filter-final.sh does{carried}",
        old.candidates_table,
        if unused.len() == 1 { "it" } else { "them" }
    ))
}

/// The categories, PROTEST's own in the paper's order with their labels, then the others in
/// file order; and the old id → name map.
fn categories(path: &Path, old: &OldFile, notes: &mut Vec<String>) -> Result<(Vec<Category>, HashMap<i64, String>)> {
    let standard = standard_categories();
    let mut names: HashMap<i64, String> = HashMap::new();
    let mut known = Vec::new();
    let mut others = Vec::new();
    for c in &old.categories {
        let name = c.description.trim();
        if !tags::is_valid(name) {
            return Err(at_row(
                path,
                "categories",
                c.id,
                format!("category description '{name}' is empty or has spaces; category names are single words"),
            ));
        }
        if let Some((other, _)) = names.iter().find(|(_, n)| *n == name) {
            return Err(at_row(path, "categories", c.id, format!("category '{name}' is also defined by row {other}")));
        }
        names.insert(c.id, name.to_owned());
        match standard.iter().position(|s| s.name == name) {
            Some(i) => {
                if standard[i].anaphoric != c.anaphoric {
                    notes.push(format!(
                        "category {name} has antagreement {} in the file, unlike PROTEST's; kept as the file says",
                        u8::from(c.anaphoric)
                    ));
                }
                known.push((i, Category { anaphoric: c.anaphoric, ..standard[i].clone() }));
            }
            None => others.push(Category {
                name: name.to_owned(),
                function: name.split('_').next().unwrap_or(name).to_owned(),
                anaphoric: c.anaphoric,
                politeness: false,
                label: String::new(),
            }),
        }
    }
    known.sort_by_key(|(i, _)| *i);
    Ok((known.into_iter().map(|(_, c)| c).chain(others).collect(), names))
}

/// An example as a `pro_candidates` row defines it, to compare the rows of one example.
#[derive(PartialEq)]
struct Definition {
    line: i64,
    srcpos: i64,
    category: String,
}

/// Examples (with antecedents) and candidates (without aligned positions yet). Returns each
/// example's antecedent numbers (`ant_no`), in the order of its antecedents.
fn examples_and_candidates(
    path: &Path,
    old: &OldFile,
    category_names: &HashMap<i64, String>,
    suite: &mut Suite,
) -> Result<HashMap<ExampleNo, Vec<i64>>> {
    let source = suite.corpora[0].sentences.clone();
    let definitions = candidates(path, old, category_names, &source, suite)?;
    let antecedents = antecedents(path, old, &source, &suite.unused)?;
    let mut ant_nos: HashMap<ExampleNo, Vec<i64>> = HashMap::new();
    for (&no, (definition, row)) in &definitions {
        let example_no = ExampleNo(no);
        let list = example_antecedents(path, old, &antecedents, no, (definition, *row), suite)?;
        ant_nos.insert(example_no, list.iter().map(|a| a.ant_no).collect());
        suite.examples.push(Example {
            no: example_no,
            sentence: definition.line as u32,
            token: definition.srcpos as u32,
            category: definition.category.clone(),
            antecedents: list
                .iter()
                .map(|a| Antecedent {
                    sentence: a.line as u32,
                    start: a.start as u32,
                    end: a.end as u32,
                    head: a.head as u32,
                })
                .collect(),
        });
    }
    for c in &mut suite.candidates {
        c.antecedents = vec![Vec::new(); ant_nos[&c.example].len()];
    }
    Ok(ant_nos)
}

/// The candidates of the candidates table, into `suite`, and each example's definition (its
/// pronoun and category) with the row that first gave it: every row of an example must give
/// the same.
fn candidates(
    path: &Path,
    old: &OldFile,
    category_names: &HashMap<i64, String>,
    source: &Sentences,
    suite: &mut Suite,
) -> Result<BTreeMap<u32, (Definition, i64)>> {
    let table = old.candidates_table;
    let mut definitions: BTreeMap<u32, (Definition, i64)> = BTreeMap::new();
    let mut pairs: HashMap<(u32, i64), i64> = HashMap::new();
    let keep_ids = old.candidates.iter().all(|c| (1..=i64::from(u32::MAX)).contains(&c.id));
    for row in &old.candidates {
        let bad = |message: String| Err(at_row(path, table, row.id, message));
        let (no, definition, target) = definition(path, old, category_names, source, row)?;
        match definitions.get(&no) {
            Some((first, first_row)) if *first != definition => {
                return bad(format!(
                    "example {no} is the pronoun at line {}, token {} ({}) here, but line {}, token {} ({}) in row {first_row}",
                    row.line, row.srcpos, definition.category, first.line, first.srcpos, first.category
                ));
            }
            Some(_) => {}
            None => {
                definitions.insert(no, (definition, row.id));
            }
        }
        if target.source {
            suite.example_rows.insert(row.id);
            continue;
        }
        if let Some(other) = pairs.insert((no, row.tgtcorpus), row.id) {
            return bad(format!(
                "example {no} already has a candidate in corpus '{}' (row {other})",
                target.name.trim()
            ));
        }
        let id = CandidateId(if keep_ids { row.id as u32 } else { suite.candidates.len() as u32 + 1 });
        // A used corpus, so one whose id was checked with the corpora ([`text::corpora`]).
        let Ok(corpus) = u32::try_from(row.tgtcorpus) else {
            return bad(format!("tgtcorpus {} is not a corpus id", row.tgtcorpus));
        };
        suite.candidate_ids.insert(row.id, id);
        suite.candidates.push(Candidate {
            id,
            example: ExampleNo(no),
            corpus: CorpusId(corpus),
            pronoun: Vec::new(),
            antecedents: Vec::new(),
        });
    }
    if !keep_ids {
        suite.notes.push(format!("{table} ids below 1 cannot be kept: candidates are numbered 1, 2, … in id order"));
    }
    if !suite.example_rows.is_empty() {
        suite.notes.push(format!(
            "{} {table} rows pair an example with a source corpus: they define the example but are no candidate",
            suite.example_rows.len()
        ));
    }
    Ok(definitions)
}

/// What a row of the candidates table defines: its example's number and pronoun, and the corpus
/// it is a candidate of; refused when a reference is not in its table or the pronoun's word is
/// not at its position.
fn definition<'a>(
    path: &Path,
    old: &'a OldFile,
    category_names: &HashMap<i64, String>,
    source: &Sentences,
    row: &old::Candidate,
) -> Result<(u32, Definition, &'a old::Corpus)> {
    let table = old.candidates_table;
    let bad = |message: String| Err(at_row(path, table, row.id, message));
    if !old.corpora.iter().any(|c| c.source && c.id == row.srccorpus) {
        return bad(format!("srccorpus {} is not a source corpus (srctgt 0) of table corpora", row.srccorpus));
    }
    let Some(target) = old.corpora.iter().find(|c| c.id == row.tgtcorpus) else {
        return bad(format!("tgtcorpus {} is not in table corpora", row.tgtcorpus));
    };
    let Some(category) = category_names.get(&row.category) else {
        return bad(format!("category_no {} is not in table categories", row.category));
    };
    let Ok(no) = u32::try_from(row.example_no) else {
        return bad(format!("example_no {} is not a number from 0 to {}", row.example_no, u32::MAX));
    };
    let word = source_token(source, row.line, row.srcpos).map_err(|m| at_row(path, table, row.id, m))?;
    if let Some(given) = row.srcpro.as_deref().filter(|p| !p.trim().is_empty())
        && given.trim().to_lowercase() != word.to_lowercase()
    {
        return bad(format!(
            "srcpro is '{given}' but token {} of line {} is '{word}'; the positions do not fit the text",
            row.srcpos, row.line
        ));
    }
    Ok((no, Definition { line: row.line, srcpos: row.srcpos, category: category.clone() }, target))
}

/// The antecedents of example `no` (defined in `row`): the same from every row of the example,
/// some exactly when its category is anaphoric.
fn example_antecedents<'a, 'l>(
    path: &Path,
    old: &OldFile,
    antecedents: &'l ByCandidate<'a>,
    no: u32,
    (definition, row): (&Definition, i64),
    suite: &Suite,
) -> Result<&'l Vec<&'a old::Antecedent>> {
    let table = old.candidates_table;
    let anaphoric = suite.category(&definition.category).is_some_and(|c| c.anaphoric);
    let mut chosen: Option<(&Vec<&old::Antecedent>, i64)> = None;
    for c in old.candidates.iter().filter(|c| c.example_no == i64::from(no)) {
        let list = antecedents.get(&(c.srccorpus, c.tgtcorpus, c.example_no)).unwrap_or(&EMPTY);
        match chosen {
            None => chosen = Some((list, c.id)),
            Some((first, first_row)) if !same_spans(first, list) => {
                return Err(at_row(
                    path,
                    table,
                    c.id,
                    format!(
                        "example {no} has antecedents {} for this candidate but {} for row {first_row}; they must be the same for every candidate of an example",
                        describe(list),
                        describe(first)
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    let list = chosen.map_or(&EMPTY, |(l, _)| l);
    if anaphoric && list.is_empty() {
        return Err(at_row(
            path,
            table,
            row,
            format!(
                "example {no} is of category {}, which is anaphoric (antagreement 1), but pro_antecedents gives it no antecedent",
                definition.category
            ),
        ));
    }
    if let (false, Some(a)) = (anaphoric, list.first()) {
        return Err(at_row(
            path,
            "pro_antecedents",
            a.id,
            format!(
                "example {no} is of category {}, which is not anaphoric (antagreement 0), yet has antecedents; this PROTEST keeps antecedents for anaphoric categories only",
                definition.category
            ),
        ));
    }
    Ok(list)
}

static EMPTY: Vec<&old::Antecedent> = Vec::new();

fn same_spans(a: &[&old::Antecedent], b: &[&old::Antecedent]) -> bool {
    let key = |x: &&old::Antecedent| (x.ant_no, x.line, x.start, x.end, x.head);
    a.iter().map(key).eq(b.iter().map(key))
}

fn describe(list: &[&old::Antecedent]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    let one =
        |a: &&old::Antecedent| format!("{}: line {}, tokens {}–{}, head {}", a.ant_no, a.line, a.start, a.end, a.head);
    format!("({})", list.iter().map(one).collect::<Vec<_>>().join("; "))
}

/// Antecedent rows by the (srccorpus, tgtcorpus, example_no) of their candidate.
type ByCandidate<'a> = HashMap<(i64, i64, i64), Vec<&'a old::Antecedent>>;

/// The antecedent rows by (srccorpus, tgtcorpus, example_no), in `ant_no` order, each checked
/// against the source text.
fn antecedents<'a>(
    path: &Path,
    old: &'a OldFile,
    source: &Sentences,
    unused: &BTreeSet<i64>,
) -> Result<ByCandidate<'a>> {
    let keys: BTreeSet<(i64, i64, i64)> =
        old.candidates.iter().map(|c| (c.srccorpus, c.tgtcorpus, c.example_no)).collect();
    let mut by_key = ByCandidate::new();
    for a in &old.antecedents {
        if unused.contains(&a.srccorpus) || unused.contains(&a.tgtcorpus) {
            continue;
        }
        let bad = |message: String| Err(at_row(path, "pro_antecedents", a.id, message));
        let key = (a.srccorpus, a.tgtcorpus, a.example_no);
        if !keys.contains(&key) {
            return bad(format!(
                "no {} row has srccorpus {}, tgtcorpus {} and example_no {}",
                old.candidates_table, a.srccorpus, a.tgtcorpus, a.example_no
            ));
        }
        let head = source_token(source, a.line, a.head).map_err(|m| at_row(path, "pro_antecedents", a.id, m))?;
        let len = tokens::token_count(&source[a.line as usize]) as i64;
        if !(0 <= a.start && a.start <= a.head && a.head <= a.end && a.end < len) {
            return bad(format!(
                "the span {}–{} with head {} does not fit line {} ({len} tokens; need start ≤ head ≤ end)",
                a.start, a.end, a.head, a.line
            ));
        }
        if let Some(given) = a.head_text.as_deref().filter(|h| !h.trim().is_empty())
            && given.trim().to_lowercase() != head.to_lowercase()
        {
            return bad(format!(
                "srchead is '{given}' but token {} of line {} is '{head}'; the positions do not fit the text",
                a.head, a.line
            ));
        }
        let list = by_key.entry(key).or_default();
        if let Some(other) = list.iter().find(|o| o.ant_no == a.ant_no) {
            return bad(format!("ant_no {} of this candidate is also given by row {}", a.ant_no, other.id));
        }
        list.push(a);
    }
    for list in by_key.values_mut() {
        list.sort_by_key(|a| a.ant_no);
    }
    Ok(by_key)
}

/// A line and position of the old file that name no token of the source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NoToken {
    /// `last`: the source's last line (-1 when it has none).
    #[error("line {line} is outside the source text (lines 0–{last})")]
    Line { line: i64, last: i64 },
    #[error("token {pos} is outside line {line} of the source ({tokens} tokens)")]
    Position { pos: i64, line: i64, tokens: usize },
}

/// The token at a line and position of the source, or why there is none.
fn source_token(source: &Sentences, line: i64, pos: i64) -> Result<&str, NoToken> {
    let Some(sentence) = usize::try_from(line).ok().and_then(|l| source.get(l)) else {
        return Err(NoToken::Line { line, last: source.len() as i64 - 1 });
    };
    u32::try_from(pos).ok().and_then(|p| tokens::token(sentence, p)).ok_or_else(|| NoToken::Position {
        pos,
        line,
        tokens: tokens::token_count(sentence),
    })
}

/// Fills in the candidates' aligned target tokens from `translations`.
fn aligned_positions(
    path: &Path,
    old: &OldFile,
    ant_nos: &HashMap<ExampleNo, Vec<i64>>,
    suite: &mut Suite,
) -> Result<()> {
    let index: HashMap<(i64, i64), usize> =
        (0..).zip(&suite.candidates).map(|(i, c)| ((i64::from(c.example.0), i64::from(c.corpus.0)), i)).collect();
    let mut sets: Vec<(BTreeSet<TokenRef>, Vec<BTreeSet<TokenRef>>)> =
        suite.candidates.iter().map(|c| (BTreeSet::new(), vec![BTreeSet::new(); c.antecedents.len()])).collect();
    for t in old.translations.iter().filter(|t| !suite.unused.contains(&t.tgtcorpus)) {
        let bad = |message: String| Err(at_row(path, "translations", t.id, message));
        let Some(&i) = index.get(&(t.example_no, t.tgtcorpus)) else {
            return bad(format!(
                "no {} row has example_no {} and tgtcorpus {} (a translation corpus)",
                old.candidates_table, t.example_no, t.tgtcorpus
            ));
        };
        let candidate = &suite.candidates[i];
        let Some(example) = suite.example(candidate.example) else { continue };
        let (line, what, slot) = match t.ant_no {
            None => (example.sentence, "pronoun".to_owned(), None),
            Some(a) => match ant_nos[&example.no].iter().position(|&n| n == a) {
                Some(k) => (example.antecedents[k].sentence, format!("head of antecedent {a}"), Some(k)),
                None => {
                    return bad(format!(
                        "ant_no {a} is not an antecedent of example {} (its antecedents: {:?})",
                        example.no, ant_nos[&example.no]
                    ));
                }
            },
        };
        if t.line != i64::from(line) {
            return bad(format!("line {} is not the line of the {what} (line {line})", t.line));
        }
        let Some(corpus) = suite.corpora.iter().find(|c| c.id == candidate.corpus) else { continue };
        let count = corpus.token_count(line).unwrap_or(0);
        let Some(pos) = u32::try_from(t.tgtpos).ok().filter(|&p| (p as usize) < count) else {
            return bad(format!(
                "tgtpos {} is outside line {line} of corpus '{}' ({count} tokens)",
                t.tgtpos, corpus.name
            ));
        };
        let token = TokenRef::new(line, pos);
        let set = match slot {
            None => &mut sets[i].0,
            Some(k) => &mut sets[i].1[k],
        };
        if !set.insert(token) {
            suite.repeated_translations += 1;
        }
    }
    for (c, (pronoun, antecedents)) in suite.candidates.iter_mut().zip(sets) {
        c.pronoun = pronoun.into_iter().collect();
        c.antecedents = antecedents.into_iter().map(|s| s.into_iter().collect()).collect();
    }
    if suite.repeated_translations > 0 {
        suite.notes.push(format!(
            "{} translations rows repeat a token already aligned to the same pronoun or head; each token is kept once",
            suite.repeated_translations
        ));
    }
    Ok(())
}
