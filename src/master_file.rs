//! Reading and writing master files (format `protest-master`, version 1; see
//! docs/master-format.md).

use crate::error::{Error, Place, Result};
use crate::model::{MASTER_FORMAT, MASTER_VERSION, Master};
use crate::validate::{self, Problem};
use crate::{atomic, json};
use std::path::Path;

/// Reads, parses and validates a master. Never panics on bad input; every error names the file,
/// the place and the problem.
pub fn load(path: &Path) -> Result<Master> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    from_bytes(path, &bytes)
}

/// Parses and validates master bytes; `path` is only used in messages.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Master> {
    let mut master: Master =
        json::read(path, bytes, MASTER_FORMAT, &[MASTER_VERSION], |m: &Master| (m.format.as_str(), m.version))?;
    master.reindex();
    check(path, &master)?;
    Ok(master)
}

/// Turns the validator's findings into one error naming the first problem and how many more.
pub fn check(path: &Path, master: &Master) -> Result<()> {
    problems_to_error(path, validate::master(master))
}

pub(crate) fn problems_to_error(path: &Path, problems: Vec<Problem>) -> Result<()> {
    let Some(first) = problems.first() else { return Ok(()) };
    let more = match problems.len() {
        1 => String::new(),
        2 => " (and 1 further problem)".to_string(),
        n => format!(" (and {}{} further problems)", n - 1, if n >= validate::MAX_PROBLEMS { " or more" } else { "" }),
    };
    Err(Error::invalid(
        path,
        Some(Place::Json { path: first.path.clone(), line: None }),
        format!("{}{more}", first.message),
    ))
}

/// Writes a master atomically in our line layout.
pub fn save(master: &Master, path: &Path) -> Result<()> {
    atomic::write_with(path, |w| json::write(w, master))
}
