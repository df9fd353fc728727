//! Everything the user can ask the app to do — with a key, a menu item, a button in a panel or a
//! dialog — as one type. `App::dispatch` (dispatch.rs) is the one place that carries an intent
//! out; keys (keys.rs), the menus (menu.rs), the panels and the dialogs only produce them. What a
//! menu shows for an intent — its label, its hint and its key — is defined once: the label and
//! hint here, the key in the key table.

use crate::style::ThemeChoice;
use protest::annotate::edit::Edit;
use protest::model::{AnnotatorId, CandidateId, ExampleNo, Judgement, MatchRule, Role};
use protest::prediction::browse::Results;
use protest::session::Opening;
use protest::store::based::{Disagreement, Keep};
use std::path::PathBuf;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    // Moving through the examples
    /// The previous example of the set.
    Prev,
    /// The next example of the set (after the last one: back to the categories).
    Next,
    /// Back to the category browser.
    Back,
    /// Category browser: the chosen row's new examples, or without a choice every candidate from
    /// the first one not annotated yet.
    Continue,
    /// Category browser: choose the next (true) or previous row.
    SelectRow(bool),
    /// Work through a set of candidates.
    Walk(Opening),
    /// The report view (researcher mode).
    Report,
    /// The prediction results view on these results (File › Open prediction results…).
    ShowPredictions(Box<Results>),
    /// Prediction results: the previous (false) or next example of the cell.
    PredictionStep(bool),
    /// Prediction results: the previous (false) or next cell of the confusion matrix with examples.
    PredictionCell(bool),
    /// Prediction results: the previous (false) or next system.
    PredictionSystem(bool),

    // Annotating
    Judge(Role, Judgement),
    /// Select or deselect the n-th (0-based) target token aligned to the role.
    Toggle(Role, usize),
    /// A change to the current annotator's record of a candidate.
    Edit(CandidateId, Edit),
    /// A change to the researcher's own record, made in the overview.
    ResearcherEdit(CandidateId, Edit),
    FocusTags,
    FocusRemarks,
    Undo,
    Redo,
    /// Conflict dialog: stay on the example.
    Amend,
    /// Conflict dialog: store the annotation with its conflicts and move on.
    KeepAsIs,
    /// The dialog of two versions of a record: keep this one (its key).
    ChooseVersion(Keep),
    /// Keep this version of the record two changes disagree about (the web page).
    KeepVersion(Box<Disagreement>, Keep),

    // The researcher's views and operations
    /// The annotation panel or the overview beside the translation.
    ToggleOverview,
    /// Overview: the previous (false) or next (true) annotator's selected tokens.
    StepAnnotator(bool),
    /// Annotate as someone else.
    SwitchAnnotator(AnnotatorId),
    /// Add an annotator to the master and annotate as them.
    AddAnnotator(String),
    /// A round of the automatic reference match, comparing by this rule (`None`: the rule the
    /// master stores, as for its earlier rounds).
    RunAutoEval(Option<MatchRule>),

    // Files, dialogs and the window
    /// Open a dialog.
    Dialog(Dialog),
    /// Open this file in place of the current one.
    OpenFile(PathBuf),
    /// Open the copy just saved of the current file, leaving the file itself as it is.
    OpenCopy(PathBuf),
    /// Save the changes not saved yet, again.
    RetrySave,
    /// The web page whose link no longer works: hand the changes not saved to the browser as a
    /// file, for the researcher.
    DownloadUnsent,
    Quit,
    Theme(ThemeChoice),
    /// The keys and the annotation guidelines.
    Help,
    /// Tell the user something done (a dialog's result).
    Notice(String),
}

/// The dialogs, each shown in the app's one modal slot (`dialogs::Modal`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    /// File › Open.
    Open,
    AddSystem,
    /// Converting a file of the original tool (this one, or one to choose).
    Legacy(Option<PathBuf>),
    SaveCopy,
    Annotators,
    Plan,
    Export,
    /// Merging annotated batches (these ones chosen already).
    Merge(Vec<PathBuf>),
    Adjudication,
    /// Go to an example or a candidate.
    GoTo,
    /// Every translation of an example, side by side.
    Compare(ExampleNo),
    /// Exporting report tables: the one of this name, or all of them.
    ExportTables(Option<&'static str>),
    /// A gold file and prediction files of the pronoun prediction task, to browse their errors.
    PredictionResults,
}

impl Intent {
    /// What a menu item for this intent says (and the report view's button for the match).
    pub fn label(&self) -> Option<&'static str> {
        Some(match self {
            Intent::Dialog(Dialog::Open) => "Open…",
            Intent::Dialog(Dialog::PredictionResults) => "Open prediction results…",
            Intent::Dialog(Dialog::AddSystem) => "Add MT system…",
            Intent::Dialog(Dialog::Legacy(_)) => "Import old PROTEST file…",
            Intent::Dialog(Dialog::SaveCopy) => "Save a copy as…",
            Intent::Dialog(Dialog::Annotators) => "Annotators…",
            Intent::Dialog(Dialog::Plan) => "Plan a task set…",
            Intent::Dialog(Dialog::Export) => "Export batches…",
            Intent::Dialog(Dialog::Merge(_)) => "Import annotated batches…",
            Intent::Dialog(Dialog::Adjudication) => "Adjudication…",
            Intent::Dialog(Dialog::GoTo) => "Go to example or candidate…",
            Intent::Dialog(Dialog::Compare(_)) => "Compare translations",
            Intent::Dialog(Dialog::ExportTables(None)) => "Export all…",
            Intent::Dialog(Dialog::ExportTables(Some(_))) => "Export…",
            Intent::Quit => "Quit",
            Intent::Undo => "Undo",
            Intent::Redo => "Redo",
            Intent::ToggleOverview => "Annotation panel or overview",
            Intent::Report => "Report",
            Intent::RunAutoEval(_) => "Run automatic reference match",
            Intent::Help => "Keys and guidelines",
            _ => return None,
        })
    }

    /// What hovering over its menu item or button explains, if anything.
    pub fn hint(&self) -> Option<&'static str> {
        Some(match self {
            Intent::Dialog(Dialog::SaveCopy) => "Everything shown here, changes not saved included, into a new file",
            Intent::Dialog(Dialog::PredictionResults) => {
                "A pronoun prediction gold file and systems' predictions: the official scores, the confusion \
                 matrix, and each error in its sentence"
            }
            Intent::ToggleOverview => "In the translation window",
            Intent::RunAutoEval(_) => {
                "Compare every MT translation with the reference and with translations judged correct; matches \
                 count as correct without manual work"
            }
            Intent::Dialog(Dialog::ExportTables(None)) => "Every table as CSV, Markdown, LaTeX or text",
            Intent::Dialog(Dialog::ExportTables(Some(_))) => "This table as CSV, Markdown, LaTeX or text",
            _ => return None,
        })
    }
}
