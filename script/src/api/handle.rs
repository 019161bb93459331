//! Instance handles at the level of the Luau C API, for speed.
//!
//! A handle is a 16-byte tagged userdata ([`INSTANCE_TAG`]) holding the instance id and the
//! address of its VM's [`WorldSlot`]; its metatable is the tag's shared, frozen metatable
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

use super::convert::{Arg, Fail, Read};
use super::props::{self, Member};
use crate::state::{WorldSlot, world_slot};
use arbor_core::{Id, Vec3};
use mlua::{Lua, Table, Value, ffi};
use std::borrow::Cow;
use std::ffi::{c_char, c_int, c_void};
use std::panic::AssertUnwindSafe;

/// Luau userdata tag of Instance handles. mlua marks destructed userdata with tag 1 and
/// allocates its own userdata untagged, so any tag from 2 to 127 is free.
pub const INSTANCE_TAG: c_int = 64;

/// The contents of a handle userdata.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct Handle {
    /// The instance id.
    pub(super) id: u64,
    /// The world slot of the VM that created the handle; kept alive by the `Rc` in that
    /// VM's app data, which mlua drops only after `lua_close`.
    pub(super) world: *const WorldSlot,
}

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

/// The handle at stack index `idx`, if that value is an Instance handle.
///
/// # Safety
/// `state` is a live Lua thread and `idx` an acceptable index of its stack.
pub(super) unsafe fn handle_at(state: *mut ffi::lua_State, idx: c_int) -> Option<Handle> {
    // SAFETY: per the caller's contract; returns null unless the value is a userdata with
    // our tag.
    let p = unsafe { ffi::lua_touserdatatagged(state, idx, INSTANCE_TAG) }.cast::<Handle>();
    // SAFETY: userdata with INSTANCE_TAG are created only by `push_handle`, which writes a
    // whole `Handle` into a block of its size; Luau aligns userdata blocks for any scalar.
    (!p.is_null()).then(|| unsafe { p.read() })
}

/// Pushes a handle to `id` in the VM whose world slot is `world`.
///
/// # Safety
/// `state` is a live thread of a VM where [`install`] ran, with a free stack slot, and
/// `world` is that VM's slot.
pub(super) unsafe fn push_handle(state: *mut ffi::lua_State, id: Id, world: *const WorldSlot) {
    // SAFETY: per the caller's contract the tag's metatable is set, so the new userdata
    // gets it; the block is `size_of::<Handle>()` bytes, suitably aligned.
    unsafe {
        let p = ffi::lua_newuserdatataggedwithmetatable(state, size_of::<Handle>(), INSTANCE_TAG);
        p.cast::<Handle>().write(Handle { id: id.0, world });
    }
}

/// The key at `idx` as bytes and member. Numbers are converted to strings in place (as Lua
/// does); other types are refused.
///
/// # Safety
/// `state` is the thread running the calling C function and `idx` one of its arguments.
unsafe fn key_at<'a>(state: *mut ffi::lua_State, idx: c_int) -> Result<(&'a [u8], Option<Member>), Fail> {
    let mut len = 0usize;
    let mut atom: c_int = -1;
    // SAFETY: `idx` is a valid index; the returned bytes stay valid while the argument
    // stays on the stack, i.e. for the rest of the calling C function.
    unsafe {
        let mut p = ffi::lua_tolstringatom(state, idx, &mut len, &mut atom);
        if p.is_null() {
            if ffi::lua_type(state, idx) != ffi::LUA_TNUMBER {
                return Err(Cow::Owned(format!(
                    "attempt to index an Instance with a {}",
                    type_name_at(state, idx)
                )));
            }
            p = ffi::lua_tolstring(state, idx, &mut len);
            atom = -1;
        }
        let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
        // Atoms are assigned by `user_atom`, so -1 means "not a member"; the name check
        // covers a string whose atom was fixed before the callback was installed.
        let member =
            Member::from_atom(atom).or_else(|| if atom < 0 { Member::from_name(bytes) } else { None });
        Ok((bytes, member))
    }
}

/// The type name of the value at `idx`, as error messages spell it.
///
/// # Safety
/// `state` is a live thread and `idx` an acceptable index.
pub(super) unsafe fn type_name_at(state: *mut ffi::lua_State, idx: c_int) -> &'static str {
    // SAFETY: per the caller's contract.
    match unsafe { ffi::lua_type(state, idx) } {
        ffi::LUA_TNIL | ffi::LUA_TNONE => "nil",
        ffi::LUA_TBOOLEAN => "boolean",
        ffi::LUA_TLIGHTUSERDATA => "lightuserdata",
        ffi::LUA_TNUMBER => "number",
        ffi::LUA_TINTEGER => "integer",
        ffi::LUA_TVECTOR => "Vector3",
        ffi::LUA_TSTRING => "string",
        ffi::LUA_TTABLE => "table",
        ffi::LUA_TFUNCTION => "function",
        // SAFETY: per the caller's contract.
        ffi::LUA_TUSERDATA if unsafe { handle_at(state, idx) }.is_some() => "Instance",
        ffi::LUA_TUSERDATA => "userdata",
        ffi::LUA_TTHREAD => "thread",
        ffi::LUA_TBUFFER => "buffer",
        _ => "value",
    }
}

/// The value at `idx` as a property argument.
///
/// # Safety
/// `state` is the thread running the calling C function and `idx` one of its arguments
/// (borrowed bytes live as long as the argument).
pub(super) unsafe fn arg_at<'a>(state: *mut ffi::lua_State, idx: c_int) -> Arg<'a> {
    // SAFETY: per the caller's contract; each accessor matches the type just checked.
    unsafe {
        match ffi::lua_type(state, idx) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Arg::Nil,
            ffi::LUA_TBOOLEAN => Arg::Bool(ffi::lua_toboolean(state, idx) != 0),
            ffi::LUA_TNUMBER => Arg::Number(ffi::lua_tonumber(state, idx)),
            ffi::LUA_TVECTOR => {
                let v = ffi::lua_tovector(state, idx);
                Arg::Vector(Vec3::new(*v, *v.add(1), *v.add(2)))
            }
            ffi::LUA_TSTRING => {
                let mut len = 0usize;
                let p = ffi::lua_tolstring(state, idx, &mut len);
                Arg::Str(std::slice::from_raw_parts(p.cast::<u8>(), len))
            }
            ffi::LUA_TUSERDATA => match handle_at(state, idx) {
                Some(h) => Arg::Instance(Id(h.id)),
                None => Arg::Other("userdata"),
            },
            _ => Arg::Other(type_name_at(state, idx)),
        }
    }
}

/// Runs `f`, turning a Rust panic into an error message.
pub(super) fn guarded<R>(f: impl FnOnce() -> Result<R, Fail>) -> Result<R, Fail> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(Cow::Owned(format!("internal error: {what}")))
    })
}

/// Raises `message` as a Lua error at the calling script's line (like `error(m, 2)` from a
/// Lua metamethod).
///
/// # Safety
/// `state` is the thread running the calling C function, which has a free stack slot for
/// the message and one for the position.
pub(super) unsafe fn raise(state: *mut ffi::lua_State, message: Fail) -> ! {
    // SAFETY: per the caller's contract. The message is copied into Lua and dropped before
    // `lua_error` unwinds, so nothing Rust owns is skipped.
    unsafe {
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        drop(message);
        ffi::luaL_where(state, 1);
        ffi::lua_insert(state, -2);
        ffi::lua_concat(state, 2);
        ffi::lua_error(state)
    }
}

/// Pushes a property read.
///
/// # Safety
/// `state` is the thread running the calling C function, with a free stack slot; `world`
/// is its VM's slot.
unsafe fn push_read(state: *mut ffi::lua_State, read: &Read, world: *const WorldSlot) {
    // SAFETY: per the caller's contract.
    unsafe {
        match read {
            Read::Bool(b) => ffi::lua_pushboolean(state, c_int::from(*b)),
            Read::Number(n) => ffi::lua_pushnumber(state, *n),
            Read::Vector(v) => ffi::lua_pushvector(state, v.x, v.y, v.z),
            Read::Static(s) => {
                ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
            }
            Read::Inline(buf, len) => {
                ffi::lua_pushlstring(state, buf.as_ptr().cast(), usize::from(*len));
            }
            Read::Owned(s) => {
                ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
            }
            Read::Instance(None) => ffi::lua_pushnil(state),
            Read::Instance(Some(id)) => push_handle(state, *id, world),
        }
    }
}

/// Pushes `handle.key` for the index metamethod and its direct-access twin.
///
/// # Safety
/// `state` is the thread running the calling C function (index or direct callback) whose
/// function is the `__index` closure (upvalue 1: methods by atom), with the key at index 2
/// and free stack slots; `key` borrows that argument.
unsafe fn index(state: *mut ffi::lua_State, h: Handle, key: &[u8], member: Option<Member>) -> c_int {
    // SAFETY: per the caller's contract; `raise` never returns.
    unsafe {
        if let Some(m) = member.filter(|m| m.is_method()) {
            ffi::lua_rawgeti(state, ffi::lua_upvalueindex(1), ffi::lua_Integer::from(m as u8));
            return 1;
        }
        // SAFETY (deref): the slot outlives every handle of its VM (see `Handle::world`).
        let slot = &*h.world;
        let read = guarded(|| {
            let w = slot.borrow().map_err(Cow::Borrowed)?;
            props::read(&w, Id(h.id), member, key)
        });
        match read {
            Ok(read) => {
                push_read(state, &read, h.world);
                1
            }
            Err(m) => raise(state, m),
        }
    }
}

/// Performs `handle.key = value` (value at index 3) for the newindex metamethod and its
/// direct-access twin.
///
/// # Safety
/// `state` is the thread running the calling C function with the value at index 3 and
/// free stack slots; `key` borrows one of its arguments.
unsafe fn newindex(state: *mut ffi::lua_State, h: Handle, key: &[u8], member: Option<Member>) {
    // SAFETY: per the caller's contract; the value's bytes stay on the stack for the call.
    unsafe {
        let value = arg_at(state, 3);
        // SAFETY (deref): the slot outlives every handle of its VM (see `Handle::world`).
        let slot = &*h.world;
        let written = guarded(|| {
            let mut w = slot.borrow().map_err(Cow::Borrowed)?;
            props::write(&mut w, Id(h.id), member, key, &value)
        });
        if let Err(m) = written {
            raise(state, m);
        }
    }
}

/// `__index(handle, key)`: a method (from upvalue 1, by atom), a property, or a child.
///
/// # Safety
/// Only the VM calls this, as the `__index` closure of [`INSTANCE_TAG`]'s metatable made by
/// [`install`] (upvalue 1: the methods by atom), with the indexed value and the key as its two
/// arguments and LUA_MINSTACK free slots. It may raise a Lua error; its frames own nothing.
unsafe extern "C-unwind" fn instance_index(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM calls this C function (the `__index` closure) with its two arguments
    // on the stack and LUA_MINSTACK free slots; `raise` never returns.
    unsafe {
        let Some(h) = handle_at(state, 1) else { raise(state, Cow::Borrowed(NOT_AN_INSTANCE)) };
        match key_at(state, 2) {
            Ok((key, member)) => index(state, h, key, member),
            Err(m) => raise(state, m),
        }
    }
}

/// `__newindex(handle, key, value)`: a property write.
///
/// # Safety
/// Only the VM calls this, as the `__newindex` metamethod of [`INSTANCE_TAG`], with the
/// value, key and assigned value as its three arguments and LUA_MINSTACK free slots. It may
/// raise a Lua error; its frames own nothing.
unsafe extern "C-unwind" fn instance_newindex(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `instance_index`, with three arguments.
    unsafe {
        let Some(h) = handle_at(state, 1) else { raise(state, Cow::Borrowed(NOT_AN_INSTANCE)) };
        match key_at(state, 2) {
            Ok((key, member)) => newindex(state, h, key, member),
            Err(m) => raise(state, m),
        }
        0
    }
}

/// Luau's direct userdata access callback (`lua_UserdataDirectAccess`).
type DirectAccess = unsafe extern "C-unwind" fn(*mut ffi::lua_State, *mut c_void, c_int, *mut u16, c_int);
/// Luau's direct userdata namecall callback (`lua_UserdataDirectNamecall`).
type DirectNamecall =
    unsafe extern "C-unwind" fn(*mut ffi::lua_State, *mut c_void, c_int, *mut u16, c_int) -> c_int;

unsafe extern "C-unwind" {
    /// Luau (`lua.h`, marked experimental): for userdata with `tag`, `GETTABLEKS` /
    /// `SETTABLEKS` / `NAMECALL` with a constant key that has an atom call these callbacks
    /// directly (the VM rewrites them to `GETUDATAKS` / `SETUDATAKS` / `NAMECALLUDATA` at
    /// load), with a C call frame whose function is the metatable's metamethod, instead of
    /// going through the generic metamethod call. Returns 0 if the tag has no metatable.
    fn lua_registeruserdatadirectaccess(
        state: *mut ffi::lua_State,
        tag: c_int,
        get: Option<DirectAccess>,
        set: Option<DirectAccess>,
        namecall: Option<DirectNamecall>,
    ) -> c_int;
}

/// Direct-access `__index`: `data` is the handle's block and `atom` the key's atom (>= 0).
///
/// # Safety
/// Only the VM calls this, through `lua_registeruserdatadirectaccess` for userdata of
/// [`INSTANCE_TAG`]: `data` is the block of a live handle and the call frame is one of the
/// `__index` closure, with the handle and key as arguments. It may raise a Lua error.
unsafe extern "C-unwind" fn direct_index(
    state: *mut ffi::lua_State,
    data: *mut c_void,
    atom: c_int,
    _slot: *mut u16,
    _tag: c_int,
) {
    // SAFETY: the VM calls this only for userdata with INSTANCE_TAG (whose block holds a
    // `Handle`, see `handle_at`), inside a C frame of the `__index` closure with the handle
    // and key as arguments; the result is taken from the top of the stack.
    unsafe {
        let h = data.cast::<Handle>().read();
        match Member::from_atom(atom) {
            Some(m) => {
                index(state, h, m.name().as_bytes(), Some(m));
            }
            None => match key_at(state, 2) {
                Ok((key, member)) => {
                    index(state, h, key, member);
                }
                Err(m) => raise(state, m),
            },
        }
    }
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
    // SAFETY: as in `direct_index`, in a frame of the `__newindex` closure with the
    // handle, key and value as arguments.
    unsafe {
        let h = data.cast::<Handle>().read();
        match Member::from_atom(atom) {
            Some(m) => newindex(state, h, m.name().as_bytes(), Some(m)),
            None => match key_at(state, 2) {
                Ok((key, member)) => newindex(state, h, key, member),
                Err(m) => raise(state, m),
            },
        }
    }
}

/// `__eq(a, b)`: two handles to the same instance.
///
/// # Safety
/// Only the VM calls this, as the `__eq` metamethod of [`INSTANCE_TAG`], with two arguments
/// and a free stack slot.
unsafe extern "C-unwind" fn instance_eq(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by the VM with two arguments and free stack slots.
    unsafe {
        let same = matches!((handle_at(state, 1), handle_at(state, 2)), (Some(a), Some(b)) if a.id == b.id);
        ffi::lua_pushboolean(state, c_int::from(same));
    }
    1
}

/// `__tostring(handle)`: the instance's name, or `<destroyed Instance>`.
///
/// # Safety
/// As [`instance_index`], as the `__tostring` metamethod with one argument.
unsafe extern "C-unwind" fn instance_tostring(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `instance_index`.
    unsafe {
        let Some(h) = handle_at(state, 1) else { raise(state, Cow::Borrowed(NOT_AN_INSTANCE)) };
        let slot = &*h.world;
        let text = guarded(|| {
            let w = slot.borrow().map_err(Cow::Borrowed)?;
            Ok(Read::text(w.name_of(Id(h.id)).unwrap_or("<destroyed Instance>")))
        });
        match text {
            Ok(read) => {
                push_read(state, &read, h.world);
                1
            }
            Err(m) => raise(state, m),
        }
    }
}

/// The error for a method called with `.` instead of `:` (or a metamethod misused).
pub const NOT_AN_INSTANCE: &str = "expected an Instance (use ':' to call methods)";

/// Installs the `useratom` callback. Must run before any script is loaded, so the member
/// names in every chunk's constants get their atoms.
pub fn install_atoms(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: `exec_raw` hands us a valid state of this VM; the callbacks table belongs to
    // the VM's global state; the function pointer is 'static and only reads its arguments.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            (*ffi::lua_callbacks(state)).useratom = Some(user_atom);
        })
    }
}

/// Sets the Instance metatable (frozen) for [`INSTANCE_TAG`]; `methods` maps each method
/// name of [`Member`] to its function.
pub fn install(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    let by_atom = lua.create_table()?;
    for m in Member::methods() {
        by_atom.raw_set(m as u8, methods.get::<mlua::Function>(m.name())?)?;
    }
    by_atom.set_readonly(true);
    // SAFETY: `exec_raw` runs the closure protected, on a valid state with `by_atom` pushed
    // and room for 3 more values (checked by `exec_raw`); each push is matched by a
    // set/pop, and the tag's metatable is assigned once per VM (this runs once per host).
    unsafe {
        lua.exec_raw::<()>(by_atom, |state| {
            ffi::lua_createtable(state, 0, 5);
            ffi::lua_pushvalue(state, -2);
            ffi::lua_pushcclosurek(state, instance_index, c"Instance.__index".as_ptr(), 1, None);
            ffi::lua_setfield(state, -2, c"__index".as_ptr());
            ffi::lua_pushcclosurek(state, instance_newindex, c"Instance.__newindex".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__newindex".as_ptr());
            ffi::lua_pushcclosurek(state, instance_eq, c"Instance.__eq".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__eq".as_ptr());
            ffi::lua_pushcclosurek(state, instance_tostring, c"Instance.__tostring".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__tostring".as_ptr());
            ffi::lua_pushstring(state, c"Instance".as_ptr());
            ffi::lua_setfield(state, -2, c"__type".as_ptr());
            ffi::lua_setreadonly(state, -1, 1);
            ffi::lua_setuserdatametatable(state, INSTANCE_TAG);
            ffi::lua_pop(state, 1);
            lua_registeruserdatadirectaccess(
                state,
                INSTANCE_TAG,
                Some(direct_index),
                Some(direct_newindex),
                None,
            );
        })
    }
}

/// A handle to `id` (or nil) as an mlua value.
pub fn instance_value(lua: &Lua, id: Option<Id>) -> mlua::Result<Value> {
    let Some(id) = id else { return Ok(Value::Nil) };
    let world = std::rc::Rc::as_ptr(&world_slot(lua)?);
    // SAFETY: `exec_raw` gives a valid state of this VM (whose metatable `install` set)
    // with stack room checked; `world` is this VM's slot.
    unsafe { lua.exec_raw::<Value>((), |state| push_handle(state, id, world)) }
}

/// A table of handles to `ids` (a sequence).
pub fn instance_list(lua: &Lua, ids: &[Id]) -> mlua::Result<Table> {
    let world = std::rc::Rc::as_ptr(&world_slot(lua)?);
    let n = c_int::try_from(ids.len()).map_err(|_| mlua::Error::runtime("too many instances"))?;
    // SAFETY: as in `instance_value`; the table stays at the top while each handle is
    // pushed and popped into it (one extra slot).
    unsafe {
        lua.exec_raw::<Table>((), |state| {
            ffi::lua_createtable(state, n, 0);
            for (i, &id) in ids.iter().enumerate() {
                push_handle(state, id, world);
                ffi::lua_rawseti(state, -2, i as ffi::lua_Integer + 1);
            }
        })
    }
}

/// The instance id of `v`, if it is an Instance handle.
pub fn instance_id(lua: &Lua, v: &Value) -> Option<Id> {
    let Value::UserData(ud) = v else { return None };
    // SAFETY: `exec_raw` pushes `ud` on a valid state; we read it, pop it and push a number
    // or nil in its place (the only result).
    let id = unsafe {
        lua.exec_raw::<Option<f64>>(ud, |state| {
            let handle = handle_at(state, -1);
            ffi::lua_pop(state, 1);
            match handle {
                Some(h) => ffi::lua_pushnumber(state, h.id as f64),
                None => ffi::lua_pushnil(state),
            }
        })
    };
    // Ids are below 2^53, so the round trip through f64 is exact.
    id.ok().flatten().map(|n| Id(n as u64))
}
