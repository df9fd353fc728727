//! File › Open: a path field, the native file chooser (rfd) and the recent files. The path
//! field is there because a desktop without a file-chooser portal shows no native dialog.

use super::dialogs;
use super::file_chooser::{self, Filter, NOTHING_CHOSEN, Pick};
use egui::{Id, Modal, RichText};
use std::path::PathBuf;

#[derive(Default)]
pub struct OpenDialog {
    pub open: bool,
    path: String,
    problem: Option<String>,
    focus: bool,
}

impl OpenDialog {
    pub fn show_with(&mut self, current: Option<PathBuf>) {
        self.open = true;
        self.focus = true;
        self.problem = None;
        self.path = current.map(|p| p.display().to_string()).unwrap_or_default();
    }

    /// The file to open, once chosen.
    pub fn ui(&mut self, ctx: &egui::Context, recent: &[PathBuf]) -> Option<PathBuf> {
        if !self.open {
            return None;
        }
        let mut chosen = None;
        let modal = dialogs::show_anchored(ctx, Modal::new(Id::unique("open dialog")), |ui| {
            ui.set_width(560.0);
            ui.heading("Open a master or batch file");
            ui.add_space(6.0);
            let label = ui.label("Path of the file");
            ui.horizontal(|ui| {
                let field =
                    ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(430.0)).labelled_by(label.id);
                if self.focus && !ui.is_sizing_pass() {
                    // Type right away (not in the dialog's first frame: that one only sizes it).
                    field.request_focus();
                    self.focus = false;
                }
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    chosen = Some(PathBuf::from(self.path.trim()));
                }
                if ui.button("Browse…").clicked() {
                    chosen = self.browse();
                }
            });
            // The line is always there, so the centred dialog does not move when a problem shows.
            let problem = self.problem.as_deref().unwrap_or(" ");
            ui.add(egui::Label::new(RichText::new(problem).color(ui.visuals().warn_fg_color)).wrap());
            if !recent.is_empty() {
                ui.add_space(8.0);
                ui.label(RichText::new("Recent files").strong());
                for path in recent {
                    if ui.link(path.display().to_string()).clicked() {
                        chosen = Some(path.clone());
                    }
                }
            }
            ui.add_space(10.0);
            ui.horizontal(|ui| {
                if ui.button(RichText::new("Open").strong()).clicked() && !self.path.trim().is_empty() {
                    chosen = Some(PathBuf::from(self.path.trim()));
                }
                if ui.button("Cancel").clicked() {
                    self.open = false;
                }
            });
        });
        if dialogs::escaped(&modal, ctx) {
            self.open = false;
        }
        if chosen.is_some() {
            self.open = false;
        }
        chosen
    }

    fn browse(&mut self) -> Option<PathBuf> {
        const KINDS: &[Filter] = &[
            ("PROTEST files", &["json"]),
            ("Original PROTEST files (converted on opening)", &["db", "sqlite", "sqlite3"]),
        ];
        let picked = file_chooser::choose_one(Pick::File(KINDS), "Open a PROTEST file", None);
        if picked.is_none() {
            self.problem = Some(NOTHING_CHOSEN.into());
            self.focus = true;
        }
        picked
    }
}
