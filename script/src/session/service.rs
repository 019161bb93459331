//! The functions of `game.Session`: `BindCharacter(userId, character)`,
//! `CharacterOf(userId)`, `Kick(userId, reason?)`, `Damage(target, amount, attacker?)`,
//! `GetPlayers()`, `LocalCharacter()`, and the three session signals as fields.
//!
//! User ids are Luau numbers: whole, `1 <= id < 2^53`. `Kick` answers false for an invalid
//! id instead of raising (`docs/scripting.md`, "Players and characters"); the others raise.

use super::{CHARACTER_DIED, PLAYER_JOINED, PLAYER_LEFT, with_players};
use crate::luau::convert::{Status, fail, instance_id, instance_value, ok, type_name};
use crate::signals::Signal;
use crate::state::{with_state, with_world};
use arbor_core::Id;
use arbor_sim::players::MAX_USER_ID;
use mlua::{Function, Lua, Result, Table, Value};

/// A whole number in `1..2^53`, or why not.
fn user_id(lua: &Lua, v: &Value) -> std::result::Result<u64, String> {
    let n = match v {
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        other => return Err(format!("a user id must be a number, got {}", type_name(lua, other))),
    };
    if n.fract() == 0.0 && n >= 1.0 && n < MAX_USER_ID as f64 {
        Ok(n as u64)
    } else {
        Err(format!("user id {n} is not a whole number from 1 to 2^53"))
    }
}

fn server_only(lua: &Lua, what: &str) -> Result<Option<Status>> {
    if with_state(lua, |s| s.client)? {
        return Ok(Some(fail(lua, format!("game.Session.{what} is server-only"))?));
    }
    Ok(None)
}

/// Builds the frozen `game.Session` table; `checked` turns `(ok, value)` primitives into
/// functions that raise at the caller's line.
pub(crate) fn session_table(
    lua: &Lua,
    root: Id,
    checked: &dyn Fn(Function) -> Result<Function>,
) -> Result<Table> {
    let t = lua.create_table()?;
    for name in [PLAYER_JOINED, PLAYER_LEFT, CHARACTER_DIED] {
        t.raw_set(name, Signal { target: root, name: name.into() })?;
    }

    let bind = lua.create_function(|lua, (user, character): (Value, Value)| -> Result<Status> {
        if let Some(refused) = server_only(lua, "BindCharacter")? {
            return Ok(refused);
        }
        let user = match user_id(lua, &user) {
            Ok(u) => u,
            Err(m) => return fail(lua, m),
        };
        let Some(character) = instance_id(lua, &character) else {
            return fail(
                lua,
                format!("BindCharacter expects an Instance, got {}", type_name(lua, &character)),
            );
        };
        let bound = with_world(lua, |w| with_players(lua, |p| p.bind_character(w, user, character)))??;
        match bound {
            Ok(()) => ok(lua, Value::Nil),
            Err(e) => fail(lua, e.to_string()),
        }
    })?;
    t.raw_set("BindCharacter", checked(bind)?)?;

    let character_of = lua.create_function(|lua, user: Value| -> Result<Status> {
        let user = match user_id(lua, &user) {
            Ok(u) => u,
            Err(m) => return fail(lua, m),
        };
        let id = with_world(lua, |w| with_players(lua, |p| p.character_of(w, user)))??;
        ok(lua, instance_value(lua, id)?)
    })?;
    t.raw_set("CharacterOf", checked(character_of)?)?;

    let kick =
        lua.create_function(|lua, (user, reason): (Value, Option<mlua::LuaString>)| -> Result<Status> {
            if let Some(refused) = server_only(lua, "Kick")? {
                return Ok(refused);
            }
            let Ok(user) = user_id(lua, &user) else { return ok(lua, false) };
            let reason = reason.map(|r| r.to_string_lossy());
            if reason.as_ref().is_some_and(|r| r.len() > arbor_sim::players::MAX_KICK_REASON_BYTES) {
                return fail(
                    lua,
                    format!("a kick reason is at most {} bytes", arbor_sim::players::MAX_KICK_REASON_BYTES),
                );
            }
            ok(lua, with_players(lua, |p| p.kick(user, reason.as_deref()))?)
        })?;
    t.raw_set("Kick", checked(kick)?)?;

    let damage =
        lua.create_function(|lua, (target, amount, attacker): (Value, Value, Value)| -> Result<Status> {
            if let Some(refused) = server_only(lua, "Damage")? {
                return Ok(refused);
            }
            let Some(target) = instance_id(lua, &target) else {
                return fail(lua, format!("Damage expects an Instance, got {}", type_name(lua, &target)));
            };
            let amount = match amount {
                Value::Integer(i) => i as f64,
                Value::Number(n) => n,
                other => {
                    return fail(lua, format!("damage must be a number, got {}", type_name(lua, &other)));
                }
            };
            let attacker = match &attacker {
                Value::Nil => None,
                v => match instance_id(lua, v) {
                    Some(a) => Some(a),
                    None => {
                        return fail(
                            lua,
                            format!("the attacker must be an Instance or nil, got {}", type_name(lua, v)),
                        );
                    }
                },
            };
            let left = with_world(lua, |w| with_players(lua, |p| p.damage(w, target, amount, attacker)))??;
            match left {
                Ok(left) => ok(lua, left),
                Err(e) => fail(lua, e.to_string()),
            }
        })?;
    t.raw_set("Damage", checked(damage)?)?;

    let players = lua.create_function(|lua, ()| -> Result<Status> {
        let ids: Vec<f64> = with_players(lua, |p| p.user_ids().map(|u| u as f64).collect())?;
        ok(lua, lua.create_sequence_from(ids)?)
    })?;
    t.raw_set("GetPlayers", checked(players)?)?;

    let local = lua.create_function(|lua, ()| -> Result<Status> {
        let id = with_state(lua, |s| s.local_character)?;
        let id = id.filter(|&c| with_world(lua, |w| w.contains(c)).unwrap_or(false));
        ok(lua, instance_value(lua, id)?)
    })?;
    t.raw_set("LocalCharacter", checked(local)?)?;
    t.set_readonly(true);
    Ok(t)
}
