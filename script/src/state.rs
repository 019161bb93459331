//! [`HostState`]: what Lua callbacks share with the host, kept in the Lua state's app data
//! (the log, the stack of running script instances, signal connections, prefabs), and
//! [`with_world`], the only way a callback reaches the arena.
//!
//! The arena itself is moved into the Lua app data while scripts run (see `host`) and moved
//! back afterwards, so callbacks borrow it through a `RefCell` with no `unsafe`. Invariant: a
//! callback never holds the world borrow while calling back into Lua (handlers, metamethods),
//! so nested entries can borrow it again.

use crate::log::{Level, ScriptLog};
use crate::signals::Signals;
use arbor_core::{Arena, Id};
use mlua::{Lua, Result};

/// One running script instance, as callbacks see it.
#[derive(Clone, Debug)]
pub struct Running {
    /// The instance key (unique per instance, including reload trials).
    pub key: u64,
    /// The Script node.
    pub script: Id,
    /// Display path of the script (`Workspace.Door.Script`).
    pub name: String,
}

/// Host state shared with callbacks.
#[derive(Default)]
pub struct HostState {
    /// The server log.
    pub log: ScriptLog,
    /// Script instances currently executing (innermost last).
    pub running: Vec<Running>,
    /// Signal connections.
    pub signals: Signals,
    /// Whether this host runs client scripts (client-local objects; `Destroy` raises).
    pub client: bool,
    /// The folder whose children are prefab templates.
    pub prefabs: Option<Id>,
}

impl HostState {
    /// The innermost running instance's name, or `script`.
    pub fn current_name(&self) -> String {
        self.running.last().map_or_else(|| "script".to_owned(), |r| r.name.clone())
    }
}

/// Runs `f` with the world, or fails with a clear error if none is available (outside a
/// tick) or it is already borrowed.
pub fn with_world<R>(lua: &Lua, f: impl FnOnce(&mut Arena) -> R) -> Result<R> {
    let mut world = lua
        .try_app_data_mut::<Arena>()
        .map_err(|_| mlua::Error::runtime("the world is busy"))?
        .ok_or_else(|| mlua::Error::runtime("the world is not available outside a tick"))?;
    Ok(f(&mut world))
}

/// Runs `f` with the host state.
pub fn with_state<R>(lua: &Lua, f: impl FnOnce(&mut HostState) -> R) -> Result<R> {
    let mut state = lua
        .try_app_data_mut::<HostState>()
        .map_err(|_| mlua::Error::runtime("the script host is busy"))?
        .ok_or_else(|| mlua::Error::runtime("no script host"))?;
    Ok(f(&mut state))
}

/// Appends a log line attributed to the running script.
pub fn log(lua: &Lua, level: Level, text: &str) -> Result<()> {
    with_state(lua, |s| {
        let name = s.current_name();
        let line = match level {
            Level::Info => format!("{name}: {text}"),
            Level::Warn => format!("{name}: warning: {text}"),
            Level::Error => format!("{name}: error: {text}"),
        };
        s.log.push(level, line);
    })
}

/// The dotted path of `id` (`Workspace.Model.Part`), without the root.
pub fn full_name(arena: &Arena, id: Id) -> String {
    let mut parts: Vec<&str> = std::iter::once(id)
        .chain(arena.ancestors(id))
        .filter(|&a| a != arena.root())
        .filter_map(|a| {
            arena.name_of(a).or_else(|| arena.lifecycle_view(id).get(a).map(|n| arena.names().text(n.name())))
        })
        .collect();
    parts.reverse();
    parts.join(".")
}
