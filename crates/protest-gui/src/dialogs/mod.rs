//! The dialogs, each a small struct with a `ui` method in its own file, and the app's one modal
//! slot: [`Modal`] is the dialog open (at most one), and while it is open no key reaches the rest
//! of the window. A dialog answers every frame with a [`parts::Reply`]; what it asks for once it
//! closes is an [`crate::intent::Intent`], carried out like any other.
//!
//! A new dialog: its file here, a variant of [`Modal`] (made in [`Modal::new`], drawn in
//! [`Modal::ui`]) and one of [`crate::intent::Dialog`] to open it with.

pub mod add_system;
pub mod adjudication;
pub mod annotators;
pub mod batch_export;
pub mod conflict;
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

use crate::intent::Dialog;
use add_system::AddSystemDialog;
use adjudication::AdjudicationDialog;
use annotators::AnnotatorsDialog;
use batch_export::BatchExportDialog;
use conflict::ConflictDialog;
use egui::{Id, Ui};
use goto::GoToDialog;
#[cfg(not(target_arch = "wasm32"))]
use legacy::LegacyDialog;
use merge::MergeDialog;
use open::OpenDialog;
use parts::{Part, Reply};
use plan::PlanDialog;
use prediction::PredictionDialog;
use protest::metrics::report::Table;
use protest::session::Session;
use recovery::RecoveryDialog;
use report_export::ExportDialog;
use save_copy::SaveCopyDialog;
use std::path::PathBuf;

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
}

impl Modal {
    /// The dialog, filled in from the open file (and for an export, the report's `tables`);
    /// `None` for one that needs a file when none is open.
    pub fn new(dialog: Dialog, session: Option<&Session>, tables: &[Table]) -> Option<Modal> {
        let master = session.map(Session::master);
        let path = session.map(Session::path);
        Some(match (dialog, master, path) {
            (Dialog::Open, _, _) => Modal::Open(OpenDialog::new()),
            (Dialog::PredictionResults, _, _) => Modal::Prediction(PredictionDialog::new()),
            #[cfg(not(target_arch = "wasm32"))]
            (Dialog::Legacy(old), _, _) => Modal::Legacy(LegacyDialog::new(old.as_deref(), session)),
            #[cfg(target_arch = "wasm32")]
            (Dialog::Legacy(_), _, _) => return None,
            (Dialog::Merge(batches), _, _) if !batches.is_empty() => Modal::Merge(MergeDialog::with(&batches)),
            (_, None, _) | (_, _, None) => return None,
            (Dialog::AddSystem, _, _) => Modal::AddSystem(AddSystemDialog::default()),
            (Dialog::ExportTables(table), _, Some(p)) => Modal::ExportTables(ExportDialog::new(table, p, tables)),
            (Dialog::Annotators, _, _) => Modal::Annotators(AnnotatorsDialog::default()),
            (Dialog::Plan, Some(m), _) => Modal::Plan(PlanDialog::new(m)),
            (Dialog::Export, Some(m), Some(p)) => Modal::Export(BatchExportDialog::new(m, p)),
            (Dialog::Merge(_), Some(m), Some(p)) => Modal::Merge(MergeDialog::new(m, p)),
            (Dialog::Adjudication, Some(m), Some(p)) => Modal::Adjudication(AdjudicationDialog::new(m, p)),
            (Dialog::GoTo, _, _) => Modal::GoTo(GoToDialog::default()),
            (Dialog::Compare(no), _, _) => Modal::GoTo(GoToDialog::on_example(no)),
            (Dialog::SaveCopy, _, Some(p)) => Modal::SaveCopy(SaveCopyDialog::new(p)),
        })
    }

    /// Draws the dialog; `recent` are the files opened last (for *Open*).
    pub fn ui(&mut self, ctx: &egui::Context, session: Option<&mut Session>, recent: &[PathBuf]) -> Reply {
        match (self, session) {
            (Modal::Conflict(d), _) => d.ui(ctx),
            (Modal::Open(d), _) => d.ui(ctx, recent),
            (Modal::ExportTables(d), _) => d.ui(ctx),
            (Modal::AddSystem(d), Some(s)) => d.ui(ctx, s),
            #[cfg(not(target_arch = "wasm32"))]
            (Modal::Legacy(d), _) => framed(ctx, d.width(), |ui, part| d.ui(ui, part)),
            (Modal::Prediction(d), _) => framed(ctx, prediction::WIDTH, |ui, part| d.ui(ui, part)),
            (_, None) => Reply::Close,
            (Modal::Annotators(d), Some(s)) => framed(ctx, annotators::WIDTH, |ui, part| d.ui(ui, part, s)),
            (Modal::Plan(d), Some(s)) => framed(ctx, plan::WIDTH, |ui, part| d.ui(ui, part, s)),
            (Modal::Export(d), Some(s)) => framed(ctx, batch_export::WIDTH, |ui, part| d.ui(ui, part, s)),
            (Modal::Merge(d), Some(_)) => framed(ctx, merge::WIDTH, |ui, part| d.ui(ui, part)),
            (Modal::Adjudication(d), Some(s)) => framed(ctx, adjudication::WIDTH, |ui, part| d.ui(ui, part, s)),
            (Modal::GoTo(d), Some(s)) => framed(ctx, goto::WIDTH, |ui, part| d.ui(ui, part, s)),
            (Modal::SaveCopy(d), Some(_)) => framed(ctx, save_copy::WIDTH, |ui, part| d.ui(ui, part)),
            (Modal::Recovery(d), Some(s)) => framed(ctx, recovery::WIDTH, |ui, part| d.ui(ui, part, s)),
        }
    }
}

/// The frame of the researcher's dialogs ([`parts::dialog`]): a modal that fits the window and
/// stays where it opened, its body scrolling and its buttons in view; it closes with Esc.
fn framed(ctx: &egui::Context, wanted: f32, content: impl FnMut(&mut Ui, Part) -> Reply) -> Reply {
    let modal = parts::dialog(ctx, egui::Modal::new(Id::unique("researcher dialog")), wanted, content);
    if parts::escaped(&modal, ctx) { Reply::Close } else { modal.inner }
}
