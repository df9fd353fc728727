//! The researcher's dialogs (annotators, task sets, batches, adjudication, lookup, old files) and
//! *Save a copy*: one open at a time, each a small struct with a `ui` method in its own file.

use super::adjudication_dialog::AdjudicationDialog;
use super::annotators_dialog::AnnotatorsDialog;
use super::batch_export_dialog::BatchExportDialog;
use super::browser::Opening;
use super::goto_dialog::GoToDialog;
use super::legacy_dialog::LegacyDialog;
use super::merge_dialog::MergeDialog;
use super::plan_dialog::PlanDialog;
use super::save_copy_dialog::SaveCopyDialog;
use super::session::Session;
use egui::{Id, Modal, ModalResponse, RichText, Ui};
use protest::Error;
use protest::model::ExampleNo;
use std::path::{Path, PathBuf};

/// Whether the user closed a dialog: with Esc. A stray click beside it does not close it, as
/// egui's modals do by default: that would throw away what was typed and chosen.
pub fn escaped<T>(modal: &ModalResponse<T>, ctx: &egui::Context) -> bool {
    // Before `should_close`, which consumes the key.
    let escape = ctx.input(|i| i.key_pressed(egui::Key::Escape));
    modal.should_close() && escape
}

/// Where a dialog first appeared: its top edge, from its second frame on (the first only sizes
/// it), and the last frame it was shown in (a dialog not shown for a frame was closed).
#[derive(Debug, Clone, Copy, Default)]
struct Anchor {
    first: u64,
    last: u64,
    top: Option<f32>,
}

/// Shows a modal that stays where it first appeared. egui centres a modal anew every frame, so a
/// dialog whose content grows or shrinks (a message, a table, the next step) would move its
/// buttons under the pointer; this one keeps its top edge until it closes.
pub fn show_anchored<T>(ctx: &egui::Context, modal: Modal, content: impl FnOnce(&mut Ui) -> T) -> ModalResponse<T> {
    let key = modal.area.layer().id.with("anchor");
    let now = ctx.cumulative_pass_nr();
    let anchor = ctx.data_mut(|d| {
        let a = d.get_temp_mut_or_default::<Anchor>(key);
        if a.last + 1 < now || a.last > now {
            *a = Anchor { first: now, last: now, top: None }; // opened afresh
        }
        a.last = now;
        *a
    });
    let content_top = ctx.content_rect().top();
    let modal = match anchor.top {
        Some(top) => {
            let area = modal.area.clone().anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, top - content_top));
            modal.area(area)
        }
        None => modal,
    };
    let shown = modal.show(ctx, content);
    if anchor.top.is_none() && now > anchor.first {
        let top = shown.response.rect.top();
        ctx.data_mut(|d| d.get_temp_mut_or_default::<Anchor>(key).top = Some(top));
    }
    shown
}

/// Which dialog to open (from the menus and keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Annotators,
    Plan,
    Export,
    Merge,
    Adjudication,
    Legacy,
    GoTo,
    SaveCopy,
}

/// What a dialog asks the app to do once it closes.
pub enum Outcome {
    Open(PathBuf),
    Show(Opening),
    /// The merge dialog with these batches.
    Merge(Vec<PathBuf>),
    /// The next step's dialog.
    Dialog(Kind),
    /// A copy of the open file was saved: open it instead.
    OpenCopy(PathBuf),
}

/// What a dialog's `ui` returns each frame.
pub enum Reply {
    Stay,
    Close,
    Then(Outcome),
}

enum Dialog {
    Annotators(AnnotatorsDialog),
    Plan(PlanDialog),
    Export(BatchExportDialog),
    Merge(MergeDialog),
    Adjudication(AdjudicationDialog),
    Legacy(LegacyDialog),
    GoTo(GoToDialog),
    SaveCopy(SaveCopyDialog),
}

#[derive(Default)]
pub struct Dialogs {
    open: Option<Dialog>,
}

impl Dialogs {
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Opens a dialog afresh, filled in from the open file.
    pub fn show(&mut self, kind: Kind, session: Option<&Session>) {
        let master = session.map(Session::master);
        let path = session.map(Session::path);
        self.open = Some(match (kind, master, path) {
            (Kind::Legacy, _, _) => Dialog::Legacy(LegacyDialog::new(None, session)),
            (Kind::Annotators, Some(_), _) => Dialog::Annotators(AnnotatorsDialog::default()),
            (Kind::Plan, Some(m), _) => Dialog::Plan(PlanDialog::new(m)),
            (Kind::Export, Some(m), Some(p)) => Dialog::Export(BatchExportDialog::new(m, p)),
            (Kind::Merge, Some(m), Some(p)) => Dialog::Merge(MergeDialog::new(m, p)),
            (Kind::Adjudication, Some(m), Some(p)) => Dialog::Adjudication(AdjudicationDialog::new(m, p)),
            (Kind::GoTo, Some(_), _) => Dialog::GoTo(GoToDialog::default()),
            (Kind::SaveCopy, Some(_), Some(p)) => Dialog::SaveCopy(SaveCopyDialog::new(p)),
            _ => return, // nothing open to work on
        });
    }

    /// The lookup, showing every translation of an example.
    pub fn compare(&mut self, no: ExampleNo) {
        self.open = Some(Dialog::GoTo(GoToDialog::on_example(no)));
    }

    /// Offers to convert a file of the original tool.
    pub fn convert(&mut self, old: &Path, session: Option<&Session>) {
        self.open = Some(Dialog::Legacy(LegacyDialog::new(Some(old), session)));
    }

    /// The merge dialog with these batches chosen.
    pub fn merge(&mut self, batches: &[PathBuf]) {
        self.open = Some(Dialog::Merge(MergeDialog::with(batches)));
    }

    pub fn ui(&mut self, ctx: &egui::Context, session: Option<&mut Session>) -> Option<Outcome> {
        let dialog = self.open.as_mut()?;
        let modal = show_anchored(ctx, Modal::new(Id::unique("researcher dialog")), |ui| {
            // Tall dialogs scroll rather than leave the window (one that grows past the bottom of
            // the window moves up just enough).
            let max = (ctx.content_rect().height() - 60.0).max(240.0);
            let scroll = egui::ScrollArea::vertical().id_salt("dialog").max_height(max).min_scrolled_height(max);
            scroll
                .show(ui, |ui| match (dialog, session) {
                    (Dialog::Legacy(d), session) => d.ui(ui, session),
                    (_, None) => Reply::Close,
                    (Dialog::Annotators(d), Some(s)) => d.ui(ui, s),
                    (Dialog::Plan(d), Some(s)) => d.ui(ui, s),
                    (Dialog::Export(d), Some(s)) => d.ui(ui, s),
                    (Dialog::Merge(d), Some(s)) => d.ui(ui, s),
                    (Dialog::Adjudication(d), Some(s)) => d.ui(ui, s),
                    (Dialog::GoTo(d), Some(s)) => d.ui(ui, s),
                    (Dialog::SaveCopy(d), Some(s)) => d.ui(ui, s),
                })
                .inner
        });
        let reply = if escaped(&modal, ctx) { Reply::Close } else { modal.inner };
        match reply {
            Reply::Stay => None,
            Reply::Close => {
                self.open = None;
                None
            }
            Reply::Then(outcome) => {
                self.open = None;
                Some(outcome)
            }
        }
    }
}

/// What to tell the user about an operation that failed (and changed nothing): a refusal in the
/// rule's own words, anything else (a full disk…) as the error, saying that nothing changed. A
/// file in the way names the tick box `tick` that replaces it.
pub fn failed(e: &Error, tick: &str) -> String {
    match e {
        Error::Refused { message, .. } => message.clone(),
        Error::Exists { .. } => format!("{e}; tick “{tick}” to replace it."),
        e => format!("{e}. Nothing was changed."),
    }
}

/// The text with a capital first letter (the library's messages start in lower case).
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// The dialog's title.
pub fn title(ui: &mut Ui, text: &str) {
    ui.heading(text);
    ui.add_space(6.0);
}

/// A problem in the dialog's warning colour (empty: nothing, but the space is kept so the
/// dialog does not jump).
pub fn problem(ui: &mut Ui, problem: Option<&str>) {
    if let Some(p) = problem {
        ui.add(egui::Label::new(RichText::new(p).color(ui.visuals().error_fg_color)).wrap());
    }
}

/// Something done, in a calm colour.
pub fn done(ui: &mut Ui, text: &str) {
    let colour = if ui.visuals().dark_mode {
        egui::Color32::from_rgb(0x8F, 0xD1, 0x9E)
    } else {
        egui::Color32::from_rgb(0x1E, 0x6B, 0x30)
    };
    ui.add(egui::Label::new(RichText::new(text).color(colour)).wrap());
}

/// A *Close* button at the bottom.
pub fn close_button(ui: &mut Ui) -> bool {
    ui.button("Close").clicked()
}
