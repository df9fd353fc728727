//! The views (category browser, translation window with the annotation or overview panel, the
//! report) and the status line, laid out from the panels' `ui` methods; what the user does in
//! them is dispatched as intents.

use crate::App;
use crate::intent::Intent;
use crate::panels::overview::{self, Side};
use crate::panels::report::ReportView;
use crate::panels::translation;
use crate::place::View;
use egui::Ui;
use protest::annotate::edit::Edit;
use protest::annotate::overview::Overview;
use protest::session::workspace::Mode;

use crate::panels::translation::TRANSLATION_WIDTH;

impl App {
    pub(crate) fn browser_ui(&mut self, ui: &mut Ui) {
        let mut opening = None;
        egui::CentralPanel::default().show(ui, |ui| {
            let Some(session) = &self.session else {
                ui.heading("No file is open");
                ui.label("Use File › Open (Ctrl+O) to open a master or batch file.");
                return;
            };
            ui.set_max_width(ui.available_width().min(900.0));
            opening = self.browser.ui(ui, session);
        });
        if let Some(opening) = opening {
            self.dispatch(ui.ctx(), Intent::Walk(opening));
        }
    }

    pub(crate) fn example_ui(&mut self, ui: &mut Ui) {
        let (Some(session), View::Example(walk)) = (&self.session, &mut self.view) else { return };
        let annotated = walk.annotated(session);
        let walk = &*walk;
        let candidate_id = walk.current();
        let master = session.master();
        let Some(candidate) = master.candidate(candidate_id) else { return };
        let editable = !session.is_read_only();
        let researcher = session.mode() == Mode::Researcher;
        let record = session.record(candidate_id);
        let anaphoric = master.example_of(candidate).is_some_and(|(_, c)| c.anaphoric);
        // The overview shows someone's selections in the translation, which is then not clickable.
        let overview =
            if researcher && self.side == Side::Overview { Overview::of(master, candidate_id) } else { None };
        let shown = overview.as_ref().and_then(|o| self.overview.shown(o));
        let text_record = match &overview {
            Some(_) => shown.and_then(|a| master.records.get(candidate_id, a)),
            None => record,
        };
        let mut edits = Vec::new();
        let mut intents = Vec::new();
        let widest = (ui.available_width() - TRANSLATION_WIDTH).clamp(320.0, 640.0);
        let panel = egui::Panel::right("annotation panel").resizable(true);
        let side = panel.default_size(widest.min(400.0)).size_range(320.0..=widest).show(ui, |ui| {
            ui.add_space(6.0);
            if researcher {
                overview::side_switch(ui, &mut self.side);
            }
            crate::style::visible_scroll_bars(ui);
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| match &overview {
                Some(o) => intents.extend(self.overview.ui(ui, session, o, editable)),
                None => edits.extend(self.panel.ui(ui, session, candidate_id, record, editable)),
            });
        });
        self.side_panel = Some(side.response.rect);
        crate::panels::annotation::placed(ui.ctx(), side.response.rect);
        // Tokens are clicked or keyed in the annotator's own view, not over others' records.
        let selectable = editable && overview.is_none();
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Panel::top("example header").show(ui, |ui| {
                let position = translation::Position { index: walk.index, len: walk.set.len(), annotated };
                intents.extend(translation::header(ui, master, candidate, researcher, &position));
                ui.add(egui::Label::new(egui::RichText::new(&walk.title).small().weak()).truncate());
                ui.add_space(4.0);
            });
            egui::Panel::bottom("legend").show(ui, |ui| {
                ui.add_space(4.0);
                let guessed = protest::annotate::window::alignment_note(master, candidate).is_some();
                translation::legend(ui, anaphoric, selectable, guessed);
            });
            egui::CentralPanel::default().show(ui, |ui| {
                if overview.is_some() {
                    overview::whose_tokens(ui, shown.map(|a| master.annotator_name(a)));
                }
                let reveal = self.reveal.take();
                let toggled = translation::texts(ui, master, candidate, text_record, selectable, reveal, self.visits);
                if let Some((role, token)) = toggled {
                    edits.push(Edit::ToggleToken(role, token));
                }
            });
        });
        let edits = edits.into_iter().map(|edit| Intent::Edit(candidate_id, edit));
        for intent in edits.chain(intents).collect::<Vec<_>>() {
            self.dispatch(ui.ctx(), intent);
        }
    }

    pub(crate) fn report_ui(&mut self, ui: &mut Ui) {
        // Computing the report on a large master takes a while: off the UI thread.
        if let Some(session) = &self.session
            && self.report.stale(session)
        {
            let judges = self.report.judges;
            self.start_on_session("Computing the report", move |session| {
                let computed = ReportView::compute(session, judges);
                Box::new(move |app: &mut App| app.report.set(computed))
            });
        }
        let mut intent = None;
        egui::CentralPanel::default().show(ui, |ui| {
            let Some(session) = &self.session else { return };
            intent = self.report.ui(ui, session);
        });
        if let Some(intent) = intent {
            self.dispatch(ui.ctx(), intent);
        }
    }

    pub(crate) fn predictions_ui(&mut self, ui: &mut Ui) {
        let mut back = false;
        egui::CentralPanel::default().show(ui, |ui| {
            let Some(view) = &mut self.predictions else { return };
            if ui.button("‹ Back").on_hover_text("Back to the categories (Esc)").clicked() {
                back = true;
            }
            view.ui(ui);
        });
        if back {
            self.dispatch(ui.ctx(), Intent::Back);
        }
    }

    /// What typed text waits to be stored, for the status line and the page's title
    /// (`remarks not saved yet`), if any.
    pub(crate) fn typing_not_saved(&self) -> Option<String> {
        let tag = self.panel.tag_box().typed().or(self.overview.tag_box().typed());
        match (self.panel.typing(), tag) {
            (false, None) => None,
            (true, None) => Some("remarks not saved yet".to_owned()),
            (false, Some(tag)) => Some(format!("tag “{tag}” not added yet")),
            (true, Some(tag)) => Some(format!("remarks and tag “{tag}” not saved yet")),
        }
    }

    /// What the web page's tab title says after the annotator's name: `all saved`, or what is
    /// not (changes on their way to the server or kept for it, text typed); `None` before a part
    /// is open.
    #[cfg(any(test, target_arch = "wasm32"))]
    pub(crate) fn page_state(&self) -> Option<String> {
        let session = self.session.as_ref()?;
        // A change waiting for the annotator's choice between two versions is not saved either.
        let unsent = session.not_saved().map_or(session.sending() + session.disagreements().len(), |n| n.changes);
        Some(match (unsent, self.typing_not_saved()) {
            (0, None) => "all saved".to_owned(),
            (n, None) => format!("{} not saved yet", changes(n)),
            (0, Some(typing)) => typing,
            (n, Some(typing)) => format!("{} not saved yet, {typing}", changes(n)),
        })
    }

    /// The status line: whether every change is saved, the mode, the file, and the last
    /// message with the session's history; each cut short (whole on hover) in a narrow window.
    pub(crate) fn status_line(&self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let Some(session) = &self.session else {
                ui.label(egui::RichText::new("No file open").small());
                ui.separator();
                self.messages.status_ui(ui);
                return;
            };
            let not_saved = session.not_saved();
            let state = match (&not_saved, self.typing_not_saved()) {
                _ if session.is_read_only() => "read-only: changes are not saved".to_owned(),
                (Some(n), _) if n.detached => {
                    format!("not saved: the file was changed elsewhere ({} changes kept here)", n.changes)
                }
                (Some(n), _) if n.link_gone => format!("{} not saved: this link no longer works", changes(n.changes)),
                (Some(n), _) if n.remote => format!("{} not saved yet: waiting for the server", changes(n.changes)),
                (Some(n), _) => format!("{} not saved", changes(n.changes)),
                (None, Some(typing)) => typing,
                (None, None) if session.sending() > 0 => {
                    format!("sending {} to the server…", changes(session.sending()))
                }
                (None, None) if !session.disagreements().is_empty() => {
                    format!("{} not saved: choose between two versions", changes(session.disagreements().len()))
                }
                (None, None) => "every change is saved".to_owned(),
            };
            let text = egui::RichText::new(state).small();
            ui.label(if not_saved.is_some() { text.strong().color(ui.visuals().error_fg_color) } else { text });
            ui.separator();
            let mode = match session.mode() {
                Mode::Researcher => "researcher mode",
                Mode::Annotator => "annotator mode",
            };
            ui.label(egui::RichText::new(mode).small());
            ui.separator();
            // An annotator sees the batch's file name (where it is, on hover); a researcher the path.
            let path = session.path().display().to_string();
            let shown = match session.mode() {
                Mode::Annotator => {
                    session.path().file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned())
                }
                Mode::Researcher => path.clone(),
            };
            let width = if self.messages.last().is_some() { ui.available_width() * 0.45 } else { ui.available_width() };
            let height = ui.spacing().interact_size.y;
            ui.allocate_ui(egui::vec2(width, height), |ui| {
                ui.add(egui::Label::new(egui::RichText::new(shown).small()).truncate()).on_hover_text(path);
            });
            if self.messages.last().is_some() {
                ui.separator();
                self.messages.status_ui(ui);
            }
        });
    }
}

/// The web page's screen while the annotator's part loads, or why it could not (docs/serve.md):
/// the words a third of the way down, wrapped to the window.
#[cfg(any(test, target_arch = "wasm32"))]
pub(crate) fn waiting_ui(ui: &mut Ui, text: &str) {
    egui::CentralPanel::default().show(ui, |ui| {
        ui.add_space(ui.available_height() * 0.3);
        ui.vertical_centered(|ui| ui.heading(text));
    });
}

/// "1 change", "3 changes".
fn changes(n: usize) -> String {
    if n == 1 { "1 change".to_owned() } else { format!("{n} changes") }
}

/// The tabs over the category browser and the report (researcher mode).
pub(crate) fn tabs(ui: &mut Ui, on_report: bool) -> Option<Intent> {
    let mut intent = None;
    ui.horizontal(|ui| {
        if tab(ui, !on_report, "Categories", "The category browser: annotate") {
            intent = Some(Intent::Back);
        }
        if tab(ui, on_report, "Report", "Results, agreement, system scores, the automatic match and metrics") {
            intent = Some(Intent::Report);
        }
    });
    intent
}

/// One of the researcher's two home views.
fn tab(ui: &mut Ui, on: bool, label: &str, hint: &str) -> bool {
    let text = egui::RichText::new(label).size(16.0);
    ui.add(egui::Button::selectable(on, text)).on_hover_text(hint).clicked() && !on
}
