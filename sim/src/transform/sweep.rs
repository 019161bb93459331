//! The whole-world pass: every in-world node recomputed by one sweep over the pages in
//! slot order, for dirty lists that name most of the arena.
//!
//! A tree built parent first keeps every parent at a lower slot than its children, so one
//! ascending sweep — `world[s] = world[parent(s)] ∘ local[s]` — meets every parent before
//! its children: the plain SoA pass, reading each page's hot records (id, flags, parent and
//! local, one line a node) in order instead of following child arrays. Siblings sit
//! side by side in such a tree, so a parent's frame (`Frame`, and its four-lane form
//! `Frame4`) is prepared once when the parent changes and each node composed under it
//! straight from its page into its cell. The per-node path is kept to the flag check, one
//! compare of the parent id against the frame's, the compose and three stores into the cell
//! ([`PageCells`](super::world_column::PageCells)); the Workspace, a new parent and a deferred node
//! take the branch that prepares frames. Node `i`'s iteration asks for the hot record of
//! node `i` two pages ahead, one line per node spread over the page (pages are separate
//! allocations, too short for the hardware prefetcher). Figures: `docs/perf/transforms.md`.
//!
//! A node whose parent sits at a higher slot (moved under a later node, or created in a
//! reused slot) is *deferred*: the sweep leaves it, and may compute its descendants from its
//! stale world. Afterwards the deferred nodes are treated as dirty and their subtrees
//! recomputed by the ordinary walk (`roots`, `walk`), which overwrites everything the sweep
//! got wrong: a deferred root has no deferred ancestor, so its parent's world is right.
//!
//! Parallel sweep: the pages are cut into one contiguous range per thread (recursive
//! `rayon::join`). A range publishes how far it has got (an atomic slot count, stored with
//! `Release` after each page); a node whose parent lies in a lower range waits until that
//! range has passed the parent (`Acquire`). Waits only ever point to lower ranges, and the
//! first arm of a `join` runs at once on the calling thread while the second runs only
//! when stolen or after the first, so the lowest unfinished range is always running and the
//! sweep cannot deadlock; with one thread the ranges simply run in order.
//!
//! Invariants: each range writes only its own slots; a slot is read before the end of the
//! sweep only after its writer published it; deferred nodes are not written by the sweep.

use super::compose::{Frame, Frame4, IDENTITY, Pose, compose, local_pose};
use super::roots::in_world;
use super::world_column::{self, ColumnsMut, RawColumns};
use crate::prefetch::prefetch_ptr;
use arbor_core::{
    Id, LocalTransform,
    raw::{NodesView, PAGE_SIZE},
};
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use wide::f32x4;

/// How many pages ahead the sweep asks for hot records: node `i`'s iteration asks for the
/// line of node `i` of page `p + PREFETCH_PAGES`, so the requests are spread over the page
/// (see the module doc).
const PREFETCH_PAGES: usize = 2;

/// What the sweep found.
pub(crate) struct Swept {
    /// In-world nodes met (computed or deferred).
    pub in_world: usize,
    /// Nodes whose parent sits at a higher slot, in slot order.
    pub deferred: Vec<Id>,
}

/// Sweeps every page, in parallel ranges when `threads > 1`.
pub(crate) fn sweep(
    view: &NodesView<'_>,
    ws: Id,
    columns: ColumnsMut<'_>,
    simd: bool,
    threads: usize,
) -> Swept {
    let pages = view.page_count();
    let ranges = threads.clamp(1, pages.max(1));
    let per = pages.div_ceil(ranges).max(1);
    let bounds: Vec<Range<usize>> =
        (0..ranges).map(|r| (r * per).min(pages)..((r + 1) * per).min(pages)).collect();
    let progress: Vec<AtomicU32> =
        bounds.iter().map(|b| AtomicU32::new((b.start * PAGE_SIZE) as u32)).collect();
    let shared =
        Shared { view, ws, simd, cols: RawColumns::new(columns), bounds: &bounds, progress: &progress, per };
    let parts = shared.run(0..ranges);
    let mut swept = Swept { in_world: 0, deferred: Vec::new() };
    for part in parts {
        swept.in_world += part.in_world;
        swept.deferred.extend(part.deferred);
    }
    swept
}

/// What every range shares.
#[derive(Clone, Copy)]
struct Shared<'s, 'a> {
    view: &'s NodesView<'a>,
    ws: Id,
    simd: bool,
    cols: RawColumns<'s>,
    /// Pages of each range.
    bounds: &'s [Range<usize>],
    /// Slots below `progress[r]` of range `r` are written and published.
    progress: &'s [AtomicU32],
    /// Pages per range (the last may have fewer).
    per: usize,
}

impl Shared<'_, '_> {
    /// Runs ranges `rs`, lower half on this thread, upper half to be stolen; results in
    /// range order.
    fn run(&self, rs: Range<usize>) -> Vec<Swept> {
        if rs.len() == 1 {
            return vec![self.range(rs.start)];
        }
        let mid = rs.start + rs.len() / 2;
        let (mut lo, hi) = rayon::join(|| self.run(rs.start..mid), || self.run(mid..rs.end));
        lo.extend(hi);
        lo
    }

    /// Waits until the lower range owning `slot` has published it (`Acquire`); returns the
    /// slots of that range now known published.
    #[inline(never)]
    fn wait_for(&self, r: usize, slot: u32) -> Range<u32> {
        let owner = (slot as usize / PAGE_SIZE / self.per).min(r - 1);
        let mut spins = 0u32;
        loop {
            let done = self.progress[owner].load(Ordering::Acquire);
            if done > slot {
                return (self.bounds[owner].start * PAGE_SIZE) as u32..done;
            }
            // On a loaded machine the writer may be descheduled: give the core away
            // rather than spin through a whole time slice.
            spins += 1;
            if spins < 256 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Sweeps range `r` with the composition the pass asked for.
    fn range(&self, r: usize) -> Swept {
        if self.simd { self.range_with::<Frame4>(r) } else { self.range_with::<Frame>(r) }
    }

    /// Sweeps range `r`: each node composed under its parent's frame, prepared once when
    /// the parent changes (siblings sit side by side), and written to its cell by three
    /// stores. The per-node path is the flag check, one compare of the parent id against
    /// the frame's, the compose and the stores: the Workspace, new parents and deferred
    /// nodes all have a parent id other than the frame's, so they are sorted out off that
    /// path, and the high bits of a page's ids are checked once per page.
    fn range_with<F: SweepFrame>(&self, r: usize) -> Swept {
        let mut out = Swept { in_world: 0, deferred: Vec::new() };
        let slots = self.view.slots() as usize;
        let mut frame = F::of(&IDENTITY);
        // The parent whose frame `frame` holds: at first an id no node has (ids stay below
        // 2^53), so no node, the Workspace (parent `Id::NONE`) included, takes `frame` for
        // its parent's before one is prepared.
        let mut parent = NO_FRAME;
        // Slots of a lower range seen published (`wait_for`).
        let mut seen = 0..0;
        for p in self.bounds[r].clone() {
            let Some(page) = self.view.page(p) else { break };
            let ahead = self.view.page(p + PREFETCH_PAGES).unwrap_or(page).hot().as_ptr();
            let base = p * PAGE_SIZE;
            let end = slots.saturating_sub(base).min(PAGE_SIZE);
            // One hot record (a cache line) per node: id, flags, parent and local together.
            let hot = &page.hot()[..end];
            // SAFETY: the page's slots lie in range `r`, written by this thread alone; no
            // other range reads them before the `Release` store of `progress[r]` past them
            // below, after `cells`' last use.
            let mut cells = unsafe { self.cols.page_cells(base, end) };
            // Every id written on the page, or'ed: high bits anywhere show in its high half.
            let mut written_ids = 0u64;
            let mut met = 0;
            // Indexed by `0..end` (not an enumerating iterator): the optimiser then sees that
            // `i` is within `cells`' run too, and drops its bounds check (an enumerated
            // iterator kept it, and a spill, in the per-node path: +13% instructions).
            #[allow(clippy::needless_range_loop)]
            for i in 0..end {
                // One line a node, spread over the page rather than a page's lines in a
                // burst (see the module doc).
                prefetch_ptr(ahead.wrapping_add(i));
                let node = &hot[i];
                // A vacant slot's flags are empty, so it never passes.
                if !in_world(node.flags()) {
                    continue;
                }
                met += 1;
                let pid = node.parent();
                if pid != parent {
                    let id = node.id();
                    if id == self.ws {
                        let local = node.local();
                        let pos = f32x4::new([local.position.x, local.position.y, local.position.z, 0.0]);
                        cells.put(i, pos, f32x4::from(local.rotation.to_array()), id.0 as u32);
                        written_ids |= id.0;
                        continue;
                    }
                    let Some(ps) = self.parent_slot(r, pid, (base + i) as u32, &mut seen) else {
                        out.deferred.push(id);
                        // No frame: the old one is dead across the call above on every
                        // path, so the optimiser keeps it in registers without saving it.
                        (frame, parent) = (F::of(&IDENTITY), NO_FRAME);
                        continue;
                    };
                    // SAFETY: `parent_slot` returned `ps` published (see `parent_slot`).
                    let cell = unsafe { self.cols.read(ps) };
                    (frame, parent) = (F::of(&cell.pose()), pid);
                }
                let id = node.id();
                let (pos, rot) = frame.world(node.local());
                cells.put(i, pos, rot, id.0 as u32);
                written_ids |= id.0;
            }
            out.in_world += met;
            if self.cols.wide() || world_column::high_bits(Id(written_ids)) != 0 {
                for (i, node) in hot.iter().enumerate() {
                    let id = node.id();
                    if in_world(node.flags()) {
                        // SAFETY: as for `cells`: a slot of this page, this thread's alone.
                        // A deferred node's high bits are written too; the walk after the
                        // sweep rewrites its cell and high bits together.
                        unsafe { self.cols.put_high((base + i) as u32, id) };
                    }
                }
            }
            self.progress[r].store((base + PAGE_SIZE) as u32, Ordering::Release);
        }
        // Whatever happened above, no higher range may wait on this one any longer.
        self.progress[r].store(u32::MAX, Ordering::Release);
        out
    }

    /// The slot of `pid`, the parent of the node in `slot`, once its world is published: at
    /// once for a slot of range `r` itself (written earlier by this thread) or one `seen`
    /// already covers, else after waiting for its range; `None` when the parent sits at
    /// `slot` or above (the node is deferred). Cold and out of line: about one node in ten
    /// changes parent on a tree built parent first, and marked cold the loop is laid out for
    /// the siblings that share a frame, which stays in registers across them (7.34M → 7.14M
    /// instructions per all-dirty pass, a quarter fewer data reads). The frame is prepared by
    /// the caller from the returned slot: a cell returned through memory would be read back
    /// across the two stores that wrote it, which the store buffer cannot forward.
    ///
    /// A returned slot is below `slot`, so it belongs to range `r` (written earlier by this
    /// thread, sequenced before) or to a lower range whose `Release` publication of a count
    /// above it this thread has observed with `Acquire` (`wait_for`, now or for an earlier
    /// parent in `seen`); no range writes it again during the sweep.
    #[cold]
    #[inline(never)]
    fn parent_slot(&self, r: usize, pid: Id, slot: u32, seen: &mut Range<u32>) -> Option<u32> {
        let ps = self.view.slot_of(pid).map(|s| s.0).filter(|&ps| ps < slot)?;
        if (ps as usize) < self.bounds[r].start * PAGE_SIZE && !seen.contains(&ps) {
            *seen = self.wait_for(r, ps);
        }
        Some(ps)
    }
}

/// An id no node has (ids stay below 2^53): the sweep's "no frame yet".
const NO_FRAME: Id = Id(u64::MAX);

/// A parent's frame as the sweep uses it: four lanes ([`Frame4`]) or scalar ([`Frame`]),
/// the same bits.
trait SweepFrame: Copy {
    /// The frame of `pose`.
    fn of(pose: &Pose) -> Self;
    /// `parent ∘ local`: the position in the first three lanes, the rotation `[x, y, z, w]`.
    fn world(&self, local: &LocalTransform) -> (f32x4, f32x4);
}

impl SweepFrame for Frame4 {
    #[inline(always)]
    fn of(pose: &Pose) -> Self {
        Frame4::of(pose)
    }

    #[inline(always)]
    fn world(&self, local: &LocalTransform) -> (f32x4, f32x4) {
        Frame4::world(self, local)
    }
}

impl SweepFrame for Frame {
    #[inline(always)]
    fn of(pose: &Pose) -> Self {
        Frame::new(*pose)
    }

    #[inline(always)]
    fn world(&self, local: &LocalTransform) -> (f32x4, f32x4) {
        let w = compose(self, local_pose(local));
        (f32x4::new([w[0], w[1], w[2], 0.0]), f32x4::new([w[3], w[4], w[5], w[6]]))
    }
}
