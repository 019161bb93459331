//! Data stores for scripts: `game.Store` (place-local, synchronous reads, group-committed
//! to SQLite off the tick thread) and `game.CloudStore` (shared by every server of an
//! experience, asynchronous, offline SQLite or PostgreSQL backends).
//!
//! The host reaches this module through four calls: [`install`] (builds the two Luau tables
//! for `game`), [`deliver`] (runs due cloud callbacks, at the start of the Update phase),
//! [`end_tick`] (hands the tick's accepted puts to the writer: one transaction per tick) and
//! [`shutdown`] (waits until every accepted put is durable). State lives in the Lua state's
//! app data, so the Luau functions reach it without the host.
//!
//! Shared by both stores: the value codec (`value`), the key and name rules (`key`) and the
//! errors (`error`). The local store: `local` (its state on the tick thread), `writer` (its
//! I/O thread) and `local_api` (its Luau surface). The user guide is `docs/stores.md`.

mod cloud;
mod error;
mod key;
mod local;
mod local_api;
mod value;
mod writer;

pub use local::{LOCAL_STORE_FILE, StoreStats};

use crate::log::Level;
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

impl StoreConfig {
    /// The local stores' SQLite file ([`LOCAL_STORE_FILE`] in the data directory), if there
    /// is a data directory.
    pub fn local_store_file(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join(LOCAL_STORE_FILE))
    }

    /// Checks that the fleet cloud store, if one is named, answers: connects once (with the
    /// pool's 10 s timeout) and makes sure its tables exist. For a server to run at start,
    /// so a fleet server whose database is unreachable fails at once with the reason instead
    /// of serving players whose data cannot load. Blocks; the offline store needs no check.
    pub fn check_cloud_store(&self) -> std::result::Result<(), String> {
        let Some(url) = &self.cloud_url else { return Ok(()) };
        cloud::postgres::Postgres::probe(url)
            .map_err(|e| format!("the cloud store at {url} cannot be reached: {}", e.0))
    }
}

/// Builds `game.Store` and `game.CloudStore` (frozen tables) and puts the store state into
/// `lua`'s app data. `checked` wraps a `(ok, value)` primitive so its failures raise at the
/// caller's line (see `api::checked`).
pub(crate) fn install(
    lua: &Lua,
    config: &StoreConfig,
    checked: &dyn Fn(Function) -> Result<Function>,
) -> Result<(Table, Table)> {
    let store = local_api::install(lua, config.data_dir.clone(), checked)?;
    let cloud = cloud::api::install(lua, config, checked)?;
    Ok((store, cloud))
}

/// Runs the cloud callbacks whose results arrived, each as its own entry, and sends queued
/// requests the server's budget allows. `time` is the world clock (seconds), `players` the
/// user ids of the connected players, ascending (the budget is 60 + 10 × players requests a
/// minute; a player's session lock is released once they are gone and their writes landed).
pub(crate) fn deliver(lua: &Lua, time: f64, players: &[u64]) {
    let _ = (lua, time, players);
    cloud::api::deliver(lua, time, players);
}

/// Ends the tick for the stores: the puts accepted during it go to the writer as one
/// transaction.
pub(crate) fn end_tick(lua: &Lua, tick: u64) {
    let _ = tick;
    let lines = local_api::with_stores(lua, |s| s.end_tick()).unwrap_or_default();
    push_lines(lua, lines);
    cloud::api::end_tick(lua);
}

/// The local stores' counters, after taking the writer's latest reports (and logging them).
pub(crate) fn stats(lua: &Lua) -> StoreStats {
    let Ok((stats, lines)) = local_api::with_stores(lua, |s| {
        let lines = s.poll();
        (s.stats(), lines)
    }) else {
        return StoreStats::default();
    };
    push_lines(lua, lines);
    stats
}

/// Writes the local stores' log lines to the host log.
fn push_lines(lua: &Lua, lines: Vec<(Level, String)>) {
    if lines.is_empty() {
        return;
    }
    let _ = crate::state::with_state(lua, |s| {
        for (level, text) in lines {
            s.log.push(level, text);
        }
    });
}

/// Waits until every accepted put is durable (or its commit failed for good and was
/// logged); called when the server stops.
pub(crate) fn shutdown(lua: &Lua) {
    let lines = local_api::with_stores(lua, |s| s.shutdown()).unwrap_or_default();
    push_lines(lua, lines);
    cloud::api::shutdown(lua);
}
