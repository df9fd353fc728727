//! The menu bar and the annotator picker.

use super::dialogs::Kind;
use super::session::Session;
use super::style::ThemeChoice;
use super::workspace::Mode;
use egui::{Button, RichText, Ui};
use protest::model::AnnotatorId;

/// What the user chose in the menus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Open,
    Quit,
    Theme(ThemeChoice),
    Help,
    Undo,
    Redo,
    Annotator(AnnotatorId),
    AddAnnotator(String),
    AddSystem,
    Report,
    RunAutoEval,
    /// A researcher's dialog.
    Dialog(Kind),
    ToggleOverview,
}

#[derive(Default)]
pub struct MenuBar {
    new_annotator: String,
}

impl MenuBar {
    /// `can_switch`: the annotator may be changed now (a master, in the category browser).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        session: Option<&Session>,
        theme: ThemeChoice,
        can_switch: bool,
    ) -> Option<Action> {
        let mut action = None;
        // Annotator mode (a batch) has no researcher menus.
        let annotator_mode = session.is_some_and(|s| s.mode() == Mode::Annotator);
        let researcher = session.is_some_and(|s| s.mode() == Mode::Researcher);
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.add(Button::new("Open…").shortcut_text("Ctrl+O")).clicked() {
                    action = Some(Action::Open);
                }
                if researcher && ui.button("Add MT system…").clicked() {
                    action = Some(Action::AddSystem);
                }
                if !annotator_mode && ui.button("Import old PROTEST file…").clicked() {
                    action = Some(Action::Dialog(Kind::Legacy));
                }
                if session.is_some()
                    && ui
                        .button("Save a copy as…")
                        .on_hover_text("Everything shown here, changes not saved included, into a new file")
                        .clicked()
                {
                    action = Some(Action::Dialog(Kind::SaveCopy));
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    action = Some(Action::Quit);
                }
            });
            ui.menu_button("Edit", |ui| {
                let (undo, redo) = session.map_or((false, false), |s| (s.can_undo(), s.can_redo()));
                if ui.add_enabled(undo, Button::new("Undo").shortcut_text("Ctrl+Z")).clicked() {
                    action = Some(Action::Undo);
                }
                if ui.add_enabled(redo, Button::new("Redo").shortcut_text("Ctrl+Shift+Z")).clicked() {
                    action = Some(Action::Redo);
                }
            });
            ui.menu_button("View", |ui| {
                if researcher {
                    if ui.add(Button::new("Go to example or candidate…").shortcut_text("Ctrl+G")).clicked() {
                        action = Some(Action::Dialog(Kind::GoTo));
                    }
                    let toggle = Button::new("Annotation panel or overview").shortcut_text("O");
                    if ui.add(toggle).on_hover_text("In the translation window").clicked() {
                        action = Some(Action::ToggleOverview);
                    }
                    ui.separator();
                }
                ui.label(RichText::new("Theme").weak());
                for choice in ThemeChoice::ALL {
                    if ui.radio(theme == choice, choice.label()).clicked() {
                        action = Some(Action::Theme(choice));
                    }
                }
            });
            if researcher {
                ui.menu_button("Evaluate", |ui| {
                    if ui.button("Report").clicked() {
                        action = Some(Action::Report);
                    }
                    let writable = session.is_some_and(|s| !s.is_read_only());
                    if ui.add_enabled(writable, Button::new("Run automatic reference match")).clicked() {
                        action = Some(Action::RunAutoEval);
                    }
                });
                ui.menu_button("Batches", |ui| {
                    let items = [
                        (Kind::Annotators, "Annotators…"),
                        (Kind::Plan, "Plan a task set…"),
                        (Kind::Export, "Export batches…"),
                        (Kind::Merge, "Import annotated batches…"),
                        (Kind::Adjudication, "Adjudication…"),
                    ];
                    for (kind, text) in items {
                        if ui.button(text).clicked() {
                            action = Some(Action::Dialog(kind));
                        }
                    }
                });
            }
            ui.menu_button("Help", |ui| {
                if ui.add(Button::new("Keys and guidelines").shortcut_text("F1")).clicked() {
                    action = Some(Action::Help);
                }
            });
            if let Some(session) = session {
                ui.separator();
                if let Some(a) = self.annotator(ui, session, can_switch) {
                    action = Some(a);
                }
            }
        });
        action
    }

    fn annotator(&mut self, ui: &mut Ui, session: &Session, can_switch: bool) -> Option<Action> {
        let master = session.master();
        let current = session.annotator();
        ui.label("Annotating as");
        if !session.can_switch_annotator() {
            ui.label(RichText::new(master.annotator_name(current)).strong());
            return None;
        }
        let mut action = None;
        ui.add_enabled_ui(can_switch, |ui| {
            let combo = egui::ComboBox::from_id_salt("annotator")
                .selected_text(RichText::new(master.annotator_name(current)).strong())
                // Clicks into the name field must not close it.
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
                .show_ui(ui, |ui| {
                    let everyone =
                        std::iter::once(AnnotatorId::RESEARCHER).chain(master.annotators.iter().map(|a| a.id));
                    for id in everyone {
                        if ui.selectable_label(id == current, master.annotator_name(id)).clicked() {
                            action = (id != current).then_some(Action::Annotator(id));
                            ui.close();
                        }
                    }
                    ui.separator();
                    let added = ui
                        .horizontal(|ui| {
                            let field = egui::TextEdit::singleline(&mut self.new_annotator).hint_text("new annotator");
                            let field = ui.add(field.desired_width(180.0)).accessible_name("New annotator's name");
                            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                            (ui.button("Add").clicked() || enter) && !self.new_annotator.trim().is_empty()
                        })
                        .inner;
                    if added {
                        action = Some(Action::AddAnnotator(std::mem::take(&mut self.new_annotator)));
                        ui.close();
                    }
                });
            let hint = if can_switch {
                "Whose annotations you see and make. The researcher's are not conflict-checked."
            } else {
                "Go back to the categories to switch annotator"
            };
            combo.response.accessible_name("Annotator").on_hover_text(hint);
        });
        action
    }
}
