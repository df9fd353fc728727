//! Reading a text file line by line without holding it in memory, for the metrics, whose inputs
//! may be whole corpora. Lines end at `\n` or `\r\n`; a byte-order mark is skipped; invalid UTF-8
//! is an error naming the line.
//!
//! A thread per file reads ahead: it reads blocks of whole lines, checks each block is UTF-8 at
//! once and finds its line ends (memchr), so that the thread using the lines only takes
//! them — on two cores, finding and checking lines no longer adds to the work on them.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// The whole text of a small file (a configuration), read at once.
pub fn read_whole(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}

/// Bytes read at a time by the thread reading ahead.
const BLOCK: usize = 1 << 18;

pub struct LineReader {
    path: PathBuf,
    blocks: Receiver<Block>,
    /// Blocks used up, handed back to the reading thread to be filled again: a new 256 KiB
    /// allocation per block made the allocator give memory back to the system and fault it in
    /// again, with the kernel's locks contended between the threads.
    used: SyncSender<Block>,
    block: Block,
    /// The next line of `block`, as an index into its `ends`.
    next: usize,
    /// The current line in `block.text`, with its ending: cut off only when the line is asked
    /// for ([`LineReader::line`]), so that a line skipped (most of the translations' lines in
    /// APT and AutoPRF) is not read at all by this thread.
    current: Range<usize>,
    line: usize,
    finished: bool,
}

/// Whole lines of the file, checked UTF-8, and what comes after them.
#[derive(Default)]
struct Block {
    text: String,
    /// Where each line ends in `text` (after its `\n`, or at the end of the file).
    ends: Vec<usize>,
    after: Option<After>,
}

enum After {
    EndOfFile,
    /// The line after the block's lines is not UTF-8.
    NotUtf8,
    Failed(std::io::Error),
}

impl LineReader {
    pub fn open(path: &Path) -> Result<LineReader> {
        // Counted: the bytes read are how far long work over corpora has come.
        let file = crate::progress::Counting::new(File::open(path).map_err(|e| Error::io(path, e))?);
        Ok(LineReader::over(path, file))
    }

    /// The lines `reader` gives (a decompressed file, say), named `path` in errors.
    pub fn over(path: &Path, reader: impl Read + Send + 'static) -> LineReader {
        // Two blocks ahead at most: memory stays a few blocks whatever the size of the file.
        let (sender, blocks) = sync_channel(2);
        let (used, spare) = sync_channel(2);
        std::thread::spawn(move || read_ahead(reader, &sender, &spare));
        LineReader {
            path: path.to_path_buf(),
            blocks,
            used,
            block: Block::default(),
            next: 0,
            current: 0..0,
            line: 0,
            finished: false,
        }
    }

    /// Moves to the next line; false at the end of the file.
    pub fn advance(&mut self) -> Result<bool> {
        loop {
            if let Some(&end) = self.block.ends.get(self.next) {
                let start = if self.next == 0 { 0 } else { self.block.ends[self.next - 1] };
                self.next += 1;
                self.line += 1;
                self.current = start..end;
                return Ok(true);
            }
            match self.block.after.take() {
                Some(After::EndOfFile) => self.finished = true,
                Some(After::NotUtf8) => {
                    self.finished = true;
                    return Err(Error::at_line(&self.path, self.line + 1, "not valid UTF-8 text"));
                }
                Some(After::Failed(e)) => {
                    self.finished = true;
                    return Err(Error::io(&self.path, e));
                }
                None => {}
            }
            if self.finished {
                self.current = 0..0;
                return Ok(false);
            }
            match self.blocks.recv() {
                Ok(block) => {
                    let _ = self.used.try_send(std::mem::replace(&mut self.block, block));
                    self.next = 0;
                }
                Err(_) => self.finished = true, // the reader always ends with `after`; never here
            }
        }
    }

    /// The current line, without its ending.
    pub fn line(&self) -> &str {
        let mut line = &self.block.text[self.current.clone()];
        for ending in ['\n', '\r'] {
            line = line.strip_suffix(ending).unwrap_or(line);
        }
        if self.line == 1 {
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        line
    }

    /// Whether the current line ended with a line break (all but perhaps the file's last do).
    pub fn terminated(&self) -> bool {
        self.block.text[self.current.clone()].ends_with('\n')
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

/// The lines of `bytes` as text, checked UTF-8 once: up to the line with an invalid byte, if
/// any, with [`After::NotUtf8`] then in `after` (the lines before it are handed out, then the
/// error).
fn utf8_lines(bytes: Vec<u8>, after: &mut Option<After>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let bad_line = memchr::memrchr(b'\n', &bytes[..valid]).map_or(0, |i| i + 1);
        *after = Some(After::NotUtf8);
        // Valid UTF-8 up to `valid`: nothing is replaced.
        String::from_utf8_lossy(&bytes[..bad_line]).into_owned()
    })
}

/// The reading thread: blocks of whole lines until the end of the file or an error. Stops when
/// the [`LineReader`] is dropped.
fn read_ahead(mut file: impl Read, sender: &SyncSender<Block>, spare: &Receiver<Block>) {
    let mut carried: Vec<u8> = Vec::new(); // the start of a line the last block did not finish
    let mut spare_ends = Vec::new();
    loop {
        let mut bytes = match spare.try_recv() {
            Ok(block) => {
                spare_ends = block.ends;
                block.text.into_bytes()
            }
            Err(_) => Vec::with_capacity(carried.len() + BLOCK),
        };
        // Into a reused block, over its old bytes: no new allocation per block, and only the part
        // of the block its old text did not fill is zeroed first (`read_to_end` zeroed it all).
        let have = carried.len();
        bytes.resize(bytes.len().max(have + BLOCK), 0);
        bytes[..have].copy_from_slice(&carried);
        let (read, failed) = read_full(&mut file, &mut bytes[have..have + BLOCK]);
        bytes.truncate(have + read);
        let at_end = read == 0;
        // Whole lines only, unless the file ends without a line end.
        let whole = match memchr::memrchr(b'\n', &bytes) {
            _ if failed.is_some() => 0, // the carried start of a line is not a line
            Some(last) if !at_end => last + 1,
            None if !at_end => {
                carried = bytes;
                continue;
            }
            _ => bytes.len(),
        };
        carried = bytes[whole..].to_vec();
        bytes.truncate(whole);
        let mut after = match (failed, at_end) {
            (Some(e), _) => Some(After::Failed(e)),
            (None, true) => Some(After::EndOfFile),
            (None, false) => None,
        };
        let text = utf8_lines(bytes, &mut after);
        let mut ends = std::mem::take(&mut spare_ends);
        ends.clear();
        let bytes = text.as_bytes();
        ends.extend(
            memchr::memchr_iter(b'\n', bytes)
                .map(|i| i + 1)
                .chain((bytes.last() != Some(&b'\n') && !bytes.is_empty()).then_some(bytes.len())),
        );
        let last = after.is_some();
        if sender.send(Block { text, ends, after }).is_err() || last {
            return;
        }
    }
}

/// Reads until `buffer` is full or the file ends: the bytes read, and the error that stopped it.
fn read_full(file: &mut impl Read, buffer: &mut [u8]) -> (usize, Option<std::io::Error>) {
    let mut read = 0;
    while read < buffer.len() {
        match file.read(&mut buffer[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return (0, Some(e)),
        }
    }
    (read, None)
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
    fn lines_across_blocks() {
        // Lines of every length around the block size, one longer than two blocks, multi-byte
        // characters everywhere: the same lines as `str::lines` (which also drops a `\r`).
        let mut text = String::new();
        for n in 0..3 * BLOCK / 1000 {
            text.push_str(&"é".repeat(n % 700));
            text.push_str(if n % 3 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str(&"x".repeat(2 * BLOCK + 5));
        text.push('\n');
        text.push_str("last, without an ending");
        let expected: Vec<&str> = text.lines().collect();
        assert_eq!(lines_of(text.as_bytes()).unwrap(), expected);
        // A bad byte in a later block names its line.
        let count = expected.len();
        let mut bytes = text.clone().into_bytes();
        let at = bytes.len() - 3;
        bytes[at] = 0xff;
        let err = lines_of(&bytes).unwrap_err().to_string();
        assert!(err.ends_with(&format!("line {count}: not valid UTF-8 text")), "{err}");
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let err = lines_of(b"ok\nbad \xff\n").unwrap_err().to_string();
        assert!(err.ends_with("t.txt: line 2: not valid UTF-8 text"), "{err}");
        let err = LineReader::open(Path::new("/nonexistent/x")).err().unwrap();
        assert!(err.to_string().starts_with("/nonexistent/x: "));
    }
}
