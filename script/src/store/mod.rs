//! Data stores for scripts: `game.Store` (place-local, synchronous reads, group-committed
//! to SQLite off the tick thread) and `game.CloudStore` (shared by every server of an
//! experience, asynchronous, offline SQLite or PostgreSQL backends).
//!
//! The host reaches this module through four calls: [`install`] (builds the two Luau tables
//! for `game`), [`deliver`] (runs due cloud callbacks, at the start of the Update phase),
//! [`end_tick`] (hands the tick's accepted puts to the writer: one transaction per tick) and
//! [`shutdown`] (waits until every accepted put is durable). State lives in the Lua state's
//! app data, so the Luau functions reach it without the host.

use mlua::{Function, Lua, Result, Table};
use std::path::PathBuf;

/// Where stores keep their data.
#[derive(Clone, Debug, Default)]
pub struct StoreConfig {
    /// Directory of the local store files (and of the offline cloud store). `None`: the
    /// server has no data directory and `game.Store.open` / `game.CloudStore.open` raise.
    pub data_dir: Option<PathBuf>,
    /// `postgres://...`: the fleet cloud store; `None`: the offline SQLite cloud store in
    /// `data_dir`.
    pub cloud_url: Option<String>,
}

/// Builds `game.Store` and `game.CloudStore` (frozen tables) and puts the store state into
/// `lua`'s app data. `checked` wraps a `(ok, value)` primitive so its failures raise at the
/// caller's line (see `api::checked`).
pub(crate) fn install(
    lua: &Lua,
    config: &StoreConfig,
    checked: &dyn Fn(Function) -> Result<Function>,
) -> Result<(Table, Table)> {
    let _ = (config, checked);
    let store = lua.create_table()?;
    store.set_readonly(true);
    let cloud = lua.create_table()?;
    cloud.set_readonly(true);
    Ok((store, cloud))
}

/// Runs the cloud callbacks whose results arrived, each as its own entry, and sends queued
/// requests the server's budget allows. `time` is the world clock (seconds), `players` the
/// user ids of the connected players, ascending (the budget is 60 + 10 × players requests a
/// minute; a player's session lock is released once they are gone and their writes landed).
pub(crate) fn deliver(lua: &Lua, time: f64, players: &[u64]) {
    let _ = (lua, time, players);
}

/// Ends the tick for the stores: the puts accepted during it go to the writer as one
/// transaction.
pub(crate) fn end_tick(lua: &Lua, tick: u64) {
    let _ = (lua, tick);
}

/// Waits until every accepted put is durable (or its commit failed for good and was
/// logged); called when the server stops.
pub(crate) fn shutdown(lua: &Lua) {
    let _ = lua;
}
