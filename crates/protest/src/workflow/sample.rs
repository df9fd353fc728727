//! A copy of the bundled sample ([`crate::sample`]) in a folder: the window's first start, and
//! `protest sample DIR`.

use crate::error::Error;
use crate::sample::{self, MASTER};
use crate::store::{atomic, disk::Disk};
use std::path::{Path, PathBuf};

/// Writes the sample master and its batches into `dir` (which must exist), each file atomically
/// and the master last, so that a master there says the copy is whole; returns the master's path.
pub fn write_into(disk: &dyn Disk, dir: &Path) -> Result<PathBuf, Error> {
    for (name, bytes) in sample::files() {
        atomic::write(disk, &dir.join(name), bytes)?;
    }
    Ok(dir.join(MASTER.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::batch_file::Batch;
    use crate::store::{disk::Os, load_with_journal, master_file};

    #[test]
    fn the_embedded_sample_is_a_master_with_its_two_batches() {
        let dir = tempfile::tempdir().unwrap();
        let master = write_into(&Os, dir.path()).unwrap();
        let m = master_file::load(&master).unwrap();
        assert_eq!(m.examples.len(), 60);
        for (name, bytes) in sample::BATCHES {
            assert_eq!(std::fs::read(dir.path().join(name)).unwrap(), bytes);
            load_with_journal::<Batch>(&dir.path().join(name)).unwrap();
        }
    }
}
