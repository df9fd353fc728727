//! The pronoun forms of a target language, written once for every use: the automatic reference
//! match reduces aligned tokens to them (docs/auto-eval.md), APT reads translations with them
//! (docs/metrics.md), add-system's alignment repair links source pronouns to them
//! (docs/alignment.md), the agreement judge reads the gender and number they show
//! (docs/auto-eval.md). French only so far; words are lowercase, with the plain apostrophe.

use super::lexicon::{Gender, Number};

/// One target language's pronouns and the groups APT compares them by.
#[derive(Debug, PartialEq, Eq)]
pub struct Pronouns {
    /// The language's name, for notes in reports.
    pub name: &'static str,
    /// Subject pronouns and the demonstratives that translate `it` (`c' est`, `cela`).
    pub subject: &'static [&'static str],
    /// Object clitics. Also articles (`le`, `la`, `les`) or adverbial (`y`, `en`), so the
    /// alignment repair does not link pronouns to them.
    pub object_clitics: &'static [&'static str],
    /// The forms that translate `you`.
    pub addressee: &'static [&'static str],
    /// Groups of identical pronouns (spelling variants); the first member names the group.
    pub equal: &'static [&'static [&'static str]],
    /// Groups of equivalent pronouns (right in some contexts, paper 000 Table 2). Not used by
    /// the automatic match: paper 003 found equivalents correct only about half the time.
    pub similar: &'static [&'static [&'static str]],
    /// Words dropped from an antecedent head's aligned tokens before matching: articles,
    /// determiners, possessives, prepositions, punctuation.
    pub function_words: &'static [&'static str],
    /// The third-person forms that show the gender or number of what they stand for, for the
    /// agreement judge.
    pub agreeing: &'static [Agreeing],
}

/// A pronoun form that shows the gender or number of what it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreeing {
    pub form: &'static str,
    /// `None`: the form hides the gender (`l'`, `les`, `nôtre`).
    pub gender: Option<Gender>,
    /// `None`: the form hides the number (`l'` is singular, but `leur` is either).
    pub number: Option<Number>,
    pub reading: Reading,
}

/// When a form is read as the pronoun that shows gender and number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// Always: `il`, `elles`, `eux`, `celui`, `celles`.
    Always,
    /// As an object clitic, not as the article it also is: `le`, `la`.
    Clitic,
    /// After `en` in its clause (`j'en ai une`, `construis-en un`), not as an article.
    AfterEn,
    /// A possessive pronoun (`mienne`), with or without its article.
    Possessive,
    /// A possessive pronoun only after an article, which shows the gender (`la nôtre`, `le leur`).
    PossessiveAfterArticle,
    /// An object clitic that hides the gender (`l'`, `les`): a past participle agreeing with it
    /// may show it (`je les ai achetées`).
    HidesGender,
}

const fn form(form: &'static str, gender: Option<Gender>, number: Option<Number>, reading: Reading) -> Agreeing {
    Agreeing { form, gender, number, reading }
}

const M: Option<Gender> = Some(Gender::Masculine);
const F: Option<Gender> = Some(Gender::Feminine);
const SG: Option<Number> = Some(Number::Singular);
const PL: Option<Number> = Some(Number::Plural);

const FRENCH_AGREEING: &[Agreeing] = {
    use Reading::*;
    &[
        form("il", M, SG, Always),
        form("ils", M, PL, Always),
        form("elle", F, SG, Always),
        form("elles", F, PL, Always),
        form("eux", M, PL, Always),
        form("celui", M, SG, Always),
        form("celle", F, SG, Always),
        form("ceux", M, PL, Always),
        form("celles", F, PL, Always),
        form("le", M, SG, Clitic),
        form("la", F, SG, Clitic),
        form("un", M, SG, AfterEn),
        form("une", F, SG, AfterEn),
        form("mien", M, SG, Possessive),
        form("mienne", F, SG, Possessive),
        form("miens", M, PL, Possessive),
        form("miennes", F, PL, Possessive),
        form("tien", M, SG, Possessive),
        form("tienne", F, SG, Possessive),
        form("tiens", M, PL, Possessive),
        form("tiennes", F, PL, Possessive),
        form("sien", M, SG, Possessive),
        form("sienne", F, SG, Possessive),
        form("siens", M, PL, Possessive),
        form("siennes", F, PL, Possessive),
        form("nôtre", None, SG, PossessiveAfterArticle),
        form("nôtres", None, PL, PossessiveAfterArticle),
        form("vôtre", None, SG, PossessiveAfterArticle),
        form("vôtres", None, PL, PossessiveAfterArticle),
        form("leur", None, SG, PossessiveAfterArticle),
        form("leurs", None, PL, PossessiveAfterArticle),
        form("l'", None, SG, HidesGender),
        form("les", None, PL, HidesGender),
    ]
};

/// French (paper 000 Table 2 for the groups).
pub const FRENCH: Pronouns = Pronouns {
    name: "French",
    subject: &["il", "ils", "elle", "elles", "ce", "c'", "ça", "ç'", "cela", "ceci", "on"],
    object_clitics: &["le", "la", "l'", "les", "lui", "leur", "y", "en"],
    addressee: &["vous", "tu", "te", "t'", "toi"],
    equal: &[&["ce", "c'"], &["ça", "ç'", "cela"]],
    similar: &[&["ce", "il"], &["ce", "ça"]],
    function_words: &[
        "le", "la", "les", "l'", "un", "une", "des", "du", "de", "d'", "au", "aux", "à", "ce", "cet", "cette", "ces",
        "son", "sa", "ses", "leur", "leurs", "notre", "nos", "votre", "vos", "mon", "ma", "mes", "ton", "ta", "tes",
        "en", "et", ",", ".",
    ],
    agreeing: FRENCH_AGREEING,
};

/// English third-person pronouns: what the alignment repair repairs. `he` and `she` are there so
/// that the French pronouns aligned to them are not taken by an `it` nearby.
pub const ENGLISH_THIRD_PERSON: &[&str] = &["it", "they", "he", "she"];

/// The English pronoun of address, repaired by APT's heuristic too (PROTEST has `you` examples).
pub const ENGLISH_ADDRESSEE: &[&str] = &["you"];

impl Pronouns {
    /// Every form: subject, object clitics, addressee (APT's target pronoun list).
    pub fn forms(&self) -> impl Iterator<Item = &'static str> + use<> {
        let (s, o, a) = (self.subject, self.object_clitics, self.addressee);
        s.iter().chain(o).chain(a).copied()
    }

    /// What a source pronoun may be re-aligned to by APT's heuristic: subject and addressee
    /// forms (the object clitics double as articles).
    pub fn repair_targets(&self) -> impl Iterator<Item = &'static str> + use<> {
        let (s, a) = (self.subject, self.addressee);
        s.iter().chain(a).copied()
    }

    pub fn is_form(&self, word: &str) -> bool {
        self.forms().any(|f| f == word)
    }

    /// The pronoun a (lowercase) token is or ends with: the token itself, else its last part
    /// after a hyphen (`est-il`, `a-t-elle`, `faites-en`), else its last part after an
    /// apostrophe (`qu'il`, `s'il` from tokenisers that do not split them). `s'` itself is no
    /// pronoun here (`si`, `se`), so `s' il` gives only `il`.
    pub fn form_of<'w>(&self, word: &'w str) -> Option<&'w str> {
        let last = |sep: char| word.rsplit(sep).next().filter(|part| !part.is_empty() && part.len() < word.len());
        [Some(word), last('-'), last('\'')].into_iter().flatten().find(|w| self.is_form(w))
    }

    /// The name of a word's group of identical pronouns (`c'` → `ce`, `cela` → `ça`), or the
    /// word itself.
    pub fn identical<'w>(&self, word: &'w str) -> &'w str {
        self.equal.iter().find(|group| group.contains(&word)).map_or(word, |group| group[0])
    }

    pub fn is_function_word(&self, word: &str) -> bool {
        self.function_words.contains(&word)
    }

    /// The agreeing form a (lowercase) word is, if any.
    pub fn agreeing(&self, word: &str) -> Option<&'static Agreeing> {
        self.agreeing.iter().find(|a| a.form == word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_forms() {
        assert_eq!(FRENCH.forms().count(), 24);
        assert_eq!(FRENCH.repair_targets().count(), 16);
        assert!(FRENCH.is_form("vous") && FRENCH.is_form("tu") && FRENCH.is_form("ç'"));
        assert!(!FRENCH.repair_targets().any(|w| w == "la"), "articles are not repair targets");
    }

    #[test]
    fn the_pronoun_in_a_token() {
        let form = |w| FRENCH.form_of(w);
        assert_eq!(form("il"), Some("il"));
        assert_eq!(form("c'"), Some("c'"));
        assert_eq!(form("est-il"), Some("il"));
        assert_eq!(form("a-t-elle"), Some("elle"));
        assert_eq!(form("êtes-vous"), Some("vous"));
        assert_eq!(form("qu'ils"), Some("ils"));
        assert_eq!(form("s'il"), Some("il"));
        assert_eq!(form("s'"), None, "s' is si or se");
        assert_eq!(form("qu'"), None);
        assert_eq!(form("est"), None);
        assert_eq!(form("-"), None);
    }

    #[test]
    fn identical_groups_are_named_by_their_first_member() {
        assert_eq!(FRENCH.identical("c'"), "ce");
        assert_eq!(FRENCH.identical("cela"), "ça");
        assert_eq!(FRENCH.identical("ç'"), "ça");
        assert_eq!(FRENCH.identical("il"), "il");
    }
}
