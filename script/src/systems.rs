//! ECS systems registered by scripts: `game.Systems.Register(name, query, fn)` at a script's
//! top level, dispatched in the tick's Systems phase (after `Update`, before
//! `PhysicsUpdate`), on the server only.
//!
//! ```lua
//! game.Components.Define("Health", { Value = "number", Regen = "number" })
//! game.Systems.Register("Regen", { with = { "Health" }, without = { "Dead" } }, function(dt, entities)
//!     for _, e in entities do
//!         local h = e:GetComponent("Health")
//!         h.Value += h.Regen * dt
//!     end
//! end)
//! ```
//!
//! - **Query.** `with` (at least one component), `without` (optional) and `under` (an
//!   Instance, default the Workspace): the system sees the live instances holding every
//!   `with` component and no `without` component that are descendants of `under`, so a
//!   detached subtree is a subtree systems skip (`docs/scripting.md`, "Systems"). The match
//!   list is the arena's cached [`AncestryQuery`], recomputed only when the topology or
//!   component membership moved; the Lua array handed to the callback is frozen and reused
//!   while the matches stay the same. A system with no matches is not called.
//! - **Dispatch.** Systems run in the order their scripts started, then in registration
//!   order, each call `fn(dt, entities)` one entry with a fresh instruction budget,
//!   attributed to the registering script. Its errors count towards that script instance's
//!   consecutive error counter like `Update`'s; a disabled instance's systems stop with its
//!   hooks until a reload.
//! - **Registration** is refused outside the top-level chunk (`systems can only be
//!   registered at the top level of a script`), so a reload's trial instance registers its
//!   systems afresh: a committed reload replaces the old instance's systems with the trial's,
//!   a rolled-back one drops the trial's. On a client host the call is checked the same way
//!   and then ignored: registered systems run exclusively on the server (`docs/scripting.md`,
//!   "Systems").
//!
//! Invariant: an instance's systems live and die with the instance (retired, replaced by a
//! reload, or discarded as a failed trial); nothing else holds them.

use crate::luau::convert::{Status, fail, instance_id, ok, type_name};
use crate::state::{running_stack, with_state, with_world};
use arbor_core::{
    Id,
    components::{ComponentId, Query, SchemaError},
    raw::AncestryQuery,
};
use mlua::{Function, Lua, Result, Table, Value};
use std::sync::Arc;

/// The error raised by `Register` outside a script's top-level chunk.
pub const NOT_TOP_LEVEL: &str = "systems can only be registered at the top level of a script";

/// The systems registered by the instance whose top-level chunk is loading, moved into it
/// when its chunk returns ([`take_pending`]). The Lua state's app data.
#[derive(Default)]
struct PendingSystems(Vec<ScriptSystem>);

fn with_pending<R>(lua: &Lua, f: impl FnOnce(&mut PendingSystems) -> R) -> Result<R> {
    let mut pending = lua
        .try_app_data_mut::<PendingSystems>()
        .map_err(|_| mlua::Error::runtime("the system registry is busy"))?
        .ok_or_else(|| mlua::Error::runtime("no script host"))?;
    Ok(f(&mut pending))
}

/// Takes the systems the loading instance registered.
pub(crate) fn take_pending(lua: &Lua) -> Vec<ScriptSystem> {
    with_pending(lua, |p| std::mem::take(&mut p.0)).unwrap_or_default()
}

/// One registered system.
pub(crate) struct ScriptSystem {
    /// The name given at registration (for logs).
    pub name: Arc<str>,
    /// Which instances it runs over.
    pub(crate) query: AncestryQuery,
    /// Called with `(dt, matches)`.
    pub(crate) callback: Function,
    /// The last match list handed to the callback, and its frozen Lua array.
    pub(crate) cached: Option<CachedMatches>,
}

/// A system's last match list and the frozen Lua array made of it.
pub(crate) struct CachedMatches {
    /// The query's [`AncestryQuery::computed_at`] when the list was last checked.
    pub(crate) computed_at: Option<(u64, u64)>,
    /// The matching ids, in order.
    pub(crate) ids: Vec<Id>,
    /// The frozen array handed to the callback.
    pub(crate) list: Table,
}

impl std::fmt::Debug for ScriptSystem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptSystem").field("name", &self.name).finish_non_exhaustive()
    }
}

/// Component ids named by the list `v` (nil is empty), or the message to raise.
fn component_list(lua: &Lua, key: &str, v: Value) -> std::result::Result<Vec<ComponentId>, String> {
    let names: Vec<String> = match v {
        Value::Nil => Vec::new(),
        Value::Table(t) => t
            .sequence_values::<String>()
            .collect::<Result<_>>()
            .map_err(|_| format!("'{key}' must be a list of component names"))?,
        other => {
            return Err(format!("'{key}' must be a list of component names, not {}", type_name(lua, &other)));
        }
    };
    with_world(lua, |w| {
        names
            .iter()
            .map(|n| {
                w.components()
                    .component(n)
                    .ok_or_else(|| SchemaError::UnknownComponent(n.clone()).to_string())
            })
            .collect()
    })
    .map_err(|e| e.to_string())?
}

/// The system a `Register` call declares, or the message to raise.
fn declared_system(
    lua: &Lua,
    name: &str,
    spec: &Table,
    callback: Function,
) -> std::result::Result<ScriptSystem, String> {
    let mut with = Vec::new();
    let mut without = Vec::new();
    let mut under = None;
    for pair in spec.pairs::<String, Value>() {
        let (key, v) = pair.map_err(|_| "a system's query is a table with string keys".to_owned())?;
        match key.as_str() {
            "with" => with = component_list(lua, "with", v)?,
            "without" => without = component_list(lua, "without", v)?,
            "under" => {
                let id = instance_id(lua, &v)
                    .ok_or_else(|| format!("'under' must be an Instance, not {}", type_name(lua, &v)))?;
                if !with_world(lua, |w| w.contains(id)).map_err(|e| e.to_string())? {
                    return Err(crate::instances::props::DESTROYED.to_owned());
                }
                under = Some(id);
            }
            other => return Err(format!("a system's query has no option '{other}'")),
        }
    }
    if with.is_empty() {
        return Err(format!("system '{name}' needs at least one component in 'with'"));
    }
    let ancestor = match under {
        Some(id) => id,
        None => with_world(lua, |w| w.workspace()).map_err(|e| e.to_string())?,
    };
    Ok(ScriptSystem {
        name: name.into(),
        query: AncestryQuery::new(Query::new(&with).without(&without), ancestor),
        callback,
        cached: None,
    })
}

/// `game.Systems.Register(name, query, fn)`.
fn register(lua: &Lua, (name, spec, callback): (mlua::LuaString, Table, Function)) -> Result<Status> {
    let current = running_stack(lua)?.current_key();
    let (top_level, client) = with_state(lua, |s| (s.loading.is_some() && s.loading == current, s.client))?;
    if !top_level {
        return fail(lua, NOT_TOP_LEVEL);
    }
    let name = name.to_str()?.to_string();
    let system = match declared_system(lua, &name, &spec, callback) {
        Ok(s) => s,
        Err(m) => return fail(lua, m),
    };
    if !client {
        with_pending(lua, |p| p.0.push(system))?;
    }
    ok(lua, Value::Nil)
}

/// The `game.Systems` table (frozen).
pub fn systems_table(lua: &Lua, wrap: impl Fn(Function) -> Result<Function>) -> Result<Table> {
    lua.set_app_data(PendingSystems::default());
    let t = lua.create_table()?;
    t.raw_set("Register", wrap(lua.create_function(register)?)?)?;
    t.set_readonly(true);
    Ok(t)
}
