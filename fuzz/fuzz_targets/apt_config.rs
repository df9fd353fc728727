//! Fuzz target: see `apt_config` in ../drivers.rs.
#![no_main]

#[allow(dead_code)]
#[path = "../drivers.rs"]
mod drivers;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    drivers::apt_config(data);
});
