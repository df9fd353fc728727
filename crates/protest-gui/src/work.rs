//! Work on a worker thread and what the window shows of it: [`Work`] runs a closure off the UI
//! thread and hands back what it returned; [`Work::ui`] shows what it is doing and how far it is
//! ([`protest::progress`] tells). What the app does with it is in `long_work.rs`.

use egui::{RichText, Ui};
use protest::progress::{self, Shared};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How long the frame that starts the work waits for it before showing its progress.
pub const GRACE: Duration = Duration::from_millis(120);

/// Work running on a worker thread.
pub struct Work<T> {
    pub what: String,
    started: Instant,
    progress: Arc<Shared>,
    done: Receiver<T>,
}

/// Where work is, asked without waiting.
pub enum State<T> {
    Running,
    Done(T),
    /// The worker thread ended without a result (it panicked outside the work's own guard).
    Lost,
}

impl<T: Send + 'static> Work<T> {
    /// Starts `work` on a worker thread; `None` (with the reason) if no thread could be started.
    pub fn start(what: impl Into<String>, work: impl FnOnce() -> T + Send + 'static) -> Result<Work<T>, String> {
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

impl<T> Work<T> {
    /// What the work returned if it is done within `grace` (a test holding it: not yet).
    pub fn wait(&self, grace: Duration) -> State<T> {
        if held() {
            return State::Running;
        }
        match self.done.recv_timeout(grace) {
            Ok(done) => State::Done(done),
            Err(RecvTimeoutError::Timeout) => State::Running,
            Err(RecvTimeoutError::Disconnected) => State::Lost,
        }
    }

    /// What the work returned if it is done (a test holding it: not yet).
    pub fn poll(&self) -> State<T> {
        if held() {
            return State::Running;
        }
        match self.done.try_recv() {
            Ok(done) => State::Done(done),
            Err(TryRecvError::Empty) => State::Running,
            Err(TryRecvError::Disconnected) => State::Lost,
        }
    }

    /// Waits for what the work returns; `None` if the thread ended without it.
    pub fn finish(self) -> Option<T> {
        self.done.recv().ok()
    }

    /// The window while work runs: what is being done and how far it is. Frames keep coming,
    /// so the window stays responsive and the progress moves.
    pub fn ui(&self, ui: &mut Ui) {
        let work = self;
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
/// once; this one turns with the frames [`Work::ui`] asks for anyway.
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
