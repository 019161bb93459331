//! Component handles at the level of the Luau C API: what `GetComponent` and `AddComponent`
//! return. A handle is a tagged userdata ([`COMPONENT_TAG`], its block and the stack work in
//! the bottom layer, `luau`) holding the instance id, the component id and the VM's
//! `WorldSlot` address; its shared, frozen metatable has
//! `__index` (read a field), `__newindex` (write a field), `__eq` and `__tostring` written
//! as plain C functions, like Instance handles (`handle`): one world borrow per access, no
//! mlua call, no Lua wrapper, and errors raised at the script's line.
//!
//! A handle names `(instance, component)`, not a row: it never keeps anything alive, reads
//! and writes always go to the instance's current row, a write through it is a
//! [`Arena::set_field`](arbor_core::Arena::set_field) (compared first, stamped with a new
//! revision when the value changes), and once the instance is destroyed or the component
//! removed every access raises.

use super::props::DESTROYED;
use crate::luau::convert::{euler_degrees, field_from_arg};
use crate::luau::{self, CallFrame, ComponentHandle, Fail, Metamethod, guarded};
use crate::state::full_name;
use arbor_core::{
    Arena,
    components::{FieldType, FieldValue, SchemaError},
};
use mlua::{Lua, ffi};
use std::borrow::Cow;
use std::ffi::c_int;

pub use crate::luau::COMPONENT_TAG;

/// The error for a metamethod called on something that is not a component handle.
const NOT_A_COMPONENT: &str = "expected a Component";

/// Argument 1 as the component handle.
fn receiver(f: &CallFrame) -> Result<ComponentHandle<'_>, Fail> {
    f.component(1).ok_or(Cow::Borrowed(NOT_A_COMPONENT))
}

/// The field name at argument 2.
fn field_key(f: &CallFrame) -> Result<&[u8], Fail> {
    f.string(2)
        .ok_or_else(|| Cow::Owned(format!("component fields are named by strings, not {}", f.type_name(2))))
}

/// The field named `key` of `h`: index and type, or the message to raise.
fn resolve(w: &Arena, h: ComponentHandle<'_>, key: &[u8]) -> Result<(usize, FieldType), Fail> {
    let id = h.instance();
    if !w.contains(id) {
        return Err(Cow::Borrowed(DESTROYED));
    }
    let c = h.component();
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

/// Pushes a field's value (a `Quaternion` as XYZ Euler degrees, a reference as a handle).
fn push_field(f: &CallFrame, value: &FieldValue, h: ComponentHandle<'_>) {
    match value {
        FieldValue::Bool(b) => f.push_bool(*b),
        FieldValue::I32(i) => f.push_number(f64::from(*i)),
        FieldValue::I64(i) => f.push_number(*i as f64),
        FieldValue::F32(x) => f.push_number(f64::from(*x)),
        FieldValue::F64(x) => f.push_number(*x),
        FieldValue::Vector3(v) => f.push_vector(*v),
        FieldValue::Quaternion(q) => f.push_vector(euler_degrees(*q)),
        FieldValue::String(s) => f.push_bytes(s.as_bytes()),
        FieldValue::Ref(None) => f.push_nil(),
        FieldValue::Ref(Some(id)) => f.push_handle(*id, h.world()),
    }
}

/// Pushes `component.key`.
fn index(f: &CallFrame) -> Result<c_int, Fail> {
    let h = receiver(f)?;
    let key = field_key(f)?;
    let value = guarded(|| {
        let w = h.slot().borrow().map_err(Cow::Borrowed)?;
        let (field, _) = resolve(&w, h, key)?;
        Ok(w.components().field(h.instance(), h.component(), field).expect("row checked"))
    })?;
    push_field(f, &value, h);
    Ok(1)
}

/// Performs `component.key = value` (value at argument 3).
fn newindex(f: &CallFrame) -> Result<c_int, Fail> {
    let h = receiver(f)?;
    let key = field_key(f)?;
    let value = f.arg(3);
    guarded(|| {
        let mut w = h.slot().borrow().map_err(Cow::Borrowed)?;
        let (k, ty) = resolve(&w, h, key)?;
        let c = h.component();
        let info = w.components().registry().info(c);
        let (component, field) = (info.schema.name.clone(), info.schema.fields[k].name.clone());
        if super::components::engine_owned(&component) {
            return Err(Cow::Owned(super::components::engine_owned_error(&component)));
        }
        let v = field_from_arg(&component, &field, ty, &value).map_err(Cow::Owned)?;
        if let FieldValue::String(s) = &v {
            // The engine keeps a copy: the entry pays for its bytes.
            crate::budget::charge(s.len(), 0).map_err(|_| Cow::Borrowed(crate::budget::BUDGET_MESSAGE))?;
        }
        w.set_field(h.instance(), c, &field, v).map(|_| ()).map_err(|e| Cow::Owned(e.to_string()))
    })?;
    Ok(0)
}

/// Pushes `<Name> component`.
fn tostring(f: &CallFrame) -> Result<c_int, Fail> {
    let h = receiver(f)?;
    let text = guarded(|| {
        let w = h.slot().borrow().map_err(Cow::Borrowed)?;
        Ok(format!("{} component", w.components().registry().info(h.component()).schema.name))
    })?;
    f.push_bytes(text.as_bytes());
    Ok(1)
}

/// `__index(component, key)`: the field's value.
///
/// # Safety
/// Only the VM calls this, as the `__index` metamethod of [`COMPONENT_TAG`]'s metatable made by
/// [`install`], with the component handle and the key as arguments and LUA_MINSTACK free
/// slots.
unsafe extern "C-unwind" fn component_index(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this metamethod with its two arguments.
    let f = unsafe { CallFrame::enter_metamethod(state, 2) };
    let done = index(&f);
    // SAFETY: this frame owns nothing with a destructor (`done` is consumed).
    unsafe { f.finish(done) }
}

/// `__newindex(component, key, value)`: writes the field.
///
/// # Safety
/// As [`component_index`], as the `__newindex` metamethod with the handle, the key and the
/// assigned value as arguments.
unsafe extern "C-unwind" fn component_newindex(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this metamethod with its three arguments.
    let f = unsafe { CallFrame::enter_metamethod(state, 3) };
    let done = newindex(&f);
    // SAFETY: as in `component_index`.
    unsafe { f.finish(done) }
}

/// `__eq(a, b)`: handles to the same component of the same instance.
///
/// # Safety
/// Only the VM calls this, as the `__eq` metamethod of [`COMPONENT_TAG`], with two arguments.
unsafe extern "C-unwind" fn component_eq(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the VM is running this call.
    let f = unsafe { CallFrame::enter(state) };
    f.push_bool(matches!((f.component(1), f.component(2)),
        (Some(a), Some(b)) if a.same(&b)));
    1
}

/// `__tostring(component)`: `<Name> component`.
///
/// # Safety
/// As [`component_index`], as the `__tostring` metamethod with one argument.
unsafe extern "C-unwind" fn component_tostring(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `component_index`.
    let f = unsafe { CallFrame::enter(state) };
    let done = tostring(&f);
    // SAFETY: as in `component_index`.
    unsafe { f.finish(done) }
}

/// Sets the frozen metatable of [`COMPONENT_TAG`] (once per VM).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let entry = |field, name, f: ffi::lua_CFunction| Metamethod { field, name, f, with_upvalue: false };
    luau::metatable(
        lua,
        COMPONENT_TAG,
        c"Component",
        &[
            entry(c"__index", c"Component.__index", component_index),
            entry(c"__newindex", c"Component.__newindex", component_newindex),
            entry(c"__eq", c"Component.__eq", component_eq),
            entry(c"__tostring", c"Component.__tostring", component_tostring),
        ],
        None,
    )
}
