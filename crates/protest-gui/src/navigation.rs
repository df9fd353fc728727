//! Moving between the browser and the examples of a set; leaving an example runs the conflict
//! checks and may ask first (docs/domain.md, "Conflict rules").

use crate::App;
use crate::dialogs::Modal;
use crate::dialogs::conflict::ConflictDialog;
use crate::place::{Go, Leaving, View, Walk};
use protest::annotate::edit::Edit;
use protest::model::CandidateId;
use protest::session::Opening;

impl App {
    pub(crate) fn start(&mut self, opening: Opening) {
        if opening.set.is_empty() {
            return;
        }
        let index = opening.start.min(opening.set.len() - 1);
        self.visits += 1;
        self.view = View::Example(Walk::new(opening.title, opening.set, index));
    }

    /// Leaves the current example (if any): stores pending remarks, runs the conflict checks and
    /// either goes on or asks first.
    pub(crate) fn leave_then(&mut self, go: Go) {
        self.store_due_remarks(None);
        self.store_typed_tags();
        if let (View::Example(walk), Some(session)) = (&self.view, &mut self.session)
            && !session.is_read_only()
        {
            let candidate = walk.current();
            match session.leave(candidate) {
                Ok(conflicts) if !conflicts.is_empty() => {
                    self.modal = Some(Modal::Conflict(ConflictDialog { conflicts: conflicts.clone() }));
                    self.leaving = Some(Leaving { candidate, conflicts, then: go });
                    return;
                }
                Ok(_) => {}
                Err(e) => self.messages.error(e.to_string()),
            }
        }
        self.go(go);
    }

    /// *Keep as is* in the conflict dialog: stores the annotation with its conflicts and goes on.
    pub(crate) fn keep_as_is(&mut self) {
        let Some(leaving) = self.leaving.take() else { return };
        if let Some(session) = &mut self.session
            && let Err(e) = session.keep(leaving.candidate, leaving.conflicts)
        {
            self.messages.error(e.to_string());
        }
        self.go(leaving.then);
    }

    fn go(&mut self, go: Go) {
        let leaving = self.current_candidate();
        self.go_on(go);
        if let Some(left) = leaving.filter(|&c| self.current_candidate() != Some(c)) {
            self.messages.left(left);
        }
    }

    /// The example shown, if any.
    pub(crate) fn current_candidate(&self) -> Option<CandidateId> {
        match &self.view {
            View::Example(walk) => Some(walk.current()),
            View::Browser | View::Report | View::Predictions => None,
        }
    }

    /// Text typed in a tag box and not added, on leaving the example: added as a tag, saying so,
    /// or kept in the box for the example when it is not a tag.
    pub(crate) fn store_typed_tags(&mut self) {
        let typed =
            [self.panel.take_typed_tag().map(|t| (t, false)), self.overview.take_typed_tag().map(|t| (t, true))];
        for ((candidate, taken), researcher) in typed.into_iter().flatten() {
            let place = self.example_place(candidate);
            match taken {
                Ok(tag) => self.add_typed_tag(candidate, tag, researcher),
                Err(why) => self.messages.info(format!(
                    "The text in the tag box{place} was not added: it {why}. It is kept there for when you come back."
                )),
            }
        }
    }

    /// Adds a tag typed and left in a tag box (the researcher's own in the overview), saying so.
    pub(crate) fn add_typed_tag(&mut self, candidate: CandidateId, tag: String, researcher: bool) {
        let edit = Edit::AddTag(tag.clone());
        if researcher {
            self.edit_as_researcher(candidate, edit)
        } else {
            self.edit(candidate, edit)
        }
        self.messages.info(format!("Added the tag “{tag}” typed in the tag box{}.", self.example_place(candidate)));
    }

    /// " of example 2", or nothing when the candidate is not known.
    fn example_place(&self, candidate: CandidateId) -> String {
        let no = self.session.as_ref().and_then(|s| s.master().candidate(candidate)).map(|c| c.example);
        no.map_or(String::new(), |no| format!(" of example {no}"))
    }

    fn go_on(&mut self, go: Go) {
        match go {
            Go::To(i) => {
                if let View::Example(walk) = &mut self.view {
                    walk.index = i.min(walk.set.len() - 1);
                    self.visits += 1;
                }
            }
            Go::Browser => self.view = View::Browser,
            Go::Report => self.view = View::Report,
            Go::Predictions => self.view = View::Predictions,
            Go::Show(opening) => self.start(opening),
            Go::Open(path) => self.open(&path),
            Go::Quit => {
                let unsaved = self.session.as_mut().filter(|s| s.not_saved().is_some());
                if let Some(session) = unsaved
                    && session.retry().is_err()
                    && !self.quit_warned
                {
                    self.quit_warned = true;
                    let retry = if self.messages.can_retry { "Press Retry, or keep" } else { "Keep" };
                    self.messages.error(format!(
                        "Quitting now loses the changes that are not saved (see above). {retry} them with File › Save \
                         a copy as…; or quit again to leave without them."
                    ));
                    return;
                }
                self.close_then_quit();
            }
        }
    }
}
