//! [`HostState`]: what Lua callbacks share with the host, kept in the Lua state's app data
//! (the log, signal connections, prefabs), the [`RunningStack`] of script instances
//! executing, and
//! [`with_world`], the way a callback reaches the arena.
//!
//! The arena itself is moved into the VM's [`WorldSlot`] while scripts run (see `host`) and
//! moved back afterwards, so callbacks borrow it through a `RefCell`. The slot lives in an
//! `Rc` held by the app data (so it outlives every Lua value) and by the host; the raw
//! Instance handles (`instances::handle`) carry its address so their metamethods reach the world
//! with one borrow. Invariant: nothing holds the world borrow while calling back into Lua
//! (handlers, metamethods), so nested entries can borrow it again.

use crate::log::{Level, ScriptLog};
use crate::usage::EntryUsage;
pub use crate::world_slot::{WorldSlot, world_slot};
use arbor_core::{Arena, Id};
use mlua::{Lua, Result};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// One running script instance, as callbacks see it.
#[derive(Clone, Debug)]
pub struct Running {
    /// The instance key (unique per instance, including reload trials).
    pub key: u64,
    /// The Script node.
    pub script: Id,
    /// Display path of the script (`Workspace.Door.Script`); shared, so pushing an entry
    /// does not copy it.
    pub name: Arc<str>,
    /// What the instance has used (shared by every clone of this instance's `Running`).
    pub usage: Rc<EntryUsage>,
}

impl Running {
    /// The engine itself (key 0): what runs outside any script instance.
    pub fn engine() -> Self {
        Self { key: 0, script: Id::NONE, name: Arc::from("engine"), usage: Rc::default() }
    }
}

/// The script instances currently executing (innermost last): pushed and popped around every
/// entry by the host (which holds it directly, so a dispatch does no app-data lookup) and
/// read by callbacks (`print`, `Connect`, `Register`) through [`running_stack`].
#[derive(Default)]
pub struct RunningStack(RefCell<Vec<Running>>);

impl RunningStack {
    /// Enters `running`.
    pub fn push(&self, running: Running) {
        self.0.borrow_mut().push(running);
    }

    /// Leaves the innermost entry.
    pub fn pop(&self) {
        self.0.borrow_mut().pop();
    }

    /// The innermost running instance.
    pub fn current(&self) -> Option<Running> {
        self.0.borrow().last().cloned()
    }

    /// The innermost running instance's key.
    pub fn current_key(&self) -> Option<u64> {
        self.0.borrow().last().map(|r| r.key)
    }

    /// The innermost running instance's name, or `script`.
    pub fn current_name(&self) -> String {
        self.0.borrow().last().map_or_else(|| "script".to_owned(), |r| r.name.to_string())
    }
}

/// The running stack of `lua`'s host.
pub fn running_stack(lua: &Lua) -> Result<Rc<RunningStack>> {
    lua.app_data_ref::<Rc<RunningStack>>()
        .map(|s| Rc::clone(&s))
        .ok_or_else(|| mlua::Error::runtime("no script host"))
}

/// Host state shared with callbacks.
#[derive(Default)]
pub struct HostState {
    /// The server log.
    pub log: ScriptLog,
    /// Whether this host runs client scripts (client-local objects; `Destroy` raises).
    pub client: bool,
    /// The folder whose children are prefab templates.
    pub prefabs: Option<Id>,
    /// The key of the instance whose top-level chunk is running, if any (systems may be
    /// registered only then).
    pub loading: Option<u64>,
    /// On a client: the character this client's user owns (`game.Session.LocalCharacter`).
    pub local_character: Option<Id>,
}

/// Runs `f` with the world, or fails with a clear error if none is available (outside a
/// tick) or it is already borrowed.
pub fn with_world<R>(lua: &Lua, f: impl FnOnce(&mut Arena) -> R) -> Result<R> {
    let slot = world_slot(lua)?;
    let mut world = slot.borrow().map_err(mlua::Error::runtime)?;
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
    let name = running_stack(lua)?.current_name();
    with_state(lua, |s| {
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
    arena.full_name(id)
}
