//! Where a DiscEvalMT block's pronoun and antecedent head are, from what the block itself tells:
//! the French words that differ between its correct and incorrect translations (the pronoun, or
//! the participle agreeing with it) and between the translations of its context sentence (the
//! antecedent's nouns), mapped to the English by the kind and order of the pronouns and by the
//! built-in aligner's links for the nouns (docs/suite-format.md, "DiscEvalMT").

use super::{Label, Translation};
use crate::metrics::auto_eval::agreement::{By, Judge, heads_phrase};
use crate::model::alignment::Links;
use crate::model::lexicon::Lexicon;
use crate::model::pronouns::{FRENCH, Reading};
use crate::model::tokens;
use similar::{Algorithm, DiffOp, capture_diff_slices};
use std::collections::HashMap;

/// Where a block's pronoun and antecedent head are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The English pronoun: its token in the current sentence.
    pub pronoun: u32,
    /// The English antecedent head: its token in the context sentence.
    pub head: u32,
    /// Per translation of the block, in its order: the French tokens of its current sentence
    /// that translate the pronoun, and of its context sentence that translate the head (empty
    /// where the block does not tell: the aligner's links are kept there).
    pub translations: Vec<(Vec<u32>, Vec<u32>)>,
}

/// The kinds of pronouns, for finding the English one a French one translates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// il, elle, ils, elles: it, they.
    Subject,
    /// le, la, l', les, eux, and elle(s) after a preposition: it, them.
    Object,
    /// celui, celle(s), ceux (-ci, -là): one, ones, this, that, these, those.
    Demonstrative,
    /// le mien, la tienne…: mine, yours, his, hers, ours, theirs.
    Possessive,
    /// un, une after en: one.
    One,
}

impl Kind {
    /// The English words of the kind.
    fn english(self) -> &'static [&'static str] {
        match self {
            Kind::Subject => &["it", "they"],
            Kind::Object => &["it", "them"],
            Kind::Demonstrative => &["one", "ones", "this", "that", "these", "those"],
            Kind::Possessive => &["mine", "yours", "his", "hers", "ours", "theirs"],
            Kind::One => &["one"],
        }
    }

    /// Personal pronouns first: a block that changes `le` and `un` tests `it`.
    fn priority(self) -> u8 {
        match self {
            Kind::Subject | Kind::Object => 0,
            Kind::Demonstrative | Kind::Possessive | Kind::One => 1,
        }
    }
}

/// English words that are never an antecedent head.
const ENGLISH_FUNCTION_WORDS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their", "of", "to",
    "in", "on", "at", "for", "with", "from", "by", "about", "and", "or", "but", "so", "if", "as", "is", "are", "was",
    "were", "be", "been", "will", "would", "can", "could", "should", "do", "does", "did", "n't", "'s", "'re", "'ll",
    "'ve", "'d", "'m", "not", "no", "yes", "i", "you", "he", "she", "it", "we", "they", "me", "him", "us", "them",
    "there", "here", "how", "what", "who", "which", "why", "where", "when", "very", "really", "all", "some", "any",
    "such", "oh", "well", "okay", "then", "too", "also", "just", "only", "one",
];

/// English words after which `it` starts a clause (and is a subject).
const CLAUSE_STARTS: &[&str] =
    &[",", ";", ":", "and", "but", "or", "so", "if", "because", "when", "that", "then", "since", "while", "whilst"];

/// Words before a French personal pronoun that make it a stressed (object) form: `qu' elles`.
const FRENCH_PREPOSITIONS: &[&str] =
    &["à", "de", "d'", "pour", "par", "sur", "sous", "dans", "avec", "sans", "vers", "chez", "entre", "contre"];

/// The tokens of a tokenised sentence, in lower case with the plain apostrophe.
pub fn words(sentence: &str) -> Vec<String> {
    tokens::tokens(sentence).map(crate::metrics::auto_eval::matching::normalise).collect()
}

/// The positions of `a` and of `b` that are not in their longest common subsequence.
pub fn differing(a: &[String], b: &[String]) -> (Vec<u32>, Vec<u32>) {
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for op in capture_diff_slices(Algorithm::Myers, a, b) {
        if !matches!(op, DiffOp::Equal { .. }) {
            left.extend(op.old_range().map(|i| i as u32));
            right.extend(op.new_range().map(|i| i as u32));
        }
    }
    (left, right)
}

/// The French pronoun a translation's differing words point at, with its kind: a differing
/// pronoun form that shows a gender, or the clitic whose gender a differing participle shows.
/// `Err` when two forms of the same priority differ.
fn french_pronoun(sentence: &str, differing: &[u32]) -> Result<Option<(u32, Kind)>, Unplaceable> {
    let words = words(sentence);
    let Some(judge) = Judge::for_language("fr") else { return Ok(None) };
    let mut found: Vec<(u32, Kind)> = Vec::new();
    for &at in differing {
        let at = at as usize;
        let shown = judge.shown_at(sentence, at).filter(|s| s.by != By::Participle);
        if let Some(kind) = shown.and_then(|_| kind(&words, at)) {
            found.push((at as u32, kind));
            continue;
        }
        // A participle that differs: the clitic before it whose gender it shows.
        let clitic = (at.saturating_sub(PARTICIPLE_DISTANCE)..at).find(|&c| {
            judge.shown_at(sentence, c).is_some_and(|s| s.by == By::Participle && s.words.ends_with(&words[at]))
        });
        if let Some(c) = clitic {
            found.push((c as u32, Kind::Object));
        }
    }
    found.sort_by_key(|&(at, kind)| (kind.priority(), at));
    found.dedup();
    match &found[..] {
        [] => Ok(None),
        [first, second, ..] if first.1.priority() == second.1.priority() => {
            Err(Unplaceable::TwoPronouns(words[first.0 as usize].clone(), words[second.0 as usize].clone()))
        }
        [first, ..] => Ok(Some(*first)),
    }
}

/// How far before a participle the clitic it agrees with is looked for (`l' ai pas vue`).
const PARTICIPLE_DISTANCE: usize = 5;

/// The kind of the pronoun form at `i` (one the judge reads as showing a gender).
fn kind(words: &[String], i: usize) -> Option<Kind> {
    let word = words[i].as_str();
    let base = ["-ci", "-là", "-même", "-mêmes"].iter().find_map(|s| word.strip_suffix(s)).unwrap_or(word);
    let hyphened = base.rsplit_once('-').map(|(_, last)| last);
    let elided = base.rsplit_once('\'').map(|(_, last)| last).filter(|l| !l.is_empty());
    let form = hyphened.or(elided).unwrap_or(base);
    let agreeing = FRENCH.agreeing(form)?;
    // After a preposition, or after que with nothing to be the subject of (`plus qu' elles !`):
    // a stressed form, an object.
    let stressed = i.checked_sub(1).is_some_and(|j| {
        let before = words[j].as_str();
        let verb_after = words.get(i + 1).is_some_and(|w| w.chars().any(char::is_alphanumeric));
        FRENCH_PREPOSITIONS.contains(&before) || matches!(before, "que" | "qu'") && !verb_after
    });
    Some(match (agreeing.reading, form) {
        (Reading::Always, "celui" | "celle" | "ceux" | "celles") => Kind::Demonstrative,
        (Reading::Always, "eux") => Kind::Object,
        (Reading::Always, _) if stressed => Kind::Object,
        (Reading::Always, _) => Kind::Subject,
        (Reading::Clitic | Reading::HidesGender, _) => Kind::Object,
        (Reading::AfterEn, _) => Kind::One,
        (Reading::Possessive | Reading::PossessiveAfterArticle, _) => Kind::Possessive,
    })
}

/// Whether the English `it` at `i` is a subject: at the start of a clause, before a word.
fn english_subject(words: &[String], i: usize) -> bool {
    let starts = i == 0 || CLAUSE_STARTS.contains(&words[i - 1].as_str());
    starts && words.get(i + 1).is_some_and(|w| w.chars().any(char::is_alphanumeric))
}

/// The English pronoun a French one of `kind` translates: the only English word of the kind,
/// else the one of the same grammatical role and rank.
fn english_pronoun(english: &[String], french: &[String], at: u32, kind: Kind) -> Result<u32, Unplaceable> {
    let candidates: Vec<usize> =
        (0..english.len()).filter(|&i| kind.english().contains(&english[i].as_str())).collect();
    let candidates: Vec<usize> = match kind {
        Kind::Demonstrative if candidates.iter().any(|&i| english[i].starts_with("one")) => {
            candidates.into_iter().filter(|&i| english[i].starts_with("one")).collect()
        }
        _ => candidates,
    };
    if let [only] = candidates[..] {
        return Ok(only as u32);
    }
    let role = |i: &usize| match english[*i].as_str() {
        "it" => english_subject(english, *i) == (kind == Kind::Subject),
        _ => true,
    };
    let same_role: Vec<usize> = candidates.into_iter().filter(role).collect();
    let same_kind: Vec<usize> = (0..french.len()).filter(|&i| self::kind(french, i) == Some(kind)).collect();
    let rank = same_kind.iter().position(|&i| i as u32 == at);
    match (&same_role[..], rank) {
        ([only], _) => Ok(*only as u32),
        (several, Some(rank)) if several.len() == same_kind.len() && !several.is_empty() => Ok(several[rank] as u32),
        _ => Err(Unplaceable::NoEnglishPronoun(french[at as usize].clone())),
    }
}

/// The nouns of a translation's context sentence that differ from the other translations': words
/// the lexicon knows as nouns, heading a noun phrase (after an article, a determiner or a
/// preposition, perhaps through an adjective), so that an adjective or a participle agreeing
/// with them is not taken (`une histoire pareille`, `les chouettes … protégées`).
fn differing_nouns(contexts: &[Vec<String>], i: usize) -> Vec<u32> {
    let lexicon = Lexicon::french();
    let context = &contexts[i];
    let mut differ: Vec<u32> =
        contexts.iter().filter(|c| *c != context).flat_map(|c| differing(context, c).0).collect();
    differ.sort_unstable();
    differ.dedup();
    differ
        .into_iter()
        .filter(|&at| {
            let word = &context[at as usize];
            !FRENCH.is_function_word(word)
                && word.chars().count() > 1
                && lexicon.get(word).is_some_and(|e| e.is_noun())
                && heads_phrase(lexicon, context, at as usize)
        })
        .collect()
}

/// The English antecedent head of a block and each translation's differing nouns: the English
/// content word of the context sentence that the evidence points to — the aligner's links from
/// the differing nouns (a vote per distinct context sentence), a cognate among those nouns
/// (`letters`, `lettres`), and the end of a noun phrase (`a delicious ale`). `Err` when no word
/// has the most.
fn head(block: &[Translation], english: &[String], links: &[Links]) -> Result<(u32, Vec<Vec<u32>>), Unplaceable> {
    let contexts: Vec<Vec<String>> = block.iter().map(|t| words(&t.sentences[0])).collect();
    let nouns: Vec<Vec<u32>> = (0..block.len()).map(|i| differing_nouns(&contexts, i)).collect();
    let mut votes: HashMap<u32, usize> = HashMap::new();
    let mut voters = 0;
    let mut seen: Vec<&Vec<String>> = Vec::new();
    for (i, context) in contexts.iter().enumerate() {
        if nouns[i].is_empty() || seen.contains(&context) {
            continue;
        }
        seen.push(context);
        voters += 1;
        let mut linked: Vec<u32> = links[i].iter().filter(|(_, t)| nouns[i].contains(t)).map(|&(s, _)| s).collect();
        linked.sort_unstable();
        linked.dedup();
        linked = linked.into_iter().filter_map(|s| to_content(english, s as usize)).map(|s| s as u32).collect();
        linked.dedup();
        for s in linked {
            *votes.entry(s).or_default() += 1;
        }
    }
    if voters == 0 {
        return Err(Unplaceable::NoDifferingNoun);
    }
    let french_nouns: Vec<&str> =
        nouns.iter().zip(&contexts).flat_map(|(n, c)| n.iter().map(|&at| c[at as usize].as_str())).collect();
    let lexicon = Lexicon::french();
    let plural =
        |f: &&&str| lexicon.get(f).is_some_and(|e| e.noun.number() == Some(crate::model::lexicon::Number::Plural));
    let french_plural = 2 * french_nouns.iter().filter(plural).count() > french_nouns.len();
    let score = |e: usize| {
        let cognate = french_nouns.iter().any(|f| cognates(&english[e], f));
        let number = looks_plural(&english[e]) == french_plural;
        votes.get(&(e as u32)).copied().unwrap_or(0)
            + voters * usize::from(cognate)
            + usize::from(ends_phrase(english, e))
            + usize::from(number)
    };
    let scores: Vec<(usize, usize)> =
        (0..english.len()).filter(|&e| is_content(english, e)).map(|e| (e, score(e))).collect();
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    let winners: Vec<usize> = scores.iter().filter(|&&(_, s)| s == best).map(|&(e, _)| e).collect();
    match winners[..] {
        [head] if best > 1 => Ok((head as u32, nouns)),
        _ => Err(Unplaceable::NoHead),
    }
}

/// The content word an aligner's link to the English word at `i` stands for: the word itself,
/// or, for a function word, its one neighbour that is a content word (links to `the` or `isn`
/// next to the noun are a statistical aligner's common slip).
fn to_content(english: &[String], i: usize) -> Option<usize> {
    if is_content(english, i) {
        return Some(i);
    }
    let neighbours: Vec<usize> = [i.checked_sub(1), Some(i + 1)]
        .into_iter()
        .flatten()
        .filter(|&j| j < english.len() && is_content(english, j))
        .collect();
    match neighbours[..] {
        [one] => Some(one),
        _ => None,
    }
}

/// Whether an English word looks plural: ends in `s` (not `ss`, `us`, `is`), or is one of the
/// common irregular plurals.
fn looks_plural(word: &str) -> bool {
    let irregular = ["people", "men", "women", "children", "police", "media", "feet", "teeth", "mice", "data"];
    irregular.contains(&word) || word.ends_with('s') && !["ss", "us", "is"].iter().any(|e| word.ends_with(e))
}

/// Whether an English and a French word look alike: the same start, over at least three letters
/// and half of the shorter (accents aside): `letters`/`lettres`, `river`/`rivière`.
fn cognates(english: &str, french: &str) -> bool {
    let plain = |c: char| match c {
        'à' | 'â' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'î' | 'ï' => 'i',
        'ô' | 'ö' => 'o',
        'ù' | 'û' | 'ü' => 'u',
        'ç' => 'c',
        c => c,
    };
    let common = english.chars().zip(french.chars().map(plain)).take_while(|(a, b)| a == b).count();
    let shorter = english.chars().count().min(french.chars().count());
    common >= 3 && 2 * common >= shorter
}

/// Whether the English word at `i` ends a noun phrase begun by a determiner (`the buildings`,
/// `a delicious ale`): a determiner at most three words before, content words between, and
/// after it an end, punctuation or a function word.
fn ends_phrase(english: &[String], i: usize) -> bool {
    let after_ok =
        english.get(i + 1).is_none_or(|w| !is_content(english, i + 1) || !w.chars().any(char::is_alphabetic));
    let determiner = (i.saturating_sub(3)..i)
        .rev()
        .take_while(|&j| j + 1 == i || is_content(english, j + 1))
        .any(|j| ENGLISH_DETERMINERS.contains(&english[j].as_str()));
    after_ok && determiner
}

/// A word of the English sentence that may be a noun: letters only, no function word, not the
/// first part of a negation (`isn 't`).
fn is_content(english: &[String], i: usize) -> bool {
    let word = english[i].as_str();
    let negated = english.get(i + 1).is_some_and(|w| w == "'t" || w == "n't");
    word.chars().all(char::is_alphabetic) && !ENGLISH_FUNCTION_WORDS.contains(&word) && !negated
}

/// English words that begin a noun phrase.
const ENGLISH_DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their", "such",
    "some", "any", "another", "every", "each", "all", "no",
];

/// Why a block cannot be placed: the evidence points at no one pronoun or antecedent head.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unplaceable {
    /// Two French pronouns of the same priority differ (the two words).
    #[error("two pronouns differ between the correct and incorrect translations ('{0}', '{1}')")]
    TwoPronouns(String, String),
    /// The French pronoun's kind, role and rank point at no one English word.
    #[error("no one English pronoun for the French '{0}'")]
    NoEnglishPronoun(String),
    #[error("the translations point at different English pronouns")]
    DifferentPronouns,
    #[error("no pronoun differs between the correct and incorrect translations")]
    NoDifferingPronoun,
    #[error("no noun differs between the translations of the context sentence")]
    NoDifferingNoun,
    #[error("the nouns that differ between the translations of the context sentence point to no one English word")]
    NoHead,
}

/// Places a block: its English sentences (context, current) and translations, and the
/// aligner's links of each translation's context sentence.
pub fn place(source: &[String; 2], block: &[Translation], context_links: &[Links]) -> Result<Placement, Unplaceable> {
    let current = words(&source[1]);
    let french: Vec<Vec<String>> = block.iter().map(|t| words(&t.sentences[1])).collect();
    let mut differ: Vec<Vec<u32>> = vec![Vec::new(); block.len()];
    for (i, t) in block.iter().enumerate() {
        let contrasts = block.iter().enumerate().filter(|(j, u)| {
            u.entry == t.entry && *j != i && (u.label == Label::Incorrect) != (t.label == Label::Incorrect)
        });
        for (j, _) in contrasts {
            differ[i].extend(differing(&french[i], &french[j]).0);
        }
        differ[i].sort_unstable();
        differ[i].dedup();
    }
    let mut pronouns: Vec<Vec<u32>> = vec![Vec::new(); block.len()];
    let mut english: Option<u32> = None;
    for (i, words) in french.iter().enumerate() {
        let Some((at, kind)) = french_pronoun(&block[i].sentences[1], &differ[i])? else { continue };
        let found = english_pronoun(&current, words, at, kind)?;
        if english.is_some_and(|e| e != found) {
            return Err(Unplaceable::DifferentPronouns);
        }
        english = Some(found);
        pronouns[i] = vec![at];
    }
    let pronoun = english.ok_or(Unplaceable::NoDifferingPronoun)?;
    let (head, nouns) = head(block, &words(&source[0]), context_links)?;
    Ok(Placement { pronoun, head, translations: pronouns.into_iter().zip(nouns).collect() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        words(s)
    }

    #[test]
    fn differing_words() {
        let (a, b) = differing(&w("Ils seront bientôt pleins ."), &w("Elles seront bientôt pleines ."));
        assert_eq!((a, b), (vec![0, 3], vec![0, 3]));
    }

    #[test]
    fn the_french_pronoun_among_the_differing_words() {
        assert_eq!(french_pronoun("Ils seront bientôt pleins .", &[0, 3]), Ok(Some((0, Kind::Subject))));
        assert_eq!(french_pronoun("Bah , je les ai achetés ce matin .", &[5]), Ok(Some((3, Kind::Object))));
        let share = "Je n' en ai qu' un , mais on pourrait le partager ...";
        assert_eq!(french_pronoun(share, &[5, 10]), Ok(Some((10, Kind::Object))), "it before one");
        let than = "Mais il passe plus de temps à se préparer qu' elles !";
        assert_eq!(french_pronoun(than, &[10]), Ok(Some((10, Kind::Object))));
        let that = "Comment est-ce qu' elles te rendent si grand ?";
        assert_eq!(french_pronoun(that, &[3]), Ok(Some((3, Kind::Subject))));
        assert_eq!(french_pronoun("Celui-ci est différent .", &[0, 2]), Ok(Some((0, Kind::Demonstrative))));
        assert!(french_pronoun("Il la voit .", &[0, 1]).is_err());
        assert_eq!(french_pronoun("Une table .", &[0]), Ok(None), "an article, not after en");
        assert_eq!(french_pronoun("Je vois la table .", &[2]), Ok(None), "an article");
    }

    #[test]
    fn the_english_pronoun_by_kind_role_and_rank() {
        let e = |s: &str, f: &str, at, kind| english_pronoun(&w(s), &w(f), at, kind);
        assert_eq!(
            e("It feels great to finally see it .", "C' est chouette de la voir enfin .", 4, Kind::Object),
            Ok(6)
        );
        assert_eq!(
            e(
                "If you don 't like it , don 't look at it .",
                "Si tu ne l' aimes pas , ne la regarde pas .",
                8,
                Kind::Object
            ),
            Ok(11)
        );
        assert_eq!(e("This one 's different .", "Celui-ci est différent .", 0, Kind::Demonstrative), Ok(1));
        assert_eq!(e("Where is it then ?", "Alors il est où ?", 1, Kind::Subject), Ok(2));
        assert_eq!(
            e("They would love to get their hands on them .", "Ils adoreraient les avoir .", 0, Kind::Subject),
            Ok(0)
        );
        assert!(e("I know .", "Je sais .", 0, Kind::Subject).is_err());
    }
}
