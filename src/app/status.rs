//! Messages for the user: errors in a red bar until dismissed (a failed save is never silent),
//! notices (journal recovery, read-only) in a calmer one, and the status line.

use egui::{Color32, RichText, Ui};

#[derive(Default)]
pub struct Messages {
    pub errors: Vec<String>,
    pub notices: Vec<String>,
    /// Changes are not saved: shown for exactly as long as that is so, with a *Retry* button
    /// when trying again can help.
    pub not_saved: Option<String>,
    pub can_retry: bool,
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

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.notices.is_empty() && self.not_saved.is_none()
    }

    /// Draws the bars; true when *Retry* was clicked.
    pub fn ui(&mut self, ui: &mut Ui) -> bool {
        let dark = ui.visuals().dark_mode;
        let (error_bg, notice_bg) = if dark {
            (Color32::from_rgb(0x5A, 0x1E, 0x1E), Color32::from_rgb(0x1E, 0x3A, 0x4A))
        } else {
            (Color32::from_rgb(0xFD, 0xE2, 0xE2), Color32::from_rgb(0xE3, 0xF1, 0xFB))
        };
        let mut retry = false;
        if let Some(message) = &self.not_saved {
            egui::Frame::new().fill(error_bg).inner_margin(6.0).corner_radius(4.0).show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.horizontal(|ui| {
                    ui.label(RichText::new("⚠").strong());
                    // Before the text, which takes the rest of the width.
                    if self.can_retry {
                        retry = ui.button("Retry").on_hover_text("Try again to save").clicked();
                    }
                    ui.add(egui::Label::new(RichText::new(message).strong()).wrap());
                });
            });
        }
        bar(ui, &mut self.errors, error_bg, "⚠");
        bar(ui, &mut self.notices, notice_bg, "ℹ");
        retry
    }
}

fn bar(ui: &mut Ui, messages: &mut Vec<String>, fill: Color32, icon: &str) {
    let mut dismissed = None;
    for (i, message) in messages.iter().enumerate() {
        egui::Frame::new().fill(fill).inner_margin(6.0).corner_radius(4.0).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(RichText::new(icon).strong());
                ui.add(egui::Label::new(RichText::new(message).strong()).wrap());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.small_button("×").on_hover_text("Dismiss").accessible_name("Dismiss message").clicked() {
                        dismissed = Some(i);
                    }
                });
            });
        });
    }
    if let Some(i) = dismissed {
        messages.remove(i);
    }
}
