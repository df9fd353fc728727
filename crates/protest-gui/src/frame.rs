//! One frame of the window: in what order work and keys are taken, the menu, the status line and
//! the view are drawn, messages and the dialog shown, and intents carried out.

use crate::App;
use crate::dialogs::parts::Reply;
use crate::intent::Intent;
use crate::place::{Go, View};
use crate::{MIN_SIZE, screen, style, views};
use egui::{Popup, Ui, ViewportCommand};
use protest::session::workspace;
use protest::session::{NotSaved, Session};

impl App {
    /// Draws everything; called by eframe every frame (and by the tests).
    pub fn ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.fit_window(&ctx);
        self.poll_work();
        if self.work.is_some() {
            // Closing now waits for the work (`shutdown`), then closes the file as usual.
            self.work_ui(ui);
            return;
        }
        // Before the input acts on anything: a change or leaving counts the time up to it.
        self.note_activity(&ctx);
        if ctx.input(|i| i.viewport().close_requested()) && !self.may_close {
            self.viewport.push(ViewportCommand::CancelClose);
            self.leave_then(Go::Quit);
        }
        self.store_due_typing(ctx.input(|i| i.time));
        self.poll_session(&ctx);
        self.take_keys(&ctx);

        let can_switch = matches!(self.view, View::Browser | View::Report);
        let (session, theme) = (self.session.as_ref(), self.settings.theme);
        let chosen = egui::Panel::top("menu").show(ui, |ui| self.menu.ui(ui, session, theme, can_switch)).inner;
        if let Some(intent) = chosen {
            self.dispatch(&ctx, intent);
        }
        let not_saved = self.session.as_ref().and_then(Session::not_saved);
        self.messages.can_retry = not_saved.as_ref().is_some_and(|n| !n.detached);
        self.messages.can_download = not_saved.as_ref().is_some_and(|n| n.link_gone);
        self.messages.not_saved = not_saved.map(|n| not_saved_text(&n));
        let status = egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui)).response.rect;
        // Changes not saved: a bar above the status line, for as long as they are not.
        let mut above = status.top();
        if self.messages.not_saved.is_some() {
            let bar = egui::Panel::bottom("not saved").show(ui, |ui| self.messages.not_saved_bar(ui));
            above = bar.response.rect.top();
            if let Some(intent) = bar.inner {
                self.dispatch(&ctx, intent);
            }
        }
        let researcher = self.session.as_ref().is_some_and(|s| s.mode() == workspace::Mode::Researcher);
        if researcher && matches!(self.view, View::Browser | View::Report) {
            let on_report = matches!(self.view, View::Report);
            if let Some(intent) = egui::Panel::top("tabs").show(ui, |ui| views::tabs(ui, on_report)).inner {
                self.dispatch(&ctx, intent);
            }
        }
        self.side_panel = None;
        match &self.view {
            View::Browser => self.browser_ui(ui),
            View::Example(_) => self.example_ui(ui),
            View::Report => self.report_ui(ui),
            View::Predictions => self.predictions_ui(ui),
        }
        // Over the content, in the bottom right corner above the status line (where the category
        // browser and the annotation panel have the least): messages never move what is below them.
        // Beside an example they keep within the panel's width, off the translation.
        let room = self.side_panel.map_or(status.width() * 0.5, |panel| panel.width() - 20.0);
        let width = room.clamp(240.0, 480.0);
        self.messages.show(&ctx, egui::pos2(status.right() - 12.0, above - 8.0), width);
        self.modal_ui(&ctx);
        if self.help.open {
            self.help.show(&ctx, researcher);
        }
        for command in self.viewport.drain(..) {
            ctx.send_viewport_cmd(command);
        }
        self.ring = style::focus_ring(&ctx, &mut self.keyboard_focus);
        self.keyboard_taken = keyboard_taken(&ctx);
        // The key that opened an example is the first sign of activity on it.
        self.note_activity(&ctx);
        self.wake_for_typing(&ctx);
        if self.work.is_some() {
            ctx.request_repaint(); // work started this frame: show its progress
        }
    }

    /// The theme and text sizes, in the first frame; the window made to fit the screen once its
    /// size is known.
    fn fit_window(&mut self, ctx: &egui::Context) {
        if !std::mem::replace(&mut self.styled, true) {
            style::apply(ctx, self.settings.theme);
        }
        if !self.fitted
            && let Some(commands) = screen::fitting(ctx, MIN_SIZE)
        {
            self.fitted = true;
            commands.into_iter().for_each(|command| ctx.send_viewport_cmd(command));
        }
    }

    /// Every key of the frame, in order: a slow frame may bring several ("n", "→", "n", "→").
    fn take_keys(&mut self, ctx: &egui::Context) {
        while let Some(intent) = self.read_keys(ctx) {
            let typing = matches!(intent, Intent::FocusTags | Intent::FocusRemarks);
            self.dispatch(ctx, intent);
            if typing {
                break; // what follows is typing, for the field that gets the focus
            }
        }
    }

    /// Lets the session's own work take a step (the web page sending changes to the server) and
    /// shows what it has to say; while changes are on their way, frames keep coming to take the
    /// answers.
    pub(crate) fn poll_session(&mut self, ctx: &egui::Context) {
        let Some(session) = &mut self.session else { return };
        session.poll(ctx.input(|i| i.time));
        for notice in session.notices() {
            self.messages.error(notice);
        }
        self.offer_versions();
        let Some(session) = &mut self.session else { return };
        if session.is_remote() && (session.sending() > 0 || session.not_saved().is_some()) {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
        if session.is_read_only() {
            // Another program holds the file (a window, `protest serve`): follow what it saves.
            ctx.request_repaint_after(std::time::Duration::from_secs(1));
        }
    }

    /// Time per record (docs/domain.md): input while an example is on screen means the
    /// annotator is at work on it; the window losing the keyboard (the page hidden) ends the
    /// visit, its time stored at once, and so are remarks typed.
    fn note_activity(&mut self, ctx: &egui::Context) {
        let (focused, active, now) = ctx.input(|i| (i.focused, !i.events.is_empty() || i.pointer.is_moving(), i.time));
        if !focused {
            return self.away(now);
        }
        if let (Some(session), View::Example(walk), true) = (&mut self.session, &self.view, active) {
            session.active(walk.current(), now);
        }
    }

    /// The annotator went away from the window at `now` (it lost the keyboard, the page was
    /// hidden): the time on the example on screen and the remarks typed are stored at once.
    pub(crate) fn away(&mut self, now: f64) {
        self.store_due_remarks(None);
        let (Some(session), View::Example(_)) = (&mut self.session, &self.view) else { return };
        if let Err(e) = session.away(now) {
            self.messages.error(e.to_string());
        }
    }

    /// The dialog open, if any; what it asks for once it closes is carried out.
    fn modal_ui(&mut self, ctx: &egui::Context) {
        let Some(modal) = &mut self.modal else { return };
        match modal.ui(ctx, self.session.as_mut()) {
            Reply::Stay => {}
            Reply::Close => self.modal = None,
            Reply::Then(intent) => {
                self.modal = None;
                self.dispatch(ctx, intent);
            }
            Reply::Work(work) => self.start_dialog_job(work),
        }
    }
}

/// What the banner says while changes are not saved.
fn not_saved_text(n: &NotSaved) -> String {
    let what = match n.changes {
        1 => "1 change is not saved".to_owned(),
        k => format!("{k} changes are not saved"),
    };
    if n.link_gone {
        let (they, them) = if n.changes == 1 { ("It is", "it") } else { ("They are", "them") };
        return format!(
            "This link no longer works ({}). Ask the researcher for a new one. {what} yet. {they} kept in this \
             browser: opening the new link in this browser sends {them}; or press Download and send the file to the \
             researcher.",
            n.why
        );
    }
    if n.remote {
        let they = if n.changes == 1 { "It is" } else { "They are" };
        return format!(
            "{what} yet: {}. {they} kept in this browser and sent again as soon as the server answers; you can go on working.",
            n.why
        );
    }
    let kept = match (&n.kept_in, &n.keep_failed) {
        (Some(path), _) => format!(
            " Until then they are kept in {}, and opening this file again offers them, even after a crash.",
            path.display()
        ),
        (None, Some(why)) => format!(" They could not be kept in a recovery file either ({why})."),
        (None, None) => String::new(),
    };
    if n.detached {
        format!(
            "Another program changed this file since it was opened here ({}), so PROTEST writes nothing more to it and neither version is lost. {what}: keep them with File › Save a copy as…, then work on in the copy.{kept}",
            n.why
        )
    } else {
        format!(
            "{what}: {}. They are kept here and saved with the next change, or press Retry; File › Save a copy as… writes them elsewhere.{kept}",
            n.why
        )
    }
}

/// Whether a text field or a popup (menu, drop-down) has the keyboard.
pub(crate) fn keyboard_taken(ctx: &egui::Context) -> bool {
    ctx.text_edit_focused() || Popup::is_any_open(ctx)
}
