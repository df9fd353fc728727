//! What the dialogs share: how a dialog answers each frame ([`Reply`]), how it is shown (a modal
//! that stays where it opened and closes only with Esc or its buttons), and the pieces most of
//! them draw — a title, a problem, something done, *Close* — and the words for a refusal.

use crate::intent::Intent;
use egui::{Modal, ModalResponse, RichText, Ui};
use protest::Error;

/// What a dialog's `ui` returns each frame.
pub enum Reply {
    Stay,
    Close,
    /// Close, and the app carries this out.
    Then(Intent),
    /// Stay, and run this long work on the open file off the UI thread; its result comes back
    /// to the dialog.
    Work(crate::work::SessionWork),
}

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
    /// [`work_frames`] when it was last shown: frames of long work it asked for hide it without
    /// closing it.
    work_frames: u64,
}

/// Where the frames drawn while long work runs are counted (`App::work_ui`).
pub fn work_frames_id() -> egui::Id {
    egui::Id::unique("frames of long work")
}

/// How many frames were drawn while long work ran (the dialogs are hidden then).
fn work_frames(ctx: &egui::Context) -> u64 {
    ctx.data(|d| d.get_temp::<u64>(work_frames_id()).unwrap_or(0))
}

/// Shows a modal that stays where it first appeared. egui centres a modal anew every frame, so a
/// dialog whose content grows or shrinks (a message, a table, the next step) would move its
/// buttons under the pointer; this one keeps its top edge until it closes.
pub fn show_anchored<T>(ctx: &egui::Context, modal: Modal, content: impl FnOnce(&mut Ui) -> T) -> ModalResponse<T> {
    let key = modal.area.layer().id.with("anchor");
    let now = ctx.cumulative_pass_nr();
    let work_frames = work_frames(ctx);
    let anchor = ctx.data_mut(|d| {
        let a = d.get_temp_mut_or_default::<Anchor>(key);
        let hidden = work_frames.saturating_sub(a.work_frames); // by its own work, not closed
        if a.last + 1 + hidden < now || a.last > now {
            *a = Anchor { first: now, last: now, top: None, work_frames }; // opened afresh
        }
        a.last = now;
        a.work_frames = work_frames;
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
