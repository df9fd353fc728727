//! Plain text for the terminal: aligned columns, grouped headers centred over their columns,
//! headings indented, rules under the header and above totals, notes underneath.

use super::super::table::{Cell, RowKind, Table};
use unicode_width::UnicodeWidthStr;

const GAP: usize = 2;
/// Extra space before each top-level column group, so groups stand apart.
const GROUP_GAP: usize = 2;
const INDENT: usize = 2;
/// Notes wrap at the table's width, but no narrower than this.
const NOTE_WIDTH: usize = 100;

fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

fn pad(s: &str, to: usize, right: bool) -> String {
    let fill = " ".repeat(to.saturating_sub(width(s)));
    if right { format!("{fill}{s}") } else { format!("{s}{fill}") }
}

fn centre(s: &str, to: usize) -> String {
    let left = to.saturating_sub(width(s)) / 2;
    pad(&format!("{}{s}", " ".repeat(left)), to, false)
}

pub fn render(table: &Table) -> String {
    let headers = table.header_lines();
    let label_width = table
        .rows
        .iter()
        .map(|r| INDENT * r.depth + width(&r.label))
        .chain([width(&table.label_header)])
        .max()
        .unwrap_or(0);
    let mut widths: Vec<usize> = (0..table.columns.len())
        .map(|i| table.rows.iter().filter_map(|r| r.cells.get(i)).map(|c| width(&c.plain())).max().unwrap_or(0))
        .collect();
    // The space before each column: wider where a top-level group starts.
    let gaps: Vec<usize> = (0..table.columns.len())
        .map(|i| {
            let starts_group = headers.len() > 1 && headers[0].iter().any(|s| s.start == i && s.label.is_some());
            GAP + if starts_group && i > 0 { GROUP_GAP } else { 0 }
        })
        .collect();
    let span_width = |widths: &[usize], start: usize, len: usize| {
        widths[start..start + len].iter().sum::<usize>() + gaps[start + 1..start + len].iter().sum::<usize>()
    };
    // A header wider than its columns widens them evenly.
    for span in headers.iter().flatten() {
        let missing = span.label.as_deref().map_or(0, width).saturating_sub(span_width(&widths, span.start, span.len));
        for (i, w) in widths[span.start..span.start + span.len].iter_mut().enumerate() {
            *w += missing / span.len + usize::from(i < missing % span.len);
        }
    }
    let total_width = label_width + widths.iter().zip(&gaps).map(|(w, g)| w + g).sum::<usize>();
    let rule = "─".repeat(total_width);
    let mut lines = vec![table.title.clone()];
    for (level, spans) in headers.iter().enumerate() {
        let own = level + 1 == headers.len();
        let mut line = pad(if own { &table.label_header } else { "" }, label_width, false);
        for span in spans {
            let label = span.label.as_deref().unwrap_or("");
            let w = span_width(&widths, span.start, span.len);
            line.push_str(&" ".repeat(gaps[span.start]));
            line.push_str(&if own { pad(label, w, true) } else { centre(label, w) });
        }
        lines.push(line);
    }
    lines.push(rule.clone());
    for row in &table.rows {
        if row.kind == RowKind::Total {
            lines.push(rule.clone());
        }
        let mut line = pad(&format!("{}{}", " ".repeat(INDENT * row.depth), row.label), label_width, false);
        for ((cell, &w), &gap) in row.cells.iter().zip(&widths).zip(&gaps) {
            line.push_str(&" ".repeat(gap));
            line.push_str(&pad(&cell.plain(), w, Cell::is_numeric(cell)));
        }
        lines.push(line);
    }
    if !table.notes.is_empty() {
        lines.push(String::new());
        let wrap_at = total_width.max(NOTE_WIDTH);
        let options = textwrap::Options::new(wrap_at).word_splitter(textwrap::WordSplitter::NoHyphenation);
        lines.extend(table.notes.iter().flat_map(|n| textwrap::wrap(n, &options)).map(|l| l.into_owned()));
    }
    lines.iter().map(|l| format!("{}\n", l.trim_end())).collect()
}

#[cfg(test)]
mod tests {
    use crate::metrics::report::table::tests::sample;

    #[test]
    fn aligned_columns_with_grouped_headers() {
        let text = super::render(&sample());
        let expected = "\
Sample
                            Pronoun    Antecedent
                             A    B        A
Category           Count    ✓  ✗  ✓             ✓
─────────────────────────────────────────────────
Anaphoric
  Inter “it”
    Subject            3    2  1  3             3
  Singular “they”      0    1  2  3             4
Pleonastic             1    1  1  1             –
─────────────────────────────────────────────────
Total                  9    9  9  9             9

A note.
";
        assert_eq!(text, expected, "\n{text}");
    }
}
