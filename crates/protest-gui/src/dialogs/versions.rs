//! Two versions of one record (docs/serve.md, "Two versions of one example"): a change the
//! server did not store because the record had changed since the change was made — in another
//! tab, or by a closed tab's change sent late. Shown beside the example, it puts the version
//! saved on the server next to the annotator's and asks which to keep; keeping the annotator's is
//! a new change, made on the saved one. Nothing is replaced unasked, and it does not go away
//! without an answer. [`compare`] draws the two versions for the recovery dialog too.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::parts::{Part, Reply, Side};
use crate::intent::Intent;
use crate::keys::{self, Scope};
use crate::panels::translation::TRANSLATION_WIDTH;
use egui::{RichText, Ui};
use protest::model::{Master, Record};
use protest::session::Session;
use protest::session::recovery;
use protest::store::based::{Disagreement, Keep};

/// The record of the page that the server has in another version.
pub struct VersionsDialog {
    pub disagreement: Disagreement,
    /// "Example 8", as the page numbers it.
    example: String,
}

impl VersionsDialog {
    pub fn new(disagreement: Disagreement, master: &Master) -> VersionsDialog {
        let example = master
            .candidate(disagreement.candidate)
            .map_or("This example".to_owned(), |c| format!("Example {}", c.example));
        VersionsDialog { disagreement, example }
    }
}

impl Dialog for VersionsDialog {
    type Done = ();

    fn frame(&self, ctx: &egui::Context) -> Frame {
        // Beside the translation, as the conflict dialog is (views.rs keeps its width).
        let width = (ctx.content_rect().width() - TRANSLATION_WIDTH - 60.0).clamp(280.0, 520.0);
        Frame { id: "versions dialog", width, side: Side::Right, beside: false }
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, _: Option<&mut Session>) -> Reply<()> {
        let mut choice = None;
        match part {
            Part::Body => {
                choice = ui.ctx().input_mut(|i| keys::read(i, Scope::Versions)).and_then(|intent| match intent {
                    Intent::ChooseVersion(keep) => Some(keep),
                    _ => None,
                });
                ui.heading(format!("{}: two versions", self.example));
                ui.add_space(4.0);
                ui.add(
                    egui::Label::new(
                        "Your change to this example was not saved: the server has a version of it made since \
                         that change (in another tab, or kept in this browser from an earlier visit). Which one \
                         should stay?",
                    )
                    .wrap(),
                );
                ui.add_space(6.0);
                compare(ui, &self.disagreement, ["Saved on the server", "Yours, in this browser"]);
            }
            Part::Buttons => {
                ui.horizontal_wrapped(|ui| {
                    let mine = egui::Button::new(RichText::new("Keep yours").strong()).shortcut_text("M");
                    let mine = ui.add(mine).accessible_name("Keep yours");
                    if mine.on_hover_text("Save your version in place of the server's (M)").clicked() {
                        choice = Some(Keep::Proposed);
                    }
                    let saved = egui::Button::new("Keep the saved one").shortcut_text("S");
                    let saved = ui.add(saved).accessible_name("Keep the saved one");
                    if saved.on_hover_text("Keep the server's version; yours is let go (S)").clicked() {
                        choice = Some(Keep::Stored);
                    }
                });
            }
        }
        match choice {
            Some(keep) => Reply::Then(Intent::KeepVersion(Box::new(self.disagreement.clone()), keep)),
            None => Reply::Stay,
        }
    }

    /// Esc or a click beside it: it stays until one version is chosen.
    fn dismissed(&mut self) -> Reply<()> {
        Reply::Stay
    }
}

/// The stored and the proposed version of a record side by side, under `titles`.
pub fn compare(ui: &mut Ui, d: &Disagreement, titles: [&str; 2]) {
    ui.columns(2, |columns| {
        for ((ui, title), record) in columns.iter_mut().zip(titles).zip([&d.stored, &d.proposed]) {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(RichText::new(title).strong());
                for line in lines(record.as_ref()) {
                    ui.add(egui::Label::new(line).wrap());
                }
            });
        }
    });
}

/// A version in words, a line each: the judgements, tags, remarks (all of them), tokens and when
/// it was made.
pub fn lines(record: Option<&Record>) -> Vec<String> {
    let Some(r) = record else { return vec!["no annotation".into()] };
    let mut lines = recovery::in_words(r, None);
    let tokens = r.selected.pronoun.len() + r.selected.antecedent.len();
    if tokens > 0 {
        lines.push(format!("tokens selected: {tokens}"));
    }
    lines.push(format!("changed {}", r.modified.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S")));
    lines
}
