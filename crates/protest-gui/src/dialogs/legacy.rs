//! File › Import old PROTEST file (`workflow::convert`, docs/legacy.md): converts a master or a
//! batch of the original tool's SQLite files, never touching the old file. The round-trip
//! summary — every repair included — is shown before anything is written. A batch is converted
//! against its converted master, which may gain the batch's annotator and their part of a task
//! set (`Placement`).

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::dialogs::path_field::{PathField, Pick};
use crate::intent::Intent;
use egui::{RichText, Ui};
use protest::ingest::legacy::{self, FileType, Info, Reference, Report, Unknown};
use protest::model::clock;
use protest::session::Session;
use protest::session::workspace::Mode;
use protest::shell::Shell;
use protest::store::atomic::same_file;
use protest::store::disk::Os;
use protest::workflow;
use std::path::{Path, PathBuf};

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    /// Converting a file of the original tool: this one (whatever is open), or one to choose
    /// (with no file open or a master).
    pub fn legacy(old: Option<PathBuf>) -> Opener {
        let allowed = if old.is_some() { Allowed::Anywhere } else { Allowed::NoBatch };
        let key = format!("{old:?}");
        Opener::new("Import old PROTEST file…", allowed, move |on| {
            Some(LegacyDialog::new(old.as_deref(), on.session))
        })
        .on(key)
    }
}

const REPLACE: &str = "Replace the existing file";
const NAMELESS_MINE: &str = "Annotations that name no annotator are my own";

const OLD_FILES: Pick = Pick::File(&[("PROTEST 1.x files", &["db", "sqlite", "sqlite3", "protest"])]);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReferenceChoice {
    Guess,
    Named,
    None,
}

#[derive(Clone)]
pub struct LegacyDialog {
    old: PathField,
    /// The old file's metadata, for the path it was read from.
    info: Option<(PathBuf, Result<Info, String>)>,
    reference: ReferenceChoice,
    reference_name: String,
    master: PathField,
    target: PathField,
    /// The target is still the one suggested for the old file (follow it when that changes).
    target_suggested: bool,
    replace: bool,
    /// Rows without an annotator are the researcher's (else an annotator of their own).
    nameless_mine: bool,
    problem: Option<String>,
    /// The summary of the conversion, shown before anything is written.
    preview: Option<String>,
    done: Option<Done>,
    /// Opened by opening an old file: say why this dialog is here.
    opened: bool,
}

/// What the dialog's work did: the summary of a conversion not written, or the conversion; or
/// why not.
pub enum Converted {
    Previewed(Result<String, String>),
    Converted(Result<Done, String>),
}

#[derive(Clone)]
pub struct Done {
    summary: String,
    path: PathBuf,
    /// A batch converted against the master open in the app: offer to merge it.
    mergeable: bool,
    master: bool,
}

impl LegacyDialog {
    pub fn new(old: Option<&Path>, session: Option<&Session>) -> LegacyDialog {
        let open_master =
            session.filter(|s| s.mode() == Mode::Researcher).and_then(|s| std::path::absolute(s.path()).ok());
        let old = old.map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()));
        let mut dialog = LegacyDialog {
            opened: old.is_some(),
            old: PathField::new(old.as_deref()),
            info: None,
            reference: ReferenceChoice::Guess,
            reference_name: String::new(),
            master: PathField::new(open_master.as_deref()),
            target: PathField::default(),
            target_suggested: true,
            replace: false,
            nameless_mine: false,
            problem: None,
            preview: None,
            done: None,
        };
        if old.is_none() {
            dialog.old.request_focus();
        }
        dialog.old_changed();
        dialog
    }

    fn old_changed(&mut self) {
        self.problem = None;
        let Some(old) = self.old.path() else {
            self.info = None;
            return;
        };
        if self.target_suggested {
            self.target = PathField::new(Some(&legacy::suggested_path(&old)));
        }
        let info = if old.is_file() { legacy::inspect(&old).map_err(|e| e.to_string()) } else { Err(String::new()) };
        self.info = Some((old, info));
    }

    /// How wide the dialog would like to be: the summary's table lines are wide, the form is not.
    fn width(&self) -> f32 {
        if self.preview.is_some() || self.done.is_some() { 940.0 } else { 760.0 }
    }
}

impl Dialog for LegacyDialog {
    type Done = Converted;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(self.width())
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, _: Option<&mut Session>) -> Reply<Converted> {
        match part {
            Part::Body => {
                parts::title(ui, "Import a file of the original PROTEST tool");
                if let Some(done) = &self.done {
                    done_ui(ui, done);
                } else if self.preview.is_some() {
                    self.preview_ui(ui);
                } else {
                    self.form_ui(ui);
                }
                Reply::Stay
            }
            Part::Buttons => {
                let reply = match &self.done {
                    Some(done) => done_buttons(ui, done),
                    None if self.preview.is_some() => self.preview_buttons(ui),
                    None => self.form_buttons(ui),
                };
                parts::problem(ui, self.problem.as_deref());
                reply
            }
        }
    }

    fn done(&mut self, done: Converted) {
        match done {
            Converted::Previewed(Ok(summary)) => (self.preview, self.problem) = (Some(summary), None),
            Converted::Converted(Ok(done)) => self.done = Some(done),
            Converted::Previewed(Err(e)) | Converted::Converted(Err(e)) => self.problem = Some(e),
        }
    }
}

impl LegacyDialog {
    fn form_ui(&mut self, ui: &mut Ui) {
        if self.opened {
            let name = self.old.path().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
            let text = format!(
                "{} is a file of the original PROTEST tool: convert it to open it here.",
                name.unwrap_or_default()
            );
            ui.label(RichText::new(text).strong());
        }
        ui.label(
            "The original tool kept masters and annotator batches as SQLite files (PROTEST 1.1 or 1.0). They are \
             converted into this tool's files without losing a judgement; the old file is only read.",
        );
        ui.add_space(8.0);
        if self.old.ui(ui, "The old file", OLD_FILES) {
            self.old_changed();
        }
        let info = self.info.as_ref().map(|(_, i)| i.clone());
        match &info {
            Some(Ok(info)) => describe(ui, info),
            Some(Err(e)) if !e.is_empty() => parts::problem(ui, Some(e)),
            _ => {}
        }
        ui.add_space(6.0);
        if let Some(Ok(info)) = &info {
            match info.file_type {
                FileType::Master => self.reference_ui(ui),
                FileType::Batch => {
                    self.master.ui(ui, "Its converted master", Pick::File(&[("PROTEST masters", &["json"])]));
                    ui.label(
                        RichText::new(
                            "Convert the old master first. The master may gain the batch's annotator and their part of a task set, so the batch merges into it.",
                        )
                        .small()
                        .weak(),
                    );
                }
            }
            ui.add_space(6.0);
        }
        if self.target.ui(ui, "Write the converted file to", Pick::Save) {
            self.target_suggested = false;
        }
        if self.target.path().is_some_and(|t| t.exists()) {
            ui.checkbox(&mut self.replace, REPLACE);
        }
    }

    fn form_buttons(&mut self, ui: &mut Ui) -> Reply<Converted> {
        let ready = matches!(&self.info, Some((_, Ok(_))));
        let mut convert = false;
        let reply = parts::buttons(ui, |ui| {
            convert = ui.add_enabled(ready, egui::Button::new(RichText::new("Convert").strong())).clicked();
            if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
        });
        if convert { Reply::Work(self.previewing()) } else { reply }
    }

    /// The summary of what the conversion gives, with nothing written yet.
    fn preview_ui(&self, ui: &mut Ui) {
        let target = self.target.path().map(|t| t.display().to_string()).unwrap_or_default();
        parts::done(ui, &format!("Nothing is written yet. What the old file has and what it becomes in {target}:"));
        summary_ui(ui, self.preview.as_deref().unwrap_or_default());
    }

    fn preview_buttons(&mut self, ui: &mut Ui) -> Reply<Converted> {
        let (mut write, mut back) = (false, false);
        let reply = parts::buttons(ui, |ui| {
            write = ui.button(RichText::new("Write the converted file").strong()).clicked();
            back = ui.button("Back").clicked();
            if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
        });
        if back {
            self.preview = None;
            self.problem = None;
        }
        if write { Reply::Work(self.converting()) } else { reply }
    }

    /// Converts in memory and says what it gives (a batch against its master as it is now).
    fn preview(&self, session: Option<&Session>) -> Result<String, String> {
        let old = self.old.path().ok_or("Type or choose the old file.")?;
        let target = self.target.path().ok_or("Type or choose where to write the converted file.")?;
        if session.is_some_and(|s| same_file(s.path(), &target)) {
            return Err(format!("{} is open here: choose another name.", target.display()));
        }
        let now =
            session.as_ref().map_or_else(clock::now, |s| s.now()).map_err(|e| format!("Nothing was written: {e}."))?;
        let info = legacy::inspect(&old).map_err(|e| e.to_string())?;
        let preview = |master: Option<&protest::model::Master>, reference, unknown| {
            let converting = workflow::convert::Converting {
                old: &old,
                target: &target,
                replace: self.replace,
                reference,
                unknown,
                shell: Shell::Window,
                now,
            };
            workflow::convert::preview(&converting, master)
        };
        let preview = if info.file_type == FileType::Master {
            preview(None, self.reference(), self.unknown()).map_err(failed)?
        } else {
            let master_path = self
                .master
                .path()
                .ok_or("Choose the converted master of this batch (convert its old master first).")?;
            let look = |master: &protest::model::Master| preview(Some(master), Reference::Guess, Unknown::default());
            protest::session::with_master(session, &master_path, look).map_err(failed)?.map_err(failed)?
        };
        let gains = preview.placement.map_or(String::new(), |what| format!("The master gains: {what}\n"));
        Ok(format!("{}{gains}", preview.report))
    }

    fn unknown(&self) -> Unknown {
        if self.nameless_mine { Unknown::Researcher } else { Unknown::Annotator }
    }

    /// The summary of the form as it is, worked out off the UI thread (a large old master takes
    /// a while); nothing is written.
    fn previewing(&self) -> Job<Converted> {
        let form = self.clone();
        Job::any("Reading the old file", move |session| Converted::Previewed(form.preview(session.as_deref())))
    }

    /// The conversion of the form as it is, off the UI thread; the summary or the problem comes
    /// back to the dialog.
    fn converting(&self) -> Job<Converted> {
        let mut form = self.clone();
        Job::any("Converting the old file", move |session| Converted::Converted(form.convert(session)))
    }

    fn reference_ui(&mut self, ui: &mut Ui) {
        ui.label(RichText::new("The human reference translation").strong());
        ui.radio_value(
            &mut self.reference,
            ReferenceChoice::Guess,
            "The translation whose name says “ref” or “reference”",
        );
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.reference, ReferenceChoice::Named, "The translation named");
            let field = ui.add_enabled(
                self.reference == ReferenceChoice::Named,
                egui::TextEdit::singleline(&mut self.reference_name).desired_width(200.0),
            );
            field.accessible_name("Name of the reference translation");
        });
        ui.radio_value(&mut self.reference, ReferenceChoice::None, "None: every translation is an MT system");
        ui.add_space(6.0);
        ui.checkbox(&mut self.nameless_mine, NAMELESS_MINE);
        ui.label(
            RichText::new(
                "The original tool's last versions read such annotations as a nameless annotator's, so by default \
                 they get an annotator of their own; one earlier version saved the researcher's own work that way.",
            )
            .small()
            .weak(),
        );
    }

    fn reference(&self) -> Reference {
        match self.reference {
            ReferenceChoice::Guess => Reference::Guess,
            ReferenceChoice::Named => Reference::Named(self.reference_name.trim().to_owned()),
            ReferenceChoice::None => Reference::None,
        }
    }

    fn convert(&mut self, session: Option<&mut Session>) -> Result<Done, String> {
        let old = self.old.path().ok_or("Type or choose the old file.")?;
        let target = self.target.path().ok_or("Type or choose where to write the converted file.")?;
        if session.as_ref().is_some_and(|s| same_file(s.path(), &target)) {
            return Err(format!("{} is open here: choose another name.", target.display()));
        }
        let now =
            session.as_ref().map_or_else(clock::now, |s| s.now()).map_err(|e| format!("Nothing was written: {e}."))?;
        let info = legacy::inspect(&old).map_err(|e| e.to_string())?;
        if info.file_type == FileType::Master {
            let converting = workflow::convert::Converting {
                old: &old,
                target: &target,
                replace: self.replace,
                reference: self.reference(),
                unknown: self.unknown(),
                shell: Shell::Window,
                now,
            };
            let converted = workflow::convert::master(&Os, &converting).map_err(failed)?;
            return Ok(Done {
                summary: summary(&converted.report, &target),
                path: target,
                mergeable: false,
                master: true,
            });
        }
        let master_path =
            self.master.path().ok_or("Choose the converted master of this batch (convert its old master first).")?;
        let convert = |store: &mut protest::store::Store<protest::model::Master>| {
            workflow::convert::batch(store, &old, &target, self.replace, now)
        };
        let (converted, mergeable) = protest::session::on_master(session, &master_path, convert).map_err(failed)?;
        Ok(Done { summary: summary(&converted.report, &target), path: target, mergeable, master: false })
    }
}

/// A refusal in words for the dialog.
fn failed(e: protest::Error) -> String {
    match e {
        protest::Error::Exists { .. } => format!("{e}: tick “{REPLACE}”, or choose another name."),
        e => parts::capitalised(&parts::failed(&e, REPLACE)),
    }
}

fn describe(ui: &mut Ui, info: &Info) {
    let text = match info.file_type {
        FileType::Master => format!("A {} master", info.version),
        FileType::Batch => {
            format!(
                "A {} annotation batch of {}",
                info.version,
                info.annotator.as_deref().unwrap_or("an unnamed annotator")
            )
        }
    };
    let id = info.master_id.as_deref().map_or(String::new(), |id| format!(" (master id {id})"));
    parts::done(ui, &format!("{text}{id}."));
}

fn summary(report: &Report, target: &Path) -> String {
    format!("{report}wrote {}\n", target.display())
}

/// The round-trip summary: the table lines, then the notes (long ones wrap in the dialog).
fn summary_ui(ui: &mut Ui, summary: &str) {
    egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
        ui.add(egui::Label::new(RichText::new(summary).monospace().size(12.5)).wrap());
    });
}

fn done_ui(ui: &mut Ui, done: &Done) {
    parts::done(ui, &format!("Converted into {}. What the old file had and what it became:", done.path.display()));
    summary_ui(ui, &done.summary);
}

fn done_buttons(ui: &mut Ui, done: &Done) -> Reply<Converted> {
    parts::buttons(ui, |ui| {
        if done.master && ui.button(RichText::new("Open the converted master").strong()).clicked() {
            return Reply::Then(Intent::OpenFile(done.path.clone()));
        }
        if done.mergeable && ui.button(RichText::new("Merge it into this master…").strong()).clicked() {
            return Reply::Then(Intent::Dialog(Opener::merge(vec![done.path.clone()])));
        }
        parts::close_only(ui)
    })
}
