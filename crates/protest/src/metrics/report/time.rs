//! Time per record: the active time each annotator spent per record, per category — the cost of
//! the annotation, as studies report it (docs/domain.md, "Time per record").

use super::layout::{self, Line};
use super::table::{Cell, Column, Row, Table};
use crate::model::{AnnotatorId, Master};

/// The times in milliseconds, per category (master order) and annotator (`annotators` order).
struct Times {
    annotators: Vec<AnnotatorId>,
    /// `[category][annotator]`
    categories: Vec<Vec<Vec<u64>>>,
    /// Records with content but no time (made before time was measured).
    untimed: usize,
}

fn times(master: &Master) -> Times {
    let timed = master.records.iter().filter(|r| r.active_ms.is_some());
    let annotators = super::annotators(master, timed);
    let mut categories = vec![vec![Vec::new(); annotators.len()]; master.categories.len()];
    let mut untimed = 0;
    for r in master.records.iter().filter(|r| !r.is_blank()) {
        let Some(ms) = r.active_ms else {
            untimed += 1;
            continue;
        };
        let category = master.candidate(r.candidate).and_then(|c| master.category_position(c));
        let annotator = annotators.iter().position(|&a| a == r.annotator);
        if let (Some(c), Some(a)) = (category, annotator) {
            categories[c][a].push(ms);
        }
    }
    Times { annotators, categories, untimed }
}

/// The median of `values` (sorted here), `None` for none.
fn median(values: &mut [u64]) -> Option<f64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f64),
        _ => Some((values[n / 2 - 1] + values[n / 2]) as f64 / 2.0),
    }
}

/// Records, median seconds and total minutes of one group of times.
fn cells(values: &[u64]) -> [Cell; 3] {
    let mut sorted = values.to_vec();
    let total: u64 = values.iter().sum();
    [
        Cell::Count(values.len() as u64),
        Cell::number(median(&mut sorted).map(|ms| ms / 1000.0), 1),
        Cell::number((!values.is_empty()).then(|| total as f64 / 60_000.0), 1),
    ]
}

/// The `time` table: per category and annotator, the records with a time, their median active
/// time (seconds) and the total (minutes).
pub fn table(master: &Master) -> Table {
    let t = times(master);
    let names: Vec<String> = t.annotators.iter().map(|&a| master.annotator_name(a)).collect();
    let columns = names
        .iter()
        .flat_map(|n| ["Records", "Median (s)", "Total (min)"].map(|c| Column::new([n.as_str(), c])))
        .collect();
    let row_cells = |per_annotator: &[Vec<u64>]| per_annotator.iter().flat_map(|v| cells(v)).collect::<Vec<_>>();
    let mut rows: Vec<Row> =
        layout::lines(&master.categories).iter().map(|l: &Line| l.row(|i| row_cells(&t.categories[i]))).collect();
    let totals: Vec<Vec<u64>> =
        (0..t.annotators.len()).map(|a| t.categories.iter().flat_map(|c| c[a].iter().copied()).collect()).collect();
    rows.push(Row::total("Total", row_cells(&totals)));
    let mut notes = vec![
        "Active time: while the example was on screen and the annotator at work on it (gaps over 60 s without \
         input not counted), summed over every visit; Records: records with a time."
            .to_owned(),
    ];
    if t.untimed > 0 {
        notes.push(format!(
            "{} records have no time (made before PROTEST measured it, converted or merged from an older batch) and are left out.",
            t.untimed
        ));
    }
    Table {
        name: "time",
        title: "Active time per record".into(),
        label_header: "Category".into(),
        columns,
        rows,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{CandidateId, Judgement};

    #[test]
    fn median_and_total_per_category_and_annotator() {
        let mut m = crate::testing::tiny();
        for (c, annotator, ms) in [(1, 1, Some(4_000)), (2, 1, Some(10_000)), (1, 2, Some(60_000)), (3, 2, None)] {
            crate::testing::judge(&mut m, c, annotator, Judgement::Yes, Judgement::Unset);
            let mut r = m.records.get(CandidateId(c), AnnotatorId(annotator)).unwrap().clone();
            r.active_ms = ms;
            m.records.put(r);
        }
        let t = table(&m);
        let labels: Vec<String> = t.columns.iter().map(Column::flat_label).collect();
        assert_eq!(labels[..3], ["A Records", "A Median (s)", "A Total (min)"]);
        let total = t.rows.last().unwrap();
        let plain: Vec<String> = total.cells.iter().map(Cell::plain).collect();
        // A: 4 s and 10 s (median 7 s, 0.2 min); B: 60 s, and an untimed record left out.
        assert_eq!(plain, ["2", "7.0", "0.2", "1", "60.0", "1.0"]);
        assert!(t.notes[1].starts_with("1 records have no time"), "{:?}", t.notes);
        let empty = t.rows.iter().find(|r| r.label.contains("pleonastic") || r.label.contains("Pleonastic"));
        if let Some(row) = empty.filter(|r| !r.cells.is_empty()) {
            assert_eq!(row.cells[1].plain(), "–", "no time: no median");
        }
    }
}
