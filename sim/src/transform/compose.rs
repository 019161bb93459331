//! The arithmetic of the pass: `world = parent ∘ local` for a rigid transform, in two forms
//! that give the same bits: [`compose`] over `f32` (the scalar path) and [`Frame4`], one node
//! at a time in four lanes of `wide::f32x4` (the SIMD path: the rotation-matrix columns
//! and the parent's quaternion spread per term, prepared once per parent straight from the
//! parent's pose by [`Frame4::of`]; [`Frame4::new`] builds one through a [`Frame`]).
//!
//! Invariant: for any parent and local, [`compose`] and [`Frame4::compose`] (under a frame
//! from [`Frame4::new`] or [`Frame4::of`]) give
//! bit-identical results (lane by lane the same operations in the same order, a subtracted
//! product added with a negated factor, which rounds the same; Rust never fuses a multiply
//! and an add on its own), so a node's world never depends on the path, the route or the
//! thread that computed it.

use super::PoseCell;
use arbor_core::LocalTransform;
use std::ops::{Add, Mul, Sub};
use wide::f32x4;

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
    #[inline(always)]
    pub fn new(pose: Pose) -> Self {
        let [_, _, _, x, y, z, w] = pose;
        Self { pose, m: rotation_matrix(1.0, [x, y, z, w]) }
    }
}

/// Lane arithmetic shared by the scalar path (`f32`) and the four-roots path (`f32x4`, one
/// root per lane), so both run the very same operations in the same order.
pub(crate) trait Lanes: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {}

impl<T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>> Lanes for T {}

/// The row-major rotation matrix of the unit quaternion `[x, y, z, w]` (`one` is 1 in
/// every lane).
#[inline(always)]
pub(crate) fn rotation_matrix<T: Lanes>(one: T, [x, y, z, w]: [T; 4]) -> [T; 9] {
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    [one - (yy + zz), xy - wz, xz + wy, xy + wz, one - (xx + zz), yz - wx, xz - wy, yz + wx, one - (xx + yy)]
}

/// `parent ∘ local` term by term: the parent's rotation matrix `m`, position `p` and
/// rotation `b` (`[x, y, z, w]`) applied to `local` (`[px, py, pz, qx, qy, qz, qw]`).
#[inline(always)]
pub(crate) fn compose_terms<T: Lanes>(m: &[T; 9], p: [T; 3], b: [T; 4], local: [T; 7]) -> [T; 7] {
    let [lx, ly, lz, ax, ay, az, aw] = local;
    let [bx, by, bz, bw] = b;
    [
        m[0] * lx + m[1] * ly + m[2] * lz + p[0],
        m[3] * lx + m[4] * ly + m[5] * lz + p[1],
        m[6] * lx + m[7] * ly + m[8] * lz + p[2],
        bw * ax + bx * aw + by * az - bz * ay,
        bw * ay - bx * az + by * aw + bz * ax,
        bw * az + bx * ay - by * ax + bz * aw,
        bw * aw - bx * ax - by * ay - bz * az,
    ]
}

/// `parent ∘ local`: `local` and the result are `[px, py, pz, qx, qy, qz, qw]`.
#[inline(always)]
pub(crate) fn compose(parent: &Frame, local: Pose) -> Pose {
    let p = &parent.pose;
    compose_terms(&parent.m, [p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]], local)
}

/// A parent's frame as four-lane columns, for composing one child at a time with `f32x4`:
/// the child's position is `c[0] * lx + c[1] * ly + c[2] * lz + p` and its rotation
/// `b[0] * a + b[1] * a.wzyx + b[2] * a.zwxy + b[3] * a.yxwz` (`a` the local rotation),
/// lane by lane the very terms of [`compose`] in the same order (a subtracted product is
/// added with the parent's factor negated, which rounds to the same bits). So a world
/// computed here equals `compose` bit for bit, for about a third of its instructions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame4 {
    /// Columns of the rotation matrix: `[m0, m3, m6, 0]`, `[m1, m4, m7, 0]`, `[m2, m5, m8, 0]`.
    c: [f32x4; 3],
    /// The parent's position, `[px, py, pz, 0]`.
    p: f32x4,
    /// The parent's rotation `(bx, by, bz, bw)` spread per term: `[bw; 4]`,
    /// `[bx, -bx, bx, -bx]`, `[by, by, -by, -by]`, `[-bz, bz, bz, -bz]`.
    b: [f32x4; 4],
}

impl Frame4 {
    /// The columns of `frame` (the plain form [`of`](Self::of) is tested against).
    #[cfg(test)]
    pub fn new(frame: &Frame) -> Self {
        let (m, p) = (&frame.m, &frame.pose);
        let (bx, by, bz, bw) = (p[3], p[4], p[5], p[6]);
        Self {
            c: [
                f32x4::new([m[0], m[3], m[6], 0.0]),
                f32x4::new([m[1], m[4], m[7], 0.0]),
                f32x4::new([m[2], m[5], m[8], 0.0]),
            ],
            p: f32x4::new([p[0], p[1], p[2], 0.0]),
            b: [
                f32x4::splat(bw),
                f32x4::new([bx, -bx, bx, -bx]),
                f32x4::new([by, by, -by, -by]),
                f32x4::new([-bz, bz, bz, -bz]),
            ],
        }
    }

    /// The columns of `pose`'s frame straight from the pose, bit-identical to
    /// `Frame4::new(&Frame::new(pose))` in fewer instructions: each matrix column is two
    /// lane-shuffled products of the rotation and its double, added in four lanes (a
    /// subtracted product is added with a negated factor: `w * -y2` is `-(w * y2)` and
    /// `a - b` is `a + -b`, bit for bit), and a column's `1 - (a + b)` lane comes from adding
    /// the column, negated in that lane, to `[1, -0, -0, -0]` (adding `-0.0` changes no value,
    /// signed zeros included).
    #[inline(always)]
    pub fn of(pose: &Pose) -> Self {
        let q = f32x4::new([pose[3], pose[4], pose[5], pose[6]]);
        let d = q + q;
        let [x, y, z, w] = q.to_array();
        let [x2, y2, z2, _] = d.to_array();
        let v = f32x4::new;
        let neg = |a: f32x4, signs: [f32; 4]| a * v(signs);
        let s0 = v([y, x, x, w]) * v([y2, y2, z2, z2])
            + v([z, w, w, w]) * neg(v([z2, z2, y2, y2]), [1.0, 1.0, -1.0, 1.0]);
        let s1 = v([x, x, y, w]) * v([y2, x2, z2, z2])
            + v([w, z, w, w]) * neg(v([z2, z2, x2, x2]), [-1.0, 1.0, 1.0, 1.0]);
        let s2 = v([x, y, x, w]) * v([z2, z2, x2, x2])
            + v([w, w, y, y]) * neg(v([y2, x2, y2, y2]), [1.0, -1.0, 1.0, 1.0]);
        let (z0, one) = (-0.0, 1.0);
        Self {
            c: [
                v([one, z0, z0, z0]) + s0 * v([-1.0, 1.0, 1.0, 1.0]),
                v([z0, one, z0, z0]) + s1 * v([1.0, -1.0, 1.0, 1.0]),
                v([z0, z0, one, z0]) + s2 * v([1.0, 1.0, -1.0, 1.0]),
            ],
            p: v([pose[0], pose[1], pose[2], 0.0]),
            b: [
                f32x4::splat(w),
                f32x4::splat(x) * v([1.0, -1.0, 1.0, -1.0]),
                f32x4::splat(y) * v([1.0, 1.0, -1.0, -1.0]),
                f32x4::splat(z) * v([-1.0, 1.0, 1.0, -1.0]),
            ],
        }
    }

    /// `parent ∘ local` as a cell (tag lane zero), bit-identical to [`compose`].
    #[inline(always)]
    pub fn compose(&self, local: &LocalTransform) -> PoseCell {
        let (pos, rot) = self.world(local);
        PoseCell::of_vectors(pos, rot, 0)
    }

    /// `parent ∘ local` as two vectors: the position in the first three lanes (the fourth
    /// is no part of the world) and the rotation `[x, y, z, w]`; bit-identical to
    /// [`compose`].
    #[inline(always)]
    pub fn world(&self, local: &LocalTransform) -> (f32x4, f32x4) {
        let [lx, ly, lz] = local.position.to_array();
        let a = local.rotation.to_array();
        let c = &self.c;
        let pos = c[0] * f32x4::splat(lx) + c[1] * f32x4::splat(ly) + c[2] * f32x4::splat(lz) + self.p;
        let b = &self.b;
        let rot = b[0] * f32x4::new(a)
            + b[1] * f32x4::new([a[3], a[2], a[1], a[0]])
            + b[2] * f32x4::new([a[2], a[3], a[0], a[1]])
            + b[3] * f32x4::new([a[1], a[0], a[3], a[2]]);
        (pos, rot)
    }
}

/// `parent ∘ local` as a cell (tag lane zero): in four lanes ([`Frame4`]) when `simd`, else
/// by [`compose`] over `f32`; the same bits either way.
#[inline(always)]
pub(crate) fn compose_cell(parent: &Frame, local: &LocalTransform, simd: bool) -> PoseCell {
    if simd {
        Frame4::of(&parent.pose).compose(local)
    } else {
        PoseCell::new(&compose(parent, local_pose(local)))
    }
}

/// A local transform as a pose.
#[inline(always)]
pub(crate) fn local_pose(t: &LocalTransform) -> Pose {
    let (p, q) = (t.position, t.rotation);
    [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{EulerRot, Quat, Vec3};
    use proptest::prelude::*;

    fn pose(p: Vec3, q: Quat) -> Pose {
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
    }

    fn transform(p: Vec3, q: Quat) -> LocalTransform {
        LocalTransform { position: p, rotation: q }
    }

    fn vec3() -> impl Strategy<Value = Vec3> {
        (-1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn quat() -> impl Strategy<Value = Quat> {
        (-7f32..7.0, -7f32..7.0, -7f32..7.0).prop_map(|(a, b, c)| Quat::from_euler(EulerRot::YXZ, a, b, c))
    }

    /// Signed zeros and exact values, which random floats seldom hit: the four-lane frame
    /// built straight from the pose gives the scalar bits there too.
    #[test]
    fn frame_of_pose_matches_scalar_on_signed_zeros() {
        let vals = [0.0f32, -0.0, 1.0, -1.0, 0.5];
        let locals = [
            transform(Vec3::ZERO, Quat::IDENTITY),
            transform(Vec3::new(-0.0, 0.0, -0.0), Quat::from_xyzw(-0.0, 0.0, -0.0, -1.0)),
            transform(Vec3::new(1.0, -2.0, 0.0), Quat::from_xyzw(0.5, -0.5, 0.5, 0.5)),
        ];
        for &x in &vals {
            for &y in &vals {
                for &z in &vals {
                    for &w in &vals {
                        for p in [Vec3::ZERO, Vec3::new(-0.0, -0.0, -0.0), Vec3::new(3.0, -0.0, 1.5)] {
                            let parent = [p.x, p.y, p.z, x, y, z, w];
                            for local in &locals {
                                let scalar = compose(&Frame::new(parent), local_pose(local));
                                let four = Frame4::of(&parent).compose(local);
                                assert_eq!(four.pose().map(f32::to_bits), scalar.map(f32::to_bits));
                            }
                        }
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn matches_glam_and_four_lanes_match_scalar_bitwise(pp in vec3(), pq in quat(), lp in vec3(), lq in quat()) {
            let frame = Frame::new(pose(pp, pq));
            let w = compose(&frame, pose(lp, lq));
            let tol = 1e-5 * (pp.abs().max_element() + lp.abs().max_element()).max(1.0);
            prop_assert!(Vec3::from_slice(&w).abs_diff_eq(pp + pq * lp, tol));
            prop_assert!(Quat::from_slice(&w[3..]).abs_diff_eq(pq * lq, 1e-5));
            let cell = Frame4::new(&frame).compose(&transform(lp, lq));
            prop_assert_eq!(cell.pose().map(f32::to_bits), w.map(f32::to_bits));
            let cell = Frame4::of(&pose(pp, pq)).compose(&transform(lp, lq));
            prop_assert_eq!(cell.pose().map(f32::to_bits), w.map(f32::to_bits));
            prop_assert_eq!(cell.0[7], 0.0);
            for simd in [true, false] {
                let cell = compose_cell(&frame, &transform(lp, lq), simd);
                prop_assert_eq!(cell.pose().map(f32::to_bits), w.map(f32::to_bits));
            }
        }
    }
}
