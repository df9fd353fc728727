//! Fuzz target: see `journal` in ../drivers.rs.
#![no_main]

#[allow(dead_code)]
#[path = "../drivers.rs"]
mod drivers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    drivers::journal(data);
});
