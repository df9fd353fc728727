//! Progress of long commands on stderr, as cargo and ripgrep users expect: what the library
//! reports ([`protest::progress`]) drawn as a spinner with the stage, or a bar when the stage
//! counts its steps. Only on a terminal, and not with `--quiet`: stdout and a redirected stderr
//! stay exactly as without it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use protest::progress::Progress;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The bar on stderr; cleared when dropped, so what the command prints last stays readable.
/// Hidden until the first stage (its target waits beside it): a command that reports nothing
/// draws nothing, and the first line drawn already says what the command does.
pub struct Bar(ProgressBar, Mutex<Option<ProgressDrawTarget>>);

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
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(spinner());
        // Ticks on its own, so a stage that reports no steps still shows the program is working.
        bar.enable_steady_tick(Duration::from_millis(100));
        Bar(bar, Mutex::new(Some(target)))
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

/// A bar counting bytes read, as sizes with the speed.
fn byte_bar() -> ProgressStyle {
    let template = "{spinner:.cyan} {msg} [{bar:30.cyan/blue}] {bytes}/{total_bytes} ({bytes_per_sec}) {elapsed:.dim}";
    ProgressStyle::with_template(template)
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
}

impl Bar {
    /// Runs `write` with the bar hidden, so that what it writes on the bar's terminal stays
    /// above the bar ([`super::printer::Printer`]).
    pub fn suspend<T>(&self, write: impl FnOnce() -> T) -> T {
        self.0.suspend(write)
    }
}

impl Bar {
    /// The next stage in `style`. Never drawn half changed (the new style with the last stage's
    /// message or counts): the counts and the style change without a redraw (with the steady
    /// tick, `update` does not draw, nor does `set_style`), then the message's change draws all
    /// of it at once; a spinner shows no counts, so taking its length away after that changes
    /// nothing on screen.
    fn next_stage(&self, what: &str, steps: Option<u64>, style: ProgressStyle) {
        self.0.update(|state| {
            state.set_pos(0);
            if let Some(n) = steps {
                state.set_len(n);
            }
        });
        if let Some(target) = self.1.lock().ok().and_then(|mut t| t.take()) {
            self.0.set_draw_target(target); // the first stage: shown from now on
        }
        self.0.set_style(style);
        self.0.set_message(what.to_owned());
        if steps.is_none() {
            self.0.unset_length();
        }
    }
}

impl Progress for Bar {
    fn stage(&self, what: &str, steps: Option<u64>) {
        self.next_stage(what, steps, if steps.is_some() { bar() } else { spinner() });
    }

    fn stage_bytes(&self, what: &str, bytes: u64) {
        self.next_stage(what, Some(bytes), byte_bar());
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
    fn bytes_are_counted_and_shown_as_sizes() {
        let term = Screen::default();
        let bar = Bar::to(ProgressDrawTarget::term_like_with_hz(Box::new(term.clone()), 250));
        bar.stage_bytes("Scoring APT", 3 << 20);
        bar.advance(1 << 20);
        assert_eq!((bar.0.message(), bar.0.position(), bar.0.length()), ("Scoring APT".into(), 1 << 20, Some(3 << 20)));
        bar.0.force_draw();
        let lines = term.lines();
        let line = lines.last().expect("drawn");
        assert!(line.contains("Scoring APT") && line.contains("1.00 MiB/3.00 MiB"), "drawn: {line:?}");
    }

    #[test]
    fn a_new_stage_is_never_drawn_with_the_last_ones_message_or_counts() {
        let term = Screen::default();
        let bar = Bar::to(ProgressDrawTarget::term_like_with_hz(Box::new(term.clone()), 250));
        // Stages of every kind after every kind, as long work goes from one to the next; the
        // pauses let the terminal draw every change (it draws at most 250 times a second).
        let pause = || std::thread::sleep(Duration::from_millis(15));
        bar.stage("Reading big.json", None);
        pause();
        bar.stage("Parsing the corpora", Some(7));
        bar.advance(5);
        pause();
        bar.stage("Checking big.json", None);
        pause();
        bar.stage_bytes("Scoring APT", 4096);
        bar.advance(1024);
        pause();
        bar.stage("Writing the files", Some(3));
        pause();
        bar.stage("Saving the master", None);
        pause();
        drop(bar);
        let lines = term.lines();
        assert!(lines.iter().any(|l| l.contains("Saving the master")), "drawn: {lines:#?}");
        assert!(lines[0].contains("Reading big.json"), "nothing drawn before the first stage: {lines:#?}");
        for line in &lines {
            let counted = line.contains('[');
            let fine = match () {
                _ if line.contains("Reading big.json") || line.contains("Checking big.json") => !counted,
                _ if line.contains("Saving the master") => !counted,
                _ if line.contains("Parsing the corpora") => line.contains("/7"),
                _ if line.contains("Scoring APT") => line.contains("/4.00 KiB"),
                _ if line.contains("Writing the files") => line.contains("/3"),
                _ => line.trim().is_empty() || !counted,
            };
            assert!(fine, "a stage drawn half changed: {line:?} (all drawn: {lines:#?})");
        }
    }

    /// A terminal that keeps every line drawn on it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<std::sync::Mutex<Vec<String>>>);

    impl Screen {
        fn lines(&self) -> Vec<String> {
            self.0.lock().unwrap().clone()
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.trim().is_empty() {
                self.0.lock().unwrap().push(s.to_owned());
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn quiet_means_no_bar() {
        assert!(Bar::for_terminal(true).is_none());
    }
}
