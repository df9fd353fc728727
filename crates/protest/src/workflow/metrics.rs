//! The metrics' files, written all or nothing, for the command line and the window alike: report
//! tables, an APT run's `.score` and `.detail`, and the configuration of APT over a master. The
//! metrics compute what to write ([`crate::metrics`]); this writes it.

use crate::error::{Error, Result};
use crate::metrics::report::{Format, Table};
use crate::model::{CorpusId, Master};
use crate::scorers::apt::{AptConfig, AptOutcome, master, run};
use crate::store::atomic::{self, Outputs};
use crate::store::disk::{self, Disk};
use std::path::{Path, PathBuf};

/// Writes one table to `path` in `format`, replacing the file atomically.
pub fn write_table(path: &Path, table: &Table, format: Format) -> Result<()> {
    atomic::write(&disk::Os, path, format.render(table).as_bytes()).map(drop)
}

/// Writes each table to `dir/NAME.EXT` (e.g. `results.csv`), all or none, creating the folder;
/// returns the files written. What `protest report --output DIR` and the window's *Export all*
/// do.
pub fn write_tables(dir: &Path, tables: &[Table], format: Format) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut outputs = Outputs::new(&disk::Os);
    let mut written = Vec::with_capacity(tables.len());
    for table in tables {
        let path = dir.join(format.file_name(table));
        outputs.add(&path, |out| out.write_all(format.render(table).as_bytes()))?;
        written.push(path);
    }
    outputs.publish()?.keep();
    Ok(written)
}

/// Runs APT and writes `STEM.detail` and `STEM.score` as the reference does. Both files are
/// written in full under temporary names and only then put in place together, so a failed run
/// changes neither.
pub fn apt(config: &AptConfig, stem: &Path) -> Result<AptOutcome> {
    apt_on(&disk::Os, config, stem)
}

/// [`apt`], writing through `disk`.
pub fn apt_on(disk: &dyn Disk, config: &AptConfig, stem: &Path) -> Result<AptOutcome> {
    let (score_path, detail_path) = run::output_paths(stem);
    let mut outputs = Outputs::new(disk);
    let mut outcome = None;
    let written = outputs.add(&detail_path, |out| {
        let result = run::write_detail(config, out, &detail_path);
        let failed = result.is_err();
        outcome = Some(result);
        if failed { Err(std::io::Error::other("APT stopped")) } else { Ok(()) }
    });
    let outcome = match (outcome, written) {
        (Some(Err(e)), _) | (_, Err(e)) => return Err(e),
        (Some(Ok(outcome)), Ok(())) => outcome,
        (None, Ok(())) => unreachable!("the writer always runs"),
    };
    outputs.add(&score_path, |out| out.write_all(outcome.score_text(config.max_matrix).as_bytes()))?;
    outputs.publish()?.keep();
    Ok(outcome)
}

/// Writes into `dir` the `protest apt` configuration equivalent to APT over the master for the
/// translation `corpus` ([`master::config_files`]), all files or none; returns the
/// configuration's path.
pub fn apt_config(master: &Master, corpus: CorpusId, dir: &Path) -> Result<PathBuf> {
    let config = master::config_files(master, corpus, dir)?;
    let mut outputs = Outputs::new(&disk::Os);
    for (path, text) in &config.files {
        outputs.add(path, |out| out.write_all(text.as_bytes()))?;
    }
    outputs.publish()?.keep();
    Ok(config.ini)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::report::{TABLES, TableKind, tables};
    use crate::store::disk::{Fault, Faulty};

    #[test]
    fn tables_are_written_one_file_each_as_rendered() {
        let dir = tempfile::tempdir().unwrap();
        let master = crate::testing::tiny();
        let tables = tables(&master, ["results", "scores"].map(|n| TableKind::named(n).unwrap()));
        let out = dir.path().join("new folder");
        let written = write_tables(&out, &tables, Format::Latex).unwrap();
        assert_eq!(written, [out.join("results.tex"), out.join("scores.tex")]);
        for (path, table) in written.iter().zip(&tables) {
            assert_eq!(std::fs::read_to_string(path).unwrap(), Format::Latex.render(table));
        }
        let blocked = dir.path().join("a file");
        std::fs::write(&blocked, "").unwrap();
        let err = write_tables(&blocked, &tables, Format::Csv).unwrap_err();
        assert_eq!(err.path(), blocked, "{err}");
    }

    #[test]
    fn tables_are_written_all_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let tables = tables(&crate::testing::tiny(), TABLES);
        // A folder where the last table's file would go: nothing is written.
        let last = dir.path().join(Format::Csv.file_name(tables.last().unwrap()));
        std::fs::create_dir(&last).unwrap();
        assert!(write_tables(dir.path(), &tables, Format::Csv).is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(names, [last]);
    }

    /// docs/metrics.md: a failed run changes neither `.score` nor `.detail`, whatever fails.
    #[test]
    fn an_apt_run_writes_both_files_or_neither() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/apt");
        let config = AptConfig::read(&fixtures.join("config.ini")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let stem = dir.path().join("out");
        let (score, detail) = run::output_paths(&stem);
        let disk = Faulty::new(Fault::None);
        apt_on(&disk, &config, &stem).unwrap();
        let whole = (std::fs::read(&score).unwrap(), std::fs::read(&detail).unwrap());
        let count = disk.ops().len();
        for k in 0..count {
            for fault in [Fault::Once(k), Fault::FullFrom(k)] {
                // An earlier run's files are there: they stay as they were, or are both replaced.
                std::fs::write(&score, "old score").unwrap();
                std::fs::write(&detail, "old detail").unwrap();
                disk.set(fault);
                let now = |p: &Path| std::fs::read(p).unwrap();
                match apt_on(&disk, &config, &stem) {
                    Ok(_) => {
                        assert_eq!((now(&score), now(&detail)), whole, "{fault:?}");
                        // The copy of a replaced file whose removal failed after the fact is
                        // removed by the next writer.
                        atomic::remove_leftovers(&score);
                        atomic::remove_leftovers(&detail);
                    }
                    Err(_) => assert_eq!((now(&score), now(&detail)), (b"old score".to_vec(), b"old detail".to_vec())),
                }
                let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
                assert_eq!(names.len(), 2, "{fault:?}: {names:?}");
            }
        }
        // No earlier files: a failure leaves none.
        std::fs::remove_file(&score).unwrap();
        std::fs::remove_file(&detail).unwrap();
        disk.set(Fault::FullFrom(3));
        assert!(apt_on(&disk, &config, &stem).is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
