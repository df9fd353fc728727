//! The dialogs, each a [`dialog::Dialog`] in its own file, and the app's one modal slot:
//! [`Modal`] is the dialog open (at most one), and while it is open no key reaches the rest of
//! the window. A dialog answers every frame with a [`parts::Reply`]; what it asks for once it
//! closes is an [`crate::intent::Intent`], carried out like any other, and what its long work
//! returns comes back to it through [`Modal::deliver`].
//!
//! A new dialog: its file here, and (if the user asks for it) its [`Opener`] in the table below
//! — what its menu item says, when it may open and how it is made. A menu or a panel then offers
//! `Intent::Dialog(Opener::…)`.

pub mod add_system;
pub mod adjudication;
pub mod annotators;
pub mod batch_export;
pub mod conflict;
pub mod dialog;
pub mod file_chooser;
pub mod goto;
#[cfg(not(target_arch = "wasm32"))] // no SQLite in the web page (docs/serve.md)
pub mod legacy;
pub mod merge;
pub mod open;
pub mod parts;
pub mod path_field;
pub mod plan;
pub mod prediction;
pub mod recovery;
pub mod report_export;
pub mod save_copy;
pub mod versions;

use add_system::AddSystemDialog;
use adjudication::AdjudicationDialog;
use annotators::AnnotatorsDialog;
use batch_export::BatchExportDialog;
use dialog::{Dialog, Routed, Shown};
use goto::GoToDialog;
#[cfg(not(target_arch = "wasm32"))]
use legacy::LegacyDialog;
use merge::MergeDialog;
use open::OpenDialog;
use parts::Reply;
use plan::PlanDialog;
use prediction::PredictionDialog;
use protest::metrics::report::Table;
use protest::model::ExampleNo;
use protest::session::Session;
use protest::session::workspace::Mode;
use report_export::ExportDialog;
use save_copy::SaveCopyDialog;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The dialog open: whichever it is, the slot only draws it and hands it what its work returned.
pub struct Modal(Box<dyn Shown>);

impl Modal {
    /// `dialog` in the slot (those the app opens by itself: the conflict checks, a recovery file,
    /// two versions of a record).
    pub fn of(dialog: impl Dialog) -> Modal {
        Modal(Box::new(dialog))
    }

    /// Draws the dialog, with the open file if any.
    pub fn ui(&mut self, ctx: &egui::Context, session: Option<&mut Session>) -> Reply<Routed> {
        self.0.show(ctx, session)
    }

    /// Hands what a dialog's long work returned to the dialog (if it is still the one open).
    pub fn deliver(&mut self, routed: Routed) {
        self.0.deliver(routed);
    }

    /// The dialog open if it is a `D`.
    #[cfg(test)]
    pub fn get<D: Dialog>(&self) -> Option<&D> {
        self.0.as_any().downcast_ref()
    }

    /// Whether the dialog open is a `D`.
    #[cfg(test)]
    pub fn is<D: Dialog>(modal: &Option<Modal>) -> bool {
        modal.as_ref().and_then(Modal::get::<D>).is_some()
    }
}

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
    fn master_at(&self) -> Option<(&protest::model::Master, &Path)> {
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
    fn new<D: Dialog>(
        label: &'static str,
        allowed: Allowed,
        make: impl Fn(&OnHand) -> Option<D> + Send + Sync + 'static,
    ) -> Opener {
        let make = move |on: &OnHand| make(on).map(|d| Box::new(d) as Box<dyn Shown>);
        Opener { label, hint: None, allowed, key: label.to_owned(), make: Arc::new(make) }
    }

    fn hint(mut self, hint: &'static str) -> Opener {
        self.hint = Some(hint);
        self
    }

    /// Tells this opener from others of its label by what it opens on.
    fn on(mut self, what: impl std::fmt::Display) -> Opener {
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

/// The dialogs the user asks for, each registered once.
impl Opener {
    /// File › Open.
    pub fn open_file() -> Opener {
        Opener::new("Open…", Allowed::Anywhere, |on| Some(OpenDialog::new(on.recent)))
    }

    /// A gold file and prediction files of the pronoun prediction task, to browse their errors.
    pub fn prediction_results() -> Opener {
        Opener::new("Open prediction results…", Allowed::NoBatch, |_| Some(PredictionDialog::new())).hint(
            "A pronoun prediction gold file and systems' predictions: the official scores, the confusion matrix, \
             and each error in its sentence",
        )
    }

    pub fn add_system() -> Opener {
        Opener::new("Add MT system…", Allowed::Researcher, |_| Some(AddSystemDialog::default()))
    }

    /// Converting a file of the original tool: this one (whatever is open), or one to choose
    /// (with no file open or a master).
    #[cfg(not(target_arch = "wasm32"))] // no SQLite in the web page
    pub fn legacy(old: Option<PathBuf>) -> Opener {
        let allowed = if old.is_some() { Allowed::Anywhere } else { Allowed::NoBatch };
        let key = format!("{old:?}");
        Opener::new("Import old PROTEST file…", allowed, move |on| {
            Some(LegacyDialog::new(old.as_deref(), on.session))
        })
        .on(key)
    }

    pub fn save_copy() -> Opener {
        Opener::new("Save a copy as…", Allowed::AnyFile, |on| on.session.map(|s| SaveCopyDialog::new(s.path())))
            .hint("Everything shown here, changes not saved included, into a new file")
    }

    pub fn annotators() -> Opener {
        Opener::new("Annotators…", Allowed::Researcher, |on| on.session.map(|s| AnnotatorsDialog::new(s.master())))
    }

    pub fn plan() -> Opener {
        Opener::new("Plan a task set…", Allowed::Researcher, |on| on.session.map(|s| PlanDialog::new(s.master())))
    }

    pub fn export_batches() -> Opener {
        Opener::new("Export batches…", Allowed::Researcher, |on| {
            on.master_at().map(|(m, p)| BatchExportDialog::new(m, p))
        })
    }

    /// Merging annotated batches: these ones (into a master to choose), or none yet (into the
    /// open master, batches to choose).
    pub fn merge(batches: Vec<PathBuf>) -> Opener {
        const LABEL: &str = "Import annotated batches…";
        if batches.is_empty() {
            return Opener::new(LABEL, Allowed::Researcher, |on| on.master_at().map(|(m, p)| MergeDialog::new(m, p)));
        }
        let key = format!("{batches:?}");
        Opener::new(LABEL, Allowed::Anywhere, move |_| Some(MergeDialog::with(&batches))).on(key)
    }

    pub fn adjudication() -> Opener {
        Opener::new("Adjudication…", Allowed::Researcher, |on| {
            on.master_at().map(|(m, p)| AdjudicationDialog::new(m, p))
        })
    }

    /// Go to an example or a candidate.
    pub fn go_to() -> Opener {
        Opener::new("Go to example or candidate…", Allowed::Researcher, |_| Some(GoToDialog::default()))
    }

    /// Every translation of an example, side by side.
    pub fn compare(no: ExampleNo) -> Opener {
        Opener::new("Compare translations", Allowed::AnyFile, move |_| Some(GoToDialog::on_example(no))).on(no)
    }

    /// Exporting report tables: the one of this name, or all of them.
    pub fn export_tables(table: Option<&'static str>) -> Opener {
        let opener = match table {
            None => Opener::new("Export all…", Allowed::AnyFile, |on| {
                on.session.map(|s| ExportDialog::new(None, s.path(), on.tables))
            })
            .hint("Every table as CSV, Markdown, LaTeX or text"),
            Some(name) => Opener::new("Export…", Allowed::AnyFile, move |on| {
                on.session.map(|s| ExportDialog::new(Some(name), s.path(), on.tables))
            })
            .hint("This table as CSV, Markdown, LaTeX or text"),
        };
        opener.on(table.unwrap_or(""))
    }
}
