//! How much text the translation window shows around an example (docs/domain.md, "Context window").

use crate::model::{Example, Master};
use std::ops::Range;

/// The sentences to show for an example.
///
/// Anaphoric: from the earliest to the latest of the pronoun's and its antecedents' sentences
/// (an antecedent may follow the pronoun), plus the one sentence before. Otherwise the pronoun's
/// sentence and the one before it. Never crosses out of `document`.
pub fn window(example: &Example, anaphoric: bool, document: Range<u32>) -> Range<u32> {
    let mut first = example.sentence;
    let mut last = example.sentence;
    if anaphoric {
        for a in &example.antecedents {
            first = first.min(a.sentence);
            last = last.max(a.sentence);
        }
    }
    let first = if first > document.start { first - 1 } else { first.max(document.start) };
    first..(last + 1).min(document.end.max(first + 1))
}

/// The context window of an example of a master (its category decides whether it is anaphoric).
pub fn of_example(master: &Master, example: &Example) -> Range<u32> {
    let anaphoric = master.category(&example.category).is_some_and(|c| c.anaphoric);
    window(example, anaphoric, master.document_of(example.sentence))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Antecedent, ExampleNo};

    fn example(sentence: u32, antecedents: &[u32]) -> Example {
        Example {
            no: ExampleNo(1),
            sentence,
            token: 0,
            category: "x".into(),
            antecedents: antecedents.iter().map(|&s| Antecedent { sentence: s, start: 0, end: 0, head: 0 }).collect(),
        }
    }

    #[test]
    fn non_anaphoric_shows_the_sentence_and_the_one_before() {
        assert_eq!(window(&example(12, &[]), false, 10..20), 11..13);
        // Antecedents of a non-anaphoric category would be ignored.
        assert_eq!(window(&example(12, &[5]), false, 0..20), 11..13);
    }

    #[test]
    fn anaphoric_spans_pronoun_and_antecedents_plus_one_before() {
        assert_eq!(window(&example(12, &[12]), true, 0..20), 11..13);
        assert_eq!(window(&example(12, &[9, 11]), true, 0..20), 8..13);
        // Cataphora: the antecedent follows the pronoun.
        assert_eq!(window(&example(12, &[14]), true, 0..20), 11..15);
    }

    #[test]
    fn never_crosses_the_document_start() {
        assert_eq!(window(&example(10, &[]), false, 10..20), 10..11);
        assert_eq!(window(&example(11, &[10]), true, 10..20), 10..12);
        assert_eq!(window(&example(0, &[]), false, 0..5), 0..1);
    }

    #[test]
    fn last_sentence_of_a_document() {
        assert_eq!(window(&example(19, &[]), false, 10..20), 18..20);
    }
}
