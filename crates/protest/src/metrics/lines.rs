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
        Ok(LineReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 16, file),
            current: String::new(),
            line: 0,
        })
    }

    /// Moves to the next line; false at the end of the file.
    pub fn advance(&mut self) -> Result<bool> {
        let mut bytes = std::mem::take(&mut self.current).into_bytes();
        bytes.clear();
        let read = read_until_newline(&mut self.reader, &mut bytes).map_err(|e| Error::io(&self.path, e))?;
        if simdutf8::basic::from_utf8(&bytes).is_err() {
            return Err(Error::at_line(&self.path, self.line + 1, "not valid UTF-8 text"));
        }
        // SAFETY: checked to be UTF-8 just above (with SIMD: std's check took a tenth of APT's time
        // over a large corpus).
        self.current = unsafe { String::from_utf8_unchecked(bytes) };
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

/// `BufRead::read_until(b'\n')`, finding the end of the line with SIMD (std's search goes a
/// word at a time).
fn read_until_newline(reader: &mut impl BufRead, out: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let (done, used) = match memchr::memchr(b'\n', available) {
            Some(end) => (true, end + 1),
            None => (available.is_empty(), available.len()),
        };
        out.extend_from_slice(&available[..used]);
        reader.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
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
