//! The two views (category browser, translation window with the annotation panel) and the
//! status line, laid out from the panels' `ui` methods.

use super::App;
use super::navigation::View;
use super::translation;
use super::workspace::Mode;
use egui::Ui;
use protest::annotation::Edit;

impl App {
    pub(super) fn browser_ui(&mut self, ui: &mut Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            let Some(session) = &self.session else {
                ui.heading("No file is open");
                ui.label("Use File › Open (Ctrl+O) to open a master or batch file.");
                return;
            };
            ui.set_max_width(900.0);
            if let Some(opening) = self.browser.ui(ui, session) {
                self.start(opening);
            }
        });
    }

    pub(super) fn example_ui(&mut self, ui: &mut Ui) {
        let (Some(session), View::Example(walk)) = (&self.session, &self.view) else { return };
        let candidate_id = walk.current();
        let master = session.master();
        let Some(candidate) = master.candidate(candidate_id) else { return };
        let editable = !session.is_read_only();
        let record = session.record(candidate_id);
        let anaphoric = master.example_of(candidate).is_some_and(|(_, c)| c.anaphoric);
        let mut edits = Vec::new();
        let mut command = None;
        egui::Panel::right("annotation panel").resizable(true).default_size(400.0).size_range(320.0..=640.0).show(
            ui,
            |ui| {
                ui.add_space(6.0);
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                    edits.extend(self.panel.ui(ui, master, candidate_id, record, editable));
                });
            },
        );
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Panel::top("example header").show(ui, |ui| {
                let position = translation::Position {
                    index: walk.index,
                    len: walk.set.len(),
                    annotated: protest::annotation::progress(master, session.annotator(), &walk.set),
                };
                command = translation::header(ui, master, candidate, session.mode() == Mode::Researcher, &position);
                ui.label(egui::RichText::new(&walk.title).small().weak());
                ui.add_space(4.0);
            });
            egui::Panel::bottom("legend").show(ui, |ui| {
                ui.add_space(4.0);
                translation::legend(ui, anaphoric);
            });
            egui::CentralPanel::default().show(ui, |ui| {
                if let Some((role, token)) = translation::texts(ui, master, candidate, record, editable) {
                    edits.push(Edit::ToggleToken(role, token));
                }
            });
        });
        for edit in edits {
            self.edit(candidate_id, edit);
        }
        if let Some(command) = command {
            self.command(command);
        }
    }

    pub(super) fn status_line(&self, ui: &mut Ui) {
        let Some(session) = &self.session else {
            ui.label("No file open");
            return;
        };
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(session.path().display().to_string()).small());
            ui.separator();
            let mode = match session.mode() {
                Mode::Researcher => "researcher mode",
                Mode::Annotator => "annotator mode",
            };
            ui.label(egui::RichText::new(mode).small());
            ui.separator();
            let state = match () {
                _ if session.is_read_only() => "read-only: changes are not saved",
                _ if self.panel.typing() => "saving remarks…",
                _ => "every change is saved",
            };
            ui.label(egui::RichText::new(state).small());
        });
    }
}
