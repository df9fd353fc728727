//! The desktop's file chooser (rfd, through the XDG portal), for dialogs that also have a path
//! field: a desktop without a file-chooser portal (e.g. a bare X server) shows no chooser, and
//! rfd reports that as no choice, so the dialogs say so and the user types the path instead.

use std::path::{Path, PathBuf};

/// What the dialogs say when no file came back.
pub const NOTHING_CHOSEN: &str = "Nothing chosen. If no file chooser appeared, type the path instead.";

/// A file to read.
pub fn pick_file(title: &str, near: Option<&Path>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new().set_title(title);
    if let Some(dir) = near.and_then(folder_of) {
        dialog = dialog.set_directory(dir);
    }
    dialog.pick_file()
}

/// A file to write, offered under `suggested` (its folder and name).
pub fn save_file(title: &str, suggested: &Path) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new().set_title(title);
    if let Some(dir) = folder_of(suggested) {
        dialog = dialog.set_directory(dir);
    }
    if let Some(name) = suggested.file_name() {
        dialog = dialog.set_file_name(name.to_string_lossy());
    }
    dialog.save_file()
}

/// A folder.
pub fn pick_folder(title: &str, near: Option<&Path>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new().set_title(title);
    if let Some(dir) = near.and_then(folder_of) {
        dialog = dialog.set_directory(dir);
    }
    dialog.pick_folder()
}

/// The folder to start in: the path itself if it is one, else the folder it is in.
fn folder_of(path: &Path) -> Option<&Path> {
    if path.is_dir() { Some(path) } else { path.parent().filter(|p| p.is_dir()) }
}
