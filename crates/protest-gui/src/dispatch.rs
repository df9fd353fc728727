//! What keys and menus do: edits through the session, undo, and the menu actions.

use super::browser::Opening;
use super::dialogs::{self, Kind, Outcome};
use super::keys::{self, Command, Scope};
use super::menu::Action;
use super::navigation::{Go, View};
use super::overview_panel::Side;
use super::style;
use super::workspace::Mode;
use super::{App, keyboard_taken};
use egui::Key;
use protest::annotation::Edit;
use protest::model::{AnnotatorId, CandidateId, Role};
use protest::overview::Overview;
use protest::workflow;

impl App {
    pub(super) fn read_keys(&mut self, ctx: &egui::Context) -> Option<Command> {
        let busy = self.dialog.is_some()
            || self.open_dialog.open
            || self.add_system.open
            || self.report.dialog_open()
            || self.dialogs.is_open()
            || self.keyboard_taken
            || keyboard_taken(ctx);
        if busy {
            return None;
        }
        // A focused button (Tab, or a click on a drop-down) takes Enter itself; ↑ / ↓ still
        // choose a category row.
        let arrow = ctx.input(|i| i.key_pressed(Key::ArrowUp) || i.key_pressed(Key::ArrowDown));
        let scope = match self.view {
            _ if self.session.is_none() => Scope::Everywhere,
            View::Browser if arrow => {
                ctx.memory_mut(|m| m.focused().map(|id| m.surrender_focus(id)));
                Scope::Browser
            }
            View::Browser if ctx.memory(|m| m.focused().is_some()) => Scope::Everywhere,
            View::Browser => Scope::Browser,
            View::Example(_) => Scope::Example,
            View::Report => Scope::Everywhere,
        };
        ctx.input_mut(|i| keys::read(i, scope))
    }

    pub(super) fn command(&mut self, command: Command) {
        let current = match &self.view {
            View::Example(walk) => Some((walk.index, walk.set.len(), walk.current())),
            View::Browser | View::Report => None,
        };
        // The overview shows others' work and is not editable, but for the researcher's tags.
        let editing = |c: Command| matches!(c, Command::Judge(..) | Command::Toggle(..) | Command::FocusRemarks);
        if editing(command) && self.overview_shown() {
            self.messages.notice("The overview is not editable: press O to annotate.");
            return;
        }
        match (command, current) {
            (Command::Prev, Some((i, _, _))) if i > 0 => self.leave_then(Go::To(i - 1)),
            (Command::Next, Some((i, n, _))) if i + 1 < n => self.leave_then(Go::To(i + 1)),
            (Command::Next, Some(_)) | (Command::Back, Some(_)) => self.leave_then(Go::Browser),
            (Command::Continue, None) => {
                if let Some(opening) = self.session.as_ref().and_then(|s| self.browser.enter(s)) {
                    self.start(opening);
                }
            }
            (Command::SelectRow(down), None) => self.browser.step(down),
            (Command::Judge(role, judgement), Some((_, _, c))) if self.has_role(c, role) => {
                self.edit(c, Edit::Judge(role, judgement));
            }
            (Command::Toggle(role, n), Some((_, _, c))) => {
                let token = self.session.as_ref().and_then(|s| s.master().candidate(c)?.aligned(role).nth(n));
                if let Some(token) = token {
                    self.edit(c, Edit::ToggleToken(role, token));
                    self.reveal = Some(token); // a key acts on a token the annotator sees
                }
            }
            (Command::FocusTags, Some(_)) if self.overview_shown() => self.overview.focus_tags(),
            (Command::FocusTags, Some(_)) => self.panel.focus_tags(),
            (Command::ToggleOverview, Some(_)) => self.toggle_overview(),
            (Command::StepAnnotator(forward), Some((_, _, c))) if self.overview_shown() => {
                let overview = self.session.as_ref().and_then(|s| Overview::of(s.master(), c));
                if let Some(o) = overview {
                    self.overview.step(&o, forward);
                }
            }
            (Command::GoTo, _) => self.researcher_dialog(Kind::GoTo),
            (Command::FocusRemarks, Some(_)) => self.panel.focus_remarks(),
            (Command::Undo, _) => self.undo(true),
            (Command::Redo, _) => self.undo(false),
            (Command::Open, _) => self.open_dialog.show_with(None),
            (Command::Help, _) => self.help.toggle(),
            _ => {}
        }
    }

    pub(super) fn action(&mut self, ctx: &egui::Context, action: Action) {
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
            Action::AddSystem => self.add_system.show(),
            Action::Report => self.leave_then(Go::Report),
            Action::RunAutoEval => self.run_auto_eval(),
            Action::Dialog(kind) => self.researcher_dialog(kind),
            Action::ToggleOverview => self.toggle_overview(),
            Action::AddAnnotator(name) => {
                let Some(s) = &mut self.session else { return };
                match s.run(|store| workflow::annotators::add(store, &name)) {
                    Ok(id) => {
                        s.set_annotator(id);
                        self.settings.annotators.insert(s.path().to_path_buf(), id);
                    }
                    Err(e) => {
                        self.messages.error(format!("Could not add {}: {}", name.trim(), dialogs::failed(&e, "")))
                    }
                }
            }
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

    /// Opens a dialog; those for a master only in researcher mode (the legacy import also
    /// without a file).
    fn researcher_dialog(&mut self, kind: Kind) {
        let any = kind == Kind::SaveCopy || (kind == Kind::Legacy && self.session.is_none());
        if self.is_researcher() || any {
            self.dialogs.show(kind, self.session.as_ref());
        }
    }

    /// What a dialog asked for once it closed.
    pub(super) fn outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Open(path) => self.leave_then(Go::Open(path)),
            Outcome::Show(opening) => self.leave_then(Go::Show(opening)),
            Outcome::Merge(batches) => self.dialogs.merge(&batches),
            Outcome::Dialog(kind) => self.researcher_dialog(kind),
            Outcome::OpenCopy(path) => {
                if self.session.as_ref().is_some_and(|s| s.not_saved().is_some()) {
                    // The copy has everything; the file itself cannot take it, so it is left as
                    // it is rather than closed.
                    self.session = None;
                }
                self.leave_then(Go::Open(path));
            }
        }
    }

    /// A change to the researcher's own record from the overview panel.
    pub(super) fn edit_as_researcher(&mut self, candidate: CandidateId, edit: Edit) {
        let Some(session) = self.session.as_mut().filter(|s| !s.is_read_only()) else { return };
        if let Err(e) = session.edit_as(candidate, AnnotatorId::RESEARCHER, edit) {
            self.messages.error(e);
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

    pub(super) fn edit(&mut self, candidate: CandidateId, edit: Edit) {
        // Read-only: the notice bar says so; the widgets are disabled and keys do nothing.
        let Some(session) = self.session.as_mut().filter(|s| !s.is_read_only()) else { return };
        if let Err(e) = session.edit(candidate, edit) {
            self.messages.error(e);
        }
    }

    pub(super) fn store_due_remarks(&mut self, now: Option<f64>) {
        if let Some((candidate, edit)) = self.panel.due_remarks(now) {
            self.edit(candidate, edit);
        }
    }

    /// Undo (or redo) the last change, wherever it was: the example it was on is brought into
    /// view first (another category or view if need be) and a message says what was undone.
    fn undo(&mut self, undo: bool) {
        self.store_due_remarks(None);
        let Some(session) = &mut self.session else { return };
        let result = if undo { session.undo() } else { session.redo() };
        let done = match result {
            Ok(Some(done)) => done,
            Ok(None) => return self.messages.info(if undo { "Nothing to undo." } else { "Nothing to redo." }),
            Err(e) => return self.messages.error(e),
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
    fn reveal(&mut self, candidate: CandidateId) {
        let in_walk = match &self.view {
            View::Example(walk) => Some((walk.current(), walk.set.iter().position(|&c| c == candidate))),
            View::Browser | View::Report => None,
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
