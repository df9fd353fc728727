//! The report view (researcher mode): the tables of `protest report` — annotation results,
//! agreement, per-system scores with a bar chart, the automatic reference match and the automatic
//! metric (APT) against the human judgements — computed by
//! the library from the open master when the view is shown and kept until the master changes.
//! Every table can be exported as the command line writes it.

use crate::dialogs::Opener;
use crate::intent::Intent;
use crate::panels::report_table;
use crate::panels::score_chart;
use egui::{Align, Layout, RichText, Ui};
use protest::metrics::auto_eval;
use protest::metrics::report::metrics::Judges;
use protest::metrics::report::scores::{self, ChartGroup, Scores};
use protest::metrics::report::{self, Section, TABLES, Table};
use protest::model::{AnnotatorId, Master, MatchRule};
use protest::session::Session;
use std::path::PathBuf;

/// The report as computed for one state of the master.
pub(crate) struct Computed {
    key: Key,
    /// Every table of `protest report`, in its order.
    tables: Vec<Table>,
    scores: Scores,
    groups: Vec<ChartGroup>,
}

/// A state of the open master (another file, another revision on disk or a change made here),
/// and whose judgements the APT tables are set against.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    path: PathBuf,
    id: String,
    revision: u64,
    changes: u64,
    judges: Judges,
}

impl Key {
    fn of(session: &Session, judges: Judges) -> Key {
        let master = session.master();
        Key {
            path: session.path().to_path_buf(),
            id: master.id.clone(),
            revision: master.revision,
            changes: session.changes(),
            judges,
        }
    }
}

#[derive(Default)]
pub struct ReportView {
    pub section: Section,
    /// The rule the next round of the automatic match compares by; `None`: the master's.
    pub rule: Option<MatchRule>,
    /// Whose judgements APT is set against (section Automatic metrics).
    pub judges: Judges,
    computed: Option<Computed>,
    /// How many times the report was computed (it must not be every frame).
    pub computations: u32,
}

impl ReportView {
    /// The tables as last computed (what an export writes).
    pub fn tables(&self) -> &[Table] {
        self.computed.as_ref().map_or(&[][..], |c| &c.tables[..])
    }

    /// Whether the report must be computed (again) for the session's master as it is now.
    pub(crate) fn stale(&mut self, session: &Session) -> bool {
        // An annotator removed since they were chosen: back to the verdict.
        if let Judges::Annotator(a) = self.judges
            && !a.is_researcher()
            && session.master().annotator(a).is_none()
        {
            self.judges = Judges::Verdicts;
        }
        let key = Key::of(session, self.judges);
        self.computed.as_ref().is_none_or(|c| c.key != key)
    }

    /// The report of the session's master, its APT tables set against `judges`: the work of
    /// [`ReportView::stale`] being true, done off the UI thread on a large master.
    pub(crate) fn compute(session: &Session, judges: Judges) -> Computed {
        let key = Key::of(session, judges);
        let master = session.master();
        let scores = scores::scores(master);
        Computed {
            key,
            tables: report::tables_judged_by(master, TABLES, judges),
            groups: scores.chart_groups(master),
            scores,
        }
    }

    /// Keeps the report just computed.
    pub(crate) fn set(&mut self, computed: Computed) {
        self.computed = Some(computed);
        self.computations += 1;
    }

    /// The report for the session's master as it is now, computed only if it changed.
    fn refresh(&mut self, session: &Session) -> &Computed {
        if self.stale(session) {
            self.set(ReportView::compute(session, self.judges));
        }
        self.computed.as_ref().expect("computed above")
    }

    pub fn ui(&mut self, ui: &mut Ui, session: &Session) -> Option<Intent> {
        let mut intent = self.header(ui, session);
        ui.separator();
        let section = self.section;
        let mut judges = self.judges;
        let mut rule = self.rule.unwrap_or(session.master().auto_eval.rule);
        let computed = self.refresh(session);
        // Tables use the width the window has, and scroll sideways (with a visible bar) beyond it.
        crate::style::visible_scroll_bars(ui);
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            match section {
                Section::AutoMatch => auto_match_intro(ui, session, &mut rule),
                Section::Metrics => metrics_intro(ui, session.master(), &mut judges),
                _ => {}
            }
            if section == Section::Scores {
                ui.label(
                    RichText::new(
                        "Scores: share of the decided examples translated correctly, with what is still undecided",
                    )
                    .strong()
                    .size(17.0),
                );
                score_chart::show(ui, &computed.scores, &computed.groups);
                ui.add_space(16.0);
            }
            for kind in section.tables() {
                let Some(table) = computed.tables.iter().find(|t| t.name == kind.name) else { continue };
                if let Some(export) = table_block(ui, table) {
                    intent = Some(export);
                }
            }
        });
        if rule != self.rule.unwrap_or(session.master().auto_eval.rule) {
            self.rule = Some(rule);
        }
        if judges != self.judges {
            // The tables follow on the next frame.
            self.judges = judges;
            ui.ctx().request_repaint();
        }
        intent
    }

    /// The title, the sections and the buttons: on one row when they fit, else the buttons on a
    /// row of their own (and the sections wrap), so none covers another.
    fn header(&mut self, ui: &mut Ui, session: &Session) -> Option<Intent> {
        let mut intent = None;
        let export = Intent::Dialog(Opener::export_tables(None));
        let run = Intent::RunAutoEval(self.rule);
        let buttons_width = button_widths(ui, [run.label(), export.label()].into_iter().flatten());
        let sections_width = button_widths(ui, Section::ALL.iter().map(|s| s.label())) + 120.0;
        let one_row = sections_width + buttons_width + 24.0 <= ui.available_width();
        let buttons = |ui: &mut Ui, intent: &mut Option<Intent>| {
            let hint = export.hint().unwrap_or_default();
            if ui.button(export.label().unwrap_or_default()).on_hover_text(hint).clicked() {
                *intent = Some(export.clone());
            }
            if run_button(ui, session) {
                *intent = Some(run.clone());
            }
        };
        ui.horizontal_wrapped(|ui| {
            ui.heading("Report");
            ui.add_space(12.0);
            for section in Section::ALL {
                ui.selectable_value(&mut self.section, section, section.label());
            }
            if one_row {
                ui.with_layout(Layout::right_to_left(Align::Center), |ui| buttons(ui, &mut intent));
            }
        });
        if !one_row {
            ui.horizontal(|ui| ui.with_layout(Layout::right_to_left(Align::Center), |ui| buttons(ui, &mut intent)));
        }
        intent
    }
}

/// How wide a row of buttons with these labels is.
fn button_widths<'a>(ui: &Ui, labels: impl Iterator<Item = &'a str>) -> f32 {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let padding = 2.0 * ui.spacing().button_padding.x + ui.spacing().item_spacing.x;
    labels
        .map(|label| {
            ui.fonts_mut(|f| f.layout_no_wrap(label.to_owned(), font.clone(), egui::Color32::PLACEHOLDER).size().x)
        })
        .map(|w| w + padding)
        .sum()
}

/// The button that runs a round of the automatic evaluation.
pub fn run_button(ui: &mut Ui, session: &Session) -> bool {
    let run = Intent::RunAutoEval(None);
    let button = ui.add_enabled(!session.is_read_only(), egui::Button::new(run.label().unwrap_or_default()));
    button.on_hover_text(run.hint().unwrap_or_default()).on_disabled_hover_text("The file is open read-only").clicked()
}

fn auto_match_intro(ui: &mut Ui, session: &Session, rule: &mut MatchRule) {
    let (status, hint) = match session.master().auto_eval.rounds.last() {
        Some(round) => (
            auto_eval::summary(round),
            "Run it again as annotation proceeds: translations judged correct become references, so fewer \
             candidates are left to humans. The category browser can show only those.",
        ),
        None => (
            "The automatic reference match has not been run on this master yet.".into(),
            "It compares every MT translation with the reference translation and with translations judged \
             correct; matches count as correct without manual work (Evaluate › Run automatic evaluation).",
        ),
    };
    ui.label(RichText::new(status).strong());
    ui.label(RichText::new(hint).weak());
    ui.add_space(6.0);
    ui.label(RichText::new("What the next round compares").strong());
    for choice in MatchRule::ALL {
        let (name, hint) = rule_words(choice);
        ui.radio_value(rule, choice, name).on_hover_text(hint);
    }
    ui.add_space(10.0);
}

/// A matching rule in words, and what it means.
fn rule_words(rule: MatchRule) -> (&'static str, &'static str) {
    match rule {
        MatchRule::MinimalTokens => (
            "The pronoun forms among the aligned words",
            "What the pronoun and each head were translated as: the pronoun forms among the aligned words (for \
             heads, without function words), against annotators' minimal selections",
        ),
        MatchRule::AlignedTokens => (
            "Every aligned word, as earlier versions did",
            "Every aligned word as it stands, against annotators' minimal selections: the rule of earlier \
             versions, for reproducing published numbers",
        ),
    }
}

fn metrics_intro(ui: &mut Ui, master: &Master, judges: &mut Judges) {
    ui.label(RichText::new("APT, the automatic pronoun metric, set against the human judgements").strong());
    ui.label(
        RichText::new(
            "APT compares each translation's pronoun with the reference translation's (identical, equivalent, \
             different, missing). The tables put it beside the human verdicts, show where the two disagree, and \
             how well APT ranks the systems, as paper 003 (Guillou & Hardmeier, 2018) does.",
        )
        .weak(),
    );
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        let label = ui.label("Human judgements:");
        let researcher = std::iter::once(AnnotatorId::RESEARCHER);
        let choices: Vec<Judges> = std::iter::once(Judges::Verdicts)
            .chain(researcher.chain(master.annotators.iter().map(|a| a.id)).map(Judges::Annotator))
            .collect();
        egui::ComboBox::from_id_salt("metric judges")
            .selected_text(judges_label(master, *judges))
            .width(280.0)
            .show_ui(ui, |ui| {
                for choice in choices {
                    ui.selectable_value(judges, choice, judges_label(master, choice));
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text("Set APT against the verdict the reports use, or against one person's own judgements");
    });
    ui.add_space(10.0);
}

fn judges_label(master: &Master, judges: Judges) -> String {
    match judges {
        Judges::Verdicts => "the verdict (adjudicator, researcher, annotators)".into(),
        Judges::Annotator(a) => format!("{}'s own", master.annotator_name(a)),
    }
}

/// A table under its title, with its export button; returns the export asked for.
fn table_block(ui: &mut Ui, table: &Table) -> Option<Intent> {
    let mut export = None;
    ui.horizontal(|ui| {
        ui.label(RichText::new(report_table::shown(&table.title)).strong().size(17.0));
        ui.add_space(8.0);
        let intent = Intent::Dialog(Opener::export_tables(Some(table.name)));
        let button = ui.small_button(intent.label().unwrap_or_default());
        let button = button.accessible_name(format!("Export the table {}", table.name));
        if button.on_hover_text(intent.hint().unwrap_or_default()).clicked() {
            export = Some(intent);
        }
    });
    ui.add_space(2.0);
    if table.rows.is_empty() {
        ui.label(RichText::new("Nothing to show.").weak());
        report_table::notes(ui, table);
    } else {
        report_table::show(ui, table);
    }
    ui.add_space(22.0);
    export
}
