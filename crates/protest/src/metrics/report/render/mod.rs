//! Output formats for report tables (text, CSV, Markdown, LaTeX, JSON). Each renderer is a pure function from a [`Table`] to text.

mod csv;
pub mod json;
mod latex;
mod markdown;
mod text;

use super::table::Table;
use std::fmt;
use std::str::FromStr;

/// How a table is written out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns for the terminal.
    Text,
    /// RFC 4180 comma-separated values, UTF-8, one header line (for spreadsheets).
    Csv,
    /// A GitHub-flavoured Markdown pipe table.
    Markdown,
    /// A LaTeX `table` with a plain `tabular` (no packages needed).
    Latex,
    /// A JSON object with the values CSV has, typed (for scripts).
    Json,
}

impl Format {
    pub const ALL: [Format; 5] = [Format::Text, Format::Csv, Format::Markdown, Format::Latex, Format::Json];

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Markdown => "markdown",
            Format::Latex => "latex",
            Format::Json => "json",
        }
    }

    /// File name extension for `--output`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Csv => "csv",
            Format::Markdown => "md",
            Format::Latex => "tex",
            Format::Json => "json",
        }
    }

    /// The file a table is written to in this format: `NAME.EXT`.
    pub fn file_name(self, table: &Table) -> String {
        format!("{}.{}", table.name, self.extension())
    }

    pub fn render(self, table: &Table) -> String {
        match self {
            Format::Text => text::render(table),
            Format::Csv => csv::render(table),
            Format::Markdown => markdown::render(table),
            Format::Latex => latex::render(table),
            Format::Json => json::render(table),
        }
    }

    /// Tables one after another, as printed: in JSON one document holding them all, in the
    /// other formats each table rendered, a blank line between them.
    pub fn render_all(self, tables: &[Table]) -> String {
        match self {
            Format::Json => json::render_all(tables),
            _ => tables.iter().map(|t| self.render(t)).collect::<Vec<_>>().join("\n"),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL.into_iter().find(|f| f.name() == s || f.extension() == s).ok_or_else(|| {
            let names: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
            format!("unknown format '{s}' (expected one of: {})", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_or_extension() {
        assert_eq!("latex".parse(), Ok(Format::Latex));
        assert_eq!("md".parse(), Ok(Format::Markdown));
        assert!("pdf".parse::<Format>().unwrap_err().contains("text, csv, markdown, latex, json"));
    }
}
