//! The time now, as PROTEST records it: from the system clock, between 1970 and 9999. A clock
//! outside those years cannot be written into a file that reads back (a time before 1970 makes
//! chrono's own `Utc::now` panic; one past 9999 is written `+10000-…`, which RFC 3339 does not
//! allow and no reader takes), so what records a time is refused with a message saying what the
//! clock says, and what only shows one (who holds a lock since when) leaves it out.

use chrono::{DateTime, Datelike, Utc};
use std::time::{SystemTime, UNIX_EPOCH};

/// The system clock says a time PROTEST cannot record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the system clock says {said}, outside the years 1970 to 9999 that PROTEST can record a time in; set the computer's clock right and try again"
)]
pub struct ClockError {
    said: String,
}

/// The time now, or why the clock cannot be trusted with it.
pub fn now() -> Result<DateTime<Utc>, ClockError> {
    // The web page has no system clock of its own: chrono asks the browser's (`wasmbind`), which
    // never panics.
    #[cfg(target_arch = "wasm32")]
    return within(Utc::now());
    #[cfg(not(target_arch = "wasm32"))]
    at(SystemTime::now())
}

/// [`now`] for a time that is only shown: `None` outside 1970 to 9999.
pub fn now_if_right() -> Option<DateTime<Utc>> {
    now().ok()
}

/// The time `t` of the system clock, as [`now`] takes it.
pub fn at(t: SystemTime) -> Result<DateTime<Utc>, ClockError> {
    let seconds = match t.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).ok().map(|s| (s, after.subsec_nanos())),
        Err(before) => {
            let before = before.duration();
            return Err(ClockError {
                said: format!("{} seconds before 1970", before.as_secs() + u64::from(before.subsec_nanos() > 0)),
            });
        }
    };
    match seconds.and_then(|(s, n)| DateTime::from_timestamp(s, n)) {
        Some(time) => within(time),
        None => Err(ClockError { said: "a time past any year".to_owned() }),
    }
}

/// `time`, if it is within the years 1970 to 9999.
fn within(time: DateTime<Utc>) -> Result<DateTime<Utc>, ClockError> {
    match time.year() {
        1970..=9999 => Ok(time),
        year => Err(ClockError { said: format!("the year {year}") }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_clock_outside_1970_to_9999_is_refused_with_what_it_says() {
        let e = at(UNIX_EPOCH - Duration::from_secs(86_400)).unwrap_err().to_string();
        assert!(
            e.starts_with("the system clock says 86400 seconds before 1970, outside the years 1970 to 9999"),
            "{e}"
        );
        let e = at(UNIX_EPOCH - Duration::from_millis(1)).unwrap_err().to_string();
        assert!(e.contains("says 1 seconds before 1970"), "{e}");
        let year_10000 = UNIX_EPOCH + Duration::from_secs(253_402_300_800);
        assert!(at(year_10000).unwrap_err().to_string().contains("says the year 10000"));
        let last = year_10000 - Duration::from_secs(1);
        assert_eq!(at(last).unwrap().to_rfc3339(), "9999-12-31T23:59:59+00:00");
        assert_eq!(at(UNIX_EPOCH).unwrap().timestamp(), 0);
        assert!(now().is_ok(), "this machine's clock");
        // A time past what chrono can hold at all.
        assert!(at(UNIX_EPOCH + Duration::from_secs(u64::MAX / 2)).is_err());
    }
}
