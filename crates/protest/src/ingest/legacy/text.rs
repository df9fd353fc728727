//! The texts of an old file: corpora with their sentences (lines numbered from 0 without gaps,
//! identical copies of the source kept once), which translation is the reference, and the one
//! document split all corpora share.

use super::db::at_row;
use super::old::{self, OldFile};
use crate::error::{Error, Result};
use crate::model::tokens;
use crate::model::{Corpus, CorpusId, CorpusRole};
use crate::shell::Shell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// Which translation corpus is the human reference (the old files do not say).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Reference {
    /// The one translation corpus whose name has the word `ref` or `reference` in it, if any.
    #[default]
    Guess,
    /// The translation corpus with this name.
    Named(String),
    /// None: every translation is an MT system.
    None,
}

/// The corpora no `pro_candidates` row uses: a system removed the way the original's
/// filter-final.sh (line 44) removes one, by deleting its candidates only. None when the file has
/// no candidates at all.
pub(super) fn unused_corpora(old: &OldFile) -> BTreeSet<i64> {
    if old.candidates.is_empty() {
        return BTreeSet::new();
    }
    let used: BTreeSet<i64> = old.candidates.iter().flat_map(|c| [c.srccorpus, c.tgtcorpus]).collect();
    old.corpora.iter().map(|c| c.id).filter(|id| !used.contains(id)).collect()
}

/// The corpora: sources (several identical copies become one), translations with the reference
/// chosen, sentences checked to number each corpus from 0 without gaps. The `unused` corpora
/// are left out, their sentences unread.
pub(super) fn corpora(
    path: &Path,
    old: &OldFile,
    (reference, shell): (&Reference, Shell),
    unused: &BTreeSet<i64>,
    notes: &mut Vec<String>,
) -> Result<Vec<Corpus>> {
    let kept: Vec<&old::Corpus> = old.corpora.iter().filter(|c| !unused.contains(&c.id)).collect();
    check_names(path, &kept)?;
    let texts = texts(path, old, &kept, unused)?;
    let source = one_source(path, &kept, &texts, notes)?;
    let translations: Vec<&old::Corpus> = kept.iter().copied().filter(|c| !c.source).collect();
    let reference = choose_reference(path, &translations, (reference, shell), notes)?;

    let corpus = |c: &old::Corpus, role| Corpus {
        id: CorpusId(c.id as u32),
        name: c.name.trim().to_owned(),
        role,
        sentences: texts[&c.id].clone().into(),
        alignment: None,
        segmentation: None,
        label: None,
        link_origins: None,
    };
    let mut corpora = vec![corpus(source, CorpusRole::Source)];
    for t in translations {
        let role = if Some(t.id) == reference { CorpusRole::Reference } else { CorpusRole::System };
        corpora.push(corpus(t, role));
    }
    Ok(corpora)
}

/// Corpus ids of 0 or more, and names: every corpus has one, and each translation its own. Only
/// translations need names of their own: the original's data preparation added the source once
/// per MT system (filter-final.sh:41 "Corpus 3/4 is a duplicate of 1/2"), and nothing in the
/// tool compares source names.
fn check_names(path: &Path, kept: &[&old::Corpus]) -> Result<()> {
    let mut names: HashMap<&str, i64> = HashMap::new();
    for c in kept {
        let name = c.name.trim();
        if u32::try_from(c.id).is_err() {
            return Err(at_row(path, "corpora", c.id, "a corpus id must be 0 or more"));
        }
        if name.is_empty() {
            return Err(at_row(path, "corpora", c.id, "the corpus has no name"));
        }
        if !c.source
            && let Some(other) = names.insert(name, c.id)
        {
            return Err(at_row(path, "corpora", c.id, format!("corpus name '{name}' is also used by row {other}")));
        }
    }
    Ok(())
}

/// Each kept corpus's sentences in line order, all corpora with the same number of lines.
fn texts(
    path: &Path,
    old: &OldFile,
    kept: &[&old::Corpus],
    unused: &BTreeSet<i64>,
) -> Result<BTreeMap<i64, Vec<String>>> {
    let mut lines: BTreeMap<i64, Vec<&old::Sentence>> = kept.iter().map(|c| (c.id, Vec::new())).collect();
    for s in &old.sentences {
        if unused.contains(&s.corpus) {
            continue;
        }
        let Some(list) = lines.get_mut(&s.corpus) else {
            return Err(at_row(path, "sentences", s.id, format!("corpus {} is not in table corpora", s.corpus)));
        };
        list.push(s);
    }
    let mut texts: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for c in kept {
        let list = lines.get_mut(&c.id).map(std::mem::take).unwrap_or_default();
        texts.insert(c.id, sentences(path, &c.name, list)?);
    }
    let mut all = kept.iter();
    if let Some(first) = all.next() {
        let n = texts[&first.id].len();
        if let Some(other) = all.find(|c| texts[&c.id].len() != n) {
            return Err(Error::whole_file(
                path,
                format!(
                    "corpus '{}' has {} sentences but corpus '{}' has {n}; every corpus must have the same lines",
                    other.name,
                    texts[&other.id].len(),
                    first.name
                ),
            ));
        }
    }
    Ok(texts)
}

/// The source corpus: the first, the others (copies the original's data preparation made)
/// checked to hold the same text and noted.
fn one_source<'a>(
    path: &Path,
    kept: &[&'a old::Corpus],
    texts: &BTreeMap<i64, Vec<String>>,
    notes: &mut Vec<String>,
) -> Result<&'a old::Corpus> {
    let sources: Vec<&old::Corpus> = kept.iter().copied().filter(|c| c.source).collect();
    let Some(source) = sources.first() else {
        return Err(Error::whole_file(path, "table corpora has no source corpus (srctgt 0)"));
    };
    for other in &sources[1..] {
        if let Some(line) = (0..).zip(&texts[&source.id]).position(|(i, s)| *s != texts[&other.id][i]) {
            return Err(Error::whole_file(
                path,
                format!(
                    "source corpora '{}' and '{}' differ at line {line}; a master has one source text",
                    source.name, other.name
                ),
            ));
        }
    }
    if sources.len() > 1 {
        let names: Vec<&str> = sources.iter().map(|c| c.name.trim()).collect();
        let rows: Vec<String> = sources[1..].iter().map(|c| c.id.to_string()).collect();
        if names.iter().all(|n| *n == names[0]) {
            notes.push(format!(
                "corpora rows {} are copies of source corpus {} '{}' (same name, same text; the original's data preparation added the source once per MT system): kept once",
                rows.join(", "),
                source.id,
                names[0]
            ));
        } else {
            notes.push(format!(
                "the {} source corpora ({}) hold the same text: kept once, as '{}' (the name of row {})",
                sources.len(),
                names.join(", "),
                source.name.trim(),
                source.id
            ));
        }
    }
    Ok(source)
}

/// One corpus's sentences in line order, checked to be lines 0, 1, 2… of well-formed text.
fn sentences(path: &Path, corpus: &str, mut list: Vec<&old::Sentence>) -> Result<Vec<String>> {
    list.sort_by_key(|s| (s.line, s.id));
    let mut out = Vec::with_capacity(list.len());
    for (i, s) in list.iter().enumerate() {
        let expected = i as i64;
        if s.line < 0 {
            return Err(at_row(
                path,
                "sentences",
                s.id,
                format!("line {} of corpus '{corpus}' is negative: lines number the corpus 0, 1, 2…", s.line),
            ));
        }
        if s.line < expected {
            // Sorted and not negative: a line below its place repeats the line before it.
            let first = list.get(i.wrapping_sub(1)).map_or(s.id, |before| before.id);
            return Err(at_row(
                path,
                "sentences",
                s.id,
                format!("line {} of corpus '{corpus}' is also given by row {first}", s.line),
            ));
        }
        if s.line > expected {
            return Err(at_row(
                path,
                "sentences",
                s.id,
                format!(
                    "corpus '{corpus}' has no line {expected} but a line {}: lines must number the corpus 0, 1, 2… without gaps",
                    s.line
                ),
            ));
        }
        if let Some(why) = tokens::malformed(&s.text) {
            return Err(at_row(
                path,
                "sentences",
                s.id,
                format!("line {} of corpus '{corpus}' {why}, so its token positions cannot be trusted", s.line),
            ));
        }
        out.push(s.text.clone());
    }
    Ok(out)
}

fn choose_reference(
    path: &Path,
    translations: &[&old::Corpus],
    (reference, shell): (&Reference, Shell),
    notes: &mut Vec<String>,
) -> Result<Option<i64>> {
    let names = || translations.iter().map(|c| format!("'{}'", c.name.trim())).collect::<Vec<_>>().join(", ");
    match reference {
        Reference::None => Ok(None),
        Reference::Named(name) => match translations.iter().find(|c| c.name.trim() == name.trim()) {
            Some(c) => Ok(Some(c.id)),
            None => Err(Error::whole_file(
                path,
                format!(
                    "there is no translation corpus '{name}' to be the reference; the translations are {}",
                    names()
                ),
            )),
        },
        Reference::Guess => {
            let looks = |name: &str| {
                name.to_lowercase().split(|c: char| !c.is_alphanumeric()).any(|w| w == "ref" || w == "reference")
            };
            let guesses: Vec<&&old::Corpus> = translations.iter().filter(|c| looks(&c.name)).collect();
            match guesses.as_slice() {
                [] => {
                    notes.push(format!(
                        "no translation corpus is named like a reference, so all are MT systems ({}); name the reference {}",
                        names(),
                        shell.says("with --reference NAME", "with “The translation named”")
                    ));
                    Ok(None)
                }
                [one] => {
                    notes.push(format!(
                        "'{}' is taken as the human reference because of its name (the old files do not mark it); choose another, or none, if it is not ({})",
                        one.name.trim(),
                        shell.says("--reference NAME or --no-reference", "the choice of the human reference translation")
                    ));
                    Ok(Some(one.id))
                }
                _ => Err(Error::whole_file(
                    path,
                    format!(
                        "several translation corpora are named like a reference ({}); say which one is {}",
                        guesses.iter().map(|c| format!("'{}'", c.name.trim())).collect::<Vec<_>>().join(", "),
                        shell.says(
                            "with --reference NAME (or --no-reference)",
                            "with “The translation named” (or None)"
                        )
                    ),
                )),
            }
        }
    }
}

/// The document starts, the same for every corpus that has document rows (`None`: no rows).
/// A document's `end` may be its last line or the line after it, consistently over the file.
pub(super) fn documents(
    path: &Path,
    old: &OldFile,
    corpora: &[Corpus],
    unused: &BTreeSet<i64>,
) -> Result<Option<Vec<u32>>> {
    if old.documents.iter().all(|d| unused.contains(&d.corpus)) {
        return Ok(None);
    }
    let n = corpora[0].sentences.len() as i64;
    let mut by_corpus: BTreeMap<i64, Vec<&old::Document>> = BTreeMap::new();
    for d in old.documents.iter().filter(|d| !unused.contains(&d.corpus)) {
        if !old.corpora.iter().any(|c| c.id == d.corpus) {
            return Err(at_row(path, "documents", d.id, format!("corpus {} is not in table corpora", d.corpus)));
        }
        by_corpus.entry(d.corpus).or_default().push(d);
    }
    let mut inclusive: Option<bool> = None;
    let mut agreed: Option<(i64, Vec<u32>)> = None;
    for (corpus, mut docs) in by_corpus {
        docs.sort_by_key(|d| (d.start, d.id));
        let name = corpus_name(old, corpus);
        let mut starts = Vec::new();
        for (i, d) in docs.iter().enumerate() {
            let bad = |message: String| Err(at_row(path, "documents", d.id, message));
            if d.start < 0 || d.start >= n.max(1) || d.end < d.start - 1 {
                return bad(format!(
                    "lines {}–{} are not a range of corpus '{name}' (lines 0–{})",
                    d.start,
                    d.end,
                    n - 1
                ));
            }
            if i == 0 && d.start != 0 {
                return bad(format!("the first document of corpus '{name}' starts at line {}, not 0", d.start));
            }
            let next = docs.get(i + 1).map_or(n, |e| e.start);
            // Checked: the next document's start is not checked yet and may be any number.
            let style = match next.checked_sub(d.end).unwrap_or(i64::MAX) {
                1 => true,
                0 => false,
                _ => {
                    return bad(format!(
                        "the document of lines {}–{} of corpus '{name}' is not followed by the next one at line {next}: documents must cover the corpus without gaps or overlaps",
                        d.start, d.end
                    ));
                }
            };
            if *inclusive.get_or_insert(style) != style {
                return bad("some documents give their last line as `end`, others the line after it".into());
            }
            starts.push(d.start as u32);
        }
        match &agreed {
            None => agreed = Some((corpus, starts)),
            Some((first, theirs)) if *theirs != starts => {
                return Err(Error::whole_file(
                    path,
                    format!(
                        "table documents splits corpus '{}' and corpus '{name}' differently (documents starting at lines {:?} and {:?}); a master has one document split for all corpora",
                        corpus_name(old, *first),
                        theirs,
                        starts
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(agreed.map(|(_, starts)| starts))
}

fn corpus_name(old: &OldFile, id: i64) -> String {
    old.corpora.iter().find(|c| c.id == id).map_or_else(|| id.to_string(), |c| c.name.trim().to_owned())
}
