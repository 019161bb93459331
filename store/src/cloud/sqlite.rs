//! The offline cloud store: a SQLite file (`cloud.sqlite3` in the server's data directory)
//! with the tables of [`super::backend`]. WAL with `synchronous=FULL`, like the local store;
//! several processes may share the file (writers wait for each other up to the busy
//! timeout), so the fleet's behaviour (CAS, locks) can be tried on one machine.
//!
//! Statements run on the background runtime's thread while holding the connection: SQLite
//! serialises writers anyway, and nothing else runs on that runtime.

use super::backend::{Backend, BackendError, Cas, LockMode, Read, Write, now_ms};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a statement waits for another process's write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The schema (the same shape as PostgreSQL's).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS cloud_kv (
    store TEXT NOT NULL, k TEXT NOT NULL, v BLOB NOT NULL, ver INTEGER NOT NULL,
    PRIMARY KEY (store, k));
CREATE TABLE IF NOT EXISTS cloud_locks (
    store TEXT NOT NULL, k TEXT NOT NULL, owner TEXT NOT NULL, expires_at INTEGER NOT NULL,
    PRIMARY KEY (store, k));
CREATE INDEX IF NOT EXISTS cloud_locks_owner ON cloud_locks (owner);";

/// `NOT EXISTS` a lock on (?store, ?k) by a server other than ?server, unexpired at ?now.
const NOT_LOCKED: &str = "NOT EXISTS (SELECT 1 FROM cloud_locks l WHERE l.store = ?1 AND l.k = ?2 \
     AND l.owner <> ?3 AND l.expires_at > ?4)";

/// The SQLite backend.
pub struct Sqlite {
    conn: Mutex<Connection>,
}

fn err(e: rusqlite::Error) -> BackendError {
    BackendError::from_display(e)
}

impl Sqlite {
    /// Opens (or creates) the file at `path`.
    ///
    /// Several processes opening a new file at once race to switch it to WAL; SQLite answers
    /// the losers `SQLITE_BUSY` at once, without its busy handler (the switch asks for the
    /// write lock while holding a read), so that step is retried for up to `BUSY_TIMEOUT` (30 s).
    pub fn open(path: &Path) -> Result<Self, BackendError> {
        let conn = Connection::open(path).map_err(err)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(err)?;
        let deadline = Instant::now() + BUSY_TIMEOUT;
        loop {
            match conn.pragma_update(None, "journal_mode", "WAL").and_then(|()| conn.execute_batch(SCHEMA)) {
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::DatabaseBusy && Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(5));
                }
                result => break result.map_err(err)?,
            }
        }
        conn.pragma_update(None, "synchronous", "FULL").map_err(err)?;
        Ok(Self { conn: Mutex::new(conn) })
    }

    fn with<R>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<R>) -> Result<R, BackendError> {
        let conn = self.conn.lock().map_err(|_| BackendError("the connection was poisoned".into()))?;
        f(&conn).map_err(err)
    }

    fn locked_by_other(conn: &Connection, store: &str, key: &str, server: &str) -> rusqlite::Result<bool> {
        conn.prepare_cached(
            "SELECT 1 FROM cloud_locks WHERE store = ?1 AND k = ?2 AND owner <> ?3 AND expires_at > ?4",
        )?
        .exists(params![store, key, server, now_ms()])
    }

    fn value(conn: &Connection, store: &str, key: &str) -> rusqlite::Result<(Option<Vec<u8>>, i64)> {
        let row = conn
            .prepare_cached("SELECT v, ver FROM cloud_kv WHERE store = ?1 AND k = ?2")?
            .query_row(params![store, key], |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, i64>(1)?)))
            .optional()?;
        Ok(match row {
            Some((v, ver)) => (Some(v), ver),
            None => (None, 0),
        })
    }

    fn read_now(&self, store: &str, key: &str, lock: LockMode<'_>) -> Result<Read, BackendError> {
        self.with(|conn| {
            match lock {
                LockMode::None => {}
                LockMode::Check { server } => {
                    if Self::locked_by_other(conn, store, key, server)? {
                        return Ok(Read::Locked);
                    }
                }
                LockMode::Acquire { server, lease_ms } => {
                    let now = now_ms();
                    let taken = conn
                        .prepare_cached(
                            "INSERT INTO cloud_locks (store, k, owner, expires_at) VALUES (?1, ?2, ?3, ?4) \
                             ON CONFLICT (store, k) DO UPDATE SET owner = excluded.owner, \
                             expires_at = excluded.expires_at \
                             WHERE cloud_locks.owner = excluded.owner OR cloud_locks.expires_at <= ?5",
                        )?
                        .execute(params![store, key, server, now.saturating_add(lease_ms), now])?;
                    if taken == 0 {
                        return Ok(Read::Locked);
                    }
                }
            }
            let (v, ver) = Self::value(conn, store, key)?;
            Ok(Read::Value(v, ver))
        })
    }

    fn put_now(&self, store: &str, key: &str, value: &[u8], server: &str) -> Result<Write, BackendError> {
        self.with(|conn| {
            let sql = format!(
                "INSERT INTO cloud_kv (store, k, v, ver) SELECT ?1, ?2, ?5, 1 WHERE {NOT_LOCKED} \
                 ON CONFLICT (store, k) DO UPDATE SET v = excluded.v, ver = cloud_kv.ver + 1 \
                 RETURNING ver"
            );
            let ver = conn
                .prepare_cached(&sql)?
                .query_row(params![store, key, server, now_ms(), value], |r| r.get::<_, i64>(0))
                .optional()?;
            Ok(ver.map_or(Write::Locked, Write::Done))
        })
    }

    fn cas_now(
        &self,
        store: &str,
        key: &str,
        value: &[u8],
        expected: i64,
        server: &str,
    ) -> Result<Cas, BackendError> {
        self.with(|conn| {
            let now = now_ms();
            let ver = if expected == 0 {
                let sql = format!(
                    "INSERT INTO cloud_kv (store, k, v, ver) SELECT ?1, ?2, ?5, 1 WHERE {NOT_LOCKED} \
                     ON CONFLICT (store, k) DO NOTHING RETURNING ver"
                );
                conn.prepare_cached(&sql)?
                    .query_row(params![store, key, server, now, value], |r| r.get::<_, i64>(0))
                    .optional()?
            } else {
                let sql = format!(
                    "UPDATE cloud_kv SET v = ?5, ver = ver + 1 \
                     WHERE store = ?1 AND k = ?2 AND ver = ?6 AND {NOT_LOCKED} RETURNING ver"
                );
                conn.prepare_cached(&sql)?
                    .query_row(params![store, key, server, now, value, expected], |r| r.get::<_, i64>(0))
                    .optional()?
            };
            if let Some(ver) = ver {
                return Ok(Cas::Done(ver));
            }
            if Self::locked_by_other(conn, store, key, server)? {
                return Ok(Cas::Locked);
            }
            let (v, ver) = Self::value(conn, store, key)?;
            Ok(Cas::Lost(v, ver))
        })
    }
}

impl Backend for Sqlite {
    async fn read(&self, store: &str, key: &str, lock: LockMode<'_>) -> Result<Read, BackendError> {
        self.read_now(store, key, lock)
    }

    async fn put(&self, store: &str, key: &str, value: &[u8], server: &str) -> Result<Write, BackendError> {
        self.put_now(store, key, value, server)
    }

    async fn cas(
        &self,
        store: &str,
        key: &str,
        value: &[u8],
        expected: i64,
        server: &str,
    ) -> Result<Cas, BackendError> {
        self.cas_now(store, key, value, expected, server)
    }

    async fn renew(&self, server: &str, lease_ms: i64) -> Result<u64, BackendError> {
        self.with(|conn| {
            let n = conn
                .prepare_cached("UPDATE cloud_locks SET expires_at = ?2 WHERE owner = ?1")?
                .execute(params![server, now_ms().saturating_add(lease_ms)])?;
            Ok(n as u64)
        })
    }

    async fn release(&self, store: &str, key: &str, server: &str) -> Result<(), BackendError> {
        self.with(|conn| {
            conn.prepare_cached("DELETE FROM cloud_locks WHERE store = ?1 AND k = ?2 AND owner = ?3")?
                .execute(params![store, key, server])?;
            Ok(())
        })
    }
}
