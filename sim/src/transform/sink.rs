//! Where a walk's computed worlds go, and where a root's parent world comes from.
//!
//! One thread writes the world column directly ([`PosesMut`]). Several threads either
//! write their disjoint slots through a shared raw pointer ([`RawPoses`], the pass's one
//! use of `unsafe`) or collect `(slot, world)` pairs for the calling thread to scatter
//! afterwards ([`Collect`], the safe alternative, kept for the benchmark that justifies the
//! raw pointer).
//!
//! Invariant relied on by [`RawPoses`]: during a parallel walk the tasks cover disjoint
//! sets of nodes (see `walk`), so each slot is written by at most one task, and the only
//! slots read are parents of dirty roots, which no task writes.

use super::PoseCell;
use super::compose::{LANES, Pose};
use std::marker::PhantomData;

/// Where computed worlds go.
pub(crate) trait Sink {
    /// Writes one world to `slot`.
    fn put(&mut self, slot: u32, pose: &Pose);

    /// Writes the first `n` lanes of a batch (lane-major: `lanes[k][lane]`) to `slots[..n]`.
    #[inline]
    fn put8(&mut self, slots: &[u32; LANES], n: usize, lanes: &[[f32; LANES]; 7]) {
        for (lane, &slot) in slots.iter().enumerate().take(n) {
            self.put(slot, &std::array::from_fn(|k| lanes[k][lane]));
        }
    }
}

/// Where a root's parent world is read from.
pub(crate) trait Parents {
    /// The world stored in `slot`, which no task writes during the pass.
    fn parent_pose(&self, slot: u32) -> Pose;
}

/// Writes straight into the world column (one thread).
pub(crate) struct PosesMut<'c>(pub &'c mut [PoseCell]);

impl Sink for PosesMut<'_> {
    #[inline]
    fn put(&mut self, slot: u32, pose: &Pose) {
        self.0[slot as usize] = PoseCell::new(pose);
    }
}

impl Parents for [PoseCell] {
    #[inline]
    fn parent_pose(&self, slot: u32) -> Pose {
        self[slot as usize].pose()
    }
}

/// Collects `(slot, world)` pairs, to be scattered into the column afterwards.
#[derive(Default)]
pub(crate) struct Collect(pub Vec<(u32, Pose)>);

impl Sink for Collect {
    #[inline]
    fn put(&mut self, slot: u32, pose: &Pose) {
        self.0.push((slot, *pose));
    }
}

/// The world column, shared by the tasks of a parallel walk through a raw pointer.
///
/// Each task writes only the slots of the nodes it computes, and tasks cover disjoint sets
/// of nodes, so no element is written by two threads; the elements read (parents of dirty
/// roots) are written by none. The `'c` borrow of the column lasts as long as this value,
/// so nothing else touches the column meanwhile.
///
/// Why `unsafe` rather than the safe alternative ([`Collect`], reachable as
/// `WorldTransforms::update_collect_scatter`): collecting the pairs and scattering them on
/// the calling thread adds a sequential pass over every written world after the parallel
/// part. Benchmark `transform_write_strategy` (101,001 nodes, all dirty, 2 threads)
/// measured it slower; see the report at the top of `benches/benches/transform.rs`.
#[derive(Clone, Copy)]
pub(crate) struct RawPoses<'c> {
    ptr: *mut PoseCell,
    len: usize,
    column: PhantomData<&'c mut [PoseCell]>,
}

// SAFETY: copies on other threads dereference the pointer only in `put` and
// `parent_pose`, at in-bounds slots; subtrees are disjoint, so slots written by different
// tasks are, and parents of roots are never written during the pass. The column is
// exclusively borrowed for `'c`, so no other code touches it meanwhile.
unsafe impl Send for RawPoses<'_> {}
// SAFETY: as for `Send`: shared copies only write disjoint elements and read unwritten ones.
unsafe impl Sync for RawPoses<'_> {}

impl<'c> RawPoses<'c> {
    /// Shares `poses` for the length of its borrow.
    pub fn new(poses: &'c mut [PoseCell]) -> Self {
        Self { ptr: poses.as_mut_ptr(), len: poses.len(), column: PhantomData }
    }
}

impl Sink for RawPoses<'_> {
    #[inline]
    fn put(&mut self, slot: u32, pose: &Pose) {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world column");
        // SAFETY: `slot < len` (checked above) and the column is borrowed for `'c`. The slot
        // belongs to a node of this task's subtree; subtrees are disjoint, so no other
        // thread reads or writes this element during the pass.
        unsafe { self.ptr.add(slot).write(PoseCell::new(pose)) };
    }
}

impl Parents for RawPoses<'_> {
    #[inline]
    fn parent_pose(&self, slot: u32) -> Pose {
        let slot = slot as usize;
        assert!(slot < self.len, "slot {slot} outside the world column");
        // SAFETY: `slot < len` (checked above) and the column is borrowed for `'c`. The slot
        // holds the parent of a dirty root; that parent is not covered (else the root would
        // not be a root), so it lies in no recomputed subtree and no task writes it during
        // the pass: this read races with no write.
        unsafe { (*self.ptr.add(slot)).pose() }
    }
}
