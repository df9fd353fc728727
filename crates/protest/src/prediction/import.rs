//! A classifier's predictions for a master's extracted set ([`super::extract`]) brought back as a
//! new system of the master (docs/pronoun-prediction.md#protest-and-the-task): its translation is
//! the reference with the predicted word at each placeholder, its alignment the reference's
//! (adjusted where a word is dropped or inserted), so that the automatic match, the annotators'
//! judgements and every report apply to it as to any system.
//!
//! The word put in: the prediction line's own word (column 2) where it is of the predicted class;
//! else the reference's word where the class is the reference's; else the class itself, written
//! with the reference word's capital. A predicted `OTHER` with no word, where the reference's
//! class is another, names no word: that example gets no candidate and is listed, as are those
//! the extraction could not place.

use super::classes::Task;
use super::data::{self, prediction_labels};
use super::extract::{Extracted, Placed, Unmappable, extract};
use super::score::{Counter, Macro, Scores};
use crate::error::{Error, Result};
use crate::ingest::add_system::NewSystem;
use crate::model::alignment::{Alignment, Links};
use crate::model::{Corpus, CorpusRole, ExampleNo, Master, Sentences, tokens};
use std::collections::BTreeSet;
use std::path::Path;

/// A classifier's predictions made into a system, ready for [`crate::workflow::add_system::run`].
#[derive(Debug, Clone)]
pub struct Imported {
    pub system: NewSystem,
    /// The classifier's official scores on the master's set.
    pub scores: Scores,
    /// Examples given the classifier's word (a candidate each).
    pub placed: usize,
    /// Of those, the ones whose translation differs from the reference's.
    pub changed: usize,
    /// Examples without a candidate, and why.
    pub unmappable: Vec<Unmappable>,
}

/// What goes in a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Choice {
    Word(String),
    Nothing,
    Unmappable(String),
}

/// Reads `predictions` (the task's layout, one line per line of the master's extracted set) and
/// makes the system `name` of them. Refused, naming the file and line, where the file is not a
/// prediction of this master's set or where the official scorer would refuse a label.
pub fn prepare(master: &Master, master_path: &Path, task: Task, name: &str, predictions: &Path) -> Result<Imported> {
    let set = extract(master, task).map_err(|m| Error::whole_file(master_path, m))?;
    let reference = master.reference().expect("extracted: the master has a reference");
    let Some(reference_links) = &reference.alignment else {
        return Err(Error::whole_file(
            master_path,
            "the reference has no word alignment, from which the new system's would be made",
        ));
    };
    let (predicted, scores) = read_predictions(&set, master_path, task, predictions)?;
    let filled = fill(master, task, &set, &predicted, reference, reference_links);
    let mut corpus = reference.clone();
    corpus.id = master.next_corpus_id().ok_or_else(|| {
        Error::whole_file(master_path, format!("no corpus id is left: the highest in use is {}", u32::MAX))
    })?;
    corpus.name = name.to_owned();
    corpus.role = CorpusRole::System;
    corpus.sentences = filled.sentences;
    corpus.alignment = Some(Alignment::new(filled.links));
    let mut system = NewSystem::aligned(master, corpus, predictions)?;
    let left_out: BTreeSet<ExampleNo> = filled.unmappable.iter().map(|u| u.example).collect();
    system.candidates.retain(|c| !left_out.contains(&c.example));
    Ok(Imported { system, scores, placed: filled.placed, changed: filled.changed, unmappable: filled.unmappable })
}

/// The predicted class and word (if the line gives one) of a placeholder.
type Prediction = (usize, Option<String>);

/// The predictions of each line of the extracted `set`'s placeholders, and the official scores.
/// A line is refused where its source is not the set's line's, or where the scorer would refuse
/// it; so is a file with fewer or more lines than the set.
fn read_predictions(
    set: &Extracted,
    master_path: &Path,
    task: Task,
    predictions: &Path,
) -> Result<(Vec<Vec<Prediction>>, Scores)> {
    let mut reader = data::open_lines(predictions)?;
    let mut counter = Counter::new(task);
    let mut predicted: Vec<Vec<Prediction>> = Vec::with_capacity(set.lines.len());
    for (i, line) in set.lines.iter().enumerate() {
        let n = i + 1;
        if !reader.advance()? {
            let message =
                format!("missing: the set extracted from {} has {} lines", master_path.display(), set.lines.len());
            return Err(Error::at_line(predictions, n, message));
        }
        let text = reader.line();
        let columns: Vec<&str> = text.split('\t').collect();
        if columns.len() >= 3 && columns[2] != line.source {
            let message = format!(
                "its source sentence is not sentence {n} of {}: predictions for another set?",
                master_path.display()
            );
            return Err(Error::at_line(predictions, n, message));
        }
        let labels = prediction_labels(text);
        counter.add(&line.labels.join(" "), labels).map_err(|r| r.error(master_path, predictions, n))?;
        predicted.push(slots(task, &columns, labels));
    }
    if reader.advance()? {
        let message =
            format!("more lines than the {} of the set extracted from {}", set.lines.len(), master_path.display());
        return Err(Error::at_line(predictions, reader.line_number(), message));
    }
    let scores = counter.finish(Macro::All).map_err(|r| r.error(master_path, predictions, set.lines.len()))?;
    Ok((predicted, scores))
}

/// The prediction of each placeholder of a line whose `labels` the scorer accepted: the line's
/// own words (column 2) count only when there is one per label.
fn slots(task: Task, columns: &[&str], labels: &str) -> Vec<Prediction> {
    let words: Vec<&str> = columns.get(1).map_or(Vec::new(), |w| w.split(' ').filter(|w| !w.is_empty()).collect());
    let labels: Vec<&str> = labels.split(' ').filter(|l| !l.is_empty()).collect();
    let given = |slot: usize| (words.len() == labels.len()).then(|| words[slot].to_owned());
    labels
        .iter()
        .enumerate()
        .map(|(slot, label)| (task.classes().class_of(label).expect("the scorer's checks passed"), given(slot)))
        .collect()
}

/// The reference's sentences and links with the predicted words put in, and what became of the
/// placed examples.
struct Filled {
    sentences: Sentences,
    links: Vec<Links>,
    /// Examples given the classifier's word, and of those the ones unlike the reference's.
    placed: usize,
    changed: usize,
    /// The extraction's unmappable examples and those whose prediction names no word, in order.
    unmappable: Vec<Unmappable>,
}

/// Puts each placed example's chosen word into the reference, a sentence's placeholders at once
/// (the placed examples come grouped by line) so that its links are adjusted once.
fn fill(
    master: &Master,
    task: Task,
    set: &Extracted,
    predicted: &[Vec<Prediction>],
    reference: &Corpus,
    reference_links: &Alignment,
) -> Filled {
    let mut filled = Filled {
        sentences: reference.sentences.clone(),
        links: reference_links.sentences().map(<[_]>::to_vec).collect(),
        placed: 0,
        changed: 0,
        unmappable: set.unmappable.clone(),
    };
    let mut start = 0;
    while start < set.placed.len() {
        let s = set.placed[start].line;
        let end = start + set.placed[start..].iter().take_while(|p| p.line == s).count();
        let mut edits = Vec::with_capacity(end - start);
        for placed in &set.placed[start..end] {
            let (class, word) = &predicted[s][placed.slot];
            match choose(task, placed, *class, word.as_deref()) {
                Choice::Unmappable(reason) => filled.unmappable.push(Unmappable { example: placed.example, reason }),
                choice => {
                    filled.placed += 1;
                    filled.changed += usize::from(Some(&choice) != reference_choice(placed).as_ref());
                    let source_token = master.example(placed.example).map_or(0, |e| e.token);
                    edits.push((placed, source_token, choice));
                }
            }
        }
        let (sentence, sentence_links) = apply(&filled.sentences[s], &filled.links[s], &edits);
        filled.sentences[s] = sentence;
        filled.links[s] = sentence_links;
        start = end;
    }
    filled.unmappable.sort_by_key(|u| u.example);
    filled
}

/// The reference's own choice at a placeholder.
fn reference_choice(placed: &Placed) -> Option<Choice> {
    Some(match &placed.word {
        Some((word, _)) => Choice::Word(word.clone()),
        None => Choice::Nothing,
    })
}

/// The word a predicted class puts at an example's placeholder (see the module's description).
fn choose(task: Task, placed: &Placed, class: usize, given: Option<&str>) -> Choice {
    match given {
        Some("NONE") if class == task.other() => return Choice::Nothing,
        Some(word) if task.class_of_word(word) == class && word != "NONE" => return Choice::Word(word.to_owned()),
        _ => {}
    }
    if class == placed.class {
        return reference_choice(placed).expect("a reference choice");
    }
    if class == task.other() {
        let reference = placed.word.as_ref().map_or("none", |(w, _)| w.as_str());
        return Choice::Unmappable(format!(
            "predicted OTHER without naming a word, where the reference has '{reference}' ({})",
            task.classes().classes[placed.class]
        ));
    }
    let word = task.classes().classes[class];
    let capital = match &placed.word {
        Some((w, _)) => w.chars().next().is_some_and(char::is_uppercase),
        None => placed.inserted_at == Some(0),
    };
    Choice::Word(if capital { capitalised(word) } else { word.to_owned() })
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
}

/// The reference sentence with the chosen words in place, and its links adjusted: a dropped word
/// takes its links with it, an inserted one is linked to its pronoun.
fn apply(sentence: &str, links: &[(u32, u32)], edits: &[(&Placed, u32, Choice)]) -> (String, Links) {
    let old: Vec<&str> = tokens::tokens(sentence).collect();
    let mut out: Vec<String> = Vec::with_capacity(old.len() + edits.len());
    let mut new_position: Vec<Option<u32>> = Vec::with_capacity(old.len());
    let mut new_links: Links = Vec::new();
    for t in 0..=old.len() {
        for (placed, source_token, choice) in edits {
            if let (Some(at), Choice::Word(word)) = (placed.inserted_at, choice)
                && at == t
            {
                new_links.push((*source_token, out.len() as u32));
                out.push(word.clone());
            }
        }
        if t == old.len() {
            break;
        }
        let replaced = edits.iter().find(|(p, _, _)| p.word.as_ref().is_some_and(|(_, at)| *at == t));
        match replaced.map(|(_, _, choice)| choice) {
            Some(Choice::Nothing) => new_position.push(None),
            Some(Choice::Word(word)) => {
                new_position.push(Some(out.len() as u32));
                out.push(word.clone());
            }
            Some(Choice::Unmappable(_)) | None => {
                new_position.push(Some(out.len() as u32));
                out.push(old[t].to_owned());
            }
        }
    }
    new_links
        .extend(links.iter().filter_map(|&(s, t)| new_position.get(t as usize).copied().flatten().map(|t| (s, t))));
    new_links.sort_unstable();
    new_links.dedup();
    (out.join(" "), new_links)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prediction::extract::tests::{task, unaligned_you};
    use crate::prediction::{DataLine, Pair, Scorer};

    /// Imports `lines` (one string per line of the tiny master's set) as system "clf".
    fn import(master: &Master, lines: &[String]) -> Result<Imported> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("clf.pred");
        std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
        prepare(master, Path::new("tiny.master.json"), task(), "clf", &path)
    }

    fn gold(master: &Master) -> Vec<String> {
        extract(master, task()).unwrap().lines.iter().map(DataLine::to_line).collect()
    }

    /// The gold lines with line `n`'s labels and words replaced.
    fn predicting(master: &Master, n: usize, labels: &str, words: &str) -> Vec<String> {
        let mut lines = gold(master);
        let mut columns: Vec<&str> = lines[n].split('\t').collect();
        (columns[0], columns[1]) = (labels, words);
        lines[n] = columns.join("\t");
        lines
    }

    fn sentences(imported: &Imported) -> Vec<&str> {
        imported.system.corpus.sentences.iter().map(String::as_str).collect()
    }

    #[test]
    fn predictions_equal_to_the_gold_give_the_reference() {
        for master in [crate::testing::tiny(), unaligned_you()] {
            let imported = import(&master, &gold(&master)).unwrap();
            let reference = master.reference().unwrap();
            assert_eq!(imported.system.corpus.sentences, reference.sentences);
            assert_eq!(imported.system.corpus.alignment, reference.alignment);
            assert_eq!((imported.placed, imported.changed, imported.unmappable.len()), (3, 0, 0));
            assert_eq!(imported.system.candidates.len(), 3);
            assert_eq!(imported.scores.official(), 100.0 * 2.0 / 9.0 + 0.0, "il and OTHER of nine classes: 100 each");
        }
    }

    #[test]
    fn the_predicted_word_in_the_reference() {
        let m = crate::testing::tiny();
        // A class only: written with the reference word's capital.
        let imported = import(&m, &predicting(&m, 1, "elle", "")).unwrap();
        assert_eq!(sentences(&imported)[1], "Elle est rouge .");
        assert_eq!((imported.placed, imported.changed), (3, 1));
        // The prediction's own word where it is of the class; NONE drops the word and its links.
        let imported = import(&m, &predicting(&m, 3, "OTHER", "NONE")).unwrap();
        assert_eq!(sentences(&imported)[3], "Je en prie .");
        assert_eq!(imported.system.corpus.alignment.as_ref().unwrap().sentence(3), [(2, 2), (3, 3)]);
        let example_3 = imported.system.candidates.iter().find(|c| c.example == ExampleNo(3)).unwrap();
        assert!(example_3.pronoun.is_empty());
        let imported = import(&m, &predicting(&m, 3, "OTHER", "te")).unwrap();
        assert_eq!(sentences(&imported)[3], "Je te en prie .");
        // Inserted where the reference has no word.
        let m = unaligned_you();
        let imported = import(&m, &predicting(&m, 3, "on", "")).unwrap();
        assert_eq!(sentences(&imported)[3], "On Je vous en prie .");
        assert_eq!(imported.system.corpus.alignment.as_ref().unwrap().sentence(3), [(0, 0), (2, 4), (3, 5)]);
    }

    #[test]
    fn other_without_a_word_is_listed_not_guessed() {
        let m = crate::testing::tiny();
        let imported = import(&m, &predicting(&m, 1, "OTHER", "")).unwrap();
        assert_eq!(imported.unmappable.len(), 1);
        assert_eq!(imported.unmappable[0].example, ExampleNo(1));
        assert!(
            imported.unmappable[0].reason.contains("where the reference has 'Il' (il)"),
            "{:?}",
            imported.unmappable
        );
        assert!(imported.system.candidates.iter().all(|c| c.example != ExampleNo(1)));
        assert_eq!((imported.system.candidates.len(), imported.placed), (2, 2));
        assert_eq!(sentences(&imported)[1], "Il est rouge .", "kept as context");
    }

    #[test]
    fn predictions_for_another_set_or_bad_labels_are_refused() {
        let m = crate::testing::tiny();
        let message = |lines: &[String]| import(&m, lines).unwrap_err().to_string();
        let gold = gold(&m);
        let err = message(&gold[..2]);
        assert!(
            err.contains("clf.pred: line 3: missing: the set extracted from tiny.master.json has 4 lines"),
            "{err}"
        );
        let err = message(&[gold.clone(), vec!["x".into()]].concat());
        assert!(err.contains("clf.pred: line 5: more lines than the 4"), "{err}");
        let err = message(&predicting(&m, 1, "lui", ""));
        assert!(err.contains("clf.pred: line 2: wrong file format: the predicted label is 'lui'"), "{err}");
        let mut other = gold.clone();
        other[2] = other[2].replace("raining", "snowing");
        let err = message(&other);
        assert!(err.contains("clf.pred: line 3: its source sentence is not sentence 3 of tiny.master.json"), "{err}");
        let labels_only: Vec<String> = gold.iter().map(|l| l.split('\t').next().unwrap().to_owned()).collect();
        assert_eq!(import(&m, &labels_only).unwrap().changed, 0, "a file of labels alone is read");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p");
        std::fs::write(&path, gold.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
        let err = prepare(&m, Path::new("m"), task(), "mt", &path).unwrap_err().to_string();
        assert!(err.contains("'mt'"), "a system's name is taken: {err}");
        let wmt = Task::new(Scorer::Wmt16, Pair::EnFr).unwrap();
        assert!(prepare(&m, Path::new("m"), wmt, "clf", &path).is_ok(), "the 2015 classes are words of WMT16's");
    }
}
