//! Fuzz target: see `text_files` in ../drivers.rs.
#![no_main]

#[allow(dead_code)]
#[path = "../drivers.rs"]
mod drivers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    drivers::text_files(data);
});
