//! JSON for our files: how they are laid out when written, and how they are read back with
//! messages that point into the file.
//!
//! Layout: one list element per line for the big lists (sentences, candidates, records…),
//! everything else compact. Files stay small and fast to write, and a change to one annotation is
//! a one-line diff under version control.

use crate::error::{Error, Place, Result};
use serde::{Deserialize, Serialize};
use serde_json::ser::{CompactFormatter, Formatter};
use std::io::{self, Write};
use std::path::Path;

/// The `journal` field of a journal's first line (`store::journal`): known here too, to tell a
/// journal opened by mistake for the file it belongs to.
pub const JOURNAL_FORMAT: &str = "protest-journal";

/// Arrays under these keys get one element per line; so do the top-level object's keys and the
/// keys of objects that are elements of such arrays when those objects hold such arrays.
const LINE_ARRAYS: &[&str] = &[
    "corpora",
    "sentences",
    "alignment",
    "links",
    "categories",
    "examples",
    "candidates",
    "annotators",
    "records",
    "task_sets",
    "tasks",
    "items",
    "outcomes",
    "rounds",
];

/// Objects that are elements of these arrays lay their keys out one per line (they contain
/// line arrays themselves).
const LINE_OBJECTS_IN: &[&str] = &["corpora", "task_sets"];

/// Objects that are the values of these keys in a line object lay their keys out one per line too.
const LINE_OBJECTS_AT: &[&str] = &["auto_eval", "link_origins"];

#[derive(Default)]
struct LineFormatter {
    /// Per open container: whether its elements go on their own lines.
    breaks: Vec<bool>,
    /// Whether the innermost open container has had an element yet.
    has_value: bool,
    /// The key being written (while `in_key`), captured so the following array knows its name;
    /// both buffers are reused, key after key.
    key: String,
    in_key: bool,
    last_key: String,
    /// The key of the array each open container sits in, to decide object layout.
    array_keys: Vec<String>,
}

impl LineFormatter {
    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.breaks.len() {
            w.write_all(b" ")?;
        }
        Ok(())
    }

    fn breaking(&self) -> bool {
        self.breaks.last().copied().unwrap_or(false)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        let broke = self.breaks.pop().unwrap_or(false);
        self.array_keys.pop();
        if broke && self.has_value {
            self.newline(w)?;
        }
        w.write_all(bracket)
    }
}

impl Formatter for LineFormatter {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let key = std::mem::take(&mut self.last_key);
        let parent_is_line_object = self.breaks.is_empty() || self.breaking();
        self.breaks.push(parent_is_line_object && LINE_ARRAYS.contains(&key.as_str()));
        self.array_keys.push(key);
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.breaking() { self.newline(w) } else { Ok(()) }
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let in_array = self.array_keys.last().map(String::as_str).unwrap_or("");
        let root = self.breaks.is_empty();
        let line_object = root
            || (self.breaking()
                && (LINE_OBJECTS_IN.contains(&in_array) || LINE_OBJECTS_AT.contains(&self.last_key.as_str())));
        self.last_key.clear();
        self.breaks.push(line_object);
        self.array_keys.push(String::new());
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.key.clear();
        self.in_key = true;
        self.begin_array_value(w, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        std::mem::swap(&mut self.last_key, &mut self.key);
        self.in_key = false;
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b":")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.last_key.clear();
        self.has_value = true;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        CompactFormatter.write_string_fragment(w, fragment)
    }
}

/// Writes `value` in our line layout, ending with a newline.
pub fn write<W: Write, T: Serialize + ?Sized>(w: W, value: &T) -> io::Result<()> {
    // The serialiser makes many small writes (a comma, a quote, a fragment): a buffer of a type
    // known here takes them without a call through `dyn Write` each.
    let mut w = io::BufWriter::with_capacity(1 << 16, w);
    let mut ser = serde_json::Serializer::with_formatter(&mut w, LineFormatter::default());
    value.serialize(&mut ser).map_err(io::Error::other)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Reads one of our JSON files: checks it is JSON of the expected `format` and a supported
/// `version`, then deserialises it. On failure the message explains the usual wrong files (the
/// original tool's SQLite databases, another kind of our files, a newer version, not JSON at
/// all) before pointing at the first bad value by JSON path and line.
pub fn read<'de, T: Deserialize<'de>>(
    path: &Path,
    bytes: &'de [u8],
    format: &str,
    versions: &[u32],
    header: impl Fn(&T) -> (&str, u32),
) -> Result<T> {
    if bytes.starts_with(b"SQLite format 3\0") {
        return Err(Error::whole_file(
            path,
            "this is an SQLite database, probably from the original PROTEST tool; convert it first with `protest convert`",
        ));
    }
    // The full parse comes first so a good file is read once; the header is only looked at
    // separately to explain a failure.
    match parse::<T>(path, bytes) {
        Ok(value) => {
            let (f, v) = header(&value);
            check_header(path, Some(f), Some(u64::from(v)), format, versions)?;
            Ok(value)
        }
        Err(parse_error) => {
            #[derive(Deserialize)]
            struct Header {
                format: Option<serde_json::Value>,
                version: Option<serde_json::Value>,
                journal: Option<serde_json::Value>,
            }
            if !bytes.trim_ascii_start().starts_with(b"{") {
                let json = serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok();
                return Err(not_ours(path, format, if json { "not a JSON object" } else { "not JSON" }));
            }
            // Only the first JSON value: a journal is one value per line.
            match serde_json::Deserializer::from_slice(bytes).into_iter::<Header>().next().unwrap_or_else(|| {
                serde_json::from_slice::<Header>(bytes) // no value at all: let it say why
            }) {
                Ok(h) if h.journal.as_ref().and_then(|j| j.as_str()) == Some(JOURNAL_FORMAT) => Err(Error::whole_file(
                    path,
                    format!(
                        "this is a PROTEST journal (the unsaved changes kept beside a master or batch), not a {} file; open the file it belongs to",
                        kind_name(format)
                    ),
                )),
                Ok(h) => {
                    let f = h.format.as_ref().map(|f| f.as_str().unwrap_or("?"));
                    check_header(
                        path,
                        f,
                        h.version.as_ref().map(|v| v.as_u64().unwrap_or(u64::MAX)),
                        format,
                        versions,
                    )?;
                    Err(parse_error)
                }
                Err(_) if bytes.iter().take(1024).any(|&b| b == 0) => Err(not_ours(path, format, "not JSON")),
                Err(_) => Err(parse_error),
            }
        }
    }
}

fn not_ours(path: &Path, format: &str, why: &str) -> Error {
    Error::whole_file(path, format!("not a PROTEST {} file ({why})", kind_name(format)))
}

fn check_header(path: &Path, found: Option<&str>, version: Option<u64>, format: &str, versions: &[u32]) -> Result<()> {
    let at = |field: &str| Some(Place::Json { path: field.into(), line: None });
    match found {
        Some(f) if f == format => {}
        Some(f) if f.starts_with("protest-") => {
            return Err(Error::invalid(
                path,
                at("format"),
                format!("this is a {} file, not a {} file", kind_name(f), kind_name(format)),
            ));
        }
        _ => {
            return Err(Error::invalid(
                path,
                at("format"),
                format!("not a PROTEST {} file (its \"format\" field is not \"{format}\")", kind_name(format)),
            ));
        }
    }
    match version {
        Some(v) if versions.iter().any(|&s| u64::from(s) == v) => Ok(()),
        Some(u64::MAX) | None => {
            Err(Error::invalid(path, at("version"), "the format version is missing or not a whole number"))
        }
        Some(v) => {
            let supported = match versions {
                [one] => format!("version {one}"),
                [earlier @ .., last] => {
                    format!("versions {} and {last}", earlier.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
                }
                [] => "no version".into(),
            };
            let newer = versions.iter().all(|&s| u64::from(s) < v);
            Err(Error::invalid(
                path,
                at("version"),
                format!(
                    "format version {v} is not supported (this build reads {supported}){}",
                    if newer { "; it was written by a newer PROTEST, update this one" } else { "" }
                ),
            ))
        }
    }
}

fn kind_name(format: &str) -> &str {
    format.strip_prefix("protest-").unwrap_or(format)
}

/// The value of one top-level field of a JSON object, reading no further than that field (our
/// files put their header fields first, so a large file costs nothing). `None` when the bytes are
/// not an object, or the field is missing or of another type.
pub fn top_level<'de, T: Deserialize<'de>, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
    field: &str,
) -> Option<T> {
    struct Field<'a, T>(&'a str, &'a mut Option<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Field<'_, T> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if key == self.0 {
                    *self.1 = map.next_value::<Option<T>>()?;
                    // Found: an error ends the reading here, before the rest of the file.
                    return Err(serde::de::Error::custom("found"));
                }
                map.next_value::<serde::de::IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut value = None;
    let _ = serde::Deserializer::deserialize_map(de, Field(field, &mut value));
    value
}

/// [`top_level`] for a whole number in a file, reading only as far as the field.
pub fn top_level_u64(path: &Path, field: &str) -> Option<u64> {
    top_level(&mut serde_json::Deserializer::from_reader(beginning(path)?), field)
}

/// [`top_level`] for a string in a file, reading only as far as the field.
pub fn top_level_string(path: &Path, field: &str) -> Option<String> {
    top_level(&mut serde_json::Deserializer::from_reader(beginning(path)?), field)
}

/// The UTF-8 byte-order mark some editors put at the start of a file: not part of the JSON.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes without a byte-order mark at their start.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// A reader of a regular file from its beginning, past a byte-order mark: for [`top_level`].
pub fn beginning(path: &Path) -> Option<io::BufReader<std::fs::File>> {
    use std::io::BufRead;
    let mut reader = io::BufReader::new(crate::store::files::open_to_read(path).ok()?);
    if reader.fill_buf().ok()?.starts_with(BOM) {
        reader.consume(BOM.len());
    }
    Some(reader)
}

/// Deserialises JSON, reporting the JSON path and line of the first problem.
pub fn parse<'de, T: Deserialize<'de>>(path: &Path, bytes: &'de [u8]) -> Result<T> {
    // Tracking the path costs a quarter of the parse of a large master, so it is only done again
    // to explain a failure.
    let mut de = serde_json::Deserializer::from_slice(bytes);
    if let Ok(value) = T::deserialize(&mut de)
        && de.end().is_ok()
    {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        // "?" is serde_path_to_error's way of saying the path is unknown: the line says it all.
        let json_path = Some(e.path().to_string()).filter(|p| p != "?").unwrap_or_default();
        let inner = e.into_inner();
        let line = (inner.line() > 0).then_some(inner.line());
        let message = strip_position(&inner.to_string());
        let message = if inner.is_eof() { format!("the file ends too early (truncated?): {message}") } else { message };
        Error::invalid(path, Some(Place::Json { path: json_path, line }), message)
    })?;
    de.end().map_err(|e| {
        Error::invalid(
            path,
            Some(Place::Json { path: String::new(), line: Some(e.line()) }),
            "unexpected data after the end of the document",
        )
    })?;
    Ok(value)
}

/// serde_json appends "at line L column C" to its messages; we report the place ourselves.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn layout(v: &serde_json::Value) -> String {
        let mut out = Vec::new();
        write(&mut out, v).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn big_lists_get_one_element_per_line() {
        let v = json!({
            "format": "x",
            "corpora": [{"id": 0, "sentences": ["a b", "c"], "alignment": ["0-0"]}],
            "records": [{"candidate": 1, "tags": ["t"]}, {"candidate": 2}],
            "documents": [0, 5],
        });
        let text = layout(&v);
        // serde_json::Value sorts keys.
        assert_eq!(
            text,
            "{\n \"corpora\":[\n  {\n   \"alignment\":[\n    \"0-0\"\n   ],\n   \"id\":0,\n   \"sentences\":[\n    \"a b\",\n    \"c\"\n   ]\n  }\n ],\n \"documents\":[0,5],\n \"format\":\"x\",\n \"records\":[\n  {\"candidate\":1,\"tags\":[\"t\"]},\n  {\"candidate\":2}\n ]\n}\n"
        );
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
    }

    #[test]
    fn nested_line_keys_inside_compact_objects_stay_compact() {
        let v = json!({"records": [{"selected": {"tasks": [1, 2]}}], "empty": [], "e2": {}});
        let text = layout(&v);
        assert_eq!(text, "{\n \"e2\":{},\n \"empty\":[],\n \"records\":[\n  {\"selected\":{\"tasks\":[1,2]}}\n ]\n}\n");
    }

    #[test]
    fn a_broken_document_is_placed_by_its_line_alone_when_no_field_is_known() {
        let err = parse::<serde_json::Value>(Path::new("m.json"), b"{broken").unwrap_err().to_string();
        assert_eq!(err, "m.json: line 1: key must be a string");
    }
}
