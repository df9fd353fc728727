//! The conflict dialog (docs/domain.md, "Conflict rules"): shown when leaving an example whose
//! annotation fails rules; lists every failed rule in plain words and offers *Amend* (stay) or
//! *Keep as is* (move on).

use crate::dialogs::parts::{self, Part, Reply, Side};
use crate::intent::Intent;
use crate::keys::{self, Scope};
use egui::{Id, Modal, RichText};
use protest::model::Conflict;

/// The failed rules of the record being left (the app keeps where the annotator was going).
pub struct ConflictDialog {
    pub conflicts: Vec<Conflict>,
}

impl ConflictDialog {
    /// Answers with [`Intent::Amend`] or [`Intent::KeepAsIs`] once the annotator chose. It opens
    /// at the right, over the annotation panel, beside the translation it asks about.
    pub fn ui(&self, ctx: &egui::Context) -> Reply {
        let mut choice = ctx
            .input_mut(|i| keys::read(i, Scope::Conflict))
            .filter(|intent| matches!(intent, Intent::Amend | Intent::KeepAsIs));
        // The translation keeps the width it has beside the annotation panel (views.rs).
        let wanted = (ctx.content_rect().width() - crate::views::TRANSLATION_WIDTH - 60.0).clamp(280.0, 480.0);
        let modal =
            parts::dialog_on(ctx, Modal::new(Id::unique("conflict dialog")), wanted, Side::Right, |ui, part| {
                match part {
                    Part::Body => self.body(ui),
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
                Reply::Stay
            });
        if modal.should_close() && choice.is_none() {
            choice = Some(Intent::Amend); // a click beside the dialog: stay, the safe choice
        }
        choice.map_or(Reply::Stay, Reply::Then)
    }

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
