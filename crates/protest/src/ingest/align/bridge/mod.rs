//! Aligning a new translation through a translation the master already has aligned (docs/alignment.md,
//! "Aligning through the reference"). A new system's sentence is aligned to the reference's
//! translation of the same sentence — the same language, mostly the same words
//! ([`monolingual`]) — and the reference's own links to the source are carried over through
//! it. The built-in bilingual aligner then fills in only the source tokens the bridge leaves
//! unaligned, and only with target tokens the bridge left free; its pronoun repair, only for
//! those source pronouns. Each link keeps where it came from ([`LinkOrigin`]).
//!
//! The reference is not the only possible bridge: any translation whose links were given (or
//! were themselves carried through a bridge) can serve, and each sentence goes through the
//! nearest one — the reference on a tie.

pub mod held_out;
pub mod monolingual;
mod pronouns;
mod vouch;
mod words;

pub use pronouns::PronounPair;
pub use vouch::vouched;

use crate::ingest::align::Guesses;
use crate::model::alignment::Alignment;
use crate::model::link_origin::OriginLinks;
use crate::model::tokens;
use crate::model::{Corpus, CorpusId, CorpusRole, LinkOrigin, LinkOrigins, Master};
use monolingual::Kind;
use words::is_word;

/// Which translations of the master a new one may be aligned through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Through {
    /// Each sentence through the nearest translation with a given alignment, the reference on a
    /// tie.
    #[default]
    Nearest,
    /// The reference only.
    Reference,
    /// None: the built-in aligner aligns everything, as before bridges.
    Nothing,
}

/// Below this nearness ([`monolingual::MonoAlignment::nearness`]) two translations of a sentence
/// share too few words for the links between them to be trusted: the sentence is left to the
/// bilingual aligner.
pub const MIN_NEARNESS: f64 = 0.3;

/// A translation a new one can be aligned through: its sentences (the master's whole text) and
/// its alignment to the source, with the origins of the links.
#[derive(Debug, Clone, Copy)]
pub struct Bridge<'a> {
    pub corpus: CorpusId,
    pub name: &'a str,
    sentences: &'a [String],
    alignment: &'a Alignment,
    origins: Option<&'a LinkOrigins>,
}

impl<'a> Bridge<'a> {
    /// A translation's text and alignment as a bridge, every link taken as given.
    pub fn new(corpus: CorpusId, name: &'a str, sentences: &'a [String], alignment: &'a Alignment) -> Bridge<'a> {
        Bridge { corpus, name, sentences, alignment, origins: None }
    }

    /// `corpus` as a bridge, if it is a whole translation with an alignment.
    pub fn of(corpus: &'a Corpus) -> Option<Bridge<'a>> {
        let sentences = corpus.sentences.as_slice().filter(|_| corpus.role.is_translation())?;
        let alignment = corpus.alignment.as_ref()?;
        Some(Bridge {
            corpus: corpus.id,
            name: &corpus.name,
            sentences,
            alignment,
            origins: corpus.link_origins.as_ref(),
        })
    }

    /// The links of sentence `s` that may be carried on: those given with the corpus or carried
    /// through a bridge themselves, not the bilingual aligner's guesses.
    fn carried_links(&self, s: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let origins = self.origins.map(|o| o.sentence(s));
        self.alignment
            .sentence(s)
            .iter()
            .enumerate()
            .filter(move |&(k, _)| origins.and_then(|o| o.get(k)).is_none_or(|o| !o.is_guessed()))
            .map(|(_, &link)| link)
    }
}

/// The translations of `master` a new one may go through: the reference first, then (for
/// [`Through::Nearest`]) the other translations with an alignment in the master's order.
pub fn bridges(master: &Master, through: Through) -> Vec<Bridge<'_>> {
    let reference = master.corpora.iter().filter(|c| c.role == CorpusRole::Reference);
    let others = master.corpora.iter().filter(|c| c.role == CorpusRole::System);
    match through {
        Through::Nothing => Vec::new(),
        Through::Reference => reference.filter_map(Bridge::of).collect(),
        Through::Nearest => reference.chain(others).filter_map(Bridge::of).collect(),
    }
}

/// Token `i` of a sentence's tokens (empty past the end).
fn word<'a>(words: &[&'a str], i: u32) -> &'a str {
    words.get(i as usize).copied().unwrap_or_default()
}

/// A link carried through a bridge: the source token, the bridge's token, the new target token.
type Via = (u32, u32, u32);

/// The links of one sentence carried over from a bridge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Carried {
    pub links: Vec<(u32, u32)>,
    /// The bridge they came through (`None`: no bridge is near enough, or none has links for the
    /// sentence).
    pub bridge: Option<CorpusId>,
    /// Of `links`, those carried where the new translation is the bridge's, word for word, two
    /// words either side (or in the whole sentence, but for case, apostrophe style and where a
    /// tokeniser split the words): carried as they are, whatever words they join, so that a copy
    /// of a translation, or a passage of it, is aligned exactly as that translation.
    pub unchanged: Vec<(u32, u32)>,
    /// Of `links`, those carried through a word replaced by another (not the same or a similar
    /// word): the bilingual aligner may know better.
    pub replaced: Vec<(u32, u32)>,
}

/// The links of one sentence carried over from the nearest bridge. Through a passage the new
/// translation keeps unchanged, every link is carried as it is; elsewhere a link is carried only
/// through a word matched in its context ([`monolingual::MonoAlignment::anchored`]), between
/// words or between punctuation, never from one to the other, and a source pronoun's only from
/// a pronoun to words among which there is one ([`PronounPair`]).
pub fn bridge_sentence(
    bridges: &[Bridge],
    sentence: u32,
    source: &str,
    target: &str,
    pair: Option<&PronounPair>,
) -> Carried {
    let target: Vec<&str> = tokens::tokens(target).collect();
    let mut nearest: Option<(f64, &Bridge, monolingual::MonoAlignment)> = None;
    for bridge in bridges {
        let Some(text) = bridge.sentences.get(sentence as usize) else { continue };
        let words: Vec<&str> = tokens::tokens(text).collect();
        let mono = monolingual::align(&words, &target);
        if mono.nearness >= MIN_NEARNESS && nearest.as_ref().is_none_or(|(n, _, _)| mono.nearness > *n) {
            nearest = Some((mono.nearness, bridge, mono));
        }
    }
    let Some((_, bridge, mono)) = nearest else { return Carried::default() };
    let source: Vec<&str> = tokens::tokens(source).collect();
    let through: Vec<&str> = tokens::tokens(&bridge.sentences[sentence as usize]).collect();
    let joined = |words: &[&str]| words.iter().map(|w| words::key(w)).collect::<String>();
    let identical = joined(&through) == joined(&target);
    let (unchanged, mut carried): (Vec<Via>, Vec<Via>) = bridge
        .carried_links(sentence)
        .flat_map(|(s, r)| mono.targets(r).map(move |t| (s, r, t)))
        .partition(|&(_, r, t)| identical || mono.unchanged(r, t));
    carried.retain(|&(s, r, t)| is_word(word(&source, s)) == is_word(word(&target, t)) && mono.anchored(r, t));
    if let Some(pair) = pair {
        pronouns::carry(pair, &mono, [&source, &through, &target], &mut carried);
    }
    let pairs = |links: &[Via], keep: &dyn Fn(u32, u32) -> bool| {
        let mut pairs: Vec<(u32, u32)> = links.iter().filter(|l| keep(l.1, l.2)).map(|&(s, _, t)| (s, t)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    };
    let replaced = pairs(&carried, &|r, t| mono.kind(r, t) == Some(Kind::Substituted));
    let unchanged = pairs(&unchanged, &|_, _| true);
    let mut links = [pairs(&carried, &|_, _| true), unchanged.clone()].concat();
    links.sort_unstable();
    links.dedup();
    let bridge = (!links.is_empty()).then_some(bridge.corpus);
    Carried { links, bridge, unchanged, replaced }
}

/// One sentence's links with their origins: the bridged links, then the bilingual aligner's
/// links (`guessed.symmetric`) of the source tokens the bridge left unaligned, then — with
/// `pair` — for a source pronoun still unaligned, the pronoun repair, or else the target→source
/// model's link (the verb a phrase-based translation absorbed it into). Neither gives a target
/// token the bridge linked to a source pronoun to another source word: one pronoun is not the
/// translation of two. Where the bridge and the aligner disagree on a pronoun,
/// [`pronouns::settle`] decides, and a word carried only through a replaced word is left to the
/// aligner when it links it elsewhere — unless the link was carried through an unchanged passage.
pub fn combine(
    source: &str,
    target: &str,
    carried: Carried,
    guessed: &Guesses,
    pair: Option<&PronounPair>,
) -> OriginLinks {
    let Carried { links, bridge, unchanged, replaced } = carried;
    let lower = |sentence: &str| tokens::tokens(sentence).map(str::to_lowercase).collect::<Vec<_>>();
    let sentence = pronouns::Sentence { source: lower(source), target: lower(target) };
    let mut bridged: Vec<(u32, u32)> = links.iter().copied().filter(|l| !unchanged.contains(l)).collect();
    if let Some(pair) = pair {
        pronouns::settle(pair, &sentence, &mut bridged, &guessed.symmetric);
    }
    // A word carried only through replaced words, which the aligner links elsewhere.
    let contradicted: Vec<u32> = (0..sentence.source.len() as u32)
        .filter(|&s| {
            let mine = || bridged.iter().filter(move |l| l.0 == s);
            let theirs = || guessed.symmetric.iter().filter(move |l| l.0 == s);
            mine().next().is_some()
                && mine().all(|l| replaced.contains(l))
                && theirs().next().is_some()
                && !theirs().any(|l| bridged.contains(l))
        })
        .collect();
    bridged.retain(|l| !contradicted.contains(&l.0));
    bridged.extend(unchanged);
    bridged.sort_unstable();
    let is_pronoun = |s: u32| pair.is_some_and(|p| p.is_source(sentence.source_word(s)));
    let by_bridge = |s: u32| bridged.iter().any(|&(x, _)| x == s);
    let taken = |t: u32| bridged.iter().any(|&(x, y)| y == t && is_pronoun(x));
    let mut links: Vec<((u32, u32), LinkOrigin)> = bridged.iter().map(|&l| (l, LinkOrigin::Bridge)).collect();
    let aligned = guessed.symmetric.iter().filter(|&&(s, t)| !by_bridge(s) && !taken(t));
    links.extend(aligned.map(|&l| (l, LinkOrigin::Aligner)));
    if let Some(pair) = pair {
        let plain: Vec<(u32, u32)> = links.iter().map(|&(l, _)| l).collect();
        for s in (0..sentence.source.len() as u32).filter(|&s| is_pronoun(s) && !by_bridge(s)) {
            if let Some(t) = pair.repair(&sentence, &plain, s) {
                links.push(((s, t), LinkOrigin::Repair));
            } else if pair.is_repaired(sentence.source_word(s)) && !plain.iter().any(|l| l.0 == s) {
                let holder = |t: u32| plain.iter().any(|&(x, y)| y == t && is_pronoun(x));
                let backward = guessed.backward.iter().filter(|&&(x, t)| x == s && !holder(t));
                links.extend(backward.map(|&l| (l, LinkOrigin::Aligner)));
            }
        }
    }
    let bridge = bridge.filter(|_| links.iter().any(|l| l.1 == LinkOrigin::Bridge));
    OriginLinks { links, bridge }
}

/// What aligning through bridges did to a whole translation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Sentences with bridged links, per bridge (by name), in the order of the bridges.
    pub through: Vec<(String, usize)>,
    /// Links carried over through the bridges.
    pub carried: usize,
    /// Links the bilingual aligner made for the source tokens the bridges left unaligned.
    pub aligned: usize,
}

impl Summary {
    pub fn of(origins: &LinkOrigins, bridges: &[Bridge]) -> Summary {
        let count = |corpus: CorpusId| (0..origins.len() as u32).filter(|&s| origins.bridge(s) == Some(corpus)).count();
        Summary {
            through: bridges.iter().map(|b| (b.name.to_owned(), count(b.corpus))).filter(|(_, n)| *n > 0).collect(),
            carried: origins.count(LinkOrigin::Bridge),
            aligned: origins.count(LinkOrigin::Aligner),
        }
    }

    pub fn sentences(&self) -> usize {
        self.through.iter().map(|&(_, n)| n).sum()
    }
}

#[cfg(test)]
mod tests;
