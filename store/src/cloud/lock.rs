//! Session locks (as ProfileStore does it for Roblox games): while a player is connected to
//! a server, that server owns the player's records, so two servers never both load, change
//! and save the same record (the item-duplication bug).
//!
//! - A `fetch` or `update` of an integer key equal to a connected player's user id takes a
//!   lease lock on (store, key) for this server, in the database (`cloud_locks`), in the
//!   same statement that checks nobody else holds it. If another server holds an unexpired
//!   lock the request fails with [`locked_message`] and the game decides.
//! - Every write checks the lock in its own statement: a record locked by another live
//!   server cannot be written.
//! - The lease is [`LEASE`] long and renewed every third of it by the worker while held; a
//!   crashed server's locks expire with their lease.
//! - The lock is released once the player has been gone from the connected list for two
//!   deliveries in a row (so the `PlayerLeft` handlers of the tick they left ran and queued
//!   their save) and this server has no write to the record queued or in flight: the save
//!   lands before the record is unlocked.

use rustc_hash::FxHashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;
use std::time::Duration;

/// How long a lock holds without renewal.
pub const LEASE: Duration = Duration::from_secs(60);

/// Deliveries a player must have been gone before their locks are released.
const GONE_DELIVERIES: u32 = 2;

/// The error of a request on a record another server holds.
pub fn locked_message(key: &str, store: &str) -> String {
    format!("record {key} of store '{store}' is locked by another server")
}

/// A random identity for this server process: the pid, the time and a random seed, so two
/// servers (or two hosts in one process) never share one.
pub fn server_identity() -> Arc<str> {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    let a = h.finish();
    let mut h2 = std::collections::hash_map::RandomState::new().build_hasher();
    h2.write_u64(a);
    format!("{}-{:016x}{:016x}", std::process::id(), a, h2.finish()).into()
}

/// A record: (store, canonical key).
pub(crate) type Record = (Arc<str>, Arc<str>);

#[derive(Debug)]
struct Held {
    player: u64,
    /// Consecutive deliveries the player was not connected.
    gone: u32,
}

/// The locks this server holds, as the tick thread knows them.
#[derive(Debug, Default)]
pub(crate) struct Locks {
    held: FxHashMap<Record, Held>,
}

impl Locks {
    /// Records that this server now holds `record` for `player`.
    pub fn acquired(&mut self, record: Record, player: u64) {
        self.held.entry(record).and_modify(|h| h.gone = 0).or_insert(Held { player, gone: 0 });
    }

    /// Whether `record` is held.
    #[cfg(test)]
    pub fn holds(&self, record: &Record) -> bool {
        self.held.contains_key(record)
    }

    /// Number of locks held.
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// One delivery with `players` connected: returns the records to release now (players
    /// gone long enough, no write `busy`), in a stable order.
    pub fn sweep(&mut self, players: &[u64], busy: impl Fn(&Record) -> bool) -> Vec<Record> {
        let mut out = Vec::new();
        for (record, held) in &mut self.held {
            if players.contains(&held.player) {
                held.gone = 0;
                continue;
            }
            held.gone = held.gone.saturating_add(1);
            if held.gone >= GONE_DELIVERIES && !busy(record) {
                out.push(record.clone());
            }
        }
        out.sort();
        for r in &out {
            self.held.remove(r);
        }
        out
    }

    /// Takes every held record (the server stops).
    pub fn take_all(&mut self) -> Vec<Record> {
        let mut out: Vec<Record> = self.held.drain().map(|(r, _)| r).collect();
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(k: &str) -> Record {
        (Arc::from("S"), Arc::from(k))
    }

    #[test]
    fn a_lock_goes_after_two_deliveries_without_its_player_and_its_writes() {
        let mut locks = Locks::default();
        locks.acquired(rec("i7"), 7);
        assert!(locks.sweep(&[7], |_| false).is_empty());
        assert!(locks.sweep(&[], |_| false).is_empty(), "one delivery gone is not enough");
        assert!(locks.sweep(&[], |_| true).is_empty(), "a write is still pending");
        assert_eq!(locks.sweep(&[], |_| false), vec![rec("i7")]);
        assert_eq!(locks.len(), 0);
    }

    #[test]
    fn a_player_back_in_time_keeps_the_lock() {
        let mut locks = Locks::default();
        locks.acquired(rec("i7"), 7);
        assert!(locks.sweep(&[], |_| false).is_empty());
        assert!(locks.sweep(&[7], |_| false).is_empty());
        assert!(locks.sweep(&[], |_| false).is_empty());
        assert!(locks.holds(&rec("i7")));
    }

    #[test]
    fn identities_differ() {
        assert_ne!(server_identity(), server_identity());
    }
}
