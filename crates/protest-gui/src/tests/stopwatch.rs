//! Time per record against a stopwatch (docs/domain.md, "Time per record"): an annotator's
//! visits played on a scripted clock, keyboard only, and the time stored in the record compared
//! with the time the example was on screen and the annotator at it. Between keys the window is
//! left alone: it draws a frame only when it asked to be woken up, as in eframe's event loop.

use super::*;
use super::{ANNA, PLEONASTIC_NEW, click, saved_record, tiny_with_anna};
use egui::{Key, ViewportId};

/// Sets the window's clock to `t` seconds (a scripted clock, from here on only moved by the test).
pub(super) fn at(h: &mut Harness<App>, t: f64) {
    h.input_mut().time = Some(t);
}

pub(super) fn now(h: &Harness<App>) -> f64 {
    h.ctx.input(|i| i.time)
}

/// Leaves the window alone until `until` (scripted clock): frames come only when the window
/// asked for one (never more often than 60 a second), each at the time it asked for. Stops
/// early, returning the time, once `done` holds.
pub(super) fn alone_until(h: &mut Harness<App>, until: f64, done: impl Fn(&Harness<App>) -> bool) -> Option<f64> {
    for _ in 0..10_000 {
        if done(h) {
            return Some(now(h));
        }
        let delay = h.output().viewport_output[&ViewportId::ROOT].repaint_delay;
        let next = now(h) + delay.as_secs_f64().max(1.0 / 60.0);
        if next > until {
            at(h, until);
            return None;
        }
        at(h, next);
        h.step();
    }
    panic!("the window asks for frames without end");
}

/// A key pressed at `t` (and let go at once), the frames it brings drawn then.
pub(super) fn key_at(h: &mut Harness<App>, t: f64, key: Key) {
    at(h, t);
    h.key_press(key);
    h.run_ok();
}

/// The window loses the keyboard at `t` (another window is brought up), or gets it back.
fn focus_at(h: &mut Harness<App>, t: f64, focused: bool) {
    at(h, t);
    h.input_mut().focused = focused;
    h.input_mut().events.push(egui::Event::WindowFocused(focused));
    h.run_ok();
}

/// What one visit pattern does, at its second (from the example's opening).
enum Step {
    Press(f64, Key),
    Away(f64),
    Back(f64),
    /// Typing a remark: R at the first second, a letter every second after, Esc at the last.
    Remark(f64, f64),
}

/// Opens the first pleonastic example (a click on its count), plays `steps` and leaves it with
/// → at `leave`; returns the seconds stored in its record.
fn visit(steps: &[Step], leave: f64) -> f64 {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    let start = 1000.0;
    at(&mut h, start);
    click(&mut h, PLEONASTIC_NEW);
    for step in steps {
        let (Step::Press(t, _) | Step::Away(t) | Step::Back(t) | Step::Remark(t, _)) = *step;
        alone_until(&mut h, start + t, |_| false);
        match *step {
            Step::Press(t, key) => key_at(&mut h, start + t, key),
            Step::Away(t) => focus_at(&mut h, start + t, false),
            Step::Back(t) => focus_at(&mut h, start + t, true),
            Step::Remark(from, to) => {
                key_at(&mut h, start + from, Key::R);
                let mut s = from + 1.0;
                while s < to {
                    alone_until(&mut h, start + s, |_| false);
                    h.get_by_label(crate::panels::annotation::REMARKS_LABEL).type_text("a");
                    h.run_ok();
                    s += 1.0;
                }
                alone_until(&mut h, start + to, |_| false);
                key_at(&mut h, start + to, Key::Escape);
            }
        }
    }
    alone_until(&mut h, start + leave, |_| false);
    key_at(&mut h, start + leave, Key::ArrowRight);
    let record = saved_record(&f.path, 3, ANNA).expect("the example has a record");
    h.state_mut().shutdown();
    record.active_ms.expect("its time is measured") as f64 / 1000.0
}

/// Within 5 % of the stopwatch.
fn matches(recorded: f64, stopwatch: f64) -> bool {
    (recorded - stopwatch).abs() <= 0.05 * stopwatch
}

#[test]
fn a_visit_stores_the_time_of_a_stopwatch_to_its_end() {
    use Step::{Away, Back, Press, Remark};
    let cases: [(&str, Vec<Step>, f64, f64); 5] = [
        ("open, 10 s, judge, 20 s, leave", vec![Press(10.0, Key::N)], 30.0, 30.0),
        ("judged at once, read for 25 s", vec![Press(1.0, Key::N)], 26.0, 26.0),
        ("a remark typed over 8 s, then 11 s", vec![Press(2.0, Key::N), Remark(3.0, 11.0)], 22.0, 22.0),
        ("away 40 s in another window, back for 10 s", vec![Press(5.0, Key::N), Away(12.0), Back(52.0)], 62.0, 22.0),
        ("left alone over a minute: those 90 s count for nothing", vec![Press(5.0, Key::N)], 95.0, 5.0),
    ];
    let mut wrong = Vec::new();
    for (name, steps, leave, stopwatch) in cases {
        let recorded = visit(&steps, leave);
        if !matches(recorded, stopwatch) {
            wrong.push(format!("{name}: {recorded} s stored, the stopwatch says {stopwatch} s"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The time before the first change goes into the new record, the time after it on leaving, and
/// a second visit adds its own.
#[test]
fn a_second_visit_adds_its_time() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    at(&mut h, 0.0);
    click(&mut h, PLEONASTIC_NEW);
    alone_until(&mut h, 10.0, |_| false);
    key_at(&mut h, 10.0, Key::N);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().active_ms, Some(10_000));
    alone_until(&mut h, 30.0, |_| false);
    key_at(&mut h, 30.0, Key::ArrowRight); // to the next, 10 s there with nothing done
    alone_until(&mut h, 40.0, |_| false);
    key_at(&mut h, 40.0, Key::ArrowLeft);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().active_ms, Some(30_000));
    assert_eq!(saved_record(&f.path, 4, ANNA), None, "nothing stored where nothing was done");
    alone_until(&mut h, 55.0, |_| false);
    key_at(&mut h, 55.0, Key::ArrowRight);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().active_ms, Some(45_000));
}

/// The window losing the keyboard ends the visit then and there: its time is in the file at
/// once, before any other key (the window may be closed, the machine may stop).
#[test]
fn losing_the_keyboard_stores_the_time_at_once() {
    let f = tiny_with_anna();
    let mut h = harness(&f.path, Some(ANNA));
    at(&mut h, 0.0);
    click(&mut h, PLEONASTIC_NEW);
    key_at(&mut h, 4.0, Key::N);
    alone_until(&mut h, 24.0, |_| false);
    focus_at(&mut h, 24.0, false);
    assert_eq!(saved_record(&f.path, 3, ANNA).unwrap().active_ms, Some(24_000));
    h.state_mut().shutdown();
}
