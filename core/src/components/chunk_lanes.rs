//! [`ChunkLanes`]: the lanes of one chunk (or of a row range of one) lent to a chunk pass,
//! some read and some written, as whole 32-byte blocks or as typed slices.
//!
//! The lanes are disjoint ranges of one table chunk's word buffer (see `table_chunk`), lent
//! together through [`LaneLender`](super::table_chunk::LaneLender): a chunk is made private once
//! for all its written lanes.
//!
//! Invariants: every lane holds the blocks of exactly the rows `first_row .. first_row +
//! len` of one chunk (the last block may carry padding rows past `len`); read and written
//! lanes never alias; a piece split off by [`ChunkLanes::halve`] starts on a block boundary
//! in every lane (a multiple of eight rows), so its blocks hold no other piece's rows.

use super::lane_layout::{Block, CHUNK_ROWS, WIDE_LANE_BLOCKS};
use crate::id::Id;
use smallvec::SmallVec;

/// Lanes of one chunk, some read and some written, as requested.
///
/// Kept within 128 bytes (three lanes of each kind inline, first row and length as `u32`),
/// so handing it to the callback is a few register moves rather than a `memcpy` call.
pub struct ChunkLanes<'a> {
    /// The chunk's ids lane, every row of the chunk (read only if asked for: passes that
    /// never look at ids do not touch its words).
    pub(super) ids: &'a [Block; WIDE_LANE_BLOCKS],
    pub(super) reads: SmallVec<[&'a [Block]; LANES_INLINE]>,
    pub(super) writes: SmallVec<[&'a mut [Block]; LANES_INLINE]>,
    /// The table row of the first row here (a chunk, or a piece of one split off by a
    /// parallel pass: never across chunks).
    pub(super) first_row: u32,
    /// Rows here (at most [`CHUNK_ROWS`]).
    pub(super) len: u32,
}

/// Read (and written) lanes a [`ChunkLanes`] holds without allocating.
pub(super) const LANES_INLINE: usize = 3;

/// Bit `i` set: read (or written) lane `i`, in request order, holds 64-bit words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WideLanes {
    pub reads: u64,
    pub writes: u64,
}

/// Rows below which a parallel pass never splits a chunk's rows further.
const MIN_SPLIT_ROWS: usize = 64;

impl<'a> ChunkLanes<'a> {
    /// Rows in this chunk.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the chunk is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The instances owning the rows.
    pub fn ids(&self) -> &'a [Id] {
        let (first, ids): (usize, &'a [Block]) = (self.first_row as usize % CHUNK_ROWS, self.ids);
        &bytemuck::cast_slice(ids)[first..first + self.len as usize]
    }

    /// Read lane `i` (in request order) as `T`, one value per row.
    pub fn read<T: bytemuck::Pod>(&self, i: usize) -> &[T] {
        &bytemuck::cast_slice(self.reads[i])[..self.len as usize]
    }

    /// Written lane `i` (in request order) as `T`, one value per row.
    pub fn write<T: bytemuck::Pod>(&mut self, i: usize) -> &mut [T] {
        let len = self.len as usize;
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
        let len = self.len as usize;
        let reads = self.reads.iter().map(|r| &bytemuck::cast_slice(r)[..len]).collect();
        let writes = self.writes.iter_mut().map(|w| &mut bytemuck::cast_slice_mut(w)[..len]).collect();
        (reads, writes)
    }

    /// Written lane `i` as whole 32-byte blocks, for SIMD (padding rows may be written).
    pub fn write_blocks<T: bytemuck::Pod>(&mut self, i: usize) -> &mut [T] {
        bytemuck::cast_slice_mut(&mut *self.writes[i])
    }

    /// Splits the rows in two at a multiple of eight rows near the middle (a block boundary
    /// in every lane), so a parallel pass can hand the halves to two threads; the second
    /// half is `None` when the chunk is too small to split or its lanes cannot be split
    /// (`wide` is `None`: see [`WideLanes`]).
    pub(crate) fn halve(self, wide: Option<WideLanes>) -> (Self, Option<Self>) {
        let Some(wide) = wide else { return (self, None) };
        let len = self.len as usize;
        if len < 2 * MIN_SPLIT_ROWS {
            return (self, None);
        }
        let mid = (len / 2) & !7;
        let blocks_before =
            |wide_mask: u64, i: usize| if wide_mask >> i & 1 == 1 { mid / 4 } else { mid / 8 };
        type Reads<'a> = SmallVec<[&'a [Block]; LANES_INLINE]>;
        type Writes<'a> = SmallVec<[&'a mut [Block]; LANES_INLINE]>;
        let (front_reads, back_reads): (Reads<'a>, Reads<'a>) = (self.reads.into_iter().enumerate())
            .map(|(i, lane)| lane.split_at(blocks_before(wide.reads, i).min(lane.len())))
            .unzip();
        let (front_writes, back_writes): (Writes<'a>, Writes<'a>) = (self.writes.into_iter().enumerate())
            .map(|(i, lane)| {
                let at = blocks_before(wide.writes, i).min(lane.len());
                lane.split_at_mut(at)
            })
            .unzip();
        let front = ChunkLanes {
            ids: self.ids,
            reads: front_reads,
            writes: front_writes,
            first_row: self.first_row,
            len: mid as u32,
        };
        let back = ChunkLanes {
            ids: self.ids,
            reads: back_reads,
            writes: back_writes,
            first_row: self.first_row + mid as u32,
            len: (len - mid) as u32,
        };
        (front, Some(back))
    }
}
