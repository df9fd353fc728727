//! File › Open: a path field, the native file chooser (rfd) and the recent files. The path
//! field is there because a desktop without a file-chooser portal shows no native dialog.

use crate::dialogs::file_chooser::{self, Filter, NOTHING_CHOSEN, Pick};
use crate::dialogs::parts::{self, Reply};
use crate::intent::Intent;
use egui::{Id, Modal, RichText};
use std::path::PathBuf;

pub struct OpenDialog {
    path: String,
    problem: Option<String>,
    focus: bool,
}

impl OpenDialog {
    /// The dialog with an empty path field that has the keyboard.
    pub fn new() -> OpenDialog {
        OpenDialog { path: String::new(), problem: None, focus: true }
    }

    /// Answers with the file to open once one is chosen.
    pub fn ui(&mut self, ctx: &egui::Context, recent: &[PathBuf]) -> Reply {
        let mut chosen = None;
        let mut cancel = false;
        let modal = parts::show_anchored(ctx, Modal::new(Id::unique("open dialog")), |ui| {
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
                cancel = ui.button("Cancel").clicked();
            });
        });
        let escaped = parts::escaped(&modal, ctx);
        match chosen {
            Some(path) => Reply::Then(Intent::OpenFile(path)),
            None if cancel || escaped => Reply::Close,
            None => Reply::Stay,
        }
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
