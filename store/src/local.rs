//! The place-local stores' state on the tick thread ([`LocalStores`]): each open store's map
//! of keys to encoded values (what `get` answers from), the tick's batch of accepted puts,
//! the writer and the counters. The user guide is `docs/stores.md`, "Local stores".
//!
//! **Storage.** One SQLite file per place, `<data dir>/local_store.sqlite3`, WAL with
//! `synchronous=FULL`, one table `kv(store, key, value)` keyed by (store name, canonical key
//! text). A store is read whole into memory when it is first opened; after that only the
//! writer thread touches the file.
//!
//! **Durability.** A put is *accepted* when it returns: every limit was checked, the map
//! holds the new bytes and the tick's batch has them (the last value per key). At the end of
//! the tick the batch goes to the writer (one transaction; batches waiting together share
//! one). Puts are numbered from 1 in acceptance order; once a commit through put `n` lands,
//! puts 1..=n are *durable* ([`StoreStats::durable_puts`] is `n`).
//!
//! **Shutdown.** [`LocalStores::shutdown`] waits for the writer up to `SHUTDOWN_WAIT`;
//! [`LocalStores::shutdown_by`] waits until a deadline, then reports the puts not durable
//! and lets the writer go on trying on its own (the store state's drop does not wait for it).
//!
//! Nothing here logs: the calls that learn of a failed or recovered commit return the lines
//! for the host's log, with their [`Severity`].

use crate::abandoned::{Abandoned, Pending};
use crate::error::StoreError;
use crate::key::StoreKey;
use crate::limits::MAX_STORES;
use crate::writer::{self, Batch, Report, Row, Writer};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Most bytes of one encoded value in a local store (64 KiB).
pub const MAX_VALUE_BYTES: usize = 64 * 1024;

/// Most keys of one local store.
pub const MAX_KEYS: usize = 4096;

/// The local store file's name inside the data directory.
pub const LOCAL_STORE_FILE: &str = "local_store.sqlite3";

/// Tries of the final commit at shutdown (or when the host is dropped).
const SHUTDOWN_ATTEMPTS: u32 = 5;

/// How long shutdown waits for the writer at most.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(30);

/// Counters of the local stores since the host started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Puts accepted (returned to the script); the n-th accepted put is put number n.
    pub accepted_puts: u64,
    /// Puts durable: puts 1..=`durable_puts` are in the file (each, or a later put to the
    /// same key).
    pub durable_puts: u64,
    /// Transactions that landed.
    pub commits: u64,
    /// Commits that failed (each logged with its keys, then retried).
    pub failed_commits: u64,
    /// Stores the place opened.
    pub open_stores: usize,
    /// Time the commits that landed took, summed (the transaction only, not the wait for
    /// the next batch), in microseconds.
    pub commit_micros: u64,
}

impl StoreStats {
    /// Puts accepted but not durable yet.
    pub fn pending_puts(&self) -> u64 {
        self.accepted_puts - self.durable_puts
    }
}

/// How serious a line for the host's log is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Something went wrong and was recovered from (a commit landed after failures).
    Warn,
    /// Something failed (a commit, the final flush).
    Error,
}

/// One open store.
struct LocalStore {
    name: Arc<str>,
    /// Canonical key text → encoded value.
    values: FxHashMap<String, Arc<[u8]>>,
    /// Number of the last put accepted into this store (0: none): the store has puts not
    /// durable while it is above [`StoreStats::durable_puts`].
    last_put: u64,
}

/// The rows a failed commit held (store name, key text) and how many puts they carried.
type FailedRows = (Vec<(Arc<str>, String)>, usize);

/// Every local store of a place: opened by name, read from memory, written by a thread of
/// its own.
///
/// ```
/// use arbor_store::{LocalStores, StoreKey, StoreValue};
///
/// let dir = std::env::temp_dir().join(format!("arbor-store-doc-{}", std::process::id()));
/// let mut stores = LocalStores::new(Some(dir.clone()));
/// let scores = stores.open("Scores")?;
/// let entry = StoreValue::Table(vec![(StoreValue::str("best"), StoreValue::Number(42.0))]);
/// stores.put(scores, &StoreKey::Int(7), entry.encode(arbor_store::MAX_VALUE_BYTES)?)?;
/// stores.end_tick(); // the tick's puts go to the writer as one transaction
/// assert!(stores.shutdown().is_empty(), "every accepted put is durable");
/// drop(stores);
///
/// // A later server reads the store back from the file.
/// let mut stores = LocalStores::new(Some(dir.clone()));
/// let scores = stores.open("Scores")?;
/// let bytes = stores.get(scores, &StoreKey::Int(7)).expect("stored");
/// assert_eq!(StoreValue::decode(&bytes)?, entry);
/// # drop(stores);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LocalStores {
    data_dir: Option<PathBuf>,
    stores: Vec<LocalStore>,
    writer: Option<Writer>,
    /// The tick's puts: (store index, key text) → value.
    batch: FxHashMap<(usize, String), Arc<[u8]>>,
    stats: StoreStats,
    /// The keys named by the last failed commit, if the rows it held are not durable yet.
    unwritten: Option<FailedRows>,
}

/// `Scores[42]`, `Scores["gold"]`: a row as log lines name it.
fn row_name(store: &str, key_text: &str) -> String {
    match StoreKey::from_db(key_text) {
        Some(k) => format!("{store}[{k}]"),
        None => format!("{store}[{key_text:?}]"),
    }
}

fn key_list(keys: &[(Arc<str>, String)], rows: usize) -> String {
    let mut text = keys.iter().map(|(s, k)| row_name(s, k)).collect::<Vec<_>>().join(", ");
    if rows > keys.len() {
        text.push_str(&format!(" and {} more", rows - keys.len()));
    }
    text
}

impl LocalStores {
    /// The stores of a place whose server keeps them in `data_dir` (`None`: no data
    /// directory; `open` refuses). Nothing opens until [`LocalStores::open`].
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        Self {
            data_dir,
            stores: Vec::new(),
            writer: None,
            batch: FxHashMap::default(),
            stats: StoreStats::default(),
            unwritten: None,
        }
    }

    /// The store file, if the server has a data directory.
    pub fn file(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join(LOCAL_STORE_FILE))
    }

    /// Opens store `name` (or finds it open): its index.
    pub fn open(&mut self, name: &str) -> Result<usize, StoreError> {
        if let Some(i) = self.stores.iter().position(|s| &*s.name == name) {
            return Ok(i);
        }
        if self.stores.len() >= MAX_STORES {
            return Err(StoreError::TooManyStores);
        }
        let (Some(dir), Some(file)) = (self.data_dir.clone(), self.file()) else {
            return Err(StoreError::NoDataDir);
        };
        let failed = |reason: String| StoreError::Open { path: file.display().to_string(), reason };
        std::fs::create_dir_all(&dir).map_err(|e| failed(e.to_string()))?;
        let values = load(&file, name).map_err(|e| failed(e.to_string()))?;
        if let Some(bad) = values.keys().find(|k| StoreKey::from_db(k).is_none()) {
            // A row no `put` could have written: refused, not skipped (the file is left as
            // it is for its owner to mend).
            return Err(failed(format!(
                "store '{name}' holds a row whose key {bad:?} is not a store key (an integer or 1 to 50 \
                 printable characters)"
            )));
        }
        if self.writer.is_none() {
            self.writer =
                Some(Writer::start(file.clone(), SHUTDOWN_ATTEMPTS).map_err(|e| failed(e.to_string()))?);
        }
        self.stores.push(LocalStore { name: name.into(), values, last_put: 0 });
        self.stats.open_stores = self.stores.len();
        Ok(self.stores.len() - 1)
    }

    /// The encoded value of `key` in store `store`.
    pub fn get(&self, store: usize, key: &StoreKey) -> Option<Arc<[u8]>> {
        self.stores[store].values.get(&key.to_db()).cloned()
    }

    /// Accepts a put of an encoded value (checked by the caller): refused only if it would
    /// add a key to a full store.
    pub fn put(&mut self, store: usize, key: &StoreKey, bytes: Vec<u8>) -> Result<(), StoreError> {
        let s = &mut self.stores[store];
        let text = key.to_db();
        if !s.values.contains_key(&text) && s.values.len() >= MAX_KEYS {
            return Err(StoreError::TooManyKeys { store: s.name.to_string(), limit: MAX_KEYS });
        }
        let bytes: Arc<[u8]> = bytes.into();
        s.values.insert(text.clone(), Arc::clone(&bytes));
        self.batch.insert((store, text), bytes);
        self.stats.accepted_puts += 1;
        s.last_put = self.stats.accepted_puts;
        Ok(())
    }

    /// Sends the tick's puts to the writer and takes the writer's reports; returns the log
    /// lines to write.
    pub fn end_tick(&mut self) -> Vec<(Severity, String)> {
        self.send_batch();
        self.poll()
    }

    fn send_batch(&mut self) {
        if self.batch.is_empty() {
            return;
        }
        let Some(writer) = &self.writer else { return };
        let rows = self
            .batch
            .drain()
            .map(|((store, key), value)| Row { store: Arc::clone(&self.stores[store].name), key, value })
            .collect();
        writer.send(Batch { through: self.stats.accepted_puts, rows });
    }

    /// Takes the writer's reports into the counters; returns the log lines to write.
    pub fn poll(&mut self) -> Vec<(Severity, String)> {
        let Some(writer) = &self.writer else { return Vec::new() };
        let mut lines = Vec::new();
        for report in writer.reports() {
            match report {
                Report::Committed { through, rows, after_failures, took } => {
                    self.stats.commits += 1;
                    self.stats.commit_micros += took.as_micros() as u64;
                    self.stats.durable_puts = self.stats.durable_puts.max(through);
                    if self.stats.durable_puts == self.stats.accepted_puts {
                        self.unwritten = None;
                    }
                    if after_failures > 0 {
                        lines.push((
                            Severity::Warn,
                            format!(
                                "local store: commit landed after {after_failures} failed attempts \
                                 ({rows} keys; puts through #{through} are durable)"
                            ),
                        ));
                    }
                }
                Report::Failed { through, error, keys, rows } => {
                    self.stats.failed_commits += 1;
                    lines.push((
                        Severity::Error,
                        format!(
                            "local store: commit failed ({error}); {rows} keys (puts through \
                             #{through}) are kept and retried: {}",
                            key_list(&keys, rows)
                        ),
                    ));
                    self.unwritten = Some((keys, rows));
                }
            }
        }
        lines
    }

    /// Waits until every accepted put is durable (or the commit failed for good); returns
    /// the log lines to write.
    pub fn shutdown(&mut self) -> Vec<(Severity, String)> {
        self.flush_within(SHUTDOWN_WAIT)
    }

    /// [`shutdown`](Self::shutdown) that waits until `deadline` at most: returns the log
    /// lines and the puts not durable then, with their stores. If any are left, the writer
    /// keeps trying on its own thread until the process ends, and dropping the stores no
    /// longer waits for it.
    pub fn shutdown_by(&mut self, deadline: Instant) -> (Vec<(Severity, String)>, Abandoned) {
        let lines = self.flush_within(deadline.saturating_duration_since(Instant::now()));
        let durable = self.stats.durable_puts;
        let left = Pending::new(
            self.stats.pending_puts(),
            self.stores.iter().filter(|s| s.last_put > durable).map(|s| &*s.name),
        );
        if !left.is_empty()
            && let Some(writer) = &mut self.writer
        {
            writer.detach();
        }
        (lines, Abandoned { local_puts: left, ..Abandoned::default() })
    }

    /// Sends the tick's puts and waits up to `wait` for the writer to commit them; returns the
    /// log lines (an error naming the puts not written, if any).
    fn flush_within(&mut self, wait: Duration) -> Vec<(Severity, String)> {
        self.send_batch();
        let answered = self.writer.as_ref().is_none_or(|w| w.flush(SHUTDOWN_ATTEMPTS, wait));
        let mut lines = self.poll();
        let left = self.stats.pending_puts();
        if left > 0 {
            let keys = match &self.unwritten {
                Some((keys, rows)) => format!("; keys: {}", key_list(keys, *rows)),
                None => String::new(),
            };
            let why = if answered { "its commit kept failing" } else { "the writer did not answer in time" };
            lines.push((
                Severity::Error,
                format!("local store: {left} accepted puts were not written at shutdown ({why}){keys}"),
            ));
        }
        lines
    }

    /// The counters so far (call [`LocalStores::poll`] first to take the latest reports).
    pub fn stats(&self) -> StoreStats {
        self.stats
    }
}

/// Reads every row of store `name` from `file` (creating the file and table if needed).
fn load(file: &Path, name: &str) -> rusqlite::Result<FxHashMap<String, Arc<[u8]>>> {
    let conn = writer::open_db(file)?;
    let mut stmt = conn.prepare("SELECT key, value FROM kv WHERE store = ?1")?;
    let rows = stmt.query_map([name], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?)))?;
    let mut values = FxHashMap::default();
    for row in rows {
        let (key, value) = row?;
        values.insert(key, value.into());
    }
    Ok(values)
}
