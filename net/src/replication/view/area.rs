//! Cell geometry of the streaming range: whether a cell is within a radius of a focus's
//! cell ([`within`]), the clamp of a focus to the world ([`clamp_focus`]), and [`CellBox`],
//! an inclusive box of cells in `i64` that never overflows and can be walked row by row.
//!
//! Invariant: distances are worked out cell to cell in `f64`, so cells far out and radii
//! past `f32`'s squares stay exact enough; a box's cells are clipped to `i32` when walked.

use crate::replication::cell::{Cell, INTEREST_CELL_SIZE};
use arbor_sim::physics::WORLD_EXTENT;
use glam::Vec3;

/// Whether `cell` is within `r` studs of a focus in cell `centre`, cell to cell (in f64:
/// cells far out and radii past f32's squares stay exact enough).
pub(super) fn within(centre: Cell, cell: Cell, r: f64) -> bool {
    let dx = (i64::from(cell.0) - i64::from(centre.0)) as f64 * f64::from(INTEREST_CELL_SIZE);
    let dz = (i64::from(cell.1) - i64::from(centre.1)) as f64 * f64::from(INTEREST_CELL_SIZE);
    dx * dx + dz * dz <= r * r
}

/// `focus` with every axis clamped to ±[`WORLD_EXTENT`], or `None` if an axis is NaN or
/// infinite.
pub(super) fn clamp_focus(focus: Vec3) -> Option<Vec3> {
    focus.is_finite().then(|| focus.clamp(Vec3::splat(-WORLD_EXTENT), Vec3::splat(WORLD_EXTENT)))
}

/// An inclusive box of cells, in i64 so no corner overflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CellBox {
    x: (i64, i64),
    z: (i64, i64),
}

impl CellBox {
    /// The box around cells `a` and `b`, `r` cells wider on every side.
    pub(super) fn around(a: Cell, b: Cell, r: i64) -> CellBox {
        let span = |p: i32, q: i32| (i64::from(p.min(q)) - r, i64::from(p.max(q)) + r);
        CellBox { x: span(a.0, b.0), z: span(a.1, b.1) }
    }

    /// How many cells it holds (saturating).
    pub(super) fn cells(&self) -> u64 {
        let len = |(lo, hi): (i64, i64)| (hi - lo + 1) as u64;
        len(self.x).saturating_mul(len(self.z))
    }

    pub(super) fn overlaps(&self, other: &CellBox) -> bool {
        let meet = |a: (i64, i64), b: (i64, i64)| a.0 <= b.1 && b.0 <= a.1;
        meet(self.x, other.x) && meet(self.z, other.z)
    }

    /// How many rows (values of x) it spans.
    pub(super) fn rows(&self) -> u64 {
        (self.x.1 - self.x.0 + 1) as u64
    }

    /// Its x and z ranges clipped to `i32` (no cell lies outside, see
    /// [`cell_of`](crate::replication::cell::cell_of)).
    pub(super) fn clipped(&self) -> ((i32, i32), (i32, i32)) {
        let clip =
            |(lo, hi): (i64, i64)| (lo.max(i64::from(i32::MIN)) as i32, hi.min(i64::from(i32::MAX)) as i32);
        (clip(self.x), clip(self.z))
    }

    /// Its cells, row by row; only called on a box small enough to walk. Cells outside
    /// `i32` are skipped.
    pub(super) fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        let ((x0, x1), (z0, z1)) = self.clipped();
        (x0..=x1).flat_map(move |x| (z0..=z1).map(move |z| (x, z)))
    }
}
