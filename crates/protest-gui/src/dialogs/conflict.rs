//! The conflict dialog (docs/domain.md, "Conflict rules"): shown when leaving an example whose
//! annotation fails rules; lists every failed rule in plain words and offers *Amend* (stay) or
//! *Keep as is* (move on).

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::parts::{self, Part, Reply, Side};
use crate::intent::Intent;
use crate::keys::{self, Scope};
use crate::panels::annotation;
use crate::panels::translation::TRANSLATION_WIDTH;
use egui::RichText;
use protest::model::Conflict;
use protest::session::Session;

/// The failed rules of the record being left (the app keeps where the annotator was going).
pub struct ConflictDialog {
    pub conflicts: Vec<Conflict>,
}

/// Answers with [`Intent::Amend`] or [`Intent::KeepAsIs`] once the annotator chose. It opens at
/// the right, over the annotation panel, beside the translation it asks about.
impl Dialog for ConflictDialog {
    type Done = ();

    fn frame(&self, ctx: &egui::Context) -> Frame {
        // Over the annotation panel and no wider: the translation beside it (its pronoun, the
        // tokens the rules are about) stays in view, however wide the window or the panel.
        let room = match annotation::place(ctx) {
            Some(panel) => panel.width() - parts::EDGE - 2.0 * f32::from(parts::MARGIN) - 4.0,
            None => ctx.content_rect().width() - TRANSLATION_WIDTH - 60.0,
        };
        Frame { id: "conflict dialog", width: room.clamp(240.0, 480.0), side: Side::Right, beside: true }
    }

    fn ui(&mut self, ui: &mut egui::Ui, part: Part, _: Option<&mut Session>) -> Reply<()> {
        let mut choice = None;
        match part {
            Part::Body => {
                choice = ui
                    .ctx()
                    .input_mut(|i| keys::read(i, Scope::Conflict))
                    .filter(|intent| matches!(intent, Intent::Amend | Intent::KeepAsIs));
                self.body(ui);
            }
            Part::Buttons => {
                ui.horizontal_wrapped(|ui| {
                    let amend = egui::Button::new(RichText::new("Amend").strong()).shortcut_text("A");
                    let amend = ui.add(amend).accessible_name("Amend");
                    if amend.on_hover_text("Stay on this example (A or Esc)").clicked() {
                        choice = Some(Intent::Amend);
                    }
                    let keep = egui::Button::new("Keep as is").shortcut_text("K");
                    let keep = ui.add(keep).accessible_name("Keep as is");
                    if keep.on_hover_text("Store it with these conflicts and move on (K)").clicked() {
                        choice = Some(Intent::KeepAsIs);
                    }
                });
            }
        }
        choice.map_or(Reply::Stay, Reply::Then)
    }

    /// A click beside the dialog: stay, the safe choice.
    fn dismissed(&mut self) -> Reply<()> {
        Reply::Then(Intent::Amend)
    }
}

impl ConflictDialog {
    fn body(&self, ui: &mut egui::Ui) {
        ui.heading("Check this annotation");
        ui.add_space(4.0);
        ui.label("Before you leave this example: the annotation does not follow these rules of the guidelines.");
        ui.add_space(6.0);
        for c in &self.conflicts {
            ui.horizontal_top(|ui| {
                ui.label(RichText::new(format!("Rule {}", c.number())).strong());
                ui.add(egui::Label::new(c.describe()).wrap());
            });
        }
        ui.add_space(10.0);
        ui.label(
            RichText::new("Keep it as is if the guidelines do not fit this example; say why in the remarks.").weak(),
        );
    }
}
