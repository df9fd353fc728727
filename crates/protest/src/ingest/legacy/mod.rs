//! Converting the original PROTEST tool's SQLite files ("PROTEST 1.1", and 1.0 where the
//! columns allow) into our masters and batches, without losing a judgement (docs/legacy.md).
//!
//! [`is_legacy`] tells an old file by its first bytes; [`inspect`] reads only its metadata;
//! [`convert`] does the whole conversion and returns the new file with a [`Report`] that sets
//! the old rows beside what they became. The old file is opened read-only and immutable, so
//! nothing (not even a journal) is ever written beside it.
//!
//! A master converts on its own. A batch needs its master converted first: the batch is made
//! from that master the way `protest batch export` makes one, and the master may need the
//! batch's annotator and their part of a task set ([`Placement`]), which the caller applies to
//! the master it saves.

mod batch;
mod db;
mod master;
mod old;
mod records;
mod report;
mod status;
mod suite;
mod tasks;
mod text;

pub use old::{FileType, VERSIONS};
pub use records::{UNKNOWN_NAME, Unknown};
pub use report::{Counts, OldCounts, OldValues, Report};
pub use tasks::{How, Placement};
pub use text::Reference;

use crate::error::{Error, Result};
use crate::model::Master;
use crate::shell::Shell;
use crate::store::batch_file::Batch;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

/// Whether the file looks like an original-tool file (an SQLite database). Cheap: reads 16
/// bytes; false when the file cannot be read.
pub fn is_legacy(path: &Path) -> bool {
    db::has_sqlite_header(path).unwrap_or(false)
}

/// Where the conversion of `old` goes unless the user says otherwise: beside it, its extension
/// (`.db`, `.sqlite`…) replaced by `.json`; never the old file itself.
pub fn suggested_path(old: &Path) -> PathBuf {
    let path = old.with_extension("json");
    if path == old { old.with_extension("converted.json") } else { path }
}

/// What an old file is, from its metadata alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    pub file_type: FileType,
    /// `PROTEST 1.1` or `PROTEST 1.0`.
    pub version: String,
    pub master_id: Option<String>,
    /// A batch's annotator.
    pub annotator: Option<String>,
}

/// Reads an old file's metadata (for a GUI deciding whether it must ask for the master).
pub fn inspect(path: &Path) -> Result<Info> {
    let (file_type, meta) = old::read_meta(path)?;
    Ok(Info { file_type, version: meta.version, master_id: meta.master_id, annotator: meta.annotator_name })
}

/// How to convert.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    /// Which translation is the human reference (masters only).
    pub reference: Reference,
    /// The converted master (batches only).
    pub master: Option<&'a Master>,
    /// The time recorded as the new file's creation (and of a task set a batch needs).
    pub now: DateTime<Utc>,
    /// Whose the rows without an annotator (NULL or 0) are (masters only).
    pub unknown: Unknown,
    /// Who shows the summary: its remedies name that shell's options or choices.
    pub shell: Shell,
}

/// A converted file.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // made once per conversion and taken apart at once
pub enum Converted {
    Master {
        master: Master,
        report: Report,
    },
    Batch {
        batch: Batch,
        /// What the master needs so the batch merges into it; apply it to the master before
        /// saving both.
        placement: Placement,
        report: Report,
    },
}

impl Converted {
    pub fn report(&self) -> &Report {
        match self {
            Converted::Master { report, .. } | Converted::Batch { report, .. } => report,
        }
    }
}

/// Converts an old master, or an old batch against `options.master`.
pub fn convert(path: &Path, options: &Options) -> Result<Converted> {
    let old = old::read(path)?;
    match (old.file_type, options.master) {
        (FileType::Master, _) => {
            let (master, report) = master::convert(path, &old, options)?;
            Ok(Converted::Master { master, report })
        }
        (FileType::Batch, Some(m)) => {
            let (batch, placement, report) = batch::convert(path, &old, m, options)?;
            Ok(Converted::Batch { batch, placement, report })
        }
        (FileType::Batch, None) => Err(Error::whole_file(
            path,
            "this is an annotation batch; convert its master first and give it (protest convert BATCH NEW --master MASTER.json)",
        )),
    }
}

/// The time of every converted record: the old tool kept none, so all get the same one
/// ("unknown"). A merge then never calls one converted record older than another (a file's
/// modification time would: it changes with a plain copy), and anything done in this PROTEST
/// after the conversion counts as newer.
pub const UNKNOWN_TIME: DateTime<Utc> = DateTime::<Utc>::UNIX_EPOCH;

/// The summary's word on times.
fn time_note() -> String {
    format!(
        "the original kept no time for any record; records are dated {} (\"unknown\"), so a merge never calls one converted record older than another, and anything changed in this PROTEST counts as newer",
        UNKNOWN_TIME.format("%Y-%m-%dT%H:%M:%SZ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggested_path_is_beside_the_old_file_and_never_the_old_file() {
        assert_eq!(suggested_path(Path::new("/d/museum.master.db")), Path::new("/d/museum.master.json"));
        assert_eq!(suggested_path(Path::new("old")), Path::new("old.json"));
        assert_eq!(suggested_path(Path::new("odd.json")), Path::new("odd.converted.json"));
    }
}
