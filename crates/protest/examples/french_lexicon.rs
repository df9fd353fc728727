//! Builds the French lexicon table built into the program (`crates/protest/src/model/lexicon/fr.fst`,
//! read by `protest::model::lexicon`) from Grammalecte's dictionary in hunspell format: every
//! noun, adjective and past participle of `fr.dic`, with every form its suffix rules in `fr.aff`
//! give, mapped to its genders and numbers (`is:mas`, `is:fem`, `is:epi`, `is:sg`, `is:pl`,
//! `is:inv` on the entry and on the rule). Run by `scripts/french-lexicon`, which installs the
//! dictionary first:
//!
//!     cargo run --release -p protest --example french_lexicon -- fr.dic fr.aff OUT.fst
//!
//! Prefixes (elided `l'`, `d'`, `qu'` glued to the word, unit prefixes) are left out: the
//! tokeniser splits elisions off, and units are not antecedents. Proper nouns are left out too.

use protest::model::lexicon::{Entry, Features, Gender, Number};
use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::path::Path;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// One character position of a rule's condition.
#[derive(Debug, Clone)]
enum Condition {
    Any,
    Char(char),
    Class { chars: Vec<char>, negated: bool },
}

impl Condition {
    fn accepts(&self, c: char) -> bool {
        match self {
            Condition::Any => true,
            Condition::Char(x) => *x == c,
            Condition::Class { chars, negated } => chars.contains(&c) != *negated,
        }
    }
}

/// A suffix rule: strip `strip` from the end of a word whose end meets `condition`, add `add`.
#[derive(Debug, Clone)]
struct Suffix {
    strip: String,
    add: String,
    condition: Vec<Condition>,
    morphology: Vec<String>,
}

impl Suffix {
    fn apply(&self, word: &str) -> Option<String> {
        let stem = word.strip_suffix(self.strip.as_str())?;
        let chars: Vec<char> = word.chars().collect();
        let n = self.condition.len();
        if chars.len() < n || !self.condition.iter().zip(&chars[chars.len() - n..]).all(|(c, &x)| c.accepts(x)) {
            return None;
        }
        Some(format!("{stem}{}", self.add))
    }
}

fn condition(text: &str) -> Vec<Condition> {
    if text == "." {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '.' => Condition::Any,
            '[' => {
                let class: Vec<char> = chars.by_ref().take_while(|&x| x != ']').collect();
                match class.split_first() {
                    Some(('^', rest)) => Condition::Class { chars: rest.to_vec(), negated: true },
                    _ => Condition::Class { chars: class, negated: false },
                }
            }
            c => Condition::Char(c),
        });
    }
    out
}

/// The suffix rules of `fr.aff` by flag (two characters: `FLAG long`).
fn suffixes(aff: &str) -> HashMap<String, Vec<Suffix>> {
    let mut rules: HashMap<String, Vec<Suffix>> = HashMap::new();
    for line in aff.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 5 || fields[0] != "SFX" {
            continue;
        }
        let empty = |s: &str| if s == "0" { String::new() } else { s.to_owned() };
        let add = fields[3].split('/').next().unwrap_or_default();
        rules.entry(fields[1].to_owned()).or_default().push(Suffix {
            strip: empty(fields[2]),
            add: empty(add),
            condition: condition(fields[4]),
            morphology: fields[5..].iter().map(|s| s.to_string()).collect(),
        });
    }
    rules
}

/// Genders and numbers from morphological fields; a field left out allows both.
fn features(fields: &[&str]) -> Features {
    let has = |f: &str| fields.contains(&f);
    let genders: Vec<Gender> = match (has("is:mas"), has("is:fem")) {
        _ if has("is:epi") => Gender::ALL.to_vec(),
        (true, false) => vec![Gender::Masculine],
        (false, true) => vec![Gender::Feminine],
        _ => Gender::ALL.to_vec(),
    };
    let numbers: Vec<Number> = match (has("is:sg"), has("is:pl")) {
        _ if has("is:inv") => Number::ALL.to_vec(),
        (true, false) => vec![Number::Singular],
        (false, true) => vec![Number::Plural],
        _ => Number::ALL.to_vec(),
    };
    let mut f = Features::NONE;
    for &g in &genders {
        for &n in &numbers {
            f = f.or(Features::of(g, n));
        }
    }
    f
}

/// The fields of an entry overridden by a rule's: a gender or number on the rule replaces the
/// entry's.
fn combined<'a>(entry: &[&'a str], rule: &'a [String]) -> Vec<&'a str> {
    let rule: Vec<&str> = rule.iter().map(String::as_str).collect();
    let gender = |f: &&str| matches!(*f, "is:mas" | "is:fem" | "is:epi");
    let number = |f: &&str| matches!(*f, "is:sg" | "is:pl" | "is:inv");
    let (rule_gender, rule_number) = (rule.iter().any(gender), rule.iter().any(number));
    let keep = |f: &&&str| !(gender(f) && rule_gender || number(f) && rule_number);
    entry.iter().filter(keep).copied().chain(rule).collect()
}

fn add(table: &mut BTreeMap<String, Entry>, form: String, fields: &[&str], verb_entry: bool) {
    let pos = |p: &str| fields.contains(&p);
    let entry = table.entry(form).or_default();
    let f = features(fields);
    if verb_entry {
        if pos("po:ppas") {
            entry.adjective = entry.adjective.or(f);
        } else {
            entry.verb = true;
        }
        return;
    }
    if pos("po:nom") {
        entry.noun = entry.noun.or(f);
    }
    if pos("po:adj") {
        entry.adjective = entry.adjective.or(f);
    }
}

/// Every form of the dictionary's nouns, adjectives and verbs (the verbs' only to know that a
/// noun is also a verb form, and for their past participles).
fn expand(dic: &str, rules: &HashMap<String, Vec<Suffix>>) -> BTreeMap<String, Entry> {
    let mut table: BTreeMap<String, Entry> = BTreeMap::new();
    for line in dic.lines().skip(1) {
        let mut fields = line.split_whitespace();
        let Some(word) = fields.next() else { continue };
        let morphology: Vec<&str> = fields.collect();
        let (word, flags) = word.split_once('/').unwrap_or((word, ""));
        let flags: Vec<String> =
            flags.chars().collect::<Vec<_>>().chunks(2).map(|c| c.iter().collect::<String>()).collect();
        let verb = morphology.iter().any(|f| f.starts_with("po:v"));
        let wanted = verb || morphology.iter().any(|f| matches!(*f, "po:nom" | "po:adj"));
        if !wanted || flags.iter().any(|f| f == "{}") {
            continue;
        }
        if !flags.iter().any(|f| f == "()") {
            add(&mut table, word.to_owned(), &morphology, verb);
        }
        for rule in flags.iter().filter_map(|f| rules.get(f)).flatten() {
            if let Some(form) = rule.apply(word) {
                add(&mut table, form, &combined(&morphology, &rule.morphology), verb);
            }
        }
    }
    // Verb forms that are neither nouns nor adjectives are not kept: an unknown word is one
    // the agreement judge knows nothing of, which is all it needs of them.
    table.retain(|_, e| e.is_noun() || e.is_adjective());
    table
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dic, aff, out] = &args[..] else {
        return Err("usage: french_lexicon fr.dic fr.aff OUT.fst".into());
    };
    let rules = suffixes(&std::fs::read_to_string(aff)?);
    let table = expand(&std::fs::read_to_string(dic)?, &rules);
    // A few words whose readings are known, so that a changed dictionary or rule reading is
    // caught before the table is written.
    let (m, f) = (Gender::Masculine, Gender::Feminine);
    let (s, p) = (Number::Singular, Number::Plural);
    for (word, noun, adjective) in [
        ("bâtiments", Features::of(m, p), Features::NONE),
        ("maison", Features::of(f, s), Features::NONE),
        ("vis", Features::of_gender(f), Features::NONE),
        ("achetées", Features::NONE, Features::of(f, p)),
        ("prises", Features::of(f, p), Features::of(f, p)),
        ("hiboux", Features::of(m, p), Features::NONE),
    ] {
        let entry = table.get(word).copied().unwrap_or_default();
        if entry.noun != noun || entry.adjective != adjective {
            return Err(format!("'{word}' read as {entry:?}: the dictionary or its reading changed").into());
        }
    }
    let mut builder = fst::MapBuilder::memory();
    for (form, entry) in &table {
        builder.insert(form, entry.code())?;
    }
    let bytes = builder.into_inner()?;
    let out = Path::new(out);
    let temporary = out.with_extension("fst.new");
    std::fs::write(&temporary, &bytes)?;
    std::fs::rename(&temporary, out)?;
    let nouns = table.values().filter(|e| e.is_noun()).count();
    let adjectives = table.values().filter(|e| e.is_adjective()).count();
    println!(
        "{} forms ({nouns} with a noun reading, {adjectives} adjective or participle): {} bytes in {}",
        table.len(),
        bytes.len(),
        out.display()
    );
    Ok(())
}
