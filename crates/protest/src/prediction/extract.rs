//! A master's examples as a prediction test set (docs/pronoun-prediction.md#protest-and-the-task):
//! one data line per sentence of the master, in order — the source, the reference translation
//! with the words aligned to each example's pronoun replaced by a placeholder `REPLACE_<i>` (`i`
//! the pronoun's source position, as in the 2015 data), the class of the word removed, and the
//! alignment — with the master's documents as the doc ids.
//!
//! Where the reference aligns several words to a pronoun, the placeholder takes the first that
//! is one of the pair's classes, else the first; where it aligns none, a placeholder is inserted
//! after the words aligned to the nearest source word before the pronoun (class `OTHER`, word
//! `NONE`, as in the task's data). An example that cannot have a placeholder of its own (no
//! reference candidate, or its word is another example's) is listed, not guessed.

use super::classes::{NotScored, Pair, Scorer, Task};
use super::data::{self, DataLine, PLACEHOLDER};
use crate::error::{Error, Result};
use crate::model::alignment::Links;
use crate::model::{CorpusRole, ExampleNo, Master, tokens};
use crate::store::disk::Disk;
use std::path::{Path, PathBuf};

/// Where an example's placeholder is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub example: ExampleNo,
    /// The line: the example's sentence.
    pub line: usize,
    /// Which placeholder of the line, from 0.
    pub slot: usize,
    /// The reference's word the placeholder replaces and its position in the reference
    /// sentence, or `None` where the reference has no word for the pronoun.
    pub word: Option<(String, usize)>,
    /// Where a placeholder was inserted instead: before this reference token (`None` with `word`).
    pub inserted_at: Option<usize>,
    /// The class of the reference's word, among the task's official classes.
    pub class: usize,
}

/// An example left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmappable {
    pub example: ExampleNo,
    pub reason: String,
}

/// A master as a data set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub task: Task,
    /// One per sentence of the master.
    pub lines: Vec<DataLine>,
    /// The document of each line (the document's number in the master, from 1).
    pub documents: Vec<String>,
    /// The examples given a placeholder, by line and slot.
    pub placed: Vec<Placed>,
    pub unmappable: Vec<Unmappable>,
}

/// The task of a master's set: `scorer` and `pair` where given, else the pair of the master's
/// languages and its scorer — DiscoMT 2015 for English–French (its fine classes are words of the
/// WMT16 scorer too, which counts `ça` as `cela`), else WMT16.
pub fn task_of(master: &Master, scorer: Option<Scorer>, pair: Option<Pair>) -> std::result::Result<Task, NoTask> {
    let pair = match pair {
        Some(pair) => pair,
        None => {
            let languages = format!("{}-{}", master.languages.source, master.languages.target);
            languages.parse::<Pair>().map_err(|_| NoTask::Languages(languages))?
        }
    };
    let scorer = scorer.unwrap_or(if pair == Pair::EnFr { Scorer::Discomt2015 } else { Scorer::Wmt16 });
    Ok(Task::new(scorer, pair)?)
}

/// Why a master's set has no task ([`task_of`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoTask {
    /// No task is of the master's languages (`en-xx`), and no pair was given.
    #[error("no task has the master's languages ({0}): give the pair")]
    Languages(String),
    #[error(transparent)]
    NotScored(#[from] NotScored),
}

/// Why a master's examples cannot be extracted ([`extract`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotExtractable {
    #[error("the master has no source corpus")]
    NoSource,
    #[error("the master has no reference translation")]
    NoReference,
    /// A sentence (from 1) of the source or the reference has no token.
    #[error("sentence {0} of the source or of the reference is empty: the task's layout needs both")]
    EmptySentence(usize),
    /// The reference candidate of an example names a word past its sentence.
    #[error("the reference candidate of example {0} names a word past its sentence")]
    PastTheSentence(ExampleNo),
}

/// Writes `set` to `path` and its documents to the `.doc-ids` file beside it (`NAME.doc-ids` for
/// `NAME.data`), both or neither; refused where either exists, unless `replace`, and always
/// where either is the master the set comes from. Returns the `.doc-ids` file's path.
pub fn write(disk: &dyn Disk, set: &Extracted, path: &Path, replace: bool, master: &Path) -> Result<PathBuf> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let stem = name.strip_suffix(".data").unwrap_or(name);
    let ids = path.with_file_name(format!("{stem}.doc-ids"));
    for target in [path, ids.as_path()] {
        if crate::store::atomic::same_file(target, master) {
            return Err(Error::refused(target, "is the master itself; choose another name for the set"));
        }
        match std::fs::symlink_metadata(target) {
            Ok(meta) if meta.is_dir() => return Err(Error::refused(target, "is a folder; choose another name")),
            Ok(_) if !replace => return Err(Error::Exists { path: target.to_path_buf() }),
            _ => {}
        }
    }
    data::write(disk, path, &set.lines, Some((&ids, &set.documents)))?;
    Ok(ids)
}

/// Extracts `master`'s examples with `task`'s classes; the error says why a master cannot be.
pub fn extract(master: &Master, task: Task) -> std::result::Result<Extracted, NotExtractable> {
    let source = master.source().ok_or(NotExtractable::NoSource)?;
    let reference = master.reference().ok_or(NotExtractable::NoReference)?;
    let sentences = source.sentences.len();
    let mut examples: Vec<Vec<&crate::model::Example>> = vec![Vec::new(); sentences];
    for example in &master.examples {
        if let Some(list) = examples.get_mut(example.sentence as usize) {
            list.push(example);
        }
    }
    let mut extracted = Extracted {
        task,
        lines: Vec::with_capacity(sentences),
        documents: Vec::with_capacity(sentences),
        placed: Vec::new(),
        unmappable: Vec::new(),
    };
    for (s, in_sentence) in examples.iter_mut().enumerate() {
        in_sentence.sort_by_key(|e| e.token);
        let (source_text, target_text) = (&source.sentences[s], &reference.sentences[s]);
        if tokens::token_count(source_text) == 0 || tokens::token_count(target_text) == 0 {
            return Err(NotExtractable::EmptySentence(s + 1));
        }
        let links: Links = match &reference.alignment {
            Some(alignment) => alignment.sentence(s as u32).to_vec(),
            // Converted files of the original tool keep only the candidates' aligned words.
            None => candidate_links(master, s as u32),
        };
        let target: Vec<&str> = tokens::tokens(target_text).collect();
        let mut slots: Vec<Slot> = Vec::new();
        for example in in_sentence.iter() {
            let aligned = master
                .candidates_of(example.no)
                .find(|c| master.corpus(c.corpus).is_some_and(|k| k.role == CorpusRole::Reference))
                .map(|c| {
                    c.pronoun.iter().filter(|t| t.sentence as usize == s).map(|t| t.token as usize).collect::<Vec<_>>()
                });
            let Some(aligned) = aligned else {
                extracted
                    .unmappable
                    .push(Unmappable { example: example.no, reason: "the reference has no candidate for it".into() });
                continue;
            };
            let chosen = aligned
                .iter()
                .copied()
                .find(|&t| target.get(t).is_some_and(|w| task.class_of_word(w) != task.other()))
                .or(aligned.first().copied());
            let at = match chosen {
                Some(t) if t >= target.len() => {
                    return Err(NotExtractable::PastTheSentence(example.no));
                }
                Some(t) if slots.iter().any(|slot| slot.at == At::Word(t)) => {
                    let reason = format!("its reference word '{}' is another example's too", target[t]);
                    extracted.unmappable.push(Unmappable { example: example.no, reason });
                    continue;
                }
                Some(t) => At::Word(t),
                None => At::Before(insertion_point(&links, example.token as usize)),
            };
            slots.push(Slot { example: example.no, source_token: example.token as usize, at });
        }
        let (line, placed) = line_of(task, s, source_text, &target, &links, slots);
        extracted.placed.extend(placed);
        extracted.lines.push(line);
        extracted.documents.push((master.documents.partition_point(|&d| d <= s as u32).max(1)).to_string());
    }
    Ok(extracted)
}

/// Where a placeholder goes in the reference sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum At {
    /// Inserted before this token (or at the end).
    Before(usize),
    /// In place of this token.
    Word(usize),
}

impl At {
    /// Order in the line: an insertion before token `t` comes before the word `t`.
    fn key(self) -> (usize, bool) {
        match self {
            At::Before(t) => (t, false),
            At::Word(t) => (t, true),
        }
    }
}

struct Slot {
    example: ExampleNo,
    source_token: usize,
    at: At,
}

/// A pronoun with no aligned word gets its placeholder after the words aligned to the nearest
/// aligned source word before it (at the start where there is none).
fn insertion_point(links: &Links, source_token: usize) -> usize {
    links
        .iter()
        .filter(|&&(s, _)| (s as usize) < source_token)
        .max_by_key(|&&(s, t)| (s, t))
        .map_or(0, |&(s, _)| links.iter().filter(|&&(s2, _)| s2 == s).map(|&(_, t)| t as usize + 1).max().unwrap_or(0))
}

/// The data line of sentence `s` with its placeholders, and where each example's is.
fn line_of(
    task: Task,
    s: usize,
    source: &str,
    target: &[&str],
    links: &Links,
    mut slots: Vec<Slot>,
) -> (DataLine, Vec<Placed>) {
    slots.sort_by_key(|slot| (slot.at.key(), slot.source_token));
    // Where each reference token ends up once the inserted placeholders are in before it.
    let mut new_position = Vec::with_capacity(target.len());
    let mut inserted = 0;
    for t in 0..target.len() {
        inserted += slots.iter().filter(|slot| slot.at == At::Before(t)).count();
        new_position.push(t + inserted);
    }
    let mut words: Vec<String> = target.iter().map(|w| w.to_string()).collect();
    let mut line_links: Links =
        links.iter().filter_map(|&(src, t)| new_position.get(t as usize).map(|&n| (src, n as u32))).collect();
    let mut line = DataLine { source: source.to_owned(), ..DataLine::default() };
    let mut placed = Vec::with_capacity(slots.len());
    for (slot_no, slot) in slots.iter().enumerate() {
        let placeholder = format!("{PLACEHOLDER}{}", slot.source_token);
        let (word, inserted_at) = match slot.at {
            At::Word(t) => (Some((target[t].to_owned(), t)), None),
            At::Before(t) => (None, Some(t)),
        };
        let class = word.as_ref().map_or(task.other(), |(w, _)| task.class_of_word(w));
        line.labels.push(task.classes().classes[class].to_owned());
        line.words.push(word.as_ref().map_or("NONE".to_owned(), |(w, _)| w.clone()));
        if let At::Word(t) = slot.at {
            words[t] = placeholder;
        }
        placed.push(Placed { example: slot.example, line: s, slot: slot_no, word, inserted_at, class });
    }
    // The target: reference tokens with the inserted placeholders in their places.
    let mut target_line: Vec<String> = Vec::with_capacity(words.len() + inserted);
    for (t, word) in words.into_iter().enumerate().chain(std::iter::once((target.len(), String::new()))) {
        for slot in slots.iter().filter(|slot| slot.at == At::Before(t)) {
            line_links.push((slot.source_token as u32, target_line.len() as u32));
            target_line.push(format!("{PLACEHOLDER}{}", slot.source_token));
        }
        if t < target.len() {
            target_line.push(word);
        }
    }
    line_links.sort_unstable();
    line.target = target_line.join(" ");
    line.alignment = line_links.iter().map(|(s, t)| format!("{s}-{t}")).collect::<Vec<_>>().join(" ");
    (line, placed)
}

/// The links the reference candidates of a sentence's examples know, for a master without the
/// reference's whole alignment.
fn candidate_links(master: &Master, sentence: u32) -> Links {
    let mut links: Links = master
        .examples
        .iter()
        .filter(|e| e.sentence == sentence)
        .flat_map(|e| {
            master
                .candidates_of(e.no)
                .filter(|c| master.corpus(c.corpus).is_some_and(|k| k.role == CorpusRole::Reference))
                .map(move |c| (e, c))
        })
        .flat_map(|(e, c)| c.pronoun.iter().filter(|t| t.sentence == sentence).map(move |t| (e.token, t.token)))
        .collect();
    links.sort_unstable();
    links.dedup();
    links
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::TokenRef;
    use crate::model::alignment::Alignment;
    use crate::prediction::{Pair, Scorer};

    pub fn task() -> Task {
        Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap()
    }

    /// The tiny master with "You" of example 3 aligned to nothing in the reference.
    pub fn unaligned_you() -> Master {
        let mut m = crate::testing::tiny();
        let reference = m.corpora.iter_mut().find(|c| c.role == CorpusRole::Reference).unwrap();
        let mut links: Vec<Links> = reference.alignment.as_ref().unwrap().sentences().map(<[_]>::to_vec).collect();
        links[3].retain(|&(s, _)| s != 0);
        reference.alignment = Some(Alignment::new(links));
        m.candidates.iter_mut().find(|c| c.id.0 == 5).unwrap().pronoun.clear();
        m
    }

    #[test]
    fn one_line_per_sentence_with_placeholders_and_documents() {
        let set = extract(&crate::testing::tiny(), task()).unwrap();
        let lines: Vec<String> = set.lines.iter().map(DataLine::to_line).collect();
        assert_eq!(
            lines,
            [
                "\t\tI have a bicycle .\tJ' ai un vélo .\t0-0 1-1 2-2 3-3 4-4",
                "il\tIl\tIt is red .\tREPLACE_0 est rouge .\t0-0 1-1 2-2 3-3",
                "il\tIl\tIt is raining .\tREPLACE_0 pleut .\t0-0 1-1 2-1 3-2",
                "OTHER\tvous\tYou are welcome .\tJe REPLACE_0 en prie .\t0-1 2-3 3-4",
            ]
        );
        assert_eq!(set.documents, ["1", "1", "2", "2"]);
        assert_eq!(set.placed.len(), 3);
        assert_eq!(set.placed[2].word, Some(("vous".into(), 1)));
        assert!(set.unmappable.is_empty());
        for line in &set.lines {
            assert_eq!(DataLine::parse(&line.to_line(), true).as_ref(), Ok(line), "a valid line of the layout");
        }
    }

    #[test]
    fn a_pronoun_without_a_reference_word_gets_an_inserted_placeholder() {
        let set = extract(&unaligned_you(), task()).unwrap();
        assert_eq!(set.lines[3].to_line(), "OTHER\tNONE\tYou are welcome .\tREPLACE_0 Je vous en prie .\t0-0 2-4 3-5");
        assert_eq!((set.placed[2].word.clone(), set.placed[2].inserted_at), (None, Some(0)));
        assert_eq!(insertion_point(&vec![(0, 0), (1, 2), (1, 3), (3, 1)], 2), 4, "after the words of source word 1");
    }

    /// The set and its documents are written both or neither, whatever write fails; a file
    /// there already is replaced only when told to, and never the master.
    #[test]
    fn the_set_and_its_doc_ids_both_or_neither() {
        use crate::store::disk::{Fault, Faulty};
        let set = extract(&crate::testing::tiny(), task()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (data, ids, master) =
            (dir.path().join("set.data"), dir.path().join("set.doc-ids"), dir.path().join("tiny.master.json"));
        std::fs::write(&master, "{}").unwrap();
        let disk = Faulty::new(Fault::None);
        assert_eq!(write(&disk, &set, &data, false, &master).unwrap(), ids);
        let whole = (std::fs::read(&data).unwrap(), std::fs::read(&ids).unwrap());
        assert_eq!(whole.1, b"1\n1\n2\n2\n");
        assert!(matches!(write(&disk, &set, &data, false, &master), Err(Error::Exists { .. })));
        let err = write(&disk, &set, &master, true, &master).unwrap_err();
        assert!(err.to_string().contains("is the master itself"), "{err}");
        for k in 0..disk.ops().len() {
            for fault in [Fault::Once(k), Fault::FullFrom(k)] {
                std::fs::write(&data, "old").unwrap();
                std::fs::write(&ids, "old ids").unwrap();
                disk.set(fault);
                let now = || (std::fs::read(&data).unwrap(), std::fs::read(&ids).unwrap());
                match write(&disk, &set, &data, true, &master) {
                    Ok(_) => assert_eq!(now(), whole, "{fault:?}"),
                    Err(_) => assert_eq!(now(), (b"old".to_vec(), b"old ids".to_vec()), "{fault:?}"),
                }
                crate::store::atomic::remove_leftovers(&data);
                crate::store::atomic::remove_leftovers(&ids);
                assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3, "{fault:?}: no file left over");
            }
        }
    }

    #[test]
    fn examples_without_a_word_of_their_own_are_listed() {
        let mut m = crate::testing::tiny();
        m.candidates.retain(|c| c.id.0 != 3);
        m.reindex();
        let set = extract(&m, task()).unwrap();
        assert_eq!(
            set.unmappable,
            [Unmappable { example: ExampleNo(2), reason: "the reference has no candidate for it".into() }]
        );
        assert_eq!(set.lines[2].to_line(), "\t\tIt is raining .\tIl pleut .\t0-0 1-1 2-1 3-2");
        // A second pronoun aligned to the same word: the first keeps it.
        let mut m = crate::testing::tiny();
        let mut second = m.examples[1].clone();
        (second.no, second.token) = (ExampleNo(4), 1);
        m.examples.push(second);
        let mut candidate = m.candidates[2].clone();
        (candidate.id, candidate.example, candidate.pronoun) =
            (crate::model::CandidateId(7), ExampleNo(4), vec![TokenRef::new(2, 0)]);
        m.candidates.push(candidate);
        m.reindex();
        let set = extract(&m, task()).unwrap();
        assert_eq!(set.unmappable.len(), 1);
        assert_eq!(set.unmappable[0].example, ExampleNo(4));
        assert!(set.unmappable[0].reason.contains("'Il' is another example's"), "{:?}", set.unmappable);
    }
}
