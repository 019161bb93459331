//! The streaming range of a [`ClientView`]: which cells a focus sees (enter within the
//! radius, stay within the radius plus [`STREAMING_HYSTERESIS`]), the join (the mirror's
//! structure and the units of the cells in range) and the refocus (the units of the strips
//! a focus move adds and drops), each looking at the cells in range or at the mirror's
//! occupied cells, whichever are fewer.

use super::area::{CellBox, within};
use super::{ClientView, STREAMING_HYSTERESIS};
use crate::replication::cell::{Cell, INTEREST_CELL_SIZE};
use crate::replication::mirror::Mirror;
use arbor_core::{Arena, Id};

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
    /// out of range. Cells lie within ±10^9 (see
    /// [`cell_of`](crate::replication::cell::cell_of)), so a larger radius is capped where it
    /// already covers every cell.
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
