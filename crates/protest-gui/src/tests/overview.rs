//! Headless tests of the researcher's overview panel and the lookup (Ctrl+G).

use super::*;
use super::{ANAPHORIC_NEW, ANNA, click, harness, named, position, press, press_with, saved_record, tiny};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record, TokenRef};
use protest::store::Store;

const BEN: AnnotatorId = AnnotatorId(2);

/// The tiny master with Anna's and Ben's records of candidate 1 (anaphoric "It" → "Il", antecedent
/// "vélo"): they agree on the antecedent, not on the pronoun. Anna's of candidate 2 is an old
/// "unsure".
fn two_annotators(path: &std::path::Path) {
    let (mut store, _) = Store::<Master>::open(path).unwrap();
    store
        .update(|m| {
            for name in ["Anna", "Ben"] {
                protest::batches::annotators::add(m, name).unwrap();
            }
            let now = chrono::Utc::now();
            let mut anna = Record::new(CandidateId(1), ANNA, now);
            (anna.antecedent, anna.pronoun) = (Judgement::Yes, Judgement::Yes);
            anna.selected.pronoun.insert(TokenRef::new(1, 0));
            anna.selected.antecedent.insert(TokenRef::new(0, 3));
            anna.tags.insert("desc_vs_presc".into());
            anna.remarks = "Il agrees with vélo".into();
            let mut ben = Record::new(CandidateId(1), BEN, now);
            (ben.antecedent, ben.pronoun) = (Judgement::Yes, Judgement::No);
            ben.selected.antecedent.insert(TokenRef::new(0, 3));
            ben.tags.insert("desc_vs_presc".into());
            ben.tags.insert("bad_translation".into());
            ben.remarks = "Not what a teacher would write".into();
            let mut unsure = Record::new(CandidateId(2), ANNA, now);
            unsure.legacy.insert("anaph_annotation".into(), "unsure".into());
            for r in [anna, ben, unsure] {
                m.records.put(r);
            }
            Ok(())
        })
        .unwrap();
    store.close().unwrap();
}

fn overview_shown(h: &Harness<App>) -> bool {
    h.query_by_label("Everyone's annotations of this translation").is_some()
}

#[test]
fn the_overview_shows_everyones_judgements_tags_and_remarks_and_steps_through_their_tokens() {
    let f = tiny();
    two_annotators(&f.path);
    let mut h = harness(&f.path, None);
    click(&mut h, ANAPHORIC_NEW);
    assert!(!overview_shown(&h));
    press(&mut h, Key::O);
    assert!(overview_shown(&h));
    for (name, present) in [
        ("Antecedent by Anna: ✔", true),
        ("Antecedent by Ben: ✔", true),
        ("Pronoun by Anna: ✔", true),
        ("Pronoun by Ben: ✖", true),
        ("desc_vs_presc by Anna: yes", true),
        ("desc_vs_presc by Ben: yes", true),
        ("bad_translation by Anna: no", true),
        ("bad_translation by Ben: yes", true),
        ("Pronoun by Researcher: ?", false),
    ] {
        assert_eq!(named(&h, name), present, "{name}");
    }
    assert!(
        h.query_by_label("Il agrees with vélo").is_some()
            && h.query_by_label("Not what a teacher would write").is_some()
    );
    // Anna's tokens first, then Ben's, then round again.
    assert!(h.query_by_label("Anna (1 of 2)").is_some());
    assert!(h.query_by_label("Pronoun: Il").is_some() && h.query_by_label("Antecedent: vélo").is_some());
    click(&mut h, "Next annotator's tokens");
    assert!(h.query_by_label("Ben (2 of 2)").is_some());
    assert!(h.query_by_label("Pronoun: none").is_some() && h.query_by_label("Antecedent: vélo").is_some());
    assert!(h.query_by_label_contains("Showing the tokens selected by").is_some());
    press(&mut h, Key::CloseBracket);
    assert!(h.query_by_label("Anna (1 of 2)").is_some());
    // The translation is not clickable in the overview (the tokens are no toggles), nor are the
    // judgement keys for anyone.
    assert!(h.query_by_label("Il").is_none());
    assert!(h.query_by_label("numbers: keys").is_none(), "no key legend where keys select nothing");
    press(&mut h, Key::N);
    assert_eq!(saved_record(&f.path, 1, AnnotatorId::RESEARCHER), None);
    assert!(h.query_by_label_contains("The overview is not editable").is_some());
    click(&mut h, "Annotate");
    assert!(!overview_shown(&h) && h.query_by_label("Il").is_some());
    assert!(h.query_by_label("numbers: keys").is_some());
}

#[test]
fn an_old_unsure_is_shown_beside_its_question_mark() {
    let f = tiny();
    two_annotators(&f.path);
    let mut h = harness(&f.path, None);
    click(&mut h, ANAPHORIC_NEW);
    press(&mut h, Key::ArrowRight); // candidate 2: the MT translation
    press(&mut h, Key::O);
    assert!(named(&h, "Pronoun by Anna: ? (unsure)"));
}

#[test]
fn the_researcher_adds_and_removes_tags_as_their_own_record() {
    let f = tiny();
    two_annotators(&f.path);
    let mut h = harness(&f.path, Some(ANNA));
    click(&mut h, "Inter-sentential “it”, subject: 2 done");
    press(&mut h, Key::O);
    press(&mut h, Key::T);
    h.get_by_label("Tags").type_text("check_agreement");
    h.settle();
    press(&mut h, Key::Enter);
    let mine = saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap();
    assert_eq!(mine.tags.iter().collect::<Vec<_>>(), ["check_agreement"]);
    assert!(!saved_record(&f.path, 1, ANNA).unwrap().tags.contains("check_agreement"), "not Anna's");
    assert!(named(&h, "check_agreement by Researcher: yes"), "the table has my column");
    press(&mut h, Key::Escape); // leave the field
    click(&mut h, "Remove tag check_agreement");
    assert!(saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap().tags.is_empty());
    // Undo brings it back, like any change.
    press_with(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(saved_record(&f.path, 1, AnnotatorId::RESEARCHER).unwrap().tags.contains("check_agreement"));
}

#[test]
fn lookup_by_example_number_shows_every_translation_and_opens_one() {
    let f = tiny();
    two_annotators(&f.path);
    let mut h = harness(&f.path, None);
    press_with(&mut h, Modifiers::COMMAND, Key::G);
    h.get_by_label("Example number").type_text("9");
    h.settle();
    click(&mut h, "Show every translation");
    assert!(h.query_by_label("Example: there is no example 9 (the examples are numbered 1–3).").is_some());
    h.get_by_label("Example number").click();
    h.settle();
    h.key_press(Key::Backspace);
    h.get_by_label("Example number").type_text("1");
    h.settle();
    click(&mut h, "Show every translation");
    assert!(h.query_by_label("Open the translation by reference").is_some());
    assert!(h.query_by_label("Open the translation by mt").is_some());
    assert!(h.query_by_label("Ben:").is_some(), "each annotator's judgements");
    click(&mut h, "Open the translation by mt");
    assert_eq!(position(&h), (2, 2), "among the example's translations, at the one clicked");
    let View::Example(walk) = &h.state().view else { panic!("an example is open") };
    assert_eq!(walk.current(), CandidateId(2));
}

#[test]
fn lookup_by_candidate_opens_it() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    click(&mut h, "View");
    h.get_by_label_contains("Go to example or candidate…").click();
    h.settle();
    h.get_by_label("Candidate id").click();
    h.settle();
    h.get_by_label("Candidate id").type_text("5");
    h.settle();
    press(&mut h, Key::Enter);
    let View::Example(walk) = &h.state().view else { panic!("an example is open") };
    assert_eq!((walk.current(), walk.set.len()), (CandidateId(5), 2));
}
