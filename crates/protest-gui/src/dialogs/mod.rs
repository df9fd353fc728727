//! The dialogs, each a [`dialog::Dialog`] in its own file, and the app's one modal slot:
//! [`Modal`] is the dialog open (at most one), and while it is open no key reaches the rest of
//! the window. A dialog answers every frame with a [`parts::Reply`]; what it asks for once it
//! closes is an [`crate::intent::Intent`], carried out like any other, and what its long work
//! returns comes back to it through [`Modal::deliver`].
//!
//! A new dialog: its file here, a variant of [`Modal`] (made in [`Modal::new`], shown by
//! [`Modal::shown`]) and one of [`crate::intent::Dialog`] to open it with.

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

use crate::intent::Dialog;
use add_system::AddSystemDialog;
use adjudication::AdjudicationDialog;
use annotators::AnnotatorsDialog;
use batch_export::BatchExportDialog;
use conflict::ConflictDialog;
use dialog::{Routed, Shown};
use goto::GoToDialog;
#[cfg(not(target_arch = "wasm32"))]
use legacy::LegacyDialog;
use merge::MergeDialog;
use open::OpenDialog;
use parts::Reply;
use plan::PlanDialog;
use prediction::PredictionDialog;
use protest::metrics::report::Table;
use protest::session::Session;
use recovery::RecoveryDialog;
use report_export::ExportDialog;
use save_copy::SaveCopyDialog;
use std::path::PathBuf;
use versions::VersionsDialog;

/// The dialog open.
pub enum Modal {
    /// Leaving an example whose annotation breaks conflict rules.
    Conflict(ConflictDialog),
    Open(OpenDialog),
    AddSystem(AddSystemDialog),
    ExportTables(ExportDialog),
    Annotators(AnnotatorsDialog),
    Plan(PlanDialog),
    Export(BatchExportDialog),
    Merge(MergeDialog),
    Adjudication(AdjudicationDialog),
    #[cfg(not(target_arch = "wasm32"))]
    Legacy(LegacyDialog),
    GoTo(GoToDialog),
    SaveCopy(SaveCopyDialog),
    /// Changes a window could not save, offered when their file opens.
    Recovery(RecoveryDialog),
    Prediction(PredictionDialog),
    /// A record the server has in another version than the page's (the web page).
    Versions(VersionsDialog),
}

impl Modal {
    /// The dialog, filled in from the open file (for an export, the report's `tables`; for
    /// *Open*, the `recent` files); `None` for one that needs a file when none is open.
    pub fn new(dialog: Dialog, session: Option<&Session>, tables: &[Table], recent: &[PathBuf]) -> Option<Modal> {
        let master = session.map(Session::master);
        let path = session.map(Session::path);
        Some(match (dialog, master, path) {
            (Dialog::Open, _, _) => Modal::Open(OpenDialog::new(recent)),
            (Dialog::PredictionResults, _, _) => Modal::Prediction(PredictionDialog::new()),
            #[cfg(not(target_arch = "wasm32"))]
            (Dialog::Legacy(old), _, _) => Modal::Legacy(LegacyDialog::new(old.as_deref(), session)),
            #[cfg(target_arch = "wasm32")]
            (Dialog::Legacy(_), _, _) => return None,
            (Dialog::Merge(batches), _, _) if !batches.is_empty() => Modal::Merge(MergeDialog::with(&batches)),
            (_, None, _) | (_, _, None) => return None,
            (Dialog::AddSystem, _, _) => Modal::AddSystem(AddSystemDialog::default()),
            (Dialog::ExportTables(table), _, Some(p)) => Modal::ExportTables(ExportDialog::new(table, p, tables)),
            (Dialog::Annotators, Some(m), _) => Modal::Annotators(AnnotatorsDialog::new(m)),
            (Dialog::Plan, Some(m), _) => Modal::Plan(PlanDialog::new(m)),
            (Dialog::Export, Some(m), Some(p)) => Modal::Export(BatchExportDialog::new(m, p)),
            (Dialog::Merge(_), Some(m), Some(p)) => Modal::Merge(MergeDialog::new(m, p)),
            (Dialog::Adjudication, Some(m), Some(p)) => Modal::Adjudication(AdjudicationDialog::new(m, p)),
            (Dialog::GoTo, _, _) => Modal::GoTo(GoToDialog::default()),
            (Dialog::Compare(no), _, _) => Modal::GoTo(GoToDialog::on_example(no)),
            (Dialog::SaveCopy, _, Some(p)) => Modal::SaveCopy(SaveCopyDialog::new(p)),
        })
    }

    /// Draws the dialog, with the open file if any.
    pub fn ui(&mut self, ctx: &egui::Context, session: Option<&mut Session>) -> Reply<Routed> {
        self.shown().show(ctx, session)
    }

    /// Hands what a dialog's long work returned to the dialog (if it is still the one open).
    pub fn deliver(&mut self, routed: Routed) {
        self.shown().deliver(routed);
    }

    /// The dialog open, as the slot sees it.
    fn shown(&mut self) -> &mut dyn Shown {
        match self {
            Modal::Conflict(d) => d,
            Modal::Open(d) => d,
            Modal::AddSystem(d) => d,
            Modal::ExportTables(d) => d,
            Modal::Annotators(d) => d,
            Modal::Plan(d) => d,
            Modal::Export(d) => d,
            Modal::Merge(d) => d,
            Modal::Adjudication(d) => d,
            #[cfg(not(target_arch = "wasm32"))]
            Modal::Legacy(d) => d,
            Modal::GoTo(d) => d,
            Modal::SaveCopy(d) => d,
            Modal::Recovery(d) => d,
            Modal::Prediction(d) => d,
            Modal::Versions(d) => d,
        }
    }
}
