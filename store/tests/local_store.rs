//! The local store through its Rust API, without Lua: the limits on stores and keys, puts
//! durable across a reopen, a failed commit reported and retried, and rows no `put` could
//! write refused on open. The Luau surface (values from scripts, messages at the caller's
//! line, `kill -9`) is tested in `script/tests/local_store*.rs`.

mod common;

use arbor_store::{
    LOCAL_STORE_FILE, LocalStores, MAX_KEYS, MAX_STORES, Severity, StoreError, StoreKey, StoreValue,
};
use common::TempDir;
use std::time::{Duration, Instant};

fn value(n: f64) -> Vec<u8> {
    StoreValue::Table(vec![(StoreValue::str("n"), StoreValue::Number(n))]).encode(1024).unwrap()
}

#[test]
fn stores_and_keys_are_limited() {
    assert_eq!(LocalStores::new(None).open("S"), Err(StoreError::NoDataDir));
    let dir = TempDir::new("limits");
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let first = stores.open("S0").unwrap();
    assert_eq!(stores.open("S0"), Ok(first), "the same store for the same name");
    for i in 1..MAX_STORES {
        stores.open(&format!("S{i}")).unwrap();
    }
    assert_eq!(stores.open("one more").unwrap_err().to_string(), "a place can open at most 8 stores");
    for k in 0..MAX_KEYS as i64 {
        stores.put(first, &StoreKey::Int(k), value(1.0)).unwrap();
    }
    assert_eq!(
        stores.put(first, &StoreKey::Int(-1), value(1.0)).unwrap_err().to_string(),
        "store 'S0' already holds 4096 keys"
    );
    stores.put(first, &StoreKey::Int(7), value(2.0)).expect("overwriting a key it holds");
    assert!(stores.shutdown().is_empty());
    let s = stores.stats();
    assert_eq!((s.open_stores, s.accepted_puts, s.durable_puts), (8, 4097, 4097));
}

#[test]
fn a_failed_commit_is_reported_and_retried_until_it_lands() {
    let dir = TempDir::new("retry");
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let s = stores.open("Lock").unwrap();
    // Another connection holds the write lock: the writer's commits fail until it lets go.
    let blocker = rusqlite::Connection::open(dir.0.join(LOCAL_STORE_FILE)).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    stores.put(s, &StoreKey::Str("gold".into()), value(1.0)).unwrap();
    let mut lines = stores.end_tick();
    let deadline = Instant::now() + Duration::from_secs(10);
    while stores.stats().failed_commits == 0 {
        assert!(Instant::now() < deadline, "no failed commit");
        std::thread::sleep(Duration::from_millis(5));
        lines.extend(stores.poll());
    }
    let (severity, text) = &lines[0];
    assert_eq!(*severity, Severity::Error);
    assert!(text.contains("database is locked") && text.ends_with("retried: Lock[\"gold\"]"), "{text}");
    blocker.execute_batch("ROLLBACK").unwrap();
    let end = stores.shutdown();
    let landed = end
        .last()
        .is_some_and(|(s, t)| *s == Severity::Warn && t.starts_with("local store: commit landed after"));
    assert!(landed, "{end:?}");
    assert_eq!(stores.stats().pending_puts(), 0);
}

#[test]
fn puts_survive_a_reopen_and_foreign_rows_are_refused() {
    let dir = TempDir::new("reopen");
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let s = stores.open("Good").unwrap();
    stores.put(s, &StoreKey::Int(1), value(1.0)).unwrap();
    stores.put(s, &StoreKey::Str("1".into()), value(2.0)).unwrap();
    stores.end_tick();
    assert!(stores.shutdown().is_empty());
    drop(stores);
    let db = rusqlite::Connection::open(dir.0.join(LOCAL_STORE_FILE)).unwrap();
    db.execute("INSERT INTO kv (store, key, value) VALUES ('Bad', 'x:1', X'00')", []).unwrap();
    drop(db);
    let mut stores = LocalStores::new(Some(dir.0.clone()));
    let s = stores.open("Good").unwrap();
    let get = |k: &StoreKey| StoreValue::decode(&stores.get(s, k).unwrap()).unwrap();
    assert_eq!(get(&StoreKey::Int(1)), StoreValue::decode(&value(1.0)).unwrap());
    assert_eq!(get(&StoreKey::Str("1".into())), StoreValue::decode(&value(2.0)).unwrap());
    assert!(stores.get(s, &StoreKey::Int(2)).is_none());
    let refused = stores.open("Bad").unwrap_err().to_string();
    assert!(refused.ends_with("store 'Bad' holds a row whose key \"x:1\" is not a store key (an integer or 1 to 50 printable characters)"), "{refused}");
}
