//! Offered when a file opens with recovery files left for it: changes a window took but could
//! not save into the file (a failing disk, a file another program changed), kept at once in the
//! user's data folder (`protest::session::recovery`). It shows what each holds; the user applies
//! them to the file, saves them with the file as a new file, or keeps them for later. Nothing is
//! applied unasked, and applying replaces no record changed since the change was made: each such
//! record is shown in both versions, and the user keeps one.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::dialogs::path_field::{PathField, Pick};
use crate::dialogs::save_copy;
use crate::dialogs::versions;
use egui::{RichText, Ui};
use protest::session::Session;
use protest::session::recovery::{self, Found};
use protest::store::based::{Disagreement, Keep};
use protest::store::summary::count;
use std::path::PathBuf;

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 680.0;

/// How many changes are listed (the rest are counted).
const LISTED: usize = 200;

pub struct RecoveryDialog {
    /// The recovery files still to decide on, the one shown first.
    found: Vec<Found>,
    /// What the one shown holds, in words.
    lines: Vec<String>,
    /// Where to save them as a new file, once asked.
    target: Option<PathField>,
    problem: Option<String>,
    /// What was done with the last one.
    done: Option<String>,
    /// The records of the one shown changed in the file since its changes were made: both
    /// versions, one record at a time, with how many of its changes were applied.
    choosing: Vec<Disagreement>,
    applied: usize,
}

impl RecoveryDialog {
    pub fn new(found: Vec<Found>, session: &Session) -> RecoveryDialog {
        let mut dialog = RecoveryDialog {
            found,
            lines: Vec::new(),
            target: None,
            problem: None,
            done: None,
            choosing: Vec::new(),
            applied: 0,
        };
        dialog.describe(session);
        dialog
    }

    fn describe(&mut self, session: &Session) {
        self.lines = self.found.first().map_or(Vec::new(), |f| {
            f.entries.iter().take(LISTED).map(|e| recovery::describe(&e.entry, session.master())).collect()
        });
    }

    /// The one shown is dealt with: on to the next (described when it is drawn).
    fn next(&mut self, done: String) {
        self.found.remove(0);
        self.done = Some(done);
        self.lines.clear();
        self.target = None;
        self.problem = None;
    }
}

impl Dialog for RecoveryDialog {
    type Done = Result<PathBuf, String>;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Result<PathBuf, String>> {
        let Some(session) = session else { return Reply::Close };
        match part {
            Part::Body => {
                self.body(ui, session);
                Reply::Stay
            }
            Part::Buttons => {
                let reply = self.buttons(ui, session);
                parts::problem(ui, self.problem.as_deref());
                reply
            }
        }
    }

    fn done(&mut self, saved: Result<PathBuf, String>) {
        match saved {
            Ok(path) => self.next(format!("Saved them with the file as {}; this file stays as it is.", path.display())),
            Err(e) => self.problem = Some(e),
        }
    }
}

impl RecoveryDialog {
    fn body(&mut self, ui: &mut Ui, session: &mut Session) {
        parts::title(ui, "Changes that were not saved");
        if let Some(done) = &self.done {
            parts::done(ui, done);
            ui.add_space(6.0);
        }
        let Some(found) = self.found.first().cloned() else { return };
        if let Some(d) = self.choosing.first() {
            return choosing_ui(ui, d, self.choosing.len(), session);
        }
        if self.lines.is_empty() {
            self.describe(session);
        }
        let header = &found.header;
        let changes = match found.entries.len() {
            1 => "1 change".to_owned(),
            n => format!("{n} changes"),
        };
        let when = header.created.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M");
        let what = match found.is_journal_rest() {
            true => format!(
                "{} written into this file's journal after a damaged line {} set aside on {when} in {} ({}).",
                parts::capitalised(&changes),
                if found.entries.len() == 1 { "was" } else { "were" },
                found.path.display(),
                header.why
            ),
            false => format!(
                "A PROTEST window could not save {changes} into this file on {when} ({}). They were kept in {}.",
                header.why,
                found.path.display()
            ),
        };
        ui.add(egui::Label::new(format!("{what} Nothing is applied unless you choose to.")).wrap());
        let now = session.master().revision;
        if header.revision != now {
            ui.add(
                egui::Label::new(format!(
                    "The file was saved in full since (revision {now}; they were made on revision {}). Applying them \
                     replaces no record changed since: you see both versions of each and choose.",
                    header.revision
                ))
                .wrap(),
            );
        }
        if found.torn {
            ui.label(
                "One more change was being written when that window stopped; it had not been shown and is left out.",
            );
        }
        ui.add_space(6.0);
        egui::ScrollArea::vertical().id_salt("recovered").max_height(220.0).show(ui, |ui| {
            for line in &self.lines {
                ui.label(line);
            }
            if found.entries.len() > LISTED {
                ui.label(format!("… and {} more", found.entries.len() - LISTED));
            }
        });
        if let Some(target) = &mut self.target {
            ui.add_space(8.0);
            if target.ui(ui, "The new file", Pick::Save) {
                self.problem = None;
            }
        }
    }

    fn buttons(&mut self, ui: &mut Ui, session: &mut Session) -> Reply<Result<PathBuf, String>> {
        let Some(found) = self.found.first().cloned() else { return parts::close_only(ui) };
        if let Some(d) = self.choosing.first().cloned() {
            let mut keep = None;
            ui.horizontal(|ui| {
                if ui.button(RichText::new("Keep the recovered one").strong()).clicked() {
                    keep = Some(Keep::Proposed);
                }
                if ui.button("Keep the file's").clicked() {
                    keep = Some(Keep::Stored);
                }
            });
            if let Some(keep) = keep {
                self.choose(&found, &d, keep, session);
            }
            return Reply::Stay;
        }
        if let Some(target) = &self.target {
            let path = target.path();
            let (mut save, mut back) = (false, false);
            ui.horizontal(|ui| {
                save = ui.button(RichText::new("Save the new file").strong()).clicked();
                back = ui.button("Back").clicked();
            });
            match path {
                _ if back => self.target = None,
                None if save => self.problem = Some("Type or choose where to write the new file.".into()),
                Some(path) if save => return Reply::Work(saving(found, path)),
                _ => {}
            }
            return Reply::Stay;
        }
        parts::buttons(ui, |ui| {
            if ui.button(RichText::new("Apply them to this file").strong()).clicked() {
                match session.apply_recovery(&found) {
                    Ok(r) if r.disagreements.is_empty() => {
                        self.next(format!("Applied {}.", count(r.applied, "recovered change")))
                    }
                    Ok(r) => {
                        self.applied = r.applied;
                        self.choosing = r.disagreements;
                    }
                    Err(e) => self.problem = Some(e.to_string()),
                }
            }
            if ui.button("Save them as a new file…").clicked() {
                let mut field = PathField::new(Some(&save_copy::beside(session.path(), "recovered")));
                field.request_focus();
                self.target = Some(field);
            }
            if ui.button("Keep for later").clicked() { Reply::Close } else { Reply::Stay }
        })
    }
}

impl RecoveryDialog {
    /// Keeps one version of the record shown; once every record is decided, the recovery file
    /// goes.
    fn choose(&mut self, found: &Found, d: &Disagreement, keep: Keep, session: &mut Session) {
        if let Err(e) = session.choose(d, keep) {
            self.problem = Some(e.to_string());
            return;
        }
        self.problem = None;
        self.choosing.remove(0);
        if self.choosing.is_empty() {
            let applied = count(self.applied, "recovered change");
            match found.discard() {
                Ok(()) => self.next(format!("Applied {applied}; for the records changed since, kept what you chose.")),
                Err(e) => self.problem = Some(format!("{}: {e}", found.path.display())),
            }
        }
    }
}

/// A record changed in the file since the recovered change to it was made: both versions.
fn choosing_ui(ui: &mut Ui, d: &Disagreement, left: usize, session: &Session) {
    let master = session.master();
    let which = master.candidate(d.candidate).map_or(format!("candidate {}", d.candidate), |c| {
        format!("candidate {} (example {}), {}", d.candidate, c.example, master.annotator_name(d.annotator))
    });
    ui.add(
        egui::Label::new(format!(
            "The record of {which} changed in this file since the recovered change to it was made, so it was not \
             replaced. Which version should stay? ({left} to decide)"
        ))
        .wrap(),
    );
    ui.add_space(6.0);
    versions::compare(ui, d, ["In the file now", "In the recovery file"]);
}

/// Writes the file with the recovered changes into a new file off the UI thread (a large master
/// takes seconds) and tells the dialog.
fn saving(found: Found, path: PathBuf) -> Job<Result<PathBuf, String>> {
    Job::new("Saving the recovered changes", move |session| {
        session.save_recovery_as(&found, &path).map(|()| path).map_err(|e| e.to_string())
    })
}
