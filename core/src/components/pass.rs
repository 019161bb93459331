//! Compact per-table plans for sequential chunk passes
//! ([`for_each_chunk_mut`](super::ComponentStore::for_each_chunk_mut)).
//!
//! A pass over many small tables spends most of its time per table, not per row: a plan
//! holds, for one table, just the column indexes to lend and the component slots to stamp,
//! in fixed arrays, so the pass does no re-resolution, walks no `SmallVec`s and builds each
//! [`ChunkLanes`] from arrays. Passes asking for more lanes than a [`ChunkLanes`] holds
//! inline have no plans and take the general path. The commonest shapes (one written lane
//! and up to two read ones; a three-lane vector read and another written) run with their
//! counts known at compile time ([`Fixed`]), so their passes are straight-line code.
//!
//! Such a pass is bound by how many words it reads per table (two loads per cycle), not by
//! the latency of its chain of pointers: each table first tries a fast path that makes no
//! calls but the callback (the table and its chunk already private, one chunk, a
//! log entry that supersedes the newest), so the loop keeps its state in registers; anything
//! rare falls back, before the callback, to the general path out of line. Every stamp the
//! fast path makes before falling back is one the general path makes with the same revision.
//!
//! Invariants: a plan is built by [`Plan::new`] from a [`Resolved`] of its table, so its
//! written columns are distinct from each other and from every read column, and every column
//! it names is below `cols_end`, which the pass checks against the table's column count once
//! per table (tables never change their columns). A pass's plans go in strictly increasing
//! table order (a query lists its tables in store order), so once the pass has dropped the
//! plans past the store's last table (on an older snapshot), every plan's table exists and
//! the pass reads it without a bounds check.

use super::chunk_lanes::{ChunkLanes, LANES_INLINE, WideLanes};
use super::chunk_list::rows_in_chunk;
use super::indices::ComponentSlot;
use super::lane_layout::{Block, CHUNK_ROWS, LaneSpec};
use super::store::ComponentStore;
use super::table::Table;
use super::table_chunk::TableChunk;
use smallvec::SmallVec;

/// Where requested lanes sit in one table: the columns read and written, and the component
/// slots written.
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    /// The read columns, in request order.
    pub read_cols: SmallVec<[usize; 4]>,
    /// The written columns, in request order (distinct from each other and from every read
    /// column: the query's `resolve` refuses anything else).
    pub write_cols: SmallVec<[usize; 4]>,
    pub written_slots: SmallVec<[usize; 4]>,
    /// The requested lanes holding 64-bit words, for splitting chunks by rows.
    pub wide_lanes: Option<WideLanes>,
}

/// The columns and slots one table lends and stamps in a pass (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    /// The table's index in the store (low half) and one past the highest column named
    /// below (`cols_end`, high half): one word, read with one load per table.
    head: u64,
    /// Read columns, in request order (the first `Shape::reads`).
    reads: [u32; LANES_INLINE],
    /// Written columns, in request order (the first `Shape::writes`).
    writes: [u32; LANES_INLINE],
    /// Written component slots (the first `Shape::slots`).
    slots: [u32; LANES_INLINE],
}

/// A pass's shape and plans, if it has them.
pub(super) type Planned<'a> = Option<(Shape, &'a [Plan])>;

/// How many lanes a pass reads and writes, and how many components it writes (the same in
/// every table the pass resolves in).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Shape {
    reads: u8,
    writes: u8,
    slots: u8,
}

/// Lane and slot counts of a pass: a [`Shape`] read at run time, or [`Fixed`] counts for
/// the commonest shapes, so their passes compile to straight-line code.
pub(super) trait Counts: Copy {
    fn reads(self) -> usize;
    fn writes(self) -> usize;
    fn slots(self) -> usize;
}

impl Counts for Shape {
    #[inline(always)]
    fn reads(self) -> usize {
        self.reads.into()
    }
    #[inline(always)]
    fn writes(self) -> usize {
        self.writes.into()
    }
    #[inline(always)]
    fn slots(self) -> usize {
        self.slots.into()
    }
}

/// Counts known at compile time.
#[derive(Clone, Copy)]
pub(super) struct Fixed<const R: usize, const W: usize, const S: usize>;

impl<const R: usize, const W: usize, const S: usize> Counts for Fixed<R, W, S> {
    #[inline(always)]
    fn reads(self) -> usize {
        R
    }
    #[inline(always)]
    fn writes(self) -> usize {
        W
    }
    #[inline(always)]
    fn slots(self) -> usize {
        S
    }
}

impl Shape {
    /// The shape of a pass reading `reads` and writing `writes` lanes, `None` if a
    /// [`ChunkLanes`] cannot hold them inline.
    pub fn new(reads: usize, writes: usize) -> Option<Self> {
        (reads <= LANES_INLINE && writes <= LANES_INLINE).then_some(Shape {
            reads: reads as u8,
            writes: writes as u8,
            slots: 0,
        })
    }
}

impl Plan {
    /// The plan of table `table` for `r` (resolved for it), and the number of slots it writes.
    pub fn new(table: u32, r: &Resolved, shape: &mut Shape) -> Self {
        let fill = |from: &[usize]| {
            let mut out = [0u32; LANES_INLINE];
            for (o, &c) in out.iter_mut().zip(from) {
                *o = c as u32;
            }
            out
        };
        debug_assert_eq!((r.read_cols.len(), r.write_cols.len()), (shape.reads.into(), shape.writes.into()));
        shape.slots = r.written_slots.len() as u8;
        let cols_end = r.read_cols.iter().chain(&r.write_cols).map(|&c| c + 1).max().unwrap_or(0);
        Plan {
            head: u64::from(table) | (cols_end as u64) << 32,
            reads: fill(&r.read_cols),
            writes: fill(&r.write_cols),
            slots: fill(&r.written_slots),
        }
    }
}

impl Plan {
    /// The table's index in the store.
    #[inline(always)]
    pub fn table(&self) -> usize {
        self.head as u32 as usize
    }

    /// One past the highest column the plan names.
    #[inline(always)]
    fn cols_end(&self) -> usize {
        (self.head >> 32) as usize
    }
}

/// Lends chunk `k` of `table` (holding `len` rows: read once by the caller) as `p` plans it,
/// stamping its written lanes with `rev`. `k` must be below the table's chunk count.
#[inline(always)]
fn plan_lanes<'a>(
    table: &'a mut Table,
    len: usize,
    p: &Plan,
    shape: impl Counts,
    k: usize,
    rev: u64,
) -> ChunkLanes<'a> {
    debug_assert!(len == table.len && k < table.chunk_count());
    let chunk_len = rows_in_chunk(len, k);
    let Table { chunks, columns, ids, .. } = table;
    // SAFETY: `k` is below the table's chunk count (the caller's contract), and the table's
    // chunks are exactly those of its rows (`Table` invariant), so chunk `k` exists.
    let chunk = unsafe { chunks.make_mut_unchecked(k) };
    lend_planned(chunk, columns, *ids, p, shape, k, chunk_len, rev)
}

/// The lanes of `chunk` (chunk `k`, `chunk_len` rows, private) of a table with `columns`
/// and `ids` as `p` plans them, its written lanes stamped `rev`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn lend_planned<'a>(
    chunk: &'a mut TableChunk,
    columns: &[LaneSpec],
    ids: LaneSpec,
    p: &Plan,
    shape: impl Counts,
    k: usize,
    chunk_len: usize,
    rev: u64,
) -> ChunkLanes<'a> {
    debug_assert!(p.cols_end() <= columns.len());
    let mut lender = chunk.lender();
    let mut writes: [&'a mut [Block]; LANES_INLINE] = Default::default();
    for (w, &c) in writes.iter_mut().zip(&p.writes[..shape.writes()]) {
        // SAFETY: `c < cols_end() <= columns.len()` (checked by the caller for this table).
        let col = unsafe { *columns.get_unchecked(c as usize) };
        // SAFETY: `col` is a word lane of the table owning `chunk` (plans name no string
        // lanes), `chunk_len <= CHUNK_ROWS`, and the plan's written columns are distinct from
        // each other and from every read column (module invariant); the ids lane is no column.
        *w = unsafe { lender.write(col, chunk_len, rev) };
    }
    let mut reads: [&'a [Block]; LANES_INLINE] = Default::default();
    for (r, &c) in reads.iter_mut().zip(&p.reads[..shape.reads()]) {
        // SAFETY: in bounds (as above).
        let col = unsafe { *columns.get_unchecked(c as usize) };
        // SAFETY: a word lane of the table (as above), written by no lent lane, and
        // `chunk_len <= CHUNK_ROWS`.
        *r = unsafe { lender.read(col, chunk_len) };
    }
    ChunkLanes {
        // SAFETY: the table's ids lane, never lent for writing.
        ids: unsafe { lender.ids(ids) },
        reads: SmallVec::from_buf_and_len(reads, shape.reads()),
        writes: SmallVec::from_buf_and_len(writes, shape.writes()),
        first_row: (k * CHUNK_ROWS) as u32,
        len: chunk_len as u32,
    }
}

impl ComponentStore {
    /// The sequential chunk pass over planned tables (tables past the store's, on an older
    /// snapshot, are skipped): see [`for_each_chunk_mut`](Self::for_each_chunk_mut).
    #[inline]
    pub(super) fn planned_pass(
        &mut self,
        plans: &[Plan],
        shape: Shape,
        rev: u64,
        f: impl FnMut(ChunkLanes<'_>),
    ) {
        match (shape.reads, shape.writes, shape.slots) {
            (0, 1, 1) => self.pass_with(plans, Fixed::<0, 1, 1>, rev, f),
            (1, 1, 1) => self.pass_with(plans, Fixed::<1, 1, 1>, rev, f),
            (2, 1, 1) => self.pass_with(plans, Fixed::<2, 1, 1>, rev, f),
            (3, 3, 1) => self.pass_with(plans, Fixed::<3, 3, 1>, rev, f),
            _ => self.pass_with(plans, shape, rev, f),
        }
    }

    /// [`planned_pass`](Self::planned_pass) with counts `shape`.
    #[inline(always)]
    fn pass_with(&mut self, plans: &[Plan], shape: impl Counts, rev: u64, mut f: impl FnMut(ChunkLanes<'_>)) {
        // Plans go in table order: on an older snapshot, skip those past its tables.
        let count = self.tables.len();
        let plans = match plans.last() {
            Some(last) if last.table() >= count => &plans[..plans.partition_point(|p| p.table() < count)],
            _ => plans,
        };
        debug_assert!(plans.windows(2).all(|w| w[0].table() < w[1].table()));
        for p in plans {
            // SAFETY: plans go in increasing table order (module invariant) and the last one
            // left names a table below `count`, so `p`'s does; neither `f` nor the table
            // paths add or remove tables.
            if !unsafe { self.table_fast(p, shape, rev, &mut f) } {
                self.table_slow(p, shape, rev, &mut f);
            }
        }
    }

    /// One table's part of a pass when nothing rare happens: the table and its chunk are
    /// already private, it has one chunk, and each written slot's log entry
    /// supersedes its newest. Returns false otherwise, before calling `f`, having made only
    /// stamps that [`table_slow`](Self::table_slow), which then does the table's part, makes
    /// with the same `rev` anyway. The fast path makes no calls but `f`, so the pass's loop
    /// keeps its state in registers.
    ///
    /// # Safety
    ///
    /// `p`'s table exists: `p.table() < self.tables.len()`.
    #[inline(always)]
    unsafe fn table_fast(
        &mut self,
        p: &Plan,
        shape: impl Counts,
        rev: u64,
        f: &mut impl FnMut(ChunkLanes<'_>),
    ) -> bool {
        // Both halves of the plan's head in one load.
        let (i, cols_end) = (p.table(), p.cols_end());
        debug_assert!(i < self.tables.len());
        // SAFETY: `i < self.tables.len()` (the caller's contract).
        let Some(table) = (unsafe { self.tables.owned_mut_unchecked(i) }) else { return false };
        let len = table.len;
        if len == 0 {
            return true; // skipped, as `table_slow` does
        }
        if len > CHUNK_ROWS {
            return false;
        }
        assert!(cols_end <= table.columns.len(), "lanes planned for this table");
        for &s in &p.slots[..shape.slots()] {
            if !table.try_stamp_bulk_one(ComponentSlot(s as usize), rev, len) {
                return false;
            }
        }
        // `0 < len <= CHUNK_ROWS`: one chunk, chunk 0.
        let Some(lanes) = owned_lanes(table, len, p, shape, rev) else { return false };
        f(lanes);
        true
    }

    /// One table's part of a pass in general (out of line: see
    /// [`table_fast`](Self::table_fast)).
    #[cold]
    #[inline(never)]
    fn table_slow(&mut self, p: &Plan, shape: impl Counts, rev: u64, f: &mut impl FnMut(ChunkLanes<'_>)) {
        let Some(table) = self.tables.make_mut_if(p.table(), |t| t.len != 0) else { return };
        assert!(p.cols_end() <= table.columns.len(), "lanes planned for this table");
        for &s in &p.slots[..shape.slots()] {
            table.stamp_bulk(ComponentSlot(s as usize), rev);
        }
        for k in 0..table.chunk_count() {
            f(plan_lanes(table, table.len, p, shape, k, rev));
        }
    }
}

/// [`plan_lanes`] of chunk 0 of a table of one chunk (`len` rows, `0 < len <= CHUNK_ROWS`)
/// if the table already owns that chunk; `None` otherwise, having stamped nothing.
#[inline(always)]
fn owned_lanes<'a>(
    table: &'a mut Table,
    len: usize,
    p: &Plan,
    shape: impl Counts,
    rev: u64,
) -> Option<ChunkLanes<'a>> {
    debug_assert!(len == table.len && len != 0 && len <= CHUNK_ROWS);
    let Table { chunks, columns, ids, .. } = table;
    // SAFETY: the table has rows, so it has chunk 0 (`Table` invariant).
    let chunk = unsafe { chunks.owned_mut_unchecked(0) }?;
    Some(lend_planned(chunk, columns, *ids, p, shape, 0, len, rev))
}
