//! Long work off the UI thread: opening a file (and closing the one it replaces), exporting and
//! merging batches, converting an old file, computing the report, and every change that saves
//! the whole master (task sets, annotators, adjudication, the automatic match, a copy). The work
//! runs on a worker thread ([`crate::work::Work`]) while the window keeps drawing frames and
//! shows what it is doing; what it returns is applied to the app on the UI thread when it is done.
//!
//! Work on the open file takes the [`Session`] with it and gives it back: while it runs there is
//! no file to click on, so nothing else can change the master meanwhile, and the window shows
//! only the work's progress. Work done within [`GRACE`] is applied at once, as if it had run on
//! the UI thread, so quick operations on small files look as they always did.

use crate::dialogs::dialog::Routed;
use crate::dialogs::parts::Job;
use crate::work::{GRACE, State, Work};
use crate::{App, Finish};
use egui::Ui;
use protest::session::Session;

impl App {
    /// Runs `work` on a worker thread and applies what it returns when it is done; while it
    /// runs the window shows its progress and nothing else can start.
    pub(crate) fn start_work(&mut self, what: impl Into<String>, work: impl FnOnce() -> Finish + Send + 'static) {
        let work = match Work::start(what, work) {
            Ok(work) => work,
            Err(e) => return self.messages.error(e),
        };
        match work.wait(GRACE) {
            State::Done(finish) => finish(self),
            State::Running => self.work = Some(work),
            State::Lost => self.work_lost(&work.what),
        }
    }

    /// Runs `work` with the open file on a worker thread: the session goes with it and comes
    /// back before what the work returns is applied, also if the work panics.
    pub(crate) fn start_on_session(
        &mut self,
        what: impl Into<String>,
        work: impl FnOnce(&mut Session) -> Finish + Send + 'static,
    ) {
        if self.session.is_some() {
            self.start_with_session(what, move |session| work(session.as_mut().expect("a session was open")));
        }
    }

    /// [`App::start_on_session`] with the open file if there is one, and without one too; the
    /// work may also close it (take it), as opening another file does.
    pub(crate) fn start_with_session(
        &mut self,
        what: impl Into<String>,
        work: impl FnOnce(&mut Option<Session>) -> Finish + Send + 'static,
    ) {
        let mut session = self.session.take();
        self.start_work(what, move || {
            let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&mut session)));
            Box::new(move |app: &mut App| {
                app.session = session;
                match applied {
                    Ok(apply) => apply(app),
                    Err(_) => app.messages.error("The work stopped unexpectedly; nothing was changed by it."),
                }
            })
        });
    }

    /// Runs a dialog's `job` with the open file on a worker thread: the session goes with it and
    /// comes back with the result, which goes to the dialog.
    pub(crate) fn start_dialog_job(&mut self, job: Job<Routed>) {
        let Job { what, run } = job;
        self.start_with_session(what, move |session| {
            let done = run(session.as_mut());
            Box::new(move |app: &mut App| {
                if let (Some(modal), Some(done)) = (&mut app.modal, done) {
                    modal.deliver(done);
                }
            })
        });
    }

    /// Whether work is running (the window shows its progress).
    pub fn is_busy(&self) -> bool {
        self.work.is_some()
    }

    /// Waits for the work running, if any, and applies its result: for closing the window, and
    /// for tests that look at the result rather than the progress.
    pub fn finish_work(&mut self) {
        let Some(work) = self.work.take() else { return };
        let what = work.what.clone();
        match work.finish() {
            Some(finish) => finish(self),
            None => self.work_lost(&what),
        }
    }

    /// Applies the work's result if it is done.
    pub(crate) fn poll_work(&mut self) {
        let Some(work) = &self.work else { return };
        match work.poll() {
            State::Running => {}
            State::Done(finish) => {
                self.work = None;
                finish(self);
            }
            State::Lost => {
                if let Some(work) = self.work.take() {
                    self.work_lost(&work.what);
                }
            }
        }
    }

    /// The worker thread ended without a result (it panicked outside the work's own guard).
    fn work_lost(&mut self, what: &str) {
        self.messages.error(format!("{what} stopped unexpectedly."));
    }

    /// The window while work runs: what is being done and how far it is.
    pub(crate) fn work_ui(&mut self, ui: &mut Ui) {
        if let Some(work) = &self.work {
            work.ui(ui);
        }
    }
}
