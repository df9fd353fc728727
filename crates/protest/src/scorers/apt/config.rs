//! The configuration file of APT's reference implementation (sections `lang`, `files`,
//! `dictionary`, `cases`, `output`; see docs/metrics.md for every key).
//!
//! Relative paths are resolved against the configuration file's folder, then the working
//! directory. Where the reference silently carries on with a mistake — a list file that does not
//! exist, an unknown key — we stop with an error or warn.

use super::case::{Case, Weighting};
use super::ini::{Ini, Value};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// How the source pronouns to evaluate are given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourcePronouns {
    /// `input_type: word`: every token (or part of a token) in this word list.
    Words(PathBuf),
    /// `input_type: possition` (sic; `position` works too): the `sentence position` pairs listed
    /// in this file, one per line, 0-based.
    Positions(PathBuf),
}

/// The five parallel files of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorpusFiles {
    pub source: PathBuf,
    pub reference: PathBuf,
    pub candidate: PathBuf,
    pub reference_alignment: PathBuf,
    pub candidate_alignment: PathBuf,
}

impl CorpusFiles {
    /// Their sizes added up: how much a pass over them reads (its progress).
    pub fn bytes(&self) -> u64 {
        let files =
            [&self.source, &self.reference, &self.candidate, &self.reference_alignment, &self.candidate_alignment];
        crate::progress::file_bytes(files.map(PathBuf::as_path))
    }
}

/// A checked configuration. Word lists are read later, when the run starts.
#[derive(Debug, Clone, PartialEq)]
pub struct AptConfig {
    pub files: CorpusFiles,
    pub source_pronouns: SourcePronouns,
    /// Target pronouns; other words become `OTHER`. Without it every aligned word is a category.
    pub target_pronouns: Option<PathBuf>,
    /// Splits source tokens into parts (`-` for `est-il`); `None` splits at white space.
    pub source_separator: Option<String>,
    pub target_separator: Option<String>,
    /// Groups of identical pronouns (`[dictionary] equal`).
    pub equal: Option<PathBuf>,
    /// Groups of equivalent pronouns (`[dictionary] similar`).
    pub similar: Option<PathBuf>,
    /// Source and target pronoun lists of the alignment heuristic (`[dictionary] source_pronouns`,
    /// `target_pronouns`); the heuristic does nothing without target pronouns.
    pub heuristic_source: Option<PathBuf>,
    pub heuristic_target: Option<PathBuf>,
    pub weighting: Weighting,
    pub count_other_as_equal: bool,
    /// The output stem: `STEM.score` and `STEM.detail`.
    pub output: Option<PathBuf>,
    pub count_multiword_in_matrix: bool,
    pub max_matrix: usize,
    /// Things ignored, as the reference ignores them, that the user may want to know about.
    pub warnings: Vec<String>,
}

/// Every key the reference reads, by section.
const KNOWN: &[(&str, &[&str])] = &[
    ("lang", &["source", "target", "source_word_separator", "target_word_separator"]),
    (
        "files",
        &[
            "source",
            "reference",
            "target",
            "alignment_source_reference",
            "alignment_source_target",
            "list_source_pronouns",
            "input_type",
            "list_target_pronouns",
        ],
    ),
    ("dictionary", &["equal", "similar", "source_pronouns", "target_pronouns"]),
    ("cases", &["cases_to_use", "weigths_per_case", "weights_per_case", "count_other_as_equal"]),
    ("output", &["output_file", "counting_multiword_in_matrix", "max_length_matrix"]),
];

/// `max_length_matrix` when the file does not say (the reference requires the key).
pub const DEFAULT_MAX_MATRIX: usize = 10;

impl AptConfig {
    pub fn read(path: &Path) -> Result<AptConfig> {
        AptConfig::from_ini(&Ini::read(path)?)
    }

    pub fn from_ini(ini: &Ini) -> Result<AptConfig> {
        let reader = Reader { ini, base: ini.path().parent().unwrap_or(Path::new("")) };
        let file = |key| reader.existing_file("files", key);
        let files = CorpusFiles {
            source: file("source")?,
            reference: file("reference")?,
            candidate: file("target")?,
            reference_alignment: file("alignment_source_reference")?,
            candidate_alignment: file("alignment_source_target")?,
        };
        let list = reader.existing_file("files", "list_source_pronouns")?;
        let source_pronouns = match reader.text("files", "input_type").map(|v| (v.text.as_str(), v.line)) {
            None | Some(("word", _)) => SourcePronouns::Words(list),
            Some(("possition" | "position", _)) => SourcePronouns::Positions(list),
            Some((other, line)) => {
                return Err(reader.error(line, format!("input_type is {other:?}; expected word or possition")));
            }
        };
        let cases_value = reader.required("cases", "cases_to_use")?;
        let weights_value = reader.weights()?;
        let (weighting, mut warnings) = weighting(&reader, cases_value, weights_value)?;
        let max_matrix = match reader.text("output", "max_length_matrix") {
            None => DEFAULT_MAX_MATRIX,
            Some(v) => v.text.trim().parse().map_err(|_| {
                reader.error(v.line, format!("max_length_matrix is {:?}; expected a whole number ≥ 0", v.text))
            })?,
        };
        warnings.extend(reader.unknown_keys());
        Ok(AptConfig {
            files,
            source_pronouns,
            target_pronouns: reader.optional_file("files", "list_target_pronouns")?,
            source_separator: reader.separator("source_word_separator"),
            target_separator: reader.separator("target_word_separator"),
            equal: reader.optional_file("dictionary", "equal")?,
            similar: reader.optional_file("dictionary", "similar")?,
            heuristic_source: reader.optional_file("dictionary", "source_pronouns")?,
            heuristic_target: reader.optional_file("dictionary", "target_pronouns")?,
            weighting,
            count_other_as_equal: reader.boolean("cases", "count_OTHER_as_equal")?,
            output: reader
                .text("output", "output_file")
                .filter(|v| !v.text.is_empty())
                .map(|v| reader.resolve(&v.text)),
            count_multiword_in_matrix: reader.boolean("output", "counting_multiword_in_matrix")?,
            max_matrix,
            warnings,
        })
    }
}

/// `cases_to_use` and `weigths_per_case` together. A single weight applies to every case (numpy
/// broadcasts it); case numbers outside 1–6 are dropped, as the reference drops them.
fn weighting(reader: &Reader, cases: &Value, weights: &Value) -> Result<(Weighting, Vec<String>)> {
    let mut warnings = Vec::new();
    let mut used = Vec::new();
    for item in cases.text.split(',') {
        let n: i64 = item
            .trim()
            .parse()
            .map_err(|_| reader.error(cases.line, format!("cases_to_use: {:?} is not a case number", item.trim())))?;
        match u8::try_from(n).ok().and_then(Case::from_number) {
            Some(case) => used.push(case),
            None => warnings.push(format!("cases_to_use: case {n} does not exist (cases are 1 to 6); ignored")),
        }
    }
    let mut values = Vec::new();
    for item in weights.text.split(',') {
        let w: f64 = item
            .trim()
            .parse()
            .map_err(|_| reader.error(weights.line, format!("weigths_per_case: {:?} is not a number", item.trim())))?;
        values.push(w);
    }
    let values = match values[..] {
        [single] => vec![single; used.len()],
        _ if values.len() == used.len() => values,
        _ => {
            return Err(reader.error(
                weights.line,
                format!("{} weights for {} cases; give one weight per case in cases_to_use", values.len(), used.len()),
            ));
        }
    };
    Ok((Weighting::new(used.into_iter().zip(values).collect()), warnings))
}

struct Reader<'a> {
    ini: &'a Ini,
    base: &'a Path,
}

impl Reader<'_> {
    fn error(&self, line: usize, message: impl std::fmt::Display) -> Error {
        Error::at_line(self.ini.path(), line, message)
    }

    fn text(&self, section: &str, key: &str) -> Option<&Value> {
        self.ini.get(section, key)
    }

    fn required(&self, section: &str, key: &str) -> Result<&Value> {
        self.text(section, key).filter(|v| !v.text.is_empty()).ok_or_else(|| {
            Error::whole_file(self.ini.path(), format!("[{section}] {key} is missing or empty; it is required"))
        })
    }

    /// The reference's key is spelled `weigths_per_case`; `weights_per_case` is accepted too.
    fn weights(&self) -> Result<&Value> {
        match (self.text("cases", "weigths_per_case"), self.text("cases", "weights_per_case")) {
            (Some(a), Some(b)) => {
                Err(self.error(a.line.max(b.line), "both weigths_per_case and weights_per_case are given; keep one"))
            }
            (Some(_), None) => self.required("cases", "weigths_per_case"),
            _ => self.required("cases", "weights_per_case"),
        }
    }

    fn separator(&self, key: &str) -> Option<String> {
        self.text("lang", key).map(|v| v.text.clone()).filter(|s| !s.trim().is_empty())
    }

    /// Python's `getboolean`; absent means false.
    fn boolean(&self, section: &str, key: &str) -> Result<bool> {
        let Some(v) = self.text(section, key) else { return Ok(false) };
        match v.text.to_lowercase().as_str() {
            "1" | "yes" | "true" | "on" => Ok(true),
            "0" | "no" | "false" | "off" => Ok(false),
            other => Err(self.error(v.line, format!("{key} is {other:?}; expected true or false"))),
        }
    }

    /// A relative path against the configuration's folder.
    fn resolve(&self, path: &str) -> PathBuf {
        let path = Path::new(path);
        if path.is_absolute() { path.to_path_buf() } else { self.base.join(path) }
    }

    /// A path that must name an existing file: next to the configuration, else from the working
    /// directory.
    fn find(&self, value: &Value, key: &str) -> Result<PathBuf> {
        let beside = self.resolve(&value.text);
        if beside.is_file() {
            return Ok(beside);
        }
        let here = PathBuf::from(&value.text);
        if here.is_file() {
            return Ok(here);
        }
        // The configuration's folder is the working directory when it was named without one.
        let looked = match self.base.as_os_str().is_empty() || self.base == Path::new(".") {
            true => "in the working directory, where the configuration is".to_owned(),
            false => format!("beside the configuration, in {}, and in the working directory", self.base.display()),
        };
        Err(self.error(
            value.line,
            format!(
                "{key}: no file {} (looked {looked}); give a path relative to the configuration's folder, or an \
                 absolute one",
                value.text
            ),
        ))
    }

    fn existing_file(&self, section: &str, key: &str) -> Result<PathBuf> {
        self.find(self.required(section, key)?, key)
    }

    /// Empty or absent means none; a name that is not a file is an error (the reference would
    /// quietly run without the list).
    fn optional_file(&self, section: &str, key: &str) -> Result<Option<PathBuf>> {
        match self.text(section, key).filter(|v| !v.text.is_empty()) {
            Some(v) => self.find(v, key).map(Some),
            None => Ok(None),
        }
    }

    fn unknown_keys(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        for (section, line) in self.ini.sections() {
            if !KNOWN.iter().any(|(s, _)| *s == section) {
                warnings.push(format!("line {line}: section [{section}] is not used by APT; ignored"));
            }
        }
        for (section, key, line) in self.ini.keys() {
            let known = KNOWN.iter().find(|(s, _)| *s == section).is_some_and(|(_, keys)| keys.contains(&key));
            if !known && KNOWN.iter().any(|(s, _)| *s == section) {
                warnings.push(format!("line {line}: [{section}] {key} is not an APT option; ignored"));
            }
        }
        warnings
    }
}
