//! What the dialogs share: how a dialog answers each frame ([`Reply`]), how it is shown (a modal
//! that fits the window, stays where it opened and closes only with Esc or its buttons: its body
//! scrolls, its buttons stay in view and in place, [`dialog`]), and the pieces most of them draw —
//! a title, a problem, something done, *Close* — and the words for a refusal.

use crate::intent::Intent;
use egui::{Modal, ModalResponse, RichText, Ui};
use protest::Error;
use protest::session::Session;

/// Space kept between a dialog and the window's edges.
pub const EDGE: f32 = 12.0;
/// The margin inside a dialog's frame.
pub const MARGIN: i8 = 16;

/// The part of a dialog being drawn: its body, which scrolls when the window is too small for
/// it, or its buttons, in a row under the body that is always in view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Body,
    Buttons,
}

/// What a dialog's parts measured last frame.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Sizes {
    /// The body's content, and where the dialog is.
    content: egui::Vec2,
    rect: Option<egui::Rect>,
    /// The tallest the body has been since the dialog opened: it keeps that height, so the
    /// buttons under it do not move up when a message in it goes (the next click would miss).
    tallest: f32,
    buttons: Option<f32>,
}

/// The width a dialog that would like to be `wanted` wide gets in this window.
pub fn width(ctx: &egui::Context, wanted: f32) -> f32 {
    wanted.min(ctx.content_rect().width() - 2.0 * (EDGE + f32::from(MARGIN))).max(160.0)
}

/// The frame of a dialog.
pub fn frame(ctx: &egui::Context) -> egui::Frame {
    egui::Frame::popup(&ctx.global_style()).inner_margin(MARGIN)
}

/// Shows a dialog `wanted` wide (less in a narrow window) whose `content` draws its body and its
/// buttons ([`Part`]): the body scrolls, with visible scroll bars, when it does not fit the
/// window; the buttons stay under it, in view. What either part answers is the dialog's reply.
pub fn dialog<D>(
    ctx: &egui::Context,
    modal: Modal,
    wanted: f32,
    side: Side,
    mut content: impl FnMut(&mut Ui, Part) -> Reply<D>,
) -> ModalResponse<Reply<D>> {
    let key = anchor_key(&modal);
    let modal = modal.frame(frame(ctx));
    let window = ctx.content_rect();
    show_anchored(ctx, modal, side, |ui| {
        let width = width(ctx, wanted);
        ui.set_width(width);
        let anchor = ui.data(|d| d.get_temp::<Anchor>(key)).unwrap_or_default();
        let mut sizes = anchor.sizes;
        // While the dialog comes to its size, its first frames measure text not yet wrapped to
        // its width: the height to keep counts from when it is placed.
        let placed = anchor.top.is_some();
        let separator = 2.0 * ui.spacing().item_spacing.y + 1.0;
        let buttons = sizes.buttons.unwrap_or(ui.spacing().interact_size.y);
        let most = window.height() - 2.0 * (EDGE + f32::from(MARGIN)) - separator - buttons;
        let most = most.max(60.0);
        crate::style::visible_scroll_bars(ui);
        if anchor.first == ui.ctx().cumulative_pass_nr() {
            // Opened afresh: nothing of its last opening (where it was scrolled to, how tall its
            // last page was) is taken over.
            let body = ui.make_persistent_id(egui::IdSalt::new("dialog body"));
            ui.data_mut(|d| d.remove::<egui::scroll_area::State>(body));
        }
        let body = egui::ScrollArea::both().id_salt("dialog body").auto_shrink([false, true]).max_height(most).show(
            ui,
            |ui| {
                // Measured by where the content ends: the scroll area may have given its ui the
                // height of the view already.
                let start = ui.cursor().top();
                let reply = content(ui, Part::Body);
                let natural = ui.cursor().top() - start;
                if placed && natural < sizes.tallest {
                    ui.add_space(sizes.tallest - natural);
                }
                (reply, natural)
            },
        );
        let (body_reply, natural) = body.inner;
        // A result in place of the form is a new page: the dialog takes its height.
        let turned = ui.data_mut(|d| d.remove_temp::<bool>(page_turned_id())).is_some();
        sizes.tallest = if placed && !turned { sizes.tallest.max(natural) } else { natural };
        ui.separator();
        let top = ui.cursor().top();
        let reply = content(ui, Part::Buttons);
        sizes.buttons = Some(ui.min_rect().bottom() - top);
        sizes.content = body.content_size;
        sizes.rect = Some(ui.min_rect());
        let before = ui.data_mut(|d| {
            let anchor = d.get_temp_mut_or_default::<Anchor>(key);
            anchor.steady = anchor.sizes == sizes;
            std::mem::replace(&mut anchor.sizes, sizes)
        });
        if before != sizes {
            // The scroll area sizes itself by the last frame's content, and the dialog moves to
            // stay in the window: draw again until it stands still.
            ui.ctx().request_repaint();
        }
        match body_reply {
            Reply::Stay => reply,
            asked => asked,
        }
    })
}

/// What a dialog's `ui` returns each frame; `D` is what its long work hands back to it.
pub enum Reply<D> {
    Stay,
    Close,
    /// Close, and the app carries this out.
    Then(Intent),
    /// Stay, and run this long work on the open file off the UI thread; what it returns comes
    /// back to the dialog ([`crate::dialogs::dialog::Dialog::done`]).
    Work(Job<D>),
}

impl<D> Reply<D> {
    /// The same reply, its work's result made into `E`.
    pub fn map<E>(self, into: impl FnOnce(D) -> E + Send + 'static) -> Reply<E>
    where
        D: 'static,
    {
        match self {
            Reply::Stay => Reply::Stay,
            Reply::Close => Reply::Close,
            Reply::Then(intent) => Reply::Then(intent),
            Reply::Work(Job { what, run }) => {
                Reply::Work(Job { what, run: Box::new(move |session| run(session).map(into)) })
            }
        }
    }
}

/// Long work a dialog asks for: it runs on a worker thread with the open file (if any), and
/// what it returns is handed back to the dialog when it is done.
pub struct Job<D> {
    pub what: String,
    /// Given the open file, if any: what to hand back (nothing, for work that needs a file when
    /// none is open).
    pub run: Run<D>,
}

/// The work of a [`Job`].
pub type Run<D> = Box<dyn FnOnce(Option<&mut Session>) -> Option<D> + Send>;

impl<D> Job<D> {
    /// Work on the open file (nothing happens without one).
    pub fn new(what: impl Into<String>, run: impl FnOnce(&mut Session) -> D + Send + 'static) -> Job<D> {
        Job { what: what.into(), run: Box::new(move |session| session.map(run)) }
    }

    /// Work with the open file if there is one, and without one too.
    pub fn any(what: impl Into<String>, run: impl FnOnce(Option<&mut Session>) -> D + Send + 'static) -> Job<D> {
        Job { what: what.into(), run: Box::new(move |session| Some(run(session))) }
    }
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
    /// Its size while it is placed afresh: it is placed for good once that stands still.
    size: egui::Vec2,
    /// [`work_frames`] when it was last shown: frames of long work it asked for hide it without
    /// closing it.
    work_frames: u64,
    /// What its parts measured ([`dialog`]), and whether that was the same the frame before.
    sizes: Sizes,
    steady: bool,
}

fn anchor_key(modal: &Modal) -> egui::Id {
    modal.area.layer().id.with("anchor")
}

/// Where the frames drawn while long work runs are counted (`App::work_ui`).
pub fn work_frames_id() -> egui::Id {
    egui::Id::unique("frames of long work")
}

/// How many frames were drawn while long work ran (the dialogs are hidden then).
fn work_frames(ctx: &egui::Context) -> u64 {
    ctx.data(|d| d.get_temp::<u64>(work_frames_id()).unwrap_or(0))
}

/// Where a dialog opens across the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Centre,
    /// At the right edge, beside what the window shows on the left (the translation).
    Right,
}

/// Shows a modal that stays where it first appeared, on `side` of the window. egui centres a
/// modal anew every frame, so a dialog whose content grows or shrinks (a message, a table, the
/// next step) would move its buttons under the pointer; this one keeps its top edge until it
/// closes.
fn show_anchored<T>(
    ctx: &egui::Context,
    modal: Modal,
    side: Side,
    content: impl FnOnce(&mut Ui) -> T,
) -> ModalResponse<T> {
    let key = anchor_key(&modal);
    let now = ctx.cumulative_pass_nr();
    let work_frames = work_frames(ctx);
    let anchor = ctx.data_mut(|d| {
        let a = d.get_temp_mut_or_default::<Anchor>(key);
        let hidden = work_frames.saturating_sub(a.work_frames); // by its own work, not closed
        if a.last + 1 + hidden < now || a.last > now {
            // Opened afresh.
            *a = Anchor { first: now, last: now, work_frames, ..Anchor::default() };
        }
        a.last = now;
        a.work_frames = work_frames;
        *a
    });
    let content_top = ctx.content_rect().top();
    let (x, dx) = match side {
        Side::Centre => (egui::Align::Center, 0.0),
        Side::Right => (egui::Align::Max, -EDGE),
    };
    let area = match anchor.top {
        Some(top) => modal.area.clone().anchor(egui::Align2([x, egui::Align::Min]), egui::vec2(dx, top - content_top)),
        None => modal.area.clone().anchor(egui::Align2([x, egui::Align::Center]), egui::vec2(dx, 0.0)),
    };
    // Opened afresh, it is measured afresh, not from the size of its last opening's last page.
    let modal = modal.area(area.sizing_pass(anchor.first == now));
    let shown = modal.show(ctx, content);
    if anchor.top.is_none() {
        // Centred for its content, as it comes to its size (the first frames only measure it).
        let rect = shown.response.rect;
        let steady = ctx.data(|d| d.get_temp::<Anchor>(key)).is_some_and(|a| a.steady);
        let settled = now > anchor.first && rect.size() == anchor.size && steady;
        ctx.data_mut(|d| {
            let a = d.get_temp_mut_or_default::<Anchor>(key);
            a.size = rect.size();
            a.top = settled.then_some(rect.top());
        });
        if !settled {
            ctx.request_repaint();
        }
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
    let shown = ui.add(egui::Label::new(RichText::new(text).color(colour)).wrap());
    // The result takes the place of a form the annotator may have scrolled down: brought into
    // view as it appears (not after, so that what follows it can be scrolled to).
    let key = egui::Id::unique("result shown").with(text);
    let pass = ui.ctx().cumulative_pass_nr();
    let last = ui.data(|d| d.get_temp::<u64>(key));
    ui.data_mut(|d| d.insert_temp(key, pass));
    if last.is_none_or(|last| last + 1 < pass) {
        // At once: the form it replaces is gone, there is nothing to scroll past.
        shown.scroll_to_me_animation(Some(egui::Align::Center), egui::style::ScrollAnimation::none());
        ui.data_mut(|d| d.insert_temp(page_turned_id(), true));
    }
}

/// Set by a result as it appears ([`done`]): the dialog's height is the result's, not the form's.
fn page_turned_id() -> egui::Id {
    egui::Id::unique("dialog page turned")
}

/// A *Close* button at the bottom.
pub fn close_button(ui: &mut Ui) -> bool {
    ui.button("Close").clicked()
}

/// The buttons of a dialog, in a row (wrapping in a narrow window); `Reply::Stay` unless one
/// answers.
pub fn buttons<D>(ui: &mut Ui, row: impl FnOnce(&mut Ui) -> Reply<D>) -> Reply<D> {
    ui.horizontal_wrapped(row).inner
}

/// The buttons of a dialog that only closes: *Close*.
pub fn close_only<D>(ui: &mut Ui) -> Reply<D> {
    if close_button(ui) { Reply::Close } else { Reply::Stay }
}
