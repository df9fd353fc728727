//! Reading a text file line by line without holding it in memory, for the metrics, whose inputs
//! may be whole corpora. Lines end at `\n` or `\r\n`; a byte-order mark is skipped; invalid UTF-8
//! is an error naming the line.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind};
use std::path::{Path, PathBuf};

pub struct LineReader {
    path: PathBuf,
    reader: BufReader<File>,
    current: String,
    line: usize,
}

impl LineReader {
    pub fn open(path: &Path) -> Result<LineReader> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        Ok(LineReader { path: path.to_path_buf(), reader: BufReader::new(file), current: String::new(), line: 0 })
    }

    /// Moves to the next line; false at the end of the file.
    pub fn advance(&mut self) -> Result<bool> {
        self.current.clear();
        let read = self.reader.read_line(&mut self.current).map_err(|e| match e.kind() {
            ErrorKind::InvalidData => Error::at_line(&self.path, self.line + 1, "not valid UTF-8 text"),
            _ => Error::io(&self.path, e),
        })?;
        if read == 0 {
            return Ok(false);
        }
        self.line += 1;
        for ending in ['\n', '\r'] {
            if self.current.ends_with(ending) {
                self.current.pop();
            }
        }
        if self.line == 1 && self.current.starts_with('\u{feff}') {
            self.current.drain(..'\u{feff}'.len_utf8());
        }
        Ok(true)
    }

    /// The current line, without its ending.
    pub fn line(&self) -> &str {
        &self.current
    }

    /// The next line, or `None` at the end of the file.
    pub fn next_line(&mut self) -> Result<Option<&str>> {
        Ok(if self.advance()? { Some(self.line()) } else { None })
    }

    /// The 1-based number of the line last returned.
    pub fn line_number(&self) -> usize {
        self.line
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// An error about the line last returned.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::at_line(&self.path, self.line, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Result<Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        std::fs::write(&path, bytes).unwrap();
        let mut reader = LineReader::open(&path)?;
        let mut lines = Vec::new();
        while let Some(line) = reader.next_line()? {
            lines.push(line.to_owned());
        }
        Ok(lines)
    }

    #[test]
    fn endings_and_byte_order_mark() {
        assert_eq!(lines_of(b"\xef\xbb\xbfa b\r\nc\n\nd").unwrap(), ["a b", "c", "", "d"]);
        assert_eq!(lines_of(b"").unwrap(), Vec::<String>::new());
        assert_eq!(lines_of(b"\n").unwrap(), [""]);
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let err = lines_of(b"ok\nbad \xff\n").unwrap_err().to_string();
        assert!(err.ends_with("t.txt: line 2: not valid UTF-8 text"), "{err}");
        let err = LineReader::open(Path::new("/nonexistent/x")).err().unwrap();
        assert!(err.to_string().starts_with("/nonexistent/x: "));
    }
}
