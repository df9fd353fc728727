//! File › Add MT system…: a new system's output file, its name and options. Checking,
//! tokenising, cutting into sentences and aligning (`add_system::prepare`) run on a worker thread
//! — the built-in aligner takes seconds — while the dialog shows a spinner and the stage it is at;
//! then the report, with how the output was segmented, and *Add to the master* hands the prepared
//! system to the app, which adds it through the store.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::file_chooser::{self, Pick};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::intent::Intent;
use egui::{RichText, Ui};
use protest::ingest::add_system::{self, AlignmentFile, NewSystem, Options, ParallelText, Report};
use protest::ingest::resegment::Given;
use protest::ingest::texts::PairOrder;
use protest::model::Master;
use protest::progress::{self, Shared};
use protest::session::Session;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::Instant;

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    pub fn add_system() -> Opener {
        Opener::new("Add MT system…", Allowed::Researcher, |_| Some(AddSystemDialog::default()))
    }
}

/// What the user typed and ticked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Form {
    output: String,
    name: String,
    one_document_per_line: bool,
    allow_empty: bool,
    tokenised: bool,
    use_alignment: bool,
    alignment: String,
    reversed: bool,
    use_extra: bool,
    extra_source: String,
    extra_target: String,
}

impl Form {
    /// The options for the library, or what is missing.
    fn options(&self) -> Result<(PathBuf, Options), String> {
        let path = |text: &str| PathBuf::from(text.trim());
        if self.output.trim().is_empty() {
            return Err("Choose the system's output file, or its folder of documents.".into());
        }
        if self.name.trim().is_empty() {
            return Err("Give the system a name.".into());
        }
        let alignment = match self.use_alignment {
            true if self.alignment.trim().is_empty() => return Err("Choose the alignment file, or untick it.".into()),
            true => Some(AlignmentFile {
                path: path(&self.alignment),
                order: if self.reversed { PairOrder::TargetSource } else { PairOrder::SourceTarget },
            }),
            false => None,
        };
        let extra_parallel = match self.use_extra && !self.use_alignment {
            true if self.extra_source.trim().is_empty() || self.extra_target.trim().is_empty() => {
                return Err("Choose both files of the parallel text, or untick it.".into());
            }
            true => Some(ParallelText { source: path(&self.extra_source), target: path(&self.extra_target) }),
            false => None,
        };
        let layout = if self.one_document_per_line { Given::DocumentPerLine } else { Given::Detect };
        Ok((
            path(&self.output),
            Options {
                tokenised: self.tokenised,
                alignment,
                extra_parallel,
                layout,
                allow_empty: self.allow_empty,
                ..Options::default()
            },
        ))
    }
}

/// The result of the worker: the prepared system or the refusal, and the seconds it took.
type Prepared = (Result<NewSystem, String>, f64);

enum State {
    Editing { problem: Option<String> },
    Working { started: Instant, result: Receiver<Prepared>, progress: Arc<Shared> },
    Ready { system: Box<NewSystem>, report: Box<Report>, seconds: f64 },
}

pub struct AddSystemDialog {
    form: Form,
    state: State,
    /// *Cancel* was clicked.
    cancelled: bool,
    /// The system was added: what to tell the user as the dialog closes.
    added: Option<String>,
}

impl Default for AddSystemDialog {
    fn default() -> Self {
        AddSystemDialog {
            form: Form::default(),
            state: State::Editing { problem: None },
            cancelled: false,
            added: None,
        }
    }
}

/// Adds the prepared system through the store off the UI thread (the whole master is saved);
/// what it did, or why not, comes back to the dialog.
/// What adding the system did: what to tell the user, or why it was refused.
type Added = Result<String, String>;

fn adding(system: NewSystem) -> Job<Added> {
    let (name, candidates) = (system.corpus.name.clone(), system.candidates.len());
    Job::new(format!("Adding the system “{name}”"), move |session| {
        let added = session.run(|store| protest::workflow::add_system::run(store, system));
        added.map_err(|e| parts::failed(&e, "")).map(|_| {
            format!(
                "Added the system “{name}”: its {} new in the category browser. Run the automatic reference \
                 match to settle those that equal the reference.",
                match candidates {
                    1 => "1 candidate is".to_owned(),
                    n => format!("{n} candidates are"),
                }
            )
        })
    })
}

impl AddSystemDialog {
    #[cfg(test)]
    pub fn is_working(&self) -> bool {
        matches!(self.state, State::Working { .. })
    }
}

/// *Add to the master* adds the prepared system through the session off the UI thread (the whole
/// master is saved), and the dialog closes saying what was added (or stays, saying why not).
impl Dialog for AddSystemDialog {
    type Done = Added;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::centre("add system dialog", 640.0)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Added> {
        let Some(session) = session else { return Reply::Close };
        let (master, read_only) = (session.master(), session.is_read_only());
        match part {
            Part::Body => {
                self.poll();
                if let Some(added) = self.added.take() {
                    return Reply::Then(Intent::Notice(added));
                }
                self.body(ui, master, read_only);
                Reply::Stay
            }
            Part::Buttons if self.buttons(ui, master, read_only) => {
                match std::mem::replace(&mut self.state, State::Editing { problem: None }) {
                    State::Ready { system, .. } => Reply::Work(adding(*system)),
                    other => {
                        self.state = other;
                        Reply::Stay
                    }
                }
            }
            Part::Buttons if self.cancelled => Reply::Close,
            Part::Buttons => Reply::Stay,
        }
    }

    fn done(&mut self, added: Added) {
        match added {
            Ok(said) => self.added = Some(said),
            // The master changed or a save failed: back to the form with the message.
            Err(problem) => self.state = State::Editing { problem: Some(problem) },
        }
    }
}

impl AddSystemDialog {
    fn body(&mut self, ui: &mut Ui, master: &Master, read_only: bool) {
        ui.heading("Add an MT system");
        ui.label(format!(
            "The new system's translation of this master's source, as plain text: one line per source sentence \
             ({} lines), or the master's {} documents in its order, separated by an empty line, each in any \
             layout (a paragraph per line, a sentence per line…); or a folder with one text file per document \
             ({} files, in name order), in which empty lines separate paragraphs. It is cut into one translation \
             per sentence and checked line by line; you see how before anything is added.",
            master.sentence_count(),
            master.documents.len(),
            master.documents.len()
        ));
        ui.add_space(6.0);
        let editing = matches!(self.state, State::Editing { .. });
        let before = self.form.clone();
        // Once checked, the report is what is read: the form waits behind *Change the options*.
        if !matches!(self.state, State::Ready { .. }) {
            ui.add_enabled_ui(editing, |ui| self.form_ui(ui, master));
        }
        if let State::Editing { problem } = &mut self.state
            && self.form != before
        {
            *problem = None; // it was about what the user is changing
        }
        ui.add_space(8.0);
        match &self.state {
            State::Editing { .. } => {}
            State::Working { started, progress, .. } => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    let seen = progress.seen();
                    let what = if seen.stage.is_empty() { "Reading".to_owned() } else { seen.stage };
                    ui.label(format!("{what}… {:.0} s", started.elapsed().as_secs_f64()));
                });
            }
            State::Ready { system, report, seconds } => {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.label(RichText::new(format!("Ready to add “{}”", system.corpus.name)).strong());
                    ui.label(RichText::new(format!("from {}", self.form.output.trim())).weak());
                    // What cannot be vouched for stands out from what went as expected.
                    for (line, noted) in report.noted_lines(*seconds) {
                        let text = match noted {
                            true => RichText::new(format!("⚠ {line}")).color(ui.visuals().warn_fg_color),
                            false => RichText::new(line),
                        };
                        ui.add(egui::Label::new(text).wrap());
                    }
                });
                if read_only {
                    ui.label(
                        RichText::new("The file is open read-only: it cannot be changed.")
                            .color(ui.visuals().warn_fg_color),
                    );
                }
            }
        }
    }

    fn form_ui(&mut self, ui: &mut Ui, master: &Master) {
        let form = &mut self.form;
        egui::Grid::new("add system form").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
            let label = ui.label("Output");
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut form.output)
                        .desired_width(330.0)
                        .hint_text("a file, or a folder of documents"),
                )
                .labelled_by(label.id);
                let file = ui.button("File…").accessible_name("Browse for the output file").clicked();
                let folder = ui.button("Folder…").accessible_name("Browse for the output's folder").clicked();
                if file || folder {
                    let pick = if folder { Pick::Folder } else { Pick::File(&[]) };
                    browse_for(&mut form.output, pick, "The system's output", &mut self.state);
                    if form.name.trim().is_empty() {
                        form.name = suggested_name(Path::new(&form.output));
                    }
                }
            });
            ui.end_row();
            let label = ui.label("Name");
            let taken: Vec<&str> = master.corpora.iter().map(|c| c.name.as_str()).collect();
            ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(320.0).hint_text("e.g. my-nmt-2026"))
                .labelled_by(label.id)
                .on_hover_text(format!("Not in use in the master ({} are)", taken.join(", ")));
            ui.end_row();
        });
        ui.add_space(4.0);
        ui.checkbox(&mut form.one_document_per_line, "One document per line (no empty lines between them)");
        ui.checkbox(&mut form.allow_empty, "The system translates nothing: add it even if the output has no text");
        ui.checkbox(&mut form.tokenised, "Already tokenised like the master (tokens separated by single spaces)");
        ui.checkbox(
            &mut form.use_alignment,
            "Word alignment from a file (fast_align, eflomal, awesome-align: i-j pairs)",
        );
        if form.use_alignment {
            ui.indent("alignment", |ui| {
                ui.horizontal(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut form.alignment).desired_width(400.0))
                        .accessible_name("Alignment file");
                    if ui.button("Browse…").accessible_name("Browse for the alignment file").clicked() {
                        browse(&mut form.alignment, "The alignment file", &mut self.state);
                    }
                });
                ui.checkbox(&mut form.reversed, "Pairs are written target first (j-i)");
            });
        } else {
            let translations = master.translations().count();
            ui.label(
                RichText::new(format!(
                    "Without a file, the built-in aligner learns from this master's source paired with its \
                     {} and with the new output ({} sentence pairs); this takes a few seconds.",
                    protest::store::summary::count(translations, "translation"),
                    (translations + 1) * master.sentence_count() as usize
                ))
                .weak(),
            );
            ui.checkbox(&mut form.use_extra, "More parallel text for the aligner to learn from");
            if form.use_extra {
                ui.indent("extra", |ui| {
                    for (text, name) in [
                        (&mut form.extra_source, "Parallel text, source"),
                        (&mut form.extra_target, "Parallel text, target"),
                    ] {
                        ui.horizontal(|ui| {
                            ui.add(egui::TextEdit::singleline(text).desired_width(400.0).hint_text(name))
                                .accessible_name(name);
                            if ui.button("Browse…").accessible_name(format!("Browse for the {name}")).clicked() {
                                browse(text, name, &mut self.state);
                            }
                        });
                    }
                });
            }
        }
    }

    /// The buttons of the step the dialog is at, and the problem under them; true when the user
    /// adds.
    fn buttons(&mut self, ui: &mut Ui, master: &Master, read_only: bool) -> bool {
        let mut add = false;
        let mut next = None;
        match &self.state {
            State::Editing { problem } => {
                let problem = problem.clone();
                ui.horizontal_wrapped(|ui| {
                    let check = ui.button(RichText::new("Check and align").strong());
                    if check
                        .on_hover_text("Read, tokenise and align the output; the master is not changed yet")
                        .clicked()
                    {
                        next = Some(self.start(ui.ctx(), master));
                    }
                    if ui.button("Cancel").clicked() {
                        self.cancelled = true;
                    }
                });
                parts::problem(ui, problem.as_deref());
            }
            State::Working { .. } => {
                if ui.button("Cancel").clicked() {
                    self.cancelled = true;
                }
            }
            State::Ready { .. } => {
                ui.horizontal_wrapped(|ui| {
                    let button =
                        ui.add_enabled(!read_only, egui::Button::new(RichText::new("Add to the master").strong()));
                    add = button.clicked();
                    if ui.button("Change the options").clicked() {
                        next = Some(State::Editing { problem: None });
                    }
                    if ui.button("Cancel").clicked() {
                        self.cancelled = true;
                    }
                });
            }
        }
        if let Some(state) = next {
            self.state = state;
        }
        add
    }

    /// Starts the worker, or stays in the form with what is missing.
    fn start(&self, ctx: &egui::Context, master: &Master) -> State {
        let (path, options) = match self.form.options() {
            Ok(o) => o,
            Err(problem) => return State::Editing { problem: Some(problem) },
        };
        let (sender, result) = mpsc::channel();
        let master = master.clone();
        let name = self.form.name.trim().to_owned();
        let ctx = ctx.clone();
        let progress = Arc::new(Shared::default());
        let reporter: Arc<dyn progress::Progress> = progress.clone();
        let spawned = std::thread::Builder::new().name("add-system".into()).spawn(move || {
            let started = Instant::now();
            let prepared = progress::reporting(reporter, || {
                add_system::prepare_file(&master, &name, &path, &options).map_err(|e| e.to_string())
            });
            // The dialog may have been closed meanwhile; then nobody wants the result.
            let _ = sender.send((prepared, started.elapsed().as_secs_f64()));
            ctx.request_repaint();
        });
        match spawned {
            Ok(_) => State::Working { started: Instant::now(), result, progress },
            Err(e) => State::Editing { problem: Some(format!("Could not start the work: {e}")) },
        }
    }

    /// Takes the worker's result when it is there.
    fn poll(&mut self) {
        let State::Working { result, .. } = &self.state else { return };
        self.state = match result.try_recv() {
            Ok((Ok(system), seconds)) => {
                State::Ready { report: Box::new(system.report()), system: Box::new(system), seconds }
            }
            Ok((Err(problem), _)) => State::Editing { problem: Some(problem) },
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => {
                State::Editing { problem: Some("The work stopped unexpectedly.".into()) }
            }
        };
    }
}

/// Fills `field` with a file from the file chooser, or says why nothing came.
fn browse(field: &mut String, title: &str, state: &mut State) {
    browse_for(field, Pick::File(&[]), title, state);
}

/// Fills `field` from the chooser (a file or a folder), or says why nothing came.
fn browse_for(field: &mut String, pick: Pick, title: &str, state: &mut State) {
    let near = PathBuf::from(field.trim());
    match file_chooser::choose_one(pick, title, Some(&near)) {
        Some(path) => *field = path.display().to_string(),
        None => *state = State::Editing { problem: Some(file_chooser::NOTHING_CHOSEN.into()) },
    }
}

/// A name for the system from its file: `newstest.my-nmt.fr` → `newstest.my-nmt`.
fn suggested_name(path: &Path) -> String {
    path.file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned())
}
