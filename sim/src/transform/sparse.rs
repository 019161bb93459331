//! The short-list route: finding the dirty roots of a short dirty list and computing their
//! worlds in one sweep over the list (or two halves of it), with no root list.
//!
//! A 1%-dirty tick names scattered nodes (a thousand at 100,000 nodes, about 18,000 in a
//! million-instance place), most of them leaves: each costs a few scattered cache lines and
//! a few dozen instructions, so the route keeps its machinery small. On the calling thread
//! (or on two, see below):
//! 1. every live in-world dirty node's slot is stamped covered (a plain load and store: no
//!    other thread stamps that slot) and the node kept as a candidate (slot, a reference to
//!    its hot record — id, flags, parent and local in one line — and child array; a leaf's
//!    child array is not read, its `HAS_CHILDREN` flag, kept by the arena, says it is
//!    empty). The loop also gathers what step 2 needs of each candidate's page, so many
//!    scattered loads are in flight at once; candidates are written in place into room for
//!    every id;
//! 2. each candidate *with children* asks whether its parent is covered (the climb of
//!    `roots`, stamping the answer on every node it meets); a root's world is computed at
//!    once from its parent's stored world and written, and its subtree walked right away
//!    (`walk`), up to a budget of `Split::sparse_walk` worlds; past the budget, roots are
//!    left as units (world and child array) instead;
//! 3. the units left are walked by `walk::run_units`, which shares them out to rayon only
//!    when a level is wide enough to be worth a fork. Every walk of the route stamps the
//!    nodes *with children* it writes `WALKED` (see `roots`);
//! 4. once every walk is done, each candidate *without children* (most of a tick's dirty
//!    list) is a root exactly when its parent is not covered: a leaf has a dirty ancestor
//!    only if it lies in the subtree of a dirty node with children, and every such subtree
//!    has just been walked, its inner nodes stamped. So a leaf asks nothing of its
//!    ancestors but its parent's mark; its world is computed from its parent's stored world,
//!    four leaves at once on the SIMD path (see `leaf_roots`). The parent's slot is confirmed by
//!    the tag of its cell (`Parents::tag`), on the line read next for the parent's world.
//!
//! With several threads and a dirty list of at least `Split::min_roots` ids, steps 1, 2 and
//! 4 each run as two halves, writing through [`RawColumns`]: all three under one
//! `rayon::join` (`split_phases`), or, when step 2 leaves units for step 3, steps 1–2 under one
//! and step 4 under another after step 3. The list is halved by a hash of the id rather
//! than by position, so every copy of an id is stamped by the same thread and a plain load
//! and store still claim each slot once. When the other thread is busy the calling thread
//! runs both halves itself. Figures, and the alternatives measured:
//! `docs/perf/transforms.md`.
//!
//! Invariants (those of `roots` and `walk`): every stamp is in before the first coverage
//! question, and every walk is done before the first leaf is settled; a root's parent is
//! not covered, so nothing in this pass writes it and the world read for it is final; each
//! root is written once (its slot was claimed by one stamp), and no root lies in another
//! root's subtree, so the halves and the units write disjoint slots. A climb stops at the
//! first node stamped this pass, so it never rewrites a walked node's mark, and a node it
//! stamps uncovered is never walked (the walk's root would be a covered ancestor the climb
//! would have met): after the walks, a node with children is covered exactly when its mark
//! says so, which is what a leaf reads of its parent. A cell whose tag (and high bits, all
//! zero while no id reaches 2^32) names a node lies in that node's slot: a node keeps its
//! slot for life, ids are never reused, and every world is written to its own node's slot.

use super::PoseCell;
use super::compose::{Frame, compose_cell, local_pose};
use super::leaf_roots::compose_four;
use super::roots::{COVERED, Finder, in_world, mark_of};
use super::split_phases::three_phases;
use super::walk::{self, Split, Unit, Walker, Writes};
use super::world_column::{ColumnsMut, Parents, RawColumns, Sink};
use crate::prefetch::prefetch_ptr;
use arbor_core::{
    Id, NodeFlags,
    raw::{HotNode, Slot},
};
use std::sync::atomic::Ordering;

/// A live in-world dirty node stamped this pass, with what the root loop needs of its page
/// (gathered by the stamping loop, whose short independent iterations keep many of these
/// scattered loads in flight at once): its hot record, whose line the stamping loop has
/// just read, and its child array.
#[derive(Clone, Copy)]
struct Candidate<'a> {
    slot: u32,
    /// Its hot record: id, parent (`Id::NONE`: none), local transform.
    hot: &'a HotNode,
    children: &'a [Id],
}

impl Candidate<'_> {
    /// Its id.
    #[inline(always)]
    fn id(&self) -> Id {
        self.hot.id()
    }

    /// Slot `parent - 1`, where the parent usually lives, when that slot is inside the
    /// arena's `slots` (`Id::NONE` wraps past the end).
    #[inline(always)]
    fn parent_home(&self, slots: u32) -> Option<u32> {
        let home = self.hot.parent().0.wrapping_sub(1);
        (home < u64::from(slots)).then_some(home as u32)
    }
}

/// What the route needs besides the columns.
#[derive(Clone, Copy)]
pub(crate) struct Route<'a> {
    /// Reads and stamps for root finding.
    pub finder: Finder<'a>,
    /// Reads and composes for the walk.
    pub walker: Walker<'a>,
    /// This pass's epoch.
    pub epoch: u32,
}

/// What a pass of the route did: roots, and worlds written (the roots included).
pub(crate) struct Done {
    pub roots: usize,
    pub written: usize,
}

/// Recomputes the subtrees under the roots of `dirty` (plus `extra`, treated as dirty).
pub(crate) fn run<'a>(
    route: Route<'a>,
    dirty: &[Id],
    extra: Option<Id>,
    mut columns: ColumnsMut<'_>,
    parallel: bool,
    writes: Writes,
    split: Split,
) -> Done {
    let parallel = parallel && rayon::current_num_threads() > 1;
    if !(parallel && writes == Writes::Direct && dirty.len() >= split.min_roots) {
        let candidates = stamp(route, dirty, extra, None);
        let limit = if parallel { split.sparse_walk } else { usize::MAX };
        let (mut roots, mut written, left) = inner_roots_and_walks(route, &candidates, &mut columns, limit);
        written += walk::run_units(route.walker, left, columns.reborrow(), parallel, writes, split);
        let (leaves, leaf_writes) = leaf_roots(route, &candidates, &mut columns);
        roots += leaves;
        written += leaf_writes;
        return Done { roots, written };
    }
    // Stamping takes the dirty nodes' own scattered lines, about half the route: each half
    // stamps the ids of its half of the list (every copy of an id lands in the same half, and
    // each half runs on one thread, so a plain load and store still claims each slot once),
    // then, after both are in, settles its own candidates; the leaves once every walk is
    // done. The three phases share one join (`split_phases`); units left over from the walks'
    // budget are walked between the second and third, outside it (the walk may fork).
    let limit = split.sparse_walk;
    let raw = RawColumns::new(columns.reborrow());
    let ([a, b], [(ra, wa, mut left), (rb, wb, lb)], leaves) = three_phases(
        |h| stamp(route, dirty, extra, Some(h == 1)),
        |_, candidates| inner_roots_and_walks(route, candidates, &mut { raw }, limit),
        |(_, _, la), (_, _, lb)| la.is_empty() && lb.is_empty(),
        |_, candidates| leaf_roots(route, candidates, &mut { raw }),
    );
    let mut written = wa + wb;
    let [(la, lwa), (lb, lwb)] = match leaves {
        Some(leaves) => leaves,
        None => {
            left.extend(lb);
            written += walk::run_units(route.walker, left, columns.reborrow(), parallel, writes, split);
            let (mut sa, mut sb) = raw_pair(&mut columns);
            let (la, lb) = rayon::join(|| leaf_roots(route, &a, &mut sa), || leaf_roots(route, &b, &mut sb));
            [la, lb]
        }
    };
    written += lwa + lwb;
    Done { roots: ra + rb + la + lb, written }
}

/// Two shared handles on `columns` for the two halves of a join.
fn raw_pair<'c>(columns: &'c mut ColumnsMut<'_>) -> (RawColumns<'c>, RawColumns<'c>) {
    let raw = RawColumns::new(columns.reborrow());
    (raw, raw)
}

/// Dirty ids ahead of the one being stamped whose lines are asked for. In the hot loop of
/// a benchmark the stamping loop's own independent iterations already keep enough of these
/// loads in flight (best of 30 rounds unchanged, 57–60 µs on one thread); after a pause,
/// with the lines gone from the caches as between two ticks (`transform_probe idle`), the
/// median pass was shorter in six of seven alternating runs, by 7–30% (450–500 µs → 340 µs
/// in the last two; the machine's noise moves the medians between 150 and 500 µs).
const STAMP_AHEAD: usize = 12;

/// Asks for the lines stamping `id` will read (in the usual case of slot `id - 1`): its
/// hot record (id, flags, parent and local transform, one line) and its mark (not its
/// child array, read only for a node with children, a few in a 1% list). Raw addresses, no
/// bounds checks: a prefetch never faults and reads nothing.
#[inline(always)]
fn prefetch_node(finder: Finder<'_>, id: Id) {
    let slot = id.0.wrapping_sub(1);
    if slot >= u64::from(finder.view.slots()) {
        return;
    }
    let Some((page, i)) = finder.view.page_of(Slot(slot as u32)) else { return };
    prefetch_ptr(page.hot().as_ptr().wrapping_add(i));
    prefetch_ptr(finder.marks.as_ptr().wrapping_add(slot as usize));
}

/// Candidates ahead of the leaf being settled whose lines are asked for. After a pause
/// (`transform_probe idle`) the median pass was shorter in four of five alternating runs
/// (e.g. 360–410 → 270–290 µs), the hot loop unchanged within its noise.
const LEAF_AHEAD: usize = 8;

/// Asks for the lines settling leaf `c` reads: its cell and hot record, and its parent's
/// mark and cell (in the usual case of slot `parent - 1`).
#[inline(always)]
fn prefetch_leaf(finder: Finder<'_>, sink: &impl Parents, c: &Candidate<'_>) {
    if !c.children.is_empty() {
        return;
    }
    sink.prefetch_cell(c.slot);
    prefetch_ptr(c.hot);
    if let Some(home) = c.parent_home(finder.view.slots()) {
        prefetch_ptr(finder.marks.as_ptr().wrapping_add(home as usize));
        sink.prefetch_cell(home);
    }
}

/// Which half of a dirty list `id` belongs to when two threads stamp it: a hash of the id,
/// so that every copy of an id falls in the same half and any set of ids (all even, all in
/// one range) splits about evenly.
#[inline(always)]
fn upper_half(id: Id) -> bool {
    id.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1
}

/// Stamps every live in-world node of `extra` and `dirty` covered, each once, and returns
/// them in that order; with `half`, only the ids of that half ([`upper_half`]).
fn stamp<'a>(route: Route<'a>, dirty: &[Id], extra: Option<Id>, half: Option<bool>) -> Vec<Candidate<'a>> {
    let Route { finder, epoch, .. } = route;
    let covered = mark_of(epoch, COVERED);
    // Room for every id (each is kept at most once), so candidates are written in place with
    // no capacity check per push: the gathered fields then stay in registers rather than
    // being saved around the growth call.
    let mut kept: Vec<Candidate<'a>> = Vec::with_capacity(dirty.len() + 1);
    let room = kept.spare_capacity_mut();
    let mut candidates = Kept { room, len: 0 };
    let one = |candidates: &mut Kept<'_, 'a>, id: Id| stamp_one(finder, covered, candidates, id);
    // Like every id, `extra` belongs to one half only.
    if let Some(ws) = extra
        && half.is_none_or(|h| upper_half(ws) == h)
    {
        one(&mut candidates, ws);
    }
    match half {
        None => {
            for (k, &id) in dirty.iter().enumerate() {
                if let Some(&ahead) = dirty.get(k + STAMP_AHEAD) {
                    prefetch_node(finder, ahead);
                }
                one(&mut candidates, id);
            }
        }
        Some(h) => {
            for (k, &id) in dirty.iter().enumerate() {
                if let Some(&ahead) = dirty.get(k + STAMP_AHEAD)
                    && upper_half(ahead) == h
                {
                    prefetch_node(finder, ahead);
                }
                if upper_half(id) == h {
                    one(&mut candidates, id);
                }
            }
        }
    }
    let len = candidates.len;
    // SAFETY: `Kept::push` initialised the first `len` elements of the spare capacity (and
    // `len` never exceeds it: `room[len]` is bounds checked).
    unsafe { kept.set_len(len) };
    kept
}

/// Candidates written in place into a vector's spare capacity (see [`stamp`]).
struct Kept<'r, 'a> {
    room: &'r mut [std::mem::MaybeUninit<Candidate<'a>>],
    /// Elements of `room` written, from the first.
    len: usize,
}

impl<'a> Kept<'_, 'a> {
    #[inline(always)]
    fn push(&mut self, c: Candidate<'a>) {
        self.room[self.len].write(c);
        self.len += 1;
    }
}

/// Stamps `id` covered with `covered` and keeps it as a candidate if it is live, in the
/// world and not yet stamped (a repeat).
#[inline(always)]
fn stamp_one<'a>(finder: Finder<'a>, covered: u32, candidates: &mut Kept<'_, 'a>, id: Id) {
    let Some((slot, node)) = finder.view.locate(id) else { return };
    let flags = node.flags();
    if !in_world(flags) {
        return;
    }
    // Only this thread stamps this id's slot (ids and live slots are one to one), so a plain
    // load and store claim it.
    let mark = &finder.marks[slot.index()];
    if mark.load(Ordering::Relaxed) == covered {
        return; // a repeat
    }
    mark.store(covered, Ordering::Relaxed);
    candidates.push(Candidate {
        slot: slot.0,
        hot: node.hot(),
        // A leaf's child array is not read: its flags say it is empty.
        children: if flags.contains(NodeFlags::HAS_CHILDREN) { node.children().as_slice() } else { &[] },
    });
}

/// Keeps the candidates with children whose parent is not covered (the inner roots),
/// writes their worlds, and walks their subtrees until `limit` worlds are written; returns
/// the roots, the worlds written and the units left to walk. Leaves are left to
/// [`leaf_roots`].
fn inner_roots_and_walks<'a, S: Sink + Parents>(
    route: Route<'a>,
    candidates: &[Candidate<'a>],
    sink: &mut S,
    limit: usize,
) -> (usize, usize, Vec<Unit<'a>>) {
    let Route { finder, walker, epoch } = route;
    let mut path = Vec::new();
    let mut stack = Vec::new();
    let (mut roots, mut written) = (0, 0);
    for &Candidate { slot, hot, children, .. } in candidates {
        if children.is_empty() {
            continue;
        }
        let (id, parent, local) = (hot.id(), hot.parent(), *hot.local());
        // The Workspace is the top of the world: nothing above it can cover it.
        let cell = if id == finder.ws {
            PoseCell::new(&local_pose(&local))
        } else {
            match finder.covered(epoch, (!parent.is_none()).then_some(parent), &mut path) {
                (true, _) => continue,
                (false, Some(parent)) => {
                    compose_cell(&Frame::new(sink.parent_pose(parent)), &local, walker.simd)
                }
                (false, None) => PoseCell::new(&local_pose(&local)),
            }
        };
        let world = cell.pose();
        sink.put(slot, id, cell);
        roots += 1;
        written += 1;
        stack.push((world, children));
        if written < limit {
            written += walker.drain_until(&mut stack, sink, limit - written);
        }
    }
    (roots, written, stack)
}

/// Writes the worlds of the candidates without children that no walk wrote (the leaf
/// roots: a leaf has a dirty ancestor exactly when it lies in the subtree of a dirty node
/// with children, which the walks have just covered); returns the roots and the worlds
/// written. Runs only once every walk of the pass is done.
///
/// A leaf was walked exactly when its parent is covered: a covered parent is dirty (stamped
/// covered) or below a dirty node, and then a walk wrote it, and stamped it (walks stamp the
/// nodes with children they write, see `Walker::walked`). A parent stamped by a climb is
/// covered or not as the climb found, and a walk never passes a node a climb found uncovered
/// (its root would be a covered ancestor). So the leaf reads its parent's mark rather than
/// walks stamping every leaf they write.
fn leaf_roots<S: Sink + Parents>(
    route: Route<'_>,
    candidates: &[Candidate<'_>],
    sink: &mut S,
) -> (usize, usize) {
    let Route { finder, walker, epoch } = route;
    let Some(first) = candidates.first() else { return (0, 0) };
    let mut roots = 0;
    // Leaves waiting to be composed four at once (SIMD only), with their parents' slots.
    let mut batch: [(u32, &Candidate<'_>); 4] = [(0, first); 4];
    let mut queued = 0;
    // Tags alone name their owners (no id at or above 2^32 written).
    let narrow = sink.narrow();
    for (k, c) in candidates.iter().enumerate() {
        if let Some(ahead) = candidates.get(k + LEAF_AHEAD) {
            prefetch_leaf(finder, sink, ahead);
        }
        if !c.children.is_empty() {
            continue;
        }
        let parent = if c.id() == finder.ws {
            None
        } else if narrow
            && let Some(home) = c.parent_home(finder.view.slots())
            && sink.tag(home) == c.hot.parent().0 as u32
        {
            // The cell of slot `parent - 1` holds a world computed for the parent (a slot is
            // below 2^32 - 1, so the parent's id is below 2^32, and with `narrow` a tag names
            // its owner), so the parent lives there: a node keeps its slot for life, ids are
            // never reused, and a world is only ever written to its own node's slot. The tag
            // is on the cell's line, read next for the parent's world, where the parent's id
            // column would be a line of its own.
            Some(home)
        } else {
            finder.view.slot_of(c.hot.parent()).map(|s| s.0)
        };
        let Some(ps) = parent else {
            sink.put(c.slot, c.id(), PoseCell::new(&local_pose(c.hot.local())));
            roots += 1;
            continue;
        };
        let m = finder.marks[ps as usize].load(Ordering::Relaxed);
        if m >> 2 == epoch && m & COVERED != 0 {
            continue; // walked below a dirty ancestor
        }
        roots += 1;
        // The parent is not covered, so nothing in this pass writes it: its stored world is
        // final.
        if !walker.simd {
            sink.put(c.slot, c.id(), compose_cell(&Frame::new(sink.parent_pose(ps)), c.hot.local(), false));
            continue;
        }
        batch[queued] = (ps, c);
        queued += 1;
        if queued == 4 {
            flush_leaves(&batch, 4, sink);
            queued = 0;
        }
    }
    flush_leaves(&batch, queued, sink);
    (roots, roots)
}

/// Composes and writes the first `n` leaves of `batch` (parent slot, leaf) four at once
/// (lanes past `n` repeat the first leaf and are not written).
#[inline(always)]
fn flush_leaves<S: Sink + Parents>(batch: &[(u32, &Candidate<'_>); 4], n: usize, sink: &mut S) {
    if n == 0 {
        return;
    }
    let pick = |k: usize| batch[if k < n { k } else { 0 }];
    let parents: [PoseCell; 4] = std::array::from_fn(|k| sink.parent_cell(pick(k).0));
    let rows = compose_four(
        std::array::from_fn(|k| &parents[k]),
        std::array::from_fn(|k| pick(k).1.hot.local()),
        std::array::from_fn(|k| pick(k).1.id().0 as u32),
    );
    for (k, &(_, c)) in batch.iter().enumerate().take(n) {
        sink.put_rows(c.slot, c.id(), rows[k]);
    }
}
