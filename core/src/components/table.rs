//! [`Table`]: the rows of one component set (an archetype), stored lane by lane.
//!
//! Columns are laid out component by component, in component-id order: each component's
//! lanes, then its row-tick lane (the revision at which each row of that component was last
//! written through a single-row path); the ids lane comes last. A column only says where its
//! lane sits: every chunk of [`CHUNK_ROWS`] rows of the whole table, all lanes, is one
//! [`TableChunk`](super::table_chunk::TableChunk) in the table's [`Chunks`] (see `table_chunk` for the
//! layout and why). Bulk chunk writes stamp a per-component, per-chunk
//! `bulk` revision instead of touching every row tick. A row's revision is the newer of its
//! tick and its chunk's bulk revision; a row moving to another chunk carries that revision in
//! its tick, and the destination chunk's bulk revisions are folded into its rows' ticks first,
//! so a move neither loses a write nor gains one.
//!
//! Each component also has a [`WriteLog`]: single-row writes log their row, bulk writes
//! (chunk passes, batch spawns) their range, and a row arriving at a new index (appended by
//! a move, or filling a removed row's place) is logged there if its revision is newer than
//! the log's horizon, so the log covers every row written since its horizon wherever the
//! row now sits.
//!
//! Bulk revisions sit in one flat array, chunk by chunk: chunk `k`'s revision for slot `s`
//! is `bulk[k * slots + s]`, so a table of one chunk keeps one word per slot, and a pass
//! stamping it reads no per-slot header. The array only grows (when the table gains a
//! chunk); a chunk the table loses has its revisions zeroed, as a new chunk starts at 0.
//!
//! A table's methods take rows, chunks and component slots as [`TableRow`], [`ChunkIndex`]
//! and [`ComponentSlot`] (see `indices`); lanes are indices into `columns`.
//!
//! Batch spawns append rows in two steps (see `stage`): lanes first, past `len`, then the
//! ids, ticks and bookkeeping once the batch's instances exist.
//!
//! Invariants: `columns` and `ids` are the lanes of the layout every chunk in `chunks`
//! follows, fixed when the table is made (row moves index chunks with them unchecked);
//! `chunks` holds exactly the chunks of `len` rows (and of a batch's staged rows
//! between staging and commit or unstage, while nothing else touches the table), laid out
//! as `columns` and `ids` say;
//! `ids[r]` is the instance owning row `r`; `components` is sorted and matches `slots`;
//! `logs` holds one entry per slot; `bulk` holds `slots.len()` revisions for each chunk of
//! the table (at least), and 0 for the chunks past it; every `bulk` revision is 0 while
//! `bulk_stamped` is false.

use super::chunk_list::{Chunks, rows_in_chunk};
use super::indices::{ChunkIndex, ComponentSlot, TableRow};
use super::lane_layout::LaneKind;
use super::lane_layout::{CHUNK_ROWS, ChunkLayout, LaneSpec, LaneValue, split};
use super::schema::{ComponentId, SchemaRegistry};
use super::writelog::WriteLog;
use crate::id::Id;

/// Stamps every `slots`-th revision of `bulk` from `s` on with `rev` (slot `s` in every
/// chunk), out of line: tables of more than one chunk are rare in passes over many tables,
/// whose per-table code stays compact.
#[cold]
#[inline(never)]
fn fill_cold(bulk: &mut [u64], s: usize, slots: usize, rev: u64) {
    for b in bulk.iter_mut().skip(s).step_by(slots) {
        *b = rev;
    }
}

/// Where one component's lanes sit in a table (the lanes of the component in one [`ComponentSlot`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ComponentLanes {
    pub id: ComponentId,
    pub first_lane: usize,
    pub lanes: usize,
    pub tick: usize,
}

/// One archetype table.
///
/// `repr(C, align(64))`: the fields every chunk pass reads or stamps (`len`, `bulk_stamped`,
/// `columns`, `bulk`, `logs`: boxed slices, as tables never change their component set)
/// come first and fill one cache line, and the chunk list's pointers and epoch follow on the
/// next (the `Arc`'s counts sit on a line of their own, which passes never touch): a pass
/// over many small tables touches fewer lines.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Table {
    pub len: usize,
    /// Whether any `bulk` revision may be nonzero (false until the first chunk pass over
    /// this table stamps one): row moves skip the bulk bookkeeping of tables never written
    /// in bulk.
    pub bulk_stamped: bool,
    pub columns: Box<[LaneSpec]>,
    /// Per chunk, per component slot (`bulk[k * slots + s]`): revision of the last bulk
    /// (whole-chunk) write (see the module docs).
    pub bulk: Box<[u64]>,
    /// Per component slot: the rows written at each recent revision.
    pub logs: Box<[WriteLog]>,
    /// Every lane's rows, a table chunk at a time.
    pub chunks: Chunks,
    pub components: Box<[ComponentId]>,
    pub slots: Vec<ComponentLanes>,
    pub ids: LaneSpec,
    /// Cached transitions: (component, added?) → destination table.
    pub edges: Vec<(ComponentId, bool, u32)>,
    /// Whether this table is a sparse set's (its one component stored apart from the
    /// archetypes; never matched by archetype queries, never a transition's end).
    pub sparse: bool,
}

impl Table {
    /// An empty table for `components`, each keeping a write log of at most `log_capacity`
    /// entries.
    pub fn new(components: Box<[ComponentId]>, registry: &SchemaRegistry, log_capacity: usize) -> Self {
        let mut kinds = Vec::new();
        let mut slots = Vec::new();
        for &c in components.iter() {
            let info = registry.info(c);
            let first_lane = kinds.len();
            kinds.extend_from_slice(&info.lane_kinds);
            let tick = kinds.len();
            kinds.push(LaneKind::W64);
            slots.push(ComponentLanes { id: c, first_lane, lanes: info.lane_kinds.len(), tick });
        }
        kinds.push(LaneKind::W64);
        let (layout, mut columns) = ChunkLayout::new(kinds);
        let ids = columns.pop().expect("the ids lane");
        let bulk = Box::default();
        let logs = vec![WriteLog::new(log_capacity); slots.len()].into_boxed_slice();
        let columns = columns.into_boxed_slice();
        let chunks = Chunks::new(layout);
        Table {
            components,
            slots,
            ids,
            columns,
            chunks,
            bulk,
            bulk_stamped: false,
            logs,
            len: 0,
            edges: Vec::new(),
            sparse: false,
        }
    }

    /// An empty table holding the rows of sparse-set component `c` (see `sparse_set`).
    pub fn new_sparse_set(c: ComponentId, registry: &SchemaRegistry, log_capacity: usize) -> Self {
        Self { sparse: true, ..Self::new(Box::new([c]), registry, log_capacity) }
    }

    /// Position of `c` among this table's components.
    #[inline]
    pub fn slot(&self, c: ComponentId) -> Option<ComponentSlot> {
        self.components.binary_search(&c).ok().map(ComponentSlot)
    }

    /// Where the lanes of the component in slot `s` sit.
    #[inline]
    pub fn lanes_of(&self, s: ComponentSlot) -> ComponentLanes {
        self.slots[s.0]
    }

    /// The component slots of this table, in component-id order.
    #[inline]
    pub fn component_slots(&self) -> impl Iterator<Item = ComponentSlot> + use<> {
        (0..self.slots.len()).map(ComponentSlot)
    }

    /// Number of chunks.
    #[inline]
    pub fn chunk_count(&self) -> usize {
        self.len.div_ceil(CHUNK_ROWS)
    }

    /// Rows in chunk `k`.
    #[inline]
    pub fn chunk_len(&self, k: ChunkIndex) -> usize {
        rows_in_chunk(self.len, k.0)
    }

    /// The instance owning `row`.
    #[inline]
    pub fn id_at(&self, row: TableRow) -> Id {
        Id(self.chunks.word(self.ids, row.0))
    }

    /// The word in `row` of lane `lane` (an index into `columns`).
    #[inline]
    pub fn word(&self, lane: usize, row: TableRow) -> u64 {
        self.chunks.word(self.columns[lane], row.0)
    }

    /// Appends a row for `id` with zeroed lanes and ticks `rev`; returns the row.
    pub fn push_row(&mut self, id: Id, rev: u64) -> TableRow {
        let row = self.len;
        let (k, i) = split(row);
        let chunk = self.chunks.for_write(k, rev);
        chunk.revs_mut(self.ids).stamp_row(i, rev);
        chunk.set_word(self.ids, i, id.0);
        for s in &self.slots {
            for &col in &self.columns[s.first_lane..s.first_lane + s.lanes] {
                chunk.revs_mut(col).stamp_row(i, rev);
                if col.kind == LaneKind::Str {
                    chunk.set(col, i, LaneValue::Str(None));
                } else {
                    chunk.set_word(col, i, 0);
                }
            }
            let tick = self.columns[s.tick];
            chunk.revs_mut(tick).stamp_row(i, rev);
            chunk.set_word(tick, i, rev);
        }
        self.grew(row + 1);
        for log in &mut self.logs {
            log.push(rev, row, 1, row + 1);
        }
        TableRow(row)
    }

    /// Keeps bulk revisions for every chunk after the table grew to `len` rows.
    pub(super) fn grew(&mut self, len: usize) {
        self.len = len;
        let needed = len.div_ceil(CHUNK_ROWS) * self.logs.len();
        if self.bulk.len() < needed {
            self.grow_bulk(needed);
        }
    }

    /// Extends `bulk` to `needed` revisions, the new ones 0 (out of line: once per chunk).
    #[cold]
    #[inline(never)]
    fn grow_bulk(&mut self, needed: usize) {
        let mut bulk = std::mem::take(&mut self.bulk).into_vec();
        bulk.resize(needed, 0);
        self.bulk = bulk.into_boxed_slice();
    }

    /// Chunk `k`'s bulk revision for component slot `s`.
    #[inline]
    pub fn bulk_rev(&self, s: ComponentSlot, k: ChunkIndex) -> u64 {
        self.bulk[k.0 * self.logs.len() + s.0]
    }

    /// Chunk `k`'s bulk revision for component slot `s`, for writing.
    #[inline]
    fn bulk_rev_mut(&mut self, s: ComponentSlot, k: ChunkIndex) -> &mut u64 {
        &mut self.bulk[k.0 * self.logs.len() + s.0]
    }

    /// Drops the last row from the count after its columns lost it (`len` one less), zeroing
    /// the bulk revisions of the chunk it leaves empty (`bulk` keeps 0 for chunks past the
    /// table's).
    pub(super) fn shrank(&mut self) {
        let last = self.len - 1;
        if self.bulk_stamped && last.is_multiple_of(CHUNK_ROWS) {
            let (k, n) = (last / CHUNK_ROWS, self.logs.len());
            self.bulk[k * n..(k + 1) * n].fill(0);
        }
        self.len = last;
    }

    /// Writes component slot `s`'s lanes in `row` and stamps its row tick.
    pub fn write_lanes(
        &mut self,
        row: TableRow,
        s: ComponentSlot,
        lanes: impl IntoIterator<Item = LaneValue>,
        rev: u64,
    ) {
        let tick = self.columns[self.slots[s.0].tick];
        self.chunks.set(tick, row.0, LaneValue::Word(rev), rev);
        self.write_lanes_unstamped(row, s, lanes, rev);
        self.logs[s.0].push(rev, row.0, 1, self.len);
    }

    /// Writes component slot `s`'s lanes in `row` without touching its row tick or log: for a
    /// row whose tick is already `rev` and which is logged at `rev` (appended at `rev`).
    pub fn write_lanes_unstamped(
        &mut self,
        row: TableRow,
        s: ComponentSlot,
        lanes: impl IntoIterator<Item = LaneValue>,
        rev: u64,
    ) {
        let slot = self.slots[s.0];
        debug_assert_eq!(self.word(slot.tick, row), rev, "the row's tick is already `rev`");
        // The row's table chunk is made private once for all the component's lanes.
        let (k, i) = split(row.0);
        let chunk = self.chunks.make_mut(k);
        for (&col, v) in self.columns[slot.first_lane..slot.first_lane + slot.lanes].iter().zip(lanes) {
            chunk.revs_mut(col).stamp_row(i, rev);
            chunk.set(col, i, v);
        }
    }

    /// Writes one lane of component slot `s` in `row` and stamps its row tick.
    #[inline]
    pub fn write_lane(&mut self, row: TableRow, s: ComponentSlot, lane: usize, value: LaneValue, rev: u64) {
        let slot = self.slots[s.0];
        self.chunks.set(self.columns[slot.first_lane + lane], row.0, value, rev);
        self.chunks.set(self.columns[slot.tick], row.0, LaneValue::Word(rev), rev);
        self.logs[s.0].push(rev, row.0, 1, self.len);
    }

    /// Stamps every chunk of component slot `s` with bulk revision `rev` (a chunk pass wrote
    /// them all) and logs the whole table.
    #[inline]
    pub fn stamp_bulk(&mut self, s: ComponentSlot, rev: u64) {
        let s = s.0;
        // Read before the stores below, so it is read once.
        let len = self.len;
        let slots = self.logs.len();
        self.bulk_stamped = true;
        assert!(s < slots, "a component slot of this table");
        if len != 0 && len <= CHUNK_ROWS {
            self.bulk[s] = rev;
        } else {
            fill_cold(&mut self.bulk[..len.div_ceil(CHUNK_ROWS) * slots], s, slots, rev);
        }
        self.logs[s].push(rev, 0, len, len);
    }

    /// [`stamp_bulk`](Self::stamp_bulk) for a table of one chunk (`len` rows, `0 < len <=
    /// CHUNK_ROWS`) whose log entry for the whole table supersedes its newest; returns false
    /// otherwise, having made only stamps `stamp_bulk` with the same `rev` makes anyway (so
    /// the caller may fall back to it).
    #[inline(always)]
    pub fn try_stamp_bulk_one(&mut self, s: ComponentSlot, rev: u64, len: usize) -> bool {
        let s = s.0;
        debug_assert!(len == self.len && len != 0 && len <= CHUNK_ROWS);
        let Some(log) = self.logs.get_mut(s) else { return false };
        // SAFETY: `s` is a slot (`s < logs.len()`, one log per slot) and the table has a
        // chunk (`len != 0`), so `bulk` holds chunk 0's revision of slot `s`, `bulk[s]`
        // (module invariant).
        unsafe { *self.bulk.get_unchecked_mut(s) = rev };
        self.bulk_stamped = true;
        log.try_supersede(rev, 0, len)
    }

    /// The revision at which `row`'s component slot `s` was last written (tick or bulk).
    #[inline]
    pub fn row_revision(&self, s: ComponentSlot, row: TableRow) -> u64 {
        let tick = self.word(self.slots[s.0].tick, row);
        if self.bulk_stamped { tick.max(self.bulk_rev(s, row.chunk())) } else { tick }
    }

    /// Removes `row`, moving the last row into it. Returns the id now at `row`, if one moved.
    pub fn swap_remove(&mut self, row: TableRow, rev: u64) -> Option<Id> {
        let (row_at, last_at) = (row, TableRow(self.len - 1));
        let (row, last) = (row_at.0, last_at.0);
        let moved = (row != last).then(|| self.id_at(last_at));
        let changes_chunk = row_at.chunk() != last_at.chunk();
        if changes_chunk {
            // The moved row changes chunk: it keeps its own revision, not the new chunk's.
            self.settle_bulk(row_at.chunk(), rev);
        }
        if row != last {
            for slot in self.component_slots() {
                let s = slot.0;
                let tick_col = self.columns[self.slots[s].tick];
                let tick = self.chunks.word(tick_col, last);
                let bulk = self.bulk_rev(slot, last_at.chunk());
                if changes_chunk && tick < bulk {
                    // Fold the chunk's bulk revision into the moving row's own tick.
                    self.chunks.set(tick_col, last, LaneValue::Word(bulk), rev);
                }
                // The moved row's index changes: log it where its writes can still be asked for.
                let written = tick.max(bulk);
                if written > self.logs[s].horizon() {
                    self.logs[s].push(rev.max(written), row, 1, last);
                }
            }
        }
        if row != last {
            self.chunks.copy_row(std::iter::once(&self.ids).chain(self.columns.iter()), last, row, rev);
        }
        self.pop_last_row();
        self.shrank();
        moved
    }

    /// Folds chunk `k`'s bulk revisions into its rows' ticks and clears them, before a row
    /// moves into the chunk: the newcomer must not take a bulk write it never had.
    #[inline]
    pub(super) fn settle_bulk(&mut self, k: ChunkIndex, rev: u64) {
        if self.bulk_stamped {
            self.settle_bulk_stamped(k, rev);
        }
    }

    /// [`Table::settle_bulk`] for a table written in bulk (out of line: row moves into tables
    /// never written in bulk only check the flag).
    #[inline(never)]
    fn settle_bulk_stamped(&mut self, k: ChunkIndex, rev: u64) {
        let first = k.first_row().0;
        let rows = first..first + self.chunk_len(k);
        for s in self.component_slots() {
            let bulk = std::mem::take(self.bulk_rev_mut(s, k));
            if bulk == 0 {
                continue;
            }
            let tick = self.columns[self.slots[s.0].tick];
            for r in rows.clone() {
                if self.chunks.word(tick, r) < bulk {
                    self.chunks.set(tick, r, LaneValue::Word(bulk), rev);
                }
            }
        }
    }

    /// Revision of the newest write to component slot `s` in chunk `k` (single-row or bulk):
    /// its tick lane's chunk revision or its bulk revision (every lane write also writes
    /// the row's tick or stamps the chunk's bulk revision, so the lanes' own chunk
    /// revisions are never newer, and row moves do not stamp them).
    pub fn chunk_revision(&self, s: ComponentSlot, k: ChunkIndex) -> u64 {
        self.chunks.revision(self.columns[self.slots[s.0].tick], k.0).max(self.bulk_rev(s, k))
    }

    /// Drops the last row's strings (its words stay as padding) and its chunk if it falls
    /// empty, before `len` is counted down ([`shrank`](Self::shrank)).
    #[inline]
    pub(super) fn pop_last_row(&mut self) {
        let (k, i) = split(self.len - 1);
        if i == 0 {
            self.chunks.pop_chunk();
        } else if self.has_strs() {
            self.chunks.make_mut(k).drop_row_strs(i);
        }
    }

    /// Whether the table has string lanes.
    #[inline]
    pub fn has_strs(&self) -> bool {
        self.chunks.layout().strs != 0
    }

    /// Bytes of the strings this table's rows hold.
    pub fn text_bytes(&self) -> usize {
        self.chunks.text_bytes()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.chunks.heap_bytes()
            + self.logs.iter().map(WriteLog::heap_bytes).sum::<usize>()
            + self.columns.len() * size_of::<LaneSpec>()
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
