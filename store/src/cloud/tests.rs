//! The tick-thread core of the cloud store, without Lua, against both backends: session
//! locks (with the connected players given directly), the budget, the in-flight cap, the
//! queue, and the compare-and-swap loop. The Luau surface is tested in
//! `script/tests/cloud_store.rs` and `script/tests/cloud_store_fleet.rs`.
//!
//! PostgreSQL: `ARBOR_TEST_POSTGRES=postgres://...`; unset, the PostgreSQL cases fail when
//! `CI` is set and are skipped (with a line saying so) otherwise.

use super::backend::{Backend, BackendError, Cas, LockMode, Read, Write};
use super::lock::{LEASE, locked_message, server_identity};
use super::postgres::Postgres;
use super::sqlite::Sqlite;
use super::worker::Worker;
use super::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Where a test's servers keep their records.
#[derive(Clone)]
enum Db {
    Sqlite(PathBuf),
    Postgres(String),
}

/// A fresh SQLite file.
fn sqlite_db() -> Db {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "arbor-cloud-unit-{}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        backend::now_ms()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    Db::Sqlite(dir.join("cloud.sqlite3"))
}

/// The test database, if there is one.
fn postgres_db() -> Option<Db> {
    match std::env::var("ARBOR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(Db::Postgres(url)),
        _ if std::env::var_os("CI").is_some() => {
            panic!(
                "CI is set but ARBOR_TEST_POSTGRES is not: the PostgreSQL cloud store tests need a server (see .ci/run)"
            )
        }
        _ => {
            eprintln!(
                "skipped: set ARBOR_TEST_POSTGRES=postgres://... to run the PostgreSQL cloud store tests"
            );
            None
        }
    }
}

/// A store name no earlier run used (the PostgreSQL database outlives test runs).
fn unique(prefix: &str) -> Arc<str> {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!("{prefix}-{}-{}-{}", std::process::id(), backend::now_ms(), N.fetch_add(1, Ordering::Relaxed))
        .into()
}

impl Db {
    /// Deletes a SQLite test file's directory.
    fn remove(&self) {
        if let Db::Sqlite(path) = self
            && let Some(dir) = path.parent()
        {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    fn worker(&self, lease: Duration) -> Worker {
        let server = server_identity();
        match self {
            Db::Sqlite(path) => Worker::spawn(Sqlite::open(path).unwrap(), server, lease).unwrap(),
            Db::Postgres(url) => Worker::spawn(Postgres::new(url).unwrap(), server, lease).unwrap(),
        }
    }

    fn server(&self) -> Cloud<u32> {
        Cloud::new(self.worker(LEASE))
    }
}

/// Runs `case` on SQLite, then on PostgreSQL if there is one.
fn on_both(case: impl Fn(Db)) {
    let db = sqlite_db();
    case(db.clone());
    db.remove();
    if let Some(db) = postgres_db() {
        case(db);
    }
}

fn int_key(i: u64) -> RecordKey {
    RecordKey { db: format!("i:{i}").into(), text: i.to_string().into(), player: Some(i) }
}

fn str_key(s: &str) -> RecordKey {
    RecordKey { db: format!("s:{s}").into(), text: format!("{s:?}").into(), player: None }
}

/// Pumps `cloud` at `time` with `players` until `want` events arrived (10 s at most).
fn pump_until(cloud: &mut Cloud<u32>, time: f64, players: &[u64], want: usize) -> Vec<Ready<u32>> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut out = Vec::new();
    while out.len() < want {
        assert!(Instant::now() < deadline, "timed out waiting for {want} results (have {})", out.len());
        out.extend(cloud.pump(time, players));
        std::thread::sleep(Duration::from_millis(1));
    }
    out
}

/// One request, pumped to its result.
fn one(cloud: &mut Cloud<u32>, players: &[u64], store: &Arc<str>, key: RecordKey, kind: Kind) -> Event {
    cloud.submit(1, store.clone(), key, kind, 0).unwrap();
    let mut out = pump_until(cloud, 0.0, players, 1);
    assert_eq!(out.len(), 1);
    out.pop().unwrap().event
}

fn bytes(s: &str) -> Arc<[u8]> {
    s.as_bytes().into()
}

/// Pumps until `cloud` holds no lock (10 s at most), `players` connected.
fn until_unlocked(cloud: &mut Cloud<u32>, players: &[u64]) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while cloud.locks_held() > 0 || cloud.in_flight() > 0 {
        assert!(Instant::now() < deadline, "the lock was never released");
        let _ = cloud.pump(0.0, players);
        std::thread::sleep(Duration::from_millis(1));
    }
    // The release job itself: give it time to land.
    std::thread::sleep(Duration::from_millis(50));
    let _ = cloud.pump(0.0, players);
}

#[test]
fn a_session_lock_keeps_a_players_record_on_one_server_until_they_leave_and_it_is_saved() {
    on_both(|db| {
        let store = unique("Lock");
        let (mut a, mut b) = (db.server(), db.server());
        // Player 7 is on server A: A's fetch takes the lock.
        let got = one(&mut a, &[7], &store, int_key(7), Kind::Fetch);
        assert_eq!(got, Event::Fetched { data: None, version: 0 });
        assert_eq!(a.locks_held(), 1);
        // Player 7 shows up on B too (a second session): B cannot load, write or update.
        let locked = Event::Failed(locked_message("7", &store));
        assert_eq!(one(&mut b, &[7], &store, int_key(7), Kind::Fetch), locked);
        assert_eq!(one(&mut b, &[7], &store, int_key(7), Kind::Put(bytes("dup"))), locked);
        assert_eq!(one(&mut b, &[7], &store, int_key(7), Kind::Update), locked);
        // A plain read by a server the player is not on works (a leaderboard, say).
        assert_eq!(
            one(&mut b, &[], &store, int_key(7), Kind::Fetch),
            Event::Fetched { data: None, version: 0 }
        );
        // Other records are free.
        assert!(matches!(one(&mut b, &[8], &store, int_key(8), Kind::Fetch), Event::Fetched { .. }));
        // The player leaves A; A's save (queued as they leave) lands before the unlock.
        a.submit(1, store.clone(), int_key(7), Kind::Put(bytes("saved")), 0).unwrap();
        let saved = pump_until(&mut a, 0.0, &[], 1);
        assert_eq!(saved[0].event, Event::Put { version: 1 });
        until_unlocked(&mut a, &[]);
        // Now B takes it, and sees the save.
        let got = one(&mut b, &[7, 8], &store, int_key(7), Kind::Fetch);
        assert_eq!(got, Event::Fetched { data: Some(b"saved".to_vec()), version: 1 });
        assert_eq!(one(&mut a, &[7], &store, int_key(7), Kind::Fetch), locked);
        let _ = (a.shutdown(), b.shutdown());
    });
}

#[test]
fn the_lock_is_released_only_after_the_pending_write_landed() {
    on_both(|db| {
        let store = unique("LockWrite");
        let mut a = db.server();
        assert!(matches!(one(&mut a, &[7], &store, int_key(7), Kind::Fetch), Event::Fetched { .. }));
        // The save is queued behind the budget (60 requests already sent in this minute):
        // the player is long gone, the lock stays.
        for i in 0..60 {
            a.submit(100 + i, store.clone(), str_key(&format!("f{i}")), Kind::Fetch, 0).unwrap();
        }
        a.submit(1, store.clone(), int_key(7), Kind::Put(bytes("late")), 0).unwrap();
        // The first fetch used one request of this minute: 59 more go out.
        let _ = pump_until(&mut a, 1.0, &[], 59);
        for _ in 0..20 {
            let _ = a.pump(1.0, &[]);
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(a.queued(), 2, "the last fetch and the save wait for the budget");
        assert_eq!(a.locks_held(), 1, "the lock waits for the save");
        // A minute later the save goes out, lands, then the lock goes.
        let saved = pump_until(&mut a, 61.0, &[], 2);
        assert!(saved.iter().any(|r| r.event == Event::Put { version: 1 }), "{:?}", saved.len());
        until_unlocked(&mut a, &[]);
        let mut b = db.server();
        let got = one(&mut b, &[7], &store, int_key(7), Kind::Fetch);
        assert_eq!(got, Event::Fetched { data: Some(b"late".to_vec()), version: 1 });
        let _ = (a.shutdown(), b.shutdown());
    });
}

#[test]
fn a_crashed_servers_lock_expires_with_its_lease() {
    on_both(|db| {
        let store = unique("Lease");
        let lease = Duration::from_millis(400);
        let mut a = Cloud::new(db.worker(lease));
        assert!(matches!(one(&mut a, &[7], &store, int_key(7), Kind::Fetch), Event::Fetched { .. }));
        let mut b = db.server();
        // A is alive and renews its lease (every third of it): still locked well past one lease.
        std::thread::sleep(lease + lease / 2);
        let _ = a.pump(0.0, &[7]);
        assert_eq!(
            one(&mut b, &[7], &store, int_key(7), Kind::Fetch),
            Event::Failed(locked_message("7", &store))
        );
        // A "crashes" (no shutdown, no renewals): after the lease B takes the record.
        drop(a);
        std::thread::sleep(lease + Duration::from_millis(200));
        assert!(matches!(one(&mut b, &[7], &store, int_key(7), Kind::Fetch), Event::Fetched { .. }));
        assert_eq!(b.locks_held(), 1);
        let _ = b.shutdown();
    });
}

#[test]
fn shutdown_sends_queued_writes_past_the_budget_and_unlocks() {
    on_both(|db| {
        let store = unique("Shutdown");
        let mut a = db.server();
        assert!(matches!(one(&mut a, &[7], &store, int_key(7), Kind::Fetch), Event::Fetched { .. }));
        // One player: 70 requests a minute, one used; 69 more go out, the rest waits.
        for i in 0..69 {
            a.submit(100 + i, store.clone(), str_key(&format!("f{i}")), Kind::Fetch, 0).unwrap();
        }
        a.submit(1, store.clone(), int_key(7), Kind::Put(bytes("bye")), 0).unwrap();
        a.submit(1, store.clone(), str_key("dropped"), Kind::Update, 0).unwrap();
        let _ = pump_until(&mut a, 0.0, &[7], 69);
        assert_eq!(a.queued(), 2);
        let warnings = a.shutdown();
        assert_eq!(warnings, vec!["1 cloud store reads and updates were dropped at shutdown".to_owned()]);
        let mut b = db.server();
        let got = one(&mut b, &[7], &store, int_key(7), Kind::Fetch);
        assert_eq!(got, Event::Fetched { data: Some(b"bye".to_vec()), version: 1 }, "saved and unlocked");
        let _ = b.shutdown();
    });
}

#[test]
fn the_pending_limit_is_per_script_instance() {
    let db = sqlite_db();
    let mut a = db.server();
    let store = unique("Pending");
    for i in 0..MAX_PENDING {
        a.submit(1, store.clone(), str_key(&format!("k{i}")), Kind::Fetch, 0).unwrap();
    }
    assert_eq!(a.submit(1, store.clone(), str_key("one more"), Kind::Fetch, 0), Err(QUEUE_FULL));
    assert!(a.submit(2, store.clone(), str_key("another script"), Kind::Fetch, 0).is_ok());
    let _ = pump_until(&mut a, 0.0, &[], MAX_PENDING + 1);
    assert_eq!(a.pending_of(1), 0);
    assert!(a.submit(1, store.clone(), str_key("again"), Kind::Fetch, 0).is_ok());
    let _ = a.shutdown();
    db.remove();
}

/// A backend that holds every read until the test lets it through, and counts how many
/// wait at once.
struct Gate {
    inner: Sqlite,
    permits: Arc<tokio::sync::Semaphore>,
    waiting: Arc<AtomicUsize>,
    peak: Arc<AtomicUsize>,
}

impl Backend for Gate {
    async fn read(&self, store: &str, key: &str, lock: LockMode<'_>) -> Result<Read, BackendError> {
        let now = self.waiting.fetch_add(1, Ordering::AcqRel) + 1;
        self.peak.fetch_max(now, Ordering::AcqRel);
        self.permits.acquire().await.map_err(BackendError::from_display)?.forget();
        self.waiting.fetch_sub(1, Ordering::AcqRel);
        self.inner.read(store, key, lock).await
    }
    async fn put(&self, store: &str, key: &str, value: &[u8], server: &str) -> Result<Write, BackendError> {
        self.inner.put(store, key, value, server).await
    }
    async fn cas(
        &self,
        s: &str,
        k: &str,
        v: &[u8],
        expected: i64,
        server: &str,
    ) -> Result<Cas, BackendError> {
        self.inner.cas(s, k, v, expected, server).await
    }
    async fn renew(&self, server: &str, lease_ms: i64) -> Result<u64, BackendError> {
        self.inner.renew(server, lease_ms).await
    }
    async fn release(&self, store: &str, key: &str, server: &str) -> Result<(), BackendError> {
        self.inner.release(store, key, server).await
    }
}

#[test]
fn the_budget_and_the_in_flight_cap_spread_requests_in_order() {
    let db = sqlite_db();
    let Db::Sqlite(path) = &db else { unreachable!() };
    let permits = Arc::new(tokio::sync::Semaphore::new(0));
    let waiting = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let gate = Gate {
        inner: Sqlite::open(path).unwrap(),
        permits: permits.clone(),
        waiting: waiting.clone(),
        peak: peak.clone(),
    };
    let mut cloud: Cloud<u32> = Cloud::new(Worker::spawn(gate, server_identity(), LEASE).unwrap());
    let store = unique("Budget");
    // 200 requests from 7 scripts (at most 32 each), tagged with their order.
    for n in 0..200u32 {
        cloud.submit(u64::from(n % 7), store.clone(), str_key(&format!("k{n}")), Kind::Fetch, n).unwrap();
    }
    // Each minute's results, sorted: up to 30 run at once, so they may finish in any order
    // within a minute, but which requests a minute sends is first in, first out.
    let mut order = Vec::new();
    let mut run = |cloud: &mut Cloud<u32>, time: f64, players: &[u64], want: usize| {
        let got = pump_until(cloud, time, players, want);
        let mut minute: Vec<u32> = got.iter().map(|r| r.payload).collect();
        minute.sort_unstable();
        order.extend(minute);
        got.len()
    };
    let _ = cloud.pump(0.0, &[]);
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(cloud.in_flight(), MAX_IN_FLIGHT, "30 in flight, the rest queued");
    assert_eq!(waiting.load(Ordering::Acquire), MAX_IN_FLIGHT);
    assert_eq!(cloud.queued(), 170);
    permits.add_permits(1000);
    // Within the first minute: 60 requests (the base budget), never more than 30 at once.
    assert_eq!(run(&mut cloud, 0.0, &[], 60), 60);
    for _ in 0..20 {
        assert!(cloud.pump(59.9, &[]).is_empty(), "the budget is spent until t = 60");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(cloud.queued(), 140);
    // The next minute with 3 players connected: 60 + 30.
    assert_eq!(run(&mut cloud, 60.0, &[1, 2, 3], 90), 90);
    for _ in 0..20 {
        assert!(cloud.pump(119.0, &[1, 2, 3]).is_empty());
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(run(&mut cloud, 120.0, &[], 50), 50);
    assert_eq!(order, (0..200).collect::<Vec<u32>>(), "first in, first out");
    assert!(cloud.peak_in_flight() <= MAX_IN_FLIGHT);
    assert!(peak.load(Ordering::Acquire) <= MAX_IN_FLIGHT);
    let _ = cloud.shutdown();
    db.remove();
}

#[test]
fn the_cas_loop_of_several_servers_on_one_hot_key_loses_no_update() {
    on_both(|db| {
        let store = unique("Hot");
        let mut servers: Vec<Cloud<u32>> = (0..3).map(|_| db.server()).collect();
        const EACH: u32 = 20;
        let mut done = [0u32; 3];
        let mut runs = 0u32;
        let mut gave_up = 0u32;
        for s in &mut servers {
            s.submit(1, store.clone(), str_key("hot"), Kind::Update, 0).unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while done.iter().any(|&d| d < EACH) {
            assert!(Instant::now() < deadline, "timed out: {done:?}");
            for (i, s) in servers.iter_mut().enumerate() {
                for ready in s.pump(0.0, &[]) {
                    match ready.event {
                        Event::RunUpdate { old, .. } => {
                            runs += 1;
                            let n: u64 = old.map_or(0, |b| String::from_utf8(b).unwrap().parse().unwrap());
                            s.answer_update(ready.id, (n + 1).to_string().into_bytes());
                        }
                        Event::Updated { .. } => {
                            done[i] += 1;
                            if done[i] < EACH {
                                s.submit(1, store.clone(), str_key("hot"), Kind::Update, 0).unwrap();
                            }
                        }
                        // Lost 16 races in a row: the game tries again (nothing was written).
                        Event::Failed(m) if m.contains("lost the race") => {
                            gave_up += 1;
                            s.submit(1, store.clone(), str_key("hot"), Kind::Update, 0).unwrap();
                        }
                        other => panic!("unexpected {other:?}"),
                    }
                }
            }
            std::thread::yield_now();
        }
        let got = one(&mut servers[0], &[], &store, str_key("hot"), Kind::Fetch);
        let total = 3 * EACH;
        assert_eq!(
            got,
            Event::Fetched { data: Some(total.to_string().into_bytes()), version: i64::from(total) },
            "every increment landed once"
        );
        eprintln!("{total} updates, {runs} function runs ({} retries, {gave_up} gave up)", runs - total);
        for s in &mut servers {
            let _ = s.shutdown();
        }
    });
}

#[test]
fn backends_agree_on_versions_cas_and_locks() {
    on_both(|db| {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let store = &*unique("Raw");
        rt.block_on(async {
            match &db {
                Db::Sqlite(path) => raw_suite(&Sqlite::open(path).unwrap(), store).await,
                Db::Postgres(url) => raw_suite(&Postgres::new(url).unwrap(), store).await,
            }
        });
    });
}

async fn raw_suite<B: Backend>(b: &B, store: &str) {
    let (me, other) = ("server-a", "server-b");
    assert_eq!(b.read(store, "k", LockMode::None).await.unwrap(), Read::Value(None, 0));
    assert_eq!(b.cas(store, "k", b"1", 0, me).await.unwrap(), Cas::Done(1));
    assert_eq!(b.cas(store, "k", b"x", 0, me).await.unwrap(), Cas::Lost(Some(b"1".to_vec()), 1));
    assert_eq!(b.cas(store, "k", b"2", 1, me).await.unwrap(), Cas::Done(2));
    assert_eq!(b.cas(store, "k", b"x", 1, me).await.unwrap(), Cas::Lost(Some(b"2".to_vec()), 2));
    assert_eq!(b.put(store, "k", b"3", me).await.unwrap(), Write::Done(3));
    assert_eq!(b.put(store, "new", b"n", me).await.unwrap(), Write::Done(1));
    // Locks.
    let acquire = |server| LockMode::Acquire { server, lease_ms: 60_000 };
    assert_eq!(b.read(store, "k", acquire(me)).await.unwrap(), Read::Value(Some(b"3".to_vec()), 3));
    assert_eq!(
        b.read(store, "k", acquire(me)).await.unwrap(),
        Read::Value(Some(b"3".to_vec()), 3),
        "renewal"
    );
    assert_eq!(b.read(store, "k", acquire(other)).await.unwrap(), Read::Locked);
    assert_eq!(b.read(store, "k", LockMode::Check { server: other }).await.unwrap(), Read::Locked);
    assert_eq!(
        b.read(store, "k", LockMode::Check { server: me }).await.unwrap(),
        Read::Value(Some(b"3".to_vec()), 3)
    );
    assert_eq!(b.read(store, "k", LockMode::None).await.unwrap(), Read::Value(Some(b"3".to_vec()), 3));
    assert_eq!(b.put(store, "k", b"dup", other).await.unwrap(), Write::Locked);
    assert_eq!(b.cas(store, "k", b"dup", 3, other).await.unwrap(), Cas::Locked);
    assert_eq!(b.cas(store, "k", b"4", 3, me).await.unwrap(), Cas::Done(4), "the owner writes");
    assert_eq!(b.renew(me, 60_000).await.unwrap(), 1);
    b.release(store, "k", other).await.unwrap();
    assert_eq!(b.read(store, "k", acquire(other)).await.unwrap(), Read::Locked, "only the owner releases");
    b.release(store, "k", me).await.unwrap();
    assert_eq!(b.read(store, "k", acquire(other)).await.unwrap(), Read::Value(Some(b"4".to_vec()), 4));
    // An expired lease is taken over.
    assert_eq!(
        b.read(store, "e", LockMode::Acquire { server: me, lease_ms: 1 }).await.unwrap(),
        Read::Value(None, 0)
    );
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(b.read(store, "e", acquire(other)).await.unwrap(), Read::Value(None, 0));
    assert_eq!(b.put(store, "e", b"mine", me).await.unwrap(), Write::Locked);
    b.release(store, "k", other).await.unwrap();
    b.release(store, "e", other).await.unwrap();
}

#[test]
fn servers_opening_a_new_sqlite_file_at_once_all_open_it() {
    // The first open switches the file to WAL; SQLite refuses the losers of that race at
    // once (no busy wait), so `Sqlite::open` retries.
    for round in 0..50 {
        let dir = std::env::temp_dir().join(format!("arbor-cloud-race-{}-{round}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cloud.sqlite3");
        let barrier = std::sync::Barrier::new(6);
        let opened: Vec<Result<(), BackendError>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..6)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        Sqlite::open(&path).map(drop)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let _ = std::fs::remove_dir_all(&dir);
        for r in opened {
            assert!(r.is_ok(), "round {round}: {:?}", r.err());
        }
    }
}
