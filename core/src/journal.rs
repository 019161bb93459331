//! [`BoundedLog`]: a revision-stamped log with bounded history, used for the part-write log,
//! the topology journal and the deletion log.
//!
//! Entries are appended with non-decreasing revisions. When the log reaches its capacity it
//! drops its older half and remembers the newest revision it dropped. A reader passes the
//! last revision it has seen and gets every entry newer than that, or
//! [`HistoryUnavailable`] if entries newer than its revision were dropped: the reader must
//! then inspect everything it cares about instead of trusting an incomplete list.

use thiserror::Error;

/// Default capacity of the part-write log (`000`: 65,536 entries).
pub const PART_WRITE_LOG_CAPACITY: usize = 65_536;

/// The reader's revision predates the retained history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error(
    "history unavailable: revision {requested} predates the retained log (oldest kept after {dropped_through})"
)]
pub struct HistoryUnavailable {
    /// The revision the reader passed.
    pub requested: u64,
    /// The newest revision whose entries were dropped.
    pub dropped_through: u64,
}

/// A bounded, revision-stamped log.
#[derive(Clone, Debug)]
pub struct BoundedLog<T> {
    entries: Vec<(u64, T)>,
    capacity: usize,
    dropped_through: u64,
    /// Total entries ever pushed (for checkpoints).
    pushed: u64,
}

impl<T: Clone> BoundedLog<T> {
    /// An empty log holding at most `capacity` entries (at least 2).
    pub fn new(capacity: usize) -> Self {
        Self { entries: Vec::new(), capacity: capacity.max(2), dropped_through: 0, pushed: 0 }
    }

    /// Appends `value` stamped with `revision` (not below the last entry's).
    pub fn push(&mut self, revision: u64, value: T) {
        debug_assert!(self.entries.last().is_none_or(|(r, _)| *r <= revision));
        if self.entries.len() == self.capacity {
            let half = self.capacity / 2;
            self.dropped_through = self.entries[half - 1].0;
            self.entries.drain(..half);
        }
        self.entries.push((revision, value));
        self.pushed += 1;
    }

    /// Makes room for `additional` more entries (up to the capacity) in one allocation, so a
    /// batch of pushes does not regrow the buffer step by step.
    pub fn reserve(&mut self, additional: usize) {
        let room = self.capacity - self.entries.len();
        self.entries.reserve(additional.min(room));
    }

    /// Entries with a revision greater than `since`, oldest first.
    pub fn since(&self, since: u64) -> Result<impl Iterator<Item = &(u64, T)> + '_, HistoryUnavailable> {
        if since < self.dropped_through {
            return Err(HistoryUnavailable { requested: since, dropped_through: self.dropped_through });
        }
        let start = self.entries.partition_point(|(r, _)| *r <= since);
        Ok(self.entries[start..].iter())
    }

    /// Number of entries retained.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no entry is retained.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The newest revision whose entry was dropped (0 if none was).
    pub fn dropped_through(&self) -> u64 {
        self.dropped_through
    }

    /// A position to [`truncate_to`](Self::truncate_to) later.
    pub(crate) fn mark(&self) -> u64 {
        self.pushed
    }

    /// Removes entries pushed after `mark`, as far as they are still retained.
    pub(crate) fn truncate_to(&mut self, mark: u64) {
        let extra = self.pushed.saturating_sub(mark) as usize;
        let keep = self.entries.len().saturating_sub(extra);
        self.entries.truncate(keep);
        self.pushed = mark;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_get_entries_since_their_revision() {
        let mut log = BoundedLog::new(8);
        for r in 1..=5u64 {
            log.push(r, r * 10);
        }
        let got: Vec<u64> = log.since(3).unwrap().map(|(_, v)| *v).collect();
        assert_eq!(got, vec![40, 50]);
        assert_eq!(log.since(5).unwrap().count(), 0);
    }

    #[test]
    fn full_log_drops_older_half_and_reports_unavailable() {
        let mut log = BoundedLog::new(4);
        for r in 1..=5u64 {
            log.push(r, r);
        }
        // Entries 1 and 2 dropped.
        assert_eq!(log.len(), 3);
        assert_eq!(log.dropped_through(), 2);
        assert_eq!(log.since(1).err(), Some(HistoryUnavailable { requested: 1, dropped_through: 2 }));
        assert_eq!(log.since(2).unwrap().map(|(_, v)| *v).collect::<Vec<_>>(), vec![3, 4, 5]);
    }

    #[test]
    fn truncate_rolls_back_recent_entries() {
        let mut log = BoundedLog::new(16);
        log.push(1, 'a');
        let mark = log.mark();
        log.push(2, 'b');
        log.push(3, 'c');
        log.truncate_to(mark);
        assert_eq!(log.since(0).unwrap().map(|(_, v)| *v).collect::<Vec<_>>(), vec!['a']);
    }
}
