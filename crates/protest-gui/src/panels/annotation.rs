//! The annotation panel (docs/domain.md, "Questions and tags"): short instructions, the questions with yes / no / unset, the
//! tag box and the remarks. Typed text is a change like any other: remarks are stored
//! [`TYPED_DELAY`] after the last keystroke (the window wakes itself up for it) and before
//! leaving the example; so is a tag typed and left in the tag box.

use crate::panels::report_table::shown;
use crate::panels::tag_box::TagBox;
use crate::panels::typed::TYPED_DELAY;
use egui::{RichText, Ui};
use protest::annotate::edit::{self, Edit};
use protest::annotate::window;
use protest::model::{CandidateId, ConflictStatus, Dispute, Judgement, Master, Record, Role, text};
use protest::session::Session;

#[derive(Default)]
pub struct AnnotationPanel {
    tags: TagBox,
    /// The remarks being typed and the candidate they belong to.
    remarks: String,
    remarks_of: Option<CandidateId>,
    /// When the remarks were last typed in and not stored yet.
    typed_at: Option<f64>,
    focus_remarks: bool,
    /// What the remarks box did to what was typed (left characters out, stopped at the limit),
    /// shown under it until the next keystroke or the next example.
    remarks_note: Option<String>,
}

/// The text of the remarks field for its accessible name and the tests.
pub const REMARKS_LABEL: &str = "Remarks";

/// Where the annotation panel was last drawn (beside the translation), for what opens over it
/// (the conflict dialog).
pub fn place(ctx: &egui::Context) -> Option<egui::Rect> {
    ctx.data(|d| d.get_temp(egui::Id::unique(PLACE)))
}

/// Notes where the annotation panel is, as it is drawn.
pub fn placed(ctx: &egui::Context, rect: egui::Rect) {
    ctx.data_mut(|d| d.insert_temp(egui::Id::unique(PLACE), rect));
}

const PLACE: &str = "annotation panel's place";

impl AnnotationPanel {
    pub fn focus_tags(&mut self) {
        self.tags.request_focus();
    }

    /// Text typed in the tag box and not added, on leaving the example ([`TagBox::take_typed`]).
    pub fn take_typed_tag(&mut self) -> Option<(CandidateId, Result<String, protest::model::tags::TagProblem>)> {
        self.tags.take_typed()
    }

    pub fn focus_remarks(&mut self) {
        self.focus_remarks = true;
    }

    /// Remarks typed and not stored yet: `(candidate, edit)` once they are due (or `now` is None:
    /// right away, e.g. before leaving the example).
    pub fn due_remarks(&mut self, now: Option<f64>) -> Option<(CandidateId, Edit)> {
        let typed = self.typed_at?;
        if now.is_some_and(|t| t - typed < TYPED_DELAY) {
            return None;
        }
        self.typed_at = None;
        Some((self.remarks_of?, Edit::Remarks(self.remarks.clone())))
    }

    /// Whether remarks are waiting to be stored.
    pub fn typing(&self) -> bool {
        self.typed_at.is_some()
    }

    /// When the remarks typed are due to be stored, if some wait.
    pub fn remarks_due_at(&self) -> Option<f64> {
        self.typed_at.map(|at| at + TYPED_DELAY)
    }

    /// The annotator's tag box, for its typed text ([`TagBox::due`], [`TagBox::typed`]).
    pub fn tag_box(&self) -> &TagBox {
        &self.tags
    }

    pub fn tag_box_mut(&mut self) -> &mut TagBox {
        &mut self.tags
    }

    /// Shows the panel for a candidate; returns the edits the annotator made.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        session: &Session,
        candidate: CandidateId,
        record: Option<&Record>,
        editable: bool,
    ) -> Vec<Edit> {
        let master = session.master();
        let mut edits = Vec::new();
        let Some(cand) = master.candidate(candidate) else { return edits };
        let Some((example, category)) = master.example_of(cand) else { return edits };
        self.tags.show_for(candidate);
        if self.remarks_of != Some(candidate) {
            self.remarks_of = Some(candidate);
            self.typed_at = None;
            self.remarks_note = None;
        }
        if self.typed_at.is_none() {
            // Nothing typed pending: show what is stored (it may change by undo).
            self.remarks = record.map(|r| r.remarks.clone()).unwrap_or_default();
        }
        instructions(ui, category.anaphoric);
        let disputes = session.disputes(candidate);
        let disputed = |role: Role| disputes.iter().find(|d| d.role == role);
        adjudication_note(ui, &disputes, category.anaphoric);
        ui.separator();
        let words = master.corpus(cand.corpus).map(|c| window::translations(c, cand));
        let source = master.source().and_then(|s| s.token(example.pronoun_ref())).unwrap_or("?");
        let untranslated = cand.pronoun.is_empty();
        ui.add_enabled_ui(editable, |ui| {
            if category.anaphoric {
                let heads: Vec<String> = example
                    .antecedents
                    .iter()
                    .map(|a| master.source().and_then(|s| s.token(a.head_ref())).unwrap_or("?").to_owned())
                    .collect();
                let translated: Vec<String> =
                    words.iter().flat_map(|w| w.antecedents.iter().map(|t| t.join(" "))).collect();
                summary(ui, &heads.join(", "), &translated.join(", "));
                let question = edit::question(Role::Antecedent, true, false);
                let antecedent = disputed(Role::Antecedent);
                if let Some(j) = judgement(ui, question, Role::Antecedent, record, "Shift+Y / N / U", antecedent) {
                    edits.push(Edit::Judge(Role::Antecedent, j));
                }
                selected(ui, master, cand.corpus, record, Role::Antecedent, cand.antecedents.iter().all(Vec::is_empty));
                ui.add_space(10.0);
            }
            summary(ui, source, &words.as_ref().map(|w| w.pronoun.join(" ")).unwrap_or_default());
            let question = edit::question(Role::Pronoun, category.anaphoric, untranslated);
            if let Some(j) = judgement(ui, question, Role::Pronoun, record, "Y / N / U", disputed(Role::Pronoun)) {
                edits.push(Edit::Judge(Role::Pronoun, j));
            }
            selected(ui, master, cand.corpus, record, Role::Pronoun, untranslated);
            ui.add_space(10.0);
            let suggestions = session.tag_suggestions(category);
            let present = record.map(|r| r.tags.clone()).unwrap_or_default();
            if let Some(edit) = self.tags.ui(ui, &suggestions, &present) {
                edits.push(edit);
            }
            ui.add_space(10.0);
            self.remarks_ui(ui);
        });
        if let Some(ConflictStatus::Kept(conflicts)) = record.map(|r| &r.conflict) {
            ui.add_space(10.0);
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(RichText::new("Kept with conflicts:").color(ui.visuals().warn_fg_color));
                for c in conflicts {
                    // Numbered as in the conflict dialog and the guidelines.
                    ui.horizontal_top(|ui| {
                        ui.label(RichText::new(format!("Rule {}", c.number())).strong());
                        ui.add(egui::Label::new(c.describe()).wrap());
                    });
                }
            });
        }
        edits
    }

    fn remarks_ui(&mut self, ui: &mut Ui) {
        let label = ui.label(RichText::new(REMARKS_LABEL).strong());
        let response = ui.add(
            egui::TextEdit::multiline(&mut self.remarks)
                // Its own id, not one counted from what the panel shows above it: a note that
                // comes or goes there (a save that failed, a dispute) must not take the keyboard
                // from the annotator typing here.
                .id(egui::Id::unique("remarks box"))
                .hint_text("Free-form notes: doubts, assumptions, why you chose a tag…")
                .desired_rows(4)
                .desired_width(f32::INFINITY)
                .char_limit(text::MAX_REMARKS_CHARS),
        );
        let response = response.labelled_by(label.id);
        if std::mem::take(&mut self.focus_remarks) {
            // Below the panel's fold in a small window: brought into view, as what is typed is.
            response.request_focus();
            response.scroll_to_me(None);
        }
        if response.changed() {
            self.typed_at = Some(ui.input(|i| i.time));
            self.remarks_note = self.fitted();
        }
        if let Some(note) = &self.remarks_note {
            ui.label(RichText::new(note).small().color(ui.visuals().warn_fg_color));
        }
    }

    /// Makes the remarks typed what a remark may hold (a pasted control or direction-changing
    /// character is left out), and says what was done: what the box holds is what is stored.
    fn fitted(&mut self) -> Option<String> {
        let over = self.remarks.chars().count() > text::MAX_REMARKS_CHARS; // said when cut
        let (fitted, said) = text::fit_remarks(&self.remarks);
        self.remarks = fitted;
        let full = !over && self.remarks.chars().count() == text::MAX_REMARKS_CHARS;
        let limit = full.then(|| {
            format!(
                "{} characters, the most a remark may have: what goes past them is not taken",
                text::MAX_REMARKS_CHARS
            )
        });
        let said: Vec<String> = said.into_iter().chain(limit).collect();
        (!said.is_empty()).then(|| crate::dialogs::parts::capitalised(&said.join("; ")) + ".")
    }
}

fn instructions(ui: &mut Ui, anaphoric: bool) {
    let text = if anaphoric {
        "Judge the antecedent head (cyan), then the pronoun (yellow) given that head. For each translation you \
         judge correct, click its minimal correct tokens (nouns only for the antecedent). Tags and remarks are optional."
    } else {
        "Judge the pronoun (yellow). If its translation is correct, click its minimal correct tokens. Tags and \
         remarks are optional."
    };
    ui.label(RichText::new(text).size(13.5));
    ui.label(RichText::new("F1: keys and guidelines").size(12.5).weak());
}

/// In an adjudication: that the adjudicator settles the questions marked in dispute, and which
/// question is not theirs to settle.
fn adjudication_note(ui: &mut Ui, disputes: &[Dispute], anaphoric: bool) {
    if disputes.is_empty() {
        return;
    }
    let roles: &[Role] = if anaphoric { &Role::ALL } else { &[Role::Pronoun] };
    let settled: Vec<String> =
        roles.iter().filter(|r| disputes.iter().all(|d| d.role != **r)).map(|r| format!("the {r}")).collect();
    let mut text = "Adjudication: your answer settles the question in dispute.".to_owned();
    if !settled.is_empty() {
        text += &format!(" They agree on {}: your answer to it does not change the verdict.", settled.join(" and "));
    }
    ui.label(RichText::new(text).size(13.0).color(ui.visuals().warn_fg_color)).on_hover_text(ADJUDICATION_HINT);
}

/// What the adjudication note's hover says.
const ADJUDICATION_HINT: &str = "The other annotators' answers are shown beside the question they disagree on, \
     without their names. ? (cannot be judged): the annotator tagged bad_translation or incorrect_word_alignment; to \
     say so yourself, tag it so and leave the question unset. Your answer to a question not in dispute is kept, and \
     the others' agreement stands.";

/// “it” translated as “Elle”: the source word and the words aligned to it.
fn summary(ui: &mut Ui, source: &str, target: &str) {
    let text = if target.is_empty() {
        format!("“{source}”: nothing aligned")
    } else {
        format!("“{source}” translated as “{target}”")
    };
    ui.label(RichText::new(text).size(16.0));
}

/// A question with yes / no / unset radios, and the others' answers where it is in dispute;
/// returns a new answer.
fn judgement(
    ui: &mut Ui,
    question: &str,
    role: Role,
    record: Option<&Record>,
    keys: &str,
    dispute: Option<&Dispute>,
) -> Option<Judgement> {
    let current = record.map_or(Judgement::Unset, |r| r.judgement(role));
    let mut answer = None;
    ui.label(RichText::new(question).strong());
    if let Some(d) = dispute {
        let answers: Vec<&str> = d.answers.iter().map(|a| a.describe()).collect();
        let text = shown(&format!("In dispute — the annotators answered {}", answers.join(", ")));
        ui.label(RichText::new(text).size(13.5).color(ui.visuals().warn_fg_color));
    }
    ui.horizontal(|ui| {
        for (value, text) in [(Judgement::Yes, "Yes"), (Judgement::No, "No"), (Judgement::Unset, "Unset")] {
            let name = format!("{}: {text}", capitalised(role));
            if ui.radio(current == value, text).accessible_name(name).clicked() && current != value {
                answer = Some(value);
            }
            ui.add_space(6.0);
        }
        ui.label(RichText::new(keys).small().weak());
    });
    answer
}

/// The tokens selected for a role, or what to do to select them.
fn selected(
    ui: &mut Ui,
    master: &Master,
    corpus: protest::model::CorpusId,
    record: Option<&Record>,
    role: Role,
    none_aligned: bool,
) {
    let words = record
        .zip(master.corpus(corpus))
        .map(|(r, c)| c.words(&r.selected.get(role).iter().copied().collect::<Vec<_>>()))
        .unwrap_or_default();
    let text = match () {
        _ if none_aligned => RichText::new("Nothing is aligned, so there is nothing to select.").weak(),
        _ if words.is_empty() => RichText::new("No token selected.").weak(),
        _ => RichText::new(format!("Selected: {words}")),
    };
    ui.label(text.size(13.5));
}

fn capitalised(role: Role) -> &'static str {
    match role {
        Role::Pronoun => "Pronoun",
        Role::Antecedent => "Antecedent",
    }
}
