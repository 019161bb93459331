//! Per-script memory shares of the one VM.
//!
//! Every script instance allocates under its own Luau memory category (`lua_setmemcat`;
//! categories 1..=254, given out round the instance keys, so past 254 live instances two
//! share one), which the VM counts exactly: an object belongs to the category that was active
//! when it was made, and leaves it when freed. When an allocation takes a category past its
//! share ([`set_share`]), the allocation hook marks it; at the next interrupt the VM collects
//! garbage (charged to the entry at one unit per 256 bytes the category holds) and, if the
//! category still holds more than its share, raises [`SHARE_MESSAGE`] in that script. So one
//! script filling memory fails itself, not the scripts that allocate after it.
//!
//! Shares are also enforced when a block is allocated, by the vendored VM
//! ([`limit_script_memory`]): an allocation that would take a script past one and a half
//! times its share is refused at once (the script gets Luau's `not enough memory`), so one
//! huge allocation is not made first and caught later (refused while Luau code or a library
//! function runs; an engine function's allocation is made and settled at the next interrupt,
//! as its Rust frames must not see the error); and all scripts together may hold at
//! most the VM's limit minus a reserve for the host ([`HOST_RESERVE`]) and, for scripts
//! already holding a mebibyte or more, minus a second reserve ([`SMALL_RESERVE`]) kept for
//! the scripts that hold little, so a few scripts filling their shares cannot starve a
//! bystander.
//!
//! Invariant: category 0 is the engine's (the host, the prelude); it has no share.

use super::layout;
use mlua::ffi;
use std::cell::Cell;
use std::ffi::c_int;

/// The error a script over its memory share gets (after Luau's own out-of-memory text).
pub const SHARE_MESSAGE: &str = "not enough memory: this script holds more than its share of the VM";

/// Bytes of a category per unit of the collection its overrun triggers.
const COLLECTION_BYTES_PER_UNIT: usize = 256;

thread_local! {
    /// Bytes each script category may hold (`usize::MAX`: no share).
    static SHARE: Cell<usize> = const { Cell::new(usize::MAX) };
    /// The category an allocation took past its share, or 0.
    static OVER: Cell<u8> = const { Cell::new(0) };
}

/// Bytes of the VM kept for the host (category 0) whatever the scripts hold: at most this,
/// and at most an eighth of the VM.
pub const HOST_RESERVE: usize = 32 << 20;

/// Bytes kept, past what scripts holding a mebibyte or more may use together, for scripts
/// holding less: at most this, and at most a sixteenth of the VM.
pub const SMALL_RESERVE: usize = 16 << 20;

/// A script holding less than this may use [`SMALL_RESERVE`].
const SMALL_SCRIPT: usize = 1 << 20;

type Refusable = unsafe extern "C-unwind" fn(*mut ffi::lua_State, ffi::lua_CFunction) -> c_int;

unsafe extern "C-unwind" {
    fn lua_setmemcatlimits(
        state: *mut ffi::lua_State,
        category: usize,
        pool: usize,
        smallpool: usize,
        small: usize,
        refusable: Option<Refusable>,
    );
}

/// Where the VM may refuse an allocation by raising: inside the library functions of the cost
/// table (Luau's own C code), never inside an engine function, whose Rust frames do not
/// expect a Lua error from an allocation (the VM also refuses inside Luau functions).
///
/// # Safety
/// Called by the VM with a live state; reads nothing through it.
unsafe extern "C-unwind" fn library_refusable(_state: *mut ffi::lua_State, f: ffi::lua_CFunction) -> c_int {
    c_int::from(super::costs::cost_of(f as *const std::ffi::c_void as usize).is_some())
}

/// Makes `lua`'s VM refuse, when they are made, allocations that would take one script past
/// 1.5 × `share` or the scripts together past what `memory_limit` leaves after the reserves.
pub fn limit_script_memory(lua: &mlua::Lua, memory_limit: usize, share: usize) -> mlua::Result<()> {
    let host = HOST_RESERVE.min(memory_limit / 8);
    let small = SMALL_RESERVE.min(memory_limit / 16);
    let smallpool = memory_limit.saturating_sub(host);
    let pool = smallpool.saturating_sub(small);
    let category = share.saturating_add(share / 2).max(1);
    // SAFETY: `exec_raw` hands us a valid state; the call only stores four numbers in its
    // global state.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            lua_setmemcatlimits(state, category, pool, smallpool, SMALL_SCRIPT, Some(library_refusable))
        })
    }
}

/// Sets the bytes each script's category may hold, for the VMs on this thread.
pub fn set_share(bytes: usize) {
    SHARE.with(|s| s.set(bytes));
}

/// The memory category of the script instance with key `key` (0, the engine's, for key 0).
pub fn category_of(key: u64) -> u8 {
    if key == 0 { 0 } else { 1 + ((key - 1) % 254) as u8 }
}

/// Bytes `lua`'s memory category `memcat` holds now.
pub fn category_bytes(lua: &mlua::Lua, memcat: u8) -> usize {
    lua.exec_raw_lua(|raw| {
        // SAFETY: `raw.state()` is live while `raw` is held; `lua_totalbytes` reads a counter
        // of the global state.
        unsafe { ffi::lua_totalbytes(raw.state(), memcat.into()) }
    })
}

/// Called by the allocation hook: marks `memcat` if it now holds more than its share.
///
/// # Safety
/// `state` is a live thread of the VM that allocated.
pub(super) unsafe fn note_allocation(state: *mut ffi::lua_State, memcat: u8) {
    if memcat == 0 {
        return;
    }
    let share = SHARE.with(Cell::get);

    // SAFETY: per the contract; `lua_totalbytes` reads a counter of the global state.
    if share != usize::MAX && unsafe { ffi::lua_totalbytes(state, memcat.into()) } > share {
        OVER.with(|o| o.set(memcat));
    }
}

/// Called at an interrupt: if an allocation went over a share, collects garbage and says how
/// many units that cost and whether the category is still over its share.
///
/// # Safety
/// `state` is the running thread at an interrupt (a safe point for a full collection).
pub(super) unsafe fn settle_overrun(state: *mut ffi::lua_State) -> Option<(i64, bool)> {
    let memcat = OVER.with(|o| o.replace(0));
    // An overrun marked by another script's last allocation is that script's to settle, at
    // its next allocation.
    // SAFETY: per the contract.
    if memcat == 0 || memcat != unsafe { layout::active_category(state) } {
        return None;
    }
    // SAFETY: per the contract: the VM's state is consistent at an interrupt.
    unsafe {
        let held = ffi::lua_totalbytes(state, memcat.into());
        ffi::lua_gc(state, ffi::LUA_GCCOLLECT, 0);
        let after = ffi::lua_totalbytes(state, memcat.into());
        let units = i64::try_from(held / COLLECTION_BYTES_PER_UNIT).unwrap_or(i64::MAX);
        Some((units, after > SHARE.with(Cell::get)))
    }
}

/// Makes `memcat` the category of the allocations `lua` makes from now on; returns the
/// category it replaces.
pub fn enter_category(lua: &mlua::Lua, memcat: u8) -> u8 {
    // Neither step can raise, so no protected call is needed around them.
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: `state` is the thread the next call will run on, live while `raw` is held;
        // the mirror reads one byte of it (checked version, see `layout`), and
        // `lua_setmemcat` writes one field.
        unsafe {
            let previous = layout::active_category(state);
            ffi::lua_setmemcat(state, memcat.into());
            previous
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_go_round_the_keys_and_spare_the_engines() {
        assert_eq!(category_of(0), 0);
        assert_eq!(category_of(1), 1);
        assert_eq!(category_of(254), 254);
        assert_eq!(category_of(255), 1);
    }
}
