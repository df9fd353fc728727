//! The Rust half of `scripts/build-page` (which compiles crates/protest-web for WebAssembly
//! first): `build-page digest` prints the digest of the page's sources; `build-page pack WASM
//! DIGEST` gives the program wasm-bindgen's glue, compresses both files with gzip and writes
//! them and their stamp into the committed folder, the stamp last — provided the sources still
//! have the digest they had before the compiler ran.

use protest_page::{BUILT, FILES, STAMP, Stamp, digest_of_sources, sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let done = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["digest"] => digest_of_sources(&root).map(|digest| println!("{digest}")).map_err(|e| e.to_string()),
        ["pack", wasm, before] => pack(&root, Path::new(wasm), before),
        _ => Err("usage: build-page digest | build-page pack WASM SOURCES-DIGEST (scripts/build-page runs it)".into()),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("error: {why}");
            ExitCode::FAILURE
        }
    }
}

fn pack(root: &Path, wasm: &Path, before: &str) -> Result<(), String> {
    if digest_of_sources(root).map_err(|e| e.to_string())? != before {
        return Err("the page's sources changed while it was being compiled: run scripts/build-page again".into());
    }
    let (js, program) = bindgen(wasm)?;
    let built = root.join(BUILT);
    let mut files = Vec::new();
    for (name, bytes) in FILES.iter().zip([js.as_bytes(), &program]) {
        let packed = gzip(bytes)?;
        write(&built.join(name), &packed)?;
        println!("{BUILT}/{name}: {} bytes, {} compressed", bytes.len(), packed.len());
        files.push((name.to_string(), sha256(&packed)));
    }
    write(&built.join(STAMP), Stamp { sources: before.to_owned(), files }.render().as_bytes())?;
    // Read back: what the test will check.
    Stamp::check(root).map(|_| ()).map_err(|e| format!("the page just written does not check: {e}"))
}

/// wasm-bindgen's glue for the web (an ES module, loaded by the page's start.js) and the program
/// it imports, without its name and producers sections (only debuggers read them).
fn bindgen(wasm: &Path) -> Result<(String, Vec<u8>), String> {
    let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
    bindgen.input_path(wasm).typescript(false).debug(false).remove_name_section(true).remove_producers_section(true);
    bindgen.web(true).map_err(|e| format!("wasm-bindgen's web target: {e:#}"))?;
    let mut output = bindgen.generate_output().map_err(|e| format!("wasm-bindgen on {}: {e:#}", wasm.display()))?;
    if output.snippets().values().any(|list| !list.is_empty()) || !output.local_modules().is_empty() {
        // The server serves app.js and app.wasm only.
        return Err(
            "the page's program now needs JavaScript snippets beside app.js, which protest serve does not serve".into(),
        );
    }
    let js = output.js().to_owned();
    Ok((js, output.wasm_mut().emit_wasm()))
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).and_then(|()| encoder.finish()).map_err(|e| format!("gzip: {e}"))
}

/// Writes `path` whole or not at all (a file beside it, renamed over it).
fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("{}: {e}", path.display());
    let folder = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(failed)?;
    let mut temporary: PathBuf = path.to_owned();
    temporary.as_mut_os_string().push(".partial");
    std::fs::write(&temporary, bytes).map_err(failed)?;
    std::fs::rename(&temporary, path).map_err(failed)
}
