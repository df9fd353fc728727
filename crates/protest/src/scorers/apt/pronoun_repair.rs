//! Repairing the word alignment of pronouns (APT, paper 000 §2.3 and Table 1).
//!
//! Statistical aligners often leave a pronoun unaligned, or align it to a neighbouring verb or
//! complementiser instead of the target pronoun. The heuristic looks for a likely target pronoun
//! near where the pronoun *should* be:
//!
//! 1. a source pronoun that is already aligned to a target pronoun is left alone;
//! 2. the *anchors* are the target positions it is aligned to; when it is unaligned, the target
//!    positions of its nearest aligned source neighbours on each side (the paper's "markers");
//! 3. the search range runs from `window` tokens before the first anchor to `window` after the
//!    last one;
//! 4. a token in that range is a candidate if it is a target pronoun and is not aligned to any
//!    source pronoun (that one is taken);
//! 5. the candidate closest to the centre of the range wins, the leftmost of equally close ones
//!    (as in the reference, the middle token of an odd range ties with its two neighbours).
//!
//! The chosen position is *added* to the pronoun's links; existing links are kept, as APT does.
//! Every decision is taken on the original links, so repairs never depend on one another.
//!
//! Words are compared exactly: lowercase tokens (or not) before calling if case should not matter.
//! A target token counts as a pronoun when its last part after [`Options::part_separator`] is in
//! the list (`est-il` → `il`). Links that point outside the sentence are ignored.

use crate::model::alignment::Links;
use crate::scorers::apt::words::WordSet;

/// The words the heuristic treats as pronouns on each side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PronounLists {
    /// Source pronouns: which positions [`repair_links`] repairs, and which source tokens hold on
    /// to their target tokens so that no other pronoun takes them.
    pub source: WordSet,
    /// Target pronouns: what a source pronoun may be re-aligned to.
    pub target: WordSet,
}

impl PronounLists {
    pub fn new<S: Into<String>, T: Into<String>>(
        source: impl IntoIterator<Item = S>,
        target: impl IntoIterator<Item = T>,
    ) -> Self {
        PronounLists {
            source: source.into_iter().map(Into::into).collect(),
            target: target.into_iter().map(Into::into).collect(),
        }
    }

    pub fn is_source_pronoun(&self, token: &str) -> bool {
        self.source.contains(token)
    }

    /// Whether a target token is a pronoun: its last part after the separator is in the list.
    pub fn is_target_pronoun(&self, token: &str, options: &Options) -> bool {
        let last = match options.part_separator {
            Some(sep) => token.rsplit(sep).next().unwrap_or(token),
            None => token,
        };
        self.target.contains(last)
    }
}

/// How far the heuristic looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Target tokens added to the search range before the first and after the last anchor.
    pub window: u32,
    /// How many source tokens to look left and right for an aligned neighbour when the pronoun
    /// itself is unaligned. 0 leaves unaligned pronouns alone.
    pub neighbours: u32,
    /// Separator of composed target tokens, whose last part is the pronoun (`-` for `est-il`).
    pub part_separator: Option<char>,
}

impl Options {
    /// What APT's reference implementation does: two extra tokens each side, and unaligned
    /// pronouns left alone (its neighbour search is switched off by `max_neighbors = 1`, and the
    /// result for unaligned pronouns is discarded anyway).
    pub const APT: Options = Options { window: 2, neighbours: 0, part_separator: Some('-') };

    /// The procedure as the paper describes it (Table 1): markers from the words right before and
    /// after an unaligned pronoun, one extra token each side.
    pub const PAPER: Options = Options { window: 1, neighbours: 1, part_separator: Some('-') };
}

impl Default for Options {
    fn default() -> Self {
        Options::PAPER
    }
}

/// The links of one sentence with the heuristic applied to every source pronoun: each repaired
/// pronoun gains one link to its likely target pronoun. Sorted, without duplicates.
pub fn repair_links<S: AsRef<str>, T: AsRef<str>>(
    source: &[S],
    target: &[T],
    links: &[(u32, u32)],
    lists: &PronounLists,
    options: &Options,
) -> Links {
    let mut repaired = links.to_vec();
    for (position, token) in (0u32..).zip(source) {
        if lists.is_source_pronoun(token.as_ref())
            && let Some(t) = repair_position(source, target, links, position, lists, options)
        {
            repaired.push((position, t));
        }
    }
    repaired.sort_unstable();
    repaired.dedup();
    repaired
}

/// The target position the heuristic adds to the links of source position `position`, if the
/// pronoun there needs one and a likely target pronoun is found.
pub fn repair_position<S: AsRef<str>, T: AsRef<str>>(
    source: &[S],
    target: &[T],
    links: &[(u32, u32)],
    position: u32,
    lists: &PronounLists,
    options: &Options,
) -> Option<u32> {
    let aligned = targets_of(links, position);
    let pronoun_aligned =
        aligned.iter().any(|&t| target.get(t as usize).is_some_and(|w| lists.is_target_pronoun(w.as_ref(), options)));
    if pronoun_aligned {
        return None;
    }
    let anchors = if aligned.is_empty() { neighbour_anchors(links, position, source.len(), options) } else { aligned };
    search(source, target, links, &anchors, lists, options)
}

/// Steps 3–5: the likely target pronoun around the anchors, for callers that decide for
/// themselves whether a pronoun needs repair (APT decides on its normalised words).
pub fn search<S: AsRef<str>, T: AsRef<str>>(
    source: &[S],
    target: &[T],
    links: &[(u32, u32)],
    anchors: &[u32],
    lists: &PronounLists,
    options: &Options,
) -> Option<u32> {
    let (&first, &last) = (anchors.iter().min()?, anchors.iter().max()?);
    let end = (last.saturating_add(options.window) as usize).min(target.len().checked_sub(1)?);
    let start = first.saturating_sub(options.window) as usize;
    if start > end {
        return None;
    }
    let taken = |t: u32| {
        links
            .iter()
            .any(|&(s, tt)| tt == t && source.get(s as usize).is_some_and(|w| lists.is_source_pronoun(w.as_ref())))
    };
    let range_len = end - start + 1;
    (start..=end)
        .filter(|&t| lists.is_target_pronoun(target[t].as_ref(), options) && !taken(t as u32))
        .min_by_key(|&t| distance_from_centre(t - start, range_len))
        .map(|t| t as u32)
}

/// The reference's closeness weight of the `k`-th of `n` tokens: for an even range the two middle
/// tokens weigh 1; for an odd one the middle token *and its two neighbours* weigh 1 (so the
/// leftmost of those three wins a tie), and the weight grows by one per step outwards.
fn distance_from_centre(k: usize, n: usize) -> usize {
    let half = n / 2;
    if k < half {
        half - k
    } else if n % 2 == 1 {
        (k - half).max(1)
    } else {
        k - half + 1
    }
}

/// Target positions aligned to a source position, ascending.
fn targets_of(links: &[(u32, u32)], source: u32) -> Vec<u32> {
    let mut targets: Vec<u32> = links.iter().filter(|&&(s, _)| s == source).map(|&(_, t)| t).collect();
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// The target positions of the nearest aligned source token within `options.neighbours` on the
/// left, and of the nearest on the right (the paper's markers).
fn neighbour_anchors(links: &[(u32, u32)], position: u32, source_len: usize, options: &Options) -> Vec<u32> {
    let nearest = |steps: &mut dyn Iterator<Item = u32>| {
        steps.map(|s| targets_of(links, s)).find(|targets| !targets.is_empty()).unwrap_or_default()
    };
    let left = nearest(&mut (1..=options.neighbours).filter_map(|d| position.checked_sub(d)));
    let right = nearest(
        &mut (1..=options.neighbours).filter_map(|d| position.checked_add(d)).filter(|&s| (s as usize) < source_len),
    );
    let mut anchors = [left, right].concat();
    anchors.sort_unstable();
    anchors.dedup();
    anchors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::alignment::parse_line;

    fn words(sentence: &str) -> Vec<&str> {
        sentence.split(' ').collect()
    }

    fn french() -> PronounLists {
        PronounLists::new(["it", "they", "he", "she"], ["il", "elle", "ils", "elles", "l'", "ce", "c'", "le", "la"])
    }

    // Paper 000, Table 1.
    const TABLE1_EN: &str = "The system is so healthy that it purifies the water .";
    const TABLE1_FR: &str = "Le système est si sain qu' il purifie l' eau .";
    // Every word aligned except "it" (6): "that" → "qu'" (5), "purifies" → "purifie" (7).
    const TABLE1_LINKS: &str = "0-0 1-1 2-2 3-3 4-4 5-5 7-7 8-8 9-9 10-10";

    #[test]
    fn table_1_unaligned_it_finds_il_between_the_markers() {
        let (en, fr, links) = (words(TABLE1_EN), words(TABLE1_FR), parse_line(TABLE1_LINKS).unwrap());
        // Markers qu' (5) and purifie (7); range sain..l' (4..=8); candidates il (centre) and l'.
        assert_eq!(repair_position(&en, &fr, &links, 6, &french(), &Options::PAPER), Some(6));
        let repaired = repair_links(&en, &fr, &links, &french(), &Options::PAPER);
        assert_eq!(repaired.len(), links.len() + 1);
        assert!(repaired.contains(&(6, 6)));
    }

    #[test]
    fn apt_options_leave_unaligned_pronouns_alone() {
        let (en, fr, links) = (words(TABLE1_EN), words(TABLE1_FR), parse_line(TABLE1_LINKS).unwrap());
        assert_eq!(repair_position(&en, &fr, &links, 6, &french(), &Options::APT), None);
        assert_eq!(repair_links(&en, &fr, &links, &french(), &Options::APT), links);
    }

    #[test]
    fn pronoun_aligned_to_a_non_pronoun_is_realigned() {
        let (en, fr) = (words(TABLE1_EN), words(TABLE1_FR));
        // "it" aligned to "purifie" (7): range 5..=9 (APT window 2): qu' il purifie l' eau.
        let links = parse_line("0-0 1-1 2-2 3-3 4-4 5-5 6-7 7-7 8-8 9-9 10-10").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 6, &french(), &Options::APT), Some(6));
        let repaired = repair_links(&en, &fr, &links, &french(), &Options::APT);
        assert!(repaired.contains(&(6, 6)) && repaired.contains(&(6, 7)), "the old link is kept");
    }

    #[test]
    fn pronoun_already_aligned_to_a_pronoun_is_left_alone() {
        let (en, fr) = (words(TABLE1_EN), words(TABLE1_FR));
        let links = parse_line("6-6 6-7 8-8").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 6, &french(), &Options::PAPER), None);
        // The last part of a composed token counts: "est-il".
        let fr = words("pourquoi est-il parti");
        let en = words("why did he leave");
        let links = parse_line("0-0 2-1 3-2").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 2, &french(), &Options::PAPER), None);
    }

    #[test]
    fn target_pronouns_held_by_another_source_pronoun_are_not_taken() {
        let en = words("he said that it rains");
        let fr = words("il a dit qu' il pleut");
        // "he" holds il (0). "it" aligned to "pleut" (5): the range 3..=5 (clipped) holds il (4).
        let links = parse_line("0-0 1-1 2-2 2-3 3-5 4-5").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 3, &french(), &Options::APT), Some(4));
        // With "il" (4) held by "he" as well, nothing is left: the first il is outside the range.
        let links = parse_line("0-0 0-4 1-1 2-2 2-3 3-5 4-5").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 3, &french(), &Options::APT), None);
    }

    #[test]
    fn closest_to_the_centre_wins_and_ties_go_left() {
        // Anchor 3 with window 2: range 1..=5, weights 2 1 1 1 2.
        let fr = words("x il x x elle x");
        let en = words("a b c it d e");
        let links = parse_line("3-3").unwrap();
        // il (1) weighs 2, elle (4) weighs 1.
        assert_eq!(repair_position(&en, &fr, &links, 3, &french(), &Options::APT), Some(4));
        // The centre and its neighbours tie at 1 in an odd range: the leftmost (2) wins.
        let fr = words("x x il x elle x");
        assert_eq!(repair_position(&en, &fr, &links, 3, &french(), &Options::APT), Some(2));
        // An even range (clipped at the end): 2..=5 → weights 2 1 1 2.
        let fr = words("x x il elle x ils");
        let links = parse_line("3-4").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 3, &french(), &Options::APT), Some(3));
    }

    #[test]
    fn closeness_weights_match_the_reference() {
        let weights = |n| (0..n).map(|k| distance_from_centre(k, n)).collect::<Vec<_>>();
        assert_eq!(weights(1), [1]);
        assert_eq!(weights(4), [2, 1, 1, 2]);
        assert_eq!(weights(5), [2, 1, 1, 1, 2]);
        assert_eq!(weights(7), [3, 2, 1, 1, 1, 2, 3]);
    }

    #[test]
    fn neighbours_further_away_are_used_when_allowed() {
        let en = words("a b it c d");
        let fr = words("A B il C D");
        // Only "a" (0) and "d" (4) are aligned: one step is not enough, two are.
        let links = parse_line("0-0 4-4").unwrap();
        let one = Options { window: 0, neighbours: 1, part_separator: None };
        assert_eq!(repair_position(&en, &fr, &links, 2, &french(), &one), None);
        let two = Options { window: 0, neighbours: 2, ..one };
        assert_eq!(repair_position(&en, &fr, &links, 2, &french(), &two), Some(2));
        // At the start of the sentence only the right neighbour counts.
        let links = parse_line("1-1").unwrap();
        let en = words("it b");
        let fr = words("il B");
        let options = Options { window: 1, neighbours: 1, part_separator: None };
        assert_eq!(repair_position(&en, &fr, &links, 0, &french(), &options), Some(0));
    }

    #[test]
    fn matching_is_exact_and_case_sensitive() {
        let en = words("It rains");
        let fr = words("Il pleut");
        let links = parse_line("0-1 1-1").unwrap();
        // "Il" is not "il": nothing to find; and "It" is not a source pronoun for repair_links.
        assert_eq!(repair_position(&en, &fr, &links, 0, &french(), &Options::APT), None);
        let fr = words("il pleut");
        assert_eq!(repair_links(&en, &fr, &links, &french(), &Options::APT), links);
        assert_eq!(repair_position(&en, &fr, &links, 0, &french(), &Options::APT), Some(0));
    }

    #[test]
    fn links_outside_the_sentence_and_empty_targets_do_not_panic() {
        let en = words("it rains");
        let fr = words("il pleut");
        // The only anchor is past the end, so is the whole range.
        assert_eq!(repair_position(&en, &fr, &parse_line("0-9").unwrap(), 0, &french(), &Options::APT), None);
        // il is linked to a source token that does not exist: it is not taken.
        let links = parse_line("0-1 5-0").unwrap();
        assert_eq!(repair_position(&en, &fr, &links, 0, &french(), &Options::APT), Some(0));
        let empty: [&str; 0] = [];
        assert_eq!(search(&en, &empty, &links, &[0], &french(), &Options::APT), None);
        assert_eq!(search(&en, &fr, &links, &[], &french(), &Options::APT), None);
    }
}
