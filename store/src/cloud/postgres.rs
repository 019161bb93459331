//! The fleet cloud store: a PostgreSQL database shared by every server of an experience,
//! through `tokio-postgres` and a `deadpool-postgres` pool on the store's background
//! runtime. The tables are those of [`super::backend`]; lease times come from the database's
//! clock, so servers whose clocks disagree still agree on whose lock has expired.
//!
//! The pool connects lazily: a server whose database is down starts, and its requests fail
//! with the connection error (to the script's callback) until the database is back. The
//! schema is created on the first connection that works, under an advisory lock so servers
//! starting together do not race on `CREATE TABLE`.

use super::backend::{Backend, BackendError, Cas, LockMode, Read, Write};
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::OnceCell;
use tokio_postgres::NoTls;

/// Connections per server (requests in flight beyond it wait for one).
pub const POOL_SIZE: usize = 8;

/// Advisory lock key taken while the schema is created.
const SCHEMA_LOCK: i64 = 0x4152_424F_5243_4C44; // "ARBORCLD"

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS cloud_kv (
    store TEXT NOT NULL, k TEXT NOT NULL, v BYTEA NOT NULL, ver BIGINT NOT NULL,
    PRIMARY KEY (store, k));
CREATE TABLE IF NOT EXISTS cloud_locks (
    store TEXT NOT NULL, k TEXT NOT NULL, owner TEXT NOT NULL, expires_at BIGINT NOT NULL,
    PRIMARY KEY (store, k));
CREATE INDEX IF NOT EXISTS cloud_locks_owner ON cloud_locks (owner);";

/// The database's clock in milliseconds since the Unix epoch.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// The PostgreSQL backend.
pub struct Postgres {
    pool: Pool,
    schema: OnceCell<()>,
}

fn err(e: impl std::fmt::Display) -> BackendError {
    BackendError::from_display(e)
}

/// `EXISTS` a lock on ($1, $2) by a server other than $3, unexpired now.
fn locked() -> String {
    format!(
        "EXISTS (SELECT 1 FROM cloud_locks l WHERE l.store = $1::text AND l.k = $2::text \
         AND l.owner <> $3::text AND l.expires_at > {NOW_MS})"
    )
}

/// The negation of [`locked`].
fn not_locked() -> String {
    format!("NOT {}", locked())
}

impl Postgres {
    /// A backend for the database at `url` (`postgres://user@host:port/db`). Does not
    /// connect yet; fails only if the URL is malformed.
    pub fn new(url: &str) -> Result<Self, BackendError> {
        let config =
            tokio_postgres::Config::from_str(url).map_err(|e| BackendError(format!("bad URL: {e}")))?;
        let manager =
            Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .create_timeout(Some(Duration::from_secs(10)))
            .wait_timeout(Some(Duration::from_secs(30)))
            .build()
            .map_err(err)?;
        Ok(Self { pool, schema: OnceCell::new() })
    }

    /// Connects to the database at `url` once and creates the tables if they are missing,
    /// on a runtime of its own (blocks until then or the connection timeout).
    pub fn probe(url: &str) -> Result<(), BackendError> {
        let backend = Self::new(url)?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(err)?;
        runtime.block_on(async { backend.client().await.map(drop) })
    }

    async fn client(&self) -> Result<Object, BackendError> {
        let client = self.pool.get().await.map_err(err)?;
        self.schema
            .get_or_try_init(|| async {
                client
                    .batch_execute(&format!(
                        "BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {SCHEMA} COMMIT;"
                    ))
                    .await
                    .map_err(err)
            })
            .await?;
        Ok(client)
    }

    async fn locked_by_other(
        client: &Object,
        store: &str,
        key: &str,
        server: &str,
    ) -> Result<bool, BackendError> {
        let sql = format!("SELECT 1 WHERE {}", locked());
        let stmt = client.prepare_cached(&sql).await.map_err(err)?;
        Ok(client.query_opt(&stmt, &[&store, &key, &server]).await.map_err(err)?.is_some())
    }

    async fn value(client: &Object, store: &str, key: &str) -> Result<(Option<Vec<u8>>, i64), BackendError> {
        let stmt = client
            .prepare_cached("SELECT v, ver FROM cloud_kv WHERE store = $1 AND k = $2")
            .await
            .map_err(err)?;
        let row = client.query_opt(&stmt, &[&store, &key]).await.map_err(err)?;
        Ok(match row {
            Some(r) => (Some(r.try_get(0).map_err(err)?), r.try_get(1).map_err(err)?),
            None => (None, 0),
        })
    }
}

impl Backend for Postgres {
    async fn read(&self, store: &str, key: &str, lock: LockMode<'_>) -> Result<Read, BackendError> {
        let client = self.client().await?;
        match lock {
            LockMode::None => {}
            LockMode::Check { server } => {
                if Self::locked_by_other(&client, store, key, server).await? {
                    return Ok(Read::Locked);
                }
            }
            LockMode::Acquire { server, lease_ms } => {
                let sql = format!(
                    "INSERT INTO cloud_locks (store, k, owner, expires_at) \
                     VALUES ($1, $2, $3, {NOW_MS} + $4) \
                     ON CONFLICT (store, k) DO UPDATE SET owner = excluded.owner, \
                     expires_at = excluded.expires_at \
                     WHERE cloud_locks.owner = excluded.owner OR cloud_locks.expires_at <= {NOW_MS}"
                );
                let stmt = client.prepare_cached(&sql).await.map_err(err)?;
                let taken = client.execute(&stmt, &[&store, &key, &server, &lease_ms]).await.map_err(err)?;
                if taken == 0 {
                    return Ok(Read::Locked);
                }
            }
        }
        let (v, ver) = Self::value(&client, store, key).await?;
        Ok(Read::Value(v, ver))
    }

    async fn put(&self, store: &str, key: &str, value: &[u8], server: &str) -> Result<Write, BackendError> {
        let client = self.client().await?;
        let sql = format!(
            "INSERT INTO cloud_kv (store, k, v, ver) SELECT $1::text, $2::text, $4::bytea, 1 WHERE {} \
             ON CONFLICT (store, k) DO UPDATE SET v = excluded.v, ver = cloud_kv.ver + 1 RETURNING ver",
            not_locked()
        );
        let stmt = client.prepare_cached(&sql).await.map_err(err)?;
        let row = client.query_opt(&stmt, &[&store, &key, &server, &value]).await.map_err(err)?;
        Ok(match row {
            Some(r) => Write::Done(r.try_get(0).map_err(err)?),
            None => Write::Locked,
        })
    }

    async fn cas(
        &self,
        store: &str,
        key: &str,
        value: &[u8],
        expected: i64,
        server: &str,
    ) -> Result<Cas, BackendError> {
        let client = self.client().await?;
        let row = if expected == 0 {
            let sql = format!(
                "INSERT INTO cloud_kv (store, k, v, ver) SELECT $1::text, $2::text, $4::bytea, 1 WHERE {} \
                 ON CONFLICT (store, k) DO NOTHING RETURNING ver",
                not_locked()
            );
            let stmt = client.prepare_cached(&sql).await.map_err(err)?;
            client.query_opt(&stmt, &[&store, &key, &server, &value]).await.map_err(err)?
        } else {
            let sql = format!(
                "UPDATE cloud_kv SET v = $4::bytea, ver = ver + 1 \
                 WHERE store = $1::text AND k = $2::text AND ver = $5::bigint AND {} RETURNING ver",
                not_locked()
            );
            let stmt = client.prepare_cached(&sql).await.map_err(err)?;
            client.query_opt(&stmt, &[&store, &key, &server, &value, &expected]).await.map_err(err)?
        };
        if let Some(r) = row {
            return Ok(Cas::Done(r.try_get(0).map_err(err)?));
        }
        if Self::locked_by_other(&client, store, key, server).await? {
            return Ok(Cas::Locked);
        }
        let (v, ver) = Self::value(&client, store, key).await?;
        Ok(Cas::Lost(v, ver))
    }

    async fn renew(&self, server: &str, lease_ms: i64) -> Result<u64, BackendError> {
        let client = self.client().await?;
        let sql = format!("UPDATE cloud_locks SET expires_at = {NOW_MS} + $2 WHERE owner = $1");
        let stmt = client.prepare_cached(&sql).await.map_err(err)?;
        client.execute(&stmt, &[&server, &lease_ms]).await.map_err(err)
    }

    async fn release(&self, store: &str, key: &str, server: &str) -> Result<(), BackendError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("DELETE FROM cloud_locks WHERE store = $1 AND k = $2 AND owner = $3")
            .await
            .map_err(err)?;
        client.execute(&stmt, &[&store, &key, &server]).await.map_err(err)?;
        Ok(())
    }
}
