//! One error type for everything that reads or writes the user's files.
//!
//! Every message names the file, the place inside it and the problem, because the people reading
//! it are annotators and researchers who must be able to fix the file (or tell us) without a
//! debugger.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Where inside a file a problem sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// 1-based line of a line-oriented text file.
    Line(usize),
    /// A JSON path such as `corpora[2].sentences[17]`, optionally with the parser's position.
    Json { path: String, line: Option<usize> },
    /// A table and row of a database.
    Row { table: String, row: i64 },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, "line {n}"),
            Place::Json { path, line: Some(l) } if path.is_empty() || path == "." => write!(f, "line {l}"),
            Place::Json { path, line: Some(l) } => write!(f, "{path} (line {l})"),
            Place::Json { path, line: None } => write!(f, "{path}"),
            Place::Row { table, row } => write!(f, "table {table}, row {row}"),
        }
    }
}

/// A problem with one of the user's files.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    // The I/O error is part of the message rather than a `source`, so that error chains
    // (anyhow's `{:#}`) do not print it twice.
    #[error("{}: {error}", path.display())]
    Io { path: PathBuf, error: io::Error },
    #[error("{}{}: {message}", path.display(), place.as_ref().map(|p| format!(": {p}")).unwrap_or_default())]
    Invalid { path: PathBuf, place: Option<Place>, message: String },
    /// An operation the rules do not allow on the file as it is (a name taken, a task set already
    /// given out…). Nothing was changed.
    #[error("{}: {message}", path.display())]
    Refused { path: PathBuf, message: String },
    /// Writing failed (a full disk, a journal that could not be synced…): the change was not made,
    /// and the same change may be taken later. Not a refusal: the rules allowed it.
    #[error("{}: {message}", path.display())]
    NotWritten { path: PathBuf, message: String },
    /// An operation would write a file that exists; it replaces one only when told to.
    #[error("{} already exists", path.display())]
    Exists { path: PathBuf },
    /// Problems found in one pass over the inputs, so that they can all be fixed before the next
    /// run: what to do about them (`hints`, first), the first [`Problems::SHOWN`], and how many
    /// there are in all.
    #[error("{}", several(hints, problems, *total))]
    Several { hints: Vec<Error>, problems: Vec<Error>, total: usize },
}

fn several(hints: &[Error], problems: &[Error], total: usize) -> String {
    let mut lines: Vec<String> = hints.iter().chain(problems).map(ToString::to_string).collect();
    if total > problems.len() {
        lines.push(format!("… and {} more", total - problems.len()));
    }
    match problems {
        [one] if total == 1 => format!("{one}{}", hints.iter().map(|h| format!("\n  {h}")).collect::<String>()),
        _ => format!("{total} problems; fix them all, then run again:\n  {}", lines.join("\n  ")),
    }
}

/// Collects the problems of a pass over the inputs, to report them all at once
/// ([`Error::Several`]); a pass goes on after a problem wherever what follows can still be checked.
#[derive(Debug, Default)]
pub struct Problems {
    hints: Vec<Error>,
    shown: Vec<Error>,
    total: usize,
}

impl Problems {
    /// How many problems an error lists; the rest are counted.
    pub const SHOWN: usize = 50;

    pub fn new() -> Problems {
        Problems::default()
    }

    pub fn push(&mut self, error: Error) {
        match error {
            Error::Several { hints, problems, total } => {
                let listed = problems.len();
                self.hints.extend(hints);
                problems.into_iter().for_each(|p| self.push(p));
                self.total += total - listed;
            }
            error => {
                self.total += 1;
                if self.shown.len() < Self::SHOWN {
                    self.shown.push(error);
                }
            }
        }
    }

    /// What to do about the problems (e.g. read an alignment the other way round): listed first,
    /// whatever their number, and not counted as one.
    pub fn hint(&mut self, hint: Error) {
        self.hints.push(hint);
    }

    /// The value of `result`, or `None` with its error kept.
    pub fn check<T>(&mut self, result: Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    pub fn len(&self) -> usize {
        self.total
    }

    /// `value` when there was no problem; else the one problem, or all of them.
    pub fn into_result<T>(mut self, value: T) -> Result<T> {
        match self.total {
            0 => Ok(value),
            1 if self.hints.is_empty() => Err(self.shown.remove(0)),
            total => Err(Error::Several { hints: self.hints, problems: self.shown, total }),
        }
    }
}

impl Error {
    pub fn io(path: impl AsRef<Path>, source: io::Error) -> Self {
        Error::Io { path: path.as_ref().to_path_buf(), error: source }
    }

    /// `message`: words, or a typed error of a line or a value ([`crate::model::alignment::MalformedPair`]…),
    /// which the error keeps as its message.
    pub fn invalid(path: impl AsRef<Path>, place: Option<Place>, message: impl fmt::Display) -> Self {
        Error::Invalid { path: path.as_ref().to_path_buf(), place, message: message.to_string() }
    }

    pub fn at_line(path: impl AsRef<Path>, line: usize, message: impl fmt::Display) -> Self {
        Self::invalid(path, Some(Place::Line(line)), message)
    }

    pub fn whole_file(path: impl AsRef<Path>, message: impl fmt::Display) -> Self {
        Self::invalid(path, None, message)
    }

    pub fn refused(path: impl AsRef<Path>, message: impl std::fmt::Display) -> Self {
        Error::Refused { path: path.as_ref().to_path_buf(), message: message.to_string() }
    }

    pub fn not_written(path: impl AsRef<Path>, message: impl std::fmt::Display) -> Self {
        Error::NotWritten { path: path.as_ref().to_path_buf(), message: message.to_string() }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Error::Io { path, .. }
            | Error::Invalid { path, .. }
            | Error::Refused { path, .. }
            | Error::NotWritten { path, .. }
            | Error::Exists { path } => path,
            Error::Several { problems, .. } => problems.first().map_or(Path::new(""), Error::path),
        }
    }

    /// The same error about `to` when it is about `from`: a file read under its resolved path
    /// is named as the user named it.
    pub fn renamed(mut self, from: &Path, to: &Path) -> Self {
        self.rename(from, to);
        self
    }

    fn rename(&mut self, from: &Path, to: &Path) {
        let path = match self {
            Error::Io { path, .. }
            | Error::Invalid { path, .. }
            | Error::Refused { path, .. }
            | Error::NotWritten { path, .. }
            | Error::Exists { path } => path,
            Error::Several { hints, problems, .. } => {
                hints.iter_mut().chain(problems).for_each(|e| e.rename(from, to));
                return;
            }
        };
        if path == from {
            *path = to.to_path_buf();
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_reported_all_at_once_up_to_a_cap() {
        let mut p = Problems::new();
        assert!(p.check(Ok::<_, Error>(1)).is_some());
        assert!(p.into_result(()).is_ok());
        let mut p = Problems::new();
        p.push(Error::at_line("a.alig", 3, "pair 6-6: out of range"));
        assert_eq!(p.into_result(()).unwrap_err().to_string(), "a.alig: line 3: pair 6-6: out of range");
        let mut p = Problems::new();
        for line in 1..=60 {
            p.push(Error::at_line("a.alig", line, "bad"));
        }
        p.hint(Error::whole_file("a.alig", "try --reversed"));
        let e = p.into_result(()).unwrap_err();
        let text = e.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "60 problems; fix them all, then run again:");
        assert_eq!(lines[1], "  a.alig: try --reversed");
        assert_eq!(lines[2], "  a.alig: line 1: bad");
        assert_eq!(lines[51], "  a.alig: line 50: bad");
        assert_eq!(lines[52], "  … and 10 more");
        assert_eq!(e.path(), Path::new("a.alig"));
        // Several problems pushed into another collection keep their count.
        let mut outer = Problems::new();
        outer.push(e);
        outer.push(Error::at_line("s.tsv", 2, "x"));
        let Error::Several { hints, problems, total } = outer.into_result(()).unwrap_err() else { panic!() };
        assert_eq!((hints.len(), problems.len(), total), (1, 50, 61));
        // One problem and a hint: the problem, then the hint.
        let mut p = Problems::new();
        p.push(Error::at_line("a.alig", 3, "pair 6-6: out of range"));
        p.hint(Error::whole_file("a.alig", "try --reversed"));
        let text = p.into_result(()).unwrap_err().to_string();
        assert_eq!(text, "a.alig: line 3: pair 6-6: out of range\n  a.alig: try --reversed");
    }
}
