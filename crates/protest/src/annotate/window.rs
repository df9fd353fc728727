//! What the translation window shows for one candidate: the context sentences of the source and
//! of the translation, each token marked with the roles it plays (docs/domain.md, "Context window").
//!
//! Pure data, so the GUI only maps marks to colours and the rules are unit-tested here.

use crate::annotate::context;
use crate::model::tokens;
use crate::model::{Candidate, Category, Corpus, Example, Master, Record, Role, TokenRef};
use std::ops::Range;

/// How a token is highlighted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// The source pronoun, or a target token aligned to it.
    pub pronoun: bool,
    /// An antecedent head, or a target token aligned to one.
    pub antecedent: bool,
    /// Inside an antecedent's span (source only).
    pub antecedent_span: bool,
    /// Selected as part of the minimal correct pronoun translation.
    pub selected_pronoun: bool,
    /// Selected as part of the minimal correct antecedent-head translation.
    pub selected_antecedent: bool,
    /// A target token aligned to the pronoun by the built-in bilingual aligner alone (the least
    /// sure link: `model::link_origin`).
    pub pronoun_guessed: bool,
}

impl Marks {
    /// Whether the token may be clicked to (de)select it: only aligned target tokens.
    pub fn selectable(&self) -> bool {
        self.pronoun || self.antecedent
    }

    pub fn selected(&self, role: Role) -> bool {
        match role {
            Role::Pronoun => self.selected_pronoun,
            Role::Antecedent => self.selected_antecedent,
        }
    }

    pub fn aligned(&self, role: Role) -> bool {
        match role {
            Role::Pronoun => self.pronoun,
            Role::Antecedent => self.antecedent,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    pub at: TokenRef,
    pub marks: Marks,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence<'a> {
    pub index: u32,
    pub tokens: Vec<Token<'a>>,
}

/// The two texts of the translation window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window<'a> {
    pub sentences: Range<u32>,
    pub source: Vec<Sentence<'a>>,
    pub target: Vec<Sentence<'a>>,
}

fn sentences<'a>(corpus: &'a Corpus, shown: &[u32], marks: impl Fn(TokenRef) -> Marks) -> Vec<Sentence<'a>> {
    shown
        .iter()
        .map(|&index| Sentence {
            index,
            tokens: tokens::tokens(corpus.sentence(index).unwrap_or(""))
                .enumerate()
                .map(|(t, text)| {
                    let at = TokenRef::new(index, t as u32);
                    Token { text, at, marks: marks(at) }
                })
                .collect(),
        })
        .collect()
}

/// The sentences of `range` to show: every one of a master's; of a batch's, those the source or
/// the translation holds (one neither holds is empty in both, and a batch's claimed sentence count
/// could make the range as long as a hand-made file likes).
fn shown(source: &Corpus, translation: &Corpus, range: Range<u32>) -> Vec<u32> {
    let range = range.start as usize..range.end as usize;
    let mut shown: Vec<u32> =
        source.sentences.held_in(range.clone()).chain(translation.sentences.held_in(range)).map(|n| n as u32).collect();
    shown.sort_unstable();
    shown.dedup();
    shown
}

/// Builds the window for a candidate, with the selections of `record` (if any) marked.
pub fn build<'a>(
    source: &'a Corpus,
    translation: &'a Corpus,
    example: &Example,
    category: &Category,
    candidate: &Candidate,
    document: Range<u32>,
    record: Option<&Record>,
) -> Window<'a> {
    let range = context::window(example, category.anaphoric, document);
    let antecedents = if category.anaphoric { example.antecedents.as_slice() } else { &[] };
    let source_marks = |at: TokenRef| Marks {
        pronoun: at == example.pronoun_ref(),
        antecedent: antecedents.iter().any(|a| a.head_ref() == at),
        antecedent_span: antecedents.iter().any(|a| a.sentence == at.sentence && (a.start..=a.end).contains(&at.token)),
        ..Marks::default()
    };
    let target_marks = |at: TokenRef| {
        let selected = |role: Role| record.is_some_and(|r| r.selected.get(role).contains(&at));
        Marks {
            pronoun: candidate.is_aligned(Role::Pronoun, at),
            antecedent: category.anaphoric && candidate.is_aligned(Role::Antecedent, at),
            antecedent_span: false,
            selected_pronoun: selected(Role::Pronoun),
            selected_antecedent: selected(Role::Antecedent),
            pronoun_guessed: candidate.is_aligned(Role::Pronoun, at)
                && translation.link_origin(example.sentence, example.token, at.token).is_guessed(),
        }
    };
    let shown = shown(source, translation, range.clone());
    Window {
        sentences: range,
        source: sentences(source, &shown, source_marks),
        target: sentences(translation, &shown, target_marks),
    }
}

/// The window of a candidate of a master, with `record`'s selections; `None` if the candidate's
/// example, category or corpus is missing (a validated master always has them).
pub fn of_candidate<'a>(master: &'a Master, candidate: &Candidate, record: Option<&Record>) -> Option<Window<'a>> {
    let (example, category) = master.example_of(candidate)?;
    Some(build(
        master.source()?,
        master.corpus(candidate.corpus)?,
        example,
        category,
        candidate,
        master.document_of(example.sentence),
        record,
    ))
}

/// The words a candidate translates the pronoun and each antecedent head with (possibly empty:
/// untranslated or unaligned).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translations {
    pub pronoun: Vec<String>,
    pub antecedents: Vec<Vec<String>>,
}

pub fn translations(translation: &Corpus, candidate: &Candidate) -> Translations {
    let words = |refs: &[TokenRef]| refs.iter().filter_map(|&t| translation.token(t)).map(str::to_owned).collect();
    Translations {
        pronoun: words(&candidate.pronoun),
        antecedents: candidate.antecedents.iter().map(|a| words(a)).collect(),
    }
}

/// What the window says of a candidate whose pronoun the built-in bilingual aligner alone
/// aligned (no bridge, no given alignment): the least sure alignment, so the highlighted words
/// may not be the pronoun's translation. `None` otherwise.
pub fn alignment_note(master: &Master, candidate: &Candidate) -> Option<&'static str> {
    master
        .candidate_links(candidate)
        .filter(|links| links.pronoun_guessed())
        .map(|_| "Pronoun aligned by the built-in aligner alone (least sure)")
}

/// What the window says under a translation sentence whose boundaries were inferred from a
/// system's output that did not come one line per sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundaryNote {
    pub text: String,
    /// The boundaries are of low confidence, or shared with a neighbour: the translation may hold
    /// another sentence's words or lack some of its own.
    pub uncertain: bool,
}

/// The note for sentence `sentence` of `translation`, if its boundaries were inferred.
pub fn boundary_note(translation: &Corpus, sentence: u32) -> Option<BoundaryNote> {
    let origin = translation.origin(sentence);
    let uncertain = translation.is_uncertain(sentence);
    if !origin.is_inferred() && !uncertain {
        return None;
    }
    let text = if uncertain {
        format!(
            "Boundaries uncertain: {} — this translation may hold words of a neighbouring sentence or lack some of \
             its own",
            origin.describe()
        )
    } else {
        format!("Boundaries inferred: {}", origin.describe())
    };
    Some(BoundaryNote { text, uncertain })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        AnnotatorId, Antecedent, CandidateId, CorpusId, CorpusRole, ExampleNo, LinkOrigin, standard_categories,
    };
    use chrono::Utc;

    fn corpus(id: u32, role: CorpusRole, lines: &[&str]) -> Corpus {
        Corpus {
            id: CorpusId(id),
            name: format!("c{id}"),
            role,
            sentences: lines.iter().map(|s| s.to_string()).collect(),
            alignment: None,
            segmentation: None,
            label: None,
            link_origins: None,
        }
    }

    fn setup() -> (Corpus, Corpus, Example, Candidate) {
        let source = corpus(0, CorpusRole::Source, &["Intro .", "I have a red bicycle .", "It is fast ."]);
        let target = corpus(1, CorpusRole::System, &["Intro .", "J' ai un vélo rouge .", "Il est rapide ."]);
        let example = Example {
            no: ExampleNo(1),
            sentence: 2,
            token: 0,
            category: "anaphoric_inter_subject_it".into(),
            antecedents: vec![Antecedent { sentence: 1, start: 2, end: 4, head: 4 }],
        };
        let candidate = Candidate {
            id: CandidateId(1),
            example: ExampleNo(1),
            corpus: CorpusId(1),
            pronoun: vec![TokenRef::new(2, 0)],
            antecedents: vec![vec![TokenRef::new(1, 2), TokenRef::new(1, 3)]],
        };
        (source, target, example, candidate)
    }

    fn category(name: &str) -> Category {
        standard_categories().into_iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn marks_pronoun_antecedent_and_their_translations() {
        let (source, target, example, candidate) = setup();
        let mut record = Record::new(CandidateId(1), AnnotatorId(1), Utc::now());
        record.selected.antecedent.insert(TokenRef::new(1, 3));
        let w = build(&source, &target, &example, &category(&example.category), &candidate, 0..3, Some(&record));
        assert_eq!(w.sentences, 0..3);
        let src = &w.source[2].tokens[0];
        assert_eq!((src.text, src.marks.pronoun), ("It", true));
        let head = &w.source[1].tokens[4];
        assert_eq!((head.text, head.marks.antecedent, head.marks.antecedent_span), ("bicycle", true, true));
        assert!(w.source[1].tokens[2].marks.antecedent_span && !w.source[1].tokens[2].marks.antecedent);
        let velo = &w.target[1].tokens[3];
        assert_eq!(velo.text, "vélo");
        assert!(velo.marks.antecedent && velo.marks.selected_antecedent && velo.marks.selectable());
        assert!(!w.target[1].tokens[2].marks.selected_antecedent);
        assert!(w.target[2].tokens[0].marks.pronoun);
        assert!(!w.target[2].tokens[1].marks.selectable());
    }

    #[test]
    fn a_pronoun_aligned_by_the_aligner_alone_is_marked() {
        use crate::model::LinkOrigins;
        use crate::model::link_origin::OriginLinks;
        let (source, mut target, example, candidate) = setup();
        let category = category(&example.category);
        let marked = |target: &Corpus| {
            let w = build(&source, target, &example, &category, &candidate, 0..3, None);
            let marks = |s: usize, t: usize| w.target[s].tokens[t].marks.pronoun_guessed;
            (marks(2, 0), marks(1, 3))
        };
        assert_eq!(marked(&target), (false, false), "no origins recorded: given");
        let sentence = |links: Vec<((u32, u32), LinkOrigin)>| OriginLinks { links, bridge: None };
        let with = |origin| {
            vec![sentence(vec![]), sentence(vec![((4, 3), LinkOrigin::Aligner)]), sentence(vec![((0, 0), origin)])]
        };
        for (origin, expected) in [(LinkOrigin::Aligner, true), (LinkOrigin::Repair, true), (LinkOrigin::Given, false)]
        {
            let (alignment, origins) = LinkOrigins::build(with(origin));
            (target.alignment, target.link_origins) = (Some(alignment), Some(origins));
            assert_eq!(marked(&target), (expected, false), "{origin:?}; heads are not marked");
        }
    }

    #[test]
    fn non_anaphoric_windows_ignore_antecedents() {
        let (source, target, mut example, mut candidate) = setup();
        example.antecedents.clear();
        candidate.antecedents.clear();
        let w = build(&source, &target, &example, &category("pleonastic_it"), &candidate, 0..3, None);
        assert_eq!(w.sentences, 1..3);
        assert!(w.target.iter().flat_map(|s| &s.tokens).all(|t| !t.marks.antecedent));
    }

    /// A batch holds only some sentences of a count it claims: a window reaching from an
    /// antecedent at its first sentence to a pronoun at its last shows the held ones, not four
    /// billion rows.
    #[test]
    fn a_batch_window_shows_the_sentences_it_holds() {
        use crate::model::Sentences;
        let (mut source, mut target, mut example, mut candidate) = setup();
        let last = u32::MAX - 1;
        let held = |c: &Corpus| {
            Sentences::kept(last as usize + 1, vec![(1, c.sentences[1].clone()), (last, c.sentences[2].clone())])
        };
        (source.sentences, target.sentences) = (held(&source), held(&target));
        example.sentence = last;
        candidate.pronoun = vec![TokenRef::new(last, 0)];
        let w = build(&source, &target, &example, &category(&example.category), &candidate, 0..last + 1, None);
        assert_eq!(w.sentences, 0..last + 1);
        assert_eq!(w.source.iter().map(|s| s.index).collect::<Vec<_>>(), [1, last]);
        assert_eq!((w.source[1].tokens[0].text, w.source[1].tokens[0].marks.pronoun), ("It", true));
        assert!(w.target[1].tokens[0].marks.pronoun && w.target[0].tokens[3].marks.antecedent);
    }

    #[test]
    fn translations_may_be_empty() {
        let (_, target, _, mut candidate) = setup();
        assert_eq!(
            translations(&target, &candidate),
            Translations { pronoun: vec!["Il".into()], antecedents: vec![vec!["un".into(), "vélo".into()]] }
        );
        candidate.pronoun.clear();
        assert!(translations(&target, &candidate).pronoun.is_empty());
    }

    #[test]
    fn inferred_boundaries_are_noted_and_uncertain_ones_stand_out() {
        use crate::model::Segmentation;
        let (_, mut target, _, _) = setup();
        assert_eq!(boundary_note(&target, 1), None);
        target.segmentation =
            Some(Segmentation { split: vec![1], joined: vec![2], low_confidence: vec![2], ..Default::default() });
        assert_eq!(boundary_note(&target, 0), None);
        let split = boundary_note(&target, 1).unwrap();
        assert_eq!((split.text.as_str(), split.uncertain), ("Boundaries inferred: split from a longer line", false));
        let joined = boundary_note(&target, 2).unwrap();
        assert!(joined.uncertain && joined.text.starts_with("Boundaries uncertain: joined from several lines — "));
    }
}
