//! Batches › Plan a task set (`workflow::task_sets`): the corpora and categories to draw from, the
//! number of annotators, the IAA sample and the seed, with a live preview of what each annotator
//! would get; *Store the task set* saves it in the master. Task sets nothing was given out from
//! can be replaced (same name) or removed.

use crate::dialogs::dialog::{Dialog, Frame};
use crate::dialogs::opener::{Allowed, Opener};
use crate::dialogs::parts::{self, Job, Part, Reply};
use crate::intent::Intent;
use egui::{RichText, Ui};
use protest::batches::plan::{self, Plan, PlanError, Request, Row};
use protest::model::{CorpusId, Master, clock};
use protest::session::Session;
use protest::workflow::task_sets::{self, Planned, Planning};

/// The dialog registered: what asks for it writes `Opener::…`.
impl Opener {
    pub fn plan() -> Opener {
        Opener::new("Plan a task set…", Allowed::Researcher, |on| on.session.map(|s| PlanDialog::new(s.master())))
    }
}

/// How wide the dialog would like to be.
pub const WIDTH: f32 = 880.0;

pub struct PlanDialog {
    name: String,
    corpora: Vec<(CorpusId, bool)>,
    /// The master's categories, how many examples each has, and whether it is chosen.
    categories: Vec<((String, usize), bool)>,
    annotators: u32,
    iaa: u32,
    /// As typed: a whole number.
    seed: String,
    /// Only candidates the automatic reference match left for a human.
    needing_human: bool,
    /// Replace the task set of the same name (nothing was given out from it).
    replace: bool,
    /// The preview and what it was computed for.
    preview: Option<(Request, bool, bool, Result<Planned, PlanError>)>,
    problem: Option<String>,
    stored: Option<String>,
    removed: Option<String>,
}

/// A seed to start from; the user can type another or draw a new one.
fn new_seed() -> String {
    rand::random::<u32>().to_string()
}

impl PlanDialog {
    pub fn new(master: &Master) -> PlanDialog {
        let pool = master.candidates.len() as u32;
        // The sample needs one of every (translation, category) group at least.
        let groups = plan::plan(master, &Request::everything(master, 1, 1, 0), plan::every, clock::EARLIEST)
            .map_or(0, |p| p.summary.total.iaa as u32);
        PlanDialog {
            name: String::new(),
            corpora: master.translations().map(|c| (c.id, true)).collect(),
            categories: plan::examples_per_category(master).into_iter().map(|c| (c, true)).collect(),
            annotators: 2,
            // The original team's share (paper 001 §5: 116 of 1,750), rounded up.
            iaa: pool.div_ceil(15).max(groups),
            seed: new_seed(),
            needing_human: false,
            replace: false,
            preview: None,
            problem: None,
            stored: None,
            removed: None,
        }
    }

    /// What to plan; `None` while the seed is not a number.
    fn request(&self) -> Option<Request> {
        Some(Request {
            name: self.name.clone(),
            corpora: self.corpora.iter().filter(|(_, on)| *on).map(|(c, _)| *c).collect(),
            categories: self.categories.iter().filter(|(_, on)| *on).map(|((c, _), _)| c.clone()).collect(),
            annotators: self.annotators,
            iaa_size: self.iaa,
            seed: self.seed.trim().parse().ok()?,
            planner: protest::model::Planner::Balanced,
        })
    }

    /// What to plan, for the library; `None` while the seed is not a number. Dated when it is
    /// stored ([`clock::EARLIEST`] until then: a preview is written nowhere).
    fn planning(&self) -> Option<Planning> {
        Some(Planning {
            request: self.request()?,
            only_needing_human: self.needing_human,
            replace: self.replace,
            created: clock::EARLIEST,
        })
    }

    /// The plan for the current choices, recomputed only when they change.
    fn preview(&mut self, master: &Master) -> Option<&Result<Planned, PlanError>> {
        let planning = self.planning()?;
        let fresh = self.preview.as_ref().is_some_and(|(r, h, x, _)| {
            *r == planning.request && *h == planning.only_needing_human && *x == planning.replace
        });
        if !fresh {
            let planned = task_sets::preview(master, &planning);
            self.preview = Some((planning.request, planning.only_needing_human, planning.replace, planned));
        }
        self.preview.as_ref().map(|(_, _, _, planned)| planned)
    }
}

/// What storing or removing a task set said, or why it was refused.
pub enum Done {
    Stored(Result<String, String>),
    Removed(Result<String, String>),
}

impl Dialog for PlanDialog {
    type Done = Done;

    fn frame(&self, _: &egui::Context) -> Frame {
        Frame::researcher(WIDTH)
    }

    fn ui(&mut self, ui: &mut Ui, part: Part, session: Option<&mut Session>) -> Reply<Done> {
        let Some(session) = session else { return Reply::Close };
        match (part, &self.stored) {
            (Part::Body, Some(stored)) => {
                parts::title(ui, "Plan a task set");
                parts::done(ui, stored);
                Reply::Stay
            }
            (Part::Buttons, Some(_)) => parts::buttons(ui, |ui| {
                if ui.button(RichText::new("Export its batches…").strong()).clicked() {
                    return Reply::Then(Intent::Dialog(Opener::export_batches()));
                }
                parts::close_only(ui)
            }),
            (Part::Body, None) => self.body(ui, session),
            (Part::Buttons, None) => self.buttons(ui, session.master()),
        }
    }

    fn done(&mut self, done: Done) {
        match done {
            Done::Stored(Ok(stored)) => self.stored = Some(stored),
            Done::Removed(Ok(removed)) => {
                self.problem = None;
                self.preview = None; // the next id may have changed
                self.removed = Some(removed);
            }
            Done::Stored(Err(problem)) | Done::Removed(Err(problem)) => self.problem = Some(problem),
        }
    }
}

impl PlanDialog {
    fn body(&mut self, ui: &mut Ui, session: &mut Session) -> Reply<Done> {
        parts::title(ui, "Plan a task set");
        let master = session.master();
        ui.label(
            "The IAA sample goes to every annotator, drawn from each (translation, category) group in proportion to \
             its size, at least one each; the rest is split evenly. The same choices and seed give the same plan.",
        );
        ui.add_space(8.0);
        // Side by side when there is room, else one under the other.
        if ui.available_width() >= 640.0 {
            ui.columns(2, |cols| {
                self.choices(&mut cols[0], master);
                self.lists(&mut cols[1], master);
            });
        } else {
            self.choices(ui, master);
            ui.add_space(8.0);
            self.lists(ui, master);
        }
        ui.separator();
        let mut name_taken = false;
        match self.preview(master) {
            None => parts::problem(ui, Some("The seed is a whole number, e.g. 42.")),
            Some(Ok(planned)) => preview(ui, master, &planned.plan),
            Some(Err(e @ PlanError::NameTaken { .. })) => {
                parts::problem(ui, Some(&format!("{}.", parts::capitalised(&e.to_string()))));
                name_taken = true;
            }
            Some(Err(e @ (PlanError::GivenOut { .. } | PlanError::NoMatchYet))) => {
                parts::problem(ui, Some(&format!("{}.", parts::capitalised(&e.to_string()))));
            }
            Some(Err(e)) => parts::problem(ui, Some(&format!("Nothing to plan: {e}."))),
        }
        if name_taken || self.replace {
            ui.checkbox(&mut self.replace, "Replace the task set of this name (no batch was exported from it)");
        }
        self.task_sets(ui, session).unwrap_or(Reply::Stay)
    }

    /// *Store* and *Cancel*, what storing or removing said under them.
    fn buttons(&mut self, ui: &mut Ui, master: &Master) -> Reply<Done> {
        let name = match self.preview(master) {
            Some(Ok(planned)) => Some((planned.plan.task_set.name.clone(), planned.replaces)),
            _ => None,
        };
        let mut store = false;
        let mut reply = parts::buttons(ui, |ui| {
            let label = match &name {
                Some((name, Some(id))) => format!("Replace task set {id} with “{name}”"),
                Some((name, None)) => format!("Store “{name}” in the master"),
                None => "Store the task set in the master".to_owned(),
            };
            store = ui.add_enabled(name.is_some(), egui::Button::new(RichText::new(label).strong())).clicked();
            if ui.button("Cancel").clicked() { Reply::Close } else { Reply::Stay }
        });
        if store && let Some(mut planning) = self.planning() {
            // Off the UI thread: storing saves the master, seconds for a large one.
            reply = Reply::Work(Job::new("Storing the task set", move |session| {
                // Planned again on the master as it is when stored, so the id is the next free one.
                planning.created = match session.now() {
                    Ok(now) => now,
                    Err(e) => return Done::Stored(Err(format!("Nothing was stored: {e}."))),
                };
                Done::Stored(session.run(|store| task_sets::run(store, &planning)).map_or_else(
                    |e| Err(parts::failed(&e, "")),
                    |planned| {
                        let ts = &planned.plan.task_set;
                        Ok(format!("Stored “{}” as task set {}.", ts.name, ts.id))
                    },
                ))
            }));
        }
        parts::problem(ui, self.problem.as_deref());
        if let Some(removed) = &self.removed {
            parts::done(ui, removed);
        }
        reply
    }

    /// The master's task sets; those nothing was given out from can be removed (off the UI
    /// thread: it saves the master).
    fn task_sets(&mut self, ui: &mut Ui, session: &mut Session) -> Option<Reply<Done>> {
        if session.master().task_sets.is_empty() {
            return None;
        }
        let mut remove = None;
        ui.add_space(6.0);
        egui::CollapsingHeader::new("Task sets in this master").show(ui, |ui| {
            egui::Grid::new("task sets").striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
                for ts in &session.master().task_sets {
                    ui.label(RichText::new(&ts.name).strong());
                    ui.label(format!("id {}", ts.id));
                    if plan::given_out(ts) {
                        ui.label(RichText::new("given out").weak());
                    } else {
                        let button = ui.button("Remove").accessible_name(format!("Remove task set {}", ts.name));
                        if button.clicked() {
                            remove = Some(ts.id);
                        }
                    }
                    ui.end_row();
                }
            });
        });
        let id = remove?;
        Some(Reply::Work(Job::new("Removing the task set", move |session| {
            Done::Removed(session.run(|store| task_sets::remove(store, id)).map_or_else(
                |e| Err(parts::failed(&e, "")),
                |ts| Ok(format!("Removed task set {} “{}”.", ts.id, ts.name)),
            ))
        })))
    }

    fn choices(&mut self, ui: &mut Ui, master: &Master) {
        egui::Grid::new("plan choices").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
            let label = ui.label("Name");
            let hint = master.next_task_set_id().map_or_else(|| "Task set".to_owned(), |id| format!("Task set {id}"));
            let field = egui::TextEdit::singleline(&mut self.name).hint_text(hint).desired_width(220.0);
            ui.add(field).labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Annotators");
            ui.add(egui::DragValue::new(&mut self.annotators).range(1..=20)).labelled_by(label.id);
            ui.end_row();
            let label = ui.label("IAA sample size");
            ui.add(egui::DragValue::new(&mut self.iaa).range(0..=100_000))
                .labelled_by(label.id)
                .on_hover_text("Candidates every annotator gets, for the agreement figures; 0 for none");
            ui.end_row();
            let label = ui.label("Seed");
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.seed).desired_width(120.0)).labelled_by(label.id);
                if ui.button("New seed").on_hover_text("Draw another random seed").clicked() {
                    self.seed = new_seed();
                }
            });
            ui.end_row();
        });
        if !master.auto_eval.is_empty() {
            ui.add_space(6.0);
            ui.checkbox(&mut self.needing_human, "Only candidates still needing a human judgement")
                .on_hover_text("Leave out those the automatic reference match settled");
        }
    }

    fn lists(&mut self, ui: &mut Ui, master: &Master) {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Translations").strong());
            all_none(ui, &mut self.corpora, "translations");
        });
        for (id, on) in &mut self.corpora {
            let name = master.corpus(*id).map_or("?", |c| c.name.as_str());
            ui.checkbox(on, name);
        }
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label(RichText::new("Categories").strong());
            all_none(ui, &mut self.categories, "categories");
        });
        egui::ScrollArea::vertical().id_salt("plan categories").max_height(200.0).show(ui, |ui| {
            for ((name, n), on) in &mut self.categories {
                let Some(category) = master.category(name) else { continue };
                ui.checkbox(on, format!("{} ({n})", category.title())).on_hover_text(name.as_str());
            }
        });
    }
}

fn all_none<T>(ui: &mut Ui, items: &mut [(T, bool)], what: &str) {
    if ui.small_button("all").on_hover_text(format!("Choose all {what}")).clicked() {
        items.iter_mut().for_each(|(_, on)| *on = true);
    }
    if ui.small_button("none").on_hover_text(format!("Choose no {what}")).clicked() {
        items.iter_mut().for_each(|(_, on)| *on = false);
    }
}

/// The counts per category and translation: available, IAA, each part; beside them the balance
/// table; then per annotator.
fn preview(ui: &mut Ui, master: &Master, planned: &Plan) {
    let s = &planned.summary;
    ui.label(RichText::new("Preview").strong());
    let counts = |ui: &mut Ui| {
        egui::ScrollArea::vertical().id_salt("plan preview").max_height(240.0).show(ui, |ui| {
            egui::Grid::new("plan preview grid").striped(true).spacing([18.0, 4.0]).show(ui, |ui| {
                ui.label("");
                for h in ["available", "IAA"] {
                    ui.label(RichText::new(h).strong());
                }
                for p in &s.parts {
                    ui.label(RichText::new(format!("part {p}")).strong());
                }
                ui.end_row();
                let row = |ui: &mut Ui, name: &str, r: &Row, strong: bool| {
                    ui.label(if strong { RichText::new(name).strong() } else { RichText::new(name) });
                    ui.label(r.available.to_string());
                    ui.label(r.iaa.to_string());
                    for n in &r.own {
                        ui.label(n.to_string());
                    }
                    ui.end_row();
                };
                for r in &s.categories {
                    let title = master.category(&r.name).map_or(r.name.as_str(), |c| c.title());
                    row(ui, title, r, false);
                }
                for r in &s.corpora {
                    row(ui, &format!("translation: {}", r.name), r, false);
                }
                row(ui, "Total", &s.total, true);
            });
        });
    };
    // The balance table beside the counts when there is room, else under them.
    if ui.available_width() >= 760.0 {
        ui.horizontal_top(|ui| {
            counts(ui);
            ui.add_space(24.0);
            ui.vertical(|ui| balance(ui, &s.balance()));
        });
    } else {
        counts(ui);
        ui.add_space(8.0);
        balance(ui, &s.balance());
    }
    ui.label(RichText::new(s.per_annotator_sentence()).strong());
    for note in &s.notes {
        ui.label(RichText::new(note).color(ui.visuals().warn_fg_color));
    }
}

/// Each annotator's own part per translation, and the IAA sample's: whether one annotator would
/// judge more of one system than the others.
fn balance(ui: &mut Ui, b: &plan::Balance) {
    ui.label(RichText::new("Own parts per translation").strong())
        .on_hover_text("IAA: the sample every annotator gets besides their own part");
    egui::Grid::new("plan balance grid").striped(true).spacing([18.0, 4.0]).show(ui, |ui| {
        ui.label("");
        for corpus in b.corpora.iter().map(String::as_str).chain(["total"]) {
            ui.label(RichText::new(corpus).strong());
        }
        ui.end_row();
        for (label, counts) in &b.rows {
            ui.label(label);
            for (corpus, n) in b.corpora.iter().map(String::as_str).chain(["total"]).zip(counts) {
                ui.label(n.to_string()).accessible_name(format!("{label} · {corpus}: {n}"));
            }
            ui.end_row();
        }
    });
    ui.add(egui::Label::new(b.sentence()).wrap());
}
