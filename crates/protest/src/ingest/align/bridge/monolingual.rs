//! Monolingual alignment of two translations of the same sentence (a bridge translation and a
//! new one): mostly the same words in mostly the same order. The words both share are linked
//! by a diff (a shortest edit script, so their longest common subsequence); in each stretch the
//! diff left apart, words that are the same word inflected, accented or elided are linked by a
//! best monotone matching ([`super::words::similarity`]), and what is left between them is
//! linked as edit operations: a run of words replaced by as many others (`il` → `elle`, `vélo`
//! → `bicyclette`) word for word, one word split into several (or several joined) by its letters.

use super::words::{self, is_word, similarity};
use similar::{Algorithm, DiffOp, capture_diff_slices};

/// The longest run of words replaced word for word. Longer stretches of different words are
/// rewordings, whose words need not correspond one to one.
const MAX_SUBSTITUTION: usize = 3;

/// How far (in words) [`MonoAlignment::anchored`] looks for a word linked around a link.
const ANCHOR_REACH: u32 = 2;

/// The least similarity for two words of a stretch to be linked as the same word.
const MIN_SIMILARITY: f64 = 0.5;

/// How a link was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The same word (after [`words::key`]).
    Same,
    /// The same word inflected, accented or elided, or split into several.
    Similar,
    /// A word replaced by another in the same place.
    Substituted,
}

/// The links between the tokens of `a` and of `b`, ascending, each with how it was found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MonoAlignment {
    pub links: Vec<(u32, u32, Kind)>,
    /// How near the two sentences are, from 0 to 1: the share of their tokens linked as the same
    /// or a similar word (Dice's coefficient).
    pub nearness: f64,
    /// The two sentences' lengths.
    pub lengths: (u32, u32),
}

impl MonoAlignment {
    /// The tokens of `b` linked to token `i` of `a`.
    pub fn targets(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        self.links_of(i).iter().map(|&(_, j, _)| j)
    }

    fn links_of(&self, i: u32) -> &[(u32, u32, Kind)] {
        let start = self.links.partition_point(|&(x, _, _)| x < i);
        let len = self.links[start..].partition_point(|&(x, _, _)| x == i);
        &self.links[start..start + len]
    }

    /// How `i` and `j` were linked, if they were.
    pub fn kind(&self, i: u32, j: u32) -> Option<Kind> {
        self.links_of(i).iter().find(|l| l.1 == j).map(|l| l.2)
    }

    /// Whether `i`–`j` lies in a passage the two sentences share unchanged: it and the words
    /// within [`ANCHOR_REACH`] on either side are the same words, and the sentences end (or go
    /// on) alike there.
    pub fn unchanged(&self, i: u32, j: u32) -> bool {
        let reach = ANCHOR_REACH as i64;
        (-reach..=reach).all(|k| {
            let (x, y) = (i as i64 + k, j as i64 + k);
            let inside = |v: i64, len: u32| (0..len as i64).contains(&v);
            match (inside(x, self.lengths.0), inside(y, self.lengths.1)) {
                (true, true) => self.kind(x as u32, y as u32) == Some(Kind::Same),
                (false, false) => true,
                _ => false,
            }
        })
    }

    /// Whether the link `i`–`j` exists and a word within two on either side is linked, as the same
    /// or a similar word, within two on the same side of `j`: a word matched in its context (an
    /// inserted or dropped word between allowed), not a common word (an article) met elsewhere in a
    /// sentence worded differently.
    pub fn anchored(&self, i: u32, j: u32) -> bool {
        let near = |x: u32, y: u32| (1..=ANCHOR_REACH).contains(&x.abs_diff(y));
        let context = self
            .links
            .iter()
            .any(|&(x, y, kind)| kind != Kind::Substituted && near(x, i) && near(y, j) && (x < i) == (y < j));
        context && self.links_of(i).iter().any(|&(_, y, _)| y == j)
    }
}

/// Aligns two tokenised sentences of the same language.
pub fn align(a: &[&str], b: &[&str]) -> MonoAlignment {
    let ka: Vec<String> = a.iter().map(|w| words::key(w)).collect();
    let kb: Vec<String> = b.iter().map(|w| words::key(w)).collect();
    let mut links = Vec::new();
    let (mut from_a, mut from_b) = (0, 0);
    for op in capture_diff_slices(Algorithm::Myers, &ka, &kb) {
        if let DiffOp::Equal { old_index, new_index, len } = op {
            stretch(&ka, &kb, (from_a, old_index), (from_b, new_index), &mut links);
            links.extend((0..len).map(|k| ((old_index + k) as u32, (new_index + k) as u32, Kind::Same)));
            (from_a, from_b) = (old_index + len, new_index + len);
        }
    }
    stretch(&ka, &kb, (from_a, ka.len()), (from_b, kb.len()), &mut links);
    links.sort_unstable_by_key(|&(i, j, _)| (i, j));
    let alike = |side: fn(&(u32, u32, Kind)) -> u32| {
        let mut tokens: Vec<u32> = links.iter().filter(|l| l.2 != Kind::Substituted).map(side).collect();
        tokens.dedup();
        tokens.len()
    };
    let total = a.len() + b.len();
    let nearness = if total == 0 { 1.0 } else { (alike(|l| l.0) + alike(|l| l.1)) as f64 / total as f64 };
    MonoAlignment { links, nearness, lengths: (a.len() as u32, b.len() as u32) }
}

/// Links the words of a stretch the diff left apart: tokens `ra` of `a` against `rb` of `b`.
fn stretch(a: &[String], b: &[String], ra: (usize, usize), rb: (usize, usize), links: &mut Vec<(u32, u32, Kind)>) {
    let (sa, sb) = (&a[ra.0..ra.1], &b[rb.0..rb.1]);
    if sa.is_empty() || sb.is_empty() {
        return;
    }
    let anchors = best_matching(sa, sb);
    let (mut ga, mut gb) = (0, 0);
    for &(i, j) in anchors.iter().chain([&(sa.len(), sb.len())]) {
        edits(&sa[ga..i], &sb[gb..j], (ra.0 + ga, rb.0 + gb), links);
        if i < sa.len() {
            links.push(((ra.0 + i) as u32, (rb.0 + j) as u32, Kind::Similar));
        }
        (ga, gb) = (i + 1, j + 1);
    }
}

/// The monotone pairs of alike words with the greatest total similarity (dynamic programming
/// over the stretch, which is short: the diff has linked everything around it).
fn best_matching(a: &[String], b: &[String]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let weight = |i: usize, j: usize| Some(similarity(&a[i], &b[j])).filter(|&s| s >= MIN_SIMILARITY);
    let mut best = vec![0.0f64; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in 1..=n {
        for j in 1..=m {
            let mut v = best[at(i - 1, j)].max(best[at(i, j - 1)]);
            if let Some(w) = weight(i - 1, j - 1) {
                v = v.max(best[at(i - 1, j - 1)] + w);
            }
            best[at(i, j)] = v;
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (n, m);
    while i > 0 && j > 0 {
        if best[at(i, j)] == best[at(i - 1, j)] {
            i -= 1;
        } else if best[at(i, j)] == best[at(i, j - 1)] {
            j -= 1;
        } else {
            pairs.push((i - 1, j - 1));
            (i, j) = (i - 1, j - 1);
        }
    }
    pairs.reverse();
    pairs
}

/// Links what is left between two alike words: as many words on each side (at most
/// [`MAX_SUBSTITUTION`]) word for word, a word against the pieces it was split into.
fn edits(a: &[String], b: &[String], at: (usize, usize), links: &mut Vec<(u32, u32, Kind)>) {
    let link = |i: usize, j: usize, kind| ((at.0 + i) as u32, (at.1 + j) as u32, kind);
    if !a.is_empty() && a.len() == b.len() && a.len() <= MAX_SUBSTITUTION {
        let same_kind = |i: usize| is_word(&a[i]) == is_word(&b[i]);
        links.extend((0..a.len()).filter(|&i| same_kind(i)).map(|i| link(i, i, Kind::Substituted)));
        return;
    }
    let joined = |words: &[String]| words.concat();
    match (a, b) {
        ([one], many) if many.len() > 1 && *one == joined(many) => {
            links.extend((0..many.len()).map(|j| link(0, j, Kind::Similar)));
        }
        (many, [one]) if many.len() > 1 && *one == joined(many) => {
            links.extend((0..many.len()).map(|i| link(i, 0, Kind::Similar)));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(a: &str, b: &str) -> Vec<(u32, u32, Kind)> {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
        align(&a, &b).links
    }

    use Kind::*;

    #[test]
    fn the_same_sentence_links_every_word_to_itself() {
        let m = align(&["Il", "est", "rouge", "."], &["il", "est", "rouge", "."]);
        assert_eq!(m.links, vec![(0, 0, Same), (1, 1, Same), (2, 2, Same), (3, 3, Same)]);
        assert_eq!(m.nearness, 1.0);
        assert_eq!(align(&[], &[]).nearness, 1.0);
        assert_eq!(align(&["a"], &[]).links, vec![]);
    }

    #[test]
    fn a_replaced_word_is_linked_in_its_place() {
        // il → elle: the pronoun's translation is found even though it changed.
        assert_eq!(pairs("il est rouge", "elle est rouge"), vec![(0, 0, Substituted), (1, 1, Same), (2, 2, Same)]);
        let m = align(&["le", "vélo", "est", "rouge"], &["la", "bicyclette", "est", "rouge"]);
        assert_eq!(m.links[..2], [(0, 0, Substituted), (1, 1, Substituted)]);
        assert_eq!(m.nearness, 0.5, "substitutions do not count as near");
    }

    #[test]
    fn inserted_and_deleted_words_are_left_out() {
        assert_eq!(
            pairs("il l' a vu hier", "il a vu cela hier"),
            vec![(0, 0, Same), (2, 1, Same), (3, 2, Same), (4, 4, Same)]
        );
    }

    #[test]
    fn alike_words_anchor_a_stretch() {
        // qu' ~ que and grande ~ grandes; between them, one word for one word.
        assert_eq!(
            pairs("je crois qu' il est grande", "je pense que elle sont grandes"),
            vec![
                (0, 0, Same),
                (1, 1, Substituted),
                (2, 2, Similar),
                (3, 3, Substituted),
                (4, 4, Substituted),
                (5, 5, Similar)
            ]
        );
    }

    #[test]
    fn long_rewordings_are_not_linked_word_for_word() {
        let links = pairs("il faut le faire maintenant .", "on doit s' y mettre tout de suite .");
        assert_eq!(links, vec![(5, 8, Same)]);
    }

    #[test]
    fn a_word_split_by_the_tokeniser_is_linked_to_its_pieces() {
        assert_eq!(
            pairs("d' O'Donnell et", "d' O' Donnell et"),
            vec![(0, 0, Same), (1, 1, Similar), (1, 2, Similar), (2, 3, Same)]
        );
        assert_eq!(pairs("a b-c d", "a b -c d")[1..3], [(1, 1, Similar), (1, 2, Similar)]);
    }

    #[test]
    fn a_word_met_in_another_context_is_not_anchored() {
        let a: Vec<&str> = "ils marchent à l' intérieur du bâtiment".split(' ').collect();
        let b: Vec<&str> = "nous pouvons circuler l' autobus".split(' ').collect();
        let m = align(&a, &b);
        // "l'", the same word, linked: but in another context (an article here, of another noun).
        assert!(m.links.contains(&(3, 3, Same)), "{:?}", m.links);
        assert!(!m.anchored(3, 3), "its neighbours are only substituted");
        let m = align(&["il", "est", "rouge"], &["elle", "est", "rouge"]);
        assert!(m.anchored(0, 0) && m.anchored(2, 2));
        assert!(!m.anchored(0, 1), "no such link");
    }

    #[test]
    fn an_unchanged_passage_is_two_same_words_either_side() {
        let a: Vec<&str> = "un deux trois quatre cinq six sept".split(' ').collect();
        let b: Vec<&str> = "un deux trois quatre cinq SIX huit".split(' ').collect();
        let m = align(&a, &b);
        assert!(m.unchanged(0, 0) && m.unchanged(2, 2) && m.unchanged(3, 3));
        assert!(!m.unchanged(4, 4), "seven was replaced two words after it");
        assert!(!m.unchanged(6, 6) && !m.unchanged(2, 3));
        let shorter = align(&a[..5], &b);
        assert!(!shorter.unchanged(4, 4), "one sentence ends there, the other goes on");
    }

    #[test]
    fn punctuation_is_not_linked_to_a_word() {
        assert_eq!(pairs("il , dit", "il et dit"), vec![(0, 0, Same), (2, 2, Same)]);
    }
}
