//! Where the interrupted instruction is: the few fields of Luau's internal `lua_State`,
//! `CallInfo` and `Proto` that the budget interrupt reads, mirrored as `#[repr(C)]`
//! prefixes of the C structs, and the per-function weight tables hung on
//! `Proto::userdata` (a field the VM sets to null and never reads).
//!
//! Invariants:
//! - the mirrors match Luau 0.740 (`VM/src/lstate.h`, `VM/src/lobject.h`); [`check_version`]
//!   refuses any other Luau at install, and the tests below check the decoded code of live
//!   functions;
//! - a `Proto::userdata` this module set points at a table in the [`WeightTables`] of the
//!   VM that owns the function, which outlives the VM (the host drops it after the `Lua`);
//!   a weight table has exactly `sizecode` entries.

use super::weights::interrupt_weights;
use mlua::ffi;
use std::cell::RefCell;
use std::ffi::{c_int, c_void};

/// The Luau version the mirrors below were written against.
pub const LUAU_VERSION: &str = "0.740";

/// Fails unless the linked Luau is the version the mirrors describe.
pub fn check_version() -> Result<(), String> {
    match ffi::luau_version() {
        Some(LUAU_VERSION) => Ok(()),
        other => Err(format!(
            "the script budget reads Luau {LUAU_VERSION}'s call frames, but Luau {} is linked",
            other.unwrap_or("(unknown)")
        )),
    }
}

/// The head of Luau's `lua_State`, up to the size of its call-info array.
#[repr(C)]
struct LuaStateHead {
    tt: u8,
    marked: u8,
    memcat: u8,
    status: u8,
    activememcat: u8,
    isactive: bool,
    singlestep: bool,
    top: *mut c_void,
    base: *mut c_void,
    global: *mut c_void,
    ci: *const CallInfo,
    stack_last: *mut c_void,
    stack: *mut c_void,
    end_ci: *const CallInfo,
    /// The call-info array: `base_ci[0]` is the thread's base (C) frame.
    base_ci: *const CallInfo,
    stacksize: c_int,
    /// Entries of the call-info array.
    size_ci: c_int,
}

/// Luau's `CallInfo`.
#[repr(C)]
struct CallInfo {
    base: *mut c_void,
    func: *mut c_void,
    top: *mut c_void,
    /// The running function's prototype; null for C functions.
    p: *mut ProtoHead,
    /// For a Luau frame, one past the instruction being run when the interrupt is called.
    savedpc: *const u32,
    nresults: c_int,
    flags: u32,
}

/// The head of Luau's `Proto`, up to `sizecode`.
#[repr(C)]
struct ProtoHead {
    tt: u8,
    marked: u8,
    memcat: u8,
    nups: u8,
    numparams: u8,
    is_vararg: u8,
    maxstacksize: u8,
    flags: u8,
    k: *mut c_void,
    code: *const u32,
    p: *mut c_void,
    codeentry: *const u32,
    execdata: *mut c_void,
    exectarget: usize,
    lineinfo: *mut u8,
    abslineinfo: *mut c_int,
    locvars: *mut c_void,
    upvalues: *mut c_void,
    source: *mut c_void,
    debugname: *mut c_void,
    debuginsn: *mut u8,
    typeinfo: *mut u8,
    /// Unused by the VM (null from `luaF_newproto`); holds this module's weight table.
    userdata: *mut c_void,
    gclist: *mut c_void,
    sizecode: c_int,
}

/// The weight tables of one VM: its global state's address and the tables.
type VmTables = (usize, Vec<Box<[u32]>>);

thread_local! {
    /// Weight tables built on this thread, by the VM (global state) they belong to.
    static TABLES: RefCell<Vec<VmTables>> = const { RefCell::new(Vec::new()) };
}

/// Owns the weight tables of one VM; drop it after the VM.
pub struct WeightTables {
    global: usize,
}

impl WeightTables {
    /// The tables of the VM whose main state is `state`.
    pub fn new(state: *mut ffi::lua_State) -> Self {
        // SAFETY: `state` is a live state handed out by mlua; the head mirror matches the
        // linked Luau (checked by `check_version` before any table is made).
        let global = unsafe { (*state.cast::<LuaStateHead>()).global } as usize;
        TABLES.with(|t| t.borrow_mut().push((global, Vec::new())));
        Self { global }
    }
}

impl Drop for WeightTables {
    fn drop(&mut self) {
        TABLES.with(|t| t.borrow_mut().retain(|(g, _)| *g != self.global));
    }
}

/// The weight of the instruction the VM is about to run in `state`'s current frame, at an
/// interrupt: see `weights`. 1 for a C frame (the string matcher's interrupt).
///
/// # Safety
/// `state` is the running thread the VM passed to its interrupt callback, of a VM that has
/// a live [`WeightTables`] on this thread, and the linked Luau passed [`check_version`].
pub unsafe fn interrupted_weight(state: *mut ffi::lua_State) -> u32 {
    // SAFETY: per the contract, `state` is a live `lua_State` whose layout the head mirrors,
    // and `ci` is its current (valid) call frame; a non-null `p` is the live prototype of the
    // function that frame runs.
    unsafe {
        let head = &*state.cast::<LuaStateHead>();
        let ci = &*head.ci;
        if ci.p.is_null() || ci.savedpc.is_null() {
            return 1;
        }
        let p = &mut *ci.p;
        let size = usize::try_from(p.sizecode).unwrap_or(0);
        let at = (ci.savedpc as usize).wrapping_sub(p.code as usize) / 4;
        if at == 0 || at > size {
            return 1;
        }
        if p.userdata.is_null() {
            p.userdata = build_table(head.global as usize, p.code, size);
        }
        *p.userdata.cast::<u32>().add(at - 1)
    }
}

/// A Luau frame's place, to go back to: the thread, the frame's depth in its call-info array,
/// its prototype and its saved pc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePoint {
    thread: usize,
    depth: usize,
    proto: usize,
    pc: usize,
}

/// The place of `state`'s innermost Luau frame, from the allocation hook: `None` if `state`
/// runs no Luau function, or if the allocation (from `osize` bytes) may be the call-info
/// array's own reallocation, whose old frames the VM has freed but not yet moved.
///
/// # Safety
/// `state` is the thread the VM passed to its allocation hook, of a Luau that passed
/// [`check_version`]. The hook is called after the block is allocated and before the VM
/// stores it: a reallocated stack is not read here (no frame's `func` is), and a
/// reallocated call-info array is recognised by its size and not read.
pub unsafe fn luau_frame(state: *mut ffi::lua_State, osize: usize) -> Option<FramePoint> {
    // SAFETY: per the contract, the head mirrors the live state; unless the call-info array
    // is being reallocated (refused above the reads), `base_ci..=ci` are its live frames,
    // whose `p` and `savedpc` are plain fields of the array.
    unsafe {
        let head = &*state.cast::<LuaStateHead>();
        let size = std::mem::size_of::<CallInfo>();
        let array_bytes = usize::try_from(head.size_ci).ok()?.checked_mul(size)?;
        if osize != 0 && osize == array_bytes {
            return None;
        }
        let mut ci = head.ci;
        while ci > head.base_ci {
            let frame = &*ci;
            if !frame.p.is_null() && !frame.savedpc.is_null() {
                return Some(FramePoint {
                    thread: state as usize,
                    depth: (ci as usize - head.base_ci as usize) / size,
                    proto: frame.p as usize,
                    pc: frame.savedpc as usize,
                });
            }
            ci = ci.sub(1);
        }
        None
    }
}

/// At an interrupt: if `state`'s current frame is the frame `point` names (same thread,
/// depth and prototype, and the pc within its code), moves its saved pc back to `point`'s,
/// so the error raised next names that line; returns whether it did.
///
/// # Safety
/// `state` is the running thread the VM passed to its interrupt, of a Luau that passed
/// [`check_version`]; the caller raises an error right after (the frame does not run on).
pub unsafe fn rewind(state: *mut ffi::lua_State, point: FramePoint) -> bool {
    // SAFETY: per the contract, `ci` is the current, valid frame; its prototype is live.
    unsafe {
        let head = &*state.cast::<LuaStateHead>();
        let ci = head.ci.cast_mut();
        let size = std::mem::size_of::<CallInfo>();
        if state as usize != point.thread
            || (*ci).p as usize != point.proto
            || (*ci).p.is_null()
            || (ci as usize - head.base_ci as usize) / size != point.depth
        {
            return false;
        }
        let p = &*(*ci).p;
        let code = p.code as usize;
        let end = code + usize::try_from(p.sizecode).unwrap_or(0) * 4;
        if point.pc <= code || point.pc > end {
            return false;
        }
        (*ci).savedpc = point.pc as *const u32;
        true
    }
}

/// The memory category `state` allocates under.
///
/// # Safety
/// `state` is a live thread of a VM whose Luau passed [`check_version`].
pub unsafe fn active_category(state: *mut ffi::lua_State) -> u8 {
    // SAFETY: per the contract, the head mirrors the live state.
    unsafe { (*state.cast::<LuaStateHead>()).activememcat }
}

/// Builds and registers the weight table of a function.
///
/// # Safety
/// `code` points at `size` readable instructions.
unsafe fn build_table(global: usize, code: *const u32, size: usize) -> *mut c_void {
    // SAFETY: per the contract.
    let code = unsafe { std::slice::from_raw_parts(code, size) };
    let mut table = interrupt_weights(code).into_boxed_slice();
    let ptr = table.as_mut_ptr().cast::<c_void>();
    TABLES.with(|t| {
        let mut t = t.borrow_mut();
        match t.iter_mut().find(|(g, _)| *g == global) {
            Some((_, tables)) => tables.push(table),
            // A VM without registered tables: keep the table alive for the thread.
            None => t.push((global, vec![table])),
        }
    });
    ptr
}

/// The opcode of the instruction the VM is about to run in `state`'s current Luau frame
/// (for tests of the mirrors).
///
/// # Safety
/// As [`interrupted_weight`].
#[cfg(test)]
pub unsafe fn interrupted_opcode(state: *mut ffi::lua_State) -> Option<(u8, usize)> {
    // SAFETY: as in `interrupted_weight`.
    unsafe {
        let ci = &*(*state.cast::<LuaStateHead>()).ci;
        if ci.p.is_null() {
            return None;
        }
        let p = &*ci.p;
        let at = (ci.savedpc as usize - p.code as usize) / 4;
        Some(((*ci.savedpc.sub(1) & 0xff) as u8, at - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::weights::interrupts;

    thread_local! {
        static SEEN: RefCell<Vec<Option<(u8, usize)>>> = const { RefCell::new(Vec::new()) };
    }

    /// Records the opcode at each interrupt.
    ///
    /// # Safety
    /// Only the VM calls this, as the interrupt of the test's VM, with its running thread.
    unsafe extern "C-unwind" fn record(state: *mut ffi::lua_State, gc: c_int) {
        if gc < 0 {
            // SAFETY: the VM passes its running thread; the version was checked by the test.
            let op = unsafe { interrupted_opcode(state) };
            SEEN.with(|s| s.borrow_mut().push(op));
        }
    }

    #[test]
    fn the_mirrors_find_the_interrupted_instruction_of_live_frames() {
        check_version().unwrap();
        let lua = mlua::Lua::new();
        // SAFETY: as in `budget::install`.
        unsafe {
            lua.exec_raw::<()>((), |state| (*ffi::lua_callbacks(state)).interrupt = Some(record)).unwrap();
        }
        lua.load(
            "local t = {} for i = 1, 3 do t[i] = i end
             for _, v in ipairs(t) do local x = v end
             local n = 0 while n < 3 do n += 1 end
             local function f(a) return a + 1 end
             print(f(1), string.find('abc', 'b'))",
        )
        .exec()
        .unwrap();
        let seen = SEEN.with(|s| s.take());
        assert!(seen.len() >= 10, "{seen:?}");
        for op in seen.iter().flatten() {
            assert!(interrupts(op.0), "interrupt at a non-interrupting opcode {op:?}: {seen:?}");
        }
    }

    #[test]
    fn live_code_decodes_into_its_own_length() {
        let lua = mlua::Lua::new();
        let f: mlua::Function = lua
            .load("local s = 0 for i = 1, 10 do if i % 2 == 0 then s += i end end return s")
            .into_function()
            .unwrap();
        // The weights of a live function: every interrupt has one, and the loop's back-edge
        // is charged more than one instruction.
        /// Records the weight of each interrupt.
        ///
        /// # Safety
        /// Only the VM calls this, as the interrupt of the test's VM, with its running thread.
        unsafe extern "C-unwind" fn grab(state: *mut ffi::lua_State, gc: c_int) {
            if gc < 0 {
                // SAFETY: as in `record`; a live `WeightTables` is registered below.
                let weight = unsafe { interrupted_weight(state) };
                SEEN.with(|s| s.borrow_mut().push(Some((0, weight as usize))));
            }
        }
        // SAFETY: as above.
        let _tables = unsafe {
            let mut t = None;
            lua.exec_raw::<()>((), |state| {
                t = Some(WeightTables::new(state));
                (*ffi::lua_callbacks(state)).interrupt = Some(grab);
            })
            .unwrap();
            t
        };
        assert_eq!(f.call::<i64>(()).unwrap(), 30);
        let weights: Vec<usize> = SEEN.with(|s| s.take()).into_iter().flatten().map(|(_, w)| w).collect();
        assert!(weights.iter().all(|&w| w >= 1), "{weights:?}");
        assert!(weights.iter().any(|&w| w >= 4), "the loop body is charged: {weights:?}");
    }
}
