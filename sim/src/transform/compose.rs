//! The arithmetic of the pass: `world = parent ∘ local` for a rigid transform, written once
//! over a generic lane type so the scalar path (`f32`) and the SIMD path (`wide::f32x8`, eight
//! siblings at a time) evaluate the very same expression tree.
//!
//! Invariant: for any parent and local, [`compose`] over `f32` and over one lane of `f32x8`
//! give bit-identical results (same operations in the same order, and Rust never fuses a
//! multiply and an add on its own), so a node's world never depends on whether it was
//! computed in a batch, in a tail, or on which thread.

use std::ops::{Add, Mul, Sub};
use wide::f32x8;

/// Number of siblings composed together on the SIMD path.
pub(crate) const LANES: usize = 8;

/// Arithmetic the composition needs: `f32` and `f32x8`.
pub(crate) trait Lane: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// Broadcasts one scalar.
    fn splat(x: f32) -> Self;
}

impl Lane for f32 {
    #[inline(always)]
    fn splat(x: f32) -> Self {
        x
    }
}

impl Lane for f32x8 {
    #[inline(always)]
    fn splat(x: f32) -> Self {
        f32x8::splat(x)
    }
}

/// A world transform as seven floats: position x, y, z, then rotation x, y, z, w.
pub(crate) type Pose = [f32; 7];

/// The identity pose.
pub(crate) const IDENTITY: Pose = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// A parent's world transform prepared for composing its children: the pose and its
/// rotation as a 3×3 row-major matrix (cheaper than the quaternion sandwich per child, and
/// computed once per parent).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// The parent's world pose.
    pub pose: Pose,
    /// Row-major rotation matrix of `pose`'s rotation (assumed unit length).
    pub m: [f32; 9],
}

impl Frame {
    /// The frame of `pose`.
    #[inline]
    pub fn new(pose: Pose) -> Self {
        let [_, _, _, x, y, z, w] = pose;
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let m = [
            1.0 - (yy + zz),
            xy - wz,
            xz + wy,
            xy + wz,
            1.0 - (xx + zz),
            yz - wx,
            xz - wy,
            yz + wx,
            1.0 - (xx + yy),
        ];
        Self { pose, m }
    }
}

/// `parent ∘ local` for one lane type: `local` and the result are `[px, py, pz, qx, qy, qz, qw]`.
#[inline(always)]
pub(crate) fn compose<T: Lane>(parent: &Frame, local: [T; 7]) -> [T; 7] {
    let s = T::splat;
    let m = &parent.m;
    let p = &parent.pose;
    let [lx, ly, lz, ax, ay, az, aw] = local;
    let (bx, by, bz, bw) = (s(p[3]), s(p[4]), s(p[5]), s(p[6]));
    [
        s(m[0]) * lx + s(m[1]) * ly + s(m[2]) * lz + s(p[0]),
        s(m[3]) * lx + s(m[4]) * ly + s(m[5]) * lz + s(p[1]),
        s(m[6]) * lx + s(m[7]) * ly + s(m[8]) * lz + s(p[2]),
        bw * ax + bx * aw + by * az - bz * ay,
        bw * ay - bx * az + by * aw + bz * ax,
        bw * az + bx * ay - by * ax + bz * aw,
        bw * aw - bx * ax - by * ay - bz * az,
    ]
}

/// Composes up to eight locals (lane-major: `locals[k][lane]`) under one parent.
#[inline]
pub(crate) fn compose8(parent: &Frame, locals: &[[f32; LANES]; 7]) -> [f32x8; 7] {
    compose(parent, locals.map(f32x8::new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn pose(p: Vec3, q: Quat) -> Pose {
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
    }

    #[test]
    fn matches_glam_and_simd_matches_scalar_bitwise() {
        let parent = pose(Vec3::new(1.0, -2.0, 3.5), Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0));
        let frame = Frame::new(parent);
        let mut locals = [[0.0f32; LANES]; 7];
        let mut scalar = Vec::new();
        for lane in 0..LANES {
            let t = lane as f32;
            let l = pose(Vec3::new(t, 1.0 - t, 0.5 * t), Quat::from_rotation_y(0.2 * t).normalize());
            for (column, v) in locals.iter_mut().zip(l) {
                column[lane] = v;
            }
            let w = compose(&frame, l);
            let (pq, pp) =
                (Quat::from_xyzw(parent[3], parent[4], parent[5], parent[6]), Vec3::from_slice(&parent));
            let want_p = pp + pq * Vec3::from_slice(&l);
            let want_q = pq * Quat::from_xyzw(l[3], l[4], l[5], l[6]);
            assert!(Vec3::from_slice(&w).abs_diff_eq(want_p, 1e-5));
            assert!(Quat::from_xyzw(w[3], w[4], w[5], w[6]).abs_diff_eq(want_q, 1e-6));
            scalar.push(w);
        }
        let wide = compose8(&frame, &locals).map(f32x8::to_array);
        for (lane, w) in scalar.iter().enumerate() {
            for (column, v) in wide.iter().zip(w) {
                assert_eq!(column[lane].to_bits(), v.to_bits());
            }
        }
    }
}
