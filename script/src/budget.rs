//! The instruction budget: every entry into a script environment (top-level load, each
//! `Update`, each `PhysicsUpdate`, each system dispatch, each signal handler) gets
//! [`ENTRY_BUDGET`] units; overrunning raises `script exceeded its instruction budget` and
//! aborts that entry.
//!
//! **What one unit is.** Luau calls its interrupt at every function call and return and at
//! every loop back-edge (`FORNLOOP`, `FORGLOOP`, `JUMPBACK`, `JUMPX`), and during string
//! pattern matching — not per VM instruction. One unit is one such interrupt. Every loop
//! iteration and every call costs at least one unit, and straight-line code between two
//! interrupts is bounded by the size of the function (no jumps backwards), so a budget of N
//! units bounds the work of an entry to O(N × longest straight-line run) instructions. The
//! count depends only on the code path, never on a clock, so the same script aborts at the
//! same point on every run and machine. Instance property reads and writes are not Luau
//! calls (they run as direct userdata access or metamethods) and cost no unit themselves;
//! method calls (`part:FindFirstChild(..)`) cost their call.
//!
//! **Why `pcall` cannot escape.** Once the counter is exhausted it stays exhausted: every
//! later interrupt in the same entry raises again, so a `pcall` around the loop catches one
//! error but the code after it (or the next iteration) fails at its next check.
//!
//! The interrupt is a plain `extern "C"` function installed through `mlua::ffi`; it only
//! decrements a thread-local counter (about a nanosecond), instead of an mlua closure (~11 ns
//! per call). Entries nest (a signal handler runs inside `Emit`): [`enter`] returns the
//! enclosing entry's remaining budget and [`leave`] restores it.
//!
//! **Nested entries draw from the entry that triggered them.** A handler run inside an
//! `Emit` gets [`ENTRY_BUDGET`] or what its emitter has left, whichever is less, and what it
//! uses is taken from the emitter ([`enter_nested`], [`leave_nested`]). So an entry with
//! everything it triggers runs at most one budget's worth of units: a handler that emits its
//! own signal twice ends when the first entry's budget does, not after 2^depth budgets. A
//! handler that overran leaves its emitter exhausted too, so the emitter stops at its next
//! check (its `pcall` cannot continue, as above). An `Emit` from outside any entry (engine
//! code) gives each handler a fresh budget.

use mlua::ffi;
use std::cell::Cell;
use std::ffi::c_int;

/// Units granted to each entry.
pub const ENTRY_BUDGET: i64 = 1_000_000;

/// The error message of an overrun, as the seeds quote it.
pub const BUDGET_MESSAGE: &str = "script exceeded its instruction budget";

const UNLIMITED: i64 = i64::MAX;

thread_local! {
    static REMAINING: Cell<i64> = const { Cell::new(UNLIMITED) };
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
    let left = REMAINING.with(|r| {
        let v = r.get().saturating_sub(1);
        r.set(v);
        v
    });
    if left < 0 {
        // SAFETY: `state` is the running thread handed to us by the VM, with room for the two
        // values pushed here (the VM reserves LUA_MINSTACK slots for callbacks). Level 0 is
        // the Lua function being interrupted, so the prefix names its chunk and line;
        // lua_error raises and never returns.
        unsafe {
            ffi::luaL_where(state, 0);
            ffi::lua_pushstring(state, c"script exceeded its instruction budget".as_ptr());
            ffi::lua_concat(state, 2);
            ffi::lua_error(state)
        }
    }
}

/// Installs the counting interrupt on `lua` (replacing any other interrupt).
pub fn install(lua: &mlua::Lua) -> mlua::Result<()> {
    // SAFETY: `exec_raw` hands us a valid state of this VM; the callbacks table belongs to
    // the VM's global state and outlives it; the function pointer is 'static.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            (*ffi::lua_callbacks(state)).interrupt = Some(budget_interrupt);
        })
    }
}

/// Starts an entry with a fresh budget; returns the enclosing entry's remaining units.
pub fn enter() -> i64 {
    REMAINING.with(|r| r.replace(ENTRY_BUDGET))
}

/// Starts an entry nested in the running one (a signal handler inside `Emit`): it is granted
/// [`ENTRY_BUDGET`] or the enclosing entry's remaining units, whichever is less. Returns the
/// enclosing remaining units and the grant, for [`leave_nested`].
pub fn enter_nested() -> (i64, i64) {
    REMAINING.with(|r| {
        let enclosing = r.get();
        let granted = if enclosing == UNLIMITED { ENTRY_BUDGET } else { enclosing.clamp(0, ENTRY_BUDGET) };
        r.set(granted);
        (enclosing, granted)
    })
}

/// Ends a nested entry: the units it used are taken from the enclosing entry (which is left
/// exhausted if the nested one overran). Returns the units used.
pub fn leave_nested((enclosing, granted): (i64, i64)) -> i64 {
    REMAINING.with(|r| {
        let left = r.get();
        let used = granted - left.max(0) + i64::from(left < 0);
        let rest = if enclosing == UNLIMITED {
            UNLIMITED
        } else if left < 0 {
            -1
        } else {
            enclosing - used
        };
        r.set(rest);
        used
    })
}

/// Ends an entry, restoring the enclosing entry's remaining units (from [`enter`]); returns
/// the units this entry used (one more than the budget if it overran).
pub fn leave(enclosing: i64) -> i64 {
    let left = REMAINING.with(|r| r.replace(enclosing));
    ENTRY_BUDGET - left.max(0) + i64::from(left < 0)
}
