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

/// Options that take one of a few fixed values complete to those values in bash, not
/// to file names.
#[test]
fn bash_completes_fixed_values_not_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let script = ok(dir.path(), &["completions", "bash"]);
    // Each command's part of the script: from its `name)` line to the next command's.
    let section = |command: &str| {
        let start = script.find(&format!("        {command})\n")).unwrap_or_else(|| panic!("no {command}"));
        let rest = &script[start + command.len() + 10..];
        let end = rest.find("\n        protest__").unwrap_or(rest.len());
        rest[..end].to_owned()
    };
    let completion = |command: &str, option: &str| {
        let part = section(command);
        let at = part.find(&format!(" {option})\n")).unwrap_or_else(|| panic!("{command}: no {option}"));
        part[at..].lines().nth(1).unwrap().trim().to_owned()
    };
    for (command, option, values) in [
        ("protest__subcmd__report", "--format", "text csv markdown latex json"),
        ("protest__subcmd__report", "-f", "text csv markdown latex json"),
        ("protest__subcmd__report", "--table", "results agreement pairwise scores"),
        ("protest__subcmd__report", "-t", "results agreement pairwise scores"),
        ("protest__subcmd__auto__subcmd__eval", "--rule", "minimal aligned"),
        ("protest__subcmd__apt__subcmd__master", "--format", "text csv markdown latex json"),
        ("protest__subcmd__batch__subcmd__plan", "--planner", "balanced round-robin"),
    ] {
        let line = completion(command, option);
        assert!(line.starts_with("COMPREPLY=($(compgen -W \"") && line.contains(values), "{command} {option}: {line}");
    }
    // Help that is true: MASTER explained, no empty default, every subcommand in the summaries.
    for command in [&["batch", "plan"][..], &["batch", "export"], &["batch", "import"], &["annotator", "add"]] {
        let help = ok(dir.path(), &[command, &["--help"]].concat());
        assert!(
            help.split_whitespace().collect::<Vec<_>>().join(" ").contains("<MASTER> The master file (.json)"),
            "{command:?}: {help}"
        );
        assert!(!help.contains("[default: \"\"]"), "{command:?}: {help}");
    }
    let top = ok(dir.path(), &["--help"]);
    assert!(top.contains("Add, rename, remove or list the annotators of a master"), "{top}");
    assert!(top.contains("plan, export, import (merge), adjudicate and remove"), "{top}");
    // `completions` takes the shells it names.
    let help = ok(dir.path(), &["completions", "--help"]);
    assert!(help.contains("bash, zsh, fish, elvish or powershell"), "{help}");
    assert!(help.contains("[possible values: bash, elvish, fish, powershell, zsh]"), "{help}");
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
    assert!(said.starts_with("created the folder pages\nwrote "), "{said}");
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

/// Runs `protest ARGS` in `dir` with its stdout a pipe whose reader is already gone (a `head`
/// that has read enough); returns the exit status and stderr.
fn into_a_closed_pipe(dir: &std::path::Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_protest"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before the first line is written
    let out = child.wait_with_output().unwrap();
    (out.status, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `protest … | head -1`: a reader that stops reading ends the output quietly — no panic, no
/// message, no death by signal — and a command that changes the master still commits it.
#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    let dir = crate::common::merged_sample();
    let d = dir.path();
    for args in [
        &["report", "sample.master.json"][..],
        &["report", "sample.master.json", "--format", "json"],
        &["check", "sample.master.json"],
        &["completions", "bash"],
        &["man"],
    ] {
        let (status, stderr) = into_a_closed_pipe(d, args);
        assert!(status.success() && stderr.is_empty(), "protest {args:?}: {status:?} {stderr}");
    }
    let (status, stderr) = into_a_closed_pipe(d, &["annotator", "add", "sample.master.json", "Zoe"]);
    assert!(status.success() && stderr.is_empty(), "{status:?} {stderr}");
    assert!(ok(d, &["annotator", "list", "sample.master.json"]).contains("Zoe"), "the change is committed");
    // And through a real `head`, as a user types it.
    let piped = Command::new("bash")
        .args([
            "-c",
            &format!("set -o pipefail; {} report sample.master.json | head -1", env!("CARGO_BIN_EXE_protest")),
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(piped.status.success() && piped.stderr.is_empty(), "{}", String::from_utf8_lossy(&piped.stderr));
    assert_eq!(String::from_utf8_lossy(&piped.stdout).lines().count(), 1);
}

/// `--quiet` leaves what the command is asked for and errors: no word on what was done.
#[test]
fn quiet_prints_only_the_answer_and_errors() {
    let dir = copies(&["sample_batches/sample.master.json"]);
    let d = dir.path();
    let added = protest(d, &["--quiet", "annotator", "add", "sample.master.json", "Zoe"]);
    assert!(added.status.success(), "{}", String::from_utf8_lossy(&added.stderr));
    assert!(added.stdout.is_empty() && added.stderr.is_empty(), "{added:?}");
    let said = ok(d, &["annotator", "add", "sample.master.json", "Yann"]);
    assert!(said.starts_with("added Yann"), "without --quiet it is said: {said}");
    let listed = ok(d, &["-q", "annotator", "list", "sample.master.json"]);
    assert!(listed.contains("Zoe") && listed.contains("Yann"), "the answer is printed: {listed}");
    let report = ok(d, &["-q", "report", "sample.master.json", "--table", "results"]);
    assert_eq!(report, ok(d, &["report", "sample.master.json", "--table", "results"]));
    let failed = protest(d, &["-q", "check", "missing.master.json"]);
    assert!(!failed.status.success() && failed.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.starts_with("error: ") && stderr.contains("missing.master.json"), "{stderr}");
}
