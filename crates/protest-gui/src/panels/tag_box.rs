//! The tag box: the record's tags as chips with ×, and a text field with a drop-down of the
//! suggested tags filtered as you type. Enter adds the highlighted suggestion or what was typed
//! (nothing, in an empty field where no suggestion was chosen with Up / Down); Backspace in the
//! empty field removes the last tag. Text typed and not added is never dropped silently: once
//! the field has given up the keyboard (Esc, a click elsewhere) it is added a moment after the
//! last keystroke ([`TagBox::due`]), as typed remarks are stored, and leaving the example adds
//! it at once ([`TagBox::take_typed`]); text that is not a tag stays in the box, kept for its
//! example.

use crate::panels::typed::TYPED_DELAY;
use egui::{Key, Modifiers, Popup, RichText, Ui};
use protest::annotate::edit::Edit;
use protest::annotate::suggestions;
use protest::model::CandidateId;
use protest::model::tags::{self, TagProblem};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Default)]
pub struct TagBox {
    /// The candidate the box is shown for.
    of: Option<CandidateId>,
    typed: String,
    /// Text that was not a tag when its example was left, kept for that example.
    held: BTreeMap<CandidateId, String>,
    /// The option Enter adds, moved with the Up and Down keys.
    highlight: usize,
    /// The annotator picked an option with Up / Down (Enter in an empty field adds only then).
    chosen: bool,
    /// The pointer was over the drop-down last frame: keep it open while the click completes.
    popup_hovered: bool,
    focus_requested: bool,
    problem: Option<String>,
    /// The field had the keyboard when last drawn.
    focused: bool,
    /// When text was last typed, or the field gave up the keyboard with text in it: the text is
    /// added [`TYPED_DELAY`] later, once the field no longer has the keyboard.
    typed_at: Option<f64>,
}

impl TagBox {
    pub fn request_focus(&mut self) {
        self.focus_requested = true;
    }

    /// Shows the box for `candidate`: on another example what was typed is gone (added or held
    /// by [`TagBox::take_typed`] when its example was left), and text held for this one is back.
    pub fn show_for(&mut self, candidate: CandidateId) {
        if self.of != Some(candidate) {
            let held = std::mem::take(&mut self.held);
            *self = TagBox { of: Some(candidate), ..TagBox::default() };
            self.held = held;
            self.typed = self.held.remove(&candidate).unwrap_or_default();
        }
    }

    /// Text typed and not added, on leaving its example: the tag to add (the field is emptied),
    /// or why the text is not a tag (it is held for the example and comes back with it).
    pub fn take_typed(&mut self) -> Option<(CandidateId, Result<String, TagProblem>)> {
        let candidate = self.of?;
        self.typed_at = None;
        if self.typed.trim().is_empty() {
            return None;
        }
        let taken = tags::normalize(&self.typed);
        match &taken {
            Ok(_) => self.typed.clear(),
            Err(_) => _ = self.held.insert(candidate, self.typed.clone()),
        }
        Some((candidate, taken))
    }

    /// Text typed and left: the tag to add, once [`TYPED_DELAY`] passed since the last keystroke
    /// with the field no longer having the keyboard (nor the pointer on its drop-down, a click
    /// on which is picking a tag). Text that is not a tag stays in the box, saying why.
    pub fn due(&mut self, now: f64) -> Option<(CandidateId, String)> {
        let at = self.typed_at.filter(|_| !self.focused && !self.popup_hovered)?;
        if now - at < TYPED_DELAY {
            return None;
        }
        self.typed_at = None;
        match tags::normalize(&self.typed) {
            Ok(tag) => {
                self.typed.clear();
                Some((self.of?, tag))
            }
            Err(why) => {
                self.problem = Some(format!("“{}” is not added: it {why}.", self.typed.trim()));
                None
            }
        }
    }

    /// When typed text is next due to be added ([`TagBox::due`]): the window wakes up then. Not
    /// while the pointer is on the drop-down: its moving brings the frames.
    pub fn due_at(&self) -> Option<f64> {
        self.typed_at.filter(|_| !self.focused && !self.popup_hovered).map(|at| at + TYPED_DELAY)
    }

    /// The text typed and not added, if any.
    pub fn typed(&self) -> Option<&str> {
        Some(self.typed.trim()).filter(|t| !t.is_empty())
    }

    pub fn ui(&mut self, ui: &mut Ui, suggestions: &[String], present: &BTreeSet<String>) -> Option<Edit> {
        let mut edit = None;
        let label = ui.label(RichText::new("Tags").strong());
        if !present.is_empty() {
            ui.horizontal_wrapped(|ui| {
                for tag in present {
                    if chip(ui, tag) {
                        edit = Some(Edit::RemoveTag(tag.clone()));
                    }
                }
            });
        }
        let field_id = ui.make_persistent_id("tag field");
        let had_focus = ui.memory(|m| m.has_focus(field_id));
        let options = self.options(suggestions, present);
        if had_focus {
            self.move_highlight(ui, options.len());
            // Backspace in the empty field takes back the last tag, as in a chip input.
            let backspace = self.typed.is_empty() && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Backspace));
            if backspace && let Some(last) = present.last() {
                edit = Some(Edit::RemoveTag(last.clone()));
            }
        }
        let response = ui.add(
            egui::TextEdit::singleline(&mut self.typed)
                .id(field_id)
                .hint_text("type or pick a tag, Enter adds it")
                .desired_width(f32::INFINITY),
        );
        let response = response.labelled_by(label.id);
        if std::mem::take(&mut self.focus_requested) {
            response.request_focus();
            response.scroll_to_me(None);
        }
        let now = ui.input(|i| i.time);
        if response.changed() {
            self.highlight = 0;
            self.chosen = false;
            self.problem = None;
            self.typed_at = Some(now);
        }
        let mut picked = None;
        let enter = response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        // Nothing typed and nothing chosen: Enter adds nothing (and the field keeps the keyboard).
        if enter && self.active() {
            picked = options.get(self.highlight).map(|o| o.tag.clone());
        }
        let open = (response.has_focus() || self.popup_hovered) && !options.is_empty();
        let (clicked, hovered) = self.suggestions_ui(&response, &options, open, had_focus);
        picked = clicked.or(picked);
        self.popup_hovered = hovered;
        if enter || picked.is_some() {
            response.request_focus(); // keep adding tags; Esc leaves the field
        }
        if let Some(tag) = picked {
            edit = self.add(tag);
        }
        if response.lost_focus() && self.typed().is_some() && self.problem.is_none() {
            self.typed_at = Some(now); // a moment from now, as after a keystroke
        }
        if self.typed().is_none() {
            self.typed_at = None;
        }
        self.focused = response.has_focus();
        if let Some(problem) = &self.problem {
            ui.colored_label(ui.visuals().warn_fg_color, problem);
        } else if !response.has_focus() && !self.typed.trim().is_empty() {
            // Typed, then Esc or a click elsewhere: it looks like a tag but is not one yet.
            let text = format!("“{}” is not added yet: it is added in a moment.", self.typed.trim());
            ui.add(egui::Label::new(RichText::new(text).small().color(ui.visuals().warn_fg_color)).wrap());
        }
        edit
    }

    fn move_highlight(&mut self, ui: &mut Ui, n: usize) {
        let (down, up) = ui.input_mut(|i| {
            (i.consume_key(Modifiers::NONE, Key::ArrowDown), i.consume_key(Modifiers::NONE, Key::ArrowUp))
        });
        if down {
            // The first Down in an empty field picks the first option.
            self.highlight += usize::from(self.active());
            self.chosen = true;
        } else if up {
            self.highlight = self.highlight.saturating_sub(1);
            self.chosen = true;
        }
        self.highlight = self.highlight.min(n.saturating_sub(1));
    }

    /// Whether Enter would add the highlighted option: something was typed or chosen.
    fn active(&self) -> bool {
        self.chosen || !self.typed.trim().is_empty()
    }

    /// The drop-down of tags under the box, the highlighted one kept in view: the tag clicked,
    /// and whether the pointer is over the list.
    fn suggestions_ui(
        &self,
        response: &egui::Response,
        options: &[TagOption],
        open: bool,
        had_focus: bool,
    ) -> (Option<String>, bool) {
        let mut picked = None;
        let width = response.rect.width();
        let popup = Popup::from_response(response).open(open).width(width).show(|ui| {
            // As wide as the box: the popup's own width is its last list's, which would wrap a
            // longer tag over lines.
            ui.set_min_width(width - egui::Frame::popup(ui.style()).total_margin().sum().x);
            // Up / Down move the highlight at once: no scrolling animation to wait for. As tall as
            // its list, up to its most: the popup's own size is its last list's, which a longer
            // list must not be held to (its last lines reachable only with Down).
            let most = 220.0;
            let list = egui::ScrollArea::vertical().max_height(most).min_scrolled_height(most).animated(false);
            list.show(ui, |ui| {
                for (i, option) in options.iter().enumerate() {
                    let item = ui.selectable_label(self.active() && self.highlight == i, &option.text);
                    if self.highlight == i && had_focus {
                        item.scroll_to_me(None);
                    }
                    if item.clicked() {
                        picked = Some(option.tag.clone());
                    }
                }
            });
        });
        (picked, popup.is_some_and(|p| p.response.contains_pointer()))
    }

    /// The drop-down: the suggestions matching what was typed, then what was typed as a new tag.
    fn options(&self, suggestions: &[String], present: &BTreeSet<String>) -> Vec<TagOption> {
        let matches = suggestions::matching_tags(suggestions, &self.typed, present);
        let typed = self.typed.trim();
        let new = (!typed.is_empty() && !matches.contains(&typed) && !present.contains(typed))
            .then(|| TagOption { tag: typed.to_owned(), text: format!("new tag: {typed}") });
        let existing = matches.into_iter().map(|t| TagOption { tag: t.to_owned(), text: t.to_owned() });
        existing.chain(new).collect()
    }

    fn add(&mut self, tag: String) -> Option<Edit> {
        if !tags::is_valid(&tag) {
            self.problem = Some("A tag is one word: use _ instead of spaces.".into());
            return None;
        }
        self.typed.clear();
        self.typed_at = None;
        self.highlight = 0;
        self.chosen = false;
        self.problem = None;
        Some(Edit::AddTag(tag))
    }
}

/// A line of the drop-down.
struct TagOption {
    tag: String,
    text: String,
}

/// A tag chip; true when its × was clicked.
fn chip(ui: &mut Ui, tag: &str) -> bool {
    let mut remove = false;
    egui::Frame::new()
        .fill(ui.visuals().faint_bg_color)
        .stroke(ui.visuals().widgets.noninteractive.bg_stroke)
        .corner_radius(10.0)
        .inner_margin(egui::Margin { left: 8, right: 2, top: 1, bottom: 1 })
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                ui.label(tag);
                let x = ui.add(egui::Button::new("×").frame(false)).on_hover_text("Remove this tag");
                remove = x.accessible_name(format!("Remove tag {tag}")).clicked();
            });
        });
    remove
}
