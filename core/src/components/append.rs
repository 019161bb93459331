//! Appending word-lane rows without writing any word twice: [`Column::extend_words`] and its
//! staged form. Rows in an existing partial last block are stored one by one; further blocks
//! are written straight into a chunk's spare capacity, whole blocks a block's words at a time,
//! the padding rows of a partial last block zero.
//!
//! Staged appends (batch spawns, see `stage`) write rows past the owning table's length
//! without stamping any chunk: [`Column::stamp_rows`] stamps them once the batch is
//! committed, and [`Column::truncate_words`] drops them if it is not, leaving the column's
//! rows and chunk revisions as they were (a chunk shared with a snapshot was copied before
//! its first write, so the snapshot never sees staged rows).

use super::CHUNK_ROWS;
use super::column::{Block, Column, block_mask, split, store, words_mut};
use super::schema::LaneKind;
use std::mem::MaybeUninit;

impl Column {
    /// Word lanes: appends `n` rows holding `word(r)` (`r < n`) from `row` (the current
    /// length), copying or creating each touched chunk once and stamping it `rev`. No word is
    /// written twice; `word` is only called with `r < n`.
    #[inline(always)]
    pub fn extend_words(&mut self, row: usize, n: usize, rev: u64, word: impl Fn(usize) -> u64) {
        self.extend_words_with(row, n, Some(rev), word);
    }

    /// [`extend_words`](Self::extend_words) for a staged append: the touched chunks are made
    /// private (or created) but not stamped; [`stamp_rows`](Self::stamp_rows) stamps them on
    /// commit, [`truncate_words`](Self::truncate_words) drops the rows otherwise.
    #[inline(always)]
    pub fn stage_words(&mut self, row: usize, n: usize, word: impl Fn(usize) -> u64) {
        self.extend_words_with(row, n, None, word);
    }

    #[inline(always)]
    fn extend_words_with(&mut self, mut row: usize, n: usize, rev: Option<u64>, word: impl Fn(usize) -> u64) {
        let wide = self.kind == LaneKind::W64;
        let per_block = self.words_per_block();
        let end = row + n;
        while row < end {
            let (k, first) = split(row);
            let last = first + (CHUNK_ROWS - first).min(end - row);
            // `word` index of the chunk's row `i`: `i - first + base`.
            let base = n - (end - row);
            let at = |i: usize| word(base + i - first);
            let chunk = match rev {
                Some(rev) => self.chunk_for_write(k, rev),
                // A chunk created for staged rows is stamped on commit (popped otherwise).
                None => self.chunk_unstamped(k, 0),
            };
            let blocks = words_mut(&mut chunk.data);
            let mut i = first;
            while i & block_mask(wide) != 0 && i < last {
                store(blocks, i, at(i), wide);
                i += 1;
            }
            if i < last {
                append_words(blocks, per_block, last - i, |w| at(i + w), wide);
            }
            row += last - first;
        }
    }

    /// Stamps `rev` on every chunk holding rows `from..to` (`from < to`, all present): the
    /// commit of rows appended with [`stage_words`](Self::stage_words).
    pub fn stamp_rows(&mut self, from: usize, to: usize, rev: u64) {
        for k in from / CHUNK_ROWS..to.div_ceil(CHUNK_ROWS) {
            self.chunk_for_write(k, rev);
        }
    }

    /// Word lanes: drops every row from `len` on (rows appended with
    /// [`stage_words`](Self::stage_words) and never committed). Whole chunks past `len` are
    /// dropped, and blocks past `len` in its last chunk; a word left in the last block is a
    /// padding row. Nothing is stamped, and a column holding no more than `len` rows is
    /// untouched.
    pub fn truncate_words(&mut self, len: usize) {
        let keep = len.div_ceil(CHUNK_ROWS);
        while self.chunks.len() > keep {
            self.pop_chunk();
        }
        if keep == 0 {
            return;
        }
        let blocks = (len - (keep - 1) * CHUNK_ROWS).div_ceil(self.words_per_block());
        if self.blocks(keep - 1).len() > blocks {
            words_mut(&mut self.chunks.make_mut(keep - 1).data).truncate(blocks);
        }
    }
}

/// Appends the blocks holding `rows` more words `word(w)` (`w < rows`) to `blocks`, whose
/// last block is full, the padding rows of a partial last block zero: each word is written
/// once, straight into the spare capacity (`wide`: 64-bit words, `per_block` to a block).
#[inline(always)]
pub(super) fn append_words(
    blocks: &mut Vec<Block>,
    per_block: usize,
    rows: usize,
    word: impl Fn(usize) -> u64,
    wide: bool,
) {
    let count = rows.div_ceil(per_block);
    blocks.reserve(count);
    let spare = &mut blocks.spare_capacity_mut()[..count];
    if wide {
        // SAFETY: `spare` is `count` uninitialised blocks of 32 bytes, aligned to 32: exactly
        // `4 * count` uninitialised, aligned `u64`s.
        let words = unsafe {
            std::slice::from_raw_parts_mut(spare.as_mut_ptr().cast::<MaybeUninit<u64>>(), 4 * count)
        };
        write_blocks::<u64, 4>(words, rows, word);
    } else {
        // SAFETY: as above, `8 * count` uninitialised, aligned `u32`s.
        let words = unsafe {
            std::slice::from_raw_parts_mut(spare.as_mut_ptr().cast::<MaybeUninit<u32>>(), 8 * count)
        };
        write_blocks::<u32, 8>(words, rows, |w| word(w) as u32);
    }
    let len = blocks.len();
    // SAFETY: the `count` blocks past `len` are within capacity (reserved above) and every
    // word of them was written just now.
    unsafe { blocks.set_len(len + count) };
}

/// Writes `word(w)` into `words[w]` for `w < rows` and zero into the rest (`words.len()` a
/// multiple of `N`, the words to a block): whole blocks `N` words at a time, unrolled.
#[inline(always)]
fn write_blocks<T: Copy + Default, const N: usize>(
    words: &mut [MaybeUninit<T>],
    rows: usize,
    word: impl Fn(usize) -> T,
) {
    let whole = rows / N;
    let (head, rest) = words.split_at_mut(whole * N);
    for (b, block) in head.chunks_exact_mut(N).enumerate() {
        for (j, slot) in block.iter_mut().enumerate() {
            slot.write(word(b * N + j));
        }
    }
    for (j, slot) in rest.iter_mut().enumerate() {
        let w = whole * N + j;
        slot.write(if w < rows { word(w) } else { T::default() });
    }
}
