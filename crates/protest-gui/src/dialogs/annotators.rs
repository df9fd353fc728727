//! Batches › Annotators: the master's annotators, adding, renaming and removing them by name
//! (`workflow::annotators`; ids never change).

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use egui::{Key, RichText, Ui};
use protest::batches::annotators::record_counts;
use protest::model::{Annotator, AnnotatorId, Master};
use protest::session::Session;
use protest::store::Store;
use protest::workflow;
use std::collections::HashMap;

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    pub fn annotators() -> Opener {
        Opener::new("Annotators…", Allowed::Researcher, |on| on.session.map(|s| AnnotatorsDialog::new(s.master())))
    }
}

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 520.0;

pub struct AnnotatorsDialog {
    new_name: String,
    /// The annotator being renamed and the name typed so far.
    renaming: Option<(AnnotatorId, String)>,
    focus_rename: bool,
    problem: Option<String>,
    done: Option<String>,
    /// The new name's field takes the keyboard once shown.
    focus_new: bool,
    /// How many records each annotator has: counted when the dialog opens and after each change.
    records: HashMap<AnnotatorId, usize>,
}

/// What the user asked of one annotator's row.
enum Asked {
    Rename(String, String),
    Remove(String),
    CancelRename,
}

/// What a change did: what to say (or why it was refused), how to tidy the form, and the counts
/// of records afterwards.
pub struct Changed {
    said: Result<String, String>,
    tidied: fn(&mut AnnotatorsDialog),
    records: HashMap<AnnotatorId, usize>,
}

impl AnnotatorsDialog {
    pub fn new(master: &Master) -> Self {
        AnnotatorsDialog {
            new_name: String::new(),
            renaming: None,
            focus_rename: false,
            problem: None,
            done: None,
            focus_new: true,
            records: record_counts(master),
        }
    }
}

impl Dialog for AnnotatorsDialog {
    type Done = Changed;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Changed> {
        let Some(session) = session else { return Reply::Close };
        match part {
            Part::Body => self.body(ui, session.master()),
            Part::Buttons => {
                let reply = parts::close_only(ui);
                parts::problem(ui, self.problem.as_deref());
                if let (None, Some(done)) = (&self.problem, &self.done) {
                    parts::done(ui, done);
                }
                reply
            }
        }
    }

    fn done(&mut self, changed: Changed) {
        self.records = changed.records;
        match changed.said {
            Ok(done) => {
                self.done = Some(done);
                self.problem = None;
                (changed.tidied)(self);
            }
            Err(e) => self.problem = Some(e),
        }
        // A long change hid the dialog, and its field lost the keyboard: it gets it back, so the
        // next name goes into the same field (or a refused one is mended).
        match self.renaming {
            Some(_) => self.focus_rename = true,
            None => self.focus_new = true,
        }
    }
}

impl AnnotatorsDialog {
    fn body(&mut self, ui: &mut Ui, master: &Master) -> Reply<Changed> {
        parts::title(ui, "Annotators");
        ui.label("Everyone who annotates this master. Names are unique (ignoring case); renaming keeps a person's records and batches. Only someone without records and without a part of a task set can be removed.");
        ui.add_space(8.0);
        if master.annotators.is_empty() {
            ui.label(RichText::new("No annotators yet.").weak());
        }
        let mut asked = None;
        egui::Grid::new("annotators").striped(true).num_columns(4).spacing([16.0, 6.0]).show(ui, |ui| {
            for a in &master.annotators {
                asked = self.row(ui, a).or(asked.take());
            }
        });
        ui.add_space(10.0);
        let add = self.add_field(ui);
        // Each change saves the master: off the UI thread, one per frame (one click per frame).
        if add {
            let name = self.new_name.trim().to_owned();
            return changing(
                format!("Adding {name}"),
                format!("Added {name}."),
                |d| d.new_name.clear(),
                move |store| workflow::annotators::add(store, &name),
            );
        }
        match asked {
            Some(Asked::Rename(old, new)) => changing(
                format!("Renaming {old}"),
                format!("Renamed {old} to {}.", new.trim()),
                |d| d.renaming = None,
                move |store| workflow::annotators::rename(store, &old, &new),
            ),
            Some(Asked::Remove(name)) => changing(
                format!("Removing {name}"),
                format!("Removed {name}."),
                |_| {},
                move |store| workflow::annotators::remove(store, &name),
            ),
            Some(Asked::CancelRename) => {
                self.renaming = None;
                Reply::Stay
            }
            None => Reply::Stay,
        }
    }

    /// One annotator: the name (or the field renaming them), its buttons and their records.
    fn row(&mut self, ui: &mut Ui, a: &Annotator) -> Option<Asked> {
        let mut asked = None;
        match &mut self.renaming {
            Some((id, name)) if *id == a.id => {
                let field = ui.add_sized([220.0, 24.0], egui::TextEdit::singleline(name));
                let field = field.accessible_name(format!("New name for {}", a.name));
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                if std::mem::take(&mut self.focus_rename) {
                    field.request_focus();
                }
                let (save, cancel) =
                    ui.horizontal(|ui| (ui.button("Save").clicked(), ui.button("Cancel").clicked())).inner;
                if enter {
                    field.request_focus(); // kept if the name is refused
                }
                if save || enter {
                    asked = Some(Asked::Rename(a.name.clone(), name.clone()));
                } else if cancel {
                    asked = Some(Asked::CancelRename);
                }
            }
            _ => {
                ui.label(RichText::new(&a.name).strong());
                ui.horizontal(|ui| {
                    let button = ui.button("Rename…").accessible_name(format!("Rename {}", a.name));
                    if button.clicked() {
                        self.renaming = Some((a.id, a.name.clone()));
                        self.focus_rename = true;
                    }
                    let button = ui
                        .button("Remove")
                        .accessible_name(format!("Remove {}", a.name))
                        .on_hover_text("Only someone without records and without a part of a task set");
                    if button.clicked() {
                        asked = Some(Asked::Remove(a.name.clone()));
                    }
                });
            }
        }
        let records = self.records.get(&a.id).copied().unwrap_or(0);
        ui.label(RichText::new(format!("{records} records")).weak());
        ui.end_row();
        asked
    }

    /// The field for a new annotator's name; whether one is to be added.
    fn add_field(&mut self, ui: &mut Ui) -> bool {
        let label = ui.label(RichText::new("Add an annotator").strong());
        ui.horizontal(|ui| {
            let field = egui::TextEdit::singleline(&mut self.new_name).hint_text("name").desired_width(260.0);
            let field = ui.add(field).labelled_by(label.id);
            if self.focus_new && !ui.is_sizing_pass() {
                field.request_focus();
                self.focus_new = false;
            }
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if enter {
                field.request_focus(); // the next name goes into the same field
            }
            ui.button("Add").clicked() || enter
        })
        .inner
    }
}

/// A change to the annotators, made off the UI thread; the dialog then says it is `done` and
/// is `tidied` (or shows why it was refused).
fn changing(
    what: String,
    done: String,
    tidied: fn(&mut AnnotatorsDialog),
    change: impl FnOnce(&mut Store<Master>) -> protest::Result<AnnotatorId> + Send + 'static,
) -> Reply<Changed> {
    Reply::Work(Job::new(what, move |session| {
        let said = session.run(change).map(|_| done).map_err(|e| parts::failed(&e, ""));
        Changed { said, tidied, records: record_counts(session.master()) }
    }))
}
