//! Appending word-lane rows without writing any word twice: new blocks are written straight
//! into a chunk's spare capacity, whole blocks a block's words at a time, the padding rows of
//! a partial last block zero (see [`Column::extend_words`](super::column::Column::extend_words)).

use super::column::Block;
use std::mem::MaybeUninit;

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
