//! The folder a command writes its files into, made when missing and taken back on failure.

use crate::cli::printer::Printer;
use protest::Error;
use std::path::{Path, PathBuf};

/// The folder a command writes into, made when it was not there (with the folders above it),
/// and said so: the one behaviour of every output folder (`batch export --output-dir` and `batch
/// adjudicate --output-dir` do the same in the library, all or nothing). A command that fails
/// takes back what it made, unless it is no longer empty, and says so too.
#[must_use = "keep it once the files are written, or it is taken back"]
pub struct OutputFolder {
    made: Vec<PathBuf>,
    printer: Printer,
}

impl OutputFolder {
    pub fn make(p: &Printer, dir: &Path) -> anyhow::Result<OutputFolder> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        let mut folder = OutputFolder { made: Vec::new(), printer: p.clone() };
        for at in missing.into_iter().rev() {
            std::fs::create_dir(&at).map_err(|e| Error::io(&at, e))?;
            folder.made.push(at);
        }
        if !folder.made.is_empty() {
            p.say(format_args!("created the folder {}", dir.display()))?;
        }
        Ok(folder)
    }

    /// [`OutputFolder::make`] for the folder of an output file.
    pub fn of(p: &Printer, file: &Path) -> anyhow::Result<OutputFolder> {
        match file.parent() {
            Some(dir) => OutputFolder::make(p, dir),
            None => Ok(OutputFolder { made: Vec::new(), printer: p.clone() }),
        }
    }

    /// Keeps the folder: the command wrote its files.
    pub fn keep(mut self) {
        self.made.clear();
    }
}

impl Drop for OutputFolder {
    fn drop(&mut self) {
        let removed = self.made.iter().rev().filter(|dir| std::fs::remove_dir(dir).is_ok()).count();
        if let Some(dir) = self.made.last().filter(|_| removed == self.made.len()) {
            self.printer.note(format_args!("removed the folder {} again: nothing was written into it", dir.display()));
        }
    }
}
