//! The instruction budget: every entry into a script environment (top-level load, each
//! `Update`, each `PhysicsUpdate`, each system dispatch, each signal handler) gets
//! [`ENTRY_BUDGET`] units; overrunning raises `script exceeded its instruction budget` and
//! aborts that entry.
//!
//! **What one unit is: one VM instruction, or the work a library call does instead.**
//! - Luau calls its interrupt only at calls, returns and loop back-edges. Each interrupt is
//!   charged the longest run of instructions that can end at it since the previous one,
//!   computed once per function from its bytecode (`weights`) and looked up from the
//!   interrupted frame (`layout`). A loop iteration costs the length of its body, a call the
//!   code before it.
//! - Every allocation the VM makes costs one unit per [`CostTable::bytes_per_unit`] bytes
//!   (`..`, `string.rep`, `table.create`, `buffer.create`, the tables `GetChildren` builds),
//!   charged as it happens and raised at the next interrupt.
//! - Library functions that scan without allocating (`string.find`, `buffer.fill`,
//!   `table.sort`, ...) and engine calls that visit instances (`GetChildren`,
//!   `FindFirstChild(name, true)`, `GetFullName`, `Clone`, ...) charge what they touch before
//!   they run ([`charge`], `library`): bytes at the same rate, instances at
//!   [`CostTable::units_per_instance`].
//!
//! So an entry runs at most about [`ENTRY_BUDGET`] instructions' worth of work, whatever the
//! shape of its code: it can overrun by one interrupt's run (at most one function's length)
//! and by the allocations of one instruction. The count depends only on the code path and
//! the VM's history, never on a clock, so the same script aborts at the same point on every
//! run and machine. Instance property reads and writes run as metamethods of a C function
//! and cost their call.
//!
//! **Why `pcall` cannot escape.** Once the counter is exhausted it stays exhausted: every
//! later interrupt in the same entry raises again, so a `pcall` around the loop catches one
//! error but the code after it (or the next iteration) fails at its next check.
//!
//! **Every signal handler is an entry of its own** (`docs/scripting.md`, "Signals": a fresh
//! budget per handler, run as the script that connected it). A handler run inside
//! an `Emit` gets a fresh [`ENTRY_BUDGET`] ([`enter_handler`]), in the connecting script's
//! memory category; what it uses is not taken from its emitter, and a handler that overran
//! aborts itself alone ([`leave_handler`] gives the emitter back what it had). Cascades are
//! bounded by the tick instead: every handler entry counts towards the tick's units with
//! [`HANDLER_DISPATCH_UNITS`] on top, and an `Emit` made after the tick's share is used runs
//! no handler ([`phase_exhausted`]); handlers nest at most 32 deep (`signals`).
//!
//! **Phases.** The units every entry of a tick phase used add up ([`phase_used`]), handlers
//! included; the host stops starting entries once they pass its tick share (see `host`,
//! [`set_phase_limit`]).
//!
//! The interrupt and the allocation hook are plain `extern "C"` functions installed through
//! `mlua::ffi`; the counter is thread-local.

mod costs;
mod layout;
mod memory;
mod wall;
mod weights;
mod work;

pub use costs::ENGINE as ENGINE_COSTS;
pub(crate) use layout::WeightTables;
pub use memory::{
    HOST_RESERVE, SHARE_MESSAGE, SMALL_RESERVE, category_bytes, category_of, enter_category,
    limit_script_memory, set_share as set_memory_share,
};
pub use wall::{
    WALL_MESSAGE, WallAbort, WallBound, expect_wall_aborts, set_wall_bound, take_wall_aborts,
    wall_aborts_since_last_count, wall_aborts_total,
};

use mlua::ffi;
use std::cell::Cell;
use std::ffi::{c_int, c_void};

/// Units granted to each entry.
pub const ENTRY_BUDGET: i64 = 1_000_000;

/// The error message of an overrun, as the seeds quote it.
pub const BUDGET_MESSAGE: &str = "script exceeded its instruction budget";

const UNLIMITED: i64 = i64::MAX;

/// What work costs, in units. Scripts use [`CostTable::SCRIPT`]; the meter reads the table
/// installed with [`set_costs`], so another kind of entry (the transactional behaviours,
/// `docs/behaviours.md`) can bring its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostTable {
    /// Bytes allocated, scanned or written per unit (at least 1).
    pub bytes_per_unit: u32,
    /// Units per instance an engine call visits.
    pub units_per_instance: u32,
    /// Units per instance an engine call creates or destroys (a clone, a spawn, a destroy).
    pub units_per_creation: u32,
}

impl CostTable {
    /// The costs of `Script` entries: one unit per instruction, per 16 bytes and per instance
    /// visited (a child's name compared, a handle pushed), 40 per instance created or
    /// destroyed (about as long as that many VM instructions run).
    pub const SCRIPT: CostTable =
        CostTable { bytes_per_unit: 16, units_per_instance: 1, units_per_creation: 40 };
}

thread_local! {
    static REMAINING: Cell<i64> = const { Cell::new(UNLIMITED) };
    static COSTS: Cell<CostTable> = const { Cell::new(CostTable::SCRIPT) };
    /// Units used by the entries of the running phase.
    static PHASE_USED: Cell<i64> = const { Cell::new(0) };
    /// Units the entries of the running tick may use together ([`UNLIMITED`] outside a
    /// host's tick).
    static PHASE_LIMIT: Cell<i64> = const { Cell::new(UNLIMITED) };
    /// Logical bytes the running behaviour transaction may still allocate ([`UNLIMITED`]
    /// outside one).
    static TX_BYTES_LEFT: Cell<i64> = const { Cell::new(UNLIMITED) };
    /// Where the allocation that took the transaction over its bytes ran (the error is
    /// raised at the next interrupt, but reported at that line).
    static TX_OVER_AT: Cell<Option<layout::FramePoint>> = const { Cell::new(None) };
}

/// The error of a behaviour transaction over its logical memory budget.
pub const TX_MEMORY_MESSAGE: &str = "the transaction exceeded its memory budget";

/// What a behaviour transaction's budget replaced, for [`leave_transaction`].
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct TransactionBudget {
    enclosing: i64,
    granted: i64,
    bytes_enclosing: i64,
    bytes_granted: i64,
}

/// Starts a behaviour transaction (`docs/behaviours.md`, "Budgets"): `units` units and `bytes`
/// logical bytes (every byte the VM allocates for it counts, whatever is freed later). Both are
/// sticky like the entry budget: once over, every later interrupt of the transaction raises
/// again.
pub fn enter_transaction(units: i64, bytes: i64) -> TransactionBudget {
    let enclosing = begin(units);
    let bytes_enclosing = TX_BYTES_LEFT.with(|b| b.replace(bytes));
    TX_OVER_AT.with(|o| o.set(None));
    TransactionBudget { enclosing, granted: units, bytes_enclosing, bytes_granted: bytes }
}

/// Ends a behaviour transaction; returns the units and logical bytes it used.
pub fn leave_transaction(t: TransactionBudget) -> (i64, i64) {
    let used = finish(t.enclosing, t.granted);
    let bytes_left = TX_BYTES_LEFT.with(|b| b.replace(t.bytes_enclosing));
    TX_OVER_AT.with(|o| o.set(None));
    if t.enclosing == UNLIMITED {
        PHASE_USED.with(|p| p.set(p.get().saturating_add(used)));
    }
    (used, t.bytes_granted - bytes_left)
}

/// Units the running entry has left (`i64::MAX` outside any entry).
pub fn remaining() -> i64 {
    REMAINING.with(Cell::get)
}

/// Installs `costs` for the entries that follow on this thread; returns the previous table.
pub fn set_costs(costs: CostTable) -> CostTable {
    COSTS.with(|c| c.replace(CostTable { bytes_per_unit: costs.bytes_per_unit.max(1), ..costs }))
}

fn costs() -> CostTable {
    COSTS.with(Cell::get)
}

/// Takes `units` from the running entry; false if that exhausts it. Outside any entry
/// nothing is counted.
fn take(units: i64) -> bool {
    take_left(units) >= 0
}

/// Takes `units` from the running entry; returns what it has left (negative: exhausted;
/// [`UNLIMITED`] outside any entry).
fn take_left(units: i64) -> i64 {
    REMAINING.with(|r| {
        if r.get() == UNLIMITED {
            return UNLIMITED;
        }
        let v = r.get().saturating_sub(units);
        r.set(v);
        v
    })
}

/// Takes the units `bytes` bytes of work cost at the installed rate; false if that exhausts
/// the running entry.
fn take_bytes(bytes: usize) -> bool {
    let units = bytes / costs().bytes_per_unit as usize;
    units == 0 || take(i64::try_from(units).unwrap_or(i64::MAX))
}

/// Charges the running entry for work a library or engine call is about to do: `bytes`
/// bytes and `instances` instance visits. Fails with [`BUDGET_MESSAGE`] (and leaves the
/// entry exhausted) if that is more than it has left; outside any entry it never fails.
pub fn charge(bytes: usize, instances: usize) -> mlua::Result<()> {
    let c = costs();
    let units = (bytes / c.bytes_per_unit as usize)
        .saturating_add(instances.saturating_mul(c.units_per_instance as usize));
    if take(i64::try_from(units).unwrap_or(i64::MAX)) {
        Ok(())
    } else {
        Err(mlua::Error::runtime(exhausted_message().to_string_lossy()))
    }
}

/// How many instance visits the running entry can still pay for (`usize::MAX` outside any
/// entry): the limit a metered engine walk stops at.
pub fn affordable_instances() -> usize {
    let left = REMAINING.with(Cell::get);
    if left == UNLIMITED {
        return usize::MAX;
    }
    usize::try_from(left.max(0)).unwrap_or(usize::MAX) / costs().units_per_instance.max(1) as usize
}

/// Charges an engine call for visiting `instances` instances (see [`charge`]).
pub fn charge_instances(instances: usize) -> mlua::Result<()> {
    charge(0, instances)
}

/// Charges an engine call for creating or destroying `instances` instances.
pub fn charge_creations(instances: usize) -> mlua::Result<()> {
    let c = costs();
    let visits =
        instances.saturating_mul(c.units_per_creation as usize) / c.units_per_instance.max(1) as usize;
    charge(0, visits)
}

/// The interrupt Luau calls at calls, returns and loop back-edges.
///
/// # Safety
/// Called by the Luau VM with a valid state; it may raise a Lua error (which unwinds as a
/// C++ exception through this `C-unwind` frame, which holds no values needing drop).
unsafe extern "C-unwind" fn budget_interrupt(state: *mut ffi::lua_State, gc: c_int) {
    if gc >= 0 {
        // Garbage-collector safepoints are not script work.
        return;
    }
    // SAFETY: the VM passes the running thread at a safe point.
    if let Some((units, still_over)) = unsafe { memory::settle_overrun(state) } {
        take(units);
        if still_over {
            // SAFETY: as below.
            unsafe { raise_at(state, c"not enough memory: this script holds more than its share of the VM") }
        }
    }
    if TX_BYTES_LEFT.with(Cell::get) < 0 {
        // The line that went over is the allocation's: report it there, not here.
        if let Some(point) = TX_OVER_AT.with(Cell::take) {
            // SAFETY: the VM passes its running thread at an interrupt; an error follows.
            unsafe { layout::rewind(state, point) };
        }
        // SAFETY: as below.
        unsafe { raise_at(state, c"the transaction exceeded its memory budget") }
    }
    // SAFETY: the VM passes the running thread; `install` checked the Luau version and made
    // this VM's weight tables before installing the interrupt.
    let weight = unsafe { layout::interrupted_weight(state) };
    let left = take_left(i64::from(weight));
    if left < 0 {
        // SAFETY: as below.
        unsafe { raise_at(state, exhausted_message()) }
    }
    if wall::clock_due(left) && wall::past_deadline(left, top_entry_used) {
        REMAINING.with(|r| r.set(-1));
        // SAFETY: as below.
        unsafe { raise_at(state, exhausted_message()) }
    }
}

/// What an exhausted entry raises: the budget's message, or the backstop's for an entry it
/// cut (live or replayed).
fn exhausted_message() -> &'static std::ffi::CStr {
    if wall::is_cut() {
        c"script held the tick past its wall-clock bound"
    } else {
        c"script exceeded its instruction budget"
    }
}

/// Units the running top-level entry has used (what a wall abort records).
fn top_entry_used() -> i64 {
    wall::granted() - REMAINING.with(Cell::get).max(0)
}

/// Raises `message`, prefixed with the interrupted function's chunk and line.
///
/// # Safety
/// `state` is the running thread handed to an interrupt by the VM, with room for the two
/// values pushed here (the VM reserves LUA_MINSTACK slots for callbacks). Level 0 is the Lua
/// function being interrupted; `lua_error` raises and never returns.
unsafe fn raise_at(state: *mut ffi::lua_State, message: &std::ffi::CStr) -> ! {
    // SAFETY: per the contract.
    unsafe {
        ffi::luaL_where(state, 0);
        ffi::lua_pushstring(state, message.as_ptr());
        ffi::lua_concat(state, 2);
        ffi::lua_error(state)
    }
}

/// Charges every VM allocation to the running entry (raised at its next interrupt), and
/// notes a script category past its memory share (`memory`).
///
/// # Safety
/// Called by the Luau VM after an allocation; it must not raise, and does not.
unsafe extern "C-unwind" fn charge_allocation(
    state: *mut ffi::lua_State,
    _block: *mut c_void,
    osize: usize,
    nsize: usize,
    memcat: u8,
    _tt: c_int,
    _tag: c_int,
) {
    let units = nsize / costs().bytes_per_unit as usize;
    if units > 0 {
        take(i64::try_from(units).unwrap_or(i64::MAX));
    }
    TX_BYTES_LEFT.with(|b| {
        let left = b.get();
        if left != UNLIMITED {
            let grown = i64::try_from(nsize.saturating_sub(osize)).unwrap_or(i64::MAX);
            let now = left.saturating_sub(grown);
            b.set(now);
            if left >= 0 && now < 0 {
                // SAFETY: the VM passes the allocating thread to its allocation hook.
                let at = unsafe { layout::luau_frame(state, osize) };
                TX_OVER_AT.with(|o| o.set(at));
            }
        }
    });
    // SAFETY: the VM passes the allocating thread.
    unsafe { memory::note_allocation(state, memcat) };
}

/// Installs the metering interrupt and allocation hook on `lua` (replacing any others). The
/// VM's weight tables live in its app data, as long as the VM.
pub fn install(lua: &mlua::Lua) -> mlua::Result<()> {
    layout::check_version().map_err(mlua::Error::runtime)?;
    let mut tables = None;
    // SAFETY: `exec_raw` hands us a valid state of this VM; the callbacks table belongs to
    // the VM's global state and outlives it; the function pointers are 'static. The weight
    // tables are registered before the interrupt that reads them is installed.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            tables = Some(WeightTables::new(state));
            let callbacks = ffi::lua_callbacks(state);
            (*callbacks).interrupt = Some(budget_interrupt);
            (*callbacks).onallocate = Some(charge_allocation);
            work::install(state);
        })?;
    }
    costs::resolve(lua)?;
    let tables = tables.ok_or_else(|| mlua::Error::runtime("the VM did not run the budget set-up"))?;
    lua.set_app_data(tables);
    Ok(())
}

/// Starts an entry with a fresh budget; returns the enclosing entry's remaining units.
pub fn enter() -> i64 {
    begin(ENTRY_BUDGET)
}

/// Starts an entry granted `granted` units; returns the enclosing entry's remaining units.
/// A top-level entry (none running) starts the wall clock, or takes a replayed cut.
fn begin(granted: i64) -> i64 {
    let top = REMAINING.with(Cell::get) == UNLIMITED;
    let grant = if top { wall::start_entry(granted) } else { granted };
    if !top {
        wall::nest(true);
    }
    REMAINING.with(|r| r.replace(grant))
}

/// Ends an entry granted `granted`, restoring `enclosing`; returns the units it used (a
/// wall-aborted entry: what it had used when it stopped, plus one, live and replayed alike).
fn finish(enclosing: i64, granted: i64) -> i64 {
    let left = REMAINING.with(|r| r.replace(enclosing));
    if enclosing != UNLIMITED {
        wall::nest(false);
        return used_of(granted, left);
    }
    let used = wall::cut_used().map_or_else(|| used_of(granted, left), |units| units + 1);
    wall::end_entry();
    used
}

/// Units a handler entry counts towards its tick on top of what its code used: the
/// engine's work to dispatch it (finding it, switching attribution, copying the payload's
/// structure), about as long as that many VM instructions run (`docs/perf/scripts.md`).
pub const HANDLER_DISPATCH_UNITS: i64 = 200;

/// What a signal handler's entry replaced, for [`leave_handler`].
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct HandlerEntry {
    enclosing: i64,
}

/// Starts a signal handler's entry: a fresh [`ENTRY_BUDGET`] of its own, whatever the entry
/// that emitted has left.
pub fn enter_handler() -> HandlerEntry {
    HandlerEntry { enclosing: begin(ENTRY_BUDGET) }
}

/// Ends a signal handler's entry: the emitter gets back exactly what it had (the handler's
/// units are not taken from it, and its overrun does not exhaust it). The units the handler
/// used, with [`HANDLER_DISPATCH_UNITS`], count towards the running tick; returns them.
pub fn leave_handler(h: HandlerEntry) -> i64 {
    let used = finish(h.enclosing, ENTRY_BUDGET) + HANDLER_DISPATCH_UNITS;
    PHASE_USED.with(|p| p.set(p.get().saturating_add(used)));
    used
}

/// Runs `f` without counting what it runs against the running entry (its instructions and
/// allocations); for engine work the caller charges itself, by a cost it computed first.
/// Memory shares still hold inside it.
pub fn unmetered<T>(f: impl FnOnce() -> T) -> T {
    let enclosing = REMAINING.with(|r| r.replace(UNLIMITED));
    let out = f();
    REMAINING.with(|r| r.set(enclosing));
    out
}

/// Units an entry granted `granted` used, given what it has `left` (one more than the grant
/// if it overran).
fn used_of(granted: i64, left: i64) -> i64 {
    granted - left.max(0) + i64::from(left < 0)
}

/// Ends an entry, restoring the enclosing entry's remaining units (from [`enter`]); returns
/// the units this entry used (one more than the budget if it overran). The units count
/// towards the running phase.
pub fn leave(enclosing: i64) -> i64 {
    let used = finish(enclosing, ENTRY_BUDGET);
    if enclosing == UNLIMITED {
        PHASE_USED.with(|p| p.set(p.get().saturating_add(used)));
    }
    used
}

/// Starts counting a new phase's units from zero.
pub fn start_phase() {
    PHASE_USED.with(|p| p.set(0));
}

/// Sets the units the running tick's entries may use together (the host's tick share), for
/// [`phase_exhausted`].
pub fn set_phase_limit(limit: i64) {
    PHASE_LIMIT.with(|l| l.set(limit));
}

/// Whether the running tick's entries have used the units [`set_phase_limit`] gave them: a
/// signal emitted then runs no handler.
pub fn phase_exhausted() -> bool {
    phase_used() >= PHASE_LIMIT.with(Cell::get)
}

/// Units the entries of the running phase used so far (top-level entries and signal
/// handlers alike).
pub fn phase_used() -> i64 {
    PHASE_USED.with(Cell::get)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_raised_messages_are_the_published_ones() {
        assert_eq!(super::BUDGET_MESSAGE, "script exceeded its instruction budget");
        assert_eq!(super::TX_MEMORY_MESSAGE, "the transaction exceeded its memory budget");
        assert_eq!(super::WALL_MESSAGE, "script held the tick past its wall-clock bound");
        assert_eq!(super::exhausted_message().to_str(), Ok(super::BUDGET_MESSAGE));
        assert_eq!(
            super::SHARE_MESSAGE,
            "not enough memory: this script holds more than its share of the VM"
        );
    }
}
