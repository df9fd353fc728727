//! Everyone's annotations of one candidate side by side (paper 001 §3 and Fig. 3): what
//! the researcher's overview panel shows. Pure data; the GUI only lays it out.

use crate::annotate::Direction;
use crate::model::Conflict;
use crate::model::{AnnotatorId, CandidateId, ConflictStatus, Judgement, Master, Record, Role, TokenRef};
use std::collections::BTreeSet;

/// The old tool's column that held a role's judgement, as kept in [`Record::legacy`].
pub fn legacy_column(role: Role) -> &'static str {
    match role {
        Role::Pronoun => "anaph_annotation",
        Role::Antecedent => "ant_annotation",
    }
}

/// One candidate's records, one column per annotator who made one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overview {
    pub candidate: CandidateId,
    /// Everyone with a non-blank record, by id (so the researcher, id 0, comes first).
    pub annotators: Vec<AnnotatorId>,
    /// The antecedent row (anaphoric examples only), then the pronoun row.
    pub judgements: Vec<JudgementRow>,
    /// Every tag anyone gave, alphabetically, with a tick per annotator.
    pub tags: Vec<TagRow>,
    /// Non-empty remarks, in annotator order.
    pub remarks: Vec<(AnnotatorId, String)>,
    /// Per annotator: the conflicts they chose to keep (empty when none).
    pub kept: Vec<Vec<Conflict>>,
    /// Values of converted records our fields do not hold exactly, other than judgements
    /// (those are in the cells): `(annotator, old column, value)`.
    pub legacy: Vec<(AnnotatorId, String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgementRow {
    pub role: Role,
    pub cells: Vec<Cell>,
}

/// One annotator's judgement of one role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub judgement: Judgement,
    /// The original tool's value where ours cannot hold it (e.g. `unsure`).
    pub legacy: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRow {
    pub tag: String,
    pub ticks: Vec<bool>,
}

impl Overview {
    /// The overview of a candidate; `None` if it does not exist.
    pub fn of(master: &Master, candidate: CandidateId) -> Option<Overview> {
        let cand = master.candidate(candidate)?;
        let anaphoric = master.example_of(cand).is_some_and(|(_, c)| c.anaphoric);
        let records: Vec<&Record> = master.records.of_candidate(candidate).filter(|r| !r.is_blank()).collect();
        let roles: &[Role] = if anaphoric { &[Role::Antecedent, Role::Pronoun] } else { &[Role::Pronoun] };
        let judgements = roles
            .iter()
            .map(|&role| JudgementRow {
                role,
                cells: records
                    .iter()
                    .map(|r| {
                        let judgement = r.judgement(role);
                        // An old value stands for the judgement it was converted to (`unsure` for
                        // unset); once someone judges, it is history, not what the cell says.
                        let old = r.legacy.get(legacy_column(role)).filter(|_| judgement == Judgement::Unset);
                        Cell { judgement, legacy: old.cloned() }
                    })
                    .collect(),
            })
            .collect();
        let all_tags: BTreeSet<&String> = records.iter().flat_map(|r| &r.tags).collect();
        let tags = all_tags
            .into_iter()
            .map(|tag| TagRow { tag: tag.clone(), ticks: records.iter().map(|r| r.tags.contains(tag)).collect() })
            .collect();
        let remarks = records
            .iter()
            .filter(|r| !r.remarks.trim().is_empty())
            .map(|r| (r.annotator, r.remarks.trim().to_owned()))
            .collect();
        let kept = records
            .iter()
            .map(|r| match &r.conflict {
                ConflictStatus::Kept(c) => c.clone(),
                _ => Vec::new(),
            })
            .collect();
        let judgement_columns = [legacy_column(Role::Pronoun), legacy_column(Role::Antecedent)];
        let legacy = records
            .iter()
            .flat_map(|r| {
                r.legacy
                    .iter()
                    .filter(|(k, _)| !judgement_columns.contains(&k.as_str()))
                    .map(|(k, v)| (r.annotator, k.clone(), v.clone()))
            })
            .collect();
        Some(Overview {
            candidate,
            annotators: records.iter().map(|r| r.annotator).collect(),
            judgements,
            tags,
            remarks,
            kept,
            legacy,
        })
    }

    /// Whether anyone has annotated the candidate.
    pub fn is_empty(&self) -> bool {
        self.annotators.is_empty()
    }

    /// Whether the annotators do not all give the same judgement of a role.
    pub fn disagree(&self, role: Role) -> bool {
        self.judgements
            .iter()
            .find(|row| row.role == role)
            .is_some_and(|row| row.cells.iter().any(|c| c.judgement != row.cells[0].judgement))
    }
}

/// The annotator after or before `current` among `annotators`, wrapping around; the first one
/// when `current` is not among them. For stepping through everyone's selections.
pub fn step(annotators: &[AnnotatorId], current: Option<AnnotatorId>, way: Direction) -> Option<AnnotatorId> {
    let n = annotators.len();
    let Some(i) = current.and_then(|c| annotators.iter().position(|&a| a == c)) else {
        return annotators.first().copied();
    };
    Some(
        annotators[match way {
            Direction::Forward => (i + 1) % n,
            Direction::Back => (i + n - 1) % n,
        }],
    )
}

/// The tokens an annotator selected for each role, as words of the candidate's translation.
pub fn selected_words(master: &Master, record: &Record, role: Role) -> String {
    let Some(corpus) = master.candidate(record.candidate).and_then(|c| master.corpus(c.corpus)) else {
        return String::new();
    };
    corpus.words(&record.selected.get(role).iter().copied().collect::<Vec<TokenRef>>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{judge, tiny};
    use Direction::{Back, Forward};

    const A: AnnotatorId = AnnotatorId(1);
    const B: AnnotatorId = AnnotatorId(2);

    #[test]
    fn one_column_per_annotator_with_a_record() {
        let mut m = tiny();
        judge(&mut m, 1, 1, Judgement::Yes, Judgement::Yes);
        judge(&mut m, 1, 2, Judgement::No, Judgement::Yes);
        let mut r = m.records.get(CandidateId(1), B).unwrap().clone();
        r.tags.insert("desc_vs_presc".into());
        r.remarks = "  agreement is off  ".into();
        m.records.put(r);
        let mut mine = Record::new(CandidateId(1), AnnotatorId::RESEARCHER, m.created);
        mine.tags.insert("desc_vs_presc".into());
        mine.tags.insert("zzz".into());
        m.records.put(mine);
        // A blank record is nobody's annotation.
        m.records.put(Record::new(CandidateId(2), A, m.created));

        let o = Overview::of(&m, CandidateId(1)).unwrap();
        assert_eq!(o.annotators, [AnnotatorId::RESEARCHER, A, B]);
        assert_eq!(o.judgements.iter().map(|r| r.role).collect::<Vec<_>>(), [Role::Antecedent, Role::Pronoun]);
        let pronoun: Vec<_> = o.judgements[1].cells.iter().map(|c| c.judgement).collect();
        assert_eq!(pronoun, [Judgement::Unset, Judgement::Yes, Judgement::No]);
        assert_eq!(
            o.tags,
            [
                TagRow { tag: "desc_vs_presc".into(), ticks: vec![true, false, true] },
                TagRow { tag: "zzz".into(), ticks: vec![true, false, false] },
            ]
        );
        assert_eq!(o.remarks, [(B, "agreement is off".to_owned())]);
        assert!(o.disagree(Role::Pronoun) && o.disagree(Role::Antecedent), "the researcher's ? differs too");
        assert!(Overview::of(&m, CandidateId(2)).unwrap().is_empty());
        assert_eq!(Overview::of(&m, CandidateId(99)), None);
    }

    #[test]
    fn non_anaphoric_examples_have_a_pronoun_row_only() {
        let mut m = tiny();
        judge(&mut m, 3, 1, Judgement::No, Judgement::Unset);
        let o = Overview::of(&m, CandidateId(3)).unwrap();
        assert_eq!(o.judgements.len(), 1);
        assert_eq!(o.judgements[0].role, Role::Pronoun);
        assert!(!o.disagree(Role::Pronoun) && !o.disagree(Role::Antecedent));
    }

    #[test]
    fn legacy_values_and_kept_conflicts_are_shown() {
        let mut m = tiny();
        let mut r = Record::new(CandidateId(3), A, m.created);
        r.legacy.insert("anaph_annotation".into(), "unsure".into());
        r.legacy.insert("conflict_status".into(), "ana_ok  ant_ok".into());
        r.conflict = ConflictStatus::Kept(vec![Conflict::TagsWithoutJudgement]);
        m.records.put(r);
        let o = Overview::of(&m, CandidateId(3)).unwrap();
        assert_eq!(o.annotators, [A], "an old 'unsure' is an annotation");
        assert_eq!(o.judgements[0].cells[0], Cell { judgement: Judgement::Unset, legacy: Some("unsure".into()) });
        assert_eq!(o.legacy, [(A, "conflict_status".to_owned(), "ana_ok  ant_ok".to_owned())]);
        // Judged since: the old "unsure" no longer describes the cell.
        let mut r = m.records.get(CandidateId(3), A).unwrap().clone();
        r.pronoun = Judgement::Yes;
        m.records.put(r);
        let o = Overview::of(&m, CandidateId(3)).unwrap();
        assert_eq!(o.judgements[0].cells[0], Cell { judgement: Judgement::Yes, legacy: None });
        assert_eq!(o.kept, [vec![Conflict::TagsWithoutJudgement]]);
    }

    #[test]
    fn stepping_wraps_around() {
        let all = [AnnotatorId::RESEARCHER, A, B];
        assert_eq!(step(&all, None, Forward), Some(AnnotatorId::RESEARCHER));
        assert_eq!(step(&all, Some(A), Forward), Some(B));
        assert_eq!(step(&all, Some(B), Forward), Some(AnnotatorId::RESEARCHER));
        assert_eq!(step(&all, Some(AnnotatorId::RESEARCHER), Back), Some(B));
        assert_eq!(step(&all, Some(AnnotatorId(9)), Back), Some(AnnotatorId::RESEARCHER));
        assert_eq!(step(&[], Some(A), Forward), None);
    }

    #[test]
    fn selected_words_are_the_translation_tokens() {
        let mut m = tiny();
        judge(&mut m, 1, 1, Judgement::Yes, Judgement::Yes);
        let r = m.records.get(CandidateId(1), A).unwrap();
        assert_eq!(selected_words(&m, r, Role::Pronoun), "Il");
        assert_eq!(selected_words(&m, r, Role::Antecedent), "vélo");
    }
}
