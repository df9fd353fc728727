//! The layers of the crate, checked: the module list of the crate's documentation (`lib.rs`) is
//! the order, and a module that names one listed after it (`crate::store` inside `metrics`, say)
//! fails the build's tests, named with its file and line. Test code is not held to it: a test may
//! build its fixtures with any layer.
//!
//! `scorers` and `metrics` compute and write nothing: they name `std::fs` nowhere, and read their
//! input files through [`READER`], which opens files to read them only.

use std::path::{Path, PathBuf};

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

/// A module naming a layer above its own.
#[derive(Debug, PartialEq)]
struct Climb {
    line: usize,
    from: String,
    to: String,
}

/// The identifier at the start of `text`.
fn first_name(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// `source` without its test module (by the crate's convention the last item of a file) and
/// without `//` comments, line by line.
fn code_lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut lines = source.lines().enumerate().peekable();
    std::iter::from_fn(move || {
        let (i, line) = lines.next()?;
        let test_module = line.trim() == "#[cfg(test)]"
            && lines.peek().is_some_and(|(_, next)| next.trim_start().starts_with("mod ") && next.ends_with('{'));
        if test_module {
            return None;
        }
        Some((i + 1, without_comment(line)))
    })
}

/// `line` up to a `//` that is not inside a string.
fn without_comment(line: &str) -> &str {
    let mut in_string = false;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '"' if previous != '\\' => in_string = !in_string,
            '/' if !in_string && previous == '/' => return &line[..i - 1],
            _ => {}
        }
        previous = c;
    }
    line
}

/// The top-level names a line takes from the crate: `a` and `b` from `use crate::{a::X, b};`,
/// `c` from `crate::c::f()`.
fn crate_names(line: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let preceded = line[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if preceded {
            continue;
        }
        let rest = &line[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => names.extend(top_level_items(group).map(|item| first_name(item.trim_start()))),
            None => names.push(first_name(rest)),
        }
    }
    names
}

/// The items of a `{…}` group up to its closing brace, split at its own commas.
fn top_level_items(group: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items.into_iter();
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items.into_iter()
}

/// Every name of a layer above `module` in `source`.
fn climbs(layers: &Layers, module: &str, source: &str) -> Vec<Climb> {
    let Some(floor) = layers.floor(module) else {
        // A common module stands beneath every layer: it may name none of them.
        return code_lines(source)
            .flat_map(|(line, code)| crate_names(code).into_iter().map(move |to| (line, to)))
            .filter(|(_, to)| layers.floor(to).is_some())
            .map(|(line, to)| Climb { line, from: module.to_owned(), to: to.to_owned() })
            .collect();
    };
    code_lines(source)
        .flat_map(|(line, code)| crate_names(code).into_iter().map(move |to| (line, to)))
        .filter(|(_, to)| layers.floor(to).is_some_and(|f| f > floor))
        .map(|(line, to)| Climb { line, from: module.to_owned(), to: to.to_owned() })
        .collect()
}

/// The lines of a `metrics` file (at `relative`) that touch the file system against the rule.
fn file_system_uses(relative: &str, source: &str) -> Vec<usize> {
    const WRITES: [&str; 7] =
        ["File::create", "OpenOptions", "fs::write", "fs::create", "fs::remove", "fs::rename", "fs::copy"];
    let forbidden = |code: &str| {
        if relative == READER {
            WRITES.iter().any(|w| code.contains(w))
        } else {
            code.contains("fs::") || code.contains("std::{") && code.contains("fs")
        }
    };
    code_lines(source).filter(|(_, code)| forbidden(code)).map(|(line, _)| line).collect()
}

/// Every `.rs` file under `dir`, with its path relative to `root`.
fn sources(root: &Path, dir: &Path, found: &mut Vec<(String, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(root, &path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            found.push((relative, path));
        }
    }
}

/// The module a file belongs to (`store` for `store/journal.rs` and for `store.rs`).
fn module_of(relative: &str) -> &str {
    let first = relative.split('/').next().unwrap_or(relative);
    first.strip_suffix(".rs").unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
    }

    fn crate_layers() -> Layers {
        Layers::from_doc(&std::fs::read_to_string(src().join("lib.rs")).unwrap())
    }

    #[test]
    fn the_documentation_lists_every_module_once() {
        let layers = crate_layers();
        assert_eq!(layers.order[..4], ["model", "annotate", "scorers", "metrics"], "{layers:?}");
        assert_eq!(layers.common, ["error", "text_file", "progress", "shell", "sample"]);
        let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
        let declared: Vec<&str> = lib.lines().filter_map(|l| l.strip_prefix("pub mod ")).map(first_name).collect();
        let mut listed: Vec<&str> = layers.order.iter().chain(&layers.common).map(String::as_str).collect();
        listed.sort();
        let mut declared_sorted = declared.clone();
        declared_sorted.sort();
        assert_eq!(listed, declared_sorted, "every public module is a layer or beneath them all, once");
    }

    #[test]
    fn no_module_uses_a_layer_above_it() {
        let (root, layers) = (src(), crate_layers());
        let mut files = Vec::new();
        sources(&root, &root, &mut files);
        let mut wrong = Vec::new();
        for (relative, path) in &files {
            let module = module_of(relative);
            if ["lib", "layers", "testing"].contains(&module) || relative.ends_with("/tests.rs") {
                continue;
            }
            let source = std::fs::read_to_string(path).unwrap();
            for climb in climbs(&layers, module, &source) {
                wrong.push(format!("{relative}:{}: {} uses {}, a layer above it", climb.line, climb.from, climb.to));
            }
            if ["scorers", "metrics", "text_file"].contains(&module) {
                for line in file_system_uses(relative, &source) {
                    wrong.push(format!("{relative}:{line}: {module} touches the file system (only {READER} reads)"));
                }
            }
        }
        assert!(files.len() > 100, "the crate's files were found: {}", files.len());
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    const DOC: &str = "//! The modules:\n//!\n//! - [`model`]: data;\n//! - [`store`]: files;\n\
                       //! - [`session`]: open.\n//!\n//! Beneath them all: [`error`] and [`shell::Shell`].\n//!\n";

    #[test]
    fn the_order_is_read_from_the_documentation() {
        let layers = Layers::from_doc(DOC);
        assert_eq!(layers.order, ["model", "store", "session"]);
        assert_eq!(layers.common, ["error", "shell"]);
    }

    #[test]
    fn a_use_of_a_layer_above_fails_with_its_line_and_both_layers() {
        let layers = Layers::from_doc(DOC);
        let source = "use crate::model::Master;\n\
                      // crate::session in a comment is no use\n\
                      use crate::{error::Error, store::{Store, journal}};\n\
                      fn f() { crate::session::open(); let s = \"// not a comment\"; crate::store::x(); }\n\
                      #[cfg(test)]\n\
                      mod tests {\n    use crate::session::Open;\n}\n";
        let climbs = climbs(&layers, "model", source);
        let found: Vec<(usize, &str)> = climbs.iter().map(|c| (c.line, c.to.as_str())).collect();
        assert_eq!(found, [(3, "store"), (4, "session"), (4, "store")]);
        assert!(climbs.iter().all(|c| c.from == "model"));
        assert_eq!(super::climbs(&layers, "session", source), []);
        // A common module may use no layer at all.
        let from_error = super::climbs(&layers, "error", "use crate::model::X;\nuse crate::shell::Shell;\n");
        assert_eq!(from_error, [Climb { line: 1, from: "error".into(), to: "model".into() }]);
    }

    #[test]
    fn metrics_may_only_read_and_only_in_its_reader() {
        let writes = "use std::fs::File;\nfn f() { File::create(p); std::fs::write(p, b); }\n";
        assert_eq!(file_system_uses("metrics/report/mod.rs", writes), [1, 2]);
        assert_eq!(file_system_uses(READER, writes), [2]);
        assert_eq!(file_system_uses(READER, "use std::fs::File;\nFile::open(p)\n"), Vec::<usize>::new());
        assert_eq!(file_system_uses("metrics/x.rs", "use std::{fs, io};\n"), [1]);
    }

    #[test]
    fn files_belong_to_their_top_module() {
        assert_eq!(module_of("store/journal.rs"), "store");
        assert_eq!(module_of("shell.rs"), "shell");
    }
}
