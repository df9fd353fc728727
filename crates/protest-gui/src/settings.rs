//! What the app remembers between runs (eframe persistence), and which file to open at start.
//! The window size and the panel widths are remembered by eframe and egui themselves; where the
//! views were scrolled to is not ([`forget_places`]).

use crate::style::ThemeChoice;
use protest::model::AnnotatorId;
use protest::{sample, workflow};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The key of the settings in eframe's storage.
pub const KEY: &str = "protest";
/// The app id: names the storage directory.
pub const APP_ID: &str = "protest";
/// How many recent files the Open dialog lists.
const RECENT: usize = 8;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Most recent first; the first is opened when no file is given.
    pub recent: Vec<PathBuf>,
    pub theme: ThemeChoice,
    /// The annotator last chosen for each master.
    pub annotators: BTreeMap<PathBuf, AnnotatorId>,
}

impl Settings {
    pub fn load(storage: Option<&dyn eframe::Storage>) -> Settings {
        storage.and_then(|s| eframe::get_value(s, KEY)).unwrap_or_default()
    }

    pub fn last_file(&self) -> Option<&Path> {
        self.recent.first().map(PathBuf::as_path)
    }

    pub fn opened(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT);
    }
}

/// Forgets where the views were scrolled to in the last run, which egui keeps with the rest it
/// remembers (the panel widths): each view opens at its top, not with its headings out of view.
/// For the window's context as eframe gives it back, before the first frame.
pub fn forget_places(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove_by_type::<egui::containers::scroll_area::State>());
}

/// Where the sample is annotated: a copy of the sample built into the program
/// ([`protest::sample`]) in the app's data directory, with the sample's two annotated
/// batches beside it (*Batches › Import annotated batches* offers them). Made on first use;
/// without a data directory, in the system's temporary folder.
pub fn sample_copy(data_dir: Option<PathBuf>) -> Result<PathBuf, String> {
    let dir = data_dir.unwrap_or_else(|| std::env::temp_dir().join("protest-sample"));
    let copy = dir.join(sample::MASTER.0);
    if !copy.exists() {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        workflow::sample::write_into(&protest::store::disk::Os, &dir).map_err(|e| e.to_string())?;
    }
    Ok(copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut s = Settings::default();
        for i in 0..10 {
            s.opened(Path::new(&format!("f{i}.json")));
        }
        s.opened(Path::new("f5.json"));
        assert_eq!(s.last_file(), Some(Path::new("f5.json")));
        assert_eq!(s.recent.len(), RECENT);
        assert_eq!(s.recent.iter().filter(|p| p.as_path() == Path::new("f5.json")).count(), 1);
    }

    #[test]
    fn the_sample_is_copied_once() {
        let dir = tempfile::tempdir().unwrap();
        let copy = sample_copy(Some(dir.path().join("data"))).unwrap();
        for (name, bytes) in sample::files() {
            assert_eq!(std::fs::read(dir.path().join("data").join(name)).unwrap(), bytes);
        }
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_batches/sample.master.json");
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(checkout).unwrap(), "the committed sample");
        std::fs::write(&copy, "annotated").unwrap();
        assert_eq!(sample_copy(Some(dir.path().join("data"))).unwrap(), copy);
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), "annotated", "an existing copy is kept");
    }
}
