//! The reference's output files: `STEM.score` (score, cases, weights, findings, confusion
//! matrix) and `STEM.detail` (one tab-separated line per instance).

use super::case::{Case, CaseCounts};
use super::instances::Instance;
use super::matrix::MatrixTable;
use crate::scorers::numbers::{python_fixed4, python2_str};
use std::fmt::Write as _;
use std::io::{self, Write};

/// The first line of a `.detail` file.
pub const DETAIL_HEADER: &str = "SENT.\tPOS. SOURCE\tSOURCE\tPOS. REF.\tREF.\tPOS. TARGET\tTARGET\tCASE\n";

/// One `.detail` line: sentence, source position, source word, then positions and words of the
/// reference and of the candidate (`-` when there is no translation), then the case.
pub fn write_detail(out: &mut dyn Write, instance: &Instance, case: Case) -> io::Result<()> {
    // One buffer per thread, written at once: a line of small `write!` calls through `dyn Write`
    // cost more than the rest of an instance's output. Numbers with `itoa`, not `fmt`'s machinery
    // (a few percent of APT's time at 100×).
    thread_local!(static LINE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) });
    LINE.with_borrow_mut(|line| {
        let mut number = itoa::Buffer::new();
        line.clear();
        line.push_str(number.format(instance.sentence));
        line.push('\t');
        line.push_str(number.format(instance.position));
        line.push('\t');
        line.push_str(&instance.word);
        for side in [&instance.reference, &instance.candidate] {
            match side {
                Some(t) => {
                    line.push('\t');
                    for (i, &p) in t.positions.iter().enumerate() {
                        if i > 0 {
                            line.push(' ');
                        }
                        line.push_str(number.format(p));
                    }
                    for (i, word) in t.words.iter().enumerate() {
                        line.push(if i > 0 { ' ' } else { '\t' });
                        line.push_str(word);
                    }
                    if t.words.is_empty() {
                        line.push('\t');
                    }
                }
                None => line.push_str("\t-\t-"),
            }
        }
        line.push('\t');
        line.push_str(number.format(case.number()));
        line.push('\n');
        out.write_all(line.as_bytes())
    })
}

/// The whole `.score` file.
pub fn score_text(counts: &CaseCounts, matrix: &MatrixTable) -> String {
    let entries = counts.weighting().entries();
    let join = |items: Vec<String>| items.join(",");
    let mut out = String::new();
    let _ = writeln!(out, "Score: {}", python_fixed4(counts.score()));
    let _ = writeln!(out, "Cases: {}", join(entries.iter().map(|(c, _)| c.to_string()).collect()));
    let _ = writeln!(out, "Weights: {}", join(entries.iter().map(|&(_, w)| python2_str(w)).collect()));
    let _ = writeln!(out, "Findings per case: {}", join(counts.per_slot().iter().map(u64::to_string).collect()));
    let _ = writeln!(out, "Total findings: {}", counts.total());
    let _ = writeln!(out, "\t{}", matrix.labels.join("\t"));
    for (label, row) in matrix.labels.iter().zip(&matrix.rows) {
        let cells: Vec<String> = row.iter().map(u64::to_string).collect();
        let _ = writeln!(out, "{label}\t{}", cells.join("\t"));
    }
    out
}
