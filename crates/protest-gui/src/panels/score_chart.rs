//! The bar chart of per-system scores (egui_plot): a group of bars per category, all categories
//! first, one bar and one colour per system, with a legend. Bars are horizontal so that the long
//! category names read on the axis; hovering a bar shows its score and the counts behind it.
//!
//! A bar is the share of the *decided* examples (judged ✓ or ✗, or matched) translated correctly,
//! with their number n beside it: a system nobody has judged yet has no bar ("not judged yet"),
//! not a bar at 0 %.

use egui::{Align2, Color32, RichText, Stroke, Ui};
use egui_plot::{Bar, BarChart, GridMark, Plot, PlotPoint, Text};
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

/// Length of the bar of a score of 0, so that it shows (a share of the axis from 0 to 1).
const ZERO_BAR: f64 = 0.006;

/// Height of a category's group of bars.
const GROUP_HEIGHT: f32 = 16.0;

pub const LABEL: &str = "Bar chart of the share of decided examples translated correctly, per system and category";

pub fn show(ui: &mut Ui, scores: &Scores, groups: &[ChartGroup]) {
    let systems = scores.systems.len();
    if systems == 0 || groups.is_empty() {
        ui.label(RichText::new("No translations to chart.").weak());
        return;
    }
    let n = groups.len();
    // Group g sits at y = n - 1 - g, so the first group is at the top.
    let position = move |g: usize| (n - 1 - g) as f64;
    let mut labels_n = Vec::new();
    let charts = bar_charts(scores, groups, &position, &mut labels_n);
    let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
    let height = (n as f32 * GROUP_HEIGHT * (systems as f32).max(2.0)).clamp(220.0, 640.0);
    legend(ui, scores);
    let response = Plot::new("score chart")
        .height(height)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        // egui_plot writes hover texts into the plot, over the bars; a tooltip reads better.
        .show_x(false)
        .show_y(false)
        .include_x(0.0)
        .include_x(1.12)
        .include_y(-0.5)
        .include_y(n as f64 - 0.5)
        .x_axis_label("share of the decided examples translated correctly (n: decided examples)")
        .x_axis_formatter(|mark, _| format!("{:.0} %", mark.value * 100.0))
        .y_grid_spacer(move |_| (0..n).map(|g| GridMark { value: position(g), step_size: 1.0 }).collect())
        .y_axis_formatter(move |mark, _| {
            let g = n as f64 - 1.0 - mark.value;
            let whole = g.round();
            if (g - whole).abs() > 1e-6 || whole < 0.0 {
                return String::new();
            }
            labels.get(whole as usize).cloned().unwrap_or_default()
        })
        .show(ui, |plot| {
            for chart in charts {
                plot.bar_chart(chart);
            }
            for text in labels_n {
                plot.text(text);
            }
        });
    let hovered = response.response.hover_pos().map(|p| response.transform.value_from_position(p));
    let response = response.response.accessible_name(LABEL);
    if let Some((g, s)) = hovered.and_then(|p| bar_at(p.y, n, systems)) {
        tooltip(response, &groups[g], &scores.systems[s].name, s);
    }
}

/// One bar chart per system, a bar per group at `position`; the groups' "n = …" labels go into
/// `labels_n`.
fn bar_charts(
    scores: &Scores,
    groups: &[ChartGroup],
    position: &impl Fn(usize) -> f64,
    labels_n: &mut Vec<Text>,
) -> Vec<BarChart> {
    let systems = scores.systems.len();
    let bar_width = 0.8 / systems as f64;
    scores
        .systems
        .iter()
        .enumerate()
        .map(|(s, system)| {
            let colour = COLOURS[s % COLOURS.len()];
            let bars = groups
                .iter()
                .enumerate()
                .filter_map(|(g, group)| {
                    let y = position(g) + offset(s, systems);
                    let text =
                        |x: f64, words: String| Text::new("n", PlotPoint::new(x, y), words).anchor(Align2::LEFT_CENTER);
                    let share = match drawn(&group.tallies[s]) {
                        Drawn::Nothing => return None,
                        Drawn::NotJudged => {
                            labels_n.push(text(0.0, NOT_JUDGED_YET.to_owned()));
                            return None;
                        }
                        Drawn::Bar { share, n } => {
                            labels_n.push(text(share.max(ZERO_BAR) + 0.01, format!("n = {n}")));
                            share
                        }
                    };
                    // A share of 0 gets a sliver at the axis: drawn, it reads as 0 %.
                    let (length, fill) =
                        if share > 0.0 { (share, colour.gamma_multiply(0.85)) } else { (ZERO_BAR, colour) };
                    let bar = Bar::new(y, length).width(bar_width * 0.9);
                    Some(bar.name(&system.name).fill(fill).stroke(Stroke::new(1.0, colour)))
                })
                .collect();
            // Its hover label in the axis' terms (a share in %), not the plot's raw value.
            // (A share of 0 is drawn as a sliver, ZERO_BAR long.)
            let percent = |bar: &egui_plot::Bar, _: &BarChart| {
                let share = if bar.value == ZERO_BAR { 0.0 } else { bar.value };
                format!("{}: {:.1} %", bar.name, share * 100.0)
            };
            BarChart::new(system.name.clone(), bars).horizontal().color(colour).element_formatter(Box::new(percent))
        })
        .collect()
}

/// What a bar's tooltip says: the share and what it is of.
fn tooltip(response: egui::Response, group: &ChartGroup, system: &str, s: usize) {
    let tally = group.tallies[s];
    response.on_hover_ui_at_pointer(|ui| {
        ui.label(RichText::new(format!("{} · {}", system, group.label)).strong());
        match (tally.share_of_decided(), tally.examples) {
            (Some(share), _) => {
                ui.label(format!("{:.1} % of the {} decided: {}", share * 100.0, tally.decided(), tally.describe()))
            }
            (None, 0) => ui.label("no examples"),
            (None, _) => ui.label(format!("{}: {}", NOT_JUDGED_YET, tally.describe())),
        };
    });
}

/// What the chart shows of one system in one group.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Drawn {
    /// No examples: nothing.
    Nothing,
    /// Examples, none decided: no bar, "not judged yet".
    NotJudged,
    /// The share of the `n` decided examples translated correctly.
    Bar { share: f64, n: u64 },
}

fn drawn(tally: &Tally) -> Drawn {
    match tally.share_of_decided() {
        Some(share) => Drawn::Bar { share, n: tally.decided() },
        None if tally.examples > 0 => Drawn::NotJudged,
        None => Drawn::Nothing,
    }
}

/// Where a system's bar sits within its group (systems top to bottom, in legend order).
fn offset(system: usize, systems: usize) -> f64 {
    0.4 - 0.8 / systems as f64 * (system as f64 + 0.5)
}

/// The (group, system) whose bar's row the plot height `y` falls in.
fn bar_at(y: f64, groups: usize, systems: usize) -> Option<(usize, usize)> {
    let from_top = groups as f64 - 1.0 - y;
    let group = from_top.round();
    let within = 0.4 - (y - (groups as f64 - 1.0 - group)); // 0 at the group's top edge
    if group < 0.0 || group as usize >= groups || !(0.0..0.8).contains(&within) {
        return None;
    }
    Some((group as usize, ((within / (0.8 / systems as f64)) as usize).min(systems - 1)))
}

/// The systems and their colours, above the chart (the plot's own legend would cover bars).
fn legend(ui: &mut Ui, scores: &Scores) {
    ui.horizontal(|ui| {
        for (s, system) in scores.systems.iter().enumerate() {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, COLOURS[s % COLOURS.len()]);
            ui.label(&system.name);
            ui.add_space(12.0);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_only_for_decided_examples_with_their_number() {
        assert_eq!(drawn(&Tally::default()), Drawn::Nothing);
        let unjudged = Tally { examples: 60, undecided: 60, ..Tally::default() };
        assert_eq!(drawn(&unjudged), Drawn::NotJudged, "not 0 %");
        assert_eq!(drawn(&Tally { incorrect: 3, undecided: 57, ..unjudged }), Drawn::Bar { share: 0.0, n: 3 });
        let some = Tally { judged_correct: 6, matched: 3, incorrect: 3, undecided: 48, ..unjudged };
        assert_eq!(drawn(&some), Drawn::Bar { share: 0.75, n: 12 });
    }

    #[test]
    fn the_bar_under_the_pointer() {
        // Three groups (at y = 2, 1, 0), two systems (offsets +0.2 and -0.2).
        assert_eq!(bar_at(2.2, 3, 2), Some((0, 0)));
        assert_eq!(bar_at(1.8, 3, 2), Some((0, 1)));
        assert_eq!(bar_at(0.0 + offset(1, 2), 3, 2), Some((2, 1)));
        assert_eq!(bar_at(1.45, 3, 2), None, "between groups");
        assert_eq!(bar_at(-0.7, 3, 2), None, "below the last group");
    }
}
