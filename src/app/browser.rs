//! The category browser (home, spec §6): a row per category with new / done / conflict counts
//! for the current annotator; clicking a count opens that set. Researchers can filter by corpus.

use super::session::Session;
use super::style;
use super::workspace::Mode;
use egui::{Align, Layout, RichText, Ui};
use protest::annotation::{self, CategoryRow};
use protest::auto_eval;
use protest::model::{CandidateId, CorpusId};

/// A set of candidates to work through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub title: String,
    pub set: Vec<CandidateId>,
    pub start: usize,
}

#[derive(Default)]
pub struct Browser {
    /// Researcher mode: only this translation corpus.
    pub corpus: Option<CorpusId>,
    /// Researcher mode: only candidates the automatic reference match did not settle.
    pub needing_human: bool,
}

impl Browser {
    /// The candidates the browser currently covers, in display order.
    fn order(&self, session: &Session) -> Vec<CandidateId> {
        let master = session.master();
        session
            .order()
            .iter()
            .copied()
            .filter(|&c| self.corpus.is_none() || master.candidate(c).map(|c| c.corpus) == self.corpus)
            .filter(|&c| !self.needing_human || auto_eval::needs_human(master, c))
            .collect()
    }

    /// Every candidate from the first one not annotated yet (Enter in the browser).
    pub fn continue_set(&self, session: &Session) -> Option<Opening> {
        let set = self.order(session);
        let master = session.master();
        let start = set
            .iter()
            .position(|&c| annotation::status(master.records.get(c, session.annotator())) == annotation::Status::New)
            .unwrap_or(0);
        (!set.is_empty()).then(|| Opening { title: "All examples".into(), set, start })
    }

    pub fn ui(&mut self, ui: &mut Ui, session: &Session) -> Option<Opening> {
        let mut opening = None;
        let master = session.master();
        if session.mode() == Mode::Researcher {
            self.corpus = self.corpus.filter(|&c| master.corpus(c).is_some());
            self.needing_human &= !master.auto_eval.rounds.is_empty();
        } else {
            self.corpus = None;
            self.needing_human = false;
        }
        let order = self.order(session);
        let rows = annotation::browse(master, session.annotator(), &order, None);
        let annotated = annotation::progress(master, session.annotator(), &order);
        ui.horizontal(|ui| {
            ui.heading("Categories");
            ui.add_space(16.0);
            let label = if annotated == 0 { "Start annotating" } else { "Continue annotating" };
            let next = ui.add_enabled(annotated < order.len(), egui::Button::new(RichText::new(label).strong()));
            if next.on_hover_text("Every example, from the first one not annotated yet (Enter)").clicked() {
                opening = self.continue_set(session);
            }
            ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                if session.mode() == Mode::Researcher {
                    self.corpus_filter(ui, session);
                    self.needing_human_filter(ui, session);
                }
            });
        });
        ui.add_space(4.0);
        let text =
            format!("{annotated} of {} annotated by {}", order.len(), master.annotator_name(session.annotator()));
        ui.add(style::progress_bar(annotated, order.len(), text).desired_width(420.0));
        ui.add_space(10.0);
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            egui::Grid::new("categories").striped(true).num_columns(5).min_col_width(72.0).spacing([18.0, 8.0]).show(
                ui,
                |ui| {
                    ui.label(RichText::new("Category").strong());
                    for h in ["new", "done", "conflict", "all"] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    let mut function = None;
                    for row in rows.iter().filter(|r| r.total() > 0) {
                        // A heading row whenever the pronoun function changes.
                        let this = master.category(&row.category).map(|c| c.function.as_str());
                        if this != function {
                            function = this;
                            ui.label(RichText::new(function_title(this.unwrap_or(""))).small().weak());
                            ui.end_row();
                        }
                        if let Some(o) = category_row(ui, row, &order) {
                            opening = Some(o);
                        }
                        ui.end_row();
                    }
                },
            );
            let empty = rows.iter().filter(|r| r.total() == 0).count();
            if empty > 0 {
                ui.add_space(8.0);
                ui.label(RichText::new(format!("{empty} categories have no examples here.")).weak());
            }
        });
        opening
    }

    fn needing_human_filter(&mut self, ui: &mut Ui, session: &Session) {
        let ran = !session.master().auto_eval.rounds.is_empty();
        let check = ui.add_enabled(ran, egui::Checkbox::new(&mut self.needing_human, "Only those needing a human"));
        check
            .on_hover_text("Only candidates the latest automatic reference match did not settle")
            .on_disabled_hover_text("Run the automatic reference match first (Evaluate menu)");
        ui.add_space(12.0);
    }

    fn corpus_filter(&mut self, ui: &mut Ui, session: &Session) {
        let master = session.master();
        let name = |c: Option<CorpusId>| {
            c.and_then(|c| master.corpus(c)).map_or("all translations".to_owned(), |c| c.name.clone())
        };
        let combo = egui::ComboBox::from_id_salt("corpus filter").selected_text(name(self.corpus)).show_ui(ui, |ui| {
            ui.selectable_value(&mut self.corpus, None, name(None));
            for corpus in master.translations() {
                ui.selectable_value(&mut self.corpus, Some(corpus.id), &corpus.name);
            }
        });
        combo.response.accessible_name("Translation corpus");
        ui.label("Translation:");
    }
}

fn function_title(function: &str) -> String {
    use protest::model::function::*;
    match function {
        ANAPHORIC => "ANAPHORIC".into(),
        EVENT => "EVENT REFERENCE".into(),
        PLEONASTIC => "PLEONASTIC".into(),
        ADDRESSEE => "ADDRESSEE REFERENCE".into(),
        other => other.to_uppercase(),
    }
}

/// One category with its clickable counts.
fn category_row(ui: &mut Ui, row: &CategoryRow, order: &[CandidateId]) -> Option<Opening> {
    let mut opening = None;
    ui.label(RichText::new(&row.title).size(16.0)).on_hover_text(&row.category);
    let all = row.all(order);
    let sets: [(&str, &[CandidateId]); 4] =
        [("new", &row.new), ("done", &row.done), ("conflict", &row.conflict), ("all", &all)];
    for (kind, set) in sets {
        let text = RichText::new(set.len().to_string()).size(16.0);
        let text = if kind == "conflict" && !set.is_empty() { text.color(ui.visuals().warn_fg_color) } else { text };
        let button = ui.add_enabled(!set.is_empty(), egui::Button::new(text).min_size(egui::vec2(52.0, 26.0)));
        let button = button.accessible_name(format!("{}: {} {kind}", row.title, set.len()));
        if button.on_hover_text(format!("Open the {kind} examples of this category")).clicked() {
            opening = Some(Opening { title: format!("{} — {kind}", row.title), set: set.to_vec(), start: 0 });
        }
    }
    opening
}
