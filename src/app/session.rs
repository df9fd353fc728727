//! One open file and who is annotating it: every change goes through here, so it is stored
//! durably and can be undone.

use super::workspace::{Mode, Workspace};
use protest::annotation::{self, Edit, Leaving};
use protest::conflicts::Conflict;
use protest::history::History;
use protest::model::{AnnotatorId, CandidateId, Master, Record};
use std::path::Path;

pub struct Session {
    file: Box<dyn Workspace>,
    annotator: AnnotatorId,
    order: Vec<CandidateId>,
    history: History,
}

impl Session {
    /// `preferred`: the annotator chosen last time for this file, used if it still exists.
    pub fn new(file: Box<dyn Workspace>, preferred: Option<AnnotatorId>) -> Self {
        let master = file.master();
        let annotator = file
            .annotator()
            .or(preferred.filter(|&a| a.is_researcher() || master.annotator(a).is_some()))
            .unwrap_or(AnnotatorId::RESEARCHER);
        let order = file.order();
        Session { file, annotator, order, history: History::default() }
    }

    pub fn master(&self) -> &Master {
        self.file.master()
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    pub fn mode(&self) -> Mode {
        self.file.mode()
    }

    pub fn is_read_only(&self) -> bool {
        self.file.is_read_only()
    }

    /// Candidates in display order.
    pub fn order(&self) -> &[CandidateId] {
        &self.order
    }

    pub fn annotator(&self) -> AnnotatorId {
        self.annotator
    }

    /// Whether the user may pick another annotator (a master; a batch belongs to one).
    pub fn can_switch_annotator(&self) -> bool {
        self.file.annotator().is_none()
    }

    /// Switches annotator. Undo steps are per annotator, so the history starts afresh.
    pub fn set_annotator(&mut self, annotator: AnnotatorId) {
        if self.can_switch_annotator() && annotator != self.annotator {
            self.annotator = annotator;
            self.history = History::default();
        }
    }

    pub fn add_annotator(&mut self, name: &str) -> Result<AnnotatorId, String> {
        let id = self.file.add_annotator(name).map_err(|e| e.to_string())?;
        self.set_annotator(id);
        Ok(id)
    }

    /// The current annotator's record of a candidate.
    pub fn record(&self, candidate: CandidateId) -> Option<&Record> {
        self.master().records.get(candidate, self.annotator)
    }

    /// Makes one change to the current annotator's record and stores it.
    pub fn edit(&mut self, candidate: CandidateId, edit: Edit) -> Result<(), String> {
        let before = self.record(candidate).cloned();
        let after =
            annotation::apply(self.master(), candidate, self.annotator, before.as_ref(), edit, chrono::Utc::now())
                .map_err(|e| e.to_string())?;
        let unchanged = match &before {
            Some(b) => b.same_content(&after),
            None => after.is_blank(),
        };
        if unchanged {
            return Ok(());
        }
        self.store(candidate, Some(after.clone()))?;
        self.history.push(before, Some(after));
        Ok(())
    }

    /// Checks the record of the example being left: stores a clear status, or returns the failed
    /// rules for the conflict dialog.
    pub fn leave(&mut self, candidate: CandidateId) -> Result<Vec<Conflict>, String> {
        match annotation::on_leave(self.master(), self.record(candidate)) {
            Leaving::Nothing => Ok(Vec::new()),
            Leaving::Settle(record) => self.store(candidate, Some(record)).map(|()| Vec::new()),
            Leaving::Ask(conflicts) => Ok(conflicts),
        }
    }

    /// *Keep as is*: stores the record with its conflicts.
    pub fn keep(&mut self, candidate: CandidateId, conflicts: Vec<Conflict>) -> Result<(), String> {
        let Some(record) = self.record(candidate) else { return Ok(()) };
        let kept = annotation::settle(record, conflicts);
        self.store(candidate, Some(kept))
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// Reverts the last change; returns the candidate it was on.
    pub fn undo(&mut self) -> Result<Option<CandidateId>, String> {
        let Some(step) = self.history.undo() else { return Ok(None) };
        let (candidate, annotator) = step_key(&step.before, &step.after);
        if let Err(e) = self.store_for(candidate, annotator, step.before) {
            self.history.redo(); // keep the history in step with the file
            return Err(e);
        }
        Ok(Some(candidate))
    }

    /// Makes the last undone change again; returns the candidate it was on.
    pub fn redo(&mut self) -> Result<Option<CandidateId>, String> {
        let Some(step) = self.history.redo() else { return Ok(None) };
        let (candidate, annotator) = step_key(&step.before, &step.after);
        if let Err(e) = self.store_for(candidate, annotator, step.after) {
            self.history.undo();
            return Err(e);
        }
        Ok(Some(candidate))
    }

    fn store(&mut self, candidate: CandidateId, record: Option<Record>) -> Result<(), String> {
        self.store_for(candidate, self.annotator, record)
    }

    fn store_for(
        &mut self,
        candidate: CandidateId,
        annotator: AnnotatorId,
        record: Option<Record>,
    ) -> Result<(), String> {
        let result = match record {
            Some(r) => self.file.put(r),
            None => self.file.remove(candidate, annotator),
        };
        result.map_err(|e| format!("Could not save: {e}"))
    }

    pub fn close(self) -> Result<(), String> {
        self.file.close().map_err(|e| format!("Could not close the file: {e}"))
    }
}

/// The record a history step is about (a step always has a record on at least one side).
fn step_key(before: &Option<Record>, after: &Option<Record>) -> (CandidateId, AnnotatorId) {
    let record = before.as_ref().or(after.as_ref()).expect("History keeps no step without a record");
    (record.candidate, record.annotator)
}
