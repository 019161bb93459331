//! Component handles at the level of the Luau C API: what `GetComponent` and `AddComponent`
//! return. A handle is a tagged userdata ([`COMPONENT_TAG`]) holding the instance id, the
//! component id and the VM's [`WorldSlot`] address; its shared, frozen metatable has
//! `__index` (read a field), `__newindex` (write a field), `__eq` and `__tostring` written
//! as plain C functions, like Instance handles (`handle`): one world borrow per access, no
//! mlua call, no Lua wrapper, and errors raised at the script's line.
//!
//! A handle names `(instance, component)`, not a row: it never keeps anything alive, reads
//! and writes always go to the instance's current row, a write through it is a
//! [`Arena::set_field`](arbor_core::Arena::set_field) (compared first, stamped with a new
//! revision when the value changes), and once the instance is destroyed or the component
//! removed every access raises.

use super::convert::Fail;
use super::convert::{euler_degrees, field_from_arg};
use super::handle::{arg_at, guarded, push_handle, raise, type_name_at};
use super::props::DESTROYED;
use crate::state::{WorldSlot, full_name, world_slot};
use arbor_core::{
    Arena, Id,
    components::{ComponentId, FieldType, FieldValue, SchemaError},
};
use mlua::{Lua, Value, ffi};
use std::borrow::Cow;
use std::ffi::c_int;

/// Luau userdata tag of component handles (Instance handles use 64; see `handle`).
pub const COMPONENT_TAG: c_int = 65;

/// The contents of a component handle userdata.
#[repr(C)]
#[derive(Clone, Copy)]
struct ComponentHandle {
    id: u64,
    /// The world slot of the VM that made the handle; kept alive by the `Rc` in that VM's
    /// app data, which mlua drops only after `lua_close`.
    world: *const WorldSlot,
    component: u32,
}

/// The error for a metamethod called on something that is not a component handle.
const NOT_A_COMPONENT: &str = "expected a Component";

/// The component handle at `idx`, if that value is one.
///
/// # Safety
/// `state` is a live Lua thread and `idx` an acceptable index of its stack.
unsafe fn component_at(state: *mut ffi::lua_State, idx: c_int) -> Option<ComponentHandle> {
    // SAFETY: per the caller's contract; null unless the value is userdata with our tag.
    let p = unsafe { ffi::lua_touserdatatagged(state, idx, COMPONENT_TAG) }.cast::<ComponentHandle>();
    // SAFETY: userdata with COMPONENT_TAG are made only by `push_component`, which writes a
    // whole `ComponentHandle` into a block of its size, aligned for any scalar.
    (!p.is_null()).then(|| unsafe { p.read() })
}

/// Pushes a handle to `(id, component)` in the VM whose world slot is `world`.
///
/// # Safety
/// `state` is a live thread of a VM where [`install`] ran, with a free stack slot, and
/// `world` is that VM's slot.
pub(super) unsafe fn push_component(
    state: *mut ffi::lua_State,
    id: Id,
    component: ComponentId,
    world: *const WorldSlot,
) {
    // SAFETY: per the caller's contract the tag's metatable is set, so the new userdata gets
    // it; the block is `size_of::<ComponentHandle>()` bytes, suitably aligned.
    unsafe {
        let p = ffi::lua_newuserdatataggedwithmetatable(state, size_of::<ComponentHandle>(), COMPONENT_TAG);
        p.cast::<ComponentHandle>().write(ComponentHandle {
            id: id.0,
            world,
            component: u32::from(component.0),
        });
    }
}

/// A component handle for `(id, component)` as a Lua value.
pub fn component_value(lua: &Lua, id: Id, component: ComponentId) -> mlua::Result<Value> {
    let world = std::rc::Rc::as_ptr(&world_slot(lua)?);
    // SAFETY: `exec_raw` gives a valid state of this VM, whose tag metatable `install` set,
    // with stack room for the one value pushed; `world` is this VM's slot.
    unsafe { lua.exec_raw::<Value>((), |state| push_component(state, id, component, world)) }
}

/// The field named `key` of `h`: index and type, or the message to raise.
fn resolve(w: &Arena, h: ComponentHandle, key: &[u8]) -> Result<(usize, FieldType), Fail> {
    let id = Id(h.id);
    if !w.contains(id) {
        return Err(Cow::Borrowed(DESTROYED));
    }
    let c = ComponentId(h.component as u16);
    let info = w.components().registry().info(c);
    let Some(f) = info.schema.fields.iter().position(|f| f.name.as_bytes() == key) else {
        let field = String::from_utf8_lossy(key).into_owned();
        return Err(Cow::Owned(
            SchemaError::UnknownField { component: info.schema.name.to_string(), field }.to_string(),
        ));
    };
    if !w.components().has(id, c) {
        return Err(Cow::Owned(format!("component '{}' is not on {}", info.schema.name, full_name(w, id))));
    }
    Ok((f, info.schema.fields[f].ty))
}

/// The string key at index 2.
///
/// # Safety
/// `state` is the thread running a metamethod with the key at index 2.
unsafe fn key_at<'a>(state: *mut ffi::lua_State) -> &'a [u8] {
    let mut len = 0usize;
    // SAFETY: per the caller's contract; the bytes stay valid while the key is on the stack
    // (for the rest of the metamethod); `raise` never returns.
    unsafe {
        if ffi::lua_type(state, 2) != ffi::LUA_TSTRING {
            let t = type_name_at(state, 2);
            raise(state, Cow::Owned(format!("component fields are named by strings, not {t}")));
        }
        let p = ffi::lua_tolstring(state, 2, &mut len);
        std::slice::from_raw_parts(p.cast::<u8>(), len)
    }
}

/// `__index(component, key)`: the field's value.
///
/// # Safety
/// Only the VM calls this, as the `__index` metamethod of [`COMPONENT_TAG`]'s metatable made by
/// [`install`], with the component handle and the key as arguments and LUA_MINSTACK free
/// slots. It may raise a Lua error; its frames own nothing.
unsafe extern "C-unwind" fn component_index(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM calls this with two arguments and LUA_MINSTACK free slots; the world
    // borrow ends (inside `guarded`) before anything is pushed, and `raise` never returns.
    unsafe {
        let Some(h) = component_at(state, 1) else { raise(state, Cow::Borrowed(NOT_A_COMPONENT)) };
        let key = key_at(state);
        // SAFETY (deref): the slot outlives every handle of its VM (see `ComponentHandle`).
        let slot = &*h.world;
        let value = guarded(|| {
            let w = slot.borrow().map_err(Cow::Borrowed)?;
            let (f, _) = resolve(&w, h, key)?;
            Ok(w.components().field(Id(h.id), ComponentId(h.component as u16), f).expect("row checked"))
        });
        match value {
            Ok(FieldValue::Bool(b)) => ffi::lua_pushboolean(state, c_int::from(b)),
            Ok(FieldValue::I32(i)) => ffi::lua_pushnumber(state, f64::from(i)),
            Ok(FieldValue::I64(i)) => ffi::lua_pushnumber(state, i as f64),
            Ok(FieldValue::F32(x)) => ffi::lua_pushnumber(state, f64::from(x)),
            Ok(FieldValue::F64(x)) => ffi::lua_pushnumber(state, x),
            Ok(FieldValue::Vector3(v)) => ffi::lua_pushvector(state, v.x, v.y, v.z),
            Ok(FieldValue::Quaternion(q)) => {
                let d = euler_degrees(q);
                ffi::lua_pushvector(state, d.x, d.y, d.z)
            }
            Ok(FieldValue::String(s)) => {
                ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
            }
            Ok(FieldValue::Ref(None)) => ffi::lua_pushnil(state),
            Ok(FieldValue::Ref(Some(id))) => push_handle(state, id, h.world),
            Err(m) => raise(state, m),
        }
        1
    }
}

/// `__newindex(component, key, value)`: writes the field.
///
/// # Safety
/// As [`component_index`], as the `__newindex` metamethod with the handle, the key and the
/// assigned value as arguments.
unsafe extern "C-unwind" fn component_newindex(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `component_index`, with three arguments; the value's bytes stay on the
    // stack for the call.
    unsafe {
        let Some(h) = component_at(state, 1) else { raise(state, Cow::Borrowed(NOT_A_COMPONENT)) };
        let key = key_at(state);
        let value = arg_at(state, 3);
        // SAFETY (deref): the slot outlives every handle of its VM.
        let slot = &*h.world;
        let written = guarded(|| {
            let mut w = slot.borrow().map_err(Cow::Borrowed)?;
            let (f, ty) = resolve(&w, h, key)?;
            let c = ComponentId(h.component as u16);
            let info = w.components().registry().info(c);
            let (component, field) = (info.schema.name.clone(), info.schema.fields[f].name.clone());
            if super::components::engine_owned(&component) {
                return Err(Cow::Owned(super::components::engine_owned_error(&component)));
            }
            let v = field_from_arg(&component, &field, ty, &value).map_err(Cow::Owned)?;
            if let FieldValue::String(s) = &v {
                // The engine keeps a copy: the entry pays for its bytes.
                crate::budget::charge(s.len(), 0)
                    .map_err(|_| Cow::Borrowed(crate::budget::BUDGET_MESSAGE))?;
            }
            w.set_field(Id(h.id), c, &field, v).map(|_| ()).map_err(|e| Cow::Owned(e.to_string()))
        });
        if let Err(m) = written {
            raise(state, m);
        }
        0
    }
}

/// `__eq(a, b)`: handles to the same component of the same instance.
///
/// # Safety
/// Only the VM calls this, as the `__eq` metamethod of [`COMPONENT_TAG`], with two arguments and
/// a free stack slot.
unsafe extern "C-unwind" fn component_eq(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by the VM with two arguments and free stack slots.
    unsafe {
        let same = matches!((component_at(state, 1), component_at(state, 2)),
            (Some(a), Some(b)) if a.id == b.id && a.component == b.component);
        ffi::lua_pushboolean(state, c_int::from(same));
    }
    1
}

/// `__tostring(component)`: `<Name> component`.
///
/// # Safety
/// As [`component_index`], as the `__tostring` metamethod with one argument.
unsafe extern "C-unwind" fn component_tostring(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `component_index`.
    unsafe {
        let Some(h) = component_at(state, 1) else { raise(state, Cow::Borrowed(NOT_A_COMPONENT)) };
        let slot = &*h.world;
        let text = guarded(|| {
            let w = slot.borrow().map_err(Cow::Borrowed)?;
            let name = &w.components().registry().info(ComponentId(h.component as u16)).schema.name;
            Ok(format!("{name} component"))
        });
        match text {
            Ok(t) => {
                ffi::lua_pushlstring(state, t.as_ptr().cast(), t.len());
            }
            Err(m) => raise(state, m),
        }
        1
    }
}

/// Sets the frozen metatable of [`COMPONENT_TAG`] (once per VM).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    // SAFETY: `exec_raw` runs the closure protected on a valid state with room for the
    // values pushed; each push is matched by a set, and the metatable is consumed by
    // `lua_setuserdatametatable`.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            ffi::lua_createtable(state, 0, 5);
            ffi::lua_pushcclosurek(state, component_index, c"Component.__index".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__index".as_ptr());
            ffi::lua_pushcclosurek(state, component_newindex, c"Component.__newindex".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__newindex".as_ptr());
            ffi::lua_pushcclosurek(state, component_eq, c"Component.__eq".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__eq".as_ptr());
            ffi::lua_pushcclosurek(state, component_tostring, c"Component.__tostring".as_ptr(), 0, None);
            ffi::lua_setfield(state, -2, c"__tostring".as_ptr());
            ffi::lua_pushstring(state, c"Component".as_ptr());
            ffi::lua_setfield(state, -2, c"__type".as_ptr());
            ffi::lua_setreadonly(state, -1, 1);
            ffi::lua_setuserdatametatable(state, COMPONENT_TAG);
        })
    }
}
