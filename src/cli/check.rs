//! `protest check FILE`: validates a master or batch, with the changes in its journal (work not yet
//! folded into the file, e.g. after a crash), and prints what it holds. Writes nothing.

use protest::batch::{self, Batch};
use protest::journal::Replay;
use protest::model::Master;
use protest::store::load_with_journal;
use protest::summary::Summary;
use std::path::Path;

pub fn run(file: &Path) -> anyhow::Result<()> {
    // A file that cannot be read is taken for a master, whose loading names the problem.
    if batch::is_batch_file(file) {
        let (batch, replay) = load_with_journal::<Batch>(file)?;
        println!("{}: valid{}", file.display(), journal_note(&replay));
        print!("{}", batch.summary());
        return Ok(());
    }
    let (master, replay) = load_with_journal::<Master>(file)?;
    println!("{}: valid{}", file.display(), journal_note(&replay));
    print!("{}", Summary::of(&master));
    Ok(())
}

/// Counts below include the journal's changes; say so, since the file alone does not hold them.
fn journal_note(replay: &Replay) -> String {
    match replay.entries.len() {
        0 => String::new(),
        1 => " (with 1 change from its journal, not yet written into the file; counted below)".into(),
        n => format!(" (with {n} changes from its journal, not yet written into the file; counted below)"),
    }
}
