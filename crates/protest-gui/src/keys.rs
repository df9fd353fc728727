//! The keys: one table of bindings from keys to intents, read by the app, shown in the help
//! panel and beside the menu items (and listed in the README).

use crate::dialogs::{Allowed, Opener};
use crate::intent::Intent;
use egui::{Event, InputState, Key, Modifiers};
use protest::annotate::Direction;
use protest::model::{Judgement, Role};
use protest::store::based::Keep;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Everywhere,
    Browser,
    Example,
    /// The conflict dialog, where nothing else applies.
    Conflict,
    /// The dialog of two versions of a record (the web page), where nothing else applies.
    Versions,
    /// The prediction results view.
    Predictions,
}

/// A key binding: `keys` with exactly `modifiers`; `intent` gets the index of the key pressed.
pub struct Binding {
    pub modifiers: Modifiers,
    pub keys: &'static [Key],
    pub intent: fn(usize) -> Intent,
    pub scope: Scope,
    /// How the help shows the keys.
    pub shown: &'static str,
    pub help: &'static str,
}

const NONE: Modifiers = Modifiers::NONE;
const SHIFT: Modifiers = Modifiers::SHIFT;
const DIGITS: &[Key] =
    &[Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::Num5, Key::Num6, Key::Num7, Key::Num8, Key::Num9];

/// Every binding, in the order the help lists them. Keys never fire while a text field has focus.
pub const BINDINGS: &[Binding] = &[
    Binding {
        modifiers: NONE,
        keys: &[Key::ArrowLeft, Key::ArrowRight],
        intent: |i| if i == 0 { Intent::Prev } else { Intent::Next },
        scope: Scope::Example,
        shown: "← / →",
        help: "previous / next example (checks the annotation when leaving it)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Y, Key::N, Key::U],
        intent: |i| Intent::Judge(Role::Pronoun, JUDGEMENTS[i]),
        scope: Scope::Example,
        shown: "Y / N / U",
        help: "pronoun correctly translated: yes / no / unset",
    },
    Binding {
        modifiers: SHIFT,
        keys: &[Key::Y, Key::N, Key::U],
        intent: |i| Intent::Judge(Role::Antecedent, JUDGEMENTS[i]),
        scope: Scope::Example,
        shown: "Shift+Y / N / U",
        help: "antecedent head correctly translated: yes / no / unset",
    },
    Binding {
        modifiers: NONE,
        keys: DIGITS,
        intent: |i| Intent::Toggle(Role::Pronoun, i),
        scope: Scope::Example,
        shown: "1 … 9",
        help: "select / deselect the n-th token aligned to the pronoun (its small number)",
    },
    Binding {
        modifiers: SHIFT,
        keys: DIGITS,
        intent: |i| Intent::Toggle(Role::Antecedent, i),
        scope: Scope::Example,
        shown: "Shift+1 … 9",
        help: "select / deselect the n-th token aligned to the antecedent head",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::T],
        intent: |_| Intent::FocusTags,
        scope: Scope::Example,
        shown: "T",
        help: "type a tag (Up / Down pick from the drop-down, Enter adds, Esc leaves the field)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::R],
        intent: |_| Intent::FocusRemarks,
        scope: Scope::Example,
        shown: "R",
        help: "write remarks (Esc leaves the field)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::O],
        intent: |_| Intent::ToggleOverview,
        scope: Scope::Example,
        shown: "O",
        help: "researcher: switch between the annotation panel and the overview of everyone's annotations",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::OpenBracket, Key::CloseBracket],
        intent: |i| Intent::StepAnnotator(way(i)),
        scope: Scope::Example,
        shown: "[ / ]",
        help: "overview: show the previous / next annotator's selected tokens",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Escape],
        intent: |_| Intent::Back,
        scope: Scope::Example,
        shown: "Esc",
        help: "back to the categories",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::ArrowUp, Key::ArrowDown],
        intent: |i| Intent::SelectRow(way(i)),
        scope: Scope::Browser,
        shown: "↑ / ↓",
        help: "categories: choose a category row",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Enter],
        intent: |_| Intent::Continue,
        scope: Scope::Browser,
        shown: "Enter",
        help: "categories: open the chosen row's new examples, or continue with the first example not annotated yet",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::ArrowLeft, Key::ArrowRight],
        intent: |i| Intent::PredictionStep(way(i)),
        scope: Scope::Predictions,
        shown: "← / →",
        help: "prediction results: previous / next example of the chosen cell",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::ArrowUp, Key::ArrowDown],
        intent: |i| Intent::PredictionCell(way(i)),
        scope: Scope::Predictions,
        shown: "↑ / ↓",
        help: "prediction results: previous / next cell of the confusion matrix with examples (errors first)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::OpenBracket, Key::CloseBracket],
        intent: |i| Intent::PredictionSystem(way(i)),
        scope: Scope::Predictions,
        shown: "[ / ]",
        help: "prediction results: previous / next system",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Escape],
        intent: |_| Intent::Back,
        scope: Scope::Predictions,
        shown: "Esc",
        help: "prediction results: back to the categories",
    },
    Binding {
        modifiers: Modifiers::COMMAND,
        keys: &[Key::Z],
        intent: |_| Intent::Undo,
        scope: Scope::Everywhere,
        shown: "Ctrl+Z",
        help: "undo the last change (this session, any example)",
    },
    Binding {
        modifiers: Modifiers::COMMAND.plus(SHIFT),
        keys: &[Key::Z],
        intent: |_| Intent::Redo,
        scope: Scope::Everywhere,
        shown: "Ctrl+Shift+Z",
        help: "redo",
    },
    Binding {
        modifiers: Modifiers::COMMAND,
        keys: &[Key::O],
        intent: |_| Intent::Dialog(Opener::open_file()),
        scope: Scope::Everywhere,
        shown: "Ctrl+O",
        help: "open another file",
    },
    Binding {
        modifiers: Modifiers::COMMAND,
        keys: &[Key::G],
        intent: |_| Intent::Dialog(Opener::go_to()),
        scope: Scope::Everywhere,
        shown: "Ctrl+G",
        help: "researcher: go to an example (every translation of it) or a candidate",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::F1],
        intent: |_| Intent::Help,
        scope: Scope::Everywhere,
        shown: "F1",
        help: "show / hide the keys and the annotation guidelines (Esc hides them too)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::A, Key::Escape],
        intent: |_| Intent::Amend,
        scope: Scope::Conflict,
        shown: "A or Esc",
        help: "conflict dialog: amend (stay on the example)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::K],
        intent: |_| Intent::KeepAsIs,
        scope: Scope::Conflict,
        shown: "K",
        help: "conflict dialog: keep as is (store the conflicts and move on)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::M],
        intent: |_| Intent::ChooseVersion(Keep::Proposed),
        scope: Scope::Versions,
        shown: "M",
        help: "web page, two versions of an example: keep mine (saved in place of the server's)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::S],
        intent: |_| Intent::ChooseVersion(Keep::Stored),
        scope: Scope::Versions,
        shown: "S",
        help: "web page, two versions of an example: keep the one saved on the server",
    },
];

/// The way the `i`-th key of a pair goes: the first back, the second forward.
fn way(i: usize) -> Direction {
    if i == 0 { Direction::Back } else { Direction::Forward }
}

const JUDGEMENTS: [Judgement; 3] = [Judgement::Yes, Judgement::No, Judgement::Unset];

impl Binding {
    /// Keys that only do something in researcher mode (a master), not in an annotator's batch:
    /// the prediction results are a researcher's too.
    pub fn researcher_only(&self) -> bool {
        self.scope == Scope::Predictions
            || match (self.intent)(0) {
                Intent::ToggleOverview | Intent::StepAnnotator(_) => true,
                Intent::Dialog(opener) => opener.allowed == Allowed::Researcher,
                _ => false,
            }
    }
}

/// The key of `intent` as a menu shows it beside the item ("Ctrl+O"), if a key of its own has it.
pub fn shortcut(intent: &Intent) -> Option<&'static str> {
    BINDINGS.iter().find(|b| b.keys.len() == 1 && (b.intent)(0) == *intent).map(|b| b.shown)
}

/// Consumes the first key press of this frame that is bound in `scope`.
pub fn read(input: &mut InputState, scope: Scope) -> Option<Intent> {
    let mut found = None;
    input.events.retain(|event| {
        if found.is_some() {
            return true;
        }
        let Event::Key { key, physical_key, pressed: true, modifiers, .. } = event else { return true };
        found = find(scope, *key, *physical_key, *modifiers);
        found.is_none()
    });
    found
}

impl Scope {
    /// Whether the keys that work everywhere work here too (not in a dialog that asks one
    /// question).
    fn takes_everywhere(self) -> bool {
        !matches!(self, Scope::Conflict | Scope::Versions)
    }
}

fn find(scope: Scope, key: Key, physical: Option<Key>, modifiers: Modifiers) -> Option<Intent> {
    let applies = |b: &&Binding| b.scope == scope || (b.scope == Scope::Everywhere && scope.takes_everywhere());
    BINDINGS.iter().filter(applies).find_map(|b| {
        if !modifiers.matches_exact(b.modifiers) {
            return None;
        }
        // Shift+1 is "!" on most layouts: the physical key says which digit it was.
        let i = b.keys.iter().position(|&k| k == key || Some(k) == physical)?;
        Some((b.intent)(i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_must_match_exactly() {
        let find = |key, modifiers| find(Scope::Example, key, None, modifiers);
        assert_eq!(find(Key::Y, NONE), Some(Intent::Judge(Role::Pronoun, Judgement::Yes)));
        assert_eq!(find(Key::U, SHIFT), Some(Intent::Judge(Role::Antecedent, Judgement::Unset)));
        assert_eq!(find(Key::Z, Modifiers::COMMAND), Some(Intent::Undo));
        assert_eq!(find(Key::Z, Modifiers::COMMAND.plus(SHIFT)), Some(Intent::Redo));
        assert_eq!(find(Key::Y, Modifiers::ALT), None);
        assert_eq!(find(Key::Enter, NONE), None, "Enter is for the browser only");
        assert_eq!(
            super::find(Scope::Conflict, Key::Z, None, Modifiers::COMMAND),
            None,
            "only A / K / Esc in the dialog"
        );
        assert_eq!(super::find(Scope::Conflict, Key::Escape, None, NONE), Some(Intent::Amend));
    }

    #[test]
    fn shifted_digits_are_found_by_their_physical_key() {
        let found = find(Scope::Example, Key::Exclamationmark, Some(Key::Num1), SHIFT);
        assert_eq!(found, Some(Intent::Toggle(Role::Antecedent, 0)));
        assert_eq!(find(Scope::Example, Key::Num3, None, NONE), Some(Intent::Toggle(Role::Pronoun, 2)));
    }

    #[test]
    fn no_two_bindings_share_a_key_in_one_scope() {
        for (i, a) in BINDINGS.iter().enumerate() {
            for b in &BINDINGS[i + 1..] {
                let everywhere = |x: &Binding, y: &Binding| x.scope == Scope::Everywhere && y.scope.takes_everywhere();
                let overlap = a.scope == b.scope || everywhere(a, b) || everywhere(b, a);
                let same = a.modifiers == b.modifiers && a.keys.iter().any(|k| b.keys.contains(k));
                assert!(!(overlap && same), "{} and {} collide", a.shown, b.shown);
            }
        }
    }

    #[test]
    fn the_readme_lists_every_key() {
        let readme = include_str!("../../../README.md");
        for b in BINDINGS {
            for key in b.shown.split(" / ").flat_map(|k| k.split(" or ")) {
                assert!(readme.contains(&format!("`{key}`")), "README.md does not mention `{key}` ({})", b.help);
            }
        }
    }
}
