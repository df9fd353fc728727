//! The scores as report tables (rendered by `metrics::report::Format` like every other report):
//! the systems ranked by the official score, and for each system and evaluation the confusion
//! matrix and the per-class results. Values are percentages, as the scorers give them.

use super::score::{Evaluation, Macro, Scores};
use crate::metrics::report::{Cell, Column, Row, Table};

/// Decimals shown in text, Markdown and LaTeX (the scorers print two).
const DECIMALS: usize = 2;

fn percent(value: f64) -> Cell {
    Cell::number(Some(value), DECIMALS)
}

/// Every table of `systems` (each a prediction file's name and scores, all of one task): the
/// ranking, then each system's confusion matrices and per-class results.
pub fn tables(systems: &[(String, Scores)]) -> Vec<Table> {
    let mut tables = vec![ranking(systems)];
    for (name, scores) in systems {
        for evaluation in &scores.evaluations {
            tables.push(confusion(name, evaluation));
            tables.push(classes(name, evaluation));
        }
    }
    tables
}

/// The systems in order of the official score, best first (ties in the order given), with
/// accuracy and the macro averages of the official evaluation.
pub fn ranking(systems: &[(String, Scores)]) -> Table {
    let mut order: Vec<&(String, Scores)> = systems.iter().collect();
    order.sort_by(|a, b| b.1.official().total_cmp(&a.1.official()));
    let first = systems.first().map(|(_, s)| s);
    let measure = first.map_or("official score", |s| s.task.scorer.official_measure());
    let rows = order
        .iter()
        .enumerate()
        .map(|(rank, (name, scores))| {
            let e = scores.official_evaluation();
            Row::data(
                0,
                name.clone(),
                vec![
                    Cell::Count(rank as u64 + 1),
                    percent(scores.official()),
                    percent(scores.accuracy()),
                    percent(e.macro_.precision),
                    percent(e.macro_.recall),
                    percent(e.macro_.f1),
                    Cell::Count(e.confusion.total()),
                ],
            )
        })
        .collect();
    let mut notes = vec![format!("Ranked by the official score: the {measure}; values in %.")];
    if let Some(scores) = first {
        notes.push(averaging_note(scores));
    }
    Table {
        name: "ranking",
        title: match first {
            Some(s) => format!("Official scores ({}, {})", s.task.scorer, s.task.pair),
            None => "Official scores".into(),
        },
        label_header: "System".into(),
        columns: ["Rank", "Official", "Accuracy", "Macro P", "Macro R", "Macro F1", "Placeholders"]
            .into_iter()
            .map(|c| Column::new([c]))
            .collect(),
        rows,
        notes,
    }
}

fn averaging_note(scores: &Scores) -> String {
    match scores.averaging {
        Macro::All => "Macro averages over every class of the pair, as the official scorer.".into(),
        Macro::Present => "Macro averages over the classes present in the gold (the WMT16 findings paper).".into(),
    }
}

fn evaluation_title(what: &str, name: &str, e: &Evaluation) -> String {
    match e.classes.title {
        "" => format!("{what}: {name}"),
        title => format!("{what}: {name} ({} classes)", title.to_lowercase()),
    }
}

/// Rows: the gold classes; columns: the predicted classes; sums of both.
pub fn confusion(name: &str, e: &Evaluation) -> Table {
    let n = e.classes.len();
    let mut rows: Vec<Row> = (0..n)
        .map(|g| {
            let cells = (0..n).map(|p| Cell::Count(e.confusion.get(g, p))).chain([Cell::Count(e.confusion.gold(g))]);
            Row::data(0, e.classes.classes[g], cells.collect())
        })
        .collect();
    let sums = (0..n).map(|p| Cell::Count(e.confusion.predicted(p))).chain([Cell::Count(e.confusion.total())]);
    rows.push(Row::total("Sum", sums.collect()));
    Table {
        name: "confusion",
        title: evaluation_title("Confusion matrix", name, e),
        label_header: "Gold \\ predicted".into(),
        columns: e.classes.classes.iter().copied().chain(["Sum"]).map(|c| Column::new([c])).collect(),
        rows,
        notes: vec!["Rows: the gold class; columns: the predicted class.".into()],
    }
}

/// Each class's counts, precision, recall and F1, then accuracy and the micro and macro averages.
pub fn classes(name: &str, e: &Evaluation) -> Table {
    let mut rows: Vec<Row> = e
        .per_class
        .iter()
        .zip(e.classes.classes)
        .map(|(s, class)| {
            let counts = [s.gold, s.predicted, s.correct].map(Cell::Count);
            Row::data(0, *class, counts.into_iter().chain([s.precision, s.recall, s.f1].map(percent)).collect())
        })
        .collect();
    let (correct, total) = (e.confusion.correct(), e.confusion.total());
    let counts = || [total, total, correct].map(Cell::Count);
    rows.push(Row::total(
        "Micro-average",
        counts().into_iter().chain([e.micro.precision, e.micro.recall, e.micro.f1].map(percent)).collect(),
    ));
    let macro_cells = [Cell::Empty, Cell::Empty, Cell::Empty].into_iter();
    rows.push(Row::total(
        "Macro-average",
        macro_cells.chain([e.macro_.precision, e.macro_.recall, e.macro_.f1].map(percent)).collect(),
    ));
    rows.push(Row::total(
        "Accuracy",
        counts().into_iter().chain([Cell::Empty, Cell::Empty, percent(e.accuracy)]).collect(),
    ));
    let averaged = match e.averaged.len() {
        n if n == e.classes.len() => format!("Macro averages over all {n} classes of the pair."),
        n => format!("Macro averages over the {n} of {} classes present in the gold.", e.classes.len()),
    };
    Table {
        name: "classes",
        title: evaluation_title("Results per class", name, e),
        label_header: "Class".into(),
        columns: ["Gold", "Predicted", "Correct", "Precision", "Recall", "F1"]
            .into_iter()
            .map(|c| Column::new([c]))
            .collect(),
        rows,
        notes: vec![averaged, "Precision, recall and F1 in %, 0 where undefined (as the official scorers).".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prediction::{Pair, Scorer, Task};
    use std::path::Path;

    fn scores(lines: &[(&str, &str)], averaging: Macro) -> Scores {
        let task = Task::new(Scorer::Wmt16, Pair::EnDe).unwrap();
        Scores::of_lines(task, averaging, (Path::new("g"), Path::new("p")), lines.iter().copied()).unwrap()
    }

    #[test]
    fn systems_ranked_by_the_official_score() {
        let weak = scores(&[("er es", "es es"), ("sie", "er")], Macro::All);
        let strong = scores(&[("er es", "er es"), ("sie", "er")], Macro::All);
        let table = ranking(&[("weak".into(), weak.clone()), ("strong".into(), strong.clone())]);
        let labels: Vec<_> = table.rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["strong", "weak"]);
        assert_eq!(table.rows[0].cells[1], percent(strong.official()));
        assert_eq!(table.rows[1].cells[0], Cell::Count(2));
        assert_eq!(table.rows[1].cells[6], Cell::Count(3));
        assert!(table.title.contains("wmt16, en-de"), "{}", table.title);
    }

    #[test]
    fn confusion_and_classes_tables() {
        let s = scores(&[("er es", "es es"), ("sie", "NONE")], Macro::Present);
        let e = &s.evaluations[0];
        let matrix = confusion("sys", e);
        assert_eq!(matrix.columns.len(), 6);
        assert_eq!(matrix.rows[0].cells, [0, 0, 1, 0, 0, 1].map(Cell::Count));
        assert_eq!(matrix.rows[1].cells[4], Cell::Count(1), "sie predicted NONE counts as OTHER");
        assert_eq!(matrix.rows.last().unwrap().cells[5], Cell::Count(3));
        let per_class = classes("sys", e);
        assert_eq!(per_class.rows[2].cells[..3], [1, 2, 1].map(Cell::Count));
        assert_eq!(per_class.rows[2].cells[3], percent(50.0));
        assert!(per_class.notes[0].contains("the 3 of 5 classes present"), "{:?}", per_class.notes);
        assert_eq!(tables(&[("sys".into(), s)]).len(), 3);
    }
}
