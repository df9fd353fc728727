//! The bundled sample — a master of 60 examples with its task set's two annotated batches
//! (`sample_batches/`) — built into the program, so that an installed `protest` without the
//! source tree still opens it on first start and can hand out a copy (`protest sample DIR`).

use crate::error::Error;
use crate::store::{atomic, disk::Disk};
use std::path::{Path, PathBuf};

/// The sample master's file name and bytes.
pub const MASTER: (&str, &[u8]) =
    ("sample.master.json", include_bytes!("../../../../sample_batches/sample.master.json"));

/// The sample's annotated batches (Anna's and Ben's parts of task set 1), names and bytes.
pub const BATCHES: [(&str, &[u8]); 2] = [
    ("sample.batch-1-anna.json", include_bytes!("../../../../sample_batches/sample.batch-1-anna.json")),
    ("sample.batch-1-ben.json", include_bytes!("../../../../sample_batches/sample.batch-1-ben.json")),
];

/// The files [`write_into`] writes, in the order it writes them: the master last.
pub fn files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    BATCHES.into_iter().chain([MASTER])
}

/// Writes the sample master and its batches into `dir` (which must exist), each file atomically
/// and the master last, so that a master there says the copy is whole; returns the master's path.
pub fn write_into(disk: &dyn Disk, dir: &Path) -> Result<PathBuf, Error> {
    for (name, bytes) in files() {
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
        for (name, bytes) in BATCHES {
            assert_eq!(std::fs::read(dir.path().join(name)).unwrap(), bytes);
            load_with_journal::<Batch>(&dir.path().join(name)).unwrap();
        }
    }
}
