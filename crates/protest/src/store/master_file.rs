//! Reading and writing master files (format `protest-master`, version 1; see
//! docs/master-format.md).

use crate::error::{Error, Place, Result};
use crate::model::{Corpus, MASTER_FORMAT, MASTER_VERSION, Master};
use crate::progress;
use crate::store::disk::Os;
use crate::store::validate::{self, Problem};
use crate::store::{atomic, json};
use rayon::prelude::*;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor, value::MapDeserializer};
use serde_json::value::RawValue;
use std::fmt;
use std::path::Path;

/// Reads, parses and validates a master. Never panics on bad input; every error names the file,
/// the place and the problem.
pub fn load(path: &Path) -> Result<Master> {
    progress::stage(&format!("Reading {}", file_name(path)), None);
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    from_bytes(path, &bytes)
}

/// Parses and validates master bytes; `path` is only used in messages.
pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Master> {
    progress::stage(&format!("Parsing {}", file_name(path)), None);
    let mut master = match parse_in_parallel(bytes) {
        Some(master) => master,
        // Something is wrong with the file: read it again the usual way, to say what and where.
        None => json::read(path, bytes, MASTER_FORMAT, &[MASTER_VERSION], |m: &Master| (m.format.as_str(), m.version))?,
    };
    progress::stage(&format!("Checking {}", file_name(path)), None);
    master.reindex();
    check(path, &master)?;
    // Derived state is derived: a stored `clear` that breaks a rule is not trusted.
    crate::annotate::status::rederive_all(&mut master);
    Ok(master)
}

/// Parses a good master on several threads: its corpora (the sentences and alignments, most of a
/// large file) each on their own while the rest is parsed too. The top level is read first, with
/// every value kept as raw JSON text. `None` if the file is not a well-formed master of this
/// version, for [`json::read`] to explain.
fn parse_in_parallel(bytes: &[u8]) -> Option<Master> {
    // Checked as UTF-8 at once (and fast), the text needs no further checks as it is parsed.
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    let Fields { corpora, rest } = serde_json::from_str(text).ok()?;
    let reporter = progress::current();
    if let Some(p) = &reporter {
        p.stage("Parsing the corpora", corpora.as_ref().map(|c| c.len() as u64));
    }
    let empty = RawValue::from_string("[]".to_owned()).ok()?;
    let rest = rest.into_iter().chain([(CORPORA.to_owned(), &*empty)]);
    let (master, corpora) = rayon::join(
        || Master::deserialize(MapDeserializer::<_, serde_json::Error>::new(rest)).ok(),
        || {
            corpora?
                .par_iter()
                .map(|c| {
                    let corpus = Corpus::deserialize(*c).ok();
                    if let Some(p) = &reporter {
                        p.advance(1);
                    }
                    corpus
                })
                .collect::<Option<Vec<_>>>()
        },
    );
    let mut master = master?;
    master.corpora = corpora?;
    (master.format == MASTER_FORMAT && master.version == MASTER_VERSION).then_some(master)
}

const CORPORA: &str = "corpora";

/// The top-level fields of a master as raw JSON: the corpora one by one, the others whole.
struct Fields<'a> {
    corpora: Option<Vec<&'a RawValue>>,
    rest: Vec<(String, &'a RawValue)>,
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
                let mut fields = Fields { corpora: None, rest: Vec::new() };
                while let Some(key) = map.next_key::<String>()? {
                    if key != CORPORA {
                        fields.rest.push((key, map.next_value()?));
                    } else if fields.corpora.replace(map.next_value()?).is_some() {
                        return Err(de::Error::duplicate_field(CORPORA));
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

    const SAMPLE: &[u8] = include_bytes!("../../../../sample_batches/sample.master.json");
    const TINY: &str = include_str!("../../../../tests/fixtures/tiny/tiny.master.json");

    #[test]
    fn the_parallel_parse_reads_what_the_plain_parse_reads() {
        for bytes in [SAMPLE, TINY.as_bytes()] {
            let plain: Master = json::parse(Path::new("m.json"), bytes).unwrap();
            assert_eq!(parse_in_parallel(bytes), Some(plain));
        }
    }

    #[test]
    fn anything_unusual_is_left_to_the_plain_parse_and_its_messages() {
        let twice = TINY.replacen("\"corpora\":", "\"corpora\":[],\"corpora\":", 1);
        let newer = TINY.replacen("\"version\":1", "\"version\":2", 1);
        let bad_corpus = TINY.replacen("\"role\":\"reference\"", "\"role\":\"mirror\"", 1);
        for (text, expected) in [
            (&twice, "duplicate field `corpora`"),
            (&newer, "version: format version 2 is not supported"),
            (&bad_corpus, "corpora[1].role (line 26): unknown variant `mirror`"),
        ] {
            assert_ne!(text, TINY);
            assert_eq!(parse_in_parallel(text.as_bytes()), None);
            let err = from_bytes(Path::new("m.json"), text.as_bytes()).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}");
        }
    }
}
