//! `game.Session` (`docs/scripting.md`, "Players and characters"): the script face of
//! [`arbor_sim::players::Players`].
//!
//! - The session signals `PlayerJoined(userId)`, `PlayerLeft(character, userId)` and
//!   `CharacterDied(character, userId, attacker)` are [`Signal`]s of the DataModel; scripts
//!   `Connect` to them, only the engine fires them ([`fire_joins_and_leaves`],
//!   [`fire_deaths`]), each handler as its own entry with a fresh budget, errors logged and
//!   not counted toward the disable counter (as every signal handler).
//! - Joins wait in [`Players`] until a `PlayerJoined` handler is connected, then fire in
//!   connection order in the AdmitPlayers phase. `PlayerLeft` fires there too, before the
//!   simulation destroys the character.
//! - The functions (`BindCharacter`, `CharacterOf`, `Kick`, `Damage`, `GetPlayers`,
//!   `LocalCharacter`) live in `service`.
//!
//! [`Players`] is moved into the VM's [`PlayersSlot`] for each phase, as the arena is moved
//! into the world slot, and moved back after; outside a phase the functions raise.

mod service;

pub(crate) use service::session_table;

use crate::phase_slot::{PhaseSlot, PhaseValue};
pub use crate::signals::reserved::{CHARACTER_DIED, PLAYER_JOINED, PLAYER_LEFT};
use crate::signals::{self, Signal};
use arbor_core::Id;
use arbor_sim::players::Players;
use mlua::{Lua, MultiValue, Result, Value};
use std::rc::Rc;

/// Where the sessions live while scripts run: `Some` during a phase.
pub type PlayersSlot = PhaseSlot<Players>;

impl PhaseValue for Players {
    const BUSY: &'static str = "the sessions are busy";
    const ABSENT: &'static str = "game.Session is not available outside a tick";
}

/// Runs `f` with the sessions, or fails with a clear error outside a phase.
pub(crate) fn with_players<R>(lua: &Lua, f: impl FnOnce(&mut Players) -> R) -> Result<R> {
    let slot = lua
        .app_data_ref::<Rc<PlayersSlot>>()
        .map(|s| Rc::clone(&s))
        .ok_or_else(|| mlua::Error::runtime("no script host"))?;
    let mut players = slot.borrow().map_err(mlua::Error::runtime)?;
    Ok(f(&mut players))
}

fn session_signal(root: Id, name: &str) -> Signal {
    Signal { target: root, name: name.into() }
}

/// Fires `PlayerLeft` for every session that ended, then — once a `PlayerJoined` handler
/// exists — `PlayerJoined` for every queued join (the AdmitPlayers phase).
pub(crate) fn fire_joins_and_leaves(lua: &Lua, root: Id) -> Result<()> {
    let leaving = with_players(lua, |p| p.leaving().to_vec())?;
    let left = session_signal(root, PLAYER_LEFT);
    for leave in leaving {
        let args = args(lua, (instance(lua, leave.character)?, leave.user_id as f64))?;
        signals::fire(lua, &left, args)?;
    }
    let joined = session_signal(root, PLAYER_JOINED);
    if signals::has_handlers(lua, &joined)? {
        for user_id in with_players(lua, Players::take_joins)? {
            signals::fire(lua, &joined, args(lua, user_id as f64)?)?;
        }
    }
    Ok(())
}

/// Fires `CharacterDied` for the deaths announced this tick (the Systems phase).
pub(crate) fn fire_deaths(lua: &Lua, root: Id) -> Result<()> {
    let died = with_players(lua, Players::take_died)?;
    let signal = session_signal(root, CHARACTER_DIED);
    for d in died {
        let args = args(
            lua,
            (instance(lua, Some(d.character))?, d.user_id.map(|u| u as f64), instance(lua, d.attacker)?),
        )?;
        signals::fire(lua, &signal, args)?;
    }
    Ok(())
}

fn instance(lua: &Lua, id: Option<Id>) -> Result<Value> {
    crate::luau::convert::instance_value(lua, id)
}

fn args(lua: &Lua, v: impl mlua::IntoLuaMulti) -> Result<MultiValue> {
    v.into_lua_multi(lua)
}
