//! Batches › Import annotated batches (`workflow::merge`): pick batch files, see per batch what
//! would change, confirm before records are replaced. All or nothing: any refusal (naming the
//! file) stops the whole import.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::dialogs::path_field::{PathField, Pick};
use egui::{RichText, Ui};
use protest::batches::merge::{self, Incoming, Merge};
use protest::model::Master;
use protest::session::Session;
use protest::store::batch_file;
use protest::store::summary::count;
use protest::workflow;
use std::path::{Path, PathBuf};

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    /// Merging annotated batches: these ones (into a master to choose), or none yet (into the
    /// open master, batches to choose).
    pub fn merge(batches: Vec<PathBuf>) -> Opener {
        const LABEL: &str = "Import annotated batches…";
        if batches.is_empty() {
            return Opener::new(LABEL, Allowed::Researcher, |on| on.master_at().map(|(m, p)| MergeDialog::new(m, p)));
        }
        let key = format!("{batches:?}");
        Opener::new(LABEL, Allowed::Anywhere, move |_| Some(MergeDialog::with(&batches))).on(key)
    }
}

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 760.0;

#[derive(Default)]
pub struct MergeDialog {
    files: PathField,
    /// The batches read and what merging them would do, for the files as listed.
    checked: Option<(Vec<Incoming>, Merge)>,
    problem: Option<String>,
    merged: Option<String>,
    /// Check the files in the next frame (chosen elsewhere, or *Check* clicked).
    check: bool,
    /// Batches of this master in its folder that can be merged, to add with a click.
    found: Vec<PathBuf>,
    /// Batches of this master in its folder that cannot be merged, and why.
    refused: Vec<(PathBuf, String)>,
}

impl MergeDialog {
    pub fn new(master: &Master, master_path: &Path) -> MergeDialog {
        let dir = std::path::absolute(master_path).ok().and_then(|p| p.parent().map(Path::to_path_buf));
        let beside = dir.map(|d| batch_file::batches_in(&d, &master.id)).unwrap_or_default();
        // Only what can be merged is offered; the others say why (checked one by one, as the
        // merge itself would).
        let (mut found, mut refused) = (Vec::new(), Vec::new());
        for path in beside {
            let checked = batch_file::load_current(&path)
                .and_then(|batch| merge::prepare(master, &[Incoming { path: path.clone(), batch }]));
            match checked {
                Ok(_) => found.push(path),
                Err(e) => refused.push((path, e.to_string())),
            }
        }
        let mut files = PathField::default();
        files.request_focus();
        MergeDialog { found, refused, files, ..MergeDialog::default() }
    }

    pub fn with(batches: &[PathBuf]) -> MergeDialog {
        MergeDialog { files: PathField::many(batches), check: true, ..MergeDialog::default() }
    }
}

/// What the dialog's work did: the batches read and the merge worked out, or the merge done
/// (how many records from how many files); or why not.
pub enum Done {
    Checked(Result<(Vec<Incoming>, Merge), String>),
    Merged(Result<(usize, usize), String>),
}

impl Dialog for MergeDialog {
    type Done = Done;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Done> {
        if session.is_none() {
            return Reply::Close;
        }
        match (part, &self.merged) {
            (Part::Body, Some(merged)) => {
                parts::title(ui, "Import annotated batches");
                parts::done(ui, merged);
                Reply::Stay
            }
            (Part::Buttons, Some(_)) => parts::close_only(ui),
            (Part::Body, None) => self.body(ui),
            (Part::Buttons, None) => self.buttons(ui),
        }
    }

    fn done(&mut self, done: Done) {
        match done {
            Done::Checked(Ok(checked)) => self.checked = Some(checked),
            Done::Merged(Ok((records, files))) => {
                self.merged = Some(format!(
                    "Merged {} from {} into the master.",
                    count(records, "record"),
                    count(files, "batch file")
                ))
            }
            Done::Checked(Err(problem)) | Done::Merged(Err(problem)) => self.problem = Some(problem),
        }
    }
}

impl MergeDialog {
    fn body(&mut self, ui: &mut Ui) -> Reply<Done> {
        parts::title(ui, "Import annotated batches");
        ui.label(
            "Brings the annotators' records into this master. Nothing changes unless every batch can be merged; \
             other annotators' records are never touched.",
        );
        ui.add_space(8.0);
        let mut changed =
            self.files.ui(ui, "Batch files (one per line)", Pick::Files(&[("PROTEST batches", &["json"])]));
        let listed = self.files.paths();
        if !self.found.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new("Batches of this master beside it:").small().weak());
                // Each keeps its place once added (greyed), so the next one is where it was.
                for path in &self.found {
                    let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
                    if listed.contains(path) {
                        ui.add_enabled(false, egui::Button::new(RichText::new(format!("✔ {name}")).small()));
                    } else if ui.small_button(format!("+ {name}")).on_hover_text("Add it to the list").clicked() {
                        self.files.add(path);
                        changed = true;
                    }
                }
            });
        }
        for (path, why) in &self.refused {
            let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
            let why = why.strip_prefix(&format!("{}: ", path.display())).unwrap_or(why);
            let text = RichText::new(format!("{name} (beside it) cannot be merged: {why}")).small().weak();
            ui.add(egui::Label::new(text).wrap());
        }
        if changed {
            self.checked = None;
            self.problem = None;
        }
        if let Some((_, prepared)) = &self.checked {
            ui.add_space(6.0);
            reports(ui, prepared);
            ui.add_space(6.0);
            let replaced = prepared.replaced();
            if prepared.is_empty() {
                parts::done(ui, "Nothing to merge: the master already has all these records.");
            } else if replaced > 0 {
                let older: usize = prepared.reports.iter().map(|r| r.older).sum();
                let older = if older > 0 { format!(", {older} of them by older ones") } else { String::new() };
                ui.label(
                    RichText::new(format!(
                        "{} of the same annotators would be replaced by the batches' versions{older}.",
                        count(replaced, "existing record")
                    ))
                    .color(ui.visuals().warn_fg_color),
                );
            }
        }
        if std::mem::take(&mut self.check) {
            self.problem = None;
            return Reply::Work(check(self.files.paths()));
        }
        Reply::Stay
    }

    /// *Check*, then the merge (saying how many records it replaces), and *Cancel*; a refusal
    /// under them.
    fn buttons(&mut self, ui: &mut Ui) -> Reply<Done> {
        let mut merge = false;
        let reply = parts::buttons(ui, |ui| {
            let label = if self.checked.is_some() { "Check again" } else { "Check" };
            if ui.button(label).on_hover_text("Read the batches and see what merging them would do").clicked() {
                self.checked = None;
                self.check = true;
            }
            let merging = self.checked.as_ref().map(|(_, prepared)| prepared).filter(|p| !p.is_empty());
            let label = match merging.map(|p| (p.replaced(), p.new_records())) {
                Some((0, new)) => format!("Merge {}", count(new, "new record")),
                Some((replaced, _)) => format!("Replace {} and merge", count(replaced, "record")),
                None => "Merge".to_owned(),
            };
            let button = ui.add_enabled(merging.is_some(), egui::Button::new(RichText::new(label).strong()));
            merge = button.on_disabled_hover_text("Check the batches first").clicked();
            if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
        });
        parts::problem(ui, self.problem.as_deref());
        match self.merge().filter(|_| merge) {
            Some(work) => Reply::Work(work),
            None => reply,
        }
    }

    /// The merge, to run off the UI thread; what it did or the refusal comes back to the dialog.
    fn merge(&mut self) -> Option<Job<Done>> {
        let (incoming, _) = self.checked.as_ref()?;
        let incoming = incoming.clone();
        Some(Job::new("Merging the batches", move |session| {
            // Prepared again on the master as it is now: the same result unless it changed
            // meanwhile. The user saw what would be replaced and confirmed it with the button.
            let merged = session.run(|store| workflow::merge::run(store, &incoming, true));
            Done::Merged(merged.map(|m| (m.written(), incoming.len())).map_err(|e| parts::failed(&e, "")))
        }))
    }
}

/// Reads the batches (with any work still in their journals) and works out the merge, off the
/// UI thread; the result comes back to the dialog.
fn check(paths: Vec<PathBuf>) -> Job<Done> {
    Job::new("Reading the batches", move |session| Done::Checked(checked(session, &paths)))
}

fn checked(session: &Session, paths: &[PathBuf]) -> Result<(Vec<Incoming>, Merge), String> {
    if paths.is_empty() {
        return Err("Type or choose the batch files first.".into());
    }
    let incoming = workflow::merge::read(paths).map_err(|e| e.to_string())?;
    let prepared = merge::prepare(session.master(), &incoming).map_err(|e| e.to_string())?;
    Ok((incoming, prepared))
}

fn reports(ui: &mut Ui, prepared: &Merge) {
    egui::Grid::new("merge reports").striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
        for h in ["batch", "annotator", "records", "new", "replaced", "unchanged", "blank, skipped"] {
            ui.label(RichText::new(h).strong());
        }
        ui.end_row();
        for r in &prepared.reports {
            let name = r.path.file_name().map_or(r.path.display().to_string(), |n| n.to_string_lossy().into_owned());
            ui.label(name).on_hover_text(r.path.display().to_string());
            ui.label(format!("{} (task set {})", r.annotator, r.task_set));
            let counts = [
                ("records", r.records),
                ("new", r.new),
                ("replaced", r.replaced),
                ("unchanged", r.unchanged),
                ("blank, skipped", r.blank),
            ];
            for (what, n) in counts {
                ui.label(n.to_string()).accessible_name(format!("{}: {n} {what}", r.annotator));
            }
            ui.end_row();
        }
    });
}
