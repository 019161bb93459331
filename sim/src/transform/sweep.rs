//! The whole-world pass: every in-world node recomputed by one sweep over the pages in
//! slot order, for dirty lists that name most of the arena.
//!
//! A tree built parent first keeps every parent at a lower slot than its children, so one
//! ascending sweep — `world[s] = world[parent(s)] ∘ local[s]` — meets every parent before
//! its children: the plain SoA pass, reading each page's id, flag, parent and local columns
//! in order (prefetched two pages ahead) instead of following child arrays. Siblings sit
//! side by side in such a tree, so a parent's frame (`Frame`, and its four-lane form
//! `Frame4`) is prepared once when the parent changes and each node composed under it
//! straight from its page into its cell: about 40% fewer instructions than filling,
//! transposing and scattering eight-sibling `f32x8` batches (best of 20 rounds on the
//! large tree, one thread: 0.93 ms before, 0.63 ms after).
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

use super::PoseCell;
use super::compose::{Frame, Frame4, IDENTITY, compose, local_pose};
use super::prefetch::prefetch;
use super::roots::in_world;
use super::sink::{ColumnsMut, RawColumns, Sink};
use arbor_core::PageView;
use arbor_core::{Id, NodesView, PAGE_SIZE};
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};

/// How many pages ahead the sweep asks for columns.
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

    /// The world stored in `slot` once it is published: at once for a slot of range `r`
    /// itself (written earlier by this thread), else after waiting for its range.
    #[inline]
    fn parent_cell(&self, r: usize, slot: u32) -> PoseCell {
        if (slot as usize) < self.bounds[r].start * PAGE_SIZE {
            let owner = (slot as usize / PAGE_SIZE / self.per).min(r - 1);
            let mut spins = 0u32;
            while self.progress[owner].load(Ordering::Acquire) <= slot {
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
        // SAFETY: `slot` is below this node's slot, so it belongs to range `r` (written
        // earlier by this thread, sequenced before) or to a lower range whose `Release`
        // publication of a count above `slot` this thread has just observed with `Acquire`;
        // no range writes it again during the sweep.
        unsafe { self.cols.read(slot) }
    }

    /// Sweeps range `r`: each node composed under its parent's frame, prepared once when
    /// the parent changes (siblings sit side by side).
    fn range(&self, r: usize) -> Swept {
        let mut out = Swept { in_world: 0, deferred: Vec::new() };
        let slots = self.view.slots();
        let mut sink = self.cols;
        let mut frame = Frame::new(IDENTITY);
        let mut frame4 = Frame4::new(&frame);
        // The parent whose frame `frame` holds (`Id::NONE`: none yet).
        let mut parent = Id::NONE;
        for p in self.bounds[r].clone() {
            let Some(page) = self.view.page(p) else { break };
            if let Some(next) = self.view.page(p + PREFETCH_PAGES) {
                prefetch_columns(&next);
            }
            let (ids, flags, parent_ids, locals) =
                (page.ids(), page.flags(), page.parents(), page.transforms());
            let base = (p * PAGE_SIZE) as u32;
            let end = (slots.saturating_sub(base) as usize).min(PAGE_SIZE);
            for i in 0..end {
                // A vacant slot's flags are empty, so it never passes.
                if !in_world(flags[i]) {
                    continue;
                }
                let (slot, id) = (base + i as u32, ids[i]);
                out.in_world += 1;
                if id == self.ws {
                    sink.put(slot, id, PoseCell::new(&local_pose(&locals[i])));
                    continue;
                }
                let pid = parent_ids[i];
                if pid != parent {
                    parent = Id::NONE;
                    let Some(ps) = self.view.slot_of(pid).map(|s| s.0).filter(|&ps| ps < slot) else {
                        out.deferred.push(id);
                        continue;
                    };
                    frame = Frame::new(self.parent_cell(r, ps).pose());
                    frame4 = Frame4::new(&frame);
                    parent = pid;
                }
                let cell = if self.simd {
                    frame4.compose(&locals[i])
                } else {
                    PoseCell::new(&compose(&frame, local_pose(&locals[i])))
                };
                sink.put(slot, id, cell);
            }
            self.progress[r].store(base + PAGE_SIZE as u32, Ordering::Release);
        }
        // Whatever happened above, no higher range may wait on this one any longer.
        self.progress[r].store(u32::MAX, Ordering::Release);
        out
    }
}

/// Asks for the columns the sweep reads of `page` (ids, flags, parents, locals) to be
/// brought into cache while the current page is processed: each page's columns are short
/// runs in separate 4 KiB pages, too short for the hardware prefetcher to pick up.
#[inline]
fn prefetch_columns(page: &PageView<'_>) {
    prefetch(page.ids());
    prefetch(page.flags());
    prefetch(page.parents());
    prefetch(page.transforms());
}
