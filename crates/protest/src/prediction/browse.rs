//! A gold file and prediction files read together for browsing a classifier's errors: each
//! system's scores, the examples behind each cell of its confusion matrix, and each example as
//! the translation window shows one — the source with the pronoun, the target with the
//! placeholder, and the document's lines around it. What the window's prediction view draws.

use super::classes::Task;
use super::data::{DataLine, DataSet, Placeholder};
use super::score::{Counter, Macro, Refusal, Scores, read_prediction_labels};
use crate::error::Result;
use std::path::{Path, PathBuf};

/// One prediction file's results against the gold.
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    /// The file's name (what the report calls the system).
    pub name: String,
    pub path: PathBuf,
    pub scores: Scores,
    /// The predicted label of each placeholder, by line and slot (none on lines without).
    predicted: Vec<Vec<String>>,
}

/// A placeholder: its line of the gold file and which of the line's placeholders it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    pub line: usize,
    pub slot: usize,
}

/// The gold file and every system, checked and scored as the official scorer does.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    pub task: Task,
    pub gold: DataSet,
    pub systems: Vec<System>,
}

impl Results {
    /// Reads `gold` (with its `.doc-ids` if beside it) and each prediction file, and scores them;
    /// refused as the scorer refuses, naming the file and line.
    pub fn load(task: Task, averaging: Macro, gold: &Path, predictions: &[PathBuf]) -> Result<Results> {
        let gold_set = DataSet::read(gold)?;
        let systems = predictions
            .iter()
            .map(|path| {
                let labels = read_prediction_labels(path)?;
                let mut counter = Counter::new(task);
                let mut predicted = Vec::with_capacity(gold_set.lines.len());
                for (i, line) in gold_set.lines.iter().enumerate() {
                    let refused = |r: Refusal| r.error(gold, path, i + 1);
                    let label = labels.get(i).ok_or(Refusal::PredictionsShorter).map_err(refused)?;
                    counter.add(&line.labels.join(" "), label).map_err(refused)?;
                    predicted.push(label.split(' ').filter(|l| !l.is_empty()).map(String::from).collect());
                }
                let scores = counter.finish(averaging).map_err(|r| r.error(gold, path, gold_set.lines.len()))?;
                Ok(System { name: path.display().to_string(), path: path.clone(), scores, predicted })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Results { task, gold: gold_set, systems })
    }

    /// Every placeholder of the gold, in order.
    pub fn items(&self) -> impl Iterator<Item = Item> + '_ {
        self.gold
            .lines
            .iter()
            .enumerate()
            .flat_map(|(line, l)| (0..l.labels.len()).map(move |slot| Item { line, slot }))
    }

    /// The gold and predicted label of a placeholder for a system.
    pub fn labels(&self, system: usize, item: Item) -> (&str, &str) {
        (&self.gold.lines[item.line].labels[item.slot], &self.systems[system].predicted[item.line][item.slot])
    }

    /// The gold and predicted classes of a placeholder, among the official classes.
    pub fn classes(&self, system: usize, item: Item) -> (usize, usize) {
        let (gold, predicted) = self.labels(system, item);
        let classes = self.task.classes();
        let class = |label| classes.class_of(label).expect("labels were checked when loaded");
        (class(gold), class(predicted))
    }

    /// The placeholders a system put in cell (gold class, predicted class) of its official
    /// confusion matrix, in file order.
    pub fn cell(&self, system: usize, gold: usize, predicted: usize) -> Vec<Item> {
        self.items().filter(|&item| self.classes(system, item) == (gold, predicted)).collect()
    }

    /// A placeholder as the window shows it, with up to `context` lines of its document before
    /// and after.
    pub fn example(&self, item: Item, context: usize) -> Example<'_> {
        let line = &self.gold.lines[item.line];
        let placeholder = line.placeholders()[item.slot];
        let document = self.gold.document_of(item.line);
        let around = |range: std::ops::Range<usize>| range.map(|l| filled(&self.gold.lines[l])).collect();
        Example {
            line: item.line,
            document: self.gold.documents.as_ref().map(|d| d[item.line].as_str()),
            source: line.source_tokens().collect(),
            pronoun: pronoun_of(line, placeholder),
            target: shown_target(line, item.slot),
            placeholder: placeholder.token,
            removed: line.words.get(item.slot).map(String::as_str),
            before: around(document.start.max(item.line.saturating_sub(context))..item.line),
            after: around(item.line + 1..document.end.min(item.line + 1 + context)),
        }
    }
}

/// One placeholder in its sentence and document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example<'a> {
    /// The line of the gold file (from 0).
    pub line: usize,
    pub document: Option<&'a str>,
    pub source: Vec<&'a str>,
    /// The source pronoun's positions: the source words aligned to the placeholder, else the
    /// `i` of `REPLACE_<i>`.
    pub pronoun: Vec<usize>,
    /// The target's tokens, its other placeholders filled with the words removed there.
    pub target: Vec<&'a str>,
    /// The placeholder's position in `target`.
    pub placeholder: usize,
    /// The word the gold removed there (`NONE` where the pronoun had none), if the file says.
    pub removed: Option<&'a str>,
    /// The lines of the document before and after, each (source, target) with the placeholders
    /// filled with the words removed.
    pub before: Vec<(String, String)>,
    pub after: Vec<(String, String)>,
}

fn pronoun_of(line: &DataLine, placeholder: Placeholder) -> Vec<usize> {
    let mut aligned: Vec<usize> =
        line.links().unwrap_or_default().into_iter().filter(|&(_, t)| t == placeholder.token).map(|(s, _)| s).collect();
    if aligned.is_empty() && placeholder.index < line.source_tokens().count() {
        aligned.push(placeholder.index);
    }
    aligned.sort_unstable();
    aligned.dedup();
    aligned
}

/// The target's tokens with the placeholders but `slot`'s filled with the words removed
/// (`(none)` for `NONE`, the class where the file does not say).
fn shown_target(line: &DataLine, slot: usize) -> Vec<&str> {
    let mut k = 0;
    line.target_tokens()
        .map(|token| {
            if super::data::placeholder_index(token).is_none() {
                return token;
            }
            k += 1;
            match line.words.get(k - 1).or(line.labels.get(k - 1)).map(String::as_str) {
                _ if k - 1 == slot => token,
                Some("NONE") => "(none)",
                Some(word) => word,
                None => token,
            }
        })
        .collect()
}

/// A line's source and target, the target's placeholders filled with the words removed (their
/// class where the file does not say; nothing for `NONE`).
fn filled(line: &DataLine) -> (String, String) {
    let mut slot = 0;
    let target: Vec<&str> = line
        .target_tokens()
        .filter_map(|token| {
            if super::data::placeholder_index(token).is_none() {
                return Some(token);
            }
            let word = line.words.get(slot).or(line.labels.get(slot)).map_or(token, String::as_str);
            slot += 1;
            (word != "NONE").then_some(word)
        })
        .collect();
    (line.source.clone(), target.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prediction::{Pair, Scorer};

    fn files(dir: &Path, gold: &str, predictions: &[&str]) -> (PathBuf, Vec<PathBuf>) {
        let path = dir.join("set.en-fr.data");
        std::fs::write(&path, gold).unwrap();
        let predictions = predictions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let path = dir.join(format!("sys{i}.pred"));
                std::fs::write(&path, p).unwrap();
                path
            })
            .collect();
        (path, predictions)
    }

    const GOLD: &str = "\t\tA b .\tC d .\t0-0 1-1 2-2\n\
                        il ce\tIl c'\tIt is it .\tREPLACE_0 est REPLACE_2 .\t0-0 1-1 2-2 3-3\n\
                        OTHER\tNONE\tThey went .\tREPLACE_0 partis .\t0-0 1-1 2-2\n\
                        \t\tE f .\tG h .\t0-0\n";

    #[test]
    fn cells_list_their_placeholders_and_examples_show_their_document() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("set.en-fr.doc-ids"), "1\n1\n1\n2\n").unwrap();
        let (gold, predictions) = files(dir.path(), GOLD, &["\nil il\nOTHER\n\n", "\nelle ce\nils\n\n"]);
        let task = Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap();
        let results = Results::load(task, Macro::All, &gold, &predictions).unwrap();
        assert_eq!(results.items().count(), 3);
        let classes = task.classes();
        let (il, ce, other) = (classes.position("il").unwrap(), classes.position("ce").unwrap(), task.other());
        assert_eq!(results.cell(0, ce, il), [Item { line: 1, slot: 1 }]);
        assert_eq!(results.cell(0, il, il), [Item { line: 1, slot: 0 }]);
        assert_eq!(results.cell(1, other, classes.position("ils").unwrap()), [Item { line: 2, slot: 0 }]);
        assert_eq!(results.labels(1, Item { line: 1, slot: 0 }), ("il", "elle"));
        assert!(results.systems[0].scores.official() > results.systems[1].scores.official());

        let example = results.example(Item { line: 1, slot: 1 }, 2);
        assert_eq!((example.placeholder, example.pronoun.clone(), example.removed), (2, vec![2], Some("c'")));
        assert_eq!(example.target, ["Il", "est", "REPLACE_2", "."], "the other placeholder shows its word");
        assert_eq!(example.document, Some("1"));
        assert_eq!(example.before, [("A b .".to_string(), "C d .".to_string())]);
        assert_eq!(
            example.after,
            [("They went .".to_string(), "partis .".to_string())],
            "NONE leaves no word; line 4 is another document"
        );
    }

    #[test]
    fn refused_as_the_scorer_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let (gold, predictions) = files(dir.path(), GOLD, &["\nil il\n"]);
        let task = Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap();
        let err = Results::load(task, Macro::All, &gold, &predictions).unwrap_err().to_string();
        assert!(err.contains("sys0.pred: line 3: missing: the prediction file is shorter"), "{err}");
    }
}
