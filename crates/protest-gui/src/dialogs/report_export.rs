//! Exporting report tables: one table to a file, or every table to a folder (`NAME.EXT` each, as
//! `protest report --output DIR` writes them), as CSV, Markdown, LaTeX or text. The files are the
//! library's renderings, so they are byte for byte what the command line writes.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::file_chooser::{self, Pick};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Part, Reply};
use crate::intent::Intent;
use egui::{Id, RichText};
use protest::metrics::report::{Format, Table};
use protest::session::Session;
use protest::store::summary::count;
use std::path::{Path, PathBuf};

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    /// Exporting report tables: the one of this name, or all of them.
    pub fn export_tables(table: Option<&'static str>) -> Opener {
        let opener = match table {
            None => Opener::new("Export all…", Allowed::AnyFile, |on| {
                on.session.map(|s| ExportDialog::new(None, s.path(), on.tables))
            })
            .hint("Every table as CSV, Markdown, LaTeX or text"),
            Some(name) => Opener::new("Export…", Allowed::AnyFile, move |on| {
                on.session.map(|s| ExportDialog::new(Some(name), s.path(), on.tables))
            })
            .hint("This table as CSV, Markdown, LaTeX or text"),
        };
        opener.on(table.unwrap_or(""))
    }
}

/// What to export.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// The table of this name.
    One(&'static str),
    All,
}

/// The formats offered, spreadsheets first.
const FORMATS: [(Format, &str); 5] = [
    (Format::Csv, "CSV (spreadsheets)"),
    (Format::Markdown, "Markdown"),
    (Format::Latex, "LaTeX"),
    (Format::Text, "Text (as printed)"),
    (Format::Json, "JSON (scripts)"),
];

pub struct ExportDialog {
    target: Target,
    /// The tables of the report view when the dialog opened.
    tables: Vec<Table>,
    /// Chosen in the dialog's first frame: the format chosen last time.
    format: Option<Format>,
    path: String,
    folder: PathBuf,
    stem: String,
    /// An existing file the user was told about: saving to it again replaces it.
    confirmed: Option<PathBuf>,
    problem: Option<String>,
}

/// Where the format chosen last is remembered while the app runs.
fn last_format() -> Id {
    Id::unique("report export format")
}

impl ExportDialog {
    /// The dialog for the table called `table` (all of them: `None`) of `tables`, suggesting a
    /// place next to the master.
    pub fn new(table: Option<&'static str>, master: &Path, tables: &[Table]) -> ExportDialog {
        let folder = master.parent().unwrap_or(Path::new(".")).to_path_buf();
        let stem = master.file_name().map_or("report".into(), |n| n.to_string_lossy().into_owned());
        let stem = stem.strip_suffix(".json").unwrap_or(&stem).trim_end_matches(".master").to_owned();
        ExportDialog {
            target: table.map_or(Target::All, Target::One),
            tables: tables.to_vec(),
            format: None,
            path: String::new(),
            folder,
            stem,
            confirmed: None,
            problem: None,
        }
    }

    /// The format, and a suggested place for it, in the first frame.
    fn start(&mut self, ctx: &egui::Context) -> Format {
        if let Some(format) = self.format {
            return format;
        }
        let format = ctx.data(|d| d.get_temp(last_format())).unwrap_or(Format::Csv);
        self.path = match &self.target {
            Target::One(name) => self.folder.join(format!("{name}.{}", format.extension())),
            Target::All => self.folder.join(format!("{}-report", self.stem)),
        }
        .display()
        .to_string();
        self.format = Some(format);
        format
    }

    /// What is exported, in words.
    fn title(&self) -> String {
        match &self.target {
            Target::One(name) => {
                self.tables.iter().find(|t| t.name == *name).map_or(name.to_string(), |t| t.title.clone())
            }
            Target::All => format!("All {} tables", self.tables.len()),
        }
    }
}

/// Once the files are written it closes, saying what it wrote.
impl Dialog for ExportDialog {
    type Done = ();

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::centre("export dialog", 560.0)
    }

    fn ui(&mut self, ui: &mut egui::Ui, part: Part, _: Option<&mut Session>) -> Reply<()> {
        let format = self.start(ui.ctx());
        match part {
            Part::Body => self.body(ui, format),
            Part::Buttons => {
                let reply = ui
                    .horizontal(|ui| {
                        if ui.button(RichText::new("Save").strong()).clicked()
                            && let Some(written) = self.save()
                        {
                            return Reply::Then(Intent::Notice(written));
                        }
                        if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
                    })
                    .inner;
                parts::problem(ui, self.problem.as_deref());
                return reply;
            }
        }
        Reply::Stay
    }
}

impl ExportDialog {
    fn body(&mut self, ui: &mut egui::Ui, format: Format) {
        let ctx = ui.ctx().clone();
        ui.heading("Export");
        ui.label(RichText::new(self.title()).strong());
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.label("Format");
            for (choice, label) in FORMATS {
                if ui.radio(format == choice, label).clicked() && format != choice {
                    self.set_format(&ctx, choice);
                }
            }
        });
        ui.add_space(4.0);
        let what = match self.target {
            Target::One(_) => "File to write".to_owned(),
            Target::All => format!("Folder to write the tables to (one file each: results.{}, …)", format.extension()),
        };
        let label = ui.label(what);
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 90.0).clamp(120.0, 430.0);
            let field = ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(width)).labelled_by(label.id);
            if field.changed() {
                self.confirmed = None;
                self.problem = None;
            }
            if ui.button("Browse…").clicked() {
                self.browse();
            }
        });
    }

    /// A new format: a suggested file name follows it.
    fn set_format(&mut self, ctx: &egui::Context, format: Format) {
        let old = self.format.unwrap_or(format);
        if self.target != Target::All
            && let Some(stem) = self.path.strip_suffix(&format!(".{}", old.extension()))
        {
            self.path = format!("{stem}.{}", format.extension());
        }
        self.format = Some(format);
        ctx.data_mut(|d| d.insert_temp(last_format(), format));
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
    fn save(&mut self) -> Option<String> {
        let tables = &self.tables;
        let path = PathBuf::from(self.path.trim());
        if self.path.trim().is_empty() {
            self.problem = Some("Type where to write, or choose with Browse…".into());
            return None;
        }
        let format = self.format.unwrap_or(Format::Csv);
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
                protest::workflow::metrics::write_table(&path, table, format)
                    .map(|()| format!("Saved the table “{}” as {}.", table.title, path.display()))
            }
            Target::All => protest::workflow::metrics::write_tables(&path, tables, format)
                .map(|written| format!("Saved {} in the folder {}.", count(written.len(), "table"), path.display())),
        };
        match result {
            Ok(message) => Some(message),
            Err(e) => {
                self.problem = Some(format!("Could not write: {e}"));
                None
            }
        }
    }
}
