//! The layers of the crate, checked: the module list of the crate's documentation (`lib.rs`) is
//! the order, and a module that names one listed after it (`crate::store` inside `metrics`, say)
//! fails the build's tests, named with its file and line. Test code is not held to it: a test may
//! build its fixtures with any layer. README's list of the layers is the same list.
//!
//! The crate is read as the compiler reads it ([`paths`]): from `lib.rs`, every file it compiles
//! outside tests, every path in them resolved against the module it stands in — `crate::`,
//! `self::`, `super::super::`, and the names the crate's root re-exports — so that neither a
//! `use` group that rustfmt wrapped over several lines, nor a path in a macro's body, nor code
//! after a test module goes unseen.
//!
//! `scorers` and `metrics` compute and write nothing: they name `std::fs` nowhere, and read their
//! input files through [`READER`] (beneath every layer), which opens files to read them only.

mod paths;
#[cfg(test)]
mod tests;

use paths::{SourceFile, Written};
use std::collections::HashMap;
use std::path::Path;

/// The one file of the scorers and metrics that touches the file system, to read their inputs.
const READER: &str = "text_file.rs";

/// The crate's layers from the ground up and the modules beneath them all, as `lib.rs`'s
/// documentation lists them.
#[derive(Debug)]
struct Layers {
    order: Vec<String>,
    common: Vec<String>,
}

impl Layers {
    /// The layers from the bullet list of `//!` lines (`//! - [`model`]: …`), the common modules
    /// from the paragraph that begins `Beneath them all`.
    fn from_doc(lib: &str) -> Layers {
        let doc: Vec<&str> = lib.lines().filter_map(|l| l.strip_prefix("//!")).map(str::trim).collect();
        let order = doc.iter().filter_map(|l| l.strip_prefix("- [`")).map(|l| first_name(l).to_owned()).collect();
        let common = doc
            .iter()
            .skip_while(|l| !l.starts_with("Beneath them all"))
            .take_while(|l| !l.is_empty())
            .flat_map(|l| l.split("[`").skip(1))
            .map(|link| first_name(link).to_owned())
            .collect();
        Layers { order, common }
    }

    /// Where `module` stands: its floor, or `None` for the common modules beneath them all.
    fn floor(&self, module: &str) -> Option<usize> {
        self.order.iter().position(|m| m == module)
    }
}

/// The identifier at the start of `text`.
fn first_name(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// A module naming a layer above its own (`to` is `*` for a glob of the crate's root, which
/// names them all).
#[derive(Debug, PartialEq)]
struct Climb {
    line: usize,
    from: String,
    to: String,
}

/// The module of the crate's root each name the root makes visible stands for: `Error` for
/// `error` after `pub use error::Error`.
fn root_names(root: &[Written]) -> HashMap<String, String> {
    root.iter()
        .filter_map(|w| {
            let (path, _) = w.named_from_root()?;
            Some((w.imported_as.clone()?, path.first()?.clone()))
        })
        .collect()
}

/// Every name of a layer above `module` among `written` (the paths of one of its files).
fn climbs(layers: &Layers, root: &HashMap<String, String>, module: &str, written: &[Written]) -> Vec<Climb> {
    let floor = layers.floor(module);
    // A common module stands beneath every layer: it may name none of them.
    let above = |to: &str| layers.floor(to).is_some_and(|f| floor.is_none_or(|floor| f > floor));
    let mut found: Vec<Climb> = written
        .iter()
        .filter_map(|w| {
            let (path, prefix) = w.named_from_root()?;
            let top = path.first()?;
            let to = root.get(top).unwrap_or(top);
            let climbs = match to.as_str() {
                "*" => layers.order.iter().any(|l| above(l)),
                to => above(to),
            };
            climbs.then(|| Climb { line: w.line(prefix), from: module.to_owned(), to: to.clone() })
        })
        .collect();
    found.sort_by(|a, b| (a.line, &a.to).cmp(&(b.line, &b.to)));
    found.dedup();
    found
}

/// The lines of a file of the scorers, the metrics or their reader (at `relative`) that touch the
/// file system against the rule.
fn file_system_uses(relative: &str, written: &[Written]) -> Vec<usize> {
    const WRITES: [&str; 7] =
        ["File::create", "OpenOptions", "fs::write", "fs::create", "fs::remove", "fs::rename", "fs::copy"];
    let forbidden = |w: &Written| {
        let names: Vec<&str> = w.segments.iter().map(|(s, _)| s.as_str()).collect();
        match relative == READER {
            true => WRITES.iter().any(|write| w.text().contains(write)),
            false => names.first() == Some(&"fs") || names.windows(2).any(|pair| pair == ["std", "fs"]),
        }
    };
    let mut lines: Vec<usize> = written.iter().filter(|w| forbidden(w)).map(|w| w.line(usize::MAX)).collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// What breaks the layers in the crate under `src`, one line each: `file:line: what`.
fn check(src: &Path) -> Result<(Vec<String>, usize), String> {
    let files = paths::crate_files(src)?;
    let lib = std::fs::read_to_string(src.join("lib.rs")).map_err(|e| format!("lib.rs: {e}"))?;
    let layers = Layers::from_doc(&lib);
    let root_file = files.iter().find(|f| f.module.is_empty()).map(|f| f.reading.written.as_slice());
    let root = root_names(root_file.unwrap_or_default());
    let mut wrong = Vec::new();
    for SourceFile { relative, module, reading } in files.iter().filter(|f| !f.module.is_empty()) {
        let top = &module[0];
        for climb in climbs(&layers, &root, top, &reading.written) {
            let what = match climb.to.as_str() {
                "*" => "every layer (a glob of the crate's root)".to_owned(),
                to => format!("{to}, a layer above it"),
            };
            wrong.push(format!("{relative}:{}: {} uses {what}", climb.line, climb.from));
        }
        if ["scorers", "metrics", "text_file"].contains(&top.as_str()) {
            for line in file_system_uses(relative, &reading.written) {
                wrong.push(format!("{relative}:{line}: {top} touches the file system (only {READER} reads)"));
            }
        }
    }
    Ok((wrong, files.len()))
}
