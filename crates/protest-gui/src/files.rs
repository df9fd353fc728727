//! Opening and closing files: a file in place of the current one (an old PROTEST file is offered
//! for conversion instead), what the window says about the file it opened, and closing it as
//! the window goes.

use crate::App;
use crate::dialogs::{self, Modal};
use crate::panels::browser::Browser;
use crate::place::View;
use egui::ViewportCommand;
use protest::session::{Session, workspace};
use protest::store::master_file::file_name;
use std::path::Path;
use std::sync::Arc;

impl App {
    /// Opens a file in place of the current one; if it cannot be opened, the current one stays.
    pub(crate) fn open(&mut self, path: &Path) {
        #[cfg(not(target_arch = "wasm32"))] // no SQLite in the web page
        if protest::ingest::legacy::is_legacy(path) {
            // A file of the original tool: offer its conversion rather than fail.
            let on = dialogs::OnHand { session: self.session.as_ref(), tables: &[], recent: &[] };
            self.modal = dialogs::Opener::legacy(Some(path.to_path_buf())).open(&on);
            return;
        }
        let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
        if self.session.as_ref().is_some_and(|s| same(s.path(), path)) {
            self.view = View::Browser;
            return;
        }
        let name = file_name(path);
        let (disk, path) = (Arc::clone(&self.disk), path.to_path_buf());
        let preferred = self.settings.annotators.get(&path).copied();
        // The window is there at once, saying what it opens; a large master takes seconds, and so
        // does closing the one it replaces (its journal is folded into it): both on the worker.
        self.start_with_session(format!("Opening {name}"), move |current| {
            let opened = workspace::open(disk, &path).map(|(file, opened)| (Session::new(file, preferred), opened));
            let closed = match (&opened, current.take()) {
                (Ok(_), Some(old)) => {
                    protest::progress::stage(&format!("Closing {}", file_name(old.path())), None);
                    old.close().err().map(|e| e.to_string())
                }
                (_, old) => {
                    *current = old; // not opened: the current file stays
                    None
                }
            };
            Box::new(move |app: &mut App| {
                if let Some(e) = closed {
                    app.messages.error(e);
                }
                app.opened(opened);
            })
        });
    }

    /// Takes the file just opened in place of the current one, or says why it could not be.
    pub(crate) fn opened(&mut self, opened: protest::Result<(Session, protest::store::Opened)>) {
        match opened {
            Ok((mut session, opened)) => {
                self.quit_warned = false;
                session.set_clock(self.clock);
                let path = session.path().to_path_buf();
                if let Some(dir) = &self.data_dir {
                    session.keep_unsaved_in(protest::session::recovery::folder_in(dir));
                }
                if opened.recovered > 0 {
                    self.messages.info(format!(
                        "Recovered {} change{} from the journal (work saved since the file was last closed).",
                        opened.recovered,
                        if opened.recovered == 1 { "" } else { "s" }
                    ));
                }
                if let Some(why) = &opened.dropped {
                    self.messages.info(format!("{}.", dialogs::parts::capitalised(why)));
                }
                if let Some(why) = &opened.read_only {
                    // What holds it (a window, `protest serve` at its address, a command) and what to do.
                    let remedy = opened.remedy.as_deref().map(|r| format!("; {r}")).unwrap_or_default();
                    self.messages.info(format!(
                        "Read-only: {why}{remedy}. Your changes would not be saved; File › Save a copy as… makes a copy you can change."
                    ));
                }
                if opened.read_only.is_none() {
                    // Changes a window could not save into this file before: shown, never applied unasked.
                    let found = session.recoveries();
                    if !found.is_empty() {
                        self.modal = Some(Modal::of(dialogs::recovery::RecoveryDialog::new(found, &session)));
                    }
                }
                self.session = Some(session);
                self.settings.opened(&path);
                self.view = View::Browser;
                self.browser = Browser::default();
                let name = file_name(&path);
                self.viewport.push(ViewportCommand::Title(format!("PROTEST — {name}")));
            }
            Err(e) => self.messages.error(format!("Could not open the file: {e}")),
        }
    }

    /// Stores what is left and closes the file (the window is closing).
    pub fn shutdown(&mut self) {
        self.finish_work();
        self.store_due_remarks(None);
        self.store_typed_tags();
        if let Some(session) = self.session.take() {
            close(session);
        }
    }

    /// Closes the file off the UI thread — folding the journal into a large master takes
    /// seconds, shown with its progress — then the window.
    pub(crate) fn close_then_quit(&mut self) {
        let name = self.session.as_ref().map(|s| file_name(s.path())).unwrap_or_default();
        self.start_with_session(format!("Saving and closing {name}"), |session| {
            if let Some(session) = session.take() {
                close(session);
            }
            Box::new(|app: &mut App| {
                app.may_close = true;
                app.viewport.push(ViewportCommand::Close);
            })
        });
    }
}

/// Closes the file as the window goes; what could not be saved is said on the terminal (the
/// window is gone), with where it is kept.
fn close(session: Session) {
    let lost = session.not_saved().map_or(0, |n| n.changes);
    let kept = session.recovery_path().map(Path::to_path_buf);
    if let Err(e) = session.close() {
        match (lost, kept) {
            // The journal holds every change; the next opening recovers it.
            (0, _) => eprintln!(
                "error: {e}; every change is in the journal beside the file and comes back when it is next opened"
            ),
            (n, Some(kept)) => eprintln!(
                "error: {e}; the {n} changes that could not be saved are kept in {}, and opening the file again offers them",
                kept.display()
            ),
            (n, None) => eprintln!("error: {e}; {n} changes that could not be saved are lost (quit without them)"),
        }
    }
}
