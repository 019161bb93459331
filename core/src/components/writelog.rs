//! [`WriteLog`]: a bounded log of the rows of one component in one table written at each
//! revision, so [`changed_since`](super::ComponentStore::changed_since) can answer a recent
//! revision by visiting the rows written since instead of scanning the revision groups.
//!
//! An entry is (revision, first row, row count): single-row writes log one row, bulk writes
//! (a chunk pass, a batch spawn) log their whole range at once. Row moves log the row's new
//! index (see [`Table`](super::table::Table)). When the log holds more than its capacity it
//! drops its oldest segments and remembers the newest revision it dropped (`horizon`); a
//! reader asking about an older revision gets `None` and must scan instead.
//!
//! Invariants:
//! - entry revisions never decrease (a push below the last one is raised to it, so an
//!   entry's revision is an upper bound of the write it records);
//! - kept by the owning table: every row whose revision for this component (row tick or
//!   chunk bulk revision) is newer than `horizon` is covered, at its current index, by an
//!   entry whose revision is at least the row's. Entries may be stale (the row was since
//!   moved, removed or overwritten by another instance's row): readers check every
//!   candidate row's own revision.
//!
//! Copy-on-write: full segments are sealed behind `Arc`, so cloning a log (when a table a
//! snapshot shares is first written) copies the open segment and one pointer per sealed
//! segment, never the whole history. A dropped segment no clone shares is kept as the next
//! open segment's buffer, so a busy log stops allocating.

use std::collections::VecDeque;
use std::sync::Arc;

/// Default most entries one component's log keeps in one table.
pub const WRITE_LOG_CAPACITY: usize = 65_536;
/// Most entries in one segment.
const SEGMENT: usize = 256;
/// Entries a log may keep whatever its table's length (tables keep at most a quarter of
/// their rows' worth otherwise: past that, scanning the revision groups is cheaper).
const MIN_KEEP: usize = 1024;

/// Rows `row .. row + rows` were written at `rev` (or earlier).
///
/// `repr(C)`, plain data: `row` and `rows` share one word, which
/// [`try_supersede`](WriteLog::try_supersede) reads with one load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct Entry {
    pub rev: u64,
    pub row: u32,
    pub rows: u32,
}

/// A bounded, segmented write log (see the module docs).
///
/// `repr(C, align(64))`: what a push reads and writes (the open segment, `last`, `segment`)
/// and `horizon` share the first cache line, so stamping a table touches one line per log.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct WriteLog {
    open: Vec<Entry>,
    /// Revision of the newest entry ever pushed.
    last: u64,
    /// Entries per segment.
    segment: usize,
    /// Newest revision whose entries were dropped (0: none).
    horizon: u64,
    sealed_len: usize,
    capacity: usize,
    sealed: VecDeque<Arc<Vec<Entry>>>,
    /// A dropped segment's buffer (empty), reused for the next open segment.
    spare: Vec<Entry>,
}

impl WriteLog {
    /// An empty log keeping at most `capacity` entries (at least 2).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(2);
        Self {
            sealed: VecDeque::new(),
            sealed_len: 0,
            open: Vec::new(),
            segment: (capacity / 2).clamp(1, SEGMENT),
            capacity,
            horizon: 0,
            last: 0,
            spare: Vec::new(),
        }
    }

    /// Newest revision whose entries were dropped (0 if none was).
    #[inline]
    pub fn horizon(&self) -> u64 {
        self.horizon
    }

    /// Logs rows `row .. row + rows` written at `rev`, in a table of `table_len` rows.
    #[inline]
    pub fn push(&mut self, rev: u64, row: usize, rows: usize, table_len: usize) {
        let rev = rev.max(self.last);
        let entry = Entry { rev, row: row as u32, rows: rows as u32 };
        self.last = rev;
        // A write covering the rows of the newest entry supersedes it (a multi-lane write
        // logs its row once; repeated passes over a whole table keep one entry): every row
        // it covered stays covered, by an entry at least as new.
        if let Some(newest) = self.open.last_mut()
            && entry.row <= newest.row
            && newest.row + newest.rows <= entry.row + entry.rows
        {
            *newest = entry;
            return;
        }
        if self.open.len() == self.segment {
            self.seal(table_len);
        }
        self.open.push(entry);
    }

    /// [`push`](Self::push) when the entry supersedes the newest one (repeated passes over
    /// a whole table); returns false, changing nothing, otherwise.
    #[inline(always)]
    pub fn try_supersede(&mut self, rev: u64, row: usize, rows: usize) -> bool {
        let rev = rev.max(self.last);
        let entry = Entry { rev, row: row as u32, rows: rows as u32 };
        let Some(newest) = self.open.last_mut() else { return false };
        // The newest entry's row and row count, read as the one word they share.
        let [_, span] = bytemuck::cast::<Entry, [u64; 2]>(*newest);
        let [newest_row, newest_rows] = bytemuck::cast::<u64, [u32; 2]>(span);
        if entry.row <= newest_row && newest_row + newest_rows <= entry.row + entry.rows {
            *newest = entry;
            self.last = rev;
            true
        } else {
            false
        }
    }

    /// Seals the full open segment, then drops the oldest sealed ones until the log, with a
    /// full open segment, keeps at most its capacity (or a quarter of `table_len` rows'
    /// worth, whichever is less, but not below `MIN_KEEP`).
    #[cold]
    #[inline(never)]
    fn seal(&mut self, table_len: usize) {
        let next = match std::mem::take(&mut self.spare) {
            v if v.capacity() >= self.segment => v,
            _ => Vec::with_capacity(self.segment),
        };
        let full = std::mem::replace(&mut self.open, next);
        self.sealed_len += full.len();
        self.sealed.push_back(Arc::new(full));
        let keep = self.capacity.min(MIN_KEEP.max(table_len / 4));
        while self.sealed_len + self.segment > keep {
            let Some(old) = self.sealed.pop_front() else { break };
            self.sealed_len -= old.len();
            self.horizon = old.last().map_or(self.horizon, |e| e.rev);
            if let Ok(mut buffer) = Arc::try_unwrap(old) {
                buffer.clear();
                self.spare = buffer;
            }
        }
    }

    /// Entries newer than `since`, as runs of entries (oldest first within a run, newest run
    /// first); `None` if some may have been dropped.
    pub fn since(&self, since: u64) -> Option<impl Iterator<Item = &[Entry]> + '_> {
        if since < self.horizon {
            return None;
        }
        let segments = std::iter::once(&self.open[..]).chain(self.sealed.iter().rev().map(|s| &s[..]));
        let mut older_done = false;
        Some(segments.map_while(move |seg| {
            if older_done {
                return None;
            }
            let start = seg.partition_point(|e| e.rev <= since);
            // Every entry before `start`, and in every older segment, is not newer.
            older_done = start > 0;
            Some(&seg[start..])
        }))
    }

    /// Number of entries newer than `since`; `None` if some may have been dropped.
    pub fn count_since(&self, since: u64) -> Option<usize> {
        Some(self.since(since)?.map(<[Entry]>::len).sum())
    }

    /// Heap bytes held (shared segments counted in full).
    pub fn heap_bytes(&self) -> usize {
        (self.sealed_len + self.open.capacity()) * size_of::<Entry>()
            + self.spare.capacity() * size_of::<Entry>()
            + self.sealed.capacity() * size_of::<Arc<Vec<Entry>>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn revs(log: &WriteLog, since: u64) -> Option<Vec<u64>> {
        log.since(since).map(|it| it.flat_map(|run| run.iter().rev()).map(|e| e.rev).collect())
    }

    #[test]
    fn readers_get_entries_newer_than_their_revision_newest_first() {
        let mut log = WriteLog::new(64);
        for r in 1..=5u64 {
            log.push(r, r as usize, 1, 0);
            log.push(r, r as usize, 1, 0);
        }
        assert_eq!(revs(&log, 2), Some(vec![5, 4, 3]), "repeated pushes logged once");
        log.push(3, 9, 1, 0);
        let newest = log.since(4).unwrap().next().and_then(|run| run.last());
        assert_eq!(newest, Some(&Entry { rev: 5, row: 9, rows: 1 }), "raised");
    }

    #[test]
    fn a_write_covering_the_newest_entry_supersedes_it() {
        let mut log = WriteLog::new(64);
        log.push(1, 3, 1, 0);
        log.push(2, 0, 10, 0);
        log.push(3, 0, 10, 0);
        assert_eq!(log.count_since(0), Some(1), "one entry for the whole range");
        assert_eq!(revs(&log, 2), Some(vec![3]));
        log.push(4, 2, 1, 0);
        assert_eq!(revs(&log, 0), Some(vec![4, 3]), "a narrower write is logged on its own");
    }

    #[test]
    fn a_full_log_drops_old_segments_and_reports_their_horizon() {
        let mut log = WriteLog::new(4);
        for r in 1..=7u64 {
            log.push(r, r as usize, 1, 0);
        }
        assert!(log.horizon() > 0);
        assert_eq!(log.since(log.horizon() - 1).map(|_| ()), None);
        let kept = revs(&log, log.horizon()).unwrap();
        assert!(kept.len() <= 4 && kept[0] == 7);
        assert_eq!(kept, ((log.horizon() + 1)..=7).rev().collect::<Vec<_>>());
        let snap = log.clone();
        log.push(8, 0, 1, 0);
        assert_eq!(revs(&snap, 6), Some(vec![7]), "a clone keeps its own history");
    }
}
