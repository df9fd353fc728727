//! What an interrupted save, a crash or a disk that lies left beside a file, settled by the
//! writer that opens it next (holding its lock):
//!
//! - the temporary files of a full save that never replaced the file ([`settle`]): debris, and
//!   removed — unless one is a complete save of the file at a later revision than the file's that
//!   its journal does not continue (the rename was reported but not done, and the journal was
//!   removed as folded in): that one holds saved work the file does not, and is put in its place;
//! - the rest of a damaged journal ([`set_aside`]): the damaged line and every line after it,
//!   kept byte for byte in a file of their own, so that the journal can be rewritten with the
//!   changes before it, and the window can offer what follows (`session::recovery`).

use crate::error::{Error, Result};
use crate::store::disk::Disk;
use crate::store::document::Document;
use crate::store::journal::{self, Damage};
use crate::store::{atomic, files, json};
use std::path::{Path, PathBuf};

/// Settles the temporary files that interrupted full saves of `real` (resolved; named `shown`)
/// left: a complete save newer than the file that its journal does not continue is put in its
/// place, the others are removed. Says what was put in place, if anything. A temporary file a
/// live process still writes is left alone, and so is everything when the file's revision
/// cannot be read (opening it says why).
pub(super) fn settle<D: Document>(disk: &dyn Disk, real: &Path, shown: &Path) -> Result<Option<String>> {
    let Some(revision) = json::top_level_u64(real, "revision") else { return Ok(None) };
    // A journal that continues the file holds every change of a full save that did not replace
    // it: such a save is only debris.
    let continued = journal::revision_of(real) == Some(revision);
    let mut newer = Vec::new();
    for temp in atomic::abandoned_leftovers(real) {
        match json::top_level_u64(&temp, "revision") {
            Some(theirs) if theirs > revision && !continued => newer.push((theirs, temp)),
            _ => atomic::remove_abandoned(&temp),
        }
    }
    newer.sort();
    let id = json::top_level_string(real, "id");
    let mut adopted = None;
    while let Some((theirs, temp)) = newer.pop() {
        if adopted.is_some() {
            atomic::remove_abandoned(&temp);
            continue;
        }
        match D::load(&temp) {
            Ok(doc) if id.as_deref() == Some(doc.file_id()) => {
                atomic::put_in_place(disk, &temp, real).map_err(|e| Error::io(shown, e))?;
                adopted = Some(format!(
                    "{} was at revision {revision}, but a complete save of it at revision {theirs} ({}) had not been put in its place (the system reported it renamed when it was not, or PROTEST stopped just before): it is in place now",
                    shown.display(),
                    temp.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
                ));
            }
            // Of another file: not ours to judge, it stays.
            Ok(_) => {}
            // Cut short: debris.
            Err(_) => atomic::remove_abandoned(&temp),
        }
    }
    Ok(adopted)
}

/// Keeps the rest of the damaged journal of `real` (resolved) in a file of its own beside it
/// ([`journal::rest_path_for`]), written atomically and read back, and returns where. Met again
/// (a crash came before the journal was rewritten), the same rest is not kept twice.
pub(super) fn set_aside(disk: &dyn Disk, real: &Path, damage: &Damage) -> Result<PathBuf> {
    let crc = crc32fast::hash(&damage.rest);
    for n in 0..100 {
        let path = journal::rest_path_for(real, crc, n);
        match files::read_beside(&path) {
            Ok(Some(bytes)) if bytes == damage.rest => return Ok(path),
            Ok(Some(_)) | Err(_) => continue,
            Ok(None) => {
                atomic::write_beside(disk, &path, real, |w| w.write_all(&damage.rest))?;
                return Ok(path);
            }
        }
    }
    Err(Error::whole_file(journal::path_for(real), "no free name to set its damaged part aside beside it"))
}
