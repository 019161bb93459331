//! [`BoundedLog`]: a revision-stamped log with bounded history, used for the part-write log,
//! the topology journal and the deletion log.
//!
//! Entries are appended with non-decreasing revisions. When the log reaches its capacity it
//! drops its older half and remembers the newest revision it dropped. A reader passes the
//! last revision it has seen and gets every entry newer than that, or
//! [`HistoryUnavailable`] if entries newer than its revision were dropped: the reader must
//! then inspect everything it cares about instead of trusting an incomplete list.

use thiserror::Error;

/// Default capacity of the part-write log: 65,536 entries (`docs/architecture.md`, "`arbor-core`",
/// invariants: **Bounded logs**).
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

/// Entries per chunk of a [`BoundedLog`]: the first chunk grows like a `Vec` up to this, the
/// later ones are allocated at this size once.
const CHUNK: usize = 1024;

/// A bounded, revision-stamped log.
///
/// Stored as a list of chunks of at most `CHUNK` entries, so a growing log never copies
/// its old entries to a bigger buffer (a `Vec` doubling to 10,000 topology entries copied
/// about 512 KB, more than the nodes it journaled). Invariant: every chunk is non-empty
/// (except an only chunk [`reserve`](Self::reserve) made for an empty log), only the last
/// one receives pushes, and `len` is the total of their lengths.
#[derive(Clone, Debug)]
pub struct BoundedLog<T> {
    chunks: Vec<Vec<(u64, T)>>,
    len: usize,
    capacity: usize,
    dropped_through: u64,
    /// Total entries ever pushed (for checkpoints).
    pushed: u64,
}

impl<T: Clone> BoundedLog<T> {
    /// An empty log holding at most `capacity` entries (at least 2).
    pub fn new(capacity: usize) -> Self {
        Self { chunks: Vec::new(), len: 0, capacity: capacity.max(2), dropped_through: 0, pushed: 0 }
    }

    /// Appends `value` stamped with `revision` (not below the last entry's).
    #[inline]
    pub fn push(&mut self, revision: u64, value: T) {
        debug_assert!(self.last_revision().is_none_or(|r| r <= revision));
        if self.len == self.capacity {
            self.drop_older_half();
        }
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push((revision, value)),
            _ => self.push_chunk((revision, value)),
        }
        self.len += 1;
        self.pushed += 1;
    }

    /// Appends `count` entries, entry `j` being `entry(j)` (revisions non-decreasing), as
    /// `count` calls of [`push`](Self::push) would, checking the capacity and the chunk once
    /// per stretch instead of once per entry.
    #[inline]
    pub fn push_run(&mut self, count: usize, mut entry: impl FnMut(usize) -> (u64, T)) {
        let mut done = 0;
        while done < count {
            if self.len == self.capacity {
                self.drop_older_half();
            }
            let room_in_chunk = self.chunks.last().map_or(0, |c| CHUNK - c.len());
            if room_in_chunk == 0 {
                // The first entry of a new chunk goes through `push`.
                let (revision, value) = entry(done);
                self.push(revision, value);
                done += 1;
                continue;
            }
            let k = (count - done).min(self.capacity - self.len).min(room_in_chunk);
            let last = self.chunks.last_mut().expect("room_in_chunk > 0");
            last.extend((done..done + k).map(&mut entry));
            done += k;
            self.len += k;
            self.pushed += k as u64;
        }
    }

    #[cold]
    #[inline(never)]
    fn push_chunk(&mut self, entry: (u64, T)) {
        // The first chunk starts small (most logs stay short); later ones are whole.
        let mut chunk = if self.chunks.is_empty() { Vec::new() } else { Vec::with_capacity(CHUNK) };
        chunk.push(entry);
        self.chunks.push(chunk);
    }

    #[cold]
    fn drop_older_half(&mut self) {
        let mut drop = self.capacity / 2;
        self.len -= drop;
        while drop > 0 {
            let first = &mut self.chunks[0];
            if first.len() <= drop {
                drop -= first.len();
                self.dropped_through = first.last().expect("chunks are non-empty").0;
                self.chunks.remove(0);
            } else {
                self.dropped_through = first[drop - 1].0;
                first.drain(..drop);
                drop = 0;
            }
        }
    }

    fn last_revision(&self) -> Option<u64> {
        self.chunks.last().and_then(|c| c.last()).map(|(r, _)| *r)
    }

    /// Makes room for `additional` more entries (up to the capacity and the chunk size), so
    /// a batch of pushes does not regrow the first chunk step by step.
    pub fn reserve(&mut self, additional: usize) {
        let room = (self.capacity - self.len).min(additional);
        match self.chunks.last_mut() {
            Some(last) => {
                let fits = CHUNK.saturating_sub(last.len()).min(room);
                last.reserve(fits);
            }
            None if room > 0 => self.chunks.push(Vec::with_capacity(room.min(CHUNK))),
            None => {}
        }
    }

    /// Entries with a revision greater than `since`, oldest first.
    pub fn since(&self, since: u64) -> Result<impl Iterator<Item = &(u64, T)> + '_, HistoryUnavailable> {
        if since < self.dropped_through {
            return Err(HistoryUnavailable { requested: since, dropped_through: self.dropped_through });
        }
        // The first chunk whose last entry is newer than `since`, then the entry inside it.
        let c = self.chunks.partition_point(|chunk| chunk.last().is_none_or(|(r, _)| *r <= since));
        let head = match self.chunks.get(c) {
            Some(chunk) => &chunk[chunk.partition_point(|(r, _)| *r <= since)..],
            None => &[],
        };
        let tail = self.chunks.get(c + 1..).unwrap_or(&[]);
        Ok(head.iter().chain(tail.iter().flatten()))
    }

    /// Number of entries retained.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is retained.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        let mut extra = (self.pushed.saturating_sub(mark) as usize).min(self.len);
        self.len -= extra;
        while extra > 0 {
            let last = self.chunks.last_mut().expect("len counts the chunks' entries");
            if last.len() <= extra {
                extra -= last.len();
                self.chunks.pop();
            } else {
                last.truncate(last.len() - extra);
                extra = 0;
            }
        }
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

    #[test]
    fn entries_span_chunks_through_drops_truncation_and_reserve() {
        // A model: a plain vector of every retained entry, trimmed the same way.
        let cap = 5 * CHUNK + 6;
        let mut log = BoundedLog::new(cap);
        let mut model: Vec<(u64, u64)> = Vec::new();
        let mut dropped = 0;
        log.reserve(10);
        for r in 1..=(12 * CHUNK as u64 + 7) {
            if model.len() == cap {
                dropped = model[cap / 2 - 1].0;
                model.drain(..cap / 2);
            }
            // Two entries share some revisions (a batch stamped once).
            let rev = r - r % 3 / 2;
            log.push(rev, r);
            model.push((rev, r));
            if r % 1500 == 0 {
                let mark = log.mark();
                log.reserve(3 * CHUNK);
                for k in 0..(CHUNK as u64 + 9).min((cap - model.len()) as u64) {
                    log.push(rev, k);
                }
                log.truncate_to(mark);
            }
            assert_eq!(log.len(), model.len());
        }
        assert_eq!(log.dropped_through(), dropped);
        assert!(log.since(dropped.saturating_sub(1)).is_err() || dropped == 0);
        for since in [dropped, dropped + 1, dropped + 1023, dropped + 1024, dropped + 2000, u64::MAX - 1] {
            let got: Vec<(u64, u64)> = log.since(since).unwrap().copied().collect();
            let want: Vec<(u64, u64)> = model.iter().filter(|(r, _)| *r > since).copied().collect();
            assert_eq!(got, want, "since {since}");
        }
        let mark = log.mark() - (CHUNK as u64 + 5);
        log.truncate_to(mark);
        model.truncate(model.len() - (CHUNK + 5));
        let got: Vec<(u64, u64)> = log.since(dropped).unwrap().copied().collect();
        assert_eq!(got, model);
        log.push(u64::MAX, 1);
        assert_eq!(log.since(u64::MAX - 1).unwrap().count(), 1);
    }

    #[test]
    fn a_reserved_empty_log_takes_pushes_and_truncation() {
        let mut log = BoundedLog::new(4);
        log.reserve(100);
        assert!(log.is_empty() && log.since(0).unwrap().next().is_none());
        let mark = log.mark();
        log.truncate_to(mark);
        for r in 1..=9u64 {
            log.push(r, r);
        }
        assert_eq!(log.since(0).err().map(|e| e.dropped_through), Some(6));
        assert_eq!(log.since(6).unwrap().map(|(_, v)| *v).collect::<Vec<_>>(), vec![7, 8, 9]);
    }

    #[test]
    fn runs_push_as_single_pushes_would() {
        for cap in [4, 7, CHUNK, 3 * CHUNK + 10] {
            let (mut a, mut b) = (BoundedLog::new(cap), BoundedLog::new(cap));
            let mut next = 1u64;
            for count in [0, 1, 3, CHUNK - 2, 5, 2 * CHUNK + 3, 1, CHUNK] {
                let base = next;
                a.push_run(count, |j| (base + j as u64 / 2, base + j as u64));
                for j in 0..count as u64 {
                    b.push(base + j / 2, base + j);
                }
                next += count as u64;
                assert_eq!(
                    (a.len(), a.mark(), a.dropped_through()),
                    (b.len(), b.mark(), b.dropped_through())
                );
            }
            let since = a.dropped_through();
            assert!(a.since(since).unwrap().eq(b.since(since).unwrap()), "capacity {cap}");
        }
    }
}
