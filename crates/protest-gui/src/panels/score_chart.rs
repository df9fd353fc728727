//! The chart of per-system scores (egui_plot): a group of rows per category, all categories
//! first, one row and one colour per system, with a legend. Rows are horizontal so that the long
//! category names read on the axis; hovering a row shows the score and the counts behind it.
//!
//! Each row draws the one definition of `protest::metrics::report::scores`: a solid bar to the
//! share of *all* examples known to be correct (the lowest the score can still be), a pale bar on
//! to the highest it can be (the undecided share), and a diamond at the score — correct ÷
//! decided — with its 95 % interval as whiskers. A system with undecided examples is so never a
//! plain bar at its correct ÷ decided; once every example is decided, the bar ends at the score.
//! A system nobody has judged yet is one pale bar, "not judged yet", not a bar at 0 %. How many
//! examples are decided is written in a column right of 100 %, where no bar reaches.

use egui::{Align2, Color32, RichText, Stroke, Ui};
use egui_plot::{Bar, BarChart, GridMark, Line, MarkerShape, Plot, PlotPoint, PlotUi, Points, Text};
use protest::metrics::report::scores::{ChartGroup, NOT_JUDGED_YET, Scores, Tally};

/// One colour per system, distinct in both themes (Tableau 10).
const COLOURS: [Color32; 10] = [
    Color32::from_rgb(0x4E, 0x79, 0xA7),
    Color32::from_rgb(0xF2, 0x8E, 0x2B),
    Color32::from_rgb(0x59, 0xA1, 0x4F),
    Color32::from_rgb(0xE1, 0x57, 0x59),
    Color32::from_rgb(0x76, 0xB7, 0xB2),
    Color32::from_rgb(0xED, 0xC9, 0x48),
    Color32::from_rgb(0xB0, 0x7A, 0xA1),
    Color32::from_rgb(0xFF, 0x9D, 0xA7),
    Color32::from_rgb(0x9C, 0x75, 0x5F),
    Color32::from_rgb(0xBA, 0xB0, 0xAC),
];

/// The size of the "12 of 76 decided" labels.
const LABEL_SIZE: f32 = 12.0;

/// Height of one system's row, at least: a label is this high at most, so labels of neighbouring
/// rows never touch.
const ROW_HEIGHT: f32 = 17.0;

/// The share of a group's height its rows take (the rest separates groups).
const GROUP_FILL: f64 = 0.8;

/// Pixels between 100 % and the labels, and kept free right of the labels.
const LABEL_GAP: f32 = 8.0;

/// The height of the x axis with its tick labels and its title.
const X_AXIS_HEIGHT: f32 = 44.0;

/// Where the plot starts left of 0, so that a bar or whisker at 0 is not on the frame.
const X_MIN: f64 = -0.015;

pub const LABEL: &str = "Chart of each system's score with its 95 % interval and its undecided share, per category";

pub fn show(ui: &mut Ui, scores: &Scores, groups: &[ChartGroup]) {
    let systems = scores.systems.len();
    if systems == 0 || groups.is_empty() {
        ui.label(RichText::new("No translations to chart.").weak());
        return;
    }
    let n = groups.len();
    // Group g sits at y = n - 1 - g, so the first group is at the top.
    let position = move |g: usize| (n - 1 - g) as f64;
    let categories: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
    let labels: Vec<Vec<String>> = groups.iter().map(|g| g.tallies.iter().map(label).collect()).collect();
    let geometry = Geometry::new(
        ui.available_width(),
        axis_width(ui, &categories),
        widest(ui, labels.iter().flatten(), egui::FontId::proportional(LABEL_SIZE)),
        n,
        systems,
    );
    legend(ui, scores);
    key(ui);
    let ink = ui.visuals().strong_text_color();
    let weak = ui.visuals().weak_text_color();
    let response = Plot::new("score chart")
        .height(geometry.height)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        // egui_plot writes hover texts into the plot, over the bars; a tooltip reads better.
        .show_x(false)
        .show_y(false)
        .set_margin_fraction(egui::Vec2::ZERO)
        .include_x(X_MIN)
        .include_x(geometry.x_max)
        .include_y(-0.5)
        .include_y(n as f64 - 0.5)
        .y_axis_min_width(geometry.axis_width)
        .x_axis_label("score: share of the decided examples translated correctly")
        .x_axis_formatter(|mark, _| format!("{:.0} %", mark.value * 100.0))
        .x_grid_spacer(|_| percent_marks())
        .y_grid_spacer(move |_| (0..n).map(|g| GridMark { value: position(g), step_size: 1.0 }).collect())
        .y_axis_formatter(move |mark, _| {
            let g = n as f64 - 1.0 - mark.value;
            let whole = g.round();
            if (g - whole).abs() > 1e-6 || whole < 0.0 {
                return String::new();
            }
            categories.get(whole as usize).cloned().unwrap_or_default()
        })
        .show(ui, |plot| {
            let gap = geometry.label_gap_in_units();
            for (s, system) in scores.systems.iter().enumerate() {
                let colour = COLOURS[s % COLOURS.len()];
                let rows =
                    groups.iter().enumerate().map(|(g, group)| (position(g) + offset(s, systems), group.tallies[s]));
                draw_system(plot, &system.name, colour, ink, rows.collect(), systems);
            }
            for (g, group_labels) in labels.into_iter().enumerate() {
                for (s, text) in group_labels.into_iter().enumerate() {
                    let at = PlotPoint::new(1.0 + gap, position(g) + offset(s, systems));
                    let text = RichText::new(text).size(LABEL_SIZE).color(weak);
                    plot.text(Text::new("n", at, text).anchor(Align2::LEFT_CENTER).allow_hover(false));
                }
            }
        });
    let hovered = response.response.hover_pos().map(|p| response.transform.value_from_position(p));
    let response = response.response.accessible_name(LABEL);
    if let Some((g, s)) = hovered.and_then(|p| bar_at(p.y, n, systems)) {
        tooltip(response, &groups[g], &scores.systems[s].name, s);
    }
}

/// Grid marks every 10 %, from 0 to 100 % only (the plot goes on right of 100 % for the labels).
fn percent_marks() -> Vec<GridMark> {
    (0..=10).map(|i| GridMark { value: f64::from(i) / 10.0, step_size: if i % 5 == 0 { 0.5 } else { 0.1 } }).collect()
}

/// One system's rows, at the given heights: the bars of every row in two charts (what is known
/// correct, and the undecided share after it), then each row's score and interval on top.
fn draw_system(plot: &mut PlotUi, name: &str, colour: Color32, ink: Color32, rows: Vec<(f64, Tally)>, systems: usize) {
    let width = GROUP_FILL / systems as f64 * 0.9;
    let mut known = Vec::new();
    let mut open = Vec::new();
    let mut marks = Vec::new();
    for (y, tally) in rows {
        match drawn(&tally) {
            Drawn::Nothing => {}
            Drawn::NotJudged => open.push(Bar::new(y, 1.0).width(width)),
            Drawn::Score { lowest, highest, score, interval } => {
                if lowest > 0.0 {
                    known.push(Bar::new(y, lowest).width(width));
                }
                if highest > lowest {
                    open.push(Bar::new(y, highest - lowest).base_offset(lowest).width(width));
                }
                marks.push((y, score, interval));
            }
        }
    }
    let known = known.into_iter().map(|b| b.fill(colour.gamma_multiply(0.9)).stroke(Stroke::new(1.0, colour)));
    plot.bar_chart(BarChart::new(name, known.collect()).horizontal().color(colour).allow_hover(false));
    let pale = Stroke::new(1.0, colour.gamma_multiply(0.7));
    let open = open.into_iter().map(|b| b.fill(colour.gamma_multiply(0.35)).stroke(pale));
    plot.bar_chart(BarChart::new(format!("{name} undecided"), open.collect()).horizontal().allow_hover(false));
    let cap = width * 0.35;
    for (y, score, (low, high)) in marks {
        let segment = |from: [f64; 2], to: [f64; 2]| {
            Line::new("interval", vec![from, to]).color(ink).width(1.5).allow_hover(false)
        };
        plot.line(segment([low, y], [high, y]));
        plot.line(segment([low, y - cap], [low, y + cap]));
        plot.line(segment([high, y - cap], [high, y + cap]));
        let diamond = Points::new("score", vec![[score, y]]).shape(MarkerShape::Diamond).radius(4.5).filled(true);
        plot.points(diamond.color(ink).allow_hover(false));
    }
}

/// The label right of a row: how many examples are decided, of how many.
fn label(tally: &Tally) -> String {
    match drawn(tally) {
        Drawn::Nothing => String::new(),
        Drawn::NotJudged => format!("{NOT_JUDGED_YET} (0 of {})", tally.examples),
        Drawn::Score { .. } => format!("{} of {} decided", tally.decided(), tally.examples),
    }
}

/// What a row's tooltip says: the score, its interval and bounds, and what they are of.
fn tooltip(response: egui::Response, group: &ChartGroup, system: &str, s: usize) {
    let tally = group.tallies[s];
    response.on_hover_ui_at_pointer(|ui| {
        ui.label(RichText::new(format!("{} · {}", system, group.label)).strong());
        match (tally.describe_score(), tally.examples) {
            (Some(score), _) => {
                ui.label(score);
                ui.label(tally.describe());
            }
            (None, 0) => {
                ui.label("no examples");
            }
            (None, _) => {
                ui.label(format!("{}: {}", NOT_JUDGED_YET, tally.describe()));
            }
        }
    });
}

/// What the chart shows of one system in one group, in shares of the axis (0 to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Drawn {
    /// No examples: nothing.
    Nothing,
    /// Examples, none decided: all of it undecided, "not judged yet".
    NotJudged,
    /// A solid bar to `lowest`, a pale one on to `highest`, a diamond at `score` with whiskers
    /// over `interval`.
    Score { lowest: f64, highest: f64, score: f64, interval: (f64, f64) },
}

fn drawn(tally: &Tally) -> Drawn {
    match (tally.lowest(), tally.highest(), tally.score(), tally.interval()) {
        (Some(lowest), Some(highest), Some(score), Some(interval)) => Drawn::Score { lowest, highest, score, interval },
        _ if tally.examples > 0 => Drawn::NotJudged,
        _ => Drawn::Nothing,
    }
}

/// The chart's size and extent, so that every label fits right of 100 % and rows are high enough
/// for their labels: nothing drawn reaches past 100 % (a share, its bounds and its interval are
/// all at most 1), and the labels start beyond it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Geometry {
    height: f32,
    /// The category names' axis.
    axis_width: f32,
    /// Where the plot ends on the right, in shares.
    x_max: f64,
    /// Pixels per share of the axis.
    per_unit: f64,
}

impl Geometry {
    /// For a chart `available` wide whose category names need `axis_width` and whose widest
    /// label `label_width`, with `groups` groups of `systems` rows.
    fn new(available: f32, axis_width: f32, label_width: f32, groups: usize, systems: usize) -> Geometry {
        // The plot's own frame and margins take a few pixels.
        let data = f64::from((available - axis_width - 4.0).max(1.0));
        let labels = f64::from(label_width + 2.0 * LABEL_GAP);
        // (x_max - 1) · data / (x_max - X_MIN) = labels, with at least 40 % of the width for the
        // bars (narrower, the labels are cut at the right, never drawn over a bar).
        let x_max = if data - labels > 0.4 * data { (data - labels * X_MIN) / (data - labels) } else { 2.5 };
        let rows = groups as f32 * systems as f32 * ROW_HEIGHT / GROUP_FILL as f32;
        Geometry { height: (rows + X_AXIS_HEIGHT).max(220.0), axis_width, x_max, per_unit: data / (x_max - X_MIN) }
    }

    /// [`LABEL_GAP`] in shares of the axis.
    fn label_gap_in_units(&self) -> f64 {
        f64::from(LABEL_GAP) / self.per_unit
    }
}

/// How wide the axis of the category names must be: the widest name, as egui_plot writes it.
fn axis_width(ui: &Ui, categories: &[String]) -> f32 {
    widest(ui, categories.iter(), egui::TextStyle::Body.resolve(ui.style())) + 12.0
}

/// The width of the widest of `texts` in `font`.
fn widest<'a>(ui: &Ui, texts: impl Iterator<Item = &'a String>, font: egui::FontId) -> f32 {
    ui.fonts_mut(|f| {
        texts.map(|t| f.layout_no_wrap(t.clone(), font.clone(), Color32::PLACEHOLDER).size().x).fold(0.0, f32::max)
    })
}

/// Where a system's row sits within its group (systems top to bottom, in legend order).
fn offset(system: usize, systems: usize) -> f64 {
    GROUP_FILL / 2.0 - GROUP_FILL / systems as f64 * (system as f64 + 0.5)
}

/// The (group, system) whose row the plot height `y` falls in.
fn bar_at(y: f64, groups: usize, systems: usize) -> Option<(usize, usize)> {
    let from_top = groups as f64 - 1.0 - y;
    let group = from_top.round();
    let within = GROUP_FILL / 2.0 - (y - (groups as f64 - 1.0 - group)); // 0 at the group's top edge
    if group < 0.0 || group as usize >= groups || !(0.0..GROUP_FILL).contains(&within) {
        return None;
    }
    Some((group as usize, ((within / (GROUP_FILL / systems as f64)) as usize).min(systems - 1)))
}

/// The systems and their colours, above the chart (the plot's own legend would cover bars).
fn legend(ui: &mut Ui, scores: &Scores) {
    ui.horizontal_wrapped(|ui| {
        for (s, system) in scores.systems.iter().enumerate() {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, COLOURS[s % COLOURS.len()]);
            ui.label(&system.name);
            ui.add_space(12.0);
        }
    });
}

/// What the shapes mean, in one line that wraps.
fn key(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        let grey = ui.visuals().weak_text_color();
        let swatch = |ui: &mut Ui, fill: Color32| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(22.0, 10.0), egui::Sense::hover());
            ui.painter().rect(rect, 1.0, fill, Stroke::new(1.0, grey), egui::StrokeKind::Inside);
        };
        swatch(ui, grey);
        ui.label(RichText::new("correct, of all examples").small());
        ui.add_space(8.0);
        swatch(ui, grey.gamma_multiply(0.35));
        ui.label(RichText::new("undecided: the highest the score can still be").small());
        ui.add_space(8.0);
        // The diamond on its whiskers, drawn as the chart draws them (the fonts have no ◆ or ├─┤).
        let ink = ui.visuals().strong_text_color();
        let (rect, _) = ui.allocate_exact_size(egui::vec2(28.0, 12.0), egui::Sense::hover());
        let (c, stroke) = (rect.center(), Stroke::new(1.5, ink));
        ui.painter().line_segment([rect.left_center(), rect.right_center()], stroke);
        for x in [rect.left(), rect.right()] {
            ui.painter().line_segment([egui::pos2(x, rect.top() + 2.0), egui::pos2(x, rect.bottom() - 2.0)], stroke);
        }
        let diamond =
            [c + egui::vec2(0.0, -5.0), c + egui::vec2(5.0, 0.0), c + egui::vec2(0.0, 5.0), c + egui::vec2(-5.0, 0.0)];
        ui.painter().add(egui::Shape::convex_polygon(diamond.to_vec(), ink, Stroke::NONE));
        ui.label(RichText::new("score over the decided, 95 % interval").small());
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(examples: u64, judged_correct: u64, matched: u64, incorrect: u64) -> Tally {
        let undecided = examples - judged_correct - matched - incorrect;
        Tally { examples, judged_correct, matched, incorrect, undecided, ..Tally::default() }
    }

    #[test]
    fn a_partly_decided_system_is_never_a_plain_bar_at_its_score() {
        assert_eq!(drawn(&Tally::default()), Drawn::Nothing);
        assert_eq!(drawn(&tally(60, 0, 0, 0)), Drawn::NotJudged, "not 0 %");
        assert_eq!(label(&tally(60, 0, 0, 0)), "not judged yet (0 of 60)");
        // Twelve matches of 76, nobody judging: the solid bar is the 12 of 76 known correct,
        // the pale one runs on to 100 %, the diamond is at 100 % with its interval from 75.8 %.
        let Drawn::Score { lowest, highest, score, interval } = drawn(&tally(76, 0, 12, 0)) else { panic!() };
        assert_eq!((lowest, highest, score), (12.0 / 76.0, 1.0, 1.0));
        assert_eq!(format!("{:.3}", interval.0), "0.758");
        assert_eq!(label(&tally(76, 0, 12, 0)), "12 of 76 decided");
        // All decided: the bar ends at the score.
        let Drawn::Score { lowest, highest, score, .. } = drawn(&tally(12, 6, 3, 3)) else { panic!() };
        assert_eq!((lowest, highest, score), (0.75, 0.75, 0.75));
    }

    #[test]
    fn labels_fit_right_of_every_bar() {
        // The report at 760 and 1024 pixels wide: category names up to 240 pixels, labels up to
        // 120 ("not judged yet (0 of 60)"), 14 groups of 3 systems.
        for available in [730.0, 990.0, 1880.0] {
            let g = Geometry::new(available, 240.0, 120.0, 14, 3);
            // Everything drawn ends at 1 at most; the labels start a gap later and fit.
            let room = (g.x_max - 1.0) * g.per_unit;
            assert!(room >= 120.0 + LABEL_GAP as f64 - 0.01, "{available}: {room} pixels for the labels");
            assert!(g.label_gap_in_units() > 0.0);
            // Rows are high enough for a label each.
            let row = (g.height - X_AXIS_HEIGHT) / 14.0 * GROUP_FILL as f32 / 3.0;
            assert!(row >= ROW_HEIGHT - 0.01, "{available}: rows {row} pixels high");
        }
        // Too narrow for both: the bars keep 40 % of the width; the labels are cut at the right
        // instead of moving over the bars.
        let g = Geometry::new(300.0, 240.0, 120.0, 1, 2);
        assert_eq!(g.x_max, 2.5);
        assert_eq!(g.height, 220.0);
    }

    #[test]
    fn the_row_under_the_pointer() {
        // Three groups (at y = 2, 1, 0), two systems (offsets +0.2 and -0.2).
        assert_eq!(bar_at(2.2, 3, 2), Some((0, 0)));
        assert_eq!(bar_at(1.8, 3, 2), Some((0, 1)));
        assert_eq!(bar_at(0.0 + offset(1, 2), 3, 2), Some((2, 1)));
        assert_eq!(bar_at(1.45, 3, 2), None, "between groups");
        assert_eq!(bar_at(-0.7, 3, 2), None, "below the last group");
    }
}
