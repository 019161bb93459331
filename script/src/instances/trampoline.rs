//! The C functions scripts call as Instance methods.
//!
//! Each method is a C closure whose upvalue 1 is the method's mlua function (returning a
//! [`MethodStatus`](super::instance::MethodStatus)). The generic closure checks the receiver
//! and hands the call to `CallFrame::call_method`, which passes the receiver's id in place of
//! the handle, wraps a returned id as a handle without an mlua round trip, and raises a
//! failure at the calling script's line (like `error(m, 2)`).
//!
//! `FindFirstChild` and `GetComponent`, the lookups scripts run most (the second once per
//! entity in a system's loop), have their own closures ([`find_first_child`],
//! [`get_component`]): with a handle and a string name they answer in C (one world borrow,
//! no mlua conversion, the children looked at charged to the budget); any other arguments,
//! and a recursive search, take the generic path, so the errors stay the same.
//! `SetAttribute`, the write scripts run most, has one too ([`set_attribute`]): a handle, a
//! text name and a nil, boolean, number, vector or text value are written in C, charged as
//! the generic path charges them; any other arguments take the generic path.

use super::handle::NOT_AN_INSTANCE;
use super::props::DESTROYED;
use crate::luau::{self, Arg, CallFrame, Fail, Handle, guarded};
use arbor_core::{Arena, AttributeValue, Id};
use mlua::{Function, Lua, ffi};
use std::borrow::Cow;
use std::ffi::c_int;

/// Hands the call to the mlua method in upvalue 1, or raises if argument 1 is no handle.
///
/// # Safety
/// `f` is the frame of a method closure made by [`method`], which owns nothing with a
/// destructor.
unsafe fn generic(f: CallFrame) -> c_int {
    // SAFETY: per the contract; `f` came from `CallFrame::enter`.
    unsafe { f.call_method(Cow::Borrowed(NOT_AN_INSTANCE)) }
}

/// Ends a closure with a fast path: its one result, its failure raised, or (`None`: the
/// arguments were not the fast path's) the generic path.
///
/// # Safety
/// As [`generic`]; a fast path that ran pushed its result and nothing else.
unsafe fn fast_or_generic(f: CallFrame, fast: Option<Result<(), Fail>>) -> c_int {
    match fast {
        Some(Ok(())) => 1,
        // SAFETY: per the contract.
        Some(Err(m)) => unsafe { f.raise(m) },
        // SAFETY: per the contract; nothing was pushed.
        None => unsafe { generic(f) },
    }
}

/// A generic method closure.
///
/// # Safety
/// Only the VM calls this, as a method closure made by [`method`] (upvalue 1: the method's
/// mlua function), with the call's arguments and LUA_MINSTACK free slots.
unsafe extern "C-unwind" fn method_trampoline(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call; this frame owns nothing.
    unsafe { generic(CallFrame::enter(state)) }
}

/// `handle:FindFirstChild(name, recursive?)`.
///
/// # Safety
/// As [`method_trampoline`], for the `FindFirstChild` closure.
unsafe extern "C-unwind" fn find_first_child(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call.
    let f = unsafe { CallFrame::enter(state) };
    // A recursive search is metered as it walks: the generic path.
    let fast = match (f.handle(1), f.text(2)) {
        (Some(h), Some(name)) if !f.is_truthy(3) => Some(find_child(&f, h, name)),
        _ => None,
    };
    // SAFETY: this frame owns nothing with a destructor (`fast` is consumed).
    unsafe { fast_or_generic(f, fast) }
}

/// Pushes the child of `h` named `name` (or nil), the children looked at charged to the
/// budget.
fn find_child(f: &CallFrame, h: Handle<'_>, name: &str) -> Result<(), Fail> {
    let (child, children) = on_live_instance(h, |w, id| {
        (w.find_first_child(id, name), w.get(id).map_or(0, |n| n.children().len()))
    })?;
    if crate::budget::charge_instances(children).is_err() {
        return Err(Cow::Borrowed(crate::budget::BUDGET_MESSAGE));
    }
    match child {
        Some(child) => f.push_handle(child, h.world()),
        None => f.push_nil(),
    }
    Ok(())
}

/// `handle:GetComponent(name)`: with a handle and a string name it answers in C (one world
/// borrow, the handle pushed directly); anything else takes the generic path.
///
/// # Safety
/// As [`method_trampoline`], for the `GetComponent` closure.
unsafe extern "C-unwind" fn get_component(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call.
    let f = unsafe { CallFrame::enter(state) };
    let fast = match (f.handle(1), f.text(2)) {
        (Some(h), Some(name)) => Some(find_component(&f, h, name)),
        _ => None,
    };
    // SAFETY: this frame owns nothing with a destructor (`fast` is consumed).
    unsafe { fast_or_generic(f, fast) }
}

/// Pushes the handle of component `name` of `h` (or nil when the instance lacks it).
fn find_component(f: &CallFrame, h: Handle<'_>, name: &str) -> Result<(), Fail> {
    let found =
        on_live_instance(h, |w, id| w.components().component(name).filter(|&c| w.components().has(id, c)))?;
    match found {
        Some(c) => f.push_component(h.instance(), c, h.world()),
        None => f.push_nil(),
    }
    Ok(())
}

/// `handle:SetAttribute(name, value)`: with a handle, a text name and a value of a simple
/// kind it writes in C (one world borrow); anything else takes the generic path.
///
/// # Safety
/// As [`method_trampoline`], for the `SetAttribute` closure.
unsafe extern "C-unwind" fn set_attribute(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call.
    let f = unsafe { CallFrame::enter(state) };
    let fast = match (f.handle(1), f.text(2)) {
        (Some(h), Some(name)) => write_attribute(h, name, f.arg(3)),
        _ => None,
    };
    if let Some(Ok(())) = fast {
        f.push_nil();
    }
    // SAFETY: this frame owns nothing with a destructor (`fast` is consumed); nil was pushed
    // for a write that ran.
    unsafe { fast_or_generic(f, fast) }
}

/// Writes attribute `name` of `h` when `value` is nil, a boolean, a number, a vector or text
/// (`None`: another kind, or the world not borrowable: the generic path words those). The
/// receiver must be live; the entry pays for the name's and a text value's bytes.
fn write_attribute(h: Handle<'_>, name: &str, value: Arg<'_>) -> Option<Result<(), Fail>> {
    let value = match value {
        Arg::Nil => None,
        Arg::Bool(b) => Some(AttributeValue::Bool(b)),
        Arg::Number(n) => Some(AttributeValue::Number(n)),
        Arg::Vector(v) => Some(AttributeValue::Vector3(v)),
        Arg::Str(s) => Some(AttributeValue::String(std::str::from_utf8(s).ok()?.into())),
        Arg::Instance(_) | Arg::Other(_) => return None,
    };
    let mut w = h.slot().borrow().ok()?;
    Some(guarded(|| {
        let id = h.instance();
        if !w.contains(id) {
            return Err(Cow::Borrowed(DESTROYED));
        }
        let copied = match &value {
            Some(AttributeValue::String(s)) => s.len(),
            _ => 0,
        };
        if crate::budget::charge(copied + name.len(), 0).is_err() {
            return Err(Cow::Borrowed(crate::budget::BUDGET_MESSAGE));
        }
        w.set_attribute(id, name, value).map(|_| ()).map_err(|e| Cow::Owned(e.describe(&w)))
    }))
}

/// Runs `f` on the world of `h` with `h`'s instance alive, guarded against panics: fails
/// with the slot's message when the world is busy or absent, and with [`DESTROYED`] when the
/// instance is gone.
fn on_live_instance<R>(h: Handle<'_>, f: impl FnOnce(&Arena, Id) -> R) -> Result<R, Fail> {
    guarded(|| {
        let w = h.slot().borrow().map_err(Cow::Borrowed)?;
        let id = h.instance();
        if !w.contains(id) {
            return Err(Cow::Borrowed(DESTROYED));
        }
        Ok(f(&w, id))
    })
}

/// The method closure for the mlua function `f` of method `name`.
pub fn method(lua: &Lua, name: &str, f: Function) -> mlua::Result<Function> {
    match name {
        "FindFirstChild" => luau::closure(lua, f, find_first_child, c"FindFirstChild"),
        "GetComponent" => luau::closure(lua, f, get_component, c"GetComponent"),
        "SetAttribute" => luau::closure(lua, f, set_attribute, c"SetAttribute"),
        _ => luau::closure(lua, f, method_trampoline, c"Instance method"),
    }
}
