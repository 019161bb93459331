//! Sparse-set storage: the rows of each [`Storage::SparseSet`] component kept in a set of
//! their own, indexed by instance, so adding or removing the component appends or
//! swap-removes one row there and never moves the holder's archetype row.
//!
//! A set is one table of the store's table list whose component set is the component alone
//! (flagged `sparse`: no archetype query or transition reaches it), plus the row locations of
//! its holders. As the set's table sits in the same copy-on-write list as the archetype
//! tables, snapshots, write logs, change detection, snapshot diffs and memory accounting
//! treat it as any table.
//!
//! Invariants: `sparse[i]` is the set of `registry.sparse_sets()[i]`; sets are created in
//! order, when first written (a set past `sparse.len()` holds nothing); `locs[id] = (t, r)`
//! exactly when the set's table `t` holds `id` at row `r`; a sparse table is never in
//! `by_set` and has no edges.

use super::locs::RowLoc;
#[cfg(doc)]
use super::schema::Storage;
use crate::id::Id;
use crate::nodes::sharded_map::ShardedMap;

/// The rows of one sparse-set component.
#[derive(Clone)]
pub(crate) struct SparseSet {
    /// Index of the set's table in the store's table list.
    pub table: u32,
    /// Where each holder's row is in that table: a copy-on-write sharded hash map, whose
    /// bytes follow the holders (id-indexed pages would cost a page for every few holders
    /// scattered over a large place) and whose clone copies 32 shard pointers.
    pub locs: ShardedMap<Id, RowLoc>,
}

#[cfg(test)]
#[path = "sparse_set_tests.rs"]
mod tests;
