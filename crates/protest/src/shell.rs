//! Who shows what the library says: the command line or the window. A message that tells the
//! user what to do names the way to do it there — an option to give on the command line, a
//! choice to make in the window — so each shell passes its own [`Shell`] where such a remedy can
//! come up, and nothing else differs.

/// The program showing a message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Shell {
    /// `protest` on a terminal: remedies name its options.
    #[default]
    CommandLine,
    /// The annotation window: remedies name its choices.
    Window,
}

impl Shell {
    /// The remedy for this shell: `command_line` (an option) or `window` (a choice).
    pub fn says<'a>(self, command_line: &'a str, window: &'a str) -> &'a str {
        match self {
            Shell::CommandLine => command_line,
            Shell::Window => window,
        }
    }
}
