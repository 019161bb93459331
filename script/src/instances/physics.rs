//! The `Physics` service (`Physics`, also `game.Physics`): the place's physics settings as
//! scripts see them. Unanchored parts below `Physics.FallenPartsDestroyHeight` are destroyed
//! (`docs/scripting.md`, "The Physics service").
//!
//! Invariant: the service holds no state of its own. `FallenPartsDestroyHeight` reads and
//! writes the Workspace's `FallenPartsDestroyHeight` attribute, which is what the place
//! file's `settings.FallenPartsDestroyHeight` loads into and saves from and what the
//! fallen-parts scan reads, so the three never disagree. A write takes a finite number
//! (an edit like any other: journaled, undone with a behaviour's transaction, saved).
//! The service is a frozen empty table whose locked metatable routes reads and writes
//! here, so no script can change what another sees; an unknown member raises.

use crate::luau::convert::{Status, fail, ok};
use crate::state::with_world;
use arbor_core::AttributeValue;
use arbor_core::settings::FALLEN_PARTS_DESTROY_HEIGHT;
use mlua::{Function, Lua, Result, Table, Value};

/// The service's members, for the error an unknown one raises.
const MEMBERS: &str = "FallenPartsDestroyHeight";

/// Builds the service; `check` raises a primitive's failure at the caller's line.
pub(crate) fn physics_service(lua: &Lua, check: Function) -> Result<Table> {
    let get = lua.create_function(|lua, key: Value| -> Result<Status> {
        match member(&key) {
            Some(_) => {
                let height = with_world(lua, |w| arbor_sim::fallen::FallenParts::destroy_height(w))?;
                ok(lua, height)
            }
            _ => fail(lua, unknown(&key)),
        }
    })?;
    let set = lua.create_function(|lua, (key, value): (Value, Value)| -> Result<Status> {
        if member(&key) != Some(FALLEN_PARTS_DESTROY_HEIGHT.name) {
            return fail(lua, unknown(&key));
        }
        let height = match value {
            Value::Number(h) if h.is_finite() => h,
            Value::Integer(h) => h as f64,
            other => {
                return fail(
                    lua,
                    format!(
                        "Physics.FallenPartsDestroyHeight must be a finite number, got {}",
                        describe(&other)
                    ),
                );
            }
        };
        let written = with_world(lua, |w| {
            let ws = w.workspace();
            w.set_attribute(ws, FALLEN_PARTS_DESTROY_HEIGHT.name, Some(AttributeValue::Number(height)))
        })?;
        match written {
            Ok(_) => ok(lua, Value::Nil),
            Err(e) => fail(lua, format!("Physics.FallenPartsDestroyHeight: {e}")),
        }
    })?;
    let service: Table = lua
        .load(
            "local check, get, set = ...\n\
         local meta = {\n\
           __index = function(_, k) return check(get(k)) end,\n\
           __newindex = function(_, k, v) check(set(k, v)) end,\n\
           __tostring = function() return 'Physics' end,\n\
           __metatable = 'the Physics service is locked',\n\
         }\n\
         return setmetatable({}, table.freeze(meta))",
        )
        .set_name("=arbor-physics")
        .call((check, get, set))?;
    service.set_readonly(true);
    Ok(service)
}

/// The member `key` names, if it is one.
fn member(key: &Value) -> Option<&'static str> {
    match key {
        Value::String(s) if s.as_bytes().as_ref() == FALLEN_PARTS_DESTROY_HEIGHT.name.as_bytes() => {
            Some(FALLEN_PARTS_DESTROY_HEIGHT.name)
        }
        _ => None,
    }
}

fn unknown(key: &Value) -> String {
    format!("{} is not a member of Physics (it has {MEMBERS})", describe(key))
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("'{}'", s.to_string_lossy()),
        Value::Number(n) if n.is_nan() => "nan".to_owned(),
        Value::Number(n) if n.is_infinite() => if *n > 0.0 { "inf" } else { "-inf" }.to_owned(),
        Value::Number(n) => n.to_string(),
        other => other.type_name().to_owned(),
    }
}
