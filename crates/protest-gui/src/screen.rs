//! The window on the screen: a size remembered from a larger screen (or another monitor) is made
//! to fit this one, so that the window's bottom — the status line, a dialog's buttons — is never
//! off the screen. eframe keeps a remembered size within the monitor, but not the window's title
//! bar and frame, nor the room a desktop's panels take.

use egui::{Pos2, Rect, Vec2, ViewportCommand, pos2, vec2};

/// Room left around the window for the desktop's panels.
const ROOM: f32 = 32.0;

/// The window's inner size and outer position that make it fit a screen `monitor` large, or
/// `None` when it fits already. `inner` is the window's content, `outer` the window with its
/// frame (the same without a window manager); it never gets smaller than `min`.
pub fn fit(inner: Rect, outer: Rect, monitor: Vec2, min: Vec2) -> Option<(Vec2, Pos2)> {
    let screen = Rect::from_min_size(Pos2::ZERO, monitor);
    if screen.contains_rect(outer) {
        return None;
    }
    let frame = outer.size() - inner.size();
    let size = (monitor - vec2(ROOM, ROOM) - frame).min(inner.size()).max(min);
    let outer_size = size + frame;
    let at = pos2(((monitor.x - outer_size.x) / 2.0).max(0.0), ((monitor.y - outer_size.y) / 2.0).max(0.0));
    Some((size, at))
}

/// The commands that make the window fit the screen, once the screen's size is known; `None`
/// while it is not (the first frames).
pub fn fitting(ctx: &egui::Context, min: Vec2) -> Option<Vec<ViewportCommand>> {
    let (monitor, inner, outer) = ctx.input(|i| {
        let v = i.viewport();
        (v.monitor_size, v.inner_rect, v.outer_rect)
    });
    let (monitor, inner) = (monitor?, inner?);
    Some(match fit(inner, outer.unwrap_or(inner), monitor, min) {
        Some((size, at)) => vec![ViewportCommand::InnerSize(size), ViewportCommand::OuterPosition(at)],
        None => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Vec2 = vec2(760.0, 480.0);

    #[test]
    fn a_window_larger_than_the_screen_is_made_to_fit_it_frame_included() {
        // 1280 × 820 remembered, on a 900 × 600 screen, with a 30-point title bar.
        let inner = Rect::from_min_size(pos2(0.0, 30.0), vec2(1280.0, 820.0));
        let outer = Rect::from_min_size(Pos2::ZERO, vec2(1280.0, 850.0));
        let (size, at) = fit(inner, outer, vec2(900.0, 600.0), MIN).unwrap();
        assert_eq!(size, vec2(868.0, 538.0));
        let placed = Rect::from_min_size(at, size + vec2(0.0, 30.0));
        assert!(Rect::from_min_size(Pos2::ZERO, vec2(900.0, 600.0)).contains_rect(placed), "{placed:?}");
    }

    #[test]
    fn a_window_that_fits_is_left_alone_and_none_is_made_smaller_than_the_minimum() {
        let inner = Rect::from_min_size(pos2(100.0, 100.0), vec2(1024.0, 700.0));
        assert_eq!(fit(inner, inner, vec2(1920.0, 1080.0), MIN), None);
        // Off the screen but small enough: moved, not shrunk.
        let off = inner.translate(vec2(1500.0, 0.0));
        assert_eq!(fit(off, off, vec2(1920.0, 1080.0), MIN), Some((vec2(1024.0, 700.0), pos2(448.0, 190.0))));
        // A screen smaller than the minimum: the minimum, at the top left.
        let big = Rect::from_min_size(Pos2::ZERO, vec2(1280.0, 820.0));
        assert_eq!(fit(big, big, vec2(640.0, 400.0), MIN), Some((MIN, Pos2::ZERO)));
    }
}
