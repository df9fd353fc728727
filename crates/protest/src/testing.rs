//! Helpers for unit tests: the tiny fixture master and quick ways to add annotations to it.

use crate::annotate::edit::{Edit, EditError, apply};
use crate::model::{Annotator, AnnotatorId, CandidateId, Judgement, Master, Record, TokenRef};
use crate::store::master_file;
use std::path::Path;

/// tests/fixtures/tiny: examples 1 (anaphoric "It" → reference "Il … vélo", MT "Elle …
/// bicyclette"), 2 (pleonastic, both "Il") and 3 (deictic singular you, "vous" vs "Tu");
/// candidates 1, 3, 5 are the reference's, 2, 4, 6 the MT system's. Two annotators, 1 and 2.
pub fn tiny() -> Master {
    let mut m = bare_tiny();
    m.annotators =
        vec![Annotator { id: AnnotatorId(1), name: "A".into() }, Annotator { id: AnnotatorId(2), name: "B".into() }];
    m
}

/// The tiny fixture as the file has it: no annotators besides the researcher, no records.
pub fn bare_tiny() -> Master {
    let text = include_str!("../../../tests/fixtures/tiny/tiny.master.json");
    master_file::from_bytes(Path::new("tiny.master.json"), text.as_bytes()).unwrap()
}

/// The bundled sample master as imported, before `rebuild.sh` planned task set 1 and gave its
/// parts to Anna and Ben: no task set, no annotator.
pub fn unplanned_sample() -> Master {
    let mut m = sample();
    m.task_sets.clear();
    m.annotators.clear();
    m
}

/// The bundled sample master as committed: task set 1 given to Anna (1) and Ben (2).
pub fn sample() -> Master {
    let (name, bytes) = crate::sample::MASTER;
    master_file::from_bytes(Path::new(name), bytes).unwrap()
}

/// Puts a record with these judgements; selects all aligned tokens of each role judged yes.
pub fn judge(m: &mut Master, candidate: u32, annotator: u32, pronoun: Judgement, antecedent: Judgement) {
    let c = m.candidate(CandidateId(candidate)).unwrap().clone();
    let mut r = Record::new(c.id, AnnotatorId(annotator), m.created);
    r.pronoun = pronoun;
    r.antecedent = antecedent;
    if pronoun == Judgement::Yes {
        r.selected.pronoun = c.pronoun.iter().copied().collect();
    }
    if antecedent == Judgement::Yes {
        r.selected.antecedent = c.antecedents.iter().flatten().copied().collect();
    }
    m.records.put(r);
}

/// Narrows a record's pronoun selection to the given tokens.
pub fn select_pronoun(m: &mut Master, candidate: u32, annotator: u32, tokens: &[(u32, u32)]) {
    let mut r = m.records.get(CandidateId(candidate), AnnotatorId(annotator)).unwrap().clone();
    r.selected.pronoun = tokens.iter().map(|&t| TokenRef::from(t)).collect();
    m.records.put(r);
}

/// The annotator of the tiny fixture's unit tests whose records are conflict-checked.
pub const ANNA: AnnotatorId = AnnotatorId(1);

/// `e` applied to Anna's record of candidate `c` (`current`, or a new record).
pub fn edit(m: &Master, c: u32, current: Option<&Record>, e: Edit) -> Result<Record, EditError> {
    apply(m, CandidateId(c), ANNA, current, e, chrono::Utc::now())
}

/// Makes a named pipe at `path` (a file that would block whoever opens it to read).
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    use rustix::fs::{CWD, Mode, mkfifoat};
    mkfifoat(CWD, path, Mode::RUSR | Mode::WUSR).unwrap();
}
