//! Masters from outside: built from tokenised texts, alignments and a test-suite definition
//! ([`from_texts`], reading [`texts`] and [`suite_def`]); converted from the original tool's
//! SQLite files ([`legacy`]); a new MT system's output added to a master ([`add_system`]), which
//! is read from a file or a folder ([`system_output`]) and needs tokenising ([`tokenize`]), one
//! translation per source sentence ([`resegment`]) and word alignment ([`align`]); and synthetic
//! masters of any size for benchmarks ([`synth`]).

pub mod add_system;
pub mod align;
pub mod discevalmt;
pub mod from_texts;
// Reads SQLite files: not in the web page (docs/serve.md).
#[cfg(not(target_arch = "wasm32"))]
pub mod legacy;
pub mod resegment;
pub mod suite_def;
pub mod synth;
pub mod system_output;
pub mod texts;
pub mod tokenize;
