//! Queries over the component store: [`Query`] (with / without component sets, a cached
//! table list that picks up new tables), read-only chunk views, mutable lane access per
//! chunk (sequential or parallel with rayon), and change detection that skips chunks whose
//! revision predates the reader's.
//!
//! Invariant: a query's cached table list is valid for stores with the same `uid` (an arena
//! and its snapshots); on another store it is rebuilt.

use super::chunk_lanes::{ChunkLanes, WideLanes};
use super::chunk_list::rows_in_chunk;
use super::indices::{ChunkIndex, ComponentSlot};
use super::lane_layout::LaneKind;
use super::lane_layout::{CHUNK_ROWS, LaneSpec};
use super::pass::{Plan, Planned, Resolved, Shape};
use super::schema::{ComponentId, FieldType, SchemaRegistry};
use super::store::ComponentStore;
use super::table::Table;
use super::table_chunk::TableChunk;
use crate::id::Id;
use rayon::prelude::*;
use smallvec::SmallVec;

/// A component set filter with a cached list of matching tables.
///
/// A query naming sparse-set components walks the set of the first one it requires (else
/// the archetype tables of its table components) and checks the rest row by row. Chunk
/// passes and [`ComponentStore::for_each_chunk`] lend whole chunks, so they take queries
/// that need no row check: table components only (with or without), or one sparse-set
/// component alone.
#[derive(Clone, Debug, Default)]
pub struct Query {
    with: SmallVec<[ComponentId; 4]>,
    without: SmallVec<[ComponentId; 2]>,
    /// How the tables are walked, classified for the store `uid` names.
    walk: Walk,
    tables: Vec<u32>,
    seen: usize,
    uid: u64,
    /// Lane requests of the last chunk pass and their resolution per cached table.
    lanes: Option<LaneCache>,
}

/// The lanes a chunk pass asked for, resolved for each of the query's tables (in order).
#[derive(Clone, Debug)]
struct LaneCache {
    reads: SmallVec<[Lane; 8]>,
    writes: SmallVec<[Lane; 8]>,
    resolved: Vec<Option<Resolved>>,
    /// The pass's shape if [`ChunkLanes`] holds its lanes inline; then one plan per table
    /// resolved so far in which the lanes resolved (in table order).
    shape: Option<Shape>,
    plans: Vec<Plan>,
}

/// How a query walks the store: which tables it visits and whether each of their rows must
/// be checked against the query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Walk {
    /// Not classified yet (or for another store).
    #[default]
    Unknown,
    /// The archetype tables matching the table components; rows checked if the query
    /// excludes a sparse-set component.
    Tables { check_rows: bool },
    /// The set of sparse component `driver` (the first one required); rows checked unless
    /// the query is that component alone.
    Sparse { driver: ComponentId, check_rows: bool },
}

/// The message of a chunk-wise walk over a query that needs row checks.
const NEEDS_ROW_CHECKS: &str = "a chunk-wise walk needs a query of table components, or of one sparse-set \
     component alone; use ids(), count() or changed_since() for other queries";

impl Query {
    /// Matches instances having every component of `with`.
    pub fn new(with: &[ComponentId]) -> Self {
        Self { with: with.into(), ..Default::default() }
    }

    /// Also requires having none of `without`.
    pub fn without(mut self, without: &[ComponentId]) -> Self {
        self.without = without.into();
        self
    }

    /// Whether the query walks `table` (see [`Walk`]).
    fn matches(&self, table: &Table) -> bool {
        match self.walk {
            Walk::Sparse { driver, .. } => table.sparse && table.components[..] == [driver],
            _ => {
                !table.sparse
                    && self.with.iter().all(|c| table.slot(*c).is_some())
                    && self.without.iter().all(|c| table.slot(*c).is_none())
            }
        }
    }

    /// How this query walks `store`'s tables.
    fn classify(&self, store: &ComponentStore) -> Walk {
        let driver = self.with.iter().copied().find(|&c| store.is_sparse(c));
        let sparse_without = self.without.iter().any(|&c| store.is_sparse(c));
        match driver {
            Some(driver) => {
                Walk::Sparse { driver, check_rows: self.with.len() > 1 || !self.without.is_empty() }
            }
            None => Walk::Tables { check_rows: sparse_without },
        }
    }

    /// Whether rows of the walked tables must be checked against the query.
    fn checks_rows(&self) -> bool {
        matches!(self.walk, Walk::Tables { check_rows: true } | Walk::Sparse { check_rows: true, .. })
    }

    /// Whether instance `id` (holding a row of a walked table) matches the query.
    fn row_matches(&self, store: &ComponentStore, id: Id) -> bool {
        self.with.iter().all(|&c| store.has(id, c)) && self.without.iter().all(|&c| !store.has(id, c))
    }

    /// The matching tables of `store`, picking up tables created since the last call.
    pub(crate) fn tables(&mut self, store: &ComponentStore) -> &[u32] {
        if self.uid != store.uid || self.walk == Walk::Unknown {
            self.uid = store.uid;
            self.walk = self.classify(store);
            self.tables.clear();
            self.seen = 0;
            self.lanes = None;
        }
        for t in self.seen..store.tables.len() {
            if self.matches(&store.tables[t]) {
                self.tables.push(t as u32);
            }
        }
        if self.seen <= store.tables.len() {
            self.seen = store.tables.len();
            return &self.tables;
        }
        // An older snapshot of the same store holds a prefix of its tables: lend only those.
        let n = self.tables.partition_point(|&t| (t as usize) < store.tables.len());
        &self.tables[..n]
    }
}

/// One lane of a component: `lane` counts from the component's first lane (a `Vector3`
/// field at lane 2 occupies lanes 2, 3, 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane {
    /// The component.
    pub component: ComponentId,
    /// Lane index within the component.
    pub lane: u16,
}

impl Lane {
    /// The lane `k` places further (the y and z of a `Vector3`).
    pub fn offset(self, k: u16) -> Lane {
        Lane { component: self.component, lane: self.lane + k }
    }
}

/// A read-only view of one chunk of one table.
pub struct ChunkView<'a> {
    table: &'a Table,
    k: usize,
    len: usize,
}

impl<'a> ChunkView<'a> {
    /// Rows in this chunk.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the chunk is empty (never, for chunks handed out by queries).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The instances owning the rows.
    pub fn ids(&self) -> &'a [Id] {
        &bytemuck::cast_slice(self.table.chunks.blocks(self.table.ids, self.k, self.len))[..self.len]
    }

    /// A word lane as a slice of `T` (`f32`, `i32`, `u32` for 32-bit lanes; `f64`, `i64`,
    /// `u64` for 64-bit lanes). `None` if the table lacks the component, if the lane is past
    /// the component's lanes, or if it is a string lane.
    pub fn lane<T: bytemuck::Pod>(&self, lane: Lane) -> Option<&'a [T]> {
        let s = self.table.slot(lane.component)?;
        let slot = self.table.lanes_of(s);
        let col = slot.first_lane + lane.lane as usize;
        let col = self.table.columns[col];
        if usize::from(lane.lane) >= slot.lanes || col.kind == LaneKind::Str {
            return None;
        }
        Some(&bytemuck::cast_slice(self.table.chunks.blocks(col, self.k, self.len))[..self.len])
    }

    /// Whether component `c` may have been written in this chunk after revision `since`.
    pub fn changed_since(&self, c: ComponentId, since: u64) -> bool {
        self.table.slot(c).is_some_and(|s| self.table.chunk_revision(s, ChunkIndex(self.k)) > since)
    }
}

/// What a touched column is for: read lane `i` or written lane `i` (request order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Read(usize),
    Write(usize),
}

/// Resolves `reads` and `writes` in `table`; `None` if the table lacks one of them (string
/// lanes count as lacking, and so do reference lanes requested for writing: a raw write
/// would bypass the reverse index).
///
/// # Panics
/// If a lane is both read and written, or written twice.
fn resolve(table: &Table, registry: &SchemaRegistry, reads: &[Lane], writes: &[Lane]) -> Option<Resolved> {
    let col = |l: &Lane| -> Option<usize> {
        let s = table.slot(l.component)?;
        let slot = table.lanes_of(s);
        let c = slot.first_lane + l.lane as usize;
        (usize::from(l.lane) < slot.lanes && table.columns[c].kind != LaneKind::Str).then_some(c)
    };
    let writable = |l: &Lane| -> Option<usize> {
        let info = registry.info(l.component);
        let is_ref = info
            .schema
            .fields
            .iter()
            .zip(&info.field_lanes)
            .any(|(f, &first)| f.ty == FieldType::InstanceRef && first == usize::from(l.lane));
        col(l).filter(|_| !is_ref)
    };
    let mut written_slots: SmallVec<[usize; 4]> = SmallVec::new();
    for l in writes {
        let s = table.slot(l.component)?;
        if !written_slots.contains(&s.index()) {
            written_slots.push(s.index());
        }
    }
    let mut roles: SmallVec<[(usize, Role); 8]> = SmallVec::new();
    for (i, l) in reads.iter().enumerate() {
        roles.push((col(l)?, Role::Read(i)));
    }
    for (i, l) in writes.iter().enumerate() {
        let c = writable(l)?;
        assert!(
            roles.iter().all(|&(other, _)| other != c),
            "a lane may not be both read and written, nor written twice"
        );
        roles.push((c, Role::Write(i)));
    }
    let read_cols = roles.iter().filter(|(_, role)| matches!(role, Role::Read(_))).map(|&(c, _)| c).collect();
    let write_cols =
        roles.iter().filter(|(_, role)| matches!(role, Role::Write(_))).map(|&(c, _)| c).collect();
    let mut wide = (reads.len() <= 64 && writes.len() <= 64).then(WideLanes::default);
    for &(c, role) in &roles {
        if let Some(w) = wide.as_mut().filter(|_| table.columns[c].kind == LaneKind::W64) {
            match role {
                Role::Read(i) => w.reads |= 1 << i,
                Role::Write(i) => w.writes |= 1 << i,
            }
        }
    }
    Some(Resolved { read_cols, write_cols, written_slots, wide_lanes: wide })
}

impl Query {
    /// The matching tables of `store` with `reads` / `writes` resolved in each, resolving
    /// only tables that are new or lanes that changed since the last pass; with the pass's
    /// shape and plans if it has them (plans may run past `store`'s tables).
    /// Whether the plans of the last pass hold for this one: same store, no new tables, the
    /// same lanes (what every pass over an unchanged world checks, kept short).
    #[inline]
    fn plans_current(&self, store: &ComponentStore, reads: &[Lane], writes: &[Lane]) -> bool {
        self.lanes.as_ref().is_some_and(|cache| {
            cache.shape.is_some()
                && self.uid == store.uid
                && self.seen == store.tables.len()
                && cache.resolved.len() == self.tables.len()
                && cache.reads.as_slice() == reads
                && cache.writes.as_slice() == writes
        })
    }

    fn resolved(
        &mut self,
        store: &ComponentStore,
        reads: &[Lane],
        writes: &[Lane],
    ) -> (&[u32], &[Option<Resolved>], Planned<'_>) {
        // On an older snapshot the store holds only a prefix of the cached tables.
        let n = self.tables(store).len();
        let stale = self.lanes.as_ref().is_none_or(|c| c.reads[..] != *reads || c.writes[..] != *writes);
        if stale {
            self.lanes = Some(LaneCache {
                reads: reads.into(),
                writes: writes.into(),
                resolved: Vec::new(),
                shape: Shape::new(reads.len(), writes.len()),
                plans: Vec::new(),
            });
        }
        let cache = self.lanes.as_mut().expect("just ensured");
        for &t in self.tables.get(cache.resolved.len()..n).unwrap_or_default() {
            let r = resolve(&store.tables[t as usize], &store.registry, reads, writes);
            if let (Some(shape), Some(r)) = (cache.shape.as_mut(), &r) {
                cache.plans.push(Plan::new(t, r, shape));
            }
            cache.resolved.push(r);
        }
        let plans = cache.shape.map(|shape| (shape, &cache.plans[..]));
        (&self.tables[..n], &cache.resolved[..n], plans)
    }
}

/// The lanes of chunk `k` of `table` as `r` requests them, stamping the written lanes with
/// `rev` (the caller stamps the bulk revisions once per table). Inlined into the pass.
#[inline(always)]
fn chunk_lanes_at<'a>(table: &'a mut Table, r: &Resolved, k: usize, rev: u64) -> ChunkLanes<'a> {
    let len = table.chunk_len(ChunkIndex(k));
    let Table { chunks, columns, ids, .. } = table;
    lend_resolved(chunks.make_mut(k), columns, *ids, r, k, len, rev)
}

/// The lanes of `chunk` (chunk `k` of a table with `columns` and `ids`, holding `len` rows,
/// private) as `r` requests them, stamping the written lanes with `rev`.
fn lend_resolved<'a>(
    chunk: &'a mut TableChunk,
    columns: &[LaneSpec],
    ids: LaneSpec,
    r: &Resolved,
    k: usize,
    len: usize,
    rev: u64,
) -> ChunkLanes<'a> {
    let mut lender = chunk.lender();
    let mut lanes = ChunkLanes {
        // SAFETY: the table's ids lane, never lent for writing (it is no column).
        ids: unsafe { lender.ids(ids) },
        first_row: (k * CHUNK_ROWS) as u32,
        reads: SmallVec::new(),
        writes: SmallVec::new(),
        len: len as u32,
    };
    for &c in &r.write_cols {
        // SAFETY: `columns[c]` is a word lane of the table owning `chunk` (`resolve` refuses
        // string lanes), `len <= CHUNK_ROWS` (a chunk's rows), and `resolve` guarantees the
        // written columns are distinct from each other and from every read column.
        lanes.writes.push(unsafe { lender.write(columns[c], len, rev) });
    }
    for &c in &r.read_cols {
        // SAFETY: a word lane of the table (as above) that no lent lane writes; `len <=
        // CHUNK_ROWS`.
        lanes.reads.push(unsafe { lender.read(columns[c], len) });
    }
    lanes
}

/// The lanes of every chunk of `table` as `r` requests them, stamping written lanes and the
/// written components' bulk revisions with `rev`; each comes with the request's 64-bit lanes,
/// for splitting it by rows.
fn table_chunk_lanes<'a>(
    table: &'a mut Table,
    r: &Resolved,
    rev: u64,
) -> SmallVec<[(ChunkLanes<'a>, Option<WideLanes>); 1]> {
    for &s in &r.written_slots {
        table.stamp_bulk(ComponentSlot(s), rev);
    }
    let len = table.len;
    let Table { chunks, columns, ids, .. } = table;
    chunks
        .iter_mut()
        .enumerate()
        .map(|(k, chunk)| {
            (lend_resolved(chunk, columns, *ids, r, k, rows_in_chunk(len, k), rev), r.wide_lanes)
        })
        .collect()
}

impl ComponentStore {
    /// The first lane of field `field` of component `c`.
    pub fn lane(&self, c: ComponentId, field: &str) -> Option<Lane> {
        if c.index() >= self.registry.len() {
            return None;
        }
        let info = self.registry.info(c);
        let f = info.field(field)?;
        Some(Lane { component: c, lane: info.field_lanes[f] as u16 })
    }

    /// Calls `f` for every chunk of every table matching `query`.
    ///
    /// # Panics
    /// If `query` needs rows checked one by one (see [`Query`]).
    pub fn for_each_chunk<'a>(&'a self, query: &mut Query, mut f: impl FnMut(ChunkView<'a>)) {
        query.tables(self);
        assert!(!query.checks_rows(), "{NEEDS_ROW_CHECKS}");
        self.chunks_of(query, &mut f);
    }

    /// [`for_each_chunk`](Self::for_each_chunk) without the check: every row of every table
    /// the query walks.
    fn chunks_of<'a>(&'a self, query: &mut Query, f: &mut impl FnMut(ChunkView<'a>)) {
        for &t in query.tables(self) {
            let table = &self.tables[t as usize];
            for k in 0..table.chunk_count() {
                f(ChunkView { table, k, len: table.chunk_len(ChunkIndex(k)) });
            }
        }
    }

    /// Whether chunk-wise walks ([`for_each_chunk`](Self::for_each_chunk), chunk passes)
    /// take `query`: it names table components only, or one sparse-set component alone.
    pub fn walks_chunks(&self, query: &mut Query) -> bool {
        query.tables(self);
        !query.checks_rows()
    }

    /// Number of instances matching `query`.
    pub fn count(&self, query: &mut Query) -> usize {
        query.tables(self);
        if query.checks_rows() {
            return self.ids(query).len();
        }
        let mut n = 0;
        self.chunks_of(query, &mut |c| n += c.len());
        n
    }

    /// Whether `id`'s component set matches `query`.
    pub fn matches(&self, query: &Query, id: Id) -> bool {
        if self.sparse.is_empty() {
            let table = self.loc(id).map(|l| &self.tables[l.table as usize]);
            return table.is_some_and(|t| {
                query.with.iter().all(|c| t.slot(*c).is_some())
                    && query.without.iter().all(|c| t.slot(*c).is_none())
            });
        }
        // A query requiring nothing walks the archetype tables: it matches instances with a row
        // there.
        (!query.with.is_empty() || self.loc(id).is_some()) && query.row_matches(self, id)
    }

    /// Instances matching `query`, table by table (for a query requiring a sparse-set
    /// component, in its set's row order).
    pub fn ids(&self, query: &mut Query) -> Vec<Id> {
        let mut out = Vec::new();
        self.chunks_of(query, &mut |c| out.extend_from_slice(c.ids()));
        if query.checks_rows() {
            out.retain(|&id| query.row_matches(self, id));
        }
        out
    }

    /// Instances matching `query` whose component `c` was written after revision `since`,
    /// table by table in row order. Each table answers from its write log for `c` when the
    /// log reaches back to `since` and names few rows; otherwise chunks, and groups of 64
    /// rows inside them, whose revision is not newer are skipped without reading their rows.
    ///
    /// For a sparse-set `c`, its set answers (in its row order), checked against `query`; a
    /// query requiring a sparse-set component other than `c` reads the row revision of each
    /// instance it matches.
    pub fn changed_since(&self, query: &mut Query, c: ComponentId, since: u64) -> Vec<Id> {
        let mut out = Vec::new();
        query.tables(self);
        if let Walk::Sparse { driver, .. } = query.walk
            && driver != c
        {
            let mut out = self.ids(query);
            out.retain(|&id| self.row_revision(id, c).is_some_and(|r| r > since));
            return out;
        }
        if let Some(i) = self.registry.try_info(c).and_then(|i| i.sparse_set) {
            let Some(set) = self.sparse.get(i as usize) else { return out };
            let table = &self.tables[set.table as usize];
            table.ids_written_since(ComponentSlot(0), since, &mut out);
            out.retain(|&id| query.row_matches(self, id));
            return out;
        }
        for &t in query.tables(self) {
            let table = &self.tables[t as usize];
            let Some(s) = table.slot(c) else { continue };
            table.ids_written_since(s, since, &mut out);
        }
        if query.checks_rows() {
            out.retain(|&id| query.row_matches(self, id));
        }
        out
    }

    /// Runs `f` on every chunk matching `query` with `reads` lanes readable and `writes` lanes
    /// writable, stamping written chunks with `rev` (copying them first if a snapshot shares
    /// them). Tables lacking a requested lane are skipped; string lanes cannot be accessed as
    /// slices and count as lacking, and so do reference lanes requested for writing. A lane
    /// must not be both read and written, nor written twice. Lane positions are resolved once
    /// per table and cached in the query.
    pub(crate) fn for_each_chunk_mut(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        rev: u64,
        f: impl FnMut(ChunkLanes<'_>),
    ) {
        if !query.plans_current(self, reads, writes) {
            query.tables(self);
            assert!(!query.checks_rows(), "{NEEDS_ROW_CHECKS}");
            let (tables, resolved, plans) = query.resolved(self, reads, writes);
            if plans.is_none() {
                self.resolved_pass(tables, resolved, rev, f);
                return;
            }
        }
        let cache = query.lanes.as_ref().expect("resolved");
        let shape = cache.shape.expect("a pass with plans");
        self.planned_pass(&cache.plans, shape, rev, f);
    }

    /// [`for_each_chunk_mut`](Self::for_each_chunk_mut) for a pass without plans.
    fn resolved_pass(
        &mut self,
        tables: &[u32],
        resolved: &[Option<Resolved>],
        rev: u64,
        mut f: impl FnMut(ChunkLanes<'_>),
    ) {
        for (&t, r) in tables.iter().zip(resolved) {
            let Some(r) = r else { continue };
            if self.tables[t as usize].len == 0 {
                continue;
            }
            let table = self.tables.make_mut(t as usize);
            for &s in &r.written_slots {
                table.stamp_bulk(ComponentSlot(s), rev);
            }
            for k in 0..table.chunk_count() {
                f(chunk_lanes_at(table, r, k, rev));
            }
        }
    }

    /// [`for_each_chunk_mut`](Self::for_each_chunk_mut) with the chunks spread over rayon's
    /// pool. A chunk of at least 128 rows is split into row ranges (multiples of eight rows)
    /// while rayon has idle threads, so `f` may see a piece of a chunk rather than a whole
    /// one; every row is passed exactly once.
    pub(crate) fn par_for_each_chunk_mut(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        rev: u64,
        f: impl Fn(ChunkLanes<'_>) + Sync + Send,
    ) {
        query.tables(self);
        assert!(!query.checks_rows(), "{NEEDS_ROW_CHECKS}");
        let (tables, resolved, _) = query.resolved(self, reads, writes);
        let mut wanted: Vec<Option<&Resolved>> = vec![None; self.tables.len()];
        for (&t, r) in tables.iter().zip(resolved) {
            wanted[t as usize] = r.as_ref().filter(|_| self.tables[t as usize].len > 0);
        }
        let mut all = Vec::new();
        for (t, table) in self.tables.iter_mut_where(|t| wanted[t].is_some()) {
            all.extend(table_chunk_lanes(table, wanted[t].expect("selected"), rev));
        }
        all.into_par_iter()
            .for_each(|(chunk, wide)| rayon::iter::split(chunk, |c| c.halve(wide)).for_each(&f));
    }
}
