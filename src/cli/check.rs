//! `protest check FILE`: validates a master or batch, with the changes in its journal (work not yet
//! folded into the file, e.g. after a crash), and prints what it holds. Writes nothing.

use crate::cli::masters::leave_to_exit;
use crate::cli::options::Output;
use crate::cli::printer::Printer;
use protest::store::batch_file::{self, Batch};
use protest::store::journal::Replay;
use protest::store::summary::Summary;
use protest::store::{load_master_with_statuses, load_with_journal};
use serde_json::json;
use std::path::Path;

pub fn run(file: &Path, format: Output, p: &Printer) -> anyhow::Result<()> {
    // A file that cannot be read is taken for a master, whose loading names the problem.
    if batch_file::is_batch_file(file) {
        let (batch, replay) = load_with_journal::<Batch>(file)?;
        return match format {
            Output::Text => {
                p.out_line(format_args!("{}: valid{}", file.display(), journal_note(&replay)))?;
                p.out(batch.summary())
            }
            Output::Json => p.json(&checked(file, "batch", &replay, batch.summary().json())),
        };
    }
    let (master, replay, statuses) = load_master_with_statuses(file)?;
    let summary = Summary::with_statuses(&master, &statuses);
    leave_to_exit(master);
    match format {
        Output::Text => {
            p.out_line(format_args!("{}: valid{}", file.display(), journal_note(&replay)))?;
            p.out(summary)
        }
        Output::Json => p.json(&checked(file, "master", &replay, json!(summary))),
    }
}

/// The JSON document of a valid file: what it is, the journal's part in the counts, the counts.
fn checked(file: &Path, kind: &str, replay: &Replay, summary: serde_json::Value) -> serde_json::Value {
    json!({
        "file": file.display().to_string(),
        "valid": true,
        "kind": kind,
        "journal": {
            "changes": replay.entries.len(),
            "torn_tail": replay.torn_tail,
            "damaged": replay.damaged.as_ref().map(|d| json!({ "line": d.line, "problem": d.problem, "lines": d.lines })),
        },
        kind: summary,
    })
}

/// Counts below include the journal's changes; say so, since the file alone does not hold them.
/// A last change cut short by a crash was never reported as saved and is left out: say that too.
fn journal_note(replay: &Replay) -> String {
    if let Some(damage) = &replay.damaged {
        let changes = match replay.entries.len() {
            1 => "1 change".to_owned(),
            n => format!("{n} changes"),
        };
        let after = match damage.lines - 1 {
            0 => String::new(),
            1 => " and the line after it".to_owned(),
            n => format!(" and the {n} lines after it"),
        };
        return format!(
            " (with {changes} from its journal, counted below; but line {} of the journal is damaged ({}): that line{after} are not counted — opening the master for writing sets them aside, and the window offers the changes they hold)",
            damage.line, damage.problem
        );
    }
    let torn = "cut short by a crash while it was being saved, is left out";
    if replay.stale && replay.discarded > 0 {
        let changes =
            if replay.discarded == 1 { "1 change".to_owned() } else { format!("{} changes", replay.discarded) };
        return format!(
            " (its journal, with {changes} to revision {}, is older than the file and is ignored: they were folded into it)",
            replay.stale_revision
        );
    }
    match (replay.entries.len(), replay.torn_tail) {
        (0, false) => String::new(),
        (0, true) => format!(" (the only change in its journal, {torn})"),
        (n, torn_tail) => {
            let changes = if n == 1 { "1 change".to_owned() } else { format!("{n} changes") };
            let last = if torn_tail { format!("; one more, {torn}") } else { String::new() };
            format!(" (with {changes} from its journal, not yet written into the file; counted below{last})")
        }
    }
}
