//! The storage behind `game.CloudStore`: one trait, [`Backend`], with two implementations
//! (`sqlite`: a local file, the default; `postgres`: a PostgreSQL database shared by every
//! server of an experience). Both keep the same two tables:
//!
//! - `cloud_kv(store, k, v, ver)`: one record per (store, key); `ver` starts at 1 and grows
//!   by one per write. A missing record has version 0.
//! - `cloud_locks(store, k, owner, expires_at)`: session locks; `owner` is a server's
//!   identity, `expires_at` milliseconds since the Unix epoch (the database's clock for
//!   PostgreSQL, the machine's for SQLite).
//!
//! Every write is one statement that also checks that no *other* server holds an unexpired
//! lock on the record, so a record locked by a live server is written by that server only.
//! `cas` writes only if the record still has the version the caller read (`UPDATE ... WHERE
//! ver = $expected`, zero rows: lost the race); it is what `update` retries on.
//!
//! Keys are the canonical strings of `StoreKey::to_db`, values the encoded bytes; the
//! backends know nothing else of the crate (the benchmarks drive them directly).

use std::future::Future;
use thiserror::Error;

/// A backend failure (connection, SQL, I/O), as text for the script's callback.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cloud store unavailable: {0}")]
pub struct BackendError(pub String);

impl BackendError {
    /// Wraps any error.
    pub fn from_display(e: impl std::fmt::Display) -> Self {
        Self(e.to_string())
    }
}

/// What a read does about the record's session lock.
#[derive(Clone, Copy, Debug)]
pub enum LockMode<'a> {
    /// Plain read.
    None,
    /// Fails with [`Read::Locked`] if a server other than `server` holds an unexpired lock.
    Check {
        /// This server.
        server: &'a str,
    },
    /// Takes (or renews) the lock for `server` for `lease_ms`, unless another server holds
    /// an unexpired one ([`Read::Locked`]).
    Acquire {
        /// This server.
        server: &'a str,
        /// Lease length in milliseconds.
        lease_ms: i64,
    },
}

/// A read's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// The record's value and version (`None`: missing, version 0).
    Value(Option<Vec<u8>>, i64),
    /// Another server holds the record's lock.
    Locked,
}

/// A write's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Written; the record's new version.
    Done(i64),
    /// Another server holds the record's lock; nothing was written.
    Locked,
}

/// A compare-and-swap's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cas {
    /// Written; the record's new version.
    Done(i64),
    /// The record changed since it was read: its value and version now.
    Lost(Option<Vec<u8>>, i64),
    /// Another server holds the record's lock; nothing was written.
    Locked,
}

/// One storage for cloud stores. Methods are futures run on the store's background runtime;
/// a backend is shared by the requests in flight.
pub trait Backend: Send + Sync + 'static {
    /// Reads one record.
    fn read(
        &self,
        store: &str,
        key: &str,
        lock: LockMode<'_>,
    ) -> impl Future<Output = Result<Read, BackendError>> + Send;

    /// Writes `value` whatever the record holds (unless another server holds its lock).
    fn put(
        &self,
        store: &str,
        key: &str,
        value: &[u8],
        server: &str,
    ) -> impl Future<Output = Result<Write, BackendError>> + Send;

    /// Writes `value` if the record's version is still `expected` (0: the record is missing).
    fn cas(
        &self,
        store: &str,
        key: &str,
        value: &[u8],
        expected: i64,
        server: &str,
    ) -> impl Future<Output = Result<Cas, BackendError>> + Send;

    /// Extends every lock `server` holds to `lease_ms` from now; returns how many.
    fn renew(&self, server: &str, lease_ms: i64) -> impl Future<Output = Result<u64, BackendError>> + Send;

    /// Drops `server`'s lock on the record, if it holds it.
    fn release(
        &self,
        store: &str,
        key: &str,
        server: &str,
    ) -> impl Future<Output = Result<(), BackendError>> + Send;
}

/// Milliseconds since the Unix epoch on this machine's clock.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
