//! What a record sent by the web page can be (docs/serve.md, "What the server refuses"): the page
//! makes records only by an annotator's edits, so a field it cannot have made — a time far from
//! now, an old tool's value, thousands of tags, a remark of a megabyte, a character that hides or
//! turns text around — is refused rather than stored. The server checks every record a page sends
//! with [`check`] before anything else (`web::desk`).

use super::clock;
use super::tags::{self, MAX_TAG_CHARS};
use super::text;
use super::{ConflictStatus, Record};
use chrono::{DateTime, Duration, Utc};

/// The most tags a record may have (the guidelines' standard tags are eight).
pub const MAX_TAGS: usize = 32;

/// How far a page's clock may be ahead of the server's.
pub fn clock_slack() -> Duration {
    Duration::days(1)
}

/// A record no page could have sent: the field (`created`, `tags`…) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {why}")]
pub struct NotFromPage {
    pub field: &'static str,
    pub why: String,
}

/// Refuses a record no page could have sent, saying which field and why. `now` is the server's
/// clock (`None` when it is outside the years a file holds: then only those years bound the
/// record's times).
pub fn check(record: &Record, now: Option<DateTime<Utc>>) -> Result<(), NotFromPage> {
    problem(record, now).map_or(Ok(()), |(field, why)| Err(NotFromPage { field, why }))
}

fn problem(record: &Record, now: Option<DateTime<Utc>>) -> Option<(&'static str, String)> {
    for (field, time) in [("created", record.created), ("modified", record.modified)] {
        if let Some(why) = time_problem(time, now) {
            return Some((field, why));
        }
    }
    // A day's slack: a clock set back a little between two edits is no lie.
    if record.created > record.modified + clock_slack() {
        return Some(("created", "the record was created more than a day after it was last changed".into()));
    }
    if let Some((key, _)) = record.legacy.iter().next() {
        return Some((
            "legacy",
            format!(
                "'{}' and {} other values of the original tool, which only a conversion gives",
                key.escape_debug(),
                record.legacy.len() - 1
            ),
        ));
    }
    if record.tags.len() > MAX_TAGS {
        return Some(("tags", format!("{} tags, more than the {MAX_TAGS} a record may have", record.tags.len())));
    }
    for tag in &record.tags {
        let why = match tags::problem(tag) {
            Some(why) => why,
            None if tag.chars().count() > MAX_TAG_CHARS => tags::TagProblem::TooLong,
            None => continue,
        };
        let shown: String = tag.chars().take(MAX_TAG_CHARS).collect();
        return Some(("tags", format!("tag '{}' {why}", shown.escape_debug())));
    }
    if let Some(why) = text::remarks_problem(&record.remarks) {
        return Some(("remarks", why));
    }
    if let ConflictStatus::Kept(kept) = &record.conflict {
        let distinct: std::collections::BTreeSet<_> = kept.iter().collect();
        if distinct.len() != kept.len() {
            return Some(("conflict", "a conflict rule is listed more than once".into()));
        }
    }
    None
}

/// Why a time cannot be one a page stamped now: outside 1970–9999, or more than a day ahead of
/// the server's clock. An older time can be true: the page keeps changes made without a
/// connection until the server is reached again, and a record keeps the time it was created.
fn time_problem(time: DateTime<Utc>, now: Option<DateTime<Utc>>) -> Option<String> {
    let shown = || time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    if !clock::in_range(time) {
        return Some(format!("{} is outside the years 1970–9999", shown()));
    }
    match now {
        Some(now) if time > now + clock_slack() => Some(format!(
            "{} is more than a day after the server's time ({})",
            shown(),
            now.format("%Y-%m-%d %H:%M UTC")
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AnnotatorId, CandidateId, Conflict};
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 26, 12, 0, 0).unwrap()
    }

    fn record() -> Record {
        let mut r = Record::new(CandidateId(1), AnnotatorId(1), now() - Duration::days(40));
        r.modified = now() - Duration::minutes(3);
        r.tags.insert("ant_ensure".into());
        r.remarks = "not sure:\n\tthe antecedent is far".into();
        r
    }

    fn refused(change: impl FnOnce(&mut Record)) -> String {
        let mut r = record();
        change(&mut r);
        check(&r, Some(now())).unwrap_err().to_string()
    }

    #[test]
    fn what_a_page_makes_is_taken() {
        assert_eq!(check(&record(), Some(now())), Ok(()));
        // Made offline a week ago, sent now; or by a page whose clock is a little ahead.
        let mut r = record();
        r.modified = now() - Duration::days(7);
        assert_eq!(check(&r, Some(now())), Ok(()));
        r.modified = now() + Duration::hours(23);
        assert_eq!(check(&r, Some(now())), Ok(()));
        // A clock set back a little between two edits.
        r.created = r.modified + Duration::minutes(5);
        assert_eq!(check(&r, Some(now())), Ok(()));
        // The record a conversion dated 1970, changed on the page.
        r.created = clock::EARLIEST;
        assert_eq!(check(&r, Some(now())), Ok(()));
        r.conflict = ConflictStatus::Kept(vec![Conflict::SeveralSpecialTags]);
        assert_eq!(check(&r, None), Ok(()));
    }

    #[test]
    fn what_no_page_makes_is_refused_naming_the_field() {
        let year = |y| Utc.with_ymd_and_hms(y, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(
            refused(|r| r.modified = year(10000)),
            "modified: +10000-01-01T00:00:00Z is outside the years 1970–9999"
        );
        assert_eq!(refused(|r| r.created = year(-1)), "created: -0001-01-01T00:00:00Z is outside the years 1970–9999");
        assert_eq!(
            refused(|r| r.modified = now() + Duration::days(2)),
            "modified: 2026-11-28T12:00:00Z is more than a day after the server's time (2026-11-26 12:00 UTC)"
        );
        assert_eq!(
            refused(|r| {
                r.modified -= Duration::days(7);
                r.created = r.modified + Duration::days(2);
            }),
            "created: the record was created more than a day after it was last changed"
        );
        let legacy = refused(|r| {
            for i in 0..1_000 {
                r.legacy.insert(format!("k{i:04}"), "v".into());
            }
        });
        assert_eq!(legacy, "legacy: 'k0000' and 999 other values of the original tool, which only a conversion gives");
        assert_eq!(
            refused(|r| r.tags = (0..10_000).map(|i| format!("t{i}")).collect()),
            "tags: 10000 tags, more than the 32 a record may have"
        );
        assert!(
            refused(|r| {
                r.tags.insert("x".repeat(65));
            })
            .starts_with("tags: tag 'xxxx")
        );
        assert!(
            refused(|r| {
                r.tags.insert("ant\u{202E}ensure".into());
            })
            .contains("(U+202E)")
        );
        assert_eq!(
            refused(|r| r.remarks = "x".repeat(900_000)),
            "remarks: 900000 characters, more than the 10000 a remark may have"
        );
        assert!(
            refused(|r| r.remarks = "a\0b".into())
                .starts_with("remarks: a control or direction-changing character (U+0000)")
        );
        assert!(refused(|r| r.remarks = "abc\u{202E}".into()).contains("(U+202E)"));
        assert_eq!(
            refused(|r| r.conflict = ConflictStatus::Kept(vec![Conflict::SeveralSpecialTags; 100_000])),
            "conflict: a conflict rule is listed more than once"
        );
        // With the server's clock unknown, the years still bound the times.
        let mut r = record();
        r.modified = year(10000);
        assert!(check(&r, None).is_err());
    }
}
