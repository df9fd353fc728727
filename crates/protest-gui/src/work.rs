//! Long work off the UI thread: opening a file (and closing the one it replaces), exporting and
//! merging batches, converting an old file, computing the report, and every change that saves
//! the whole master (task sets, annotators, adjudication, the automatic match, a copy). The work runs on a worker thread while the window keeps
//! drawing frames and shows what it is doing ([`protest::progress`] tells how far it is); what
//! it returns is applied to the app on the UI thread when it is done.
//!
//! Work on the open file takes the [`Session`] with it and gives it back: while it runs there is
//! no file to click on, so nothing else can change the master meanwhile, and the window shows
//! only the work's progress. Work done within [`GRACE`] is applied at once, as if it had run on
//! the UI thread, so quick operations on small files look as they always did.

use crate::App;
use crate::dialogs::Modal;
use egui::{RichText, Ui};
use protest::progress::{self, Shared};
use protest::session::Session;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How long the frame that starts the work waits for it before showing its progress.
pub const GRACE: Duration = Duration::from_millis(120);

/// What finishes the work on the UI thread.
pub type Finish = Box<dyn FnOnce(&mut App) + Send>;

/// What finishes a dialog's work: applied to the dialog, still in the modal slot.
pub type ToDialog = Box<dyn FnOnce(&mut Modal) + Send>;

/// Work a dialog asks for: it runs on a worker thread with the open file (if any), and what it
/// returns is handed to the dialog when it is done.
pub struct SessionWork {
    pub what: String,
    pub run: DialogWork,
}

/// The work itself: given the open file, if any, it returns what to tell the dialog.
pub type DialogWork = Box<dyn FnOnce(Option<&mut Session>) -> ToDialog + Send>;

impl SessionWork {
    /// Work on the open file (nothing happens without one).
    pub fn new(what: impl Into<String>, run: impl FnOnce(&mut Session) -> ToDialog + Send + 'static) -> SessionWork {
        SessionWork::any(what, move |session| match session {
            Some(session) => run(session),
            None => Box::new(|_| {}),
        })
    }

    /// Work with the open file if there is one, and without one too.
    pub fn any(
        what: impl Into<String>,
        run: impl FnOnce(Option<&mut Session>) -> ToDialog + Send + 'static,
    ) -> SessionWork {
        SessionWork { what: what.into(), run: Box::new(run) }
    }
}

/// Work running on a worker thread.
pub struct Work {
    what: String,
    started: Instant,
    progress: Arc<Shared>,
    done: Receiver<Finish>,
}

impl Work {
    /// Starts `work` on a worker thread; `None` (with the reason) if no thread could be started.
    pub fn start(what: impl Into<String>, work: impl FnOnce() -> Finish + Send + 'static) -> Result<Work, String> {
        let (sender, done) = mpsc::channel();
        let progress = Arc::new(Shared::default());
        let reporter: Arc<dyn progress::Progress> = progress.clone();
        std::thread::Builder::new()
            .name("protest-work".into())
            .spawn(move || {
                let finish = progress::reporting(reporter, work);
                // The app may be gone (the window closed); then nobody wants the result.
                let _ = sender.send(finish);
            })
            .map_err(|e| format!("Could not start the work: {e}"))?;
        Ok(Work { what: what.into(), started: Instant::now(), progress, done })
    }
}

impl App {
    /// Runs `work` on a worker thread and applies what it returns when it is done; while it
    /// runs the window shows its progress and nothing else can start.
    pub(crate) fn start_work(&mut self, what: impl Into<String>, work: impl FnOnce() -> Finish + Send + 'static) {
        let work = match Work::start(what, work) {
            Ok(work) => work,
            Err(e) => return self.messages.error(e),
        };
        if held() {
            self.work = Some(work);
            return;
        }
        match work.done.recv_timeout(GRACE) {
            Ok(finish) => finish(self),
            Err(RecvTimeoutError::Timeout) => self.work = Some(work),
            Err(RecvTimeoutError::Disconnected) => self.work_lost(&work),
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

    /// Runs `work` on the open file on a worker thread: the session goes with it and comes back
    /// with the result, also if the work panics.
    pub(crate) fn start_session_work(&mut self, work: SessionWork) {
        let SessionWork { what, run } = work;
        self.start_with_session(what, move |session| {
            let apply = run(session.as_mut());
            Box::new(move |app: &mut App| {
                if let Some(modal) = &mut app.modal {
                    apply(modal);
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
        match work.done.recv() {
            Ok(finish) => finish(self),
            Err(_) => self.work_lost(&work),
        }
    }

    /// Applies the work's result if it is done.
    pub(crate) fn poll_work(&mut self) {
        let Some(work) = &self.work else { return };
        if held() {
            return;
        }
        match work.done.try_recv() {
            Ok(finish) => {
                self.work = None;
                finish(self);
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                if let Some(work) = self.work.take() {
                    self.work_lost(&work);
                }
            }
        }
    }

    /// The worker thread ended without a result (it panicked outside the work's own guard).
    fn work_lost(&mut self, work: &Work) {
        self.messages.error(format!("{} stopped unexpectedly.", work.what));
    }

    /// The window while work runs: what is being done and how far it is. Frames keep coming,
    /// so the window stays responsive and the progress moves.
    pub(crate) fn work_ui(&mut self, ui: &mut Ui) {
        let Some(work) = &self.work else { return };
        let seen = work.progress.seen();
        let elapsed = work.started.elapsed().as_secs_f32();
        egui::CentralPanel::default().show(ui, |ui| {
            ui.add_space(ui.available_height() * 0.3);
            ui.vertical_centered(|ui| {
                ui.heading(format!("{}…", work.what));
                ui.add_space(10.0);
                let stage = if seen.stage.is_empty() { "Starting".to_owned() } else { seen.stage.clone() };
                match seen.fraction() {
                    Some(_) => {
                        let (done, of) =
                            (seen.done.min(seen.steps.unwrap_or_default()), seen.steps.unwrap_or_default());
                        let text = match seen.bytes {
                            true => format!("{stage}: {} of {}", size(done), size(of)),
                            false => format!("{stage}: {done} of {of}"),
                        };
                        let width = (ui.available_width() - 40.0).min(420.0);
                        ui.add(crate::style::progress_bar(done as usize, of as usize, text).desired_width(width));
                    }
                    None => {
                        ui.horizontal(|ui| {
                            ui.add_space((ui.available_width() - 240.0).max(0.0) / 2.0);
                            turning(ui, elapsed);
                            ui.label(stage);
                        });
                    }
                }
                ui.add_space(6.0);
                ui.label(RichText::new(format!("{elapsed:.1} s")).small().weak());
            });
        });
        // The dialog that asked for the work is hidden meanwhile, not closed.
        let frames = crate::dialogs::parts::work_frames_id();
        ui.ctx().data_mut(|d| *d.get_temp_mut_or_default::<u64>(frames) += 1);
        // Progress moves without input: draw again soon (a delay, not at once, so the tests'
        // `run` does not take it for an animation that never ends).
        ui.ctx().request_repaint_after(Duration::from_millis(50));
    }
}

/// A file's size in words: "12.3 MB", "48 kB".
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b => format!("{:.0} kB", (b as f64 / 1e3).max(1.0)),
    }
}

/// A spinner turning with the time the work has taken. egui's own asks for the next frame at
/// once; this one turns with the frames [`App::work_ui`] asks for anyway.
fn turning(ui: &mut Ui, seconds: f32) {
    let size = ui.spacing().interact_size.y;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let radius = rect.height() / 2.0 - 2.0;
    let start = seconds * std::f32::consts::TAU;
    let end = start + 240f32.to_radians() * seconds.sin();
    let points: Vec<egui::Pos2> = (0..=20)
        .map(|i| {
            let angle = start + (end - start) * i as f32 / 20.0;
            rect.center() + radius * egui::vec2(angle.cos(), angle.sin())
        })
        .collect();
    ui.painter().add(egui::Shape::line(points, egui::Stroke::new(3.0, ui.visuals().strong_text_color())));
}

#[cfg(test)]
thread_local! {
    static HELD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Tests see the progress screen whatever the speed of the machine: while held (on the test's
/// thread), finished work is not applied until a frame after [`hold`]`(false)`.
#[cfg(test)]
pub(crate) fn hold(held: bool) {
    HELD.with(|h| h.set(held));
}

fn held() -> bool {
    #[cfg(test)]
    return HELD.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}
