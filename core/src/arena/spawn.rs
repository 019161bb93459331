//! Batch spawning ([`Arena::spawn_batch`]): instances with POD component bundles streamed
//! from an iterator, their rows staged in the table tile by tile and committed once the
//! instances exist (see `components::stage`). Each bundle is copied into the tile's rows of
//! words component by component as it leaves the iterator, and every lane reads its stride
//! from those rows (figures: `docs/perf/components.md`).
//!
//! Bundles holding a sparse-set component are gathered first and inserted instance by
//! instance once the batch exists (their rows go to the components' sets, not to a table).
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
        if members.iter().any(|&c| self.components.is_sparse(c)) {
            return self.spawn_with_sparse_sets(class, name, parent, &members, bundles);
        }
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
        // row, and whether the lane is 64-bit.
        let table = &self.components.tables[t as usize];
        let mut feeds: SmallVec<[(usize, usize, bool); 16]> = SmallVec::new();
        for slot in &table.slots {
            // A component given twice keeps the last value, as with `insert_pod`.
            let member = members.iter().rposition(|c| *c == slot.id).expect("bundle component in its table");
            let mut at = member_at[member];
            for (lane, kind) in self.components.registry.info(slot.id).lane_kinds.iter().enumerate() {
                let wide = *kind == crate::components::LaneKind::W64;
                feeds.push((slot.first_lane + lane, at, wide));
                at += if wide { 2 } else { 1 };
            }
        }
        // Bundles go in tiles small enough to stay in L1, each copied as it leaves the
        // iterator into a row of words, component by component (sizes known at compile time
        // for tuples; see the module docs); every lane then reads its stride from the tile's
        // rows. One bundle past the room the node limit leaves is staged too, to tell a batch
        // that does not fit.
        const TILE: usize = 256;
        let room = self.creation_room();
        let mut bundles = bundles.into_iter();
        let mut words = vec![0u32; TILE * stride];
        let table = self.components.tables.make_mut(t as usize);
        let n = table.stage_lanes(TILE, room.saturating_add(1), |table, start, want| {
            // `for_each`, not a `for` loop: the iterator's own moves of each bundle through the
            // stack (`Option<B>`) stalled the same way.
            let mut rows = 0;
            bundles.by_ref().take(want).for_each(|bundle| {
                bundle.copy_words(&mut words[rows * stride..(rows + 1) * stride]);
                rows += 1;
            });
            if rows > 0 {
                stage_tile::<B>(table, start, rows, &feeds, stride, &words);
            }
            rows
        });
        // More bundles than the room left: refused with the error `create_batch` would give.
        let created = if n > room {
            let full = self.check_room(n).err().unwrap_or(ArenaError::Full(self.config.max_nodes));
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

    /// [`spawn_batch`](Self::spawn_batch) for bundles holding a sparse-set component, whose
    /// rows go to their sets one by one: the bundles are gathered first (a panicking iterator
    /// changes nothing), the instances created as one batch (refused whole), then each given
    /// its bundle.
    fn spawn_with_sparse_sets<B: PodBundle>(
        &mut self,
        class: Class,
        name: &str,
        parent: Option<Id>,
        members: &[ComponentId],
        bundles: impl IntoIterator<Item = B>,
    ) -> Result<Vec<Id>, ArenaError> {
        let room = self.creation_room();
        let bundles: Vec<B> = bundles.into_iter().take(room.saturating_add(1)).collect();
        if bundles.len() > room {
            let full =
                self.check_room(bundles.len()).err().unwrap_or(ArenaError::Full(self.config.max_nodes));
            return self.check_batch(class, parent, bundles.len()).and(Err(full));
        }
        let out = self.create_batch(class, name, parent, bundles.len())?;
        // One revision for the rows, as a table batch's commit.
        let rev = self.revisions.bump();
        for (&id, bundle) in out.iter().zip(&bundles) {
            self.write_bundle(id, members, bundle, rev);
        }
        Ok(out)
    }
}

/// Stages the `rows` bundles copied into `words` (row `r`'s `stride` words at `r * stride`)
/// as rows `start ..` of `table`, lane by lane: each of `feeds` (column, first word in a
/// bundle's row, 64-bit?) reads its stride from the rows. Generic over `B` for its constant
/// stride ([`PodBundle::WORDS`], when known).
fn stage_tile<B: PodBundle>(
    table: &mut Table,
    start: usize,
    rows: usize,
    feeds: &[(usize, usize, bool)],
    stride: usize,
    words: &[u32],
) {
    let stride = if B::WORDS != 0 { B::WORDS } else { stride };
    let src = &words[..rows * stride];
    for &(column, at, wide) in feeds {
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
            table.stage_words(column, start, rows, word);
        } else {
            // SAFETY: `stage_words` calls `word` with `r < rows` only, and
            // `(rows - 1) * stride` is within `lane` (asserted).
            let word = |r: usize| unsafe { *lane.get_unchecked(r * stride) } as u64;
            table.stage_words(column, start, rows, word);
        }
    }
}

#[cfg(test)]
#[path = "spawn_tests.rs"]
mod tests;
