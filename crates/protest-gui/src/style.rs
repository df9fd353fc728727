//! Text sizes, spacing and the highlight colours, tuned for reading for hours in either theme.

use egui::{Color32, FontFamily, FontId, TextStyle, Theme, ThemePreference};
use serde::{Deserialize, Serialize};

/// Size of the source and translation texts.
pub const TEXT_SIZE: f32 = 17.0;

/// The user's theme choice (remembered).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    #[default]
    System,
    Light,
    Dark,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 3] = [ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark];

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::System => "Follow the system",
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
        }
    }

    fn preference(self) -> ThemePreference {
        match self {
            ThemeChoice::System => ThemePreference::System,
            ThemeChoice::Light => ThemePreference::Light,
            ThemeChoice::Dark => ThemePreference::Dark,
        }
    }
}

/// Sets the theme, larger text and roomier spacing for both themes.
pub fn apply(ctx: &egui::Context, theme: ThemeChoice) {
    ctx.set_theme(theme.preference());
    for t in [Theme::Light, Theme::Dark] {
        ctx.style_mut_of(t, |style| {
            style.text_styles = [
                (TextStyle::Heading, FontId::new(21.0, FontFamily::Proportional)),
                (TextStyle::Body, FontId::new(15.5, FontFamily::Proportional)),
                (TextStyle::Button, FontId::new(15.0, FontFamily::Proportional)),
                (TextStyle::Small, FontId::new(12.5, FontFamily::Proportional)),
                (TextStyle::Monospace, FontId::new(14.0, FontFamily::Monospace)),
            ]
            .into();
            style.spacing.item_spacing = egui::vec2(8.0, 6.0);
            style.spacing.button_padding = egui::vec2(8.0, 3.0);
            style.spacing.interact_size.y = 24.0;
            // A focused button (Tab) stands out: egui draws it as "active".
            let focus = style.visuals.selection.stroke.color;
            style.visuals.widgets.active.bg_stroke = egui::Stroke::new(2.0, focus);
        });
    }
}

/// A clear ring around the widget that has the keyboard focus, while the focus is moved with the
/// keyboard (Tab, Shift+Tab; a click ends it): egui marks a focused button only faintly, and a
/// menu title not at all. Returns where it was drawn.
pub fn focus_ring(ctx: &egui::Context, by_keys: &mut bool) -> Option<egui::Rect> {
    let (tab, pointer) = ctx.input(|i| (i.key_pressed(egui::Key::Tab), i.pointer.any_pressed()));
    *by_keys = (*by_keys || tab) && !pointer;
    let id = ctx.memory(|m| m.focused()).filter(|_| *by_keys)?;
    let response = ctx.read_response(id)?;
    let rect = response.rect.expand(2.0);
    let colour = ctx.global_style().visuals.selection.stroke.color;
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Tooltip, egui::Id::unique("focus ring")));
    painter.rect_stroke(rect, 4.0, egui::Stroke::new(2.5, colour), egui::StrokeKind::Outside);
    Some(rect)
}

/// Scroll bars that show whenever the content overflows, not only once the pointer is near:
/// for the texts and the category list, where what is below the edge must look scrollable.
pub fn visible_scroll_bars(ui: &mut egui::Ui) {
    ui.spacing_mut().scroll = egui::style::ScrollStyle {
        bar_width: 8.0,
        dormant_background_opacity: 0.25,
        dormant_handle_opacity: 0.6,
        ..egui::style::ScrollStyle::solid()
    };
}

/// The highlight colours of the translation window (docs/domain.md, "Highlights and selection": the original used yellow for the
/// pronoun, cyan for the antecedent, orange and blue for selected tokens).
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    /// The texts: more contrast than egui's default label colour, for long reading.
    pub text: Color32,
    pub pronoun: Color32,
    pub antecedent: Color32,
    pub selected_pronoun: Color32,
    pub selected_antecedent: Color32,
    /// Text on a highlight.
    pub on_highlight: Color32,
    /// Text on a selected token.
    pub on_selected: Color32,
    /// Underline of the antecedent span.
    pub span: Color32,
}

impl Palette {
    pub fn of(visuals: &egui::Visuals) -> Palette {
        if visuals.dark_mode {
            Palette {
                text: Color32::from_gray(0xE2),
                pronoun: Color32::from_rgb(0xE0, 0xC2, 0x4A),
                antecedent: Color32::from_rgb(0x5C, 0xC8, 0xD8),
                selected_pronoun: Color32::from_rgb(0xF0, 0x7E, 0x1A),
                selected_antecedent: Color32::from_rgb(0x3D, 0x7E, 0xF0),
                on_highlight: Color32::from_rgb(0x16, 0x16, 0x16),
                on_selected: Color32::WHITE,
                span: Color32::from_rgb(0x5C, 0xC8, 0xD8),
            }
        } else {
            Palette {
                text: Color32::from_gray(0x1C),
                pronoun: Color32::from_rgb(0xFF, 0xE5, 0x6B),
                antecedent: Color32::from_rgb(0x9B, 0xE7, 0xF2),
                selected_pronoun: Color32::from_rgb(0xE8, 0x6A, 0x00),
                selected_antecedent: Color32::from_rgb(0x1F, 0x5F, 0xD1),
                on_highlight: Color32::from_rgb(0x10, 0x10, 0x10),
                on_selected: Color32::WHITE,
                span: Color32::from_rgb(0x1B, 0x9A, 0xAA),
            }
        }
    }
}

/// A progress bar with slightly rounded corners: egui's default fully rounded one fills a circle
/// even at 0 %, under the first characters of its text.
pub fn progress_bar(done: usize, of: usize, text: String) -> egui::ProgressBar {
    let fraction = if of == 0 { 0.0 } else { done as f32 / of as f32 };
    egui::ProgressBar::new(fraction).corner_radius(3.0).text(text)
}
