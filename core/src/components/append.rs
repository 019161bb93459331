//! Appending word-lane rows a lane at a time, writing each word once: [`Table::extend_words`]
//! and its staged form. A table chunk holds every lane's [`CHUNK_ROWS`] rows at a fixed
//! offset, so an append is a run of stores into the lane's rows of each touched chunk (made
//! private, or created, once per chunk and lane); nothing grows.
//!
//! Staged appends (batch spawns, see `stage`) write rows past the table's length without
//! stamping any lane: [`Table::stamp_rows`] stamps them once the batch is committed, and
//! [`Table::truncate_chunks`] drops the chunks they added if it is not, leaving the table's
//! rows and lane revisions as they were (a chunk shared with a snapshot was copied before
//! its first write, so the snapshot never sees staged rows; words written past the table's
//! rows in a chunk it keeps are padding rows).

use super::CHUNK_ROWS;
use super::lane_layout::{LaneSpec, split};
use super::table::Table;

impl Table {
    /// Word lane `col`: writes `n` rows holding `word(r)` (`r < n`) from `row` (the current
    /// length), copying or creating each touched chunk once and stamping the lane's chunks
    /// `rev` (as whole-chunk writes). No word is written twice; `word` is only called with
    /// `r < n`.
    #[inline(always)]
    pub fn extend_words(
        &mut self,
        col: LaneSpec,
        row: usize,
        n: usize,
        rev: u64,
        word: impl Fn(usize) -> u64,
    ) {
        self.extend_words_with(col, row, n, Some(rev), word);
    }

    /// [`extend_words`](Self::extend_words) of column `c` for a staged append: the touched
    /// chunks are made private (or created) but not stamped; [`stamp_rows`](Self::stamp_rows)
    /// stamps them on commit, [`truncate_chunks`](Self::truncate_chunks) drops the rows
    /// otherwise.
    #[inline(always)]
    pub fn stage_words(&mut self, c: usize, row: usize, n: usize, word: impl Fn(usize) -> u64) {
        self.extend_words_with(self.columns[c], row, n, None, word);
    }

    #[inline(always)]
    fn extend_words_with(
        &mut self,
        col: LaneSpec,
        mut row: usize,
        n: usize,
        rev: Option<u64>,
        word: impl Fn(usize) -> u64,
    ) {
        assert!(col.kind != super::LaneKind::Str, "word lanes only");
        let end = row + n;
        while row < end {
            let (k, first) = split(row);
            let last = first + (CHUNK_ROWS - first).min(end - row);
            // `word` index of the chunk's row `i`: `i - first + base`.
            let base = n - (end - row);
            // A chunk created for staged rows is stamped on commit (dropped otherwise).
            let chunk = self.chunks.for_write(k, rev.unwrap_or(0));
            if let Some(rev) = rev {
                chunk.revs_mut(col).stamp_bulk(rev);
            }
            if col.is_wide() {
                let lane = &mut chunk.lane_mut::<u64>(col)[first..last];
                for (j, w) in lane.iter_mut().enumerate() {
                    *w = word(base + j);
                }
            } else {
                let lane = &mut chunk.lane_mut::<u32>(col)[first..last];
                for (j, w) in lane.iter_mut().enumerate() {
                    *w = word(base + j) as u32;
                }
            }
            row += last - first;
        }
    }

    /// Stamps `rev` on lane `col` of every chunk holding rows `from..to` (`from < to`, all
    /// present), as whole-chunk writes: the commit of rows appended with
    /// [`stage_words`](Self::stage_words).
    pub fn stamp_rows(&mut self, col: LaneSpec, from: usize, to: usize, rev: u64) {
        for k in from / CHUNK_ROWS..to.div_ceil(CHUNK_ROWS) {
            self.chunks.make_mut(k).revs_mut(col).stamp_bulk(rev);
        }
    }

    /// Drops every chunk past the ones holding `len` rows (chunks added for rows appended
    /// with [`stage_words`](Self::stage_words) and never committed). Words staged past
    /// `len` in a chunk that stays are padding rows; nothing is stamped.
    pub fn truncate_chunks(&mut self, len: usize) {
        let keep = len.div_ceil(CHUNK_ROWS);
        while self.chunks.len() > keep {
            self.chunks.pop_chunk();
        }
    }
}
