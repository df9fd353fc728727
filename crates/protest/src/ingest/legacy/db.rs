//! Reading an original-tool SQLite file: opened so that nothing can change it, every table read
//! into plain rows, and every problem named by table and row.
//!
//! The reader knows the tables of docs/legacy.md by name and asks SQLite which columns each one
//! has, so files that lack an optional table or column (older "PROTEST 1.0" files) read the same
//! way, and a missing required one is named in the message.

use crate::error::{Error, Place, Result};
use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The first bytes of every SQLite 3 database.
pub(super) const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// An error at a row of a table.
pub(super) fn at_row(path: &Path, table: &str, row: i64, message: impl std::fmt::Display) -> Error {
    Error::invalid(path, Some(Place::Row { table: table.to_owned(), row }), message)
}

/// An open database and the columns of its tables.
pub(super) struct Db {
    conn: Connection,
    path: PathBuf,
    /// Lower-case table name → (name as stored, lower-case column names).
    tables: BTreeMap<String, (String, Vec<String>)>,
}

/// A column to read: its name (and older names), and whether a file may lack it.
#[derive(Clone, Copy)]
pub(super) enum Col {
    Req(&'static [&'static str]),
    Opt(&'static [&'static str]),
}

/// The rows of one table, as read.
pub(super) struct Rows {
    path: PathBuf,
    pub table: &'static str,
    /// The column names, as chosen among the aliases (for messages).
    columns: Vec<&'static str>,
    rows: Vec<(i64, Vec<Value>)>,
}

/// One row, for typed access with messages naming table, row and column.
pub(super) struct Row<'a> {
    of: &'a Rows,
    pub id: i64,
    values: &'a [Value],
}

impl Db {
    /// Opens the file read-only and immutable, after checking it is an SQLite database with no
    /// unfinished transaction beside it.
    pub fn open(path: &Path) -> Result<Db> {
        if !has_sqlite_header(path)? {
            return Err(Error::whole_file(
                path,
                "not an SQLite database, so not a file of the original PROTEST tool (those start with \"SQLite format 3\")",
            ));
        }
        for suffix in ["-journal", "-wal"] {
            let mut side = path.as_os_str().to_owned();
            side.push(suffix);
            if Path::new(&side).exists() {
                return Err(Error::whole_file(
                    path,
                    format!(
                        "{} exists beside it: a change to the database was not finished. Open it once in the original PROTEST tool (or run `sqlite3 FILE 'pragma integrity_check'`) so SQLite completes or undoes that change, then convert again",
                        Path::new(&side).display()
                    ),
                ));
            }
        }
        // `immutable=1`: SQLite takes no locks and writes nothing, not even a journal; safe because
        // nothing else may be writing the file (checked just above for the usual traces).
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let unreadable = |e: rusqlite::Error| Error::whole_file(path, format!("cannot read this SQLite database: {e}"));
        let conn = Connection::open_with_flags(uri(path)?, flags).map_err(unreadable)?;
        let mut tables = BTreeMap::new();
        {
            let mut names = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").map_err(unreadable)?;
            let names: Vec<String> =
                names.query_map([], |r| r.get(0)).map_err(unreadable)?.collect::<Result<_, _>>().map_err(unreadable)?;
            let mut info = conn.prepare("SELECT name FROM pragma_table_info(?1)").map_err(unreadable)?;
            for name in names {
                let columns: Vec<String> = info
                    .query_map([&name], |r| r.get::<_, String>(0))
                    .map_err(unreadable)?
                    .map(|c| c.map(|c| c.to_lowercase()))
                    .collect::<Result<_, _>>()
                    .map_err(unreadable)?;
                tables.insert(name.to_lowercase(), (name, columns));
            }
        }
        Ok(Db { conn, path: path.to_path_buf(), tables })
    }

    /// The lower-case column names of a table, if the file has it.
    pub fn columns(&self, table: &str) -> Option<&[String]> {
        self.tables.get(table).map(|(_, columns)| columns.as_slice())
    }

    /// Every row of the first of `names` that exists (`None` if none does), ordered by id, with
    /// the wanted columns. A missing required column is an error naming the table.
    pub fn read(&self, names: &[&'static str], wanted: &[Col]) -> Result<Option<Rows>> {
        let Some((table, (stored, columns))) = names.iter().find_map(|&n| self.tables.get(n).map(|t| (n, t))) else {
            return Ok(None);
        };
        let id = if columns.iter().any(|c| c == "id") { "id" } else { "rowid" };
        let mut chosen = Vec::new();
        let mut select = vec![quote(id)];
        for col in wanted {
            let (aliases, required) = match *col {
                Col::Req(a) => (a, true),
                Col::Opt(a) => (a, false),
            };
            match aliases.iter().find(|a| columns.iter().any(|c| c == *a)) {
                Some(name) => select.push(quote(name)),
                None if required => {
                    return Err(Error::whole_file(
                        &self.path,
                        format!(
                            "table {table} has no column {}; is this a file of the original PROTEST tool?",
                            aliases[0]
                        ),
                    ));
                }
                None => select.push("NULL".into()),
            }
            chosen.push(aliases[0]);
        }
        let sql = format!("SELECT {} FROM {} ORDER BY {}", select.join(", "), quote(stored), quote(id));
        let failed = |e: rusqlite::Error| Error::whole_file(&self.path, format!("cannot read table {table}: {e}"));
        let mut stmt = self.conn.prepare(&sql).map_err(failed)?;
        let n = select.len();
        let rows = stmt
            .query_map([], |r| {
                let id = match r.get::<_, Value>(0)? {
                    Value::Integer(i) => i,
                    _ => -1,
                };
                let values = (1..n).map(|i| r.get::<_, Value>(i)).collect::<Result<Vec<_>, _>>()?;
                Ok((id, values))
            })
            .map_err(failed)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(failed)?;
        Ok(Some(Rows { path: self.path.clone(), table, columns: chosen, rows }))
    }
}

impl Rows {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(|(id, values)| Row { of: self, id: *id, values })
    }
}

impl Row<'_> {
    /// An error about this row.
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        at_row(&self.of.path, self.of.table, self.id, message)
    }

    fn column(&self, k: usize) -> &str {
        self.of.columns[k]
    }

    /// An integer, or `None` for NULL. Whole numbers stored as text or real are accepted.
    pub fn opt_int(&self, k: usize) -> Result<Option<i64>> {
        match &self.values[k] {
            Value::Null => Ok(None),
            Value::Integer(i) => Ok(Some(*i)),
            Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => Ok(Some(*r as i64)),
            Value::Text(t) if t.trim().parse::<i64>().is_ok() => Ok(t.trim().parse().ok()),
            other => Err(self.error(format!("{} should be a whole number, not {}", self.column(k), show(other)))),
        }
    }

    pub fn int(&self, k: usize) -> Result<i64> {
        self.opt_int(k)?.ok_or_else(|| self.error(format!("{} is empty (NULL)", self.column(k))))
    }

    /// Text, or `None` for NULL. Numbers are turned into their text.
    pub fn opt_text(&self, k: usize) -> Result<Option<String>> {
        match &self.values[k] {
            Value::Null => Ok(None),
            Value::Text(t) => Ok(Some(t.clone())),
            Value::Integer(i) => Ok(Some(i.to_string())),
            Value::Real(r) => Ok(Some(r.to_string())),
            Value::Blob(b) => String::from_utf8(b.clone())
                .map(Some)
                .map_err(|_| self.error(format!("{} is binary data, not text", self.column(k)))),
        }
    }

    pub fn text(&self, k: usize) -> Result<String> {
        self.opt_text(k)?.ok_or_else(|| self.error(format!("{} is empty (NULL)", self.column(k))))
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Integer(i) => i.to_string(),
        Value::Real(r) => r.to_string(),
        Value::Text(t) => format!("the text '{t}'"),
        Value::Blob(_) => "binary data".into(),
    }
}

fn quote(name: &str) -> String {
    if name == "rowid" { name.into() } else { format!("\"{}\"", name.replace('"', "\"\"")) }
}

/// Whether the file starts like an SQLite 3 database.
pub(super) fn has_sqlite_header(path: &Path) -> Result<bool> {
    let mut header = [0u8; 16];
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut read = 0;
    while read < header.len() {
        match file.read(&mut header[read..]).map_err(|e| Error::io(path, e))? {
            0 => break,
            n => read += n,
        }
    }
    Ok(read == header.len() && &header == SQLITE_MAGIC)
}

/// The `file:` URI of a path, for SQLite's URI filenames (`?immutable=1` needs one).
fn uri(path: &Path) -> Result<String> {
    let absolute = std::path::absolute(path).map_err(|e| Error::io(path, e))?;
    let bytes = absolute.as_os_str().as_encoded_bytes();
    let mut uri = String::from("file:");
    if !bytes.starts_with(b"/") {
        uri.push('/'); // a Windows drive path: file:/C:/…
    }
    for &b in bytes {
        match b {
            b'\\' => uri.push('/'),
            b if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) => uri.push(char::from(b)),
            b => {
                let _ = write!(uri, "%{b:02X}");
            }
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    Ok(uri)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_escape_what_sqlite_would_read_as_syntax() {
        let u = uri(Path::new("/tmp/my file?#%.db")).unwrap();
        assert_eq!(u, "file:/tmp/my%20file%3F%23%25.db?mode=ro&immutable=1");
    }
}
