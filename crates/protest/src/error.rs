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
    /// An operation would write a file that exists; it replaces one only when told to.
    #[error("{} already exists", path.display())]
    Exists { path: PathBuf },
}

impl Error {
    pub fn io(path: impl AsRef<Path>, source: io::Error) -> Self {
        Error::Io { path: path.as_ref().to_path_buf(), error: source }
    }

    pub fn invalid(path: impl AsRef<Path>, place: Option<Place>, message: impl Into<String>) -> Self {
        Error::Invalid { path: path.as_ref().to_path_buf(), place, message: message.into() }
    }

    pub fn at_line(path: impl AsRef<Path>, line: usize, message: impl Into<String>) -> Self {
        Self::invalid(path, Some(Place::Line(line)), message)
    }

    pub fn whole_file(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self::invalid(path, None, message)
    }

    pub fn refused(path: impl AsRef<Path>, message: impl std::fmt::Display) -> Self {
        Error::Refused { path: path.as_ref().to_path_buf(), message: message.to_string() }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            Error::Io { path, .. }
            | Error::Invalid { path, .. }
            | Error::Refused { path, .. }
            | Error::Exists { path } => path,
        }
    }

    /// The same error about `to` when it is about `from`: a file read under its resolved path
    /// is named as the user named it.
    pub fn renamed(mut self, from: &Path, to: &Path) -> Self {
        let path = match &mut self {
            Error::Io { path, .. }
            | Error::Invalid { path, .. }
            | Error::Refused { path, .. }
            | Error::Exists { path } => path,
        };
        if path == from {
            *path = to.to_path_buf();
        }
        self
    }

    /// For a refusal, the rule's own words without the file's name (a dialog about that file
    /// shows them as they are).
    pub fn refusal(&self) -> Option<&str> {
        match self {
            Error::Refused { message, .. } => Some(message),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
