//! One APT run over parallel files, as the reference tool does it, streaming the files.
//!
//! Without a target pronoun list the categories are all the aligned words, which are known only
//! at the end; the files are then read twice (once for the words, once to judge), so memory
//! holds the categories and the matrix, never the corpus.

use super::case::{Case, CaseCounts};
use super::config::AptConfig;
use super::instances::{Finder, Instance, InstanceReader, Reading};
use super::matrix::ConfusionMatrix;
use super::output;
use super::reference_order::{PySet, py2_hash_str};
use super::rules::{Categories, Rules};
use super::words;
use crate::error::{Error, Result};
use crate::scorers::apt::pronoun_repair::PronounLists;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The result of a run.
#[derive(Debug, Clone)]
pub struct AptOutcome {
    pub counts: CaseCounts,
    pub rules: Rules,
    pub matrix: ConfusionMatrix,
    /// Instances found (counted or not).
    pub instances: usize,
}

impl AptOutcome {
    pub fn score(&self) -> f64 {
        self.counts.score()
    }

    /// The `.score` file's text for a matrix cut after `max` categories.
    pub fn score_text(&self, max: usize) -> String {
        output::score_text(&self.counts, &self.matrix.table(self.rules.categories(), max))
    }
}

/// Runs APT and hands every instance with its case to `each`, in the reference's order.
pub fn evaluate(config: &AptConfig, mut each: impl FnMut(&Instance, Case) -> Result<()>) -> Result<AptOutcome> {
    let finder = Finder::load(&config.source_pronouns)?;
    let target_list = config.target_pronouns.as_deref().map(words::read_list).transpose()?;
    let groups =
        |path: &Option<PathBuf>| path.as_deref().map(words::read_groups).transpose().map(Option::unwrap_or_default);
    let (equal, similar) = (groups(&config.equal)?, groups(&config.similar)?);
    let list =
        |path: &Option<PathBuf>| path.as_deref().map(words::read_list).transpose().map(Option::unwrap_or_default);
    let heuristic = PronounLists::new(list(&config.heuristic_source)?, list(&config.heuristic_target)?);
    let mut reading = Reading {
        target_list: target_list.as_ref().map(|l| l.iter().cloned().collect()),
        source_separator: config.source_separator.clone(),
        target_separator: config.target_separator.clone(),
        heuristic: None,
    };
    let categories = match target_list {
        Some(list) => Categories::from_list(list),
        None => {
            crate::progress::stage_bytes("Collecting the translations' words", config.files.bytes());
            vocabulary(config, &finder, &reading)?
        }
    };
    reading.heuristic = (!heuristic.target.is_empty()).then_some(heuristic);
    let rules = Rules::new(categories, &equal, &similar, config.count_other_as_equal);

    let mut counts = CaseCounts::new(config.weighting.clone());
    let mut matrix = ConfusionMatrix::default();
    let mut in_order = InOrder::default();
    crate::progress::stage_bytes("Scoring APT", config.files.bytes());
    let mut reader = InstanceReader::open(&config.files, &finder, &reading)?;
    while let Some(instances) = reader.next_sentence()? {
        for instance in instances {
            let judged = rules.judge(
                instance.reference.as_ref().map(|t| t.words.as_slice()),
                instance.candidate.as_ref().map(|t| t.words.as_slice()),
            );
            if counts.add(judged.case) {
                matrix.add(&judged, rules.categories(), config.count_multiword_in_matrix);
            }
            in_order.push(instance, judged.case, &mut each)?;
        }
    }
    Ok(AptOutcome { counts, rules, matrix, instances: in_order.next })
}

/// First pass without a target list: the reference's and the candidate's aligned words, each a
/// Python set filled in the reference's order (by sentence, then by instance).
fn vocabulary(config: &AptConfig, finder: &Finder, reading: &Reading) -> Result<Categories> {
    let mut reference = PySet::default();
    let mut candidate = PySet::default();
    let mut reader = InstanceReader::open(&config.files, finder, reading)?;
    while let Some(instances) = reader.next_sentence()? {
        for instance in &instances {
            for (set, translation) in [(&mut reference, &instance.reference), (&mut candidate, &instance.candidate)] {
                for word in translation.iter().flat_map(|t| &t.words) {
                    set.add(word.clone(), py2_hash_str(word));
                }
            }
        }
    }
    Ok(Categories::from_vocabulary(&reference, &candidate))
}

/// Hands instances on in index order; a positions file may list them out of source order.
#[derive(Default)]
struct InOrder {
    next: usize,
    waiting: BTreeMap<usize, (Instance, Case)>,
}

impl InOrder {
    fn push(
        &mut self,
        instance: Instance,
        case: Case,
        each: &mut impl FnMut(&Instance, Case) -> Result<()>,
    ) -> Result<()> {
        // Word mode numbers instances in source order: nothing waits.
        if instance.index == self.next && self.waiting.is_empty() {
            self.next += 1;
            return each(&instance, case);
        }
        self.waiting.insert(instance.index, (instance, case));
        while let Some((instance, case)) = self.waiting.remove(&self.next) {
            each(&instance, case)?;
            self.next += 1;
        }
        Ok(())
    }
}

/// `STEM.score` and `STEM.detail`.
pub fn output_paths(stem: &Path) -> (PathBuf, PathBuf) {
    let with = |suffix: &str| {
        let mut name = OsString::from(stem.as_os_str());
        name.push(suffix);
        PathBuf::from(name)
    };
    (with(".score"), with(".detail"))
}

/// Runs APT, writing the reference's `.detail` text into `out` as the instances are judged (a
/// corpus's detail need not fit in memory); `path` names it in errors. The `.score` text is the
/// outcome's [`AptOutcome::score_text`]. [`crate::workflow::metrics::apt`] writes both files.
pub fn write_detail(config: &AptConfig, out: &mut dyn Write, path: &Path) -> Result<AptOutcome> {
    out.write_all(output::DETAIL_HEADER.as_bytes()).map_err(|e| Error::io(path, e))?;
    evaluate(config, |instance, case| output::write_detail(out, instance, case).map_err(|e| Error::io(path, e)))
}
