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

use super::column::{CHUNK_ROWS, GROUP_ROWS};
use super::table::Table;
use crate::id::Id;

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

/// Rows a write log names: sorted and unique, or as a bitmap over the table's rows.
pub(crate) enum Candidates {
    Sorted(Vec<u32>),
    Bits(Vec<u64>),
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
    pub fn for_each_row_written_since(&self, s: usize, k: usize, since: u64, mut f: impl FnMut(usize)) {
        if self.chunk_revision(s, k) <= since {
            return;
        }
        let len = self.chunk_len(k);
        if self.bulk[s][k] > since {
            (0..len).for_each(f);
            return;
        }
        let tick_col = &self.columns[self.slots[s].tick];
        let ticks: &[u64] = &bytemuck::cast_slice(tick_col.blocks(k))[..len];
        for (g, start) in (0..len).step_by(GROUP_ROWS).enumerate() {
            if tick_col.group_revision(k, g) <= since {
                continue;
            }
            let mut newer = newer_mask(&ticks[start..(start + GROUP_ROWS).min(len)], since);
            while newer != 0 {
                f(start + newer.trailing_zeros() as usize);
                newer &= newer - 1;
            }
        }
    }

    /// Calls `f` with every instance whose component slot `s` was written after `since`, in
    /// row order: from the slot's write log when it still reaches back to `since` and names
    /// few rows, else by scanning the chunks' revision groups.
    pub fn for_each_id_written_since(&self, s: usize, since: u64, mut f: impl FnMut(Id)) {
        match self.logged_rows_since(s, since) {
            Some(Candidates::Sorted(rows)) => self.emit_sorted(s, since, &rows, f),
            Some(Candidates::Bits(bits)) => self.emit_marked(s, since, &bits, f),
            None => {
                for k in 0..self.chunk_count() {
                    let ids: &[Id] = bytemuck::cast_slice(self.ids.blocks(k));
                    self.for_each_row_written_since(s, k, since, |i| f(ids[i]));
                }
            }
        }
    }

    /// The rows slot `s`'s log names as written after `since`, deduplicated; `None` if the
    /// log no longer reaches back to `since` or names too many rows to beat the group scan.
    pub(crate) fn logged_rows_since(&self, s: usize, since: u64) -> Option<Candidates> {
        let log = &self.logs[s];
        let limit = (self.len / LOG_SCAN_RATIO).max(LOG_MIN_ROWS);
        let mut named = 0usize;
        for run in log.since(since)? {
            named += run.iter().map(|e| e.rows as usize).sum::<usize>();
            if named > limit {
                return None;
            }
        }
        // Entries past the table's end are stale (their rows were removed).
        let range = |e: &super::writelog::Entry| {
            let start = (e.row as usize).min(self.len);
            start..(start + e.rows as usize).min(self.len)
        };
        if named * SORT_RATIO < self.len {
            let mut rows: Vec<u32> = Vec::with_capacity(named);
            for e in log.since(since)?.flatten() {
                rows.extend(range(e).map(|r| r as u32));
            }
            rows.sort_unstable();
            rows.dedup();
            return Some(Candidates::Sorted(rows));
        }
        let mut bits = vec![0u64; self.len.div_ceil(64)];
        for e in log.since(since)?.flatten() {
            let rows = range(e);
            if rows.len() == 1 {
                bits[rows.start / 64] |= 1 << (rows.start % 64);
            } else {
                for r in rows {
                    bits[r / 64] |= 1 << (r % 64);
                }
            }
        }
        Some(Candidates::Bits(bits))
    }

    /// Calls `f` with the instance in each of `rows` (ascending, unique, inside the table)
    /// whose slot `s` was written after `since`.
    fn emit_sorted(&self, s: usize, since: u64, rows: &[u32], mut f: impl FnMut(Id)) {
        let tick_col = &self.columns[self.slots[s].tick];
        let (mut chunk, mut bulk_newer) = (usize::MAX, false);
        let (mut ticks, mut ids): (&[u64], &[Id]) = (&[], &[]);
        for &row in rows {
            let (k, i) = (row as usize / CHUNK_ROWS, row as usize % CHUNK_ROWS);
            if k != chunk {
                chunk = k;
                ticks = bytemuck::cast_slice(tick_col.blocks(k));
                ids = bytemuck::cast_slice(self.ids.blocks(k));
                bulk_newer = self.bulk[s][k] > since;
            }
            if bulk_newer || ticks[i] > since {
                f(ids[i]);
            }
        }
    }

    /// Calls `f` with the instance in each row marked in `bits` whose slot `s` was written
    /// after `since`, in row order. Unmarked groups are skipped; a marked group compares its
    /// marked rows one by one when few, else all its ticks at once.
    fn emit_marked(&self, s: usize, since: u64, bits: &[u64], mut f: impl FnMut(Id)) {
        let tick_col = &self.columns[self.slots[s].tick];
        for (k, words) in bits.chunks(GROUPS_PER_CHUNK).enumerate() {
            if words.iter().all(|w| *w == 0) {
                continue;
            }
            let len = self.chunk_len(k);
            let ticks: &[u64] = &bytemuck::cast_slice(tick_col.blocks(k))[..len];
            let ids: &[Id] = bytemuck::cast_slice(self.ids.blocks(k));
            // Every row newer than a newer bulk write is marked (the pass logged its range).
            let bulk_newer = self.bulk[s][k] > since;
            for (g, &marked) in words.iter().enumerate() {
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
                    f(ids[start + newer.trailing_zeros() as usize]);
                    newer &= newer - 1;
                }
            }
        }
    }
}
