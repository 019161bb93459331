//! The C functions scripts call as Instance methods.
//!
//! Each method is a C closure whose upvalue 1 is the method's mlua function (returning a
//! [`MethodStatus`](super::instance::MethodStatus)). [`call_method`] checks the receiver,
//! passes its id in place of the handle, wraps a returned id as a handle without an mlua
//! round trip, and raises a failure at the calling script's line (like `error(m, 2)`).
//!
//! `FindFirstChild` and `GetComponent`, the lookups scripts run most (the second once per
//! entity in a system's loop), have their own closures ([`find_first_child`],
//! [`get_component`]): with a handle and a string name they answer in C (one world borrow,
//! no mlua conversion, the children looked at charged to the budget); any other arguments,
//! and a recursive search, take the generic path, so the errors stay the same.

use super::component_handle::push_component;
use super::convert::Fail;
use super::handle::{Handle, NOT_AN_INSTANCE, guarded, handle_at, push_handle, raise};
use super::props::DESTROYED;
use arbor_core::{Arena, Id};
use mlua::{Function, Lua, ffi};
use std::borrow::Cow;
use std::ffi::{CStr, c_int};

/// Calls upvalue 1 with the receiver's id; see the module docs.
///
/// # Safety
/// `state` is the thread running a method closure made by [`method`] (upvalue 1 is its mlua
/// function), with the call's arguments on the stack and LUA_MINSTACK free slots above them.
unsafe fn call_method(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: per the caller's contract. We use one slot for the function before the call;
    // the call leaves exactly three results in place of function and arguments, and we push
    // at most three more. Errors (ours or the callee's) unwind through frames that own
    // nothing.
    unsafe {
        let Some(h) = handle_at(state, 1) else { raise(state, Cow::Borrowed(NOT_AN_INSTANCE)) };
        ffi::lua_pushnumber(state, h.id as f64);
        ffi::lua_replace(state, 1);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        let nargs = ffi::lua_gettop(state) - 1;
        ffi::lua_call(state, nargs, 3);
        if ffi::lua_toboolean(state, -3) == 0 {
            ffi::lua_pushvalue(state, -2);
            ffi::luaL_where(state, 1);
            ffi::lua_insert(state, -2);
            ffi::lua_concat(state, 2);
            ffi::lua_error(state);
        }
        if ffi::lua_toboolean(state, -1) != 0 && ffi::lua_type(state, -2) == ffi::LUA_TNUMBER {
            // Ids are below 2^53, exact as numbers.
            push_handle(state, Id(ffi::lua_tonumber(state, -2) as u64), h.world);
        } else {
            ffi::lua_pushvalue(state, -2);
        }
        1
    }
}

/// The receiver and a UTF-8 string first argument of a method call, if that is what the
/// call passed (the fast paths below answer those in C; anything else takes the generic
/// path).
///
/// # Safety
/// `state` is the thread running a method closure with its arguments on the stack; the
/// name borrows argument 2, valid for the rest of the closure.
unsafe fn handle_and_name<'a>(state: *mut ffi::lua_State) -> Option<(Handle, &'a str)> {
    // SAFETY: per the caller's contract; `lua_tolstring` on a string argument returns its
    // bytes and length without converting anything.
    unsafe {
        let h = handle_at(state, 1)?;
        if ffi::lua_type(state, 2) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        let p = ffi::lua_tolstring(state, 2, &mut len);
        let name = std::str::from_utf8(std::slice::from_raw_parts(p.cast::<u8>(), len)).ok()?;
        Some((h, name))
    }
}

/// A generic method closure.
///
/// # Safety
/// Only the VM calls this, as a method closure made by [`method`] (upvalue 1: the method's
/// mlua function), with the call's arguments and LUA_MINSTACK free slots. It may raise a
/// Lua error; its frames own nothing.
unsafe extern "C-unwind" fn method_trampoline(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM calls this closure (made by `method`) with its arguments and
    // LUA_MINSTACK free slots.
    unsafe { call_method(state) }
}

/// `handle:FindFirstChild(name, recursive?)`.
///
/// # Safety
/// As [`method_trampoline`], for the `FindFirstChild` closure.
unsafe extern "C-unwind" fn find_first_child(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `method_trampoline`; the name's bytes stay on the stack for the call.
    unsafe {
        let Some((h, name)) = handle_and_name(state) else { return call_method(state) };
        if ffi::lua_toboolean(state, 3) != 0 {
            // A recursive search is metered as it walks: the generic path.
            return call_method(state);
        }
        let found = on_live_instance(h, |w, id| {
            (w.find_first_child(id, name), w.get(id).map_or(0, |n| n.children().len()))
        });
        match found {
            Ok((_, children)) if crate::budget::charge_instances(children).is_err() => {
                raise(state, Cow::Borrowed(crate::budget::BUDGET_MESSAGE))
            }
            Ok((Some(child), _)) => push_handle(state, child, h.world),
            Ok((None, _)) => ffi::lua_pushnil(state),
            Err(m) => raise(state, m),
        }
        1
    }
}

/// `handle:GetComponent(name)`: with a handle and a string name it answers in C (one world
/// borrow, the handle pushed directly); anything else takes the generic path.
///
/// # Safety
/// As [`method_trampoline`], for the `GetComponent` closure.
unsafe extern "C-unwind" fn get_component(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `find_first_child`.
    unsafe {
        let Some((h, name)) = handle_and_name(state) else { return call_method(state) };
        let found = on_live_instance(h, |w, id| {
            w.components().component(name).filter(|&c| w.components().has(id, c))
        });
        match found {
            Ok(Some(c)) => push_component(state, Id(h.id), c, h.world),
            Ok(None) => ffi::lua_pushnil(state),
            Err(m) => raise(state, m),
        }
        1
    }
}

/// Runs `f` on the world of `h` with `h`'s instance alive, guarded against panics: fails
/// with the slot's message when the world is busy or absent, and with [`DESTROYED`] when the
/// instance is gone.
///
/// # Safety
/// `h.world` points to a live `WorldSlot`, as for every handle of its VM (see
/// `handle::Handle`).
unsafe fn on_live_instance<R>(h: Handle, f: impl FnOnce(&Arena, Id) -> R) -> Result<R, Fail> {
    // SAFETY: per the contract, the slot outlives the handle.
    let slot = unsafe { &*h.world };
    guarded(|| {
        let w = slot.borrow().map_err(Cow::Borrowed)?;
        let id = Id(h.id);
        if !w.contains(id) {
            return Err(Cow::Borrowed(DESTROYED));
        }
        Ok(f(&w, id))
    })
}

/// Wraps the mlua method function `f` in the C closure `c` (upvalue 1 = `f`).
fn wrap(lua: &Lua, f: Function, c: ffi::lua_CFunction, name: &CStr) -> mlua::Result<Function> {
    // SAFETY: `exec_raw` runs this protected on a valid state with `f` pushed; the closure
    // takes it as its upvalue and is the only result.
    unsafe {
        lua.exec_raw::<Function>(f, |state| {
            ffi::lua_pushcclosurek(state, c, name.as_ptr(), 1, None);
        })
    }
}

/// The method closure for the mlua function `f` of method `name`.
pub fn method(lua: &Lua, name: &str, f: Function) -> mlua::Result<Function> {
    match name {
        "FindFirstChild" => wrap(lua, f, find_first_child, c"FindFirstChild"),
        "GetComponent" => wrap(lua, f, get_component, c"GetComponent"),
        _ => wrap(lua, f, method_trampoline, c"Instance method"),
    }
}
