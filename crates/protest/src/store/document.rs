//! What the store keeps: a master, or a batch.

use crate::error::Result;
use crate::model::Master;
use crate::store::master_file;
use std::io::Write;
use std::path::Path;

/// A file the store can keep: a master, or a batch (which holds a restricted master).
pub trait Document: Sized + Clone {
    fn load(path: &Path) -> Result<Self>;
    /// Writes the document in its file format.
    fn write(&self, out: &mut dyn Write) -> std::io::Result<()>;
    /// Identifies the file for its journal.
    fn file_id(&self) -> &str;
    fn master(&self) -> &Master;
    fn master_mut(&mut self) -> &mut Master;
}

impl Document for Master {
    fn load(path: &Path) -> Result<Self> {
        master_file::load(path)
    }

    fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        master_file::write(self, out)
    }

    fn file_id(&self) -> &str {
        &self.id
    }

    fn master(&self) -> &Master {
        self
    }

    fn master_mut(&mut self) -> &mut Master {
        self
    }
}
