//! The menu bar and the annotator picker.

use super::session::Session;
use super::style::ThemeChoice;
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
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.add(Button::new("Open…").shortcut_text("Ctrl+O")).clicked() {
                    action = Some(Action::Open);
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
                ui.label(RichText::new("Theme").weak());
                for choice in ThemeChoice::ALL {
                    if ui.radio(theme == choice, choice.label()).clicked() {
                        action = Some(Action::Theme(choice));
                    }
                }
            });
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
