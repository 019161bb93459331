//! The world slot: the arena a host lends its Lua state for the length of a phase
//! ([`WorldSlot`], a [`PhaseSlot`] of the [`Arena`]), found through the Lua state's app data.
//! It sits on the bottom floor so the Luau boundary (`luau`) can reach the world without the
//! host's state above it.

use crate::phase_slot::{PhaseSlot, PhaseValue};
use arbor_core::Arena;
use mlua::{Lua, Result};
use std::rc::Rc;

/// Where the world lives while scripts run: `Some` during a phase, `None` between phases.
pub type WorldSlot = PhaseSlot<Arena>;

/// Why the world could not be borrowed.
pub const WORLD_BUSY: &str = "the world is busy";
/// Why the world could not be borrowed outside a phase.
pub const WORLD_ABSENT: &str = "the world is not available outside a tick";

impl PhaseValue for Arena {
    const BUSY: &'static str = WORLD_BUSY;
    const ABSENT: &'static str = WORLD_ABSENT;
}

/// The world slot of `lua`'s host.
pub fn world_slot(lua: &Lua) -> Result<Rc<WorldSlot>> {
    lua.app_data_ref::<Rc<WorldSlot>>()
        .map(|s| Rc::clone(&s))
        .ok_or_else(|| mlua::Error::runtime("no script host"))
}
