//! Reading a text file line by line without holding it in memory: the corpora and alignments of the
//! scorers, the pronoun prediction task's data files and language models — inputs that may be
//! whole corpora — and, read whole, a small configuration ([`read_whole`]). Lines end at `\n` or `\r\n`; a byte-order mark is skipped; invalid UTF-8
//! is an error naming the line, and so is a line longer than [`MAX_LINE`] (a file without line
//! breaks, or not text at all): memory stays a few blocks and a line's bound, and the time
//! linear in the file, whatever it holds.
//!
//! A thread per file reads ahead: it reads blocks of whole lines, checks each block is UTF-8 at
//! once (simdutf8) and finds its line ends (memchr), so that the thread using the lines only takes
//! them — on two cores, finding and checking lines no longer adds to the work on them. A reader
//! of lines of separated columns ([`LineReader::separated`]) has the separators found there
//! too, in the same pass.

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

/// The longest line read, in bytes (1 MiB): a sentence, or a line of the pronoun task's data,
/// is a few hundred. At least [`BLOCK`], so that only a line carried over from one block to the
/// next can be longer.
pub const MAX_LINE: usize = 1 << 20;

/// Line ends and separators are dense in a block where there is one in fewer bytes than this:
/// looking at every word then costs less than searching from one to the next (measured on the
/// pronoun task's files: [`Block::find_ends_and`]).
const DENSE: usize = 20;

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
    /// The current line's separators, as a range of `block.separators`.
    current_separators: Range<usize>,
    line: usize,
    finished: bool,
}

/// Whole lines of the file, checked UTF-8, and what comes after them.
#[derive(Default)]
struct Block {
    text: String,
    /// Where each line ends in `text` (after its `\n`, or at the end of the file).
    ends: Vec<usize>,
    /// A reader of separated lines: where the separators are in `text`, and for each line where
    /// its separators end in this list.
    separators: Vec<usize>,
    separators_ends: Vec<usize>,
    after: Option<After>,
}

enum After {
    EndOfFile,
    /// The line after the block's lines is not UTF-8.
    NotUtf8,
    /// The line after the block's lines is longer than [`MAX_LINE`].
    TooLong,
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
        LineReader::spawn(path, reader, None)
    }

    /// As [`LineReader::over`], for lines of columns split by `separator` (an ASCII byte, not a
    /// line break nor zero): where it is in each line is found as the lines are, on the reading
    /// thread ([`LineReader::separators`]).
    pub fn separated(path: &Path, reader: impl Read + Send + 'static, separator: u8) -> LineReader {
        assert!(separator.is_ascii() && !matches!(separator, 0 | b'\n' | b'\r'), "not a column separator");
        LineReader::spawn(path, reader, Some(separator))
    }

    fn spawn(path: &Path, reader: impl Read + Send + 'static, separator: Option<u8>) -> LineReader {
        // Two blocks ahead at most: memory stays a few blocks whatever the size of the file.
        let (sender, blocks) = sync_channel(2);
        let (used, spare) = sync_channel(2);
        std::thread::spawn(move || read_ahead(reader, separator, &sender, &spare));
        LineReader {
            path: path.to_path_buf(),
            blocks,
            used,
            block: Block::default(),
            next: 0,
            current: 0..0,
            current_separators: 0..0,
            line: 0,
            finished: false,
        }
    }

    /// Moves to the next line; false at the end of the file.
    pub fn advance(&mut self) -> Result<bool> {
        loop {
            if let Some(&end) = self.block.ends.get(self.next) {
                let start = if self.next == 0 { 0 } else { self.block.ends[self.next - 1] };
                if let Some(&last) = self.block.separators_ends.get(self.next) {
                    let first = if self.next == 0 { 0 } else { self.block.separators_ends[self.next - 1] };
                    self.current_separators = first..last;
                }
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
                Some(After::TooLong) => {
                    self.finished = true;
                    return Err(Error::at_line(
                        &self.path,
                        self.line + 1,
                        format!(
                            "longer than {} MiB, the most a line may have: is this a text file with one sentence a line?",
                            MAX_LINE >> 20
                        ),
                    ));
                }
                Some(After::Failed(e)) => {
                    self.finished = true;
                    return Err(Error::io(&self.path, e));
                }
                None => {}
            }
            if self.finished {
                (self.current, self.current_separators) = (0..0, 0..0);
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
        &self.block.text[self.line_range()]
    }

    /// Where the current line is in the block, without its ending.
    fn line_range(&self) -> Range<usize> {
        let bytes = self.block.text.as_bytes();
        let (start, mut end) = (self.line_start(), self.current.end);
        for ending in [b'\n', b'\r'] {
            end -= usize::from(end > start && bytes[end - 1] == ending);
        }
        start..end
    }

    /// Where the current line starts in the block: after the byte-order mark on the first line.
    fn line_start(&self) -> usize {
        const MARK: &str = "\u{feff}";
        let marked = self.line == 1 && self.block.text.as_bytes()[self.current.clone()].starts_with(MARK.as_bytes());
        self.current.start + if marked { MARK.len() } else { 0 }
    }

    /// Where the separator is in the current line (as [`LineReader::line`] gives it: byte
    /// offsets into it); none for a reader not opened [`LineReader::separated`].
    pub fn separators(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        let start = self.line_start();
        self.block.separators[self.current_separators.clone()].iter().map(move |&at| at - start)
    }

    /// Whether the current line ended with a line break (all but perhaps the file's last do).
    pub fn terminated(&self) -> bool {
        self.block.text.as_bytes()[self.current.clone()].ends_with(b"\n")
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
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::at_line(&self.path, self.line, message)
    }
}

/// The reading thread: blocks of whole lines until the end of the file or an error. Stops when
/// the [`LineReader`] is dropped.
fn read_ahead(mut file: impl Read, separator: Option<u8>, sender: &SyncSender<Block>, spare: &Receiver<Block>) {
    // What was read and not yet sent: the start of a line the last block did not finish
    // (`buffer[..have]`), then the bytes just read. A block's text is checked once, by
    // simdutf8, and copied into the block's own string: a copy at memory speed is what a
    // conversion without a second check and without `unsafe` costs. `String::from_utf8` over
    // the bytes instead (std's check, a third as fast on French text) cost APT and AutoPRF at
    // 100× a fifth more CPU time (docs/performance.md). The buffer grows by doubling and is
    // zeroed only where it grows: a long line carried over many blocks costs time linear in its
    // length.
    let mut buffer: Vec<u8> = Vec::new();
    let mut have = 0;
    let mut dense = true; // whether the last block had line ends and separators close together
    loop {
        // A block used up, over whose old text and lists this one is written: no new allocation
        // per block.
        let mut block = spare.try_recv().unwrap_or_default();
        if buffer.len() < have + BLOCK {
            buffer.resize(have + BLOCK, 0);
        }
        let (read, failed) = read_full(&mut file, &mut buffer[have..have + BLOCK]);
        let filled = have + read;
        let at_end = read == 0;
        // The line carried over ends in what was read, or goes on: either way no longer than
        // MAX_LINE. Only the bytes just read are searched.
        let first_end = memchr::memchr(b'\n', &buffer[have..filled]).map(|i| have + i);
        if failed.is_none() && first_end.unwrap_or(filled) > MAX_LINE {
            block.text.clear();
            block.ends.clear();
            block.separators.clear();
            block.separators_ends.clear();
            block.after = Some(After::TooLong);
            let _ = sender.send(block);
            return;
        }
        // Whole lines only, unless the file ends without a line end.
        let whole = match first_end.and_then(|_| memchr::memrchr(b'\n', &buffer[have..filled])).map(|i| have + i) {
            _ if failed.is_some() => 0, // the carried start of a line is not a line
            Some(last) if !at_end => last + 1,
            None if !at_end => {
                have = filled;
                continue;
            }
            _ => filled,
        };
        block.after = match (failed, at_end) {
            (Some(e), _) => Some(After::Failed(e)),
            (None, true) => Some(After::EndOfFile),
            (None, false) => None,
        };
        block.text.clear();
        block.text.push_str(utf8_lines(&buffer[..whole], &mut block.after));
        buffer.copy_within(whole..filled, 0);
        have = filled - whole;
        match separator {
            None => block.find_ends(),
            Some(separator) => {
                block.find_ends_and(separator, dense);
                dense = (block.ends.len() + block.separators.len()) * DENSE > block.text.len();
            }
        }
        let last = block.after.is_some();
        if sender.send(block).is_err() || last {
            return;
        }
    }
}

/// The lines of `bytes` as text: all of them, or those before the line with an invalid byte,
/// with [`After::NotUtf8`] then in `after` (the lines before it are handed out, then the error).
fn utf8_lines<'b>(bytes: &'b [u8], after: &mut Option<After>) -> &'b str {
    simdutf8::compat::from_utf8(bytes).unwrap_or_else(|e| {
        let bad_line = memchr::memrchr(b'\n', &bytes[..e.valid_up_to()]).map_or(0, |i| i + 1);
        *after = Some(After::NotUtf8);
        // Valid up to `valid_up_to`, so up to the line's start: the `Err` is never taken.
        simdutf8::basic::from_utf8(&bytes[..bad_line]).unwrap_or_default()
    })
}

impl Block {
    /// Where the lines of `text` end: after each `\n`, and at the end of a last line without one.
    fn find_ends(&mut self) {
        let bytes = self.text.as_bytes();
        self.ends.clear();
        self.ends.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
        self.end_last_line();
    }

    /// The line ends, and where `separator` is in the lines. Where they are `dense` (as in the
    /// pronoun task's short lines: a gold line of its examples has some 60 bytes with four tabs),
    /// a word of eight bytes at a time: memchr's searches cost more to set up than to run between
    /// matches so close. On a million such lines in cache `memchr2_iter` took 35 ms, this 19;
    /// on the task's real lines (some 340 bytes) `memchr2_iter` took 56 ms, this 108.
    fn find_ends_and(&mut self, separator: u8, dense: bool) {
        let bytes = self.text.as_bytes();
        self.ends.clear();
        self.separators.clear();
        self.separators_ends.clear();
        let mut found = |at: usize, line_end: bool| {
            if line_end {
                self.ends.push(at + 1);
                self.separators_ends.push(self.separators.len());
            } else {
                self.separators.push(at);
            }
        };
        if !dense {
            memchr::memchr2_iter(b'\n', separator, bytes).for_each(|at| found(at, bytes[at] == b'\n'));
        } else {
            let (words, rest) = bytes.as_chunks::<8>();
            // The last bytes padded with zeros, neither a line end nor a separator.
            for (i, word) in words.iter().map(|w| u64::from_le_bytes(*w)).chain([little_endian(rest)]).enumerate() {
                let line_ends = bytes_equal(word, b'\n');
                let mut matches = line_ends | bytes_equal(word, separator);
                while matches != 0 {
                    let bit = matches & matches.wrapping_neg();
                    found(i * 8 + matches.trailing_zeros() as usize / 8, line_ends & bit != 0);
                    matches ^= bit;
                }
            }
        }
        if self.end_last_line() {
            self.separators_ends.push(self.separators.len());
        }
    }

    /// Ends the last line at the end of the text where it has no line end; whether it did.
    fn end_last_line(&mut self) -> bool {
        let bytes = self.text.as_bytes();
        let unended = bytes.last().is_some_and(|&b| b != b'\n');
        if unended {
            self.ends.push(bytes.len());
        }
        unended
    }
}

/// Up to eight bytes as an integer, the first the lowest, padded with zeros. Byte by byte: a
/// copy of a length not known at compile time is a call to memcpy, dearer than the work here.
fn little_endian(bytes: &[u8]) -> u64 {
    debug_assert!(bytes.len() <= 8);
    bytes.iter().rev().fold(0, |word, &b| word << 8 | u64::from(b))
}

/// The high bit of each byte of `word` that equals `byte`, the other bits clear: a byte's low
/// seven bits plus 0x7f reach its high bit exactly when they are not all zero, and never carry
/// into the next byte.
fn bytes_equal(word: u64, byte: u8) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ (u64::from(byte) * 0x0101_0101_0101_0101);
    !(((x & LOW) + LOW) | x) & !LOW
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
    fn separators_found_with_the_lines() {
        // Tabs at every offset in the eight-byte words, lines across blocks and one longer than
        // two blocks, a byte-order mark, both line endings and a last line without one: the
        // separators are the tabs of each line as `line` gives it.
        let mut text = String::from("\u{feff}\ta\tb\r\n");
        for n in 0..3 * BLOCK / 100 {
            let tabs = n % 7;
            for i in 0..tabs {
                text.push_str(&"é".repeat((n + i) % 5));
                text.push('\t');
            }
            text.push_str(&"x".repeat(n % 300));
            text.push_str(if n % 4 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str(&"\ty".repeat(BLOCK));
        text.push_str("\nlast\t");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tsv");
        std::fs::write(&path, &text).unwrap();
        let file = File::open(&path).unwrap();
        let mut reader = LineReader::separated(&path, file, b'\t');
        let mut plain = LineReader::open(&path).unwrap();
        let mut count = 0;
        while reader.advance().unwrap() {
            assert!(plain.advance().unwrap());
            let tabs: Vec<usize> = reader.line().match_indices('\t').map(|(i, _)| i).collect();
            assert_eq!(reader.separators().collect::<Vec<_>>(), tabs, "line {}", reader.line_number());
            assert_eq!((reader.line(), reader.terminated()), (plain.line(), plain.terminated()));
            assert_eq!(plain.separators().len(), 0, "a reader not separated finds none");
            count += 1;
        }
        assert_eq!(count, text.lines().count());
        assert_eq!(reader.separators().len(), 0, "none after the last line");
        // Both ways of finding them, whichever the reader took.
        for text in [text.as_str(), "a\tb", "a\tb\n\t\n", "", "\n\n\t"] {
            let mut dense = Block { text: text.to_owned(), ..Block::default() };
            dense.find_ends_and(b'\t', true);
            let mut sparse = Block { text: text.to_owned(), ..Block::default() };
            sparse.find_ends_and(b'\t', false);
            assert_eq!(
                (&dense.ends, &dense.separators, &dense.separators_ends),
                (&sparse.ends, &sparse.separators, &sparse.separators_ends)
            );
            assert_eq!(dense.ends.len(), text.lines().count());
            assert_eq!(dense.separators.len(), text.matches('\t').count());
        }
    }

    #[test]
    fn a_line_longer_than_the_bound_is_refused_naming_it() {
        // The longest line there may be, across blocks, and lines after it.
        let mut text = "short\n".to_string();
        text.push_str(&"é".repeat(MAX_LINE / 2));
        text.push_str("\nafter\n");
        assert_eq!(lines_of(text.as_bytes()).unwrap().len(), 3);
        // One byte more, with or without a line end after it, in a file with or without lines.
        for (text, line) in [
            (format!("short\n{}x\nafter\n", "é".repeat(MAX_LINE / 2)), 2),
            (format!("{}x", "é".repeat(MAX_LINE / 2)), 1),
            ("x".repeat(3 * MAX_LINE + 7), 1),
            (format!("{}{}", "line\n".repeat(BLOCK), "y".repeat(MAX_LINE + 1)), BLOCK + 1),
        ] {
            let err = lines_of(text.as_bytes()).unwrap_err().to_string();
            assert!(
                err.ends_with(&format!(
                    "t.txt: line {line}: longer than 1 MiB, the most a line may have: is this a text file with one sentence a line?"
                )),
                "{err}"
            );
        }
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let err = lines_of(b"ok\nbad \xff\n").unwrap_err().to_string();
        assert!(err.ends_with("t.txt: line 2: not valid UTF-8 text"), "{err}");
        let err = LineReader::open(Path::new("/nonexistent/x")).err().unwrap();
        assert!(err.to_string().starts_with("/nonexistent/x: "));
    }
}
