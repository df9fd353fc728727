//! Converting the original PROTEST tool's files ([`crate::ingest::legacy`] has the rules): a master
//! into a new master file, a batch against its converted master, which may gain the batch's
//! annotator and their part of a task set so that the batch merges into it.

use super::{Content, Output, Prepared, Written, check_target, commit, write_alone};
use crate::error::{Error, Result};
use crate::ingest::legacy::{self, Converted, Options, Reference, Report, Unknown};
use crate::model::Master;
use crate::shell::Shell;
use crate::store::Store;
use crate::store::atomic::same_file;
use crate::store::disk::Disk;
use chrono::{DateTime, Utc};
use std::path::Path;

/// A converted master, written.
#[derive(Debug)]
pub struct ConvertedMaster {
    pub master: Master,
    pub report: Report,
}

/// A converted batch, written, and what it changed in its master.
#[derive(Debug)]
pub struct ConvertedBatch {
    pub report: Report,
    /// What the master gained, in plain words (`None`: nothing).
    pub placement: Option<String>,
    pub file: Written,
}

/// An old file to convert, where to, and how.
#[derive(Debug, Clone)]
pub struct Converting<'a> {
    /// The original tool's file (.db).
    pub old: &'a Path,
    /// The new file.
    pub target: &'a Path,
    /// Replace a file already at `target` (otherwise refused).
    pub replace: bool,
    /// Which translation corpus of an old master is the human reference.
    pub reference: Reference,
    /// Who an annotation by an unknown annotator is from.
    pub unknown: Unknown,
    /// The program showing the summary: its remedies are worded for it.
    pub shell: Shell,
    pub now: DateTime<Utc>,
}

impl Converting<'_> {
    /// The rules' options, with the converted master of a batch.
    fn options<'m>(&self, master: Option<&'m Master>) -> Options<'m> {
        Options { reference: self.reference.clone(), master, now: self.now, unknown: self.unknown, shell: self.shell }
    }

    /// Refuses a target that is the old file itself or, unless `replace`, any file.
    fn check_target(&self) -> Result<()> {
        if same_file(self.old, self.target) {
            return Err(Error::refused(
                self.target,
                "is the old file itself; choose another name for the converted file",
            ));
        }
        check_target(self.target, self.replace)
    }
}

/// What converting an old file would give, with nothing written: for showing the summary first.
#[derive(Debug)]
pub struct Preview {
    pub report: Report,
    /// For a batch: what its master would gain, in plain words (`None`: nothing).
    pub placement: Option<String>,
}

/// Converts the old file in memory (a batch against `master`, the converted master as it is now)
/// and says what it would give, after the checks writing it to the target makes, in words for
/// its shell. Converting for real afterwards gives the same, as long as the old file and the
/// master do not change in between.
pub fn preview(converting: &Converting, master: Option<&Master>) -> Result<Preview> {
    converting.check_target()?;
    match legacy::convert(converting.old, &converting.options(master))? {
        Converted::Master { report, .. } => Ok(Preview { report, placement: None }),
        Converted::Batch { placement, report, .. } => {
            let described = master.filter(|_| placement.changes_master()).map(|m| placement.describe(m));
            Ok(Preview { report, placement: described })
        }
    }
}

/// Converts an old master into a new master file at the target; the summary is in words for the
/// shell.
pub fn master(disk: &dyn Disk, converting: &Converting) -> Result<ConvertedMaster> {
    converting.check_target()?;
    let Converted::Master { master, report } = legacy::convert(converting.old, &converting.options(None))? else {
        unreachable!("a batch without a master is refused");
    };
    let output = Output {
        path: converting.target.to_path_buf(),
        replace: converting.replace,
        content: Content::Master(Box::new(master)),
    };
    write_alone(disk, std::slice::from_ref(&output))?;
    let Content::Master(master) = output.content else { unreachable!("made above") };
    Ok(ConvertedMaster { master: *master, report })
}

/// Converts an old batch against the open master, in memory.
pub fn prepare_batch(
    store: &Store<Master>,
    old: &Path,
    target: &Path,
    replace: bool,
    now: DateTime<Utc>,
) -> Result<Prepared<ConvertedBatch>> {
    let master_path = store.path();
    if same_file(old, target) || same_file(master_path, target) || same_file(master_path, old) {
        return Err(Error::refused(
            target,
            "the old batch, its master and the converted batch must be three different files",
        ));
    }
    check_target(target, replace)?;
    // A batch's summary names no remedy: any shell's words.
    let options = Options {
        reference: Reference::Guess,
        master: Some(store.master()),
        now,
        unknown: Unknown::default(),
        shell: Shell::default(),
    };
    let (batch, placement, report) = match legacy::convert(old, &options)? {
        Converted::Batch { batch, placement, report } => (batch, placement, report),
        Converted::Master { .. } => {
            return Err(Error::refused(old, "is an old master, not a batch: convert it on its own, without a master"));
        }
    };
    let draft = placement.changes_master().then(|| {
        let mut draft = store.master().clone();
        placement.apply(&mut draft);
        draft
    });
    let described = placement.changes_master().then(|| placement.describe(store.master()));
    let file = Written::of(target, &batch);
    let mut prepared = Prepared::new(store, draft, ConvertedBatch { report, placement: described, file });
    prepared.outputs.push(Output { path: target.to_path_buf(), replace, content: Content::Batch(Box::new(batch)) });
    Ok(prepared)
}

/// Converts an old batch against the open master and writes it, with the master's gains: both,
/// or nothing.
pub fn batch(
    store: &mut Store<Master>,
    old: &Path,
    target: &Path,
    replace: bool,
    now: DateTime<Utc>,
) -> Result<ConvertedBatch> {
    let prepared = prepare_batch(store, old, target, replace, now)?;
    commit(store, prepared)
}
