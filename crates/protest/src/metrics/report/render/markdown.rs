//! GitHub-flavoured Markdown: a title, one pipe table with flattened column headers (Markdown has
//! no grouped headers), headings and totals in bold, nesting shown by em-space indents, notes as
//! paragraphs.

use super::super::table::{RowKind, Table};

/// Escapes what Markdown or the pipe table would otherwise interpret.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '|' | '*' | '_' | '`' | '<' | '>' | '[' | ']' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn line(cells: impl IntoIterator<Item = String>) -> String {
    let cells: Vec<String> = cells.into_iter().collect();
    format!("| {} |\n", cells.join(" | "))
}

pub fn render(table: &Table) -> String {
    let mut out = format!("### {}\n\n", escape(&table.title));
    out += &line(
        std::iter::once(escape(&table.label_header)).chain(table.columns.iter().map(|c| escape(&c.flat_label()))),
    );
    out += &line(std::iter::once("---".to_string()).chain(table.columns.iter().map(|_| "---:".to_string())));
    for row in &table.rows {
        let indent = "&emsp;".repeat(row.depth);
        let label = match row.kind {
            RowKind::Data => escape(&row.label),
            RowKind::Heading | RowKind::Total => format!("**{}**", escape(&row.label)),
        };
        let cells = (0..table.columns.len()).map(|i| row.cells.get(i).map(|c| escape(&c.plain())).unwrap_or_default());
        out += &line(std::iter::once(format!("{indent}{label}")).chain(cells));
    }
    for note in &table.notes {
        out += &format!("\n{}\n", escape(note));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::metrics::report::table::tests::sample;

    #[test]
    fn pipe_table() {
        let md = super::render(&sample());
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "### Sample");
        assert_eq!(lines[2], "| Category | Count | Pronoun A ✓ | Pronoun A ✗ | Pronoun B ✓ | Antecedent A ✓ |");
        assert_eq!(lines[3], "| --- | ---: | ---: | ---: | ---: | ---: |");
        assert_eq!(lines[4], "| **Anaphoric** |  |  |  |  |  |");
        assert_eq!(lines[6], "| &emsp;&emsp;Subject | 3 | 2 | 1 | 3 | 3 |");
        assert_eq!(lines[8], "| Pleonastic | 1 | 1 | 1 | 1 | – |");
        assert_eq!(lines[9], "| **Total** | 9 | 9 | 9 | 9 | 9 |");
        assert_eq!(lines[11], "A note.");
        // Every table line has the same number of cells.
        assert!(lines[2..10].iter().all(|l| l.matches(" | ").count() == 5), "{md}");
    }

    #[test]
    fn escapes_markdown() {
        let mut table = sample();
        table.rows[3].label = "a|b *c* d_e".into();
        assert!(super::render(&table).contains("| &emsp;a\\|b \\*c\\* d\\_e |"));
    }
}
