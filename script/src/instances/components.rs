//! Game-defined components from Luau: `game.Components.Define`, the Instance methods
//! `AddComponent`, `GetComponent`, `HasComponent` and `RemoveComponent`, and the
//! [`ComponentRef`] a script reads and writes fields through.
//!
//! ```lua
//! local Health = game.Components.Define("Health", { Value = "number", Max = "number" })
//! game.Components.Define("Target", { Who = { type = "Instance", onDestroy = "RemoveComponent" } },
//!     { requires = { "Health" } })
//! local h = self:AddComponent("Health", { Value = 100, Max = 100 })
//! h.Value -= 10
//! print(self:GetComponent(Health).Value) --> 90
//! ```
//!
//! - `Define(name, fields, options?)` registers a schema in the place's component store (the
//!   one engine code and place files use) and returns `name`. Fields map names to a type
//!   name (`luau::convert::field_type`) or to `{ type = ..., onDestroy = "ClearField" | "RemoveComponent" |
//!   "DestroyHolder" }` for references; `options.requires` lists required components, and
//!   `options.storage = "sparse"` keeps the rows in a sparse set (for components added and
//!   removed often; `"table"`, the default, keeps them in the archetype tables).
//!   Defining a name again with the same fields (in any order) and requirements returns it
//!   again, so scripts may define what they use at their top level and reload freely; a
//!   different layout raises.
//! - `AddComponent(name, values?)` adds the component (and its requirements, with
//!   defaults) and returns its component handle; on an instance that has it, the given values
//!   overwrite those fields. Every value is checked before anything is written, so a refused
//!   call changes nothing. `GetComponent` returns the handle or nil, `HasComponent` a
//!   boolean, `RemoveComponent` whether it was there (removing the components requiring it
//!   too).
//! - A component handle is `(instance, component)`: reading a field reads the store, writing
//!   one writes it (the row's revision moves only when the value changes). Using a handle
//!   after its instance is destroyed raises `attempt to index a destroyed Instance`; after
//!   the component was removed, `component 'Health' is not on <path>`.
//! - `Lifetime` belongs to the engine: scripts may read it (`GetComponent("Lifetime")
//!   .Remaining`) but `AddComponent`, `RemoveComponent`, field writes, and `Define` naming it
//!   or requiring it raise.

use super::instance::{MethodStatus, add, checked, done, failed, live};
use crate::luau::component_value;
use crate::luau::convert::{Status, fail, ok, type_name};
use crate::luau::convert::{field_from_lua, field_type, ref_policy};
use crate::state::with_world;
use arbor_core::{
    Arena, Id,
    components::{ComponentId, FieldDef, FieldType, FieldValue, RefPolicy, Schema, SchemaError, Storage},
};
use mlua::{Lua, Result, Table, Value};
use std::sync::Arc;

fn key_text(lua: &Lua, key: &Value) -> std::result::Result<String, String> {
    match key {
        Value::String(s) => Ok(s.to_string_lossy()),
        other => Err(format!("component fields are named by strings, not {}", type_name(lua, other))),
    }
}

/// One field declaration `name = spec`.
fn field_def(
    lua: &Lua,
    component: &str,
    name: &Value,
    spec: &Value,
) -> std::result::Result<FieldDef, String> {
    let Value::String(name) = name else {
        return Err(format!("fields of '{component}' are named by strings, not {}", type_name(lua, name)));
    };
    let name = name.to_string_lossy();
    let bad_type = |t: &str| format!("field '{component}.{name}' has unknown type '{t}'");
    match spec {
        Value::String(t) => {
            let t = t.to_string_lossy();
            Ok(FieldDef::new(&name, field_type(&t).ok_or_else(|| bad_type(&t))?))
        }
        Value::Table(spec) => {
            let mut ty = None;
            let mut policy = RefPolicy::ClearField;
            for pair in spec.pairs::<String, Value>() {
                let (key, v) = pair.map_err(|e| e.to_string())?;
                let text = match &v {
                    Value::String(s) => s.to_string_lossy(),
                    _ => return Err(format!("field '{component}.{name}': '{key}' must be a string")),
                };
                match key.as_str() {
                    "type" => ty = Some(field_type(&text).ok_or_else(|| bad_type(&text))?),
                    "onDestroy" => {
                        policy = ref_policy(&text).ok_or_else(|| {
                            format!("field '{component}.{name}' has unknown onDestroy policy '{text}'")
                        })?
                    }
                    other => return Err(format!("field '{component}.{name}' has unknown option '{other}'")),
                }
            }
            let ty = ty.ok_or_else(|| format!("field '{component}.{name}' needs a type"))?;
            if ty != FieldType::InstanceRef && policy != RefPolicy::ClearField {
                return Err(format!("field '{component}.{name}': onDestroy applies to Instance fields only"));
            }
            Ok(FieldDef { name: name.as_str().into(), ty, on_destroy: policy })
        }
        other => {
            Err(format!("field '{component}.{name}' must be a type name, not {}", type_name(lua, other)))
        }
    }
}

/// The schema a `Define` call declares (fields sorted by name), or the message to raise.
fn declared_schema(
    lua: &Lua,
    name: &str,
    fields: &Table,
    options: Option<&Table>,
) -> std::result::Result<Schema, String> {
    let mut defs = Vec::new();
    for pair in fields.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        defs.push(field_def(lua, name, &k, &v)?);
    }
    defs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut schema = Schema::new(name, defs);
    if let Some(options) = options {
        for pair in options.pairs::<String, Value>() {
            let (key, v) = pair.map_err(|e| e.to_string())?;
            match (key.as_str(), v) {
                ("requires", Value::Table(list)) => {
                    for r in list.sequence_values::<String>() {
                        schema = schema
                            .requiring(&r.map_err(|_| format!("requires of '{name}' must list names"))?);
                    }
                }
                ("requires", _) => return Err(format!("requires of '{name}' must be a list of names")),
                ("storage", Value::String(kind)) => {
                    schema = schema.stored_in(match &*kind.to_str().map_err(|e| e.to_string())? {
                        "table" => Storage::Table,
                        "sparse" => Storage::SparseSet,
                        other => {
                            return Err(format!(
                                "storage of '{name}' must be \"table\" or \"sparse\", not \"{other}\""
                            ));
                        }
                    });
                }
                ("storage", _) => return Err(format!("storage of '{name}' must be \"table\" or \"sparse\"")),
                (other, _) => return Err(format!("Define has no option '{other}'")),
            }
        }
    }
    Ok(schema)
}

/// Whether two schemas declare the same fields (in any order), requirements and storage.
fn same_layout(a: &Schema, b: &Schema) -> bool {
    let sorted = |s: &Schema| {
        let mut f = s.fields.clone();
        f.sort_by(|x, y| x.name.cmp(&y.name));
        let mut r = s.requires.clone();
        r.sort();
        (f, r)
    };
    a.name == b.name && a.storage == b.storage && sorted(a) == sorted(b)
}

/// `game.Components.Define(name, fields, options?)`.
fn define(lua: &Lua, (name, fields, options): (mlua::LuaString, Table, Option<Table>)) -> Result<Status> {
    let name = name.to_str()?.to_string();
    if name.is_empty() {
        return fail(lua, "a component needs a name");
    }
    let schema = match declared_schema(lua, &name, &fields, options.as_ref()) {
        Ok(s) => s,
        Err(m) => return fail(lua, m),
    };
    if let Some(owned) =
        std::iter::once(&*schema.name).chain(schema.requires.iter().map(|r| &**r)).find(|n| engine_owned(n))
    {
        return fail(lua, engine_owned_error(owned));
    }
    let result = with_world(lua, |w| {
        let registry = w.components().registry();
        if let Some(id) = registry.id(&name)
            && same_layout(&registry.info(id).schema, &schema)
        {
            return Ok(id);
        }
        w.register_component(schema)
    })?;
    match result {
        Ok(_) => ok(lua, name),
        Err(e) => fail(lua, e.to_string()),
    }
}

/// The `game.Components` table (frozen).
pub fn components_table(lua: &Lua, wrap: impl Fn(mlua::Function) -> Result<mlua::Function>) -> Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("Define", wrap(lua.create_function(define)?)?)?;
    t.set_readonly(true);
    Ok(t)
}

fn component_id(w: &Arena, name: &str) -> Option<ComponentId> {
    w.components().component(name)
}

/// Whether scripts may only read component `name`: `Lifetime` is the engine's, scripts may
/// read it but never add, write or remove it (`docs/scripting.md`, "Components"). The place
/// file gives lifetimes (a bullet prefab carries one); the engine counts them down.
pub(super) fn engine_owned(name: &str) -> bool {
    name == arbor_sim::lifetime::LIFETIME
}

/// The error raised when a script tries to change an engine-owned component.
pub(super) fn engine_owned_error(name: &str) -> String {
    format!("'{name}' belongs to the engine: scripts may read it but not add, write or remove it")
}

fn component_ref(lua: &Lua, id: Id, component: ComponentId) -> Result<MethodStatus> {
    done(lua, component_value(lua, id, component)?)
}

/// The row `AddComponent` writes: the current row (or defaults) with `values` applied, or
/// `None` when no values were given; every value is converted before anything is written.
fn row_with(
    lua: &Lua,
    id: Id,
    c: ComponentId,
    name: &str,
    values: Option<&Table>,
) -> Result<std::result::Result<Option<Vec<FieldValue>>, String>> {
    let Some(values) = values else { return Ok(Ok(None)) };
    let (fields, current) = with_world(lua, |w| {
        let info = w.components().registry().info(c);
        let fields: Vec<(Arc<str>, FieldType)> =
            info.schema.fields.iter().map(|f| (f.name.clone(), f.ty)).collect();
        (fields, w.components().row(id, c))
    })?;
    let mut row =
        current.unwrap_or_else(|| fields.iter().map(|(_, ty)| FieldValue::default_of(*ty)).collect());
    for pair in values.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let key = match key_text(lua, &k) {
            Ok(k) => k,
            Err(m) => return Ok(Err(m)),
        };
        let Some(f) = fields.iter().position(|(n, _)| **n == *key) else {
            return Ok(Err(SchemaError::UnknownField { component: name.to_owned(), field: key }.to_string()));
        };
        match field_from_lua(lua, name, &key, fields[f].1, &v) {
            Ok(v) => row[f] = v,
            Err(m) => return Ok(Err(m)),
        }
    }
    Ok(Ok(Some(row)))
}

/// Registers the component methods of Instances on `table`.
pub fn register_methods(lua: &Lua, table: &Table) -> Result<()> {
    add(lua, table, "AddComponent", |lua, (this, name, values): (f64, mlua::LuaString, Option<Table>)| {
        let id = checked!(lua, this);
        let name = name.to_str()?.to_string();
        if engine_owned(&name) {
            return failed(lua, engine_owned_error(&name));
        }
        let Some(c) = with_world(lua, |w| component_id(w, &name))? else {
            return failed(lua, SchemaError::UnknownComponent(name).to_string());
        };
        let row = match row_with(lua, id, c, &name, values.as_ref())? {
            Ok(row) => row,
            Err(m) => return failed(lua, m),
        };
        match with_world(lua, |w| w.add_component(id, c, row.as_deref()))? {
            Ok(_) => component_ref(lua, id, c),
            Err(e) => failed(lua, e.to_string()),
        }
    })?;
    add(lua, table, "GetComponent", |lua, (this, name): (f64, mlua::LuaString)| {
        let id = checked!(lua, this);
        let name = name.to_str()?;
        match with_world(lua, |w| component_id(w, &name).filter(|&c| w.components().has(id, c)))? {
            Some(c) => component_ref(lua, id, c),
            None => done(lua, Value::Nil),
        }
    })?;
    add(lua, table, "HasComponent", |lua, (this, name): (f64, mlua::LuaString)| {
        let id = checked!(lua, this);
        let name = name.to_str()?;
        done(lua, with_world(lua, |w| component_id(w, &name).is_some_and(|c| w.components().has(id, c)))?)
    })?;
    add(lua, table, "RemoveComponent", |lua, (this, name): (f64, mlua::LuaString)| {
        let id = checked!(lua, this);
        let name = name.to_str()?;
        if engine_owned(&name) {
            return failed(lua, engine_owned_error(&name));
        }
        let removed = with_world(lua, |w| match component_id(w, &name) {
            Some(c) => w.remove_component(id, c),
            None => Ok(false),
        })?;
        match removed {
            Ok(was) => done(lua, was),
            Err(e) => failed(lua, e.to_string()),
        }
    })?;
    Ok(())
}
