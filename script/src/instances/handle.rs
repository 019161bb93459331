//! Instance handles at the level of the Luau C API, for speed. The stack work is the
//! bottom layer's (`luau`: the handle's block, [`CallFrame`], the metatable); this module is
//! the metamethods' logic, safe Rust apart from entering a frame and raising from it.
//!
//! A handle is a 16-byte tagged userdata ([`INSTANCE_TAG`]) holding the instance id and the
//! address of its VM's `WorldSlot`; its metatable is the tag's shared, frozen metatable
//! (assigned at creation without a lookup) with `__index`, `__newindex`, `__eq` and
//! `__tostring` written as plain C functions. Dispatch uses Luau *string atoms*: a small
//! integer cached inside each interned string, assigned once per string by [`user_atom`]
//! (the `useratom` callback) to the names in [`Member`], so a property is found by a `match`
//! on an integer, never by hashing or comparing the key.
//!
//! A property read `part.Position` takes one of two paths:
//!
//! - **Direct access** (the usual one). When a chunk is loaded, Luau rewrites every
//!   `GETTABLEKS`/`SETTABLEKS` whose constant key has an atom into `GETUDATAKS`/`SETUDATAKS`;
//!   for userdata of a tag registered with `lua_registeruserdatadirectaccess`, those call
//!   [`direct_index`] / [`direct_newindex`] with the handle's block and the key's atom,
//!   skipping the generic metamethod lookup and call. (Luau marks this API experimental and
//!   mlua does not bind it; the declaration below matches the vendored Luau 0.740 and the
//!   tests exercise it through every property access with a constant key.)
//! - **Metamethods**, for everything else (computed keys like `part[name]`, and keys
//!   without an atom, such as child names): [`instance_index`] reads the handle with
//!   `lua_touserdatatagged` (a tag compare) and the key's atom with `lua_tolstringatom`.
//!
//! Both borrow the world once, read or write the node, release the borrow and push the
//! result: `Vector3`s as Luau's native `vector` (an unboxed value, no allocation), strings
//! from static or inline storage. No Rust allocation happens on the path and no
//! `(ok, value)` tuple goes through a Lua prelude: errors are raised from the C function
//! itself, prefixed with the calling script's chunk and line (`luaL_where(L, 1)`), with the
//! same text as before. Rust panics are caught and turned into Lua errors, so a script cannot
//! panic the server through a handle.
//!
//! Methods (`FindFirstChild`, ...) are found by atom in an array held as the `__index`
//! closure's upvalue; each is a C trampoline (`trampoline`) around an mlua function.
//!
//! Budget: a property access is not a Luau `CALL`, so it costs no budget unit (the
//! enclosing loop's back-edge still does); a method call costs its `CALL`.

use super::props::{self, Member};
use crate::luau::{self, CallFrame, DirectAccess, Fail, Handle, INSTANCE_TAG, Metamethod, Read, guarded};
use mlua::{Lua, Table, ffi};
use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_void};

pub use crate::luau::{instance_id, instance_list, instance_value};

/// The `useratom` callback: gives each [`Member`] name its atom, every other string -1.
///
/// # Safety
/// Called by Luau with a pointer to `len` readable bytes.
pub unsafe extern "C-unwind" fn user_atom(_: *mut ffi::lua_State, s: *const c_char, len: usize) -> i16 {
    if !(2..=14).contains(&len) {
        return -1;
    }
    // SAFETY: Luau hands us the string's bytes and their length; they outlive this call.
    let bytes = unsafe { std::slice::from_raw_parts(s.cast::<u8>(), len) };
    Member::from_name(bytes).map_or(-1, |m| i16::from(m as u8))
}

/// The error for a method called with `.` instead of `:` (or a metamethod misused).
pub const NOT_AN_INSTANCE: &str = "expected an Instance (use ':' to call methods)";

/// Argument 1 as the receiving handle.
fn receiver(f: &CallFrame) -> Result<Handle<'_>, Fail> {
    f.handle(1).ok_or(Cow::Borrowed(NOT_AN_INSTANCE))
}

/// The key at argument 2 as bytes and member. Numbers are converted to strings in place (as
/// Lua does); other types are refused.
fn key(f: &CallFrame) -> Result<(&[u8], Option<Member>), Fail> {
    let Some((bytes, atom)) = f.key(2) else {
        return Err(Cow::Owned(format!("attempt to index an Instance with a {}", f.type_name(2))));
    };
    // Atoms are assigned by `user_atom`, so -1 means "not a member"; the name check covers a
    // string whose atom was fixed before the callback was installed.
    let member = Member::from_atom(atom).or_else(|| if atom < 0 { Member::from_name(bytes) } else { None });
    Ok((bytes, member))
}

/// Pushes `handle.key`: a method (from upvalue 1 of the `__index` closure, by atom), a
/// property or a child.
fn index(f: &CallFrame, h: Handle<'_>, key: &[u8], member: Option<Member>) -> Result<(), Fail> {
    if let Some(m) = member.filter(|m| m.is_method()) {
        f.push_upvalue_entry(1, ffi::lua_Integer::from(m as u8));
        return Ok(());
    }
    let read = guarded(|| {
        let w = h.slot().borrow().map_err(Cow::Borrowed)?;
        props::read(&w, h.instance(), member, key)
    })?;
    f.push_read(&read, h.world());
    Ok(())
}

/// Performs `handle.key = value` (value at argument 3).
fn newindex(f: &CallFrame, h: Handle<'_>, key: &[u8], member: Option<Member>) -> Result<(), Fail> {
    let value = f.arg(3);
    guarded(|| {
        let mut w = h.slot().borrow().map_err(Cow::Borrowed)?;
        props::write(&mut w, h.instance(), member, key, &value)
    })
}

/// `__index(handle, key)`: a method (from upvalue 1, by atom), a property, or a child.
///
/// # Safety
/// Only the VM calls this, as the `__index` closure of [`INSTANCE_TAG`]'s metatable made by
/// [`install`] (upvalue 1: the methods by atom), with the indexed value and the key as its two
/// arguments and LUA_MINSTACK free slots.
unsafe extern "C-unwind" fn instance_index(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this metamethod with its two arguments (the contract above).
    let f = unsafe { CallFrame::enter_metamethod(state, 2) };
    let done = receiver(&f).and_then(|h| {
        let (k, m) = key(&f)?;
        index(&f, h, k, m).map(|()| 1)
    });
    // SAFETY: this frame owns nothing with a destructor (`done` is consumed).
    unsafe { f.finish(done) }
}

/// `__newindex(handle, key, value)`: a property write.
///
/// # Safety
/// Only the VM calls this, as the `__newindex` metamethod of [`INSTANCE_TAG`], with the
/// value, key and assigned value as its three arguments and LUA_MINSTACK free slots.
unsafe extern "C-unwind" fn instance_newindex(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this metamethod with its three arguments.
    let f = unsafe { CallFrame::enter_metamethod(state, 3) };
    let done = receiver(&f).and_then(|h| {
        let (k, m) = key(&f)?;
        newindex(&f, h, k, m).map(|()| 0)
    });
    // SAFETY: as in `instance_index`.
    unsafe { f.finish(done) }
}

/// The member of a direct access's key atom, or the key itself for an atom that is not a
/// member's (a string atom from before the callback).
fn direct_key(f: &CallFrame, atom: c_int) -> Result<(&[u8], Option<Member>), Fail> {
    match Member::from_atom(atom) {
        Some(m) => Ok((m.name().as_bytes(), Some(m))),
        None => key(f),
    }
}

/// Direct-access `__index`: `data` is the handle's block and `atom` the key's atom (>= 0).
///
/// # Safety
/// Only the VM calls this, through the direct access `install` registers for userdata of
/// [`INSTANCE_TAG`]: `data` is the block of a live handle and the call frame is one of the
/// `__index` closure, with the handle and key as arguments.
unsafe extern "C-unwind" fn direct_index(
    state: *mut ffi::lua_State,
    data: *mut c_void,
    atom: c_int,
    _slot: *mut u16,
    _tag: c_int,
) {
    // SAFETY: per the contract, a frame of the `__index` closure with its two arguments, and
    // `data` a handle's block.
    let (f, h) = unsafe { (CallFrame::enter_metamethod(state, 2), luau::handle_in_block(data)) };
    let done = direct_key(&f, atom).and_then(|(k, m)| index(&f, h, k, m).map(|()| 1));
    // SAFETY: as in `instance_index`; the result is taken from the top of the stack.
    unsafe { f.finish(done) };
}

/// Direct-access `__newindex`, as [`direct_index`] with the value as third argument.
///
/// # Safety
/// As [`direct_index`], in a frame of the `__newindex` metamethod with the handle, the key and
/// the assigned value as arguments.
unsafe extern "C-unwind" fn direct_newindex(
    state: *mut ffi::lua_State,
    data: *mut c_void,
    atom: c_int,
    _slot: *mut u16,
    _tag: c_int,
) {
    // SAFETY: as in `direct_index`, with the three arguments of `__newindex`.
    let (f, h) = unsafe { (CallFrame::enter_metamethod(state, 3), luau::handle_in_block(data)) };
    let done = direct_key(&f, atom).and_then(|(k, m)| newindex(&f, h, k, m).map(|()| 0));
    // SAFETY: as in `instance_index`.
    unsafe { f.finish(done) };
}

/// `__eq(a, b)`: two handles to the same instance.
///
/// # Safety
/// Only the VM calls this, as the `__eq` metamethod of [`INSTANCE_TAG`], with two arguments.
unsafe extern "C-unwind" fn instance_eq(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call.
    let f = unsafe { CallFrame::enter(state) };
    f.push_bool(matches!((f.handle(1), f.handle(2)), (Some(a), Some(b)) if a.instance() == b.instance()));
    1
}

/// `__tostring(handle)`: the instance's name, or `<destroyed Instance>`.
///
/// # Safety
/// As [`instance_index`], as the `__tostring` metamethod with one argument.
unsafe extern "C-unwind" fn instance_tostring(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call.
    let f = unsafe { CallFrame::enter(state) };
    let done = receiver(&f).and_then(|h| {
        let text = guarded(|| {
            let w = h.slot().borrow().map_err(Cow::Borrowed)?;
            Ok(Read::text(w.name_of(h.instance()).unwrap_or("<destroyed Instance>")))
        })?;
        f.push_read(&text, h.world());
        Ok(1)
    });
    // SAFETY: as in `instance_index`.
    unsafe { f.finish(done) }
}

/// Installs the `useratom` callback. Must run before any script is loaded, so the member
/// names in every chunk's constants get their atoms.
pub fn install_atoms(lua: &Lua) -> mlua::Result<()> {
    luau::install_atoms(lua, user_atom)
}

/// Sets the Instance metatable (frozen) for [`INSTANCE_TAG`], with direct access; `methods`
/// maps each method name of [`Member`] to its function.
pub fn install(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    let by_atom = lua.create_table()?;
    for m in Member::methods() {
        by_atom.raw_set(m as u8, methods.get::<mlua::Function>(m.name())?)?;
    }
    by_atom.set_readonly(true);
    let entry =
        |field, name, f: ffi::lua_CFunction, with_upvalue| Metamethod { field, name, f, with_upvalue };
    luau::metatable(
        lua,
        INSTANCE_TAG,
        c"Instance",
        &[
            entry(c"__index", c"Instance.__index", instance_index, true),
            entry(c"__newindex", c"Instance.__newindex", instance_newindex, false),
            entry(c"__eq", c"Instance.__eq", instance_eq, false),
            entry(c"__tostring", c"Instance.__tostring", instance_tostring, false),
        ],
        Some(by_atom),
    )?;
    luau::direct_access(lua, INSTANCE_TAG, direct_index as DirectAccess, direct_newindex as DirectAccess)
}
