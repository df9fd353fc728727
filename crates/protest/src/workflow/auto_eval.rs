//! A round of the automatic reference match, stored in the master ([`crate::metrics::auto_eval`] has the
//! rules).

use super::{Prepared, commit};
use crate::error::Result;
use crate::metrics::auto_eval::{self, Judges};
use crate::model::{Master, MatchRule, Round};
use crate::store::Store;
use chrono::{DateTime, Utc};

/// Runs a round on the master as it is, in memory; the outcome is the round. `rule`, when
/// given, becomes the master's rule from this round on; otherwise the stored one is used.
pub fn prepare(
    store: &Store<Master>,
    rule: Option<MatchRule>,
    judges: Judges,
    now: DateTime<Utc>,
) -> Result<Prepared<Round>> {
    crate::progress::stage("Matching the translations against the reference", None);
    let mut draft = store.master().clone();
    if let Some(rule) = rule {
        draft.auto_eval.rule = rule;
    }
    draft.auto_eval = auto_eval::run_with(&draft, now, judges);
    let round = draft.auto_eval.rounds.last().cloned().expect("a round was just added");
    Ok(Prepared::new(store, Some(draft), round))
}

/// Runs a round and stores it.
pub fn run(store: &mut Store<Master>, rule: Option<MatchRule>, judges: Judges, now: DateTime<Utc>) -> Result<Round> {
    let prepared = prepare(store, rule, judges, now)?;
    commit(store, prepared)
}
