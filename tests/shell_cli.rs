//! The command line as a Rust tool's users expect it: completions for their shell and a manual
//! page from the same definitions as `--help`, and progress on stderr only when a person is
//! watching it (a terminal), never with `--quiet`, never on stdout.

use crate::common::{copies, ok, protest};
use std::process::Command;

#[test]
fn completions_for_bash_zsh_and_fish_know_the_commands() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let script = ok(dir.path(), &["completions", shell]);
        for word in ["batch", "apt-master", "auto-eval", "completions", "format"] {
            assert!(script.contains(word), "{shell} completion has no {word}");
        }
    }
    // The bash script is valid bash.
    let path = dir.path().join("protest.bash");
    std::fs::write(&path, ok(dir.path(), &["completions", "bash"])).unwrap();
    let checked = Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let wrong = protest(dir.path(), &["completions", "tcsh-like"]);
    assert!(!wrong.status.success());
}

#[test]
fn the_man_page_has_every_command_and_one_page_each_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let page = ok(dir.path(), &["man"]);
    assert!(page.starts_with(".ie") || page.contains(".TH protest 1"), "{}", &page[..page.len().min(200)]);
    for command in ["check", "report", "apt\\-master", "completions"] {
        assert!(page.contains(command), "the page lists {command}");
    }
    let said = ok(dir.path(), &["man", "--output", "pages"]);
    assert!(said.starts_with("wrote "), "{said}");
    let export = std::fs::read_to_string(dir.path().join("pages/protest-batch-export.1")).unwrap();
    assert!(export.contains(".TH protest\\-batch\\-export 1") || export.contains("protest\\-batch\\-export"));
    assert!(export.contains("task\\-set"), "its options");
}

/// Runs `protest ARGS` in `dir` with a terminal as stdout and stderr (util-linux `script`);
/// returns what appeared on it.
fn on_a_terminal(dir: &std::path::Path, args: &[&str]) -> String {
    let command =
        std::iter::once(env!("CARGO_BIN_EXE_protest")).chain(args.iter().copied()).collect::<Vec<_>>().join(" ");
    let out = Command::new("script").args(["-qec", &command, "/dev/null"]).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn progress_shows_on_a_terminal_only_and_not_with_quiet() {
    let dir = copies(&["sample_batches/sample.master.json"]);
    let d = dir.path();
    let seen = on_a_terminal(d, &["check", "sample.master.json"]);
    assert!(seen.contains("Reading sample.master.json") || seen.contains("Parsing sample.master.json"), "{seen}");
    assert!(seen.contains("sample.master.json: valid"), "the output itself");
    let quiet = on_a_terminal(d, &["check", "--quiet", "sample.master.json"]);
    assert!(!quiet.contains("Reading") && !quiet.contains("Parsing"), "{quiet}");
    // Redirected: stdout as before, nothing on stderr.
    let out = protest(d, &["check", "sample.master.json"]);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("sample.master.json: valid"));
}

#[test]
fn apt_on_a_terminal_counts_the_bytes_of_the_corpora_it_reads() {
    let dir = crate::common::copy_of(&crate::common::fixture("apt-es-en"));
    let seen = on_a_terminal(dir.path(), &["apt", "config_1"]);
    // Drawn when the stage begins: none of the five files read yet, their sizes added up.
    let files = ["china.low.en", "china.low.en.ref", "china.low.es", "china.ref.symal", "china.symal"];
    let bytes: u64 = files.iter().map(|f| std::fs::metadata(dir.path().join(f)).unwrap().len()).sum();
    let total = format!("0 B/{:.2} KiB", bytes as f64 / 1024.0);
    assert!(seen.contains("Scoring APT") && seen.contains(&total), "{total} in {seen:?}");
    assert!(seen.contains("instances; wrote"), "the output itself");
}
