//! The shared tasks' data file (docs/pronoun-prediction.md#the-data-file): one sentence pair a
//! line, five tab-separated columns — the classes of the line's placeholders, the target words
//! removed at them, the tokenised source, the target with each removed word replaced by
//! `REPLACE_<i>`, and the alignment `s-t` — with the documents in a `.doc-ids` file beside it,
//! one id a line. Plain or gzip-compressed (recognised by its first bytes, whatever the name).

use crate::error::{Error, Result};
use crate::store::atomic::Outputs;
use crate::store::disk::Disk;
use crate::text_file::LineReader;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The prefix of a placeholder token.
pub const PLACEHOLDER: &str = "REPLACE_";

/// The five columns of a line as the reference scorers accept it for a gold file: exactly five,
/// the third to fifth not empty — except that, as the scorers match a line with its line break,
/// an empty fifth column passes where the line has one (every line but perhaps the last).
/// `terminated` says whether `line` (given without its ending) had a line break.
pub fn columns(line: &str, terminated: bool) -> Option<[&str; 5]> {
    let tabs = layout(line.len(), memchr::memchr_iter(b'\t', line.as_bytes()), terminated)?;
    let column = |i: usize| &line[if i == 0 { 0 } else { tabs[i - 1] + 1 }..tabs.get(i).copied().unwrap_or(line.len())];
    Some([column(0), column(1), column(2), column(3), column(4)])
}

/// The labels of a gold line — its first column — if the line has the layout [`columns`]
/// requires: checked from where its tabs are, found already as a reader of data files finds
/// them ([`open_data`]); the other columns' text is not looked at. (Finding the tabs line by
/// line, and cutting out every column, was most of the work of scoring a large file.)
pub fn gold_labels(line: &str, tabs: impl Iterator<Item = usize>, terminated: bool) -> Option<&str> {
    layout(line.len(), tabs, terminated).map(|tabs| &line[..tabs[0]])
}

/// Where the four tabs of a line of `length` bytes are, if it has the layout [`columns`] requires.
fn layout(length: usize, mut tabs: impl Iterator<Item = usize>, terminated: bool) -> Option<[usize; 4]> {
    let found = [tabs.next()?, tabs.next()?, tabs.next()?, tabs.next()?];
    if tabs.next().is_some() {
        return None;
    }
    // A column is empty where its tab is right after the one before it (or the line's end).
    let filled = found[2] > found[1] + 1 && found[3] > found[2] + 1 && (terminated || length > found[3] + 1);
    filled.then_some(found)
}

/// What the scorers read of a prediction line: the first column, up to a tab or carriage return.
pub fn prediction_labels(line: &str) -> &str {
    // Byte by byte: the labels are a few bytes, shorter than a search takes to set up.
    &line[..line.bytes().position(|b| b == b'\t' || b == b'\r').unwrap_or(line.len())]
}

/// Words separated by single spaces, none where `text` is empty.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(' ').filter(move |_| !text.is_empty())
}

/// A placeholder in a line's target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placeholder {
    /// Its position among the target's tokens.
    pub token: usize,
    /// The `i` of `REPLACE_<i>`: in the 2015 data the source pronoun's token position.
    pub index: usize,
}

/// One line of a data file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DataLine {
    /// Column 1: a class label for each placeholder, in order (none for a line without, and none
    /// in a test set whose classes are withheld).
    pub labels: Vec<String>,
    /// Column 2: the target word removed at each placeholder (`NONE` where the pronoun had no
    /// aligned word), or none.
    pub words: Vec<String>,
    /// Column 3: the tokenised source sentence.
    pub source: String,
    /// Column 4: the target sentence with placeholders.
    pub target: String,
    /// Column 5: the alignment, `s-t` pairs from 0.
    pub alignment: String,
}

/// Why a line is not one of the task's data layout ([`DataLine::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Not five tab-separated columns with the 3rd to 5th not empty: how many columns it has.
    #[error(
        "not a line of the task's data layout: five tab-separated columns with the 3rd to 5th not empty \
         (this line has {found} column{})",
        if *found == 1 { "" } else { "s" }
    )]
    Columns { found: usize },
    #[error("the words of columns 1 and 2 are separated by single spaces")]
    Spacing,
    #[error("{labels} labels for {placeholders} placeholders")]
    Labels { labels: usize, placeholders: usize },
    #[error("{words} removed words for {labels} labels")]
    Words { words: usize, labels: usize },
}

/// A pair of a data line's alignment that is not `s-t` with two numbers: the pair as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPair {
    #[error("alignment pair '{0}' is not s-t")]
    NotAPair(String),
    #[error("alignment pair '{0}' is not two numbers")]
    NotNumbers(String),
}

impl DataLine {
    /// Parses a line (without its ending); the error says what is wrong.
    pub fn parse(line: &str, terminated: bool) -> Result<DataLine, LineError> {
        let [labels, words_, source, target, alignment] =
            columns(line, terminated).ok_or_else(|| LineError::Columns { found: line.split('\t').count() })?;
        let data = DataLine {
            labels: words(labels).map(String::from).collect(),
            words: words(words_).map(String::from).collect(),
            source: source.to_owned(),
            target: target.to_owned(),
            alignment: alignment.to_owned(),
        };
        if data.labels.iter().chain(&data.words).any(String::is_empty) {
            return Err(LineError::Spacing);
        }
        let placeholders = data.placeholders().len();
        if !data.labels.is_empty() && data.labels.len() != placeholders {
            return Err(LineError::Labels { labels: data.labels.len(), placeholders });
        }
        if !data.words.is_empty() && data.words.len() != data.labels.len() {
            return Err(LineError::Words { words: data.words.len(), labels: data.labels.len() });
        }
        Ok(data)
    }

    pub fn source_tokens(&self) -> impl Iterator<Item = &str> {
        self.source.split(' ').filter(|t| !t.is_empty())
    }

    pub fn target_tokens(&self) -> impl Iterator<Item = &str> {
        self.target.split(' ').filter(|t| !t.is_empty())
    }

    /// The placeholders of the target, in order.
    pub fn placeholders(&self) -> Vec<Placeholder> {
        self.target_tokens()
            .enumerate()
            .filter_map(|(token, t)| Some(Placeholder { token, index: placeholder_index(t)? }))
            .collect()
    }

    /// The alignment's links, (source, target) positions; the error names a bad pair.
    pub fn links(&self) -> Result<Vec<(usize, usize)>, BadPair> {
        self.alignment
            .split(' ')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (s, t) = pair.split_once('-').ok_or_else(|| BadPair::NotAPair(pair.to_owned()))?;
                match (s.parse(), t.parse()) {
                    (Ok(s), Ok(t)) => Ok((s, t)),
                    _ => Err(BadPair::NotNumbers(pair.to_owned())),
                }
            })
            .collect()
    }

    /// The line as the file holds it, without its line break.
    pub fn to_line(&self) -> String {
        [&self.labels.join(" "), &self.words.join(" "), &self.source, &self.target, &self.alignment]
            .map(|s| &**s)
            .join("\t")
    }
}

/// The `i` of a placeholder token `REPLACE_<i>`.
pub fn placeholder_index(token: &str) -> Option<usize> {
    let digits = token.strip_prefix(PLACEHOLDER)?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok()).flatten()
}

/// A data file read whole, with its documents when a `.doc-ids` file is beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSet {
    pub path: PathBuf,
    pub lines: Vec<DataLine>,
    /// The document id of each line.
    pub documents: Option<Vec<String>>,
    /// Why the `.doc-ids` file beside the data was not used, naming it, where one is there but
    /// does not give one id per line (a list of the set's documents, say): the lines are then
    /// read without documents rather than refused.
    pub documents_problem: Option<String>,
}

impl DataSet {
    /// Reads a data file, plain or gzip, and the document ids beside it if there are
    /// ([`doc_ids_beside`]; a `.doc-ids` file that does not fit is left aside and said why).
    pub fn read(path: &Path) -> Result<DataSet> {
        let mut reader = open_lines(path)?;
        let mut lines = Vec::new();
        while reader.advance()? {
            let terminated = reader.terminated();
            lines.push(DataLine::parse(reader.line(), terminated).map_err(|m| reader.error(m))?);
        }
        let (documents, documents_problem) = match doc_ids_beside(path).map(|ids| read_doc_ids(&ids, lines.len())) {
            None => (None, None),
            Some(Ok(ids)) => (Some(ids), None),
            Some(Err(e)) => (None, Some(e.to_string())),
        };
        Ok(DataSet { path: path.to_path_buf(), lines, documents, documents_problem })
    }

    /// The number of placeholders of all lines.
    pub fn placeholders(&self) -> usize {
        self.lines.iter().map(|l| l.placeholders().len()).sum()
    }

    /// The lines of the document of line `line`, as a range (the whole file without documents).
    pub fn document_of(&self, line: usize) -> std::ops::Range<usize> {
        let Some(ids) = &self.documents else { return 0..self.lines.len() };
        let id = &ids[line];
        let start = ids[..line].iter().rposition(|d| d != id).map_or(0, |i| i + 1);
        let end = ids[line..].iter().position(|d| d != id).map_or(ids.len(), |i| line + i);
        start..end
    }
}

/// Opens a text file, plain or gzip-compressed, for reading line by line.
pub fn open_lines(path: &Path) -> Result<LineReader> {
    open(path, None)
}

/// Opens a data file, plain or gzip-compressed, for reading line by line, the tabs of each line
/// found as it is read ([`LineReader::separators`]).
pub fn open_data(path: &Path) -> Result<LineReader> {
    open(path, Some(b'\t'))
}

fn open(path: &Path, separator: Option<u8>) -> Result<LineReader> {
    let mut file = crate::progress::Counting::new(File::open(path).map_err(|e| Error::io(path, e))?);
    let mut magic = [0u8; 2];
    let mut have = 0;
    while have < 2 {
        match file.read(&mut magic[have..]) {
            Ok(0) => break,
            Ok(n) => have += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    let start = io::Cursor::new(magic[..have].to_vec());
    let over = |reader: Box<dyn Read + Send>| match separator {
        None => LineReader::over(path, reader),
        Some(separator) => LineReader::separated(path, reader, separator),
    };
    Ok(if magic[..have] == [0x1f, 0x8b] {
        over(Box::new(Bounded::new(start.chain(file), FREE_EXPANSION)))
    } else {
        over(Box::new(start.chain(file)))
    })
}

/// How many times its compressed size a gzip file may give, once it has given [`FREE_EXPANSION`]:
/// text compresses some 3 to 10 times, and a few kilobytes that expand to gigabytes (a
/// decompression bomb) are no data file.
pub const MAX_EXPANSION: u64 = 100;

/// What a gzip file may give whatever its compressed size (64 MiB).
pub const FREE_EXPANSION: u64 = 64 << 20;

/// A reader that counts the bytes read through it.
struct Tally<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Tally<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buffer)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// A gzip file's content, refused once it is more than [`MAX_EXPANSION`] times what was read of
/// the file (past [`FREE_EXPANSION`]).
struct Bounded<R> {
    decoder: flate2::read::MultiGzDecoder<io::BufReader<Tally<R>>>,
    bytes: u64,
    /// What it may give whatever its size: [`FREE_EXPANSION`] (less in tests).
    free: u64,
}

impl<R: Read> Bounded<R> {
    fn new(compressed: R, free: u64) -> Bounded<R> {
        let tally = Tally { inner: compressed, bytes: 0 };
        Bounded { decoder: flate2::read::MultiGzDecoder::new(io::BufReader::new(tally)), bytes: 0, free }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let n = self.decoder.read(buffer)?;
        self.bytes += n as u64;
        let compressed = self.decoder.get_ref().get_ref().bytes;
        if self.bytes > self.free && self.bytes > MAX_EXPANSION.saturating_mul(compressed) {
            let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the gzip content expands to more than {MAX_EXPANSION} times the file's size ({:.0} MiB from {:.2} MiB so far): \
                     refused as a decompression bomb; if the file is real, decompress it (gunzip) and give the plain file",
                    mib(self.bytes),
                    mib(compressed)
                ),
            ));
        }
        Ok(n)
    }
}

/// The `.doc-ids` file of a data file, if there is one: `NAME.doc-ids` (or `.doc-ids.gz`) for
/// `NAME.data`, `NAME.data.gz` or `NAME`.
pub fn doc_ids_beside(data: &Path) -> Option<PathBuf> {
    let name = data.file_name()?.to_str()?;
    let stem = name.strip_suffix(".gz").unwrap_or(name);
    let stem = stem.strip_suffix(".data").unwrap_or(stem);
    [".doc-ids", ".doc-ids.gz"].iter().map(|ext| data.with_file_name(format!("{stem}{ext}"))).find(|p| p.is_file())
}

/// Reads a `.doc-ids` file: one id per line of the data file, which has `lines`.
pub fn read_doc_ids(path: &Path, lines: usize) -> Result<Vec<String>> {
    let mut reader = open_lines(path)?;
    let mut ids = Vec::with_capacity(lines.min(1 << 20));
    while let Some(id) = reader.next_line()? {
        let id = id.trim();
        if id.is_empty() {
            return Err(reader.error("an empty document id"));
        }
        ids.push(id.to_owned());
    }
    if ids.len() != lines {
        return Err(Error::whole_file(path, format!("{} document ids for the data file's {lines} lines", ids.len())));
    }
    Ok(ids)
}

/// Writes a data file and, with `documents`, its `.doc-ids` file (path and one id per line):
/// both or neither, each replaced atomically.
pub fn write(disk: &dyn Disk, path: &Path, lines: &[DataLine], documents: Option<(&Path, &[String])>) -> Result<()> {
    let mut outputs = Outputs::new(disk);
    outputs.add(path, |out| write_lines(out, lines.iter().map(DataLine::to_line)))?;
    if let Some((ids_path, ids)) = documents {
        if ids.len() != lines.len() {
            return Err(Error::refused(ids_path, format!("{} document ids for {} lines", ids.len(), lines.len())));
        }
        outputs.add(ids_path, |out| write_lines(out, ids.iter()))?;
    }
    outputs.publish()?.keep();
    Ok(())
}

fn write_lines<S: AsRef<str>>(out: &mut dyn Write, lines: impl Iterator<Item = S>) -> io::Result<()> {
    for line in lines {
        out.write_all(line.as_ref().as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "il OTHER\til NONE\tIt is here and it went .\tREPLACE_0 est là et REPLACE_4 .\t0-0 1-1 2-2";

    #[test]
    fn a_line_with_its_placeholders_and_links() {
        let line = DataLine::parse(LINE, true).unwrap();
        assert_eq!(line.labels, ["il", "OTHER"]);
        assert_eq!(line.words, ["il", "NONE"]);
        assert_eq!(line.placeholders(), [Placeholder { token: 0, index: 0 }, Placeholder { token: 4, index: 4 }]);
        assert_eq!(line.links().unwrap(), [(0, 0), (1, 1), (2, 2)]);
        assert_eq!(line.to_line(), LINE);
        let none = DataLine::parse("\t\tNo pronoun .\tPas de pronom .\t0-0", false).unwrap();
        assert!(none.labels.is_empty() && none.words.is_empty() && none.placeholders().is_empty());
        assert_eq!(none.to_line(), "\t\tNo pronoun .\tPas de pronom .\t0-0");
        // A test set with its classes withheld.
        let withheld = DataLine::parse("\t\tIt is .\tREPLACE_0 est .\t0-0", true).unwrap();
        assert_eq!(withheld.placeholders().len(), 1);
    }

    #[test]
    fn the_scorers_rule_for_columns() {
        assert!(columns("a\tb\tc\td\te", false).is_some());
        assert!(columns("\t\tc\td\te", false).is_some(), "columns 1 and 2 may be empty");
        assert!(columns("a\tb\tc\td\t", true).is_some(), "an empty 5th column passes with a line break");
        assert!(columns("a\tb\tc\td\t", false).is_none());
        assert!(columns("a\tb\tc\t\te", true).is_none());
        assert!(columns("a\tb\tc\td", true).is_none());
        assert!(columns("a\tb\tc\td\te\tf", true).is_none());
        // The gold's labels checked by the same rule, from where the tabs are.
        for line in [
            "a\tb\tc\td\te",
            "\t\tc\td\te",
            "a\tb\tc\td\t",
            "a\tb\tc\t\te",
            "a\tb\t\td\te",
            "a\tb\tc\td",
            "a\t\tc\td\te\t",
        ] {
            for terminated in [false, true] {
                let tabs = memchr::memchr_iter(b'\t', line.as_bytes());
                assert_eq!(gold_labels(line, tabs, terminated), columns(line, terminated).map(|c| c[0]), "{line:?}");
            }
        }
        assert_eq!(prediction_labels("il ce\tx"), "il ce");
        assert_eq!(prediction_labels("il\r"), "il");
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let err = DataLine::parse("a\tb\tc", true).unwrap_err();
        assert_eq!(err, LineError::Columns { found: 3 });
        let err = err.to_string();
        assert!(err.contains("five tab-separated columns") && err.contains("has 3 columns"), "{err}");
        assert!(LineError::Columns { found: 1 }.to_string().ends_with("(this line has 1 column)"));
        let err = DataLine::parse("il ce\t\tIt .\tREPLACE_0 .\t0-0", true).unwrap_err();
        assert_eq!(err, LineError::Labels { labels: 2, placeholders: 1 });
        assert_eq!(err.to_string(), "2 labels for 1 placeholders");
        let err = DataLine::parse("il  ce\t\tIt .\tREPLACE_0 .\t0-0", true).unwrap_err();
        assert_eq!(err.to_string(), "the words of columns 1 and 2 are separated by single spaces");
        let err = DataLine::parse("il ce\til\tIt .\tREPLACE_0 REPLACE_1 .\t0-0", true).unwrap_err();
        assert_eq!(err.to_string(), "1 removed words for 2 labels");
        let line = DataLine::parse("il\til\tIt .\tREPLACE_0 .\t0-x", true).unwrap();
        assert_eq!(line.links().unwrap_err().to_string(), "alignment pair '0-x' is not two numbers");
        let line = DataLine::parse("il\til\tIt .\tREPLACE_0 .\t0:0", true).unwrap();
        assert_eq!(line.links().unwrap_err(), BadPair::NotAPair("0:0".into()));
    }

    #[test]
    fn placeholder_tokens() {
        assert_eq!(placeholder_index("REPLACE_12"), Some(12));
        assert_eq!(placeholder_index("REPLACE_"), None);
        assert_eq!(placeholder_index("REPLACE_1|PRON"), None);
        assert_eq!(placeholder_index("replace_1"), None);
    }

    #[test]
    fn files_plain_and_gzip_with_their_documents() {
        let dir = tempfile::tempdir().unwrap();
        let lines = vec![DataLine::parse(LINE, true).unwrap(), DataLine::parse("\t\tA .\tB .\t0-0", true).unwrap()];
        let ids = vec!["7".to_string(), "8".to_string()];
        let path = dir.path().join("set.en-fr.data");
        write(&crate::store::disk::Os, &path, &lines, Some((&dir.path().join("set.en-fr.doc-ids"), &ids))).unwrap();
        let set = DataSet::read(&path).unwrap();
        assert_eq!((set.lines.clone(), set.documents.clone()), (lines.clone(), Some(ids.clone())));
        assert_eq!(set.placeholders(), 2);
        assert_eq!((set.document_of(0), set.document_of(1)), (0..1, 1..2));

        let gz = dir.path().join("other.data.gz");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(std::fs::read(&path).unwrap().as_slice()).unwrap();
        std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
        let set = DataSet::read(&gz).unwrap();
        assert_eq!((set.lines, set.documents), (lines, None));

        // A list of the set's documents rather than one id per line: read without documents.
        std::fs::write(dir.path().join("other.doc-ids"), "1\n").unwrap();
        let set = DataSet::read(&gz).unwrap();
        assert_eq!((set.lines.len(), set.documents), (2, None));
        let problem = set.documents_problem.unwrap();
        assert!(
            problem.contains("other.doc-ids") && problem.contains("1 document ids for the data file's 2 lines"),
            "{problem}"
        );

        std::fs::write(&gz, [0x1f, 0x8b, 0, 1, 2]).unwrap();
        let err = DataSet::read(&gz).unwrap_err();
        assert_eq!(err.path(), gz, "{err}");
    }

    /// gzip of `member`, `times` over: one member after the other in the one file (as `cat` of
    /// gzip files makes, which gunzip reads as one).
    fn gzip(member: &[u8], times: usize) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(member).unwrap();
        encoder.finish().unwrap().repeat(times)
    }

    #[test]
    fn gzip_that_expands_past_the_bound_is_refused() {
        let read_all = |bytes: Vec<u8>, free| {
            let mut out = Vec::new();
            Bounded::new(io::Cursor::new(bytes), free).read_to_end(&mut out).map(|_| out.len())
        };
        // Lines that differ, as the task's files have: far below the bound, read whole.
        let text: String =
            (0u64..20_000).map(|i| format!("{LINE} {}\n", i.wrapping_mul(0x9E37_79B9_7F4A_7C15))).collect();
        assert_eq!(read_all(gzip(text.as_bytes(), 1), 1 << 16).unwrap(), text.len());
        // Hundreds of times its size: refused past what is free.
        let bomb = gzip(&[b'\n'; 1 << 20], 8);
        let err = read_all(bomb.clone(), 1 << 20).unwrap_err().to_string();
        assert!(err.starts_with("the gzip content expands to more than 100 times the file's size ("), "{err}");
        assert!(err.ends_with("if the file is real, decompress it (gunzip) and give the plain file"), "{err}");
        assert_eq!(read_all(bomb, 16 << 20).unwrap(), 8 << 20, "within what is free");
        // Through the reader of data files, naming the file.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bomb.data.gz");
        let lines = format!("{}\n", "x".repeat(1023)).repeat(1024);
        std::fs::write(&path, gzip(lines.as_bytes(), 80)).unwrap();
        let mut reader = open_lines(&path).unwrap();
        let err = loop {
            match reader.advance() {
                Ok(true) => {}
                Ok(false) => panic!("read to the end"),
                Err(e) => break e.to_string(),
            }
        };
        assert!(err.starts_with(&format!("{}: the gzip content expands", path.display())), "{err}");
    }

    #[test]
    fn a_bad_line_names_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.data");
        std::fs::write(&path, format!("{LINE}\nil\tx\n")).unwrap();
        let err = DataSet::read(&path).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}: line 2: not a line", path.display())), "{err}");
    }
}
