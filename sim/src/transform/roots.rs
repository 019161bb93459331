//! Finding the dirty roots of a pass: the in-world dirty nodes none of whose ancestors is
//! dirty. Recomputing their subtrees recomputes every dirty node exactly once.
//!
//! Each pass has an epoch. A node is *covered* when it is dirty or below a dirty node. Every
//! dirty node's slot is first stamped "covered this epoch"; then each dirty node asks
//! whether its parent is covered. The answer for every node met on the way up is stamped
//! too, so a node is looked up at most once per pass however many dirty descendants ask
//! about it: the roots of a 2,500-deep chain whose nodes are all dirty cost O(2,500), not
//! O(2,500²). Nodes are read through the arena's [`NodesView`]; a stamped ancestor costs one
//! page read to find its slot and one mark read.
//!
//! Long dirty lists are split between threads: stamping first (an atomic swap claims each
//! slot once, so repeats are dropped), then, after every stamp is in, the coverage
//! questions. Two threads may answer for the same ancestor at once; they compute and store
//! the same answer, so the roots found never depend on scheduling.
//!
//! Invariant: a slot's mark is `epoch << 2 | state` when its coverage is known this pass
//! ([`COVERED`] set when it is covered, and [`WALKED`] with it once a walk of the
//! short-list route has written the world of a node with children, see `sparse`); marks of
//! earlier epochs mean nothing. When the epoch counter would overflow, every mark is
//! cleared.

use arbor_core::{
    Id, NodeFlags,
    raw::{NodeRef, NodesView},
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// Largest epoch (a mark keeps two bits for the state).
const MAX_EPOCH: u32 = u32::MAX >> 2;

/// Mark bit: the node is covered (dirty or below a dirty node).
pub(crate) const COVERED: u32 = 1;
/// Mark bit, with [`COVERED`]: a walk below a dirty root wrote the world of this node (one
/// with children) this pass.
pub(crate) const WALKED: u32 = 2;

/// The mark meaning `state` in pass `epoch`.
#[inline(always)]
pub(crate) fn mark_of(epoch: u32, state: u32) -> u32 {
    epoch << 2 | state
}

/// A dirty node whose subtree the pass recomputes.
#[derive(Clone, Copy)]
pub(crate) struct Root<'a> {
    /// Its slot.
    pub slot: u32,
    /// Its id (kept so the walk need not read the page's id column again).
    pub id: Id,
    /// The node.
    pub node: NodeRef<'a>,
    /// Its parent's slot, or `None` when the root is the top of the world (the Workspace).
    pub parent: Option<u32>,
}

impl<'a> Root<'a> {
    /// `node` (`id`) in `slot` as a root under the parent in `parent`.
    pub fn new(slot: u32, id: Id, node: NodeRef<'a>, parent: Option<u32>) -> Self {
        Self { slot, id, node, parent }
    }

    /// Its child array, holes included (read when the walk gets to it: a scattered root's
    /// child array is a cache miss of its own, not worth taking for a covered candidate).
    #[inline]
    pub fn children(&self) -> &'a [Id] {
        self.node.children().as_slice()
    }
}

/// The pass counter.
#[derive(Default)]
pub(crate) struct Epochs {
    epoch: u32,
}

/// Whether a node with `flags` is live and in the world.
#[inline]
pub(crate) fn in_world(flags: NodeFlags) -> bool {
    flags.contains(NodeFlags::IN_WORLD) && !flags.contains(NodeFlags::DESTROYED)
}

/// What root finding reads and stamps.
#[derive(Clone, Copy)]
pub(crate) struct Finder<'a> {
    /// The arena's pages.
    pub view: &'a NodesView<'a>,
    /// Root-finding stamps by slot: `epoch << 2 | state`.
    pub marks: &'a [AtomicU32],
    /// The Workspace, the top of the world.
    pub ws: Id,
}

impl Epochs {
    /// Starts a new pass and returns its epoch.
    pub fn next_epoch(&mut self, marks: &[AtomicU32]) -> u32 {
        if self.epoch == MAX_EPOCH {
            for m in marks {
                m.store(0, Ordering::Relaxed);
            }
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }

    /// The roots of `dirty` (plus `extra`, treated as dirty): live, in-world, each once,
    /// none below another, in the order of `dirty`. Ids that are gone or detached are
    /// skipped. With `parallel`, lists of at least two `chunk`s are shared out to the
    /// current rayon pool, `chunk` ids per task.
    pub fn find<'a>(
        &mut self,
        finder: Finder<'a>,
        dirty: &[Id],
        extra: Option<Id>,
        parallel: bool,
        chunk: usize,
    ) -> Vec<Root<'a>> {
        let epoch = self.next_epoch(finder.marks);
        let extra = extra.as_slice();
        if !parallel || rayon::current_num_threads() == 1 || dirty.len() < 2 * chunk {
            let mut candidates = Vec::with_capacity(extra.len() + dirty.len());
            finder.stamp(epoch, extra, false, &mut candidates);
            finder.stamp(epoch, dirty, false, &mut candidates);
            let mut path = Vec::new();
            return finder.keep_roots(epoch, candidates, &mut path);
        }
        let chunks: Vec<&[Id]> = std::iter::once(extra).chain(dirty.chunks(chunk)).collect();
        // All stamps must be in before the first coverage question.
        let candidates: Vec<Vec<(Root<'a>, Option<Id>)>> = chunks
            .par_iter()
            .map(|chunk| {
                let mut out = Vec::with_capacity(chunk.len());
                finder.stamp(epoch, chunk, true, &mut out);
                out
            })
            .collect();
        let roots: Vec<Vec<Root<'a>>> = candidates
            .into_par_iter()
            .map_init(Vec::new, |path, candidates| finder.keep_roots(epoch, candidates, path))
            .collect();
        roots.concat()
    }
}

impl<'a> Finder<'a> {
    #[inline]
    fn mark(&self, slot: u32) -> u32 {
        self.marks[slot as usize].load(Ordering::Relaxed)
    }

    /// Stamps the live in-world nodes of `ids` covered, each once; appends to `out` those
    /// that may be roots with their parents (read now, while their pages are in cache). `shared`:
    /// other threads stamp at the same time, so a slot is claimed with an atomic swap (one
    /// thread wins a repeated id); alone, a plain load and store do (a locked swap would
    /// serialise the cache misses of consecutive ids).
    fn stamp(&self, epoch: u32, ids: &[Id], shared: bool, out: &mut Vec<(Root<'a>, Option<Id>)>) {
        let covered = mark_of(epoch, COVERED);
        for &id in ids {
            let Some((slot, node)) = self.view.locate(id) else { continue };
            if !in_world(node.flags()) {
                continue;
            }
            let mark = &self.marks[slot.index()];
            let claimed = if shared {
                mark.swap(covered, Ordering::Relaxed) != covered
            } else {
                mark.load(Ordering::Relaxed) != covered && {
                    mark.store(covered, Ordering::Relaxed);
                    true
                }
            };
            if !claimed {
                continue;
            }
            let parent = node.parent();
            // A parent already stamped is dirty, so this node is covered and no question
            // needs asking later (dirty lists usually name parents first: all of a new
            // tree's nodes).
            if let Some(p) = parent
                && let Some(ps) = self.view.slot_of(p)
                && self.mark(ps.0) & !WALKED == covered
            {
                continue;
            }
            out.push((Root::new(slot.0, id, node, None), parent));
        }
    }

    /// The candidates whose parent is not covered, with their parents' slots.
    fn keep_roots(
        &self,
        epoch: u32,
        candidates: Vec<(Root<'a>, Option<Id>)>,
        path: &mut Vec<u32>,
    ) -> Vec<Root<'a>> {
        let mut roots = Vec::with_capacity(candidates.len());
        for (mut root, parent) in candidates {
            // The Workspace is the top of the world: nothing above it can cover it.
            let top = root.id == self.ws;
            let (covered, parent) = if top { (false, None) } else { self.covered(epoch, parent, path) };
            if !covered {
                root.parent = parent;
                roots.push(root);
            }
        }
        roots
    }

    /// Whether `start` (the parent of an in-world node other than the Workspace, so itself
    /// in the world) is dirty or below a dirty node, stamping the answer on every node
    /// visited; also the slot of `start`. The climb stops at the first node stamped this
    /// pass, or at the Workspace: every node on the way is in the world by the arena's
    /// invariant, so no flag needs reading.
    pub fn covered(&self, epoch: u32, start: Option<Id>, path: &mut Vec<u32>) -> (bool, Option<u32>) {
        let Some((first, node)) = start.and_then(|id| self.view.locate(id)) else { return (false, None) };
        // The usual case: the parent was stamped this pass (a node stamped this pass is in
        // the world, and its answer is known).
        let m = self.mark(first.0);
        if m >> 2 == epoch {
            return (m & COVERED != 0, Some(first.0));
        }
        path.clear();
        path.push(first.0);
        let mut cur = if start == Some(self.ws) { None } else { node.parent() };
        let answer = loop {
            let Some(id) = cur else { break false };
            let Some((slot, node)) = self.view.locate(id) else { break false };
            let m = self.mark(slot.0);
            if m >> 2 == epoch {
                break m & COVERED != 0;
            }
            path.push(slot.0);
            if id == self.ws {
                break false;
            }
            cur = node.parent();
        };
        let stamp = mark_of(epoch, if answer { COVERED } else { 0 });
        for &slot in path.iter() {
            self.marks[slot as usize].store(stamp, Ordering::Relaxed);
        }
        (answer, Some(first.0))
    }
}
