//! Batches › Annotators: the master's annotators, adding, renaming and removing them by name
//! (`workflow::annotators`; ids never change).

use crate::dialogs::Modal;
use crate::dialogs::parts::{self, Part, Reply};
use crate::work::SessionWork;
use egui::{Key, RichText, Ui};
use protest::model::{AnnotatorId, Master};
use protest::session::Session;
use protest::store::Store;
use protest::workflow;

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
}

impl Default for AnnotatorsDialog {
    fn default() -> Self {
        AnnotatorsDialog {
            new_name: String::new(),
            renaming: None,
            focus_rename: false,
            problem: None,
            done: None,
            focus_new: true,
        }
    }
}

impl AnnotatorsDialog {
    pub fn ui(&mut self, ui: &mut Ui, part: Part, session: &mut Session) -> Reply {
        match part {
            Part::Body => self.body(ui, session),
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

    fn body(&mut self, ui: &mut Ui, session: &mut Session) -> Reply {
        parts::title(ui, "Annotators");
        ui.label("Everyone who annotates this master. Names are unique (ignoring case); renaming keeps a person's records and batches. Only someone without records and without a part of a task set can be removed.");
        ui.add_space(8.0);
        let master = session.master();
        let mut rename = None;
        let mut remove = None;
        let mut cancel_rename = false;
        if master.annotators.is_empty() {
            ui.label(RichText::new("No annotators yet.").weak());
        }
        egui::Grid::new("annotators").striped(true).num_columns(4).spacing([16.0, 6.0]).show(ui, |ui| {
            for a in &master.annotators {
                let records = master.records.iter().filter(|r| r.annotator == a.id && !r.is_blank()).count();
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
                            rename = Some((a.name.clone(), name.clone()));
                        } else if cancel {
                            cancel_rename = true;
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
                                remove = Some(a.name.clone());
                            }
                        });
                    }
                }
                ui.label(RichText::new(format!("{records} records")).weak());
                ui.end_row();
            }
        });
        if cancel_rename {
            self.renaming = None;
        }
        ui.add_space(10.0);
        let label = ui.label(RichText::new("Add an annotator").strong());
        let add = ui
            .horizontal(|ui| {
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
            .inner;
        // Each change saves the master: off the UI thread, one per frame (one click per frame).
        let mut reply = Reply::Stay;
        if add {
            let name = self.new_name.trim().to_owned();
            reply = changing(
                format!("Adding {name}"),
                format!("Added {name}."),
                |d| d.new_name.clear(),
                move |store| workflow::annotators::add(store, &name),
            );
        } else if let Some((old, new)) = rename {
            let done = format!("Renamed {old} to {}.", new.trim());
            reply = changing(
                format!("Renaming {old}"),
                done,
                |d| d.renaming = None,
                move |store| workflow::annotators::rename(store, &old, &new),
            );
        } else if let Some(name) = remove {
            reply = changing(
                format!("Removing {name}"),
                format!("Removed {name}."),
                |_| {},
                move |store| workflow::annotators::remove(store, &name),
            );
        }
        reply
    }
}

/// A change to the annotators, made off the UI thread; the dialog then says it is `done` and
/// is `tidied` (or shows why it was refused).
fn changing(
    what: String,
    done: String,
    tidied: fn(&mut AnnotatorsDialog),
    change: impl FnOnce(&mut Store<Master>) -> protest::Result<AnnotatorId> + Send + 'static,
) -> Reply {
    Reply::Work(SessionWork::new(what, move |session| {
        let changed = session.run(change).map_err(|e| parts::failed(&e, ""));
        Box::new(move |modal| {
            if let Modal::Annotators(dialog) = modal {
                match changed {
                    Ok(_) => {
                        dialog.done = Some(done);
                        dialog.problem = None;
                        tidied(dialog);
                    }
                    Err(e) => dialog.problem = Some(e),
                }
                // A long change hid the dialog, and its field lost the keyboard: it gets it
                // back, so the next name goes into the same field (or a refused one is mended).
                match dialog.renaming {
                    Some(_) => dialog.focus_rename = true,
                    None => dialog.focus_new = true,
                }
            }
        })
    }))
}
