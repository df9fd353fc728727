//! `protest serve` (docs/serve.md): holds a master — its lock, as a window does — and serves the
//! annotation window, compiled to WebAssembly ([`page`]), to the annotators of one task set, each
//! at a link with a secret token ([`links`]). A page's changes are taken by the core's
//! [`protest::web::desk::Desk`]: checked as batch import checks a record, appended to the
//! master's journal (flushed to disk) and only then acknowledged. Stopping the server folds the
//! journal into the master, as closing a window does.
//!
//! [`Served::open`] prepares everything that can fail before anything is served; [`serve`] runs
//! the HTTP server (axum on tokio) until told to stop; [`Served::close`] folds and lets go;
//! [`run`] does all three for `protest serve`. Every line the server prints goes through its
//! [`Voice`]. This file only declares the modules and what the crate offers.

mod connections;
mod limits;
pub mod links;
mod negotiate;
mod options;
pub mod page;
mod routes;
mod run;
mod served;
#[cfg(test)]
mod tests;
mod voice;
mod writer;

pub use connections::Stopped;
pub use limits::Limits;
pub use options::{DEFAULT_LISTEN, Options};
pub use routes::serve;
pub use run::run;
pub use served::{NewLink, Opened, Served};
pub use voice::Voice;
