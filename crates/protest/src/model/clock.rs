//! The time now, from the computer's clock, and the years a time in a file may have.
//!
//! Files hold times as RFC 3339 text with four-digit years: a time before 1970 or after 9999 is
//! not one this program writes or reads back (a record dated in year 10000 would make its master
//! unreadable). A clock set outside those years is said to be wrong rather than trusted, and
//! reading it never panics (chrono's `Utc::now` does before 1970).

use chrono::{DateTime, NaiveDate, Utc};

/// The earliest time a file may hold: 1970-01-01T00:00:00Z.
pub const EARLIEST: DateTime<Utc> = DateTime::<Utc>::UNIX_EPOCH;

/// The latest time a file may hold: the last instant of 9999.
pub fn latest() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_nano_opt(23, 59, 59, 999_999_999))
        .map_or(DateTime::<Utc>::MAX_UTC, |t| t.and_utc())
}

/// Whether a file may hold this time (1970–9999).
pub fn in_range(time: DateTime<Utc>) -> bool {
    (EARLIEST..=latest()).contains(&time)
}

/// Why the clock's time cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the computer's clock says {said}, outside the years 1970–9999 that PROTEST records times in; set the clock to the right time and try again"
)]
pub struct WrongClock {
    /// What the clock said, in words.
    pub said: String,
}

/// The time now, or why the clock cannot be believed.
pub fn now() -> Result<DateTime<Utc>, WrongClock> {
    Clock::SYSTEM.now()
}

/// Where a program's time comes from: the computer's clock, moved by some seconds. Only tests
/// move it, to play a wrong clock in-process (what `protest` commands get from a moved system
/// clock) without touching anything other tests read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    moved_by: i64,
}

impl Clock {
    /// The computer's clock as it is.
    pub const SYSTEM: Clock = Clock { moved_by: 0 };

    /// The computer's clock moved by `seconds` (negative: back).
    pub fn moved_by(seconds: i64) -> Clock {
        Clock { moved_by: seconds }
    }

    /// The time now by this clock, or why it cannot be believed.
    pub fn now(self) -> Result<DateTime<Utc>, WrongClock> {
        checked(read().and_then(|t| t.checked_add_signed(chrono::TimeDelta::try_seconds(self.moved_by)?)))
    }
}

/// [`now`] for a time that is only shown (who holds a lock since when): `None` when the clock
/// is wrong.
pub fn now_if_right() -> Option<DateTime<Utc>> {
    now().ok()
}

/// A time of the system clock (a file's modification time), as [`now`] takes it.
pub fn at(t: std::time::SystemTime) -> Result<DateTime<Utc>, WrongClock> {
    checked(since_epoch(t))
}

/// The clock's time, as far as it can be had: before 1970 as a negative time.
#[cfg(not(target_arch = "wasm32"))]
fn read() -> Option<DateTime<Utc>> {
    since_epoch(std::time::SystemTime::now())
}

fn since_epoch(now: std::time::SystemTime) -> Option<DateTime<Utc>> {
    let since = |a: std::time::SystemTime, b| a.duration_since(b).ok();
    let epoch = std::time::SystemTime::UNIX_EPOCH;
    match (since(now, epoch), since(epoch, now)) {
        (Some(after), _) => DateTime::from_timestamp(i64::try_from(after.as_secs()).ok()?, after.subsec_nanos()),
        (None, Some(before)) => {
            let whole = i64::try_from(before.as_secs()).ok()? + i64::from(before.subsec_nanos() > 0);
            DateTime::from_timestamp(-whole, 0)
        }
        (None, None) => None,
    }
}

/// In a browser, chrono reads JavaScript's `Date`, which cannot panic.
#[cfg(target_arch = "wasm32")]
fn read() -> Option<DateTime<Utc>> {
    Some(Utc::now())
}

fn checked(time: Option<DateTime<Utc>>) -> Result<DateTime<Utc>, WrongClock> {
    match time {
        Some(t) if in_range(t) => Ok(t),
        Some(t) => Err(WrongClock { said: t.format("%Y-%m-%d %H:%M:%S UTC").to_string() }),
        None => Err(WrongClock { said: "a time no calendar has".into() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_years_a_file_can_hold() {
        assert!(now().is_ok(), "this machine's clock is in 1970–9999");
        let at = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap().and_hms_opt(0, 0, 0).unwrap().and_utc();
        assert_eq!(checked(Some(at(1970, 1, 1))), Ok(EARLIEST));
        assert!(checked(Some(at(9999, 12, 31))).is_ok());
        let before = checked(Some(at(1969, 12, 31))).unwrap_err();
        assert_eq!(
            before.to_string(),
            "the computer's clock says 1969-12-31 00:00:00 UTC, outside the years 1970–9999 that PROTEST records times in; set the clock to the right time and try again"
        );
        assert!(checked(Some(at(10000, 1, 1))).unwrap_err().said.starts_with("+10000-01-01"));
        assert!(checked(None).is_err());
        assert!(!in_range(latest() + chrono::Duration::nanoseconds(1)));
        assert!(in_range(latest()));
        let epoch = std::time::SystemTime::UNIX_EPOCH;
        assert_eq!(super::at(epoch), Ok(EARLIEST));
        assert!(super::at(epoch - std::time::Duration::from_secs(86_400)).unwrap_err().said.starts_with("1969-12-31"));
        assert!(
            super::at(epoch + std::time::Duration::from_secs(253_402_300_800)).unwrap_err().said.starts_with("+10000")
        );
        assert!(super::at(epoch + std::time::Duration::from_secs(u64::MAX / 2)).is_err(), "past what chrono holds");
    }

    #[test]
    fn a_clock_moved_out_of_the_years_is_said_wrong() {
        let now = Clock::SYSTEM.now().unwrap().timestamp();
        assert!(Clock::moved_by(0).now().is_ok());
        let day = 86_400;
        assert!(Clock::moved_by(-now - day).now().unwrap_err().said.starts_with("1969-12-3"));
        assert!(Clock::moved_by(253_402_300_800 - now + day).now().unwrap_err().said.starts_with("+10000-01-0"));
        assert_eq!(Clock::moved_by(i64::MAX).now().unwrap_err().said, "a time no calendar has");
        assert_eq!(Clock::moved_by(i64::MIN).now().unwrap_err().said, "a time no calendar has");
    }
}
