//! Symmetrisation of two one-directional alignments with grow-diag-final-and (Koehn et al.
//! 2005, as in Moses and fast_align's `atools`): start from the links both directions agree on,
//! grow into neighbouring links (diagonals included) that either direction proposes while they
//! link a so far unaligned word, then add the remaining links of each direction that join two
//! unaligned words.

use crate::model::alignment::Links;

/// Neighbours in the order Moses tries them: the four sides, then the four diagonals.
const NEIGHBOURS: [(isize, isize); 8] = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)];

/// A set of links of one sentence pair as a source × target grid.
struct Grid {
    targets: usize,
    cells: Vec<bool>,
}

impl Grid {
    fn new(sources: usize, targets: usize, links: &[(u32, u32)]) -> Grid {
        let mut grid = Grid { targets, cells: vec![false; sources * targets] };
        for &(s, t) in links {
            grid.set(s as usize, t as usize);
        }
        grid
    }

    fn get(&self, s: usize, t: usize) -> bool {
        self.cells[s * self.targets + t]
    }

    fn set(&mut self, s: usize, t: usize) {
        self.cells[s * self.targets + t] = true;
    }
}

/// The symmetric alignment being built, with which words it aligns so far.
struct Growing {
    links: Grid,
    source_aligned: Vec<bool>,
    target_aligned: Vec<bool>,
}

impl Growing {
    fn add(&mut self, s: usize, t: usize) {
        self.links.set(s, t);
        self.source_aligned[s] = true;
        self.target_aligned[t] = true;
    }

    /// A link that would align at least one word that is not aligned yet.
    fn reaches_unaligned(&self, s: usize, t: usize) -> bool {
        !self.source_aligned[s] || !self.target_aligned[t]
    }

    /// A link that would join two words that are not aligned yet.
    fn joins_unaligned(&self, s: usize, t: usize) -> bool {
        !self.source_aligned[s] && !self.target_aligned[t]
    }
}

/// grow-diag-final-and of the source→target (`forward`) and target→source (`backward`) links of
/// one sentence pair, both given as (source, target) pairs. Links outside the sentence lengths
/// are ignored.
pub fn grow_diag_final_and(sources: usize, targets: usize, forward: &[(u32, u32)], backward: &[(u32, u32)]) -> Links {
    let inside = |&&(s, t): &&(u32, u32)| (s as usize) < sources && (t as usize) < targets;
    let forward: Vec<_> = forward.iter().filter(inside).copied().collect();
    let backward: Vec<_> = backward.iter().filter(inside).copied().collect();
    let fwd = Grid::new(sources, targets, &forward);
    let bwd = Grid::new(sources, targets, &backward);

    let mut a = Growing {
        links: Grid::new(sources, targets, &[]),
        source_aligned: vec![false; sources],
        target_aligned: vec![false; targets],
    };
    for &(s, t) in &forward {
        if bwd.get(s as usize, t as usize) {
            a.add(s as usize, t as usize);
        }
    }

    // grow-diag
    loop {
        let mut grew = false;
        for s in 0..sources {
            for t in 0..targets {
                if !a.links.get(s, t) {
                    continue;
                }
                for (ds, dt) in NEIGHBOURS {
                    let (Some(ns), Some(nt)) = (s.checked_add_signed(ds), t.checked_add_signed(dt)) else { continue };
                    if ns >= sources || nt >= targets {
                        continue;
                    }
                    let in_union = fwd.get(ns, nt) || bwd.get(ns, nt);
                    if in_union && !a.links.get(ns, nt) && a.reaches_unaligned(ns, nt) {
                        a.add(ns, nt);
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }

    // final-and, forward then backward
    for direction in [&fwd, &bwd] {
        for s in 0..sources {
            for t in 0..targets {
                if direction.get(s, t) && a.joins_unaligned(s, t) {
                    a.add(s, t);
                }
            }
        }
    }

    let mut out = Vec::new();
    for s in 0..sources {
        for t in 0..targets {
            if a.links.get(s, t) {
                out.push((s as u32, t as u32));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_is_kept() {
        let links = [(0, 0), (1, 1)];
        assert_eq!(grow_diag_final_and(2, 2, &links, &links), vec![(0, 0), (1, 1)]);
    }

    #[test]
    fn grows_along_the_diagonal_into_unaligned_words() {
        // Intersection {0-0}; the union also has 1-1 (diagonal neighbour of 0-0, both words
        // unaligned) and 1-2 (neighbour of 1-1; target 2 unaligned).
        let forward = [(0, 0), (1, 1)];
        let backward = [(0, 0), (1, 2)];
        assert_eq!(grow_diag_final_and(2, 3, &forward, &backward), vec![(0, 0), (1, 1), (1, 2)]);
    }

    #[test]
    fn does_not_grow_between_aligned_words() {
        // 0-1 is in the union and next to 0-0, but both source 0 and target 1 are aligned.
        let forward = [(0, 0), (1, 1), (0, 1)];
        let backward = [(0, 0), (1, 1)];
        assert_eq!(grow_diag_final_and(2, 2, &forward, &backward), vec![(0, 0), (1, 1)]);
    }

    #[test]
    fn final_and_adds_isolated_links_only_between_unaligned_words() {
        // 2-3 is far from the intersection but joins two unaligned words: added.
        // 2-0 is too (only in backward), but target 0 is aligned: not added.
        let forward = [(0, 0), (2, 3)];
        let backward = [(0, 0), (2, 0)];
        assert_eq!(grow_diag_final_and(3, 4, &forward, &backward), vec![(0, 0), (2, 3)]);
    }

    #[test]
    fn links_outside_the_sentence_are_ignored() {
        assert_eq!(grow_diag_final_and(1, 1, &[(0, 0), (3, 0)], &[(0, 0), (0, 9)]), vec![(0, 0)]);
        assert_eq!(grow_diag_final_and(0, 0, &[], &[]), vec![]);
    }
}
