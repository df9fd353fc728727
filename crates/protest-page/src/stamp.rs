//! The stamp beside the committed page: the digest of the sources it was built from and of each
//! of its files, written last by `scripts/build-page`. The page is current when both still hold:
//! the sources did not change since, and the files are the ones that build wrote.

use crate::{BUILT, FILES, SCRIPT, STAMP, Unreadable, digest_of_sources, sha256};
use std::path::Path;

/// What a build of the page wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// [`digest_of_sources`] when it was built.
    pub sources: String,
    /// Each of [`FILES`] with the hex SHA-256 of its bytes.
    pub files: Vec<(String, String)>,
}

/// Why the committed page is not the one its sources build.
#[derive(Debug)]
pub enum Stale {
    Unreadable(Unreadable),
    /// The stamp is not one `scripts/build-page` writes.
    Foreign(String),
    /// The sources changed since the page was built.
    Sources,
    /// A file of the page is not the one the build wrote.
    File(String),
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Unreadable(e) => write!(f, "{e}"),
            Stale::Foreign(why) => write!(f, "{BUILT}/{STAMP} is not a stamp of {SCRIPT}: {why}"),
            Stale::Sources => write!(f, "the page in {BUILT} was built from other sources than these"),
            Stale::File(name) => write!(f, "{BUILT}/{name} is not the file its build wrote"),
        }?;
        write!(f, ": run {SCRIPT} and commit what it writes")
    }
}

impl std::error::Error for Stale {}

impl From<Unreadable> for Stale {
    fn from(e: Unreadable) -> Stale {
        Stale::Unreadable(e)
    }
}

impl Stamp {
    /// The stamp's text: a line of explanation, then `sources DIGEST` and `FILE DIGEST` lines.
    pub fn render(&self) -> String {
        let mut text = format!("# written by {SCRIPT}: the SHA-256 of the page's sources, then of each file\n");
        text.push_str(&format!("sources {}\n", self.sources));
        for (name, digest) in &self.files {
            text.push_str(&format!("{name} {digest}\n"));
        }
        text
    }

    pub fn parse(text: &str) -> Result<Stamp, Stale> {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        let mut field = |name: &str| match lines.next().and_then(|l| l.split_once(' ')) {
            Some((said, digest)) if said == name && is_digest(digest) => Ok(digest.to_owned()),
            _ => Err(Stale::Foreign(format!("no `{name} DIGEST` line where it belongs"))),
        };
        let sources = field("sources")?;
        let files = FILES.iter().map(|name| Ok((name.to_string(), field(name)?))).collect::<Result<_, Stale>>()?;
        Ok(Stamp { sources, files })
    }

    /// The committed stamp, checked against the sources and the files under `root`.
    pub fn check(root: &Path) -> Result<Stamp, Stale> {
        let read = |name: &str| {
            let path = root.join(BUILT).join(name);
            std::fs::read(&path).map_err(|e| Stale::Unreadable(Unreadable { path, why: e.to_string() }))
        };
        let stamp = Stamp::parse(&String::from_utf8_lossy(&read(STAMP)?))?;
        for (name, digest) in &stamp.files {
            if sha256(&read(name)?) != *digest {
                return Err(Stale::File(name.clone()));
            }
        }
        match digest_of_sources(root)? == stamp.sources {
            true => Ok(stamp),
            false => Err(Stale::Sources),
        }
    }
}

fn is_digest(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
    }

    /// The page `protest serve` embeds is the one its sources build: else the server would serve
    /// an old window (or one that speaks an old protocol) while everything else is new.
    #[test]
    fn the_committed_page_was_built_from_these_sources() {
        if let Err(stale) = Stamp::check(root()) {
            panic!("{stale}");
        }
    }

    #[test]
    fn a_stamp_reads_back_and_a_foreign_one_is_refused() {
        let stamp =
            Stamp { sources: "a".repeat(64), files: FILES.iter().map(|n| (n.to_string(), "0".repeat(64))).collect() };
        assert_eq!(Stamp::parse(&stamp.render()).unwrap(), stamp);
        let short = stamp.render().replace(&"a".repeat(64), "abc");
        let e = Stamp::parse(&short).unwrap_err().to_string();
        assert!(
            e.contains("no `sources DIGEST` line") && e.ends_with("run scripts/build-page and commit what it writes"),
            "{e}"
        );
        assert!(Stamp::parse("sources x\n").is_err());
    }

    /// A copy of the committed page and its sources, changed one way at a time: each is caught,
    /// and the message names the script that rebuilds the page.
    #[test]
    fn a_changed_source_or_file_makes_the_page_stale() {
        let copy = tempfile::tempdir().unwrap();
        copy_tree(root(), copy.path(), crate::sources::SOURCES.iter().copied().chain([BUILT]));
        Stamp::check(copy.path()).expect("the copy is as current as the checkout");
        let lib = copy.path().join("crates/protest/src/lib.rs");
        let before = std::fs::read(&lib).unwrap();
        std::fs::write(&lib, [before.as_slice(), b"\n// a change\n"].concat()).unwrap();
        let e = Stamp::check(copy.path()).unwrap_err();
        assert!(matches!(e, Stale::Sources), "{e}");
        assert!(e.to_string().contains("run scripts/build-page"), "{e}");
        std::fs::write(&lib, before).unwrap();
        let wasm = copy.path().join(BUILT).join("app.wasm.gz");
        std::fs::write(&wasm, b"not the build's").unwrap();
        assert!(matches!(Stamp::check(copy.path()), Err(Stale::File(name)) if name == "app.wasm.gz"));
    }

    fn copy_tree<'a>(from: &Path, to: &Path, paths: impl Iterator<Item = &'a str>) {
        for relative in paths {
            let (source, target) = (from.join(relative), to.join(relative));
            if source.is_dir() {
                let names = std::fs::read_dir(&source).unwrap().map(|e| e.unwrap().file_name());
                let names: Vec<String> = names.map(|n| format!("{relative}/{}", n.to_string_lossy())).collect();
                copy_tree(from, to, names.iter().map(String::as_str));
            } else {
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::copy(&source, &target).unwrap();
            }
        }
    }
}
