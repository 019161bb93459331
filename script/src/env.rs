//! The script environment: builds the sandboxed base environment every script instance reads
//! its globals from — safe libraries, `print`/`warn`, `Vector3`, `game` (with `Workspace`,
//! `Prefabs.Spawn`, `Components.Define`, `Systems.Register`, `Session`, `Store`, `CloudStore`,
//! `Behaviors`, `Physics`), `workspace`, `handles`, `Physics` —
//! installs the Instance metatable and methods (`instances`) and the prelude that gives Signal
//! handles their metamethods. It is the one place that puts the services (`instances`,
//! `signals`, `systems`, `session`, `store`, `behavior`) together; each service keeps its
//! own state in the Lua state's app data.
//!
//! Left out on purpose: `getfenv`/`setfenv` (they reach other scripts' environments through
//! the call stack), `load`/`loadstring` and `require` (no code from strings or files),
//! `debug`, `os`, `collectgarbage`, `newproxy`, `gcinfo`. The base table, the library tables
//! and every metatable handed to scripts are frozen, so a script cannot change what another
//! script sees.

use crate::log::Level;
use crate::luau::convert::{Status, fail, instance_value, ok};
use crate::luau::prelude::PRELUDE_KEY;
use crate::signals;
use crate::state::{with_state, with_world};
use arbor_core::Id;
use mlua::{Function, Lua, MultiValue, Result, Table, Value};

const PRELUDE: &str = include_str!("prelude.luau");

/// Globals copied from the Luau state into the base environment.
pub(crate) const SAFE_GLOBALS: &[&str] = &[
    "assert",
    "error",
    "ipairs",
    "pairs",
    "next",
    "pcall",
    "xpcall",
    "select",
    "tonumber",
    "tostring",
    "type",
    "typeof",
    "unpack",
    "rawequal",
    "rawget",
    "rawset",
    "rawlen",
    "setmetatable",
    "getmetatable",
    "string",
    "table",
    "math",
    "utf8",
    "bit32",
    "buffer",
    "vector",
    "coroutine",
    "_VERSION",
];

fn format_args(lua: &Lua, tostring: &Function, args: MultiValue) -> Result<String> {
    let _ = lua;
    let mut line = Vec::new();
    let count = args.len();
    for (i, v) in args.into_iter().enumerate() {
        if i > 0 {
            line.push(b' ');
        }
        let text = match v {
            Value::String(s) => s,
            other => tostring.call::<mlua::LuaString>(other)?,
        };
        let bytes = text.as_bytes();
        let room = MAX_PRINTED_BYTES.saturating_sub(line.len());
        crate::budget::charge(bytes.len().min(room), 0)?;
        if bytes.len() > room {
            line.extend_from_slice(&bytes[..room]);
            line.extend_from_slice("…".as_bytes());
            break;
        }
        line.extend_from_slice(&bytes);
    }
    crate::budget::charge(count.saturating_mul(16), 0)?;
    Ok(String::from_utf8_lossy(&line).into_owned())
}

/// Bytes of one `print`/`warn` line the engine formats (and echoes); the rest of a longer
/// line is cut and marked `…`, so a script printing a huge value copies at most this much.
pub const MAX_PRINTED_BYTES: usize = 64 * 1024;

/// Wraps a `(ok, value)` primitive so failures raise at the caller's line.
fn checked(lua: &Lua, prelude: &Table, f: Function) -> Result<Function> {
    let check: Function = prelude.get("check")?;
    lua.load("local check, f = ...\nreturn function(...) return check(f(...)) end")
        .set_name("=arbor-wrap")
        .call((check, f))
}

/// `game.Behaviors`: `Send(host, event, payload?)` queues an event for the behaviours bound
/// to `host`, delivered in the next moment (checked against the event's declaration).
fn behaviors_table(lua: &Lua, prelude: &Table) -> Result<Table> {
    let send = lua.create_function(
        |lua, (host, name, payload): (Value, mlua::LuaString, Value)| -> Result<Status> {
            if with_state(lua, |s| s.client)? {
                return fail(lua, "game.Behaviors.Send is server-only");
            }
            let Some(host) = crate::luau::convert::instance_id(lua, &host) else {
                return fail(lua, "game.Behaviors.Send: the host must be an Instance");
            };
            match crate::behavior::send_from_script(lua, host, &name.to_str()?, &payload) {
                Ok(()) => ok(lua, Value::Nil),
                Err(m) => fail(lua, format!("game.Behaviors.Send: {m}")),
            }
        },
    )?;
    let t = lua.create_table()?;
    t.raw_set("Send", checked(lua, prelude, send)?)?;
    t.set_readonly(true);
    Ok(t)
}

/// Installs the prelude and builds the frozen base environment for a place whose Workspace
/// is `workspace`.
pub fn install(lua: &Lua, root: Id, workspace: Id, stores: &crate::store::StoreConfig) -> Result<Table> {
    let raw = lua.create_table()?;
    let methods = lua.create_table()?;
    crate::instances::instance::register_methods(lua, &methods)?;
    crate::instances::components::register_methods(lua, &methods)?;
    crate::instances::component_handle::install(lua)?;
    crate::instances::handle::install(lua, &methods)?;
    let signal = lua.create_table()?;
    signals::register(lua, &signal)?;
    raw.set("signal", signal)?;
    let prelude: Table = lua.load(PRELUDE).set_name("=arbor-prelude").call(raw)?;
    lua.set_named_registry_value(PRELUDE_KEY, &prelude)?;
    lua.set_type_metatable::<mlua::Vector>(Some(prelude.get("vectorMeta")?));

    let globals = lua.globals();
    let base = lua.create_table()?;
    for name in SAFE_GLOBALS {
        base.raw_set(*name, globals.raw_get::<Value>(*name)?)?;
    }
    crate::instances::ordered_pairs::install(lua, &base)?;
    crate::instances::random::install(lua, prelude.get("check")?)?;
    let tostring: Function = globals.get("tostring")?;
    let to_s = tostring.clone();
    base.raw_set(
        "print",
        lua.create_function(move |lua, args: MultiValue| {
            let text = format_args(lua, &to_s, args)?;
            crate::state::log(lua, Level::Info, &text)
        })?,
    )?;
    base.raw_set(
        "warn",
        lua.create_function(move |lua, args: MultiValue| {
            let text = format_args(lua, &tostring, args)?;
            crate::state::log(lua, Level::Warn, &text)
        })?,
    )?;
    base.raw_set("Vector3", prelude.get::<Value>("Vector3")?)?;

    let spawn = lua.create_function(|lua, name: mlua::LuaString| -> Result<Status> {
        let name = name.to_str()?;
        // A client's replica receives its `Prefabs` after the host was built: look it up then.
        let folder = match with_state(lua, |s| s.prefabs)? {
            Some(folder) => Some(folder),
            None => with_world(lua, |w| w.find_first_child(w.root(), "Prefabs"))?,
        };
        let Some(folder) = folder else { return ok(lua, Value::Nil) };
        if let Some(template) = with_world(lua, |w| w.find_first_child(folder, &name))?
            && crate::instances::instance::charge_subtree(lua, template).is_err()
        {
            return fail(lua, crate::budget::BUDGET_MESSAGE);
        }
        let spawned = with_world(lua, |w| -> std::result::Result<Option<Id>, String> {
            let Some(template) = w.find_first_child(folder, &name) else { return Ok(None) };
            let Some(copy) = w.clone_subtree(template).map_err(|e| e.to_string())? else { return Ok(None) };
            let ws = w.workspace();
            w.set_parent(copy, Some(ws)).map_err(|e| e.to_string())?;
            Ok(Some(copy))
        })?;
        match spawned {
            Ok(id) => ok(lua, instance_value(lua, id)?),
            Err(m) => fail(lua, m),
        }
    })?;
    let prefabs = lua.create_table()?;
    prefabs.raw_set("Spawn", checked(lua, &prelude, spawn)?)?;
    prefabs.set_readonly(true);
    let ws = instance_value(lua, Some(workspace))?;
    let game = lua.create_table()?;
    game.raw_set("Workspace", ws.clone())?;
    game.raw_set("Prefabs", prefabs)?;
    game.raw_set(
        "Components",
        crate::instances::components::components_table(lua, |f| checked(lua, &prelude, f))?,
    )?;
    game.raw_set("Systems", crate::systems::systems_table(lua, |f| checked(lua, &prelude, f))?)?;
    let (store, cloud) = crate::store::install(lua, stores, &|f| checked(lua, &prelude, f))?;
    game.raw_set("Store", store)?;
    game.raw_set("Session", crate::session::session_table(lua, root, &|f| checked(lua, &prelude, f))?)?;
    game.raw_set("CloudStore", cloud)?;
    game.raw_set("Behaviors", behaviors_table(lua, &prelude)?)?;
    let physics = crate::instances::physics::physics_service(lua, prelude.get("check")?)?;
    game.raw_set("Physics", physics.clone())?;
    game.set_readonly(true);
    base.raw_set("game", game)?;
    base.raw_set("Physics", physics)?;
    base.raw_set("workspace", ws.clone())?;

    let handle = lua.create_function(|lua, (_, name): (Value, mlua::LuaString)| {
        let name = name.to_str()?;
        let id = with_world(lua, |w| w.handle(&name).filter(|&h| w.contains(h)))?;
        instance_value(lua, id)
    })?;
    let handles_meta = lua.create_table()?;
    handles_meta.raw_set("__index", handle)?;
    handles_meta.raw_set("__metatable", "handles are read-only")?;
    handles_meta.set_readonly(true);
    let handles = lua.create_table()?;
    handles.set_metatable(Some(handles_meta))?;
    handles.set_readonly(true);
    base.raw_set("handles", handles)?;
    base.set_readonly(true);

    // Freeze the shared metatable of Signal handles so no script can change it for others
    // (the Instance and Component metatables are frozen by their `install`).
    let freeze: Function = lua
        .load(
            "return function(v) local m = getmetatable(v) if type(m) == 'table' then table.freeze(m) end end",
        )
        .set_name("=arbor-freeze")
        .eval()?;
    freeze.call::<()>(lua.create_userdata(signals::Signal { target: workspace, name: "".into() })?)?;
    Ok(base)
}
