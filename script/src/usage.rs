//! What each script instance has used, for operators (`ScriptHost::script_usage`, the
//! metrics endpoint): entries run, work units charged and entries that ended in an error.
//!
//! Invariant: one [`EntryUsage`] per script instance, shared by every [`Running`] clone of
//! that instance (its hooks, systems and the signal handlers it connected), so an entry is
//! counted where it is attributed — the same place its budget and memory category come from.
//!
//! [`Running`]: crate::state::Running

use std::cell::Cell;

/// Counters of one script instance (cells: the counting entry holds a shared reference).
#[derive(Debug, Default)]
pub struct EntryUsage {
    entries: Cell<u64>,
    units: Cell<u64>,
    errors: Cell<u64>,
}

impl EntryUsage {
    /// Counts one entry that used `units` work units and did or did not fail.
    pub fn count(&self, units: i64, failed: bool) {
        self.entries.set(self.entries.get() + 1);
        self.units.set(self.units.get().saturating_add(units.max(0) as u64));
        self.errors.set(self.errors.get() + u64::from(failed));
    }

    /// Entries, units and errors so far.
    pub fn totals(&self) -> (u64, u64, u64) {
        (self.entries.get(), self.units.get(), self.errors.get())
    }
}

/// What one script has used since it started (or was last reloaded), from
/// [`ScriptHost::script_usage`](crate::ScriptHost::script_usage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptUsage {
    /// The script's path (`Workspace.Door.Script`); instances of one path are summed.
    pub name: String,
    /// Entries run: the top-level chunk, `Update`/`PhysicsUpdate` calls, systems, handlers.
    pub entries: u64,
    /// Work units the entries used (`docs/scripting.md`, budgets).
    pub units: u64,
    /// Entries that ended in an error.
    pub errors: u64,
    /// Bytes of Luau memory its category holds now. Categories are shared when more than 254
    /// instances run, so then this is the category's total.
    pub memory_bytes: usize,
}
