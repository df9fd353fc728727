//! APT over a master: each translation's candidate against the reference's candidate of the same
//! example, per system and per category (paper 003 Table 1).
//!
//! A candidate's words are its aligned pronoun tokens ([`Candidate::pronoun`]), lowercased; no
//! aligned token means no translation. There is no target pronoun list, so every aligned word
//! (and every word of the preset) is a category, and the preset's groups decide identical and
//! equivalent pronouns. The alignment
//! heuristic is not applied: a master stores the aligned tokens of each candidate, not whole
//! alignments (repair them when building the master, with [`crate::metrics::apt::pronoun_repair`]).

use super::case::{Case, Tally};
use super::rules::{Categories, Rules};
use super::words::lower;
use crate::model::{Candidate, CandidateId, CorpusId, CorpusRole, ExampleNo, Master};
use std::collections::{HashMap, HashSet};

/// Identical and equivalent pronoun groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    pub name: String,
    pub equal: Vec<Vec<String>>,
    pub similar: Vec<Vec<String>>,
}

impl Preset {
    /// Paper 000 Table 2: identical {ce, c'} and {ça, ç', cela}; equivalent {ce, il} and {ce, ça}.
    pub fn french() -> Self {
        let groups = |gs: &[&[&str]]| gs.iter().map(|g| g.iter().map(|w| w.to_string()).collect()).collect();
        Preset {
            name: "French".into(),
            equal: groups(&[&["ce", "c'"], &["ça", "ç'", "cela"]]),
            similar: groups(&[&["ce", "il"], &["ce", "ça"]]),
        }
    }

    /// The preset for a master's target language (`Languages::target`): French for `fr`. No
    /// other is known; without groups, only the same word is identical and nothing equivalent.
    pub fn for_language(code: &str) -> Self {
        if code.eq_ignore_ascii_case("fr") {
            return Preset::french();
        }
        Preset { name: format!("no preset for target language '{code}'"), equal: Vec::new(), similar: Vec::new() }
    }

    /// The groups in words: `identical {ce, c'} and {ça, ç', cela}; equivalent {ce, il}`.
    pub fn describe(&self) -> String {
        let groups = |gs: &[Vec<String>]| {
            let sets: Vec<String> = gs.iter().map(|g| format!("{{{}}}", g.join(", "))).collect();
            if sets.is_empty() { "none".to_owned() } else { sets.join(" and ") }
        };
        format!("identical {}; equivalent {}", groups(&self.equal), groups(&self.similar))
    }
}

/// One candidate's APT case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CandidateCase {
    pub candidate: CandidateId,
    pub example: ExampleNo,
    pub corpus: CorpusId,
    pub case: Case,
    /// The position of its category in [`MasterApt::categories`] (set by [`evaluate_master`]).
    pub category: Option<usize>,
}

/// One translation corpus's findings, overall and per category (in [`MasterApt::categories`]
/// order).
#[derive(Debug, Clone, PartialEq)]
pub struct SystemApt {
    pub corpus: CorpusId,
    pub name: String,
    pub role: CorpusRole,
    pub total: Tally,
    pub by_category: Vec<Tally>,
}

/// APT of every translation of a master.
#[derive(Debug, Clone, PartialEq)]
pub struct MasterApt {
    pub preset: Preset,
    /// Category names (the master's order, those with examples).
    pub categories: Vec<String>,
    /// Every translation corpus (the reference too, which scores 1 where it has a translation).
    pub systems: Vec<SystemApt>,
    /// The case of every candidate.
    pub cases: Vec<CandidateCase>,
}

/// The case of every candidate of the master's translations, in the order of
/// `master.candidates`; categories are left for [`evaluate_master`].
fn candidate_cases(master: &Master, preset: &Preset) -> Vec<CandidateCase> {
    let words = |c: &Candidate| -> Option<Vec<String>> {
        let corpus = master.corpus(c.corpus)?;
        let words: Vec<String> = c.pronoun.iter().filter_map(|&t| corpus.token(t)).map(lower).collect();
        (!words.is_empty()).then_some(words)
    };
    let translated: Vec<(&Candidate, Option<Vec<String>>)> = master.candidates.iter().map(|c| (c, words(c))).collect();
    let reference_id = master.reference().map(|r| r.id);
    let reference: HashMap<ExampleNo, &Option<Vec<String>>> =
        translated.iter().filter(|(c, _)| Some(c.corpus) == reference_id).map(|(c, w)| (c.example, w)).collect();
    // The preset's own words are categories too, so that its groups apply whatever words the
    // master happens to contain (the reference tool drops group members it never saw aligned).
    let preset_words = preset.equal.iter().chain(&preset.similar).flatten().cloned();
    let aligned_words = translated.iter().flat_map(|(_, w)| w.iter().flatten().cloned());
    let categories = Categories::from_words(preset_words.chain(aligned_words));
    let rules = Rules::new(categories, &preset.equal, &preset.similar, false);
    translated
        .iter()
        .map(|(c, words)| {
            let reference = reference.get(&c.example).and_then(|w| w.as_deref());
            let case = rules.judge(reference, words.as_deref()).case;
            CandidateCase { candidate: c.id, example: c.example, corpus: c.corpus, case, category: None }
        })
        .collect()
}

/// APT per system and category.
pub fn evaluate_master(master: &Master, preset: &Preset) -> MasterApt {
    let mut cases = candidate_cases(master, preset);
    let used: HashSet<&str> = master.examples.iter().map(|e| e.category.as_str()).collect();
    // The position in `categories` of each of the master's categories, if it has examples.
    let mut row = Vec::with_capacity(master.categories.len());
    let mut categories = Vec::new();
    for category in &master.categories {
        let with_examples = used.contains(category.name.as_str());
        row.push(with_examples.then_some(categories.len()));
        if with_examples {
            categories.push(category.name.clone());
        }
    }
    for (found, candidate) in cases.iter_mut().zip(&master.candidates) {
        found.category = master.category_position(candidate).and_then(|i| row[i]);
    }
    let mut systems: Vec<SystemApt> = master
        .translations()
        .map(|c| SystemApt {
            corpus: c.id,
            name: c.name.clone(),
            role: c.role,
            total: Tally::default(),
            by_category: vec![Tally::default(); categories.len()],
        })
        .collect();
    for found in &cases {
        let Some(system) = systems.iter_mut().find(|s| s.corpus == found.corpus) else { continue };
        system.total.add(found.case);
        if let Some(i) = found.category {
            system.by_category[i].add(found.case);
        }
    }
    MasterApt { preset: preset.clone(), categories, systems, cases }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::apt::Weighting;
    use crate::testing::bare_tiny as tiny;

    fn case_of(apt: &MasterApt, candidate: u32) -> Case {
        apt.cases.iter().find(|c| c.candidate == CandidateId(candidate)).unwrap().case
    }

    #[test]
    fn each_candidate_against_the_reference_candidate() {
        let master = tiny();
        let apt = evaluate_master(&master, &Preset::french());
        // Candidates 1, 3, 5 are the reference's own; 2, 4, 6 the MT system's.
        assert_eq!([1, 3, 5].map(|c| case_of(&apt, c)), [Case::Identical; 3]);
        assert_eq!([2, 4, 6].map(|c| case_of(&apt, c)), [Case::Different, Case::Identical, Case::Different]);
        let mt = apt.systems.iter().find(|s| s.name == "mt").unwrap();
        assert_eq!((mt.total.get(Case::Identical), mt.total.get(Case::Different)), (1, 2));
        assert_eq!(mt.total.score(&Weighting::apt_a()), 1.0 / 3.0);
        assert_eq!(apt.categories, ["anaphoric_inter_subject_it", "pleonastic_it", "addressee_deictic_singular_you"]);
        assert_eq!(mt.by_category.iter().map(|t| t.get(Case::Identical)).collect::<Vec<_>>(), [0, 1, 0]);
    }

    #[test]
    fn preset_groups_and_missing_translations() {
        let mut master = tiny();
        // MT: "C' est la pluie ." — c' is ce, equivalent to the reference's il.
        master.corpora[2].sentences[2] = "C' est la pluie .".into();
        // The MT's "you" left untranslated, the reference's "it" of example 1 too.
        master.candidates[5].pronoun.clear();
        master.candidates[0].pronoun.clear();
        master.reindex();
        let apt = evaluate_master(&master, &Preset::french());
        assert_eq!(case_of(&apt, 4), Case::Equivalent);
        assert_eq!(case_of(&apt, 6), Case::NoCandidate);
        assert_eq!((case_of(&apt, 1), case_of(&apt, 2)), (Case::Neither, Case::NoReference));
        let mt = apt.systems.iter().find(|s| s.name == "mt").unwrap();
        // APT-A: 0 of 3; APT-B: 0.5 of 3.
        assert_eq!((mt.total.score(&Weighting::apt_a()), mt.total.score(&Weighting::apt_b())), (0.0, 0.5 / 3.0));
        assert_eq!(Case::ALL.map(|c| mt.total.get(c)), [0, 1, 0, 1, 1, 0]);
    }

    #[test]
    fn presets_by_target_language() {
        assert_eq!(Preset::for_language("fr"), Preset::french());
        assert_eq!(
            Preset::french().describe(),
            "identical {ce, c'} and {ça, ç', cela}; equivalent {ce, il} and {ce, ça}"
        );
        let german = Preset::for_language("de");
        assert_eq!(german.describe(), "identical none; equivalent none");
        // Without groups, "ce" and "c'" are different pronouns.
        let mut master = tiny();
        master.corpora[2].sentences[2] = "C' est la pluie .".into();
        master.corpora[1].sentences[2] = "Ce est la pluie .".into();
        master.reindex();
        assert_eq!(case_of(&evaluate_master(&master, &Preset::french()), 4), Case::Identical);
        assert_eq!(case_of(&evaluate_master(&master, &german), 4), Case::Different);
    }
}
