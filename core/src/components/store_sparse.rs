//! The component store's sparse-set operations: where an instance's row holding a component
//! is (archetype row or set row), inserting and removing set rows (sets created in order, when
//! first written), and the components and rows counted across tables and sets.
//!
//! Invariants kept (see `sparse_set`): `sparse[i]` is the set of `registry.sparse_sets()[i]`;
//! `locs[id] = (t, r)` exactly when the set's table `t` holds `id` at row `r`; a removed row's
//! place is filled by the set's last row, whose location is updated.

use super::indices::TableRow;
use super::locs::RowLoc;
use super::schema::ComponentId;
use super::sparse_set::SparseSet;
use super::store::ComponentStore;
use super::table::Table;
use crate::id::Id;
use crate::nodes::sharded_map::ShardedMap;
use smallvec::SmallVec;
use std::borrow::Cow;

impl ComponentStore {
    /// Where `id`'s row holding component `c` is: its archetype row for a table component,
    /// its row in `c`'s set for a sparse-set one; `None` if `id` lacks `c` (or `c` is not
    /// registered).
    #[inline]
    pub(crate) fn loc_of(&self, id: Id, c: ComponentId) -> Option<RowLoc> {
        match self.registry.try_info(c)?.sparse_set {
            None => self.loc(id).filter(|l| self.tables[l.table as usize].slot(c).is_some()),
            Some(i) => self.sparse.get(i as usize)?.locs.get(id),
        }
    }

    /// Whether `c` is a sparse-set component.
    #[inline]
    pub(crate) fn is_sparse(&self, c: ComponentId) -> bool {
        self.registry.try_info(c).is_some_and(|i| i.sparse_set.is_some())
    }

    /// Where `id`'s row is in sparse set `set` (a [`ComponentInfo::sparse_set`] index).
    ///
    /// [`ComponentInfo::sparse_set`]: super::schema::ComponentInfo::sparse_set
    #[inline]
    pub(crate) fn sparse_loc(&self, set: u32, id: Id) -> Option<RowLoc> {
        self.sparse.get(set as usize)?.locs.get(id)
    }

    /// Creates the sets up to `set` (out of line: once per sparse component).
    #[cold]
    #[inline(never)]
    fn create_sparse_sets(&mut self, set: u32) {
        while self.sparse.len() <= set as usize {
            let owner = self.registry.sparse_sets()[self.sparse.len()];
            let table = self.tables.len() as u32;
            self.tables.push(Table::new_sparse_set(owner, &self.registry, self.write_log_capacity));
            self.sparse.push(SparseSet { table, locs: ShardedMap::default() });
        }
    }

    /// Gives `id`, which lacks sparse component `c`, a zeroed row in `c`'s set ticked `rev`;
    /// returns its location.
    pub(crate) fn sparse_insert(&mut self, id: Id, c: ComponentId, rev: u64) -> RowLoc {
        let set = self.registry.info(c).sparse_set.expect("a sparse-set component");
        self.sparse_insert_in(set, id, rev)
    }

    /// [`sparse_insert`](Self::sparse_insert) into set index `set`.
    #[inline]
    pub(crate) fn sparse_insert_in(&mut self, set: u32, id: Id, rev: u64) -> RowLoc {
        self.membership = rev;
        if set as usize >= self.sparse.len() {
            self.create_sparse_sets(set);
        }
        let SparseSet { table, locs } = &mut self.sparse[set as usize];
        let row = self.tables.make_mut(*table as usize).push_row(id, rev);
        let loc = RowLoc { table: *table, row: row.index() as u32 };
        locs.insert(id, loc);
        loc
    }

    /// Removes `id`'s row from sparse component `c`'s set; returns whether it had one.
    pub(crate) fn sparse_remove(&mut self, id: Id, c: ComponentId, rev: u64) -> bool {
        let Some(set) = self.registry.info(c).sparse_set else { return false };
        let Some(loc) = self.sparse_loc(set, id) else { return false };
        self.sparse_remove_at(set, id, loc, rev);
        true
    }

    /// Removes `id`'s row, at `loc`, from sparse set `set`; the set's last row fills its place.
    #[inline]
    pub(crate) fn sparse_remove_at(&mut self, set: u32, id: Id, loc: RowLoc, rev: u64) {
        self.membership = rev;
        let locs = &mut self.sparse[set as usize].locs;
        locs.remove(id);
        if let Some(moved) = self.tables.make_mut(loc.table as usize).swap_remove(loc.table_row(), rev) {
            locs.insert(moved, loc);
        }
    }

    /// The sparse-set components `id` has, in id order.
    pub(crate) fn sparse_components_of(&self, id: Id) -> SmallVec<[ComponentId; 4]> {
        let owners = self.registry.sparse_sets();
        self.sparse
            .iter()
            .zip(owners)
            .filter(|(set, _)| set.locs.get(id).is_some())
            .map(|(_, &c)| c)
            .collect()
    }

    /// The components `id` has, sorted by id (empty if none): its table's, and the sparse-set
    /// ones holding it (borrowed from the table when it is in no sparse set).
    pub fn components_of(&self, id: Id) -> Cow<'_, [ComponentId]> {
        let in_table: &[ComponentId] = match self.loc(id) {
            Some(l) => &self.tables[l.table as usize].components,
            None => &[],
        };
        if self.sparse.is_empty() {
            return Cow::Borrowed(in_table);
        }
        let sparse = self.sparse_components_of(id);
        if sparse.is_empty() {
            return Cow::Borrowed(in_table);
        }
        let mut all = Vec::with_capacity(in_table.len() + sparse.len());
        all.extend_from_slice(in_table);
        all.extend_from_slice(&sparse);
        all.sort_unstable();
        Cow::Owned(all)
    }

    /// Number of instances with at least one component.
    pub fn row_count(&self) -> usize {
        let mut n = self.locs.len();
        for (i, set) in self.sparse.iter().enumerate() {
            let table = &self.tables[set.table as usize];
            // Holders counted already: those with a table row or in an earlier set.
            n += (0..table.len)
                .map(|r| table.id_at(TableRow(r)))
                .filter(|&id| {
                    self.loc(id).is_none() && self.sparse[..i].iter().all(|s| s.locs.get(id).is_none())
                })
                .count();
        }
        n
    }

    /// Number of rows in sparse sets (an instance counts once per sparse component it has).
    pub fn sparse_row_count(&self) -> usize {
        self.sparse.iter().map(|s| s.locs.len()).sum()
    }
}
