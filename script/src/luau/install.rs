//! Installing C functions in a VM: the frozen metatable of a userdata tag, the `useratom`
//! callback, Luau's direct userdata access, and C closures around mlua functions.
//!
//! Each of these runs once per VM, while the host is built, inside mlua's `exec_raw` (a
//! protected call with stack room checked), and leaves the stack as it found it.

use mlua::{Function, Lua, Table, ffi};
use std::ffi::{CStr, c_char, c_int, c_void};

/// One metamethod of a tag's metatable: the field (`__index`), the closure's debug name and
/// the C function; `with_upvalue` gives it the metatable's upvalue table as upvalue 1.
pub(crate) struct Metamethod {
    /// The metatable field, e.g. `c"__index"`.
    pub field: &'static CStr,
    /// The closure's name in tracebacks, e.g. `c"Instance.__index"`.
    pub name: &'static CStr,
    /// The C function.
    pub f: ffi::lua_CFunction,
    /// Whether the closure takes the upvalue table given to [`metatable`].
    pub with_upvalue: bool,
}

/// Sets the frozen metatable of userdata `tag`: the `methods`, and `__type` = `type_name`.
/// `upvalue` is handed to the metamethods that ask for it.
pub(crate) fn metatable(
    lua: &Lua,
    tag: c_int,
    type_name: &'static CStr,
    methods: &[Metamethod],
    upvalue: Option<Table>,
) -> mlua::Result<()> {
    let fields = c_int::try_from(methods.len() + 1).unwrap_or(c_int::MAX);
    // SAFETY: `exec_raw` runs the closure protected, on a valid state with `upvalue` (or
    // nil) pushed at `base` and room for the three values pushed at once; each push is
    // matched by a set, and the metatable is consumed by `lua_setuserdatametatable`, which
    // runs once per tag per VM (once per host).
    unsafe {
        lua.exec_raw::<()>(upvalue, |state| {
            let base = ffi::lua_gettop(state);
            ffi::lua_createtable(state, 0, fields);
            for m in methods {
                let upvalues = if m.with_upvalue {
                    ffi::lua_pushvalue(state, base);
                    1
                } else {
                    0
                };
                ffi::lua_pushcclosurek(state, m.f, m.name.as_ptr(), upvalues, None);
                ffi::lua_setfield(state, -2, m.field.as_ptr());
            }
            ffi::lua_pushstring(state, type_name.as_ptr());
            ffi::lua_setfield(state, -2, c"__type".as_ptr());
            ffi::lua_setreadonly(state, -1, 1);
            ffi::lua_setuserdatametatable(state, tag);
            ffi::lua_settop(state, base - 1);
        })
    }
}

/// Luau's `useratom` callback: the atom of an interned string (-1: none).
pub(crate) type UserAtom = unsafe extern "C-unwind" fn(*mut ffi::lua_State, *const c_char, usize) -> i16;

/// Installs the `useratom` callback. Must run before any script is loaded, so the strings
/// in every chunk's constants get their atoms.
pub(crate) fn install_atoms(lua: &Lua, atom: UserAtom) -> mlua::Result<()> {
    // SAFETY: `exec_raw` hands us a valid state of this VM; the callbacks table belongs to
    // the VM's global state; the function pointer is 'static.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            (*ffi::lua_callbacks(state)).useratom = Some(atom);
        })
    }
}

/// Luau's direct userdata access callback (`lua_UserdataDirectAccess`).
pub(crate) type DirectAccess =
    unsafe extern "C-unwind" fn(*mut ffi::lua_State, *mut c_void, c_int, *mut u16, c_int);
/// Luau's direct userdata namecall callback (`lua_UserdataDirectNamecall`).
type DirectNamecall =
    unsafe extern "C-unwind" fn(*mut ffi::lua_State, *mut c_void, c_int, *mut u16, c_int) -> c_int;

unsafe extern "C-unwind" {
    /// Luau (`lua.h`, marked experimental): for userdata with `tag`, `GETTABLEKS` /
    /// `SETTABLEKS` / `NAMECALL` with a constant key that has an atom call these callbacks
    /// directly (the VM rewrites them to `GETUDATAKS` / `SETUDATAKS` / `NAMECALLUDATA` at
    /// load), with a C call frame whose function is the metatable's metamethod, instead of
    /// going through the generic metamethod call. Returns 0 if the tag has no metatable.
    /// mlua does not bind it; this declaration matches the vendored Luau 0.740.
    fn lua_registeruserdatadirectaccess(
        state: *mut ffi::lua_State,
        tag: c_int,
        get: Option<DirectAccess>,
        set: Option<DirectAccess>,
        namecall: Option<DirectNamecall>,
    ) -> c_int;
}

/// Registers `get` and `set` as the direct-access callbacks of userdata `tag`, whose
/// metatable [`metatable`] already set.
pub(crate) fn direct_access(lua: &Lua, tag: c_int, get: DirectAccess, set: DirectAccess) -> mlua::Result<()> {
    // SAFETY: `exec_raw` hands us a valid state of this VM; the call only records the two
    // 'static function pointers for the tag.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            lua_registeruserdatadirectaccess(state, tag, Some(get), Some(set), None);
        })
    }
}

/// The mlua function `f` wrapped in the C closure `c` (upvalue 1 = `f`), named `name`.
pub(crate) fn closure(lua: &Lua, f: Function, c: ffi::lua_CFunction, name: &CStr) -> mlua::Result<Function> {
    // SAFETY: `exec_raw` runs this protected on a valid state with `f` pushed; the closure
    // takes it as its upvalue and is the only result.
    unsafe {
        lua.exec_raw::<Function>(f, |state| {
            ffi::lua_pushcclosurek(state, c, name.as_ptr(), 1, None);
        })
    }
}
