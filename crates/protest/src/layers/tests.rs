use super::paths;
use super::*;
use std::path::PathBuf;

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

/// The layers README names, in its order: the backquoted names outside parentheses of the
/// paragraph that begins "Its modules are domains".
fn readme_layers(readme: &str) -> Vec<String> {
    let start = readme.find("Its modules are domains").expect("README describes the core's modules");
    let paragraph = &readme[start..readme[start..].find("\n- ").map_or(readme.len(), |end| start + end)];
    let mut depth = 0;
    let mut names = Vec::new();
    for (i, c) in paragraph.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '`' if depth == 0 && paragraph[..i].matches('`').count().is_multiple_of(2) => {
                names.push(first_name(&paragraph[i + 1..]).to_owned());
            }
            _ => {}
        }
    }
    names
}

#[test]
fn the_readme_lists_the_layers_in_the_order_of_lib_rs() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    assert_eq!(readme_layers(&readme), crate_layers().order);
    let swapped = "Its modules are domains, each using only those before it: `model` (the data, `x`), \
                   `store` (files), `annotate` (edits).\n- next";
    assert_eq!(readme_layers(swapped), ["model", "store", "annotate"]);
}

#[test]
fn no_module_uses_a_layer_above_it() {
    let (wrong, files) = check(&src()).unwrap();
    assert!(files > 100, "the crate's files were found: {files}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The core's src/ copied, with `planted` added at the end of `file`.
fn planted(file: &str, planted: &str) -> (tempfile::TempDir, usize) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            match path.is_dir() {
                true => copy(&path, &target),
                false => _ = std::fs::copy(&path, &target).unwrap(),
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    copy(&src(), dir.path());
    let at = dir.path().join(file);
    let mut text = std::fs::read_to_string(&at).unwrap();
    let lines = text.lines().count();
    text.push_str(planted);
    std::fs::write(&at, text).unwrap();
    (dir, lines)
}

#[test]
fn a_multi_line_use_planted_in_a_copy_of_the_crate_fails_naming_file_and_line() {
    // rustfmt's wrapping of a long group, after the file's test module.
    let use_group = "\nuse crate::{\n    error::Error,\n    session::{\n        Session,\n        open,\n    },\n};\n";
    let (dir, lines) = planted("model/clock.rs", use_group);
    let (wrong, _) = check(dir.path()).unwrap();
    assert_eq!(wrong, [format!("model/clock.rs:{}: model uses session, a layer above it", lines + 4)]);
    // A path three modules up (the crate's root), in an expression of a function.
    let up = "\nfn planted() -> usize {\n    super::super::super::workflow::planted()\n}\n";
    let (dir, lines) = planted("ingest/align/repair.rs", up);
    let (wrong, _) = check(dir.path()).unwrap();
    assert_eq!(wrong, [format!("ingest/align/repair.rs:{}: ingest uses workflow, a layer above it", lines + 3)]);
}

#[test]
fn a_file_the_crate_does_not_compile_outside_tests_is_not_read() {
    let (dir, _) = planted("testing.rs", "\nuse crate::session::Session;\n");
    assert_eq!(check(dir.path()).unwrap().0, Vec::<String>::new());
    let (dir, _) = planted("model/mod.rs", "\nmod missing;\n");
    assert!(check(dir.path()).unwrap_err().contains("model/mod.rs:"), "a module without its file is an error");
    let (dir, _) = planted("model/mod.rs", "\n#[path = \"x.rs\"]\nmod elsewhere;\n");
    assert!(check(dir.path()).unwrap_err().contains("#[path]"));
}

const DOC: &str = "//! The modules:\n//!\n//! - [`model`]: data;\n//! - [`store`]: files;\n\
                   //! - [`session`]: open.\n//!\n//! Beneath them all: [`error`] and [`shell::Shell`].\n//!\n";

#[test]
fn the_order_is_read_from_the_documentation() {
    let layers = Layers::from_doc(DOC);
    assert_eq!(layers.order, ["model", "store", "session"]);
    assert_eq!(layers.common, ["error", "shell"]);
}

/// The layers `source`, a file of `module`, climbs to: `(line, layer)`.
fn climbs_of(module: &[&str], source: &str) -> Vec<(usize, String)> {
    climbs_with_root(module, source, "")
}

fn climbs_with_root(module: &[&str], source: &str, root: &str) -> Vec<(usize, String)> {
    let module: Vec<String> = module.iter().map(|m| (*m).to_owned()).collect();
    let written = paths::read(&module, source).unwrap().written;
    let root = root_names(&paths::read(&[], root).unwrap().written);
    let climbs = climbs(&Layers::from_doc(DOC), &root, &module[0], &written);
    assert!(climbs.iter().all(|c| c.from == module[0]));
    climbs.into_iter().map(|c| (c.line, c.to)).collect()
}

fn at(found: &[(usize, &str)]) -> Vec<(usize, String)> {
    found.iter().map(|(line, to)| (*line, (*to).to_owned())).collect()
}

#[test]
fn a_use_group_wrapped_over_lines_climbs_at_the_line_of_the_layer() {
    let source =
        "use crate::{\n    error::Error,\n    store::{\n        Store,\n        journal::{self, Replay},\n    },\n};\n";
    assert_eq!(climbs_of(&["model"], source), at(&[(3, "store")]));
    assert_eq!(climbs_of(&["session", "open"], source), []);
    let renamed = "use crate::{model::X as Y, session as s};\n";
    assert_eq!(climbs_of(&["store"], renamed), at(&[(1, "session")]));
}

#[test]
fn super_paths_are_resolved_against_the_files_module() {
    let source = "use super::super::store::Store;\nfn f() { super::super::super::session::open(); }\n";
    // Two up from model::a is the crate's root; three up from model::a::b too.
    assert_eq!(climbs_of(&["model", "a"], source), at(&[(1, "store")]));
    assert_eq!(climbs_of(&["model", "a", "b"], source), at(&[(2, "session")]));
    // From deeper, two up stays inside model: its own modules.
    assert_eq!(climbs_of(&["model", "a", "b", "c"], source), []);
    assert_eq!(climbs_of(&["model"], "use super::store;\nuse self::store::X;\n"), at(&[(1, "store")]));
    // A glob of the crate's root names every layer.
    assert_eq!(climbs_of(&["model"], "use super::*;\n"), at(&[(1, "*")]));
    assert_eq!(climbs_of(&["session"], "use super::*;\n"), []);
}

#[test]
fn code_after_a_test_module_is_read_and_only_test_code_is_skipped() {
    let source = "#[cfg(test)]\nmod tests {\n    use crate::session::Open;\n}\n\
                  #[cfg(test)]\nfn helper() { crate::session::x(); }\n\
                  #[cfg(all(test, unix))]\nuse crate::session::Y;\n\
                  fn later() {\n    crate::store::x();\n}\n\
                  #[cfg(not(test))]\nuse crate::session::Z;\n\
                  impl A {\n    #[cfg(test)]\n    fn t() { crate::session::t() }\n    fn u() { crate::store::u() }\n}\n";
    assert_eq!(climbs_of(&["model"], source), at(&[(10, "store"), (13, "session"), (17, "store")]));
}

#[test]
fn paths_in_types_expressions_macros_and_serde_strings_are_seen() {
    let source = "struct S { store: crate::store::Store }\n\
                  fn f() -> Vec<crate::session::Open> {\n\
                  \x20   let x = crate::store::load(\"crate::session in a string\");\n\
                  \x20   // crate::session in a comment\n\
                  \x20   println!(\"{}\", crate::session::name());\n\
                  \x20   vec![$crate::store::y()]\n}\n\
                  #[derive(serde::Deserialize)]\nstruct T {\n    #[serde(deserialize_with = \"crate::session::read\")]\n    t: u8,\n}\n";
    let found = at(&[(1, "store"), (2, "session"), (3, "store"), (5, "session"), (6, "store"), (10, "session")]);
    assert_eq!(climbs_of(&["model"], source), found);
}

#[test]
fn names_the_crates_root_re_exports_stand_for_their_module() {
    let root = "pub use error::Error;\npub use store::{Store as Kept};\n";
    let source = "use crate::{Error, Kept};\n";
    assert_eq!(climbs_with_root(&["model"], source, root), at(&[(1, "store")]));
}

#[test]
fn a_common_module_may_use_no_layer() {
    assert_eq!(climbs_of(&["error"], "use crate::model::X;\nuse crate::shell::Shell;\n"), at(&[(1, "model")]));
}

#[test]
fn metrics_may_only_read_and_only_in_its_reader() {
    let uses = |relative: &str, source: &str| {
        let module = vec!["metrics".to_owned()];
        file_system_uses(relative, &paths::read(&module, source).unwrap().written)
    };
    let writes = "use std::fs::File;\nfn f() { File::create(p); std::fs::write(p, b); }\n";
    assert_eq!(uses("metrics/report/mod.rs", writes), [1, 2]);
    assert_eq!(uses(READER, writes), [2]);
    assert_eq!(uses(READER, "use std::fs::File;\nfn f() { File::open(p); }\n"), Vec::<usize>::new());
    assert_eq!(uses("metrics/x.rs", "use std::{\n    fs,\n    io,\n};\n"), [2]);
    assert_eq!(uses("metrics/x.rs", "fn f() { let _ = format!(\"{:?}\", std::fs::read(p)); }\n"), [1]);
}
