//! Everything the user can ask the app to do — with a key, a menu item, a button in a panel or a
//! dialog — as one type. `App::dispatch` (dispatch.rs) is the one place that carries an intent
//! out; keys (keys.rs), the menus (menu.rs), the panels and the dialogs only produce them. What a
//! menu shows for an intent — its label, its hint and its key — is defined once: the label and
//! hint here, the key in the key table.

use crate::dialogs::Opener;
use crate::style::ThemeChoice;
use protest::annotate::Direction;
use protest::annotate::edit::Edit;
use protest::model::{AnnotatorId, CandidateId, Judgement, MatchRule, Role};
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
    /// Category browser: choose the next (forward) or previous row.
    SelectRow(Direction),
    /// Work through a set of candidates.
    Walk(Opening),
    /// The report view (researcher mode).
    Report,
    /// The prediction results view on these results (File › Open prediction results…).
    ShowPredictions(Box<Results>),
    /// Prediction results: the previous or next example of the cell.
    PredictionStep(Direction),
    /// Prediction results: the previous or next cell of the confusion matrix with examples.
    PredictionCell(Direction),
    /// Prediction results: the previous or next system.
    PredictionSystem(Direction),

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
    /// Overview: the previous or next annotator's selected tokens.
    StepAnnotator(Direction),
    /// Annotate as someone else.
    SwitchAnnotator(AnnotatorId),
    /// Add an annotator to the master and annotate as them.
    AddAnnotator(String),
    /// A round of the automatic reference match, comparing by this rule (`None`: the rule the
    /// master stores, as for its earlier rounds).
    RunAutoEval(Option<MatchRule>),

    // Files, dialogs and the window
    /// Open a dialog (each registered once, in `dialogs::Opener`).
    Dialog(Opener),
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

impl Intent {
    /// What a menu item for this intent says (and the report view's button for the match).
    pub fn label(&self) -> Option<&'static str> {
        Some(match self {
            Intent::Dialog(opener) => opener.label,
            Intent::Quit => "Quit",
            Intent::Undo => "Undo",
            Intent::Redo => "Redo",
            Intent::ToggleOverview => "Annotation panel or overview",
            Intent::Report => "Report",
            Intent::RunAutoEval(_) => "Run automatic evaluation",
            Intent::Help => "Keys and guidelines",
            _ => return None,
        })
    }

    /// What hovering over its menu item or button explains, if anything.
    pub fn hint(&self) -> Option<&'static str> {
        Some(match self {
            Intent::Dialog(opener) => return opener.hint,
            Intent::ToggleOverview => "In the translation window",
            Intent::RunAutoEval(_) => {
                "Compare every MT translation with the reference and with translations judged correct (matches \
                 count as correct without manual work), then, for a French target, judge the pronoun's agreement \
                 with its antecedent's head in gender and number"
            }
            _ => return None,
        })
    }
}
