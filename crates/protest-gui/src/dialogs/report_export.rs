//! Exporting report tables: one table to a file, or every table to a folder (`NAME.EXT` each, as
//! `protest report --output DIR` writes them), as CSV, Markdown, LaTeX or text. The files are the
//! library's renderings, so they are byte for byte what the command line writes.

use super::dialogs;
use super::file_chooser::{self, Pick};
use egui::{Id, Modal, RichText};
use protest::report::{self, Format, Table};
use std::path::{Path, PathBuf};

/// What to export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The table of this name.
    One(&'static str),
    All,
}

/// The formats offered, spreadsheets first.
const FORMATS: [(Format, &str); 4] = [
    (Format::Csv, "CSV (spreadsheets)"),
    (Format::Markdown, "Markdown"),
    (Format::Latex, "LaTeX"),
    (Format::Text, "Text (as printed)"),
];

pub struct ExportDialog {
    pub open: bool,
    target: Target,
    format: Format,
    path: String,
    /// An existing file the user was told about: saving to it again replaces it.
    confirmed: Option<PathBuf>,
    problem: Option<String>,
}

impl Default for ExportDialog {
    fn default() -> Self {
        ExportDialog {
            open: false,
            target: Target::All,
            format: Format::Csv,
            path: String::new(),
            confirmed: None,
            problem: None,
        }
    }
}

impl ExportDialog {
    /// Opens the dialog for `target`, suggesting a place next to the master.
    pub fn show_for(&mut self, target: Target, master: &Path) {
        let folder = master.parent().unwrap_or(Path::new("."));
        let stem = master.file_name().map_or("report".into(), |n| n.to_string_lossy().into_owned());
        let stem = stem.strip_suffix(".json").unwrap_or(&stem).trim_end_matches(".master").to_owned();
        self.path = match &target {
            Target::One(name) => folder.join(format!("{name}.{}", self.format.extension())),
            Target::All => folder.join(format!("{stem}-report")),
        }
        .display()
        .to_string();
        self.target = target;
        self.confirmed = None;
        self.problem = None;
        self.open = true;
    }

    /// Draws the dialog; returns what was written, for the notice bar.
    pub fn ui(&mut self, ctx: &egui::Context, tables: &[Table]) -> Option<String> {
        if !self.open {
            return None;
        }
        let mut done = None;
        let title = match &self.target {
            Target::One(name) => tables.iter().find(|t| t.name == *name).map_or(name.to_string(), |t| t.title.clone()),
            Target::All => format!("All {} tables", tables.len()),
        };
        let modal = dialogs::show_anchored(ctx, Modal::new(Id::unique("export dialog")), |ui| {
            ui.set_width(560.0);
            ui.heading("Export");
            ui.label(RichText::new(title).strong());
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label("Format");
                for (format, label) in FORMATS {
                    if ui.radio(self.format == format, label).clicked() && self.format != format {
                        self.set_format(format);
                    }
                }
            });
            ui.add_space(4.0);
            let what = match self.target {
                Target::One(_) => "File to write".to_owned(),
                Target::All => {
                    format!("Folder to write the tables to (one file each: results.{}, …)", self.format.extension())
                }
            };
            let label = ui.label(what);
            ui.horizontal(|ui| {
                let field =
                    ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(430.0)).labelled_by(label.id);
                if field.changed() {
                    self.confirmed = None;
                    self.problem = None;
                }
                if ui.button("Browse…").clicked() {
                    self.browse();
                }
            });
            let problem = self.problem.as_deref().unwrap_or(" ");
            ui.add(egui::Label::new(RichText::new(problem).color(ui.visuals().warn_fg_color)).wrap());
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button(RichText::new("Save").strong()).clicked() {
                    done = self.save(tables);
                }
                if ui.button("Cancel").clicked() {
                    self.open = false;
                }
            });
        });
        if dialogs::escaped(&modal, ctx) {
            self.open = false;
        }
        done
    }

    /// A new format: a suggested file name follows it.
    fn set_format(&mut self, format: Format) {
        if self.target != Target::All
            && let Some(stem) = self.path.strip_suffix(&format!(".{}", self.format.extension()))
        {
            self.path = format!("{stem}.{}", format.extension());
        }
        self.format = format;
        self.confirmed = None;
        self.problem = None;
    }

    fn browse(&mut self) {
        let current = PathBuf::from(self.path.trim());
        let chosen = match self.target {
            Target::One(_) => file_chooser::choose_one(Pick::Save, "Export the table", Some(&current)),
            Target::All => file_chooser::choose_one(Pick::Folder, "Export the tables to a folder", Some(&current)),
        };
        match chosen {
            Some(path) => {
                self.path = path.display().to_string();
                // The chooser asked about replacing an existing file itself.
                self.confirmed = Some(path);
                self.problem = None;
            }
            None => self.problem = Some(file_chooser::NOTHING_CHOSEN.into()),
        }
    }

    /// Writes the files; keeps the dialog open with the problem if that fails.
    fn save(&mut self, tables: &[Table]) -> Option<String> {
        let path = PathBuf::from(self.path.trim());
        if self.path.trim().is_empty() {
            self.problem = Some("Type where to write, or choose with Browse…".into());
            return None;
        }
        let result = match self.target {
            Target::One(name) => {
                let table = tables.iter().find(|t| t.name == name)?;
                if path.is_dir() {
                    self.problem = Some(format!("{} is a folder; give a file name", path.display()));
                    return None;
                }
                if path.exists() && self.confirmed.as_ref() != Some(&path) {
                    self.problem = Some(format!("{} exists. Save again to replace it.", path.display()));
                    self.confirmed = Some(path);
                    return None;
                }
                report::write_table(&path, table, self.format).map(|()| format!("Wrote {}", path.display()))
            }
            Target::All => report::write_tables(&path, tables, self.format)
                .map(|written| format!("Wrote {} tables to {}", written.len(), path.display())),
        };
        match result {
            Ok(message) => {
                self.open = false;
                Some(message)
            }
            Err(e) => {
                self.problem = Some(format!("Could not write: {e}"));
                None
            }
        }
    }
}
