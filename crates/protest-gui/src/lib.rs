//! The annotation window (eframe/egui), as a library the `protest` binary runs. It draws the
//! core's state and turns clicks and keys into calls on it; every rule lives in the `protest`
//! crate.
//!
//! One struct per panel (`panels/`) and per dialog (`dialogs/`), each with a `ui` method that
//! returns what the user asked for as an [`intent::Intent`], as keys (`keys.rs`) and menus
//! (`menu.rs`) do; [`App::dispatch`] carries every intent out through the
//! [`protest::session::Session`] (which stores every change durably) and moves between views. At
//! most one dialog is open, in [`App`]'s modal slot; no key reaches the window behind it.
//!
//! [`App`] is one struct whose methods are kept by concern: here it is made; `frame.rs` draws a
//! frame in order; `files.rs` opens and closes files; `dispatch.rs` carries intents out;
//! `navigation.rs` moves between examples and views (`place.rs`: where the window is);
//! `views.rs` draws the views; `long_work.rs` runs work off the UI thread (`work.rs`: the worker).

mod dialogs;
mod dispatch;
mod files;
mod frame;
mod help;
mod intent;
mod keys;
mod long_work;
mod menu;
mod messages;
mod navigation;
mod panels;
mod place;
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
use egui::{Ui, ViewportCommand};
use help::Help;
use menu::MenuBar;
use messages::Messages;
use panels::annotation::AnnotationPanel;
use panels::browser::Browser;
use panels::overview::{OverviewPanel, Side};
use panels::prediction::PredictionView;
use panels::report::ReportView;
use place::{Leaving, View};
use protest::session::Session;
use protest::store::disk::Disk;
use settings::Settings;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use work::Work;

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

/// What long work leaves to do on the UI thread when it is done (`long_work.rs`).
pub(crate) type Finish = Box<dyn FnOnce(&mut App) + Send>;

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
    /// What changes, batches and messages are dated by (a wrong one in tests).
    clock: protest::model::clock::Clock,
    /// The user was told that quitting now loses changes not saved, and may quit again.
    quit_warned: bool,
    /// Long work running on a worker thread (opening a file, exporting…), if any.
    work: Option<Work<Finish>>,
    /// The user's data folder (the sample's copy, recovery files); `None` in most tests.
    data_dir: Option<PathBuf>,
    /// The example brought into view to ask about its two versions (the web page).
    versions_revealed: Option<protest::model::CandidateId>,
    /// The last file of changes not saved handed to the browser: its name and bytes.
    offered: Option<(String, Vec<u8>)>,
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

    /// Dates everything by `clock` from now on: the open file's changes, what the dialogs make,
    /// the messages' times (tests play a wrong clock with it).
    #[cfg(test)]
    pub(crate) fn set_clock(&mut self, clock: protest::model::clock::Clock) {
        self.clock = clock;
        self.messages.clock = clock;
        if let Some(session) = &mut self.session {
            session.set_clock(clock);
        }
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
            clock: protest::model::clock::Clock::SYSTEM,
            ring: None,
            keyboard_taken: false,
            disk,
            quit_warned: false,
            work: None,
            data_dir: None,
            versions_revealed: None,
            offered: None,
        }
    }
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
