//! Newtype indices of an archetype table, so a signature says which index it takes: a row
//! of the table ([`TableRow`]), one of its chunks of [`CHUNK_ROWS`] rows ([`ChunkIndex`]),
//! and a component's position among the table's components ([`ComponentSlot`], not its
//! [`ComponentId`](super::schema::ComponentId)).
//!
//! Invariant: none of them is checked against a table when made; a table's methods take
//! them as positions in that table and panic (as a slice index would) past its end.

use super::lane_layout::CHUNK_ROWS;

/// A row of an archetype table, `0..len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TableRow(pub usize);

impl TableRow {
    /// The row as an index.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0
    }

    /// The chunk holding the row.
    #[inline(always)]
    pub fn chunk(self) -> ChunkIndex {
        ChunkIndex(self.0 / CHUNK_ROWS)
    }
}

/// A chunk of an archetype table: rows `k * CHUNK_ROWS .. (k + 1) * CHUNK_ROWS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct ChunkIndex(pub usize);

impl ChunkIndex {
    /// The chunk's first row.
    #[inline(always)]
    pub fn first_row(self) -> TableRow {
        TableRow(self.0 * CHUNK_ROWS)
    }
}

/// A component's position among an archetype table's components (which are sorted by id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct ComponentSlot(pub usize);

impl ComponentSlot {
    /// The slot as an index.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0
    }
}
