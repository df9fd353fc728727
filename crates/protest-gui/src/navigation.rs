//! Moving between the browser and the examples of a set; leaving an example runs the conflict
//! checks and may ask first (docs/domain.md, "Conflict rules").

use crate::App;
use crate::dialogs::Modal;
use crate::dialogs::conflict::ConflictDialog;
use crate::dialogs::versions::VersionsDialog;
use crate::place::{Go, Leaving, View, Walk};
use protest::annotate::edit::Edit;
use protest::model::CandidateId;
use protest::session::Opening;
use protest::store::based::{Disagreement, Keep};

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
                    self.modal = Some(Modal::of(ConflictDialog { conflicts: conflicts.clone() }));
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

    /// A record the server holds in another version than the one changed here (the web page):
    /// its example is brought into view (once: if the annotator stays where they were, the
    /// question comes to them) and both versions shown, for the annotator to choose.
    pub(crate) fn offer_versions(&mut self) {
        if self.modal.is_some() || self.leaving.is_some() || self.work.is_some() {
            return;
        }
        let Some(d) = self.session.as_ref().and_then(|s| s.disagreements().into_iter().next()) else { return };
        if self.current_candidate() != Some(d.candidate) && self.versions_revealed != Some(d.candidate) {
            self.versions_revealed = Some(d.candidate);
            self.reveal(d.candidate);
            if self.modal.is_some() {
                return; // the example being left asks first
            }
        }
        let Some(session) = &self.session else { return };
        self.modal = Some(Modal::of(VersionsDialog::new(d, session.master())));
    }

    /// The annotator chose a version in the dialog of two versions.
    pub(crate) fn keep_version(&mut self, d: &Disagreement, keep: Keep) {
        self.versions_revealed = None;
        let Some(session) = &mut self.session else { return };
        let example = session.master().candidate(d.candidate).map_or(String::new(), |c| c.example.to_string());
        match session.choose(d, keep) {
            Ok(()) if keep == Keep::Proposed => {
                self.messages.info(format!("Example {example}: your version is kept and sent to the server."))
            }
            Ok(()) => self.messages.info(format!("Example {example}: the version saved on the server is kept.")),
            Err(e) => self.messages.error(e.to_string()),
        }
    }

    /// Hands the changes not saved to the browser as a file (the web page whose link no longer
    /// works, docs/serve.md); the window keeps the last one offered, which the tests read.
    pub(crate) fn download_unsent(&mut self) {
        let Some((name, bytes)) = self.session.as_ref().and_then(|s| s.unsent_file()) else { return };
        #[cfg(target_arch = "wasm32")]
        if let Err(why) = crate::web::download(&name, &bytes) {
            self.messages.error(format!("The file could not be offered by this browser: {why}"));
        }
        self.messages.info(format!("Your changes are in {name}, in your downloads: send that file to the researcher."));
        self.offered = Some((name, bytes));
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
