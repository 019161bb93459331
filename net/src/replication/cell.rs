//! Streaming cells: the [`Cell`] of a world position ([`cell_of`], squares of
//! [`INTEREST_CELL_SIZE`] studs on X and Z), and [`CellChanges`], one capture's changed
//! instances grouped by cell, sorted, so a client reads the box of cells around its focus
//! with one binary search per row.
//!
//! Invariants: every cell lies within ±10^9 on each axis (a non-finite position is in cell
//! `(0, 0)`); a [`CellChanges`]'s `cells` is sorted by cell and holds each cell once; each
//! cell's ids are the slice of `ids` from the previous cell's end to its own.

use arbor_core::Id;
use glam::Vec3;

/// Side of a streaming cell, in studs (on X and Z).
pub const INTEREST_CELL_SIZE: f32 = 64.0;

/// A streaming cell: world X and Z divided by [`INTEREST_CELL_SIZE`], floored.
pub type Cell = (i32, i32);

/// The cell holding world position `p`.
pub fn cell_of(p: Vec3) -> Cell {
    let c = |v: f32| if v.is_finite() { (v / INTEREST_CELL_SIZE).floor().clamp(-1e9, 1e9) as i32 } else { 0 };
    (c(p.x), c(p.z))
}

/// Changed instances grouped by cell, the cells sorted by `(x, z)`: a client reads a box of
/// cells with one binary search per row of the box.
#[derive(Clone, Debug, Default)]
pub struct CellChanges {
    /// `(cell, end)`: the cell's ids are `ids[previous end..end]`.
    cells: Vec<(Cell, u32)>,
    ids: Vec<Id>,
}

impl CellChanges {
    /// Groups `(cell, id)` pairs by cell.
    pub fn new(mut pairs: Vec<(Cell, Id)>) -> CellChanges {
        pairs.sort_unstable_by_key(|&(c, _)| c);
        let mut cells: Vec<(Cell, u32)> = Vec::new();
        let mut ids = Vec::with_capacity(pairs.len());
        for (c, id) in pairs {
            ids.push(id);
            match cells.last_mut() {
                Some((last, end)) if *last == c => *end += 1,
                _ => cells.push((c, ids.len() as u32)),
            }
        }
        CellChanges { cells, ids }
    }

    /// Whether no cell changed.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// How many cells changed.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The changed cells with `x` in `xs` and `z` in `zs` (inclusive), with their ids.
    pub fn in_box(&self, xs: (i32, i32), zs: (i32, i32)) -> impl Iterator<Item = (Cell, &[Id])> + '_ {
        let start = self.cells.partition_point(|&(c, _)| c < (xs.0, zs.0));
        let mut at = start;
        std::iter::from_fn(move || {
            loop {
                let &((x, z), end) = self.cells.get(at)?;
                if x > xs.1 {
                    return None;
                }
                if z < zs.0 {
                    // Skip to this row's first cell in range.
                    at += self.cells[at..].partition_point(|&(c, _)| c < (x, zs.0));
                    continue;
                }
                if z > zs.1 {
                    if x == i32::MAX {
                        return None;
                    }
                    // Skip to the next row.
                    at += self.cells[at..].partition_point(|&(c, _)| c < (x + 1, zs.0));
                    continue;
                }
                let begin = if at == 0 { 0 } else { self.cells[at - 1].1 };
                at += 1;
                return Some(((x, z), &self.ids[begin as usize..end as usize]));
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Reading a box of cells finds exactly the changes a filter over all of them finds.
        #[test]
        fn cell_changes_in_a_box_are_exactly_the_changes_there(
            pairs in proptest::collection::vec(((-6i32..6, -6i32..6), 1u64..1000), 0..80),
            edges in proptest::collection::vec(-8i32..8, 4),
            extreme in proptest::bool::ANY,
        ) {
            let mut pairs: Vec<(Cell, Id)> = pairs.into_iter().map(|(c, id)| (c, Id(id))).collect();
            if extreme {
                pairs.push(((i32::MAX, i32::MAX), Id(5000)));
                pairs.push(((i32::MIN, i32::MIN), Id(5001)));
            }
            let changes = CellChanges::new(pairs.clone());
            let xs = (edges[0].min(edges[1]), if extreme { i32::MAX } else { edges[0].max(edges[1]) });
            let zs = (edges[2].min(edges[3]), if extreme { i32::MAX } else { edges[2].max(edges[3]) });
            let mut found: Vec<(Cell, Id)> =
                changes.in_box(xs, zs).flat_map(|(c, ids)| ids.iter().map(move |&id| (c, id))).collect();
            let mut want: Vec<(Cell, Id)> = pairs
                .into_iter()
                .filter(|&((x, z), _)| (xs.0..=xs.1).contains(&x) && (zs.0..=zs.1).contains(&z))
                .collect();
            found.sort();
            want.sort();
            proptest::prop_assert_eq!(found, want);
        }
    }
}
