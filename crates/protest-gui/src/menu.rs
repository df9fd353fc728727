//! The menu bar and the annotator picker. Each item is an intent; its label, hint and key are the
//! intent's own (intent.rs, keys.rs).

use crate::dialogs::Opener;
use crate::intent::Intent;
use crate::keys;
use crate::style::ThemeChoice;
use egui::{Button, RichText, Ui};
use protest::model::AnnotatorId;
use protest::session::Session;
use protest::session::workspace::Mode;

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
    ) -> Option<Intent> {
        let mut chosen = None;
        let researcher = session.is_some_and(|s| s.mode() == Mode::Researcher);
        // The web page has no files to open or write, and is closed as a browser tab.
        let remote = session.is_some_and(Session::is_remote);
        egui::MenuBar::new().ui(ui, |ui| {
            if !remote {
                ui.menu_button("File", |ui| file_menu(ui, &mut chosen, session));
            }
            ui.menu_button("Edit", |ui| {
                let (undo, redo) = session.map_or((false, false), |s| (s.can_undo(), s.can_redo()));
                item(ui, &mut chosen, Intent::Undo, undo);
                item(ui, &mut chosen, Intent::Redo, redo);
            });
            ui.menu_button("View", |ui| {
                if researcher {
                    item(ui, &mut chosen, Intent::Dialog(Opener::go_to()), true);
                    item(ui, &mut chosen, Intent::ToggleOverview, true);
                    ui.separator();
                }
                ui.label(RichText::new("Theme").weak());
                for choice in ThemeChoice::ALL {
                    if ui.radio(theme == choice, choice.label()).clicked() {
                        chosen = Some(Intent::Theme(choice));
                    }
                }
            });
            if researcher {
                ui.menu_button("Evaluate", |ui| {
                    item(ui, &mut chosen, Intent::Report, true);
                    let writable = session.is_some_and(|s| !s.is_read_only());
                    item(ui, &mut chosen, Intent::RunAutoEval(None), writable);
                });
                ui.menu_button("Batches", |ui| {
                    for opener in [
                        Opener::annotators(),
                        Opener::plan(),
                        Opener::export_batches(),
                        Opener::merge(Vec::new()),
                        Opener::adjudication(),
                    ] {
                        item(ui, &mut chosen, Intent::Dialog(opener), true);
                    }
                });
            }
            ui.menu_button("Help", |ui| {
                item(ui, &mut chosen, Intent::Help, true);
            });
            if let Some(session) = session {
                ui.separator();
                if let Some(intent) = self.annotator(ui, session, can_switch) {
                    chosen = Some(intent);
                }
            }
        });
        chosen
    }
}

/// File: opening, importing, a copy, quitting (what the file open allows).
fn file_menu(ui: &mut Ui, chosen: &mut Option<Intent>, session: Option<&Session>) {
    let openers = [
        Opener::open_file(),
        Opener::prediction_results(),
        Opener::add_system(),
        #[cfg(not(target_arch = "wasm32"))] // no SQLite in the web page
        Opener::legacy(None),
        Opener::save_copy(),
    ];
    for opener in openers.into_iter().filter(|o| o.allowed.admits(session)) {
        item(ui, chosen, Intent::Dialog(opener), true);
    }
    ui.separator();
    item(ui, chosen, Intent::Quit, true);
}

impl MenuBar {
    fn annotator(&mut self, ui: &mut Ui, session: &Session, can_switch: bool) -> Option<Intent> {
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
                            action = (id != current).then_some(Intent::SwitchAnnotator(id));
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
                        action = Some(Intent::AddAnnotator(std::mem::take(&mut self.new_annotator)));
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

/// A menu item for `intent`: its label, its key beside it, its hint on hover.
fn item(ui: &mut Ui, chosen: &mut Option<Intent>, intent: Intent, enabled: bool) {
    let mut button = Button::new(intent.label().unwrap_or_default());
    if let Some(key) = keys::shortcut(&intent) {
        button = button.shortcut_text(key);
    }
    let mut response = ui.add_enabled(enabled, button);
    if let Some(hint) = intent.hint() {
        response = response.on_hover_text(hint);
    }
    if response.clicked() {
        *chosen = Some(intent);
    }
}
