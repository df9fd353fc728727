//! A system's output as read from disk — one text file, or a folder with one text file per
//! document, as LLM pipelines write them — and what cannot be a translation of the master's
//! source, refused before anything is tokenised or segmented: an output more than
//! [`TIMES_THE_SOURCE`] times the source's size or with that many lines per source sentence, and
//! one with no text at all (unless an empty system is asked for).

use crate::error::{Error, Result};
use crate::ingest::resegment::{self, Output, OutputFile};
use crate::ingest::texts;
use crate::store::files;
use crate::store::summary::count;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// How many times the source's size (in bytes, and in lines per sentence) an output may be.
pub const TIMES_THE_SOURCE: u64 = 20;
/// What a very small master's output may have beyond that: a preamble, a title.
const SLACK_BYTES: u64 = 64 * 1024;
const SLACK_LINES: usize = 100;

/// An output's lines, and a folder's files among them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputText {
    pub lines: Vec<String>,
    pub files: Vec<OutputFile>,
}

impl OutputText {
    /// The text as the output read from `origin`.
    pub fn output<'a>(&'a self, origin: &'a Path) -> Output<'a> {
        Output { origin, lines: &self.lines, files: &self.files }
    }
}

/// The most bytes an output of `source` may have.
pub fn byte_limit(source: &[String]) -> u64 {
    let bytes: u64 = source.iter().map(|s| s.len() as u64 + 1).sum();
    bytes.saturating_mul(TIMES_THE_SOURCE).saturating_add(SLACK_BYTES)
}

/// Reads the output at `path` — a text file, or a folder of text files — for a master whose
/// source is `source`: never more than [`byte_limit`] bytes.
pub fn read(path: &Path, source: &[String]) -> Result<OutputText> {
    let limit = byte_limit(source);
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        return read_folder(path, limit);
    }
    let lines = texts::lines(path, read_bounded(path, (limit, limit), path)?)?;
    Ok(OutputText { lines, files: Vec::new() })
}

/// The files of a folder in name order (numbers in names compared as numbers: `doc2` before
/// `doc10`), names starting with a dot skipped; anything but a regular file is refused.
pub fn folder_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut named = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let meta = std::fs::metadata(&path).map_err(|e| Error::io(&path, e))?;
        if !meta.is_file() {
            let what = if meta.is_dir() { "a folder" } else { "not a regular file" };
            return Err(Error::whole_file(
                &path,
                format!(
                    "is {what}; a folder given as a system's output holds one text file per document and nothing else"
                ),
            ));
        }
        named.push((name, path));
    }
    named.sort_by(|a, b| natord::compare(&a.0, &b.0));
    Ok(named.into_iter().map(|(_, path)| path).collect())
}

fn read_folder(dir: &Path, limit: u64) -> Result<OutputText> {
    let paths = folder_files(dir)?;
    if paths.is_empty() {
        return Err(Error::whole_file(dir, "has no files; give one text file per document of the master"));
    }
    let mut text = OutputText::default();
    let mut left = limit;
    for path in paths {
        let bytes = read_bounded(&path, (left, limit), dir)?;
        left -= bytes.len() as u64;
        let start = text.lines.len();
        text.lines.extend(texts::lines(&path, bytes)?);
        text.files.push(OutputFile { path, lines: start..text.lines.len() });
    }
    Ok(text)
}

/// A regular file's bytes, refused (naming `whole`, the file or the folder it is in) when there
/// are more than `left` of the output's `limit`: checked on its size first, and on what is read,
/// never reading more.
fn read_bounded(path: &Path, (left, limit): (u64, u64), whole: &Path) -> Result<Vec<u8>> {
    let file = files::open_to_read(path).map_err(|e| Error::io(path, e))?;
    let declared = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let too_big = || Error::whole_file(whole, too_big(whole != path, limit));
    let limit = left;
    if declared > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(bytes)
}

fn too_big(folder: bool, limit: u64) -> String {
    let what = if folder { "its files hold" } else { "is" };
    format!(
        "{what} more than {} — over {TIMES_THE_SOURCE} times the size of the master's source, more than a translation \
         of it can be. Is it the right file, for this master?",
        size(limit)
    )
}

/// Refuses an output that cannot be a translation of a master of `sentences` sentences: far
/// more lines than sentences, or no text at all (unless `allow_empty`, for a system that
/// deliberately translates nothing).
pub fn check(output: &Output, sentences: usize, allow_empty: bool) -> Result<()> {
    let lines = output.lines;
    let most = sentences.saturating_mul(TIMES_THE_SOURCE as usize).saturating_add(SLACK_LINES);
    if lines.len() > most {
        let text_end = lines.iter().rposition(|l| !resegment::is_empty_line(l)).map_or(0, |i| i + 1);
        let trailing = lines.len() - text_end;
        let empty_tail = if trailing > 0 {
            format!("; {} at the end are empty, from line {} on", count(trailing, "line"), text_end + 1)
        } else {
            String::new()
        };
        return Err(Error::whole_file(
            output.origin,
            format!(
                "has {} for a master of {}: more than {TIMES_THE_SOURCE} lines per sentence cannot be a translation \
                 of it{empty_tail}",
                count(lines.len(), "line"),
                count(sentences, "sentence")
            ),
        ));
    }
    if !allow_empty && lines.iter().all(|l| resegment::is_empty_line(l)) {
        let what = if lines.is_empty() {
            "is empty".to_owned()
        } else {
            format!("has {}, all empty", count(lines.len(), "line"))
        };
        return Err(Error::whole_file(
            output.origin,
            format!(
                "{what}: no text to add as a translation. To add a system that deliberately translates nothing, \
                 ask for an empty system (--allow-empty)"
            ),
        ));
    }
    Ok(())
}

/// A size for people: `59.0 MB`, `640 kB`, `12 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{} kB", b / 1_000),
        b => count(b as usize, "byte"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn a_folder_is_read_in_name_order_numbers_as_numbers() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("doc10.txt"), "Dix.\n").unwrap();
        fs::write(dir.path().join("doc2.txt"), "Deux.\n\nEncore.\n").unwrap();
        fs::write(dir.path().join(".DS_Store"), "\0\0").unwrap();
        let text = read(dir.path(), &lines("One .\nTwo .")).unwrap();
        assert_eq!(text.lines, lines("Deux.\n\nEncore.\nDix."));
        let names: Vec<_> =
            text.files.iter().map(|f| (f.path.file_name().unwrap().to_owned(), f.lines.clone())).collect();
        assert_eq!(names, [("doc2.txt".into(), 0..3), ("doc10.txt".into(), 3..4)]);
        let output = text.output(dir.path());
        assert_eq!(output.locate(3), (dir.path().join("doc10.txt").as_path(), 1));
    }

    #[test]
    fn a_folder_holds_text_files_only() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("logs")).unwrap();
        let err = read(dir.path(), &lines("One .")).unwrap_err().to_string();
        assert!(err.contains("logs: is a folder; a folder given as a system's output holds one text file"), "{err}");
        fs::remove_dir(dir.path().join("logs")).unwrap();
        let err = read(dir.path(), &lines("One .")).unwrap_err().to_string();
        assert!(err.ends_with("has no files; give one text file per document of the master"), "{err}");
        #[cfg(unix)]
        {
            crate::testing::mkfifo(&dir.path().join("pipe"));
            let err = read(dir.path(), &lines("One .")).unwrap_err().to_string();
            assert!(err.contains("pipe: is not a regular file"), "{err}");
        }
    }

    #[test]
    fn more_than_twenty_times_the_source_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let source = lines("One .");
        let limit = byte_limit(&source);
        let path = dir.path().join("big.fr");
        fs::write(&path, "a".repeat(limit as usize + 1)).unwrap();
        let err = read(&path, &source).unwrap_err().to_string();
        assert!(err.contains("big.fr: is more than 65 kB — over 20 times the size of the master's source"), "{err}");
        fs::write(&path, "a".repeat(limit as usize)).unwrap();
        assert_eq!(read(&path, &source).unwrap().lines.len(), 1);
        // In a folder, the files together.
        let folder = dir.path().join("docs");
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("1.txt"), "a".repeat(limit as usize / 2)).unwrap();
        fs::write(folder.join("2.txt"), "a".repeat(limit as usize / 2 + 2)).unwrap();
        let err = read(&folder, &source).unwrap_err().to_string();
        assert!(err.contains("docs: its files hold more than 65 kB"), "{err}");
    }

    #[test]
    fn far_more_lines_than_sentences_or_no_text_is_refused() {
        let origin = Path::new("out.fr");
        let check = |text: &[String], allow_empty| check(&Output::file(origin, text), 4, allow_empty);
        let mut text = lines("Un.\nDeux.\nTrois.\nQuatre.");
        assert!(check(&text, false).is_ok());
        text.extend(std::iter::repeat_n(String::new(), 177));
        let err = check(&text, false).unwrap_err().to_string();
        assert_eq!(
            err,
            "out.fr: has 181 lines for a master of 4 sentences: more than 20 lines per sentence cannot be a \
             translation of it; 177 lines at the end are empty, from line 5 on"
        );
        let blank = vec![" ".to_string(); 4];
        let err = check(&blank, false).unwrap_err().to_string();
        assert!(err.starts_with("out.fr: has 4 lines, all empty: no text to add as a translation."), "{err}");
        assert!(check(&blank, true).is_ok());
        assert!(check(&[], false).unwrap_err().to_string().starts_with("out.fr: is empty: no text"));
    }
}
