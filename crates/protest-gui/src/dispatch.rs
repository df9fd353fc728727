//! What the user asked for, carried out: [`App::dispatch`] is the one place every intent —
//! from a key, a menu, a panel or a dialog — turns into calls on the session and moves between
//! views.

use crate::App;
use crate::dialogs::parts::failed;
use crate::dialogs::{OnHand, Opener};
use crate::frame::keyboard_taken;
use crate::intent::Intent;
use crate::keys;
use crate::messages::Scope;

/// The operations whose messages replace their earlier ones.
const AUTO_MATCH: Scope = Scope::Operation("automatic match");
const ANNOTATORS: Scope = Scope::Operation("annotators");
use crate::panels::overview::Side;
use crate::panels::prediction::PredictionView;
use crate::place::{Go, View};
use crate::style;
use egui::Key;
use protest::annotate::Direction;
use protest::annotate::edit::Edit;
use protest::annotate::overview::Overview;
use protest::metrics::auto_eval;
use protest::model::{AnnotatorId, CandidateId, MatchRule, Role};
use protest::session::Opening;
use protest::session::workspace::Mode;
use protest::workflow;

impl App {
    /// The next key pressed this frame that means something here, unless a dialog is open or
    /// the keyboard is someone else's (a text field, a popup).
    pub(crate) fn read_keys(&mut self, ctx: &egui::Context) -> Option<Intent> {
        if self.modal.is_some() || self.keyboard_taken || keyboard_taken(ctx) {
            return None;
        }
        // A focused button (Tab, or a click on a drop-down) takes Enter itself; ↑ / ↓ still
        // choose a category row.
        let arrow = ctx.input(|i| i.key_pressed(Key::ArrowUp) || i.key_pressed(Key::ArrowDown));
        let scope = match self.view {
            _ if self.session.is_none() => keys::Scope::Everywhere,
            View::Browser if arrow => {
                ctx.memory_mut(|m| m.focused().map(|id| m.surrender_focus(id)));
                keys::Scope::Browser
            }
            View::Browser if ctx.memory(|m| m.focused().is_some()) => keys::Scope::Everywhere,
            View::Browser => keys::Scope::Browser,
            View::Example(_) => keys::Scope::Example,
            View::Report => keys::Scope::Everywhere,
            View::Predictions => keys::Scope::Predictions,
        };
        ctx.input_mut(|i| keys::read(i, scope))
    }

    /// Carries out what the user asked for.
    pub(crate) fn dispatch(&mut self, ctx: &egui::Context, intent: Intent) {
        let current = match &self.view {
            View::Example(walk) => Some((walk.index, walk.set.len(), walk.current())),
            View::Browser | View::Report | View::Predictions => None,
        };
        // The overview shows others' work and is not editable, but for the researcher's tags.
        let editing = matches!(intent, Intent::Judge(..) | Intent::Toggle(..) | Intent::FocusRemarks);
        if editing && self.overview_shown() {
            if let Some((_, _, c)) = current {
                self.messages.warn_for(Scope::Example(c), "The overview is not editable: press O to annotate.");
            }
            return;
        }
        match (intent, current) {
            // The help floats over the work: Esc puts it away before it goes back anywhere.
            (Intent::Back, _) if self.help.open => self.help.open = false,
            (Intent::Prev, Some((i, _, _))) if i > 0 => self.leave_then(Go::To(i - 1)),
            (Intent::Next, Some((i, n, _))) if i + 1 < n => self.leave_then(Go::To(i + 1)),
            (Intent::Next, Some(_)) | (Intent::Back, Some(_)) => self.leave_then(Go::Browser),
            (Intent::Back, None) => self.leave_then(Go::Browser),
            (Intent::Continue, None) => {
                if let Some(opening) = self.session.as_ref().and_then(|s| self.browser.enter(s)) {
                    self.start(opening);
                }
            }
            (Intent::SelectRow(way), None) => self.browser.step(way),
            (Intent::Walk(opening), _) => self.leave_then(Go::Show(opening)),
            (Intent::Report, _) => self.leave_then(Go::Report),
            (Intent::ShowPredictions(results), _) => {
                self.predictions = Some(PredictionView::new(*results));
                self.leave_then(Go::Predictions);
            }
            (Intent::PredictionStep(way), _) => self.on_predictions(|p| p.step(way)),
            (Intent::PredictionCell(way), _) => self.on_predictions(|p| p.step_cell(way)),
            (Intent::PredictionSystem(way), _) => self.on_predictions(|p| p.step_system(way)),
            (Intent::Judge(role, judgement), Some((_, _, c))) if self.has_role(c, role) => {
                self.edit(c, Edit::Judge(role, judgement));
            }
            (Intent::Toggle(role, n), Some((_, _, c))) => self.toggle_token(c, role, n),
            (Intent::Edit(c, edit), _) => self.edit(c, edit),
            (Intent::ResearcherEdit(c, edit), _) => self.edit_as_researcher(c, edit),
            (Intent::FocusTags, Some(_)) if self.overview_shown() => self.overview.focus_tags(),
            (Intent::FocusTags, Some(_)) => self.panel.focus_tags(),
            (Intent::FocusRemarks, Some(_)) => self.panel.focus_remarks(),
            (Intent::Undo, _) => self.undo(Direction::Back),
            (Intent::Redo, _) => self.undo(Direction::Forward),
            (Intent::Amend, _) => self.leaving = None,
            (Intent::KeepAsIs, _) => self.keep_as_is(),
            (Intent::KeepVersion(d, keep), _) => self.keep_version(&d, keep),
            (Intent::DownloadUnsent, _) => self.download_unsent(),
            (Intent::ToggleOverview, _) => self.toggle_overview(),
            (Intent::StepAnnotator(way), Some((_, _, c))) if self.overview_shown() => {
                let overview = self.session.as_ref().and_then(|s| Overview::of(s.master(), c));
                if let Some(o) = overview {
                    self.overview.step(&o, way);
                }
            }
            (Intent::SwitchAnnotator(id), _) => self.switch_annotator(id),
            (Intent::AddAnnotator(name), _) => self.add_annotator(&name),
            (Intent::RunAutoEval(rule), _) => self.run_auto_eval(rule),
            (Intent::Dialog(dialog), _) => self.show_dialog(dialog),
            (Intent::OpenFile(path), _) => self.leave_then(Go::Open(path)),
            (Intent::OpenCopy(path), _) => self.open_copy(path),
            (Intent::RetrySave, _) => {
                if let Some(session) = &mut self.session {
                    // The message stays while it fails, with the reason.
                    let _ = session.retry();
                }
            }
            (Intent::Quit, _) => self.leave_then(Go::Quit),
            (Intent::Theme(choice), _) => {
                self.settings.theme = choice;
                style::apply(ctx, choice);
            }
            (Intent::Help, _) => self.help.toggle(),
            (Intent::Notice(text), _) => self.messages.info(text),
            _ => {}
        }
    }

    /// Selects or unselects the `n`th token aligned in `role` (a digit key).
    fn toggle_token(&mut self, c: CandidateId, role: Role, n: usize) {
        let token = self.session.as_ref().and_then(|s| s.master().candidate(c)?.aligned(role).nth(n));
        if let Some(token) = token {
            self.edit(c, Edit::ToggleToken(role, token));
            self.reveal = Some(token); // a key acts on a token the annotator sees
        }
    }

    /// Annotates as `id` from now on, in this file and when it is next opened.
    fn switch_annotator(&mut self, id: AnnotatorId) {
        if let Some(s) = &mut self.session {
            s.set_annotator(id);
            self.settings.annotators.insert(s.path().to_path_buf(), id);
        }
    }

    /// Opens a copy just saved of the file open.
    fn open_copy(&mut self, path: std::path::PathBuf) {
        if self.session.as_ref().is_some_and(|s| s.not_saved().is_some()) {
            // The copy has everything; the file itself cannot take it, so it is left as it is
            // rather than closed.
            self.session = None;
        }
        self.leave_then(Go::Open(path));
    }

    /// Opens a dialog in the modal slot, where it may open ([`crate::dialogs::Allowed`]).
    fn show_dialog(&mut self, opener: Opener) {
        let on = OnHand { session: self.session.as_ref(), tables: self.report.tables(), recent: &self.settings.recent };
        if let Some(modal) = opener.open(&on) {
            self.modal = Some(modal);
        }
    }

    /// Adds an annotator to the master and annotates as them (off the UI thread: it saves the
    /// master).
    fn add_annotator(&mut self, name: &str) {
        let name = name.to_owned();
        self.start_on_session(format!("Adding {}", name.trim()), move |s| {
            let added = s.run(|store| workflow::annotators::add(store, &name)).map_err(|e| failed(&e, ""));
            if let Ok(id) = added {
                s.set_annotator(id);
            }
            Box::new(move |app: &mut App| match added {
                Ok(id) => {
                    if let Some(s) = &app.session {
                        app.settings.annotators.insert(s.path().to_path_buf(), id);
                    }
                }
                Err(e) => app.messages.error_for(ANNOTATORS, format!("Could not add {}: {e}", name.trim())),
            })
        });
    }

    /// Runs a round of the automatic evaluation (the reference match, and the agreement judge for
    /// a French target), stores it and says what it settled (off the UI thread: it saves the
    /// master).
    fn run_auto_eval(&mut self, rule: Option<MatchRule>) {
        self.start_on_session("Running the automatic evaluation", move |session| {
            let said = match session.now() {
                Ok(now) => session
                    .run(|store| workflow::auto_eval::run(store, rule, Default::default(), now))
                    .map_err(|e| failed(&e, "")),
                Err(e) => Err(e.to_string()),
            };
            let said = said.map(|round| auto_eval::summary(&round));
            Box::new(move |app: &mut App| match said {
                Ok(summary) => app.messages.info_for(AUTO_MATCH, summary),
                Err(e) => app.messages.error_for(AUTO_MATCH, format!("Could not store the automatic evaluation: {e}")),
            })
        });
    }

    /// Acts on the prediction results view, if it is the one shown.
    fn on_predictions(&mut self, act: impl FnOnce(&mut PredictionView)) {
        if let (View::Predictions, Some(view)) = (&self.view, &mut self.predictions) {
            act(view);
        }
    }

    fn is_researcher(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.mode() == Mode::Researcher)
    }

    /// Whether the overview panel is beside the translation (researcher mode).
    fn overview_shown(&self) -> bool {
        self.side == Side::Overview && self.is_researcher()
    }

    fn toggle_overview(&mut self) {
        if self.is_researcher() {
            self.side = self.side.toggled();
        }
    }

    /// A change to the researcher's own record from the overview panel.
    pub(crate) fn edit_as_researcher(&mut self, candidate: CandidateId, edit: Edit) {
        let Some(session) = self.session.as_mut().filter(|s| !s.is_read_only()) else { return };
        if let Err(e) = session.edit_as(candidate, AnnotatorId::RESEARCHER, edit) {
            self.messages.error(not_made(&e));
        }
    }

    /// Whether the candidate's example has the role (only anaphoric ones have an antecedent).
    fn has_role(&mut self, candidate: CandidateId, role: Role) -> bool {
        let Some(session) = &self.session else { return false };
        let master = session.master();
        let anaphoric =
            master.candidate(candidate).and_then(|c| master.example_of(c)).is_some_and(|(_, c)| c.anaphoric);
        if role == Role::Antecedent && !anaphoric {
            let message = "This example is not anaphoric: there is no antecedent to judge.";
            self.messages.warn_for(Scope::Example(candidate), message);
            return false;
        }
        true
    }

    pub(crate) fn edit(&mut self, candidate: CandidateId, edit: Edit) {
        // Read-only: the notice bar says so; the widgets are disabled and keys do nothing.
        let Some(session) = self.session.as_mut().filter(|s| !s.is_read_only()) else { return };
        if let Err(e) = session.edit(candidate, edit) {
            self.messages.error(not_made(&e));
        }
    }

    pub(crate) fn store_due_remarks(&mut self, now: Option<f64>) {
        if let Some((candidate, edit)) = self.panel.due_remarks(now) {
            self.edit(candidate, edit);
        }
    }

    /// Typed text whose time has come (docs/gui.md, "Saving"): remarks, and a tag left in a tag
    /// box.
    pub(crate) fn store_due_typing(&mut self, now: f64) {
        self.store_due_remarks(Some(now));
        let due = [(self.panel.tag_box_mut().due(now), false), (self.overview.tag_box_mut().due(now), true)];
        for (tag, researcher) in due {
            if let Some((candidate, tag)) = tag {
                self.add_typed_tag(candidate, tag, researcher);
            }
        }
    }

    /// Asks to be woken up when typed text is next due. Asked every frame: a frame that input
    /// brings (a key released, Esc) replaces a wake-up asked for before it, in the desktop's
    /// event loop and the page's alike, so one asked for only when the text changed is lost.
    pub(crate) fn wake_for_typing(&self, ctx: &egui::Context) {
        let due = [self.panel.remarks_due_at(), self.panel.tag_box().due_at(), self.overview.tag_box().due_at()];
        if let Some(due) = due.into_iter().flatten().reduce(f64::min) {
            let now = ctx.input(|i| i.time);
            ctx.request_repaint_after(std::time::Duration::from_secs_f64((due - now).max(0.0)));
        }
    }

    /// Undo (a step back through the history) or redo (forward) the last change, wherever it
    /// was: the example it was on is brought into view first (another category or view if need
    /// be) and a message says what was undone.
    fn undo(&mut self, way: Direction) {
        self.store_due_remarks(None);
        let Some(session) = &mut self.session else { return };
        let undo = way == Direction::Back;
        let result = if undo { session.undo() } else { session.redo() };
        let done = match result {
            Ok(Some(done)) => done,
            Ok(None) => return self.messages.info(if undo { "Nothing to undo." } else { "Nothing to redo." }),
            Err(e) => return self.messages.error(e.to_string()),
        };
        let master = session.master();
        let mut place = master.candidate(done.candidate).map_or(String::new(), |c| format!(", example {}", c.example));
        if session.mode() == Mode::Researcher
            && let Some(corpus) = master.candidate(done.candidate).and_then(|c| master.corpus(c.corpus))
        {
            place.push_str(&format!(" ({})", corpus.name));
        }
        let verb = if undo { "Undid" } else { "Redid" };
        self.messages.info(format!("{verb}: {}{place}", done.what));
        self.reveal(done.candidate);
    }

    /// Shows `candidate`: in the set being worked through if it is there, or else among every
    /// candidate of its category.
    pub(crate) fn reveal(&mut self, candidate: CandidateId) {
        let in_walk = match &self.view {
            View::Example(walk) => Some((walk.current(), walk.set.iter().position(|&c| c == candidate))),
            View::Browser | View::Report | View::Predictions => None,
        };
        match in_walk {
            Some((current, _)) if current == candidate => {}
            Some((_, Some(i))) => self.leave_then(Go::To(i)),
            _ => {
                let Some(opening) = self.session.as_ref().and_then(|s| Opening::of_category(s, candidate)) else {
                    return;
                };
                if in_walk.is_some() { self.leave_then(Go::Show(opening)) } else { self.start(opening) }
            }
        }
    }
}

/// Why a change was not made, in the message area.
fn not_made(e: &protest::session::SessionError) -> String {
    match e {
        protest::session::SessionError::Clock(clock) => format!("The change was not made: {clock}."),
        e => e.to_string(),
    }
}
