//! The translation window: the category as title, the position in the set, and the source above
//! its translation, sentence by sentence, with the pronoun, the antecedent head and their aligned
//! tokens highlighted. Clicking a highlighted target token toggles it (spec §3).

use super::keys::Command;
use super::style::{self, Palette, TEXT_SIZE};
use egui::{Align, Color32, CornerRadius, FontId, Layout, Popup, RichText, Sense, Stroke, Ui, Vec2, WidgetInfo, vec2};
use protest::model::{Candidate, Master, Record, Role, TokenRef};
use protest::window::{self, Marks, Sentence};

/// Where the annotator is in the chosen set.
pub struct Position {
    pub index: usize,
    pub len: usize,
    pub annotated: usize,
}

/// The title row: back, category, example, position, progress, prev / next.
pub fn header(
    ui: &mut Ui,
    master: &Master,
    candidate: &Candidate,
    show_corpus: bool,
    at: &Position,
) -> Option<Command> {
    let mut command = None;
    let (example, category) = master.example_of(candidate)?;
    ui.horizontal(|ui| {
        if ui.button("⬅ Categories").on_hover_text("Back to the category browser (Esc)").clicked() {
            command = Some(Command::Back);
        }
        ui.add_space(8.0);
        ui.heading(category.title());
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let last = at.index + 1 == at.len;
            let next = if last { "Finish ⏵" } else { "Next ⏵" };
            let hint = if last { "Back to the categories (Right arrow key)" } else { "Next example (Right arrow key)" };
            if ui.add_sized([96.0, 28.0], egui::Button::new(next)).on_hover_text(hint).clicked() {
                command = Some(Command::Next);
            }
            // Fixed width, so the buttons do not move as the numbers change.
            ui.add_sized(
                [72.0, 28.0],
                egui::Label::new(RichText::new(format!("{} / {}", at.index + 1, at.len)).strong()),
            );
            let prev = ui.add_enabled_ui(at.index > 0, |ui| ui.add_sized([96.0, 28.0], egui::Button::new("⏴ Prev")));
            if prev.inner.on_hover_text("Previous example (Left arrow key)").clicked() {
                command = Some(Command::Prev);
            }
        });
    });
    ui.horizontal(|ui| {
        let mut about = format!("Example {}", example.no);
        if show_corpus && let Some(corpus) = master.corpus(candidate.corpus) {
            about.push_str(&format!(" · translation: {}", corpus.name));
        }
        ui.label(RichText::new(about).weak());
        if show_corpus && let Some(note) = protest::auto_eval::match_note(master, candidate.id) {
            ui.label(RichText::new(format!("✔ {note}")).color(ui.visuals().hyperlink_color));
        }
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let text = format!("{} of {} annotated", at.annotated, at.len);
            ui.add(style::progress_bar(at.annotated, at.len, text).desired_width(264.0));
        });
    });
    command
}

/// The texts; returns a token the annotator toggled.
pub fn texts(
    ui: &mut Ui,
    master: &Master,
    candidate: &Candidate,
    record: Option<&Record>,
    editable: bool,
) -> Option<(Role, TokenRef)> {
    let Some(window) = window::of_candidate(master, candidate, record) else {
        ui.colored_label(ui.visuals().error_fg_color, "This candidate's example or texts are missing from the file.");
        return None;
    };
    let palette = Palette::of(ui.visuals());
    let languages = &master.languages;
    let pronoun_sentence = master.example(candidate.example).map(|e| e.sentence);
    let numbers = Numbers::of(candidate);
    let mut toggled = None;
    // One scroll position per candidate: each example starts at its top.
    egui::ScrollArea::vertical().id_salt(candidate.id).auto_shrink([false, false]).show(ui, |ui| {
        for (source, target) in window.source.iter().zip(&window.target) {
            ui.horizontal_top(|ui| {
                let number = RichText::new((source.index + 1).to_string()).size(13.0);
                let number = if Some(source.index) == pronoun_sentence { number.strong() } else { number.weak() };
                ui.add_sized([40.0, 22.0], egui::Label::new(number)).on_hover_text("Sentence number in the corpus");
                ui.vertical(|ui| {
                    line(ui, &languages.source, source, &palette, None, editable);
                    // The key numbers only where the keys work.
                    let numbers = editable.then_some(&numbers);
                    if let Some(t) = line(ui, &languages.target, target, &palette, numbers, editable) {
                        toggled = Some(t);
                    }
                });
            });
            ui.add_space(10.0);
        }
    });
    toggled
}

/// One sentence highlighted like the translation window's, not clickable (the lookup's rows).
pub fn sentence(ui: &mut Ui, language: &str, sentence: &Sentence) {
    line(ui, language, sentence, &Palette::of(ui.visuals()), None, false);
}

/// The small numbers on aligned target tokens, for the digit keys.
struct Numbers {
    pronoun: Vec<TokenRef>,
    antecedent: Vec<TokenRef>,
}

impl Numbers {
    fn of(candidate: &Candidate) -> Numbers {
        Numbers {
            pronoun: candidate.aligned(Role::Pronoun).collect(),
            antecedent: candidate.aligned(Role::Antecedent).collect(),
        }
    }

    fn get(&self, role: Role, at: TokenRef) -> Option<usize> {
        let list = match role {
            Role::Pronoun => &self.pronoun,
            Role::Antecedent => &self.antecedent,
        };
        list.iter().position(|&t| t == at).filter(|&i| i < 9).map(|i| i + 1)
    }
}

/// One sentence; `numbers` is given for the translation, whose aligned tokens are clickable.
fn line(
    ui: &mut Ui,
    language: &str,
    sentence: &Sentence,
    palette: &Palette,
    numbers: Option<&Numbers>,
    editable: bool,
) -> Option<(Role, TokenRef)> {
    let mut toggled = None;
    ui.horizontal_top(|ui| {
        ui.add_sized([28.0, 22.0], egui::Label::new(RichText::new(language.to_uppercase()).small().weak()));
        ui.horizontal_wrapped(|ui| {
            // About a space between words; highlighted words carry their own padding.
            ui.spacing_mut().item_spacing = vec2(4.5, 7.0);
            for token in &sentence.tokens {
                let clickable = editable && numbers.is_some() && token.marks.selectable();
                let badges = numbers.map(|n| badges(n, token.at, &token.marks)).unwrap_or_default();
                let response = token_widget(ui, token.text, &token.marks, palette, &badges, clickable);
                if clickable && let Some(t) = on_click(&response, token.at, &token.marks) {
                    toggled = Some(t);
                }
            }
        });
    });
    toggled
}

/// The key numbers of a target token, per role it is aligned to.
fn badges(numbers: &Numbers, at: TokenRef, marks: &Marks) -> Vec<(Role, usize)> {
    Role::ALL.into_iter().filter(|&r| marks.aligned(r)).filter_map(|r| numbers.get(r, at).map(|n| (r, n))).collect()
}

/// What clicking a token does: toggle its one role, or for a token aligned to both the pronoun
/// and the antecedent head, a small menu asking which.
fn on_click(response: &egui::Response, at: TokenRef, marks: &Marks) -> Option<(Role, TokenRef)> {
    let roles: Vec<Role> = Role::ALL.into_iter().filter(|&r| marks.aligned(r)).collect();
    if let [role] = roles[..] {
        return response.clicked().then_some((role, at));
    }
    let mut chosen = None;
    Popup::menu(response).show(|ui| {
        ui.label(RichText::new("This token is aligned to both. Select it as:").weak());
        for role in roles {
            let text = match role {
                Role::Pronoun => "Translation of the pronoun",
                Role::Antecedent => "Translation of the antecedent head",
            };
            if ui.selectable_label(marks.selected(role), text).clicked() {
                chosen = Some((role, at));
            }
        }
    });
    chosen
}

fn token_widget(
    ui: &mut Ui,
    text: &str,
    marks: &Marks,
    palette: &Palette,
    badges: &[(Role, usize)],
    clickable: bool,
) -> egui::Response {
    let fills = fills(marks, palette);
    let selected = marks.selected_pronoun || marks.selected_antecedent;
    let font = FontId::proportional(TEXT_SIZE);
    let galley = ui.painter().layout_no_wrap(text.to_owned(), font, palette.text);
    let badge = (!badges.is_empty()).then(|| {
        // Each number in its role's colour, so "1" and "Shift+1" tokens are told apart.
        let mut job = egui::text::LayoutJob::default();
        for (i, (role, n)) in badges.iter().enumerate() {
            let color = match role {
                Role::Pronoun => palette.selected_pronoun,
                Role::Antecedent => palette.selected_antecedent,
            };
            let text = if i == 0 { n.to_string() } else { format!(" {n}") };
            job.append(&text, 0.0, egui::TextFormat::simple(FontId::proportional(11.5), color));
        }
        ui.painter().layout_job(job)
    });
    let pad = vec2(if fills.is_empty() { 0.0 } else { 3.0 }, 1.0);
    let word = galley.size() + 2.0 * pad;
    let size = vec2(word.x + badge.as_ref().map_or(0.0, |b| b.size().x + 1.0), word.y);
    let (rect, response) = ui.allocate_exact_size(size, if clickable { Sense::click() } else { Sense::hover() });
    let word_rect = egui::Rect::from_min_size(rect.min, word);
    if ui.is_rect_visible(rect) {
        let painter = ui.painter();
        let radius = CornerRadius::same(4);
        let split = word_rect.split_left_right_at_fraction(0.5);
        let halves = [
            (split.0, CornerRadius { nw: 4, sw: 4, ne: 0, se: 0 }),
            (split.1, CornerRadius { nw: 0, sw: 0, ne: 4, se: 4 }),
        ];
        // A token aligned to both roles: left half pronoun, right half antecedent.
        let parts: Vec<_> = match fills[..] {
            [one] => vec![(word_rect, radius, one)],
            [left, right] => vec![(halves[0].0, halves[0].1, left), (halves[1].0, halves[1].1, right)],
            _ => Vec::new(),
        };
        for &(part, corners, (fill, _)) in &parts {
            painter.rect_filled(part, corners, fill);
        }
        if marks.antecedent_span {
            let y = word_rect.bottom() - 0.5;
            painter.hline(word_rect.x_range(), y, Stroke::new(2.0, palette.span));
        }
        if clickable && response.hovered() {
            painter.rect_stroke(
                word_rect.expand(1.0),
                radius,
                Stroke::new(1.5, ui.visuals().strong_text_color()),
                egui::StrokeKind::Outside,
            );
        }
        let at = word_rect.min + pad;
        if parts.is_empty() {
            painter.galley(at, galley.clone(), palette.text);
        }
        for &(part, _, (_, ink)) in &parts {
            let clip = part.intersect(painter.clip_rect());
            painter.with_clip_rect(clip).galley_with_override_text_color(at, galley.clone(), ink);
        }
        if let Some(b) = badge {
            painter.galley(egui::pos2(word_rect.right() + 1.0, rect.top()), b, Color32::GRAY);
        }
    }
    if clickable {
        response.widget_info(|| WidgetInfo::selected(egui::Role::Button, true, selected, text));
        let response = response.on_hover_cursor(egui::CursorIcon::PointingHand);
        return response.on_hover_text(hover_text(marks, badges));
    }
    response
}

/// Background colours of a token: one per role it is aligned to (selected ones stronger).
/// Background and text colour of a token, one pair per role it is aligned to (selected ones
/// stronger, with light text).
fn fills(marks: &Marks, palette: &Palette) -> Vec<(Color32, Color32)> {
    let mut fills = Vec::new();
    if marks.pronoun {
        fills.push(if marks.selected_pronoun {
            (palette.selected_pronoun, palette.on_selected)
        } else {
            (palette.pronoun, palette.on_highlight)
        });
    }
    if marks.antecedent {
        fills.push(if marks.selected_antecedent {
            (palette.selected_antecedent, palette.on_selected)
        } else {
            (palette.antecedent, palette.on_highlight)
        });
    }
    fills
}

fn hover_text(marks: &Marks, badges: &[(Role, usize)]) -> String {
    let key = |role: Role| {
        badges.iter().find(|(r, _)| *r == role).map_or(String::new(), |(_, n)| match role {
            Role::Pronoun => format!(" (key {n})"),
            Role::Antecedent => format!(" (Shift+{n})"),
        })
    };
    match (marks.pronoun, marks.antecedent) {
        (true, true) => format!(
            "Aligned to both the pronoun{} and the antecedent head{}: click to choose which to select",
            key(Role::Pronoun),
            key(Role::Antecedent)
        ),
        (true, false) => format!("Aligned to the pronoun: click to select or deselect{}", key(Role::Pronoun)),
        _ => format!("Aligned to the antecedent head: click to select or deselect{}", key(Role::Antecedent)),
    }
}

/// The colour key under the texts; `keys` where the digit keys select tokens.
pub fn legend(ui: &mut Ui, anaphoric: bool, keys: bool) {
    let palette = Palette::of(ui.visuals());
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 14.0;
        let chip = |ui: &mut Ui, fill: Color32, text_color: Color32, text: &str| {
            let galley = ui.painter().layout_no_wrap(text.to_owned(), FontId::proportional(13.0), text_color);
            let (rect, _) = ui.allocate_exact_size(galley.size() + vec2(8.0, 2.0), Sense::hover());
            ui.painter().rect_filled(rect, CornerRadius::same(4), fill);
            ui.painter().galley(rect.min + vec2(4.0, 1.0), galley, text_color);
        };
        chip(ui, palette.pronoun, palette.on_highlight, "pronoun");
        chip(ui, palette.selected_pronoun, palette.on_selected, "selected for the pronoun");
        if anaphoric {
            chip(ui, palette.antecedent, palette.on_highlight, "antecedent head");
            chip(ui, palette.selected_antecedent, palette.on_selected, "selected for the antecedent");
            let (rect, _) = ui.allocate_exact_size(Vec2::new(28.0, 18.0), Sense::hover());
            ui.painter().hline(rect.x_range(), rect.bottom() - 3.0, Stroke::new(2.0, palette.span));
            ui.label(RichText::new("antecedent span").size(13.0));
        }
        if keys {
            ui.label(RichText::new("numbers: keys").size(13.0).weak());
        }
    });
}
