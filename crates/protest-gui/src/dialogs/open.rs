//! File › Open: a path field, the native file chooser (rfd) and the recent files. The path
//! field is there because a desktop without a file-chooser portal shows no native dialog.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::file_chooser::{self, Filter, NOTHING_CHOSEN, Pick};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Part, Reply};
use crate::intent::Intent;
use egui::RichText;
use protest::session::Session;
use std::path::PathBuf;

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    /// File › Open.
    pub fn open_file() -> Opener {
        Opener::new("Open…", Allowed::Anywhere, |on| Some(OpenDialog::new(on.recent)))
    }
}

pub struct OpenDialog {
    path: String,
    problem: Option<String>,
    focus: bool,
    /// The files opened last, to open again with a click.
    recent: Vec<PathBuf>,
}

impl OpenDialog {
    /// The dialog with an empty path field that has the keyboard.
    pub fn new(recent: &[PathBuf]) -> OpenDialog {
        OpenDialog { path: String::new(), problem: None, focus: true, recent: recent.to_vec() }
    }
}

/// Answers with the file to open once one is chosen.
impl Dialog for OpenDialog {
    type Done = ();

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::centre("open dialog", 560.0)
    }

    fn ui(&mut self, ui: &mut egui::Ui, part: Part, _: Option<&mut Session>) -> Reply<()> {
        let chosen = match part {
            Part::Body => self.body(ui),
            Part::Buttons => {
                let mut cancel = false;
                let chosen = ui
                    .horizontal(|ui| {
                        let open = ui.button(RichText::new("Open").strong()).clicked();
                        cancel = ui.button("Cancel").clicked();
                        (open && !self.path.trim().is_empty()).then(|| PathBuf::from(self.path.trim()))
                    })
                    .inner;
                parts::problem(ui, self.problem.as_deref());
                if cancel {
                    return Reply::Close;
                }
                chosen
            }
        };
        chosen.map_or(Reply::Stay, |path| Reply::Then(Intent::OpenFile(path)))
    }
}

impl OpenDialog {
    /// The path field and the recent files; the file chosen there, if any.
    fn body(&mut self, ui: &mut egui::Ui) -> Option<PathBuf> {
        let mut chosen = None;
        ui.heading("Open a master or batch file");
        ui.add_space(6.0);
        let label = ui.label("Path of the file");
        ui.horizontal(|ui| {
            let width = (ui.available_width() - 90.0).clamp(120.0, 430.0);
            let field = ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(width)).labelled_by(label.id);
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
        if !self.recent.is_empty() {
            ui.add_space(8.0);
            ui.label(RichText::new("Recent files").strong());
            for path in &self.recent {
                if ui.link(path.display().to_string()).clicked() {
                    chosen = Some(path.clone());
                }
            }
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
