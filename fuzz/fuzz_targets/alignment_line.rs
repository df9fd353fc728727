//! Fuzz target: see `alignment_line` in ../drivers.rs.
#![no_main]

#[allow(dead_code)]
#[path = "../drivers.rs"]
mod drivers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    drivers::alignment_line(data);
});
