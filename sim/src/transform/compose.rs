//! The arithmetic of the pass: `world = parent ∘ local` for a rigid transform, written once
//! over a generic lane type so the scalar path (`f32`) and the SIMD path (`wide::f32x8`, eight
//! siblings at a time) evaluate the very same expression tree.
//!
//! A batch enters lane-major and leaves node-major through 4×4 transposes
//! ([`Batch::push`] gathers eight nodes' locals, [`Batch::compose`] returns eight world
//! cells), so gathering and scattering cost a few shuffles per node rather than seven scalar
//! moves each way.
//!
//! Invariant: for any parent and local, [`compose`] over `f32` and over one lane of `f32x8`
//! give bit-identical results (same operations in the same order, and Rust never fuses a
//! multiply and an add on its own), so a node's world never depends on whether it was
//! computed in a batch, in a tail, or on which thread.

use super::PoseCell;
use arbor_core::LocalTransform;
use std::ops::{Add, Mul, Sub};
use wide::{f32x4, f32x8};

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
/// computed once per parent). `Frame<f32>` is one parent; `Frame<f32x8>` is eight parents,
/// one per lane, computed by the same expression so each lane equals the scalar frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<T = f32> {
    /// The parent's world pose.
    pub pose: [T; 7],
    /// Row-major rotation matrix of `pose`'s rotation (assumed unit length).
    pub m: [T; 9],
}

impl<T: Lane> Frame<T> {
    /// The frame of `pose`.
    #[inline(always)]
    pub fn new(pose: [T; 7]) -> Self {
        let one = T::splat(1.0);
        let [_, _, _, x, y, z, w] = pose;
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let m = [
            one - (yy + zz),
            xy - wz,
            xz + wy,
            xy + wz,
            one - (xx + zz),
            yz - wx,
            xz - wy,
            yz + wx,
            one - (xx + yy),
        ];
        Self { pose, m }
    }
}

impl Frame<f32> {
    /// This frame in every lane.
    #[inline(always)]
    pub fn splat<T: Lane>(&self) -> Frame<T> {
        let (p, m) = (&self.pose, &self.m);
        let s = T::splat;
        Frame {
            pose: [s(p[0]), s(p[1]), s(p[2]), s(p[3]), s(p[4]), s(p[5]), s(p[6])],
            m: [s(m[0]), s(m[1]), s(m[2]), s(m[3]), s(m[4]), s(m[5]), s(m[6]), s(m[7]), s(m[8])],
        }
    }
}

/// `parent ∘ local` for one lane type: `local` and the result are `[px, py, pz, qx, qy, qz, qw]`.
#[inline(always)]
pub(crate) fn compose<T: Lane>(parent: &Frame<T>, local: [T; 7]) -> [T; 7] {
    let m = &parent.m;
    let p = &parent.pose;
    let [lx, ly, lz, ax, ay, az, aw] = local;
    let (bx, by, bz, bw) = (p[3], p[4], p[5], p[6]);
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

/// A parent's frame as four-lane columns, for composing one child at a time with `f32x4`:
/// the child's position is `c[0] * lx + c[1] * ly + c[2] * lz + p` and its rotation
/// `b[0] * a + b[1] * a.wzyx + b[2] * a.zwxy + b[3] * a.yxwz` (`a` the local rotation),
/// lane by lane the very terms of [`compose`] in the same order (a subtracted product is
/// added with the parent's factor negated, which rounds to the same bits). So a world
/// computed here equals `compose::<f32>` bit for bit, for about a third of its instructions.
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
    /// The columns of `frame`.
    #[inline(always)]
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

    /// `parent ∘ local` as a cell (tag lane zero), bit-identical to [`compose`].
    #[inline(always)]
    pub fn compose(&self, local: &LocalTransform) -> PoseCell {
        let [lx, ly, lz] = local.position.to_array();
        let a = local.rotation.to_array();
        let c = &self.c;
        let pos = c[0] * f32x4::splat(lx) + c[1] * f32x4::splat(ly) + c[2] * f32x4::splat(lz) + self.p;
        let b = &self.b;
        let rot = b[0] * f32x4::new(a)
            + b[1] * f32x4::new([a[3], a[2], a[1], a[0]])
            + b[2] * f32x4::new([a[2], a[3], a[0], a[1]])
            + b[3] * f32x4::new([a[1], a[0], a[3], a[2]]);
        let (p, q) = (pos.to_array(), rot.to_array());
        PoseCell([p[0], p[1], p[2], q[0], q[1], q[2], q[3], 0.0])
    }
}

/// Composes up to eight locals (lane-major: `locals[k][lane]`) under one parent.
#[cfg(test)]
pub(crate) fn compose8(parent: &Frame, locals: &[[f32; LANES]; 7]) -> [f32x8; 7] {
    compose(&parent.splat(), locals.map(f32x8::new))
}

/// A local transform as two four-lane rows: `[px, py, pz, 0]` and `[qx, qy, qz, qw]`.
#[inline(always)]
pub(crate) fn local_rows(t: &LocalTransform) -> [f32x4; 2] {
    let p = t.position;
    [f32x4::new([p.x, p.y, p.z, 0.0]), f32x4::new(t.rotation.to_array())]
}

/// A local transform as a pose.
#[inline(always)]
pub(crate) fn local_pose(t: &LocalTransform) -> Pose {
    let (p, q) = (t.position, t.rotation);
    [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
}

/// Fewest lanes worth a SIMD batch: shorter tails (the ninth child of a parent, say) cost
/// less one lane at a time than a whole batch's transposes and splats.
pub(crate) const SIMD_MIN: usize = 3;

/// Up to eight siblings' locals, node-major, waiting to be composed together.
#[derive(Clone, Copy)]
pub(crate) struct Batch {
    /// `[px, py, pz, 0]` by lane.
    pos: [f32x4; LANES],
    /// `[qx, qy, qz, qw]` by lane.
    rot: [f32x4; LANES],
}

impl Batch {
    /// An empty batch (unused lanes hold zeros and are never stored).
    #[inline(always)]
    pub fn new() -> Self {
        Self { pos: [f32x4::ZERO; LANES], rot: [f32x4::ZERO; LANES] }
    }

    /// Puts `local` in lane `lane`.
    #[inline(always)]
    pub fn set(&mut self, lane: usize, local: &LocalTransform) {
        let [p, q] = local_rows(local);
        self.pos[lane] = p;
        self.rot[lane] = q;
    }

    /// The worlds of the first `n` lanes under `parent`, as cells (later lanes hold
    /// whatever): SIMD (`f32x8`), or one lane at a time (`f32`) when `simd` is off or the
    /// batch is a short tail ([`SIMD_MIN`]), bit-identical either way.
    #[inline(always)]
    pub fn compose(&self, parent: &Frame, simd: bool, n: usize) -> [PoseCell; LANES] {
        let mut out = [PoseCell::IDENTITY; LANES];
        if !simd || n < SIMD_MIN {
            for (lane, cell) in out.iter_mut().enumerate().take(n) {
                *cell = PoseCell::new(&compose::<f32>(parent, self.lane(lane)));
            }
            return out;
        }
        cells(compose(&parent.splat(), self.columns()))
    }

    /// Lane `lane`'s local as a pose.
    #[inline(always)]
    fn lane(&self, lane: usize) -> Pose {
        let (p, q) = (self.pos[lane].to_array(), self.rot[lane].to_array());
        [p[0], p[1], p[2], q[0], q[1], q[2], q[3]]
    }

    /// The locals lane-major: `[px, py, pz, qx, qy, qz, qw]`, one `f32x8` each.
    #[inline(always)]
    fn columns(&self) -> [f32x8; 7] {
        let (p0, p1) = (transpose4(&self.pos, 0), transpose4(&self.pos, 4));
        let (q0, q1) = (transpose4(&self.rot, 0), transpose4(&self.rot, 4));
        [
            join(p0[0], p1[0]),
            join(p0[1], p1[1]),
            join(p0[2], p1[2]),
            join(q0[0], q1[0]),
            join(q0[1], q1[1]),
            join(q0[2], q1[2]),
            join(q0[3], q1[3]),
        ]
    }
}

/// Rows `from .. from + 4` of `rows`, transposed.
#[inline(always)]
fn transpose4(rows: &[f32x4; LANES], from: usize) -> [f32x4; 4] {
    f32x4::transpose([rows[from], rows[from + 1], rows[from + 2], rows[from + 3]])
}

/// Lanes 0–3 from `a`, 4–7 from `b`.
#[inline(always)]
fn join(a: f32x4, b: f32x4) -> f32x8 {
    bytemuck::cast([a, b])
}

/// Lane-major worlds back to one cell per lane.
#[inline(always)]
fn cells(worlds: [f32x8; 7]) -> [PoseCell; LANES] {
    let w: [[f32x4; 2]; 7] = bytemuck::cast(worlds);
    let mut out = [PoseCell::IDENTITY; LANES];
    for h in 0..2 {
        let a = f32x4::transpose([w[0][h], w[1][h], w[2][h], w[3][h]]);
        let b = f32x4::transpose([w[4][h], w[5][h], w[6][h], f32x4::ZERO]);
        for k in 0..4 {
            out[h * 4 + k] = PoseCell::from_rows(a[k], b[k]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn pose(p: Vec3, q: Quat) -> Pose {
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w]
    }

    /// Lane-major locals back to one pose per lane.
    fn scalar_locals(locals: &[[f32; LANES]; 7]) -> [[f32; 7]; LANES] {
        std::array::from_fn(|lane| std::array::from_fn(|k| locals[k][lane]))
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
        // The transposing batch gives the same bits, in cells, SIMD or not.
        let mut batch = Batch::new();
        for (lane, l) in scalar_locals(&locals).into_iter().enumerate() {
            let t = LocalTransform { position: Vec3::from_slice(&l), rotation: Quat::from_slice(&l[3..]) };
            assert_eq!(local_pose(&t), l);
            batch.set(lane, &t);
        }
        for simd in [true, false] {
            for (cell, w) in batch.compose(&frame, simd, LANES).iter().zip(&scalar) {
                assert_eq!(cell.pose().map(f32::to_bits), w.map(f32::to_bits));
                assert_eq!(cell.0[7], 0.0);
            }
        }
        // One child at a time in four lanes: the same bits again.
        let four = Frame4::new(&frame);
        for l in &scalar_locals(&locals) {
            let t = LocalTransform { position: Vec3::from_slice(l), rotation: Quat::from_slice(&l[3..]) };
            let want = compose::<f32>(&frame, *l);
            assert_eq!(four.compose(&t).pose().map(f32::to_bits), want.map(f32::to_bits));
        }
        // A short tail is composed one lane at a time, to the same bits.
        for (cell, w) in batch.compose(&frame, true, SIMD_MIN - 1).iter().zip(&scalar).take(SIMD_MIN - 1) {
            assert_eq!(cell.pose().map(f32::to_bits), w.map(f32::to_bits));
        }
    }
}
