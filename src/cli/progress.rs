//! Progress of long commands on stderr, as cargo and ripgrep users expect: what the library
//! reports ([`protest::progress`]) drawn as a spinner with the stage, or a bar when the stage
//! counts its steps. Only on a terminal, and not with `--quiet`: stdout and a redirected stderr
//! stay exactly as without it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use protest::progress::Progress;
use std::io::{IsTerminal, Read, Write};
use std::sync::Arc;
use std::time::Duration;

/// The bar on stderr; cleared when dropped, so what the command prints last stays readable.
pub struct Bar(ProgressBar);

impl Bar {
    /// A bar for the command line, or `None` when there is no one to see it (stderr is not a
    /// terminal) or the user asked for `--quiet`.
    pub fn for_terminal(quiet: bool) -> Option<Arc<Bar>> {
        if quiet || !std::io::stderr().is_terminal() {
            return None;
        }
        Some(Arc::new(Bar::to(ProgressDrawTarget::stderr())))
    }

    fn to(target: ProgressDrawTarget) -> Bar {
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(spinner());
        // Ticks on its own, so a stage that reports no steps still shows the program is working.
        bar.enable_steady_tick(Duration::from_millis(100));
        Bar(bar)
    }
}

fn spinner() -> ProgressStyle {
    ProgressStyle::with_template("{spinner:.cyan} {msg} {elapsed:.dim}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
}

fn bar() -> ProgressStyle {
    ProgressStyle::with_template("{spinner:.cyan} {msg} [{bar:30.cyan/blue}] {pos}/{len} {elapsed:.dim}")
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl Bar {
    /// Runs `work` with what it prints on stdout written above the bar, when both are on the
    /// same terminal: otherwise the first line printed would continue the bar's line, and the
    /// bar's next redraw could erase it. stdout's descriptor is pointed at a pipe meanwhile, and
    /// a thread writes what comes through to the terminal with the bar hidden, as cargo does.
    pub fn around_stdout<T>(self: &Arc<Bar>, work: impl FnOnce() -> T) -> T {
        if !std::io::stdout().is_terminal() {
            return work(); // a file or a pipe: the terminal shows only the bar
        }
        let Some(redirect) = Redirect::start(Arc::clone(self)) else { return work() };
        let value = work();
        redirect.stop();
        value
    }
}

/// stdout pointed at a pipe whose far end a thread copies to the terminal above the bar.
#[cfg(unix)]
struct Redirect {
    saved: libc::c_int,
    copier: std::thread::JoinHandle<()>,
}

#[cfg(unix)]
impl Redirect {
    fn start(bar: Arc<Bar>) -> Option<Redirect> {
        use std::os::fd::FromRawFd;
        let _ = std::io::stdout().flush();
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: plain descriptor calls on descriptors this function owns; each result is checked.
        unsafe {
            if libc::pipe(fds.as_mut_ptr()) != 0 {
                return None;
            }
            let saved = libc::dup(libc::STDOUT_FILENO);
            if saved < 0 || libc::dup2(fds[1], libc::STDOUT_FILENO) < 0 {
                libc::close(fds[0]);
                libc::close(fds[1]);
                if saved >= 0 {
                    libc::close(saved);
                }
                return None;
            }
            libc::close(fds[1]); // stdout is the pipe's only writer now
            let mut from = std::fs::File::from_raw_fd(fds[0]);
            let to_fd = libc::dup(saved);
            if to_fd < 0 {
                libc::dup2(saved, libc::STDOUT_FILENO);
                libc::close(saved);
                return None;
            }
            let mut to = std::fs::File::from_raw_fd(to_fd);
            let copier = std::thread::spawn(move || {
                let mut buffer = [0u8; 8192];
                while let Ok(n) = from.read(&mut buffer) {
                    if n == 0 {
                        break;
                    }
                    bar.0.suspend(|| {
                        let _ = to.write_all(&buffer[..n]);
                        let _ = to.flush();
                    });
                }
            });
            Some(Redirect { saved, copier })
        }
    }

    /// Points stdout back at the terminal once everything printed went through.
    fn stop(self) {
        let _ = std::io::stdout().flush();
        // SAFETY: restores the descriptor saved in `start`; the pipe's last writer closes with it.
        unsafe {
            libc::dup2(self.saved, libc::STDOUT_FILENO);
            libc::close(self.saved);
        }
        let _ = self.copier.join();
    }
}

#[cfg(not(unix))]
struct Redirect;

#[cfg(not(unix))]
impl Redirect {
    fn start(_: Arc<Bar>) -> Option<Redirect> {
        None
    }
    fn stop(self) {}
}

impl Progress for Bar {
    fn stage(&self, what: &str, steps: Option<u64>) {
        match steps {
            Some(n) => {
                self.0.set_style(bar());
                self.0.set_length(n);
            }
            None => {
                self.0.set_style(spinner());
                self.0.unset_length();
            }
        }
        self.0.set_position(0);
        self.0.set_message(what.to_owned());
    }

    fn advance(&self, steps: u64) {
        self.0.inc(steps);
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_and_steps_reach_the_bar() {
        let bar = Bar::to(ProgressDrawTarget::hidden());
        bar.stage("Making the batches", Some(4));
        bar.advance(3);
        assert_eq!((bar.0.message(), bar.0.position(), bar.0.length()), ("Making the batches".into(), 3, Some(4)));
        bar.stage("Saving the master", None);
        assert_eq!((bar.0.message(), bar.0.position(), bar.0.length()), ("Saving the master".into(), 0, None));
    }

    #[test]
    fn quiet_means_no_bar() {
        assert!(Bar::for_terminal(true).is_none());
    }
}
