//! The bundled sample — a master of 60 examples with its task set's two annotated batches
//! (`sample_batches/`) — built into the program, so that an installed `protest` without the
//! source tree still has it ([`crate::workflow::sample`] writes it out). Plain bytes: this module
//! imports nothing, so any layer (and the tests' fixtures) may use it.

/// The sample master's file name and bytes.
pub const MASTER: (&str, &[u8]) = ("sample.master.json", include_bytes!("../../../sample_batches/sample.master.json"));

/// The sample's annotated batches (Anna's and Ben's parts of task set 1), names and bytes.
pub const BATCHES: [(&str, &[u8]); 2] = [
    ("sample.batch-1-anna.json", include_bytes!("../../../sample_batches/sample.batch-1-anna.json")),
    ("sample.batch-1-ben.json", include_bytes!("../../../sample_batches/sample.batch-1-ben.json")),
];

/// Every file of the sample, the master last.
pub fn files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    BATCHES.into_iter().chain([MASTER])
}
