//! Typed text is a change like any other: what is typed in the remarks, or left in the tag box,
//! is stored a moment after the last keystroke, so that a pause in typing is not a change per
//! letter and a window closed while typing loses nothing. Both fields wait the same moment.

/// Typed text (remarks, a tag left in the tag box) is stored this long (seconds) after the last
/// keystroke.
pub const TYPED_DELAY: f64 = 0.8;
