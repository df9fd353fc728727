//! Progress of long commands on stderr, as cargo and ripgrep users expect: what the library
//! reports ([`protest::progress`]) drawn as a spinner with the stage, or a bar when the stage
//! counts its steps. Only on a terminal, and not with `--quiet`: stdout and a redirected stderr
//! stay exactly as without it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use protest::progress::Progress;
use std::io::IsTerminal;
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
