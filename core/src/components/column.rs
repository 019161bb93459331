//! [`Column`]: one storage lane of an archetype table, split into chunks of [`CHUNK_ROWS`]
//! rows behind `Arc`.
//!
//! Word lanes store 32- or 64-bit values in 32-byte-aligned blocks, so a chunk's lane can be
//! read as `&[f32]`, `&[i64]`, ... with no copy and loaded straight into SIMD registers.
//! String lanes store `Option<Arc<str>>` (`None` reads as the empty string).
//!
//! Copy-on-write: cloning a column copies its chunk pointers; writing a row copies that one
//! chunk if it is shared. Each chunk records the revision of its last write, and of the last
//! write to each group of [`GROUP_ROWS`] rows, so a consumer asking what changed skips chunks
//! and groups older than its revision without reading their rows. Only row-tick lanes' revisions
//! are read (see [`Table::chunk_revision`](super::table::Table::chunk_revision)): row moves
//! (`swap_remove_word_at`, `push_word_at`) stamp them and leave lane and id chunks' as they are.
//!
//! Invariant: chunk `k` holds rows `k * CHUNK_ROWS ..`; every chunk but the last is full;
//! the owning table tracks the row count. A column keeps the emptied buffer of the last
//! chunk it dropped (`spare`, empty, of the lane's kind) for its next new chunk. Padding
//! rows (past the row count in a word lane's last block) hold anything: chunk passes may
//! write them, popping a row leaves its word, and every append writes its rows' words.

#[cfg(not(target_endian = "little"))]
compile_error!("component lanes read 64-bit words as pairs of 32-bit words, low word first");

use super::schema::LaneKind;
use crate::cow::CowVec;
use std::sync::Arc;

/// Rows per chunk.
pub const CHUNK_ROWS: usize = 1024;

/// 32 bytes: eight 32-bit or four 64-bit words, aligned for 256-bit SIMD loads.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub struct Block(pub [u32; 8]);

#[derive(Clone, Debug)]
pub(crate) enum ChunkData {
    Words(Vec<Block>),
    Strs(Vec<Option<Arc<str>>>),
}

impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Rows per revision group inside a chunk.
pub(crate) const GROUP_ROWS: usize = 64;
const GROUPS: usize = CHUNK_ROWS / GROUP_ROWS;

/// One chunk of one lane.
///
/// Invariant: `revision` is the newest of `groups` and `bulk`, and every write to a row
/// stamps its group, or `bulk` for a write to the whole chunk, with a revision at least as
/// new as the write's: a group was last written at `max(groups[g], bulk)`.
///
/// `repr(C)` keeps the two revisions every write stamps next to the data header, in the
/// cache line of the `Arc`'s counts that making the chunk private reads anyway.
#[derive(Clone, Debug)]
#[repr(C)]
pub(crate) struct Chunk {
    pub data: ChunkData,
    /// Revision of the last write to this chunk.
    pub revision: u64,
    /// Revision of the last write to the whole chunk (one store instead of one per group,
    /// which chunk passes over many small tables feel).
    bulk: u64,
    /// Per group of [`GROUP_ROWS`] rows: revision of the last write to that group alone.
    groups: [u64; GROUPS],
}

/// A value read from or written to a lane.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LaneValue {
    Word(u64),
    Str(Option<Arc<str>>),
}

/// A chunked lane.
#[derive(Clone, Debug)]
pub(crate) struct Column {
    pub kind: LaneKind,
    pub(super) chunks: CowVec<Chunk>,
    /// The emptied buffer of the last chunk dropped (if no snapshot shared it), reused by
    /// the next new chunk: a table that shrinks and grows back does not allocate again.
    spare: Option<ChunkData>,
}

#[inline]
pub(super) fn split(row: usize) -> (usize, usize) {
    (row / CHUNK_ROWS, row % CHUNK_ROWS)
}

impl Column {
    pub fn new(kind: LaneKind) -> Self {
        Self { kind, chunks: CowVec::default(), spare: None }
    }

    #[inline]
    pub(super) fn words_per_block(&self) -> usize {
        if self.kind == LaneKind::W64 { 4 } else { 8 }
    }

    /// Number of chunks.
    #[cfg(test)]
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// Revision of the last write to chunk `k`.
    #[inline]
    pub fn chunk_revision(&self, k: usize) -> u64 {
        self.chunks[k].revision
    }

    /// Whether chunk `k` is the same allocation in `self` and `other` (shared by a snapshot).
    #[cfg(test)]
    pub fn shares_chunk(&self, other: &Column, k: usize) -> bool {
        self.chunks.shares(&other.chunks, k)
    }

    /// A new chunk with room for all its rows, so a lane's chunks are single allocations
    /// that never move while they fill.
    fn new_chunk(&mut self, rev: u64) -> Chunk {
        let data = match (self.spare.take(), self.kind) {
            (Some(spare), _) => spare,
            (None, LaneKind::Str) => ChunkData::Strs(Vec::with_capacity(CHUNK_ROWS)),
            (None, _) => ChunkData::Words(Vec::with_capacity(CHUNK_ROWS / self.words_per_block())),
        };
        Chunk { data, revision: rev, groups: [0; GROUPS], bulk: rev }
    }

    /// Revision of the last write to rows `g * GROUP_ROWS ..` of chunk `k`.
    #[inline]
    pub fn group_revision(&self, k: usize, g: usize) -> u64 {
        let chunk = &self.chunks[k];
        chunk.groups[g].max(chunk.bulk)
    }

    /// Chunk `k` (created if it is the next one), private to this column, with every group
    /// stamped `rev` (bulk writes).
    #[inline]
    pub(super) fn chunk_for_write(&mut self, k: usize, rev: u64) -> &mut Chunk {
        let chunk = self.chunk_unstamped(k, rev);
        chunk.revision = rev;
        chunk.bulk = rev;
        chunk
    }

    /// Chunk `k` made private for a write to its row `i`, that row's group stamped `rev`.
    #[inline]
    fn chunk_for_row_write(&mut self, k: usize, i: usize, rev: u64) -> &mut Chunk {
        let chunk = self.chunk_unstamped(k, rev);
        chunk.revision = rev;
        chunk.groups[i / GROUP_ROWS] = rev;
        chunk
    }

    #[inline(always)]
    pub(super) fn chunk_unstamped(&mut self, k: usize, rev: u64) -> &mut Chunk {
        if k == self.chunks.len() {
            self.push_chunk(rev);
        }
        self.chunks.make_mut(k)
    }

    /// Appends a new chunk (out of line: once per [`CHUNK_ROWS`] rows).
    #[cold]
    #[inline(never)]
    fn push_chunk(&mut self, rev: u64) {
        let chunk = self.new_chunk(rev);
        self.chunks.push(chunk);
    }

    /// Appends a row holding `value` (the table appends to every column at once).
    pub fn push(&mut self, row: usize, value: LaneValue, rev: u64) {
        let (k, i) = split(row);
        let per_block = self.words_per_block();
        match &mut self.chunk_for_row_write(k, i, rev).data {
            ChunkData::Words(blocks) => {
                if i / per_block == blocks.len() {
                    blocks.push(Block([0; 8]));
                }
                if let LaneValue::Word(w) = value {
                    store(blocks, i, w, per_block == 4);
                }
            }
            ChunkData::Strs(strs) => {
                debug_assert_eq!(strs.len(), i);
                strs.push(match value {
                    LaneValue::Str(s) => s,
                    LaneValue::Word(_) => None,
                });
            }
        }
    }

    /// Appends a row holding zero (word lanes) or the empty string.
    #[inline]
    pub fn push_empty(&mut self, row: usize, rev: u64) {
        let empty = if self.kind == LaneKind::Str { LaneValue::Str(None) } else { LaneValue::Word(0) };
        self.push(row, empty, rev);
    }

    /// Word lanes, for row moves: removes row `i_row` of chunk `k_row` and returns its word,
    /// filling its place with the word of the last row (`i_last` of chunk `k_last`) passed
    /// through `moved`, then drops the last row (as [`pop`](Self::pop)). The written chunk
    /// and group are stamped `rev` only when `stamp` (row-tick lanes: lane and id chunks'
    /// revisions are not read, see [`Table`](super::table::Table)).
    ///
    /// `wide` is the lane's width (`kind == W64`), resolved by the caller once per lane (ids
    /// and row ticks are always wide: a constant once inlined), so the lane's kind is not
    /// read again here.
    #[inline(always)]
    pub fn swap_remove_word_at(
        &mut self,
        wide: bool,
        (k_row, i_row): (usize, usize),
        (k_last, i_last): (usize, usize),
        rev: Option<u64>,
        moved: impl FnOnce(u64) -> u64,
    ) -> u64 {
        debug_assert_eq!(self.kind == LaneKind::W64, wide);
        let taken = if (k_row, i_row) == (k_last, i_last) {
            load(self.blocks(k_row), i_row, wide)
        } else {
            let filler = moved(load(self.blocks(k_last), i_last, wide));
            let chunk = self.chunks.make_mut(k_row);
            if let Some(rev) = rev {
                chunk.revision = rev;
                chunk.groups[i_row / GROUP_ROWS] = rev;
            }
            let blocks = words_mut(&mut chunk.data);
            let taken = load(blocks, i_row, wide);
            store(blocks, i_row, filler, wide);
            taken
        };
        if i_last == 0 {
            self.pop_chunk();
        } else if i_last & block_mask(wide) == 0 {
            words_mut(&mut self.chunks.make_mut(k_last).data).pop();
        }
        taken
    }

    /// Word lanes, for row moves: appends `word` as row `i` of chunk `k` (the next row),
    /// stamping the chunk and group `rev` only when `stamp` (see
    /// [`swap_remove_word_at`](Self::swap_remove_word_at), also for `wide`).
    #[inline(always)]
    pub fn push_word_at(&mut self, wide: bool, (k, i): (usize, usize), word: u64, rev: u64, stamp: bool) {
        debug_assert_eq!(self.kind == LaneKind::W64, wide);
        if k == self.chunks.len() {
            self.push_chunk(rev);
        }
        let chunk = self.chunks.make_mut(k);
        if stamp {
            chunk.revision = rev;
            chunk.groups[i / GROUP_ROWS] = rev;
        }
        let blocks = words_mut(&mut chunk.data);
        if i & block_mask(wide) == 0 {
            blocks.push(Block([0; 8]));
        }
        store(blocks, i, word, wide);
    }

    /// The value in `row`.
    #[inline]
    pub fn get(&self, row: usize) -> LaneValue {
        let (k, i) = split(row);
        match &self.chunks[k].data {
            ChunkData::Words(blocks) => LaneValue::Word(load(blocks, i, self.kind == LaneKind::W64)),
            ChunkData::Strs(strs) => LaneValue::Str(strs[i].clone()),
        }
    }

    /// The word in `row` (0 for a string lane).
    #[inline]
    pub fn word(&self, row: usize) -> u64 {
        let (k, i) = split(row);
        match &self.chunks[k].data {
            ChunkData::Words(blocks) => load(blocks, i, self.kind == LaneKind::W64),
            ChunkData::Strs(_) => 0,
        }
    }

    /// Writes `value` into `row`, copying the chunk if shared and stamping it `rev`.
    #[inline]
    pub fn set(&mut self, row: usize, value: LaneValue, rev: u64) {
        let (k, i) = split(row);
        let wide = self.kind == LaneKind::W64;
        match &mut self.chunk_for_row_write(k, i, rev).data {
            ChunkData::Words(blocks) => {
                if let LaneValue::Word(w) = value {
                    store(blocks, i, w, wide);
                }
            }
            ChunkData::Strs(strs) => {
                strs[i] = match value {
                    LaneValue::Str(s) => s,
                    LaneValue::Word(_) => None,
                }
            }
        }
    }

    /// Removes `row` of a column holding `len` rows, moving the last row into it.
    pub fn swap_remove(&mut self, row: usize, len: usize, rev: u64) {
        let last = len - 1;
        if row != last {
            let v = self.get(last);
            self.set(row, v, rev);
        }
        self.pop(len);
    }

    /// Drops the last row (`len` rows before the call). A word lane leaves the row's word in
    /// place as a padding row of its block (chunk passes may write padding rows anyway, and
    /// every append writes its row's word), so only a block or chunk falling empty is touched.
    #[inline(always)]
    pub fn pop(&mut self, len: usize) {
        let (k, i) = split(len - 1);
        if i == 0 {
            self.pop_chunk();
            return;
        }
        let per_block = self.words_per_block();
        if self.kind != LaneKind::Str && !i.is_multiple_of(per_block) {
            return;
        }
        match &mut self.chunks.make_mut(k).data {
            ChunkData::Words(blocks) => {
                blocks.pop();
            }
            ChunkData::Strs(strs) => {
                strs.pop();
            }
        }
    }

    /// Drops the last chunk, keeping its emptied buffer for reuse (out of line: once per
    /// [`CHUNK_ROWS`] rows).
    #[cold]
    #[inline(never)]
    pub(super) fn pop_chunk(&mut self) {
        if let Some(mut chunk) = self.chunks.pop_owned() {
            match &mut chunk.data {
                ChunkData::Words(blocks) => blocks.clear(),
                ChunkData::Strs(strs) => strs.clear(),
            }
            self.spare = Some(chunk.data);
        }
    }

    /// Chunk `k`'s blocks (empty for a string lane).
    #[inline]
    pub fn blocks(&self, k: usize) -> &[Block] {
        match &self.chunks[k].data {
            ChunkData::Words(blocks) => blocks,
            ChunkData::Strs(_) => &[],
        }
    }

    /// Chunk `k`'s blocks for writing, stamped `rev` (empty for a string lane).
    #[inline]
    pub fn blocks_mut(&mut self, k: usize, rev: u64) -> &mut [Block] {
        stamped_blocks(self.chunk_unstamped(k, rev), rev)
    }

    /// Chunk `k`'s blocks for writing in a chunk pass, stamped `rev` (empty for a string lane):
    /// [`blocks_mut`](Self::blocks_mut) for a chunk that exists, with no bounds check.
    ///
    /// # Safety
    ///
    /// Chunk `k` exists: `k` is below the chunk count of the owning table (every column has
    /// exactly the table's rows, see [`Table`](super::table::Table)).
    #[inline(always)]
    pub unsafe fn pass_blocks_mut(&mut self, k: usize, rev: u64) -> &mut [Block] {
        // SAFETY: chunk `k` exists (the caller's contract).
        stamped_blocks(unsafe { self.chunks.make_mut_unchecked(k) }, rev)
    }

    /// [`pass_blocks_mut`](Self::pass_blocks_mut) if this column already owns chunk `k`
    /// (`None`, changing nothing, if it would have to copy or adopt it first).
    ///
    /// # Safety
    ///
    /// Chunk `k` exists (as for [`pass_blocks_mut`](Self::pass_blocks_mut)).
    #[inline(always)]
    pub unsafe fn pass_blocks_owned(&mut self, k: usize, rev: u64) -> Option<&mut [Block]> {
        // SAFETY: chunk `k` exists (the caller's contract).
        unsafe { self.chunks.owned_mut_unchecked(k) }.map(|chunk| stamped_blocks(chunk, rev))
    }

    /// Every chunk's blocks for writing, each stamped `rev` (string lanes yield nothing).
    pub fn all_blocks_mut(&mut self, rev: u64) -> impl Iterator<Item = &mut [Block]> + '_ {
        self.chunks.iter_mut().filter_map(move |chunk| {
            chunk.revision = rev;
            chunk.bulk = rev;
            match &mut chunk.data {
                ChunkData::Words(blocks) => Some(&mut blocks[..]),
                ChunkData::Strs(_) => None,
            }
        })
    }

    /// Heap bytes held (shared chunks counted in full).
    pub fn heap_bytes(&self) -> usize {
        self.chunks
            .iter()
            .map(|c| match &c.data {
                ChunkData::Words(b) => b.capacity() * 32,
                ChunkData::Strs(s) => s.capacity() * std::mem::size_of::<Option<Arc<str>>>(),
            })
            .sum::<usize>()
            + self.chunks.pointer_bytes()
            + match &self.spare {
                Some(ChunkData::Words(b)) => b.capacity() * 32,
                Some(ChunkData::Strs(s)) => s.capacity() * std::mem::size_of::<Option<Arc<str>>>(),
                None => 0,
            }
    }
}

/// `chunk`'s blocks for a write to the whole chunk at `rev`, which is stamped (empty for a
/// string lane).
#[inline(always)]
fn stamped_blocks(chunk: &mut Chunk, rev: u64) -> &mut [Block] {
    chunk.revision = rev;
    chunk.bulk = rev;
    match &mut chunk.data {
        ChunkData::Words(blocks) => blocks,
        ChunkData::Strs(_) => &mut [],
    }
}

/// `i % words per block` of a lane (`wide`: 64-bit).
#[inline(always)]
pub(super) fn block_mask(wide: bool) -> usize {
    if wide { 3 } else { 7 }
}

/// A word lane's blocks (a string lane has none: the callers are word-lane paths).
#[inline(always)]
pub(super) fn words_mut(data: &mut ChunkData) -> &mut Vec<Block> {
    match data {
        ChunkData::Words(blocks) => blocks,
        ChunkData::Strs(_) => unreachable!("word lanes only"),
    }
}

/// Word `i` of `blocks` (`wide`: 64-bit words).
#[inline(always)]
pub(super) fn load(blocks: &[Block], i: usize, wide: bool) -> u64 {
    if wide {
        bytemuck::cast_slice::<Block, u64>(blocks)[i]
    } else {
        bytemuck::cast_slice::<Block, u32>(blocks)[i] as u64
    }
}

/// Writes word `i` of `blocks` (`wide`: 64-bit words).
#[inline(always)]
pub(super) fn store(blocks: &mut [Block], i: usize, w: u64, wide: bool) {
    if wide {
        bytemuck::cast_slice_mut::<Block, u64>(blocks)[i] = w;
    } else {
        bytemuck::cast_slice_mut::<Block, u32>(blocks)[i] = w as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_across_chunks_and_pop() {
        let mut c = Column::new(LaneKind::W64);
        for r in 0..(CHUNK_ROWS + 5) {
            c.push(r, LaneValue::Word(r as u64 * 1_000_000_007), 1);
        }
        assert_eq!(c.chunk_count(), 2);
        assert_eq!(c.word(CHUNK_ROWS + 3), (CHUNK_ROWS as u64 + 3) * 1_000_000_007);
        c.set(7, LaneValue::Word(u64::MAX), 2);
        assert_eq!(c.word(7), u64::MAX);
        assert_eq!(c.chunk_revision(0), 2);
        assert_eq!(c.chunk_revision(1), 1);
        for len in (CHUNK_ROWS..CHUNK_ROWS + 5).rev() {
            c.pop(len + 1);
        }
        assert_eq!(c.chunk_count(), 1);
        assert_eq!(c.word(CHUNK_ROWS - 1), (CHUNK_ROWS as u64 - 1) * 1_000_000_007);
    }

    #[test]
    fn w32_lane_reads_as_a_slice() {
        let mut c = Column::new(LaneKind::W32);
        for r in 0..20 {
            c.push(r, LaneValue::Word((r as f32).to_bits() as u64), 1);
        }
        let floats: &[f32] = bytemuck::cast_slice(c.blocks(0));
        assert_eq!(&floats[..20], &(0..20).map(|r| r as f32).collect::<Vec<_>>()[..]);
        assert_eq!(c.blocks(0).as_ptr() as usize % 32, 0);
    }

    #[test]
    fn clones_share_chunks_until_written() {
        let mut c = Column::new(LaneKind::Str);
        c.push(0, LaneValue::Str(Some("a".into())), 1);
        let snap = c.clone();
        c.set(0, LaneValue::Str(Some("b".into())), 2);
        assert_eq!(snap.get(0), LaneValue::Str(Some("a".into())));
        assert_eq!(c.get(0), LaneValue::Str(Some("b".into())));
    }

    #[test]
    fn extend_words_fills_partial_blocks_crosses_chunks_and_spares_snapshots() {
        for kind in [LaneKind::W32, LaneKind::W64] {
            let word = |r: usize| if kind == LaneKind::W64 { r as u64 * 0x1_0000_0001 } else { r as u64 };
            let mut c = Column::new(kind);
            for r in 0..5 {
                c.push(r, LaneValue::Word(word(r)), 1);
            }
            let snap = c.clone();
            // Rows 5..7 fill the partial block, then whole blocks, a chunk boundary, and a
            // partial last block; appended in two calls as a tiled batch does.
            c.extend_words(5, 600, 2, |r| word(5 + r));
            c.extend_words(605, CHUNK_ROWS + 2, 2, |r| word(605 + r));
            let len = 605 + CHUNK_ROWS + 2;
            assert_eq!(c.chunk_count(), 2);
            assert!((0..len).all(|r| c.word(r) == word(r)));
            let per_block = c.words_per_block();
            let tail = c.blocks(1);
            assert_eq!(tail.len(), (len - CHUNK_ROWS).div_ceil(per_block));
            assert!(
                (len - CHUNK_ROWS..tail.len() * per_block).all(|i| load(tail, i, kind == LaneKind::W64) == 0)
            );
            assert_eq!((c.chunk_revision(0), c.chunk_revision(1)), (2, 2));
            assert_eq!((snap.chunk_count(), snap.chunk_revision(0)), (1, 1));
            assert_eq!(snap.blocks(0).len(), 5usize.div_ceil(per_block));
            assert!((0..5).all(|r| snap.word(r) == word(r)));
        }
    }
}
