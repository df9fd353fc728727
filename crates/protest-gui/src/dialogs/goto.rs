//! Go to (Ctrl+G, researcher mode): a candidate by id, or an example by number showing every
//! translation of its pronoun stacked for comparison (`lookup`), each with everyone's
//! judgements; clicking one opens it in the translation window.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Part, Reply};
use crate::intent::Intent;
use crate::panels::overview;
use crate::panels::translation;
use egui::{Key, RichText, Ui};
use protest::annotate::lookup::{self, Comparison};
use protest::model::{CandidateId, ExampleNo, Judgement, Master};
use protest::session::Opening;
use protest::session::Session;

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    /// Go to an example or a candidate.
    pub fn go_to() -> Opener {
        Opener::new("Go to example or candidate…", Allowed::Researcher, |_| Some(GoToDialog::default()))
    }

    /// Every translation of an example, side by side.
    pub fn compare(no: ExampleNo) -> Opener {
        Opener::new("Compare translations", Allowed::AnyFile, move |_| Some(GoToDialog::on_example(no))).on(no)
    }
}

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 860.0;

#[derive(Default)]
pub struct GoToDialog {
    example: String,
    candidate: String,
    shown: Option<ExampleNo>,
    problem: Option<String>,
    focus: bool,
}

impl GoToDialog {
    pub fn on_example(no: ExampleNo) -> GoToDialog {
        GoToDialog { example: no.to_string(), shown: Some(no), ..GoToDialog::default() }
    }
}

impl Dialog for GoToDialog {
    type Done = ();

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<()> {
        let Some(session) = session else { return Reply::Close };
        match part {
            Part::Body => self.body(ui, session.master()),
            Part::Buttons => parts::close_only(ui),
        }
    }
}

impl GoToDialog {
    fn body(&mut self, ui: &mut Ui, master: &Master) -> Reply<()> {
        parts::title(ui, "Go to an example or a candidate");
        let mut reply = Reply::Stay;
        egui::Grid::new("go to").num_columns(3).spacing([10.0, 6.0]).show(ui, |ui| {
            let label = ui.label("Example number");
            let field =
                ui.add_sized([100.0, 24.0], egui::TextEdit::singleline(&mut self.example)).labelled_by(label.id);
            if !self.focus && !ui.is_sizing_pass() {
                field.request_focus();
                self.focus = true;
            }
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if enter {
                field.request_focus(); // another number can follow
            }
            if ui.button("Show every translation").clicked() || enter {
                match lookup::example(master, &self.example) {
                    Ok(no) => (self.shown, self.problem) = (Some(no), None),
                    Err(e) => self.problem = Some(format!("Example: {e}.")),
                }
            }
            ui.end_row();
            let label = ui.label("Candidate id");
            let field =
                ui.add_sized([100.0, 24.0], egui::TextEdit::singleline(&mut self.candidate)).labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if enter {
                field.request_focus(); // stays for a correction if the id is refused
            }
            if ui.button("Open the candidate").clicked() || enter {
                match lookup::candidate(master, &self.candidate) {
                    Ok(id) => reply = open(master, id),
                    Err(e) => self.problem = Some(format!("Candidate: {e}.")),
                }
            }
            ui.end_row();
        });
        parts::problem(ui, self.problem.as_deref());
        if let Some(comparison) = self.shown.and_then(|no| lookup::compare(master, no)) {
            ui.separator();
            if let Some(chosen) = compare(ui, master, &comparison) {
                reply = open(master, chosen);
            }
        }
        reply
    }
}

/// Opens a candidate among every translation of its example, so Prev / Next compare them.
fn open(master: &Master, id: CandidateId) -> Reply<()> {
    let Some(no) = master.candidate(id).map(|c| c.example) else { return Reply::Stay };
    let Some(comparison) = lookup::compare(master, no) else { return Reply::Stay };
    let set: Vec<CandidateId> = comparison.rows.iter().map(|r| r.candidate).collect();
    let start = set.iter().position(|&c| c == id).unwrap_or(0);
    Reply::Then(Intent::Walk(Opening { title: format!("Example {no} — every translation"), set, start }))
}

/// The source line, then one compact row per translation; returns the one clicked.
fn compare(ui: &mut Ui, master: &Master, c: &Comparison) -> Option<CandidateId> {
    let mut chosen = None;
    let category = master.example(c.example).and_then(|e| master.category(&e.category));
    ui.horizontal(|ui| {
        ui.heading(format!("Example {}", c.example));
        if let Some(category) = category {
            ui.label(RichText::new(category.title()).size(17.0));
        }
    });
    let languages = &master.languages;
    translation::sentence(ui, &languages.source, &c.source);
    if !c.antecedent_elsewhere.is_empty() {
        ui.label(
            RichText::new(format!("antecedent head, earlier: {}", c.antecedent_elsewhere.join(", "))).small().weak(),
        );
    }
    ui.add_space(6.0);
    for row in &c.rows {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                let open = ui.button(RichText::new(&row.corpus.name).strong());
                let open = open.accessible_name(format!("Open the translation by {}", row.corpus.name));
                if open.on_hover_text("Open it in the translation window").clicked() {
                    chosen = Some(row.candidate);
                }
                ui.label(RichText::new(format!("candidate {}", row.candidate)).small().weak());
                let anaphoric = category.is_some_and(|k| k.anaphoric);
                for (who, antecedent, pronoun) in &row.judgements {
                    ui.separator();
                    ui.label(format!("{}:", master.annotator_name(*who)));
                    let mut judged = |role: &str, j: Judgement| {
                        ui.label(RichText::new(role).small().weak());
                        let mark = RichText::new(overview::symbol(j)).strong();
                        ui.label(mark.color(overview::judgement_colour(ui, j)));
                    };
                    if anaphoric {
                        judged("antecedent", *antecedent);
                    }
                    judged("pronoun", *pronoun);
                }
            });
            translation::sentence(ui, &languages.target, &row.sentence);
            if !row.antecedent_elsewhere.is_empty() {
                let words = row.antecedent_elsewhere.join(", ");
                ui.label(RichText::new(format!("antecedent head, earlier: {words}")).small().weak());
            }
        });
    }
    chosen
}
