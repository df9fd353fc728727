//! The overview panel (researcher mode, paper 001 Fig. 3): everyone's judgements of the
//! candidate in a table, a tag × annotator table, all remarks headed by annotator, buttons
//! stepping through the annotators to show each one's selected tokens in the translation window,
//! and the researcher's own tags.

use crate::dialogs::Opener;
use crate::intent::Intent;
use crate::panels::tag_box::TagBox;
use egui::{Color32, RichText, Ui};
use protest::annotate::Direction;
use protest::annotate::overview::{self, Overview};
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Role};
use protest::session::Session;

/// What the right-hand side of the translation window shows (researcher mode).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Side {
    /// The annotation panel, for the annotator chosen in the menu bar.
    #[default]
    Annotate,
    /// Everyone's annotations.
    Overview,
}

impl Side {
    pub fn toggled(self) -> Side {
        match self {
            Side::Annotate => Side::Overview,
            Side::Overview => Side::Annotate,
        }
    }
}

/// The "Annotate | Overview" switch above the panel.
pub fn side_switch(ui: &mut Ui, side: &mut Side) {
    ui.horizontal(|ui| {
        ui.selectable_value(side, Side::Annotate, RichText::new("Annotate").strong())
            .on_hover_text("Annotate as the annotator chosen in the menu bar (O switches)");
        ui.selectable_value(side, Side::Overview, RichText::new("Overview").strong())
            .on_hover_text("Everyone's judgements, tags, remarks and selections (O switches)");
        ui.label(RichText::new("key O").small().weak());
    });
    ui.separator();
}

/// Above the translation: whose selections it shows, wrapped to the translation's width (a row
/// wider than that would widen the translation past the panel beside it, cutting every line).
pub fn whose_tokens(ui: &mut Ui, name: Option<String>) {
    ui.horizontal_wrapped(|ui| match name {
        Some(name) => {
            ui.label("Showing the tokens selected by");
            ui.label(RichText::new(name).strong());
            ui.label(RichText::new("(◀ ▶ in the overview, or the [ and ] keys, show the others')").small().weak());
        }
        None => {
            ui.label(RichText::new("Nobody has annotated this translation yet.").weak());
        }
    });
    ui.add_space(4.0);
}

#[derive(Default)]
pub struct OverviewPanel {
    /// Whose selected tokens the translation window shows.
    shown: Option<AnnotatorId>,
    tags: TagBox,
}

impl OverviewPanel {
    /// The annotator whose selections the translation window shows: the one chosen, while they
    /// have a record of this candidate, else the first who has one.
    pub fn shown(&mut self, overview: &Overview) -> Option<AnnotatorId> {
        if self.shown.is_none_or(|a| !overview.annotators.contains(&a)) {
            self.shown = overview.annotators.first().copied();
        }
        self.shown
    }

    /// Shows the next (or previous) annotator's selections.
    pub fn step(&mut self, overview: &Overview, way: Direction) {
        self.shown = overview::step(&overview.annotators, self.shown(overview), way);
    }

    pub fn focus_tags(&mut self) {
        self.tags.request_focus();
    }

    /// Text typed in the researcher's tag box and not added, on leaving the example.
    pub fn take_typed_tag(&mut self) -> Option<(CandidateId, Result<String, protest::model::tags::TagProblem>)> {
        self.tags.take_typed()
    }

    /// The researcher's tag box, for its typed text ([`TagBox::due`], [`TagBox::typed`]).
    pub fn tag_box(&self) -> &TagBox {
        &self.tags
    }

    pub fn tag_box_mut(&mut self) -> &mut TagBox {
        &mut self.tags
    }

    pub fn ui(&mut self, ui: &mut Ui, session: &Session, overview: &Overview, editable: bool) -> Option<Intent> {
        let master = session.master();
        let mut action = None;
        let candidate = master.candidate(overview.candidate)?;
        let (example, category) = master.example_of(candidate)?;
        self.tags.show_for(overview.candidate);
        let name = |a: AnnotatorId| master.annotator_name(a);
        ui.label(RichText::new("Everyone's annotations of this translation").size(13.5).weak());
        ui.add_space(6.0);
        if overview.is_empty() {
            ui.label(RichText::new("Nobody has annotated this translation yet.").italics());
        } else {
            section(ui, "Judgements");
            judgements(ui, master, overview);
            ui.add_space(10.0);
            section(ui, "Selected tokens");
            if let Some(step) = self.stepper(ui, master, overview) {
                self.step(overview, step);
            }
            ui.add_space(10.0);
            if !overview.tags.is_empty() {
                section(ui, "Tags by annotator");
                tags(ui, master, overview);
                ui.add_space(10.0);
            }
            section(ui, "Remarks");
            if overview.remarks.is_empty() {
                ui.label(RichText::new("No remarks.").weak());
            }
            for (who, text) in &overview.remarks {
                ui.label(RichText::new(name(*who)).strong());
                ui.add(egui::Label::new(text).wrap());
                ui.add_space(4.0);
            }
            notes(ui, master, overview);
        }
        ui.add_space(12.0);
        ui.separator();
        ui.label(RichText::new("Your own tags, as the researcher").strong());
        ui.add_enabled_ui(editable, |ui| {
            let present = master.records.get(overview.candidate, AnnotatorId::RESEARCHER).map(|r| r.tags.clone());
            let suggestions = session.tag_suggestions(category);
            if let Some(edit) = self.tags.ui(ui, &suggestions, &present.unwrap_or_default()) {
                action = Some(Intent::ResearcherEdit(overview.candidate, edit));
            }
        });
        ui.add_space(12.0);
        let compare = ui.button(format!("Every translation of example {}", example.no));
        if compare.on_hover_text("All systems and the reference, side by side (Ctrl+G)").clicked() {
            action = Some(Intent::Dialog(Opener::compare(example.no)));
        }
        action
    }

    /// ◀ name ▶ and what that annotator selected; returns a step (forward or back).
    fn stepper(&mut self, ui: &mut Ui, master: &Master, overview: &Overview) -> Option<Direction> {
        let shown = self.shown(overview)?;
        let mut step = None;
        let n = overview.annotators.len();
        let at = overview.annotators.iter().position(|&a| a == shown).unwrap_or(0);
        ui.horizontal(|ui| {
            let back = ui.add_enabled(n > 1, egui::Button::new("◀")).accessible_name("Previous annotator's tokens");
            if back.on_hover_text("The previous annotator's selection ([)").clicked() {
                step = Some(Direction::Back);
            }
            let who = format!("{} ({} of {n})", master.annotator_name(shown), at + 1);
            ui.label(RichText::new(who).strong()).on_hover_text("Whose selected tokens the translation shows");
            let next = ui.add_enabled(n > 1, egui::Button::new("▶")).accessible_name("Next annotator's tokens");
            if next.on_hover_text("The next annotator's selection (])").clicked() {
                step = Some(Direction::Forward);
            }
        });
        if let Some(record) = master.records.get(overview.candidate, shown) {
            for row in &overview.judgements {
                let words = overview::selected_words(master, record, row.role);
                let words = if words.is_empty() { "none".to_owned() } else { words };
                ui.label(RichText::new(format!("{}: {words}", role_name(row.role))).size(13.5));
            }
        }
        step
    }
}

fn section(ui: &mut Ui, title: &str) {
    ui.label(RichText::new(title).strong());
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Antecedent => "Antecedent",
        Role::Pronoun => "Pronoun",
    }
}

/// ✓ ✗ ? per annotator, rows antecedent / pronoun; a row the annotators disagree on is marked.
fn judgements(ui: &mut Ui, master: &Master, overview: &Overview) {
    egui::Grid::new("overview judgements").striped(true).spacing([14.0, 6.0]).show(ui, |ui| {
        ui.label("");
        for &a in &overview.annotators {
            ui.label(RichText::new(master.annotator_name(a)).strong());
        }
        ui.end_row();
        for row in &overview.judgements {
            let disagree = overview.disagree(row.role);
            let label = RichText::new(role_name(row.role));
            let label = if disagree { label.color(ui.visuals().warn_fg_color) } else { label };
            let head = ui.label(label);
            if disagree {
                head.on_hover_text("The annotators do not agree");
            }
            for (cell, &who) in row.cells.iter().zip(&overview.annotators) {
                let mut text = symbol(cell.judgement).to_owned();
                if let Some(old) = &cell.legacy {
                    text.push_str(&format!(" ({old})"));
                }
                let name = format!("{} by {}: {text}", role_name(row.role), master.annotator_name(who));
                let shown = ui.label(RichText::new(&text).size(18.0).color(judgement_colour(ui, cell.judgement)));
                let shown = shown.accessible_name(&name);
                if cell.legacy.is_some() {
                    shown.on_hover_text("The original PROTEST tool's value, converted to ?");
                }
            }
            ui.end_row();
        }
    });
}

/// The paper's ✓ ✗ ?, drawn with the ✔ ✖ egui's fonts have (they lack U+2713 and U+2717).
pub fn symbol(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Yes => "✔",
        Judgement::No => "✖",
        Judgement::Unset => "?",
    }
}

pub fn judgement_colour(ui: &Ui, judgement: Judgement) -> Color32 {
    let dark = ui.visuals().dark_mode;
    match judgement {
        Judgement::Yes if dark => Color32::from_rgb(0x6C, 0xD0, 0x7A),
        Judgement::Yes => Color32::from_rgb(0x1E, 0x7D, 0x32),
        Judgement::No if dark => Color32::from_rgb(0xF0, 0x7A, 0x7A),
        Judgement::No => Color32::from_rgb(0xC6, 0x28, 0x28),
        Judgement::Unset => ui.visuals().weak_text_color(),
    }
}

/// Tag × annotator ticks.
fn tags(ui: &mut Ui, master: &Master, overview: &Overview) {
    egui::Grid::new("overview tags").striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
        ui.label("");
        for &a in &overview.annotators {
            ui.label(RichText::new(master.annotator_name(a)).strong());
        }
        ui.end_row();
        for row in &overview.tags {
            ui.label(&row.tag);
            for (&tick, &who) in row.ticks.iter().zip(&overview.annotators) {
                let text = if tick { "✔" } else { "" };
                let name =
                    format!("{} by {}: {}", row.tag, master.annotator_name(who), if tick { "yes" } else { "no" });
                ui.label(text).accessible_name(name);
            }
            ui.end_row();
        }
    });
}

/// Conflicts the annotators kept, and values from the original tool.
fn notes(ui: &mut Ui, master: &Master, overview: &Overview) {
    let kept: Vec<_> = overview.annotators.iter().zip(&overview.kept).filter(|(_, k)| !k.is_empty()).collect();
    if !kept.is_empty() {
        ui.add_space(6.0);
        section(ui, "Kept with conflicts");
        for (who, conflicts) in kept {
            for c in conflicts {
                ui.add(
                    egui::Label::new(format!(
                        "{}: rule {} — {}",
                        master.annotator_name(*who),
                        c.number(),
                        c.describe()
                    ))
                    .wrap(),
                );
            }
        }
    }
    if !overview.legacy.is_empty() {
        ui.add_space(6.0);
        section(ui, "From the original PROTEST tool");
        for (who, column, value) in &overview.legacy {
            ui.label(format!("{}: {column} = {value}", master.annotator_name(*who)));
        }
    }
}
