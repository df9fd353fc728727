//! The installed program stands alone: a copy of the binary in a folder with no source tree,
//! run with its home and data folders in a temporary folder, still has the sample (built into
//! it) and does what needs it.

use std::path::Path;
use std::process::{Command, Output};

/// A temporary "machine": `bin/protest` (a copy of the built binary), a home and a folder to
/// work in.
fn installed() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for dir in ["bin", "home", "work"] {
        std::fs::create_dir(root.path().join(dir)).unwrap();
    }
    let copy = root.path().join("bin/protest");
    std::fs::copy(env!("CARGO_BIN_EXE_protest"), &copy).unwrap();
    // A process another test thread forked while the copy was being written holds it open for
    // writing until that process execs ("text file busy"); once it has run, nothing else can.
    for _ in 0..500 {
        match Command::new(&copy).arg("--version").output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            ran => {
                assert!(ran.unwrap().status.success());
                return root;
            }
        }
    }
    panic!("{} stayed busy for 5 s", copy.display());
}

/// The copied `protest ARGS`, to run in `root/work`, its home and XDG folders under `root/home`.
fn command(root: &Path, args: &[&str]) -> Command {
    let home = root.join("home");
    let mut command = Command::new(root.join("bin/protest"));
    command
        .args(args)
        .current_dir(root.join("work"))
        .env_clear()
        .env("HOME", &home)
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("PATH", "/usr/bin:/bin");
    command
}

/// Runs the copied `protest ARGS` ([`command`]); expects success and returns stdout.
fn run(root: &Path, args: &[&str]) -> String {
    let out: Output = command(root, args).output().unwrap();
    assert!(out.status.success(), "protest {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_installed_binary_has_the_sample_without_the_source_tree() {
    let root = installed();
    let r = root.path();
    let said = run(r, &["sample"]);
    assert!(said.contains("created the folder protest-sample"), "{said}");
    assert!(said.contains("wrote protest-sample/sample.master.json"), "{said}");
    let checkout = crate::common::project("sample_batches");
    for name in ["sample.master.json", "sample.batch-1-anna.json", "sample.batch-1-ben.json"] {
        let written = std::fs::read(r.join("work/protest-sample").join(name)).unwrap();
        assert_eq!(written, std::fs::read(checkout.join(name)).unwrap(), "{name}: the committed file");
    }
    let checked = run(r, &["check", "protest-sample/sample.master.json"]);
    assert!(checked.starts_with("protest-sample/sample.master.json: valid"), "{checked}");
    let merged = run(
        r,
        &[
            "batch",
            "import",
            "protest-sample/sample.master.json",
            "protest-sample/sample.batch-1-anna.json",
            "protest-sample/sample.batch-1-ben.json",
        ],
    );
    assert!(merged.contains("merged"), "{merged}");
    assert!(run(r, &["serve", "--help"]).contains("Usage: protest serve"));
    // Nothing in the program points back into the source tree for the sample.
    let binary = std::fs::read(r.join("bin/protest")).unwrap();
    let needle = b"sample_batches/sample.master.json";
    assert!(!binary.windows(needle.len()).any(|w| w == needle), "a path to the checkout's sample in the binary");
    // Writing it again is refused: the user's copy is theirs.
    let again = Command::new(r.join("bin/protest")).arg("sample").current_dir(r.join("work")).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("use --force to replace it"));
}

/// The web page is in the program too (committed built, embedded): served, compressed, with no
/// source tree and no build of the page anywhere near.
#[test]
fn the_installed_binary_serves_the_page_without_the_source_tree() {
    let root = installed();
    let r = root.path();
    run(r, &["sample"]);
    let serve = command(r, &["serve", "protest-sample/sample.master.json", "--listen", "127.0.0.1:0"]);
    let server = crate::serve::Server::spawn(serve);
    let anna = server.path("Anna");
    let page = crate::serve::get(server.addr, &anna);
    assert!(page.status == 200 && page.text().contains("start.js"), "{}", page.text());
    let wasm =
        crate::serve::request_with(server.addr, "GET", &format!("{anna}app.wasm"), &["Accept-Encoding: gzip"], b"");
    assert_eq!((wasm.status, wasm.header("content-encoding")), (200, Some("gzip")));
    assert!(wasm.body.starts_with(&[0x1f, 0x8b]) && wasm.body.len() > 1_000_000, "{} bytes", wasm.body.len());
    assert!(server.stop());
}
