//! Batches › Export batches (`workflow::export`): a task set, who gets each part, the folder;
//! writes one batch file per part and lists them.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::dialogs::path_field::{PathField, Pick};
use chrono::{DateTime, Utc};
use egui::{RichText, Ui};
use protest::batches::export;
use protest::model::clock::WrongClock;
use protest::model::{Master, Purpose};
use protest::session::Session;
use protest::workflow::export::{Exported, Exporting};
use protest::workflow::{self, Written};
use std::path::{Path, PathBuf};

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    pub fn export_batches() -> Opener {
        Opener::new("Export batches…", Allowed::Researcher, |on| {
            on.master_at().map(|(m, p)| BatchExportDialog::new(m, p))
        })
    }
}

const REPLACE: &str = "Replace batch files that exist";

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 640.0;

pub struct BatchExportDialog {
    task_set: Option<u32>,
    /// One name per part of the chosen task set, in part order.
    names: Vec<String>,
    folder: PathField,
    replace: bool,
    problem: Option<String>,
    /// Files written.
    written: Vec<Written>,
    /// The folder made for them, when it was not there.
    created_folder: Option<PathBuf>,
}

impl BatchExportDialog {
    pub fn new(master: &Master, master_path: &Path) -> BatchExportDialog {
        let mut dialog = BatchExportDialog {
            task_set: None,
            names: Vec::new(),
            folder: PathField::new(Some(&workflow::default_folder(master_path))),
            replace: false,
            problem: None,
            written: Vec::new(),
            created_folder: None,
        };
        // The newest task set: the one just planned, most likely.
        dialog.choose(master, master.task_sets.last().map(|t| t.id));
        dialog
    }

    /// Chooses a task set and fills in the names as exporting without names would give them:
    /// each part's annotator, or else the master's annotators who have no part in it yet, in
    /// order (`export::suggested_names`).
    fn choose(&mut self, master: &Master, task_set: Option<u32>) {
        self.task_set = task_set;
        self.names = task_set.and_then(|id| export::suggested_names(master, id).ok()).unwrap_or_default();
    }
}

impl Dialog for BatchExportDialog {
    /// The files written, or why not.
    type Done = Result<Exported, String>;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Self::Done> {
        let Some(session) = session else { return Reply::Close };
        let nothing = session.master().task_sets.is_empty();
        match part {
            Part::Buttons if !self.written.is_empty() || nothing => parts::close_only(ui),
            Part::Buttons => {
                let reply = parts::buttons(ui, |ui| {
                    if ui.button(RichText::new("Export").strong()).clicked() {
                        match self.export(session.now()) {
                            Ok(work) => return Reply::Work(work),
                            Err(e) => self.problem = Some(e),
                        }
                    }
                    if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
                });
                parts::problem(ui, self.problem.as_deref());
                reply
            }
            Part::Body => {
                parts::title(ui, "Export batches");
                if !self.written.is_empty() {
                    self.written_ui(ui);
                } else if nothing {
                    ui.label("This master has no task set yet: plan one first (Batches › Plan a task set…).");
                } else {
                    self.form(ui, session.master());
                }
                Reply::Stay
            }
        }
    }

    fn done(&mut self, exported: Self::Done) {
        match exported {
            Ok(exported) => {
                self.written = exported.files;
                self.created_folder = exported.created_folder;
            }
            Err(problem) => self.problem = Some(problem),
        }
    }
}

impl BatchExportDialog {
    fn form(&mut self, ui: &mut Ui, master: &Master) {
        ui.label("One file per annotator: their candidates in a shuffled order, without the names of the systems.");
        ui.add_space(8.0);
        let label = ui.label(RichText::new("Task set").strong());
        let describe = |id: u32| {
            master.task_set(id).map_or(String::new(), |t| {
                let purpose = if t.purpose == Purpose::Adjudication { "adjudication, " } else { "" };
                let parts = t.parts().count();
                format!("{} ({purpose}id {}, {parts} parts)", t.name, t.id)
            })
        };
        let mut chosen = self.task_set;
        let combo = egui::ComboBox::from_id_salt("export task set")
            .width(360.0)
            .selected_text(chosen.map(describe).unwrap_or_default())
            .show_ui(ui, |ui| {
                for t in &master.task_sets {
                    ui.selectable_value(&mut chosen, Some(t.id), describe(t.id));
                }
            });
        combo.response.labelled_by(label.id);
        if chosen != self.task_set {
            self.choose(master, chosen);
            self.problem = None;
        }
        ui.add_space(6.0);
        ui.label(RichText::new("Who gets each part").strong());
        let sizes = self.task_set.and_then(|id| master.task_set(id)).map(|t| t.part_sizes()).unwrap_or_default();
        egui::Grid::new("export names").num_columns(3).spacing([12.0, 6.0]).show(ui, |ui| {
            for (i, name) in self.names.iter_mut().enumerate() {
                let label = ui.label(format!("Part {}", i + 1));
                let field = egui::TextEdit::singleline(name).hint_text("a name");
                ui.add_sized([260.0, 24.0], field).labelled_by(label.id);
                if let Some(n) = sizes.get(i) {
                    ui.label(RichText::new(format!("{n} candidates")).weak());
                }
                ui.end_row();
            }
        });
        ui.label(RichText::new("New names are added to the master's annotators.").small().weak());
        ui.add_space(6.0);
        self.folder.ui(ui, "Folder", Pick::Folder);
        ui.checkbox(&mut self.replace, REPLACE);
    }

    /// The export, to run off the UI thread (a large master takes seconds); the files written
    /// or the refusal come back to the dialog.
    fn export(&mut self, now: Result<DateTime<Utc>, WrongClock>) -> Result<Job<Result<Exported, String>>, String> {
        let created = now.map_err(|e| format!("Nothing was exported: {e}."))?;
        let task_set = self.task_set.ok_or("Choose a task set.")?;
        let folder = self.folder.folder()?;
        // No names at all: the library's choice (each part's annotator, then the free ones).
        let names = if self.names.iter().all(|n| n.trim().is_empty()) { Vec::new() } else { self.names.clone() };
        self.problem = None;
        Ok(exporting(Exporting { task_set, names, folder, replace: self.replace, created }))
    }

    fn written_ui(&self, ui: &mut Ui) {
        if let Some(folder) = &self.created_folder {
            parts::done(ui, &format!("Created the folder {}.", folder.display()));
        }
        parts::done(ui, &format!("Wrote {}:", protest::store::summary::count(self.written.len(), "batch file")));
        egui::Grid::new("written batches").striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
            for w in &self.written {
                ui.label(RichText::new(&w.annotator).strong());
                ui.label(w.path.display().to_string());
                ui.label(format!("{} candidates, {} records", w.candidates, w.records));
                ui.end_row();
            }
        });
        ui.add_space(6.0);
        ui.label(
            "Send each annotator their file; they open it in PROTEST (annotator mode). Merge the annotated files \
             back with Batches › Import annotated batches…",
        );
    }
}

/// Exports the batches through the open file off the UI thread; the files written, or the
/// refusal in words, come back to the dialog.
fn exporting(exporting: Exporting) -> Job<Result<Exported, String>> {
    Job::new("Exporting the batches", move |session| {
        session.run(|store| workflow::export::run(store, &exporting)).map_err(|e| parts::failed(&e, REPLACE))
    })
}
