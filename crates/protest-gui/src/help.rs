//! The help window: the keys and the annotation guidelines (guidelines/annotation-guidelines.md).

use crate::keys::BINDINGS;
use egui::{RichText, Ui};
use egui_commonmark::{CommonMarkCache, CommonMarkViewer};

pub const GUIDELINES: &str = include_str!("../../../guidelines/annotation-guidelines.md");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Tab {
    #[default]
    Keys,
    Guidelines,
}

#[derive(Default)]
pub struct Help {
    pub open: bool,
    tab: Tab,
    markdown: CommonMarkCache,
}

impl Help {
    pub fn toggle(&mut self) {
        self.open = !self.open;
    }

    /// `researcher`: a master is open in researcher mode (else its keys are not listed).
    pub fn show(&mut self, ctx: &egui::Context, researcher: bool) {
        let mut open = self.open;
        // Never larger than the window, whatever size it was left at.
        let window = ctx.content_rect();
        let most = window.size() - egui::vec2(40.0, 60.0);
        let size = egui::vec2(680.0, 640.0).min(most);
        egui::Window::new("Help")
            .open(&mut open)
            .default_size(size)
            .max_size(most)
            .default_pos(window.center() - size / 2.0)
            .resizable(true)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.tab, Tab::Keys, "Keys");
                    ui.selectable_value(&mut self.tab, Tab::Guidelines, "Annotation guidelines");
                });
                ui.separator();
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| match self.tab {
                    Tab::Keys => keys(ui, researcher),
                    Tab::Guidelines => {
                        CommonMarkViewer::new().show(ui, &mut self.markdown, GUIDELINES);
                    }
                });
            });
        self.open = open;
    }
}

fn keys(ui: &mut Ui, researcher: bool) {
    ui.label("Keys do nothing while you type in a text field; Esc leaves the field.");
    ui.add_space(6.0);
    egui::Grid::new("keys").striped(true).num_columns(2).spacing([24.0, 6.0]).show(ui, |ui| {
        for b in BINDINGS.iter().filter(|b| researcher || !b.researcher_only()) {
            ui.label(RichText::new(b.shown).monospace().strong());
            ui.add(egui::Label::new(b.help).wrap());
            ui.end_row();
        }
        ui.label(RichText::new("Tab / Space").monospace().strong());
        ui.label("move between buttons and fields / press the focused button");
        ui.end_row();
        ui.label(RichText::new("Ctrl + / Ctrl −").monospace().strong());
        ui.label("larger / smaller text");
        ui.end_row();
    });
    ui.add_space(10.0);
    ui.label(RichText::new("Mouse").strong());
    ui.label(
        "Click a count in the category browser to work through those examples. In the translation, click a \
         highlighted token to select or deselect it; a token aligned to both the pronoun and the antecedent head \
         asks which one you mean. Other tokens cannot be selected.",
    );
}
