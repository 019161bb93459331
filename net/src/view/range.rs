//! The streaming range of a [`ClientView`]: which cells a focus sees (enter within the
//! radius, stay within the radius plus [`STREAMING_HYSTERESIS`]), the join (the mirror's
//! structure and the units of the cells in range) and the refocus (the units of the strips
//! a focus move adds and drops), each looking at the cells in range or at the mirror's
//! occupied cells, whichever are fewer.

use super::{ClientView, STREAMING_HYSTERESIS};
use crate::mirror::{Cell, INTEREST_CELL_SIZE, Mirror};
use arbor_core::{Arena, Id};
use arbor_sim::physics::WORLD_EXTENT;
use glam::Vec3;

impl ClientView {
    /// Whether a unit in `cell` enters the view (within the radius of the focus).
    pub(super) fn in_view(&self, cell: Cell) -> bool {
        self.in_view_of(self.focus_cell, cell)
    }

    /// Whether `cell` is within the radius of a focus in cell `centre`: where units enter.
    pub(super) fn in_view_of(&self, centre: Cell, cell: Cell) -> bool {
        within(centre, cell, f64::from(self.radius))
    }

    /// Whether a held unit in `cell` stays held with a focus in cell `centre`: within the
    /// radius plus [`STREAMING_HYSTERESIS`].
    pub(super) fn kept_by(&self, centre: Cell, cell: Cell) -> bool {
        within(centre, cell, f64::from(self.radius) + f64::from(STREAMING_HYSTERESIS))
    }

    /// The range in cells on each axis: a cell farther than this from the focus's cell is
    /// out of range. Cells lie within ±10^9 (see [`cell_of`]), so a larger radius is capped
    /// where it already covers every cell.
    pub(super) fn cell_radius(&self) -> i64 {
        ((f64::from(self.radius) + f64::from(STREAMING_HYSTERESIS)) / f64::from(INTEREST_CELL_SIZE))
            .ceil()
            .min(4e9) as i64
            + 1
    }

    /// The first update: records for every piece of structure and for the units in range
    /// with their subtrees, each queued by its distance (nearest first). Looks at the cells
    /// in range or at the mirror's occupied cells, whichever are fewer, so a join costs
    /// what the client will hold, not what the place holds.
    pub(super) fn join(&mut self, arena: &Arena, mirror: &Mirror) {
        self.joined = true;
        self.view_changed = None;
        // Structure's parent is structure or the DataModel: every parent gets its record.
        for id in mirror.structure() {
            if let Some(e) = mirror.get(id) {
                self.add_record(mirror, id, e);
            }
        }
        let centre = self.focus_cell;
        let area = CellBox::around(centre, centre, self.cell_radius());
        let mut units = Vec::new();
        if area.cells() <= mirror.occupied_cells() as u64 {
            for c in area.iter().filter(|&c| self.in_view(c)) {
                units.extend(mirror.units_in(c));
            }
        } else {
            for (c, in_cell) in mirror.occupied() {
                if self.in_view(c) {
                    units.extend(in_cell.iter().copied());
                }
            }
        }
        for unit in units {
            self.consider_subtree(arena, mirror, unit);
        }
    }

    /// Streams units in and out after the focus moved from cell `old`. Looks at the cells in
    /// range before or after (the box around both ranges when they overlap, each range's box
    /// when they do not), or at the mirror's occupied cells when those are fewer.
    pub(super) fn refocus(&mut self, arena: &Arena, mirror: &Mirror, old: Cell) {
        let new = self.focus_cell;
        let r = self.cell_radius();
        let (before, after) = (CellBox::around(old, old, r), CellBox::around(new, new, r));
        let boxes =
            if before.overlaps(&after) { vec![CellBox::around(old, new, r)] } else { vec![before, after] };
        let walk: u64 = boxes.iter().map(CellBox::cells).fold(0, u64::saturating_add);
        let mut leaving = Vec::new();
        let mut entering = Vec::new();
        let mut looked = 0u64;
        // Units within the radius of the old focus are held, units past the kept range of
        // the old focus are not: only the two strips between need a look.
        let mut classify = |view: &Self, c: Cell, units: &mut dyn Iterator<Item = Id>| {
            if view.kept_by(old, c) && !view.kept_by(new, c) {
                leaving.extend(units);
            } else if view.in_view_of(new, c) && !view.in_view_of(old, c) {
                entering.extend(units);
            }
        };
        if walk <= mirror.occupied_cells() as u64 {
            for area in &boxes {
                for c in area.iter() {
                    looked += 1;
                    classify(self, c, &mut mirror.units_in(c));
                }
            }
        } else {
            for (c, units) in mirror.occupied() {
                looked += 1;
                classify(self, c, &mut units.iter().copied());
            }
        }
        self.stats.refocuses += 1;
        self.stats.refocus_cells += looked;
        for unit in leaving {
            self.stream_out(arena, unit);
        }
        for unit in entering {
            self.consider_subtree(arena, mirror, unit);
        }
    }
}

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

    /// Its x and z ranges clipped to `i32` (no cell lies outside, see [`cell_of`]).
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
