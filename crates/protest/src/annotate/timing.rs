//! Time per record: the active time an annotator spends on each example, as annotation studies
//! report their cost (docs/domain.md, "Time per record").
//!
//! Time counts while an example is on screen and the annotator is at work there: from one sign
//! of activity (a key, a click, the pointer moving, the example opening) to the next, unless
//! more than [`IDLE`] passed between them — then they were away, and the gap counts for nothing.
//! The shell says when there was activity ([`Stopwatch::active`]); the session takes the time
//! banked for a candidate into its record when the record changes or the example is left.
//! Times are seconds on any clock that only goes forward (egui's frame time in both windows).

use crate::model::CandidateId;

/// A gap without activity longer than this (seconds) is not counted: the annotator was away.
pub const IDLE: f64 = 60.0;

/// The most active time one record may hold (a day, in milliseconds): more is refused as damaged.
pub const MAX_MS: u64 = 24 * 60 * 60 * 1000;

/// Counts the active time on the example on screen.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stopwatch {
    /// The candidate on screen, the time of the last activity on it, and the seconds banked for it.
    on: Option<(CandidateId, f64, f64)>,
}

impl Stopwatch {
    /// The annotator was active on `candidate` at `now`. Time on another candidate not taken yet
    /// is dropped: the session takes it when that example is left.
    pub fn active(&mut self, candidate: CandidateId, now: f64) {
        match &mut self.on {
            Some((on, last, banked)) if *on == candidate => {
                let gap = now - *last;
                if (0.0..=IDLE).contains(&gap) {
                    *banked += gap;
                }
                *last = now.max(*last);
            }
            _ => self.on = Some((candidate, now, 0.0)),
        }
    }

    /// The milliseconds banked for `candidate` since they were last taken (0 for another one).
    pub fn take(&mut self, candidate: CandidateId) -> u64 {
        match &mut self.on {
            Some((on, _, banked)) if *on == candidate => {
                let ms = (*banked * 1000.0).round() as u64;
                *banked = 0.0;
                ms
            }
            _ => 0,
        }
    }

    /// The milliseconds banked for `candidate`, without taking them.
    pub fn banked(&self, candidate: CandidateId) -> u64 {
        match self.on {
            Some((on, _, banked)) if on == candidate => (banked * 1000.0).round() as u64,
            _ => 0,
        }
    }
}

/// A record's time with `ms` more: a record that was made before time was measured stays
/// unmeasured (adding to it would pass part of its time off as all of it).
pub fn add(time: Option<u64>, ms: u64) -> Option<u64> {
    time.map(|t| t.saturating_add(ms).min(MAX_MS))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: CandidateId = CandidateId(1);
    const B: CandidateId = CandidateId(2);

    #[test]
    fn activity_counts_from_one_sign_to_the_next() {
        let mut s = Stopwatch::default();
        s.active(A, 10.0);
        s.active(A, 12.5);
        s.active(A, 20.0);
        assert_eq!(s.banked(A), 10_000);
        assert_eq!(s.take(A), 10_000);
        assert_eq!(s.take(A), 0, "taken once");
        s.active(A, 21.0);
        assert_eq!(s.take(A), 1_000);
    }

    #[test]
    fn a_long_gap_is_time_away() {
        let mut s = Stopwatch::default();
        s.active(A, 0.0);
        s.active(A, 5.0);
        s.active(A, 5.0 + IDLE + 1.0); // away
        s.active(A, 5.0 + IDLE + 3.0);
        assert_eq!(s.take(A), 7_000);
    }

    #[test]
    fn another_example_starts_afresh() {
        let mut s = Stopwatch::default();
        s.active(A, 0.0);
        s.active(A, 4.0);
        s.active(B, 6.0);
        s.active(B, 9.0);
        assert_eq!(s.take(A), 0, "A's time not taken before B opened is dropped");
        assert_eq!(s.take(B), 3_000);
        // A clock that goes back (it should not) counts nothing.
        s.active(B, 8.0);
        assert_eq!(s.take(B), 0);
    }

    #[test]
    fn an_unmeasured_record_stays_unmeasured() {
        assert_eq!(add(None, 5_000), None);
        assert_eq!(add(Some(1_000), 5_000), Some(6_000));
        assert_eq!(add(Some(MAX_MS - 1), 5_000), Some(MAX_MS));
    }
}
