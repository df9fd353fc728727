//! Reading and writing master files (format `protest-master`, version 2, version 1 read too; see
//! docs/master-format.md).

use crate::annotate::status::{self, Statuses};
use crate::error::{Error, Place, Result};
use crate::model::{Corpus, MASTER_FORMAT, MASTER_VERSION, MASTER_VERSIONS_READ, Master, Record, Records};
use crate::progress;
use crate::store::disk::Os;
use crate::store::validate::{self, Problem};
use crate::store::{atomic, files, json};
use rayon::prelude::*;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor, value::MapDeserializer};
use serde_json::value::RawValue;
use std::fmt;
use std::path::Path;

/// Reads, parses and validates a master. Never panics on bad input; every error names the file,
/// the place and the problem.
pub fn load(path: &Path) -> Result<Master> {
    load_with_statuses(path).map(|(master, _)| master)
}

/// [`load`], with the status of every record as loading derived it (to re-derive the stored
/// ones), for whoever counts them next.
pub fn load_with_statuses(path: &Path) -> Result<(Master, Statuses)> {
    progress::stage(&format!("Reading {}", file_name(path)), None);
    match Mapped::open(path) {
        Some(mapped) => parse_and_check(path, &mapped, &|part| mapped.release(part)),
        // Not a plain file that can be mapped (or mapping failed): read it, and let reading say
        // what is wrong if anything is.
        None => parse_and_check(path, &files::read(path).map_err(|e| Error::io(path, e))?, &|_| {}),
    }
}

/// Parses and validates master bytes; `path` is only used in messages.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Master> {
    parse_and_check(path, bytes, &|_| {}).map(|(master, _)| master)
}

/// The file mapped into memory rather than read: no copy of its 266 MB (at 100× PROTEST) into
/// memory zero-filled for it, and each part can be let go of once parsed, so that the text and
/// the whole model are never held together (the peak memory of opening a large master).
///
/// The mapping is of the file as it was opened: every save of a master or batch writes a new
/// file and renames it over the old one (`store::atomic`), which leaves the mapped file as it
/// was. Only a program that truncated the file in place while it was being parsed could disturb
/// the parse.
struct Mapped(memmap2::Mmap);

impl Mapped {
    fn open(path: &Path) -> Option<Mapped> {
        let file = files::open_to_read(path).ok()?;
        // SAFETY: see above: the file is only ever replaced, never changed in place, by this
        // program; the map is read-only and private.
        let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
        Some(Mapped(map))
    }

    /// Gives back the memory of a part of the text already parsed. Its contents stay the file's:
    /// read again (by the plain parse of a file with problems), the pages come back from the
    /// page cache.
    fn release(&self, part: &[u8]) {
        #[cfg(not(unix))] // the web page's build (docs/serve.md): the memory stays taken
        let _ = part;
        #[cfg(unix)]
        {
            let offset = (part.as_ptr() as usize).wrapping_sub(self.0.as_ptr() as usize);
            if offset <= self.0.len() && part.len() <= self.0.len() - offset {
                // SAFETY: `DontNeed` on a read-only private file mapping only drops the pages from
                // this process; the next read of them finds the same bytes. A refusal costs memory
                // only.
                let _ =
                    unsafe { self.0.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, offset, part.len()) };
            }
        }
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// Parses and validates; `release` is told of each part of `bytes` the model no longer needs.
fn parse_and_check(path: &Path, bytes: &[u8], release: &Release<'_>) -> Result<(Master, Statuses)> {
    let bytes = json::without_bom(bytes);
    progress::stage(&format!("Parsing {}", file_name(path)), None);
    let mut master = match parse_in_parallel(bytes, release) {
        Some(master) => master,
        // Something is wrong with the file: read it again the usual way, to say what and where.
        None => {
            json::read(path, bytes, MASTER_FORMAT, MASTER_VERSIONS_READ, |m: &Master| (m.format.as_str(), m.version))?
        }
    };
    // An older version is this one without its newer fields; the next save writes this version.
    master.version = MASTER_VERSION;
    progress::stage(&format!("Checking {}", file_name(path)), None);
    master.reindex();
    check(path, &master)?;
    // Derived state is derived: a stored `clear` that breaks a rule is not trusted.
    let (statuses, _) = status::rederive_all(&mut master);
    Ok((master, statuses))
}

/// Told of each part of the text that has been parsed and is not needed any more.
type Release<'a> = dyn Fn(&[u8]) + Sync + 'a;

/// Parses a good master on several threads: its corpora (the sentences and alignments, most of a
/// large file) each on their own, its records in pieces, while the rest is parsed too. The top
/// level is found first: from the lines of the layout this program writes ([`Fields::of_lines`]),
/// else by reading it with every value kept as raw JSON text. `None` if the file is not a
/// well-formed master of this version, for [`json::read`] to explain.
fn parse_in_parallel(bytes: &[u8], release: &Release<'_>) -> Option<Master> {
    // Checked as UTF-8 at once (and fast), the text needs no further checks as it is parsed.
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    if let Some(master) = Fields::of_lines(text).and_then(|fields| parse_fields(text, fields, release)) {
        return Some(master);
    }
    let fields: Fields = serde_json::from_str(text).ok()?;
    parse_fields(text, fields, release)
}

/// Parses the top-level fields found in `text`, on every core. Each part is let go of once parsed
/// (and the whole text before: finding the fields has read all of it).
fn parse_fields(text: &str, fields: Fields, release: &Release<'_>) -> Option<Master> {
    release(text.as_bytes());
    let Fields { corpora, records, rest } = fields;
    let reporter = progress::current();
    if let Some(p) = &reporter {
        p.stage("Parsing the corpora", corpora.as_ref().map(|c| c.len() as u64));
    }
    let pieces = match records {
        Some(records) => Some(record_pieces(records)?),
        None => None,
    };
    let has_records = pieces.is_some();
    let ((master, corpora), records) = rayon::join(
        || {
            rayon::join(
                || {
                    let mut members = rest
                        .iter()
                        .map(|&(ref key, value)| Some((key.clone(), serde_json::from_str::<&RawValue>(value).ok()?)))
                        .collect::<Option<Vec<_>>>()?;
                    let empty = RawValue::from_string("[]".to_owned()).ok()?;
                    members.push((CORPORA.to_owned(), &*empty));
                    if has_records {
                        members.push((RECORDS.to_owned(), &*empty));
                    }
                    let master = Master::deserialize(MapDeserializer::<_, serde_json::Error>::new(members.into_iter()));
                    rest.iter().for_each(|(_, part)| release(part.as_bytes()));
                    master.ok()
                },
                || {
                    corpora
                        .as_ref()?
                        .par_iter()
                        .map(|c| {
                            let corpus = serde_json::from_str::<Corpus>(c).ok();
                            release(c.as_bytes());
                            if let Some(p) = &reporter {
                                p.advance(1);
                            }
                            corpus
                        })
                        .collect::<Option<Vec<_>>>()
                },
            )
        },
        || pieces.map(|pieces| parse_records(&pieces, release)),
    );
    let mut master = master?;
    master.corpora = corpora?;
    if let Some(records) = records {
        master.records = records?;
    }
    (master.format == MASTER_FORMAT && MASTER_VERSIONS_READ.contains(&master.version)).then_some(master)
}

/// How many pieces the records are parsed in: enough to share them out among the cores with the
/// corpora, few enough that each is worth a task.
const RECORD_PIECES: usize = 8;

/// The records' list cut into pieces of whole records: cut where a line ends with `,` and the
/// next starts with `{` — as every master this program writes is laid out (one record per line).
/// A line break is never inside a JSON string, so a cut is always between two values; should one
/// fall inside a record laid out otherwise, a piece does not parse and the file is read the usual
/// way. `None` if the value is not a list.
fn record_pieces(list: &str) -> Option<Vec<&str>> {
    let body = json_trim(list).strip_prefix('[')?.strip_suffix(']')?;
    let bytes = body.as_bytes();
    let mut cuts = vec![0];
    for k in 1..RECORD_PIECES {
        let from = (bytes.len() * k / RECORD_PIECES).max(*cuts.last()?);
        let cut = memchr::memchr_iter(b'\n', &bytes[from..])
            .map(|i| from + i)
            .find(|&at| json_trim(&body[..at]).ends_with(',') && json_trim(&body[at..]).starts_with('{'));
        match cut {
            Some(at) => cuts.push(at),
            None => break,
        }
    }
    cuts.push(bytes.len());
    Some(cuts.windows(2).map(|w| json_trim(&body[w[0]..w[1]])).collect())
}

/// Parses the pieces of [`record_pieces`] on every core and puts them together; `None` on any
/// problem (two records of one candidate and annotator in different pieces included).
fn parse_records(pieces: &[&str], release: &Release<'_>) -> Option<Records> {
    let last = pieces.len().saturating_sub(1);
    let parts: Vec<Vec<Record>> = pieces
        .par_iter()
        .enumerate()
        .map(|(n, piece)| {
            // A list of its own: the piece (less the comma before the next piece) in brackets,
            // copied just before it is parsed, so that the copy and the file's text of the
            // piece are not both held for long.
            let records = piece.strip_suffix(',').filter(|_| n != last).unwrap_or(piece);
            let mut list = String::with_capacity(records.len() + 2);
            list.push('[');
            list.push_str(records);
            list.push(']');
            release(piece.as_bytes());
            serde_json::from_str(&list).ok()
        })
        .collect::<Option<_>>()?;
    // Put in one by one, as the plain parse does (in the file's order, the map's own, each goes
    // in at its end), each piece's list freed as soon as it is through.
    let mut records = Records::default();
    for record in parts.into_iter().flatten() {
        if records.put(record).is_some() {
            return None;
        }
    }
    Some(records)
}

const CORPORA: &str = "corpora";
const RECORDS: &str = "records";

/// The top-level fields of a master as JSON text: the corpora one by one, the records, the others
/// whole.
struct Fields<'a> {
    corpora: Option<Vec<&'a str>>,
    records: Option<&'a str>,
    rest: Vec<(String, &'a str)>,
}

impl<'a> Fields<'a> {
    /// The top level of a master laid out as this program writes it (`json::write`), found from
    /// its lines alone, without reading the 266 MB of a 100× master first: each top-level field
    /// starts a line with one space and its key, each corpus a line with two spaces and `{`.
    /// A line break is never inside a JSON string, so such a line is always the start of
    /// something; whether it is what it seems is proven when each part parses as one whole value
    /// (and the keys here as keys). `None` for any other layout, read by the general way.
    fn of_lines(text: &'a str) -> Option<Fields<'a>> {
        let body = json_trim(text).strip_prefix('{')?.strip_suffix('}')?;
        let mut fields = Fields { corpora: None, records: None, rest: Vec::new() };
        for member in list_items(body, "\n \"")? {
            let (key, value) = member.strip_prefix('"')?.split_once('"')?;
            // A key as it is written, no escapes (nor what a JSON string cannot hold).
            if key.bytes().any(|b| b == b'\\' || b < 0x20) {
                return None;
            }
            let value = json_trim(json_trim(value).strip_prefix(':')?);
            match key {
                CORPORA => {
                    let list = value.strip_prefix('[')?.strip_suffix(']')?;
                    let corpora = list_items(list, "\n  {")?;
                    if fields.corpora.replace(corpora).is_some() {
                        return None;
                    }
                }
                RECORDS => {
                    if fields.records.replace(value).is_some() {
                        return None;
                    }
                }
                _ => fields.rest.push((key.to_owned(), value)),
            }
        }
        Some(fields)
    }
}

/// The items of a JSON list or object body, cut where `start` occurs: each but the last must
/// end with a comma (dropped here). `None` when one does not.
fn list_items<'a>(body: &'a str, start: &str) -> Option<Vec<&'a str>> {
    let mut cuts = vec![0];
    cuts.extend(memchr::memmem::find_iter(body.as_bytes(), start.as_bytes()).filter(|&at| at != 0));
    cuts.push(body.len());
    let mut items: Vec<&str> = cuts.windows(2).map(|w| json_trim(&body[w[0]..w[1]])).collect();
    // White space before the first item (or no item at all) is no item.
    if items.first() == Some(&"") {
        items.remove(0);
    }
    let last = items.len().saturating_sub(1);
    items
        .into_iter()
        .enumerate()
        .map(|(n, item)| match (n == last, item.strip_suffix(',')) {
            (false, Some(item)) => Some(json_trim(item)),
            (true, None) => Some(item),
            _ => None,
        })
        .collect()
}

/// The text without JSON's white space around it (Rust's `trim` takes more: a form feed, a
/// no-break space… which JSON refuses, and so must this reading).
fn json_trim(text: &str) -> &str {
    text.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct Top;
        impl<'de> Visitor<'de> for Top {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a master")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Fields<'de>, A::Error> {
                let mut fields = Fields { corpora: None, records: None, rest: Vec::new() };
                while let Some(key) = map.next_key::<String>()? {
                    if key == CORPORA {
                        let corpora: Vec<&RawValue> = map.next_value()?;
                        if fields.corpora.replace(corpora.into_iter().map(RawValue::get).collect()).is_some() {
                            return Err(de::Error::duplicate_field(CORPORA));
                        }
                    } else if key == RECORDS {
                        if fields.records.replace(map.next_value::<&RawValue>()?.get()).is_some() {
                            return Err(de::Error::duplicate_field(RECORDS));
                        }
                    } else {
                        fields.rest.push((key, map.next_value::<&RawValue>()?.get()));
                    }
                }
                Ok(fields)
            }
        }
        deserializer.deserialize_map(Top)
    }
}

/// The file's name for progress messages.
pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Turns the validator's findings into one error naming the first problem and how many more.
pub fn check(path: &Path, master: &Master) -> Result<()> {
    problems_to_error(path, validate::master(master))
}

pub(crate) fn problems_to_error(path: &Path, problems: Vec<Problem>) -> Result<()> {
    let Some(first) = problems.first() else { return Ok(()) };
    let more = match problems.len() {
        1 => String::new(),
        2 => " (and 1 further problem)".to_string(),
        n => format!(" (and {}{} further problems)", n - 1, if n >= validate::MAX_PROBLEMS { " or more" } else { "" }),
    };
    Err(Error::invalid(
        path,
        Some(Place::Json { path: first.path.clone(), line: None }),
        format!("{}{more}", first.message),
    ))
}

/// Writes a master atomically in our line layout.
pub fn save(master: &Master, path: &Path) -> Result<()> {
    progress::stage(&format!("Writing {}", file_name(path)), None);
    atomic::write_with(&Os, path, |w| write(master, w)).map(drop)
}

/// Writes a master in our line layout.
pub fn write(master: &Master, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    json::write(out, master)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, Judgement};

    const SAMPLE: &[u8] = include_bytes!("../../../../sample_batches/sample.master.json");
    const TINY: &str = include_str!("../../../../tests/fixtures/tiny/tiny.master.json");

    #[test]
    fn the_parallel_parse_reads_what_the_plain_parse_reads() {
        for bytes in [SAMPLE, TINY.as_bytes()] {
            let plain: Master = json::parse(Path::new("m.json"), bytes).unwrap();
            assert_eq!(parse_in_parallel(bytes, &|_| {}), Some(plain));
        }
    }

    /// The tiny master with a record of every candidate by both annotators (12 records).
    fn tiny_with_records() -> Master {
        let mut m = crate::testing::tiny();
        for candidate in 1..=6 {
            for annotator in [1, 2] {
                // Candidates 1 and 2 are of the one anaphoric example.
                let antecedent = if candidate <= 2 { Judgement::No } else { Judgement::Unset };
                crate::testing::judge(&mut m, candidate, annotator, Judgement::Yes, antecedent);
            }
        }
        let mut r = m.records.get(CandidateId(3), AnnotatorId(2)).unwrap().clone();
        r.tags.insert("some_tag".into());
        r.remarks = "a remark, with \"quotes\",\n{ and a line break }".into();
        r.modified = chrono::Utc::now();
        m.records.put(r);
        m
    }

    fn written(m: &Master) -> Vec<u8> {
        let mut text = Vec::new();
        write(m, &mut text).unwrap();
        text
    }

    #[test]
    fn records_parsed_in_pieces_are_the_records_parsed_whole() {
        let m = tiny_with_records();
        let ours = written(&m);
        let one_line = serde_json::to_vec(&m).unwrap();
        let pretty = serde_json::to_vec_pretty(&m).unwrap();
        for bytes in [&ours, &one_line, &pretty] {
            let plain: Master = json::parse(Path::new("m.json"), bytes).unwrap();
            assert_eq!(plain.records.len(), 12);
            assert_eq!(parse_in_parallel(bytes, &|_| {}), Some(plain));
        }
        // Our layout is cut into several pieces.
        let text = std::str::from_utf8(&ours).unwrap();
        let Fields { records, .. } = serde_json::from_str(text).unwrap();
        assert!(record_pieces(records.unwrap()).unwrap().len() > 1);
    }

    #[test]
    fn two_records_of_one_candidate_and_annotator_in_different_pieces_are_refused_as_before() {
        let text = String::from_utf8(written(&tiny_with_records())).unwrap();
        let first = text.lines().find(|l| l.contains("\"candidate\":1,")).unwrap();
        let twice = text.replacen("\n ],\n \"task_sets\"", &format!(",\n{first}\n ],\n \"task_sets\""), 1);
        assert_ne!(twice, text);
        assert_eq!(parse_in_parallel(twice.as_bytes(), &|_| {}), None);
        let err = from_bytes(Path::new("m.json"), twice.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("two records for candidate 1 by annotator 1"), "{err}");
    }

    #[test]
    fn a_mapped_file_reads_as_its_bytes_do() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        let bytes = written(&tiny_with_records());
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(load(&path).unwrap(), from_bytes(&path, &bytes).unwrap());
        // What cannot be mapped is read, and reading says what is wrong.
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(e.ends_with(": is a folder, not a regular file; PROTEST reads and writes only regular files"), "{e}");
        let missing = dir.path().join("none.json");
        let expected = Error::io(&missing, std::fs::read(&missing).unwrap_err()).to_string();
        assert_eq!(load(&missing).unwrap_err().to_string(), expected);
    }

    #[test]
    fn our_layout_is_read_from_its_lines_and_any_other_by_reading_the_top_level_first() {
        let with_records = written(&tiny_with_records());
        for bytes in [SAMPLE, TINY.as_bytes(), &with_records] {
            let text = std::str::from_utf8(bytes).unwrap();
            let plain: Master = json::parse(Path::new("m.json"), bytes).unwrap();
            let lines = Fields::of_lines(text).unwrap();
            assert_eq!(lines.corpora.as_ref().unwrap().len(), plain.corpora.len());
            assert_eq!(parse_fields(text, lines, &|_| {}).as_ref(), Some(&plain));
            let scanned: Fields = serde_json::from_str(text).unwrap();
            assert_eq!(parse_fields(text, scanned, &|_| {}), Some(plain));
        }
        // A line that looks like the start of a field but is not: the lines do not parse, the
        // general way reads it.
        let settings = TINY.replacen("\"settings\":{", "\"settings\":{\n ", 1);
        let plain: Master = json::parse(Path::new("m.json"), settings.as_bytes()).unwrap();
        assert!(Fields::of_lines(&settings).and_then(|f| parse_fields(&settings, f, &|_| {})).is_none());
        assert_eq!(parse_in_parallel(settings.as_bytes(), &|_| {}), Some(plain));
        // A comma missing between two corpora: not a master, whichever way it is cut.
        let no_comma = TINY.replacen("  },\n  {", "  }\n  {", 1);
        assert_ne!(no_comma, TINY);
        assert!(Fields::of_lines(&no_comma).is_none());
        assert_eq!(parse_in_parallel(no_comma.as_bytes(), &|_| {}), None);
        let err = from_bytes(Path::new("m.json"), no_comma.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("expected `,` or `]`"), "{err}");
    }

    #[test]
    fn what_json_refuses_the_lines_refuse_too() {
        let with_records = String::from_utf8(written(&tiny_with_records())).unwrap();
        let (first_record, _) = with_records.split_once("{\"candidate\"").unwrap();
        let bad = [
            // Spaces that are not JSON's: around the whole, between fields, corpora and records.
            format!("{TINY}\u{c}"),
            format!("\u{a0}{TINY}"),
            TINY.replacen(",\n \"corpora\"", ",\u{2028}\n \"corpora\"", 1),
            TINY.replacen("  },\n  {", "  }\u{b},\n  {", 1),
            format!("{first_record}\u{c}{}", &with_records[first_record.len()..]),
            // A key with a tab in it, and one with an escape the lines cannot read.
            TINY.replacen("\"description\"", "\"descr\tiption\"", 1),
            TINY.replacen("\n \"id\":", "\n \"i\\u0064\":", 1),
        ];
        for text in &bad {
            assert!(text != TINY && *text != with_records);
            let plain =
                json::read(Path::new("m.json"), text.as_bytes(), MASTER_FORMAT, MASTER_VERSIONS_READ, |m: &Master| {
                    (m.format.as_str(), m.version)
                })
                .map_err(|e| e.to_string());
            let lines = Fields::of_lines(text).and_then(|f| parse_fields(text, f, &|_| {}));
            // The lines may leave a good file to the general way (the escaped key), never read a
            // bad one or read one otherwise.
            if let Some(lines) = lines {
                assert_eq!(Ok(&lines), plain.as_ref(), "{text:?}");
            }
            match plain {
                Ok(plain) => assert_eq!(parse_in_parallel(text.as_bytes(), &|_| {}), Some(plain)),
                Err(message) => {
                    assert_eq!(parse_in_parallel(text.as_bytes(), &|_| {}), None);
                    let err = from_bytes(Path::new("m.json"), text.as_bytes()).unwrap_err().to_string();
                    assert_eq!(err, message);
                }
            }
        }
    }

    #[test]
    fn anything_unusual_is_left_to_the_plain_parse_and_its_messages() {
        let twice = TINY.replacen("\"corpora\":", "\"corpora\":[],\"corpora\":", 1);
        let newer = TINY.replacen("\"version\":2", "\"version\":3", 1);
        let bad_corpus = TINY.replacen("\"role\":\"reference\"", "\"role\":\"mirror\"", 1);
        for (text, expected) in [
            (&twice, "duplicate field `corpora`"),
            (&newer, "version: format version 3 is not supported"),
            (&bad_corpus, "corpora[1].role (line 26): unknown variant `mirror`"),
        ] {
            assert_ne!(text, TINY);
            assert_eq!(parse_in_parallel(text.as_bytes(), &|_| {}), None);
            let err = from_bytes(Path::new("m.json"), text.as_bytes()).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}");
        }
    }
}
