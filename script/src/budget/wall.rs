//! The wall-clock backstop: whatever the meter misses, no top-level entry (a load, an
//! `Update`, a system dispatch, a handler or a behaviour moment run from the engine) may
//! hold the tick thread past [`WallBound`]. The interrupt reads the clock each time the
//! entry has used another [`CLOCK_UNITS`] units (one comparison an interrupt otherwise);
//! past the bound the entry is aborted with [`WALL_MESSAGE`].
//!
//! An abort on wall time is not deterministic, so it is recorded like an input: each abort
//! names the entry (its ordinal among the tick's top-level entries) and the units it had used
//! when it stopped ([`WallAbort`], taken by [`take_wall_aborts`]). A replay hands them back
//! ([`expect_wall_aborts`]) and turns the clock off: the named entry then gets exactly those
//! units, and stops at the same interrupt with the same message.
//!
//! Invariants: only top-level entries (entered with no entry running) count and carry a
//! deadline; nested handler entries and transactions run under their enclosing entry's.
//! While replaying, the clock never aborts anything.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

/// The error of an entry aborted by the backstop.
pub const WALL_MESSAGE: &str = "script held the tick past its wall-clock bound";

/// Units an entry uses between two clock reads (about 20 µs of work).
const CLOCK_UNITS: i64 = 1 << 12;

/// "Never": the clock is not read.
const NEVER: i64 = i64::MIN;

/// How long one top-level entry may run: its budget's nominal time plus a grace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallBound {
    /// The time a full budget of work nominally takes on the reference machine
    /// (`docs/perf/scripts.md`: about 10 ns a unit).
    pub nominal: Duration,
    /// How far past the nominal time an entry may run before it is aborted.
    pub grace: Duration,
}

impl WallBound {
    /// 10 ms nominal (a million units), 50 ms grace.
    pub const DEFAULT: WallBound =
        WallBound { nominal: Duration::from_millis(10), grace: Duration::from_millis(50) };

    /// The whole bound.
    pub const fn total(self) -> Duration {
        self.nominal.saturating_add(self.grace)
    }
}

/// One entry the backstop aborted: which top-level entry of its tick, and the units it had
/// used at the interrupt that stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallAbort {
    /// The entry's ordinal among its tick's top-level entries, from 0.
    pub entry: u64,
    /// Units it had used when it stopped.
    pub units: i64,
}

thread_local! {
    static BOUND: Cell<Option<Duration>> = const { Cell::new(Some(WallBound::DEFAULT.total())) };
    /// When the running top-level entry must be done by (`None`: no clock).
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// The running entry reads the clock once its remaining units fall to this ([`NEVER`]:
    /// no clock, or a nested entry runs).
    static CHECK_AT: Cell<i64> = const { Cell::new(NEVER) };
    /// [`CHECK_AT`] of the top-level entry while a nested one runs.
    static SAVED_CHECK_AT: Cell<i64> = const { Cell::new(NEVER) };
    /// Top-level entries started since the last [`take_wall_aborts`] / [`expect_wall_aborts`].
    static ORDINAL: Cell<u64> = const { Cell::new(0) };
    /// The running top-level entry's ordinal.
    static RUNNING: Cell<u64> = const { Cell::new(0) };
    /// Aborts since the last [`take_wall_aborts`].
    static ABORTS: RefCell<Vec<WallAbort>> = const { RefCell::new(Vec::new()) };
    /// Aborts ever (for the profiler).
    static TOTAL: Cell<u64> = const { Cell::new(0) };
    /// Of those, the ones [`wall_aborts_since_last_count`] has reported.
    static COUNTED: Cell<u64> = const { Cell::new(0) };
    /// The aborts a replay expects, for the entries that follow; `Some` while replaying.
    static EXPECTED: RefCell<Option<Vec<WallAbort>>> = const { RefCell::new(None) };
    /// Whether the running entry's budget is a replayed cut (its exhaustion is a wall abort).
    static CUT: Cell<bool> = const { Cell::new(false) };
    /// Entries running inside the top-level one (handlers, transactions): the clock is read
    /// only when none is, so an abort always records the top-level entry's own units.
    static NESTED: Cell<u32> = const { Cell::new(0) };
    /// Units the running top-level entry was granted.
    static GRANTED: Cell<i64> = const { Cell::new(0) };
    /// Units the running entry had used when it was cut (live) or is cut at (replayed).
    static CUT_USED: Cell<Option<i64>> = const { Cell::new(None) };
}

/// Sets the bound for the entries that follow on this thread (`None`: no backstop).
pub fn set_wall_bound(bound: Option<WallBound>) {
    BOUND.with(|b| b.set(bound.map(WallBound::total)));
}

/// Starts a top-level entry granted `granted` units; returns the units it really gets (a
/// replayed abort's, if the log says this entry was cut).
pub(super) fn start_entry(granted: i64) -> i64 {
    let entry = ORDINAL.with(|o| o.replace(o.get() + 1));
    RUNNING.with(|r| r.set(entry));
    CUT.with(|c| c.set(false));
    CUT_USED.with(|c| c.set(None));
    let replayed = EXPECTED
        .with(|e| e.borrow().as_ref().map(|list| list.iter().find(|a| a.entry == entry).map(|a| a.units)));
    match replayed {
        Some(cut) => {
            // Replaying: no clock; a cut entry stops where the recorded one did (one unit
            // short of what it had used, so the interrupt that stopped it raises again).
            DEADLINE.with(|d| d.set(None));
            CHECK_AT.with(|c| c.set(NEVER));
            if let Some(units) = cut {
                // Journaled again, so a replay that records keeps it.
                ABORTS.with(|a| a.borrow_mut().push(WallAbort { entry, units }));
                CUT.with(|c| c.set(true));
                CUT_USED.with(|c| c.set(Some(units)));
                let grant = units.saturating_sub(1).max(0);
                GRANTED.with(|g| g.set(grant));
                return grant;
            }
            GRANTED.with(|g| g.set(granted));
            granted
        }
        None => {
            let deadline = BOUND.with(Cell::get).map(|b| Instant::now() + b);
            DEADLINE.with(|d| d.set(deadline));
            CHECK_AT.with(|c| c.set(if deadline.is_some() { granted - CLOCK_UNITS } else { NEVER }));
            GRANTED.with(|g| g.set(granted));
            granted
        }
    }
}

/// Starts (`true`) or ends an entry nested in the running top-level one.
pub(super) fn nest(entering: bool) {
    let depth = NESTED.with(|n| {
        n.set(if entering { n.get() + 1 } else { n.get().saturating_sub(1) });
        n.get()
    });
    if entering && depth == 1 {
        SAVED_CHECK_AT.with(|s| s.set(CHECK_AT.with(|c| c.replace(NEVER))));
    } else if !entering && depth == 0 {
        CHECK_AT.with(|c| c.set(SAVED_CHECK_AT.with(Cell::get)));
    }
}

/// Ends the running top-level entry.
pub(super) fn end_entry() {
    DEADLINE.with(|d| d.set(None));
    CHECK_AT.with(|c| c.set(NEVER));
    CUT.with(|c| c.set(false));
    CUT_USED.with(|c| c.set(None));
}

/// Units the running top-level entry was granted.
pub(super) fn granted() -> i64 {
    GRANTED.with(Cell::get)
}

/// If the running top-level entry was cut: the units it had used at the cut.
pub(super) fn cut_used() -> Option<i64> {
    CUT_USED.with(Cell::get)
}

/// Whether the running entry should read the clock, having `left` units: one comparison,
/// made at every interrupt.
#[inline]
pub(super) fn clock_due(left: i64) -> bool {
    left <= CHECK_AT.with(Cell::get)
}

/// Reads the clock (when [`clock_due`]): whether the running top-level entry is past its
/// deadline. If it is, the abort is recorded with the units `used` so far and the entry
/// becomes a cut one.
pub(super) fn past_deadline(left: i64, used: impl FnOnce() -> i64) -> bool {
    CHECK_AT.with(|c| c.set(left - CLOCK_UNITS));
    let Some(deadline) = DEADLINE.with(Cell::get) else { return false };
    if NESTED.with(Cell::get) > 0 || Instant::now() < deadline {
        return false;
    }
    let units = used();
    let abort = WallAbort { entry: RUNNING.with(Cell::get), units };
    CUT_USED.with(|c| c.set(Some(units)));
    ABORTS.with(|a| a.borrow_mut().push(abort));
    TOTAL.with(|t| t.set(t.get() + 1));
    DEADLINE.with(|d| d.set(None));
    CHECK_AT.with(|c| c.set(NEVER));
    CUT.with(|c| c.set(true));
    true
}

/// Whether the running entry's exhaustion is a wall abort (live or replayed): the message
/// it raises is then [`WALL_MESSAGE`].
pub(super) fn is_cut() -> bool {
    CUT.with(Cell::get)
}

/// The aborts since the last call (for a recording), restarting the entry ordinals: call
/// once per tick, at its end.
pub fn take_wall_aborts() -> Vec<WallAbort> {
    ORDINAL.with(|o| o.set(0));
    ABORTS.with(|a| std::mem::take(&mut *a.borrow_mut()))
}

/// Replays: the entries that follow (until the next call), counted from 0, are cut where
/// `aborts` says, and the clock aborts nothing. Call once per tick, before it runs.
pub fn expect_wall_aborts(aborts: Vec<WallAbort>) {
    ORDINAL.with(|o| o.set(0));
    EXPECTED.with(|e| *e.borrow_mut() = Some(aborts));
}

/// Wall aborts on this thread since it started.
pub fn wall_aborts_total() -> u64 {
    TOTAL.with(Cell::get)
}

/// Wall aborts on this thread since the last call (the tick's count, for the profiler).
pub fn wall_aborts_since_last_count() -> u64 {
    let total = TOTAL.with(Cell::get);
    total - COUNTED.with(|c| c.replace(total))
}
