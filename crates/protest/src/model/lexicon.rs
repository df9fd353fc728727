//! The gender and number of French words: nouns, and the adjectives and past participles that
//! agree with a pronoun. What the agreement judge reads (docs/auto-eval.md, "The agreement
//! judge").
//!
//! The table is Grammalecte's French dictionary as Debian's `hunspell-fr-classical` ships it
//! (MPL-2.0), every inflected form expanded by `scripts/french-lexicon` and kept as a sorted map
//! from the form to its features ([`Entry::code`]); it is built into the program
//! (`lexicon/README.md` says where it comes from and how it is rebuilt).

use fst::Map;
use std::sync::OnceLock;

/// The table, built into the program.
static FRENCH_TABLE: &[u8] = include_bytes!("lexicon/fr.fst");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gender {
    Masculine,
    Feminine,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Number {
    Singular,
    Plural,
}

impl Gender {
    pub const ALL: [Gender; 2] = [Gender::Masculine, Gender::Feminine];

    pub fn name(self) -> &'static str {
        match self {
            Gender::Masculine => "masculine",
            Gender::Feminine => "feminine",
        }
    }
}

impl Number {
    pub const ALL: [Number; 2] = [Number::Singular, Number::Plural];

    pub fn name(self) -> &'static str {
        match self {
            Number::Singular => "singular",
            Number::Plural => "plural",
        }
    }
}

/// The genders and numbers a word may have: a set of (gender, number) pairs. An epicene noun has
/// both genders, an invariable one both numbers, a word with two readings the pairs of both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Features(u8);

impl Features {
    pub const NONE: Features = Features(0);

    fn bit(gender: Gender, number: Number) -> u8 {
        1 << (gender as u8 * 2 + number as u8)
    }

    /// Exactly one gender and number.
    pub fn of(gender: Gender, number: Number) -> Features {
        Features(Features::bit(gender, number))
    }

    /// One gender, either number.
    pub fn of_gender(gender: Gender) -> Features {
        Features::of(gender, Number::Singular).or(Features::of(gender, Number::Plural))
    }

    /// One number, either gender.
    pub fn of_number(number: Number) -> Features {
        Features::of(Gender::Masculine, number).or(Features::of(Gender::Feminine, number))
    }

    pub fn or(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    pub fn and(self, other: Features) -> Features {
        Features(self.0 & other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, gender: Gender, number: Number) -> bool {
        self.0 & Features::bit(gender, number) != 0
    }

    /// The gender every reading shares, if there are readings and they all have one.
    pub fn gender(self) -> Option<Gender> {
        let genders: Vec<Gender> =
            Gender::ALL.into_iter().filter(|&g| !self.and(Features::of_gender(g)).is_empty()).collect();
        match genders[..] {
            [g] => Some(g),
            _ => None,
        }
    }

    /// The number every reading shares, if there are readings and they all have one.
    pub fn number(self) -> Option<Number> {
        let numbers: Vec<Number> =
            Number::ALL.into_iter().filter(|&n| !self.and(Features::of_number(n)).is_empty()).collect();
        match numbers[..] {
            [n] => Some(n),
            _ => None,
        }
    }

    /// In words: "feminine plural", "masculine (either number)", "either gender, plural".
    pub fn describe(self) -> String {
        match (self.gender(), self.number()) {
            _ if self.is_empty() => "none".to_owned(),
            (Some(g), Some(n)) => format!("{} {}", g.name(), n.name()),
            (Some(g), None) => format!("{} (either number)", g.name()),
            (None, Some(n)) => format!("either gender, {}", n.name()),
            (None, None) => "either gender and number".to_owned(),
        }
    }

    pub fn bits(self) -> u8 {
        self.0
    }

    pub fn from_bits(bits: u8) -> Features {
        Features(bits & 0b1111)
    }
}

/// What the lexicon knows of one word form.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Entry {
    /// Its readings as a noun ([`Features::NONE`]: none).
    pub noun: Features,
    /// Its readings as an adjective or a past participle.
    pub adjective: Features,
    /// It is also a form of a verb other than its past participle (`porte`, `ranger`).
    pub verb: bool,
}

impl Entry {
    /// The value stored in the table: noun readings in bits 0–3, adjective readings in bits 4–7,
    /// the verb flag in bit 8.
    pub fn code(&self) -> u64 {
        u64::from(self.noun.bits()) | u64::from(self.adjective.bits()) << 4 | u64::from(self.verb) << 8
    }

    pub fn from_code(code: u64) -> Entry {
        Entry {
            noun: Features::from_bits((code & 0xf) as u8),
            adjective: Features::from_bits((code >> 4 & 0xf) as u8),
            verb: code >> 8 & 1 == 1,
        }
    }

    pub fn is_noun(&self) -> bool {
        !self.noun.is_empty()
    }

    pub fn is_adjective(&self) -> bool {
        !self.adjective.is_empty()
    }
}

/// A table of word forms.
#[derive(Debug)]
pub struct Lexicon {
    /// `None` if the table built in could not be read (a test checks that it can): then every
    /// word is unknown, and the agreement judge leaves everything to people.
    map: Option<Map<&'static [u8]>>,
}

impl Lexicon {
    /// The French lexicon built into the program.
    pub fn french() -> &'static Lexicon {
        static FRENCH: OnceLock<Lexicon> = OnceLock::new();
        FRENCH.get_or_init(|| Lexicon { map: Map::new(FRENCH_TABLE).ok() })
    }

    /// What the table says of `form`, spelt exactly so (case included; the apostrophe is `'`).
    pub fn get(&self, form: &str) -> Option<Entry> {
        self.map.as_ref()?.get(form).map(Entry::from_code)
    }

    /// The number of forms in the table.
    pub fn len(&self) -> usize {
        self.map.as_ref().map_or(0, Map::len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The size of the table in bytes.
    pub fn bytes(&self) -> usize {
        self.map.as_ref().map_or(0, |m| m.as_fst().as_bytes().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Gender::{Feminine as F, Masculine as M};
    use Number::{Plural as P, Singular as S};

    fn noun(word: &str) -> Features {
        Lexicon::french().get(word).map_or(Features::NONE, |e| e.noun)
    }

    fn adjective(word: &str) -> Features {
        Lexicon::french().get(word).map_or(Features::NONE, |e| e.adjective)
    }

    #[test]
    fn the_table_built_in_is_read() {
        let lexicon = Lexicon::french();
        assert!(lexicon.len() > 100_000, "{} forms", lexicon.len());
        assert!(lexicon.bytes() < 2_000_000, "{} bytes", lexicon.bytes());
    }

    #[test]
    fn nouns_with_their_gender_and_number() {
        assert_eq!(noun("bâtiment"), Features::of(M, S));
        assert_eq!(noun("bâtiments"), Features::of(M, P));
        assert_eq!(noun("maisons"), Features::of(F, P));
        // Invariable: both numbers, one gender.
        assert_eq!(noun("vis"), Features::of_gender(F));
        assert_eq!(noun("vis").gender(), Some(F));
        assert_eq!(noun("vis").number(), None);
        // Epicene: no gender to agree with.
        assert_eq!(noun("gens").gender(), None);
        assert_eq!(noun("journaliste").gender(), None);
        // Two nouns of two genders (le livre, la livre).
        assert_eq!(noun("livre").gender(), None);
        // Regular and irregular plurals.
        assert_eq!(noun("hiboux"), Features::of(M, P));
        assert_eq!(noun("chevaux"), Features::of(M, P));
        assert_eq!(noun("chouettes"), Features::of(F, P), "the noun, not the adjective");
        assert_eq!(noun("chouettes"), Features::of(F, P));
        assert!(Lexicon::french().get("xyzzy").is_none());
    }

    #[test]
    fn adjectives_and_past_participles() {
        assert_eq!(adjective("achetées"), Features::of(F, P));
        assert_eq!(adjective("achetés"), Features::of(M, P));
        assert_eq!(adjective("laissée"), Features::of(F, S));
        assert_eq!(adjective("pris"), Features::of_gender(M));
        assert_eq!(adjective("prises"), Features::of(F, P));
        assert_eq!(adjective("dévastatrices"), Features::of(F, P));
        assert_eq!(adjective("utiles").gender(), None);
        // A noun that is also a verb form, and one that is not.
        assert!(Lexicon::french().get("ranger").is_some_and(|e| e.verb && e.is_noun()));
        assert!(Lexicon::french().get("maison").is_some_and(|e| !e.verb));
    }

    #[test]
    fn features_in_words_and_codes() {
        assert_eq!(Features::of(F, P).describe(), "feminine plural");
        assert_eq!(Features::of_gender(M).describe(), "masculine (either number)");
        assert_eq!(Features::of_number(P).describe(), "either gender, plural");
        let entry = Entry { noun: Features::of(M, S), adjective: Features::of_gender(F), verb: true };
        assert_eq!(Entry::from_code(entry.code()), entry);
        assert_eq!(Features::of(M, S).or(Features::of(F, S)).and(Features::of_number(S)).number(), Some(S));
    }
}
