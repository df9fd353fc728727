//! A report table as plain data: rows of values under (possibly grouped) column headers. The
//! renderers in `super::render` and the GUI draw it; nothing here knows about output formats.

/// One value of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing to show (the value columns of a heading row).
    Empty,
    /// The column does not apply to the row, like the antecedent of a pleonastic pronoun: "–".
    NotApplicable,
    Count(u64),
    /// A measurement with fixed decimals; `None` when it is undefined (shown as "–").
    Number {
        value: Option<f64>,
        decimals: usize,
    },
    Text(String),
}

impl Cell {
    pub fn number(value: Option<f64>, decimals: usize) -> Cell {
        Cell::Number { value, decimals }
    }

    /// The value as plain text, "–" where there is none to give.
    pub fn plain(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::NotApplicable | Cell::Number { value: None, .. } => "–".into(),
            Cell::Count(n) => n.to_string(),
            Cell::Number { value: Some(v), decimals } => format!("{v:.decimals$}"),
            Cell::Text(t) => t.clone(),
        }
    }

    /// The value for data files (CSV, JSON): like [`Cell::plain`], but empty where there is no
    /// value, and a measurement at full precision — the shortest decimal that reads back as the
    /// same number — so that what is computed from an export (`protest correlate`) is what the
    /// report computed. Text, Markdown and LaTeX round to the table's decimals.
    pub fn data(&self) -> String {
        match self {
            Cell::NotApplicable | Cell::Number { value: None, .. } => String::new(),
            Cell::Number { value: Some(v), .. } => v.to_string(),
            other => other.plain(),
        }
    }

    pub fn is_numeric(&self) -> bool {
        !matches!(self, Cell::Text(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A group title such as "Anaphoric"; its cells are empty.
    Heading,
    Data,
    /// A sum over the rows above; drawn after a rule.
    Total,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub kind: RowKind,
    /// Nesting under the headings above: 0 at the top level.
    pub depth: usize,
    pub label: String,
    /// One per column; empty for headings.
    pub cells: Vec<Cell>,
}

impl Row {
    pub fn heading(depth: usize, label: impl Into<String>) -> Row {
        Row { kind: RowKind::Heading, depth, label: label.into(), cells: Vec::new() }
    }

    pub fn data(depth: usize, label: impl Into<String>, cells: Vec<Cell>) -> Row {
        Row { kind: RowKind::Data, depth, label: label.into(), cells }
    }

    pub fn total(label: impl Into<String>, cells: Vec<Cell>) -> Row {
        Row { kind: RowKind::Total, depth: 0, label: label.into(), cells }
    }
}

/// A value column, named by its header path from the outermost group to its own label, e.g.
/// `["Pronoun", "Annotator A", "✓"]`. Neighbouring columns that share a group share its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub path: Vec<String>,
}

impl Column {
    pub fn new<S: Into<String>>(path: impl IntoIterator<Item = S>) -> Column {
        Column { path: path.into_iter().map(Into::into).collect() }
    }

    /// The path down to header line `level` of `depth` lines (paths are aligned at the bottom),
    /// or `None` where this column's path starts lower.
    fn path_down_to(&self, level: usize, depth: usize) -> Option<&[String]> {
        let offset = depth - self.path.len();
        (level >= offset).then(|| &self.path[..=level - offset])
    }

    /// The whole path on one line, for formats without grouped headers.
    pub fn flat_label(&self) -> String {
        self.path.join(" ")
    }
}

/// A header cell spanning `len` columns from `start`; `label` is `None` where a column has no
/// group at this level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub label: Option<String>,
    pub start: usize,
    pub len: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The table's name for `--table` and file names, e.g. `results`.
    pub name: &'static str,
    pub title: String,
    /// Header of the row-label column.
    pub label_header: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// Sentences printed under the table: how numbers were obtained, which rule was used.
    pub notes: Vec<String>,
}

impl Table {
    /// Number of header lines: the longest column path.
    pub fn header_depth(&self) -> usize {
        self.columns.iter().map(|c| c.path.len()).max().unwrap_or(1).max(1)
    }

    /// The header cells of each header line, top first. Paths are aligned at the bottom, so every
    /// column's own label is on the last line; groups of neighbouring columns merge above.
    pub fn header_lines(&self) -> Vec<Vec<Span>> {
        let depth = self.header_depth();
        (0..depth)
            .map(|level| {
                let mut spans: Vec<Span> = Vec::new();
                let mut previous = None;
                for (i, column) in self.columns.iter().enumerate() {
                    let k = column.path_down_to(level, depth);
                    let own_label = level == depth - 1;
                    match spans.last_mut() {
                        Some(span) if !own_label && k.is_some() && k == previous => span.len += 1,
                        _ => spans.push(Span { label: k.and_then(|p| p.last().cloned()), start: i, len: 1 }),
                    }
                    previous = k;
                }
                spans
            })
            .collect()
    }

    /// Each row's label preceded by the headings it sits under, joined by " / " — a row label
    /// that stands on its own (for CSV).
    pub fn full_labels(&self) -> Vec<String> {
        let mut headings: Vec<&str> = Vec::new();
        self.rows
            .iter()
            .map(|row| {
                headings.truncate(row.depth);
                let label = headings.iter().copied().chain([row.label.as_str()]).collect::<Vec<_>>().join(" / ");
                if row.kind == RowKind::Heading {
                    headings.push(&row.label);
                }
                label
            })
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small table with grouped headers, nested headings, a – and a total.
    pub fn sample() -> Table {
        Table {
            name: "sample",
            title: "Sample".into(),
            label_header: "Category".into(),
            columns: vec![
                Column::new(["Count"]),
                Column::new(["Pronoun", "A", "✓"]),
                Column::new(["Pronoun", "A", "✗"]),
                Column::new(["Pronoun", "B", "✓"]),
                Column::new(["Antecedent", "A", "✓"]),
            ],
            rows: vec![
                Row::heading(0, "Anaphoric"),
                Row::heading(1, "Inter “it”"),
                Row::data(
                    2,
                    "Subject",
                    vec![Cell::Count(3), Cell::Count(2), Cell::Count(1), Cell::Count(3), Cell::Count(3)],
                ),
                Row::data(1, "Singular “they”", (0..5).map(Cell::Count).collect()),
                Row::data(0, "Pleonastic", vec![Cell::Count(1); 4].into_iter().chain([Cell::NotApplicable]).collect()),
                Row::total("Total", vec![Cell::Count(9); 5]),
            ],
            notes: vec!["A note.".into()],
        }
    }

    #[test]
    fn header_lines_merge_groups_bottom_aligned() {
        let lines = sample().header_lines();
        let span = |label: Option<&str>, start, len| Span { label: label.map(String::from), start, len };
        assert_eq!(lines[0], [span(None, 0, 1), span(Some("Pronoun"), 1, 3), span(Some("Antecedent"), 4, 1)]);
        assert_eq!(lines[1], [span(None, 0, 1), span(Some("A"), 1, 2), span(Some("B"), 3, 1), span(Some("A"), 4, 1)]);
        let own: Vec<_> = lines[2].iter().map(|s| (s.label.clone().unwrap(), s.len)).collect();
        assert_eq!(own, [("Count".into(), 1), ("✓".into(), 1), ("✗".into(), 1), ("✓".into(), 1), ("✓".into(), 1)]);
    }

    #[test]
    fn full_labels_name_the_headings_above() {
        assert_eq!(
            sample().full_labels(),
            [
                "Anaphoric",
                "Anaphoric / Inter “it”",
                "Anaphoric / Inter “it” / Subject",
                "Anaphoric / Singular “they”",
                "Pleonastic",
                "Total"
            ]
        );
    }

    #[test]
    fn cells_as_text_and_data() {
        assert_eq!(Cell::number(Some(0.68596), 2).plain(), "0.69");
        assert_eq!(Cell::number(None, 2).plain(), "–");
        assert_eq!(Cell::number(None, 2).data(), "");
        assert_eq!(Cell::number(Some(0.68596), 2).data(), "0.68596");
        assert_eq!(Cell::number(Some(2.0 / 3.0), 3).data(), "0.6666666666666666");
        assert_eq!(Cell::number(Some(1.0), 3).data(), "1");
        assert_eq!(Cell::NotApplicable.plain(), "–");
        assert_eq!(Cell::Count(116).data(), "116");
    }
}
