//! Where the window is: the view shown, the walk through a set of examples, and where to go
//! once the example being left is settled (the moves themselves are in `navigation.rs`).

use protest::annotate::progress::SetProgress;
use protest::model::{CandidateId, Conflict};
use protest::session::{LiveView, Opening, Session};
use std::path::PathBuf;

/// Working through a set of candidates.
pub(crate) struct Walk {
    pub(crate) title: String,
    pub(crate) set: Vec<CandidateId>,
    pub(crate) index: usize,
    progress: LiveView<SetProgress>,
}

impl Walk {
    /// At `index` of `set`.
    pub(crate) fn new(title: String, set: Vec<CandidateId>, index: usize) -> Walk {
        Walk { title, set, index, progress: LiveView::default() }
    }

    pub(crate) fn current(&self) -> CandidateId {
        self.set[self.index]
    }

    /// How many of the set the session's annotator has annotated.
    pub(crate) fn annotated(&mut self, session: &Session) -> usize {
        let set = &self.set;
        self.progress.get(session, |master, annotator| SetProgress::new(master, annotator, set)).count()
    }
}

pub(crate) enum View {
    Browser,
    Example(Walk),
    /// The report on the master (researcher mode).
    Report,
    /// A classifier's results on the pronoun prediction task (`App::predictions`).
    Predictions,
}

/// An example being left whose annotation breaks conflict rules, while the conflict dialog asks.
pub(crate) struct Leaving {
    pub(crate) candidate: CandidateId,
    pub(crate) conflicts: Vec<Conflict>,
    /// Where the annotator was going.
    pub(crate) then: Go,
}

/// Where to go once the example being left is settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Go {
    To(usize),
    Browser,
    Report,
    Predictions,
    /// Another set (a lookup).
    Show(Opening),
    Open(PathBuf),
    Quit,
}
