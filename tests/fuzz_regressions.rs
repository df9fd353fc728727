//! Every input that once made a fuzz target panic (tests/fuzz_regressions/TARGET/*) is fed to
//! that target's parser again: it must be refused with an error, not a panic. See
//! docs/fuzzing.md.

#[path = "../fuzz/drivers.rs"]
mod drivers;

use std::path::Path;

#[test]
fn crashing_inputs_are_refused_with_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut replayed = 0;
    for (target, parse) in drivers::TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let accepted = std::panic::catch_unwind(|| parse(&data))
                .unwrap_or_else(|_| panic!("{} still panics the {target} parser", path.display()));
            assert!(!accepted, "{} is accepted by the {target} parser; it was kept as bad input", path.display());
            replayed += 1;
        }
    }
    eprintln!("{replayed} fuzz regression inputs replayed");
}

/// The drivers reach the parsers' far ends only if good input gets through them.
#[test]
fn the_apt_config_driver_accepts_the_shipped_configurations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/apt-es-en");
    for name in ["config_1", "config_2", "config_3"] {
        let data = std::fs::read(dir.join(name)).unwrap();
        assert!(drivers::apt_config(&data), "{name} is refused");
    }
    assert!(!drivers::apt_config(b"[files]\nsource = nowhere.en\n"));
}
