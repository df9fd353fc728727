//! Keyboard commands: one table, read by the app and shown in the help panel (and the README).

use egui::{Event, InputState, Key, Modifiers};
use protest::model::{Judgement, Role};

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Prev,
    Next,
    /// Back to the category browser.
    Back,
    /// Browser: open the selected row's new examples, or without a selection every candidate
    /// at the first one not annotated yet.
    Continue,
    /// Browser: select the next (true) or previous row.
    SelectRow(bool),
    Judge(Role, Judgement),
    /// Toggle the n-th (0-based) target token aligned to the role.
    Toggle(Role, usize),
    FocusTags,
    FocusRemarks,
    Undo,
    Redo,
    Open,
    Help,
    /// Researcher mode: the annotation panel or the overview panel.
    ToggleOverview,
    /// Overview: the previous (false) or next (true) annotator's selected tokens.
    StepAnnotator(bool),
    /// Researcher mode: look up an example or a candidate.
    GoTo,
    /// Conflict dialog: stay on the example.
    Amend,
    /// Conflict dialog: store the annotation with its conflicts and move on.
    Keep,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Everywhere,
    Browser,
    Example,
    /// The conflict dialog, where nothing else applies.
    Dialog,
}

/// A key binding: `keys` with exactly `modifiers`; `command` gets the index of the key pressed.
pub struct Binding {
    pub modifiers: Modifiers,
    pub keys: &'static [Key],
    pub command: fn(usize) -> Command,
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
        command: |i| [Command::Prev, Command::Next][i],
        scope: Scope::Example,
        shown: "← / →",
        help: "previous / next example (checks the annotation when leaving it)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Y, Key::N, Key::U],
        command: |i| Command::Judge(Role::Pronoun, JUDGEMENTS[i]),
        scope: Scope::Example,
        shown: "Y / N / U",
        help: "pronoun correctly translated: yes / no / unset",
    },
    Binding {
        modifiers: SHIFT,
        keys: &[Key::Y, Key::N, Key::U],
        command: |i| Command::Judge(Role::Antecedent, JUDGEMENTS[i]),
        scope: Scope::Example,
        shown: "Shift+Y / N / U",
        help: "antecedent head correctly translated: yes / no / unset",
    },
    Binding {
        modifiers: NONE,
        keys: DIGITS,
        command: |i| Command::Toggle(Role::Pronoun, i),
        scope: Scope::Example,
        shown: "1 … 9",
        help: "select / deselect the n-th token aligned to the pronoun (its small number)",
    },
    Binding {
        modifiers: SHIFT,
        keys: DIGITS,
        command: |i| Command::Toggle(Role::Antecedent, i),
        scope: Scope::Example,
        shown: "Shift+1 … 9",
        help: "select / deselect the n-th token aligned to the antecedent head",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::T],
        command: |_| Command::FocusTags,
        scope: Scope::Example,
        shown: "T",
        help: "type a tag (Up / Down pick from the drop-down, Enter adds, Esc leaves the field)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::R],
        command: |_| Command::FocusRemarks,
        scope: Scope::Example,
        shown: "R",
        help: "write remarks (Esc leaves the field)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::O],
        command: |_| Command::ToggleOverview,
        scope: Scope::Example,
        shown: "O",
        help: "researcher: switch between the annotation panel and the overview of everyone's annotations",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::OpenBracket, Key::CloseBracket],
        command: |i| Command::StepAnnotator(i == 1),
        scope: Scope::Example,
        shown: "[ / ]",
        help: "overview: show the previous / next annotator's selected tokens",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Escape],
        command: |_| Command::Back,
        scope: Scope::Example,
        shown: "Esc",
        help: "back to the categories",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::ArrowUp, Key::ArrowDown],
        command: |i| Command::SelectRow(i == 1),
        scope: Scope::Browser,
        shown: "↑ / ↓",
        help: "categories: choose a category row",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::Enter],
        command: |_| Command::Continue,
        scope: Scope::Browser,
        shown: "Enter",
        help: "categories: open the chosen row's new examples, or continue with the first example not annotated yet",
    },
    Binding {
        modifiers: Modifiers::COMMAND,
        keys: &[Key::Z],
        command: |_| Command::Undo,
        scope: Scope::Everywhere,
        shown: "Ctrl+Z",
        help: "undo the last change (this session, any example)",
    },
    Binding {
        modifiers: Modifiers::COMMAND.plus(SHIFT),
        keys: &[Key::Z],
        command: |_| Command::Redo,
        scope: Scope::Everywhere,
        shown: "Ctrl+Shift+Z",
        help: "redo",
    },
    Binding {
        modifiers: Modifiers::COMMAND,
        keys: &[Key::O],
        command: |_| Command::Open,
        scope: Scope::Everywhere,
        shown: "Ctrl+O",
        help: "open another file",
    },
    Binding {
        modifiers: Modifiers::COMMAND,
        keys: &[Key::G],
        command: |_| Command::GoTo,
        scope: Scope::Everywhere,
        shown: "Ctrl+G",
        help: "researcher: go to an example (every translation of it) or a candidate",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::F1],
        command: |_| Command::Help,
        scope: Scope::Everywhere,
        shown: "F1",
        help: "show / hide the keys and the annotation guidelines",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::A, Key::Escape],
        command: |_| Command::Amend,
        scope: Scope::Dialog,
        shown: "A or Esc",
        help: "conflict dialog: amend (stay on the example)",
    },
    Binding {
        modifiers: NONE,
        keys: &[Key::K],
        command: |_| Command::Keep,
        scope: Scope::Dialog,
        shown: "K",
        help: "conflict dialog: keep as is (store the conflicts and move on)",
    },
];

const JUDGEMENTS: [Judgement; 3] = [Judgement::Yes, Judgement::No, Judgement::Unset];

impl Binding {
    /// Keys that only do something in researcher mode (a master), not in an annotator's batch.
    pub fn researcher_only(&self) -> bool {
        matches!((self.command)(0), Command::ToggleOverview | Command::StepAnnotator(_) | Command::GoTo)
    }
}

/// Consumes the first key press of this frame that is bound in `scope`.
pub fn read(input: &mut InputState, scope: Scope) -> Option<Command> {
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

fn find(scope: Scope, key: Key, physical: Option<Key>, modifiers: Modifiers) -> Option<Command> {
    let applies = |b: &&Binding| b.scope == scope || (b.scope == Scope::Everywhere && scope != Scope::Dialog);
    BINDINGS.iter().filter(applies).find_map(|b| {
        if !modifiers.matches_exact(b.modifiers) {
            return None;
        }
        // Shift+1 is "!" on most layouts: the physical key says which digit it was.
        let i = b.keys.iter().position(|&k| k == key || Some(k) == physical)?;
        Some((b.command)(i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_must_match_exactly() {
        let find = |key, modifiers| find(Scope::Example, key, None, modifiers);
        assert_eq!(find(Key::Y, NONE), Some(Command::Judge(Role::Pronoun, Judgement::Yes)));
        assert_eq!(find(Key::U, SHIFT), Some(Command::Judge(Role::Antecedent, Judgement::Unset)));
        assert_eq!(find(Key::Z, Modifiers::COMMAND), Some(Command::Undo));
        assert_eq!(find(Key::Z, Modifiers::COMMAND.plus(SHIFT)), Some(Command::Redo));
        assert_eq!(find(Key::Y, Modifiers::ALT), None);
        assert_eq!(find(Key::Enter, NONE), None, "Enter is for the browser only");
        assert_eq!(
            super::find(Scope::Dialog, Key::Z, None, Modifiers::COMMAND),
            None,
            "only A / K / Esc in the dialog"
        );
        assert_eq!(super::find(Scope::Dialog, Key::Escape, None, NONE), Some(Command::Amend));
    }

    #[test]
    fn shifted_digits_are_found_by_their_physical_key() {
        let found = find(Scope::Example, Key::Exclamationmark, Some(Key::Num1), SHIFT);
        assert_eq!(found, Some(Command::Toggle(Role::Antecedent, 0)));
        assert_eq!(find(Scope::Example, Key::Num3, None, NONE), Some(Command::Toggle(Role::Pronoun, 2)));
    }

    #[test]
    fn no_two_bindings_share_a_key_in_one_scope() {
        for (i, a) in BINDINGS.iter().enumerate() {
            for b in &BINDINGS[i + 1..] {
                let everywhere = |x: &Binding, y: &Binding| x.scope == Scope::Everywhere && y.scope != Scope::Dialog;
                let overlap = a.scope == b.scope || everywhere(a, b) || everywhere(b, a);
                let same = a.modifiers == b.modifiers && a.keys.iter().any(|k| b.keys.contains(k));
                assert!(!(overlap && same), "{} and {} collide", a.shown, b.shown);
            }
        }
    }

    #[test]
    fn the_readme_lists_every_key() {
        let readme = include_str!("../../README.md");
        for b in BINDINGS {
            for key in b.shown.split(" / ").flat_map(|k| k.split(" or ")) {
                assert!(readme.contains(&format!("`{key}`")), "README.md does not mention `{key}` ({})", b.help);
            }
        }
    }
}
