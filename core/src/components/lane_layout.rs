//! [`LaneSpec`]: where one storage lane of an archetype table sits inside each of the table's
//! chunks ([`TableChunk`](super::table_chunk::TableChunk)), and the chunk geometry every lane
//! shares ([`CHUNK_ROWS`], [`Block`], [`GROUP_ROWS`]); [`LaneKind`], the width of a lane.
//!
//! A column is a descriptor, not storage: its kind, its offset in a chunk's word buffer (or
//! its index among the chunk's string lanes), and the index of its revisions. A table lays
//! its columns out once ([`ChunkLayout::new`]) and every chunk of it follows that layout, so
//! a lane's rows sit at a fixed offset of every chunk.
//!
//! Word lanes store 32- or 64-bit values, [`CHUNK_ROWS`] rows of each lane contiguous and
//! 32-byte aligned (4 KB for a 32-bit lane, 8 KB for a 64-bit one), so a chunk's lane can be
//! read as `&[f32]`, `&[i64]`, ... with no copy and loaded straight into SIMD registers.
//! String lanes store `Option<Arc<str>>` (`None` reads as the empty string).
//!
//! Lanes follow each other with no gap, so the same row of every lane sits a multiple of
//! 4 KB apart, in one L1 set. What was tried instead: `docs/perf/row-moves.md`.
//!
//! Invariant: the word lanes of a layout occupy disjoint, block-aligned ranges of the word
//! buffer, all inside `words_blocks` blocks; string lanes have distinct indexes below
//! `strs`; every lane (the ids too) has a distinct revision index below `lanes`.

#[cfg(not(target_endian = "little"))]
compile_error!("component lanes read 64-bit words as pairs of 32-bit words, low word first");

use std::sync::Arc;

/// The width of one storage lane.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LaneKind {
    /// 32-bit word (`bool`, `i32`, `f32`).
    W32,
    /// 64-bit word (`i64`, `f64`, instance reference).
    W64,
    /// Shared string.
    Str,
}

/// Rows per chunk.
pub const CHUNK_ROWS: usize = 1024;

/// 32 bytes: eight 32-bit or four 64-bit words, aligned for 256-bit SIMD loads.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
pub struct Block(pub [u32; 8]);

impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Rows per revision group inside a chunk.
pub(crate) const GROUP_ROWS: usize = 64;

/// Blocks of a 64-bit lane in one chunk (the ids lane, the row-tick lanes).
pub(crate) const WIDE_LANE_BLOCKS: usize = CHUNK_ROWS / 4;

/// A value read from or written to a lane.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LaneValue {
    Word(u64),
    Str(Option<Arc<str>>),
}

/// Where one lane sits in every chunk of its table (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LaneSpec {
    pub kind: LaneKind,
    /// Word lanes: offset of row 0 in the chunk's word buffer, in 32-bit words (a multiple of
    /// eight: block-aligned). String lanes: index among the chunk's string lanes.
    pub at: u32,
    /// Index of this lane's revisions in a chunk.
    pub lane: u32,
}

impl LaneSpec {
    /// Whether the lane holds 64-bit words.
    #[inline(always)]
    pub fn is_wide(self) -> bool {
        self.kind == LaneKind::W64
    }

    /// Blocks of this lane in one chunk (0 for a string lane).
    #[inline]
    pub fn chunk_blocks(self) -> usize {
        match self.kind {
            LaneKind::W64 => WIDE_LANE_BLOCKS,
            LaneKind::W32 => CHUNK_ROWS / 8,
            LaneKind::Str => 0,
        }
    }

    /// Index of this word lane's first block in a chunk's word buffer.
    #[inline(always)]
    pub fn first_block(self) -> usize {
        self.at as usize / 8
    }

    /// Blocks holding `rows` rows of this word lane (the last one may hold padding rows).
    #[inline(always)]
    pub fn blocks_for(self, rows: usize) -> usize {
        if self.is_wide() { rows.div_ceil(4) } else { rows.div_ceil(8) }
    }
}

/// The sizes of every chunk of one table: its word buffer, string lanes and revisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ChunkLayout {
    /// Blocks in the word buffer.
    pub words_blocks: u32,
    /// String lanes.
    pub strs: u32,
    /// Lanes with revisions (every column and the ids).
    pub lanes: u32,
}

impl ChunkLayout {
    /// Lays out lanes of `kinds` in order, one after the other in the word buffer; returns
    /// the layout and each lane's column (in the same order).
    pub fn new(kinds: impl IntoIterator<Item = LaneKind>) -> (Self, Vec<LaneSpec>) {
        let mut layout = ChunkLayout::default();
        let mut columns = Vec::new();
        for kind in kinds {
            let mut col = LaneSpec { kind, at: 0, lane: layout.lanes };
            if kind == LaneKind::Str {
                col.at = layout.strs;
                layout.strs += 1;
            } else {
                col.at = layout.words_blocks * 8;
                layout.words_blocks += col.chunk_blocks() as u32;
            }
            layout.lanes += 1;
            columns.push(col);
        }
        (layout, columns)
    }
}

#[inline]
pub(super) fn split(row: usize) -> (usize, usize) {
    (row / CHUNK_ROWS, row % CHUNK_ROWS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_get_disjoint_block_aligned_ranges() {
        let kinds = [LaneKind::W32, LaneKind::Str, LaneKind::W64, LaneKind::W32, LaneKind::Str];
        let (layout, cols) = ChunkLayout::new(kinds);
        assert_eq!(layout, ChunkLayout { words_blocks: 128 + 256 + 128, strs: 2, lanes: 5 });
        assert_eq!(cols.iter().map(|c| c.at).collect::<Vec<_>>(), vec![0, 0, 1024, 3072, 1]);
        assert_eq!(cols.iter().map(|c| c.lane).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert_eq!((cols[2].first_block(), cols[2].blocks_for(5)), (128, 2));
        assert_eq!((cols[3].first_block(), cols[3].blocks_for(9)), (384, 2));
    }
}
