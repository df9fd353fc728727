//! APT over a master: each translation's candidate against the reference's candidate of the same
//! example, per system and per category (paper 003 Table 1), with the semantics of `protest apt`
//! run with the target language's preset (docs/metrics.md, "APT over a master").
//!
//! A candidate's translation is read exactly as [`super::instances::translation`] reads it from
//! parallel files: its aligned tokens, lowercased, reduced to the preset's target pronouns
//! (`OTHER` when none is one), then the alignment correction where the corpus has its whole
//! alignment (imported masters, added systems). A converted old file has only each candidate's
//! aligned tokens: those are reduced by the list, and the correction is left out (and said so).
//! [`write_config`] writes the equivalent `protest apt` configuration. Without a preset for the
//! target language, every aligned word is a category and there is no correction.

use super::case::{Case, Tally, Weighting};
use super::instances::{self, Reading, Target, Translation};
use super::pronoun_repair::PronounLists;
use super::rules::{Categories, Rules};
use super::words;
use crate::error::{Error, Result};
use crate::model::alignment::{self, Links};
use crate::model::pronouns::{ENGLISH_ADDRESSEE, ENGLISH_THIRD_PERSON, Pronouns};
use crate::model::{Candidate, CandidateId, Corpus, CorpusId, CorpusRole, ExampleNo, Language, Master};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What APT compares translations by: a target pronoun list, identical and equivalent pronoun
/// groups, and the alignment correction's lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    pub name: String,
    /// Target pronouns: other aligned words count as `OTHER`. `None`: every aligned word is a
    /// category of its own.
    pub target_list: Option<Vec<String>>,
    pub equal: Vec<Vec<String>>,
    pub similar: Vec<Vec<String>>,
    /// The alignment heuristic's source and target pronouns, in the preset's order; `None`
    /// switches it off.
    pub heuristic: Option<(Vec<String>, Vec<String>)>,
}

impl Preset {
    /// French ([`crate::model::pronouns::FRENCH`]): the 24 pronoun forms as target list; groups
    /// of paper 000 Table 2, identical {ce, c'} and {ça, ç', cela}, equivalent {ce, il} and
    /// {ce, ça}; the correction re-aligns `it`, `they`, `he`, `she`, `you` to subject and
    /// addressee forms (not to object clitics, which are also articles).
    pub fn french() -> Self {
        Preset::of(&crate::model::pronouns::FRENCH)
    }

    fn of(p: &Pronouns) -> Self {
        let groups = |gs: &[&[&str]]| gs.iter().map(|g| g.iter().map(|w| w.to_string()).collect()).collect();
        let source = ENGLISH_THIRD_PERSON.iter().chain(ENGLISH_ADDRESSEE).copied();
        Preset {
            name: p.name.into(),
            target_list: Some(p.forms().map(String::from).collect()),
            equal: groups(p.equal),
            similar: groups(p.similar),
            heuristic: Some((source.map(String::from).collect(), p.repair_targets().map(String::from).collect())),
        }
    }

    /// The preset for a master's target language (`Languages::target`: `fr`, `fr-FR`, …).
    /// Without one, only the same word is identical, nothing is equivalent and nothing corrected.
    pub fn for_language(code: &str) -> Self {
        match Language::from_code(code).pronouns() {
            Some(p) => Preset::of(p),
            None => Preset {
                name: format!("no preset for target language '{code}'"),
                target_list: None,
                equal: Vec::new(),
                similar: Vec::new(),
                heuristic: None,
            },
        }
    }

    /// The groups in words: `identical {ce, c'} and {ça, ç', cela}; equivalent {ce, il}`.
    pub fn describe(&self) -> String {
        let groups = |gs: &[Vec<String>]| {
            let sets: Vec<String> = gs.iter().map(|g| format!("{{{}}}", g.join(", "))).collect();
            if sets.is_empty() { "none".to_owned() } else { sets.join(" and ") }
        };
        format!("identical {}; equivalent {}", groups(&self.equal), groups(&self.similar))
    }

    /// The lists in words, for the notes of the APT tables.
    pub fn describe_lists(&self) -> String {
        let target = match &self.target_list {
            Some(list) => format!("target pronouns {}", list.join(" ")),
            None => "no target pronoun list (every aligned word is compared)".to_owned(),
        };
        let correction = match &self.heuristic {
            Some((source, target)) => {
                format!("alignment correction of {} to {}", source.join(" "), target.join(" "))
            }
            None => "no alignment correction".to_owned(),
        };
        format!("{target}; {correction}")
    }

    fn reading(&self, corrected: bool) -> Reading {
        Reading {
            target_list: self.target_list.as_ref().map(|l| l.iter().cloned().collect()),
            source_separator: None,
            target_separator: Some("-".into()),
            heuristic: self
                .heuristic
                .as_ref()
                .filter(|_| corrected)
                .map(|(source, target)| PronounLists::new(source.iter().cloned(), target.iter().cloned())),
        }
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
    /// Whether the alignment correction could run: the corpus has its whole alignment (not
    /// only each candidate's aligned tokens, as converted old files do).
    pub corrected: bool,
    pub total: Tally,
    pub by_category: Vec<Tally>,
}

impl SystemApt {
    /// APT of this translation under `weighting`, from `tally` (its total or a category's; NaN
    /// where nothing is scored). The reference, set against itself, is case 1 wherever it has a
    /// translation and case 6 where it leaves the pronoun out — a choice of the translator, not an
    /// error — so it is scored over the pronouns it translates: 1 by definition, as in paper 003
    /// Table 1 (docs/metrics.md, "APT over a master").
    pub fn score(&self, tally: &Tally, weighting: &Weighting) -> f64 {
        match self.role {
            CorpusRole::Reference => tally.without(Case::Neither).score(weighting),
            _ => tally.score(weighting),
        }
    }
}

/// APT of every translation of a master.
#[derive(Debug, Clone, PartialEq)]
pub struct MasterApt {
    pub preset: Preset,
    /// Category names (the master's order, those with examples).
    pub categories: Vec<String>,
    /// Every translation corpus (the reference too, which scores 1 by definition where it has a
    /// translation).
    pub systems: Vec<SystemApt>,
    /// The case of every candidate.
    pub cases: Vec<CandidateCase>,
}

/// A candidate's translation as APT reads it (see the module documentation).
fn translation(master: &Master, corpus: &Corpus, candidate: &Candidate, readings: &Readings) -> Option<Translation> {
    let example = master.example(candidate.example)?;
    let (sentence, position) = (example.sentence, example.token);
    // The candidate's own aligned tokens stand for the pronoun's links (on a valid master they
    // are the alignment's); the rest of the sentence's links, where stored, guide the correction.
    let mut links: Links = match &corpus.alignment {
        Some(a) => a.sentence(sentence).iter().copied().filter(|&(s, _)| s != position).collect(),
        None => Vec::new(),
    };
    links.extend(candidate.pronoun.iter().filter(|t| t.sentence == sentence).map(|t| (position, t.token)));
    links.sort_unstable();
    let text = corpus.sentence(sentence)?;
    let target = Target { raw: words::tokens(text).collect() };
    let source_text = master.source().and_then(|s| s.sentence(sentence)).unwrap_or_default();
    let source: Vec<&str> = words::tokens(source_text).collect();
    let reading = &readings[usize::from(corpus.alignment.is_some())];
    // Links past the end of a sentence do not pass validation; here they mean no translation.
    instances::translation(&links, &target, &source, position, reading).ok().flatten()
}

/// The preset's reading of a translation without its whole alignment, and with it: made once,
/// not per candidate (the correction's pronoun lists are sets built from the preset's).
type Readings = [Reading; 2];

/// The case of every candidate of the master's translations, in the order of
/// `master.candidates`; categories are left for [`evaluate_master`].
fn candidate_cases(master: &Master, preset: &Preset) -> Vec<CandidateCase> {
    use rayon::prelude::*;
    let readings: Readings = [preset.reading(false), preset.reading(true)];
    let words = |c: &Candidate| -> Option<Vec<String>> {
        let corpus = master.corpus(c.corpus)?;
        Some(translation(master, corpus, c, &readings)?.words)
    };
    crate::progress::stage("Reading the candidates' translations", Some(master.candidates.len() as u64));
    let progress = crate::progress::current();
    // Each candidate on its own, on both cores when the other is free; in candidate order.
    let translated: Vec<(&Candidate, Option<Vec<String>>)> = master
        .candidates
        .par_iter()
        .with_min_len(1024)
        .map(|c| {
            if let Some(p) = &progress {
                p.advance(1);
            }
            (c, words(c))
        })
        .collect();
    let reference_id = master.reference().map(|r| r.id);
    let reference: HashMap<ExampleNo, &Option<Vec<String>>> =
        translated.iter().filter(|(c, _)| Some(c.corpus) == reference_id).map(|(c, w)| (c.example, w)).collect();
    let categories = match &preset.target_list {
        Some(list) => Categories::from_list(list.iter().cloned()),
        None => {
            // The preset's own words are categories too, so that its groups apply whatever words
            // the master happens to contain (the reference tool drops group members it never saw).
            let preset_words = preset.equal.iter().chain(&preset.similar).flatten().cloned();
            let aligned_words = translated.iter().flat_map(|(_, w)| w.iter().flatten().cloned());
            Categories::from_words(preset_words.chain(aligned_words))
        }
    };
    let rules = Rules::new(categories, &preset.equal, &preset.similar, false);
    translated
        .iter()
        .map(|(c, words)| {
            let case = if Some(c.corpus) == reference_id {
                // The reference is right by definition where it has a translation (paper 003
                // Table 1 prints it as 1.000): compared with itself, a translation holding no
                // listed pronoun would be OTHER against OTHER, case 3.
                if words.is_some() { Case::Identical } else { Case::Neither }
            } else {
                let reference = reference.get(&c.example).and_then(|w| w.as_deref());
                rules.judge(reference, words.as_deref()).case
            };
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
            corrected: c.alignment.is_some() && preset.heuristic.is_some(),
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

/// A `protest apt` configuration in a folder: its files' paths and texts.
#[derive(Debug)]
pub struct ConfigFiles {
    /// The configuration, `NAME.ini`, whose output stem is `NAME`; one of `files`.
    pub ini: PathBuf,
    pub files: Vec<(PathBuf, String)>,
}

/// The files of a `protest apt` configuration in `dir` equivalent to APT over the master for
/// the translation `corpus` (docs/metrics.md, "APT over a master"): the source, reference and
/// translation as text files with their alignments, the examples' positions (instance *i* of
/// the run is example *i* of the master), and the preset's lists and groups.
/// [`crate::workflow::metrics::apt_config`] writes them, all or none.
///
/// Needs the whole alignment of the reference and of `corpus` (not a converted old file).
pub fn config_files(master: &Master, corpus: CorpusId, dir: &Path) -> Result<ConfigFiles> {
    let problem = |what: String| Error::refused(dir, format!("no APT configuration written: {what}"));
    let (Some(source), Some(reference)) = (master.source(), master.reference()) else {
        return Err(problem("the master needs a source and a reference translation".into()));
    };
    let translation = master
        .corpus(corpus)
        .filter(|c| c.role == CorpusRole::System)
        .ok_or_else(|| problem(format!("corpus {corpus} is not a translation of the master")))?;
    fn whole(c: &Corpus, problem: impl Fn(String) -> Error) -> Result<&alignment::Alignment> {
        c.alignment.as_ref().ok_or_else(|| {
            problem(format!(
                "'{}' has only each candidate's aligned tokens (a converted file), not its whole alignment",
                c.name
            ))
        })
    }
    let (reference_links, links) = (whole(reference, problem)?, whole(translation, problem)?);
    let preset = Preset::for_language(&master.languages.target);
    let stem: String =
        translation.name.chars().map(|c| if c.is_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let stem = if stem == "reference" || stem == "source" { format!("{stem}-system") } else { stem };
    let lines = |items: &mut dyn Iterator<Item = String>| items.map(|l| l + "\n").collect::<String>();
    let sentences = |c: &Corpus| lines(&mut c.sentences.iter().cloned());
    let aligned = |a: &alignment::Alignment| {
        lines(&mut (0..source.sentences.len() as u32).map(|i| alignment::format_line(a.sentence(i))))
    };
    let list = |words: &mut dyn Iterator<Item = &str>| lines(&mut words.map(String::from));
    let groups = |gs: &[Vec<String>]| lines(&mut gs.iter().map(|g| g.join(",")));
    let (heuristic_source, heuristic_target) = match &preset.heuristic {
        Some((source, target)) => (lines(&mut source.iter().cloned()), lines(&mut target.iter().cloned())),
        None => (String::new(), String::new()),
    };
    let mut files = vec![
        ("source.txt".to_owned(), sentences(source)),
        ("reference.txt".to_owned(), sentences(reference)),
        ("reference.alig".to_owned(), aligned(reference_links)),
        (format!("{stem}.txt"), sentences(translation)),
        (format!("{stem}.alig"), aligned(links)),
        ("positions.txt".to_owned(), lines(&mut master.examples.iter().map(|e| format!("{} {}", e.sentence, e.token)))),
        ("equal.groups".to_owned(), groups(&preset.equal)),
        ("similar.groups".to_owned(), groups(&preset.similar)),
        ("heuristic-source.list".to_owned(), heuristic_source),
        ("heuristic-target.list".to_owned(), heuristic_target),
    ];
    let target_list = match &preset.target_list {
        Some(words) => {
            files.push(("target.list".to_owned(), list(&mut words.iter().map(String::as_str))));
            "target.list"
        }
        None => "",
    };
    let config = format!(
        "# APT over the master for '{name}', written by protest apt-master --write-config\n\
         [lang]\nsource: {src}\ntarget: {tgt}\nsource_word_separator:\ntarget_word_separator: -\n\
         [files]\nsource: source.txt\nreference: reference.txt\ntarget: {stem}.txt\n\
         alignment_source_reference: reference.alig\nalignment_source_target: {stem}.alig\n\
         list_source_pronouns: positions.txt\ninput_type: possition\nlist_target_pronouns: {target_list}\n\
         [dictionary]\nequal: equal.groups\nsimilar: similar.groups\n\
         source_pronouns: heuristic-source.list\ntarget_pronouns: heuristic-target.list\n\
         [cases]\ncases_to_use: 1,2,3,4,5,6\nweigths_per_case: 1,0.5,0,0,0,0\ncount_OTHER_as_equal: false\n\
         [output]\noutput_file: {stem}\ncounting_multiword_in_matrix: false\nmax_length_matrix = 10\n",
        name = translation.name,
        src = master.languages.source,
        tgt = master.languages.target,
    );
    files.push((format!("{stem}.ini"), config));
    Ok(ConfigFiles {
        ini: dir.join(format!("{stem}.ini")),
        files: files.into_iter().map(|(name, text)| (dir.join(name), text)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TokenRef;
    use crate::scorers::apt::Weighting;
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
    fn converted_files_are_reduced_by_the_list_without_correction() {
        let mut master = tiny();
        // Example 2's "It is raining .": the reference "qu' il pleut .", the MT "qu' elle pleut .",
        // the pronoun aligned to both first tokens, and no whole alignment (a converted file).
        for (corpus, pronoun) in [(1, "il"), (2, "elle")] {
            master.corpora[corpus].sentences[2] = format!("qu' {pronoun} pleut .");
            master.corpora[corpus].alignment = None;
        }
        for candidate in [2, 3] {
            master.candidates[candidate].pronoun = vec![TokenRef::new(2, 0), TokenRef::new(2, 1)];
        }
        master.reindex();
        let apt = evaluate_master(&master, &Preset::french());
        assert_eq!(case_of(&apt, 4), Case::Different, "elle is not il, whatever qu' they share");
        assert_eq!(case_of(&apt, 3), Case::Identical, "the reference, by definition");
        assert!(apt.systems.iter().all(|s| !s.corrected));
        // Without a list (no preset), the shared qu' made them identical.
        assert_eq!(case_of(&evaluate_master(&master, &Preset::for_language("xx")), 4), Case::Identical);
        assert!(config_files(&master, CorpusId(2), Path::new(".")).is_err(), "no whole alignment to write");
    }

    #[test]
    fn the_correction_finds_the_pronoun_next_to_a_verb_aligned_alone() {
        let mut master = tiny();
        assert!(evaluate_master(&master, &Preset::french()).systems.iter().all(|s| s.corrected));
        // The MT's pleonastic "It" aligned only to "pleut" in "Alors il pleut .": the correction
        // adds il. (It adds a token as written, as the reference tool does: a capitalised Il
        // would not be the reference's il.)
        let mt = master.corpora[2].alignment.as_ref().unwrap();
        let mut links: Vec<Links> = mt.sentences().map(<[_]>::to_vec).collect();
        links[2] = vec![(0, 2), (2, 2), (3, 3)];
        master.corpora[2].sentences[2] = "Alors il pleut .".into();
        master.corpora[2].alignment = Some(alignment::Alignment::new(links));
        master.candidates[3].pronoun = vec![TokenRef::new(2, 2)];
        master.reindex();
        assert_eq!(crate::store::validate::master(&master), vec![]);
        assert_eq!(case_of(&evaluate_master(&master, &Preset::french()), 4), Case::Identical);
        let mut uncorrected = Preset::french();
        uncorrected.heuristic = None;
        assert_eq!(case_of(&evaluate_master(&master, &uncorrected), 4), Case::Different, "OTHER against il");
    }

    #[test]
    fn presets_by_target_language() {
        assert_eq!(Preset::for_language("fr"), Preset::french());
        assert_eq!(Preset::for_language("fr-FR"), Preset::french());
        assert_eq!(Preset::french().target_list.unwrap().len(), 24);
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
