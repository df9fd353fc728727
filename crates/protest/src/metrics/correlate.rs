//! Correlation between scores: Pearson's r and Spearman's ρ (paper 003 Table 2), and the
//! `protest correlate` table format — CSV with a header row, a label in the first column and
//! numbers in the others (one row per system, one column per metric or human score).

use crate::error::{Error, Result};
use std::fmt::Write as _;
use std::path::Path;

/// Pearson's correlation coefficient (NaN when either side is constant or has < 2 values).
pub fn pearson(x: &[f64], y: &[f64]) -> f64 {
    assert_eq!(x.len(), y.len(), "paired samples");
    let n = x.len() as f64;
    let (mean_x, mean_y) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mean_x, b - mean_y);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    sxy / (sxx * syy).sqrt()
}

/// Spearman's rank correlation: Pearson's r of the ranks, tied values sharing their mean rank.
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    pearson(&ranks(x), &ranks(y))
}

/// 1-based ranks, ascending; tied values get the mean of the ranks they span.
pub fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let tied = |k: usize| values[order[k]].total_cmp(&values[order[start]]).is_eq();
        let end = (start + 1..order.len()).find(|&k| !tied(k)).unwrap_or(order.len());
        let mean = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = mean;
        }
        start = end;
    }
    ranks
}

/// Named numeric columns over labelled rows; `None` where a cell is empty (no value, as the
/// report exports write it).
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreTable {
    pub labels: Vec<String>,
    pub columns: Vec<(String, Vec<Option<f64>>)>,
}

impl ScoreTable {
    /// Reads a CSV file: header row, first column a label, every other cell a number or empty.
    pub fn read(path: &Path) -> Result<ScoreTable> {
        let mut reader =
            csv::ReaderBuilder::new().has_headers(true).trim(csv::Trim::All).from_path(path).map_err(|e| {
                match e.into_kind() {
                    csv::ErrorKind::Io(io) => Error::io(path, io),
                    other => Error::whole_file(path, format!("{other:?}")),
                }
            })?;
        let csv_error = |e: csv::Error| {
            let line = e.position().map_or(0, |p| p.line() as usize);
            Error::at_line(path, line, e.to_string())
        };
        let header = reader.headers().map_err(csv_error)?.clone();
        if header.len() < 3 {
            return Err(Error::at_line(path, 1, "need a label column and at least two numeric columns"));
        }
        let mut table = ScoreTable {
            labels: Vec::new(),
            columns: header.iter().skip(1).map(|name| (name.to_owned(), Vec::new())).collect(),
        };
        for record in reader.records() {
            let record = record.map_err(csv_error)?;
            let line = record.position().map_or(0, |p| p.line() as usize);
            table.labels.push(record.get(0).unwrap_or_default().to_owned());
            for ((name, values), cell) in table.columns.iter_mut().zip(record.iter().skip(1)) {
                let value = match cell {
                    "" => None,
                    _ => Some(cell.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                        Error::at_line(path, line, format!("column {name:?}: {cell:?} is not a number"))
                    })?),
                };
                values.push(value);
            }
        }
        if table.labels.len() < 2 {
            return Err(Error::whole_file(path, "need at least two rows to correlate"));
        }
        Ok(table)
    }

    /// Every pair of columns, in column order, each over the rows where both have a value.
    pub fn correlations(&self) -> Vec<Correlation> {
        let mut all = Vec::new();
        for (i, (a, x)) in self.columns.iter().enumerate() {
            for (b, y) in &self.columns[i + 1..] {
                let (x, y): (Vec<f64>, Vec<f64>) = x.iter().zip(y).filter_map(|(&x, &y)| Some((x?, y?))).unzip();
                all.push(Correlation::of(a, b, &x, &y));
            }
        }
        all
    }
}

/// The correlation of two columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Correlation {
    pub a: String,
    pub b: String,
    /// The pairs of values it is computed over.
    pub n: usize,
    pub pearson: f64,
    pub spearman: f64,
}

impl Correlation {
    /// Pearson and Spearman of `x` against `y`, named `a` and `b`.
    pub fn of(a: &str, b: &str, x: &[f64], y: &[f64]) -> Correlation {
        Correlation { a: a.to_owned(), b: b.to_owned(), n: x.len(), pearson: pearson(x, y), spearman: spearman(x, y) }
    }
}

/// Below this many pairs a correlation says little, and is not shown without a word saying so.
pub const FEW: usize = 5;

/// What a correlation over `n` pairs is worth, where they are fewer than [`FEW`] (and at least
/// two): in how many random orders of `n` values a Spearman of 1 comes by chance.
pub fn few_note(n: usize, what: &str) -> Option<String> {
    (2..FEW).contains(&n).then(|| {
        let orders: usize = (1..=n).product();
        format!(
            "Over {n} {what} only: with fewer than {FEW}, a correlation says little — {n} values in an order drawn at \
             random give a Spearman of 1 one time in {orders}."
        )
    })
}

/// One line per pair: `A  B  n  Pearson  Spearman`, three decimals (– for a constant column or
/// fewer than two rows with both values, as the reports write it); n is the rows with both
/// values. Then a note for each n below [`FEW`], and what – means if there is one.
pub fn report(correlations: &[Correlation]) -> String {
    let width = |f: fn(&Correlation) -> &str| correlations.iter().map(|c| f(c).chars().count()).max().unwrap_or(0);
    let (wa, wb) = (width(|c| &c.a).max(8), width(|c| &c.b).max(8));
    let mut out = format!("{:<wa$}  {:<wb$}  {:>4}  {:>8}  {:>8}\n", "column", "column", "n", "Pearson", "Spearman");
    let number = |x: f64| if x.is_finite() { format!("{x:.3}") } else { "–".to_owned() };
    for c in correlations {
        let (p, s) = (number(c.pearson), number(c.spearman));
        let _ = writeln!(out, "{:<wa$}  {:<wb$}  {:>4}  {p:>8}  {s:>8}", c.a, c.b, c.n);
    }
    let mut few: Vec<usize> = correlations.iter().map(|c| c.n).filter(|&n| n < FEW).collect();
    few.sort_unstable();
    few.dedup();
    for note in few.into_iter().filter_map(|n| few_note(n, "rows")) {
        let _ = writeln!(out, "{note}");
    }
    if correlations.iter().any(|c| !c.pearson.is_finite() || !c.spearman.is_finite()) {
        out += "–: undefined: a column has the same value in every row, or fewer than two rows have both values.\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_003_table_2_first_row() {
        // Table 1: APT-A with alignment heuristics and PROTEST, all nine rows.
        let apt_a = [1.000, 0.544, 0.496, 0.532, 0.528, 0.492, 0.436, 0.364, 0.424];
        let protest = [0.920, 0.660, 0.660, 0.680, 0.636, 0.668, 0.472, 0.576, 0.616];
        assert_eq!(format!("{:.3}", pearson(&apt_a, &protest)), "0.907");
        assert_eq!(format!("{:.3}", spearman(&apt_a, &protest)), "0.778");
    }

    #[test]
    fn ranks_share_ties() {
        assert_eq!(ranks(&[0.5, 0.2, 0.5, 0.9]), [2.5, 1.0, 2.5, 4.0]);
        assert_eq!(ranks(&[]), Vec::<f64>::new());
        // NaN (a system nobody judged) ranks last and never stops the ranking.
        assert_eq!(ranks(&[f64::NAN, 0.1, f64::NAN]), [2.5, 1.0, 2.5]);
        assert!(spearman(&[f64::NAN, 0.1, 0.2], &[0.3, 0.1, 0.2]).is_finite());
    }

    #[test]
    fn perfect_inverse_and_undefined() {
        assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[9.0, 4.0, 1.0]) + 1.0).abs() < 1e-12);
        // Spearman only sees the order: a monotone but curved relation is perfect.
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 8.0, 27.0, 64.0]) - 1.0).abs() < 1e-12);
        assert!(pearson(&[1.0, 1.0], &[1.0, 2.0]).is_nan());
    }

    #[test]
    fn report_layout() {
        let c = [Correlation { a: "APT-A".into(), b: "PROTEST".into(), n: 9, pearson: 0.90705, spearman: f64::NAN }];
        assert_eq!(
            report(&c),
            "column    column       n   Pearson  Spearman\nAPT-A     PROTEST      9     0.907         –\n\
             –: undefined: a column has the same value in every row, or fewer than two rows have both values.\n"
        );
    }

    #[test]
    fn fewer_than_five_say_so() {
        let c = [Correlation::of("APT-A", "PROTEST", &[0.3, 0.5, 0.9], &[0.4, 0.6, 0.8])];
        let text = report(&c);
        assert!(text.contains("PROTEST      3     0.982     1.000\n"), "{text}");
        assert!(
            text.ends_with(
                "Over 3 rows only: with fewer than 5, a correlation says little — 3 values in an order drawn at random \
                 give a Spearman of 1 one time in 6.\n"
            ),
            "{text}"
        );
        assert_eq!(few_note(5, "rows"), None);
        assert!(few_note(4, "translations").unwrap().contains("one time in 24"));
    }
}
