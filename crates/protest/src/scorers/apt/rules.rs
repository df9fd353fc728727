//! Comparing a candidate translation of a pronoun with the reference translation: categories,
//! identical and equivalent pronouns, and the resulting case — as APT's reference does it.
//!
//! A translation is a list of words. Each word is *normalised* to a category: through the
//! `equal` groups (every member stands for the group's first member) or as itself. The case is
//! 1 when the normalised reference and candidate sets share a category (`OTHER` only counts with
//! `count_OTHER_as_equal`), else 2 when one `similar` group meets both sets, else 3; 4, 5 and 6
//! when the candidate, the reference or both have no translation.

use super::case::Case;
use super::reference_order::{PySet, py2_hash_int};
use std::collections::HashMap;

/// Words looked up twice per instance: FxHash, as [`super::words::WordSet`] (SipHash was most of
/// the time of a look-up of such short keys).
type WordMap = HashMap<String, usize, rustc_hash::FxBuildHasher>;

/// The category of words outside every target pronoun, when a target list is given.
pub const OTHER: &str = "OTHER";
/// The confusion-matrix row and column of "no translation".
pub const NONE: &str = "NONE";

/// A category index, or `None` for a word outside the category list. Only a word added by the
/// alignment heuristic can be outside (a token such as `est-il` whose last part is a pronoun, or
/// one that is not in the target list); as in the reference, all such words fall together, so
/// two of them count as identical.
pub type Category = Option<usize>;

/// CPython hashes `None` by its memory address, so where an outside word sits in a set depends
/// on the interpreter build. This is `hash(None)` of a CPython 2.7.18 x86-64 build; the low bits,
/// which place it in a small set, are the same in every run of that build.
const OUTSIDE_HASH: i64 = 8_734_964_731_870;

fn hash(category: Category) -> i64 {
    category.map_or(OUTSIDE_HASH, |i| py2_hash_int(i as i64))
}

fn category_set(categories: impl IntoIterator<Item = Category>) -> PySet<Category> {
    PySet::from_items(categories.into_iter().map(|c| (c, hash(c))))
}

/// The categories of a run, in the reference's order, `NONE` last.
#[derive(Debug, Clone, PartialEq)]
pub struct Categories {
    names: Vec<String>,
    index: WordMap,
    other: Option<usize>,
}

impl Categories {
    /// A target pronoun list, then `OTHER` and `NONE`. A word listed twice keeps its first place.
    pub fn from_list(list: impl IntoIterator<Item = String>) -> Self {
        Categories::new(list.into_iter().chain([OTHER.to_owned(), NONE.to_owned()]).collect())
    }

    /// Without a target list: every word aligned in the reference or the candidate, in the order
    /// of Python's `list(reference_words | candidate_words)`, then `NONE`.
    pub fn from_vocabulary(reference: &PySet<String>, candidate: &PySet<String>) -> Self {
        Categories::new(reference.union(candidate).iter().cloned().chain([NONE.to_owned()]).collect())
    }

    /// Words in the given order (repeats ignored), then `NONE`: the categories of a run without
    /// a target list when the order does not matter (no confusion matrix is printed).
    pub fn from_words(words: impl IntoIterator<Item = String>) -> Self {
        let mut seen = std::collections::HashSet::new();
        let words = words.into_iter().filter(|w| seen.insert(w.clone()));
        Categories::new(words.chain([NONE.to_owned()]).collect())
    }

    fn new(names: Vec<String>) -> Self {
        let mut index = WordMap::with_capacity_and_hasher(names.len(), Default::default());
        for (i, name) in names.iter().enumerate() {
            index.entry(name.clone()).or_insert(i);
        }
        let other = index.get(OTHER).copied();
        Categories { names, index, other }
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn index(&self, word: &str) -> Option<usize> {
        self.index.get(word).copied()
    }

    pub fn contains(&self, word: &str) -> bool {
        self.index.contains_key(word)
    }

    /// The `NONE` category (the last one).
    pub fn none(&self) -> usize {
        self.names.len() - 1
    }

    /// The `OTHER` category, when there is a target list.
    pub fn other(&self) -> Option<usize> {
        self.other
    }
}

/// One side of the confusion-matrix cell(s) an instance is counted in.
#[derive(Debug, Clone)]
pub enum Axis {
    /// No translation: the `NONE` row or column.
    Missing,
    /// The categories involved, in the reference's set order.
    Categories(PySet<Category>),
}

impl Axis {
    /// The categories in order, `NONE` for a missing translation; `None` for outside words.
    pub fn categories(&self, categories: &Categories) -> Vec<Category> {
        match self {
            Axis::Missing => vec![Some(categories.none())],
            Axis::Categories(set) => set.iter().copied().collect(),
        }
    }
}

/// The case of one instance and where it goes in the confusion matrix.
#[derive(Debug, Clone)]
pub struct Judged {
    pub case: Case,
    pub reference: Axis,
    pub candidate: Axis,
}

/// The comparison rules of a run.
#[derive(Debug, Clone)]
pub struct Rules {
    categories: Categories,
    equal: WordMap,
    similar: Vec<PySet<Category>>,
    count_other: bool,
}

impl Rules {
    /// `equal` and `similar` groups keep only their members that are categories, and a group left
    /// with fewer than two members is dropped. A word in several equal groups belongs to the
    /// first. Similar groups are normalised through the equal groups.
    pub fn new(categories: Categories, equal: &[Vec<String>], similar: &[Vec<String>], count_other: bool) -> Self {
        let mut representative = WordMap::default();
        for group in equal {
            let kept: Vec<&String> = group.iter().filter(|w| categories.contains(w)).collect();
            if let [first, _, ..] = kept[..] {
                let index = categories.index(first).expect("kept members are categories");
                for word in kept {
                    representative.entry(word.clone()).or_insert(index);
                }
            }
        }
        let mut rules = Rules { categories, equal: representative, similar: Vec::new(), count_other };
        rules.similar = similar
            .iter()
            .map(|group| {
                group.iter().filter(|w| rules.categories.contains(w)).map(|w| rules.normalise(w)).collect::<Vec<_>>()
            })
            .filter(|group| group.len() > 1)
            .map(category_set)
            .collect();
        rules
    }

    pub fn categories(&self) -> &Categories {
        &self.categories
    }

    /// A word's category after merging identical forms.
    pub fn normalise(&self, word: &str) -> Category {
        self.equal.get(word).copied().or_else(|| self.categories.index(word))
    }

    /// Compares the words of a reference and a candidate translation (`None`: no translation).
    pub fn judge<R: AsRef<str>, C: AsRef<str>>(&self, reference: Option<&[R]>, candidate: Option<&[C]>) -> Judged {
        let (reference, candidate) = match (reference.map(|r| self.set_of(r)), candidate.map(|c| self.set_of(c))) {
            (None, None) => return Judged { case: Case::Neither, reference: Axis::Missing, candidate: Axis::Missing },
            (None, Some(c)) => {
                return Judged { case: Case::NoReference, reference: Axis::Missing, candidate: Axis::Categories(c) };
            }
            (Some(r), None) => {
                return Judged { case: Case::NoCandidate, reference: Axis::Categories(r), candidate: Axis::Missing };
            }
            (Some(r), Some(c)) => (r, c),
        };
        let shared = match self.categories.other().filter(|_| !self.count_other) {
            Some(other) => reference.intersection(&candidate.difference(&category_set([Some(other)]))),
            None => reference.intersection(&candidate),
        };
        if !shared.is_empty() {
            return Judged {
                case: Case::Identical,
                reference: Axis::Categories(shared.clone()),
                candidate: Axis::Categories(shared),
            };
        }
        for group in &self.similar {
            let (r, c) = (reference.intersection(group), candidate.intersection(group));
            if !r.is_empty() && !c.is_empty() {
                return Judged {
                    case: Case::Equivalent,
                    reference: Axis::Categories(r),
                    candidate: Axis::Categories(c),
                };
            }
        }
        Judged { case: Case::Different, reference: Axis::Categories(reference), candidate: Axis::Categories(candidate) }
    }

    /// A translation's words as Python's `set([normalize_word(w) for w in words])`.
    fn set_of<W: AsRef<str>>(&self, words: &[W]) -> PySet<Category> {
        category_set(words.iter().map(|w| self.normalise(w.as_ref())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scorers::apt::reference_order::py2_hash_str;

    fn words(list: &str) -> Vec<String> {
        list.split_whitespace().map(str::to_owned).collect()
    }

    fn groups(text: &str) -> Vec<Vec<String>> {
        text.split(';').map(|g| g.split(',').map(|w| w.trim().to_owned()).collect()).collect()
    }

    fn case(rules: &Rules, reference: &str, candidate: &str) -> Case {
        let side = |s: &str| (s != "-").then(|| words(s));
        rules.judge(side(reference).as_deref(), side(candidate).as_deref()).case
    }

    fn french(count_other: bool) -> Rules {
        let categories = Categories::from_list(words("il elle ils elles ce c' ça ç' cela on"));
        Rules::new(categories, &groups("ce,c';ça,ç',cela"), &groups("ce,il;ce,ça"), count_other)
    }

    #[test]
    fn the_six_cases() {
        let rules = french(false);
        assert_eq!(case(&rules, "il", "il"), Case::Identical);
        assert_eq!(case(&rules, "ce", "c'"), Case::Identical, "identical forms");
        assert_eq!(case(&rules, "cela", "ç'"), Case::Identical);
        assert_eq!(case(&rules, "il", "c'"), Case::Equivalent, "c' is ce, and ce is equivalent to il");
        assert_eq!(case(&rules, "cela", "ce"), Case::Equivalent, "cela is ça, equivalent to ce");
        assert_eq!(case(&rules, "il", "cela"), Case::Different, "equivalence is not transitive");
        assert_eq!(case(&rules, "il", "elle"), Case::Different);
        assert_eq!(case(&rules, "il", "-"), Case::NoCandidate);
        assert_eq!(case(&rules, "-", "il"), Case::NoReference);
        assert_eq!(case(&rules, "-", "-"), Case::Neither);
    }

    #[test]
    fn any_shared_word_is_enough() {
        let rules = french(false);
        assert_eq!(case(&rules, "il OTHER", "elle il"), Case::Identical);
        assert_eq!(case(&rules, "elle ce", "il"), Case::Equivalent);
    }

    #[test]
    fn other_matches_other_only_when_asked() {
        assert_eq!(case(&french(false), "OTHER", "OTHER"), Case::Different);
        assert_eq!(case(&french(true), "OTHER", "OTHER"), Case::Identical);
        assert_eq!(case(&french(false), "OTHER il", "OTHER il"), Case::Identical);
    }

    #[test]
    fn groups_keep_only_categories() {
        // "lui" is not a category: the group {ce, lui} is dropped, so ce stays apart from il.
        let categories = Categories::from_list(words("il ce"));
        let rules = Rules::new(categories.clone(), &groups("lui,il"), &groups("ce,lui"), false);
        assert_eq!(rules.normalise("il"), Some(0));
        assert_eq!(rules.normalise("lui"), None, "outside every category");
        assert_eq!(case(&rules, "il", "ce"), Case::Different);
        // A word in two equal groups belongs to the first; the first member represents a group.
        let rules = Rules::new(categories, &groups("ce,il;il,ce"), &[], false);
        assert_eq!((rules.normalise("il"), rules.normalise("ce")), (Some(1), Some(1)));
    }

    #[test]
    fn outside_words_match_each_other() {
        // As in the reference: two words outside the categories both normalise to "no category".
        let rules = french(false);
        assert_eq!(case(&rules, "est-il", "vient-elle"), Case::Identical);
    }

    #[test]
    fn categories_from_a_list_or_the_vocabulary() {
        let list = Categories::from_list(words("she they she"));
        assert_eq!(list.names(), ["she", "they", "she", "OTHER", "NONE"]);
        assert_eq!((list.index("she"), list.other(), list.none()), (Some(0), Some(3), 4));
        let set = |w: &[&str]| PySet::from_items(w.iter().map(|w| (w.to_string(), py2_hash_str(w))));
        let vocabulary = Categories::from_vocabulary(&set(&["he", "she", "it"]), &set(&["they", "we", "our"]));
        // Python 2.7: list(set(["he","she","it"]) | set(["they","we","our"])).
        assert_eq!(vocabulary.names(), ["we", "she", "they", "our", "it", "he", "NONE"]);
        assert_eq!(vocabulary.other(), None);
    }
}
