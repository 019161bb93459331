//! Where a walk's computed worlds go, and where a root's parent world comes from.
//!
//! A world is written as one cell of the pose column, indexed by slot, carrying its node's
//! id: the low 32 bits in the cell's spare lane (the *tag*), the high 32 bits in the
//! `high` column. Ids below 2^32 (every server id in practice) have high bits zero, and
//! the `high` column is all zeros until the first id at or above 2^32 is written; so
//! until then only such ids touch it (`wide` off), and from then on every write stores its
//! high bits too (`wide` on), which keeps every slot's entry right without reading it.
//! One thread writes the columns directly ([`ColumnsMut`]). Several threads either write
//! their disjoint slots through shared raw pointers ([`RawColumns`]) or collect
//! `(slot, id, world)` triples for the calling thread to scatter afterwards ([`Collect`],
//! the safe alternative, kept for the benchmark that justifies the raw pointers).
//!
//! A walk writes a run of siblings in consecutive slots cell by cell
//! ([`Sink::put_world_low`]) and their high bits once the run is done
//! ([`Sink::put_highs`]: the run's ids or'ed, as the sweep does per page), so the per-node
//! path has no high-bits check. A cell is written straight from the compose's two vectors
//! by three stores (position, rotation, tag; `store_world`), in assembly on x86-64: as plain
//! stores, raw or safe, the optimiser merged them back into a shuffled cell and four stores
//! (figures: `docs/perf/transforms.md`, "Three stores per cell").
//!
//! A cell's tag also locates a leaf root's parent for the short-list route
//! ([`Parents::tag`], see `sparse`): a cell owned by the parent's id is in the parent's slot.
//!
//! Invariant relied on by [`RawColumns`]: during a parallel walk the tasks cover disjoint
//! sets of nodes (see `walk`), so each slot is written by at most one task, and the only
//! slots read are parents of dirty roots, which no task writes (once the walks are done,
//! parents of leaves, while only leaves are written).

use super::PoseCell;
use super::compose::Pose;
use crate::prefetch::prefetch_ptr;
use arbor_core::Id;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use wide::f32x4;

/// The high 32 bits of `id`.
#[inline(always)]
pub(crate) fn high_bits(id: Id) -> u32 {
    (id.0 >> 32) as u32
}

/// Where computed worlds go.
pub(crate) trait Sink {
    /// Writes node `id`'s world to `slot` (the cell's tag is set here).
    fn put(&mut self, slot: u32, id: Id, cell: PoseCell);

    /// [`put`](Self::put) with the cell as its two halves, the second's last lane already
    /// holding the tag (the low 32 bits of `id`): two vector stores where the sink writes
    /// the columns.
    #[inline(always)]
    fn put_rows(&mut self, slot: u32, id: Id, rows: [f32x4; 2]) {
        self.put(slot, id, bytemuck::cast(rows));
    }

    /// [`put`](Self::put) with the world as the compose's two vectors: the position in the
    /// first three lanes of `pos` (its fourth lane is ignored) and the rotation `rot`. Where
    /// the sink writes the columns, three stores (position, rotation, tag) and no shuffle.
    #[inline(always)]
    fn put_world(&mut self, slot: u32, id: Id, pos: f32x4, rot: f32x4) {
        self.put(slot, id, PoseCell::of_vectors(pos, rot, 0));
    }

    /// [`put_world`](Self::put_world) for one of a run of consecutive slots, leaving the high
    /// bits to [`put_highs`](Self::put_highs) once the run is written (where the sink writes
    /// the columns; other sinks write everything here).
    #[inline(always)]
    fn put_world_low(&mut self, slot: u32, id: Id, pos: f32x4, rot: f32x4) {
        self.put_world(slot, id, pos, rot);
    }

    /// Writes the high bits of the run `ids` written by
    /// [`put_world_low`](Self::put_world_low) to slots `start ..`, given `ored`, every id of
    /// the run or'ed together: nothing when no id has high bits and the columns need none.
    #[inline(always)]
    fn put_highs(&mut self, start: u32, ids: &[Id], ored: Id) {
        let _ = (start, ids, ored);
    }
}

/// Writes a world into `cell` as three stores: `pos` to lanes 0..4 (its ignored fourth lane
/// then overwritten), `rot` to lanes 3..7, the tag to lane 7. On x86-64 the stores are
/// written out in assembly: as plain stores (safe or raw) the optimiser merges them into a
/// shuffled cell and four stores.
#[inline(always)]
fn store_world(cell: &mut PoseCell, pos: f32x4, rot: f32x4, tag: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__m128;
        let lanes = std::ptr::from_mut(cell).cast::<f32>();
        let (pos, rot) = (bytemuck::cast::<f32x4, __m128>(pos), bytemuck::cast::<f32x4, __m128>(rot));
        // SAFETY: `lanes` comes from an exclusive borrow of the cell, 32 bytes aligned to 32:
        // the position is an aligned store to bytes 0..16, the rotation an unaligned one to
        // bytes 12..28 (overwriting the position's ignored fourth lane), the tag bytes 28..32;
        // all inside the cell, and nothing else is touched (SSE is part of the x86-64
        // baseline).
        unsafe {
            std::arch::asm!(
                "movaps xmmword ptr [{p}], {pos}",
                "movups xmmword ptr [{p} + 12], {rot}",
                "mov dword ptr [{p} + 28], {tag:e}",
                p = in(reg) lanes,
                pos = in(xmm_reg) pos,
                rot = in(xmm_reg) rot,
                tag = in(reg) tag,
                options(nostack, preserves_flags)
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        *cell = PoseCell::of_vectors(pos, rot, tag);
    }
}

/// Where a root's parent world is read from.
pub(crate) trait Parents {
    /// The world stored in `slot`, which no task writes during the pass.
    fn parent_pose(&self, slot: u32) -> Pose {
        self.parent_cell(slot).pose()
    }

    /// The cell stored in `slot` (world and tag), which no task writes during the pass.
    fn parent_cell(&self, slot: u32) -> PoseCell;

    /// Asks for the cache line of `slot`'s cell (a hint: nothing is read or written).
    fn prefetch_cell(&self, slot: u32);

    /// The tag of the cell in `slot` (the low 32 bits of its owner's id), which no task
    /// writes while it is read.
    fn tag(&self, slot: u32) -> u32 {
        self.parent_cell(slot).tag()
    }

    /// Whether no id at or above 2^32 was ever written, so that every high-bits entry is
    /// zero and a cell's tag alone names its owner among ids below 2^32. `false` says
    /// nothing (the default, for sources that cannot tell).
    fn narrow(&self) -> bool {
        false
    }
}

/// The pose and high-bits columns, borrowed together.
pub(crate) struct ColumnsMut<'c> {
    /// World cells by slot, tagged with the low bits of their node's id.
    pub poses: &'c mut [PoseCell],
    /// High bits of the owner ids by slot.
    pub high: &'c mut [u32],
    /// Store every write's high bits (set once any id at or above 2^32 was written).
    pub wide: bool,
    /// Set when an id at or above 2^32 is written.
    pub saw_wide: &'c AtomicBool,
}

impl ColumnsMut<'_> {
    /// The same columns, borrowed again for a shorter while.
    pub fn reborrow(&mut self) -> ColumnsMut<'_> {
        ColumnsMut {
            poses: &mut *self.poses,
            high: &mut *self.high,
            wide: self.wide,
            saw_wide: self.saw_wide,
        }
    }
}

impl ColumnsMut<'_> {
    /// Stores `id`'s high bits in `slot` when the columns need them.
    #[inline(always)]
    fn put_high(&mut self, slot: u32, id: Id) {
        let high = high_bits(id);
        if self.wide || high != 0 {
            self.high[slot as usize] = high;
            if high != 0 {
                self.saw_wide.store(true, Ordering::Relaxed);
            }
        }
    }
}

impl Sink for ColumnsMut<'_> {
    #[inline(always)]
    fn put(&mut self, slot: u32, id: Id, mut cell: PoseCell) {
        cell.set_tag(id.0 as u32);
        self.poses[slot as usize] = cell;
        self.put_high(slot, id);
    }

    #[inline(always)]
    fn put_rows(&mut self, slot: u32, id: Id, rows: [f32x4; 2]) {
        debug_assert_eq!(rows[1].to_array()[3].to_bits(), id.0 as u32, "untagged rows");
        *bytemuck::cast_mut::<PoseCell, [f32x4; 2]>(&mut self.poses[slot as usize]) = rows;
        self.put_high(slot, id);
    }

    #[inline(always)]
    fn put_world(&mut self, slot: u32, id: Id, pos: f32x4, rot: f32x4) {
        store_world(&mut self.poses[slot as usize], pos, rot, id.0 as u32);
        self.put_high(slot, id);
    }

    #[inline(always)]
    fn put_world_low(&mut self, slot: u32, id: Id, pos: f32x4, rot: f32x4) {
        store_world(&mut self.poses[slot as usize], pos, rot, id.0 as u32);
    }

    #[inline(always)]
    fn put_highs(&mut self, start: u32, ids: &[Id], ored: Id) {
        if self.wide || high_bits(ored) != 0 {
            for (slot, &id) in (start..).zip(ids) {
                self.put_high(slot, id);
            }
        }
    }
}

impl Parents for ColumnsMut<'_> {
    #[inline]
    fn parent_cell(&self, slot: u32) -> PoseCell {
        self.poses[slot as usize]
    }

    #[inline(always)]
    fn narrow(&self) -> bool {
        !self.wide && !self.saw_wide.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn prefetch_cell(&self, slot: u32) {
        prefetch_ptr(self.poses.as_ptr().wrapping_add(slot as usize));
    }
}

impl Parents for [PoseCell] {
    #[inline]
    fn parent_cell(&self, slot: u32) -> PoseCell {
        self[slot as usize]
    }

    #[inline(always)]
    fn prefetch_cell(&self, slot: u32) {
        prefetch_ptr(self.as_ptr().wrapping_add(slot as usize));
    }
}

/// Collects `(slot, id, world)` triples, to be scattered into the columns afterwards.
#[derive(Default)]
pub(crate) struct Collect(pub Vec<(u32, Id, PoseCell)>);

impl Sink for Collect {
    #[inline]
    fn put(&mut self, slot: u32, id: Id, cell: PoseCell) {
        self.0.push((slot, id, cell));
    }
}

/// The pose and high-bits columns, shared by the tasks of a parallel walk through raw
/// pointers.
///
/// Each task writes only the slots of the nodes it computes, and tasks cover disjoint sets
/// of nodes, so no element is written by two threads; the elements read (parents of dirty
/// roots) are written by none. The `'c` borrow of the columns lasts as long as this value,
/// so nothing else touches them meanwhile.
///
/// Why `unsafe` rather than the safe alternative ([`Collect`], reachable as
/// `WorldTransforms::update_collect_scatter`): collecting the triples and scattering them on
/// the calling thread adds a sequential pass over every written world after the parallel
/// part. Benchmark `transform_write_strategy` (101,001 nodes, all dirty, 2 threads)
/// measured it slower; see the report at the top of `benches/benches/transform.rs`.
#[derive(Clone, Copy)]
pub(crate) struct RawColumns<'c> {
    poses: *mut PoseCell,
    high: *mut u32,
    len: usize,
    wide: bool,
    saw_wide: &'c AtomicBool,
    columns: PhantomData<&'c mut [PoseCell]>,
}

// SAFETY: copies on other threads dereference the pointers only in the `Sink` writes and
// the `Parents` reads, at in-bounds slots; subtrees are disjoint, so slots written by
// different tasks are, and the cells read (parents of roots, and of leaves once the walks
// are done) are not written meanwhile. The columns are exclusively borrowed for `'c`, so no
// other code touches them meanwhile.
unsafe impl Send for RawColumns<'_> {}
// SAFETY: as for `Send`: shared copies only write disjoint elements and read unwritten ones.
unsafe impl Sync for RawColumns<'_> {}

impl<'c> RawColumns<'c> {
    /// Shares the columns for the length of their borrow.
    ///
    /// # Panics
    /// If the columns differ in length.
    pub fn new(columns: ColumnsMut<'c>) -> Self {
        assert_eq!(columns.poses.len(), columns.high.len(), "pose and high-bits columns differ");
        Self {
            poses: columns.poses.as_mut_ptr(),
            high: columns.high.as_mut_ptr(),
            len: columns.poses.len(),
            wide: columns.wide,
            saw_wide: columns.saw_wide,
            columns: PhantomData,
        }
    }
}

impl<'c> RawColumns<'c> {
    /// The cell in `slot`.
    ///
    /// # Panics
    /// If `slot` is outside the columns.
    ///
    /// # Safety
    /// No other thread may write `slot` concurrently, and any earlier write by another
    /// thread must happen before this read (published with `Release`, observed with
    /// `Acquire`).
    #[inline]
    pub unsafe fn read(&self, slot: u32) -> PoseCell {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        // SAFETY: `slot < len` (checked above), the column is borrowed for `'c`, and the
        // caller guarantees the read races with no write.
        unsafe { self.poses.add(slot).read() }
    }

    /// Whether every write must store its id's high bits (see the module docs).
    #[inline]
    pub fn wide(&self) -> bool {
        self.wide
    }

    /// Stores `id`'s high bits in `slot` (whatever `wide` says), flagging an id at or above
    /// 2^32: for a caller that writes cells through [`PageCells`] and the high bits apart.
    ///
    /// # Panics
    /// If `slot` is outside the columns.
    ///
    /// # Safety
    /// As for [`page_cells`](Self::page_cells): `slot` belongs to the caller alone.
    #[inline]
    pub unsafe fn put_high(&self, slot: u32, id: Id) {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        let high = high_bits(id);
        // SAFETY: `slot < len` (checked above), the column is borrowed for `'c`, and the
        // caller guarantees no other thread touches this element meanwhile.
        unsafe { self.high.add(slot).write(high) };
        if high != 0 {
            self.saw_wide.store(true, Ordering::Relaxed);
        }
    }

    /// The cells of slots `start .. start + n`, bounds checked once, for a caller that writes
    /// them one by one (the sweep, a page at a time).
    ///
    /// # Panics
    /// If the slots are outside the columns.
    ///
    /// # Safety
    /// Until the caller is done with the returned value, no other thread may read or write
    /// these cells (the sweep: they are the current page of the caller's own range, which no
    /// other range reads before the caller publishes its progress past them).
    #[inline]
    pub unsafe fn page_cells(&self, start: usize, n: usize) -> PageCells<'c> {
        assert!(start.checked_add(n).is_some_and(|end| end <= self.len), "slots outside the world columns");
        // SAFETY: `start + n <= len` (checked above): the offset stays inside the column.
        PageCells { cells: unsafe { self.poses.add(start) }, n, columns: PhantomData }
    }
}

/// A run of cells of the pose column written by one thread (see
/// [`RawColumns::page_cells`]): position, rotation and tag stored straight from the
/// compose's two vectors, three stores and no shuffle.
pub(crate) struct PageCells<'c> {
    cells: *mut PoseCell,
    n: usize,
    columns: PhantomData<&'c mut [PoseCell]>,
}

impl PageCells<'_> {
    /// Writes cell `i`: the position from the first three lanes of `pos` (its fourth lane is
    /// ignored), the rotation `rot` and the tag.
    ///
    /// # Panics
    /// If `i` is outside the run.
    #[inline(always)]
    pub fn put(&mut self, i: usize, pos: f32x4, rot: f32x4, tag: u32) {
        assert!(i < self.n, "cell {i} outside the run");
        // SAFETY: `i < n` (checked above) and the run lies inside the column (checked by
        // `page_cells`), whose caller owns these cells for the run's life. A cell is 32 bytes
        // aligned to 32: the position vector is an aligned store to bytes 0..16, the rotation
        // an unaligned one to bytes 12..28 (overwriting the position's ignored fourth lane
        // with rotation x), the tag bytes 28..32; all inside the cell. (`store_world`'s
        // assembly here costs the sweep 1.2% more instructions: these plain stores stay
        // three in this loop.)
        unsafe {
            let lanes = self.cells.add(i).cast::<f32>();
            lanes.cast::<f32x4>().write(pos);
            lanes.add(3).cast::<f32x4>().write_unaligned(rot);
            lanes.add(7).cast::<u32>().write(tag);
        }
    }
}

impl Sink for RawColumns<'_> {
    #[inline(always)]
    fn put(&mut self, slot: u32, id: Id, mut cell: PoseCell) {
        cell.set_tag(id.0 as u32);
        self.put_rows(slot, id, bytemuck::cast(cell));
    }

    #[inline(always)]
    fn put_rows(&mut self, slot: u32, id: Id, rows: [f32x4; 2]) {
        debug_assert_eq!(rows[1].to_array()[3].to_bits(), id.0 as u32, "untagged rows");
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        let high = high_bits(id);
        // SAFETY: `slot < len` (checked above; both columns have `len` elements) and the
        // columns are borrowed for `'c`; a cell is 32 bytes aligned to 32, so it holds two
        // aligned `f32x4`. The slot belongs to a node of this task's subtree; subtrees are
        // disjoint, so no other thread reads or writes these elements during the pass.
        unsafe {
            self.poses.add(slot).cast::<[f32x4; 2]>().write(rows);
            if self.wide || high != 0 {
                self.high.add(slot).write(high);
            }
        }
        if high != 0 {
            self.saw_wide.store(true, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn put_world_low(&mut self, slot: u32, id: Id, pos: f32x4, rot: f32x4) {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        // SAFETY: `slot < len` (checked above) and the column is borrowed for `'c`. The slot
        // belongs to a node of this task's subtree; subtrees are disjoint, so no other thread
        // reads or writes this cell during the pass.
        store_world(unsafe { &mut *self.poses.add(slot) }, pos, rot, id.0 as u32);
    }

    #[inline(always)]
    fn put_highs(&mut self, start: u32, ids: &[Id], ored: Id) {
        if self.wide || high_bits(ored) != 0 {
            for (slot, &id) in (start..).zip(ids) {
                // SAFETY: the slots of a run just written by `put_world_low`, this task's
                // alone (see there).
                unsafe { self.put_high(slot, id) };
            }
        }
    }

    #[inline(always)]
    fn put_world(&mut self, slot: u32, id: Id, pos: f32x4, rot: f32x4) {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        let high = high_bits(id);
        // SAFETY: `slot < len` (checked above; both columns have `len` elements) and the
        // columns are borrowed for `'c`. The slot belongs to a node of this task's subtree;
        // subtrees are disjoint, so no other thread reads or writes these elements during the
        // pass. A cell is 32 bytes aligned to 32: the position is an aligned store to bytes
        // 0..16, the rotation an unaligned one to bytes 12..28 (overwriting the position's
        // ignored fourth lane), the tag bytes 28..32; all inside the cell.
        unsafe {
            let lanes = self.poses.add(slot).cast::<f32>();
            lanes.cast::<f32x4>().write(pos);
            lanes.add(3).cast::<f32x4>().write_unaligned(rot);
            lanes.add(7).cast::<u32>().write(id.0 as u32);
            if self.wide || high != 0 {
                self.high.add(slot).write(high);
            }
        }
        if high != 0 {
            self.saw_wide.store(true, Ordering::Relaxed);
        }
    }
}

impl Parents for RawColumns<'_> {
    #[inline]
    fn parent_cell(&self, slot: u32) -> PoseCell {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        // SAFETY: `slot < len` (checked above) and the column is borrowed for `'c`. The slot
        // holds the parent of a dirty root; that parent is not covered (else the root would
        // not be a root), so it lies in no recomputed subtree and no task writes it during
        // the pass: this read races with no write.
        unsafe { *self.poses.add(slot) }
    }

    #[inline(always)]
    fn tag(&self, slot: u32) -> u32 {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world columns");
        // SAFETY: `slot < len` (checked above) and the column is borrowed for `'c`. The
        // short-list route asks about a leaf's parent once every walk is done, when the only
        // cells written are those of leaves; a parent is no leaf, so this read races with no
        // write.
        unsafe { (*self.poses.add(slot)).tag() }
    }

    #[inline(always)]
    fn narrow(&self) -> bool {
        // Every write before the caller's question happens before it (the short-list route
        // asks once its walks are joined).
        !self.wide && !self.saw_wide.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn prefetch_cell(&self, slot: u32) {
        prefetch_ptr(self.poses.cast_const().wrapping_add(slot as usize));
    }
}
