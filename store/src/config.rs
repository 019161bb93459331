//! [`StoreConfig`]: where a server's stores keep their data, and starting the cloud store it
//! names (the offline SQLite file in the data directory, or the fleet's PostgreSQL
//! database). The user guide is `docs/stores.md`.

use crate::cloud::backend::BackendError;
use crate::cloud::postgres::Postgres;
use crate::cloud::sqlite::Sqlite;
use crate::cloud::{Cloud, LEASE, Worker, server_identity};
use crate::local::LOCAL_STORE_FILE;
use std::path::PathBuf;

/// The file of the offline cloud store in the data directory.
pub const SQLITE_FILE: &str = "cloud.sqlite3";

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
        Postgres::probe(url).map_err(|e| format!("the cloud store at {url} cannot be reached: {}", e.0))
    }

    /// Starts the cloud store this configuration names: its background thread, with a fresh
    /// server identity for session locks. `Err` is the message for the script that opened it
    /// (a malformed URL, no place to keep the data, no thread).
    pub fn start_cloud<P: Clone>(&self) -> Result<Cloud<P>, String> {
        let server = server_identity();
        let worker = if let Some(url) = &self.cloud_url {
            let backend = Postgres::new(url).map_err(|e| e.to_string())?;
            Worker::spawn(backend, server, LEASE)
        } else if let Some(dir) = &self.data_dir {
            // Opened on the store's thread: creating a database file takes tens of
            // milliseconds the tick cannot spare. A failure answers every request with its
            // error.
            let (dir, path) = (dir.clone(), dir.join(SQLITE_FILE));
            let open = move || {
                std::fs::create_dir_all(&dir)
                    .map_err(BackendError::from_display)
                    .and_then(|()| Sqlite::open(&path))
                    .map_err(|e| {
                        BackendError(format!(
                            "cloud store file {} could not be opened: {}",
                            path.display(),
                            e.0
                        ))
                    })
            };
            Worker::spawn_opening(open, server, LEASE)
        } else {
            return Err(
                "game.CloudStore needs a data directory (--data DIR) or a PostgreSQL URL (--cloud-store URL)"
                    .into(),
            );
        };
        worker.map(Cloud::new).map_err(|e| format!("could not start the cloud store's thread: {e}"))
    }
}
