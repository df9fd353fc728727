//! LaTeX: a `table` float with a caption and a plain `tabular` (only core LaTeX, no packages),
//! grouped headers as `\multicolumn` with `\cline` under them, headings spanning the row,
//! nesting as `\quad`s, notes in small type under the tabular. Every string is escaped.

use super::super::table::{Cell, RowKind, Table};

/// Makes text safe in LaTeX's text mode, for pdfLaTeX with the default UTF-8 input encoding and
/// the default OT1 font encoding: the special characters are escaped and the symbols of our
/// tables are given in core LaTeX, using math mode where OT1 has no text glyph.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut previous = None;
    for c in s.chars() {
        // A straight double quote opens after a space, a bracket or at the start, and closes
        // elsewhere: `Object "them"` is Object ``them''.
        let opens = previous.is_none_or(|p: char| p.is_whitespace() || "([{".contains(p));
        previous = Some(c);
        match c {
            '"' if opens => out.push_str("``"),
            '\\' => out.push_str(r"$\backslash$"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str(r"\~{}"),
            '^' => out.push_str(r"\^{}"),
            '<' => out.push_str("$<$"),
            '>' => out.push_str("$>$"),
            '|' => out.push_str("$|$"),
            '"' | '”' => out.push_str("''"),
            '“' => out.push_str("``"),
            '‘' => out.push('`'),
            '’' => out.push('\''),
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '✓' => out.push_str(r"$\surd$"),
            '✗' => out.push_str(r"$\times$"),
            'κ' => out.push_str(r"$\kappa$"),
            'α' => out.push_str(r"$\alpha$"),
            '≥' => out.push_str(r"$\geq$"),
            '≤' => out.push_str(r"$\leq$"),
            '×' => out.push_str(r"$\times$"),
            _ => out.push(c),
        }
    }
    out
}

fn row(cells: impl IntoIterator<Item = String>) -> String {
    format!("{} \\\\\n", cells.into_iter().collect::<Vec<_>>().join(" & "))
}

fn indent(depth: usize) -> String {
    r"\quad ".repeat(depth)
}

pub fn render(table: &Table) -> String {
    let n = table.columns.len() + 1;
    let headers = table.header_lines();
    let mut out = format!("% {} (protest report, table '{}')\n", table.title.replace('\n', " "), table.name);
    out += "\\begin{table}[htbp]\n\\centering\n";
    out += &format!("\\caption{{{}}}\n", escape(&table.title));
    out += &format!("\\begin{{tabular}}{{l{}}}\n\\hline\n", "r".repeat(table.columns.len()));
    for (level, spans) in headers.iter().enumerate() {
        let own = level + 1 == headers.len();
        let label_cell = if own { escape(&table.label_header) } else { String::new() };
        let cells = spans.iter().map(|s| match (&s.label, own) {
            (Some(label), false) => format!("\\multicolumn{{{}}}{{c}}{{{}}}", s.len, escape(label)),
            (Some(label), true) => escape(label),
            (None, _) => vec![""; s.len].join(" & "),
        });
        out += &row(std::iter::once(label_cell).chain(cells));
        if !own {
            for s in spans.iter().filter(|s| s.label.is_some()) {
                out += &format!("\\cline{{{}-{}}}\n", s.start + 2, s.start + s.len + 1);
            }
        }
    }
    out += "\\hline\n";
    for r in &table.rows {
        let label = format!("{}{}", indent(r.depth), escape(&r.label));
        match r.kind {
            RowKind::Heading => out += &row([format!("\\multicolumn{{{n}}}{{l}}{{{label}}}")]),
            RowKind::Data | RowKind::Total => {
                if r.kind == RowKind::Total {
                    out += "\\hline\n";
                }
                out += &row(std::iter::once(label).chain(r.cells.iter().map(|c: &Cell| escape(&c.plain()))));
            }
        }
    }
    out += "\\hline\n\\end{tabular}\n";
    if !table.notes.is_empty() {
        out += "\\par\\smallskip\n{\\footnotesize\n";
        for note in &table.notes {
            out += &format!("{}\\par\n", escape(note));
        }
        out += "}\n";
    }
    out += "\\end{table}\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::report::table::tests::sample;

    /// How many columns a tabular row fills: cells separated by unescaped `&`s, each
    /// `\multicolumn{k}` counting k.
    fn columns(line: &str) -> usize {
        let cells = 1 + line.match_indices('&').filter(|(i, _)| !line[..*i].ends_with('\\')).count();
        let spans: Vec<usize> =
            line.split(r"\multicolumn{").skip(1).map(|rest| rest.split('}').next().unwrap().parse().unwrap()).collect();
        cells - spans.len() + spans.iter().sum::<usize>()
    }

    #[test]
    fn tabular_with_grouped_headers() {
        let tex = render(&sample());
        let lines: Vec<&str> = tex.lines().collect();
        assert!(lines.contains(&r"\begin{tabular}{lrrrrr}"));
        assert!(lines.contains(&r" &  & \multicolumn{3}{c}{Pronoun} & \multicolumn{1}{c}{Antecedent} \\"), "{tex}");
        assert!(lines.contains(&r"\cline{3-5}"));
        assert!(lines.contains(&r"Category & Count & $\surd$ & $\times$ & $\surd$ & $\surd$ \\"));
        assert!(lines.contains(&r"\multicolumn{6}{l}{\quad Inter ``it''} \\"));
        assert!(lines.contains(&r"\quad \quad Subject & 3 & 2 & 1 & 3 & 3 \\"));
        assert!(lines.contains(&r"Pleonastic & 1 & 1 & 1 & 1 & -- \\"));
        assert!(lines.contains(&r"A note.\par"));
        // Every row fills every column.
        for line in lines.iter().filter(|l| l.ends_with(r"\\")) {
            assert_eq!(columns(line), 6, "{line}");
        }
        assert_eq!(tex.matches(r"\begin{").count(), tex.matches(r"\end{").count());
    }

    #[test]
    fn escapes_special_characters() {
        assert_eq!(escape(r"R&D_1 50% #2 {x} ~^\ $"), r"R\&D\_1 50\% \#2 \{x\} \~{}\^{}$\backslash$ \$");
        assert_eq!(escape("a<b>c|d"), "a$<$b$>$c$|$d");
        assert_eq!(escape("“it” – ✓ ✗ κ"), r"``it'' -- $\surd$ $\times$ $\kappa$");
        assert_eq!(escape(r#"Object "them" ("it"), "x""#), r"Object ``them'' (``it''), ``x''");
        let mut table = sample();
        table.rows[3].label = "A&B_C".into();
        table.title = "50% of #1".into();
        let tex = render(&table);
        assert!(tex.contains(r"\caption{50\% of \#1}"));
        assert!(tex.contains(r"\quad A\&B\_C & 0 & 1 & 2 & 3 & 4 \\"), "{tex}");
    }
}
