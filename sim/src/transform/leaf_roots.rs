//! Four dirty roots composed at once, one per lane: the short-list route's leaf roots (see
//! `sparse`) each have a parent of their own, so the one-node-in-four-lanes form
//! ([`Frame4`](super::compose::Frame4)) spends most of its instructions building a frame
//! used once. Here the four parents' cells and the four locals are transposed into
//! columns (lane `k` is root `k`), and the scalar expression of [`Frame::new`] and
//! [`compose`] runs on whole columns, then the results are transposed back into cells.
//!
//! Invariant: lane `k` of [`compose_four`] performs exactly the operations of
//! `compose(&Frame::new(parent_k), local_k)`, in the same order, on `f32` lanes (IEEE
//! single precision, no fused multiply-add), so every world is bit-identical to the scalar
//! reference whichever lane, batch or route computed it. The transposes only move bits.
//!
//! [`Frame::new`]: super::compose::Frame::new
//! [`compose`]: super::compose::compose

use super::PoseCell;
use super::compose::{compose_terms, rotation_matrix};
use arbor_core::LocalTransform;
use wide::f32x4;

/// Four 4-lane rows transposed into four columns: `out[j][k] == rows[k][j]`.
#[inline(always)]
fn transpose(rows: [f32x4; 4]) -> [f32x4; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128, _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
        let [r0, r1, r2, r3] = rows.map(bytemuck::cast::<f32x4, __m128>);
        // SAFETY: these intrinsics only shuffle register lanes (no memory access), and SSE,
        // which provides them, is part of the x86-64 baseline, so it is always available.
        let cols = unsafe {
            // The usual SSE 4×4 transpose.
            let t0 = _mm_unpacklo_ps(r0, r1); // r0.0 r1.0 r0.1 r1.1
            let t1 = _mm_unpacklo_ps(r2, r3); // r2.0 r3.0 r2.1 r3.1
            let t2 = _mm_unpackhi_ps(r0, r1); // r0.2 r1.2 r0.3 r1.3
            let t3 = _mm_unpackhi_ps(r2, r3); // r2.2 r3.2 r2.3 r3.3
            [_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2)]
        };
        cols.map(bytemuck::cast::<__m128, f32x4>)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let r = rows.map(f32x4::to_array);
        std::array::from_fn(|j| f32x4::new([r[0][j], r[1][j], r[2][j], r[3][j]]))
    }
}

/// `rows`, unchanged, but opaque to the optimiser: without this LLVM folds the output
/// transposes into one lane extraction and one scalar store per float (seven per cell
/// instead of two vector stores, and more instructions than the transposes).
#[inline(always)]
fn opaque(rows: [f32x4; 4]) -> [f32x4; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__m128;
        let [mut a, mut b, mut c, mut d] = rows.map(bytemuck::cast::<f32x4, __m128>);
        // SAFETY: the assembly is empty: it reads and writes nothing, and leaves the four
        // registers as they were; it only hides their values from the optimiser.
        unsafe {
            std::arch::asm!(
                "/* {0} {1} {2} {3} */",
                inout(xmm_reg) a,
                inout(xmm_reg) b,
                inout(xmm_reg) c,
                inout(xmm_reg) d,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        [a, b, c, d].map(bytemuck::cast::<__m128, f32x4>)
    }
    #[cfg(not(target_arch = "x86_64"))]
    rows
}

/// The first and second halves of a cell as rows.
#[inline(always)]
fn halves(cell: &PoseCell) -> (f32x4, f32x4) {
    let c = &cell.0;
    (f32x4::new([c[0], c[1], c[2], c[3]]), f32x4::new([c[4], c[5], c[6], c[7]]))
}

/// The four locals as columns: position x, y, z, rotation x, y, z, w.
#[inline(always)]
fn local_columns(locals: [&LocalTransform; 4]) -> [f32x4; 7] {
    let l = locals.map(|t| {
        let (v, q) = (t.position, t.rotation);
        (f32x4::new([v.x, v.y, v.z, 0.0]), f32x4::from(q.to_array()))
    });
    let [lx, ly, lz, _] = transpose([l[0].0, l[1].0, l[2].0, l[3].0]);
    let [ax, ay, az, aw] = transpose([l[0].1, l[1].1, l[2].1, l[3].1]);
    [lx, ly, lz, ax, ay, az, aw]
}

/// Four parents' frames in columns (lane `k` for root `k`):
/// the rotation matrix `m` of [`Frame`](super::compose::Frame), the position and the
/// rotation.
#[derive(Clone, Copy)]
pub(crate) struct Frames {
    m: [f32x4; 9],
    p: [f32x4; 3],
    /// Rotation x, y, z, w.
    b: [f32x4; 4],
}

impl Frames {
    /// The frames of four parents' cells: `Frame::new` term for term in every lane.
    #[inline(always)]
    fn of_cells(parents: [&PoseCell; 4]) -> Self {
        let p = parents.map(halves);
        let [px, py, pz, x] = transpose([p[0].0, p[1].0, p[2].0, p[3].0]);
        let [y, z, w, _] = transpose([p[0].1, p[1].1, p[2].1, p[3].1]);
        let m = rotation_matrix(f32x4::splat(1.0), [x, y, z, w]);
        Self { m, p: [px, py, pz], b: [x, y, z, w] }
    }

    /// `frame_k ∘ local_k` in every lane, as the two halves of each cell with `tags[k]` in
    /// the tag lane: `compose` term for term.
    #[inline(always)]
    pub fn compose(&self, locals: [&LocalTransform; 4], tags: [u32; 4]) -> [[f32x4; 2]; 4] {
        let out = compose_terms(&self.m, self.p, self.b, local_columns(locals));
        let tags: f32x4 = bytemuck::cast(tags);
        let lo = opaque(transpose([out[0], out[1], out[2], out[3]]));
        let hi = opaque(transpose([out[4], out[5], out[6], tags]));
        std::array::from_fn(|k| [lo[k], hi[k]])
    }
}

/// `parent_k ∘ local_k` for the four roots, as the two halves of each cell with `tags[k]`
/// in the tag lane: lane by lane the scalar `compose(&Frame::new(parent), local)`, bit for
/// bit.
#[inline(always)]
pub(crate) fn compose_four(
    parents: [&PoseCell; 4],
    locals: [&LocalTransform; 4],
    tags: [u32; 4],
) -> [[f32x4; 2]; 4] {
    Frames::of_cells(parents).compose(locals, tags)
}

#[cfg(test)]
mod tests {
    use super::super::compose::{Frame, compose, local_pose};
    use super::*;
    use glam::{EulerRot, Quat, Vec3};
    use proptest::prelude::*;

    fn vec3() -> impl Strategy<Value = Vec3> {
        (-1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn quat() -> impl Strategy<Value = Quat> {
        (-7f32..7.0, -7f32..7.0, -7f32..7.0).prop_map(|(a, b, c)| Quat::from_euler(EulerRot::YXZ, a, b, c))
    }

    fn root() -> impl Strategy<Value = (PoseCell, LocalTransform)> {
        (vec3(), quat(), vec3(), quat()).prop_map(|(pp, pq, lp, lq)| {
            let mut cell = PoseCell::new(&[pp.x, pp.y, pp.z, pq.x, pq.y, pq.z, pq.w]);
            cell.set_tag(0xdead_beef);
            (cell, LocalTransform { position: lp, rotation: lq })
        })
    }

    fn check(roots: &[(PoseCell, LocalTransform); 4]) {
        let tags = [7, u32::MAX, 0, 0x8000_0001];
        let rows =
            compose_four(std::array::from_fn(|k| &roots[k].0), std::array::from_fn(|k| &roots[k].1), tags);
        let cells: [PoseCell; 4] = rows.map(bytemuck::cast);
        for (k, (_, local)) in roots.iter().enumerate() {
            let scalar = compose(&Frame::new(roots[k].0.pose()), local_pose(local));
            assert_eq!(cells[k].pose().map(f32::to_bits), scalar.map(f32::to_bits), "lane {k}");
            assert_eq!(cells[k].tag(), tags[k], "lane {k}: tag lane");
        }
    }

    /// Signed zeros and exact values, which random floats seldom hit.
    #[test]
    fn matches_scalar_on_signed_zeros() {
        let vals = [0.0f32, -0.0, 1.0, -1.0, 0.5];
        let mut roots = Vec::new();
        for &x in &vals {
            for &y in &vals {
                for &z in &vals {
                    for &w in &vals {
                        let cell = PoseCell::new(&[3.0, -0.0, 1.5, x, y, z, w]);
                        let local = LocalTransform {
                            position: Vec3::new(-0.0, 0.0, -2.0),
                            rotation: Quat::from_xyzw(-0.0, 0.5, -0.0, -1.0),
                        };
                        roots.push((cell, local));
                    }
                }
            }
        }
        for four in roots.chunks_exact(4) {
            check(&[four[0], four[1], four[2], four[3]]);
        }
    }

    proptest! {
        #[test]
        fn four_lanes_match_scalar_bitwise(a in root(), b in root(), c in root(), d in root()) {
            check(&[a, b, c, d]);
        }
    }
}
