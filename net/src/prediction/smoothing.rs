//! [`Correction`]: how a reconciliation's correction reaches the screen. When a server state
//! moves the predicted position, the shown position does not jump: the difference becomes an
//! offset (shown = predicted + offset) that each frame loses [`CORRECTION_DECAY`] of itself,
//! but never more than [`MAX_CORRECTION_STEP`] studs, so the shown character glides onto the
//! prediction. An offset past [`SNAP_DISTANCE`] (a teleport, a respawn, a long stall) is
//! dropped at once and counted as a snap.
//!
//! Invariants: the offset is always finite and at most [`SNAP_DISTANCE`] long; between two
//! corrections the offset only shrinks, by at most [`MAX_CORRECTION_STEP`] per frame.

use glam::Vec3;

/// Most the correction moves the shown position in one frame, studs (a walking character
/// covers 0.27 studs a step: a correction never moves it faster than about a third of that).
pub const MAX_CORRECTION_STEP: f32 = 0.1;

/// The fraction of the remaining offset removed each frame (under the step bound).
pub const CORRECTION_DECAY: f32 = 0.2;

/// An offset longer than this is not smoothed but dropped (a snap), studs.
pub const SNAP_DISTANCE: f32 = 8.0;

/// The offset between the shown and the predicted position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Correction {
    offset: Vec3,
    /// The largest per-frame move of the offset so far, studs.
    largest_step: f32,
    /// Offsets dropped at once (past [`SNAP_DISTANCE`]).
    snaps: u64,
}

impl Correction {
    /// The prediction moved by `shift` (new predicted − old predicted) without the character
    /// moving on screen: the offset takes it up. Returns whether it snapped.
    pub fn absorb(&mut self, shift: Vec3) -> bool {
        let offset = self.offset - shift;
        if !offset.is_finite() || offset.length() > SNAP_DISTANCE {
            self.offset = Vec3::ZERO;
            self.snaps += 1;
            return true;
        }
        self.offset = offset;
        false
    }

    /// One frame of decay; returns how far the offset moved (≤ [`MAX_CORRECTION_STEP`]).
    pub fn frame(&mut self) -> f32 {
        let len = self.offset.length();
        if len == 0.0 {
            return 0.0;
        }
        let step = (len * CORRECTION_DECAY).min(MAX_CORRECTION_STEP);
        // Below a thousandth of a stud the rest is dropped (still within the bound).
        let step = if len - step < 1.0e-3 { len.min(MAX_CORRECTION_STEP) } else { step };
        self.offset *= (len - step) / len;
        self.largest_step = self.largest_step.max(step);
        step
    }

    /// The offset now.
    pub fn offset(&self) -> Vec3 {
        self.offset
    }

    /// The largest per-frame move so far.
    pub fn largest_step(&self) -> f32 {
        self.largest_step
    }

    /// Offsets dropped at once.
    pub fn snaps(&self) -> u64 {
        self.snaps
    }

    /// Drops the offset (a new character), without counting a snap.
    pub fn reset(&mut self) {
        self.offset = Vec3::ZERO;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_correction_glides_and_a_teleport_snaps() {
        let mut c = Correction::default();
        assert!(!c.absorb(Vec3::new(2.0, 0.0, 0.0)));
        assert_eq!(c.offset(), Vec3::new(-2.0, 0.0, 0.0));
        let mut frames = 0;
        while c.offset() != Vec3::ZERO {
            assert!(c.frame() <= MAX_CORRECTION_STEP + 1e-6);
            frames += 1;
            assert!(frames < 200);
        }
        assert!(frames >= 20, "2 studs at most 0.1 a frame: {frames}");
        assert!(c.absorb(Vec3::new(0.0, 50.0, 0.0)));
        assert_eq!((c.offset(), c.snaps()), (Vec3::ZERO, 1));
        assert!(c.absorb(Vec3::NAN));
    }

    proptest! {
        #[test]
        fn the_offset_stays_bounded_and_each_frame_moves_it_at_most_the_bound(
            shifts in proptest::collection::vec((-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0, 0u8..5), 0..60)
        ) {
            let mut c = Correction::default();
            for (x, y, z, frames) in shifts {
                c.absorb(Vec3::new(x, y, z));
                prop_assert!(c.offset().length() <= SNAP_DISTANCE);
                for _ in 0..frames {
                    let before = c.offset();
                    let step = c.frame();
                    prop_assert!(step <= MAX_CORRECTION_STEP + 1e-6);
                    prop_assert!((before - c.offset()).length() <= MAX_CORRECTION_STEP + 1e-5);
                    prop_assert!(c.offset().length() <= before.length());
                }
            }
        }
    }
}
