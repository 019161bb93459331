//! Data stores for scripts, the Luau side: `game.Store` (place-local, synchronous reads,
//! group-committed to SQLite off the tick thread) and `game.CloudStore` (shared by every
//! server of an experience, asynchronous, offline SQLite or PostgreSQL backends). The stores
//! themselves (the local store and its writer, the cloud store's core and backends, the
//! value byte format, keys and errors) are the `arbor-store` crate; this module turns Lua
//! values into store values and back and gives scripts the two tables.
//!
//! The host reaches this module through four calls: [`install`] (builds the two Luau tables
//! for `game`), [`deliver`] (runs due cloud callbacks, at the start of the Update phase),
//! [`end_tick`] (hands the tick's accepted puts to the writer: one transaction per tick) and
//! [`shutdown`] (waits until every accepted put is durable), or [`shutdown_by`] (the same
//! within a deadline, reporting what it abandoned). State lives in the Lua state's
//! app data, so the Luau functions reach it without the host.
//!
//! Files: `key` (keys and names from Lua values, and how messages describe a Lua value),
//! `value` (Lua values to the store format and back), `local_store` (the Luau surface of the
//! local store), `cloud_store` (the Luau surface of the cloud store and its callbacks). The
//! user guide is `docs/stores.md`.

pub(crate) mod cloud_store;
mod key;
mod local_store;
mod value;

pub use arbor_store::{Abandoned, LOCAL_STORE_FILE, StoreConfig, StoreStats};
pub use cloud_store::CloudQueue;

use crate::log::Level;
use arbor_store::Severity;
use mlua::{Function, Lua, Result, Table};
use std::time::Instant;

/// Builds `game.Store` and `game.CloudStore` (frozen tables) and puts the store state into
/// `lua`'s app data. `checked` wraps a `(ok, value)` primitive so its failures raise at the
/// caller's line (see `api::checked`).
pub(crate) fn install(
    lua: &Lua,
    config: &StoreConfig,
    checked: &dyn Fn(Function) -> Result<Function>,
) -> Result<(Table, Table)> {
    let store = local_store::install(lua, config.data_dir.clone(), checked)?;
    let cloud = cloud_store::install(lua, config, checked)?;
    Ok((store, cloud))
}

/// Runs the cloud callbacks whose results arrived, each as its own entry, and sends queued
/// requests the server's budget allows. `time` is the world clock (seconds), `players` the
/// user ids of the connected players, ascending (the budget is 60 + 10 × players requests a
/// minute; a player's session lock is released once they are gone and their writes landed).
pub(crate) fn deliver(lua: &Lua, time: f64, players: &[u64]) {
    cloud_store::deliver(lua, time, players);
}

/// Ends the tick for the stores: the puts accepted during it go to the writer as one
/// transaction.
pub(crate) fn end_tick(lua: &Lua) {
    let lines = local_store::with_stores(lua, |s| s.end_tick()).unwrap_or_default();
    push_lines(lua, lines);
    cloud_store::end_tick(lua);
}

/// The local stores' counters, after taking the writer's latest reports (and logging them).
pub(crate) fn stats(lua: &Lua) -> StoreStats {
    let Ok((stats, lines)) = local_store::with_stores(lua, |s| {
        let lines = s.poll();
        (s.stats(), lines)
    }) else {
        return StoreStats::default();
    };
    push_lines(lua, lines);
    stats
}

/// Writes the local stores' log lines to the host log.
fn push_lines(lua: &Lua, lines: Vec<(Severity, String)>) {
    if lines.is_empty() {
        return;
    }
    let _ = crate::state::with_state(lua, |s| {
        for (severity, text) in lines {
            let level = match severity {
                Severity::Warn => Level::Warn,
                Severity::Error => Level::Error,
            };
            s.log.push(level, text);
        }
    });
}

/// Waits until every accepted put is durable (or its commit failed for good and was
/// logged); called when the server stops.
pub(crate) fn shutdown(lua: &Lua) {
    let lines = local_store::with_stores(lua, |s| s.shutdown()).unwrap_or_default();
    push_lines(lua, lines);
    cloud_store::shutdown(lua);
}

/// [`shutdown`] that waits until `deadline` at most: the local stores first, then the cloud
/// store with the time left. Returns what was not durable, landed or released by then.
pub(crate) fn shutdown_by(lua: &Lua, deadline: Instant) -> Abandoned {
    let (lines, mut abandoned) =
        local_store::with_stores(lua, |s| s.shutdown_by(deadline)).unwrap_or_default();
    push_lines(lua, lines);
    abandoned.merge(cloud_store::shutdown_by(lua, deadline));
    abandoned
}
