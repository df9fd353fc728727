//! INI files as Python 2's `ConfigParser.RawConfigParser` reads them, which is how APT's
//! reference implementation reads its configuration.
//!
//! - `[section]` headers (anything after the `]` is ignored); options `key: value` or
//!   `key = value`, split at the first `:` or `=`; keys are case-insensitive, values are trimmed
//!   and may be empty; `""` stands for an empty value;
//! - whole-line comments start with `#` or `;` (or `rem`); a `;` after a space ends a value;
//! - an indented line continues the previous value (joined with a line break);
//! - options of `[DEFAULT]` apply to every section; a repeated section or key adds to or
//!   replaces the earlier one.
//!
//! Unlike Python, which collects malformed lines and complains at the end, the first malformed
//! line is an error naming its line number.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// One option's value and the line it was set on (for error messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub text: String,
    pub line: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Section {
    name: String,
    line: usize,
    options: Vec<(String, Value)>,
}

/// A parsed INI file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ini {
    path: PathBuf,
    defaults: Section,
    sections: Vec<Section>,
}

const DEFAULT_SECTION: &str = "DEFAULT";

impl Ini {
    pub fn read(path: &Path) -> Result<Ini> {
        let text = crate::text_file::read_whole(path)?;
        Ini::parse(&text, path)
    }

    /// Parses `text`; `path` only names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Ini> {
        let mut ini = Ini { path: path.to_path_buf(), defaults: Section::default(), sections: Vec::new() };
        // (section index, None for DEFAULT) and the option a continuation line extends.
        let mut current: Option<Option<usize>> = None;
        let mut last_key: Option<String> = None;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if line.trim().is_empty() || line.starts_with(['#', ';']) || is_rem(line) {
                continue;
            }
            if line.starts_with(char::is_whitespace)
                && let (Some(section), Some(key)) = (current, &last_key)
            {
                let value = line.trim();
                if !value.is_empty() {
                    let text = &mut ini.section_mut(section).value_mut(key).text;
                    text.push('\n');
                    text.push_str(value);
                }
                continue;
            }
            if let Some(name) = section_header(line) {
                current = Some(ini.open_section(name, n));
                last_key = None;
                continue;
            }
            let Some(section) = current else {
                return Err(Error::at_line(path, n, "an option before the first [section] header"));
            };
            let Some((key, value)) = option(line) else {
                return Err(Error::at_line(
                    path,
                    n,
                    format!("expected a [section] header or an option `key: value`, found {:?}", line.trim()),
                ));
            };
            ini.section_mut(section).set(&key, Value { text: value, line: n });
            last_key = Some(key);
        }
        Ok(ini)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// An option of a section, or of `[DEFAULT]`. Keys are case-insensitive.
    pub fn get(&self, section: &str, key: &str) -> Option<&Value> {
        let key = key.to_lowercase();
        self.sections
            .iter()
            .find(|s| s.name == section)
            .and_then(|s| s.value(&key))
            .or_else(|| self.defaults.value(&key))
    }

    /// Every (section, key, line) of the file, `[DEFAULT]` included, for spotting unknown keys.
    pub fn keys(&self) -> impl Iterator<Item = (&str, &str, usize)> {
        std::iter::once(&self.defaults)
            .chain(&self.sections)
            .flat_map(|s| s.options.iter().map(move |(k, v)| (s.name.as_str(), k.as_str(), v.line)))
    }

    /// Every section name with the line of its (first) header.
    pub fn sections(&self) -> impl Iterator<Item = (&str, usize)> {
        self.sections.iter().map(|s| (s.name.as_str(), s.line))
    }

    fn open_section(&mut self, name: &str, line: usize) -> Option<usize> {
        if name == DEFAULT_SECTION {
            self.defaults.name = DEFAULT_SECTION.into();
            return None;
        }
        let index = self.sections.iter().position(|s| s.name == name).unwrap_or_else(|| {
            self.sections.push(Section { name: name.to_owned(), line, options: Vec::new() });
            self.sections.len() - 1
        });
        Some(index)
    }

    fn section_mut(&mut self, section: Option<usize>) -> &mut Section {
        match section {
            Some(i) => &mut self.sections[i],
            None => &mut self.defaults,
        }
    }
}

impl Section {
    fn value(&self, key: &str) -> Option<&Value> {
        self.options.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn value_mut(&mut self, key: &str) -> &mut Value {
        &mut self.options.iter_mut().find(|(k, _)| k == key).expect("continuation of a key that was set").1
    }

    fn set(&mut self, key: &str, value: Value) {
        match self.options.iter_mut().find(|(k, _)| k == key) {
            Some((_, old)) => *old = value,
            None => self.options.push((key.to_owned(), value)),
        }
    }
}

/// `rem` comments: a first word "rem" (any case) at the very start of the line.
fn is_rem(line: &str) -> bool {
    line.starts_with(['r', 'R']) && line.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case("rem"))
}

/// `[name]` at the start of a line.
fn section_header(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('[')?;
    let end = rest.find(']')?;
    (end > 0).then(|| &rest[..end])
}

/// `key: value` / `key = value`, split at the first `:` or `=`; the key lowercased.
fn option(line: &str) -> Option<(String, String)> {
    let at = line.find([':', '='])?;
    let key = line[..at].trim_end();
    if key.is_empty() || line.starts_with(char::is_whitespace) {
        return None;
    }
    let mut value = &line[at + 1..];
    // Python: a ';' starts an inline comment when the character before it is a space (for a ';'
    // right at the start of the value, "before it" wraps round to the value's last character).
    if let Some(pos) = value.find(';') {
        let before = if pos == 0 { value.chars().next_back() } else { value[..pos].chars().next_back() };
        if before.is_some_and(char::is_whitespace) {
            value = &value[..pos];
        }
    }
    let value = value.trim();
    let value = if value == "\"\"" { "" } else { value };
    Some((key.to_lowercase(), value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Ini {
        Ini::parse(text, Path::new("c.ini")).unwrap()
    }

    fn get<'a>(ini: &'a Ini, section: &str, key: &str) -> Option<&'a str> {
        ini.get(section, key).map(|v| v.text.as_str())
    }

    #[test]
    fn both_separators_comments_and_empty_values() {
        let ini = parse(
            "# comment\n; another\n[lang]\nsource: es\ntarget = en\n  \nsource_word_separator: \n\
             rem a comment too\n[output]\nmax_length_matrix = 10\nempty = \"\"\n",
        );
        assert_eq!(get(&ini, "lang", "source"), Some("es"));
        assert_eq!(get(&ini, "lang", "target"), Some("en"));
        assert_eq!(get(&ini, "lang", "source_word_separator"), Some(""));
        assert_eq!(get(&ini, "output", "max_length_matrix"), Some("10"));
        assert_eq!(get(&ini, "output", "empty"), Some(""));
        assert_eq!(get(&ini, "output", "source"), None);
        assert_eq!(get(&ini, "nowhere", "source"), None);
        assert_eq!(ini.get("output", "max_length_matrix").unwrap().line, 10);
    }

    #[test]
    fn keys_are_case_insensitive_and_split_at_the_first_separator() {
        let ini = parse("[cases]\ncount_OTHER_as_equal: true\nurl = http://x:80/a=b\n");
        assert_eq!(get(&ini, "cases", "count_other_as_equal"), Some("true"));
        assert_eq!(get(&ini, "cases", "COUNT_OTHER_AS_EQUAL"), Some("true"));
        assert_eq!(get(&ini, "cases", "url"), Some("http://x:80/a=b"));
        // Section names are case-sensitive, as in Python.
        assert_eq!(get(&ini, "Cases", "url"), None);
    }

    #[test]
    fn inline_semicolon_comments_need_a_space_before() {
        let ini = parse("[a]\nx = 1 ; comment\ny = a;b\nz = # not a comment\n");
        assert_eq!(get(&ini, "a", "x"), Some("1"));
        assert_eq!(get(&ini, "a", "y"), Some("a;b"));
        assert_eq!(get(&ini, "a", "z"), Some("# not a comment"));
    }

    #[test]
    fn continuation_lines_repeats_and_defaults() {
        let ini = parse("[DEFAULT]\nshared = d\n[a]\nx = one\n  two\n\n   three\n[b]\nx = 1\n[a]\ny = 2\nx = again\n");
        assert_eq!(get(&ini, "a", "x"), Some("again"));
        assert_eq!(get(&ini, "a", "y"), Some("2"));
        assert_eq!(get(&ini, "b", "shared"), Some("d"));
        let ini = parse("[a]\nx = one\n  two\n\n   three\n");
        assert_eq!(get(&ini, "a", "x"), Some("one\ntwo\nthree"));
        assert_eq!(ini.sections().collect::<Vec<_>>(), [("a", 1)]);
        assert_eq!(ini.keys().collect::<Vec<_>>(), [("a", "x", 2)]);
    }

    #[test]
    fn malformed_lines_are_errors_with_their_line() {
        let err = Ini::parse("key: value\n", Path::new("c.ini")).unwrap_err().to_string();
        assert_eq!(err, "c.ini: line 1: an option before the first [section] header");
        let err = Ini::parse("[a]\nx = 1\njust words\n", Path::new("c.ini")).unwrap_err().to_string();
        assert!(err.starts_with("c.ini: line 3: expected a [section] header"), "{err}");
        let err = Ini::parse("[a]\n= 1\n", Path::new("c.ini")).unwrap_err().to_string();
        assert!(err.starts_with("c.ini: line 2:"), "{err}");
        assert!(Ini::parse("[]\n", Path::new("c.ini")).is_err());
    }
}
