//! The rows of per-category tables, grouped like paper 001's Table 1: by pronoun function, and
//! within a function by the part of the category label before ", " — so "Inter-sentential “it”,
//! subject" and "…, non-subject" sit under one "Inter-sentential “it”" heading. A function with a
//! single category is one row of its own.

use super::table::{Cell, Row};
use crate::model::{Category, function};

/// One line of the category layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Heading {
        depth: usize,
        title: String,
    },
    /// `index` is the category's position in the master's list.
    Category {
        depth: usize,
        index: usize,
        label: String,
    },
}

impl Line {
    /// The table row for this line, with the category's cells.
    pub fn row(&self, cells: impl FnOnce(usize) -> Vec<Cell>) -> Row {
        match self {
            Line::Heading { depth, title } => Row::heading(*depth, title),
            Line::Category { depth, index, label } => Row::data(*depth, label, cells(*index)),
        }
    }
}

/// The heading of a pronoun function.
pub fn function_title(name: &str) -> String {
    match name {
        function::ANAPHORIC => "Anaphoric".into(),
        function::EVENT => "Event reference".into(),
        function::PLEONASTIC => "Pleonastic".into(),
        function::ADDRESSEE => "Addressee reference".into(),
        other => capitalise(&other.replace('_', " ")),
    }
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Functions in the order they first appear, each with its categories in master order.
pub fn lines(categories: &[Category]) -> Vec<Line> {
    let mut functions: Vec<&str> = Vec::new();
    for c in categories {
        if !functions.contains(&c.function.as_str()) {
            functions.push(&c.function);
        }
    }
    let mut lines = Vec::new();
    for f in functions {
        let members: Vec<(usize, &Category)> = categories.iter().enumerate().filter(|(_, c)| c.function == f).collect();
        if let [(index, only)] = members[..] {
            lines.push(Line::Category { depth: 0, index, label: only.title().to_string() });
            continue;
        }
        lines.push(Line::Heading { depth: 0, title: function_title(f) });
        let split =
            |c: &Category| c.title().split_once(", ").map(|(group, rest)| (group.to_string(), rest.to_string()));
        let mut i = 0;
        while i < members.len() {
            let group = split(members[i].1).map(|(g, _)| g);
            let run =
                members[i..].iter().take_while(|(_, c)| group.is_some() && split(c).map(|(g, _)| g) == group).count();
            if run >= 2 {
                lines.push(Line::Heading { depth: 1, title: group.unwrap_or_default() });
                for &(index, c) in &members[i..i + run] {
                    let rest = split(c).map(|(_, r)| r).unwrap_or_default();
                    lines.push(Line::Category { depth: 2, index, label: capitalise(&rest) });
                }
                i += run;
            } else {
                let (index, c) = members[i];
                lines.push(Line::Category { depth: 1, index, label: c.title().to_string() });
                i += 1;
            }
        }
    }
    lines
}

/// The rows of a table with rows under each category (a row per translation, say): the layout's
/// headings, each category a heading of its own, and under it the rows `under(depth, index)`
/// gives for the category at `index`, `depth` being theirs.
pub fn rows_under_categories(categories: &[Category], mut under: impl FnMut(usize, usize) -> Vec<Row>) -> Vec<Row> {
    let mut rows = Vec::new();
    for line in lines(categories) {
        match line {
            Line::Heading { .. } => rows.push(line.row(|_| Vec::new())),
            Line::Category { depth, index, label } => {
                rows.push(Row::heading(depth, label));
                rows.extend(under(depth + 1, index));
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::standard_categories;

    fn describe(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| match l {
                Line::Heading { depth, title } => format!("{}# {title}", "  ".repeat(*depth)),
                Line::Category { depth, index, label } => format!("{}{label} [{index}]", "  ".repeat(*depth)),
            })
            .collect()
    }

    #[test]
    fn standard_categories_are_laid_out_like_paper_001() {
        assert_eq!(
            describe(&lines(&standard_categories())),
            [
                "# Anaphoric",
                "  # Inter-sentential “it”",
                "    Subject [0]",
                "    Non-subject [1]",
                "  # Intra-sentential “it”",
                "    Subject [2]",
                "    Non-subject [3]",
                "  Inter-sentential “they” [4]",
                "  Intra-sentential “they” [5]",
                "  Singular “they” [6]",
                "  Group “it/they” [7]",
                "Event reference “it” [8]",
                "Pleonastic “it” [9]",
                "# Addressee reference",
                "  Deictic singular “you” [10]",
                "  Deictic plural “you” [11]",
                "  Generic “you” [12]",
            ]
        );
    }

    #[test]
    fn own_functions_and_lone_comma_labels() {
        let mut cats = standard_categories();
        cats.truncate(1); // "Inter-sentential “it”, subject" alone: no subgroup, no heading
        cats.push(Category {
            name: "x".into(),
            function: "speaker_reference".into(),
            anaphoric: false,
            politeness: false,
            label: String::new(),
        });
        assert_eq!(describe(&lines(&cats)), ["Inter-sentential “it”, subject [0]", "x [1]"]);
        assert_eq!(function_title("speaker_reference"), "Speaker reference");
    }
}
