//! The dialogs, each a [`dialog::Dialog`] in its own file, and the app's one modal slot:
//! [`Modal`] is the dialog open (at most one), and while it is open no key reaches the rest of
//! the window. A dialog answers every frame with a [`parts::Reply`]; what it asks for once it
//! closes is an [`crate::intent::Intent`], carried out like any other, and what its long work
//! returns comes back to it through [`Modal::deliver`].
//!
//! A new dialog: its file here, and (if the user asks for it) an `impl Opener` block in that file
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
pub mod modal;
pub mod open;
pub mod opener;
pub mod parts;
pub mod path_field;
pub mod plan;
pub mod prediction;
pub mod recovery;
pub mod report_export;
pub mod save_copy;
pub mod versions;

pub use modal::Modal;
pub use opener::{Allowed, OnHand, Opener};
