//! Quantisation of the built-in state for the wire, as Gaffer On Games does: positions and
//! sizes to a fixed grid, rotations as the smallest three components of the unit quaternion.
//!
//! Precision (documented in `docs/networking.md`):
//! - positions: a grid of 1/[`POSITION_STEPS`] stud (≈0.004 stud), within ±[`WORLD_EXTENT`];
//!   NaN becomes 0 and anything beyond is clamped (physics does not simulate past it);
//! - sizes: the same grid, 0 to [`MAX_EXTENT`];
//! - rotations: 2 bits for the dropped component, 10 bits for each of the other three over
//!   ±1/√2 in 1,022 steps (a step of 0.0014, about 0.08° at worst; 0 and ±1/√2 are exact,
//!   so the identity and rotations by right angles about one axis arrive exact);
//! - transparency: 8 bits.
//!
//! Invariant: every `quantize_*` is total (no input panics) and the wire carries only the
//! quantised integers, so the server and a replica hash the same values.

use arbor_sim::{physics::MAX_EXTENT, physics::WORLD_EXTENT};
use glam::{Quat, Vec3};

/// Grid steps per stud for positions and sizes.
pub const POSITION_STEPS: f32 = 256.0;

const ROTATION_BITS: u32 = 10;
/// The largest index a component takes: an even number of steps, so that 0 (the middle
/// index) is exact and identity and right-angle rotations arrive untilted.
const ROTATION_MAX: f32 = ((1 << ROTATION_BITS) - 2) as f32;
const ROTATION_RANGE: f32 = std::f32::consts::FRAC_1_SQRT_2;

fn grid(v: f32, limit: f32) -> i32 {
    if v.is_nan() {
        return 0;
    }
    (v.clamp(-limit, limit) * POSITION_STEPS).round() as i32
}

/// A position on the wire grid.
pub(crate) fn quantize_position(v: Vec3) -> [i32; 3] {
    let limit = WORLD_EXTENT;
    [grid(v.x, limit), grid(v.y, limit), grid(v.z, limit)]
}

/// The position a grid point stands for.
pub fn dequantize_position(q: [i32; 3]) -> Vec3 {
    Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / POSITION_STEPS
}

/// A size on the wire grid (non-negative).
pub(crate) fn quantize_size(v: Vec3) -> [u32; 3] {
    let c = |x: f32| grid(x.max(0.0), MAX_EXTENT) as u32;
    [c(v.x), c(v.y), c(v.z)]
}

/// The size a grid point stands for.
pub(crate) fn dequantize_size(q: [u32; 3]) -> Vec3 {
    Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / POSITION_STEPS
}

/// A rotation as 32 bits: the index of the largest component, then the other three.
pub(crate) fn quantize_rotation(q: Quat) -> u32 {
    let q = if q.is_finite() && q.length_squared() > 1e-12 { q.normalize() } else { Quat::IDENTITY };
    let c = q.to_array();
    let mut largest = 0;
    for i in 1..4 {
        if c[i].abs() > c[largest].abs() {
            largest = i;
        }
    }
    // q and -q are one rotation: make the dropped component positive.
    let sign = if c[largest] < 0.0 { -1.0 } else { 1.0 };
    let mut out = (largest as u32) << (3 * ROTATION_BITS);
    let mut shift = 2 * ROTATION_BITS;
    for (i, &v) in c.iter().enumerate() {
        if i == largest {
            continue;
        }
        let unit = ((v * sign / ROTATION_RANGE).clamp(-1.0, 1.0) + 1.0) * 0.5;
        out |= ((unit * ROTATION_MAX).round() as u32) << shift;
        shift = shift.wrapping_sub(ROTATION_BITS);
    }
    out
}

/// The rotation 32 wire bits stand for (normalised).
pub(crate) fn dequantize_rotation(bits: u32) -> Quat {
    let largest = (bits >> (3 * ROTATION_BITS)) as usize & 3;
    let mut c = [0.0f32; 4];
    let mut shift = 2 * ROTATION_BITS;
    let mut sum = 0.0;
    for (i, slot) in c.iter_mut().enumerate() {
        if i == largest {
            continue;
        }
        let raw = (bits >> shift) & ((1 << ROTATION_BITS) - 1);
        let v = (raw as f32 / ROTATION_MAX * 2.0 - 1.0) * ROTATION_RANGE;
        *slot = v;
        sum += v * v;
        shift = shift.wrapping_sub(ROTATION_BITS);
    }
    c[largest] = (1.0 - sum).max(0.0).sqrt();
    Quat::from_array(c).normalize()
}

/// Transparency (0..1) as 8 bits.
pub(crate) fn quantize_unit(v: f32) -> u8 {
    if v.is_nan() { 0 } else { (v.clamp(0.0, 1.0) * 255.0).round() as u8 }
}

/// The transparency 8 bits stand for.
pub(crate) fn dequantize_unit(q: u8) -> f32 {
    f32::from(q) / 255.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn positions_land_within_half_a_step() {
        for v in [Vec3::new(0.1, -3.7, 1234.567), Vec3::splat(-999_999.0), Vec3::ZERO] {
            let back = dequantize_position(quantize_position(v));
            assert!((back - v).abs().max_element() <= 0.5 / POSITION_STEPS + v.abs().max_element() * 1e-7);
        }
        assert_eq!(quantize_position(Vec3::new(f32::NAN, f32::INFINITY, f32::NEG_INFINITY))[0], 0);
        assert_eq!(quantize_position(Vec3::splat(f32::INFINITY))[1], (WORLD_EXTENT * POSITION_STEPS) as i32);
    }

    #[test]
    fn quantising_twice_changes_nothing() {
        let q = quantize_position(Vec3::new(12.3, 4.56, -7.89));
        assert_eq!(quantize_position(dequantize_position(q)), q);
        let s = quantize_size(Vec3::new(4.0, 1.2, 2.0));
        assert_eq!(quantize_size(dequantize_size(s)), s);
    }

    proptest! {
        #[test]
        fn rotations_come_back_within_a_tenth_of_a_degree(
            x in -1.0f32..1.0, y in -1.0f32..1.0, z in -1.0f32..1.0, w in -1.0f32..1.0,
        ) {
            let q = Quat::from_xyzw(x, y, z, w);
            prop_assume!(q.length() > 0.1);
            let q = q.normalize();
            let back = dequantize_rotation(quantize_rotation(q));
            let angle = q.angle_between(back).to_degrees();
            prop_assert!(angle < 0.25, "{angle}");
        }
    }
}
