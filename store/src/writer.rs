//! The local store's I/O thread: it owns the writing SQLite connection and turns the batches
//! the tick thread sends (one per tick, see `local`) into transactions.
//!
//! - **Group commit.** Every batch waiting when the thread wakes goes into one transaction,
//!   keeping the last value of each key, so a writer that fell behind catches up in one
//!   commit instead of one per tick.
//! - **Never dropped.** A failed commit (the file locked past the busy timeout, the disk
//!   full, an I/O error) keeps its rows; they are tried again after a back-off (16 ms, about
//!   a tick, doubling to 1 s while the failures go on), with the batches that arrived
//!   meanwhile, on a fresh connection. Each outcome is
//!   reported back over a channel: the thread never touches Lua, the tick thread logs.
//! - **Flush.** A flush request (shutdown) commits what is pending, trying up to a given
//!   number of times, then answers; closing (the store state dropped) flushes and ends the
//!   thread, and is waited for unless the shutdown ran out of time and detached it.
//!
//! Invariant: batches commit in the order they were accepted, and a report of
//! [`Report::Committed`] through sequence `n` means every put numbered ≤ `n` is in the file
//! (or superseded by a later put to the same key that is).

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use rusqlite::{Connection, TransactionBehavior, params};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a statement waits for a lock held by another connection before failing.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_millis(250);

/// First back-off after a failed commit; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(16);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Keys a failure report names (the count says how many more there were).
pub(crate) const REPORTED_KEYS: usize = 20;

/// Opens `path` the way both connections use it: WAL, `synchronous=FULL`, the busy timeout,
/// and the table.
pub(crate) fn open_db(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(rusqlite::Error::InvalidParameterName(format!("journal_mode is {mode}, not wal")));
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS kv (
            store TEXT NOT NULL,
            key TEXT NOT NULL,
            value BLOB NOT NULL,
            PRIMARY KEY (store, key)
        ) WITHOUT ROWID",
    )?;
    Ok(conn)
}

/// One put as the writer sees it.
pub(crate) struct Row {
    /// The store's name.
    pub store: Arc<str>,
    /// The key's canonical text (`StoreKey::to_db`).
    pub key: String,
    /// The encoded value.
    pub value: Arc<[u8]>,
}

/// The puts of one tick (the last value per key) and the puts they stand for.
pub(crate) struct Batch {
    /// Sequence number of the last put accepted into this batch.
    pub through: u64,
    /// The rows.
    pub rows: Vec<Row>,
}

enum Request {
    Batch(Batch),
    /// Commit what is pending, trying `attempts` times; then send on the channel.
    Flush {
        attempts: u32,
        done: Sender<()>,
    },
    /// Flush with `attempts` and end the thread.
    Close {
        attempts: u32,
    },
}

/// What happened to a commit.
#[derive(Debug)]
pub(crate) enum Report {
    /// Every put through `through` is durable; `rows` rows were written.
    Committed { through: u64, rows: usize, after_failures: u32, took: Duration },
    /// The commit of puts through `through` failed and will be tried again.
    Failed {
        through: u64,
        error: String,
        /// The first [`REPORTED_KEYS`] rows' `(store, key text)`.
        keys: Vec<(Arc<str>, String)>,
        /// How many rows were pending.
        rows: usize,
    },
}

/// The tick thread's end of the writer.
pub(crate) struct Writer {
    requests: Sender<Request>,
    reports: Receiver<Report>,
    thread: Option<JoinHandle<()>>,
    /// Attempts of the flush made when the writer is dropped.
    close_attempts: u32,
}

impl Writer {
    /// Starts the thread writing to `path` (which `open_db` already set up).
    pub(crate) fn start(path: PathBuf, close_attempts: u32) -> std::io::Result<Writer> {
        let (requests, requests_rx) = crossbeam_channel::unbounded();
        let (reports_tx, reports) = crossbeam_channel::unbounded();
        let thread = std::thread::Builder::new().name("arbor-store-writer".into()).spawn(move || {
            Thread {
                path,
                conn: None,
                pending: BTreeMap::new(),
                through: 0,
                failures: 0,
                reports: reports_tx,
            }
            .run(&requests_rx)
        })?;
        Ok(Writer { requests, reports, thread: Some(thread), close_attempts })
    }

    /// Hands a batch to the thread.
    pub(crate) fn send(&self, batch: Batch) {
        // The thread only ends when the writer is dropped.
        let _ = self.requests.send(Request::Batch(batch));
    }

    /// Reports that arrived, oldest first.
    pub(crate) fn reports(&self) -> Vec<Report> {
        self.reports.try_iter().collect()
    }

    /// Asks the thread to commit everything sent so far (up to `attempts` tries) and waits
    /// for it, at most `timeout`. False if the thread did not answer in time.
    pub(crate) fn flush(&self, attempts: u32, timeout: Duration) -> bool {
        let (done, wait) = crossbeam_channel::bounded(1);
        if self.requests.send(Request::Flush { attempts, done }).is_err() {
            return false;
        }
        wait.recv_timeout(timeout).is_ok()
    }

    /// Lets the thread go: dropping the writer still asks it to flush and end, but no longer
    /// waits for it (a shutdown past its deadline).
    pub(crate) fn detach(&mut self) {
        self.thread = None;
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        let _ = self.requests.send(Request::Close { attempts: self.close_attempts });
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct Thread {
    path: PathBuf,
    conn: Option<Connection>,
    /// Rows not yet committed, by (store, key): the last value of each.
    pending: BTreeMap<(Arc<str>, String), Arc<[u8]>>,
    /// Sequence of the last put among `pending`.
    through: u64,
    /// Failed attempts since the last commit.
    failures: u32,
    reports: Sender<Report>,
}

impl Thread {
    fn run(mut self, requests: &Receiver<Request>) {
        let mut backoff = FIRST_BACKOFF;
        // When the next attempt after a failure is due (`None`: no failure pending).
        let mut retry_at: Option<Instant> = None;
        loop {
            let first = if self.pending.is_empty() {
                match requests.recv() {
                    Ok(r) => Some(r),
                    Err(_) => return,
                }
            } else {
                let wait = retry_at.map_or(Duration::ZERO, |t| t.saturating_duration_since(Instant::now()));
                match requests.recv_timeout(wait) {
                    Ok(r) => Some(r),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => {
                        self.flush(5);
                        return;
                    }
                }
            };
            // Coalesce everything waiting into one transaction; act on a flush after it.
            let mut control = None;
            for request in first.into_iter().chain(std::iter::from_fn(|| requests.try_recv().ok())) {
                match request {
                    Request::Batch(b) => self.merge(b),
                    other => {
                        control = Some(other);
                        break;
                    }
                }
            }
            match control {
                None => {
                    let due = retry_at.is_none_or(|t| Instant::now() >= t);
                    if !self.pending.is_empty() && due {
                        if self.commit() {
                            retry_at = None;
                            backoff = FIRST_BACKOFF;
                        } else {
                            retry_at = Some(Instant::now() + backoff);
                            backoff = (backoff * 2).min(MAX_BACKOFF);
                        }
                    }
                }
                Some(Request::Flush { attempts, done }) => {
                    self.flush(attempts);
                    if self.pending.is_empty() {
                        retry_at = None;
                        backoff = FIRST_BACKOFF;
                    } else {
                        retry_at = Some(Instant::now() + backoff);
                    }
                    let _ = done.send(());
                }
                Some(Request::Close { attempts }) => {
                    // Batches sent before the close are merged already: requests arrive in
                    // order.
                    self.flush(attempts);
                    return;
                }
                Some(Request::Batch(_)) => unreachable!("batches are merged above"),
            }
        }
    }

    fn merge(&mut self, batch: Batch) {
        for row in batch.rows {
            self.pending.insert((row.store, row.key), row.value);
        }
        self.through = self.through.max(batch.through);
    }

    /// Commits the pending rows, trying up to `attempts` times with a back-off between.
    fn flush(&mut self, attempts: u32) {
        let mut backoff = FIRST_BACKOFF * 4;
        for attempt in 0..attempts.max(1) {
            if self.pending.is_empty() || self.commit() {
                return;
            }
            if attempt + 1 < attempts {
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }

    /// One transaction over every pending row; reports the outcome. True if it landed.
    fn commit(&mut self) -> bool {
        let started = Instant::now();
        match self.write() {
            Ok(()) => {
                let took = started.elapsed();
                let rows = self.pending.len();
                self.pending.clear();
                let after_failures = std::mem::take(&mut self.failures);
                let _ = self.reports.send(Report::Committed {
                    through: self.through,
                    rows,
                    after_failures,
                    took,
                });
                true
            }
            Err(e) => {
                // Start again from a fresh connection: the old one may be what broke.
                self.conn = None;
                self.failures += 1;
                let keys = self
                    .pending
                    .keys()
                    .take(REPORTED_KEYS)
                    .map(|(s, k)| (Arc::clone(s), k.clone()))
                    .collect();
                let _ = self.reports.send(Report::Failed {
                    through: self.through,
                    error: e.to_string(),
                    keys,
                    rows: self.pending.len(),
                });
                false
            }
        }
    }

    fn write(&mut self) -> rusqlite::Result<()> {
        if self.conn.is_none() {
            self.conn = Some(open_db(&self.path)?);
        }
        let conn = self.conn.as_mut().expect("connection opened above");
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO kv (store, key, value) VALUES (?1, ?2, ?3)
                 ON CONFLICT (store, key) DO UPDATE SET value = excluded.value",
            )?;
            for ((store, key), value) in &self.pending {
                insert.execute(params![&**store, key, &**value])?;
            }
        }
        tx.commit()
    }
}
