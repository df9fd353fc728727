//! Pronouns through a bridge. The links of pronouns matter most (the match compares their
//! translations) and are the least sure in a reference's alignment: a translator often leaves a
//! pronoun out or rewords it, and the alignment then links it to a neighbouring word — a comma,
//! the verb, the article of the next noun. Carried into another translation such a link would
//! make the match compare that word, and could settle a wrong pronoun. So a source pronoun's link
//! is carried only from a target pronoun to a target pronoun ([`PronounPair`]), and where the
//! bilingual aligner reads the new translation otherwise, [`settle`] weighs the two.

use super::monolingual::{Kind, MonoAlignment};
use super::words::key;
use crate::ingest::align::repair;
use crate::model::pronouns::Pronouns;
use crate::model::{Language, Languages};
use crate::scorers::apt::pronoun_repair::{self, PronounLists};

/// The English pronouns whose links are carried only between pronouns: the test suite's, and
/// `he` / `she`, whose French pronouns must not be taken by an `it`.
const ENGLISH_PRONOUNS: &[&str] = &["it", "they", "you", "he", "she"];

/// French pronoun forms that are also articles, determiners, prepositions or adverbs: a link to
/// one of them alone is no sure sign of a pronoun.
const ARTICLE_LIKE: &[&str] = &["le", "la", "l'", "les", "leur", "en", "y"];

/// The pronouns of a language pair (English to French).
#[derive(Debug, Clone)]
pub struct PronounPair {
    target: &'static Pronouns,
    /// The repair's lists: which source pronouns it repairs, to which target pronouns.
    lists: PronounLists,
}

impl PronounPair {
    /// The pair's pronouns, if the tool knows them.
    pub fn of(languages: &Languages) -> Option<PronounPair> {
        let target = Language::from_code(&languages.target).pronouns()?;
        Some(PronounPair { target, lists: repair::lists(languages)? })
    }

    pub(super) fn is_source(&self, word: &str) -> bool {
        ENGLISH_PRONOUNS.contains(&word.to_lowercase().as_str())
    }

    /// Whether a target word is (or ends with) a pronoun form.
    pub(super) fn is_target(&self, word: &str) -> bool {
        self.target.form_of(&key(word)).is_some()
    }

    /// A pronoun form that is nothing else.
    fn is_sure_target(&self, word: &str) -> bool {
        self.target.form_of(&key(word)).is_some_and(|form| !ARTICLE_LIKE.contains(&form))
    }

    /// Whether a target word may translate a source pronoun as far as person goes: `you` by a
    /// form of address (or `on`), the others by no form of address. Words that are no pronoun
    /// pass.
    fn same_person(&self, source: &str, target: &str) -> bool {
        let target = key(target);
        let Some(form) = self.target.form_of(&target) else { return true };
        let addressee = self.target.addressee.contains(&form);
        if source.eq_ignore_ascii_case("you") { addressee || form == "on" } else { !addressee }
    }

    /// Whether the repair repairs this source word (a third-person pronoun).
    pub(super) fn is_repaired(&self, word: &str) -> bool {
        self.lists.is_source_pronoun(word)
    }

    /// The repair of a source pronoun nothing links to a pronoun: a subject pronoun near its
    /// neighbours' translations, else (when nothing links it at all) the object clitic before its
    /// verb's.
    pub(super) fn repair(&self, sentence: &Sentence, links: &[(u32, u32)], s: u32) -> Option<u32> {
        if !self.is_repaired(sentence.source_word(s)) {
            return None;
        }
        let options = pronoun_repair::Options::PAPER;
        let (source, target) = (&sentence.source, &sentence.target);
        pronoun_repair::repair_position(source, target, links, s, &self.lists, &options)
            .or_else(|| repair::object_clitic(target, links, s))
    }
}

/// Keeps of the links carried through a bridge — (source, bridge, target) token triples — those
/// of source pronouns that join, in their context, a pronoun of the bridge to target words among
/// which there is a pronoun of the same person (not `vous` for `it`), where a form that is also an
/// article (`le`, `l'`) must be the bridge's word itself, not a word like it (`l'` for `le`).
/// `words`: the source's, the bridge's and the target's tokens.
pub(super) fn carry(pair: &PronounPair, mono: &MonoAlignment, words: [&[&str]; 3], carried: &mut Vec<(u32, u32, u32)>) {
    let [source, through, target] = words;
    let word = super::word;
    let pronoun = |s: u32| pair.is_source(word(source, s));
    carried.retain(|&(s, r, t)| {
        let (from, to) = (word(source, s), word(target, t));
        let article_like = pair.target.form_of(&key(to)).is_some_and(|f| ARTICLE_LIKE.contains(&f));
        !pronoun(s)
            || (mono.anchored(r, t)
                && pair.same_person(from, to)
                && (!article_like || mono.kind(r, t) == Some(Kind::Same)))
    });
    let pronoun_of = |s: u32, side: &[&str], pick: fn(&(u32, u32, u32)) -> u32| {
        carried.iter().filter(|l| l.0 == s).any(|l| pair.is_target(word(side, pick(l))))
    };
    let dropped: Vec<u32> = (0..source.len() as u32)
        .filter(|&s| pronoun(s) && (!pronoun_of(s, through, |l| l.1) || !pronoun_of(s, target, |l| l.2)))
        .collect();
    carried.retain(|l| !dropped.contains(&l.0));
}

/// One sentence pair's words, in lower case.
#[derive(Debug)]
pub(super) struct Sentence {
    pub source: Vec<String>,
    pub target: Vec<String>,
}

impl Sentence {
    pub fn source_word(&self, s: u32) -> &str {
        self.source.get(s as usize).map_or("", String::as_str)
    }

    pub fn target_word(&self, t: u32) -> &str {
        self.target.get(t as usize).map_or("", String::as_str)
    }
}

/// Weighs the bridged links of each source pronoun against the aligner's `guessed` links,
/// dropping those the aligner contradicts (the aligner and its repair then link the pronoun):
///
/// - carried to several pronouns (a reference's alignment linking `it` to both `il` of `il faut
///   qu' il`): only the ones the aligner links too are kept;
/// - a target pronoun carried from two source pronouns: only the source pronoun the aligner
///   links to it keeps it;
/// - carried only to words that are also articles or prepositions (`la`, `les`, `en`), when the
///   aligner links the pronoun to a pronoun that is nothing else — unless the carried word stands
///   right before the translation of the source word before the pronoun (`see it` → `le voir`).
pub(super) fn settle(pair: &PronounPair, sentence: &Sentence, bridged: &mut Vec<(u32, u32)>, guessed: &[(u32, u32)]) {
    let pronoun = |s: u32| pair.is_source(sentence.source_word(s));
    let form = |t: u32| pair.is_target(sentence.target_word(t));
    let agreed = |l: &(u32, u32)| guessed.contains(l);
    // Several pronouns for one source pronoun.
    let several: Vec<u32> = (0..sentence.source.len() as u32)
        .filter(|&s| pronoun(s) && bridged.iter().filter(|&&(x, t)| x == s && form(t)).count() > 1)
        .collect();
    bridged.retain(|l| !several.contains(&l.0) || !form(l.1) || agreed(l));
    // One target pronoun for two source pronouns.
    let shared =
        |&(s, t): &(u32, u32)| pronoun(s) && form(t) && bridged.iter().any(|&(x, y)| y == t && x != s && pronoun(x));
    let contested: Vec<(u32, u32)> = bridged.iter().copied().filter(|l| shared(l)).collect();
    bridged.retain(|l| !contested.contains(l) || agreed(l));
    // Only article-like words, where the aligner finds a sure pronoun.
    let before_verb = |s: u32, t: u32| {
        let verb = s.checked_sub(1);
        bridged.iter().chain(guessed).any(|&(x, y)| Some(x) == verb && y == t + 1)
    };
    let taken = |s: u32, t: u32| bridged.iter().any(|&(x, y)| x != s && y == t && pronoun(x));
    let weak: Vec<u32> = (0..sentence.source.len() as u32)
        .filter(|&s| pronoun(s))
        .filter(|&s| {
            let mine: Vec<u32> = bridged.iter().filter(|l| l.0 == s).map(|l| l.1).collect();
            !mine.is_empty()
                && !mine.iter().any(|&t| pair.is_sure_target(sentence.target_word(t)) || before_verb(s, t))
                && guessed.iter().any(|&(x, t)| x == s && pair.is_sure_target(sentence.target_word(t)) && !taken(s, t))
        })
        .collect();
    bridged.retain(|l| !weak.contains(&l.0));
    // A pronoun left with links to words only (its pronoun dropped above) is left to the aligner.
    let wordless: Vec<u32> = (0..sentence.source.len() as u32)
        .filter(|&s| pronoun(s) && bridged.iter().any(|l| l.0 == s) && !bridged.iter().any(|&(x, t)| x == s && form(t)))
        .collect();
    bridged.retain(|l| !wordless.contains(&l.0));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled(source: &str, target: &str, bridged: &[(u32, u32)], guessed: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let pair = PronounPair::of(&Languages::default()).unwrap();
        let words = |s: &str| s.split(' ').map(str::to_lowercase).collect();
        let sentence = Sentence { source: words(source), target: words(target) };
        let mut bridged = bridged.to_vec();
        settle(&pair, &sentence, &mut bridged, guessed);
        bridged
    }

    #[test]
    fn a_pronoun_is_carried_to_a_pronoun_of_its_person_in_its_context() {
        let pair = PronounPair::of(&Languages::default()).unwrap();
        let split = |s: &'static str| s.split(' ').collect::<Vec<_>>();
        let source = split("it reminds you that it is here");
        let check = |through: &'static str, target: &'static str, links: &[(u32, u32, u32)]| {
            let (through, target) = (split(through), split(target));
            let mono = super::super::monolingual::align(&through, &target);
            let mut carried = links.to_vec();
            carry(&pair, &mono, [&source, &through, &target], &mut carried);
            carried
        };
        // "il" → "elle" in the same place: carried; "il" → "vous": not (it is no form of address).
        assert_eq!(check("il rappelle que il est là", "elle rappelle que il est là", &[(0, 0, 0)]), [(0, 0, 0)]);
        assert_eq!(check("il rappelle que il est là", "vous rappelle que il est là", &[(0, 0, 0)]), []);
        assert_eq!(check("cela vous rappelle", "cela te rappelle", &[(2, 1, 1)]), [(2, 1, 1)]);
        // An article-like form only as the bridge's very word: "l'" for "le" is not carried.
        assert_eq!(check("on le voit", "on l' voit", &[(4, 1, 1)]), []);
        assert_eq!(check("on le voit", "on le voit bien", &[(4, 1, 1)]), [(4, 1, 1)]);
        // To a word that is no pronoun: not carried.
        assert_eq!(check("il est là", "Paris est là", &[(0, 0, 0)]), []);
    }

    #[test]
    fn several_pronouns_are_cut_down_to_the_aligners() {
        let (source, target) = ("it must be admitted that", "il faut admettre qu' il");
        assert_eq!(settled(source, target, &[(0, 0), (0, 4), (3, 2)], &[(0, 0)]), vec![(0, 0), (3, 2)]);
        // The aligner links neither: both go, and the aligner's reading of the pronoun stands.
        assert_eq!(settled(source, target, &[(0, 0), (0, 4)], &[]), vec![]);
    }

    #[test]
    fn a_pronoun_carried_from_two_source_pronouns_stays_with_the_aligners() {
        let (source, target) = ("they say , it might", "disent-ils , il pourrait");
        assert_eq!(settled(source, target, &[(0, 2), (3, 2)], &[(0, 0), (3, 2)]), vec![(3, 2)]);
    }

    #[test]
    fn an_article_gives_way_to_a_sure_pronoun_but_not_a_clitic_before_its_verb() {
        let (source, target) = ("it could be dark matter", "il pourrait être la matière noire");
        assert_eq!(settled(source, target, &[(0, 3), (4, 4)], &[(0, 0)]), vec![(4, 4)]);
        // No sure pronoun from the aligner: the carried link stays.
        assert_eq!(settled(source, target, &[(0, 3)], &[(0, 1)]), vec![(0, 3)]);
        // "manage it" → "le gérer": the clitic right before the verb's translation stays.
        let (source, target) = ("to manage it", "ce qui permet de le gérer");
        assert_eq!(settled(source, target, &[(1, 5), (2, 4)], &[(2, 0)]), vec![(1, 5), (2, 4)]);
    }
}
