//! Reading the records' timestamps. A 100× master holds 800,000 of them, all in the one form this
//! program writes (`2026-01-01T00:00:07Z`, with a fraction of a second when there is one); that
//! form is read directly, anything else by chrono's general RFC 3339 parser, with its messages.

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

/// `#[serde(deserialize_with)]` for a `DateTime<Utc>`: the same values and errors as chrono's own
/// `Deserialize`, faster for the form we write.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    struct Timestamp;
    impl Visitor<'_> for Timestamp {
        type Value = DateTime<Utc>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            // chrono's words, so that a wrong value reads as it always did.
            f.write_str("an RFC 3339 formatted date and time string")
        }
        fn visit_str<E: de::Error>(self, value: &str) -> Result<DateTime<Utc>, E> {
            match written(value) {
                Some(time) => Ok(time),
                None => value.parse::<DateTime<FixedOffset>>().map(|t| t.with_timezone(&Utc)).map_err(E::custom),
            }
        }
    }
    deserializer.deserialize_str(Timestamp)
}

/// `YYYY-MM-DDTHH:MM:SS[.F]Z` (1 to 9 digits of fraction) naming a valid time, leap seconds
/// left to chrono; `None` for anything else.
fn written(text: &str) -> Option<DateTime<Utc>> {
    let (main, rest) = text.as_bytes().split_at_checked(19)?;
    let punctuation = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if punctuation.iter().any(|&(at, c)| main[at] != c) {
        return None;
    }
    let nanos = match rest {
        [b'Z'] => 0,
        [b'.', fraction @ .., b'Z'] if (1..=9).contains(&fraction.len()) => {
            number(fraction)? * 10u32.pow(9 - fraction.len() as u32)
        }
        _ => return None,
    };
    let [year, month, day, hour, minute, second] =
        [0..4, 5..7, 8..10, 11..13, 14..16, 17..19].map(|at| number(&main[at]));
    if second? > 59 {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(year? as i32, month?, day?)?;
    Some(date.and_hms_nano_opt(hour?, minute?, second?, nanos)?.and_utc())
}

/// Plain decimal digits (at most 9 of them: no overflow).
fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chrono(text: &str) -> Result<DateTime<Utc>, String> {
        serde_json::from_value::<DateTime<Utc>>(serde_json::Value::String(text.into())).map_err(|e| e.to_string())
    }

    fn ours(text: &str) -> Result<DateTime<Utc>, String> {
        deserialize(serde_json::Value::String(text.into())).map_err(|e| e.to_string())
    }

    #[test]
    fn reads_what_chrono_reads_with_its_messages() {
        for text in [
            "2026-01-01T00:00:07Z",
            "2026-11-26T13:50:01.123456789Z",
            "2026-11-26T13:50:01.5Z",
            "2026-11-26T13:50:01.1234567891Z",
            "2026-11-26T13:50:01.Z",
            "2026-11-26T13:50:01+02:00",
            "2026-11-26t13:50:01z",
            "2026-11-26 13:50:01Z",
            "2016-12-31T23:59:60Z",
            "2026-02-30T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T00:60:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:0xZ",
            "+2026-01-01T00:00:00Z",
            "yesterday",
            "",
        ] {
            assert_eq!(ours(text), chrono(text), "{text}");
        }
        assert!(written("2026-01-01T00:00:07Z").is_some(), "the form we write is read directly");
        assert!(written("2026-11-26T13:50:01.123456789Z").is_some());
        let wrong_type = serde_json::from_str::<Wrapped>(r#"{"t":5}"#).unwrap_err().to_string();
        let theirs = serde_json::from_str::<Plain>(r#"{"t":5}"#).unwrap_err().to_string();
        assert_eq!(wrong_type, theirs);
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrapped {
        #[serde(deserialize_with = "deserialize")]
        t: DateTime<Utc>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Plain {
        t: DateTime<Utc>,
    }

    #[test]
    fn the_time_we_write_is_read_back() {
        let now = Utc::now();
        assert_eq!(ours(serde_json::to_value(now).unwrap().as_str().unwrap()).unwrap(), now);
    }
}
