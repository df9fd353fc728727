//! The desktop's file chooser (rfd, through the XDG portal) — the only place the app calls it.
//! Every dialog that uses it also has a path field: a desktop without a file-chooser portal (a
//! bare X server) shows no chooser and rfd reports that as no choice, so the dialogs say so and
//! the user types the path instead.

use std::path::{Path, PathBuf};

/// What the dialogs say when no file came back.
pub const NOTHING_CHOSEN: &str = "Nothing chosen. If no file chooser appeared, type the path instead.";

/// Files offered by a chooser: a description and the extensions.
pub type Filter = (&'static str, &'static [&'static str]);

/// What to choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Folder,
    /// One existing file of these kinds.
    File(&'static [Filter]),
    /// Several existing files of these kinds.
    Files(&'static [Filter]),
    /// A file to write.
    Save,
}

/// Shows the chooser starting near `near` (a file's folder or a folder) and returns what was
/// chosen — nothing if the user cancelled or no chooser could be shown. For [`Pick::Save`] the
/// file name of `near` is offered.
#[cfg(not(target_arch = "wasm32"))]
pub fn choose(pick: Pick, title: &str, near: Option<&Path>) -> Vec<PathBuf> {
    let mut dialog = rfd::FileDialog::new().set_title(title);
    if let Some(dir) = near.and_then(folder_of) {
        dialog = dialog.set_directory(dir);
    }
    let filtered = |mut dialog: rfd::FileDialog, filters: &[Filter]| {
        for (name, extensions) in filters {
            dialog = dialog.add_filter(*name, extensions);
        }
        dialog
    };
    match pick {
        Pick::Folder => dialog.pick_folder().into_iter().collect(),
        Pick::File(filters) => filtered(dialog, filters).pick_file().into_iter().collect(),
        Pick::Files(filters) => filtered(dialog, filters).pick_files().unwrap_or_default(),
        Pick::Save => {
            if let Some(name) = near.and_then(Path::file_name).filter(|_| !near.is_some_and(Path::is_dir)) {
                dialog = dialog.set_file_name(name.to_string_lossy());
            }
            dialog.save_file().into_iter().collect()
        }
    }
}

/// The web page (docs/serve.md) has no files to choose: it shows only an annotator's batch.
#[cfg(target_arch = "wasm32")]
pub fn choose(_: Pick, _: &str, _: Option<&Path>) -> Vec<PathBuf> {
    Vec::new()
}

/// One file, folder or save target (see [`choose`]).
pub fn choose_one(pick: Pick, title: &str, near: Option<&Path>) -> Option<PathBuf> {
    choose(pick, title, near).into_iter().next()
}

#[cfg(not(target_arch = "wasm32"))]
/// The folder to start in: the path itself if it is one, else the folder it is in.
fn folder_of(path: &Path) -> Option<&Path> {
    if path.is_dir() { Some(path) } else { path.parent().filter(|p| p.is_dir()) }
}
