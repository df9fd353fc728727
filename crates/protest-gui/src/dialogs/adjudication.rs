//! Batches › Adjudication (`workflow::adjudication`): the candidates annotators disagree on go
//! to a further annotator as a batch.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply, capitalised};
use crate::dialogs::path_field::{PathField, Pick};
use chrono::{DateTime, Utc};
use egui::{RichText, Ui};
use protest::batches::adjudication::{self, AdjudicationError};
use protest::batches::plan::Plan;
use protest::model::{Master, clock};
use protest::session::Session;
use protest::store::summary::count;
use protest::workflow::{self, adjudication::Adjudicating};
use std::path::Path;

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    pub fn adjudication() -> Opener {
        Opener::new("Adjudication…", Allowed::Researcher, |on| {
            on.master_at().map(|(m, p)| AdjudicationDialog::new(m, p))
        })
    }
}

const REPLACE: &str = "Replace a batch file that exists";

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 640.0;

pub struct AdjudicationDialog {
    name: String,
    seed: u64,
    folder: PathField,
    replace: bool,
    /// What adjudication by `name` would give them, for the name it was computed for.
    preview: Option<(String, Result<Plan, AdjudicationError>)>,
    problem: Option<String>,
    written: Option<String>,
    /// The name field takes the keyboard once shown.
    focus: bool,
}

impl AdjudicationDialog {
    pub fn new(_master: &Master, master_path: &Path) -> AdjudicationDialog {
        AdjudicationDialog {
            name: String::new(),
            seed: u64::from(rand::random::<u32>()),
            folder: PathField::new(Some(&workflow::default_folder(master_path))),
            replace: false,
            preview: None,
            problem: None,
            written: None,
            focus: true,
        }
    }

    fn preview(&mut self, master: &Master) -> &Result<Plan, AdjudicationError> {
        let name = self.name.trim().to_owned();
        if self.preview.as_ref().is_none_or(|(n, _)| *n != name) {
            // A preview's time is written nowhere.
            let adjudicating = self.adjudicating(Path::new(""), clock::EARLIEST);
            let planned = workflow::adjudication::preview(master, &adjudicating).map(|(p, _)| p);
            self.preview = Some((name, planned));
        }
        &self.preview.as_ref().expect("just computed").1
    }
}

impl Dialog for AdjudicationDialog {
    type Done = Result<String, String>;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Result<String, String>> {
        let Some(session) = session else { return Reply::Close };
        match (part, &self.written) {
            (Part::Body, Some(written)) => {
                parts::title(ui, "Adjudication");
                parts::done(ui, written);
                ui.label(
                    "Merge it back like any batch: their judgements then prevail where reports need one per candidate.",
                );
                Reply::Stay
            }
            (Part::Buttons, Some(_)) => parts::close_only(ui),
            (Part::Body, None) => {
                self.body(ui, session.master());
                Reply::Stay
            }
            (Part::Buttons, None) => self.buttons(ui, session),
        }
    }

    fn done(&mut self, done: Result<String, String>) {
        match done {
            Ok(written) => self.written = Some(written),
            Err(e) => self.problem = Some(e),
        }
    }
}

impl AdjudicationDialog {
    /// Whether there is an adjudicator and a batch to give them.
    fn ready(&mut self, master: &Master) -> bool {
        !self.name.trim().is_empty() && self.preview(master).is_ok()
    }

    fn buttons(&mut self, ui: &mut Ui, session: &Session) -> Reply<Result<String, String>> {
        let ready = self.ready(session.master());
        let reply = parts::buttons(ui, |ui| {
            let button = egui::Button::new(RichText::new("Export the adjudication batch").strong());
            if ui.add_enabled(ready, button).clicked() {
                let now = session.now().map_err(|e| format!("Nothing was exported: {e}."));
                match self.folder.folder().and_then(|folder| Ok((folder, now?))) {
                    Ok((folder, now)) => return Reply::Work(exporting(self.adjudicating(&folder, now))),
                    Err(e) => self.problem = Some(e),
                }
            }
            if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
        });
        parts::problem(ui, self.problem.as_deref());
        reply
    }

    fn body(&mut self, ui: &mut Ui, master: &Master) {
        parts::title(ui, "Adjudication");
        let found = adjudication::disagreements(master);
        ui.label(format!(
            "{} annotators who disagree (on the pronoun or the antecedent; “?” counts as an answer).",
            match found.len() {
                1 => "1 candidate has".to_owned(),
                n => format!("{n} candidates have"),
            }
        ));
        ui.label(
            RichText::new("A further annotator judges them afresh, without seeing the others' judgements.").weak(),
        );
        ui.add_space(8.0);
        let label = ui.label(RichText::new("Adjudicator").strong());
        let field =
            egui::TextEdit::singleline(&mut self.name).hint_text("a name; new names are added").desired_width(260.0);
        let field = ui.add(field).labelled_by(label.id);
        if self.focus && !ui.is_sizing_pass() {
            field.request_focus();
            self.focus = false;
        }
        if !master.annotators.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Annotators:").small().weak());
                for a in &master.annotators {
                    if ui.small_button(&a.name).clicked() {
                        self.name = a.name.clone();
                    }
                }
            });
        }
        ui.add_space(6.0);
        let who = self.name.trim().to_owned();
        if !who.is_empty() {
            match self.preview(master) {
                Ok(planned) => {
                    let n = planned.task_set.tasks.first().map_or(0, |t| t.candidates.len());
                    let goes = if n == 1 { "1 candidate goes".to_owned() } else { format!("{n} candidates go") };
                    let text = format!("{goes} to {who} as “{}”.", planned.task_set.name);
                    ui.label(RichText::new(text).strong());
                }
                Err(e) => parts::problem(ui, Some(&capitalised(&e.to_string()))),
            }
        }
        ui.add_space(6.0);
        self.folder.ui(ui, "Folder", Pick::Folder);
        ui.checkbox(&mut self.replace, REPLACE);
    }

    fn adjudicating(&self, folder: &Path, created: DateTime<Utc>) -> Adjudicating {
        Adjudicating {
            name: self.name.trim().to_owned(),
            task_set_name: String::new(),
            seed: self.seed,
            folder: folder.to_path_buf(),
            replace: self.replace,
            created,
        }
    }
}

/// Exports the batch off the UI thread (it saves the master) and tells the dialog.
fn exporting(adjudicating: Adjudicating) -> Job<Result<String, String>> {
    Job::new("Exporting the adjudication batch", move |session| {
        session.run(|store| workflow::adjudication::run(store, &adjudicating)).map_or_else(
            |e| Err(capitalised(&parts::failed(&e, REPLACE))),
            |done| {
                let f = &done.file;
                let created = done.created_folder.as_ref().map(|d| format!("Created the folder {}. ", d.display()));
                Ok(format!(
                    "{}Wrote {} ({}: {}).",
                    created.unwrap_or_default(),
                    f.path.display(),
                    f.annotator,
                    count(f.candidates, "candidate")
                ))
            },
        )
    })
}
