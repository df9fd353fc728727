//! File › Open prediction results…: a gold file and one or more prediction files of the pronoun
//! prediction task, the scorer and the language pair. They are read and scored off the UI
//! thread as the official scorer does (a refusal names the file and line); the results open in
//! the prediction results view.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::dialogs::path_field::{PathField, Pick};
use crate::intent::Intent;
use egui::{RichText, Ui};
use protest::prediction::browse::Results;
use protest::prediction::{Macro, Pair, Scorer, kind};
use protest::session::Session;
use protest::shell::Shell;

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    /// A gold file and prediction files of the pronoun prediction task, to browse their errors.
    pub fn prediction_results() -> Opener {
        Opener::new("Open prediction results…", Allowed::NoBatch, |_| Some(PredictionDialog::new())).hint(
            "A pronoun prediction gold file and systems' predictions: the official scores, the confusion matrix, \
             and each error in its sentence",
        )
    }
}

const DATA: &[(&str, &[&str])] = &[("Task data files", &["data", "gz", "txt", "pred"])];

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 720.0;

pub struct PredictionDialog {
    gold: PathField,
    predictions: PathField,
    /// `None`: the one the gold file's layout says (`prediction::kind`).
    scorer: Option<Scorer>,
    /// `None`: the one the gold file's name says.
    pair: Option<Pair>,
    averaging: Macro,
    problem: Option<String>,
    /// The results read, to be shown once the dialog closes.
    loaded: Option<Results>,
}

impl PredictionDialog {
    pub fn new() -> PredictionDialog {
        let mut gold = PathField::default();
        gold.request_focus();
        PredictionDialog {
            gold,
            predictions: PathField::default(),
            scorer: None,
            pair: None,
            averaging: Macro::All,
            problem: None,
            loaded: None,
        }
    }
}

impl Dialog for PredictionDialog {
    type Done = Result<Results, String>;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, _: Option<&mut Session>) -> Reply<Result<Results, String>> {
        if let Some(results) = self.loaded.take() {
            return Reply::Then(Intent::ShowPredictions(Box::new(results)));
        }
        match part {
            Part::Body => {
                self.body(ui);
                Reply::Stay
            }
            Part::Buttons => {
                let reply = parts::buttons(ui, |ui| {
                    if ui.button(RichText::new("Open").strong()).clicked() {
                        match self.request() {
                            Ok(work) => return Reply::Work(work),
                            Err(problem) => self.problem = Some(problem),
                        }
                    }
                    if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
                });
                parts::problem(ui, self.problem.as_deref());
                reply
            }
        }
    }

    fn done(&mut self, loaded: Result<Results, String>) {
        match loaded {
            Ok(results) => self.loaded = Some(results),
            Err(e) => self.problem = Some(e),
        }
    }
}

impl PredictionDialog {
    fn body(&mut self, ui: &mut Ui) {
        parts::title(ui, "Open prediction results");
        ui.label(
            "The task's gold file (its .doc-ids beside it gives each example its document) and the systems' \
             prediction files, scored as the official scorer does.",
        );
        ui.add_space(8.0);
        let mut changed = self.gold.ui(ui, "Gold file", Pick::File(DATA));
        ui.add_space(4.0);
        changed |= self.predictions.ui(ui, "Prediction files (one per line)", Pick::Files(DATA));
        if changed {
            self.problem = None;
        }
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Scorer").strong());
            ui.radio_value(&mut self.scorer, None, "as the data is").on_hover_text(
                "discomt2015 for English–French tokenised text, wmt16 for lemmatised text and other pairs",
            );
            for scorer in Scorer::ALL {
                ui.radio_value(&mut self.scorer, Some(scorer), scorer.name());
            }
            ui.separator();
            ui.label(RichText::new("Pair").strong());
            let shown = self.pair.map_or("from the file name".to_owned(), |p| p.code().to_owned());
            let combo = egui::ComboBox::from_id_salt("pair").selected_text(shown).show_ui(ui, |ui| {
                ui.selectable_value(&mut self.pair, None, "from the file name");
                for pair in Pair::ALL {
                    ui.selectable_value(&mut self.pair, Some(pair), pair.code());
                }
            });
            combo.response.accessible_name("Language pair");
            ui.separator();
            ui.label(RichText::new("Macro average over").strong());
            ui.radio_value(&mut self.averaging, Macro::All, "all classes");
            ui.radio_value(&mut self.averaging, Macro::Present, "classes in the gold");
        });
    }

    /// The reading and scoring to run, or what is missing.
    fn request(&self) -> Result<Job<Result<Results, String>>, String> {
        let gold = self.gold.path().ok_or("Type or choose the gold file.")?;
        let predictions = self.predictions.paths();
        if predictions.is_empty() {
            return Err("Type or choose at least one prediction file.".into());
        }
        let (scorer, pair, averaging) = (self.scorer, self.pair, self.averaging);
        Ok(Job::any("Scoring the predictions", move |_| {
            let task = kind::task_of_file(&gold, scorer, pair, Shell::Window).map_err(|e| e.to_string())?;
            Results::load(task, averaging, &gold, &predictions).map_err(|e| e.to_string())
        }))
    }
}
