//! A library error about a master's content, as an error naming the master file.

use protest::Error;
use std::path::Path;

/// Library errors about a master's content (a name taken, a task set missing…) become errors
/// naming the master file.
pub trait InFile<T> {
    fn in_file(self, path: &Path) -> Result<T, Error>;
}

impl<T, E: std::fmt::Display> InFile<T> for Result<T, E> {
    fn in_file(self, path: &Path) -> Result<T, Error> {
        self.map_err(|e| Error::whole_file(path, e.to_string()))
    }
}
