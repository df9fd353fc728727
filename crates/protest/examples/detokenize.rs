//! Turns tokenised text into plain text the way a typical MT system prints it, with the library's
//! (naive) detokeniser — e.g. to try `protest add-system` with a "new system" made from a corpus
//! the master already has:
//!
//!     cat sample_batches/inputs/news.ref.fr sample_batches/inputs/extra.ref.fr |
//!         cargo run --example detokenize -- fr > plain.fr

use protest::ingest::tokenize::{Language, detokenize};
use std::io::{BufRead, Write};

fn main() -> std::io::Result<()> {
    let code = std::env::args().nth(1).unwrap_or_else(|| "fr".into());
    let language = Language::from_code(&code);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        writeln!(out, "{}", detokenize(&line?, language))?;
    }
    out.flush()
}
