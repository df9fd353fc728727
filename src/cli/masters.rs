//! A master as the commands open it: for changing (all or nothing, and what is left beside it
//! said last), for reading (with what the journal set aside said), and left to the process's exit.

use crate::cli::printer::Printer;
use protest::model::Master;
use protest::store::Store;
use protest::{Error, workflow};
use std::path::Path;

/// Runs `work` on a master opened for changing (refused, with nothing changed, if another
/// PROTEST window has it open or it is read-only), and closes it whatever happens, so no lock is
/// left beside it, nor a journal but a large master's roster changes ([`workflow::on_master`]).
/// Succeeds exactly when the change is committed; what opening set aside is a warning, and the
/// last line says when the change is left in the journal, and why if the closing fold failed.
pub fn with_master<T>(
    p: &Printer,
    path: &Path,
    work: impl FnOnce(&mut Store<Master>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let mut failure = None;
    let done = workflow::on_master(path, |store| {
        work(store).map_err(|e| {
            failure = Some(e);
            Error::refused(path, "")
        })
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let done = done?;
    for note in &done.notes {
        p.warn(note);
    }
    say_what_is_left(p, path, &done)?;
    Ok(done.value)
}

/// The change is committed; if its journal stays beside the master (a large master's roster
/// change, or a fold that failed), a user who copies the master alone would lose it: say so,
/// last, and why the fold failed if it did.
fn say_what_is_left<T>(p: &Printer, master: &Path, done: &workflow::Done<T>) -> anyhow::Result<()> {
    let why = done.fold_failed.as_deref();
    match &done.journal_left {
        Some(journal) => p.say(format_args!(
            "{} holds this change until {} is next written in full (by a command such as `batch import`, or by \
             closing it in the app): copy or move the two files together{}",
            journal.display(),
            master.display(),
            why.map(|e| format!(" (writing it in full now failed: {e})")).unwrap_or_default()
        )),
        None => match why {
            Some(e) => p.say(format_args!("the change is saved in {}, but closing it failed: {e}", master.display())),
            None => Ok(()),
        },
    }
}

/// A master as a command that only reads it sees it: with its journal's changes, and a warning
/// on stderr when the journal's last change was cut short or the journal was set aside.
pub fn read_master(p: &Printer, path: &Path) -> anyhow::Result<Master> {
    let (master, replay) = protest::store::load_with_journal::<Master>(path)?;
    warn_about_journal(p, path, &replay);
    Ok(master)
}

/// What a reader set aside of the journal beside `master`, as a warning.
pub fn warn_about_journal(p: &Printer, master: &Path, replay: &protest::store::journal::Replay) {
    if let Some(note) = replay.note(&protest::store::journal::path_for(master)) {
        p.warn(note);
    }
}

/// Leaves a value that the command is done with to the end of the process instead of freeing it:
/// the command returns and the process exits, which gives all its memory back at once, whereas
/// freeing a 100× master piece by piece (millions of allocations) took a tenth of a second. For
/// values that own nothing but memory (a master; never a store, whose closing releases its lock).
pub fn leave_to_exit<T>(value: T) {
    std::mem::forget(value);
}
