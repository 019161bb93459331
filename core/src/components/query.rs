//! Queries over the component store: [`Query`] (with / without component sets, a cached
//! table list that picks up new tables), read-only chunk views, mutable lane access per
//! chunk (sequential or parallel with rayon), and change detection that skips chunks whose
//! revision predates the reader's.
//!
//! Invariant: a query's cached table list is valid for stores with the same `uid` (an arena
//! and its snapshots); on another store it is rebuilt.

use super::column::{Block, CHUNK_ROWS};
use super::schema::{ComponentId, FieldType, LaneKind, SchemaRegistry};
use super::store::ComponentStore;
use super::table::Table;
use crate::id::Id;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::Arc;

/// A component set filter with a cached list of matching tables.
#[derive(Clone, Debug, Default)]
pub struct Query {
    with: SmallVec<[ComponentId; 4]>,
    without: SmallVec<[ComponentId; 2]>,
    tables: Vec<u32>,
    seen: usize,
    uid: u64,
}

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

    fn matches(&self, table: &Table) -> bool {
        self.with.iter().all(|c| table.slot(*c).is_some())
            && self.without.iter().all(|c| table.slot(*c).is_none())
    }

    /// The matching tables of `store`, picking up tables created since the last call.
    pub(crate) fn tables(&mut self, store: &ComponentStore) -> &[u32] {
        if self.uid != store.uid {
            self.uid = store.uid;
            self.tables.clear();
            self.seen = 0;
        }
        for t in self.seen..store.tables.len() {
            if self.matches(&store.tables[t]) {
                self.tables.push(t as u32);
            }
        }
        self.seen = self.seen.max(store.tables.len());
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
        &bytemuck::cast_slice(self.table.ids.blocks(self.k))[..self.len]
    }

    /// A word lane as a slice of `T` (`f32`, `i32`, `u32` for 32-bit lanes; `f64`, `i64`,
    /// `u64` for 64-bit lanes). `None` if the table lacks the component, if the lane is past
    /// the component's lanes, or if it is a string lane.
    pub fn lane<T: bytemuck::Pod>(&self, lane: Lane) -> Option<&'a [T]> {
        let s = self.table.slot(lane.component)?;
        let slot = self.table.slots[s];
        let col = slot.first_lane + lane.lane as usize;
        if usize::from(lane.lane) >= slot.lanes || self.table.columns[col].kind == LaneKind::Str {
            return None;
        }
        Some(&bytemuck::cast_slice(self.table.columns[col].blocks(self.k))[..self.len])
    }

    /// Whether component `c` may have been written in this chunk after revision `since`.
    pub fn changed_since(&self, c: ComponentId, since: u64) -> bool {
        self.table.slot(c).is_some_and(|s| self.table.chunk_revision(s, self.k) > since)
    }
}

/// Lanes of one chunk, some read and some written, as requested.
pub struct ChunkLanes<'a> {
    ids: &'a [Id],
    reads: SmallVec<[&'a [Block]; 8]>,
    writes: SmallVec<[&'a mut [Block]; 8]>,
    len: usize,
}

impl<'a> ChunkLanes<'a> {
    /// Rows in this chunk.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the chunk is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The instances owning the rows.
    pub fn ids(&self) -> &'a [Id] {
        self.ids
    }

    /// Read lane `i` (in request order) as `T`, one value per row.
    pub fn read<T: bytemuck::Pod>(&self, i: usize) -> &[T] {
        &bytemuck::cast_slice(self.reads[i])[..self.len]
    }

    /// Written lane `i` (in request order) as `T`, one value per row.
    pub fn write<T: bytemuck::Pod>(&mut self, i: usize) -> &mut [T] {
        let len = self.len;
        &mut bytemuck::cast_slice_mut(&mut *self.writes[i])[..len]
    }

    /// Read lane `i` as whole 32-byte blocks (8 × 32-bit rows), for SIMD; the last block
    /// may extend past `len()` with padding rows.
    pub fn read_blocks<T: bytemuck::Pod>(&self, i: usize) -> &[T] {
        bytemuck::cast_slice(self.reads[i])
    }

    /// Every read lane and every written lane at once, as whole 32-byte blocks of `T` (for
    /// SIMD passes that read some lanes while writing others), in request order.
    #[allow(clippy::type_complexity)]
    pub fn split_blocks<T: bytemuck::Pod>(&mut self) -> (SmallVec<[&[T]; 8]>, SmallVec<[&mut [T]; 8]>) {
        let reads = self.reads.iter().map(|r| bytemuck::cast_slice(r)).collect();
        let writes = self.writes.iter_mut().map(|w| bytemuck::cast_slice_mut(w)).collect();
        (reads, writes)
    }

    /// Every read and written lane at once as exactly `len()` values of `T`, in request order.
    #[allow(clippy::type_complexity)]
    pub fn split<T: bytemuck::Pod>(&mut self) -> (SmallVec<[&[T]; 8]>, SmallVec<[&mut [T]; 8]>) {
        let len = self.len;
        let reads = self.reads.iter().map(|r| &bytemuck::cast_slice(r)[..len]).collect();
        let writes = self.writes.iter_mut().map(|w| &mut bytemuck::cast_slice_mut(w)[..len]).collect();
        (reads, writes)
    }

    /// Written lane `i` as whole 32-byte blocks, for SIMD (padding rows may be written).
    pub fn write_blocks<T: bytemuck::Pod>(&mut self, i: usize) -> &mut [T] {
        bytemuck::cast_slice_mut(&mut *self.writes[i])
    }
}

/// Where requested lanes sit in one table: column indexes, and written component slots.
struct Resolved {
    reads: SmallVec<[usize; 8]>,
    writes: SmallVec<[usize; 8]>,
    written_slots: SmallVec<[usize; 4]>,
}

fn resolve(table: &Table, registry: &SchemaRegistry, reads: &[Lane], writes: &[Lane]) -> Option<Resolved> {
    let col = |l: &Lane| -> Option<usize> {
        let s = table.slot(l.component)?;
        let slot = table.slots[s];
        let c = slot.first_lane + l.lane as usize;
        (usize::from(l.lane) < slot.lanes && table.columns[c].kind != LaneKind::Str).then_some(c)
    };
    // A reference lane is never lent for writing: a raw write would bypass the reverse index.
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
        if !written_slots.contains(&s) {
            written_slots.push(s);
        }
    }
    Some(Resolved {
        reads: reads.iter().map(col).collect::<Option<_>>()?,
        writes: writes.iter().map(writable).collect::<Option<_>>()?,
        written_slots,
    })
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
    pub fn for_each_chunk<'a>(&'a self, query: &mut Query, mut f: impl FnMut(ChunkView<'a>)) {
        for &t in query.tables(self) {
            let table = &*self.tables[t as usize];
            for k in 0..table.chunk_count() {
                f(ChunkView { table, k, len: table.chunk_len(k) });
            }
        }
    }

    /// Instances matching `query`, table by table.
    pub fn ids(&self, query: &mut Query) -> Vec<Id> {
        let mut out = Vec::new();
        self.for_each_chunk(query, |c| out.extend_from_slice(c.ids()));
        out
    }

    /// Instances matching `query` whose component `c` was written after revision `since`.
    /// Chunks whose revision is not newer are skipped without reading their rows.
    pub fn changed_since(&self, query: &mut Query, c: ComponentId, since: u64) -> Vec<Id> {
        let mut out = Vec::new();
        for &t in query.tables(self) {
            let table = &*self.tables[t as usize];
            let Some(s) = table.slot(c) else { continue };
            for k in 0..table.chunk_count() {
                if table.chunk_revision(s, k) <= since {
                    continue;
                }
                let len = table.chunk_len(k);
                let ids: &[Id] = &bytemuck::cast_slice(table.ids.blocks(k))[..len];
                if table.bulk[s][k] > since {
                    out.extend_from_slice(ids);
                    continue;
                }
                let ticks: &[u64] =
                    &bytemuck::cast_slice(table.columns[table.slots[s].tick].blocks(k))[..len];
                out.extend(ids.iter().zip(ticks).filter(|(_, t)| **t > since).map(|(id, _)| *id));
            }
        }
        out
    }

    /// Builds the mutable lane views of every chunk matching `query`, stamping written chunks
    /// with `rev` (copying them first if a snapshot shares them). Tables lacking a requested
    /// lane are skipped; string lanes cannot be accessed as slices and count as lacking, and
    /// so do reference lanes requested for writing. A lane must not be both read and written,
    /// nor written twice.
    pub(crate) fn chunk_lanes<'a>(
        &'a mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        rev: u64,
    ) -> Vec<ChunkLanes<'a>> {
        let tables: Vec<u32> = query.tables(self).to_vec();
        let mut out = Vec::new();
        let mut wanted = vec![false; self.tables.len()];
        for &t in &tables {
            wanted[t as usize] = true;
        }
        for (t, arc) in self.tables.iter_mut().enumerate() {
            if !wanted[t] || arc.len == 0 {
                continue;
            }
            let Some(r) = resolve(arc, &self.registry, reads, writes) else { continue };
            let table = Arc::make_mut(arc);
            let chunks = table.chunk_count();
            for &s in &r.written_slots {
                table.bulk[s].iter_mut().for_each(|b| *b = rev);
            }
            let len = table.len;
            let ids = &table.ids;
            let mut per_chunk_writes: Vec<SmallVec<[&mut [Block]; 8]>> =
                (0..chunks).map(|_| SmallVec::new()).collect();
            let mut per_chunk_reads: Vec<SmallVec<[&[Block]; 8]>> =
                (0..chunks).map(|_| SmallVec::from_elem(&[][..], r.reads.len())).collect();
            let mut write_cols: SmallVec<[Option<&mut super::column::Column>; 8]> =
                (0..r.writes.len()).map(|_| None).collect();
            for (ci, col) in table.columns.iter_mut().enumerate() {
                if let Some(w) = r.writes.iter().position(|&x| x == ci) {
                    assert!(!r.reads.contains(&ci), "a lane may not be both read and written");
                    write_cols[w] = Some(col);
                } else if r.reads.contains(&ci) {
                    let col: &super::column::Column = col;
                    for (ri, _) in r.reads.iter().enumerate().filter(|(_, x)| **x == ci) {
                        for (k, reads) in per_chunk_reads.iter_mut().enumerate() {
                            reads[ri] = col.blocks(k);
                        }
                    }
                }
            }
            for col in write_cols {
                let col = col.expect("each written lane resolved to a distinct column");
                for (k, chunk) in col.chunks.iter_mut().enumerate() {
                    let chunk = Arc::make_mut(chunk);
                    chunk.revision = rev;
                    if let super::column::ChunkData::Words(blocks) = &mut chunk.data {
                        per_chunk_writes[k].push(&mut blocks[..]);
                    }
                }
            }
            for (k, (reads, writes)) in per_chunk_reads.into_iter().zip(per_chunk_writes).enumerate() {
                let n = (len - k * CHUNK_ROWS).min(CHUNK_ROWS);
                out.push(ChunkLanes {
                    ids: &bytemuck::cast_slice(ids.blocks(k))[..n],
                    reads,
                    writes,
                    len: n,
                });
            }
        }
        out
    }

    /// Runs `f` on every matching chunk's lanes (see [`ComponentStore::chunk_lanes`]).
    pub(crate) fn for_each_chunk_mut(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        rev: u64,
        f: impl FnMut(ChunkLanes<'_>),
    ) {
        self.chunk_lanes(query, reads, writes, rev).into_iter().for_each(f);
    }

    /// Runs `f` on every matching chunk's lanes in parallel (rayon), one task per chunk.
    pub(crate) fn par_for_each_chunk_mut(
        &mut self,
        query: &mut Query,
        reads: &[Lane],
        writes: &[Lane],
        rev: u64,
        f: impl Fn(ChunkLanes<'_>) + Sync + Send,
    ) {
        self.chunk_lanes(query, reads, writes, rev).into_par_iter().for_each(f);
    }
}
