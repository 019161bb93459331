//! Shutdown within a deadline (`LocalStores::shutdown_by`, `Cloud::shutdown_by`), through the
//! public API: with the database's write lock held by another connection, the shutdown
//! returns by its deadline instead of waiting out the retries (the local store) or the busy
//! timeout (the offline cloud store's 30 s), and reports what it abandoned with the stores'
//! names; when everything lands it reports nothing.

mod common;

use arbor_store::cloud::{Event, Kind, RecordKey};
use arbor_store::{
    Cloud, LOCAL_STORE_FILE, LocalStores, Pending, SQLITE_FILE, StoreConfig, StoreKey, StoreValue,
};
use common::TempDir;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn value(n: f64) -> Vec<u8> {
    StoreValue::Number(n).encode(1024).unwrap()
}

/// Holds the write lock of the SQLite file at `path` until dropped.
fn hold_write_lock(path: PathBuf) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("BEGIN IMMEDIATE").unwrap();
    conn
}

#[test]
fn local_puts_not_durable_by_the_deadline_are_reported_with_their_stores() {
    let dir = TempDir::new("local");
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let (coins, scores, idle) =
        (stores.open("Coins").unwrap(), stores.open("Scores").unwrap(), stores.open("Idle").unwrap());
    stores.put(idle, &StoreKey::Int(1), value(1.0)).unwrap();
    stores.end_tick();
    let deadline = Instant::now() + Duration::from_secs(10);
    while stores.stats().pending_puts() > 0 {
        assert!(Instant::now() < deadline, "the first put never became durable");
        std::thread::sleep(Duration::from_millis(5));
        stores.poll();
    }
    let blocker = hold_write_lock(dir.0.join(LOCAL_STORE_FILE));
    stores.put(scores, &StoreKey::Int(7), value(2.0)).unwrap();
    stores.put(coins, &StoreKey::Int(7), value(3.0)).unwrap();
    stores.end_tick();
    let started = Instant::now();
    let (lines, abandoned) = stores.shutdown_by(started + Duration::from_millis(200));
    drop(stores);
    // Without a deadline this takes over 4 s: the flush's five tries at the 250 ms busy
    // timeout with back-offs, then as many again when the stores are dropped.
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    assert_eq!(abandoned.local_puts, Pending { count: 2, stores: vec!["Coins".into(), "Scores".into()] });
    assert!(abandoned.cloud_writes.is_empty() && abandoned.locks.is_empty());
    assert!(
        lines.iter().any(|(_, l)| l.starts_with("local store: 2 accepted puts were not written")),
        "{lines:?}"
    );
    drop(blocker);
}

#[test]
fn a_local_shutdown_in_time_reports_nothing_and_the_puts_are_in_the_file() {
    let dir = TempDir::new("local-ok");
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let s = stores.open("Scores").unwrap();
    stores.put(s, &StoreKey::Int(7), value(2.0)).unwrap();
    let (lines, abandoned) = stores.shutdown_by(Instant::now() + Duration::from_secs(20));
    assert!(lines.is_empty(), "{lines:?}");
    assert!(abandoned.is_empty(), "{abandoned:?}");
    drop(stores);
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let s = stores.open("Scores").unwrap();
    assert_eq!(stores.get(s, &StoreKey::Int(7)).as_deref(), Some(&value(2.0)[..]));
}

fn player_key(user: u64) -> RecordKey {
    RecordKey {
        db: StoreKey::Int(user as i64).to_db().into(),
        text: user.to_string().into(),
        player: Some(user),
    }
}

/// An offline cloud store in `dir` where connected player 7's record in `store` was fetched,
/// so this server holds its session lock.
fn holding_player_7(dir: &TempDir, store: &Arc<str>) -> Cloud<u32> {
    let config = StoreConfig { data_dir: Some(dir.0.clone()), cloud_url: None };
    let mut cloud = config.start_cloud::<u32>().unwrap();
    cloud.submit(1, store.clone(), player_key(7), Kind::Fetch, 0).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < deadline, "the fetch never answered");
        if let Some(ready) = cloud.pump(0.0, &[7]).pop() {
            assert!(matches!(ready.event, Event::Fetched { .. }), "{:?}", ready.event);
            return cloud;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn cloud_writes_and_locks_left_at_the_deadline_are_reported() {
    let dir = TempDir::new("cloud");
    let store: Arc<str> = "Saves".into();
    let mut cloud = holding_player_7(&dir, &store);
    let blocker = hold_write_lock(dir.0.join(SQLITE_FILE));
    cloud.submit(1, store.clone(), player_key(7), Kind::Put(value(5.0).into()), 0).unwrap();
    let started = Instant::now();
    let (warnings, abandoned) = cloud.shutdown_by(started + Duration::from_millis(300));
    // Without a deadline this waits out the blocked write (the SQLite busy timeout, 30 s).
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    let saves = Pending { count: 1, stores: vec!["Saves".into()] };
    assert_eq!(abandoned.cloud_writes, saves);
    assert_eq!(abandoned.locks, saves);
    assert!(abandoned.local_puts.is_empty());
    assert_eq!(warnings, ["1 cloud store writes had not landed when the server stopped waiting"]);
    drop(blocker);
}

#[test]
fn a_cloud_shutdown_in_time_reports_nothing_and_the_lock_is_gone() {
    let dir = TempDir::new("cloud-ok");
    let store: Arc<str> = "Saves".into();
    let mut cloud = holding_player_7(&dir, &store);
    cloud.submit(1, store.clone(), player_key(7), Kind::Put(value(5.0).into()), 0).unwrap();
    let (warnings, abandoned) = cloud.shutdown_by(Instant::now() + Duration::from_secs(20));
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(abandoned.is_empty(), "{abandoned:?}");
    // Another server takes player 7's record at once: the save landed and the lock is gone.
    let mut other = holding_player_7(&dir, &store);
    let _ = other.shutdown();
    let db = rusqlite::Connection::open(dir.0.join(SQLITE_FILE)).unwrap();
    let saved: Vec<u8> =
        db.query_row("SELECT v FROM cloud_kv WHERE store = 'Saves'", [], |r| r.get(0)).unwrap();
    assert_eq!(saved, value(5.0));
}
