//! [`Chunks`]: an archetype table's [`TableChunk`]s in a copy-on-write list, with row-level
//! access to a lane by its [`LaneSpec`].
//!
//! Copy-on-write: cloning the list (a table cloned for a snapshot's first write to it)
//! copies the chunk pointers; writing a row copies that row's table chunk, every lane of it,
//! if a clone still shares it. A list keeps the last chunk it dropped (`spare`, if no
//! snapshot shared it) for its next new chunk, so a table that shrinks and grows back does
//! not allocate again; a clone starts without one.
//!
//! Invariant: chunk `k` holds rows `k * CHUNK_ROWS ..`; the owning table holds between
//! `(k - 1) * CHUNK_ROWS + 1` and `k * CHUNK_ROWS` rows when the list holds `k` chunks
//! (plus, while a batch is staged, the staged rows; see `stage`); every chunk follows
//! `layout`.

use super::lane_layout::{Block, CHUNK_ROWS, ChunkLayout, LaneSpec, LaneValue, split};
use super::table_chunk::TableChunk;
use crate::nodes::cow::CowVec;

/// A table's chunks (see the module docs). `repr(C)`: the list, which chunk passes read,
/// comes first (see [`Table`](super::table::Table)).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct Chunks {
    list: CowVec<TableChunk>,
    /// The last chunk dropped, emptied, for the next new chunk.
    spare: Option<TableChunk>,
    layout: ChunkLayout,
}

impl Clone for Chunks {
    /// Shares every chunk; the clone keeps no spare chunk (it would be a deep copy).
    fn clone(&self) -> Self {
        Chunks { list: self.list.clone(), spare: None, layout: self.layout }
    }
}

impl std::ops::Index<usize> for Chunks {
    type Output = TableChunk;

    #[inline(always)]
    fn index(&self, k: usize) -> &TableChunk {
        &self.list[k]
    }
}

impl Chunks {
    pub fn new(layout: ChunkLayout) -> Self {
        Chunks { list: CowVec::default(), spare: None, layout }
    }

    /// The layout every chunk follows.
    #[inline(always)]
    pub fn layout(&self) -> ChunkLayout {
        self.layout
    }

    /// Number of chunks.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Chunk `k`, made private to this list (copied if a clone shares it).
    #[inline(always)]
    pub fn make_mut(&mut self, k: usize) -> &mut TableChunk {
        self.list.make_mut(k)
    }

    /// Chunks `a` and `b` (`a != b`) both made private, at once.
    #[inline(always)]
    pub fn make_mut_pair(&mut self, a: usize, b: usize) -> (&mut TableChunk, &mut TableChunk) {
        self.list.make_mut_pair(a, b)
    }

    /// Chunk `k` made private, with no bounds check (see [`CowVec::make_mut_unchecked`]).
    ///
    /// # Safety
    ///
    /// `k < self.len()`.
    #[inline(always)]
    pub unsafe fn make_mut_unchecked(&mut self, k: usize) -> &mut TableChunk {
        // SAFETY: `k < len` (the caller's contract).
        unsafe { self.list.make_mut_unchecked(k) }
    }

    /// Chunk `k` for writing if this list already owns it, `None` otherwise (see
    /// [`CowVec::owned_mut_unchecked`]).
    ///
    /// # Safety
    ///
    /// `k < self.len()`.
    #[inline(always)]
    pub unsafe fn owned_mut_unchecked(&mut self, k: usize) -> Option<&mut TableChunk> {
        // SAFETY: `k < len` (the caller's contract).
        unsafe { self.list.owned_mut_unchecked(k) }
    }

    /// Every chunk, each made private.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut TableChunk> + '_ {
        self.list.iter_mut()
    }

    /// Chunk `k` (created, every lane stamped `rev`, if it is the next one), private to this
    /// list.
    #[inline(always)]
    pub fn for_write(&mut self, k: usize, rev: u64) -> &mut TableChunk {
        if k == self.list.len() {
            self.push_chunk(rev);
        }
        self.list.make_mut(k)
    }

    /// Appends a new chunk, every lane stamped `rev` (out of line: once per [`CHUNK_ROWS`]
    /// rows).
    #[cold]
    #[inline(never)]
    pub fn push_chunk(&mut self, rev: u64) {
        let chunk = match self.spare.take() {
            Some(mut chunk) => {
                chunk.renew(rev);
                chunk
            }
            None => TableChunk::new(self.layout, rev),
        };
        self.list.push(chunk);
    }

    /// Drops the last chunk (holding no rows any more), keeping it for reuse if no clone
    /// shares it (out of line: once per [`CHUNK_ROWS`] rows).
    #[cold]
    #[inline(never)]
    pub fn pop_chunk(&mut self) {
        if let Some(mut chunk) = self.list.pop_owned() {
            chunk.drop_strs_from(0);
            self.spare = Some(chunk);
        }
    }

    /// Whether chunk `k` is the same allocation in `self` and `other` (shared by a snapshot).
    #[cfg(test)]
    pub fn shares(&self, other: &Chunks, k: usize) -> bool {
        self.list.shares(&other.list, k)
    }

    /// The word in `row` of word lane `col`.
    #[inline]
    pub fn word(&self, col: LaneSpec, row: usize) -> u64 {
        let (k, i) = split(row);
        self.list[k].word(col, i)
    }

    /// The value in `row` of lane `col`.
    #[inline]
    pub fn get(&self, col: LaneSpec, row: usize) -> LaneValue {
        let (k, i) = split(row);
        self.list[k].get(col, i)
    }

    /// Writes `value` into `row` of lane `col`, copying the chunk if shared and stamping the
    /// row's group of the lane `rev`.
    #[inline]
    pub fn set(&mut self, col: LaneSpec, row: usize, value: LaneValue, rev: u64) {
        let (k, i) = split(row);
        let chunk = self.list.make_mut(k);
        chunk.revs_mut(col).stamp_row(i, rev);
        chunk.set(col, i, value);
    }

    /// Copies row `from` of every lane in `cols` into row `to`, stamping `to`'s row group of
    /// each lane `rev`: the destination chunk is made private once for the whole row, not
    /// once per lane (a swap-remove's move of the last row).
    pub fn copy_row<'c>(
        &mut self,
        cols: impl Iterator<Item = &'c LaneSpec> + Clone,
        from: usize,
        to: usize,
        rev: u64,
    ) {
        let ((kf, i_f), (kt, it)) = (split(from), split(to));
        if kf == kt {
            let chunk = self.list.make_mut(kt);
            for &col in cols {
                chunk.revs_mut(col).stamp_row(it, rev);
                let value = chunk.get(col, i_f);
                chunk.set(col, it, value);
            }
            return;
        }
        // Word lanes only (up to `MAX_LANES`): the row's words gathered, then written into one
        // private chunk.
        const MAX_LANES: usize = 32;
        let mut words = [0u64; MAX_LANES];
        let mut n = 0;
        if self.layout.strs == 0 {
            let src = &self.list[kf];
            for &col in cols.clone() {
                if let Some(w) = words.get_mut(n) {
                    *w = src.word(col, i_f);
                }
                n += 1;
            }
        }
        if self.layout.strs != 0 || n > MAX_LANES {
            for &col in cols {
                let value = self.get(col, from);
                self.set(col, to, value, rev);
            }
            return;
        }
        let chunk = self.list.make_mut(kt);
        for (&col, &w) in cols.zip(&words) {
            chunk.revs_mut(col).stamp_row(it, rev);
            chunk.set_word(col, it, w);
        }
    }

    /// Chunk `k`'s blocks of word lane `col` holding its first `rows` rows (empty for a
    /// string lane).
    #[inline]
    pub fn blocks(&self, col: LaneSpec, k: usize, rows: usize) -> &[Block] {
        self.list[k].blocks(col, rows)
    }

    /// Revision of the last write to lane `col` of chunk `k`.
    #[inline]
    pub fn revision(&self, col: LaneSpec, k: usize) -> u64 {
        self.list[k].revs(col).revision
    }

    /// Bytes of the strings the chunks hold.
    pub fn text_bytes(&self) -> usize {
        self.list.iter().map(TableChunk::text_bytes).sum()
    }

    /// Heap bytes held (shared chunks counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.list.iter().map(TableChunk::heap_bytes).sum::<usize>()
            + self.list.len() * size_of::<TableChunk>()
            + self.list.pointer_bytes()
            + self.spare.as_ref().map_or(0, |c| c.heap_bytes() + size_of::<TableChunk>())
    }
}

/// Rows of a table of `len` rows in its chunk `k`.
#[inline(always)]
pub(crate) fn rows_in_chunk(len: usize, k: usize) -> usize {
    (len - k * CHUNK_ROWS).min(CHUNK_ROWS)
}
