//! The category browser (home; docs/domain.md, "Modes and views"): a row per category with new /
//! with notes / done / conflict counts for the current annotator; clicking a count opens that set. Researchers can filter by corpus.

use crate::style;
use egui::{Align, Layout, RichText, Ui};
use protest::annotate::Direction;
use protest::annotate::browse::{self, CategoryRow};
use protest::annotate::status::status_of;
use protest::metrics::auto_eval;
use protest::model::{CandidateId, CorpusId, Master};
use protest::session::workspace::Mode;
use protest::session::{Follows, LiveView, Opening, Session};

#[derive(Default)]
pub struct Browser {
    /// Researcher mode: only this translation corpus.
    pub corpus: Option<CorpusId>,
    /// Researcher mode: only candidates the automatic reference match did not settle.
    pub needing_human: bool,
    /// The rows, for the filters in `filtered`.
    rows: LiveView<Rows>,
    filtered: (Option<CorpusId>, bool),
    /// The row chosen with the arrow keys (or a click on its title), among the rows shown;
    /// Enter opens its new examples.
    selected: Option<usize>,
    /// The selection moved by key: scroll it into view.
    moved: bool,
}

/// The candidates the browser covers, in display order, and their rows.
struct Rows {
    order: Vec<CandidateId>,
    browser: browse::BrowserRows,
}

impl Follows for Rows {
    fn update(&mut self, master: &Master, candidate: CandidateId) {
        self.browser.update(master, candidate);
    }
}

/// The candidates the browser covers with these filters, in display order.
fn covered(session: &Session, corpus: Option<CorpusId>, needing_human: bool) -> Vec<CandidateId> {
    let master = session.master();
    session
        .order()
        .iter()
        .copied()
        .filter(|&c| corpus.is_none() || master.candidate(c).map(|c| c.corpus) == corpus)
        .filter(|&c| !needing_human || auto_eval::needs_human(master, c))
        .collect()
}

/// The rows for the filters and the session's annotator, up to date.
fn current_rows<'a>(rows: &'a mut LiveView<Rows>, filtered: (Option<CorpusId>, bool), session: &Session) -> &'a Rows {
    let (corpus, needing_human) = filtered;
    rows.get(session, |master, annotator| {
        let order = covered(session, corpus, needing_human);
        let browser = browse::BrowserRows::new(master, annotator, &order, None);
        Rows { order, browser }
    })
}

impl Browser {
    /// Moves the selection one row down (forward) or up; the first key selects the first (last)
    /// row.
    pub fn step(&mut self, way: Direction) {
        self.selected = Some(match (self.selected, way) {
            (None, Direction::Forward) => 0,
            (None, Direction::Back) => usize::MAX, // the last row, once their number is known
            (Some(i), Direction::Forward) => i.saturating_add(1),
            (Some(i), Direction::Back) => i.saturating_sub(1),
        });
        self.moved = true;
    }

    /// What Enter opens: the selected row's examples still to do — new or with notes — (all of
    /// them when none is), or without a selection every example from the first one still to do.
    pub fn enter(&mut self, session: &Session) -> Option<Opening> {
        let Some(i) = self.selected else { return self.continue_set(session) };
        let Rows { order, browser } = current_rows(&mut self.rows, self.filtered, session);
        let row = browser.rows().iter().filter(|r| r.total() > 0).nth(i)?;
        let (kind, set) = match row.to_do_len() {
            0 => ("all", row.all(order)),
            _ if row.notes.is_empty() => ("new", row.new.clone()),
            _ => ("to do", row.to_do(order)),
        };
        Some(Opening { title: format!("{} — {kind}", row.title), set, start: 0 })
    }

    /// Every candidate from the first one still to do: new, or with notes but not judged (Enter
    /// in the browser).
    pub fn continue_set(&self, session: &Session) -> Option<Opening> {
        let set = covered(session, self.corpus, self.needing_human);
        let master = session.master();
        let start = set.iter().position(|&c| status_of(master, c, session.annotator()).to_do()).unwrap_or(0);
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
        if self.filtered != (self.corpus, self.needing_human) {
            self.filtered = (self.corpus, self.needing_human);
            self.rows.clear();
        }
        let (mut selected, moved) = (self.selected, std::mem::take(&mut self.moved));
        let Rows { order, browser } = current_rows(&mut self.rows, self.filtered, session);
        let rows = browser.rows();
        let shown = rows.iter().filter(|r| r.total() > 0).count();
        selected = selected.map(|i| i.min(shown.saturating_sub(1)));
        let annotated = browser.annotated();
        let filters = (&mut self.corpus, &mut self.needing_human);
        let continuing = header(ui, session, annotated < order.len(), annotated == 0, filters);
        if self.filtered != (self.corpus, self.needing_human) {
            ui.ctx().request_repaint(); // the rows for the new filters
        }
        ui.add_space(4.0);
        let text =
            format!("{annotated} of {} annotated by {}", order.len(), master.annotator_name(session.annotator()));
        ui.add(style::progress_bar(annotated, order.len(), text).desired_width(420.0));
        ui.add_space(10.0);
        style::visible_scroll_bars(ui);
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            egui::Grid::new("categories").striped(true).num_columns(6).min_col_width(60.0).spacing([14.0, 8.0]).show(
                ui,
                |ui| {
                    ui.label(RichText::new("Category").strong());
                    for h in KINDS {
                        ui.label(RichText::new(h).strong()).on_hover_text(count_hint(h));
                    }
                    ui.end_row();
                    let mut function = None;
                    for (i, row) in rows.iter().filter(|r| r.total() > 0).enumerate() {
                        // A heading row whenever the pronoun function changes.
                        let this = master.category(&row.category).map(|c| c.function.as_str());
                        if this != function {
                            function = this;
                            ui.label(RichText::new(function_title(this.unwrap_or(""))).small().weak());
                            ui.end_row();
                        }
                        match category_row(ui, row, order, selected == Some(i), moved) {
                            Some(RowAction::Open(o)) => opening = Some(o),
                            Some(RowAction::Select) => selected = Some(i),
                            None => {}
                        }
                        ui.end_row();
                    }
                },
            );
            let empty = rows.iter().filter(|r| r.total() == 0).count();
            if empty > 0 {
                ui.add_space(8.0);
                let empty = protest::store::summary::count_as(empty, "category has", "categories have");
                ui.label(RichText::new(format!("{empty} no examples here.")).weak());
            }
        });
        self.selected = selected;
        if continuing {
            opening = self.continue_set(session);
        }
        opening
    }
}

/// The title, *Start* or *Continue annotating* (whether it was clicked) and, for a researcher,
/// the filters: beside the title when there is room, else on a row of their own.
fn header(
    ui: &mut Ui,
    session: &Session,
    more: bool,
    none_yet: bool,
    (corpus, needing_human): (&mut Option<CorpusId>, &mut bool),
) -> bool {
    let filters_beside = ui.available_width() >= 860.0;
    let researcher = session.mode() == Mode::Researcher;
    let mut filters = |ui: &mut Ui| {
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            corpus_filter(ui, session, corpus);
            needing_human_filter(ui, session, needing_human);
        });
    };
    let continuing = ui
        .horizontal(|ui| {
            ui.heading("Categories");
            ui.add_space(16.0);
            let label = if none_yet { "Start annotating" } else { "Continue annotating" };
            let next = ui.add_enabled(more, egui::Button::new(RichText::new(label).strong()));
            let continuing =
                next.on_hover_text("Every example, from the first one not annotated yet (Enter)").clicked();
            if researcher && filters_beside {
                filters(ui);
            }
            continuing
        })
        .inner;
    if researcher && !filters_beside {
        ui.horizontal(|ui| filters(ui));
    }
    continuing
}

/// What a row of the browser was asked to do.
enum RowAction {
    Open(Opening),
    /// Its title was clicked: it becomes the selected row.
    Select,
}

fn needing_human_filter(ui: &mut Ui, session: &Session, needing_human: &mut bool) {
    let ran = !session.master().auto_eval.rounds.is_empty();
    let check = ui.add_enabled(ran, egui::Checkbox::new(needing_human, "Only those needing a human"));
    check
        .on_hover_text(
            "Only candidates the latest automatic evaluation (reference match, agreement judge) did not settle",
        )
        .on_disabled_hover_text("Run the automatic evaluation first (Evaluate menu)");
    ui.add_space(12.0);
}

fn corpus_filter(ui: &mut Ui, session: &Session, selected: &mut Option<CorpusId>) {
    let master = session.master();
    let name = |c: Option<CorpusId>| {
        c.and_then(|c| master.corpus(c)).map_or("all translations".to_owned(), |c| c.name.clone())
    };
    let combo = egui::ComboBox::from_id_salt("corpus filter").selected_text(name(*selected)).show_ui(ui, |ui| {
        ui.selectable_value(selected, None, name(None));
        for corpus in master.translations() {
            ui.selectable_value(selected, Some(corpus.id), &corpus.name);
        }
    });
    combo.response.accessible_name("Translation corpus");
    ui.label("Translation:");
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

/// One category with its clickable counts; `selected` marks the row Enter opens.
fn category_row(
    ui: &mut Ui,
    row: &CategoryRow,
    order: &[CandidateId],
    selected: bool,
    moved: bool,
) -> Option<RowAction> {
    let mut action = None;
    let title = ui.add(egui::Button::selectable(selected, RichText::new(&row.title).size(16.0)));
    let title =
        title.on_hover_text(format!("{} — Enter opens its new translations (↑ / ↓ choose a row)", row.category));
    if selected && moved {
        title.scroll_to_me(None);
    }
    if title.clicked() {
        // The keys stay with the browser: Enter then opens this row.
        title.surrender_focus();
        action = Some(RowAction::Select);
    }
    // `None`: all of the row, put in display order only when opened (that looks at every candidate).
    let sets: [(&str, Option<&[CandidateId]>); 5] = [
        ("new", Some(&row.new)),
        ("with notes", Some(&row.notes)),
        ("done", Some(&row.done)),
        ("conflict", Some(&row.conflict)),
        ("all", None),
    ];
    for (kind, set) in sets {
        let len = set.map_or(row.total(), <[_]>::len);
        let text = RichText::new(len.to_string()).size(16.0);
        let text = if kind == "conflict" && len > 0 { text.color(ui.visuals().warn_fg_color) } else { text };
        let button = ui.add_enabled(len > 0, egui::Button::new(text).min_size(egui::vec2(52.0, 26.0)));
        let button = button.accessible_name(format!("{}: {len} {kind}", row.title));
        if button.on_hover_text(count_hint(kind)).clicked() {
            let set = set.map_or_else(|| row.all(order), <[_]>::to_vec);
            action = Some(RowAction::Open(Opening { title: format!("{} — {kind}", row.title), set, start: 0 }));
        }
    }
    action
}

/// The counts of a row, by what the annotator has done.
const KINDS: [&str; 5] = ["new", "with notes", "done", "conflict", "all"];

/// What a count is and what clicking it opens. The counts are of translations (candidates): an
/// example with two translations counts twice.
fn count_hint(kind: &str) -> &'static str {
    match kind {
        "new" => "Translations of this category not annotated yet: click to work through them",
        "with notes" => {
            "Still to do: translations with remarks or tags but no judgement of the pronoun yet. Click to work \
             through them"
        }
        "done" => "Translations judged, every conflict rule passing: click to see them",
        "conflict" => {
            "Translations with conflicts: kept despite a failed rule of the guidelines, or breaking one without \
             having been checked. Click to look at them again"
        }
        _ => "Every translation of this category: click to work through them",
    }
}
