use super::Bridge;
use super::*;
use crate::model::alignment::Alignment;
use crate::model::{Languages, Sentences};
use LinkOrigin::{Aligner, Repair};
const BRIDGE: LinkOrigin = LinkOrigin::Bridge;

fn corpus(id: u32, name: &str, role: CorpusRole, sentences: &[&str], links: Option<Vec<Vec<(u32, u32)>>>) -> Corpus {
    Corpus {
        id: CorpusId(id),
        name: name.into(),
        role,
        sentences: Sentences::from(sentences.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
        alignment: links.map(Alignment::new),
        segmentation: None,
        label: None,
        link_origins: None,
    }
}

const SOURCE: &str = "The bike ? It is red .";
const REFERENCE: &str = "Le vélo ? Il est rouge .";

/// The reference's links: every token to its counterpart.
fn diagonal() -> Vec<(u32, u32)> {
    (0..7).map(|i| (i, i)).collect()
}

fn master(extra: Vec<Corpus>) -> Master {
    let mut m = Master::new("m".into(), chrono::DateTime::UNIX_EPOCH);
    m.corpora = vec![
        corpus(0, "source", CorpusRole::Source, &[SOURCE], None),
        corpus(1, "reference", CorpusRole::Reference, &[REFERENCE], Some(vec![diagonal()])),
    ];
    m.corpora.extend(extra);
    m
}

/// The links of the one sentence of `target` carried over through `bridges`.
fn carry(bridges: &[Bridge], target: &str) -> (Vec<(u32, u32)>, Option<CorpusId>) {
    let carried = bridge_sentence(bridges, 0, SOURCE, target, PronounPair::of(&Languages::default()).as_ref());
    (carried.links, carried.bridge)
}

fn guesses(symmetric: &[(u32, u32)]) -> Guesses {
    Guesses { symmetric: symmetric.to_vec(), backward: Vec::new() }
}

fn carried(links: Vec<(u32, u32)>) -> Carried {
    Carried { links, bridge: Some(CorpusId(1)), unchanged: Vec::new(), replaced: Vec::new() }
}

#[test]
fn a_copy_of_the_reference_gets_the_reference_links() {
    let m = master(vec![]);
    let bridges = bridges(&m, Through::Nearest);
    let (links, bridge) = carry(&bridges, REFERENCE);
    assert_eq!((links, bridge), (diagonal(), Some(CorpusId(1))));
}

#[test]
fn changed_words_carry_the_links_of_the_words_they_replace() {
    let m = master(vec![]);
    let (links, _) = carry(&bridges(&m, Through::Nearest), "La bicyclette ? Elle est très rouge .");
    // The → La, bike → bicyclette, It → Elle; "très" is new and linked to nothing.
    assert_eq!(links, vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (6, 7)]);
}

#[test]
fn a_pronoun_link_is_carried_only_between_pronouns() {
    // The reference's alignment links "It" to the verb and "?" to a word (as free translations'
    // alignments do): neither is carried.
    let mut m = master(vec![]);
    let mut links = diagonal();
    links[2] = (2, 1);
    links[3] = (3, 4);
    m.corpora[1].alignment = Some(Alignment::new(vec![links]));
    let (carried, _) = carry(&bridges(&m, Through::Nearest), "Un vélo ? Il est bien rouge .");
    assert_eq!(carried, vec![(0, 0), (1, 1), (4, 4), (5, 6), (6, 7)]);
    // Where the new translation is unchanged two words either side, links are carried as they are.
    let (carried, _) = carry(&bridges(&m, Through::Nearest), "Le vélo ? Il est bien rouge .");
    assert_eq!(carried, vec![(0, 0), (1, 1), (2, 1), (4, 4), (5, 6), (6, 7)]);
    // A copy word for word takes every link as it is: the same words as the reference's.
    let (carried, _) = carry(&bridges(&m, Through::Nearest), "LE VÉLO ? Il est rouge .");
    assert_eq!(carried, vec![(0, 0), (1, 1), (2, 1), (3, 4), (4, 4), (5, 5), (6, 6)]);
    // A pronoun of the reference replaced by a word that is none: not carried either.
    let (carried, _) = carry(&bridges(&master(vec![]), Through::Nearest), "Le vélo ? Maintenant est rouge .");
    assert!(!carried.iter().any(|&(s, _)| s == 3), "{carried:?}");
    // Replaced by another pronoun: carried (the match then compares the two).
    let (carried, _) = carry(&bridges(&master(vec![]), Through::Nearest), "Le vélo ? Elle est rouge .");
    assert!(carried.contains(&(3, 3)));
}

#[test]
fn a_translation_too_far_from_every_bridge_is_left_to_the_aligner() {
    let m = master(vec![]);
    let (links, bridge) = carry(&bridges(&m, Through::Nearest), "Voilà une toute autre phrase");
    assert_eq!((links, bridge), (vec![], None));
    assert!(carry(&bridges(&m, Through::Nothing), REFERENCE).1.is_none());
}

#[test]
fn each_sentence_goes_through_the_nearest_translation_the_reference_on_a_tie() {
    // A system with a given alignment: "It" aligned to "Celui-ci" (token 3).
    let mt = corpus(2, "mt", CorpusRole::System, &["Le vélo ? Celui-ci est rouge ."], Some(vec![diagonal()]));
    let m = master(vec![mt]);
    let all = bridges(&m, Through::Nearest);
    assert_eq!(all.iter().map(|b| b.name).collect::<Vec<_>>(), ["reference", "mt"]);
    assert_eq!(carry(&all, "Le vélo ? Celui-ci est rouge .").1, Some(CorpusId(2)));
    assert_eq!(carry(&all, "Le vélo ? Il est rouge .").1, Some(CorpusId(1)));
    // As near to both: the reference.
    assert_eq!(carry(&all, "Le vélo ? Ça est rouge .").1, Some(CorpusId(1)));
    assert_eq!(carry(&bridges(&m, Through::Reference), "Le vélo ? Celui-ci est rouge .").1, Some(CorpusId(1)));
}

#[test]
fn the_bilingual_aligners_guesses_are_not_carried_on() {
    let mut mt = corpus(2, "mt", CorpusRole::System, &["Le vélo ? Celui-ci est rouge ."], None);
    let guessed = OriginLinks {
        links: vec![((0, 0), BRIDGE), ((1, 1), BRIDGE), ((3, 3), Aligner), ((5, 5), Repair)],
        bridge: Some(CorpusId(1)),
    };
    let (alignment, origins) = LinkOrigins::build(vec![guessed]);
    (mt.alignment, mt.link_origins) = (Some(alignment), Some(origins));
    let m = master(vec![mt]);
    let (links, bridge) = carry(&bridges(&m, Through::Nearest), "Le vélo ? Celui-ci est rouge .");
    assert_eq!((links, bridge), (vec![(0, 0), (1, 1)], Some(CorpusId(2))));
}

#[test]
fn the_aligner_fills_in_only_what_the_bridge_left() {
    let pair = PronounPair::of(&Languages::default());
    let source = "The bike ? It is red .";
    let target = "Le vélo ? Il est rouge .";
    // The bridge left "?" (2) and "It" (3) unaligned; the aligner links "bike" elsewhere (kept
    // out: bridged), "?" to "?" (kept) and "red" to "Il" (kept out: "red" is bridged).
    let bridged = carried(vec![(0, 0), (1, 1), (4, 4), (5, 5), (6, 6)]);
    let guessed = [(1, 3), (2, 2), (5, 3)];
    let combined = combine(source, target, bridged, &guesses(&guessed), pair.as_ref());
    let mut links = combined.links.clone();
    links.sort_unstable();
    // The repair links the unaligned "It" to the free "Il" between its neighbours.
    assert_eq!(
        links,
        vec![
            ((0, 0), BRIDGE),
            ((1, 1), BRIDGE),
            ((2, 2), Aligner),
            ((3, 3), Repair),
            ((4, 4), BRIDGE),
            ((5, 5), BRIDGE),
            ((6, 6), BRIDGE)
        ]
    );
    assert_eq!(combined.bridge, Some(CorpusId(1)));
}

#[test]
fn a_target_pronoun_bridged_to_a_source_pronoun_is_not_given_to_another() {
    let pair = PronounPair::of(&Languages::default());
    // "It" bridged to "Il"; the aligner would link "bike" (unbridged) to "Il" too, and "The" to
    // "Le", which the bridge gave to a word: that one it may share.
    let bridged = carried(vec![(3, 3), (0, 0)]);
    let combined = combine(SOURCE, REFERENCE, bridged, &guesses(&[(1, 3), (2, 0)]), pair.as_ref());
    assert_eq!(combined.links, vec![((0, 0), BRIDGE), ((3, 3), BRIDGE), ((2, 0), Aligner)]);
}

#[test]
fn a_pronoun_carried_to_an_article_yields_to_the_aligners_subject_pronoun() {
    let pair = PronounPair::of(&Languages::default());
    // "It could be dark matter": the reference's alignment linked "It" to the article of
    // "La matière noire", carried to the new translation's "la"; the aligner finds "Il".
    let (source, target) = ("It could be dark matter", "Il pourrait être la matière noire");
    let combined = combine(source, target, carried(vec![(0, 3), (4, 4)]), &guesses(&[(0, 0), (1, 1)]), pair.as_ref());
    assert_eq!(combined.links, vec![((4, 4), BRIDGE), ((0, 0), Aligner), ((1, 1), Aligner)]);
    // In a copy word for word the reference's link stays.
    let copy = Carried { unchanged: vec![(0, 3), (4, 4)], ..carried(vec![(0, 3), (4, 4)]) };
    assert_eq!(
        combine(source, target, copy, &guesses(&[(0, 0)]), pair.as_ref()).links,
        vec![((0, 3), BRIDGE), ((4, 4), BRIDGE)]
    );
    // Carried to a subject pronoun, it stays too.
    let combined = combine(source, target, carried(vec![(0, 0)]), &guesses(&[(0, 3)]), pair.as_ref());
    assert_eq!(combined.links, vec![((0, 0), BRIDGE)]);
}

#[test]
fn a_bridged_pronoun_is_not_repaired() {
    let pair = PronounPair::of(&Languages::default());
    // "It" bridged to the object clitic "l'": no subject pronoun is added to it.
    let combined = combine(
        "I saw it , it is red",
        "Je l' ai vu , il est rouge",
        carried(vec![(0, 0), (1, 3), (2, 1), (3, 4)]),
        &guesses(&[]),
        pair.as_ref(),
    );
    assert!(!combined.links.iter().any(|&((s, _), o)| s == 2 && o == Repair), "{:?}", combined.links);
    assert!(combined.links.contains(&((4, 5), Repair)), "the unbridged second it is repaired: {:?}", combined.links);
}

#[test]
fn a_pronoun_still_unaligned_takes_the_backward_models_link() {
    let pair = PronounPair::of(&Languages::default());
    // "make it easier" / "rendre plus facile": nothing links "it" but the target→source model,
    // which generated "rendre" from it.
    let (source, target) = ("to make it easier", "pour rendre plus facile");
    let guessed = Guesses { symmetric: vec![(0, 0), (1, 1), (3, 3)], backward: vec![(2, 1), (3, 3)] };
    let combined = combine(source, target, Carried::default(), &guessed, pair.as_ref());
    assert!(combined.links.contains(&((2, 1), Aligner)), "{:?}", combined.links);
    // Not when the target pronoun it points to is another source pronoun's.
    let (source, target) = ("he made it", "il rendit");
    let guessed = Guesses { symmetric: vec![(0, 0), (1, 1)], backward: vec![(2, 0)] };
    let combined = combine(source, target, Carried::default(), &guessed, pair.as_ref());
    assert!(!combined.links.iter().any(|l| l.0.0 == 2), "{:?}", combined.links);
}

#[test]
fn summary_counts_sentences_per_bridge_and_links_per_origin() {
    let m = master(vec![]);
    let bridges = bridges(&m, Through::Nearest);
    let (_, origins) = LinkOrigins::build(vec![
        OriginLinks { links: vec![((0, 0), BRIDGE), ((1, 1), Aligner)], bridge: Some(CorpusId(1)) },
        OriginLinks { links: vec![((0, 0), Aligner)], bridge: None },
    ]);
    let summary = Summary::of(&origins, &bridges);
    assert_eq!(summary, Summary { through: vec![("reference".into(), 1)], carried: 1, aligned: 2 });
    assert_eq!(summary.sentences(), 1);
}
