//! Builds the web page (docs/serve.md, "Building the page") and leaves it in `OUT_DIR` for
//! `src/page.rs` to embed: the annotation window (`crates/protest-web`, which runs
//! `protest-gui`) compiled for `wasm32-unknown-unknown` by a nested `cargo build` in a target
//! folder of its own, then given its JavaScript glue by wasm-bindgen (as a library, at the version
//! of the `wasm-bindgen` crate). The page is built with the profile of the build that asks for it
//! (`dev` or `release`). The wasm target is added with rustup when it is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let manifest = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..").canonicalize().expect("the workspace root");
    let out = PathBuf::from(env("OUT_DIR"));
    for watched in [
        "crates/protest/src",
        "crates/protest/Cargo.toml",
        "crates/protest-gui/src",
        "crates/protest-gui/Cargo.toml",
        "crates/protest-web",
        "guidelines",
        "assets",
        "Cargo.lock",
        ".cargo/config.toml",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    println!("cargo:rerun-if-changed=page");
    ensure_target();
    let release = env("PROFILE") == "release";
    // <target>/<profile>/build/protest-serve-<hash>/out: the page gets a target folder of its own
    // beside the profiles (a nested cargo cannot share the one the outer cargo holds locked).
    let target_dir = out.ancestors().nth(4).expect("OUT_DIR is inside the target folder").join("web-page");
    let wasm = build_wasm(&root, &target_dir, release);
    let generated = out.join("page");
    std::fs::create_dir_all(&generated).expect("a folder for the page");
    let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
    bindgen
        .input_path(&wasm)
        .web(true)
        .expect("wasm-bindgen's web target")
        .typescript(false)
        .debug(false)
        .out_name("app");
    if let Err(e) = bindgen.generate(&generated) {
        panic!("wasm-bindgen could not process {}: {e:#}", wasm.display());
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name} for build scripts"))
}

/// Adds the wasm target with rustup if the toolchain does not have it.
fn ensure_target() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc).args(["--print", "sysroot"]).output().expect("rustc runs");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    if sysroot.join("lib/rustlib").join(TARGET).exists() {
        return;
    }
    println!("cargo:warning=adding the {TARGET} target with rustup, for the web page of `protest serve`");
    let added = Command::new("rustup").args(["target", "add", TARGET]).status();
    if !added.is_ok_and(|s| s.success()) {
        panic!(
            "the web page of `protest serve` is built for {TARGET}, which this toolchain lacks and rustup could not add: run `rustup target add {TARGET}`"
        );
    }
}

/// Builds `crates/protest-web` for the web; returns the `.wasm` file.
fn build_wasm(root: &Path, target_dir: &Path, release: bool) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["build", "--locked", "-p", "protest-web", "--lib", "--target", TARGET, "--target-dir"])
        .arg(target_dir);
    if release {
        command.arg("--release");
    } else {
        // No line tables in a debug page: a smaller program for wasm-bindgen to go through.
        command.env("CARGO_PROFILE_DEV_DEBUG", "false");
    }
    // What the outer build set for its own compiler runs must not reach this one: clippy's
    // wrapper, flags for the host (which would also hide the wasm target's flags of
    // .cargo/config.toml), a target folder or target of its own.
    for variable in [
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_PRIMARY_PACKAGE",
        "CLIPPY_ARGS",
    ] {
        command.env_remove(variable);
    }
    let status = command.status().expect("cargo runs");
    if !status.success() {
        panic!("building the web page (crates/protest-web for {TARGET}) failed; see the errors above");
    }
    let profile = if release { "release" } else { "debug" };
    target_dir.join(TARGET).join(profile).join("protest_web.wasm")
}
