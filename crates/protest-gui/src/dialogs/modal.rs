//! The app's one modal slot: the dialog open (at most one). While it is open no key reaches the
//! rest of the window.

use crate::dialogs::dialog::{Dialog, Routed, Shown};
use crate::dialogs::parts::Reply;
use protest::session::Session;

/// The dialog open: whichever it is, the slot only draws it and hands it what its work returned.
pub struct Modal(pub(super) Box<dyn Shown>);

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
