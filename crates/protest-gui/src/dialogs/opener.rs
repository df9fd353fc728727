//! What the user can ask for by name: an [`Opener`] per dialog, registered in the dialog's own
//! file (an `impl Opener` block beside the dialog), so that a new dialog touches nothing else.

use crate::dialogs::dialog::{Dialog, Shown};
use crate::dialogs::modal::Modal;
use protest::metrics::report::Table;
use protest::session::Session;
use protest::session::workspace::Mode;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a dialog is filled in from when it opens.
pub struct OnHand<'a> {
    /// The open file, if any.
    pub session: Option<&'a Session>,
    /// The report's tables (for an export).
    pub tables: &'a [Table],
    /// The files opened last (for *Open*).
    pub recent: &'a [PathBuf],
}

impl OnHand<'_> {
    pub(super) fn master_at(&self) -> Option<(&protest::model::Master, &Path)> {
        self.session.map(|s| (s.master(), s.path()))
    }
}

/// When a dialog may be opened (the web page opens none: no files to open or write, no
/// researcher's work).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// With or without a file open.
    Anywhere,
    /// With a file open, whichever.
    AnyFile,
    /// Not on an annotator's batch (which shows nothing but the annotation): with no file open or
    /// a master.
    NoBatch,
    /// On a master (researcher mode).
    Researcher,
}

impl Allowed {
    /// Whether a dialog allowed so may open on `session`.
    pub fn admits(self, session: Option<&Session>) -> bool {
        let researcher = session.is_some_and(|s| s.mode() == Mode::Researcher);
        match self {
            _ if session.is_some_and(Session::is_remote) => false,
            Allowed::Anywhere => true,
            Allowed::AnyFile => session.is_some(),
            Allowed::NoBatch => session.is_none() || researcher,
            Allowed::Researcher => researcher,
        }
    }
}

type Make = dyn Fn(&OnHand) -> Option<Box<dyn Shown>> + Send + Sync;

/// A dialog the user can ask for: what its menu item says, when it may open, and how it is made
/// from what is on hand. Two openers are the same when they say the same and open on the same.
#[derive(Clone)]
pub struct Opener {
    /// What its menu item (or button) says.
    pub label: &'static str,
    /// What hovering over it explains, if anything.
    pub hint: Option<&'static str>,
    pub allowed: Allowed,
    /// The label and what it opens on.
    key: String,
    make: Arc<Make>,
}

impl std::fmt::Debug for Opener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.key)
    }
}

impl PartialEq for Opener {
    fn eq(&self, other: &Opener) -> bool {
        self.key == other.key
    }
}

impl Opener {
    /// A dialog made by `make` (`None`: it cannot open now, e.g. it needs a file and none is).
    pub(super) fn new<D: Dialog>(
        label: &'static str,
        allowed: Allowed,
        make: impl Fn(&OnHand) -> Option<D> + Send + Sync + 'static,
    ) -> Opener {
        let make = move |on: &OnHand| make(on).map(|d| Box::new(d) as Box<dyn Shown>);
        Opener { label, hint: None, allowed, key: label.to_owned(), make: Arc::new(make) }
    }

    pub(super) fn hint(mut self, hint: &'static str) -> Opener {
        self.hint = Some(hint);
        self
    }

    /// Tells this opener from others of its label by what it opens on.
    pub(super) fn on(mut self, what: impl std::fmt::Display) -> Opener {
        self.key = format!("{} {what}", self.label);
        self
    }

    /// The dialog, filled in from what is on hand, if it may open there.
    pub fn open(&self, on: &OnHand) -> Option<Modal> {
        if !self.allowed.admits(on.session) {
            return None;
        }
        (self.make)(on).map(Modal)
    }
}
