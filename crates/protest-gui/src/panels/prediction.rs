//! The prediction results view (File › Open prediction results…): a system's official scores and
//! confusion matrix with per-class precision, recall and F1; a click on a cell (or ↑ / ↓) lists
//! its examples, each shown as the translation window shows one — the source with the pronoun
//! highlighted, the target with the placeholder showing the gold and the predicted class, the
//! document's lines before and after — with ← / → through the list and a system switch ([ / ]).

use crate::panels::translation;
use crate::style::{self, Palette};
use egui::{Color32, RichText, Ui};
use protest::annotate::Direction;
use protest::annotate::window::{Marks, Sentence, Token};
use protest::model::TokenRef;
use protest::prediction::browse::{Item, Results};

/// Lines of the document shown before and after an example.
const CONTEXT: usize = 2;

pub struct PredictionView {
    results: Results,
    system: usize,
    /// The cell chosen: (gold class, predicted class) of the official evaluation.
    cell: Option<(usize, usize)>,
    /// The cell's examples, and the one shown.
    items: Vec<Item>,
    index: usize,
}

impl PredictionView {
    /// The results with the first system's first error chosen (its largest cell off the diagonal).
    pub fn new(results: Results) -> PredictionView {
        let mut view = PredictionView { results, system: 0, cell: None, items: Vec::new(), index: 0 };
        view.choose_first_error();
        view
    }

    #[cfg(test)]
    pub fn results(&self) -> &Results {
        &self.results
    }

    #[cfg(test)]
    pub fn system(&self) -> usize {
        self.system
    }

    #[cfg(test)]
    pub fn cell(&self) -> Option<(usize, usize)> {
        self.cell
    }

    /// The example shown, if a cell with examples is chosen.
    pub fn current(&self) -> Option<Item> {
        self.items.get(self.index).copied()
    }

    pub fn choose_cell(&mut self, gold: usize, predicted: usize) {
        self.cell = Some((gold, predicted));
        self.items = self.results.cell(self.system, gold, predicted);
        self.index = 0;
    }

    /// The previous or next example of the cell (staying at the ends).
    pub fn step(&mut self, way: Direction) {
        self.index = match way {
            Direction::Forward => (self.index + 1).min(self.items.len().saturating_sub(1)),
            Direction::Back => self.index.saturating_sub(1),
        };
    }

    /// The previous or next cell with examples: the errors row by row, then the diagonal.
    pub fn step_cell(&mut self, way: Direction) {
        let cells = self.cells_with_examples();
        if cells.is_empty() {
            return;
        }
        let at = self.cell.and_then(|c| cells.iter().position(|&x| x == c));
        let next = match (at, way) {
            (None, _) => 0,
            (Some(i), Direction::Forward) => (i + 1).min(cells.len() - 1),
            (Some(i), Direction::Back) => i.saturating_sub(1),
        };
        let (g, p) = cells[next];
        self.choose_cell(g, p);
    }

    /// The previous or next system.
    pub fn step_system(&mut self, way: Direction) {
        let n = self.results.systems.len();
        self.choose_system(match way {
            Direction::Forward => (self.system + 1).min(n - 1),
            Direction::Back => self.system.saturating_sub(1),
        });
    }

    /// Another system, on the same cell where it has examples there, else on its largest error.
    pub fn choose_system(&mut self, system: usize) {
        self.system = system.min(self.results.systems.len() - 1);
        if let Some((g, p)) = self.cell {
            self.choose_cell(g, p);
        }
        if self.items.is_empty() {
            self.choose_first_error();
        }
    }

    /// The cells with examples in key order: off the diagonal first, row by row, then the diagonal.
    fn cells_with_examples(&self) -> Vec<(usize, usize)> {
        let e = self.results.systems[self.system].scores.official_evaluation();
        let n = e.classes.len();
        let all = (0..n).flat_map(|g| (0..n).map(move |p| (g, p)));
        let (errors, right): (Vec<_>, Vec<_>) =
            all.filter(|&(g, p)| e.confusion.get(g, p) > 0).partition(|(g, p)| g != p);
        errors.into_iter().chain(right).collect()
    }

    fn choose_first_error(&mut self) {
        let e = self.results.systems[self.system].scores.official_evaluation();
        let n = e.classes.len();
        let largest = (0..n)
            .flat_map(|g| (0..n).map(move |p| (g, p)))
            .filter(|(g, p)| g != p)
            .max_by_key(|&(g, p)| (e.confusion.get(g, p), std::cmp::Reverse((g, p))))
            .filter(|&(g, p)| e.confusion.get(g, p) > 0);
        match largest {
            Some((g, p)) => self.choose_cell(g, p),
            None => {
                self.cell = None;
                self.items.clear();
            }
        }
    }

    pub fn ui(&mut self, ui: &mut Ui) {
        let task = self.results.task;
        ui.horizontal(|ui| {
            ui.heading("Prediction results");
            ui.label(RichText::new(format!("{} scorer, {}", task.scorer, task.pair)).weak());
        });
        ui.label(RichText::new(format!("Gold: {}", self.results.gold.path.display())).small().weak());
        if let Some(problem) = &self.results.gold.documents_problem {
            let text = format!("Documents not known ({problem}): the lines around an example are the file's.");
            ui.label(RichText::new(text).small().color(ui.visuals().warn_fg_color));
        }
        ui.add_space(4.0);
        self.systems_ui(ui);
        ui.add_space(4.0);
        // The matrix on the left, the chosen cell's example beside it: both in view at once, the
        // example keeping a third of a narrow window.
        let width = ui.available_width();
        let widest = (width - (width / 3.0).max(240.0)).max(240.0);
        let panel = egui::Panel::left("confusion matrix").resizable(true).default_size(widest.min(840.0));
        panel.size_range(240.0..=widest).show(ui, |ui| {
            style::visible_scroll_bars(ui);
            egui::ScrollArea::both().id_salt("matrix").auto_shrink([false, false]).show(ui, |ui| self.matrix_ui(ui));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            style::visible_scroll_bars(ui);
            egui::ScrollArea::vertical().id_salt("example").auto_shrink([false, false]).show(ui, |ui| {
                self.example_ui(ui);
            });
        });
    }

    /// Every system with its official score and accuracy; the chosen one highlighted.
    fn systems_ui(&mut self, ui: &mut Ui) {
        let mut chosen = None;
        let measure = self.results.task.scorer.official_measure();
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("System").strong());
            for (i, system) in self.results.systems.iter().enumerate() {
                let name = system.path.file_name().map_or(system.name.clone(), |n| n.to_string_lossy().into_owned());
                let text = format!("{name}  {:.2}%", system.scores.official());
                let hover = format!(
                    "{}\n{measure}: {:.2}%, accuracy {:.2}%",
                    system.name,
                    system.scores.official(),
                    system.scores.accuracy()
                );
                if ui.selectable_label(i == self.system, text).on_hover_text(hover).clicked() {
                    chosen = Some(i);
                }
            }
            if self.results.systems.len() > 1 {
                ui.label(RichText::new("[ / ] switch").small().weak());
            }
        });
        if let Some(i) = chosen {
            self.choose_system(i);
        }
        let scores = &self.results.systems[self.system].scores;
        let e = scores.official_evaluation();
        ui.label(format!(
            "Official score ({measure}): {:.2}%   accuracy {:.2}%   macro P {:.2}%  R {:.2}%  F1 {:.2}%   ({} placeholders)",
            scores.official(),
            scores.accuracy(),
            e.macro_.precision,
            e.macro_.recall,
            e.macro_.f1,
            e.confusion.total()
        ));
    }

    /// The confusion matrix (rows gold, columns predicted) with sums and each class's P / R / F1;
    /// a cell with examples is a button.
    fn matrix_ui(&mut self, ui: &mut Ui) {
        let e = self.results.systems[self.system].scores.official_evaluation().clone();
        let n = e.classes.len();
        let mut clicked = None;
        ui.label(RichText::new("Confusion matrix: rows the gold class, columns the predicted class").strong());
        egui::Grid::new("confusion matrix").spacing([10.0, 4.0]).min_col_width(40.0).show(ui, |ui| {
            ui.label(RichText::new("gold \\ predicted").small().weak());
            for c in e.classes.classes {
                ui.label(RichText::new(*c).strong());
            }
            for header in ["Σ", "P", "R", "F1"] {
                ui.label(RichText::new(header).strong());
            }
            ui.end_row();
            for (g, class) in e.classes.classes.iter().enumerate() {
                ui.label(RichText::new(*class).strong());
                for p in 0..n {
                    let count = e.confusion.get(g, p);
                    let chosen = self.cell == Some((g, p));
                    let mut text = RichText::new(count.to_string());
                    if g == p && count > 0 {
                        text = text.color(right_colour(ui));
                    } else if count > 0 {
                        text = text.strong();
                    }
                    let button = egui::Button::selectable(chosen, text);
                    let name = format!("gold {class}, predicted {}: {count}", e.classes.classes[p]);
                    let response = ui.add_enabled(count > 0, button).on_hover_text(&name).accessible_name(name);
                    if response.clicked() {
                        clicked = Some((g, p));
                    }
                }
                let s = &e.per_class[g];
                ui.label(e.confusion.gold(g).to_string());
                for value in [s.precision, s.recall, s.f1] {
                    ui.label(format!("{value:.2}"));
                }
                ui.end_row();
            }
            ui.label(RichText::new("Σ").strong());
            for p in 0..n {
                ui.label(e.confusion.predicted(p).to_string());
            }
            ui.label(e.confusion.total().to_string());
            ui.end_row();
        });
        if e.averaged.len() < n {
            ui.label(RichText::new("Macro averages over the classes present in the gold.").small().weak());
        }
        if let Some((g, p)) = clicked {
            self.choose_cell(g, p);
        }
    }

    /// The chosen cell's example, as the translation window shows one.
    fn example_ui(&mut self, ui: &mut Ui) {
        let classes = self.results.task.classes();
        let Some((g, p)) = self.cell else {
            ui.label("No errors: every placeholder was predicted right. Click a cell to see its examples.");
            return;
        };
        let Some(item) = self.current() else { return };
        let mut step = None;
        // Wrapped: in a narrow window the buttons go under the words rather than past the edge
        // (and the text below keeps the width of the view).
        ui.horizontal_wrapped(|ui| {
            let what = if g == p { "right" } else { "wrong" };
            ui.label(
                RichText::new(format!("Gold {}, predicted {} ({what})", classes.classes[g], classes.classes[p]))
                    .strong(),
            );
            if ui
                .add_enabled(self.index > 0, egui::Button::new("‹"))
                .on_hover_text("Previous example (Left key)")
                .clicked()
            {
                step = Some(Direction::Back);
            }
            ui.label(format!("{} of {}", self.index + 1, self.items.len()));
            let more = self.index + 1 < self.items.len();
            if ui.add_enabled(more, egui::Button::new("›")).on_hover_text("Next example (Right key)").clicked() {
                step = Some(Direction::Forward);
            }
        });
        if let Some(way) = step {
            self.step(way);
        }
        let item = self.current().unwrap_or(item);
        let example = self.results.example(item, CONTEXT);
        let (gold, predicted) = self.results.labels(self.system, item);
        let document = example.document.map_or(String::new(), |d| format!(", document {d}"));
        ui.label(RichText::new(format!("Line {}{document}", example.line + 1)).small().weak());
        ui.add_space(4.0);
        for (source, target) in &example.before {
            context_ui(ui, source, target);
        }
        let languages = self.results.task.pair.code().split_once('-').unwrap_or(("src", "tgt"));
        let placeholder = format!("{gold} › {predicted}");
        let mut target = example.target.clone();
        target[example.placeholder] = &placeholder;
        ui.group(|ui| {
            translation::sentence(
                ui,
                languages.0,
                &marked(example.line, &example.source, |i| example.pronoun.contains(&i)),
            );
            translation::sentence(ui, languages.1, &marked(example.line, &target, |i| i == example.placeholder));
            let right = gold == predicted || classes.class_of(gold) == classes.class_of(predicted);
            let verdict = if right { "right" } else { "wrong" };
            let colour = if right { right_colour(ui) } else { ui.visuals().error_fg_color };
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("gold {gold}, predicted {predicted}: {verdict}")).color(colour));
                if let Some(word) = example.removed {
                    ui.label(RichText::new(format!("(the translation had “{word}”)")).weak());
                }
            });
        });
        for (source, target) in &example.after {
            context_ui(ui, source, target);
        }
    }
}

/// A sentence of `texts` with the tokens `pronoun` says highlighted as the pronoun.
fn marked<'a>(line: usize, texts: &[&'a str], pronoun: impl Fn(usize) -> bool) -> Sentence<'a> {
    let tokens = texts
        .iter()
        .enumerate()
        .map(|(i, text)| Token {
            text,
            at: TokenRef::new(line as u32, i as u32),
            marks: Marks { pronoun: pronoun(i), ..Marks::default() },
        })
        .collect();
    Sentence { index: line as u32, tokens }
}

/// A line of the document around the example, dimmed.
fn context_ui(ui: &mut Ui, source: &str, target: &str) {
    let palette = Palette::of(ui.visuals());
    let dim = palette.text.gamma_multiply(0.6);
    ui.label(RichText::new(source).size(style::TEXT_SIZE - 2.0).color(dim));
    ui.label(RichText::new(target).size(style::TEXT_SIZE - 2.0).color(dim));
    ui.add_space(4.0);
}

fn right_colour(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode { Color32::from_rgb(0x8F, 0xD1, 0x9E) } else { Color32::from_rgb(0x1E, 0x6B, 0x30) }
}
