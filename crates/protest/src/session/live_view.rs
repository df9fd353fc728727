//! Views of the master drawn every frame — the category browser, the progress through a set —
//! kept up to date with the session's changes one record at a time instead of built afresh.

use super::{Session, Since};
use crate::annotate::browse::BrowserRows;
use crate::annotate::progress::SetProgress;
use crate::model::{AnnotatorId, CandidateId, Master};

/// A view of the master for one annotator that takes in one changed record at a time
/// ([`BrowserRows`], [`SetProgress`]).
pub trait Follows {
    fn update(&mut self, master: &Master, candidate: CandidateId);
}

impl Follows for BrowserRows {
    fn update(&mut self, master: &Master, candidate: CandidateId) {
        BrowserRows::update(self, master, candidate);
    }
}

impl Follows for SetProgress {
    fn update(&mut self, master: &Master, candidate: CandidateId) {
        SetProgress::update(self, master, candidate);
    }
}

/// A view drawn every frame and kept up to date with the session's changes: on a large master,
/// building it looks at every candidate (hundreds of milliseconds at 100× PROTEST,
/// docs/performance.md), following a change looks at one. It is built afresh only for another
/// annotator or after a change to the whole master.
pub struct LiveView<V> {
    kept: Option<(V, AnnotatorId, u64)>,
}

impl<V> Default for LiveView<V> {
    fn default() -> Self {
        LiveView { kept: None }
    }
}

impl<V: Follows> LiveView<V> {
    /// The view as of now: `build` makes it for the master and the current annotator when it
    /// cannot be brought up to date.
    pub fn get(&mut self, session: &Session, build: impl FnOnce(&Master, AnnotatorId) -> V) -> &V {
        let annotator = session.annotator();
        let current = match &mut self.kept {
            Some((view, of, seen)) if *of == annotator => match session.since(*seen) {
                Since::Nothing => true,
                Since::Records(changed) => {
                    for &(candidate, _) in changed.iter().filter(|(_, a)| *a == annotator) {
                        view.update(session.master(), candidate);
                    }
                    *seen = session.changes();
                    true
                }
                Since::Everything => false,
            },
            _ => false,
        };
        if !current {
            self.kept = None;
        }
        let (view, ..) =
            self.kept.get_or_insert_with(|| (build(session.master(), annotator), annotator, session.changes()));
        view
    }

    /// Forgets the view (what it was built from changed).
    pub fn clear(&mut self) {
        self.kept = None;
    }
}
