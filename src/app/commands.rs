//! What keys and menus do: edits through the session, undo, and the menu actions.

use super::keys::{self, Command, Scope};
use super::menu::Action;
use super::navigation::{Go, View};
use super::style;
use super::{App, keyboard_taken};
use protest::annotation::Edit;
use protest::model::{CandidateId, Role};

impl App {
    pub(super) fn read_keys(&mut self, ctx: &egui::Context) -> Option<Command> {
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

    pub(super) fn command(&mut self, command: Command) {
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
}
