//! File › Save a copy as…: everything shown, changes not saved included, into a new file; the
//! way out when the file itself cannot take them (a full disk, a read-only file, a file another
//! program changed). The file itself is not touched.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::dialogs::path_field::{PathField, Pick};
use crate::intent::Intent;
use egui::{RichText, Ui};
use protest::session::Session;
use std::path::{Path, PathBuf};

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    pub fn save_copy() -> Opener {
        Opener::new("Save a copy as…", Allowed::AnyFile, |on| on.session.map(|s| SaveCopyDialog::new(s.path())))
            .hint("Everything shown here, changes not saved included, into a new file")
    }
}

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 640.0;

pub struct SaveCopyDialog {
    target: PathField,
    problem: Option<String>,
    saved: Option<PathBuf>,
}

impl SaveCopyDialog {
    pub fn new(path: &Path) -> SaveCopyDialog {
        let mut target = PathField::new(Some(&beside(path, "copy")));
        target.request_focus();
        SaveCopyDialog { target, problem: None, saved: None }
    }
}

impl Dialog for SaveCopyDialog {
    type Done = Result<PathBuf, String>;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Result<PathBuf, String>> {
        if session.is_none() {
            return Reply::Close;
        }
        match (part, &self.saved) {
            (Part::Body, Some(saved)) => {
                parts::title(ui, "Save a copy");
                parts::done(ui, &format!("Saved a copy as {}.", saved.display()));
                ui.label("Open it to go on working there; this file stays as it is.");
                Reply::Stay
            }
            (Part::Buttons, Some(saved)) => parts::buttons(ui, |ui| {
                if ui.button(RichText::new("Open the copy").strong()).clicked() {
                    return Reply::Then(Intent::OpenCopy(saved.clone()));
                }
                parts::close_only(ui)
            }),
            (Part::Body, None) => {
                parts::title(ui, "Save a copy");
                ui.label("Writes this file as it is shown here, changes not saved included, into a new file. The file itself is not touched.");
                ui.add_space(8.0);
                if self.target.ui(ui, "The copy", Pick::Save) {
                    self.problem = None;
                }
                Reply::Stay
            }
            (Part::Buttons, None) => {
                let reply = parts::buttons(ui, |ui| {
                    if ui.button(RichText::new("Save the copy").strong()).clicked() {
                        match self.target.path() {
                            None => self.problem = Some("Type or choose where to write the copy.".into()),
                            Some(path) => return Reply::Work(saving(path)),
                        }
                    }
                    if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
                });
                parts::problem(ui, self.problem.as_deref());
                reply
            }
        }
    }

    fn done(&mut self, saved: Result<PathBuf, String>) {
        match saved {
            Ok(path) => self.saved = Some(path),
            Err(e) => self.problem = Some(e),
        }
    }
}

impl SaveCopyDialog {}

/// Writes the copy off the UI thread (a large master takes seconds) and tells the dialog.
fn saving(path: PathBuf) -> Job<Result<PathBuf, String>> {
    Job::new("Saving a copy", move |session| {
        protest::progress::stage(&format!("Writing {}", protest::store::master_file::file_name(&path)), None);
        session.save_copy(&path).map(|()| path).map_err(|e| e.to_string())
    })
}

/// `study.master.json` → `study.master.WHAT.json`, beside it.
pub fn beside(path: &Path, what: &str) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    path.with_file_name(format!("{stem}.{what}.json"))
}
