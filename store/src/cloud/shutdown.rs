//! The cloud store's stop ([`Cloud::shutdown`], [`Cloud::shutdown_by`]): queued puts are
//! sent past the budget, reads and updates that did not start are dropped, the writes in
//! flight are waited for, then every session lock is released, and the worker stops.
//!
//! Invariants: after a shutdown the store takes no request; a lock is released only after
//! the writes in flight had their chance to land (the release jobs queue behind them on the
//! worker); nothing waits past the deadline: what is left is reported in an [`Abandoned`],
//! and the worker thread is left to finish on its own.

use super::lock::Record;
use super::worker::{Done, Job, Op};
use super::{Cloud, Event, Kind, SHUTDOWN_WAIT, State};
use crate::abandoned::{Abandoned, Pending};
use std::time::Instant;

impl<P: Clone> Cloud<P> {
    /// The server stops: sends every queued put (past the budget), drops the reads and
    /// updates that did not start, waits until the writes in flight land, releases every
    /// lock, and stops the worker — all within [`SHUTDOWN_WAIT`]. Returns warnings for the
    /// log.
    pub fn shutdown(&mut self) -> Vec<String> {
        self.shutdown_by(Instant::now() + SHUTDOWN_WAIT).0
    }

    /// [`shutdown`](Self::shutdown) that waits until `deadline` at most: returns the warnings
    /// for the log and the writes not landed and locks not released by then.
    pub fn shutdown_by(&mut self, deadline: Instant) -> (Vec<String>, Abandoned) {
        let mut warnings = std::mem::take(&mut self.notices);
        self.stopped = true;
        let dropped = self.drop_unstarted();
        if dropped > 0 {
            warnings.push(format!("{dropped} cloud store reads and updates were dropped at shutdown"));
        }
        self.wait_for_writes(deadline, &mut warnings);
        if !self.requests.is_empty() {
            warnings.push(format!(
                "{} cloud store writes had not landed when the server stopped waiting",
                self.requests.len()
            ));
        }
        let writes = self.requests.values().filter(|r| r.writes());
        let cloud_writes = Pending::new(writes.clone().count() as u64, writes.map(|r| &*r.store));
        let unreleased = self.release_all(deadline, &mut warnings);
        let locks = Pending::new(unreleased.len() as u64, unreleased.iter().map(|(store, _)| &**store));
        self.worker.stop(deadline);
        (warnings, Abandoned { cloud_writes, locks, ..Abandoned::default() })
    }

    /// Sends the queued puts and drops the reads and updates that have not started (queued, or
    /// waiting for their function); returns how many were dropped.
    fn drop_unstarted(&mut self) -> usize {
        let mut dropped = 0;
        let queued: Vec<u64> = self.queue.drain(..).collect();
        for id in queued {
            let is_put = self.requests.get(&id).is_some_and(|r| matches!(r.kind, Kind::Put(_)));
            if is_put {
                self.send(id);
            } else {
                self.complete(id);
                dropped += 1;
            }
        }
        dropped + self.drop_awaiting_fn()
    }

    /// Drops the updates waiting for their function (which cannot run any more).
    fn drop_awaiting_fn(&mut self) -> usize {
        let waiting: Vec<u64> =
            self.requests.iter().filter(|(_, r)| r.state == State::AwaitingFn).map(|(&id, _)| id).collect();
        for &id in &waiting {
            self.complete(id);
        }
        waiting.len()
    }

    /// Takes results until no request is left or `deadline` passes; failed writes become
    /// warnings.
    fn wait_for_writes(&mut self, deadline: Instant, warnings: &mut Vec<String>) {
        while !self.requests.is_empty() && Instant::now() < deadline {
            let Some(f) = self.worker.wait(deadline.saturating_duration_since(Instant::now())) else { break };
            let mut out = Vec::new();
            self.finished(f, &mut out);
            for ready in out {
                if let Event::Failed(m) = ready.event {
                    warnings.push(format!("a cloud store write failed at shutdown: {m}"));
                }
            }
            // An update that lost its race cannot run its function again now.
            self.drop_awaiting_fn();
        }
    }

    /// Releases every lock this server holds, waiting for the releases until `deadline`;
    /// returns the locks not released: their release failed or was not answered in time.
    fn release_all(&mut self, deadline: Instant, warnings: &mut Vec<String>) -> Vec<Record> {
        let mut releasing = self.locks.take_all();
        let mut failed = Vec::new();
        for (store, key) in &releasing {
            self.worker.send(Job { id: 0, store: store.clone(), key: key.clone(), op: Op::Release });
        }
        while !releasing.is_empty() && Instant::now() < deadline {
            let Some(f) = self.worker.wait(deadline.saturating_duration_since(Instant::now())) else { break };
            let Done::Released(result) = f.done else { continue };
            // A release sent before the shutdown (a player gone) may answer here too.
            let answered = releasing.iter().position(|(s, k)| *s == f.store && *k == f.key);
            let record = answered.map(|i| releasing.swap_remove(i));
            if let Err(e) = result {
                warnings.push(format!(
                    "could not release the lock on record {} of store '{}': {e}",
                    f.key, f.store
                ));
                failed.extend(record);
            }
        }
        releasing.extend(failed);
        releasing
    }
}
