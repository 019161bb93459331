//! The cloud store's `update` under contention: the compare-and-swap loop (read, change,
//! `cas`, again on a lost race) run by 4 servers at once, each with its own connection, on
//! one hot key and spread over 1,000 keys, against a plain CAS loop written directly
//! against the same driver in the same run. SQLite always; PostgreSQL too when
//! `ARBOR_TEST_POSTGRES=postgres://...` is set.
//!
//! | group | ours | baseline |
//! |---|---|---|
//! | `cloud_store/sqlite` | `arbor/{hot_key,keys_1000}`: the store's SQLite backend (`store/src/cloud/sqlite.rs`): `read` + `cas` with the session-lock check in the same statement, WAL, `synchronous=FULL`, one file shared by the 4 servers | `plain_rusqlite/...`: `SELECT v, ver` + `UPDATE kv SET v = ?, ver = ver + 1 WHERE k = ? AND ver = ?` on a two-column table, same pragmas |
//! | `cloud_store/postgres` | `arbor/...`: the PostgreSQL backend (deadpool pool, prepared statements, lock check) on a current-thread runtime per server | `plain_tokio_postgres/...`: one `tokio_postgres` connection per server, the same two statements |
//!
//! One iteration is one committed update; the elapsed time of `iters` updates split over
//! the 4 servers. Retries per commit (races lost) are printed after each benchmark
//! (`docs/perf/stores.md`).

use arbor_store::cloud::backend::{Backend, Cas, LockMode, Read};
use arbor_store::cloud::{postgres, sqlite};
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Servers updating at once.
const SERVERS: usize = 4;
/// Keys of the spread workload.
const KEYS: u64 = 1_000;

/// Which keys a workload updates.
#[derive(Clone, Copy)]
enum Keys {
    Hot,
    Spread,
}

impl Keys {
    fn name(self) -> String {
        match self {
            Keys::Hot => "hot_key".into(),
            Keys::Spread => format!("keys_{KEYS}"),
        }
    }

    /// The `n`-th key server `s` updates.
    fn pick(self, s: usize, n: u64) -> String {
        match self {
            Keys::Hot => "s:hot".into(),
            Keys::Spread => {
                let x = (n.wrapping_add(s as u64 * 7919)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                format!("s:k{}", x % KEYS)
            }
        }
    }
}

/// Counts of one benchmark: commits and lost races.
#[derive(Default)]
struct Races {
    commits: AtomicU64,
    lost: AtomicU64,
}

impl Races {
    fn report(&self, what: &str) {
        let (c, l) = (self.commits.load(Ordering::Relaxed), self.lost.load(Ordering::Relaxed));
        if c > 0 {
            eprintln!("{what}: {c} commits, {:.2} retries per commit", l as f64 / c as f64);
        }
    }
}

fn counter(v: Option<&[u8]>) -> u64 {
    v.map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
}

/// One update through a backend: the store's CAS loop.
async fn update<B: Backend>(b: &B, key: &str, races: &Races) {
    let Read::Value(mut value, mut version) = b.read("bench", key, LockMode::None).await.expect("read")
    else {
        panic!("locked")
    };
    loop {
        let next = (counter(value.as_deref()) + 1).to_le_bytes();
        match b.cas("bench", key, &next, version, "bench-server").await.expect("cas") {
            Cas::Done(_) => break,
            Cas::Lost(v, ver) => {
                races.lost.fetch_add(1, Ordering::Relaxed);
                (value, version) = (v, ver);
            }
            Cas::Locked => panic!("locked"),
        }
    }
    races.commits.fetch_add(1, Ordering::Relaxed);
}

/// Runs `iters` updates over [`SERVERS`] threads, each with its own connection from
/// `connect`, and returns the elapsed time (connections made before the clock starts).
fn contended<C: Send + 'static>(
    iters: u64,
    connect: &(dyn Fn() -> C + Sync),
    work: impl Fn(&mut C, usize, u64) + Sync,
) -> Duration {
    let mut conns: Vec<C> = (0..SERVERS).map(|_| connect()).collect();
    let per = iters.div_ceil(SERVERS as u64);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for (s, conn) in conns.iter_mut().enumerate() {
            let work = &work;
            scope.spawn(move || {
                for n in 0..per {
                    work(conn, s, n);
                }
            });
        }
    });
    start.elapsed()
}

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-cloud-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
    path
}

fn sqlite(group: &mut BenchmarkGroup<'_, WallTime>) {
    for keys in [Keys::Hot, Keys::Spread] {
        let path = temp_file("arbor.sqlite3");
        let races = Races::default();
        group.bench_function(format!("arbor/{}", keys.name()), |b| {
            b.iter_custom(|iters| {
                let rt =
                    || tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
                let connect = || (sqlite::Sqlite::open(&path).expect("open"), rt());
                contended(iters, &connect, |(backend, rt), s, n| {
                    rt.block_on(update(backend, &keys.pick(s, n), &races));
                })
            })
        });
        races.report(&format!("cloud_store/sqlite/arbor/{}", keys.name()));

        let path = temp_file("plain.sqlite3");
        {
            let c = rusqlite::Connection::open(&path).expect("open");
            c.execute_batch(
                "PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v BLOB NOT NULL, ver INTEGER NOT NULL);",
            )
            .expect("schema");
        }
        let races = Races::default();
        group.bench_function(format!("plain_rusqlite/{}", keys.name()), |b| {
            b.iter_custom(|iters| {
                let connect = || {
                    let c = rusqlite::Connection::open(&path).expect("open");
                    c.busy_timeout(Duration::from_secs(30)).expect("busy");
                    c.pragma_update(None, "synchronous", "FULL").expect("sync");
                    c
                };
                contended(iters, &connect, |c, s, n| plain_sqlite_update(c, &keys.pick(s, n), &races))
            })
        });
        races.report(&format!("cloud_store/sqlite/plain_rusqlite/{}", keys.name()));
    }
}

fn plain_sqlite_update(c: &rusqlite::Connection, key: &str, races: &Races) {
    use rusqlite::OptionalExtension;
    let read = |c: &rusqlite::Connection| -> (u64, i64) {
        c.prepare_cached("SELECT v, ver FROM kv WHERE k = ?1")
            .expect("prepare")
            .query_row([key], |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, i64>(1)?)))
            .optional()
            .expect("select")
            .map_or((0, 0), |(v, ver)| (counter(Some(&v)), ver))
    };
    let (mut n, mut ver) = read(c);
    loop {
        let next = (n + 1).to_le_bytes();
        let done = if ver == 0 {
            c.prepare_cached("INSERT INTO kv (k, v, ver) VALUES (?1, ?2, 1) ON CONFLICT (k) DO NOTHING")
                .expect("prepare")
                .execute(rusqlite::params![key, &next[..]])
                .expect("insert")
        } else {
            c.prepare_cached("UPDATE kv SET v = ?1, ver = ver + 1 WHERE k = ?2 AND ver = ?3")
                .expect("prepare")
                .execute(rusqlite::params![&next[..], key, ver])
                .expect("update")
        };
        if done == 1 {
            break;
        }
        races.lost.fetch_add(1, Ordering::Relaxed);
        (n, ver) = read(c);
    }
    races.commits.fetch_add(1, Ordering::Relaxed);
}

fn postgres(group: &mut BenchmarkGroup<'_, WallTime>, url: &str) {
    let rt = || tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    // Fresh rows for this run.
    rt().block_on(async {
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(conn);
        client
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS bench_kv (k TEXT PRIMARY KEY, v BYTEA NOT NULL, ver BIGINT NOT NULL);
                 DELETE FROM bench_kv;",
            )
            .await
            .expect("schema");
        let backend = postgres::Postgres::new(url).expect("url");
        let _ = backend.read("bench", "s:none", LockMode::None).await.expect("the store's schema");
        let (c, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(conn);
        c.execute("DELETE FROM cloud_kv WHERE store = 'bench'", &[]).await.expect("clean");
    });
    for keys in [Keys::Hot, Keys::Spread] {
        let races = Races::default();
        group.bench_function(format!("arbor/{}", keys.name()), |b| {
            b.iter_custom(|iters| {
                let connect = || (postgres::Postgres::new(url).expect("url"), rt());
                contended(iters, &connect, |(backend, rt), s, n| {
                    rt.block_on(update(backend, &keys.pick(s, n), &races));
                })
            })
        });
        races.report(&format!("cloud_store/postgres/arbor/{}", keys.name()));

        let races = Races::default();
        group.bench_function(format!("plain_tokio_postgres/{}", keys.name()), |b| {
            b.iter_custom(|iters| {
                let connect = || {
                    let rt = rt();
                    (rt.block_on(PlainPg::connect(url)), rt)
                };
                contended(iters, &connect, |(plain, rt), s, n| {
                    rt.block_on(plain.update(&keys.pick(s, n), &races));
                })
            })
        });
        races.report(&format!("cloud_store/postgres/plain_tokio_postgres/{}", keys.name()));
    }
}

/// A plain connection with its statements prepared once.
struct PlainPg {
    client: tokio_postgres::Client,
    select: tokio_postgres::Statement,
    insert: tokio_postgres::Statement,
    cas: tokio_postgres::Statement,
}

impl PlainPg {
    async fn connect(url: &str) -> PlainPg {
        let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await.expect("connect");
        tokio::spawn(conn);
        let select = client.prepare("SELECT v, ver FROM bench_kv WHERE k = $1").await.expect("prepare");
        let insert = client
            .prepare("INSERT INTO bench_kv (k, v, ver) VALUES ($1, $2, 1) ON CONFLICT (k) DO NOTHING")
            .await
            .expect("prepare");
        let cas = client
            .prepare("UPDATE bench_kv SET v = $1, ver = ver + 1 WHERE k = $2 AND ver = $3")
            .await
            .expect("prepare");
        PlainPg { client, select, insert, cas }
    }

    async fn read(&self, key: &str) -> (u64, i64) {
        self.client
            .query_opt(&self.select, &[&key])
            .await
            .expect("select")
            .map_or((0, 0), |r| (counter(Some(r.get::<_, &[u8]>(0))), r.get::<_, i64>(1)))
    }

    async fn update(&self, key: &str, races: &Races) {
        let (mut n, mut ver) = self.read(key).await;
        loop {
            let next = (n + 1).to_le_bytes();
            let done = if ver == 0 {
                self.client.execute(&self.insert, &[&key, &&next[..]]).await.expect("insert")
            } else {
                self.client.execute(&self.cas, &[&&next[..], &key, &ver]).await.expect("update")
            };
            if done == 1 {
                break;
            }
            races.lost.fetch_add(1, Ordering::Relaxed);
            (n, ver) = self.read(key).await;
        }
        races.commits.fetch_add(1, Ordering::Relaxed);
    }
}

fn cloud_store(c: &mut Criterion) {
    let mut group = c.benchmark_group("cloud_store/sqlite");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3)).sample_size(10);
    sqlite(&mut group);
    group.finish();
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("arbor-cloud-bench-{}", std::process::id())),
    );
    match std::env::var("ARBOR_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => {
            let mut group = c.benchmark_group("cloud_store/postgres");
            group
                .warm_up_time(Duration::from_secs(1))
                .measurement_time(Duration::from_secs(3))
                .sample_size(10);
            postgres(&mut group, &url);
            group.finish();
        }
        _ => eprintln!("cloud_store/postgres: skipped (set ARBOR_TEST_POSTGRES=postgres://... to run it)"),
    }
}

criterion_group!(benches, cloud_store);
criterion_main!(benches);
