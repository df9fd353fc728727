//! How far long work has come, for whoever shows it: the command line draws a progress bar on a
//! terminal, the window a progress indicator while the work runs on a worker thread.
//!
//! The library says what it is doing through [`stage`] and [`advance`]; the shell that started
//! the work decides where that goes by running it inside [`reporting`] with its own
//! [`Progress`]. Outside [`reporting`] nothing is reported (the default is silence), so the rules
//! and their tests never see it. The reporter is installed for one operation on the thread that
//! runs it rather than passed down every call, so that long work deep in a domain (parsing a
//! corpus, writing a batch file) can report without every function on the way knowing; work
//! spread over several threads takes the reporter along with [`current`].

use std::cell::RefCell;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

/// Receives what long work reports. Implemented by the shells (an indicatif bar, the window's
/// indicator); calls come from any thread the work runs on.
pub trait Progress: Send + Sync {
    /// A new stage of the work begins: what it does (“Reading big.json”), and how many steps it
    /// has, if that is known.
    fn stage(&self, what: &str, steps: Option<u64>);
    /// `steps` more steps of the current stage are done.
    fn advance(&self, steps: u64);
    /// A new stage whose steps are bytes (of files read): a shell may show them as sizes.
    fn stage_bytes(&self, what: &str, bytes: u64) {
        self.stage(what, Some(bytes));
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<dyn Progress>>> = const { RefCell::new(None) };
}

/// Runs `work`, sending what it reports on this thread to `to`; the reporter in place before is
/// back afterwards (also if `work` panics).
pub fn reporting<T>(to: Arc<dyn Progress>, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<dyn Progress>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = before);
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.borrow_mut().replace(to)));
    work()
}

/// The reporter of this thread's work, to take to other threads ([`Progress::advance`] from
/// each); `None` when nobody listens.
pub fn current() -> Option<Arc<dyn Progress>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Says that a new stage of the work begins (see [`Progress::stage`]).
pub fn stage(what: &str, steps: Option<u64>) {
    CURRENT.with(|c| {
        if let Some(p) = &*c.borrow() {
            p.stage(what, steps);
        }
    });
}

/// Says that `steps` more steps of the current stage are done.
pub fn advance(steps: u64) {
    CURRENT.with(|c| {
        if let Some(p) = &*c.borrow() {
            p.advance(steps);
        }
    });
}

/// Says that a new stage begins whose steps are the `bytes` of the files it reads (see
/// [`Progress::stage_bytes`]); files opened through [`Counting`] advance it.
pub fn stage_bytes(what: &str, bytes: u64) {
    CURRENT.with(|c| {
        if let Some(p) = &*c.borrow() {
            p.stage_bytes(what, bytes);
        }
    });
}

/// The sizes of these files added up, for [`stage_bytes`] (a file that cannot be read counts
/// nothing: reading it says why).
pub fn file_bytes<'a>(paths: impl IntoIterator<Item = &'a Path>) -> u64 {
    paths.into_iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum()
}

/// A reader (or writer, [`Counting::writing`]) that advances the progress of the work that
/// opened it by the bytes read or written — from whichever thread uses it, so a file read ahead
/// on its own thread counts too.
pub struct Counting<R> {
    inner: R,
    to: Option<Arc<dyn Progress>>,
}

impl<R: Read> Counting<R> {
    /// `inner`, counted for the work running on this thread (not counted when nobody listens).
    pub fn new(inner: R) -> Counting<R> {
        Counting { inner, to: current() }
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buffer)?;
        if let Some(to) = &self.to {
            to.advance(n as u64);
        }
        Ok(n)
    }
}

impl<W: Write> Counting<W> {
    /// `inner` written to, counted for the work running on this thread (not counted when
    /// nobody listens).
    pub fn writing(inner: W) -> Counting<W> {
        Counting { inner, to: current() }
    }
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buffer)?;
        if let Some(to) = &self.to {
            to.advance(n as u64);
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A [`Progress`] that keeps the last stage and its counts, for a shell to read whenever it
/// draws (the window reads it every frame while a worker thread does the work).
#[derive(Debug, Default)]
pub struct Shared(std::sync::Mutex<Seen>);

/// What a [`Shared`] reporter has seen last.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Seen {
    pub stage: String,
    pub steps: Option<u64>,
    pub done: u64,
    /// The steps are bytes ([`Progress::stage_bytes`]).
    pub bytes: bool,
}

impl Seen {
    /// The part of the current stage done, from 0 to 1, when its steps are known.
    pub fn fraction(&self) -> Option<f32> {
        self.steps.filter(|&n| n > 0).map(|n| (self.done.min(n) as f64 / n as f64) as f32)
    }
}

impl Shared {
    pub fn seen(&self) -> Seen {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Progress for Shared {
    fn stage(&self, what: &str, steps: Option<u64>) {
        if let Ok(mut s) = self.0.lock() {
            *s = Seen { stage: what.to_owned(), steps, done: 0, bytes: false };
        }
    }

    fn stage_bytes(&self, what: &str, bytes: u64) {
        if let Ok(mut s) = self.0.lock() {
            *s = Seen { stage: what.to_owned(), steps: Some(bytes), done: 0, bytes: true };
        }
    }

    fn advance(&self, steps: u64) {
        if let Ok(mut s) = self.0.lock() {
            s.done += steps;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_reports_only_inside_reporting_and_to_its_reporter() {
        stage("nobody listens", Some(3)); // nothing to check but that it does nothing
        let outer = Arc::new(Shared::default());
        let inner = Arc::new(Shared::default());
        reporting(outer.clone(), || {
            stage("outer", Some(4));
            advance(1);
            reporting(inner.clone(), || {
                stage("inner", None);
                advance(2);
            });
            advance(1);
            let taken = current().unwrap();
            std::thread::spawn(move || taken.advance(1)).join().unwrap();
        });
        assert_eq!(outer.seen(), Seen { stage: "outer".into(), steps: Some(4), done: 3, bytes: false });
        assert_eq!(outer.seen().fraction(), Some(0.75));
        assert_eq!(inner.seen(), Seen { stage: "inner".into(), steps: None, done: 2, bytes: false });
        assert!(current().is_none(), "the reporter is gone after the work");
    }

    #[test]
    fn a_counted_file_advances_its_work_by_the_bytes_read_from_any_thread() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        std::fs::write(&a, "one\ntwo\n").unwrap();
        std::fs::write(&b, "three\n").unwrap();
        let shared = Arc::new(Shared::default());
        reporting(shared.clone(), || {
            stage_bytes("Reading", file_bytes([a.as_path(), b.as_path()]));
            let mut first = Counting::new(std::fs::File::open(&a).unwrap());
            std::io::copy(&mut first, &mut std::io::sink()).unwrap();
            let mut second = Counting::new(std::fs::File::open(&b).unwrap());
            std::thread::spawn(move || std::io::copy(&mut second, &mut std::io::sink()).unwrap()).join().unwrap();
        });
        assert_eq!(shared.seen(), Seen { stage: "Reading".into(), steps: Some(14), done: 14, bytes: true });
        let mut unheard = Counting::new(std::fs::File::open(&a).unwrap());
        std::io::copy(&mut unheard, &mut std::io::sink()).unwrap();
        assert_eq!(shared.seen().done, 14, "outside the work, nothing counts");
    }
}
