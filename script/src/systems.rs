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

use crate::api::convert::{Status, fail, instance_id, ok, type_name};
use crate::api::handle::instance_list;
use crate::host::ScriptHost;
use crate::log::Level;
use crate::state::{running_stack, with_state, with_world};
use crate::tick_share::SharedPhase;
use arbor_core::{
    Id,
    components::{ComponentId, Query, SchemaError},
    raw::AncestryQuery,
};
use mlua::{Function, Lua, Result, Table, Value};
use std::sync::Arc;

/// The error raised by `Register` outside a script's top-level chunk.
pub const NOT_TOP_LEVEL: &str = "systems can only be registered at the top level of a script";

/// One registered system.
pub(crate) struct ScriptSystem {
    /// The name given at registration (for logs).
    pub name: Arc<str>,
    query: AncestryQuery,
    callback: Function,
    /// The last match list handed to the callback, and its frozen Lua array.
    cached: Option<CachedMatches>,
}

/// A system's last match list and the frozen Lua array made of it.
struct CachedMatches {
    /// The query's [`AncestryQuery::computed_at`] when the list was last checked.
    computed_at: Option<(u64, u64)>,
    ids: Vec<Id>,
    list: Table,
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
                    return Err(crate::api::props::DESTROYED.to_owned());
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
        with_state(lua, |s| s.registered.push(system))?;
    }
    ok(lua, Value::Nil)
}

/// The `game.Systems` table (frozen).
pub fn systems_table(lua: &Lua, wrap: impl Fn(Function) -> Result<Function>) -> Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("Register", wrap(lua.create_function(register)?)?)?;
    t.set_readonly(true);
    Ok(t)
}

impl ScriptHost {
    /// The frozen Lua array of system `s` of instance `i`'s matches, or `None` when nothing
    /// matches. The array is rebuilt only when the matches changed.
    fn system_matches(&mut self, i: usize, s: usize) -> Result<Option<Table>> {
        let system = &mut self.instances[i].systems[s];
        let lua = &self.lua;
        // The usual case, nothing moved: answered from the world's revisions and the cached
        // list, without touching the query.
        let current = self.world.borrow().map_err(mlua::Error::runtime)?.ancestry_revisions();
        if let Some(c) = &system.cached
            && c.computed_at == Some(current)
        {
            return Ok((!c.ids.is_empty()).then(|| c.list.clone()));
        }
        // Recomputed (or not, if the revisions moved back): keep the array if the matches are
        // the same, else build a new one.
        let cached_ids = system.cached.as_ref().map(|c| c.ids.as_slice());
        let fresh = with_world(lua, |w| {
            let ids = w.query_under(&mut system.query);
            (cached_ids != Some(ids)).then(|| ids.to_vec())
        })?;
        let computed_at = system.query.computed_at();
        match fresh {
            None => system.cached.as_mut().expect("cached").computed_at = computed_at,
            Some(ids) => {
                let list = instance_list(lua, &ids)?;
                list.set_readonly(true);
                system.cached = Some(CachedMatches { computed_at, ids, list });
            }
        }
        Ok(system.cached.as_ref().filter(|c| !c.ids.is_empty()).map(|c| c.list.clone()))
    }

    /// Runs every registered system of every enabled, live instance (the Systems phase).
    pub(crate) fn run_systems(&mut self, dt: f64) {
        let n = self.instances.len();
        let start = self.share.start(SharedPhase::Systems, n);
        for k in 0..n {
            let i = (start + k) % n;
            if self.instances[i].systems.is_empty() || !self.is_runnable(i) {
                continue;
            }
            if self.share.exhausted() {
                let left: usize = (k..n).map(|k| self.instances[(start + k) % n].systems.len()).sum();
                self.share.defer(SharedPhase::Systems, i, left as u64);
                return;
            }
            for s in 0..self.instances[i].systems.len() {
                if self.instances[i].disabled {
                    break;
                }
                // The array is the script's: built in its memory category, under its share.
                let key = self.instances[i].running.key;
                let category = crate::budget::enter_category(&self.lua, crate::budget::category_of(key));
                let matches = self.system_matches(i, s);
                crate::budget::enter_category(&self.lua, category);
                let list = match matches {
                    Ok(Some(list)) => list,
                    Ok(None) => continue,
                    Err(e) => {
                        let name = &self.instances[i].systems[s].name;
                        self.push_log(Level::Error, format!("system '{name}' could not run: {e}"));
                        continue;
                    }
                };
                let inst = &self.instances[i];
                let result = self.call_entry(&inst.running, &inst.systems[s].callback, (dt, list));
                self.record_outcome(i, result);
            }
        }
    }

    /// Systems registered by running instances.
    pub fn system_count(&self) -> usize {
        self.instances.iter().map(|i| i.systems.len()).sum()
    }
}
