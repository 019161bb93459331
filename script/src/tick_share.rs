//! [`TickShare`]: the bound on what all scripts of one tick may run together.
//!
//! Every entry is bounded by its own budget (`budget`), but a place with hundreds of scripts
//! at full budget would still run for seconds per tick. The entries of one tick (starts,
//! `Update`, systems, `PhysicsUpdate`, and the handlers they trigger) add up their units;
//! once they pass the share, the host starts no further entry in that tick, and an `Emit`
//! runs no handler (it raises; see `signals`). The entries it
//! skipped are *deferred*: each phase keeps a cursor at the first instance it skipped and
//! starts there next tick, so every script gets its turn (round robin) and no script is
//! starved by the ones before it. Deferrals are counted and reported in the log, at most once
//! per [`REPORT_EVERY_TICKS`] ticks.
//!
//! Units are deterministic, so which entries run in a tick is too.

use crate::budget;

/// Units the scripts of one tick may use together, by default: about half a 60 Hz tick of
/// Luau (`docs/perf/scripts.md`).
pub const TICK_SHARE_UNITS: i64 = 8_000_000;

/// Ticks between two reports of deferred entries.
pub const REPORT_EVERY_TICKS: u64 = 60;

/// A phase of the tick that runs entries per instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SharedPhase {
    Update,
    Systems,
    PhysicsUpdate,
}

/// The tick-level bound and its round-robin cursors.
#[derive(Debug)]
pub(crate) struct TickShare {
    /// Units per tick.
    limit: i64,
    /// Where each phase starts next (an index into the host's instances).
    cursors: [usize; 3],
    /// Entries deferred ever.
    deferred_total: u64,
    /// Deferred entries not yet reported.
    unreported: u64,
    tick: u64,
    last_report: Option<u64>,
}

impl TickShare {
    pub fn new(limit: i64) -> Self {
        Self { limit, cursors: [0; 3], deferred_total: 0, unreported: 0, tick: 0, last_report: None }
    }

    /// Starts counting tick `tick` if the running count belongs to an earlier one (a phase
    /// driven without the tick's first phase).
    pub fn enter_phase(&mut self, tick: u64) {
        budget::set_phase_limit(self.limit);
        if tick != self.tick {
            self.begin_tick(tick);
        }
    }

    /// Starts a tick: no units used yet.
    pub fn begin_tick(&mut self, tick: u64) {
        budget::start_phase();
        budget::set_phase_limit(self.limit);
        self.tick = tick;
    }

    /// Whether the tick's entries have used their share.
    pub fn exhausted(&self) -> bool {
        budget::phase_exhausted()
    }

    /// Where `phase` starts this tick, for `n` instances.
    pub fn start(&self, phase: SharedPhase, n: usize) -> usize {
        if n == 0 { 0 } else { self.cursors[phase as usize] % n }
    }

    /// `phase` stopped at instance `at`, deferring `entries` entries.
    pub fn defer(&mut self, phase: SharedPhase, at: usize, entries: u64) {
        self.cursors[phase as usize] = at;
        self.defer_entries(entries);
    }

    /// Counts `entries` deferred entries (of a phase without a cursor: script starts).
    pub fn defer_entries(&mut self, entries: u64) {
        self.deferred_total += entries;
        self.unreported += entries;
    }

    /// Entries deferred since the host started.
    pub fn deferred_total(&self) -> u64 {
        self.deferred_total
    }

    /// The report line due at the end of this tick, if any.
    pub fn report(&mut self) -> Option<String> {
        if self.unreported == 0 || self.last_report.is_some_and(|t| self.tick < t + REPORT_EVERY_TICKS) {
            return None;
        }
        let line = format!(
            "scripts used their share of the tick ({} units); {} entries deferred to later ticks \
             since the last report",
            self.limit, self.unreported
        );
        self.unreported = 0;
        self.last_report = Some(self.tick);
        Some(line)
    }
}
