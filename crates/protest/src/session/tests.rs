//! The session's time per record, driven as the windows drive it: each sign of activity said
//! before the window acts on it.

use super::Session;
use crate::annotate::edit::Edit;
use crate::model::{CandidateId, Judgement, Master, Role};
use crate::store::Store;

fn tiny_session(dir: &tempfile::TempDir) -> Session {
    let path = dir.path().join("tiny.master.json");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/tiny/tiny.master.json"), &path).unwrap();
    let (store, _) = Store::<Master>::open(&path).unwrap();
    Session::new(Box::new(store), None)
}

#[test]
fn a_visit_counts_to_its_end_and_going_away_ends_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = tiny_session(&dir);
    let pleonastic = CandidateId(3);
    // Opened, 10 s, judged, 20 s, left.
    s.active(pleonastic, 0.0);
    s.active(pleonastic, 10.0);
    s.edit(pleonastic, Edit::Judge(Role::Pronoun, Judgement::No)).unwrap();
    assert_eq!(s.record(pleonastic).unwrap().active_ms, Some(10_000));
    s.active(pleonastic, 30.0);
    assert!(s.leave(pleonastic).unwrap().is_empty());
    assert_eq!(s.record(pleonastic).unwrap().active_ms, Some(30_000), "the 20 s after the change count");
    // Back on it for 5 s; the window loses the keyboard 1 s later: stored at once.
    s.active(pleonastic, 100.0);
    s.active(pleonastic, 105.0);
    s.away(106.0).unwrap();
    assert_eq!(s.record(pleonastic).unwrap().active_ms, Some(36_000));
    s.away(120.0).unwrap(); // said again while away: nothing more
    // It has the keyboard again 40 s later: the time away is not counted.
    s.active(pleonastic, 146.0);
    s.active(pleonastic, 150.0);
    assert!(s.leave(pleonastic).unwrap().is_empty());
    assert_eq!(s.record(pleonastic).unwrap().active_ms, Some(40_000));
    // Away from an example without a record: nothing is stored.
    let other = CandidateId(4);
    s.active(other, 200.0);
    s.away(210.0).unwrap();
    assert!(s.record(other).is_none());
}
