//! The agreement judge (docs/auto-eval.md, "The agreement judge"): whether the French pronoun a
//! candidate translates an anaphoric pronoun with agrees in gender and number with the noun it
//! translates the antecedent head with, by the lexicon built in ([`crate::model::lexicon`]).
//!
//! It reads only the candidate's own words: the target tokens aligned to the pronoun and to the
//! head, and their neighbours in the sentence. Precision first: whatever it cannot read for sure
//! (a form that shows no gender, an unknown or epicene noun, several nouns or pronouns aligned,
//! numbers that differ) is left to people ([`Open`]).

use crate::model::lexicon::{Features, Gender, Lexicon, Number};
use crate::model::pronouns::{Agreeing, Pronouns, Reading};
use crate::model::{Candidate, Corpus, Example, Language, TokenRef, tokens};

/// The judge for one target language.
#[derive(Debug, Clone, Copy)]
pub struct Judge {
    lexicon: &'static Lexicon,
    pronouns: &'static Pronouns,
}

/// What the judge found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The pronoun agrees with the head's translation in gender and number.
    Agrees(Evidence),
    /// The pronoun's gender differs from the head's translation's, their numbers agreeing.
    Disagrees(Evidence),
    /// Left to people, and why.
    Open(Open),
}

/// What a verdict rests on: the words that show the pronoun's gender and number, and the head's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub pronoun: Shown,
    pub head: Shown,
}

/// Words and the genders and numbers they show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub words: String,
    pub features: Features,
    pub by: By,
}

/// Where the pronoun's gender comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum By {
    /// The pronoun's own form (`elle`, `celui-ci`, `la`, `une` after `en`, `les miennes`).
    Form,
    /// A past participle agreeing with a pronoun that hides its gender (`je les ai achetées`).
    Participle,
    /// The antecedent head's noun, by the lexicon.
    Noun,
}

impl By {
    pub fn describe(self) -> &'static str {
        match self {
            By::Form => "the pronoun's form",
            By::Participle => "a past participle agreeing with the pronoun",
            By::Noun => "the noun",
        }
    }
}

/// Why a candidate is left to people.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Open {
    /// Not an anaphoric example, or not with exactly one antecedent.
    NotOneAntecedent,
    /// No pronoun form among the tokens aligned to the pronoun (or none aligned).
    NoPronoun,
    /// A pronoun form that shows no gender (`les`, `l'` without a participle, `lui`, `ce`, `y`).
    NoGender(String),
    /// Several pronoun forms aligned, or forms that say different things.
    SeveralPronouns,
    /// Nothing aligned to the head but function words, or nothing at all.
    NoHead,
    /// A word aligned to the head that the lexicon does not know.
    UnknownWord(String),
    /// No noun among the head's aligned words.
    NoNoun,
    /// Several nouns aligned to the head.
    SeveralNouns,
    /// A noun of either gender (epicene, or two nouns of one spelling).
    EitherGender(String),
    /// The noun does not head its noun phrase (`les candidats américains recrues`): another noun
    /// may be what the pronoun agrees with.
    NotHeadNoun(String),
    /// The numbers differ (collective nouns, "the team … they"): not read as agreement or not.
    NumberDiffers,
}

impl Open {
    pub fn describe(&self) -> String {
        match self {
            Open::NotOneAntecedent => "not one antecedent".into(),
            Open::NoPronoun => "no pronoun form aligned".into(),
            Open::NoGender(w) => format!("'{w}' shows no gender"),
            Open::SeveralPronouns => "several pronoun forms aligned".into(),
            Open::NoHead => "no word aligned to the head".into(),
            Open::UnknownWord(w) => format!("'{w}' is not in the lexicon"),
            Open::NoNoun => "no noun aligned to the head".into(),
            Open::SeveralNouns => "several nouns aligned to the head".into(),
            Open::EitherGender(w) => format!("'{w}' may be of either gender"),
            Open::NotHeadNoun(w) => format!("'{w}' does not head its noun phrase"),
            Open::NumberDiffers => "the numbers differ".into(),
        }
    }
}

impl Verdict {
    /// In words, for the translation window.
    pub fn describe(&self) -> String {
        let both = |e: &Evidence| {
            format!(
                "'{}' ({}) and '{}' ({})",
                e.pronoun.words,
                e.pronoun.features.describe(),
                e.head.words,
                e.head.features.describe()
            )
        };
        match self {
            Verdict::Agrees(e) => format!("{} agree", both(e)),
            Verdict::Disagrees(e) => format!("{} disagree in gender", both(e)),
            Verdict::Open(why) => format!("left to people: {}", why.describe()),
        }
    }
}

/// Adverbs that may stand between an auxiliary and its participle (`je ne l'ai pas vue`).
const ADVERBS: &[&str] = &[
    "pas",
    "plus",
    "jamais",
    "point",
    "guère",
    "déjà",
    "bien",
    "mal",
    "toujours",
    "encore",
    "vraiment",
    "souvent",
    "enfin",
    "aussi",
    "même",
    "tout",
    "beaucoup",
    "peut-être",
];

/// Forms of `avoir`, the auxiliary whose past participle agrees with a preceding direct object.
const AVOIR: &[&str] = &[
    "ai", "as", "a", "avons", "avez", "ont", "avais", "avait", "avions", "aviez", "avaient", "aurai", "auras", "aura",
    "aurons", "aurez", "auront", "aurais", "aurait", "aurions", "auriez", "auraient", "aie", "aies", "ait", "ayons",
    "ayez", "aient", "eus", "eut", "eûmes", "eûtes", "eurent", "eusse", "eût", "avoir", "ayant",
];

/// Words before which `le` or `la` is an article when the next word may be a noun as well as a
/// verb (`pour la porte`).
const PREPOSITIONS: &[&str] = &[
    "à", "de", "d'", "du", "des", "au", "aux", "pour", "par", "sur", "sous", "dans", "avec", "sans", "vers", "chez",
    "entre", "contre", "en", "et", "ou", "mais", "que", "qu'", "selon", "après", "avant", "pendant", "depuis",
];

/// Subject pronouns and negation, after which `le` or `la` is a clitic.
const SUBJECTS: &[&str] =
    &["je", "j'", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "ne", "n'", "qui", "ça", "cela"];

/// Determiners and quantifiers that come with a head's noun, beyond the function words the match
/// drops.
const DETERMINERS: &[&str] =
    &["tous", "toutes", "tout", "toute", "quelques", "plusieurs", "chaque", "certains", "certaines", "aucun", "aucune"];

/// How far back `en` is looked for before `un` or `une`.
const EN_DISTANCE: usize = 4;

impl Judge {
    /// The judge for a target language (a code such as `fr` or `fr-CA`), if there is a lexicon
    /// for it: French only.
    pub fn for_language(code: &str) -> Option<Judge> {
        match Language::from_code(code) {
            Language::French => Some(Judge { lexicon: Lexicon::french(), pronouns: Language::French.pronouns()? }),
            Language::English | Language::Other => None,
        }
    }

    /// Judges a candidate of `example` (of an anaphoric category) in `corpus`.
    pub fn judge(&self, corpus: &Corpus, candidate: &Candidate, example: &Example) -> Verdict {
        let ([_], [head]) = (&example.antecedents[..], &candidate.antecedents[..]) else {
            return Verdict::Open(Open::NotOneAntecedent);
        };
        let pronoun = match self.pronoun(corpus, &candidate.pronoun) {
            Ok(p) => p,
            Err(open) => return Verdict::Open(open),
        };
        let head = match self.head(corpus, head) {
            Ok(h) => h,
            Err(open) => return Verdict::Open(open),
        };
        compare(pronoun, head)
    }

    /// What the `i`-th token of a tokenised sentence shows, if it reads as a pronoun that shows
    /// a gender (for the suite importers, which look for the pronoun the translations differ
    /// in).
    pub fn shown_at(&self, sentence: &str, i: usize) -> Option<Shown> {
        let sentence = Sentence::new(sentence);
        if i >= sentence.lower.len() {
            return None;
        }
        match self.reading(&sentence, i) {
            Read::Shows(shown) => Some(shown),
            _ => None,
        }
    }

    /// The gender and number the pronoun's aligned tokens show.
    fn pronoun(&self, corpus: &Corpus, aligned: &[TokenRef]) -> Result<Shown, Open> {
        let mut shown: Vec<Shown> = Vec::new();
        let mut hidden: Option<String> = None;
        let mut others = 0;
        for &at in aligned {
            let Some(sentence) = corpus.sentence(at.sentence) else { continue };
            let sentence = Sentence::new(sentence);
            match self.reading(&sentence, at.token as usize) {
                Read::Shows(s) => shown.push(s),
                Read::Hidden(word) => hidden = Some(word),
                Read::Other(word) => {
                    others += 1;
                    hidden.get_or_insert(word);
                }
                Read::Absorbed | Read::NotPronoun => {}
            }
        }
        shown.dedup_by(|a, b| a.features == b.features);
        match (&shown[..], hidden, others) {
            ([], Some(word), _) => Err(Open::NoGender(word)),
            ([], None, _) => Err(Open::NoPronoun),
            ([one], None, 0) => Ok(one.clone()),
            _ => Err(Open::SeveralPronouns),
        }
    }

    /// How the `i`-th word of a sentence reads as a pronoun.
    fn reading(&self, sentence: &Sentence, i: usize) -> Read {
        let words = &sentence.lower[..];
        let word = words[i].as_str();
        if let Some(base) = ["-ci", "-là", "-même", "-mêmes"].iter().find_map(|s| word.strip_suffix(s))
            && let Some(a) = self.pronouns.agreeing(base).filter(|a| a.reading == Reading::Always)
        {
            return shows(a, word, By::Form);
        }
        if word == "est-ce" {
            return Read::NotPronoun;
        }
        // A pronoun glued by a hyphen (`prends-la`, `est-il`) is a clitic for sure; one after an
        // elision (`qu'il`) is the word itself.
        let hyphened = word.rsplit_once('-').map(|(_, last)| last).filter(|l| !l.is_empty());
        let elided = word.rsplit_once('\'').map(|(_, last)| last).filter(|l| !l.is_empty());
        let form = hyphened.or(elided).unwrap_or(word);
        let Some(agreeing) = self.pronouns.agreeing(form) else {
            return match self.pronouns.form_of(word) {
                Some(_) if form == "en" && self.en_before_un(words, i) => Read::Absorbed,
                Some(f) => Read::Other(f.to_owned()),
                None => Read::NotPronoun,
            };
        };
        match agreeing.reading {
            Reading::Always => shows(agreeing, word, By::Form),
            Reading::Clitic if hyphened.is_some() => shows(agreeing, word, By::Form),
            Reading::Clitic | Reading::HidesGender if form == word => self.article_or_clitic(sentence, i, agreeing),
            Reading::Clitic | Reading::HidesGender => Read::Other(form.to_owned()),
            Reading::AfterEn if form == word && self.en_before(words, i) => shows(agreeing, word, By::Form),
            Reading::AfterEn => Read::NotPronoun,
            Reading::Possessive => {
                let article = i.checked_sub(1).and_then(|j| self.pronouns.agreeing(&words[j]));
                possessive(agreeing, article, words, i)
            }
            Reading::PossessiveAfterArticle => {
                let article = i.checked_sub(1).and_then(|j| self.pronouns.agreeing(&words[j]));
                match article.filter(|a| matches!(a.reading, Reading::Clitic | Reading::HidesGender)) {
                    Some(article) => possessive(agreeing, Some(article), words, i),
                    None => Read::Other(form.to_owned()),
                }
            }
        }
    }

    /// `le`, `la`, `les` or `l'` at `i`: the article of a possessive pronoun, an article, or the
    /// object clitic (for `l'` and `les`, with the gender a participle shows, if one does).
    fn article_or_clitic(&self, sentence: &Sentence, i: usize, form: &Agreeing) -> Read {
        let words = &sentence.lower[..];
        let next = words.get(i + 1).map(String::as_str);
        if let Some(possessive) = next.and_then(|n| self.pronouns.agreeing(n))
            && matches!(possessive.reading, Reading::Possessive | Reading::PossessiveAfterArticle)
        {
            return possessive_with(possessive, form, &format!("{} {}", words[i], words[i + 1]));
        }
        if !self.is_clitic(sentence, i) {
            return Read::NotPronoun;
        }
        if form.reading == Reading::Clitic {
            return shows(form, &words[i], By::Form);
        }
        let number = form.number.map_or(Features::NONE, Features::of_number);
        match self.participle(words, i) {
            Some((participle, features)) => {
                let agreeing = features.and(number);
                if agreeing.gender().is_some() {
                    let words = format!("{} … {participle}", words[i]);
                    return Read::Shows(Shown { words, features: agreeing, by: By::Participle });
                }
                Read::Hidden(words[i].clone())
            }
            None => Read::Hidden(words[i].clone()),
        }
    }

    /// Whether `le`, `la`, `l'` or `les` at `i` is an object clitic rather than an article: the
    /// next word is a verb form (or a word the lexicon does not know, in lower case), a clitic,
    /// or punctuation. A next word that may be a noun as well as a verb is the verb after a
    /// subject pronoun or `ne` (`il la porte`), or as an infinitive not after a preposition
    /// (`vous devez le ranger`, not `pour le dîner`); else the article's noun (`je vois la table`).
    fn is_clitic(&self, sentence: &Sentence, i: usize) -> bool {
        let words = &sentence.lower[..];
        if words[i] == "l'" {
            return true;
        }
        let Some(next) = words.get(i + 1) else { return true };
        if !next.chars().any(char::is_alphanumeric)
            || matches!(next.as_str(), "y" | "en" | "lui" | "leur")
            || AVOIR.contains(&next.split('-').next().unwrap_or(next))
        {
            return true;
        }
        let before = i.checked_sub(1).map(|j| words[j].as_str());
        match self.lexicon.get(next) {
            Some(entry) if entry.is_noun() || entry.is_adjective() => {
                let infinitive = ["er", "ir", "re", "oir"].iter().any(|e| next.ends_with(e));
                entry.verb
                    && (before.is_some_and(|b| SUBJECTS.contains(&b))
                        || infinitive && before.is_none_or(|b| !PREPOSITIONS.contains(&b)))
            }
            // A verb form the table does not keep, or a word it does not know: a capital or a
            // digit is a name or a number, an article's noun.
            _ => !sentence.original[i + 1].starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit()),
        }
    }

    /// The past participle after `avoir` following the clitic at `i` (`les ont achetées`,
    /// `l'ai pas vue`), with its readings.
    fn participle(&self, words: &[String], i: usize) -> Option<(String, Features)> {
        let mut j = i + 1;
        let auxiliary = words.get(j)?;
        let base = auxiliary.split('-').next().unwrap_or(auxiliary);
        if !AVOIR.contains(&base) {
            return None;
        }
        j += 1;
        while words.get(j).is_some_and(|w| ADVERBS.contains(&w.as_str())) {
            j += 1;
        }
        let participle = words.get(j)?;
        let entry = self.lexicon.get(participle)?;
        entry.is_adjective().then(|| (participle.clone(), entry.adjective))
    }

    /// Whether `en` comes before the word at `i` in its clause (`j'en ai une`, `n'en ai qu'un`,
    /// `construis-en une`).
    fn en_before(&self, words: &[String], i: usize) -> bool {
        let start = i.saturating_sub(EN_DISTANCE);
        words[start..i]
            .iter()
            .rev()
            .take_while(|w| w.chars().any(char::is_alphanumeric))
            .any(|w| w == "en" || w.ends_with("-en") || w.ends_with("'en"))
    }

    /// Whether `un` or `une` follows the `en` at `i` in its clause.
    fn en_before_un(&self, words: &[String], i: usize) -> bool {
        let end = (i + 1 + EN_DISTANCE).min(words.len());
        words[i + 1..end]
            .iter()
            .take_while(|w| w.chars().any(char::is_alphanumeric))
            .any(|w| matches!(w.as_str(), "un" | "une" | "qu'un" | "qu'une"))
    }

    /// The gender and number of the noun aligned to an antecedent head.
    fn head(&self, corpus: &Corpus, aligned: &[TokenRef]) -> Result<Shown, Open> {
        let mut nouns: Vec<(String, Features, bool)> = Vec::new();
        let mut content = 0;
        for &at in aligned {
            let Some(sentence) = corpus.sentence(at.sentence) else { continue };
            let original: Vec<&str> = tokens::tokens(sentence).collect();
            let words: Vec<String> = original.iter().map(|w| normalise(w)).collect();
            let Some(lower) = words.get(at.token as usize).cloned() else { continue };
            if !lower.chars().any(char::is_alphanumeric)
                || self.pronouns.is_function_word(&lower)
                || DETERMINERS.contains(&lower.as_str())
            {
                continue;
            }
            content += 1;
            let entry = self.lookup(&original, at.token as usize).ok_or_else(|| Open::UnknownWord(lower.clone()))?;
            if entry.is_noun() {
                let heads = heads_phrase(self.lexicon, &words, at.token as usize);
                nouns.push((lower, entry.noun, heads));
            }
        }
        match &nouns[..] {
            _ if content == 0 => Err(Open::NoHead),
            [] => Err(Open::NoNoun),
            [(word, _, false)] => Err(Open::NotHeadNoun(word.clone())),
            [(word, features, true)] if features.gender().is_some() => {
                Ok(Shown { words: word.clone(), features: *features, by: By::Noun })
            }
            [(word, ..)] => Err(Open::EitherGender(word.clone())),
            _ => Err(Open::SeveralNouns),
        }
    }

    /// The lexicon's entry for the `i`-th token as written, or in lower case where a capital
    /// starts a sentence (a capital elsewhere is a name's, which the lexicon does not hold).
    fn lookup(&self, words: &[&str], i: usize) -> Option<crate::model::lexicon::Entry> {
        let word = words[i].replace('’', "'");
        if let Some(entry) = self.lexicon.get(&word) {
            return Some(entry);
        }
        let starts = i == 0 || words[i - 1].chars().all(|c| matches!(c, '.' | '!' | '?' | '"' | '«' | '-' | '—' | ':'));
        let lower = word.to_lowercase();
        (starts && lower != word).then(|| self.lexicon.get(&lower)).flatten()
    }
}

/// Whether the noun at `at` of a sentence's normalised words heads its noun phrase: an article, a
/// determiner or a preposition before it, perhaps through adjectives or numbers (`les maisons`,
/// `les deux petites maisons`, `de recrues`), rather than another noun (`les candidats
/// américains recrues`).
pub fn heads_phrase(lexicon: &Lexicon, words: &[String], at: usize) -> bool {
    let pronouns = Language::French.pronouns();
    let function = |w: &str| pronouns.is_some_and(|p| p.is_function_word(w)) && w.chars().any(char::is_alphabetic);
    // An adjective that is also a noun stands before a noun only if it is one of those that
    // usually do (`les nouvelles voitures`); else it may be the head itself (`les candidats`).
    let modifier = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit())
            || PRENOMINAL.contains(&w)
            || lexicon.get(w).is_some_and(|e| e.is_adjective() && !e.is_noun())
    };
    for j in (at.saturating_sub(MODIFIERS + 1)..at).rev() {
        let word = words[j].as_str();
        if function(word) || DETERMINERS.contains(&word) {
            return true;
        }
        if !modifier(word) {
            return false;
        }
    }
    false
}

/// Adjectives (also nouns in the lexicon) and numbers that usually stand before the noun.
const PRENOMINAL: &[&str] = &[
    "grand",
    "grande",
    "grands",
    "grandes",
    "petit",
    "petite",
    "petits",
    "petites",
    "nouveau",
    "nouvel",
    "nouvelle",
    "nouveaux",
    "nouvelles",
    "bon",
    "bonne",
    "bons",
    "bonnes",
    "beau",
    "bel",
    "belle",
    "beaux",
    "belles",
    "vieux",
    "vieil",
    "vieille",
    "vieilles",
    "jeune",
    "jeunes",
    "premier",
    "première",
    "premiers",
    "premières",
    "dernier",
    "dernière",
    "derniers",
    "dernières",
    "autre",
    "autres",
    "même",
    "mêmes",
    "seul",
    "seule",
    "seuls",
    "seules",
    "gros",
    "grosse",
    "grosses",
    "mauvais",
    "mauvaise",
    "mauvaises",
    "vrai",
    "vraie",
    "vrais",
    "vraies",
    "ancien",
    "ancienne",
    "anciens",
    "anciennes",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "cent",
    "mille",
];

/// How many adjectives or numbers may stand between a determiner and its noun.
const MODIFIERS: usize = 3;

/// A sentence's tokens as written and normalised ([`normalise`]).
struct Sentence<'s> {
    original: Vec<&'s str>,
    lower: Vec<String>,
}

impl<'s> Sentence<'s> {
    fn new(text: &'s str) -> Sentence<'s> {
        let original: Vec<&str> = tokens::tokens(text).collect();
        let lower = original.iter().map(|w| normalise(w)).collect();
        Sentence { original, lower }
    }
}

/// How one aligned token reads as a pronoun.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Read {
    Shows(Shown),
    /// A form that hides the gender, no participle showing it.
    Hidden(String),
    /// Another pronoun form (`ce`, `y`, `lui`…), which shows no gender.
    Other(String),
    /// Part of another token's pronoun (`en` of `en … une`).
    Absorbed,
    NotPronoun,
}

fn shows(form: &Agreeing, words: &str, by: By) -> Read {
    match features(form) {
        Some(features) => Read::Shows(Shown { words: words.to_owned(), features, by }),
        None => Read::Hidden(words.to_owned()),
    }
}

/// What a form shows, if it shows a gender.
fn features(form: &Agreeing) -> Option<Features> {
    let gender = form.gender?;
    Some(match form.number {
        Some(n) => Features::of(gender, n),
        None => Features::of_gender(gender),
    })
}

/// A possessive pronoun at `i`, with the article before it if there is one.
fn possessive(form: &Agreeing, article: Option<&Agreeing>, words: &[String], i: usize) -> Read {
    match article.filter(|a| matches!(a.reading, Reading::Clitic | Reading::HidesGender)) {
        Some(article) => possessive_with(form, article, &format!("{} {}", words[i - 1], words[i])),
        None => shows(form, &words[i], By::Form),
    }
}

/// A possessive pronoun with its article: the gender and number both show, which must agree.
fn possessive_with(possessive: &Agreeing, article: &Agreeing, words: &str) -> Read {
    let features = possible(possessive).and(possible(article));
    if features.gender().is_some() {
        Read::Shows(Shown { words: words.to_owned(), features, by: By::Form })
    } else if features.is_empty() {
        Read::Other(words.to_owned())
    } else {
        Read::Hidden(words.to_owned())
    }
}

/// Every gender and number a form may have (what it hides, both).
fn possible(form: &Agreeing) -> Features {
    let any = Features::of_gender(Gender::Masculine).or(Features::of_gender(Gender::Feminine));
    let genders = form.gender.map_or(any, Features::of_gender);
    genders.and(form.number.map_or(any, Features::of_number))
}

/// Agreement in gender where the numbers can agree.
fn compare(pronoun: Shown, head: Shown) -> Verdict {
    let (Some(gender), Some(head_gender)) = (pronoun.features.gender(), head.features.gender()) else {
        return Verdict::Open(Open::NumberDiffers);
    };
    let numbers = |f: Features| Number::ALL.map(|n| !f.and(Features::of_number(n)).is_empty());
    let (p, h) = (numbers(pronoun.features), numbers(head.features));
    if !(p[0] && h[0] || p[1] && h[1]) {
        return Verdict::Open(Open::NumberDiffers);
    }
    let evidence = Evidence { pronoun, head };
    if gender == head_gender { Verdict::Agrees(evidence) } else { Verdict::Disagrees(evidence) }
}

/// Lower case, the typographic apostrophe read as the plain one.
fn normalise(word: &str) -> String {
    super::matching::normalise(word)
}

#[cfg(test)]
mod tests;
