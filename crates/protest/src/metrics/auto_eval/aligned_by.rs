//! How the words of the matches were aligned: what a match rests on is the alignment of the
//! pronoun and of the antecedent heads, and a link carried through the reference, one the
//! built-in bilingual aligner guessed and one given with the corpus are not equally sure
//! (docs/alignment.md, "Aligning through the reference"; `model::link_origin`).

use crate::model::{Candidate, CorpusId, CorpusRole, LinkOrigin, Master};
use serde::Serialize;

/// Where the least sure link a match rests on came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlignedBy {
    /// Every link given with the corpus (imported, or an alignment file: by hand or an external
    /// aligner), or of a corpus that records no origins.
    Given,
    /// Carried over through another translation's alignment, none guessed.
    Bridge,
    /// At least one link guessed by the built-in bilingual aligner or its pronoun repair.
    Aligner,
}

impl AlignedBy {
    pub const ALL: [AlignedBy; 3] = [AlignedBy::Bridge, AlignedBy::Aligner, AlignedBy::Given];

    pub fn name(self) -> &'static str {
        match self {
            AlignedBy::Given => "given",
            AlignedBy::Bridge => "bridge",
            AlignedBy::Aligner => "aligner",
        }
    }

    fn of(origin: LinkOrigin) -> AlignedBy {
        match origin {
            LinkOrigin::Given => AlignedBy::Given,
            LinkOrigin::Bridge => AlignedBy::Bridge,
            LinkOrigin::Aligner | LinkOrigin::Repair => AlignedBy::Aligner,
        }
    }
}

/// How the words the match compared were aligned for a matched candidate: by the least sure
/// link of its pronoun and, in an anaphoric example, of its antecedent heads. `None` when the
/// latest round did not match it.
pub fn aligned_by(master: &Master, candidate: &Candidate) -> Option<AlignedBy> {
    if !master.auto_eval.matched(candidate.id) {
        return None;
    }
    let anaphoric = master.example_of(candidate).is_some_and(|(_, category)| category.anaphoric);
    let links = master.candidate_links(candidate)?;
    Some(links.least_sure(anaphoric).map_or(AlignedBy::Given, AlignedBy::of))
}

/// One MT system's matches by how they were aligned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SystemMatches {
    pub system: String,
    #[serde(skip)]
    pub corpus: CorpusId,
    pub bridge: u32,
    pub aligner: u32,
    pub given: u32,
}

impl SystemMatches {
    pub fn count(&self, by: AlignedBy) -> u32 {
        match by {
            AlignedBy::Given => self.given,
            AlignedBy::Bridge => self.bridge,
            AlignedBy::Aligner => self.aligner,
        }
    }
}

/// Per MT system, in master order: its matches in the latest round by [`AlignedBy`].
pub fn per_system(master: &Master) -> Vec<SystemMatches> {
    let systems = master.corpora.iter().filter(|c| c.role == CorpusRole::System);
    systems
        .map(|corpus| {
            let mut counts =
                SystemMatches { system: corpus.name.clone(), corpus: corpus.id, bridge: 0, aligner: 0, given: 0 };
            for candidate in master.candidates.iter().filter(|c| c.corpus == corpus.id) {
                match aligned_by(master, candidate) {
                    Some(AlignedBy::Given) => counts.given += 1,
                    Some(AlignedBy::Bridge) => counts.bridge += 1,
                    Some(AlignedBy::Aligner) => counts.aligner += 1,
                    None => {}
                }
            }
            counts
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::link_origin::OriginLinks;
    use crate::model::{CandidateId, LinkOrigins};

    #[test]
    fn a_match_counts_by_its_least_sure_link() {
        // The tiny fixture: candidate 4 (example 2, "Il pleut", pleonastic) and 2 (example 1,
        // anaphoric: "Elle" and "bicyclette") of the MT system; candidate 4 matches the reference.
        let mut m = crate::testing::tiny();
        m.auto_eval = crate::metrics::auto_eval::run(&m, m.created);
        let mt = m.corpora.iter().position(|c| c.name == "mt").unwrap();
        let candidate = |m: &Master, id| m.candidate(CandidateId(id)).unwrap().clone();
        assert_eq!(aligned_by(&m, &candidate(&m, 4)), Some(AlignedBy::Given), "no origins recorded: given");
        assert_eq!(aligned_by(&m, &candidate(&m, 2)), None, "not matched");
        // Record origins: sentence 2's links through the bridge, the others guessed.
        let alignment = m.corpora[mt].alignment.clone().unwrap();
        let sentences: Vec<OriginLinks> = (0..alignment.len() as u32)
            .map(|s| {
                let origin = if s == 2 { LinkOrigin::Bridge } else { LinkOrigin::Aligner };
                let bridge = (s == 2).then_some(CorpusId(1));
                OriginLinks { links: alignment.sentence(s).iter().map(|&l| (l, origin)).collect(), bridge }
            })
            .collect();
        let (rebuilt, origins) = LinkOrigins::build(sentences);
        assert_eq!(rebuilt, alignment);
        m.corpora[mt].link_origins = Some(origins);
        assert_eq!(aligned_by(&m, &candidate(&m, 4)), Some(AlignedBy::Bridge));
        let counts = per_system(&m);
        assert_eq!((counts[0].system.as_str(), counts[0].bridge, counts[0].aligner, counts[0].given), ("mt", 1, 0, 0));
        let guessed: Vec<OriginLinks> = (0..alignment.len() as u32)
            .map(|s| OriginLinks {
                links: alignment.sentence(s).iter().map(|&l| (l, LinkOrigin::Repair)).collect(),
                bridge: None,
            })
            .collect();
        m.corpora[mt].link_origins = Some(LinkOrigins::build(guessed).1);
        assert_eq!(aligned_by(&m, &candidate(&m, 4)), Some(AlignedBy::Aligner));
        m.corpora[mt].link_origins = None;
        assert_eq!(per_system(&m)[0].given, 1);
    }
}
