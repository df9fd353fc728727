//! The annotation GUI (eframe/egui). Draws the library's state and turns clicks and keys into
//! calls on it; every rule lives in the library.
//!
//! One struct per panel, each with a `ui` method returning what the user did; [`App`] applies it
//! through the [`session::Session`] (which stores every change durably) and moves between views.

mod add_system_dialog;
mod adjudication_dialog;
mod annotation_panel;
mod annotators_dialog;
mod batch_export_dialog;
mod browser;
mod commands;
mod conflict_dialog;
mod dialogs;
mod file_chooser;
mod goto_dialog;
mod help;
mod keys;
mod legacy_dialog;
mod menu;
mod merge_dialog;
mod navigation;
mod open_dialog;
mod overview_panel;
mod path_field;
mod plan_dialog;
mod report_export;
mod report_table;
mod report_view;
mod save_copy_dialog;
mod score_chart;
mod session;
mod settings;
mod status;
mod style;
mod tag_box;
mod translation;
mod views;
mod workspace;

#[cfg(test)]
mod frame_time;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_batches;
#[cfg(test)]
mod tests_legacy;
#[cfg(test)]
mod tests_overview;
#[cfg(test)]
mod tests_report;
#[cfg(test)]
mod tests_saving;
#[cfg(test)]
mod tests_trust;

use add_system_dialog::AddSystemDialog;
use annotation_panel::AnnotationPanel;
use browser::Browser;
use conflict_dialog::ConflictDialog;
use dialogs::Dialogs;
use egui::{Popup, Ui, ViewportCommand};
use help::Help;
use keys::Command;
use menu::MenuBar;
use navigation::{Go, View};
use open_dialog::OpenDialog;
use overview_panel::{OverviewPanel, Side};
use protest::disk::Disk;
use report_view::ReportView;
use session::NotSaved;
use session::Session;
use settings::Settings;
use status::Messages;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// The window icon: the pronoun (yellow) and its translation (cyan), as the app highlights them.
const ICON: &[u8] = include_bytes!("../../assets/icon.png");

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let mut viewport = egui::ViewportBuilder::default()
        .with_inner_size([1280.0, 820.0])
        .with_min_inner_size([760.0, 480.0])
        .with_title("PROTEST")
        .with_app_id(settings::APP_ID);
    if let Ok(icon) = eframe::icon_data::from_png_bytes(ICON) {
        viewport = viewport.with_icon(icon);
    }
    let options = eframe::NativeOptions {
        viewport,
        persistence_path: eframe::storage_dir(settings::APP_ID).map(|d| d.join("app.ron")),
        ..Default::default()
    };
    let result = eframe::run_native(
        "PROTEST",
        options,
        Box::new(move |cc| {
            let settings = Settings::load(cc.storage);
            Ok(Box::new(App::new(settings, file, eframe::storage_dir(settings::APP_ID))))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not open the window: {e}");
            ExitCode::FAILURE
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
    dialog: Option<ConflictDialog<Go>>,
    open_dialog: OpenDialog,
    help: Help,
    messages: Messages,
    report: ReportView,
    add_system: AddSystemDialog,
    /// Researcher mode: the annotation panel or the overview panel beside the translation.
    side: Side,
    overview: OverviewPanel,
    dialogs: Dialogs,
    /// A token to scroll into view in the translation (one a digit key just toggled).
    reveal: Option<protest::model::TokenRef>,
    /// The user confirmed quitting (the current example was settled).
    may_close: bool,
    /// Commands for the window, sent at the end of the frame.
    viewport: Vec<ViewportCommand>,
    /// The theme and text sizes were set.
    styled: bool,
    /// A text field or a popup had the keyboard at the end of the last frame. egui takes focus
    /// away on Esc before the frame runs, so that Esc must not also count as "back".
    keyboard_taken: bool,
    /// What files are written through (a failing one in tests).
    disk: Arc<dyn Disk>,
    /// The user was told that quitting now loses changes not saved, and may quit again.
    quit_warned: bool,
}

impl App {
    /// Opens `file`, or the last file used, or the sample (a copy in `data_dir`).
    pub fn new(settings: Settings, file: Option<PathBuf>, data_dir: Option<PathBuf>) -> App {
        App::on_disk(settings, file, data_dir, protest::disk::os())
    }

    /// [`App::new`], writing files through `disk`.
    pub fn on_disk(settings: Settings, file: Option<PathBuf>, data_dir: Option<PathBuf>, disk: Arc<dyn Disk>) -> App {
        let mut app = App {
            settings,
            session: None,
            view: View::Browser,
            menu: MenuBar::default(),
            browser: Browser::default(),
            panel: AnnotationPanel::default(),
            dialog: None,
            open_dialog: OpenDialog::default(),
            help: Help::default(),
            messages: Messages::default(),
            report: ReportView::default(),
            add_system: AddSystemDialog::default(),
            side: Side::default(),
            overview: OverviewPanel::default(),
            dialogs: Dialogs::default(),
            reveal: None,
            may_close: false,
            viewport: Vec::new(),
            styled: false,
            keyboard_taken: false,
            disk,
            quit_warned: false,
        };
        let last = app.settings.last_file().filter(|p| p.exists()).map(Path::to_path_buf);
        match file.or(last) {
            Some(path) => app.open(&path),
            None => match settings::sample_copy(data_dir) {
                Ok(path) => {
                    app.open(&path);
                    app.messages.notice(format!("This is a copy of the bundled sample master: {}", path.display()));
                }
                Err(e) => app.messages.error(format!("Could not copy the sample master: {e}")),
            },
        }
        app
    }

    /// Opens a file in place of the current one; if it cannot be opened, the current one stays.
    fn open(&mut self, path: &Path) {
        if protest::legacy::is_legacy(path) {
            // A file of the original tool: offer its conversion rather than fail.
            self.dialogs.convert(path, self.session.as_ref());
            return;
        }
        let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
        if self.session.as_ref().is_some_and(|s| same(s.path(), path)) {
            self.view = View::Browser;
            return;
        }
        match workspace::open(Arc::clone(&self.disk), path) {
            Ok((file, opened)) => {
                if let Some(old) = self.session.take()
                    && let Err(e) = old.close()
                {
                    self.messages.error(e);
                }
                self.quit_warned = false;
                let path = file.path().to_path_buf();
                if opened.recovered > 0 {
                    self.messages.notice(format!(
                        "Recovered {} change{} from the journal (work saved since the file was last closed).",
                        opened.recovered,
                        if opened.recovered == 1 { "" } else { "s" }
                    ));
                }
                if let Some(why) = &opened.dropped {
                    self.messages.notice(format!("{}.", dialogs::capitalised(why)));
                }
                if let Some(why) = &opened.read_only {
                    self.messages.notice(format!(
                        "Read-only: {why}. Your changes would not be saved; File › Save a copy as… makes a copy you can change."
                    ));
                }
                let preferred = self.settings.annotators.get(&path).copied();
                self.session = Some(Session::new(file, preferred));
                self.settings.opened(&path);
                self.view = View::Browser;
                self.browser = Browser::default();
                let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
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
        if ctx.input(|i| i.viewport().close_requested()) && !self.may_close {
            self.viewport.push(ViewportCommand::CancelClose);
            self.leave_then(Go::Quit);
        }
        self.store_due_remarks(Some(ctx.input(|i| i.time)));
        // Every key of the frame, in order: a slow frame may bring several ("n", "→", "n", "→").
        while let Some(command) = self.read_keys(&ctx) {
            self.command(command);
            if matches!(command, Command::FocusTags | Command::FocusRemarks) {
                break; // what follows is typing, for the field that gets the focus
            }
        }

        egui::Panel::top("menu").show(ui, |ui| {
            let can_switch = matches!(self.view, View::Browser | View::Report);
            if let Some(action) = self.menu.ui(ui, self.session.as_ref(), self.settings.theme, can_switch) {
                self.action(&ctx, action);
            }
        });
        let not_saved = self.session.as_ref().and_then(Session::not_saved);
        self.messages.can_retry = not_saved.as_ref().is_some_and(|n| !n.detached);
        self.messages.not_saved = not_saved.map(|n| not_saved_text(&n));
        let status = egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui)).response.rect;
        let researcher = self.session.as_ref().is_some_and(|s| s.mode() == workspace::Mode::Researcher);
        if researcher && matches!(self.view, View::Browser | View::Report) {
            egui::Panel::top("tabs").show(ui, |ui| self.view_tabs(ui));
        }
        match &self.view {
            View::Browser => self.browser_ui(ui),
            View::Example(_) => self.example_ui(ui),
            View::Report => self.report_ui(ui),
        }
        // Over the content, in the bottom right corner above the status line (where the category
        // browser and the annotation panel have the least): messages never move what is below them.
        let width = (status.width() * 0.5).clamp(240.0, 480.0);
        let retry = self.messages.show(&ctx, egui::pos2(status.right() - 12.0, status.top() - 8.0), width);
        if retry && let Some(session) = &mut self.session {
            // The message stays while it fails, with the reason.
            let _ = session.retry();
        }

        if let Some(dialog) = &self.dialog
            && let Some(choice) = dialog.ui(&ctx)
        {
            self.settle(choice);
        }
        let recent = self.settings.recent.clone();
        if let Some(path) = self.open_dialog.ui(&ctx, &recent) {
            self.leave_then(Go::Open(path));
        }
        if let Some(outcome) = self.dialogs.ui(&ctx, self.session.as_mut()) {
            self.outcome(outcome);
        }
        if self.help.open {
            self.help.show(&ctx, researcher);
        }
        self.add_system_ui(&ctx);
        for command in self.viewport.drain(..) {
            ctx.send_viewport_cmd(command);
        }
        self.keyboard_taken = keyboard_taken(&ctx);
    }

    /// Stores what is left and closes the file (the window is closing).
    pub fn shutdown(&mut self) {
        self.store_due_remarks(None);
        let Some(session) = self.session.take() else { return };
        let lost = session.not_saved().map_or(0, |n| n.changes);
        if let Err(e) = session.close() {
            match lost {
                // The journal holds every change; the next opening recovers it.
                0 => eprintln!(
                    "error: {e}; every change is in the journal beside the file and comes back when it is next opened"
                ),
                n => eprintln!("error: {e}; {n} changes that could not be saved are lost (quit without them)"),
            }
        }
    }
}

/// What the banner says while changes are not saved.
fn not_saved_text(n: &NotSaved) -> String {
    let what = match n.changes {
        1 => "1 change is not saved".to_owned(),
        k => format!("{k} changes are not saved"),
    };
    if n.detached {
        format!(
            "Another program changed this file since it was opened here ({}), so PROTEST writes nothing more to it and neither version is lost. {what}: keep them with File › Save a copy as…, then work on in the copy.",
            n.why
        )
    } else {
        format!(
            "{what}: {}. They are kept here and saved with the next change, or press Retry; File › Save a copy as… writes them elsewhere.",
            n.why
        )
    }
}

/// Whether a text field or a popup (menu, drop-down) has the keyboard.
pub(super) fn keyboard_taken(ctx: &egui::Context) -> bool {
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
