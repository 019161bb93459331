//! Shared helpers of the `game.CloudStore` suites (`cloud_store.rs`, `cloud_store_fleet.rs`):
//! the database the servers of a test share (a SQLite data directory or PostgreSQL from
//! `ARBOR_TEST_POSTGRES=postgres://...`; unset, the PostgreSQL cases fail when `CI` is set
//! and print that they were skipped otherwise), servers running scripts, and the log.

#![allow(dead_code)]

use crate::common::{Place, Running};
use arbor_core::Id;
use arbor_script::{HostConfig, StoreConfig};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The database a test's servers share.
#[derive(Clone, Debug)]
pub enum Db {
    /// A data directory (its `cloud.sqlite3`).
    Sqlite(PathBuf),
    Postgres(String),
}

pub fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!(
        "arbor-cloud-{}-{}-{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn sqlite() -> Db {
    Db::Sqlite(temp_dir())
}

pub fn postgres() -> Option<Db> {
    match std::env::var("ARBOR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(Db::Postgres(url)),
        _ if std::env::var_os("CI").is_some() => panic!(
            "CI is set but ARBOR_TEST_POSTGRES is not: the PostgreSQL cloud store tests need a server (.ci/run starts one)"
        ),
        _ => {
            println!(
                "skipped: set ARBOR_TEST_POSTGRES=postgres://... to run the PostgreSQL cloud store tests"
            );
            None
        }
    }
}

impl Db {
    pub fn config(&self) -> HostConfig {
        let stores = match self {
            Db::Sqlite(dir) => StoreConfig { data_dir: Some(dir.clone()), cloud_url: None },
            Db::Postgres(url) => StoreConfig { data_dir: None, cloud_url: Some(url.clone()) },
        };
        HostConfig { stores, ..Default::default() }
    }

    /// Deletes a SQLite test directory.
    pub fn remove(&self) {
        if let Db::Sqlite(dir) = self {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    /// As one environment variable, for a child process.
    pub fn to_env(&self) -> String {
        match self {
            Db::Sqlite(dir) => format!("sqlite:{}", dir.display()),
            Db::Postgres(url) => url.clone(),
        }
    }

    pub fn from_env(s: &str) -> Db {
        match s.strip_prefix("sqlite:") {
            Some(dir) => Db::Sqlite(dir.into()),
            None => Db::Postgres(s.to_owned()),
        }
    }
}

/// A store name no earlier run used (the PostgreSQL database outlives runs).
pub fn unique(prefix: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    let millis = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis();
    format!("{prefix}-{}-{millis}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

/// Generates `<case>::sqlite` and `<case>::postgres` for `fn case(db: Db)`.
macro_rules! on_both {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[test]
            fn sqlite() {
                let db = super::sqlite();
                super::$case(db.clone());
                db.remove();
            }

            #[test]
            fn postgres() {
                if let Some(db) = super::postgres() {
                    super::$case(db);
                }
            }
        }
    )*};
}

pub(crate) use on_both;

/// A server running `scripts` (name, source; `STORE` in a source is the store's name) under
/// the Workspace.
pub fn server(db: &Db, store: &str, scripts: &[(&str, &str)]) -> (Running, Vec<Id>) {
    let mut place = Place::new();
    let ws = place.workspace();
    let ids =
        scripts.iter().map(|(name, src)| place.script(name, ws, &src.replace("STORE", store))).collect();
    (place.start_with(db.config()), ids)
}

/// Ticks until a log line contains `needle` (wall time 30 s at most), pacing the ticks a
/// little so the background thread keeps up. Returns the log.
pub fn tick_until(running: &mut Running, needle: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let log = running.log();
        if log.iter().any(|l| l.contains(needle)) {
            return log;
        }
        assert!(Instant::now() < deadline, "no line with {needle:?}; log: {log:#?}");
        running.sim.step();
        std::thread::sleep(Duration::from_micros(100));
    }
}

/// The log lines of script `Main` without its prefix.
pub fn said(log: &[String]) -> Vec<String> {
    log.iter().filter_map(|l| l.strip_prefix("Workspace.Main: ").map(str::to_owned)).collect()
}
