//! [`ComponentStore`]: the archetype tables, row locations and schemas — the part of the
//! component store a snapshot shares.
//!
//! Tables sit in a [`CowVec`] and their rows in table chunks (every lane of [`CHUNK_ROWS`]
//! rows in one allocation, see `table_chunk`), so a snapshot copies the table list, and the first
//! write after it copies one table's chunk pointers and one table chunk, all its lanes. Row
//! locations live in id-indexed copy-on-write pages ([`RowLocs`]). Each table keeps a
//! bounded write log per component ([`WriteLog`](super::writelog::WriteLog)), cloned with it.
//!
//! Sparse-set components keep their rows apart, one table per component (see `sparse_set`).
//!
//! Invariants: `locs[id] = (t, r)` exactly when archetype table `tables[t]` has `ids[r] ==
//! id`; an instance has at most one archetype row, in the table of exactly its set of table
//! components; tables are never removed, so
//! table indexes stay valid for cached queries.

#[cfg(doc)]
use super::lane_layout::CHUNK_ROWS;
use super::lane_layout::LaneKind;
use super::locs::{RowLoc, RowLocs};
use super::schema::{ComponentId, FieldValue, SchemaRegistry, decode};
use super::sparse_set::SparseSet;
use super::table::Table;
use crate::id::Id;
use crate::nodes::cow::CowVec;
use rustc_hash::FxHashMap;
use std::any::TypeId;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

static STORE_UIDS: AtomicU64 = AtomicU64::new(1);

/// Tables, locations and schemas.
#[derive(Clone)]
pub struct ComponentStore {
    pub(crate) registry: Arc<SchemaRegistry>,
    pub(crate) tables: CowVec<Table>,
    pub(crate) by_set: FxHashMap<Box<[ComponentId]>, u32>,
    pub(crate) locs: RowLocs,
    /// The sparse-set components' rows (see `sparse_set`), by set index.
    pub(crate) sparse: Vec<SparseSet>,
    pub(crate) pod_types: FxHashMap<TypeId, ComponentId>,
    /// Identity shared by this store and its snapshots (keys query caches).
    pub(crate) uid: u64,
    /// Revision of the last change of any row's component set.
    pub(crate) membership: u64,
    /// Most entries a table keeps in each component's write log.
    pub(crate) write_log_capacity: usize,
}

impl Default for ComponentStore {
    fn default() -> Self {
        Self {
            registry: Arc::default(),
            tables: CowVec::default(),
            by_set: FxHashMap::default(),
            locs: RowLocs::default(),
            sparse: Vec::new(),
            pod_types: FxHashMap::default(),
            uid: STORE_UIDS.fetch_add(1, Ordering::Relaxed),
            membership: 0,
            write_log_capacity: super::writelog::WRITE_LOG_CAPACITY,
        }
    }
}

impl ComponentStore {
    /// The schemas.
    pub fn registry(&self) -> &SchemaRegistry {
        &self.registry
    }

    /// The id of component `name`.
    pub fn component(&self, name: &str) -> Option<ComponentId> {
        self.registry.id(name)
    }

    /// Number of archetype tables.
    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// Revision of the last change of any instance's component set.
    pub fn membership_revision(&self) -> u64 {
        self.membership
    }

    #[inline]
    pub(crate) fn loc(&self, id: Id) -> Option<RowLoc> {
        self.locs.get(id)
    }

    /// Whether `id` has component `c`.
    pub fn has(&self, id: Id, c: ComponentId) -> bool {
        self.loc_of(id, c).is_some()
    }

    /// Whether the archetype row at `loc` (if any) has table component `c`: [`has`](Self::has)
    /// for callers that already hold the location (a sparse-set component is never in it).
    #[inline]
    pub(crate) fn row_has(&self, loc: Option<RowLoc>, c: ComponentId) -> bool {
        loc.is_some_and(|l| self.tables[l.table as usize].slot(c).is_some())
    }

    /// Field `field` of `id`'s component `c`.
    pub fn field(&self, id: Id, c: ComponentId, field: usize) -> Option<FieldValue> {
        let l = self.loc_of(id, c)?;
        let table = &self.tables[l.table as usize];
        let slot = table.lanes_of(table.slot(c)?);
        let info = self.registry.info(c);
        let def = info.schema.fields.get(field)?;
        let first = slot.first_lane + info.field_lanes[field];
        Some(decode(def.ty, |i| table.chunks.get(table.columns[first + i], l.row as usize)))
    }

    /// Field `name` of `id`'s component `c`.
    pub fn field_by_name(&self, id: Id, c: ComponentId, name: &str) -> Option<FieldValue> {
        if c.index() >= self.registry.len() {
            return None;
        }
        self.field(id, c, self.registry.info(c).field(name)?)
    }

    /// Every field of `id`'s component `c`.
    pub fn row(&self, id: Id, c: ComponentId) -> Option<Vec<FieldValue>> {
        if c.index() >= self.registry.len() {
            return None;
        }
        let n = self.registry.info(c).schema.fields.len();
        (0..n).map(|f| self.field(id, c, f)).collect()
    }

    /// The revision at which `id`'s component `c` was last written (single-row or bulk).
    pub fn row_revision(&self, id: Id, c: ComponentId) -> Option<u64> {
        let l = self.loc_of(id, c)?;
        let table = &self.tables[l.table as usize];
        let s = table.slot(c)?;
        Some(table.row_revision(s, l.table_row()))
    }

    /// `id`'s component `c` as the plain-old-data type `T` registered for it.
    pub fn get_pod<T: super::pod::PodComponent>(&self, id: Id) -> Option<T> {
        let c = *self.pod_types.get(&TypeId::of::<T>())?;
        let l = self.loc_of(id, c)?;
        let table = &self.tables[l.table as usize];
        let slot = table.lanes_of(table.slot(c)?);
        let mut value = T::zeroed();
        let bytes = bytemuck::bytes_of_mut(&mut value);
        let mut at = 0;
        for (lane, kind) in self.registry.info(c).lane_kinds.iter().enumerate() {
            let w = table.word(slot.first_lane + lane, l.table_row());
            let n = if *kind == LaneKind::W64 { 8 } else { 4 };
            bytes[at..at + n].copy_from_slice(&w.to_le_bytes()[..n]);
            at += n;
        }
        Some(value)
    }

    /// The table for exactly `set` (sorted), created if new.
    pub(crate) fn table_for(&mut self, set: &[ComponentId]) -> u32 {
        if let Some(&t) = self.by_set.get(set) {
            return t;
        }
        let t = self.tables.len() as u32;
        self.tables.push(Table::new(set.into(), &self.registry, self.write_log_capacity));
        self.by_set.insert(set.into(), t);
        t
    }

    /// The table reached from `from` by adding (`add`) or removing `c`.
    #[inline]
    pub(crate) fn neighbour(&mut self, from: Option<u32>, c: ComponentId, add: bool) -> Option<u32> {
        if let Some(from) = from
            && let Some(to) = self.cached_neighbour(from, c, add)
        {
            return Some(to);
        }
        self.new_neighbour(from, c, add)
    }

    /// The cached transition from table `from` adding (`add`) or removing `c`, if any. Only
    /// real transitions are cached, so a hit also tells that `from` lacks `c` (`add`) or has
    /// it (removing).
    #[inline]
    pub(crate) fn cached_neighbour(&self, from: u32, c: ComponentId, add: bool) -> Option<u32> {
        let edges = &self.tables[from as usize].edges;
        edges.iter().find(|(ec, ea, _)| *ec == c && *ea == add).map(|&(_, _, to)| to)
    }

    /// [`neighbour`](Self::neighbour) for a transition not cached yet.
    #[inline(never)]
    fn new_neighbour(&mut self, from: Option<u32>, c: ComponentId, add: bool) -> Option<u32> {
        let Some(from) = from else {
            return add.then(|| self.table_for(&[c]));
        };
        let table = &self.tables[from as usize];
        let mut set: Vec<ComponentId> = table.components.to_vec();
        match (set.binary_search(&c), add) {
            (Err(pos), true) => set.insert(pos, c),
            (Ok(pos), false) => {
                set.remove(pos);
            }
            _ => return Some(from),
        }
        let to = if set.is_empty() { u32::MAX } else { self.table_for(&set) };
        self.tables.make_mut(from as usize).edges.push((c, add, to));
        Some(to)
    }

    /// Moves `id`'s row from `from` (if any) to table `to` (`u32::MAX`: no table), keeping
    /// shared components; returns the new location.
    pub(crate) fn move_row(&mut self, id: Id, from: Option<RowLoc>, to: u32, rev: u64) -> Option<RowLoc> {
        self.membership = rev;
        match (from, to) {
            (Some(l), u32::MAX) => {
                let table = self.tables.make_mut(l.table as usize);
                if let Some(moved) = table.swap_remove(l.table_row(), rev) {
                    self.locs.relocate(moved, l);
                }
                self.locs.remove(id);
                None
            }
            (Some(l), _) => {
                // Both tables at once: the row's columns move in one pass.
                let (src, dst) = self.tables.make_mut_pair(l.table as usize, to as usize);
                // The new locations are known before the move (the row goes to the end of
                // `dst`, the last row of `src` fills its place): recorded first, their page
                // lookups overlap the move.
                let new_loc = RowLoc { table: to, row: dst.len as u32 };
                self.locs.relocate(id, new_loc);
                let (row, moved) = super::row_move::move_row(src, dst, l.table_row(), rev);
                debug_assert_eq!(row, new_loc.table_row());
                if let Some(moved) = moved {
                    self.locs.relocate(moved, l);
                }
                Some(new_loc)
            }
            (None, u32::MAX) => {
                self.locs.remove(id);
                None
            }
            (None, _) => {
                let row = self.tables.make_mut(to as usize).push_row(id, rev);
                let new_loc = RowLoc { table: to, row: row.index() as u32 };
                self.locs.insert(id, new_loc);
                Some(new_loc)
            }
        }
    }

    /// Commits the rows staged in table `t` (see [`Table::stage_lanes`]) for `ids` (which
    /// have no rows yet, one per staged row), with row ticks `rev`, and records their
    /// locations.
    pub(crate) fn commit_table(&mut self, t: u32, ids: &[Id], rev: u64) {
        self.membership = rev;
        let table = self.tables.make_mut(t as usize);
        let start = table.commit_staged(ids, rev);
        self.locs.insert_run(ids, t, start);
    }

    /// Removes table `t`, the last one, created by a batch that was then refused (no row,
    /// query or transition can know it yet).
    pub(crate) fn drop_new_table(&mut self, t: u32) {
        debug_assert_eq!(t as usize + 1, self.tables.len());
        debug_assert_eq!(self.tables[t as usize].len, 0);
        self.by_set.remove(&self.tables[t as usize].components);
        self.tables.pop_owned();
    }

    /// Bytes a clone (a snapshot) copies rather than shares: the table and location-page
    /// pointers.
    pub fn top_bytes(&self) -> usize {
        self.tables.pointer_bytes()
            + self.locs.top_bytes()
            + self.sparse.iter().map(|s| s.locs.top_bytes()).sum::<usize>()
    }

    /// Heap bytes held by tables (chunks shared with snapshots counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.tables.iter().map(|t| t.heap_bytes()).sum::<usize>()
            + self.locs.heap_bytes()
            + self.sparse.iter().map(|s| s.locs.heap_bytes()).sum::<usize>()
    }

    /// Bytes of the strings the String fields of every row hold.
    pub fn text_bytes(&self) -> usize {
        self.tables.iter().map(|t| t.text_bytes()).sum()
    }
}
