//! Messages for the user, calm and out of the way: what an action did or found (information, and
//! warnings about one example) floats in the bottom right corner for a few seconds, then stays
//! as one line in the status line, whose history lists everything said this session. Errors (a
//! failed save, a file that cannot be opened) float in red until dismissed — a failure is never
//! silent — and the changes not saved stay as long as that is so.
//!
//! A message belongs to what it is about ([`Scope`]): one about an example goes when the example
//! is left, and one about an operation is replaced when that operation says something again, so
//! that nothing stale covers the work that follows. They float over the content rather than above
//! it: a message appearing or going never moves what the user is looking at or about to click.

use crate::intent::Intent;
use egui::{Align2, Color32, Id, Order, RichText, Ui};
use protest::model::CandidateId;

/// How long information floats before it goes to the status line.
pub const INFO_SECONDS: f64 = 6.0;
/// How many messages the history keeps.
const HISTORY: usize = 200;

/// How much a message matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Error,
    Warning,
    Info,
}

impl Kind {
    fn icon(self) -> &'static str {
        match self {
            Kind::Error => "⚠",
            Kind::Warning => "⚠",
            Kind::Info => "ℹ",
        }
    }
}

/// What a message is about, and so when it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The window or the file: it goes when dismissed or faded.
    Window,
    /// One example: it goes when the example is left.
    Example(CandidateId),
    /// An operation (the automatic match, adding an annotator…): the next message of the same
    /// operation replaces it.
    Operation(&'static str),
}

#[derive(Debug, Clone)]
struct Message {
    kind: Kind,
    scope: Scope,
    text: String,
}

/// A message as the history keeps it: when it was said (the wall clock, for reading).
#[derive(Debug, Clone)]
struct Said {
    at: String,
    kind: Kind,
    text: String,
}

#[derive(Default)]
pub struct Messages {
    /// Errors, until dismissed or their scope ends.
    errors: Vec<Message>,
    /// The latest information or warning while it floats, and when it was first drawn.
    toast: Option<(Message, Option<f64>)>,
    /// Everything said this session, oldest first.
    history: Vec<Said>,
    /// Changes are not saved: shown for exactly as long as that is so, with a *Retry* button
    /// when trying again can help.
    pub not_saved: Option<String>,
    pub can_retry: bool,
    /// With a *Download* button: the web page whose link no longer works offers its changes as a
    /// file.
    pub can_download: bool,
    /// How many messages floated last frame.
    floating: usize,
    /// What the history's times are read from (the computer's clock but in tests).
    pub clock: protest::model::clock::Clock,
}

impl Messages {
    /// An error about the window or the file, until dismissed.
    pub fn error(&mut self, message: impl Into<String>) {
        self.error_for(Scope::Window, message);
    }

    /// An error about an example or an operation, until dismissed or its scope ends.
    pub fn error_for(&mut self, scope: Scope, message: impl Into<String>) {
        let message = Message { kind: Kind::Error, scope, text: message.into() };
        self.replace(scope);
        // The same failure repeating (e.g. every save to a full disk) is shown once.
        if self.errors.last().is_none_or(|e| e.text != message.text) {
            self.remember(&message);
            self.errors.push(message);
        }
    }

    /// What an action did or found: floats for a few seconds, then stays in the status line.
    pub fn info(&mut self, message: impl Into<String>) {
        self.say(Kind::Info, Scope::Window, message.into());
    }

    /// [`Messages::info`] about an operation, replacing what it said before.
    pub fn info_for(&mut self, scope: Scope, message: impl Into<String>) {
        self.say(Kind::Info, scope, message.into());
    }

    /// A warning about an example (a key that does nothing there…): floats a few seconds, and goes
    /// at once when the example is left.
    pub fn warn_for(&mut self, scope: Scope, message: impl Into<String>) {
        self.say(Kind::Warning, scope, message.into());
    }

    fn say(&mut self, kind: Kind, scope: Scope, text: String) {
        self.replace(scope);
        let message = Message { kind, scope, text };
        self.remember(&message);
        self.toast = Some((message, None));
    }

    fn remember(&mut self, message: &Message) {
        // A clock outside the years a time can have says no time rather than a wrong one.
        let at = self
            .clock
            .now()
            .map_or_else(|_| "time unknown".into(), |t| t.with_timezone(&chrono::Local).format("%H:%M:%S").to_string());
        self.history.push(Said { at, kind: message.kind, text: message.text.clone() });
        if self.history.len() > HISTORY {
            self.history.remove(0);
        }
    }

    /// An operation speaks again: what it said before goes.
    fn replace(&mut self, scope: Scope) {
        if matches!(scope, Scope::Operation(_)) {
            self.drop_where(|m| m.scope == scope);
        }
    }

    /// The example was left: what was said about it goes (the history keeps it).
    pub fn left(&mut self, candidate: CandidateId) {
        self.drop_where(|m| m.scope == Scope::Example(candidate));
    }

    fn drop_where(&mut self, gone: impl Fn(&Message) -> bool) {
        self.errors.retain(|m| !gone(m));
        if self.toast.as_ref().is_some_and(|(m, _)| gone(m)) {
            self.toast = None;
        }
    }

    /// The errors shown.
    #[cfg(test)]
    pub fn errors(&self) -> impl Iterator<Item = &str> {
        self.errors.iter().map(|m| m.text.as_str())
    }

    /// The message floating for a few seconds, while it does.
    #[cfg(test)]
    pub fn current_info(&self) -> Option<&str> {
        self.toast.as_ref().map(|(m, _)| m.text.as_str())
    }

    /// The last thing said, as the status line shows it.
    pub fn last(&self) -> Option<&str> {
        self.history.last().map(|s| s.text.as_str())
    }

    fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.toast.is_none()
    }

    /// The changes not saved, in a bar of its own above the status line (the window's content
    /// makes room for it: it may stay for minutes, while the server is away, and must cover
    /// nothing), with *Retry* (and *Download*, when the web page's link no longer works) before
    /// the text, which takes the rest of the width: what was clicked.
    pub fn not_saved_bar(&self, ui: &mut Ui) -> Option<Intent> {
        let message = self.not_saved.as_ref()?;
        let mut asked = None;
        ui.add_space(4.0);
        // Not dismissable: it goes when the changes are saved.
        frame(ui, fills(ui).0, |ui| {
            ui.label(RichText::new("⚠").strong());
            if self.can_download {
                let download =
                    ui.button("Download").on_hover_text("Your changes not saved, as a file for the researcher");
                if download.clicked() {
                    asked = Some(Intent::DownloadUnsent);
                }
            }
            if self.can_retry && ui.button("Retry").on_hover_text("Try again to save").clicked() {
                asked = Some(Intent::RetrySave);
            }
            ui.add(egui::Label::new(RichText::new(message).strong()).wrap());
        });
        asked
    }

    /// Draws what floats over the content (errors until dismissed, information for a few
    /// seconds), its bottom right corner at `corner`, `width` wide.
    pub fn show(&mut self, ctx: &egui::Context, corner: egui::Pos2, width: f32) {
        let now = ctx.input(|i| i.time);
        if let Some((_, shown)) = &mut self.toast {
            let since = *shown.get_or_insert(now);
            if now - since >= INFO_SECONDS {
                self.toast = None;
            } else {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(INFO_SECONDS - (now - since)));
            }
        }
        let floating = self.errors.len() + usize::from(self.toast.is_some());
        if std::mem::replace(&mut self.floating, floating) != floating {
            // The stack is placed by its size of the last frame: again, with its new size.
            ctx.request_repaint();
        }
        if self.is_empty() {
            return;
        }
        egui::Area::new(Id::unique("messages"))
            .order(Order::Foreground)
            .pivot(Align2::RIGHT_BOTTOM)
            .fixed_pos(corner)
            .show(ctx, |ui| {
                ui.set_width(width);
                let (error_bg, notice_bg) = fills(ui);
                let mut dismissed = None;
                for (i, message) in self.errors.iter().enumerate() {
                    if card(ui, &message.text, error_bg, Kind::Error) {
                        dismissed = Some(i);
                    }
                }
                if let Some(i) = dismissed {
                    self.errors.remove(i);
                }
                if let Some((message, _)) = &self.toast
                    && card(ui, &message.text, notice_bg, message.kind)
                {
                    self.toast = None;
                }
            });
    }

    /// The last message in one line of the status line (the whole of it on hover); a click
    /// opens the history of the session's messages.
    pub fn status_ui(&self, ui: &mut Ui) {
        let Some(last) = self.history.last() else { return };
        let text = RichText::new(format!("{} {}", last.kind.icon(), first_line(&last.text))).small();
        let button = egui::Button::new(text).frame(false).truncate();
        let response = ui.add(button).accessible_name("Messages of this session");
        let response = response.on_hover_text(format!("{}\n\nClick for every message of this session.", last.text));
        let popup = egui::Popup::from_toggle_button_response(&response)
            .align(egui::RectAlign::TOP_END)
            .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
            .width(ui.ctx().content_rect().width().min(560.0) - 24.0);
        popup.show(|ui| {
            ui.label(RichText::new("Messages of this session, newest first").strong());
            egui::ScrollArea::vertical().max_height(ui.ctx().content_rect().height() * 0.6).show(ui, |ui| {
                for said in self.history.iter().rev() {
                    ui.horizontal_top(|ui| {
                        ui.label(RichText::new(&said.at).small().weak());
                        ui.label(said.kind.icon());
                        ui.add(egui::Label::new(&said.text).wrap());
                    });
                }
            });
        });
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

fn fills(ui: &Ui) -> (Color32, Color32) {
    if ui.visuals().dark_mode {
        (Color32::from_rgb(0x5A, 0x1E, 0x1E), Color32::from_rgb(0x1E, 0x3A, 0x4A))
    } else {
        (Color32::from_rgb(0xFD, 0xE2, 0xE2), Color32::from_rgb(0xE3, 0xF1, 0xFB))
    }
}

/// One message with its dismiss button; true when dismissed.
fn card(ui: &mut Ui, message: &str, fill: Color32, kind: Kind) -> bool {
    let mut dismissed = false;
    frame(ui, fill, |ui| {
        ui.label(RichText::new(kind.icon()).strong());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
            let dismiss = ui.small_button("×").on_hover_text("Dismiss").accessible_name("Dismiss message");
            dismissed = dismiss.clicked();
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Min), |ui| {
                let text = RichText::new(message);
                ui.add(egui::Label::new(if kind == Kind::Info { text } else { text.strong() }).wrap());
            });
        });
    });
    dismissed
}

/// A message's frame in the stack, its content in one row.
fn frame(ui: &mut Ui, fill: Color32, row: impl FnOnce(&mut Ui)) {
    egui::Frame::new()
        .fill(fill)
        .stroke(ui.visuals().window_stroke)
        .inner_margin(8.0)
        .corner_radius(6.0)
        .shadow(ui.visuals().popup_shadow)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(row);
        });
    ui.add_space(4.0);
}
