//! `pairs` that iterates Instance-keyed tables in the same order on every run.
//!
//! Luau places a userdata key in a table's hash part by its address, so `pairs` over a table
//! keyed by Instances would visit them in an order that changes from one process to the next
//! (address-space randomisation), and whatever a script does in that order (spawn, write,
//! send) would make a replay diverge. The base environment's `pairs` is replaced by
//! [`deterministic_pairs`]: a table without Instance keys gets Luau's own `next` (so the VM's
//! fast `pairs` loop is kept and nothing changes); a table with one goes through
//! `ordered_pairs.luau`, which visits its keys sorted (numbers, strings, booleans, then
//! Instances by id; other reference keys, tables and functions, keep Luau's order and are not
//! covered).
//!
//! Invariant: for tables without Instance keys this `pairs` returns exactly what Luau's does
//! (`next, t, nil`); anything but a table goes to Luau's `pairs` for its error.

use super::handle::handle_at;
use mlua::{Function, Lua, Result, Table, ffi};
use std::ffi::c_int;

const ORDERED: &str = include_str!("ordered_pairs.luau");

/// Replaces `base.pairs` (Luau's) with [`deterministic_pairs`].
pub fn install(lua: &Lua, base: &Table) -> Result<()> {
    let native_pairs: Function = base.raw_get("pairs")?;
    let native_next: Function = base.raw_get("next")?;
    // SAFETY: `exec_raw` runs the closure protected on a valid state with room to push; it
    // leaves exactly one value (the new C function) on the stack.
    let order: Function = unsafe {
        lua.exec_raw((), |state| {
            ffi::lua_pushcclosurek(state, instance_order, c"instanceOrder".as_ptr(), 0, None);
        })
    }?;
    let ordered: Function = lua.load(ORDERED).set_name("=arbor-pairs").call(order)?;
    // SAFETY: as above; the three upvalues are pushed, then captured by the closure, which is
    // the only value left.
    let pairs: Function = unsafe {
        lua.exec_raw((native_next, ordered, native_pairs), |state| {
            ffi::lua_pushcclosurek(state, deterministic_pairs, c"pairs".as_ptr(), 3, None);
        })
    }?;
    base.raw_set("pairs", pairs)
}

/// `instanceOrder(handle)`: the instance's id, as a number (nil for anything else).
unsafe extern "C-unwind" fn instance_order(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by the VM with its arguments on the stack and a free slot.
    unsafe {
        match handle_at(state, 1) {
            Some(h) => ffi::lua_pushnumber(state, h.id as f64),
            None => ffi::lua_pushnil(state),
        }
    }
    1
}

/// `pairs(t)`: upvalues 1 = Luau's `next`, 2 = the ordered iterator factory, 3 = Luau's
/// `pairs`.
unsafe extern "C-unwind" fn deterministic_pairs(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by the VM with its arguments on the stack; `lua_checkstack` makes room
    // for the pushes below, each balanced by a pop or returned.
    unsafe {
        ffi::luaL_checkstack(state, 4, c"pairs".as_ptr());
        if ffi::lua_type(state, 1) != ffi::LUA_TTABLE {
            let args = ffi::lua_gettop(state);
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
            ffi::lua_insert(state, 1);
            ffi::lua_call(state, args, 3);
            return 3;
        }
        ffi::lua_settop(state, 1);
        if has_instance_key(state) {
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
            ffi::lua_pushvalue(state, 1);
            ffi::lua_call(state, 1, 3);
            return 3;
        }
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_pushvalue(state, 1);
        ffi::lua_pushnil(state);
        3
    }
}

/// Whether the table at index 1 has an Instance key (a scan of its keys with `lua_next`).
///
/// # Safety
/// `state` is a live thread with a table at index 1 and two free stack slots.
unsafe fn has_instance_key(state: *mut ffi::lua_State) -> bool {
    // SAFETY: per the contract; `lua_next` pushes a key and a value, the value is popped at
    // once, and the key is popped with it when the scan stops early.
    unsafe {
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, 1) != 0 {
            ffi::lua_pop(state, 1);
            if ffi::lua_type(state, -1) == ffi::LUA_TUSERDATA && handle_at(state, -1).is_some() {
                ffi::lua_pop(state, 1);
                return true;
            }
        }
        false
    }
}
