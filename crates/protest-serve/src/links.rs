//! The annotators' links (docs/serve.md, "Links"): one secret token per annotator of a task set,
//! 256 random bits from the operating system, in the link's path (`/a/TOKEN/`). The server keeps
//! only each token's SHA-256, in `MASTER.json.serve` (readable by its owner only); the token
//! itself is printed once, when it is made, and written to `--links FILE` if asked.

use chrono::{DateTime, Utc};
use protest::Error;
use protest::model::AnnotatorId;
use rand::TryRngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

const FORMAT: &str = "protest-serve-links";
const VERSION: u32 = 1;
/// Random bytes in a token.
pub const TOKEN_BYTES: usize = 32;

/// A new token: [`TOKEN_BYTES`] random bytes as lower-case hexadecimal digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).expect("the operating system gives random bytes");
    hex(&bytes)
}

/// Whether `token` has the form of a token (so that nothing else is even hashed).
pub fn well_formed(token: &str) -> bool {
    token.len() == 2 * TOKEN_BYTES && token.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The SHA-256 of a token, as kept on disk and looked up.
pub fn digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One annotator's link, as kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub task_set: u32,
    pub annotator: AnnotatorId,
    /// The SHA-256 of the token; `None` once revoked (so that no new link is made by itself).
    pub sha256: Option<String>,
    pub made: DateTime<Utc>,
}

/// `MASTER.json.serve` as written.
#[derive(Debug, Serialize, Deserialize)]
struct SavedLinks {
    format: String,
    version: u32,
    master: String,
    links: Vec<Link>,
}

/// The links of a master's annotators.
#[derive(Debug)]
pub struct Links {
    path: PathBuf,
    master: String,
    links: Vec<Link>,
}

/// Where the links of the master at `master` are kept.
pub fn path_for(master: &Path) -> PathBuf {
    let mut name = master.as_os_str().to_owned();
    name.push(".serve");
    PathBuf::from(name)
}

impl Links {
    /// The links kept beside the master (none yet if there is no file), checked to be its own.
    pub fn load(master: &Path, master_id: &str) -> Result<Links, Error> {
        let path = path_for(master);
        let mut links = Links { path: path.clone(), master: master_id.to_owned(), links: Vec::new() };
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(links),
            Err(e) => return Err(Error::io(&path, e)),
            Ok(meta) if !meta.is_file() => {
                return Err(Error::whole_file(&path, "is not a plain file (a link, a folder…); move it away"));
            }
            Ok(_) => {}
        }
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let file: SavedLinks = serde_json::from_slice(&bytes)
            .map_err(|e| Error::whole_file(&path, format!("is not a PROTEST links file ({e})")))?;
        if file.format != FORMAT || file.version != VERSION {
            return Err(Error::whole_file(
                &path,
                format!("unsupported links file '{}' version {}", file.format, file.version),
            ));
        }
        if file.master != master_id {
            return Err(Error::whole_file(
                &path,
                format!("holds the links of another master (id {}, not {master_id}); move it away", file.master),
            ));
        }
        links.links = file.links;
        Ok(links)
    }

    /// The link whose token has this SHA-256.
    pub fn find(&self, sha256: &str) -> Option<&Link> {
        self.links.iter().find(|l| l.sha256.as_deref() == Some(sha256))
    }

    /// The SHA-256 of an annotator's working link, if they have one.
    pub fn find_of(&self, task_set: u32, annotator: AnnotatorId) -> Option<&str> {
        self.position(task_set, annotator).and_then(|i| self.links[i].sha256.as_deref())
    }

    fn position(&self, task_set: u32, annotator: AnnotatorId) -> Option<usize> {
        self.links.iter().position(|l| l.task_set == task_set && l.annotator == annotator)
    }

    /// Whether the annotator was given a link (revoked since or not).
    pub fn has(&self, task_set: u32, annotator: AnnotatorId) -> bool {
        self.position(task_set, annotator).is_some()
    }

    /// Takes an annotator's link away (and no new one is made unless asked); whether they had one.
    pub fn revoke(&mut self, task_set: u32, annotator: AnnotatorId, now: DateTime<Utc>) -> bool {
        match self.position(task_set, annotator) {
            Some(i) => {
                let had = self.links[i].sha256.take().is_some();
                self.links[i].made = now;
                had
            }
            None => {
                self.links.push(Link { task_set, annotator, sha256: None, made: now });
                false
            }
        }
    }

    /// Makes an annotator a new link (in place of any they had); returns its token.
    pub fn make(&mut self, task_set: u32, annotator: AnnotatorId, now: DateTime<Utc>) -> String {
        let token = new_token();
        let link = Link { task_set, annotator, sha256: Some(digest(&token)), made: now };
        match self.position(task_set, annotator) {
            Some(i) => self.links[i] = link,
            None => self.links.push(link),
        }
        token
    }

    /// Writes the links beside the master, readable by its owner only.
    pub fn save(&self) -> Result<(), Error> {
        let file = SavedLinks {
            format: FORMAT.into(),
            version: VERSION,
            master: self.master.clone(),
            links: self.links.clone(),
        };
        let mut bytes =
            serde_json::to_vec_pretty(&file).map_err(|e| Error::io(&self.path, std::io::Error::other(e)))?;
        bytes.push(b'\n');
        write_private(&self.path, &bytes)
    }
}

/// The file the links made are written to (`--links FILE`): only ever added to, never emptied —
/// it may be the only copy of links that cannot be shown again.
#[derive(Debug)]
pub struct LinksFile {
    path: PathBuf,
    /// What it held before this start (`None`: there was no file).
    before: Option<Vec<u8>>,
}

/// The largest links file read (a line per link made: far more than any team's).
const MOST_LINKS_FILE: u64 = 16 << 20;

impl LinksFile {
    /// Reads what `path` holds now, if anything; a link, a folder or anything else but a plain
    /// file there is refused, before anything is made.
    pub fn open(path: &Path) -> Result<LinksFile, Error> {
        let before = match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(path, e)),
            Ok(meta) if !meta.is_file() => return Err(not_plain(path)),
            Ok(meta) if meta.len() > MOST_LINKS_FILE => {
                return Err(Error::whole_file(
                    path,
                    format!("holds {} bytes: that is not a links file; choose another name", meta.len()),
                ));
            }
            Ok(_) => Some(protest::store::files::read(path).map_err(|e| Error::io(path, e))?),
        };
        Ok(LinksFile { path: path.to_owned(), before })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Adds `text` (whole lines) after what the file held: a new file with both, readable by its
    /// owner only, read back, then renamed into place. Nothing to add: the file is not touched.
    pub fn add(&self, text: &str) -> Result<(), Error> {
        if text.is_empty() {
            return Ok(());
        }
        let mut bytes = self.before.clone().unwrap_or_default();
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(text.as_bytes());
        write_private(&self.path, &bytes)
    }

    /// Puts back what the file held before [`LinksFile::add`] (removes it if there was none): a
    /// start undone leaves no link that does not work.
    pub fn undo(&self) -> Result<(), Error> {
        match &self.before {
            Some(bytes) => write_private(&self.path, bytes),
            None => match std::fs::remove_file(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&self.path, e)),
                _ => Ok(()),
            },
        }
    }
}

fn not_plain(path: &Path) -> Error {
    Error::whole_file(path, "is not a plain file (a link, a folder…); choose another name")
}

/// Replaces `path` with `bytes` in a file only its owner may read (made so from the start,
/// whatever the umask, then renamed into place), and reads it back; a link or anything else but
/// a plain file at `path` is refused.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
    {
        return Err(not_plain(path));
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // tempfile makes its files readable and writable by their owner only.
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(path, e))?;
    temp.write_all(bytes).and_then(|()| temp.as_file().sync_all()).map_err(|e| Error::io(path, e))?;
    temp.persist(path).map_err(|e| Error::io(path, e.error))?;
    match protest::store::files::read(path) {
        Ok(read) if read == bytes => Ok(()),
        Ok(_) => Err(Error::whole_file(path, "does not hold what was just written to it (the disk lied?)")),
        Err(e) => Err(Error::io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_256_random_bits_kept_only_as_digests() {
        let dir = tempfile::tempdir().unwrap();
        let master = dir.path().join("m.master.json");
        let mut links = Links::load(&master, "m1").unwrap();
        let token = links.make(1, AnnotatorId(1), Utc::now());
        assert!(well_formed(&token) && token.len() == 64);
        assert_ne!(token, links.make(1, AnnotatorId(2), Utc::now()));
        links.save().unwrap();
        let kept = std::fs::read_to_string(path_for(&master)).unwrap();
        assert!(!kept.contains(&token), "the token itself is not kept");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path_for(&master)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let links = Links::load(&master, "m1").unwrap();
        assert_eq!(links.find(&digest(&token)).map(|l| l.annotator), Some(AnnotatorId(1)));
        assert!(Links::load(&master, "other").unwrap_err().to_string().contains("another master"));
        assert!(!well_formed("../../etc/passwd") && !well_formed(&token.to_uppercase()));
    }

    #[test]
    fn a_new_link_revokes_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut links = Links::load(&dir.path().join("m.json"), "m1").unwrap();
        let old = links.make(1, AnnotatorId(1), Utc::now());
        let new = links.make(1, AnnotatorId(1), Utc::now());
        assert!(links.find(&digest(&old)).is_none());
        assert!(links.find(&digest(&new)).is_some());
        assert!(links.revoke(1, AnnotatorId(1), Utc::now()));
        assert!(links.find(&digest(&new)).is_none());
        assert!(links.has(1, AnnotatorId(1)), "remembered as revoked: no new link is made by itself");
        assert!(!links.revoke(1, AnnotatorId(1), Utc::now()));
    }

    #[cfg(unix)]
    #[test]
    fn no_write_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("links.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(write_private(&link, b"tokens").unwrap_err().to_string().contains("not a plain file"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    }
}
