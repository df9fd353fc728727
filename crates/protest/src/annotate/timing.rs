//! Time per record: the active time an annotator spends on each example, as annotation studies
//! report their cost (docs/domain.md, "Time per record").
//!
//! Time counts while an example is on screen and the annotator is at work there: from one sign
//! of activity (a key, a click, the pointer moving, the example opening) to the next, unless
//! more than [`IDLE`] passed between them — then they were away, and the gap counts for nothing.
//! A visit ends with a last sign: leaving the example, or the window losing the keyboard (the
//! page being hidden), after which nothing counts until the next sign ([`Stopwatch::away`]). The
//! shell says when there was activity ([`Stopwatch::active`]) before it acts on it, so the time
//! up to a change or to leaving is in by then; the session takes the time banked for a candidate
//! into its record when the record changes, when the example is left and when the annotator goes
//! away from the window. Times are seconds on any clock that only goes forward (egui's frame
//! time in both windows).

use crate::model::CandidateId;

/// A gap without activity longer than this (seconds) is not counted: the annotator was away.
pub const IDLE: f64 = 60.0;

/// The most active time one record may hold (a day, in milliseconds): more is refused as damaged.
pub const MAX_MS: u64 = 24 * 60 * 60 * 1000;

/// Counts the active time on the example on screen.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stopwatch {
    on: Option<On>,
}

/// The candidate on screen and its time not taken yet.
#[derive(Debug, Clone, PartialEq)]
struct On {
    candidate: CandidateId,
    /// The last sign of activity on it; `None` once the annotator went away: the next sign
    /// starts counting afresh.
    last: Option<f64>,
    /// The seconds banked for it.
    banked: f64,
}

impl Stopwatch {
    /// The annotator was active on `candidate` at `now`. Time on another candidate not taken yet
    /// is dropped: the session takes it when that example is left.
    pub fn active(&mut self, candidate: CandidateId, now: f64) {
        match &mut self.on {
            Some(on) if on.candidate == candidate => {
                on.bank_until(now);
                on.last = Some(on.last.map_or(now, |last| now.max(last)));
            }
            _ => self.on = Some(On { candidate, last: Some(now), banked: 0.0 }),
        }
    }

    /// The annotator went away at `now` (the window lost the keyboard, the page was hidden): the
    /// time up to `now` counts, the time until the next sign of activity does not.
    pub fn away(&mut self, now: f64) {
        if let Some(on) = &mut self.on {
            on.bank_until(now);
            on.last = None;
        }
    }

    /// The candidate whose time is being counted.
    pub fn on(&self) -> Option<CandidateId> {
        self.on.as_ref().map(|on| on.candidate)
    }

    /// The milliseconds banked for `candidate` since they were last taken (0 for another one).
    pub fn take(&mut self, candidate: CandidateId) -> u64 {
        match &mut self.on {
            Some(on) if on.candidate == candidate => {
                let ms = (on.banked * 1000.0).round() as u64;
                on.banked = 0.0;
                ms
            }
            _ => 0,
        }
    }

    /// The milliseconds banked for `candidate`, without taking them.
    pub fn banked(&self, candidate: CandidateId) -> u64 {
        match &self.on {
            Some(on) if on.candidate == candidate => (on.banked * 1000.0).round() as u64,
            _ => 0,
        }
    }
}

impl On {
    /// Banks the time from the last sign of activity to `now`, unless it was away or the gap is
    /// longer than [`IDLE`] (or the clock went back).
    fn bank_until(&mut self, now: f64) {
        if let Some(last) = self.last {
            let gap = now - last;
            if (0.0..=IDLE).contains(&gap) {
                self.banked += gap;
            }
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
    fn the_time_after_the_last_sign_counts_up_to_going_away() {
        let mut s = Stopwatch::default();
        s.active(A, 0.0); // opened
        s.active(A, 10.0); // judged
        assert_eq!(s.take(A), 10_000);
        s.away(30.0); // the window lost the keyboard
        assert_eq!(s.take(A), 20_000, "the 20 s after the change count");
        s.away(35.0);
        s.active(A, 75.0); // back, 45 s later: not counted
        s.active(A, 80.0);
        assert_eq!(s.take(A), 5_000);
        assert_eq!(s.on(), Some(A));
        // Away for longer than IDLE since the last sign: that gap counts for nothing either.
        s.active(A, 200.0);
        s.away(200.0 + IDLE + 1.0);
        assert_eq!(s.take(A), 0);
    }

    #[test]
    fn an_unmeasured_record_stays_unmeasured() {
        assert_eq!(add(None, 5_000), None);
        assert_eq!(add(Some(1_000), 5_000), Some(6_000));
        assert_eq!(add(Some(MAX_MS - 1), 5_000), Some(MAX_MS));
    }
}
