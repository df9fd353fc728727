//! The translation window: the category as title, the position in the set, and the source above
//! its translation, sentence by sentence, with the pronoun, the antecedent head and their aligned
//! tokens highlighted. Clicking a highlighted target token toggles it (docs/domain.md, "Highlights and selection").

use crate::intent::Intent;
use crate::style::{self, Palette, TEXT_SIZE};
use egui::{
    Align, Color32, CornerRadius, FontId, Layout, Popup, Response, RichText, Sense, Stroke, Ui, Vec2, WidgetInfo, vec2,
};
use protest::annotate::window::{self, Marks, Sentence};
use protest::model::{Candidate, Master, Record, Role, TokenRef};

/// What a pronoun aligned by the built-in aligner alone means for the annotator.
const GUESSED: &str = "No translation already aligned (the reference) gave this pronoun its link: the statistical \
                       aligner guessed it. The words with a dashed line under them may not be the pronoun's \
                       translation; if they are not, tag incorrect_word_alignment.";

/// The width the translation keeps beside the annotation panel, which its header needs (down to
/// the window's minimum width of 760).
pub const TRANSLATION_WIDTH: f32 = 440.0;

/// Where the annotator is in the chosen set.
pub struct Position {
    pub index: usize,
    pub len: usize,
    pub annotated: usize,
}

/// The header: back, the category, prev / position / next; then the example and the progress.
/// Laid out for any width down to the window's minimum: the category gets a row of its own when
/// it does not fit between the buttons, and is cut short (with the whole title on hover) when it
/// does not fit there either; the progress bar shrinks before the example line is cut.
pub fn header(ui: &mut Ui, master: &Master, candidate: &Candidate, show_corpus: bool, at: &Position) -> Option<Intent> {
    let mut intent = None;
    let (example, category) = master.example_of(candidate)?;
    let title = RichText::new(category.title()).heading();
    let title_width = egui::WidgetText::from(title.clone())
        .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Heading)
        .size()
        .x;
    let mut title_fits = false;
    ui.horizontal(|ui| {
        if ui.button("⬅ Categories").on_hover_text("Back to the category browser (Esc)").clicked() {
            intent = Some(Intent::Back);
        }
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let last = at.index + 1 == at.len;
            let next = if last { "Finish ⏵" } else { "Next ⏵" };
            let hint = if last { "Back to the categories (Right arrow key)" } else { "Next example (Right arrow key)" };
            if ui.add(egui::Button::new(next).min_size(vec2(84.0, 28.0))).on_hover_text(hint).clicked() {
                intent = Some(Intent::Next);
            }
            // Fixed width, so the buttons do not move as the numbers change.
            let position = RichText::new(format!("{} / {}", at.index + 1, at.len)).strong();
            ui.add_sized([68.0, 28.0], egui::Label::new(position));
            let prev = ui.add_enabled(at.index > 0, egui::Button::new("⏴ Prev").min_size(vec2(84.0, 28.0)));
            if prev.on_hover_text("Previous example (Left arrow key)").clicked() {
                intent = Some(Intent::Prev);
            }
            // The category between the buttons when it fits there whole.
            ui.add_space(8.0);
            title_fits = title_width <= ui.available_width();
            if title_fits {
                ui.with_layout(Layout::left_to_right(Align::Center), |ui| ui.label(title.clone()));
            }
        });
    });
    if !title_fits {
        ui.add(egui::Label::new(title).truncate());
    }
    ui.horizontal(|ui| {
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let text = format!("{} of {} annotated", at.annotated, at.len);
            let width = (ui.available_width() * 0.45).clamp(140.0, 264.0);
            ui.add(style::progress_bar(at.annotated, at.len, text).desired_width(width));
            ui.with_layout(Layout::left_to_right(Align::Center), |ui| {
                let mut about = format!("Example {}", example.no);
                if show_corpus && let Some(corpus) = master.corpus(candidate.corpus) {
                    about.push_str(&format!(" · translation: {}", corpus.name));
                }
                ui.add(egui::Label::new(RichText::new(about).weak()).truncate());
            });
        });
    });
    if show_corpus && let Some(note) = protest::metrics::auto_eval::match_note(master, candidate.id) {
        // What the automatic evaluation settled: correct, incorrect, or left to people.
        let mark = match master.auto_eval.settled(candidate.id) {
            Some(true) => "✔",
            Some(false) => "✖",
            None => "?",
        };
        ui.add(
            egui::Label::new(RichText::new(format!("{mark} {note}")).color(ui.visuals().hyperlink_color)).truncate(),
        );
    }
    if let Some(note) = window::alignment_note(master, candidate) {
        let text = RichText::new(format!("⚠ {note}")).color(ui.visuals().warn_fg_color);
        ui.add(egui::Label::new(text).truncate()).on_hover_text(GUESSED);
    }
    intent
}

/// The texts; returns a token the annotator toggled. Whenever the example is arrived at (`visit`
/// counts the arrivals) and whenever the space for the texts changes size, they are scrolled so
/// that the pronoun and its translation (or the line where it would be) are in view, with their
/// sentences and the antecedent's when they fit; `reveal` is a token to bring into view (one
/// toggled by a digit key).
pub fn texts(
    ui: &mut Ui,
    master: &Master,
    candidate: &Candidate,
    record: Option<&Record>,
    editable: bool,
    reveal: Option<TokenRef>,
    visit: u64,
) -> Option<(Role, TokenRef)> {
    let Some(window) = window::of_candidate(master, candidate, record) else {
        ui.colored_label(ui.visuals().error_fg_color, "This candidate's example or texts are missing from the file.");
        return None;
    };
    let palette = Palette::of(ui.visuals());
    let languages = &master.languages;
    let pronoun_sentence = master.example(candidate.example).map(|e| e.sentence);
    let translation = master.corpus(candidate.corpus);
    let numbers = Numbers::of(candidate);
    let mut toggled = None;
    // One scroll position per candidate, kept while the app runs.
    style::visible_scroll_bars(ui);
    // Brought into view at once: the annotator reads from the first frame.
    let area = egui::ScrollArea::vertical().id_salt(candidate.id).auto_shrink([false, false]).animated(false);
    area.show(ui, |ui| {
        let mut marked = Marked::default();
        for (source, target) in window.source.iter().zip(&window.target) {
            let tokens_before = marked.clone();
            let pronoun_here = Some(source.index) == pronoun_sentence;
            let row = ui.horizontal_top(|ui| {
                let number = RichText::new((source.index + 1).to_string()).size(13.0);
                let number = if Some(source.index) == pronoun_sentence { number.strong() } else { number.weak() };
                ui.add_sized([40.0, 22.0], egui::Label::new(number)).on_hover_text("Sentence number in the corpus");
                ui.vertical(|ui| {
                    line(ui, &languages.source, source, &palette, None, editable, None, &mut marked);
                    // The key numbers only where the keys work.
                    let numbers = editable.then_some(&numbers);
                    let top = ui.cursor().top();
                    marked.in_translation = true;
                    if let Some(t) =
                        line(ui, &languages.target, target, &palette, numbers, editable, reveal, &mut marked)
                    {
                        toggled = Some(t);
                    }
                    marked.in_translation = false;
                    if pronoun_here {
                        // Where the pronoun's translation would be, when nothing is aligned to it.
                        let height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
                        let left = ui.min_rect().left();
                        marked.translation_line =
                            Some(egui::Rect::from_min_size(egui::pos2(left, top), vec2(60.0, height)));
                    }
                    if let Some(note) = translation.and_then(|c| window::boundary_note(c, target.index)) {
                        boundary_note(ui, &note);
                    }
                });
            });
            marked.row(&tokens_before, row.response.rect);
            ui.add_space(10.0);
        }
        // Shown on each arrival and for each size of the view; scrolling by hand in between stays.
        let viewport = ui.clip_rect().size().round();
        let shown = ui.make_persistent_id(("pronoun shown", candidate.id));
        if ui.data(|d| d.get_temp::<(u64, Vec2)>(shown)) != Some((visit, viewport)) && !ui.is_sizing_pass() {
            ui.data_mut(|d| d.insert_temp(shown, (visit, viewport)));
            if let Some((rect, align)) = marked.to_show(viewport.y - 24.0) {
                ui.scroll_to_rect(rect.expand(12.0), align);
            }
        }
    });
    toggled
}

/// The mark under a translation whose sentence boundaries were inferred from the system's
/// output: quiet when they are sure, in the warning colour when not.
fn boundary_note(ui: &mut Ui, note: &window::BoundaryNote) {
    ui.horizontal(|ui| {
        ui.add_space(34.0); // under the text, past the language tag
        let (mark, color) =
            if note.uncertain { ("⚠", ui.visuals().warn_fg_color) } else { ("✂", ui.visuals().weak_text_color()) };
        let text = RichText::new(format!("{mark} {}", note.text)).size(12.5).color(color);
        ui.add(egui::Label::new(text).wrap()).on_hover_text(
            "The system's output did not come one line per source sentence: this translation was cut from it \
             automatically, by where its words fit the source's sentences.",
        );
    });
}

/// Where the highlighted tokens and their sentences are, to scroll them into view.
#[derive(Default, Clone, PartialEq)]
struct Marked {
    /// The pronoun and the tokens aligned to it.
    pronoun: Option<egui::Rect>,
    /// The antecedent heads and the tokens aligned to them.
    antecedent: Option<egui::Rect>,
    /// The sentences (source and translation) holding those.
    pronoun_rows: Option<egui::Rect>,
    antecedent_rows: Option<egui::Rect>,
    /// The start of the translation of the pronoun's sentence.
    translation_line: Option<egui::Rect>,
    /// The tokens of the translation aligned to the pronoun.
    translation: Option<egui::Rect>,
    /// The line being laid out is a translation.
    in_translation: bool,
}

fn grow(r: &mut Option<egui::Rect>, rect: egui::Rect) {
    *r = Some(r.map_or(rect, |r| r.union(rect)));
}

fn union(a: Option<egui::Rect>, b: Option<egui::Rect>) -> Option<egui::Rect> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.union(b)),
        (a, b) => a.or(b),
    }
}

impl Marked {
    fn add(&mut self, marks: &Marks, rect: egui::Rect) {
        if marks.pronoun {
            grow(&mut self.pronoun, rect);
            if self.in_translation {
                grow(&mut self.translation, rect);
            }
        }
        if marks.antecedent {
            grow(&mut self.antecedent, rect);
        }
    }

    /// A sentence row was laid out at `rect`; `before` is what was marked before it.
    fn row(&mut self, before: &Marked, rect: egui::Rect) {
        if self.pronoun != before.pronoun {
            grow(&mut self.pronoun_rows, rect);
        }
        if self.antecedent != before.antecedent {
            grow(&mut self.antecedent_rows, rect);
        }
    }

    /// What to bring into view in a viewport `height` tall, and how to align it: the first that
    /// fits of the sentences of the pronoun and the antecedent, the pronoun's sentence with the
    /// antecedent head, the pronoun's sentence, the highlighted tokens, the pronoun and its
    /// translation (without a token aligned to the pronoun: the start of its sentence's
    /// translation). When even those two are further apart than the view is tall (a sentence of
    /// a hundred words in a small window), the translation, at the bottom of the view with as
    /// much as fits above it: that is what is judged and clicked, and the annotation panel names
    /// the source word beside it.
    fn to_show(&self, height: f32) -> Option<(egui::Rect, Option<egui::Align>)> {
        let translation = self.translation.or(self.translation_line);
        let pronoun = union(self.pronoun, translation);
        let choices = [
            union(self.pronoun_rows, self.antecedent_rows),
            union(self.pronoun_rows, self.antecedent),
            self.pronoun_rows,
            union(pronoun, self.antecedent),
            pronoun,
        ];
        match choices.into_iter().flatten().find(|r| r.height() <= height) {
            Some(rect) => Some((rect, None)),
            None => translation.or(pronoun).map(|rect| (rect, Some(egui::Align::Max))),
        }
    }
}

/// One sentence highlighted like the translation window's, not clickable (the lookup's rows).
pub fn sentence(ui: &mut Ui, language: &str, sentence: &Sentence) {
    line(ui, language, sentence, &Palette::of(ui.visuals()), None, false, None, &mut Marked::default());
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
/// The highlighted tokens' places go into `marked`; `reveal` is scrolled into view.
#[allow(clippy::too_many_arguments)]
fn line(
    ui: &mut Ui,
    language: &str,
    sentence: &Sentence,
    palette: &Palette,
    numbers: Option<&Numbers>,
    editable: bool,
    reveal: Option<TokenRef>,
    marked: &mut Marked,
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
                marked.add(&token.marks, response.rect);
                if numbers.is_some() && reveal == Some(token.at) {
                    response.scroll_to_me(None);
                }
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

/// The digit keys that toggle a token, after it: each number in its role's colour, so "1" and
/// "Shift+1" tokens are told apart.
fn badge(ui: &Ui, badges: &[(Role, usize)], palette: &Palette) -> Option<std::sync::Arc<egui::Galley>> {
    if badges.is_empty() {
        return None;
    }
    let mut job = egui::text::LayoutJob::default();
    for (i, (role, n)) in badges.iter().enumerate() {
        let color = match role {
            Role::Pronoun => palette.selected_pronoun,
            Role::Antecedent => palette.selected_antecedent,
        };
        let text = if i == 0 { n.to_string() } else { format!(" {n}") };
        job.append(&text, 0.0, egui::TextFormat::simple(FontId::proportional(11.5), color));
    }
    Some(ui.painter().layout_job(job))
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
    let badge = badge(ui, badges, palette);
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
        if marks.pronoun_guessed {
            guessed_line(painter, word_rect.x_range(), word_rect.bottom() + 1.5, ui.visuals());
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
    // A highlighted word says what it is to screen readers (and tests): "pronoun: They".
    let role = match (marks.pronoun, marks.antecedent) {
        (true, true) => Some("pronoun and antecedent head"),
        (true, false) => Some("pronoun"),
        (false, true) => Some("antecedent head"),
        (false, false) => None,
    };
    if let Some(role) = role {
        let guessed = if marks.pronoun_guessed { " (aligned by the built-in aligner alone)" } else { "" };
        response.widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, format!("{role}: {text}{guessed}")));
    }
    if marks.pronoun_guessed {
        return response.on_hover_text(GUESSED);
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
    let guessed = if marks.pronoun_guessed { " — aligned by the built-in aligner alone (least sure)" } else { "" };
    let text = match (marks.pronoun, marks.antecedent) {
        (true, true) => format!(
            "Aligned to both the pronoun{} and the antecedent head{}: click to choose which to select",
            key(Role::Pronoun),
            key(Role::Antecedent)
        ),
        (true, false) => format!("Aligned to the pronoun: click to select or deselect{}", key(Role::Pronoun)),
        _ => format!("Aligned to the antecedent head: click to select or deselect{}", key(Role::Antecedent)),
    };
    text + guessed
}

/// The colour key under the texts; `keys` where the digit keys select tokens, `guessed` where the
/// pronoun's words carry the dashed line of the built-in aligner's guess. In a narrow window its
/// words are shorter, so that it takes one line and leaves the texts their room.
pub fn legend(ui: &mut Ui, anaphoric: bool, keys: bool, guessed: bool) {
    let palette = Palette::of(ui.visuals());
    let narrow = ui.available_width() < 600.0;
    let words = |long: &'static str, short: &'static str| if narrow { short } else { long };
    let line = if narrow { 18.0 } else { 28.0 };
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = if narrow { 8.0 } else { 14.0 };
        ui.add(egui::Label::new(RichText::new(LEGEND).size(13.0).weak()).extend());
        chip(ui, palette.pronoun, palette.on_highlight, "pronoun");
        chip(ui, palette.selected_pronoun, palette.on_selected, words("selected for the pronoun", "selected"));
        if anaphoric {
            chip(ui, palette.antecedent, palette.on_highlight, words("antecedent head", "antecedent"));
            let selected = words("selected for the antecedent", "selected");
            chip(ui, palette.selected_antecedent, palette.on_selected, selected);
            line_key(ui, line, words("antecedent span", "span"), |painter, x, y| {
                painter.hline(x, y, Stroke::new(2.0, palette.span));
            });
        }
        if guessed {
            let visuals = ui.visuals().clone();
            line_key(ui, line, words(GUESSED_KEY, "guessed"), |painter, x, y| guessed_line(painter, x, y, &visuals))
                .on_hover_text(GUESSED);
        }
        // The numbers' hover texts name their keys; in a narrow window that must do.
        if keys && !narrow {
            ui.add(egui::Label::new(RichText::new("numbers: keys").size(13.0).weak()).extend());
        }
    });
}

/// A colour of the key: its words on it. One piece, so that it wraps to the next row whole.
fn chip(ui: &mut Ui, fill: Color32, text_color: Color32, text: &str) {
    let galley = ui.painter().layout_no_wrap(text.to_owned(), FontId::proportional(13.0), text_color);
    let (rect, response) = ui.allocate_exact_size(galley.size() + vec2(8.0, 2.0), Sense::hover());
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, text));
    ui.painter().rect_filled(rect, CornerRadius::same(4), fill);
    ui.painter().galley(rect.min + vec2(4.0, 1.0), galley, text_color);
}

/// A line of the key (`line` wide, drawn by `draw` along its x range at height y) and its words,
/// as one piece: in a row of their own they wrap together, never the words cut at the edge.
fn line_key(ui: &mut Ui, line: f32, text: &str, draw: impl FnOnce(&egui::Painter, egui::Rangef, f32)) -> Response {
    let text_color = ui.visuals().text_color();
    let galley = ui.painter().layout_no_wrap(text.to_owned(), FontId::proportional(13.0), text_color);
    let gap = ui.spacing().item_spacing.x.min(8.0);
    let size = vec2(line + gap + galley.size().x, galley.size().y.max(18.0));
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Label, true, text));
    draw(ui.painter(), egui::Rangef::new(rect.left(), rect.left() + line), rect.bottom() - 3.0);
    let top = rect.center().y - galley.size().y / 2.0;
    ui.painter().galley(egui::pos2(rect.left() + line + gap, top), galley, text_color);
    response
}

/// The dashed line under a pronoun's words that the built-in aligner alone aligned.
fn guessed_line(painter: &egui::Painter, x: egui::Rangef, y: f32, visuals: &egui::Visuals) {
    let line = [egui::pos2(x.min, y), egui::pos2(x.max, y)];
    painter.extend(egui::Shape::dashed_line(&line, Stroke::new(1.5, visuals.warn_fg_color), 3.0, 2.0));
}

/// The colour key's words for the dashed line under a pronoun's words the aligner alone aligned.
pub const GUESSED_KEY: &str = "aligned by the aligner alone";

/// The colour key's first words (where the texts end above it).
pub const LEGEND: &str = "Colours:";
