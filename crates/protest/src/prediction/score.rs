//! The official scorers' statistics (docs/pronoun-prediction.md#scoring): the confusion matrix of
//! each evaluation, per-class precision, recall and F1, accuracy, micro and macro averages, and
//! the official score — computed in the order and the floating-point operations of the reference
//! scorers, so that every printed digit is theirs. Values are percentages, as they print them.
//!
//! A gold file and a prediction file are read line by line, in step; only the first column of a
//! prediction line is read. [`Counter`] takes the labels of one line at a time and refuses what
//! the scorers refuse ([`Refusal`]).

use super::classes::{ClassSet, Task};
use super::data::{self, gold_labels, prediction_labels};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Which classes the macro average divides over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Macro {
    /// Every class of the pair's list, those absent from the gold included (recall 0): what the
    /// distributed scorers do, and the default.
    #[default]
    All,
    /// Only the classes present in the gold, as the WMT16 findings paper says it averaged.
    Present,
}

impl Macro {
    pub const ALL: [Macro; 2] = [Macro::All, Macro::Present];

    pub fn name(self) -> &'static str {
        match self {
            Macro::All => "all",
            Macro::Present => "present",
        }
    }
}

super::classes::names!(Macro, Macro::name, "macro average");

/// Counts of (gold class, predicted class) pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confusion {
    classes: usize,
    /// Row-major: gold class, then predicted class.
    counts: Vec<u64>,
}

impl Confusion {
    pub fn new(classes: usize) -> Confusion {
        Confusion { classes, counts: vec![0; classes * classes] }
    }

    pub fn classes(&self) -> usize {
        self.classes
    }

    pub fn add(&mut self, gold: usize, predicted: usize) {
        self.counts[gold * self.classes + predicted] += 1;
    }

    pub fn get(&self, gold: usize, predicted: usize) -> u64 {
        self.counts[gold * self.classes + predicted]
    }

    /// How many placeholders of class `c` the gold has (the row's sum).
    pub fn gold(&self, c: usize) -> u64 {
        (0..self.classes).map(|p| self.get(c, p)).sum()
    }

    /// How many placeholders were predicted as `c` (the column's sum).
    pub fn predicted(&self, c: usize) -> u64 {
        (0..self.classes).map(|g| self.get(g, c)).sum()
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    pub fn correct(&self) -> u64 {
        (0..self.classes).map(|c| self.get(c, c)).sum()
    }
}

/// One class's results, percentages as the scorers compute them (0 where undefined).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassScore {
    pub correct: u64,
    pub predicted: u64,
    pub gold: u64,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Averages {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

/// The results of one class set: what the scorers print for one evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub classes: &'static ClassSet,
    pub confusion: Confusion,
    pub per_class: Vec<ClassScore>,
    /// 100 × correct / total.
    pub accuracy: f64,
    pub micro: Averages,
    pub macro_: Averages,
    /// The classes the macro average divides over: every class, or those present in the gold.
    pub averaged: Vec<usize>,
}

/// `100 · part / whole`, 0 where `whole` is 0, as the scorers compute it.
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { 100.0 * part as f64 / whole as f64 }
}

fn f1(p: f64, r: f64) -> f64 {
    if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) }
}

impl Evaluation {
    /// The statistics of `confusion` (which has at least one placeholder).
    pub fn new(classes: &'static ClassSet, confusion: Confusion, averaging: Macro) -> Evaluation {
        let per_class: Vec<ClassScore> = (0..classes.len())
            .map(|c| {
                let (correct, predicted, gold) = (confusion.get(c, c), confusion.predicted(c), confusion.gold(c));
                let (precision, recall) = (percent(correct, predicted), percent(correct, gold));
                ClassScore { correct, predicted, gold, precision, recall, f1: f1(precision, recall) }
            })
            .collect();
        let averaged: Vec<usize> =
            (0..classes.len()).filter(|&c| averaging == Macro::All || per_class[c].gold > 0).collect();
        // Summed in class order and then divided, as the scorers do: the same last digits.
        let (mut p, mut r, mut f) = (0.0, 0.0, 0.0);
        for &c in &averaged {
            p += per_class[c].precision;
            r += per_class[c].recall;
            f += per_class[c].f1;
        }
        let n = averaged.len() as f64;
        let macro_ = Averages { precision: p / n, recall: r / n, f1: f / n };
        let sum = |field: fn(&ClassScore) -> u64| per_class.iter().map(field).sum::<u64>();
        let correct = sum(|s| s.correct);
        let (micro_p, micro_r) = (percent(correct, sum(|s| s.predicted)), percent(correct, sum(|s| s.gold)));
        let micro = Averages { precision: micro_p, recall: micro_r, f1: f1(micro_p, micro_r) };
        let accuracy = percent(confusion.correct(), confusion.total());
        Evaluation { classes, confusion, per_class, accuracy, micro, macro_, averaged }
    }
}

/// A prediction file's scores: each evaluation of the task and the official score.
#[derive(Debug, Clone, PartialEq)]
pub struct Scores {
    pub task: Task,
    pub averaging: Macro,
    /// In the report's order (DiscoMT 2015: coarse, then fine).
    pub evaluations: Vec<Evaluation>,
}

impl Scores {
    /// The evaluation of the official score (DiscoMT 2015: the fine one).
    pub fn official_evaluation(&self) -> &Evaluation {
        self.evaluations.last().expect("every task has an evaluation")
    }

    /// The official score: DiscoMT 2015 the fine-grained macro-averaged F1, WMT16/17 the
    /// macro-averaged recall (a percentage).
    pub fn official(&self) -> f64 {
        let averages = &self.official_evaluation().macro_;
        match self.task.scorer {
            super::Scorer::Discomt2015 => averages.f1,
            super::Scorer::Wmt16 => averages.recall,
        }
    }

    /// The accuracy of the official evaluation (a percentage).
    pub fn accuracy(&self) -> f64 {
        self.official_evaluation().accuracy
    }

    /// The labels of lines given one by one, gold first: the scores, or the first refusal with
    /// the 1-based number of its line. The files named in errors are `gold` and `predicted`.
    pub fn of_lines<G: AsRef<str>, P: AsRef<str>>(
        task: Task,
        averaging: Macro,
        (gold, predicted): (&Path, &Path),
        lines: impl IntoIterator<Item = (G, P)>,
    ) -> Result<Scores> {
        let mut counter = Counter::new(task);
        let mut count = 0;
        for (n, (g, p)) in lines.into_iter().enumerate() {
            counter.add(g.as_ref(), p.as_ref()).map_err(|r| r.error(gold, predicted, n + 1))?;
            count = n + 1;
        }
        counter.finish(averaging).map_err(|r| r.error(gold, predicted, count))
    }
}

/// What the scorers stop on, found on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A gold line not of five columns with the 3rd to 5th filled.
    GoldLayout,
    /// The prediction file has no line where the gold has one.
    PredictionsShorter,
    GoldEmpty {
        predicted: String,
    },
    PredictedEmpty {
        gold: String,
    },
    /// A label not among the task's words.
    GoldLabel(String),
    PredictedLabel(String),
    LabelCounts {
        gold: usize,
        predicted: usize,
    },
    /// Nothing to score: the gold has no label at all.
    NoPlaceholders,
}

impl Refusal {
    /// The refusal as an error naming the file at fault and the line (1-based).
    pub fn error(&self, gold: &Path, predicted: &Path, line: usize) -> Error {
        let at = |path: &Path, message: String| Error::at_line(path, line, message);
        match self {
            Refusal::GoldLayout => at(
                gold,
                "wrong file format for a gold file: five tab-separated columns are needed, the 3rd to 5th not empty"
                    .into(),
            ),
            Refusal::PredictionsShorter => {
                at(predicted, format!("missing: the prediction file is shorter than the gold file {}", gold.display()))
            }
            Refusal::GoldEmpty { predicted: p } => {
                at(predicted, format!("the gold label is empty, but the predicted label is not: {}", shown(p)))
            }
            Refusal::PredictedEmpty { gold: g } => {
                at(predicted, format!("the predicted label is empty, but the gold label is not: {}", shown(g)))
            }
            Refusal::GoldLabel(label) => at(gold, format!("wrong file format: the gold label is '{}'", shown(label))),
            Refusal::PredictedLabel(label) => {
                at(predicted, format!("wrong file format: the predicted label is '{}'", shown(label)))
            }
            Refusal::LabelCounts { gold: g, predicted: p } => {
                at(predicted, format!("different number of labels in the gold ({g}) and in the predictions file ({p})"))
            }
            Refusal::NoPlaceholders => {
                Error::whole_file(gold, "no line has a gold label: there is nothing to score".to_string())
            }
        }
    }
}

/// A label as a message shows it: its first 100 characters (a line may be a megabyte).
fn shown(label: &str) -> String {
    match label.char_indices().nth(100) {
        Some((at, _)) => format!("{}… ({} bytes)", &label[..at], label.len()),
        None => label.to_owned(),
    }
}

/// Counts the labels of a gold and a prediction file line by line, for every evaluation of a task.
#[derive(Debug, Clone)]
pub struct Counter {
    task: Task,
    /// The task's words, each packed into an integer ([`packed`]): comparing a label's words
    /// with them is most of the work on a large file.
    words: Vec<u64>,
    /// For each evaluation, the class each word is counted as.
    classes_of: Vec<Vec<usize>>,
    confusions: Vec<Confusion>,
    gold: Vec<usize>,
    predicted: Vec<usize>,
}

impl Counter {
    pub fn new(task: Task) -> Counter {
        let words: Vec<&'static str> = task.words().collect();
        let evaluations = task.evaluations();
        let classes_of = evaluations
            .iter()
            .map(|set| {
                words.iter().map(|w| set.class_of(w).expect("every evaluation counts the task's words")).collect()
            })
            .collect();
        let confusions = evaluations.iter().map(|set| Confusion::new(set.len())).collect();
        let words = words.iter().map(|w| packed(w.as_bytes()).expect("the task's words are short")).collect();
        Counter { task, words, classes_of, confusions, gold: Vec::new(), predicted: Vec::new() }
    }

    /// Counts one line's labels: the gold line's first column and the prediction line's. The
    /// checks are the scorers', in their order.
    pub fn add(&mut self, gold: &str, predicted: &str) -> Result<(), Refusal> {
        match (gold.is_empty(), predicted.is_empty()) {
            (true, true) => return Ok(()),
            (true, false) => return Err(Refusal::GoldEmpty { predicted: predicted.into() }),
            (false, true) => return Err(Refusal::PredictedEmpty { gold: gold.into() }),
            (false, false) => {}
        }
        if !read_words(&self.words, gold, &mut self.gold) {
            return Err(Refusal::GoldLabel(gold.into()));
        }
        if !read_words(&self.words, predicted, &mut self.predicted) {
            return Err(Refusal::PredictedLabel(predicted.into()));
        }
        if self.gold.len() != self.predicted.len() {
            return Err(Refusal::LabelCounts { gold: self.gold.len(), predicted: self.predicted.len() });
        }
        for (confusion, classes) in self.confusions.iter_mut().zip(&self.classes_of) {
            for (&g, &p) in self.gold.iter().zip(&self.predicted) {
                confusion.add(classes[g], classes[p]);
            }
        }
        Ok(())
    }

    /// The scores of the lines counted; refused if they had no label.
    pub fn finish(self, averaging: Macro) -> Result<Scores, Refusal> {
        if self.confusions[0].total() == 0 {
            return Err(Refusal::NoPlaceholders);
        }
        let evaluations = self
            .task
            .evaluations()
            .iter()
            .zip(self.confusions)
            .map(|(set, confusion)| Evaluation::new(set, confusion, averaging))
            .collect();
        Ok(Scores { task: self.task, averaging, evaluations })
    }
}

/// The positions among `words` (packed) of the space-separated words of `label`, into `out`;
/// false if a word is not among them (or two spaces meet).
fn read_words(words: &[u64], label: &str, out: &mut Vec<usize>) -> bool {
    out.clear();
    // Split as bytes: a label is a few bytes, and a string searcher costs more to set up.
    for word in label.as_bytes().split(|&b| b == b' ') {
        match packed(word).and_then(|p| words.iter().position(|&w| w == p)) {
            Some(i) => out.push(i),
            None => return false,
        }
    }
    true
}

/// A word of one to eight bytes as one integer (its bytes, zero-padded: no word has a zero
/// byte, so two words are equal exactly when their integers are); `None` for other words.
fn packed(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() || bytes.len() > 8 {
        return None;
    }
    // Byte by byte: a copy or a search of a length not known at compile time is a call, dearer
    // than the work on a word of a few bytes.
    bytes.iter().rev().try_fold(0, |word, &b| (b != 0).then(|| word << 8 | u64::from(b)))
}

/// Scores each prediction file against the gold file, reading them all in step, once. Extra
/// prediction lines are ignored, as by the scorers.
pub fn score_files(task: Task, averaging: Macro, gold: &Path, predictions: &[PathBuf]) -> Result<Vec<Scores>> {
    let mut gold_lines = data::open_data(gold)?;
    let mut readers = predictions.iter().map(|p| data::open_lines(p)).collect::<Result<Vec<_>>>()?;
    let mut counters = vec![Counter::new(task); predictions.len()];
    while gold_lines.advance()? {
        let line = gold_lines.line_number();
        let Some(label) = gold_labels(gold_lines.line(), gold_lines.separators(), gold_lines.terminated()) else {
            return Err(Refusal::GoldLayout.error(gold, &predictions[0], line));
        };
        for ((reader, counter), path) in readers.iter_mut().zip(&mut counters).zip(predictions) {
            if !reader.advance()? {
                return Err(Refusal::PredictionsShorter.error(gold, path, line));
            }
            counter.add(label, prediction_labels(reader.line())).map_err(|r| r.error(gold, path, line))?;
        }
    }
    let last = gold_lines.line_number();
    counters
        .into_iter()
        .zip(predictions)
        .map(|(counter, path)| counter.finish(averaging).map_err(|r| r.error(gold, path, last)))
        .collect()
}

/// The labels (first column) of each line of a prediction file.
pub fn read_prediction_labels(path: &Path) -> Result<Vec<String>> {
    let mut reader = data::open_lines(path)?;
    let mut labels = Vec::new();
    while let Some(line) = reader.next_line()? {
        labels.push(prediction_labels(line).to_owned());
    }
    Ok(labels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prediction::{Pair, Scorer};

    fn en_de() -> Task {
        Task::new(Scorer::Wmt16, Pair::EnDe).unwrap()
    }

    #[test]
    fn counts_and_percentages_by_hand() {
        // gold er er es OTHER, predicted er es es NONE (→ OTHER)
        let lines = [("er er", "er es"), ("es", "es"), ("OTHER", "NONE"), ("", "")];
        let p = Path::new("p");
        let scores = Scores::of_lines(en_de(), Macro::All, (p, p), lines).unwrap();
        let e = &scores.evaluations[0];
        assert_eq!(e.confusion.total(), 4);
        assert_eq!((e.confusion.get(0, 0), e.confusion.get(0, 2), e.confusion.get(4, 4)), (1, 1, 1));
        assert_eq!(
            e.per_class[0],
            ClassScore {
                correct: 1,
                predicted: 1,
                gold: 2,
                precision: 100.0,
                recall: 50.0,
                f1: 2.0 * 100.0 * 50.0 / 150.0
            }
        );
        assert_eq!((e.per_class[2].precision, e.per_class[2].recall), (50.0, 100.0));
        assert_eq!(e.accuracy, 75.0);
        // Five classes, `sie` and `man` absent: recall (50 + 0 + 100 + 0 + 100) / 5.
        assert_eq!(scores.official(), 50.0);
        let present = Scores::of_lines(en_de(), Macro::Present, (p, p), lines).unwrap();
        assert_eq!(present.evaluations[0].averaged, [0, 2, 4]);
        assert_eq!(present.official(), 250.0 / 3.0);
    }

    #[test]
    fn refusals_in_the_scorers_order() {
        let mut c = Counter::new(en_de());
        assert_eq!(c.add("", "er"), Err(Refusal::GoldEmpty { predicted: "er".into() }));
        assert_eq!(c.add("er", ""), Err(Refusal::PredictedEmpty { gold: "er".into() }));
        assert_eq!(c.add("il", "xx"), Err(Refusal::GoldLabel("il".into())));
        assert_eq!(c.add("er  es", "er"), Err(Refusal::GoldLabel("er  es".into())));
        assert_eq!(c.add("er es", "xx"), Err(Refusal::PredictedLabel("xx".into())));
        assert_eq!(c.add("er", "es\0"), Err(Refusal::PredictedLabel("es\0".into())), "not es");
        assert_eq!(c.add("er", "OTHERWISE"), Err(Refusal::PredictedLabel("OTHERWISE".into())));
        assert_eq!(c.add("er es", "er"), Err(Refusal::LabelCounts { gold: 2, predicted: 1 }));
        assert_eq!(c.clone().finish(Macro::All).unwrap_err(), Refusal::NoPlaceholders);
        assert_eq!(c.add("er", "NONE"), Ok(()));
    }

    #[test]
    fn refusals_name_the_file_at_fault_and_the_line() {
        let (g, p) = (Path::new("gold.data"), Path::new("pred.data"));
        let at = |r: Refusal| r.error(g, p, 7).to_string();
        assert!(at(Refusal::GoldLayout).starts_with("gold.data: line 7: wrong file format"));
        assert_eq!(
            at(Refusal::PredictionsShorter),
            "pred.data: line 7: missing: the prediction file is shorter than the gold file gold.data"
        );
        assert_eq!(at(Refusal::GoldLabel("x".into())), "gold.data: line 7: wrong file format: the gold label is 'x'");
        assert_eq!(
            at(Refusal::PredictedLabel("x".into())),
            "pred.data: line 7: wrong file format: the predicted label is 'x'"
        );
        assert_eq!(at(Refusal::NoPlaceholders), "gold.data: no line has a gold label: there is nothing to score");
        let long = at(Refusal::PredictedLabel("il ".repeat(300_000)));
        assert_eq!(
            long,
            format!(
                "pred.data: line 7: wrong file format: the predicted label is '{}… (900000 bytes)'",
                "il ".repeat(34).chars().take(100).collect::<String>()
            )
        );
    }
}
