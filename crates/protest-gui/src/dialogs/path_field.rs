//! A path typed or picked with the desktop's chooser (rfd). A desktop without a file-chooser
//! portal (a bare X server) shows no chooser and rfd reports no choice: the field then says to
//! type the path, so the dialogs work everywhere.

use egui::{RichText, Ui};
use std::path::{Path, PathBuf};

pub use crate::dialogs::file_chooser::Pick;
use crate::dialogs::file_chooser::{self, NOTHING_CHOSEN};

#[derive(Debug, Clone, Default)]
pub struct PathField {
    pub text: String,
    note: Option<String>,
    focus: bool,
}

impl PathField {
    pub fn new(path: Option<&Path>) -> PathField {
        PathField { text: path.map(|p| p.display().to_string()).unwrap_or_default(), ..PathField::default() }
    }

    /// Several paths, one per line.
    pub fn many(paths: &[PathBuf]) -> PathField {
        let text = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join("\n");
        PathField { text, ..PathField::default() }
    }

    /// Takes the keyboard when next shown, to type right away.
    pub fn request_focus(&mut self) {
        self.focus = true;
    }

    /// Adds a path on a line of its own.
    pub fn add(&mut self, path: &Path) {
        let line = path.display().to_string();
        self.text = if self.text.trim().is_empty() { line } else { format!("{}\n{line}", self.text.trim_end()) };
    }

    /// The field with its label and a *Browse…* button; true when the path changed.
    pub fn ui(&mut self, ui: &mut Ui, label: &str, pick: Pick) -> bool {
        let label_text = label;
        let label = ui.label(RichText::new(label).strong());
        let mut changed = false;
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 100.0).max(200.0);
            let field = match pick {
                Pick::Files(..) => egui::TextEdit::multiline(&mut self.text).desired_rows(3),
                _ => egui::TextEdit::singleline(&mut self.text),
            };
            let field = ui.add(field.desired_width(width)).labelled_by(label.id);
            if self.focus && !ui.is_sizing_pass() {
                field.request_focus();
                self.focus = false;
            }
            changed |= field.changed();
            if ui.button("Browse…").on_hover_text("Choose with the desktop's file chooser").clicked() {
                changed |= self.browse(pick, label_text);
            }
        });
        if let Some(note) = &self.note {
            ui.label(RichText::new(note).small().color(ui.visuals().warn_fg_color));
        }
        changed
    }

    /// The path typed or picked (one line, trimmed), if any.
    pub fn path(&self) -> Option<PathBuf> {
        let text = self.text.trim();
        (!text.is_empty()).then(|| PathBuf::from(text))
    }

    /// The folder typed or picked, which must exist.
    /// The folder to write to: one that is there, or one the library will make (and the dialog
    /// then says so), as for every output folder; a file there is refused.
    pub fn folder(&self) -> Result<PathBuf, String> {
        let dir = self.path().ok_or("Type or choose the folder to write to.")?;
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if !meta.is_dir() && !dir.is_dir() => Err(format!("{} is not a folder.", dir.display())),
            _ => Ok(dir),
        }
    }

    /// Every path, one per line (for [`Pick::Files`]).
    pub fn paths(&self) -> Vec<PathBuf> {
        self.text.lines().map(str::trim).filter(|l| !l.is_empty()).map(PathBuf::from).collect()
    }

    fn browse(&mut self, pick: Pick, title: &str) -> bool {
        let picked = file_chooser::choose(pick, title, self.paths().first().map(PathBuf::as_path));
        if picked.is_empty() {
            self.note = Some(NOTHING_CHOSEN.into());
            return false;
        }
        self.note = None;
        if !matches!(pick, Pick::Files(..)) {
            self.text.clear();
        }
        for path in &picked {
            self.add(path);
        }
        true
    }
}
