//! The test-suite definition file (our format, v1; see docs/suite-format.md).
//!
//! ```text
//! # comment
//! @category<TAB>name<TAB>function<TAB>flags<TAB>label
//! example<TAB>sentence<TAB>token<TAB>pronoun<TAB>category<TAB>antecedents
//! ```
//! `flags` is `-` or a comma-separated subset of `anaphoric`, `politeness`; `antecedents` is `-`
//! or `;`-separated `SENT:START-END@HEAD` (0-based, END inclusive).

use crate::error::{Error, Problems, Result};
use crate::model::{Antecedent, Category, Example, ExampleNo, tags};
use std::path::Path;

/// A parsed definition, not yet checked against the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteDef {
    /// Categories defined in the file with `@category` (beyond the standard ones).
    pub categories: Vec<Category>,
    pub examples: Vec<ExampleLine>,
}

/// An example with what the file says about it that the model does not keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleLine {
    /// 1-based line in the file, for messages.
    pub line: usize,
    pub example: Example,
    /// The pronoun as written in the file, checked against the source token.
    pub pronoun: String,
}

pub fn read(path: &Path) -> Result<SuiteDef> {
    parse(path, &super::texts::read_lines(path)?)
}

/// Parses the lines of a definition; `path` is used in messages. Every malformed line is a
/// problem, all reported at once.
pub fn parse(path: &Path, lines: &[String]) -> Result<SuiteDef> {
    let mut problems = Problems::new();
    let def = parse_into(path, lines, &mut problems);
    problems.into_result(def)
}

/// [`parse`], the malformed lines' problems added to `problems` and the other lines kept, so
/// that the caller can go on checking them. One pass over the lines.
pub fn parse_into(path: &Path, lines: &[String], problems: &mut Problems) -> SuiteDef {
    let mut def = SuiteDef { categories: Vec::new(), examples: Vec::new() };
    for (i, raw) in lines.iter().enumerate() {
        let n = i + 1;
        let err = |m: LineError| Error::at_line(path, n, m);
        let line = raw.trim_end();
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
        if cols[0] == "@category" {
            if let Some(c) = problems.check(category(&cols).map_err(err)) {
                def.categories.push(c);
            }
        } else if cols[0].starts_with('@') {
            problems.push(err(LineError::UnknownDirective(cols[0].to_owned())));
        } else if let Some((example, pronoun)) = problems.check(example(&cols).map_err(err)) {
            def.examples.push(ExampleLine { line: n, example, pronoun });
        }
    }
    def
}

/// Why a line of a suite definition is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// An `@category` line without 3 or 4 fields: how many it has.
    #[error("@category needs 3 or 4 tab-separated fields (name, function, flags, optional label), found {0}")]
    CategoryFields(usize),
    /// A line starting with `@` other than `@category`: the directive as written.
    #[error("unknown directive '{0}' (only @category is known)")]
    UnknownDirective(String),
    #[error("category name and function must be single words")]
    CategoryWords,
    #[error("unknown category flag '{0}' (known: anaphoric, politeness)")]
    UnknownFlag(String),
    /// An example line without 6 columns: how many it has.
    #[error("expected 6 tab-separated columns (example, sentence, token, pronoun, category, antecedents), found {0}")]
    ExampleColumns(usize),
    /// A field (`what`: "sentence", "antecedent head"…) that is not a `u32`, as written.
    #[error("{what} '{text}' is not a non-negative whole number")]
    NotANumber { what: &'static str, text: String },
    #[error("example numbers start at 1")]
    ExampleZero,
    /// An antecedent, as written, that is not `SENT:START-END@HEAD`.
    #[error("antecedent '{0}' is not of the form SENT:START-END@HEAD")]
    Antecedent(String),
    /// An antecedent, as written, whose head is outside its span.
    #[error("antecedent '{0}': need START ≤ HEAD ≤ END")]
    HeadOutside(String),
}

fn category(cols: &[&str]) -> Result<Category, LineError> {
    if !(4..=5).contains(&cols.len()) {
        return Err(LineError::CategoryFields(cols.len() - 1));
    }
    let (name, function, flags) = (cols[1], cols[2], cols[3]);
    if !tags::is_valid(name) || !tags::is_valid(function) {
        return Err(LineError::CategoryWords);
    }
    let mut category = Category {
        name: name.into(),
        function: function.into(),
        anaphoric: false,
        politeness: false,
        label: cols.get(4).copied().unwrap_or("").into(),
    };
    for flag in flags.split(',').map(str::trim).filter(|f| !f.is_empty() && *f != "-") {
        match flag {
            "anaphoric" => category.anaphoric = true,
            "politeness" => category.politeness = true,
            other => return Err(LineError::UnknownFlag(other.to_owned())),
        }
    }
    Ok(category)
}

fn number(what: &'static str, s: &str) -> Result<u32, LineError> {
    s.parse().map_err(|_| LineError::NotANumber { what, text: s.to_owned() })
}

fn example(cols: &[&str]) -> Result<(Example, String), LineError> {
    if cols.len() != 6 {
        return Err(LineError::ExampleColumns(cols.len()));
    }
    let no = number("example number", cols[0])?;
    if no == 0 {
        return Err(LineError::ExampleZero);
    }
    let antecedents = match cols[5] {
        "" | "-" => Vec::new(),
        list => list.split(';').map(str::trim).map(antecedent).collect::<Result<_, _>>()?,
    };
    let example = Example {
        no: ExampleNo(no),
        sentence: number("sentence", cols[1])?,
        token: number("token", cols[2])?,
        category: cols[4].into(),
        antecedents,
    };
    Ok((example, cols[3].into()))
}

/// `SENT:START-END@HEAD`
fn antecedent(s: &str) -> Result<Antecedent, LineError> {
    let malformed = || LineError::Antecedent(s.to_owned());
    let (sentence, rest) = s.split_once(':').ok_or_else(malformed)?;
    let (span, head) = rest.split_once('@').ok_or_else(malformed)?;
    let (start, end) = span.split_once('-').ok_or_else(malformed)?;
    let a = Antecedent {
        sentence: number("antecedent sentence", sentence)?,
        start: number("antecedent start", start)?,
        end: number("antecedent end", end)?,
        head: number("antecedent head", head)?,
    };
    if !(a.start <= a.head && a.head <= a.end) {
        return Err(LineError::HeadOutside(s.to_owned()));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<SuiteDef> {
        parse(Path::new("suite.tsv"), &text.lines().map(str::to_owned).collect::<Vec<_>>())
    }

    #[test]
    fn parses_examples_and_categories() {
        let def = parse_str(
            "# comment\n\n@category\tspeaker_i\tspeaker\t-\tSpeaker “I”\n1\t12\t5\tit\tanaphoric_intra_subject_it\t12:0-2@1; 10:3-3@3\n2\t14\t0\tIt\tpleonastic_it\t-\n",
        )
        .unwrap();
        assert_eq!(def.categories.len(), 1);
        assert_eq!(def.categories[0].function, "speaker");
        assert_eq!(def.categories[0].label, "Speaker “I”");
        assert!(!def.categories[0].anaphoric);
        assert_eq!(def.examples.len(), 2);
        let e = &def.examples[0];
        assert_eq!((e.line, e.example.no, e.example.sentence, e.example.token), (4, ExampleNo(1), 12, 5));
        assert_eq!(e.example.antecedents[1], Antecedent { sentence: 10, start: 3, end: 3, head: 3 });
        assert!(def.examples[1].example.antecedents.is_empty());
        assert_eq!(def.examples[1].pronoun, "It");
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("1\t2\t3\tit\tx\n", "line 1: expected 6 tab-separated columns"),
            ("# c\n1\tx\t3\tit\tcat\t-\n", "line 2: sentence 'x' is not a non-negative whole number"),
            ("1\t2\t3\tit\tcat\t2:1-3\n", "line 1: antecedent '2:1-3' is not of the form SENT:START-END@HEAD"),
            ("1\t2\t3\tit\tcat\t2:1-3@5\n", "line 1: antecedent '2:1-3@5': need START ≤ HEAD ≤ END"),
            ("0\t2\t3\tit\tcat\t-\n", "line 1: example numbers start at 1"),
            ("@category\tx\tf\tweird\n", "line 1: unknown category flag 'weird'"),
            ("@cat\tx\n", "line 1: unknown directive '@cat'"),
        ];
        for (text, expected) in cases {
            let err = parse_str(text).unwrap_err().to_string();
            assert!(err.starts_with(&format!("suite.tsv: {expected}")), "{err}");
        }
        // All at once.
        let text: String = cases.iter().map(|(t, _)| *t).collect();
        let err = parse_str(&text).unwrap_err().to_string();
        assert!(err.starts_with("7 problems; fix them all, then run again:"), "{err}");
        let mut before = 0;
        for (text, expected) in cases {
            let (line, message) = expected.strip_prefix("line ").unwrap().split_once(": ").unwrap();
            let line = before + line.parse::<usize>().unwrap();
            assert!(err.contains(&format!("suite.tsv: line {line}: {message}")), "{line}: {message} in {err}");
            before += text.lines().count();
        }
    }
}
