//! Messages for the user: errors in red until dismissed (a failed save is never silent), notices
//! (journal recovery, read-only) in a calmer colour until dismissed, and what the last action did
//! ("Undid: pronoun set to yes, example 12") for a few seconds.
//!
//! They are a stack floating in the bottom right corner of the window, over the content rather
//! than above it: a message appearing or going never moves what the user is looking at or about
//! to click.

use egui::{Align2, Color32, Id, Order, RichText, Ui};

/// How long a message about the last action stays.
pub const INFO_SECONDS: f64 = 6.0;

#[derive(Default)]
pub struct Messages {
    pub errors: Vec<String>,
    pub notices: Vec<String>,
    /// Changes are not saved: shown for exactly as long as that is so, with a *Retry* button
    /// when trying again can help.
    pub not_saved: Option<String>,
    pub can_retry: bool,
    /// The last action's message, and when it was first shown (set when drawn).
    info: Option<(String, Option<f64>)>,
}

impl Messages {
    pub fn error(&mut self, message: impl Into<String>) {
        let message = message.into();
        // The same failure repeating (e.g. every save to a full disk) is shown once.
        if self.errors.last() != Some(&message) {
            self.errors.push(message);
        }
    }

    pub fn notice(&mut self, message: impl Into<String>) {
        let message = message.into();
        if self.notices.last() != Some(&message) {
            self.notices.push(message);
        }
    }

    /// What an action just did; replaces the previous such message and goes by itself.
    pub fn info(&mut self, message: impl Into<String>) {
        self.info = Some((message.into(), None));
    }

    /// The last action's message, while it is shown.
    #[cfg(test)]
    pub fn current_info(&self) -> Option<&str> {
        self.info.as_ref().map(|(m, _)| m.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.notices.is_empty() && self.not_saved.is_none() && self.info.is_none()
    }

    /// Draws the stack over the content, its bottom right corner at `corner` (just above the
    /// status line), `width` wide; true when *Retry* was clicked.
    pub fn show(&mut self, ctx: &egui::Context, corner: egui::Pos2, width: f32) -> bool {
        let now = ctx.input(|i| i.time);
        if let Some((_, shown)) = &mut self.info {
            let since = *shown.get_or_insert(now);
            if now - since >= INFO_SECONDS {
                self.info = None;
            } else {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(INFO_SECONDS - (now - since)));
            }
        }
        if self.is_empty() {
            return false;
        }
        let mut retry = false;
        egui::Area::new(Id::unique("messages"))
            .order(Order::Foreground)
            .pivot(Align2::RIGHT_BOTTOM)
            .fixed_pos(corner)
            .show(ctx, |ui| {
                ui.set_width(width);
                let dark = ui.visuals().dark_mode;
                let (error_bg, notice_bg) = if dark {
                    (Color32::from_rgb(0x5A, 0x1E, 0x1E), Color32::from_rgb(0x1E, 0x3A, 0x4A))
                } else {
                    (Color32::from_rgb(0xFD, 0xE2, 0xE2), Color32::from_rgb(0xE3, 0xF1, 0xFB))
                };
                if let Some(message) = &self.not_saved {
                    // Not dismissable: it goes when the changes are saved.
                    not_saved(ui, message, error_bg, self.can_retry, &mut retry);
                }
                stack(ui, &mut self.errors, error_bg, "⚠");
                stack(ui, &mut self.notices, notice_bg, "ℹ");
                let mut dismissed = false;
                if let Some((info, _)) = &self.info {
                    dismissed = toast(ui, info, notice_bg, "✔");
                }
                if dismissed {
                    self.info = None;
                }
            });
        retry
    }
}

/// The changes not saved, with *Retry* before the text (which takes the rest of the width).
fn not_saved(ui: &mut Ui, message: &str, fill: Color32, can_retry: bool, retry: &mut bool) {
    card(ui, fill, |ui| {
        ui.label(RichText::new("⚠").strong());
        if can_retry {
            *retry = ui.button("Retry").on_hover_text("Try again to save").clicked();
        }
        ui.add(egui::Label::new(RichText::new(message).strong()).wrap());
    });
}

fn stack(ui: &mut Ui, messages: &mut Vec<String>, fill: Color32, icon: &str) {
    let mut dismissed = None;
    for (i, message) in messages.iter().enumerate() {
        if toast(ui, message, fill, icon) {
            dismissed = Some(i);
        }
    }
    if let Some(i) = dismissed {
        messages.remove(i);
    }
}

/// One message with its dismiss button; true when dismissed.
fn toast(ui: &mut Ui, message: &str, fill: Color32, icon: &str) -> bool {
    let mut dismissed = false;
    card(ui, fill, |ui| {
        ui.label(RichText::new(icon).strong());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
            let dismiss = ui.small_button("×").on_hover_text("Dismiss").accessible_name("Dismiss message");
            dismissed = dismiss.clicked();
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Min), |ui| {
                ui.add(egui::Label::new(RichText::new(message).strong()).wrap());
            });
        });
    });
    dismissed
}

/// A message's frame in the stack, its content in one row.
fn card(ui: &mut Ui, fill: Color32, row: impl FnOnce(&mut Ui)) {
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
