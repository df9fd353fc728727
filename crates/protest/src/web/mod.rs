//! Annotating over the network (docs/serve.md): an annotator's browser runs the annotation
//! window, and `protest serve` holds the master. This module is what both ends share — the
//! messages between them ([`protocol`]) — and what the server does with a change from a page
//! ([`desk`]: checked as batch import checks a record, stored in the master's journal, its id
//! kept in the [`receipts`] so that it is taken once, and only on the version of its record it
//! was made on). The page's side is [`crate::session::Remote`]; what a page whose link no longer
//! works offers the researcher is a file of its [`unsent`] changes.

pub mod protocol;
pub mod unsent;

#[cfg(not(target_arch = "wasm32"))]
pub mod desk;
#[cfg(not(target_arch = "wasm32"))]
pub mod receipts;
