//! The `Instance` handle scripts hold, and the methods behind it (`FindFirstChild`,
//! `GetChildren`, `Clone`, `Destroy`, attributes, `IsA`, `GetFullName`, `GetSignal`). Each
//! method is wrapped in a C closure (`trampoline`) that checks the receiver, passes
//! its id, wraps returned instances and raises a failure at the script's line; properties
//! are served by the C metamethods in `handle`.
//!
//! A handle is just an id: it never keeps the instance alive, and once the instance is
//! destroyed every property or method use (except the idempotent `Destroy`) fails with
//! `attempt to index a destroyed Instance`.
//!
//! Methods that visit instances charge the running entry's budget for each one (`budget`),
//! counting no further than it can pay, so a walk of a huge subtree fails fast.

use super::handle::{instance_id, instance_list, instance_value};
use super::props::DESTROYED;
use super::trampoline::method;
use crate::budget::{self, BUDGET_MESSAGE};
use crate::luau::convert::{attribute_from_lua, attribute_to_lua};
use crate::signals::Signal;
use crate::state::{full_name, with_state, with_world};
use arbor_core::limits::MAX_NAME_BYTES;
use arbor_core::{ArenaError, Id, SearchLimitReached};
use mlua::{FromLua, IntoLua, Lua, Result, Value};

/// A script's handle to an instance. As a Lua value it is a tagged userdata with the shared
/// Instance metatable (see `instances::handle`); converting needs the host's VM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance(pub Id);

impl IntoLua for Instance {
    fn into_lua(self, lua: &Lua) -> Result<Value> {
        instance_value(lua, Some(self.0))
    }
}

impl FromLua for Instance {
    fn from_lua(value: Value, lua: &Lua) -> Result<Self> {
        instance_id(lua, &value).map(Instance).ok_or_else(|| mlua::Error::FromLuaConversionError {
            from: value.type_name(),
            to: "Instance".to_owned(),
            message: None,
        })
    }
}

/// What an Instance method hands back to its C closure (`trampoline`):
/// `(true, value, false)`; `(true, id or nil, true)` for an instance the trampoline wraps as
/// a handle (no mlua round trip); or `(false, message, false)`, which the trampoline raises
/// at the calling script's line.
pub type MethodStatus = (bool, Value, bool);

pub(super) fn done(lua: &Lua, v: impl IntoLua) -> Result<MethodStatus> {
    Ok((true, v.into_lua(lua)?, false))
}

fn done_instance(id: Option<Id>) -> Result<MethodStatus> {
    // Ids are below 2^53, so they are exact as Luau numbers.
    Ok((true, id.map_or(Value::Nil, |id| Value::Number(id.0 as f64)), true))
}

pub(super) fn failed(lua: &Lua, message: impl AsRef<str>) -> Result<MethodStatus> {
    Ok((false, Value::String(lua.create_string(message.as_ref())?), false))
}

/// The receiver of a method: the trampoline passes the handle's id as a number.
fn receiver(this: f64) -> Id {
    Id(this as u64)
}

pub(super) fn live(lua: &Lua, this: f64) -> std::result::Result<Id, String> {
    let id = receiver(this);
    match with_world(lua, |w| w.contains(id)) {
        Ok(true) => Ok(id),
        Ok(false) => Err(DESTROYED.to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// The live receiver's id, or returns the failure from the enclosing method.
macro_rules! checked {
    ($lua:expr, $this:expr) => {
        match live($lua, $this) {
            Ok(id) => id,
            Err(m) => return failed($lua, m),
        }
    };
}
pub(super) use checked;

/// Adds the method `name`: `f` is wrapped in its C closure (`trampoline::method`).
pub(super) fn add<A: mlua::FromLuaMulti>(
    lua: &Lua,
    table: &mlua::Table,
    name: &str,
    f: impl Fn(&Lua, A) -> Result<MethodStatus> + mlua::MaybeSend + 'static,
) -> Result<()> {
    table.raw_set(name, method(lua, name, lua.create_function(f)?)?)
}

/// Charges the running entry for copying or destroying `id`'s subtree (counted no further
/// than it can pay for).
pub(crate) fn charge_subtree(lua: &Lua, id: Id) -> Result<()> {
    let limit = budget::affordable_instances().saturating_add(1);
    let size = with_world(lua, |w| w.subtree_len_up_to(id, limit))?;
    budget::charge_creations(size)
}

/// Fails the method with the budget error after charging `visits` (more than the entry
/// has left, so it stays exhausted).
fn over_budget(lua: &Lua, visits: usize) -> Result<MethodStatus> {
    let _ = budget::charge_instances(visits);
    failed(lua, BUDGET_MESSAGE)
}

/// Registers the instance methods on `table` (name to function).
pub fn register_methods(lua: &Lua, table: &mlua::Table) -> Result<()> {
    add(
        lua,
        table,
        "FindFirstChild",
        |lua, (this, name, recursive): (f64, mlua::LuaString, Option<bool>)| {
            let id = checked!(lua, this);
            let name = name.to_str()?;
            let limit = budget::affordable_instances();
            let found = with_world(lua, |w| {
                if recursive.unwrap_or(false) {
                    w.find_first_descendant_within(id, &name, limit)
                } else {
                    let children = w.get(id).map_or(0, |n| n.children().len());
                    if children > limit {
                        Err(SearchLimitReached)
                    } else {
                        Ok((w.find_first_child(id, &name), children))
                    }
                }
            })?;
            match found {
                Ok((found, visited)) => {
                    if budget::charge_instances(visited).is_err() {
                        return failed(lua, BUDGET_MESSAGE);
                    }
                    done_instance(found)
                }
                Err(SearchLimitReached) => over_budget(lua, limit.saturating_add(1)),
            }
        },
    )?;
    add(lua, table, "GetChildren", |lua, this: f64| {
        let id = checked!(lua, this);
        let kids: Vec<Id> = with_world(lua, |w| w.children(id).collect())?;
        if budget::charge_instances(kids.len()).is_err() {
            return failed(lua, BUDGET_MESSAGE);
        }
        done(lua, instance_list(lua, &kids)?)
    })?;
    add(lua, table, "Clone", |lua, this: f64| {
        let id = checked!(lua, this);
        if charge_subtree(lua, id).is_err() {
            return failed(lua, BUDGET_MESSAGE);
        }
        match with_world(lua, |w| w.clone_subtree(id))? {
            Ok(copy) => done_instance(copy),
            Err(e) => failed(lua, e.to_string()),
        }
    })?;
    add(lua, table, "Destroy", |lua, this: f64| {
        let id = receiver(this);
        if !id.is_client_local() && with_state(lua, |s| s.client)? {
            // A client may destroy its own objects, never a replicated instance.
            return failed(lua, "Destroy can only be called on the server");
        }
        if charge_subtree(lua, id).is_err() {
            return failed(lua, BUDGET_MESSAGE);
        }
        match with_world(lua, |w| w.destroy(id).map_err(|e| (e.clone(), e.describe(w))))? {
            Ok(_) | Err((ArenaError::NotFound(_), _)) => done(lua, Value::Nil),
            Err((_, text)) => failed(lua, text),
        }
    })?;
    add(lua, table, "GetAttribute", |lua, (this, name): (f64, mlua::LuaString)| {
        let id = checked!(lua, this);
        let name = name.to_str()?;
        let v = with_world(lua, |w| w.attribute(id, &name).cloned())?;
        match v {
            Some(v) => done(lua, attribute_to_lua(lua, &v)?),
            None => done(lua, Value::Nil),
        }
    })?;
    add(lua, table, "SetAttribute", |lua, (this, name, value): (f64, mlua::LuaString, Value)| {
        let id = checked!(lua, this);
        let name = name.to_str()?;
        let value = match attribute_from_lua(lua, &value) {
            Ok(v) => v,
            Err(m) => return failed(lua, m),
        };
        // The engine keeps a copy of a string: the entry pays for its bytes.
        let copied = match &value {
            Some(arbor_core::AttributeValue::String(s)) => s.len(),
            _ => 0,
        };
        if budget::charge(copied + name.len(), 0).is_err() {
            return failed(lua, BUDGET_MESSAGE);
        }
        match with_world(lua, |w| w.set_attribute(id, &name, value).map_err(|e| e.describe(w)))? {
            Ok(_) => done(lua, Value::Nil),
            Err(text) => failed(lua, text),
        }
    })?;
    add(lua, table, "IsA", |lua, (this, class): (f64, mlua::LuaString)| {
        let id = checked!(lua, this);
        let class = class.to_str()?;
        let is = with_world(lua, |w| {
            w.get(id).is_some_and(|n| class == "Instance" || n.class().name() == &*class)
        })?;
        done(lua, is)
    })?;
    add(lua, table, "GetFullName", |lua, this: f64| {
        let id = checked!(lua, this);
        let limit = budget::affordable_instances().saturating_add(1);
        let depth = with_world(lua, |w| w.depth_up_to(id, limit))?;
        if budget::charge_instances(depth).is_err() {
            return failed(lua, BUDGET_MESSAGE);
        }
        let name = with_world(lua, |w| full_name(w, id))?;
        done(lua, name)
    })?;
    add(lua, table, "GetSignal", |lua, (this, name): (f64, mlua::LuaString)| {
        let id = checked!(lua, this);
        // The signal (and every connection to it) keeps a copy of its name: names are as
        // short as instance names (checked before the bytes are read), and the entry pays
        // for their bytes.
        if name.as_bytes().len() > MAX_NAME_BYTES {
            return failed(lua, format!("GetSignal: a signal name is at most {} bytes", MAX_NAME_BYTES));
        }
        let name = name.to_str()?;
        if budget::charge(name.len(), 0).is_err() {
            return failed(lua, BUDGET_MESSAGE);
        }
        done(lua, Signal { target: id, name: name.as_ref().into() })
    })?;
    Ok(())
}
