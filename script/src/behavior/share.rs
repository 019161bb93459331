//! [`BehaviorShare`]: the bound on what all behaviour transactions of one tick may run
//! together, as [`TickShare`](crate::tick_share) bounds the Scripts'.
//!
//! Each transaction is bounded by the game's `unitsPerTransaction`, and a moment by its
//! `transactionsPerMoment`, but the two multiply: 5,000 transactions of 100,000 units are
//! 5 × 10^8 units, seconds of one tick. So every transaction of a moment (starts and
//! deliveries) adds the units it used, plus [`DISPATCH_UNITS`] for the engine's work around
//! it, to the tick's count; once the count reaches the share
//! ([`HostConfig::behavior_tick_units`](crate::HostConfig::behavior_tick_units)), the moment
//! starts no further transaction. What it did not run *waits*: starts stay first in line for
//! the next moment, deliveries stay at the front of the queue, both in order, and run before
//! anything newer. The transaction running when the share runs out finishes (it overshoots by
//! at most one transaction's budget), and the first transaction of a moment always runs, so
//! every moment makes progress.
//!
//! Waiting is bounded: at the end of a moment at most `transactionsPerMoment` deliveries (the
//! most one moment could ever run) wait; the newest past that are dropped, by type and count.
//! Waits and drops are counted and reported in the log as one warning at most once per
//! [`REPORT_EVERY_TICKS`] ticks.
//!
//! Invariants: units are deterministic, so which transactions run in which tick is too; each
//! delivery that waits is counted once however many ticks it waits (`carried` is how many at
//! the front of the line were already counted).

use crate::tick_share::REPORT_EVERY_TICKS;
use std::collections::BTreeMap;

/// Units all behaviour transactions of one tick may use together, by default: the same as
/// the Scripts' share (`tick_share::TICK_SHARE_UNITS`), about half a 60 Hz tick of Luau.
pub const BEHAVIOR_TICK_UNITS: i64 = 8_000_000;

/// Units a transaction counts towards the share on top of what its code used: opening and
/// closing it (the undo scope, the saved state, the payload table), as a signal handler's
/// dispatch counts for the Scripts (`budget::HANDLER_DISPATCH_UNITS`).
pub const DISPATCH_UNITS: i64 = crate::budget::HANDLER_DISPATCH_UNITS;

/// The tick-level bound on behaviour transactions, and its counts.
#[derive(Debug)]
pub struct BehaviorShare {
    /// Units per tick (at least 1).
    limit: u64,
    /// Units the running moment's transactions used.
    used: u64,
    /// Starts at the front of the line already counted as waiting.
    carried_starts: usize,
    /// Deliveries at the front of the queue already counted as waiting.
    carried: usize,
    /// Starts and deliveries that waited for a later tick, ever (each once).
    deferred_total: u64,
    /// Of those, not yet reported.
    unreported_deferred: u64,
    /// Deliveries dropped because too many were waiting, ever.
    dropped_total: u64,
    /// Of those, not yet reported, by type.
    unreported_dropped: BTreeMap<String, u64>,
    /// The most deliveries that may wait, as of the last drop (for the report).
    waiting_bound: usize,
    /// The tick of the last report.
    last_report: Option<u64>,
}

impl BehaviorShare {
    /// A share of `limit` units a tick (at least 1).
    pub fn new(limit: i64) -> Self {
        Self {
            limit: limit.max(1) as u64,
            used: 0,
            carried_starts: 0,
            carried: 0,
            deferred_total: 0,
            unreported_deferred: 0,
            dropped_total: 0,
            unreported_dropped: BTreeMap::new(),
            waiting_bound: 0,
            last_report: None,
        }
    }

    /// Starts a moment: no units used yet.
    pub fn begin_moment(&mut self) {
        self.used = 0;
    }

    /// Counts a transaction that used `units`.
    pub fn charge(&mut self, units: i64) {
        self.used = self.used.saturating_add((units.max(0) + DISPATCH_UNITS) as u64);
    }

    /// Whether this tick's transactions have used the share.
    pub fn exhausted(&self) -> bool {
        self.used >= self.limit
    }

    /// The start at the front of the line is taken.
    pub fn took_start(&mut self) {
        self.carried_starts = self.carried_starts.saturating_sub(1);
    }

    /// The delivery at the front of the queue is taken.
    pub fn took_delivery(&mut self) {
        self.carried = self.carried.saturating_sub(1);
    }

    /// The moment ends with `starts` starts and `deliveries` deliveries waiting: counts those
    /// not counted before, if the share is what stopped the moment (starts left by the
    /// moment's transaction limit wait too, but are not the share's doing).
    pub fn carry(&mut self, starts: usize, deliveries: usize) {
        if self.exhausted() {
            let fresh = starts.saturating_sub(self.carried_starts) + deliveries.saturating_sub(self.carried);
            self.deferred_total += fresh as u64;
            self.unreported_deferred += fresh as u64;
        }
        self.carried_starts = starts;
        self.carried = deliveries;
    }

    /// Deliveries dropped (by type) because more than `bound` were waiting.
    pub fn dropped(&mut self, by_type: BTreeMap<String, u64>, bound: usize) {
        for (kind, n) in by_type {
            self.dropped_total += n;
            *self.unreported_dropped.entry(kind).or_default() += n;
        }
        self.waiting_bound = bound;
    }

    /// Starts and deliveries that waited for a later tick, ever (each counted once).
    pub fn deferred_total(&self) -> u64 {
        self.deferred_total
    }

    /// Deliveries dropped because too many were waiting, ever.
    pub fn dropped_total(&self) -> u64 {
        self.dropped_total
    }

    /// The report line due at the end of tick `tick`'s moment, with `waiting` transactions
    /// waiting now, if anything is unreported and the last report is at least
    /// [`REPORT_EVERY_TICKS`] ticks old.
    pub fn report(&mut self, tick: u64, waiting: usize) -> Option<String> {
        let nothing = self.unreported_deferred == 0 && self.unreported_dropped.is_empty();
        if nothing || self.last_report.is_some_and(|t| tick < t.saturating_add(REPORT_EVERY_TICKS)) {
            return None;
        }
        let mut line = format!(
            "behaviours used their share of the tick ({} units); {} transactions waited for a \
             later tick since the last report, {waiting} waiting now",
            self.limit, self.unreported_deferred
        );
        if !self.unreported_dropped.is_empty() {
            let total: u64 = self.unreported_dropped.values().sum();
            let kinds: Vec<String> =
                self.unreported_dropped.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
            line.push_str(&format!(
                "; {total} deliveries were dropped, more than {} waiting: {}",
                self.waiting_bound,
                kinds.join(", ")
            ));
        }
        self.unreported_deferred = 0;
        self.unreported_dropped.clear();
        self.last_report = Some(tick);
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_delivery_that_waits_several_ticks_is_counted_once() {
        let mut share = BehaviorShare::new(1_000);
        share.begin_moment();
        share.charge(900);
        assert!(share.exhausted(), "900 + the dispatch units reach 1000");
        share.carry(0, 10);
        assert_eq!(share.deferred_total(), 10);
        // Next moment: 3 of the 10 run, 5 new ones join the back, 12 still wait.
        share.begin_moment();
        for _ in 0..3 {
            share.took_delivery();
            share.charge(400);
        }
        share.carry(0, 12);
        assert_eq!(share.deferred_total(), 15);
        let line = share.report(1, 12).unwrap();
        assert!(line.contains("15 transactions waited for a later tick"), "{line}");
        assert_eq!(share.report(2, 12), None, "at most one report per {REPORT_EVERY_TICKS} ticks");
    }
}
