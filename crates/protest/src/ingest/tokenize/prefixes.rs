//! Words that a full stop may follow without ending the sentence (abbreviations and initials).
//! A token `WORD.` keeps its full stop when `WORD` is listed here; see docs/tokenisation.md.

use super::Language;

/// Whether a listed abbreviation keeps its full stop everywhere or only before a number
/// (`No. 5`, `pp. 12`, but `… the answer is no.`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    Always,
    BeforeNumber,
}

/// French abbreviations written with a full stop. Initials (any single letter) are handled apart.
const FRENCH: &[&str] = &[
    "A.C.N", "A.M", "al", "ann", "apr", "art", "auj", "av", "B.P", "boul", "c.-à-d", "C.N", "C.N.S", "C.P.I",
    "C.Q.F.D", "C.S", "ca", "cf", "ch.-l", "chap", "contr", "dir", "e.g", "E.V", "éd", "env", "etc", "ex", "fasc",
    "fém", "fig", "fr", "hab", "i.e", "ibid", "id", "inf", "L.D", "lib", "LL.AA", "LL.EE", "LL.MM", "loc.cit", "masc",
    "MM", "ms", "N.B", "N.D", "N.D.A", "N.D.L.R", "N.D.T", "n/réf", "N.S", "p.c.c", "p.ex", "p.j", "P.S", "pl", "pp",
    "R.-V", "R.A.S", "R.I.P", "R.P", "S.A", "S.E", "S.M", "S.S", "sect", "sing", "sq", "sqq", "SS", "suiv", "sup",
    "suppl", "tél", "T.S.V.P", "vb", "vs", "X.O", "Z.I",
];

/// English titles and abbreviations written with a full stop. Month names are not listed: the
/// corpora write `Oct . 1`.
const ENGLISH: &[&str] = &[
    "Adj", "Adm", "Adv", "Asst", "Bart", "Bldg", "Brig", "Bros", "Capt", "Cmdr", "Col", "Comdr", "Con", "Corp", "Cpl",
    "DR", "Dr", "Drs", "e.g", "Ens", "Gen", "Gov", "Hon", "Hosp", "Hr", "i.e", "Insp", "Lt", "Maj", "Messrs", "MM",
    "Mlle", "Mme", "MR", "Mr", "MRS", "Mrs", "MS", "Ms", "Msgr", "Op", "Ord", "Pfc", "Ph", "Prof", "Pvt", "Rep",
    "Reps", "Res", "Rev", "rev", "Rt", "Sen", "Sens", "Sfc", "Sgt", "Sr", "St", "Supt", "Surg", "v", "vs",
];

/// English abbreviations that keep their full stop only before a number.
const ENGLISH_BEFORE_NUMBER: &[&str] = &["Art", "No", "Nos", "Nr", "pp"];

/// How `word` (without its full stop) behaves before a full stop in `language`, if it is listed.
pub fn lookup(language: Language, word: &str) -> Option<Prefix> {
    let mut chars = word.chars();
    let initial = chars.next().is_some_and(char::is_uppercase) && chars.next().is_none();
    let listed = |list: &[&str]| list.contains(&word);
    match language {
        // A lower-case letter may be a word (`à.`, `y.`); a capital one is an initial.
        Language::French | Language::English if initial => Some(Prefix::Always),
        Language::French if listed(FRENCH) => Some(Prefix::Always),
        Language::English if listed(ENGLISH) => Some(Prefix::Always),
        Language::English if listed(ENGLISH_BEFORE_NUMBER) => Some(Prefix::BeforeNumber),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_and_listed_words() {
        assert_eq!(lookup(Language::French, "M"), Some(Prefix::Always));
        assert_eq!(lookup(Language::French, "à"), None, "a word, not an initial");
        assert_eq!(lookup(Language::French, "vol"), None, "'vol' is more often a word than 'volume'");
        assert_eq!(lookup(Language::French, "etc"), Some(Prefix::Always));
        assert_eq!(lookup(Language::French, "fin"), None);
        assert_eq!(lookup(Language::English, "J"), Some(Prefix::Always));
        assert_eq!(lookup(Language::English, "a"), None, "English 'a.' may end a sentence");
        assert_eq!(lookup(Language::English, "Mr"), Some(Prefix::Always));
        assert_eq!(lookup(Language::English, "No"), Some(Prefix::BeforeNumber));
        assert_eq!(lookup(Language::Other, "M"), None);
    }
}
