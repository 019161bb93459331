//! [`CallFrame`]: the stack of one call the VM makes into one of our C functions.
//!
//! A frame is entered once, at the top of the C function (the one unsafe step: only the VM
//! may have called it). From then on its accessors read the call's arguments, checking each
//! value's type before reading it and answering "absent" past the last argument, and its
//! pushes go through Luau's own, which grow the stack first; so both are safe. Raising a Lua
//! error ([`CallFrame::raise`]) and calling back into Lua ([`CallFrame::call_method`]) stay unsafe
//! for one reason: they unwind the Rust frames above the C function, which must own nothing
//! with a destructor. Both consume the frame, so no borrowed argument outlives them.
//!
//! Invariants: bytes borrowed from an argument, and handles read from one, live as long as
//! the frame borrow that gave them (arguments stay on the stack until the call returns); a
//! frame's pushes never write past the stack (every Luau push grows the stack first, and
//! raises "stack overflow" when it cannot).
//!
//! Out of memory: a push or a number-to-string key conversion allocates, and Luau raises when
//! the VM's memory limit is reached (or the stack cannot grow). Owned values (a long name
//! being pushed) may then be alive in the frames it unwinds. That is sound because the
//! vendored Luau is built with C++ exceptions (not `longjmp`) and the workspace unwinds on
//! panic, so Rust runs their destructors as the error passes; `raise` and `call_method` keep
//! their stricter contract so that it holds under either build.

use super::userdata::{self, ComponentHandle, Handle, WorldRef};
use super::values::{Arg, Fail, Read};
use arbor_core::{Id, Vec3, components::ComponentId};
use mlua::ffi;
use std::borrow::Cow;
use std::ffi::c_int;
use std::panic::AssertUnwindSafe;

/// The stack of one C function call the VM is running (see the module docs).
pub(crate) struct CallFrame {
    state: *mut ffi::lua_State,
    /// The call's arguments sit at stack indices `1..=args`.
    args: c_int,
}

impl CallFrame {
    /// The frame of the running call, its arguments counted (`lua_gettop`): for closures
    /// called with any number of arguments.
    ///
    /// # Safety
    /// `state` is the thread on which the VM is running the calling C function right now,
    /// called by the VM itself (as a metamethod, a closure or a direct-access callback), and
    /// the frame is used only inside that call.
    #[inline(always)]
    pub unsafe fn enter(state: *mut ffi::lua_State) -> CallFrame {
        // SAFETY: per the caller's contract `state` is a live thread.
        let args = unsafe { ffi::lua_gettop(state) };
        CallFrame { state, args }
    }

    /// The frame of a running metamethod, which the VM calls with `args` arguments (`__index`:
    /// 2, `__newindex`: 3), without asking the VM to count them (one C call less on every
    /// property access). A script that calls the metamethod itself with fewer arguments gets
    /// the missing ones as none: indices up to `LUA_MINSTACK` past the top are acceptable
    /// indices, which Luau answers as none.
    ///
    /// # Safety
    /// As [`enter`](Self::enter), and `args <= 3`.
    #[inline(always)]
    pub unsafe fn enter_metamethod(state: *mut ffi::lua_State, args: c_int) -> CallFrame {
        CallFrame { state, args }
    }

    /// Whether `idx` is one of the call's arguments.
    #[inline(always)]
    fn has(&self, idx: c_int) -> bool {
        (1..=self.args).contains(&idx)
    }

    /// The Lua type of argument `idx` (`LUA_TNONE` past the last one).
    #[inline(always)]
    fn lua_type(&self, idx: c_int) -> c_int {
        if !self.has(idx) {
            return ffi::LUA_TNONE;
        }
        // SAFETY: `idx` is an argument of the running call.
        unsafe { ffi::lua_type(self.state, idx) }
    }

    /// Argument `idx` as an Instance handle, if it is one.
    #[inline(always)]
    pub fn handle(&self, idx: c_int) -> Option<Handle<'_>> {
        // SAFETY: `idx` is an argument of the running call.
        self.has(idx).then(|| unsafe { userdata::handle_at(self.state, idx) }).flatten()
    }

    /// Argument `idx` as a component handle, if it is one.
    #[inline(always)]
    pub fn component(&self, idx: c_int) -> Option<ComponentHandle<'_>> {
        // SAFETY: `idx` is an argument of the running call.
        self.has(idx).then(|| unsafe { userdata::component_at(self.state, idx) }).flatten()
    }

    /// The type name of argument `idx`, as error messages spell it.
    #[inline]
    pub fn type_name(&self, idx: c_int) -> &'static str {
        match self.lua_type(idx) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => "nil",
            ffi::LUA_TBOOLEAN => "boolean",
            ffi::LUA_TLIGHTUSERDATA => "lightuserdata",
            ffi::LUA_TNUMBER => "number",
            ffi::LUA_TINTEGER => "integer",
            ffi::LUA_TVECTOR => "Vector3",
            ffi::LUA_TSTRING => "string",
            ffi::LUA_TTABLE => "table",
            ffi::LUA_TFUNCTION => "function",
            ffi::LUA_TUSERDATA if self.handle(idx).is_some() => "Instance",
            ffi::LUA_TUSERDATA => "userdata",
            ffi::LUA_TTHREAD => "thread",
            ffi::LUA_TBUFFER => "buffer",
            _ => "value",
        }
    }

    /// Whether argument `idx` is truthy (neither nil, absent nor false).
    #[inline]
    pub fn is_truthy(&self, idx: c_int) -> bool {
        // SAFETY: `idx` is an argument of the running call.
        self.has(idx) && unsafe { ffi::lua_toboolean(self.state, idx) } != 0
    }

    /// Argument `idx`'s bytes, if it is a string (numbers are not converted).
    #[inline(always)]
    pub fn string(&self, idx: c_int) -> Option<&[u8]> {
        if self.lua_type(idx) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0usize;
        // SAFETY: `idx` is a string argument: `lua_tolstring` returns its bytes without
        // converting anything, valid while the argument stays on the stack (the frame's life).
        unsafe {
            let p = ffi::lua_tolstring(self.state, idx, &mut len);
            Some(std::slice::from_raw_parts(p.cast::<u8>(), len))
        }
    }

    /// Argument `idx` as UTF-8 text, if it is such a string.
    #[inline(always)]
    pub fn text(&self, idx: c_int) -> Option<&str> {
        std::str::from_utf8(self.string(idx)?).ok()
    }

    /// Argument `idx` as an index key: its bytes and its string atom (-1: none). A number is
    /// converted to a string in place, as Lua does, and has no atom; any other type is
    /// `None`.
    #[inline(always)]
    pub fn key(&self, idx: c_int) -> Option<(&[u8], c_int)> {
        if !self.has(idx) {
            return None;
        }
        let mut len = 0usize;
        let mut atom: c_int = -1;
        // SAFETY: `idx` is an argument of the running call; the bytes stay valid while it
        // stays on the stack (the frame's life). `lua_tolstring` on a number argument
        // converts that stack slot only.
        unsafe {
            let mut p = ffi::lua_tolstringatom(self.state, idx, &mut len, &mut atom);
            if p.is_null() {
                if ffi::lua_type(self.state, idx) != ffi::LUA_TNUMBER {
                    return None;
                }
                p = ffi::lua_tolstring(self.state, idx, &mut len);
                atom = -1;
            }
            Some((std::slice::from_raw_parts(p.cast::<u8>(), len), atom))
        }
    }

    /// Argument `idx` as a property argument.
    #[inline(always)]
    pub fn arg(&self, idx: c_int) -> Arg<'_> {
        match self.lua_type(idx) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Arg::Nil,
            ffi::LUA_TBOOLEAN => {
                // SAFETY: `idx` is a boolean argument.
                Arg::Bool(unsafe { ffi::lua_toboolean(self.state, idx) } != 0)
            }
            ffi::LUA_TNUMBER => {
                // SAFETY: `idx` is a number argument.
                Arg::Number(unsafe { ffi::lua_tonumber(self.state, idx) })
            }
            ffi::LUA_TVECTOR => {
                // SAFETY: a vector argument: three floats at the returned address.
                let v = unsafe { std::slice::from_raw_parts(ffi::lua_tovector(self.state, idx), 3) };
                Arg::Vector(Vec3::new(v[0], v[1], v[2]))
            }
            ffi::LUA_TSTRING => Arg::Str(self.string(idx).unwrap_or_default()),
            ffi::LUA_TUSERDATA => match self.handle(idx) {
                Some(h) => Arg::Instance(h.instance()),
                None => Arg::Other("userdata"),
            },
            _ => Arg::Other(self.type_name(idx)),
        }
    }

    /// Pushes nil.
    #[inline]
    pub fn push_nil(&self) {
        // SAFETY: a push on the running thread (Luau grows the stack for it).
        unsafe { ffi::lua_pushnil(self.state) }
    }

    /// Pushes a boolean.
    #[inline]
    pub fn push_bool(&self, b: bool) {
        // SAFETY: as in `push_nil`.
        unsafe { ffi::lua_pushboolean(self.state, c_int::from(b)) }
    }

    /// Pushes a number.
    #[inline]
    pub fn push_number(&self, n: f64) {
        // SAFETY: as in `push_nil`.
        unsafe { ffi::lua_pushnumber(self.state, n) }
    }

    /// Pushes a Luau vector.
    #[inline]
    pub fn push_vector(&self, v: Vec3) {
        // SAFETY: as in `push_nil`.
        unsafe { ffi::lua_pushvector(self.state, v.x, v.y, v.z) }
    }

    /// Pushes a string (copied into Lua).
    #[inline]
    pub fn push_bytes(&self, bytes: &[u8]) {
        // SAFETY: as in `push_nil`; Luau copies `bytes.len()` bytes from the pointer.
        unsafe {
            ffi::lua_pushlstring(self.state, bytes.as_ptr().cast(), bytes.len());
        }
    }

    /// Pushes a handle to instance `id` of the VM whose world slot is `world` (taken from a
    /// handle this call was given, so this VM's).
    #[inline]
    pub fn push_handle(&self, id: Id, world: WorldRef<'_>) {
        // SAFETY: as in `push_nil`; one of our C functions is running, so this VM's
        // metatables are installed, and a `WorldRef` only comes from a handle of this VM.
        unsafe { userdata::push_handle(self.state, id, userdata::raw_slot(world)) }
    }

    /// Pushes a handle to component `component` of `id`.
    #[inline]
    pub fn push_component(&self, id: Id, component: ComponentId, world: WorldRef<'_>) {
        // SAFETY: as in `push_handle`.
        unsafe { userdata::push_component(self.state, id, component, userdata::raw_slot(world)) }
    }

    /// Pushes a property read (`world`: the slot handles in it name).
    #[inline(always)]
    pub fn push_read(&self, read: &Read, world: WorldRef<'_>) {
        match read {
            Read::Bool(b) => self.push_bool(*b),
            Read::Number(n) => self.push_number(*n),
            Read::Vector(v) => self.push_vector(*v),
            Read::Static(s) => self.push_bytes(s.as_bytes()),
            Read::Inline(buf, len) => self.push_bytes(&buf[..usize::from(*len)]),
            Read::Owned(s) => self.push_bytes(s.as_bytes()),
            Read::Instance(None) => self.push_nil(),
            Read::Instance(Some(id)) => self.push_handle(*id, world),
        }
    }

    /// Pushes `upvalues[upvalue][key]` of the running C closure (raw access; nil when that
    /// upvalue is not a table, or `upvalue` is 0).
    #[inline]
    pub fn push_upvalue_entry(&self, upvalue: u8, key: ffi::lua_Integer) {
        if upvalue == 0 {
            // Index 0 would name the globals table, not an upvalue.
            return self.push_nil();
        }
        let t = ffi::lua_upvalueindex(c_int::from(upvalue));
        // SAFETY: the running function is a C closure and `1 <= upvalue <= 255`, so `t` is an
        // upvalue pseudo-index; one past its upvalues reads as none. `lua_rawgeti` is only
        // used on a table.
        unsafe {
            if ffi::lua_type(self.state, t) == ffi::LUA_TTABLE {
                ffi::lua_rawgeti(self.state, t, key);
            } else {
                ffi::lua_pushnil(self.state);
            }
        }
    }

    /// Calls upvalue 1 of the running closure, an mlua method returning
    /// `(ok, value, is_instance)`, with the receiver's id in place of argument 1 (which must
    /// be an Instance handle: otherwise `not_a_handle` is raised) and the other arguments as
    /// given; returns the method's value (an id wrapped as a handle of the receiver's VM when
    /// `is_instance`), or raises its failure at the calling script's line (like
    /// `error(m, 2)`). Returns the number of results for the C function to return.
    ///
    /// # Safety
    /// The frame comes from [`enter`](Self::enter) in a closure whose upvalue 1 is such an
    /// mlua method, and nothing was pushed on it. A Lua error (the method's own or its
    /// failure) unwinds the Rust frames between this call and the C function's entry: none
    /// of them may own a value with a destructor.
    #[inline]
    pub unsafe fn call_method(self, not_a_handle: Fail) -> c_int {
        let Some(h) = self.handle(1) else {
            // SAFETY: per the contract.
            unsafe { self.raise(not_a_handle) }
        };
        let (id, world) = (h.instance(), userdata::raw_slot(h.world()));
        // SAFETY: per the contract. Argument 1 exists (it is the handle). One slot is used for
        // the function before the call (LUA_MINSTACK slots are free); the call leaves exactly
        // three results in place of function and arguments, and at most three more are pushed.
        unsafe {
            let state = self.state;
            ffi::lua_pushnumber(state, id.0 as f64);
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
                userdata::push_handle(state, Id(ffi::lua_tonumber(state, -2) as u64), world);
            } else {
                ffi::lua_pushvalue(state, -2);
            }
            1
        }
    }

    /// Ends a C entry: its result count, or its failure raised at the script's line.
    ///
    /// # Safety
    /// As [`raise`](Self::raise): the calling C function owns nothing with a destructor.
    #[inline(always)]
    pub unsafe fn finish(self, done: Result<c_int, Fail>) -> c_int {
        match done {
            Ok(results) => results,
            // SAFETY: per this function's contract, which is `raise`'s.
            Err(m) => unsafe { self.raise(m) },
        }
    }

    /// Raises `message` as a Lua error at the calling script's line (like `error(m, 2)` from
    /// a Lua metamethod).
    ///
    /// # Safety
    /// The error unwinds the Rust frames between this call and the C function's entry: none
    /// of them may own a value with a destructor (the message itself is dropped here first).
    #[cold]
    #[inline(never)]
    pub unsafe fn raise(self, message: Fail) -> ! {
        // SAFETY: pushes on the running thread (Luau grows the stack for them); the message is
        // copied into Lua and dropped before `lua_error` unwinds.
        unsafe {
            ffi::lua_pushlstring(self.state, message.as_ptr().cast(), message.len());
            drop(message);
            ffi::luaL_where(self.state, 1);
            ffi::lua_insert(self.state, -2);
            ffi::lua_concat(self.state, 2);
            ffi::lua_error(self.state)
        }
    }
}

/// Runs `f`, turning a Rust panic into an error message, so a script cannot panic the server
/// through a C function.
pub(crate) fn guarded<R>(f: impl FnOnce() -> Result<R, Fail>) -> Result<R, Fail> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(Cow::Owned(format!("internal error: {what}")))
    })
}
