//! What an annotator does to a record, as pure functions: judging, selecting tokens, tagging,
//! remarks, and settling conflicts when leaving an example. The GUI turns clicks and keys into
//! these calls and stores the result; nothing here knows about windows.

use crate::conflicts::{self, Conflict};
use crate::model::{
    AnnotatorId, Candidate, CandidateId, Category, ConflictStatus, CorpusId, Judgement, Master, Record, Role, TokenRef,
    tags,
};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// One change an annotator makes to their record of a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Judge(Role, Judgement),
    /// Select the token for the role if it is not selected, deselect it if it is.
    ToggleToken(Role, TokenRef),
    AddTag(String),
    RemoveTag(String),
    Remarks(String),
}

/// Why an edit cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("candidate {0} does not exist")]
    NoCandidate(CandidateId),
    #[error("only anaphoric examples have an antecedent to judge or select")]
    NotAnaphoric,
    #[error("{1} is not aligned to the {0}, so it cannot be selected for it")]
    NotAligned(Role, TokenRef),
    #[error("a tag is one word without spaces")]
    BadTag,
}

/// The record after `edit`, starting from `current` (or a new record). The conflict status goes
/// back to unchecked because the content changed.
pub fn apply(
    master: &Master,
    candidate: CandidateId,
    annotator: AnnotatorId,
    current: Option<&Record>,
    edit: Edit,
    now: DateTime<Utc>,
) -> Result<Record, EditError> {
    let cand = master.candidate(candidate).ok_or(EditError::NoCandidate(candidate))?;
    let anaphoric = master.example_of(cand).is_some_and(|(_, c)| c.anaphoric);
    let mut record = current.cloned().unwrap_or_else(|| Record::new(candidate, annotator, now));
    match edit {
        Edit::Judge(Role::Antecedent, _) | Edit::ToggleToken(Role::Antecedent, _) if !anaphoric => {
            return Err(EditError::NotAnaphoric);
        }
        Edit::Judge(role, judgement) => *record.judgement_mut(role) = judgement,
        Edit::ToggleToken(role, token) => {
            if !cand.is_aligned(role, token) {
                return Err(EditError::NotAligned(role, token));
            }
            let selected = record.selected.get_mut(role);
            if !selected.remove(&token) {
                selected.insert(token);
            }
        }
        Edit::AddTag(tag) => {
            let tag = tag.trim();
            if !tags::is_valid(tag) {
                return Err(EditError::BadTag);
            }
            record.tags.insert(tag.to_owned());
        }
        Edit::RemoveTag(tag) => {
            record.tags.remove(&tag);
        }
        Edit::Remarks(text) => record.remarks = text,
    }
    record.conflict = ConflictStatus::Unchecked;
    record.modified = now;
    Ok(record)
}

/// The conflict rules that fail for a record, or none when checks do not apply to it: the
/// researcher's own records, and masters (or batches from masters) with checks switched off.
pub fn conflicts_on_leave(master: &Master, record: &Record) -> Vec<Conflict> {
    if !checked(master, record) {
        return Vec::new();
    }
    let Some(candidate) = master.candidate(record.candidate) else { return Vec::new() };
    let Some((_, category)) = master.example_of(candidate) else { return Vec::new() };
    conflicts::check(category, candidate, record)
}

/// Whether the conflict rules apply to a record at all.
fn checked(master: &Master, record: &Record) -> bool {
    !record.annotator.is_researcher() && master.settings.conflict_checks && !record.is_blank()
}

/// The record with the outcome of the checks stored: clear, or kept with its conflicts when the
/// annotator chose *Keep as is*.
pub fn settle(record: &Record, conflicts: Vec<Conflict>) -> Record {
    let mut settled = record.clone();
    settled.conflict = ConflictStatus::from_conflicts(conflicts);
    settled
}

/// What leaving an example requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leaving {
    /// Nothing to store: no record, a blank one, or one already settled as it is.
    Nothing,
    /// Store this record: every rule passes and its status is now clear.
    Settle(Record),
    /// Ask the annotator about these failed rules (*Amend* or *Keep as is*).
    Ask(Vec<Conflict>),
}

/// Runs the checks for a record the annotator is leaving. A record already kept with exactly
/// these conflicts is not asked about again: the annotator decided, and any later change resets
/// its status to unchecked.
pub fn on_leave(master: &Master, record: Option<&Record>) -> Leaving {
    let Some(record) = record.filter(|r| !r.is_blank()) else { return Leaving::Nothing };
    let conflicts = conflicts_on_leave(master, record);
    match &record.conflict {
        _ if conflicts.is_empty() && record.conflict == ConflictStatus::Clear => Leaving::Nothing,
        _ if conflicts.is_empty() => Leaving::Settle(settle(record, conflicts)),
        ConflictStatus::Kept(kept) if *kept == conflicts => Leaving::Nothing,
        _ => Leaving::Ask(conflicts),
    }
}

/// Where a candidate stands for one annotator: the one answer every count gives (the category
/// browser, progress, `protest check`, batch import).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Not annotated yet (no record, or a blank one).
    New,
    /// Annotated, and every conflict rule passes (whatever status the record has stored: `clear`
    /// is derived, never trusted).
    Done,
    /// With conflicts: kept as it is by its annotator despite failed rules (a person's decision),
    /// or breaking a rule without having been checked; either way someone should look at it.
    Conflict,
}

/// The status of a record of `master`, derived from the record and the conflict rules: a record
/// kept with conflicts stays so, any other is checked again, so a stored `clear` or `unchecked`
/// that breaks a rule is never counted as done.
pub fn status(master: &Master, record: Option<&Record>) -> Status {
    let place = record.and_then(|r| master.candidate(r.candidate)).and_then(|c| Some((c, master.example_of(c)?.1)));
    match place {
        Some((candidate, category)) => status_in(master, category, candidate, record),
        // A record of no candidate of the master (validation refuses them): nothing to check.
        None => status_in_no_place(record),
    }
}

/// The status of `annotator`'s record of `candidate`.
pub fn status_of(master: &Master, candidate: CandidateId, annotator: AnnotatorId) -> Status {
    status(master, master.records.get(candidate, annotator))
}

/// [`status`] of a record of `candidate` (of `category`) when the caller has them at hand, as the
/// browser has for every candidate it files: the same answer without looking them up again.
fn status_in(master: &Master, category: &Category, candidate: &Candidate, record: Option<&Record>) -> Status {
    match record {
        Some(r) if checked(master, r) && !r.conflict.has_conflicts() => {
            if conflicts::check(category, candidate, r).is_empty() { Status::Done } else { Status::Conflict }
        }
        _ => status_in_no_place(record),
    }
}

/// The status as far as it does not depend on the rules.
fn status_in_no_place(record: Option<&Record>) -> Status {
    match record {
        None => Status::New,
        Some(r) if r.is_blank() => Status::New,
        Some(r) if r.conflict.has_conflicts() => Status::Conflict,
        Some(_) => Status::Done,
    }
}

/// Derives a record's stored conflict status again: `clear` stands only while every rule passes,
/// otherwise it becomes `unchecked` (to be checked when its annotator next leaves it). `kept` is
/// an annotator's decision and stays. True when the status changed.
pub fn rederive(master: &Master, record: &mut Record) -> bool {
    let stale = record.conflict == ConflictStatus::Clear && status(master, Some(record)) == Status::Conflict;
    if stale {
        record.conflict = ConflictStatus::Unchecked;
    }
    stale
}

/// [`rederive`] for every record of a master (on load); returns how many changed. On several
/// cores: at 100× PROTEST it checks some 400,000 records.
pub fn rederive_all(master: &mut Master) -> usize {
    use rayon::prelude::*;
    let clear: Vec<&Record> = master.records.iter().filter(|r| r.conflict == ConflictStatus::Clear).collect();
    let stale: Vec<Record> = clear
        .into_par_iter()
        .filter(|r| status(master, Some(r)) == Status::Conflict)
        .map(|r| Record { conflict: ConflictStatus::Unchecked, ..r.clone() })
        .collect();
    let n = stale.len();
    for record in stale {
        master.records.put(record);
    }
    n
}

/// One row of the category browser: the candidates of a category by status, in display order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryRow {
    pub category: String,
    pub title: String,
    pub new: Vec<CandidateId>,
    pub done: Vec<CandidateId>,
    pub conflict: Vec<CandidateId>,
}

impl CategoryRow {
    pub fn total(&self) -> usize {
        self.new.len() + self.done.len() + self.conflict.len()
    }

    /// Every candidate of the row in display order.
    pub fn all(&self, order: &[CandidateId]) -> Vec<CandidateId> {
        let members: BTreeSet<_> = self.new.iter().chain(&self.done).chain(&self.conflict).collect();
        order.iter().filter(|c| members.contains(c)).copied().collect()
    }
}

/// The category browser for `annotator`: one row per category of the master (in its order), over
/// the candidates of `order` (the display order: example order for a master, the shuffled order
/// of a batch), optionally only those of one translation corpus.
pub fn browse(
    master: &Master,
    annotator: AnnotatorId,
    order: &[CandidateId],
    corpus: Option<CorpusId>,
) -> Vec<CategoryRow> {
    let mut rows: Vec<CategoryRow> = master
        .categories
        .iter()
        .map(|c| CategoryRow {
            category: c.name.clone(),
            title: c.title().to_owned(),
            new: Vec::new(),
            done: Vec::new(),
            conflict: Vec::new(),
        })
        .collect();
    for &id in order {
        let Some(candidate) = master.candidate(id) else { continue };
        if corpus.is_some_and(|c| c != candidate.corpus) {
            continue;
        }
        // One row per category, in master order.
        let Some(position) = master.category_position(candidate) else { continue };
        let category = &master.categories[position];
        let row = &mut rows[position];
        match status_in(master, category, candidate, master.records.get(id, annotator)) {
            Status::New => row.new.push(id),
            Status::Done => row.done.push(id),
            Status::Conflict => row.conflict.push(id),
        }
    }
    rows
}

/// The category browser kept up to date one change at a time. [`browse`] looks at every
/// candidate, which takes tens of milliseconds on a large master (docs/performance.md); after one
/// record changes, [`Browser::update`] moves just that candidate.
#[derive(Debug, Clone)]
pub struct Browser {
    annotator: AnnotatorId,
    /// Per candidate shown: its row and its place in the display order.
    places: HashMap<CandidateId, (usize, usize)>,
    rows: Vec<CategoryRow>,
}

impl Browser {
    /// The browser of [`browse`], with the same arguments.
    pub fn new(master: &Master, annotator: AnnotatorId, order: &[CandidateId], corpus: Option<CorpusId>) -> Self {
        let rows = browse(master, annotator, order, corpus);
        let row_of: HashMap<CandidateId, usize> = rows
            .iter()
            .enumerate()
            .flat_map(|(r, row)| row.new.iter().chain(&row.done).chain(&row.conflict).map(move |&c| (c, r)))
            .collect();
        let places = order.iter().enumerate().filter_map(|(rank, c)| Some((*c, (*row_of.get(c)?, rank)))).collect();
        Browser { annotator, places, rows }
    }

    pub fn rows(&self) -> &[CategoryRow] {
        &self.rows
    }

    /// How many of the candidates shown are annotated (done or kept with conflicts).
    pub fn annotated(&self) -> usize {
        self.rows.iter().map(|r| r.done.len() + r.conflict.len()).sum()
    }

    /// Files `candidate` under its current status, after its record changed.
    pub fn update(&mut self, master: &Master, candidate: CandidateId) {
        let Some(&(row, rank)) = self.places.get(&candidate) else { return };
        let row = &mut self.rows[row];
        for list in [&mut row.new, &mut row.done, &mut row.conflict] {
            list.retain(|&c| c != candidate);
        }
        let list = match status_of(master, candidate, self.annotator) {
            Status::New => &mut row.new,
            Status::Done => &mut row.done,
            Status::Conflict => &mut row.conflict,
        };
        let places = &self.places;
        let at = list.partition_point(|c| places.get(c).is_some_and(|&(_, r)| r < rank));
        list.insert(at, candidate);
    }
}

/// Candidates in example order, and within an example in corpus order (researcher mode).
pub fn example_order(master: &Master) -> Vec<CandidateId> {
    let corpus_rank = |id| master.corpora.iter().position(|c| c.id == id).unwrap_or(usize::MAX);
    let mut ids: Vec<_> = master.candidates.iter().map(|c| (c.example, corpus_rank(c.corpus), c.id)).collect();
    ids.sort_unstable();
    ids.into_iter().map(|(_, _, id)| id).collect()
}

/// Tags to offer for a candidate of `category`: the standard ones that apply to it, then every
/// other tag already used in the master, alphabetically. Looks at every record: an app asking
/// each frame keeps a [`UsedTags`] instead.
pub fn tag_suggestions(master: &Master, category: &Category) -> Vec<String> {
    UsedTags::new(master).suggestions(category)
}

/// The tags used in a master's records, each with the number of records carrying it, kept up to
/// date one record change at a time ([`UsedTags::change`]): what [`tag_suggestions`] offers
/// beyond the standard tags, without looking at all the records again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsedTags(BTreeMap<String, usize>);

impl UsedTags {
    pub fn new(master: &Master) -> Self {
        let mut used = UsedTags::default();
        for record in master.records.iter() {
            used.change(&BTreeSet::new(), &record.tags);
        }
        used
    }

    /// One record's tags went from `before` to `after` (an empty set for a record that did not
    /// exist, or no longer does).
    pub fn change(&mut self, before: &BTreeSet<String>, after: &BTreeSet<String>) {
        for gone in before.difference(after) {
            if let Some(n) = self.0.get_mut(gone) {
                *n -= 1;
                if *n == 0 {
                    self.0.remove(gone);
                }
            }
        }
        for new in after.difference(before) {
            *self.0.entry(new.clone()).or_default() += 1;
        }
    }

    /// [`tag_suggestions`] for a candidate of `category`.
    pub fn suggestions(&self, category: &Category) -> Vec<String> {
        let standard = tags::STANDARD
            .iter()
            .filter(|t| (!t.anaphoric_only || category.anaphoric) && (!t.politeness_only || category.politeness))
            .map(|t| t.name.to_owned());
        let used = self.0.keys().filter(|t| !tags::STANDARD.iter().any(|s| s.name == t.as_str())).cloned();
        standard.chain(used).collect()
    }
}

/// The question the annotator answers for one judgement (spec §4, paper 001 §4.1–4.2).
/// `untranslated`: nothing is aligned to the pronoun, so the question is whether leaving it
/// untranslated is correct.
pub fn question(role: Role, anaphoric: bool, untranslated: bool) -> &'static str {
    match (role, anaphoric, untranslated) {
        (Role::Antecedent, _, _) => "Antecedent head correctly translated?",
        (Role::Pronoun, _, true) => {
            "The pronoun was not translated (nothing is aligned to it). Is leaving it untranslated correct?"
        }
        (Role::Pronoun, true, false) => "Pronoun correctly translated (given the antecedent head)?",
        (Role::Pronoun, false, false) => "Pronoun correctly translated?",
    }
}

/// How many of `set` `annotator` has annotated (done or kept with conflicts).
pub fn progress(master: &Master, annotator: AnnotatorId, set: &[CandidateId]) -> usize {
    set.iter().filter(|&&c| status_of(master, c, annotator) != Status::New).count()
}

/// [`progress`] kept up to date one change at a time, for a window showing it every frame: the
/// set may hold tens of thousands of candidates, [`Progress::update`] looks at one.
#[derive(Debug, Clone)]
pub struct Progress {
    annotator: AnnotatorId,
    members: HashSet<CandidateId>,
    annotated: HashSet<CandidateId>,
}

impl Progress {
    /// The progress of `annotator` on `set` (a set: a candidate repeated in it counts once).
    pub fn new(master: &Master, annotator: AnnotatorId, set: &[CandidateId]) -> Self {
        let members: HashSet<CandidateId> = set.iter().copied().collect();
        let annotated = members.iter().copied().filter(|&c| status_of(master, c, annotator) != Status::New).collect();
        Progress { annotator, members, annotated }
    }

    /// How many of the set are annotated.
    pub fn count(&self) -> usize {
        self.annotated.len()
    }

    /// Takes in the current status of `candidate`, after its record changed.
    pub fn update(&mut self, master: &Master, candidate: CandidateId) {
        if !self.members.contains(&candidate) {
            return;
        }
        if status_of(master, candidate, self.annotator) == Status::New {
            self.annotated.remove(&candidate);
        } else {
            self.annotated.insert(candidate);
        }
    }
}

/// The suggestions that contain `typed` (ignoring case), without the tags the record already has;
/// those starting with it come first.
pub fn matching_tags<'a>(suggestions: &'a [String], typed: &str, present: &BTreeSet<String>) -> Vec<&'a str> {
    let typed = typed.trim().to_lowercase();
    let mut out: Vec<&str> = suggestions
        .iter()
        .map(String::as_str)
        .filter(|t| !present.contains(*t) && t.to_lowercase().contains(&typed))
        .collect();
    out.sort_by_key(|t| !t.to_lowercase().starts_with(&typed));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::bare_tiny as tiny;

    const ANNA: AnnotatorId = AnnotatorId(1);

    fn edit(m: &Master, c: u32, current: Option<&Record>, e: Edit) -> Result<Record, EditError> {
        apply(m, CandidateId(c), ANNA, current, e, Utc::now())
    }

    #[test]
    fn judging_and_selecting_build_a_record() {
        let m = tiny();
        // Candidate 2: MT translation of "It" (→ "Elle") whose antecedent head "bicycle" → "bicyclette".
        let r = edit(&m, 2, None, Edit::Judge(Role::Antecedent, Judgement::Yes)).unwrap();
        let r = edit(&m, 2, Some(&r), Edit::ToggleToken(Role::Antecedent, TokenRef::new(0, 3))).unwrap();
        let r = edit(&m, 2, Some(&r), Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        let r = edit(&m, 2, Some(&r), Edit::ToggleToken(Role::Pronoun, TokenRef::new(1, 0))).unwrap();
        assert_eq!((r.antecedent, r.pronoun), (Judgement::Yes, Judgement::Yes));
        assert!(r.selected.antecedent.contains(&TokenRef::new(0, 3)));
        assert_eq!(conflicts_on_leave(&m, &r), vec![]);
        // Toggling again deselects.
        let r = edit(&m, 2, Some(&r), Edit::ToggleToken(Role::Pronoun, TokenRef::new(1, 0))).unwrap();
        assert!(r.selected.pronoun.is_empty());
        assert_eq!(conflicts_on_leave(&m, &r), vec![Conflict::PronounYesWithoutTokens]);
    }

    #[test]
    fn only_aligned_tokens_and_anaphoric_antecedents() {
        let m = tiny();
        assert_eq!(
            edit(&m, 2, None, Edit::ToggleToken(Role::Pronoun, TokenRef::new(1, 1))),
            Err(EditError::NotAligned(Role::Pronoun, TokenRef::new(1, 1)))
        );
        assert_eq!(edit(&m, 4, None, Edit::Judge(Role::Antecedent, Judgement::No)), Err(EditError::NotAnaphoric));
        assert_eq!(edit(&m, 4, None, Edit::AddTag("two words".into())), Err(EditError::BadTag));
        assert_eq!(edit(&m, 99, None, Edit::Remarks("x".into())), Err(EditError::NoCandidate(CandidateId(99))));
    }

    #[test]
    fn a_change_unsettles_the_conflict_status() {
        let m = tiny();
        let r = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        let kept = settle(&r, conflicts_on_leave(&m, &r));
        assert_eq!(kept.conflict, ConflictStatus::Kept(vec![Conflict::PronounYesWithoutTokens]));
        assert_eq!(status(&m, Some(&kept)), Status::Conflict);
        let changed = edit(&m, 4, Some(&kept), Edit::Remarks("hm".into())).unwrap();
        assert_eq!(changed.conflict, ConflictStatus::Unchecked);
        // Unchecked, but still breaking rule 4: not done.
        assert_eq!(status(&m, Some(&changed)), Status::Conflict);
        let fixed = edit(&m, 4, Some(&changed), Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        assert_eq!(status(&m, Some(&fixed)), Status::Done);
    }

    #[test]
    fn the_status_is_derived_from_the_rules_not_from_the_stored_conflict_status() {
        let m = tiny();
        assert_eq!(status(&m, None), Status::New);
        assert_eq!(status(&m, Some(&Record::new(CandidateId(4), ANNA, Utc::now()))), Status::New);
        // Pronoun yes, no token selected: rule 4 fails whatever the file says.
        let yes = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        for stored in [ConflictStatus::Unchecked, ConflictStatus::Clear] {
            let r = Record { conflict: stored.clone(), ..yes.clone() };
            assert_eq!(status(&m, Some(&r)), Status::Conflict, "stored {stored:?}");
        }
        // Kept is a person's decision: still with conflicts even once the rules pass.
        let no = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        let kept = Record { conflict: ConflictStatus::Kept(vec![Conflict::TagsWithoutJudgement]), ..no.clone() };
        assert_eq!(status(&m, Some(&kept)), Status::Conflict);
        for stored in [ConflictStatus::Unchecked, ConflictStatus::Clear] {
            assert_eq!(status(&m, Some(&Record { conflict: stored, ..no.clone() })), Status::Done);
        }
        // Two politeness tags on a deictic singular "you" (candidate 6).
        let mut you = edit(&m, 6, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        you.tags = ["politeness_tu", "politeness_vous"].map(String::from).into();
        you.conflict = ConflictStatus::Clear;
        assert_eq!(status(&m, Some(&you)), Status::Conflict);
    }

    #[test]
    fn a_stored_clear_that_breaks_a_rule_is_derived_again() {
        let mut m = tiny();
        let mut yes = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        yes.conflict = ConflictStatus::Clear;
        let mut no = edit(&m, 3, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        no.conflict = ConflictStatus::Clear;
        let kept = settle(&yes, vec![Conflict::PronounYesWithoutTokens]);
        let kept = Record { candidate: CandidateId(2), ..kept };
        for r in [yes.clone(), no.clone(), kept.clone()] {
            m.records.put(r);
        }
        assert_eq!(rederive_all(&mut m), 1);
        assert_eq!(m.records.get(CandidateId(4), ANNA).unwrap().conflict, ConflictStatus::Unchecked);
        assert_eq!(m.records.get(CandidateId(3), ANNA).unwrap().conflict, ConflictStatus::Clear);
        assert_eq!(m.records.get(CandidateId(2), ANNA).unwrap().conflict, kept.conflict);
        assert_eq!(rederive_all(&mut m), 0, "once derived, nothing changes");
    }

    /// The researcher's record of candidate 4: pronoun correct, no token selected.
    fn researcher_yes(m: &Master) -> Record {
        apply(m, CandidateId(4), AnnotatorId::RESEARCHER, None, Edit::Judge(Role::Pronoun, Judgement::Yes), Utc::now())
            .unwrap()
    }

    #[test]
    fn researcher_records_and_disabled_checks_are_not_checked() {
        let mut m = tiny();
        let r = researcher_yes(&m);
        assert!(conflicts_on_leave(&m, &r).is_empty());
        let r = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        assert!(!conflicts_on_leave(&m, &r).is_empty());
        m.settings.conflict_checks = false;
        assert!(conflicts_on_leave(&m, &r).is_empty());
    }

    #[test]
    fn browser_counts_by_status_and_corpus() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let done = edit(&m, 3, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        m.records.put(settle(&done, vec![]));
        let conflict = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        m.records.put(settle(&conflict, vec![Conflict::PronounYesWithoutTokens]));
        let order = example_order(&m);
        assert_eq!(order, (1..=6).map(CandidateId).collect::<Vec<_>>());
        let rows = browse(&m, ANNA, &order, None);
        assert_eq!(rows.len(), 13);
        let pleonastic = rows.iter().find(|r| r.category == "pleonastic_it").unwrap();
        assert_eq!(
            (pleonastic.new.len(), pleonastic.done.clone(), pleonastic.conflict.clone()),
            (0, vec![CandidateId(3)], vec![CandidateId(4)])
        );
        assert_eq!(pleonastic.all(&order), vec![CandidateId(3), CandidateId(4)]);
        // Only the MT system's candidates; another annotator sees everything as new.
        let mt = browse(&m, ANNA, &order, Some(CorpusId(2)));
        assert_eq!(mt.iter().map(CategoryRow::total).sum::<usize>(), 3);
        let other = browse(&m, AnnotatorId(2), &order, None);
        assert_eq!(other.iter().map(|r| r.new.len()).sum::<usize>(), 6);
    }

    #[test]
    fn tag_suggestions_fit_the_category() {
        let mut m = tiny();
        let mut r = Record::new(CandidateId(3), AnnotatorId::RESEARCHER, Utc::now());
        r.tags.insert("my_tag".into());
        m.records.put(r);
        let pleonastic = m.category("pleonastic_it").unwrap().clone();
        let t = tag_suggestions(&m, &pleonastic);
        assert!(t.contains(&"desc_vs_presc".to_string()) && t.contains(&"my_tag".to_string()));
        assert!(!t.contains(&"ant_ensure".to_string()) && !t.contains(&"politeness_tu".to_string()));
        let you = m.category("addressee_deictic_singular_you").unwrap().clone();
        assert!(tag_suggestions(&m, &you).contains(&"politeness_unknown".to_string()));
    }

    #[test]
    fn the_browser_follows_changes_one_candidate_at_a_time() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let order: Vec<_> = example_order(&m).into_iter().rev().collect();
        let mut browser = Browser::new(&m, ANNA, &order, None);
        assert_eq!(browser.rows(), browse(&m, ANNA, &order, None).as_slice());
        let changes = [
            (3, Some(vec![])),
            (4, Some(vec![Conflict::PronounYesWithoutTokens])),
            (6, Some(vec![])),
            (3, None),
            (4, Some(vec![])),
        ];
        for (c, outcome) in changes {
            match outcome {
                Some(conflicts) => {
                    let r = edit(&m, c, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
                    m.records.put(settle(&r, conflicts));
                }
                None => {
                    m.records.remove(CandidateId(c), ANNA);
                }
            }
            browser.update(&m, CandidateId(c));
            assert_eq!(browser.rows(), browse(&m, ANNA, &order, None).as_slice(), "after changing {c}");
            assert_eq!(browser.annotated(), progress(&m, ANNA, &order), "after changing {c}");
        }
        // Candidates outside the browser (another corpus) are ignored.
        let mut mt_only = Browser::new(&m, ANNA, &order, Some(CorpusId(2)));
        mt_only.update(&m, CandidateId(3));
        assert_eq!(mt_only.rows(), browse(&m, ANNA, &order, Some(CorpusId(2))).as_slice());
    }

    #[test]
    fn questions_follow_the_function_and_the_alignment() {
        assert_eq!(question(Role::Pronoun, false, false), "Pronoun correctly translated?");
        assert!(question(Role::Pronoun, true, false).ends_with("(given the antecedent head)?"));
        assert!(question(Role::Pronoun, true, true).contains("Is leaving it untranslated correct?"));
        assert_eq!(question(Role::Antecedent, true, false), "Antecedent head correctly translated?");
    }

    #[test]
    fn progress_counts_annotated_candidates_of_the_set() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let set = [CandidateId(3), CandidateId(4), CandidateId(5)];
        assert_eq!(progress(&m, ANNA, &set), 0);
        let r = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        m.records.put(r);
        m.records.put(Record::new(CandidateId(5), ANNA, Utc::now())); // blank: still new
        let r = edit(&m, 1, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        m.records.put(r); // not in the set
        assert_eq!(progress(&m, ANNA, &set), 1);
        assert_eq!(progress(&m, AnnotatorId::RESEARCHER, &set), 0);
    }

    #[test]
    fn progress_follows_changes_one_candidate_at_a_time() {
        let mut m = tiny();
        m.annotators.push(crate::model::Annotator { id: ANNA, name: "Anna".into() });
        let set = [CandidateId(4), CandidateId(2), CandidateId(5)];
        let mut kept = Progress::new(&m, ANNA, &set);
        assert_eq!(kept.count(), 0);
        let changes = [(4, true), (1, true), (5, true), (4, false), (2, true)];
        for (c, judged) in changes {
            if judged {
                let r = edit(&m, c, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
                m.records.put(r);
            } else {
                m.records.remove(CandidateId(c), ANNA);
            }
            kept.update(&m, CandidateId(c));
            assert_eq!(kept.count(), progress(&m, ANNA, &set), "after changing {c}");
        }
        assert_eq!(kept.count(), 2);
        // Another annotator's record does not count.
        let theirs = apply(&m, CandidateId(4), AnnotatorId(2), None, Edit::Remarks("x".into()), Utc::now()).unwrap();
        m.records.put(theirs);
        kept.update(&m, CandidateId(4));
        assert_eq!(kept.count(), 2);
    }

    #[test]
    fn used_tags_follow_changes_and_suggest_like_the_master() {
        let mut m = tiny();
        let tagged = |c: u32, a: u32, tags: &[&str]| {
            let mut r = Record::new(CandidateId(c), AnnotatorId(a), Utc::now());
            r.tags = tags.iter().map(|t| t.to_string()).collect();
            r
        };
        let mut used = UsedTags::new(&m);
        let pleonastic = m.category("pleonastic_it").unwrap().clone();
        let records = [
            tagged(3, 0, &["zebra", "desc_vs_presc"]),
            tagged(4, 0, &["zebra", "aardvark"]),
            tagged(3, 0, &["aardvark"]), // replaces the first: "zebra" is still on candidate 4
            tagged(4, 0, &[]),
        ];
        for record in records {
            let before = m.records.get(record.candidate, record.annotator).map(|r| r.tags.clone()).unwrap_or_default();
            used.change(&before, &record.tags);
            m.records.put(record);
            assert_eq!(used, UsedTags::new(&m));
            assert_eq!(used.suggestions(&pleonastic), tag_suggestions(&m, &pleonastic));
        }
        let suggested = used.suggestions(&pleonastic);
        assert!(suggested.contains(&"aardvark".to_string()) && !suggested.contains(&"zebra".to_string()));
        // Standard tags first, each once, then the others alphabetically.
        assert_eq!(suggested.iter().filter(|t| *t == "desc_vs_presc").count(), 1);
        assert_eq!(suggested.last().map(String::as_str), Some("aardvark"));
        let removed = m.records.remove(CandidateId(3), AnnotatorId(0)).unwrap();
        used.change(&removed.tags, &BTreeSet::new());
        assert_eq!(used, UsedTags::default());
    }

    #[test]
    fn matching_tags_filters_by_what_was_typed() {
        let all: Vec<String> =
            ["bad_translation", "desc_vs_presc", "politeness_tu", "translation_odd"].map(String::from).to_vec();
        let present = BTreeSet::from(["bad_translation".to_string()]);
        assert_eq!(matching_tags(&all, "TRANS", &present), vec!["translation_odd"]);
        assert_eq!(matching_tags(&all, "", &BTreeSet::new()).len(), 4);
        assert_eq!(matching_tags(&all, "s", &present), vec!["desc_vs_presc", "politeness_tu", "translation_odd"]);
        assert_eq!(matching_tags(&all, " po ", &present), vec!["politeness_tu"]);
    }

    #[test]
    fn leaving_settles_asks_or_does_nothing() {
        let m = tiny();
        assert_eq!(on_leave(&m, None), Leaving::Nothing);
        let blank = Record::new(CandidateId(4), ANNA, Utc::now());
        assert_eq!(on_leave(&m, Some(&blank)), Leaving::Nothing);
        let no = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
        let Leaving::Settle(settled) = on_leave(&m, Some(&no)) else { panic!("expected a settled record") };
        assert_eq!(settled.conflict, ConflictStatus::Clear);
        assert_eq!(on_leave(&m, Some(&settled)), Leaving::Nothing);
        let yes = edit(&m, 4, None, Edit::Judge(Role::Pronoun, Judgement::Yes)).unwrap();
        assert_eq!(on_leave(&m, Some(&yes)), Leaving::Ask(vec![Conflict::PronounYesWithoutTokens]));
        let kept = settle(&yes, vec![Conflict::PronounYesWithoutTokens]);
        assert_eq!(on_leave(&m, Some(&kept)), Leaving::Nothing);
        // Researcher records are never checked, but still get their status.
        let mine = researcher_yes(&m);
        assert!(matches!(on_leave(&m, Some(&mine)), Leaving::Settle(_)));
    }
}
