//! The one pattern of the dialogs: a [`Dialog`] says how it is framed and draws its body and its
//! buttons; what it answers each frame is a [`Reply`], and what the long work it asks for
//! returns comes back to it through [`Dialog::done`] — it never reaches into the app or into
//! the modal slot. [`Shown`] is the same dialog for the slot, which knows no dialog's types.

use crate::dialogs::parts::{self, Part, Reply, Side};
use egui::{Id, Ui};
use protest::session::Session;
use std::any::{Any, TypeId};

/// A dialog: a small struct with a `ui` method, in its own file.
pub trait Dialog: 'static {
    /// What the dialog's long work hands back to it (`()` for one that starts none).
    type Done: Send + 'static;

    /// How it is shown in this window.
    fn frame(&self, ctx: &egui::Context) -> Frame;

    /// Draws one part of the dialog, with the open file if any; answers what the user asked.
    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Self::Done>;

    /// Takes what its long work returned.
    fn done(&mut self, _done: Self::Done) {}

    /// The user dismissed it (Esc, or a click beside a dialog whose [`Frame::beside`] says so):
    /// it closes unless it says otherwise.
    fn dismissed(&mut self) -> Reply<Self::Done> {
        Reply::Close
    }
}

/// How a dialog is shown: where it is remembered, how wide it would like to be, on which side.
pub struct Frame {
    pub id: &'static str,
    pub width: f32,
    pub side: Side,
    /// A click beside it dismisses it as Esc does (otherwise it would throw away what was typed).
    pub beside: bool,
}

impl Frame {
    /// A dialog in the middle of the window.
    pub fn centre(id: &'static str, width: f32) -> Frame {
        Frame { id, width, side: Side::Centre, beside: false }
    }

    /// The frame of the researcher's dialogs: one place in the window, whichever of them is open.
    pub fn researcher(width: f32) -> Frame {
        Frame::centre("researcher dialog", width)
    }
}

/// What a dialog's long work returned, on its way back to the dialog that asked for it.
pub struct Routed {
    to: TypeId,
    done: Box<dyn Any + Send>,
}

/// A [`Dialog`] as the modal slot sees it: drawn, and given back what its work returned.
pub trait Shown {
    fn show(&mut self, ctx: &egui::Context, session: Option<&mut Session>) -> Reply<Routed>;

    /// Hands `routed` to the dialog if it is the one whose work returned it.
    fn deliver(&mut self, routed: Routed);

    /// The dialog itself, for tests to look at.
    #[cfg(test)]
    fn as_any(&self) -> &dyn Any;
}

impl<D: Dialog> Shown for D {
    fn show(&mut self, ctx: &egui::Context, mut session: Option<&mut Session>) -> Reply<Routed> {
        let frame = self.frame(ctx);
        let modal = egui::Modal::new(Id::unique(frame.id));
        let shown =
            parts::dialog(ctx, modal, frame.width, frame.side, |ui, part| self.ui(ui, part, session.as_deref_mut()));
        let dismissed = if frame.beside { shown.should_close() } else { parts::escaped(&shown, ctx) };
        let reply = match shown.inner {
            Reply::Stay if dismissed => self.dismissed(),
            reply => reply,
        };
        reply.map(|done| Routed { to: TypeId::of::<D>(), done: Box::new(done) })
    }

    fn deliver(&mut self, routed: Routed) {
        if routed.to == TypeId::of::<D>()
            && let Ok(done) = routed.done.downcast::<D::Done>()
        {
            self.done(*done);
        }
    }

    #[cfg(test)]
    fn as_any(&self) -> &dyn Any {
        self
    }
}
