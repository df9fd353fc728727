//! The web page of `protest serve` as an artifact built once: `scripts/build-page` builds it
//! (crates/protest-web for WebAssembly, wasm-bindgen's glue, gzip) into a folder that is
//! committed, [`BUILT`], with a [`Stamp`] of the sources it came from; `protest-serve` embeds that
//! folder, so no build of the server compiles the page. A test here recomputes the digest of the
//! sources and fails when the committed page was built from other ones.

pub mod sources;
pub mod stamp;

pub use sources::{Unreadable, digest_of_sources};
pub use stamp::{Stale, Stamp};

/// The committed page, relative to the workspace's root.
pub const BUILT: &str = "crates/protest-serve/page/built";

/// The stamp's file in [`BUILT`].
pub const STAMP: &str = "stamp";

/// The page's built files in [`BUILT`], gzip-compressed: wasm-bindgen's glue and the program.
pub const FILES: [&str; 2] = ["app.js.gz", "app.wasm.gz"];

/// What rebuilds it.
pub const SCRIPT: &str = "scripts/build-page";

/// The hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
