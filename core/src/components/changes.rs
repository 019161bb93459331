//! Change detection on a [`Table`]: which rows of one component were written after a
//! reader's revision.
//!
//! Two ways to answer, both exact:
//! - the group scan: chunks, then 64-row revision groups, older than the reader are skipped
//!   without reading their rows; the rest compare every row's tick (or take the whole chunk
//!   when its bulk revision is newer);
//! - the write log ([`WriteLog`](super::writelog::WriteLog)): when it still reaches back to
//!   the reader's revision and names few rows, only those rows are visited. Log entries are
//!   candidates, not answers: each named row is checked against its own revision, so stale
//!   entries (moved, removed or overwritten rows) are dropped and repeated ones collapse.
//!
//! Both report rows in ascending order, so callers see the same list whichever answered.
//! The log path sorts its candidate rows when they are few, else marks them in a
//! thread-local bitmap (kept all zero between calls) and walks the marked chunks and groups.

use super::indices::{ChunkIndex, ComponentSlot};
use super::lane_layout::{CHUNK_ROWS, GROUP_ROWS};
use super::table::Table;
use crate::id::Id;
use std::cell::RefCell;

/// The log answers when it names at most one row in this many...
const LOG_SCAN_RATIO: usize = 16;
/// ... or at most this many rows, whatever the table's length.
const LOG_MIN_ROWS: usize = 64;
/// Candidate rows are sorted when fewer than one row in this many, else marked in a bitmap
/// (one word per 64-row group).
const SORT_RATIO: usize = 256;
/// A marked group with at most this many marked rows checks them one by one; a fuller one
/// compares all its ticks with a branch-free mask.
const SPARSE_GROUP: u32 = 4;
const GROUPS_PER_CHUNK: usize = CHUNK_ROWS / GROUP_ROWS;

/// Scratch marks for the log path: one bit per row, one bit per chunk holding a marked row.
///
/// Invariant: all zero between calls (the walk that reads a mark clears it), so a call
/// touches only the words it marks instead of clearing a table-sized bitmap.
#[derive(Default)]
struct Marks {
    rows: Vec<u64>,
    chunks: Vec<u64>,
}

impl Marks {
    /// Clears the marks of a table of `chunks` chunks (after an abandoned marking).
    fn clear(&mut self, chunks: usize) {
        for cw in 0..chunks.div_ceil(64) {
            let mut marked = std::mem::take(&mut self.chunks[cw]);
            while marked != 0 {
                let k = cw * 64 + marked.trailing_zeros() as usize;
                marked &= marked - 1;
                self.rows[k * GROUPS_PER_CHUNK..(k + 1) * GROUPS_PER_CHUNK].fill(0);
            }
        }
    }

    /// Makes room for a table of `chunks` chunks (new words are zero).
    fn fit(&mut self, chunks: usize) {
        if self.rows.len() < chunks * GROUPS_PER_CHUNK {
            self.rows.resize(chunks * GROUPS_PER_CHUNK, 0);
            self.chunks.resize(chunks.div_ceil(64), 0);
        }
    }
}

thread_local! {
    static MARKS: RefCell<Marks> = RefCell::default();
}

/// Bit `i` set when `ticks[i] > since` (at most 64 ticks), computed without branches.
#[inline]
fn newer_mask(ticks: &[u64], since: u64) -> u64 {
    let mut newer = 0u64;
    for (i, t) in ticks.iter().enumerate() {
        newer |= u64::from(*t > since) << i;
    }
    newer
}

impl Table {
    /// Calls `f` with the index inside chunk `k` of every row whose component slot `s` was
    /// written after `since` (by a chunk pass or a single-row write). Unchanged chunks and
    /// 64-row groups are skipped without reading their rows.
    pub fn for_each_row_written_since(
        &self,
        s: ComponentSlot,
        k: usize,
        since: u64,
        mut f: impl FnMut(usize),
    ) {
        if self.chunk_revision(s, ChunkIndex(k)) <= since {
            return;
        }
        let len = self.chunk_len(ChunkIndex(k));
        if self.bulk_rev(s, ChunkIndex(k)) > since {
            (0..len).for_each(f);
            return;
        }
        let (tick_col, chunk) = (self.columns[self.slots[s.0].tick], &self.chunks[k]);
        let ticks: &[u64] = &bytemuck::cast_slice(chunk.blocks(tick_col, len))[..len];
        for (g, start) in (0..len).step_by(GROUP_ROWS).enumerate() {
            if chunk.group_revision(tick_col, g) <= since {
                continue;
            }
            let mut newer = newer_mask(&ticks[start..(start + GROUP_ROWS).min(len)], since);
            while newer != 0 {
                f(start + newer.trailing_zeros() as usize);
                newer &= newer - 1;
            }
        }
    }

    /// Appends to `out` every instance whose component slot `s` was written after `since`,
    /// in row order: from the slot's write log when it still reaches back to `since` and
    /// names few rows, else by scanning the chunks' revision groups.
    pub fn ids_written_since(&self, s: ComponentSlot, since: u64, out: &mut Vec<Id>) {
        if !self.answer_from_log(s, since, out) {
            for k in 0..self.chunk_count() {
                let ids: &[Id] =
                    bytemuck::cast_slice(self.chunks.blocks(self.ids, k, self.chunk_len(ChunkIndex(k))));
                self.for_each_row_written_since(s, k, since, |i| out.push(ids[i]));
            }
        }
    }

    /// Most rows the log path may visit before the group scan is cheaper.
    #[inline]
    fn log_limit(&self) -> usize {
        (self.len / LOG_SCAN_RATIO).max(LOG_MIN_ROWS)
    }

    /// Whether slot `s`'s log would answer `since` (it reaches back to it, and names few
    /// enough entries and rows).
    #[cfg(test)]
    pub(crate) fn log_may_answer(&self, s: ComponentSlot, since: u64) -> bool {
        let entries = self.logs[s.0].count_since(since);
        entries.is_some_and(|n| n <= self.log_limit()) && self.for_each_logged_row(s, since, |_| ())
    }

    /// [`ids_written_since`](Self::ids_written_since) from the log; `false` (having appended
    /// nothing) if the log cannot answer or names more rows than the scan would read.
    fn answer_from_log(&self, s: ComponentSlot, since: u64, out: &mut Vec<Id>) -> bool {
        let Some(entries) = self.logs[s.0].count_since(since) else { return false };
        if entries > self.log_limit() {
            return false;
        }
        if entries * SORT_RATIO < self.len {
            let mut rows: Vec<u32> = Vec::with_capacity(entries);
            if !self.for_each_logged_row(s, since, |r| rows.push(r as u32)) {
                return false;
            }
            rows.sort_unstable();
            rows.dedup();
            out.reserve(rows.len());
            self.emit_sorted(s, since, &rows, out);
            return true;
        }
        MARKS.with_borrow_mut(|marks| {
            marks.fit(self.chunk_count());
            let marked = self.mark_logged(s, since, marks);
            if marked {
                out.reserve(entries);
                self.emit_marked(s, since, marks, out);
            } else {
                marks.clear(self.chunk_count());
            }
            marked
        })
    }

    /// Calls `f` with each row inside the table that slot `s`'s log names as written after
    /// `since` (entries past the table's end are stale: their rows were removed); stops and
    /// returns `false` once more than [`log_limit`](Self::log_limit) rows were named.
    fn for_each_logged_row(&self, s: ComponentSlot, since: u64, mut f: impl FnMut(usize)) -> bool {
        let (limit, mut named) = (self.log_limit(), 0usize);
        for run in self.logs[s.0].since(since).into_iter().flatten() {
            for e in run {
                if e.rows == 1 {
                    if (e.row as usize) < self.len {
                        f(e.row as usize);
                    }
                    named += 1;
                    continue;
                }
                named += e.rows as usize;
                if named > limit {
                    return false;
                }
                let start = (e.row as usize).min(self.len);
                (start..(start + e.rows as usize).min(self.len)).for_each(&mut f);
            }
        }
        named <= limit
    }

    /// Marks the rows slot `s`'s log names as written after `since`, and their chunks;
    /// `false` if it named too many (see [`for_each_logged_row`](Self::for_each_logged_row)).
    fn mark_logged(&self, s: ComponentSlot, since: u64, marks: &mut Marks) -> bool {
        // Consecutive rows often share a word: gather its bits before storing them.
        let (mut word, mut bits) = (usize::MAX, 0u64);
        let flush = |word: usize, bits: u64, marks: &mut Marks| {
            if bits != 0 {
                marks.rows[word] |= bits;
                let k = word / GROUPS_PER_CHUNK;
                marks.chunks[k / 64] |= 1 << (k % 64);
            }
        };
        let named = self.for_each_logged_row(s, since, |r| {
            if r / 64 != word {
                flush(word, bits, marks);
                (word, bits) = (r / 64, 0);
            }
            bits |= 1 << (r % 64);
        });
        flush(word, bits, marks);
        named
    }

    /// Appends to `out` the instance in each of `rows` (ascending, unique, inside the table)
    /// whose slot `s` was written after `since`.
    fn emit_sorted(&self, s: ComponentSlot, since: u64, rows: &[u32], out: &mut Vec<Id>) {
        let tick_col = self.columns[self.slots[s.0].tick];
        let (mut chunk, mut bulk_newer) = (usize::MAX, false);
        let (mut ticks, mut ids): (&[u64], &[Id]) = (&[], &[]);
        for &row in rows {
            let (k, i) = (row as usize / CHUNK_ROWS, row as usize % CHUNK_ROWS);
            if k != chunk {
                chunk = k;
                let len = self.chunk_len(ChunkIndex(k));
                ticks = bytemuck::cast_slice(self.chunks.blocks(tick_col, k, len));
                ids = bytemuck::cast_slice(self.chunks.blocks(self.ids, k, len));
                bulk_newer = self.bulk_rev(s, ChunkIndex(k)) > since;
            }
            if bulk_newer || ticks[i] > since {
                out.push(ids[i]);
            }
        }
    }

    /// Appends to `out` the instance in each row marked in `marks` whose slot `s` was
    /// written after `since`, in row order, clearing the marks. Unmarked chunks and groups
    /// are skipped; a marked group checks its marked rows one by one when few, else compares
    /// all its ticks at once.
    fn emit_marked(&self, s: ComponentSlot, since: u64, marks: &mut Marks, out: &mut Vec<Id>) {
        let tick_col = self.columns[self.slots[s.0].tick];
        for cw in 0..self.chunk_count().div_ceil(64) {
            let mut chunks = std::mem::take(&mut marks.chunks[cw]);
            while chunks != 0 {
                let k = cw * 64 + chunks.trailing_zeros() as usize;
                chunks &= chunks - 1;
                let len = self.chunk_len(ChunkIndex(k));
                let ticks: &[u64] = &bytemuck::cast_slice(self.chunks.blocks(tick_col, k, len))[..len];
                let ids: &[Id] = bytemuck::cast_slice(self.chunks.blocks(self.ids, k, len));
                // A bulk write newer than `since` wrote every row, and logged them all.
                let bulk_newer = self.bulk_rev(s, ChunkIndex(k)) > since;
                let words = &mut marks.rows[k * GROUPS_PER_CHUNK..(k + 1) * GROUPS_PER_CHUNK];
                for (g, word) in words.iter_mut().enumerate() {
                    let marked = std::mem::take(word);
                    if marked == 0 {
                        continue;
                    }
                    let start = g * GROUP_ROWS;
                    let mut newer = if bulk_newer {
                        marked
                    } else if marked.count_ones() <= SPARSE_GROUP {
                        let (mut m, mut left) = (0u64, marked);
                        while left != 0 {
                            let b = left.trailing_zeros() as usize;
                            m |= u64::from(ticks[start + b] > since) << b;
                            left &= left - 1;
                        }
                        m
                    } else {
                        marked & newer_mask(&ticks[start..(start + GROUP_ROWS).min(len)], since)
                    };
                    while newer != 0 {
                        out.push(ids[start + newer.trailing_zeros() as usize]);
                        newer &= newer - 1;
                    }
                }
            }
        }
    }
}
