//! [`TableChunk`]: rows `k * CHUNK_ROWS ..` of a whole archetype table — every word lane of
//! every component, the row-tick lanes and the ids — in one word buffer, with the table's
//! string lanes and every lane's revisions, behind one `Arc`.
//!
//! Each word lane has [`CHUNK_ROWS`] rows at the fixed, block-aligned offset its
//! [`LaneSpec`] names (see [`ChunkLayout`]); the buffer never grows or shrinks, the table's
//! length says how many rows are real. A row move or a chunk pass makes a table chunk private
//! once (one ownership check per table chunk, not one per lane) and then reads and writes
//! words with plain loads and stores at precomputed offsets. One allocation holds all
//! lanes so a row move makes at most three table chunks private; the price is that a first
//! write after a snapshot copies every lane of the chunk (figures: `docs/perf/components.md`).

use super::lane_layout::{Block, CHUNK_ROWS, ChunkLayout, GROUP_ROWS, LaneSpec, LaneValue, WIDE_LANE_BLOCKS};
use std::marker::PhantomData;
use std::sync::Arc;

const GROUPS: usize = CHUNK_ROWS / GROUP_ROWS;

/// One string lane's entries in one chunk, [`CHUNK_ROWS`] of them.
type StrLane = Box<[Option<Arc<str>>]>;

/// The revisions of one lane in one chunk (see the module invariants).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneRevs {
    /// Revision of the last write to this lane of the chunk.
    pub revision: u64,
    /// Revision of the last write to the whole chunk's lane.
    pub bulk: u64,
    /// Per group of [`GROUP_ROWS`] rows: revision of the last write to that group alone.
    pub groups: [u64; GROUPS],
}

impl LaneRevs {
    fn new(rev: u64) -> Self {
        LaneRevs { revision: rev, bulk: rev, groups: [0; GROUPS] }
    }

    /// Stamps a write to row `i` (`i < CHUNK_ROWS`) at `rev`. The group index is masked to
    /// the group count, which changes nothing for a row of the chunk and lets the compiler
    /// drop the bounds check.
    #[inline(always)]
    pub fn stamp_row(&mut self, i: usize, rev: u64) {
        debug_assert!(i < CHUNK_ROWS);
        self.revision = rev;
        self.groups[(i / GROUP_ROWS) % GROUPS] = rev;
    }

    /// Stamps a write to the whole chunk at `rev`.
    #[inline(always)]
    pub fn stamp_bulk(&mut self, rev: u64) {
        self.revision = rev;
        self.bulk = rev;
    }
}

/// One chunk of a table, every lane of it (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct TableChunk {
    words: Box<[Block]>,
    strs: Box<[StrLane]>,
    revs: Box<[LaneRevs]>,
}

impl TableChunk {
    /// A chunk of `layout` with zeroed words, empty strings and every lane stamped `rev`.
    pub fn new(layout: ChunkLayout, rev: u64) -> Self {
        let words = Box::<[Block]>::new_zeroed_slice(layout.words_blocks as usize);
        TableChunk {
            // SAFETY: all-zero bytes are a valid `Block` (it is `Pod`).
            words: unsafe { words.assume_init() },
            strs: (0..layout.strs).map(|_| vec![None; CHUNK_ROWS].into_boxed_slice()).collect(),
            revs: vec![LaneRevs::new(rev); layout.lanes as usize].into_boxed_slice(),
        }
    }

    /// Makes a dropped chunk (holding no rows, so no strings) new again, every lane stamped
    /// `rev`.
    pub fn renew(&mut self, rev: u64) {
        debug_assert!(self.strs.iter().all(|lane| lane.iter().all(Option::is_none)));
        self.revs.fill(LaneRevs::new(rev));
    }

    /// The word in row `i` of word lane `col`.
    #[inline(always)]
    pub fn word(&self, col: LaneSpec, i: usize) -> u64 {
        debug_assert!(col.kind != super::LaneKind::Str, "word lanes only");
        self.word_at(col.at as usize, col.is_wide(), i)
    }

    /// The word in row `i` of the word lane at `at` (`wide`: 64-bit), for callers that
    /// resolved the lane's width once.
    #[inline(always)]
    pub fn word_at(&self, at: usize, wide: bool, i: usize) -> u64 {
        debug_assert!(i < CHUNK_ROWS);
        if wide {
            bytemuck::cast_slice::<Block, u64>(&self.words)[at / 2 + i]
        } else {
            u64::from(bytemuck::cast_slice::<Block, u32>(&self.words)[at + i])
        }
    }

    /// [`word_at`](Self::word_at) with no bounds check, for row moves.
    ///
    /// # Safety
    ///
    /// `at` is the offset of a word lane of this chunk's layout holding 64-bit words if
    /// `wide` (32-bit ones otherwise), and `i < CHUNK_ROWS`: the word lies inside the buffer.
    #[inline(always)]
    pub unsafe fn word_unchecked(&self, at: usize, wide: bool, i: usize) -> u64 {
        debug_assert!(i < CHUNK_ROWS && at + (i + 1) * (1 + usize::from(wide)) <= self.words.len() * 8);
        let base = self.words.as_ptr().cast::<u32>();
        // SAFETY: inside the buffer (the caller's contract); a lane starts on a block and a
        // 64-bit lane's row `i` at `2 * i` 32-bit words past it, so the read is aligned.
        unsafe {
            if wide { base.add(at + 2 * i).cast::<u64>().read() } else { u64::from(base.add(at + i).read()) }
        }
    }

    /// [`set_word_at`](Self::set_word_at) with no bounds check, for row moves.
    ///
    /// # Safety
    ///
    /// As for [`word_unchecked`](Self::word_unchecked).
    #[inline(always)]
    pub unsafe fn set_word_unchecked(&mut self, at: usize, wide: bool, i: usize, w: u64) {
        debug_assert!(i < CHUNK_ROWS && at + (i + 1) * (1 + usize::from(wide)) <= self.words.len() * 8);
        let base = self.words.as_mut_ptr().cast::<u32>();
        // SAFETY: inside the buffer and aligned (as for `word_unchecked`); `&mut self` makes
        // this the only access.
        unsafe {
            if wide {
                base.add(at + 2 * i).cast::<u64>().write(w);
            } else {
                base.add(at + i).write(w as u32);
            }
        }
    }

    /// Stamps a write to row `i` of lane `col` at `rev`, with no bounds check on the lane,
    /// for row moves.
    ///
    /// # Safety
    ///
    /// `col` is a lane of this chunk's layout (and `i < CHUNK_ROWS`, as for
    /// [`LaneRevs::stamp_row`]).
    #[inline(always)]
    pub unsafe fn stamp_row_unchecked(&mut self, col: LaneSpec, i: usize, rev: u64) {
        debug_assert!((col.lane as usize) < self.revs.len());
        // SAFETY: a lane of the layout has its revisions in `revs` (the caller's contract).
        unsafe { self.revs.get_unchecked_mut(col.lane as usize) }.stamp_row(i, rev);
    }

    /// Writes row `i` of word lane `col` (no revision stamped).
    #[inline(always)]
    pub fn set_word(&mut self, col: LaneSpec, i: usize, w: u64) {
        debug_assert!(col.kind != super::LaneKind::Str, "word lanes only");
        self.set_word_at(col.at as usize, col.is_wide(), i, w);
    }

    /// Writes row `i` of the word lane at `at` (`wide`: 64-bit; no revision stamped).
    #[inline(always)]
    pub fn set_word_at(&mut self, at: usize, wide: bool, i: usize, w: u64) {
        debug_assert!(i < CHUNK_ROWS);
        if wide {
            bytemuck::cast_slice_mut::<Block, u64>(&mut self.words)[at / 2 + i] = w;
        } else {
            bytemuck::cast_slice_mut::<Block, u32>(&mut self.words)[at + i] = w as u32;
        }
    }

    /// String lane `col`'s entries (every row of the chunk).
    #[inline]
    pub fn strs_mut(&mut self, col: LaneSpec) -> &mut [Option<Arc<str>>] {
        &mut self.strs[col.at as usize]
    }

    /// The value in row `i` of lane `col`.
    #[inline]
    pub fn get(&self, col: LaneSpec, i: usize) -> LaneValue {
        match col.kind {
            super::LaneKind::Str => LaneValue::Str(self.strs[col.at as usize][i].clone()),
            _ => LaneValue::Word(self.word(col, i)),
        }
    }

    /// Writes `value` into row `i` of lane `col` (no revision stamped).
    #[inline(always)]
    pub fn set(&mut self, col: LaneSpec, i: usize, value: LaneValue) {
        match (col.kind, value) {
            (super::LaneKind::Str, LaneValue::Str(s)) => self.strs[col.at as usize][i] = s,
            (super::LaneKind::Str, LaneValue::Word(_)) => self.strs[col.at as usize][i] = None,
            (_, LaneValue::Word(w)) => self.set_word(col, i, w),
            (_, LaneValue::Str(_)) => {}
        }
    }

    /// Drops the strings of rows `from ..` in every string lane (rows leaving the table).
    #[inline]
    pub fn drop_strs_from(&mut self, from: usize) {
        for lane in self.strs.iter_mut() {
            lane[from..].fill(None);
        }
    }

    /// Drops row `i`'s strings in every string lane (a row leaving the table).
    #[inline]
    pub fn drop_row_strs(&mut self, i: usize) {
        for lane in self.strs.iter_mut() {
            lane[i] = None;
        }
    }

    /// Lane `col`'s revisions.
    #[inline(always)]
    pub fn revs(&self, col: LaneSpec) -> &LaneRevs {
        &self.revs[col.lane as usize]
    }

    /// Lane `col`'s revisions, for stamping.
    #[inline(always)]
    pub fn revs_mut(&mut self, col: LaneSpec) -> &mut LaneRevs {
        &mut self.revs[col.lane as usize]
    }

    /// Revision of the last write to rows `g * GROUP_ROWS ..` of lane `col`.
    #[inline]
    pub fn group_revision(&self, col: LaneSpec, g: usize) -> u64 {
        let revs = self.revs(col);
        revs.groups[g].max(revs.bulk)
    }

    /// The blocks of word lane `col` holding the chunk's first `rows` rows (empty for a
    /// string lane).
    #[inline]
    pub fn blocks(&self, col: LaneSpec, rows: usize) -> &[Block] {
        let first = col.first_block();
        &self.words[first..first + col.blocks_for(rows).min(col.chunk_blocks())]
    }

    /// Word lane `col`'s rows as `T` (`u32` for a 32-bit lane, `u64` for a 64-bit one): all
    /// [`CHUNK_ROWS`] of them, padding included.
    #[inline]
    pub fn lane_mut<T: bytemuck::Pod>(&mut self, col: LaneSpec) -> &mut [T] {
        assert!(col.kind != super::LaneKind::Str, "word lanes only");
        let first = col.first_block();
        bytemuck::cast_slice_mut(&mut self.words[first..first + col.chunk_blocks()])
    }

    /// The chunk's lanes, to lend several at once (see [`LaneLender`]).
    #[inline(always)]
    pub fn lender(&mut self) -> LaneLender<'_> {
        LaneLender {
            base: self.words.as_mut_ptr(),
            blocks: self.words.len(),
            revs: &mut self.revs,
            _words: PhantomData,
        }
    }

    /// Bytes of the strings this chunk's string lanes hold (each holder counted).
    pub fn text_bytes(&self) -> usize {
        self.strs.iter().flat_map(|lane| lane.iter().flatten()).map(|s| s.len()).sum()
    }

    /// Heap bytes held by this chunk (its own `Arc` allocation not included).
    pub fn heap_bytes(&self) -> usize {
        self.words.len() * size_of::<Block>()
            + self.strs.iter().map(|lane| lane.len() * size_of::<Option<Arc<str>>>()).sum::<usize>()
            + self.strs.len() * size_of::<StrLane>()
            + self.revs.len() * size_of::<LaneRevs>()
    }
}

/// Lends word lanes of one private chunk, several at once: written lanes as `&mut [Block]`,
/// read lanes and the ids as `&[Block]`, all borrowed from the chunk for `'a`. The lanes of a
/// layout occupy disjoint ranges of the word buffer ([`ChunkLayout`]), so lanes of distinct
/// columns never alias; the caller promises the columns are distinct where it matters.
pub(crate) struct LaneLender<'a> {
    base: *mut Block,
    blocks: usize,
    revs: &'a mut [LaneRevs],
    _words: PhantomData<&'a mut [Block]>,
}

impl<'a> LaneLender<'a> {
    /// Word lane `col`'s blocks holding `rows` rows, for writing, its revisions stamped as a
    /// write to the whole chunk at `rev`.
    ///
    /// # Safety
    ///
    /// `col` is a word lane of the owning table's layout, `rows <= CHUNK_ROWS`, and no other
    /// lane lent from this lender (by [`write`](Self::write), [`read`](Self::read) or
    /// [`ids`](Self::ids)) is the same column.
    #[inline(always)]
    pub unsafe fn write(&mut self, col: LaneSpec, rows: usize, rev: u64) -> &'a mut [Block] {
        debug_assert!((col.lane as usize) < self.revs.len() && rows <= CHUNK_ROWS);
        // SAFETY: a lane of the layout has its revisions in `revs` (the caller's contract).
        unsafe { self.revs.get_unchecked_mut(col.lane as usize) }.stamp_bulk(rev);
        let (first, n) = (col.first_block(), col.blocks_for(rows));
        debug_assert!(first + n <= self.blocks);
        // SAFETY: `first + n <= blocks` (a lane of the layout lies inside the buffer: layout
        // invariant), the buffer is borrowed exclusively for 'a, and no other lent lane
        // overlaps this column's range (distinct columns have disjoint ranges; the caller's
        // contract).
        unsafe { std::slice::from_raw_parts_mut(self.base.add(first), n) }
    }

    /// Word lane `col`'s blocks holding `rows` rows, for reading.
    ///
    /// # Safety
    ///
    /// `col` is a word lane of the owning table's layout, `rows <= CHUNK_ROWS`, and no lane
    /// lent for writing from this lender is the same column.
    #[inline(always)]
    pub unsafe fn read(&self, col: LaneSpec, rows: usize) -> &'a [Block] {
        debug_assert!(rows <= CHUNK_ROWS);
        let (first, n) = (col.first_block(), col.blocks_for(rows));
        debug_assert!(first + n <= self.blocks);
        // SAFETY: inside the buffer (as for `write`); only shared borrows of this range
        // exist for 'a (the caller's contract).
        unsafe { std::slice::from_raw_parts(self.base.add(first), n) }
    }

    /// The ids lane `ids` (every row of the chunk).
    ///
    /// # Safety
    ///
    /// `ids` is the 64-bit ids lane of the owning table's layout, never lent for writing.
    #[inline(always)]
    pub unsafe fn ids(&self, ids: LaneSpec) -> &'a [Block; WIDE_LANE_BLOCKS] {
        debug_assert!(ids.is_wide() && ids.first_block() + WIDE_LANE_BLOCKS <= self.blocks);
        // SAFETY: a 64-bit lane of the layout spans `WIDE_LANE_BLOCKS` blocks inside the
        // buffer; only shared borrows of it exist for 'a (the caller's contract).
        unsafe { &*self.base.add(ids.first_block()).cast::<[Block; WIDE_LANE_BLOCKS]>() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::LaneKind;

    #[test]
    fn lanes_keep_their_words_apart_and_lend_disjoint_blocks() {
        let (layout, cols) = ChunkLayout::new([LaneKind::W32, LaneKind::W64, LaneKind::Str, LaneKind::W64]);
        let mut chunk = TableChunk::new(layout, 1);
        for i in 0..CHUNK_ROWS {
            chunk.set_word(cols[0], i, i as u64);
            chunk.set_word(cols[1], i, (i as u64) << 40 | 7);
            chunk.set_word(cols[3], i, u64::MAX - i as u64);
        }
        chunk.set(cols[2], 5, LaneValue::Str(Some("five".into())));
        assert!((0..CHUNK_ROWS).all(|i| chunk.word(cols[0], i) == i as u64
            && chunk.word(cols[1], i) == (i as u64) << 40 | 7
            && chunk.word(cols[3], i) == u64::MAX - i as u64));
        assert_eq!(chunk.get(cols[2], 5), LaneValue::Str(Some("five".into())));
        assert_eq!(chunk.blocks(cols[1], 9).len(), 3);
        assert_eq!(chunk.blocks(cols[1], 0).as_ptr() as usize % 32, 0);
        let mut lender = chunk.lender();
        // SAFETY: distinct word lanes of the chunk's layout; lane 3 (64-bit) stands in for ids.
        let (w, r, ids) =
            unsafe { (lender.write(cols[0], 20, 9), lender.read(cols[1], 20), lender.ids(cols[3])) };
        bytemuck::cast_slice_mut::<Block, u32>(w)[..20].fill(0);
        assert_eq!(bytemuck::cast_slice::<Block, u64>(r)[19], 19 << 40 | 7);
        assert_eq!(bytemuck::cast_slice::<Block, u64>(ids)[3], u64::MAX - 3);
        assert_eq!((chunk.revs(cols[0]).revision, chunk.revs(cols[0]).bulk), (9, 9));
        assert_eq!(chunk.word(cols[0], 19), 0);
        assert_eq!(chunk.word(cols[0], 20), 20);
        chunk.drop_strs_from(0);
        chunk.renew(3);
        assert_eq!((chunk.revs(cols[2]).revision, chunk.group_revision(cols[2], 4)), (3, 3));
    }
}
