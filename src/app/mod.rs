//! The annotation GUI (eframe/egui). Draws the library's state and turns clicks and keys into
//! calls on it; every rule lives in the library.
//!
//! One struct per panel, each with a `ui` method returning what the user did; [`App`] applies it
//! through the [`session::Session`] (which stores every change durably) and moves between views.

mod annotation_panel;
mod browser;
mod conflict_dialog;
mod help;
mod keys;
mod menu;
mod open_dialog;
mod session;
mod settings;
mod status;
mod style;
mod tag_box;
mod translation;
mod workspace;

#[cfg(test)]
mod tests;

use annotation_panel::AnnotationPanel;
use browser::{Browser, Opening};
use conflict_dialog::{Choice, ConflictDialog};
use egui::{Popup, Ui, ViewportCommand};
use help::Help;
use keys::{Command, Scope};
use menu::{Action, MenuBar};
use open_dialog::OpenDialog;
use protest::annotation::Edit;
use protest::model::{CandidateId, Role};
use session::Session;
use settings::Settings;
use status::Messages;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use workspace::Mode;

pub fn run(file: Option<PathBuf>) -> ExitCode {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 820.0])
            .with_min_inner_size([760.0, 480.0])
            .with_title("PROTEST")
            .with_app_id(settings::APP_ID),
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

/// Working through a set of candidates.
struct Walk {
    title: String,
    set: Vec<CandidateId>,
    index: usize,
}

impl Walk {
    fn current(&self) -> CandidateId {
        self.set[self.index]
    }
}

enum View {
    Browser,
    Example(Walk),
}

/// Where to go once the example being left is settled.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Go {
    To(usize),
    Browser,
    Open(PathBuf),
    Quit,
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
    /// The user confirmed quitting (the current example was settled).
    may_close: bool,
    /// Commands for the window, sent at the end of the frame.
    viewport: Vec<ViewportCommand>,
    /// The theme and text sizes were set.
    styled: bool,
    /// A text field or a popup had the keyboard at the end of the last frame. egui takes focus
    /// away on Esc before the frame runs, so that Esc must not also count as "back".
    keyboard_taken: bool,
}

impl App {
    /// Opens `file`, or the last file used, or the sample (a copy in `data_dir`).
    pub fn new(settings: Settings, file: Option<PathBuf>, data_dir: Option<PathBuf>) -> App {
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
            may_close: false,
            viewport: Vec::new(),
            styled: false,
            keyboard_taken: false,
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
        let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
        if self.session.as_ref().is_some_and(|s| same(s.path(), path)) {
            self.view = View::Browser;
            return;
        }
        match workspace::open(path) {
            Ok((file, opened)) => {
                if let Some(old) = self.session.take()
                    && let Err(e) = old.close()
                {
                    self.messages.error(e);
                }
                let path = file.path().to_path_buf();
                if opened.recovered > 0 {
                    self.messages.notice(format!(
                        "Recovered {} change{} from the journal (work saved since the file was last closed).",
                        opened.recovered,
                        if opened.recovered == 1 { "" } else { "s" }
                    ));
                }
                if let Some(why) = &opened.read_only {
                    self.messages.notice(format!("Read-only: {why}. Your changes would not be saved."));
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
            let can_switch = matches!(self.view, View::Browser);
            if let Some(action) = self.menu.ui(ui, self.session.as_ref(), self.settings.theme, can_switch) {
                self.action(&ctx, action);
            }
        });
        if !self.messages.is_empty() {
            egui::Panel::top("messages").show(ui, |ui| self.messages.ui(ui));
        }
        egui::Panel::bottom("status").show(ui, |ui| self.status_line(ui));
        match &self.view {
            View::Browser => self.browser_ui(ui),
            View::Example(_) => self.example_ui(ui),
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
        if self.help.open {
            self.help.show(&ctx);
        }
        for command in self.viewport.drain(..) {
            ctx.send_viewport_cmd(command);
        }
        self.keyboard_taken = keyboard_taken(&ctx);
    }

    /// Stores what is left and closes the file (the window is closing).
    pub fn shutdown(&mut self) {
        self.store_due_remarks(None);
        if let Some(session) = self.session.take()
            && let Err(e) = session.close()
        {
            // The journal still holds every change; the next start recovers it.
            eprintln!("error: {e}");
        }
    }

    fn read_keys(&mut self, ctx: &egui::Context) -> Option<Command> {
        let busy = self.dialog.is_some() || self.open_dialog.open || self.keyboard_taken || keyboard_taken(ctx);
        if busy {
            return None;
        }
        // A focused button takes Enter itself.
        let scope = match self.view {
            _ if self.session.is_none() => Scope::Everywhere,
            View::Browser if ctx.memory(|m| m.focused().is_some()) => Scope::Everywhere,
            View::Browser => Scope::Browser,
            View::Example(_) => Scope::Example,
        };
        ctx.input_mut(|i| keys::read(i, scope))
    }

    fn command(&mut self, command: Command) {
        let current = match &self.view {
            View::Example(walk) => Some((walk.index, walk.set.len(), walk.current())),
            View::Browser => None,
        };
        match (command, current) {
            (Command::Prev, Some((i, _, _))) if i > 0 => self.leave_then(Go::To(i - 1)),
            (Command::Next, Some((i, n, _))) if i + 1 < n => self.leave_then(Go::To(i + 1)),
            (Command::Next, Some(_)) | (Command::Back, Some(_)) => self.leave_then(Go::Browser),
            (Command::Continue, None) => {
                if let Some(opening) = self.session.as_ref().and_then(|s| self.browser.continue_set(s)) {
                    self.start(opening);
                }
            }
            (Command::Judge(role, judgement), Some((_, _, c))) if self.has_role(c, role) => {
                self.edit(c, Edit::Judge(role, judgement));
            }
            (Command::Toggle(role, n), Some((_, _, c))) => {
                let token = self.session.as_ref().and_then(|s| s.master().candidate(c)?.aligned(role).nth(n));
                if let Some(token) = token {
                    self.edit(c, Edit::ToggleToken(role, token));
                }
            }
            (Command::FocusTags, Some(_)) => self.panel.focus_tags(),
            (Command::FocusRemarks, Some(_)) => self.panel.focus_remarks(),
            (Command::Undo, _) => self.undo(true),
            (Command::Redo, _) => self.undo(false),
            (Command::Open, _) => self.open_dialog.show_with(None),
            (Command::Help, _) => self.help.toggle(),
            _ => {}
        }
    }

    fn action(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::Open => self.open_dialog.show_with(None),
            Action::Quit => self.leave_then(Go::Quit),
            Action::Theme(choice) => {
                self.settings.theme = choice;
                style::apply(ctx, choice);
            }
            Action::Help => self.help.toggle(),
            Action::Undo => self.undo(true),
            Action::Redo => self.undo(false),
            Action::Annotator(id) => {
                if let Some(s) = &mut self.session {
                    s.set_annotator(id);
                    self.settings.annotators.insert(s.path().to_path_buf(), id);
                }
            }
            Action::AddAnnotator(name) => {
                let Some(s) = &mut self.session else { return };
                match s.add_annotator(&name) {
                    Ok(id) => {
                        self.settings.annotators.insert(s.path().to_path_buf(), id);
                    }
                    Err(e) => self.messages.error(e),
                }
            }
        }
    }

    /// Whether the candidate's example has the role (only anaphoric ones have an antecedent).
    fn has_role(&mut self, candidate: CandidateId, role: Role) -> bool {
        let Some(session) = &self.session else { return false };
        let master = session.master();
        let anaphoric =
            master.candidate(candidate).and_then(|c| master.example_of(c)).is_some_and(|(_, c)| c.anaphoric);
        if role == Role::Antecedent && !anaphoric {
            self.messages.notice("This example is not anaphoric: there is no antecedent to judge.");
            return false;
        }
        true
    }

    fn edit(&mut self, candidate: CandidateId, edit: Edit) {
        // Read-only: the notice bar says so; the widgets are disabled and keys do nothing.
        let Some(session) = self.session.as_mut().filter(|s| !s.is_read_only()) else { return };
        if let Err(e) = session.edit(candidate, edit) {
            self.messages.error(e);
        }
    }

    fn store_due_remarks(&mut self, now: Option<f64>) {
        if let Some((candidate, edit)) = self.panel.due_remarks(now) {
            self.edit(candidate, edit);
        }
    }

    fn undo(&mut self, undo: bool) {
        self.store_due_remarks(None);
        let Some(session) = &mut self.session else { return };
        let result = if undo { session.undo() } else { session.redo() };
        let candidate = match result {
            Ok(Some(c)) => c,
            Ok(None) => return,
            Err(e) => return self.messages.error(e),
        };
        // Show the example the change was on, if it is in the set being worked through.
        if let View::Example(walk) = &self.view
            && walk.current() != candidate
            && let Some(i) = walk.set.iter().position(|&c| c == candidate)
        {
            self.leave_then(Go::To(i));
        }
    }

    fn start(&mut self, opening: Opening) {
        if opening.set.is_empty() {
            return;
        }
        let index = opening.start.min(opening.set.len() - 1);
        self.view = View::Example(Walk { title: opening.title, set: opening.set, index });
    }

    /// Leaves the current example (if any): stores pending remarks, runs the conflict checks and
    /// either goes on or asks first.
    fn leave_then(&mut self, go: Go) {
        self.store_due_remarks(None);
        if let (View::Example(walk), Some(session)) = (&self.view, &mut self.session)
            && !session.is_read_only()
        {
            let candidate = walk.current();
            match session.leave(candidate) {
                Ok(conflicts) if !conflicts.is_empty() => {
                    self.dialog = Some(ConflictDialog { candidate, conflicts, then: go });
                    return;
                }
                Ok(_) => {}
                Err(e) => self.messages.error(e),
            }
        }
        self.go(go);
    }

    fn settle(&mut self, choice: Choice) {
        let Some(dialog) = self.dialog.take() else { return };
        if choice == Choice::Amend {
            return;
        }
        if let Some(session) = &mut self.session
            && let Err(e) = session.keep(dialog.candidate, dialog.conflicts)
        {
            self.messages.error(e);
        }
        self.go(dialog.then);
    }

    fn go(&mut self, go: Go) {
        match go {
            Go::To(i) => {
                if let View::Example(walk) = &mut self.view {
                    walk.index = i.min(walk.set.len() - 1);
                }
            }
            Go::Browser => self.view = View::Browser,
            Go::Open(path) => self.open(&path),
            Go::Quit => {
                self.may_close = true;
                self.viewport.push(ViewportCommand::Close);
            }
        }
    }

    fn browser_ui(&mut self, ui: &mut Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            let Some(session) = &self.session else {
                ui.heading("No file is open");
                ui.label("Use File › Open (Ctrl+O) to open a master or batch file.");
                return;
            };
            ui.set_max_width(900.0);
            if let Some(opening) = self.browser.ui(ui, session) {
                self.start(opening);
            }
        });
    }

    fn example_ui(&mut self, ui: &mut Ui) {
        let (Some(session), View::Example(walk)) = (&self.session, &self.view) else { return };
        let candidate_id = walk.current();
        let master = session.master();
        let Some(candidate) = master.candidate(candidate_id) else { return };
        let editable = !session.is_read_only();
        let record = session.record(candidate_id);
        let anaphoric = master.example_of(candidate).is_some_and(|(_, c)| c.anaphoric);
        let mut edits = Vec::new();
        let mut command = None;
        egui::Panel::right("annotation panel").resizable(true).default_size(400.0).size_range(320.0..=640.0).show(
            ui,
            |ui| {
                ui.add_space(6.0);
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                    edits.extend(self.panel.ui(ui, master, candidate_id, record, editable));
                });
            },
        );
        egui::CentralPanel::default().show(ui, |ui| {
            egui::Panel::top("example header").show(ui, |ui| {
                let position = translation::Position {
                    index: walk.index,
                    len: walk.set.len(),
                    annotated: protest::annotation::progress(master, session.annotator(), &walk.set),
                };
                command = translation::header(ui, master, candidate, session.mode() == Mode::Researcher, &position);
                ui.label(egui::RichText::new(&walk.title).small().weak());
                ui.add_space(4.0);
            });
            egui::Panel::bottom("legend").show(ui, |ui| {
                ui.add_space(4.0);
                translation::legend(ui, anaphoric);
            });
            egui::CentralPanel::default().show(ui, |ui| {
                if let Some((role, token)) = translation::texts(ui, master, candidate, record, editable) {
                    edits.push(Edit::ToggleToken(role, token));
                }
            });
        });
        for edit in edits {
            self.edit(candidate_id, edit);
        }
        if let Some(command) = command {
            self.command(command);
        }
    }

    fn status_line(&self, ui: &mut Ui) {
        let Some(session) = &self.session else {
            ui.label("No file open");
            return;
        };
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(session.path().display().to_string()).small());
            ui.separator();
            let mode = match session.mode() {
                Mode::Researcher => "researcher mode",
                Mode::Annotator => "annotator mode",
            };
            ui.label(egui::RichText::new(mode).small());
            ui.separator();
            let state = match () {
                _ if session.is_read_only() => "read-only: changes are not saved",
                _ if self.panel.typing() => "saving remarks…",
                _ => "every change is saved",
            };
            ui.label(egui::RichText::new(state).small());
        });
    }
}

/// Whether a text field or a popup (menu, drop-down) has the keyboard.
fn keyboard_taken(ctx: &egui::Context) -> bool {
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
