//! Words as APT's reference (Python 2) sees them: lowercasing, splitting, word lists and groups.

use crate::error::Result;
use crate::text_file::LineReader;
use std::collections::HashSet;
use std::path::Path;

/// A word list looked up once per token of every sentence with a pronoun: hashed with FxHash,
/// not SipHash (the lists come from the researcher's own files; a tenth of APT's time was SipHash).
pub type WordSet = HashSet<String, rustc_hash::FxBuildHasher>;

/// Python 2's `unicode.lower()`: each character's simple lowercase mapping, with no regard to
/// context (a final Σ becomes σ, not ς; İ becomes i).
pub fn lower(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    lower_into(text, &mut out);
    out
}

/// [`lower`] added to `out` (a buffer kept from line to line).
pub fn lower_into(text: &str, out: &mut String) {
    let mut rest = text;
    while !rest.is_empty() {
        // Runs of ASCII (most of a French or English line) at once; the other characters one by one.
        let ascii = rest.bytes().position(|b| !b.is_ascii()).unwrap_or(rest.len());
        let start = out.len();
        out.push_str(&rest[..ascii]);
        out[start..].make_ascii_lowercase();
        rest = &rest[ascii..];
        let Some(c) = rest.chars().next() else { break };
        out.push(match c {
            '\u{130}' => 'i',
            c => c.to_lowercase().next().unwrap_or(c),
        });
        rest = &rest[c.len_utf8()..];
    }
}

/// A sentence's tokens as the reference splits them: trimmed, then split at every single space
/// (an empty line is one empty token).
pub fn tokens(line: &str) -> impl Iterator<Item = &str> {
    let line = line.trim();
    split_spaces(line)
}

/// `line.split(' ')`, finding the spaces with SIMD (a tenth of APT's and AutoPRF's time went
/// into `str::split`'s search).
pub fn split_spaces(line: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(b' ', line.as_bytes()).chain(std::iter::once(line.len())).map(move |end| {
        let token = &line[start..end];
        start = end + 1;
        token
    })
}

/// A list's allocation for items of another lifetime: the list is emptied, and collecting its
/// items (none) back in place keeps the allocation, so each sentence's tokens need none.
pub fn reuse<'b>(mut list: Vec<&str>) -> Vec<&'b str> {
    list.clear();
    list.into_iter().map(|_| unreachable!("the list is empty")).collect()
}

/// Python's `token.split(separator)`, or `token.split()` (at runs of white space, no empty
/// parts) without a separator.
pub fn parts<'a>(token: &'a str, separator: Option<&'a str>) -> Box<dyn Iterator<Item = &'a str> + 'a> {
    match separator {
        Some(sep) => Box::new(token.split(sep)),
        None => Box::new(token.split_whitespace()),
    }
}

/// A word list: one word per line, trimmed and lowercased; empty lines skipped.
pub fn read_list(path: &Path) -> Result<Vec<String>> {
    let mut reader = LineReader::open(path)?;
    let mut words = Vec::new();
    while let Some(line) = reader.next_line()? {
        let word = line.trim();
        if !word.is_empty() {
            words.push(lower(word));
        }
    }
    Ok(words)
}

/// A list of groups: one group per line, members separated by commas (spaces ignored).
pub fn read_groups(path: &Path) -> Result<Vec<Vec<String>>> {
    Ok(read_list(path)?.iter().map(|line| line.replace(' ', "").split(',').map(str::to_owned).collect()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowercasing_is_per_character() {
        assert_eq!(lower("Dummy-I ÉL"), "dummy-i él");
        assert_eq!(lower("ΟΔΟΣ"), "οδοσ");
        assert_eq!(lower("İ"), "i");
    }

    #[test]
    fn tokens_keep_empty_ones() {
        assert_eq!(tokens(" a  b \n").collect::<Vec<_>>(), ["a", "", "b"]);
        assert_eq!(tokens("").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn spaces_split_as_str_split_does() {
        let long = "a b  c ".repeat(9);
        for line in ["", " ", "a", "ab cd", "  a  ", "abcdefgh ijklmnop", "é è  ü", "\u{a0}x\ty  ", &long] {
            assert_eq!(split_spaces(line).collect::<Vec<_>>(), line.split(' ').collect::<Vec<_>>(), "{line:?}");
        }
    }

    #[test]
    fn parts_with_and_without_separator() {
        assert_eq!(parts("dímelo-lo", Some("-")).collect::<Vec<_>>(), ["dímelo", "lo"]);
        assert_eq!(parts("a--b", Some("-")).collect::<Vec<_>>(), ["a", "", "b"]);
        assert_eq!(parts("a\tb", None).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(parts("", None).count(), 0);
    }

    #[test]
    fn lists_and_groups() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list");
        std::fs::write(&list, "She\n\n  I \nthey").unwrap();
        assert_eq!(read_list(&list).unwrap(), ["she", "i", "they"]);
        let groups = dir.path().join("groups");
        std::fs::write(&groups, "ce, C'\n\nça ,ç',cela\n").unwrap();
        assert_eq!(read_groups(&groups).unwrap(), [vec!["ce", "c'"], vec!["ça", "ç'", "cela"]]);
    }
}
