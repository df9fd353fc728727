//! The annotation window (eframe/egui), as a library the `protest` binary runs. It draws the
//! core's state and turns clicks and keys into calls on it; every rule lives in the `protest`
//! crate.
//!
//! One struct per panel (`panels/`) and per dialog (`dialogs/`), each with a `ui` method that
//! returns what the user asked for as an [`intent::Intent`], as keys (`keys.rs`) and menus
//! (`menu.rs`) do; [`App::dispatch`] carries every intent out through the
//! [`protest::session::Session`] (which stores every change durably) and moves between views. At
//! most one dialog is open, in [`App`]'s modal slot; no key reaches the window behind it.

mod dialogs;
mod dispatch;
mod help;
mod intent;
mod keys;
mod menu;
mod messages;
mod navigation;
mod panels;
mod screen;
pub mod settings;
mod style;
mod views;
#[cfg(target_arch = "wasm32")]
pub mod web;
mod work;

#[cfg(test)]
mod tests;

use dialogs::Modal;
use dialogs::parts::Reply;
use egui::{Popup, Ui, ViewportCommand};
use help::Help;
use intent::Intent;
use menu::MenuBar;
use messages::Messages;
use navigation::{Go, Leaving, View};
use panels::annotation::AnnotationPanel;
use panels::browser::Browser;
use panels::overview::{OverviewPanel, Side};
use panels::prediction::PredictionView;
use panels::report::ReportView;
use protest::session::workspace;
use protest::session::{NotSaved, Session};
use protest::store::disk::Disk;
use protest::store::master_file::file_name;
use settings::Settings;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The window icon: the pronoun (yellow) and its translation (cyan), as the app highlights them.
#[cfg(not(target_arch = "wasm32"))]
const ICON: &[u8] = include_bytes!("../../../assets/icon.png");

/// The smallest window everything is laid out for.
pub const MIN_SIZE: egui::Vec2 = egui::vec2(760.0, 480.0);

/// Opens the window on `file` (the desktop program; the web page starts in [`web`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn run(file: Option<PathBuf>) -> std::process::ExitCode {
    let mut viewport = egui::ViewportBuilder::default()
        .with_inner_size([1280.0, 820.0])
        .with_min_inner_size(MIN_SIZE)
        .with_title("PROTEST")
        .with_app_id(settings::APP_ID);
    if let Ok(icon) = eframe::icon_data::from_png_bytes(ICON) {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        viewport,
        persistence_path: protest::session::recovery::data_folder().map(|d| d.join("app.ron")),
        ..Default::default()
    };
    let result = eframe::run_native(
        "PROTEST",
        options,
        Box::new(move |cc| {
            settings::forget_places(&cc.egui_ctx);
            let settings = Settings::load(cc.storage);
            Ok(Box::new(App::new(settings, file, protest::session::recovery::data_folder())))
        }),
    );
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not open the window: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

pub struct App {
    settings: Settings,
    session: Option<Session>,
    view: View,
    menu: MenuBar,
    browser: Browser,
    panel: AnnotationPanel,
    /// The dialog open, if any: the one modal slot.
    modal: Option<Modal>,
    /// The example being left when the conflict dialog asked, and where the annotator was going.
    leaving: Option<Leaving>,
    help: Help,
    messages: Messages,
    report: ReportView,
    /// The prediction results last opened (File › Open prediction results…).
    predictions: Option<PredictionView>,
    /// Researcher mode: the annotation panel or the overview panel beside the translation.
    side: Side,
    overview: OverviewPanel,
    /// Where the annotation (or overview) panel is this frame, if an example is shown: messages
    /// float within its width, off the translation.
    side_panel: Option<egui::Rect>,
    /// A token to scroll into view in the translation (one a digit key just toggled).
    reveal: Option<protest::model::TokenRef>,
    /// How many times an example was arrived at: each arrival brings its pronoun into view.
    visits: u64,
    /// The user confirmed quitting (the current example was settled).
    may_close: bool,
    /// Commands for the window, sent at the end of the frame.
    viewport: Vec<ViewportCommand>,
    /// The theme and text sizes were set.
    styled: bool,
    /// The window was made to fit the screen (once its size is known).
    fitted: bool,
    /// The focus was last moved with the keyboard (Tab): the focused widget gets a ring.
    keyboard_focus: bool,
    /// Where the focus ring was drawn last frame.
    ring: Option<egui::Rect>,
    /// A text field or a popup had the keyboard at the end of the last frame. egui takes focus
    /// away on Esc before the frame runs, so that Esc must not also count as "back".
    keyboard_taken: bool,
    /// What files are written through (a failing one in tests).
    disk: Arc<dyn Disk>,
    /// The user was told that quitting now loses changes not saved, and may quit again.
    quit_warned: bool,
    /// Long work running on a worker thread (opening a file, exporting…), if any.
    work: Option<work::Work>,
    /// The user's data folder (the sample's copy, recovery files); `None` in most tests.
    data_dir: Option<PathBuf>,
}

impl App {
    /// Opens `file`, or the last file used, or the sample (a copy in `data_dir`).
    pub fn new(settings: Settings, file: Option<PathBuf>, data_dir: Option<PathBuf>) -> App {
        App::on_disk(settings, file, data_dir, protest::store::disk::os())
    }

    /// [`App::new`], writing files through `disk`.
    pub fn on_disk(settings: Settings, file: Option<PathBuf>, data_dir: Option<PathBuf>, disk: Arc<dyn Disk>) -> App {
        let mut app = App::bare(settings, disk);
        app.data_dir = data_dir.clone();
        let last = app.settings.last_file().filter(|p| p.exists()).map(Path::to_path_buf);
        match file.or(last) {
            Some(path) => app.open(&path),
            None => match settings::sample_copy(data_dir) {
                Ok(path) => {
                    app.open(&path);
                    app.messages.info(
                        "This is your own copy of the bundled sample master: change it as you like. The status line \
                         shows where it is kept.",
                    );
                }
                Err(e) => app.messages.error(format!("Could not copy the sample master: {e}")),
            },
        }
        app
    }

    /// The window with no file open yet.
    pub(crate) fn bare(settings: Settings, disk: Arc<dyn Disk>) -> App {
        App {
            settings,
            session: None,
            view: View::Browser,
            menu: MenuBar::default(),
            browser: Browser::default(),
            panel: AnnotationPanel::default(),
            modal: None,
            leaving: None,
            help: Help::default(),
            messages: Messages::default(),
            report: ReportView::default(),
            predictions: None,
            side: Side::default(),
            overview: OverviewPanel::default(),
            side_panel: None,
            reveal: None,
            visits: 0,
            may_close: false,
            viewport: Vec::new(),
            styled: false,
            fitted: false,
            keyboard_focus: false,
            ring: None,
            keyboard_taken: false,
            disk,
            quit_warned: false,
            work: None,
            data_dir: None,
        }
    }

    /// Opens a file in place of the current one; if it cannot be opened, the current one stays.
    fn open(&mut self, path: &Path) {
        #[cfg(not(target_arch = "wasm32"))] // no SQLite in the web page
        if protest::ingest::legacy::is_legacy(path) {
            // A file of the original tool: offer its conversion rather than fail.
            self.modal = Modal::new(intent::Dialog::Legacy(Some(path.to_path_buf())), self.session.as_ref(), &[]);
            return;
        }
        let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
        if self.session.as_ref().is_some_and(|s| same(s.path(), path)) {
            self.view = View::Browser;
            return;
        }
        let name = file_name(path);
        let (disk, path) = (Arc::clone(&self.disk), path.to_path_buf());
        let preferred = self.settings.annotators.get(&path).copied();
        // The window is there at once, saying what it opens; a large master takes seconds, and so
        // does closing the one it replaces (its journal is folded into it): both on the worker.
        self.start_with_session(format!("Opening {name}"), move |current| {
            let opened = workspace::open(disk, &path).map(|(file, opened)| (Session::new(file, preferred), opened));
            let closed = match (&opened, current.take()) {
                (Ok(_), Some(old)) => {
                    protest::progress::stage(&format!("Closing {}", file_name(old.path())), None);
                    old.close().err().map(|e| e.to_string())
                }
                (_, old) => {
                    *current = old; // not opened: the current file stays
                    None
                }
            };
            Box::new(move |app: &mut App| {
                if let Some(e) = closed {
                    app.messages.error(e);
                }
                app.opened(opened);
            })
        });
    }

    /// Takes the file just opened in place of the current one, or says why it could not be.
    pub(crate) fn opened(&mut self, opened: protest::Result<(Session, protest::store::Opened)>) {
        match opened {
            Ok((mut session, opened)) => {
                self.quit_warned = false;
                let path = session.path().to_path_buf();
                if let Some(dir) = &self.data_dir {
                    session.keep_unsaved_in(protest::session::recovery::folder_in(dir));
                }
                if opened.recovered > 0 {
                    self.messages.info(format!(
                        "Recovered {} change{} from the journal (work saved since the file was last closed).",
                        opened.recovered,
                        if opened.recovered == 1 { "" } else { "s" }
                    ));
                }
                if let Some(why) = &opened.dropped {
                    self.messages.info(format!("{}.", dialogs::parts::capitalised(why)));
                }
                if let Some(why) = &opened.read_only {
                    self.messages.info(format!(
                        "Read-only: {why}. Your changes would not be saved; File › Save a copy as… makes a copy you can change."
                    ));
                }
                if opened.read_only.is_none() {
                    // Changes a window could not save into this file before: shown, never applied unasked.
                    let found = session.recoveries();
                    if !found.is_empty() {
                        self.modal = Some(Modal::Recovery(dialogs::recovery::RecoveryDialog::new(found, &session)));
                    }
                }
                self.session = Some(session);
                self.settings.opened(&path);
                self.view = View::Browser;
                self.browser = Browser::default();
                let name = file_name(&path);
                self.viewport.push(ViewportCommand::Title(format!("PROTEST — {name}")));
            }
            Err(e) => self.messages.error(format!("Could not open the file: {e}")),
        }
    }

    /// Draws everything; called by eframe every frame (and by the tests).
    pub fn ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if !std::mem::replace(&mut self.styled, true) {
            style::apply(&ctx, self.settings.theme);
        }
        if !self.fitted
            && let Some(commands) = screen::fitting(&ctx, MIN_SIZE)
        {
            self.fitted = true;
            commands.into_iter().for_each(|command| ctx.send_viewport_cmd(command));
        }
        self.poll_work();
        if self.work.is_some() {
            // Closing now waits for the work (`shutdown`), then closes the file as usual.
            self.work_ui(ui);
            return;
        }
        if ctx.input(|i| i.viewport().close_requested()) && !self.may_close {
            self.viewport.push(ViewportCommand::CancelClose);
            self.leave_then(Go::Quit);
        }
        self.store_due_remarks(Some(ctx.input(|i| i.time)));
        self.poll_session(&ctx);
        // Every key of the frame, in order: a slow frame may bring several ("n", "→", "n", "→").
        while let Some(intent) = self.read_keys(&ctx) {
            let typing = matches!(intent, Intent::FocusTags | Intent::FocusRemarks);
            self.dispatch(&ctx, intent);
            if typing {
                break; // what follows is typing, for the field that gets the focus
            }
        }

        let can_switch = matches!(self.view, View::Browser | View::Report);
        let (session, theme) = (self.session.as_ref(), self.settings.theme);
        let chosen = egui::Panel::top("menu").show(ui, |ui| self.menu.ui(ui, session, theme, can_switch)).inner;
        if let Some(intent) = chosen {
            self.dispatch(&ctx, intent);
        }
        let not_saved = self.session.as_ref().and_then(Session::not_saved);
        self.messages.can_retry = not_saved.as_ref().is_some_and(|n| !n.detached);
        self.messages.not_saved = not_saved.map(|n| not_saved_text(&n));
        let status = egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui)).response.rect;
        // Changes not saved: a bar above the status line, for as long as they are not.
        let mut above = status.top();
        if self.messages.not_saved.is_some() {
            let bar = egui::Panel::bottom("not saved").show(ui, |ui| self.messages.not_saved_bar(ui));
            above = bar.response.rect.top();
            if bar.inner {
                self.dispatch(&ctx, Intent::RetrySave);
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
        self.note_activity(&ctx);
        if self.work.is_some() {
            ctx.request_repaint(); // work started this frame: show its progress
        }
    }

    /// Lets the session's own work take a step (the web page sending changes to the server) and
    /// shows what it has to say; while changes are on their way, frames keep coming to take the
    /// answers.
    fn poll_session(&mut self, ctx: &egui::Context) {
        let Some(session) = &mut self.session else { return };
        session.poll(ctx.input(|i| i.time));
        for notice in session.notices() {
            self.messages.error(notice);
        }
        if session.is_remote() && (session.sending() > 0 || session.not_saved().is_some()) {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
        if session.is_read_only() {
            // Another program holds the file (a window, `protest serve`): follow what it saves.
            ctx.request_repaint_after(std::time::Duration::from_secs(1));
        }
    }

    /// Time per record: input while an example is on screen (the key that opened it included)
    /// means the annotator is at work on it.
    fn note_activity(&mut self, ctx: &egui::Context) {
        let (Some(session), View::Example(walk)) = (&mut self.session, &self.view) else { return };
        let (active, now) = ctx.input(|i| (!i.events.is_empty() || i.pointer.is_moving(), i.time));
        if active {
            session.active(walk.current(), now);
        }
    }

    /// The dialog open, if any; what it asks for once it closes is carried out.
    fn modal_ui(&mut self, ctx: &egui::Context) {
        let Some(modal) = &mut self.modal else { return };
        let recent = self.settings.recent.clone();
        match modal.ui(ctx, self.session.as_mut(), &recent) {
            Reply::Stay => {}
            Reply::Close => self.modal = None,
            Reply::Then(intent) => {
                self.modal = None;
                self.dispatch(ctx, intent);
            }
            Reply::Work(work) => self.start_session_work(work),
        }
    }

    /// Stores what is left and closes the file (the window is closing).
    pub fn shutdown(&mut self) {
        self.finish_work();
        self.store_due_remarks(None);
        self.store_typed_tags();
        if let Some(session) = self.session.take() {
            close(session);
        }
    }

    /// Closes the file off the UI thread — folding the journal into a large master takes
    /// seconds, shown with its progress — then the window.
    pub(crate) fn close_then_quit(&mut self) {
        let name = self.session.as_ref().map(|s| file_name(s.path())).unwrap_or_default();
        self.start_with_session(format!("Saving and closing {name}"), |session| {
            if let Some(session) = session.take() {
                close(session);
            }
            Box::new(|app: &mut App| {
                app.may_close = true;
                app.viewport.push(ViewportCommand::Close);
            })
        });
    }
}

/// Closes the file as the window goes; what could not be saved is said on the terminal (the
/// window is gone), with where it is kept.
fn close(session: Session) {
    let lost = session.not_saved().map_or(0, |n| n.changes);
    let kept = session.recovery_path().map(Path::to_path_buf);
    if let Err(e) = session.close() {
        match (lost, kept) {
            // The journal holds every change; the next opening recovers it.
            (0, _) => eprintln!(
                "error: {e}; every change is in the journal beside the file and comes back when it is next opened"
            ),
            (n, Some(kept)) => eprintln!(
                "error: {e}; the {n} changes that could not be saved are kept in {}, and opening the file again offers them",
                kept.display()
            ),
            (n, None) => eprintln!("error: {e}; {n} changes that could not be saved are lost (quit without them)"),
        }
    }
}

/// What the banner says while changes are not saved.
fn not_saved_text(n: &NotSaved) -> String {
    let what = match n.changes {
        1 => "1 change is not saved".to_owned(),
        k => format!("{k} changes are not saved"),
    };
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

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        App::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, settings::KEY, &self.settings);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.shutdown();
    }
}
