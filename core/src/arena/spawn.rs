//! Batch spawning ([`Arena::spawn_batch`]): instances with POD component bundles streamed
//! from an iterator, their rows staged in the table tile by tile and committed once the
//! instances exist (see `components::stage`).
//!
//! Invariant: a refused batch (including one with more bundles than the node limit leaves
//! room for, or a panicking iterator) changes nothing: its staged rows are dropped, and the
//! table if the batch created it.

use super::Arena;
use crate::class::Class;
use crate::components::{ComponentId, PodBundle, Table};
use crate::error::ArenaError;
use crate::id::Id;
use smallvec::SmallVec;

impl Arena {
    /// Creates one instance of `class` named `name` under `parent` (or detached) per bundle,
    /// with the bundle's POD components (and, with defaults, the components they require),
    /// and returns their ids in order. Nodes are created as by
    /// [`create_batch`](Self::create_batch). Bundles stream from the iterator in tiles
    /// small enough to stay in cache, and their rows are staged in the table lane by lane
    /// (each column's chunks copied or created once for the whole batch), then committed once
    /// the instances exist. A batch that cannot be created (including one with more bundles
    /// than the node limit leaves room for) is refused whole, changing nothing.
    pub fn spawn_batch<B: PodBundle>(
        &mut self,
        class: Class,
        name: &str,
        parent: Option<Id>,
        bundles: impl IntoIterator<Item = B>,
    ) -> Result<Vec<Id>, ArenaError> {
        let members = self.pod_ids::<B>()?;
        // A bundle as one row of 32-bit words (POD lanes are 4 or 8 bytes): member `m` starts
        // at word `member_at[m]`; `stride` words per bundle.
        let mut member_at: SmallVec<[usize; 4]> = SmallVec::new();
        let mut stride = 0;
        for &c in &members {
            member_at.push(stride);
            stride += self.components.registry.info(c).pod_bytes.expect("a POD component") / 4;
        }
        // Bundles of tuples know their size at compile time: a constant stride.
        assert!(B::WORDS == 0 || B::WORDS == stride, "a bundle's words match its registered lanes");
        let stride = if B::WORDS != 0 { B::WORDS } else { stride };
        let mut set: SmallVec<[ComponentId; 4]> = members.clone();
        set.sort();
        set.dedup();
        let tables = self.components.tables.len();
        let t = self.components.table_for(&set);
        let new_table = t as usize == tables;
        // For each table column fed by the bundle: the column, its first word in a bundle's
        // row, whether the lane is 64-bit, and its byte offset within `B` (if `B` knows it).
        let offsets = B::byte_offsets().and_then(|o| o.of::<B>());
        let table = &self.components.tables[t as usize];
        let mut feeds: SmallVec<[(usize, usize, bool, usize); 16]> = SmallVec::new();
        for slot in &table.slots {
            // A component given twice keeps the last value, as with `insert_pod`.
            let member = members.iter().rposition(|c| *c == slot.id).expect("bundle component in its table");
            let mut at = member_at[member];
            for (lane, kind) in self.components.registry.info(slot.id).lane_kinds.iter().enumerate() {
                let wide = *kind == crate::components::LaneKind::W64;
                let byte = offsets.as_ref().map_or(0, |o| o[member] + 4 * (at - member_at[member]));
                feeds.push((slot.first_lane + lane, at, wide, byte));
                at += if wide { 2 } else { 1 };
            }
        }
        // Bundles go in tiles small enough to stay in L1: every lane reads its stride from the
        // tile's bundles (when `B` gives its components' offsets) or from a copy of them as
        // rows of words. One bundle past the room the node limit leaves is staged too, to
        // tell a batch that does not fit.
        const TILE: usize = 256;
        let room = self.config.max_nodes.saturating_sub(self.occupied);
        let mut bundles = bundles.into_iter();
        let mut tile: Vec<B> = Vec::with_capacity(TILE);
        let mut words = vec![0u32; if offsets.is_some() { 0 } else { TILE * stride }];
        let table = self.components.tables.make_mut(t as usize);
        let n = table.stage_lanes(TILE, room.saturating_add(1), |table, start, want| {
            tile.clear();
            tile.extend(bundles.by_ref().take(want));
            if !tile.is_empty() {
                stage_tile(table, start, &tile, &feeds, offsets.is_some(), stride, &mut words);
            }
            tile.len()
        });
        // More bundles than the room left: refused with the error `create_batch` would give.
        let created = if n > room {
            let full = ArenaError::Full(self.config.max_nodes);
            self.check_batch(class, parent, n).and(Err(full))
        } else {
            self.create_batch(class, name, parent, n)
        };
        let out = match created {
            Ok(out) => out,
            Err(e) => {
                // Refused: the staged rows go, and the table if this batch made it.
                self.components.tables.make_mut(t as usize).unstage();
                if new_table {
                    self.components.drop_new_table(t);
                }
                return Err(e);
            }
        };
        let rev = self.revisions.bump();
        self.components.commit_table(t, &out, rev);
        // Requirements outside the bundle: added with defaults, row by row.
        if members.iter().any(|&c| !self.components.registry.info(c).requires.is_empty()) {
            for &id in &out {
                for &c in &members {
                    self.add_requirements(id, c, rev);
                }
            }
        }
        Ok(out)
    }
}

/// Stages `tile`'s bundles as rows `start ..` of `table`, lane by lane: each of `feeds`
/// (column, first word in a bundle's row, 64-bit?, byte offset in `B`) reads its stride
/// from the bundles in place when `in_place` (`B` gave its components' offsets), or from
/// their copy as rows of `stride` words in `words` (room for a tile).
fn stage_tile<B: PodBundle>(
    table: &mut Table,
    start: usize,
    tile: &[B],
    feeds: &[(usize, usize, bool, usize)],
    in_place: bool,
    stride: usize,
    words: &mut [u32],
) {
    let rows = tile.len();
    if in_place {
        let base = tile.as_ptr().cast::<u8>();
        let size = std::mem::size_of::<B>();
        for &(column, _, wide, byte) in feeds {
            // `stage_words` calls `word` with `r < rows` only, so bundle `r` is in
            // `tile`, and the lane's 4 (8 when `wide`) bytes at `byte` lie within one
            // of its POD components (no padding: every byte initialised). Reads are
            // unaligned.
            if wide {
                // SAFETY: see above.
                let word = |r: usize| unsafe { base.add(r * size + byte).cast::<u64>().read_unaligned() };
                table.columns[column].stage_words(start, rows, word);
            } else {
                // SAFETY: see above.
                let word = |r: usize| unsafe { base.add(r * size + byte).cast::<u32>().read_unaligned() };
                table.columns[column].stage_words(start, rows, |r| word(r) as u64);
            }
        }
        return;
    }
    for (r, bundle) in tile.iter().enumerate() {
        bundle.copy_words(&mut words[r * stride..(r + 1) * stride]);
    }
    let src = &words[..rows * stride];
    for &(column, at, wide, _) in feeds {
        // Every word of lane `at` in the tile's rows, row `r`'s at `r * stride`.
        let lane = &src[at..];
        assert!((rows - 1) * stride + usize::from(wide) < lane.len());
        if wide {
            let word = |r: usize| {
                // SAFETY: `stage_words` calls `word` with `r < rows` only, and
                // `(rows - 1) * stride + 1` is within `lane` (asserted).
                let (lo, hi) =
                    unsafe { (*lane.get_unchecked(r * stride), *lane.get_unchecked(r * stride + 1)) };
                lo as u64 | (hi as u64) << 32
            };
            table.columns[column].stage_words(start, rows, word);
        } else {
            // SAFETY: `stage_words` calls `word` with `r < rows` only, and
            // `(rows - 1) * stride` is within `lane` (asserted).
            let word = |r: usize| unsafe { *lane.get_unchecked(r * stride) } as u64;
            table.columns[column].stage_words(start, rows, word);
        }
    }
}

#[cfg(test)]
#[path = "spawn_tests.rs"]
mod tests;
