//! The arguments of the C function about to run, as the cost table reads them (how many,
//! their lengths, the slots of a table, integers), and the byte rate of one value.
//!
//! Invariant: reading an argument never converts it or runs a metamethod; only the frame's
//! own arguments (1..=count) are read, anything past them reads as none.

use mlua::ffi;
use std::ffi::c_int;

/// What one value pushed costs, in bytes at the byte rate (one element).
pub(in crate::budget) const VALUE_BYTES: usize = 16;

unsafe extern "C-unwind" {
    fn lua_tableslots(state: *mut ffi::lua_State, idx: c_int) -> usize;
}

/// The arguments of the C function about to run, read without converting them.
pub(in crate::budget) struct Args {
    state: *mut ffi::lua_State,
    count: c_int,
}

impl Args {
    /// The arguments of the C function running on `state`, `count` of them.
    ///
    /// # Safety
    /// `state` is running a C function whose frame holds its arguments at 1..=`count`, and
    /// stays so while the result is used.
    pub(in crate::budget) unsafe fn new(state: *mut ffi::lua_State, count: c_int) -> Self {
        Self { state, count }
    }

    /// How many arguments were passed.
    pub fn count(&self) -> usize {
        self.count as usize
    }

    fn type_of(&self, i: c_int) -> c_int {
        if i < 1 || i > self.count {
            return ffi::LUA_TNONE;
        }
        // SAFETY: `i` is one of the frame's arguments.
        unsafe { ffi::lua_type(self.state, i) }
    }

    /// The length of argument `i` (1-based): bytes of a string or buffer, border of a table;
    /// 0 for anything else.
    pub fn len(&self, i: c_int) -> usize {
        match self.type_of(i) {
            // SAFETY: `objlen` reads strings, buffers and tables without converting them.
            ffi::LUA_TSTRING | ffi::LUA_TBUFFER | ffi::LUA_TTABLE => unsafe {
                ffi::lua_objlen_(self.state, i).max(0) as usize
            },
            _ => 0,
        }
    }

    /// The slots table argument `i` has allocated (what a full traversal visits); 0 if it is
    /// not a table.
    pub fn slots(&self, i: c_int) -> usize {
        if self.type_of(i) != ffi::LUA_TTABLE {
            return 0;
        }
        // SAFETY: `i` is one of the frame's arguments.
        unsafe { lua_tableslots(self.state, i) }
    }

    /// Argument `i` as Luau's `luaL_checkinteger` reads it (a number truncated to `int`),
    /// or `None` if it is not a number.
    pub fn int(&self, i: c_int) -> Option<i64> {
        if self.type_of(i) != ffi::LUA_TNUMBER {
            return None;
        }
        // SAFETY: a number argument; `tonumberx` does not convert it.
        let n = unsafe { ffi::lua_tonumberx(self.state, i, std::ptr::null_mut()) };
        // Luau truncates with a C cast; out-of-range values land on `INT_MIN` on x86.
        Some(if n.is_finite() && n > f64::from(i32::MIN) - 1.0 && n < f64::from(i32::MAX) + 1.0 {
            n.trunc() as i64
        } else {
            i64::from(i32::MIN)
        })
    }

    /// Whether argument `i` is absent or nil.
    pub fn is_none_or_nil(&self, i: c_int) -> bool {
        matches!(self.type_of(i), ffi::LUA_TNONE | ffi::LUA_TNIL)
    }

    /// The bytes of every string and buffer argument.
    pub fn all_bytes(&self) -> usize {
        (1..=self.count).map(|i| if self.type_of(i) == ffi::LUA_TTABLE { 0 } else { self.len(i) }).sum()
    }
}
