use super::*;
use crate::model::{Candidate, Corpus, CorpusId, CorpusRole, Judgement, MatchRule, TokenRef};
use crate::store::validate;
use crate::testing::{judge, select_pronoun, tiny};
use Judgement::{No, Unset, Yes};
use chrono::{TimeZone, Utc};

fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, hour, 0, 0).unwrap()
}

/// The tiny master with a second MT system: the same text as the first, except that its "you"
/// (candidate 9) is aligned to "Tu es". Candidates 7, 8, 9 are its examples 1, 2, 3.
fn two_systems() -> Master {
    let mut m = tiny();
    let mt = m.corpora[2].clone();
    m.corpora.push(Corpus { id: CorpusId(3), name: "mt2".into(), role: CorpusRole::System, alignment: None, ..mt });
    let copies: Vec<Candidate> = [2, 4, 6]
        .iter()
        .zip(7..)
        .map(|(&from, id)| Candidate {
            id: CandidateId(id),
            corpus: CorpusId(3),
            ..m.candidate(CandidateId(from)).unwrap().clone()
        })
        .collect();
    m.candidates.extend(copies);
    m.reindex();
    m.candidates.last_mut().unwrap().pronoun = vec![TokenRef::new(3, 0), TokenRef::new(3, 1)];
    m.reindex();
    m
}

fn outcome(m: &Master, candidate: u32) -> (Outcome, Option<u32>) {
    let e = m.auto_eval.entry(CandidateId(candidate)).unwrap();
    (e.outcome, e.reference.map(|r| r.0))
}

/// A round of the reference match alone (the agreement judge has tests of its own).
fn round(m: &mut Master, hour: u32) -> Round {
    m.auto_eval = run_with(m, at(hour), Judges { agreement: false });
    assert_eq!(validate::master(m), vec![], "the stored results are valid");
    m.auto_eval.rounds.last().unwrap().clone()
}

#[test]
fn first_round_compares_with_the_reference() {
    let mut m = tiny();
    let r = round(&mut m, 1);
    // Only the MT system's candidates are compared.
    assert_eq!(m.auto_eval.outcomes.iter().map(|e| e.candidate.0).collect::<Vec<_>>(), [2, 4, 6]);
    assert_eq!(outcome(&m, 2), (Outcome::Mismatch, None), "Elle/bicyclette vs Il/vélo");
    assert_eq!(outcome(&m, 4), (Outcome::Match, Some(3)), "Il vs Il");
    assert_eq!(outcome(&m, 6), (Outcome::Mismatch, None), "Tu vs vous");
    assert_eq!(
        r,
        Round {
            round: 1,
            run: at(1),
            judged_references: 0,
            matches: 1,
            mismatches: 2,
            no_translation: 0,
            no_reference: 0,
            uncertain_boundaries: 0,
            agreements: 0,
            disagreements: 0,
            contradicted: 0,
            settled: 1,
            unsettled: 0,
            rule: MatchRule::MinimalTokens,
            agreement: false,
        }
    );
    assert!(!needs_human(&m, CandidateId(4)));
    assert!(needs_human(&m, CandidateId(2)) && needs_human(&m, CandidateId(1)));
}

#[test]
fn the_antecedent_head_must_match_too() {
    let mut m = tiny();
    // The MT system now says "Il" for the anaphoric "It", but still "bicyclette".
    m.corpora[2].sentences[1] = "Il est rouge .".into();
    round(&mut m, 1);
    assert_eq!(outcome(&m, 2).0, Outcome::Mismatch);
    m.corpora[2].sentences[0] = "J' ai un VÉLO .".into();
    round(&mut m, 2);
    assert_eq!(outcome(&m, 2), (Outcome::Match, Some(1)), "case-insensitive");
}

#[test]
fn missing_translations_and_references() {
    let mut m = tiny();
    for corpus in &mut m.corpora {
        corpus.alignment = None; // keep only the aligned positions, which we change
    }
    m.candidates[1].antecedents[0].clear(); // MT: the head "bicyclette" unaligned
    m.candidates[4].pronoun.clear(); // reference: "you" unaligned
    m.reindex();
    round(&mut m, 1);
    assert_eq!(outcome(&m, 2).0, Outcome::NoTranslation);
    assert_eq!(outcome(&m, 6).0, Outcome::NoReference);
}

#[test]
fn judged_translations_become_references_in_the_next_round() {
    let mut m = two_systems();
    let first = round(&mut m, 1);
    assert_eq!((first.matches, first.settled), (2, 2), "both systems' pleonastic Il");
    assert_eq!(outcome(&m, 7).0, Outcome::Mismatch);
    assert_eq!(outcome(&m, 9).0, Outcome::Mismatch);

    // Annotators judge the first system's anaphoric translation correct; the second system
    // says the same. The "Tu es" of the second system is correct, minimally "Tu".
    judge(&mut m, 2, 1, Yes, Yes);
    judge(&mut m, 9, 2, Yes, Unset);
    select_pronoun(&mut m, 9, 2, &[(3, 0)]);
    let second = round(&mut m, 2);
    assert_eq!(outcome(&m, 7), (Outcome::Match, Some(2)));
    assert_eq!(outcome(&m, 6), (Outcome::Match, Some(9)), "Tu = the minimal selection of Tu es");
    assert_eq!(outcome(&m, 2).0, Outcome::Mismatch, "a candidate is not its own reference");
    assert_eq!(outcome(&m, 9).0, Outcome::Mismatch, "Tu es ≠ the minimal Tu of itself, nor vous");
    assert_eq!(
        (second.round, second.judged_references, second.matches, second.settled, second.unsettled),
        (2, 2, 4, 2, 0)
    );
    assert_eq!(m.auto_eval.entry(CandidateId(4)).unwrap().round, 1, "unchanged outcomes keep their round");
    assert_eq!(m.auto_eval.entry(CandidateId(7)).unwrap().round, 2);

    // A third round with nothing new settles nothing.
    let third = round(&mut m, 3);
    assert_eq!((third.matches, third.settled, third.unsettled), (4, 0, 0));

    // A second annotator disagrees: the tie leaves candidate 2 undecided, so it is no longer a
    // reference and candidate 7 goes back to the humans.
    judge(&mut m, 2, 2, No, Yes);
    let fourth = round(&mut m, 4);
    assert_eq!(outcome(&m, 7).0, Outcome::Mismatch);
    assert_eq!((fourth.matches, fourth.settled, fourth.unsettled, fourth.judged_references), (3, 0, 1, 1));
    assert_eq!(m.auto_eval.rounds.len(), 4);
}

#[test]
fn a_reference_translation_judged_incorrect_is_not_used() {
    let mut m = tiny();
    judge(&mut m, 3, 0, No, Unset); // the researcher: the reference's pleonastic "Il" is wrong
    round(&mut m, 1);
    assert_eq!(outcome(&m, 4).0, Outcome::NoReference);
}

#[test]
fn anaphoric_references_need_both_judgements_yes() {
    let mut m = two_systems();
    judge(&mut m, 2, 1, Yes, No);
    round(&mut m, 1);
    assert_eq!(outcome(&m, 7).0, Outcome::Mismatch);
}

#[test]
fn stored_results_that_do_not_fit_the_master_are_refused() {
    let mut m = tiny();
    round(&mut m, 1);
    let problems =
        |m: &Master| validate::master(m).into_iter().map(|p| format!("{}: {}", p.path, p.message)).collect::<Vec<_>>();
    let mut broken = m.clone();
    broken.auto_eval.outcomes.swap(0, 1);
    assert_eq!(
        problems(&broken),
        [
            "auto_eval.outcomes[1].candidate: automatic match of candidate 2: outcomes must be in ascending candidate order, one each"
        ]
    );
    let mut broken = m.clone();
    broken.auto_eval.outcomes[0] =
        MatchEntry { candidate: CandidateId(1), outcome: Outcome::Match, reference: None, round: 2 };
    assert_eq!(
        problems(&broken),
        [
            "auto_eval.outcomes[0].candidate: automatic match of candidate 1: the candidate is not an MT system's translation",
            "auto_eval.outcomes[0].round: automatic match of candidate 1: round 2 does not exist (the last is round 1)",
            "auto_eval.outcomes[0].reference: automatic match of candidate 1: a match must name its reference",
        ]
    );
    let mut broken = m.clone();
    broken.auto_eval.outcomes[0].reference = Some(CandidateId(1));
    broken.auto_eval.rounds[0].round = 3;
    assert_eq!(
        problems(&broken),
        [
            "auto_eval.rounds[0].round: round 3 should be numbered 1",
            "auto_eval.outcomes[0].reference: automatic match of candidate 2: only a match (or a contradicted one) has a reference",
        ]
    );
}

#[test]
fn the_needing_human_filter_is_refused_before_the_first_round() {
    let mut m = tiny();
    assert_eq!(needing_human(&m).err(), Some(NoRound));
    round(&mut m, 1); // matches candidate 4 only
    let keep = needing_human(&m).unwrap();
    let kept: Vec<u32> = m.candidates.iter().filter(|c| keep(c)).map(|c| c.id.0).collect();
    assert_eq!(kept, [1, 2, 3, 5, 6], "reference candidates and unmatched MT candidates");
}

#[test]
fn match_notes_name_what_was_matched() {
    let mut m = two_systems();
    judge(&mut m, 2, 1, Yes, Yes); // mt's "Elle … bicyclette" judged correct: a reference
    round(&mut m, 1);
    assert_eq!(
        match_note(&m, CandidateId(4)).as_deref(),
        Some("matched automatically: same words as the reference translation (round 1)")
    );
    // Candidate 7 (mt2's copy of 2) matches the MT translation judged correct.
    assert_eq!(
        match_note(&m, CandidateId(7)).as_deref(),
        Some("matched automatically: same words as a translation judged correct (mt) (round 1)")
    );
    assert_eq!(match_note(&m, CandidateId(6)), None, "not matched");
    assert_eq!(match_note(&m, CandidateId(1)), None, "a reference candidate is not compared");
}

#[test]
fn a_round_in_one_line() {
    let mut m = tiny();
    let mut r = round(&mut m, 1);
    assert_eq!(summary(&r), "Round 1: 1 of 3 MT candidates match (1 settled this round); 2 left to humans.");
    r.unsettled = 2;
    assert!(summary(&r).contains("(1 settled this round, 2 no longer settled)"));
}

#[test]
fn uncertain_sentence_boundaries_are_left_to_humans() {
    let mut m = tiny();
    round(&mut m, 1);
    assert_eq!(outcome(&m, 4), (Outcome::Match, Some(3)));
    // The MT output was re-segmented and the boundaries of example 2's sentence are uncertain:
    // the same words, but a person must look.
    let sentence = m.example(m.candidate(CandidateId(4)).unwrap().example).unwrap().sentence;
    m.corpora[2].segmentation =
        Some(crate::model::Segmentation { low_confidence: vec![sentence], ..Default::default() });
    let r = round(&mut m, 2);
    assert_eq!(outcome(&m, 4), (Outcome::UncertainBoundaries, None));
    assert!(needs_human(&m, CandidateId(4)));
    assert_eq!((r.uncertain_boundaries, r.unsettled, r.candidates()), (1, 1, 3));
    assert!(summary(&r).contains("1 no longer settled"), "{}", summary(&r));
    // Split with confidence: compared again.
    m.corpora[2].segmentation = Some(crate::model::Segmentation { split: vec![sentence], ..Default::default() });
    round(&mut m, 3);
    assert_eq!(outcome(&m, 4), (Outcome::Match, Some(3)));
}

#[test]
fn the_agreement_judge_settles_what_the_match_does_not() {
    let mut m = tiny();
    m.auto_eval = run(&m, at(1));
    assert_eq!(validate::master(&m), vec![], "the stored results are valid");
    // "Elle … bicyclette": no reference says so, but elle agrees with bicyclette.
    assert_eq!(outcome(&m, 2), (Outcome::Agreement, None));
    assert_eq!(outcome(&m, 4), (Outcome::Match, Some(3)), "pleonastic: the match only");
    assert_eq!(outcome(&m, 6), (Outcome::Mismatch, None), "not anaphoric");
    let r = m.auto_eval.rounds[0].clone();
    assert_eq!(
        (r.matches, r.agreements, r.disagreements, r.settled, r.candidates(), r.automatic()),
        (1, 1, 0, 2, 3, 2)
    );
    assert!(r.agreement);
    assert!(!needs_human(&m, CandidateId(2)));
    assert_eq!(
        summary(&r),
        "Round 1: 1 of 3 MT candidates match, 1 agree and 0 disagree with their antecedent (2 settled this round); \
         1 left to humans."
    );
    assert_eq!(
        match_note(&m, CandidateId(2)).as_deref(),
        Some("correct by agreement: 'elle' (feminine singular) and 'bicyclette' (feminine singular) agree (round 1)")
    );
    // With "Il" instead: a disagreement, an automatic ✗.
    let sentence = m.example(crate::model::ExampleNo(1)).unwrap().sentence as usize;
    let text = m.corpora[2].sentences[sentence].replacen("Elle", "Il", 1);
    m.corpora[2].sentences[sentence] = text;
    m.auto_eval = run(&m, at(2));
    assert_eq!(outcome(&m, 2), (Outcome::Disagreement, None));
    assert_eq!(m.auto_eval.settled(CandidateId(2)), Some(false));
    // A human judgement does not change the outcome, but the precision counts it.
    judge(&mut m, 2, 1, Yes, Yes);
    let p = Precision::of(&m);
    assert_eq!((p.disagreements_with_verdict, p.disagreements_judged_correct), (1, 1));
    // Left out: the match alone.
    m.auto_eval = run_with(&m, at(3), Judges { agreement: false });
    assert_eq!(outcome(&m, 2), (Outcome::Mismatch, None));
    assert!(!m.auto_eval.rounds[2].agreement);
}

#[test]
fn a_match_the_judge_disagrees_with_is_left_to_people() {
    let verdict = |agrees| {
        let shown = |words: &str| agreement::Shown {
            words: words.into(),
            features: crate::model::lexicon::Features::NONE,
            by: agreement::By::Form,
        };
        let evidence = agreement::Evidence { pronoun: shown("les … achetées"), head: shown("ongles") };
        if agrees { Verdict::Agrees(evidence) } else { Verdict::Disagrees(evidence) }
    };
    let matched = (Outcome::Match, Some(CandidateId(3)));
    assert_eq!(with_agreement(matched, &verdict(false)), (Outcome::Contradicted, Some(CandidateId(3))));
    assert_eq!(with_agreement(matched, &verdict(true)), matched);
    assert_eq!(with_agreement((Outcome::NoReference, None), &verdict(true)), (Outcome::Agreement, None));
    assert_eq!(with_agreement((Outcome::Mismatch, None), &verdict(false)), (Outcome::Disagreement, None));
    let open = Verdict::Open(agreement::Open::NoPronoun);
    assert_eq!(with_agreement((Outcome::Mismatch, None), &open), (Outcome::Mismatch, None));
    assert_eq!(with_agreement((Outcome::NoTranslation, None), &verdict(true)), (Outcome::NoTranslation, None));
}
