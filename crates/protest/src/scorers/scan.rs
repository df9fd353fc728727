//! Finding the lines worth tokenising. APT and AutoPRF look closely only at sentences with a
//! source pronoun — about a third of a news corpus — so each source line is first searched for
//! the pronouns as whole words (SIMD substring search), and only a line that may hold one is
//! split into tokens and looked up. The search may let a line through that has no pronoun (the
//! full reading then finds none); it never stops one that has.

use memchr::memmem;

/// Words searched for whole: each occurrence must be bounded on both sides by the line's start
/// or end or a boundary byte.
pub struct WordScan {
    finders: Vec<memmem::Finder<'static>>,
    /// A bit per byte value.
    boundary: [u64; 4],
}

impl WordScan {
    /// `words` (byte strings; empty ones are left out: they are never a token's whole text) and
    /// the bytes that may stand next to one.
    pub fn new<'a>(words: impl IntoIterator<Item = &'a [u8]>, boundary: &[u8]) -> WordScan {
        let finders =
            words.into_iter().filter(|w| !w.is_empty()).map(|w| memmem::Finder::new(w).into_owned()).collect();
        let mut table = [0u64; 4];
        for &b in boundary {
            table[usize::from(b >> 6)] |= 1 << (b & 63);
        }
        WordScan { finders, boundary: table }
    }

    /// Whether one of the words occurs whole in `line`.
    pub fn finds(&self, line: &[u8]) -> bool {
        self.finders.iter().any(|f| self.whole(f, line).next().is_some())
    }

    /// Where the words occur whole in `line`, as (start, length): each word's occurrences in
    /// turn. An occurrence that is not whole hides no whole one when no word holds a boundary
    /// byte (a whole occurrence starts after a boundary byte, which the one before it would hold).
    pub fn each<'l>(&'l self, line: &'l [u8]) -> impl Iterator<Item = (usize, usize)> + 'l {
        self.finders.iter().flat_map(move |f| self.whole(f, line).map(|at| (at, f.needle().len())))
    }

    fn whole<'l>(&'l self, finder: &'l memmem::Finder<'static>, line: &'l [u8]) -> impl Iterator<Item = usize> + 'l {
        let boundary = |at: usize| self.boundary[usize::from(line[at] >> 6)] & (1 << (line[at] & 63)) != 0;
        let len = finder.needle().len();
        finder
            .find_iter(line)
            .filter(move |&at| (at == 0 || boundary(at - 1)) && (at + len == line.len() || boundary(at + len)))
    }
}

/// The bytes Rust's `str::split_whitespace` splits at in ASCII text, and the few other control
/// characters Python also splits at (a superset does no harm: the scan may only let more through).
pub const ASCII_WHITESPACE: &[u8] = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only() {
        let scan = WordScan::new([&b"it"[..], b"they"], b" ");
        assert!(scan.finds(b"it is"));
        assert!(scan.finds(b"so they"));
        assert!(scan.finds(b"they"));
        assert!(scan.finds(b"with it ."));
        assert!(!scan.finds(b"with its city"));
        assert!(!scan.finds(b"It is"), "case-sensitive: the caller lowercases");
        assert!(!scan.finds(b""));
        assert!(scan.finds(b"bit it"), "a later occurrence counts");
        assert_eq!(scan.each(b"it bit they it").collect::<Vec<_>>(), [(0, 2), (12, 2), (7, 4)]);
    }

    #[test]
    fn other_boundaries_and_empty_words() {
        let scan = WordScan::new([&b"lo"[..], b""], b" -");
        assert!(scan.finds(b"dime-lo ."));
        assert!(!scan.finds(b"dimelo"));
        assert!(!WordScan::new([&b""[..]], b" ").finds(b"a b"));
    }
}
