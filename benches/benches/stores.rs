//! Local store (`game.Store`) benchmarks (issue 20), with plain rusqlite baselines on the
//! same kind of file (WAL, `synchronous=FULL`) in the same run:
//!
//! | group | ours | baselines |
//! |---|---|---|
//! | `stores/durable_put_1k` | 16 ticks of a script putting 167 values of ~1 KiB (10,000 a second at 60 Hz), then `shutdown_stores` (every put durable); elements = puts | `rusqlite_tx_per_put` (64 puts, one transaction each), `rusqlite_tx_per_167` (the same 2,672 rows, one transaction per tick's worth), `rusqlite_tx_per_64` |
//! | `stores/tick` | one unpaced `Simulation::step` with the put-heavy script | the same script building the same tables without putting them |
//!
//! Then, not through criterion (it has no percentiles): both places ticked at 60 Hz for 600
//! ticks each, every tick's duration recorded in an hdrhistogram, p50/p90/p99/max printed
//! side by side, with the durable puts per second and the puts per commit of the put-heavy
//! run (`docs/perf/stores.md`). Under `--test` (CI's one-pass mode) the paced run is 5
//! ticks.

use arbor_core::{Arena, Class};
use arbor_script::{HostConfig, LOCAL_STORE_FILE, ScriptHost, StoreConfig};
use arbor_sim::{SimConfig, Simulation, TickHooks};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hdrhistogram::Histogram;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

// The server's allocator (`tools`), so allocation costs are the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Puts per tick: 10,000 a second at 60 ticks a second.
const PUTS_PER_TICK: usize = 167;
/// Ticks per measured iteration of `durable_put_1k`.
const TICKS: usize = 16;
/// Bytes of the baselines' values (the script's tables encode to 1,023 bytes).
const VALUE_BYTES: usize = 1024;

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir =
            std::env::temp_dir().join(format!("arbor-bench-stores-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The script: builds `PUTS_PER_TICK` tables of ~1 KiB a tick and puts them (over 4,096 keys)
/// when `put`, or only builds them.
fn script(put: bool) -> String {
    format!(
        "local store = game.Store.open('Bench')
         local payload = string.rep('x', 1000)
         local i = 0
         local sink
         function Update()
             for _ = 1, {PUTS_PER_TICK} do
                 i += 1
                 local value = {{ n = i, data = payload }}
                 if {put} then
                     store:put(i % 4096, value)
                 else
                     sink = value
                 end
             end
         end"
    )
}

/// A simulation running `source` with its host, storing in `dir`.
fn place(dir: &Path, source: &str) -> (Simulation, Rc<RefCell<ScriptHost>>) {
    let mut arena = Arena::new();
    let ws = arena.workspace();
    let s = arena.create(Class::Script, "Writer", Some(ws)).unwrap();
    arena.set_script_source(s, source).unwrap();
    let config = HostConfig {
        stores: StoreConfig { data_dir: Some(dir.to_path_buf()), cloud_url: None },
        ..HostConfig::default()
    };
    let host = Rc::new(RefCell::new(ScriptHost::new(&arena, config).unwrap()));
    let mut sim = Simulation::new(arena, SimConfig::default()).unwrap();
    sim.add_hooks(host.clone());
    sim.step();
    assert_eq!(host.borrow().error_count(), 0, "{:?}", host.borrow().log());
    (sim, host)
}

/// A rusqlite file set up as the local store's (WAL, `synchronous=FULL`, the same table).
fn plain_db(dir: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(dir.join("plain.sqlite3")).unwrap();
    let _: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).unwrap();
    conn.pragma_update(None, "synchronous", "FULL").unwrap();
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS kv (store TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL,
         PRIMARY KEY (store, key)) WITHOUT ROWID",
    )
    .unwrap();
    conn
}

/// Writes `rows` rows (keys from `*next`) in transactions of `per_tx`.
fn plain_puts(conn: &mut rusqlite::Connection, next: &mut usize, rows: usize, per_tx: usize, value: &[u8]) {
    let mut left = rows;
    while left > 0 {
        let n = per_tx.min(left);
        let tx = conn.transaction().unwrap();
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO kv (store, key, value) VALUES ('Bench', ?1, ?2)
                     ON CONFLICT (store, key) DO UPDATE SET value = excluded.value",
                )
                .unwrap();
            for _ in 0..n {
                *next += 1;
                insert.execute(rusqlite::params![format!("i:{}", *next % 4096), value]).unwrap();
            }
        }
        tx.commit().unwrap();
        left -= n;
    }
}

fn durable_put(c: &mut Criterion) {
    let mut group = c.benchmark_group("stores/durable_put_1k");
    group.sample_size(10);
    let dir = TempDir::new("put");
    let (mut sim, host) = place(&dir.0, &script(true));
    let puts = (TICKS * PUTS_PER_TICK) as u64;
    group.throughput(Throughput::Elements(puts));
    group.bench_function("arbor_script", |b| {
        b.iter(|| {
            for _ in 0..TICKS {
                sim.step();
            }
            host.borrow_mut().shutdown_stores();
        })
    });
    host.borrow_mut().shutdown_stores();
    let stats = host.borrow().store_stats();
    assert_eq!(stats.durable_puts, stats.accepted_puts);
    assert_eq!(host.borrow().error_count(), 0);

    let mut conn = plain_db(&dir.0);
    let value = vec![b'x'; VALUE_BYTES];
    let mut next = 0;
    group.bench_function("rusqlite_tx_per_167", |b| {
        b.iter(|| plain_puts(&mut conn, &mut next, puts as usize, PUTS_PER_TICK, &value))
    });
    group.bench_function("rusqlite_tx_per_64", |b| {
        b.iter(|| plain_puts(&mut conn, &mut next, puts as usize, 64, &value))
    });
    group.throughput(Throughput::Elements(64));
    group.bench_function("rusqlite_tx_per_put", |b| {
        b.iter(|| plain_puts(&mut conn, &mut next, 64, 1, &value))
    });
    group.finish();
}

fn tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("stores/tick");
    group.sample_size(20);
    for (name, put) in [("build_only", false), ("put_167x1k", true)] {
        let dir = TempDir::new(name);
        let (mut sim, host) = place(&dir.0, &script(put));
        group.bench_function(name, |b| b.iter(|| sim.step()));
        host.borrow_mut().shutdown_stores();
    }
    group.finish();
    // The Update phase alone (no end of tick, so nothing reaches the writer): what the puts
    // cost the tick thread itself.
    let mut group = c.benchmark_group("stores/update_phase");
    group.sample_size(20);
    for (name, put) in [("build_only", false), ("put_167x1k", true)] {
        let dir = TempDir::new(name);
        let (mut sim, host) = place(&dir.0, &script(put));
        group.bench_function(name, |b| {
            b.iter(|| sim.with_context(|ctx| host.borrow_mut().update(ctx, 1.0 / 60.0)))
        });
        sim.step();
        host.borrow_mut().shutdown_stores();
    }
    group.finish();
}

/// Ticks `source` at 60 Hz for `ticks` ticks; prints the tick durations' percentiles.
fn paced(name: &str, source: &str, ticks: u32) {
    let dir = TempDir::new(name);
    let (mut sim, host) = place(&dir.0, source);
    let mut hist = Histogram::<u64>::new_with_bounds(1, 10_000_000, 3).unwrap();
    let period = Duration::from_secs_f64(1.0 / 60.0);
    let start = Instant::now();
    let before = host.borrow().store_stats();
    for k in 0..ticks {
        let due = start + period * k;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        let t = Instant::now();
        sim.step();
        hist.record(t.elapsed().as_micros().max(1) as u64).unwrap();
    }
    let elapsed = start.elapsed().as_secs_f64();
    let during = host.borrow().store_stats();
    host.borrow_mut().shutdown_stores();
    let after = host.borrow().store_stats();
    let q = |p: f64| hist.value_at_quantile(p);
    let durable = during.durable_puts - before.durable_puts;
    let commits = (after.commits - before.commits).max(1);
    println!(
        "stores/paced_60hz/{name:<11} ticks {ticks:>4}  tick µs: p50 {:>5}  p90 {:>5}  p99 {:>5}  max {:>6}  \
         | durable puts/s while running {:>7.0}  puts per commit {:>6.1}  file {:.1} MB",
        q(0.5),
        q(0.9),
        q(0.99),
        hist.max(),
        durable as f64 / elapsed,
        (after.durable_puts - before.durable_puts) as f64 / commits as f64,
        std::fs::metadata(dir.0.join(LOCAL_STORE_FILE)).map_or(0.0, |m| m.len() as f64 / 1e6),
    );
}

fn paced_ticks(_c: &mut Criterion) {
    let quick = std::env::args().any(|a| a == "--test");
    let ticks = if quick { 5 } else { 600 };
    paced("build_only", &script(false), ticks);
    paced("put_167x1k", &script(true), ticks);
}

criterion_group!(benches, durable_put, tick, paced_ticks);
criterion_main!(benches);
