//! The hooks of the vendored Luau (`vendor/luau0-src/ARBOR.md`) that report work done
//! inside one VM operation or one C function call, and charge it to the running entry.
//!
//! - **Before every C function runs** ([`charge_call`]): the function's entry in the cost
//!   table ([`costs`](super::costs)) says what it will touch, from its arguments; that is
//!   charged first, and a call the entry cannot pay for raises the budget error before any
//!   work is done. Engine functions (mlua callbacks) have no entry here: they charge
//!   themselves in Rust.
//! - **Inside one operation** ([`charge_work`]): string comparison and interning (bytes
//!   compared or hashed), table traversal (slots skipped), `unpack`'s fast path (values
//!   pushed) are charged as they happen and raised at the next interrupt; the pattern
//!   matcher and plain searches report their steps a batch at a time and raise at once, so
//!   no single call outruns its budget by more than a batch.
//!
//! Invariant: nothing here changes what a call returns or raises, except the budget error
//! itself; the library functions run unwrapped.

use super::costs::{self, Args, VALUE_BYTES};
use super::take_bytes;
use mlua::ffi;
use std::ffi::{c_int, c_void};

/// `enum lua_WorkKind` of the vendored `lua.h`.
mod kind {
    pub const BYTES: i32 = 0;
    pub const SLOTS: i32 = 1;
    pub const VALUES: i32 = 2;
    pub const STEPS: i32 = 3;
}

/// What one table slot skipped by a traversal costs, in bytes at the byte rate: a nil test
/// runs about four times faster than an instruction.
pub(super) const SLOT_BYTES: usize = 4;

/// What one step of the pattern matcher (one byte of pattern or subject examined) costs, in
/// bytes at the byte rate: a step is a branch or two, a quarter of an instruction's time.
pub(super) const STEP_BYTES: usize = 4;

type WorkHook = unsafe extern "C-unwind" fn(*mut ffi::lua_State, c_int, usize);
type CCallHook = unsafe extern "C-unwind" fn(*mut ffi::lua_State, ffi::lua_CFunction, c_int);

unsafe extern "C-unwind" {
    fn lua_setworkhooks(state: *mut ffi::lua_State, work: Option<WorkHook>, ccall: Option<CCallHook>);
}

/// Installs both hooks on the VM of `state`.
///
/// # Safety
/// `state` is a live thread of a VM built from the vendored Luau.
pub(super) unsafe fn install(state: *mut ffi::lua_State) {
    // SAFETY: per the contract; the hooks are 'static functions.
    unsafe { lua_setworkhooks(state, Some(charge_work), Some(charge_call)) }
}

/// The work hook: charges `amount` of `kind` work; raises the budget error at once for
/// matcher steps (the only kind reported from a point where raising is safe).
///
/// # Safety
/// Called by the VM with its running thread.
unsafe extern "C-unwind" fn charge_work(state: *mut ffi::lua_State, kind: c_int, amount: usize) {
    let bytes = match kind {
        kind::SLOTS => amount.saturating_mul(SLOT_BYTES),
        kind::VALUES => amount.saturating_mul(VALUE_BYTES),
        kind::STEPS => amount.saturating_mul(STEP_BYTES),
        kind::BYTES => amount,
        _ => amount,
    };
    if !take_bytes(bytes) && kind == kind::STEPS {
        // SAFETY: matcher steps are reported from inside a library function, where raising
        // is what its own errors do.
        unsafe { raise(state) }
    }
}

/// The C-call hook: charges what the cost table says `f` will do with its arguments, and
/// raises the budget error before it runs if the entry cannot pay.
///
/// # Safety
/// Called by the VM with the C function's frame set up: arguments at 1..=`nargs`.
unsafe extern "C-unwind" fn charge_call(state: *mut ffi::lua_State, f: ffi::lua_CFunction, nargs: c_int) {
    let Some(cost) = costs::cost_of(f as *const c_void as usize) else {
        return;
    };
    // SAFETY: the VM calls this hook with the C function's frame set up, its arguments at
    // 1..=`nargs` (the contract above).
    let args = unsafe { Args::new(state, nargs.max(0)) };
    if !take_bytes(cost(&args)) {
        // SAFETY: the frame is the C function's own, which may raise.
        unsafe { raise(state) }
    }
}

/// Raises the budget's message (or the backstop's, for an entry it cut) in the running C
/// function.
///
/// # Safety
/// `state` runs a C function (or the matcher inside one); `lua_error` never returns.
unsafe fn raise(state: *mut ffi::lua_State) -> ! {
    let message = super::exhausted_message();
    // SAFETY: per the contract; a C frame has LUA_MINSTACK free slots.
    unsafe {
        ffi::lua_pushstring(state, message.as_ptr());
        ffi::lua_error(state)
    }
}
