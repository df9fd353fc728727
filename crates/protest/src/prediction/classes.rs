//! The classes of each language pair and scorer, in the official order, with the other words each
//! scorer counts as one of them (docs/pronoun-prediction.md#classes).
//!
//! A [`Task`] is a scorer with a language pair: the words it accepts in a label column (its
//! [`Task::words`]) and the class sets it evaluates — DiscoMT 2015 the coarse and then the fine
//! classes, WMT16/17 one set per pair.

use std::fmt;
use std::path::Path;

/// `Display` and `FromStr` for an enum of a few values by the name `$name` gives each, with a
/// message listing the names for one not among them (`--pair`, `--scorer`, `--macro`).
macro_rules! names {
    ($t:ty, $name:path, $what:literal) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($name(*self))
            }
        }

        impl std::str::FromStr for $t {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let all = <$t>::ALL;
                all.iter().copied().find(|&x| $name(x) == s).ok_or_else(|| {
                    let names: Vec<_> = all.iter().map(|&x| $name(x)).collect();
                    format!("unknown {} '{s}' (expected one of: {})", $what, names.join(", "))
                })
            }
        }
    };
}
pub(crate) use names;

/// A language pair of the shared tasks: source-target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pair {
    EnFr,
    FrEn,
    EnDe,
    DeEn,
    EsEn,
}

impl Pair {
    pub const ALL: [Pair; 5] = [Pair::EnFr, Pair::FrEn, Pair::EnDe, Pair::DeEn, Pair::EsEn];

    /// As the scorers and the data files' names write it: `en-fr`.
    pub fn code(self) -> &'static str {
        match self {
            Pair::EnFr => "en-fr",
            Pair::FrEn => "fr-en",
            Pair::EnDe => "en-de",
            Pair::DeEn => "de-en",
            Pair::EsEn => "es-en",
        }
    }

    /// The pair a data file's name says, as in `TEDdev.en-fr.data`: the one code among the
    /// name's dot-separated parts, if exactly one is.
    pub fn from_file_name(path: &Path) -> Option<Pair> {
        let name = path.file_name()?.to_str()?;
        let mut found = name.split('.').filter_map(|part| part.parse::<Pair>().ok());
        let pair = found.next()?;
        found.next().is_none().then_some(pair)
    }
}

names!(Pair, Pair::code, "language pair");

/// One of the official scorers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scorer {
    /// DiscoMT 2015 (English–French only): coarse and fine evaluations, official score the
    /// fine-grained macro-averaged F1.
    Discomt2015,
    /// WMT 2016 (and 2017, which added es-en): one evaluation, official score the macro-averaged
    /// recall.
    Wmt16,
}

impl Scorer {
    pub const ALL: [Scorer; 2] = [Scorer::Discomt2015, Scorer::Wmt16];

    pub fn name(self) -> &'static str {
        match self {
            Scorer::Discomt2015 => "discomt2015",
            Scorer::Wmt16 => "wmt16",
        }
    }

    /// What the official score measures, as the scorer's report names it.
    pub fn official_measure(self) -> &'static str {
        match self {
            Scorer::Discomt2015 => "macro-averaged fine-grained F1",
            Scorer::Wmt16 => "macro-averaged recall",
        }
    }
}

names!(Scorer, Scorer::name, "scorer");

/// The classes one evaluation counts, and the other words counted as one of them.
#[derive(Debug, PartialEq, Eq)]
pub struct ClassSet {
    /// The evaluation's name in the report's heading (`COARSE`, `FINE-GRAINED`), empty where a
    /// scorer has one evaluation.
    pub title: &'static str,
    /// The classes in the official order (the report's rows and columns).
    pub classes: &'static [&'static str],
    /// Other words and the class each is counted as (`ça` → `cela`).
    pub also: &'static [(&'static str, &'static str)],
}

impl ClassSet {
    /// Number of classes.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// The position of the class `word` is counted as, or `None` if this set does not know it.
    pub fn class_of(&self, word: &str) -> Option<usize> {
        let class = self.also.iter().find(|(w, _)| *w == word).map_or(word, |(_, class)| class);
        self.classes.iter().position(|c| *c == class)
    }

    /// The position of the class named `class`.
    pub fn position(&self, class: &str) -> Option<usize> {
        self.classes.iter().position(|c| *c == class)
    }

    /// Every word this set counts: the classes, then the other words.
    pub fn words(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.classes.iter().copied().chain(self.also.iter().map(|(w, _)| *w))
    }

    /// The class's label as the scorers print it: five characters, a short name right-aligned
    /// in four and followed by a space (`  ce `, `cela `), a longer one as it is (`elles`).
    pub fn shown(&self, class: usize) -> String {
        let name = self.classes[class];
        match name.chars().count() {
            n if n >= 5 => name.to_owned(),
            _ => format!("{name:>4} "),
        }
    }
}

const OTHER: &str = "OTHER";

const DISCOMT2015_COARSE: ClassSet = ClassSet {
    title: "COARSE",
    classes: &["ce", "cela", "elle", "elles", "il", "ils", OTHER],
    also: &[("on", OTHER), ("ça", "cela")],
};

const DISCOMT2015_FINE: ClassSet = ClassSet {
    title: "FINE-GRAINED",
    classes: &["ce", "cela", "elle", "elles", "il", "ils", "on", "ça", OTHER],
    also: &[],
};

const WMT16_EN_FR: ClassSet = ClassSet {
    title: "",
    classes: &["ce", "elle", "elles", "il", "ils", "cela", "on", OTHER],
    also: &[("c'", "ce"), ("ça", "cela"), ("ca", "cela"), ("ç'", "cela"), ("NONE", OTHER)],
};

const WMT16_FR_EN: ClassSet = ClassSet {
    title: "",
    classes: &["he", "she", "it", "they", "this", "these", "there", OTHER],
    also: &[("that", "this"), ("those", "these"), ("NONE", OTHER)],
};

const WMT16_EN_DE: ClassSet =
    ClassSet { title: "", classes: &["er", "sie", "es", "man", OTHER], also: &[("NONE", OTHER)] };

const WMT16_DE_EN: ClassSet = ClassSet {
    title: "",
    classes: &["he", "she", "it", "they", "you", "this", "these", "there", OTHER],
    also: &[("that", "this"), ("those", "these"), ("NONE", OTHER)],
};

const WMT17_ES_EN: ClassSet =
    ClassSet { title: "", classes: &["he", "she", "it", "they", "you", "there", OTHER], also: &[("NONE", OTHER)] };

/// A language pair the DiscoMT 2015 scorer does not score (it had English–French only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the discomt2015 scorer scores en-fr only, not {pair} (use --scorer wmt16)")]
pub struct NotScored {
    pub pair: Pair,
}

/// A scorer on a language pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Task {
    pub scorer: Scorer,
    pub pair: Pair,
}

impl Task {
    /// The task, or why the scorer does not score the pair (DiscoMT 2015 had English–French only).
    pub fn new(scorer: Scorer, pair: Pair) -> Result<Task, NotScored> {
        match (scorer, pair) {
            (Scorer::Discomt2015, Pair::EnFr) | (Scorer::Wmt16, _) => Ok(Task { scorer, pair }),
            (Scorer::Discomt2015, _) => Err(NotScored { pair }),
        }
    }

    /// The class sets evaluated, in the report's order; the official score is the last one's.
    pub fn evaluations(self) -> &'static [&'static ClassSet] {
        match (self.scorer, self.pair) {
            (Scorer::Discomt2015, _) => &[&DISCOMT2015_COARSE, &DISCOMT2015_FINE],
            (Scorer::Wmt16, Pair::EnFr) => &[&WMT16_EN_FR],
            (Scorer::Wmt16, Pair::FrEn) => &[&WMT16_FR_EN],
            (Scorer::Wmt16, Pair::EnDe) => &[&WMT16_EN_DE],
            (Scorer::Wmt16, Pair::DeEn) => &[&WMT16_DE_EN],
            (Scorer::Wmt16, Pair::EsEn) => &[&WMT17_ES_EN],
        }
    }

    /// The classes of the official score (DiscoMT 2015: the fine ones).
    pub fn classes(self) -> &'static ClassSet {
        self.evaluations().last().expect("every task has an evaluation")
    }

    /// The words a label column may hold: every word the official classes count. (Every
    /// evaluation of a task counts the same words.)
    pub fn words(self) -> impl Iterator<Item = &'static str> {
        self.classes().words()
    }

    /// The position of `word` among [`Task::words`], or `None` where the scorer refuses it.
    pub fn word_index(self, word: &str) -> Option<usize> {
        self.words().position(|w| w == word)
    }

    /// The official class of a word as it stands in a translation (`Ils`, `C'`, `NONE` where
    /// there is none): lower-cased, then one of the classes or of the words mapped onto them,
    /// else a spelling of one (`c'` for `ce`, `ç'` for `ça`), else `OTHER`.
    pub fn class_of_word(self, word: &str) -> usize {
        const SPELLINGS: [(&str, &str); 3] = [("c'", "ce"), ("ç'", "ça"), ("ca", "ça")];
        let classes = self.classes();
        let word = word.to_lowercase();
        classes
            .class_of(&word)
            .or_else(|| SPELLINGS.iter().find(|(s, _)| *s == word).and_then(|(_, class)| classes.class_of(class)))
            .unwrap_or_else(|| self.other())
    }

    /// The position of `OTHER` among the official classes (every pair has it).
    pub fn other(self) -> usize {
        self.classes().position(OTHER).expect("every class set has OTHER")
    }
}

impl fmt::Display for Task {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.scorer, self.pair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_task() -> impl Iterator<Item = Task> {
        Scorer::ALL.into_iter().flat_map(|s| Pair::ALL.into_iter().filter_map(move |p| Task::new(s, p).ok()))
    }

    #[test]
    fn every_evaluation_of_a_task_counts_exactly_its_words() {
        assert_eq!(every_task().count(), 6);
        for task in every_task() {
            let words: Vec<_> = task.words().collect();
            for set in task.evaluations() {
                let mut counted: Vec<_> = set.words().collect();
                counted.sort();
                let mut expected = words.clone();
                expected.sort();
                assert_eq!(counted, expected, "{task} {}", set.title);
                assert!(set.words().all(|w| set.class_of(w).is_some()), "{task}: a word counted as no class");
            }
        }
    }

    #[test]
    fn the_mappings_of_the_task_description() {
        let fr = Task::new(Scorer::Wmt16, Pair::EnFr).unwrap().classes();
        assert_eq!(fr.class_of("c'"), fr.position("ce"));
        assert_eq!(fr.class_of("ç'"), fr.position("cela"));
        assert_eq!(fr.class_of("NONE"), fr.position("OTHER"));
        assert_eq!(fr.class_of("le"), None);
        let coarse = Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap().evaluations()[0];
        assert_eq!(coarse.class_of("on"), coarse.position("OTHER"));
        assert_eq!(coarse.class_of("ça"), coarse.position("cela"));
        let de = Task::new(Scorer::Wmt16, Pair::DeEn).unwrap().classes();
        assert_eq!((de.class_of("those"), de.class_of("that")), (de.position("these"), de.position("this")));
        assert!(Task::new(Scorer::Wmt16, Pair::EnFr).unwrap().word_index("NONE").is_some());
        assert_eq!(Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap().word_index("NONE"), None);
    }

    #[test]
    fn words_of_a_translation_as_classes() {
        let fine = Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap();
        let class = |word| fine.classes().classes[fine.class_of_word(word)];
        let words = ["Ils", "C'", "ç'", "Ça", "cela", "On", "NONE", "le", "y"];
        assert_eq!(words.map(class), ["ils", "ce", "ça", "ça", "cela", "on", "OTHER", "OTHER", "OTHER"]);
        let wmt = Task::new(Scorer::Wmt16, Pair::EnFr).unwrap();
        assert_eq!(wmt.classes().classes[wmt.class_of_word("Ça")], "cela");
        let fr_en = Task::new(Scorer::Wmt16, Pair::FrEn).unwrap();
        assert_eq!(fr_en.classes().classes[fr_en.class_of_word("Those")], "these");
    }

    #[test]
    fn labels_are_shown_five_characters_wide() {
        let fine = Task::new(Scorer::Discomt2015, Pair::EnFr).unwrap().classes();
        let shown: Vec<_> = (0..fine.len()).map(|c| fine.shown(c)).collect();
        assert_eq!(shown, ["  ce ", "cela ", "elle ", "elles", "  il ", " ils ", "  on ", "  ça ", "OTHER"]);
    }

    #[test]
    fn discomt2015_is_english_french_only() {
        let refused = Task::new(Scorer::Discomt2015, Pair::EnDe).unwrap_err();
        assert_eq!(refused, NotScored { pair: Pair::EnDe });
        let refused = refused.to_string();
        assert!(refused.contains("en-fr only") && refused.contains("wmt16"), "{refused}");
    }

    #[test]
    fn pairs_from_names_and_file_names() {
        assert_eq!("de-en".parse(), Ok(Pair::DeEn));
        assert!("en-it".parse::<Pair>().unwrap_err().contains("en-fr, fr-en, en-de, de-en, es-en"));
        assert_eq!(Pair::from_file_name(Path::new("x/TEDdev.en-fr.data.gz")), Some(Pair::EnFr));
        assert_eq!(Pair::from_file_name(Path::new("gold.txt")), None);
        assert_eq!(Pair::from_file_name(Path::new("en-de.fr-en.data")), None, "two pairs: none");
    }
}
