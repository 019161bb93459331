//! The cloud store: records shared by every server of an experience, reached
//! asynchronously (`game.CloudStore`; the user guide is `docs/stores.md`, "Cloud stores").
//! This file is the tick thread's side, [`Cloud`]: the requests, their FIFO queue, the
//! server's rate budget and in-flight cap, the per-script pending limit, the compare-and-swap
//! loop of `update`, and which session locks to take and release. The host (`arbor-script`'s
//! `store/cloud_api.rs`) turns it into the Luau surface and runs the callbacks; `worker` runs
//! the jobs on the background runtime against a [`backend::Backend`] (`sqlite` offline,
//! `postgres` for a fleet); `lock` keeps the session locks; `shutdown` stops it, within a
//! deadline if given.
//!
//! A request's life: `submit` (checked against the script's [`MAX_PENDING`]) → the queue →
//! sent when the budget ([`BASE_PER_MINUTE`] + [`PER_PLAYER_PER_MINUTE`] × players over any
//! [`WINDOW_SECONDS`] of world time) and [`MAX_IN_FLIGHT`] allow, in order → its result is
//! polled at the next `pump` (the start of a later tick's Update phase) and becomes a
//! [`Ready`] for `api`. An `update` goes round: read → `Ready(RunUpdate)` → the script's
//! function → [`Cloud::answer_update`] → CAS → done, or lost and `RunUpdate` again with the
//! record as it is now, at most [`MAX_ATTEMPTS`] times. It counts as one request against the
//! budget and stays in flight for its whole loop.

pub mod backend;
mod lock;
pub mod postgres;
mod shutdown;
pub mod sqlite;
mod worker;

#[cfg(test)]
mod tests;

use backend::{BackendError, Cas, Read, Write};
use lock::{Locks, Record, locked_message};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use worker::{Done, Finished, Job, LockOp, Op};

pub(crate) use lock::{LEASE, server_identity};
pub(crate) use worker::Worker;

/// Largest encoded value.
pub const MAX_VALUE_BYTES: usize = 4 << 20;
/// Requests one script instance may have pending (queued, in flight, or waiting for its
/// callback).
pub const MAX_PENDING: usize = 32;
/// The error of the request past [`MAX_PENDING`] (`docs/stores.md`, "Cloud stores", limits).
pub const QUEUE_FULL: &str = "cloud store request queue is full";
/// Requests a server may send per [`WINDOW_SECONDS`] with no player connected.
pub const BASE_PER_MINUTE: usize = 60;
/// Requests per [`WINDOW_SECONDS`] each connected player adds.
pub const PER_PLAYER_PER_MINUTE: usize = 10;
/// The budget's sliding window, in seconds of world time.
pub const WINDOW_SECONDS: f64 = 60.0;
/// Requests a server has in flight at once.
pub const MAX_IN_FLIGHT: usize = 30;
/// Times `update` runs its function (and tries its compare-and-swap) before it gives up.
pub const MAX_ATTEMPTS: u32 = 16;
/// How long `shutdown` waits for writes and unlocks.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(30);

/// A record's key as the tick thread keeps it.
#[derive(Clone, Debug)]
pub struct RecordKey {
    /// Canonical form (`StoreKey::to_db`).
    pub db: Arc<str>,
    /// As messages show it (`StoreKey`'s `Display`).
    pub text: Arc<str>,
    /// The user id this key may be, for session locks (non-negative integer keys).
    pub player: Option<u64>,
}

/// What a request does.
#[derive(Clone, Debug)]
pub enum Kind {
    /// `fetch`: read the record (taking its session lock when it is a connected player's).
    Fetch,
    /// `put`: write these encoded bytes whatever the record holds.
    Put(Arc<[u8]>),
    /// `update`: read, let the host run its function ([`Event::RunUpdate`]), swap.
    Update,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Queued,
    InFlight,
    /// An `update` waiting for its function to run on the tick thread (in flight).
    AwaitingFn,
}

struct Request<P> {
    owner: u64,
    store: Arc<str>,
    key: RecordKey,
    kind: Kind,
    payload: P,
    state: State,
    /// Update: times the function ran.
    attempts: u32,
    /// Update: the version its function saw.
    version: i64,
    /// Update: the value being swapped in.
    value: Option<Arc<[u8]>>,
    /// The player whose lock the read takes, if it does.
    acquiring: Option<u64>,
}

impl<P> Request<P> {
    fn record(&self) -> Record {
        (self.store.clone(), self.key.db.clone())
    }

    fn writes(&self) -> bool {
        !matches!(self.kind, Kind::Fetch)
    }
}

/// What happened to a request, for the Lua side. Values are encoded bytes; versions count
/// the record's writes (0: missing).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "the fields are the record's value and version, as the enum says")]
pub enum Event {
    /// A fetch's result (`None`: missing, version 0).
    Fetched { data: Option<Vec<u8>>, version: i64 },
    /// A put landed.
    Put { version: i64 },
    /// Run the update's function on `old` and answer with [`Cloud::answer_update`] (or
    /// [`Cloud::finish`]). The request stays pending.
    RunUpdate { old: Option<Vec<u8>>, version: i64 },
    /// An update landed with `data`.
    Updated { data: Arc<[u8]>, version: i64 },
    /// The request failed with this message.
    Failed(String),
}

/// A request with something for the Lua side to do.
pub struct Ready<P> {
    /// The request (as [`Cloud::submit`] numbered it).
    pub id: u64,
    /// What the host attached to it.
    pub payload: P,
    /// What happened.
    pub event: Event,
}

/// The cloud store of one server (tick thread). `P` is what the host attaches to each
/// request (its script and callbacks); it comes back with the request's [`Ready`]. Made by
/// [`StoreConfig::start_cloud`](crate::StoreConfig::start_cloud).
pub struct Cloud<P> {
    worker: Worker,
    requests: FxHashMap<u64, Request<P>>,
    queue: VecDeque<u64>,
    /// World times of the requests sent in the last [`WINDOW_SECONDS`].
    window: VecDeque<f64>,
    in_flight: usize,
    pending: FxHashMap<u64, usize>,
    /// Writes queued or in flight per record (a lock is kept until they land).
    writes: FxHashMap<Record, usize>,
    locks: Locks,
    players: Vec<u64>,
    time: f64,
    next_id: u64,
    /// Lines for the server log that belong to no script (a lock release that failed).
    notices: Vec<String>,
    stopped: bool,
    /// Most requests in flight at once so far (for tests and figures).
    peak_in_flight: usize,
    /// Deliveries so far.
    pumps: u64,
    /// Updates that lost a race, waiting to run their function again: (due delivery, id,
    /// the record now, its version).
    retries: Vec<(u64, u64, Option<Vec<u8>>, i64)>,
    rng: Jitter,
}

/// A small generator for the retry back-off (xorshift64*), seeded per server.
struct Jitter(u64);

impl Jitter {
    fn new() -> Self {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        Self(h.finish() | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl<P: Clone> Cloud<P> {
    /// A cloud store whose jobs run on `worker`.
    pub(crate) fn new(worker: Worker) -> Self {
        Self {
            worker,
            requests: FxHashMap::default(),
            queue: VecDeque::new(),
            window: VecDeque::new(),
            in_flight: 0,
            pending: FxHashMap::default(),
            writes: FxHashMap::default(),
            locks: Locks::default(),
            players: Vec::new(),
            time: 0.0,
            next_id: 1,
            notices: Vec::new(),
            stopped: false,
            peak_in_flight: 0,
            pumps: 0,
            retries: Vec::new(),
            rng: Jitter::new(),
        }
    }

    /// Queues a request of script instance `owner`, or refuses it with the message to raise.
    pub fn submit(
        &mut self,
        owner: u64,
        store: Arc<str>,
        key: RecordKey,
        kind: Kind,
        payload: P,
    ) -> Result<u64, &'static str> {
        if self.stopped {
            return Err("the cloud store is shut down");
        }
        let pending = self.pending.entry(owner).or_default();
        if *pending >= MAX_PENDING {
            return Err(QUEUE_FULL);
        }
        *pending += 1;
        let id = self.next_id;
        self.next_id += 1;
        let request = Request {
            owner,
            store,
            key,
            kind,
            payload,
            state: State::Queued,
            attempts: 0,
            version: 0,
            value: None,
            acquiring: None,
        };
        if request.writes() {
            *self.writes.entry(request.record()).or_default() += 1;
        }
        self.requests.insert(id, request);
        self.queue.push_back(id);
        Ok(id)
    }

    /// Requests of `owner` pending now.
    #[cfg(test)]
    pub fn pending_of(&self, owner: u64) -> usize {
        self.pending.get(&owner).copied().unwrap_or(0)
    }

    /// Requests sent and not finished.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Most requests in flight at once so far.
    #[cfg(test)]
    pub fn peak_in_flight(&self) -> usize {
        self.peak_in_flight
    }

    /// Requests waiting for the budget or a free slot.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Session locks this server holds.
    pub fn locks_held(&self) -> usize {
        self.locks.len()
    }

    /// Takes the log lines that belong to no script.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// The start of a delivery: at world time `time` with `players` connected, takes the
    /// results that arrived, releases the locks of players gone, and sends what the budget
    /// allows. Returns what the Lua side has to run, in the order the results arrived.
    pub fn pump(&mut self, time: f64, players: &[u64]) -> Vec<Ready<P>> {
        self.time = time;
        self.players.clear();
        self.players.extend_from_slice(players);
        self.pumps += 1;
        let mut out = Vec::new();
        // Retries due now go first: they were results of earlier deliveries.
        let pumps = self.pumps;
        let (due, waiting): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.retries).into_iter().partition(|r| r.0 <= pumps);
        self.retries = waiting;
        for (_, id, old, version) in due {
            if let Some(r) = self.requests.get_mut(&id) {
                r.attempts += 1;
                out.push(Ready { id, payload: r.payload.clone(), event: Event::RunUpdate { old, version } });
            }
        }
        for finished in self.worker.poll() {
            self.finished(finished, &mut out);
        }
        let writes = &self.writes;
        let requests = &self.requests;
        let busy = |r: &Record| {
            writes.get(r).is_some_and(|&n| n > 0)
                || requests
                    .values()
                    .any(|q| q.acquiring.is_some() && q.state == State::InFlight && q.record() == *r)
        };
        for (store, key) in self.locks.sweep(players, busy) {
            self.worker.send(Job { id: 0, store, key, op: Op::Release });
        }
        self.dispatch();
        out
    }

    /// Sends queued requests, oldest first, while the budget and the in-flight cap allow.
    pub fn dispatch(&mut self) {
        let limit = BASE_PER_MINUTE + PER_PLAYER_PER_MINUTE * self.players.len();
        while self.window.front().is_some_and(|&t| t <= self.time - WINDOW_SECONDS) {
            self.window.pop_front();
        }
        while let Some(&id) = self.queue.front() {
            if self.in_flight >= MAX_IN_FLIGHT || self.window.len() >= limit {
                break;
            }
            self.queue.pop_front();
            self.window.push_back(self.time);
            self.send(id);
        }
    }

    /// Sends request `id` (queued).
    fn send(&mut self, id: u64) {
        let players = &self.players;
        let Some(r) = self.requests.get_mut(&id) else { return };
        r.state = State::InFlight;
        self.in_flight += 1;
        self.peak_in_flight = self.peak_in_flight.max(self.in_flight);
        let connected = r.key.player.filter(|p| players.contains(p));
        let op = match &r.kind {
            Kind::Fetch => {
                r.acquiring = connected;
                Op::Read(if connected.is_some() { LockOp::Acquire } else { LockOp::None })
            }
            Kind::Update => {
                r.acquiring = connected;
                Op::Read(if connected.is_some() { LockOp::Acquire } else { LockOp::Check })
            }
            Kind::Put(value) => Op::Put(value.clone()),
        };
        self.worker.send(Job { id, store: r.store.clone(), key: r.key.db.clone(), op });
    }

    /// Removes request `id` (done, failed, cancelled or dropped); returns it.
    fn complete(&mut self, id: u64) -> Option<Request<P>> {
        let r = self.requests.remove(&id)?;
        self.retries.retain(|q| q.1 != id);
        if r.state != State::Queued {
            self.in_flight -= 1;
        } else {
            self.queue.retain(|&q| q != id);
        }
        if let Some(n) = self.pending.get_mut(&r.owner) {
            *n -= 1;
            if *n == 0 {
                self.pending.remove(&r.owner);
            }
        }
        if r.writes() {
            let record = r.record();
            if let Some(n) = self.writes.get_mut(&record) {
                *n -= 1;
                if *n == 0 {
                    self.writes.remove(&record);
                }
            }
        }
        Some(r)
    }

    fn finish_with(&mut self, id: u64, event: Event, out: &mut Vec<Ready<P>>) {
        if let Some(r) = self.complete(id) {
            out.push(Ready { id, payload: r.payload, event });
        }
    }

    fn failed(&mut self, id: u64, e: BackendError, out: &mut Vec<Ready<P>>) {
        self.finish_with(id, Event::Failed(e.to_string()), out);
    }

    fn locked(&mut self, id: u64, out: &mut Vec<Ready<P>>) {
        let Some(r) = self.requests.get(&id) else { return };
        let message = locked_message(&r.key.text, &r.store);
        self.finish_with(id, Event::Failed(message), out);
    }

    /// Turns a finished job into what comes next.
    fn finished(&mut self, f: Finished, out: &mut Vec<Ready<P>>) {
        if let Done::Released(result) = &f.done {
            if let Err(e) = result {
                self.notices.push(format!(
                    "could not release the lock on record {} of store '{}': {e}",
                    f.key, f.store
                ));
            }
            return;
        }
        let id = f.id;
        let Some(r) = self.requests.get_mut(&id) else { return };
        match f.done {
            Done::Read(Ok(Read::Value(data, version))) => {
                if let Some(player) = r.acquiring.take() {
                    let record = r.record();
                    self.locks.acquired(record, player);
                }
                if matches!(r.kind, Kind::Update) {
                    r.state = State::AwaitingFn;
                    r.version = version;
                    r.attempts += 1;
                    let payload = r.payload.clone();
                    out.push(Ready { id, payload, event: Event::RunUpdate { old: data, version } });
                } else {
                    self.finish_with(id, Event::Fetched { data, version }, out);
                }
            }
            Done::Read(Ok(Read::Locked)) | Done::Put(Ok(Write::Locked)) | Done::Cas(Ok(Cas::Locked)) => {
                r.acquiring = None;
                self.locked(id, out);
            }
            Done::Read(Err(e)) | Done::Put(Err(e)) | Done::Cas(Err(e)) => {
                r.acquiring = None;
                self.failed(id, e, out);
            }
            Done::Put(Ok(Write::Done(version))) => self.finish_with(id, Event::Put { version }, out),
            Done::Cas(Ok(Cas::Done(version))) => {
                let data = r.value.take().unwrap_or_else(|| Arc::from(&[][..]));
                self.finish_with(id, Event::Updated { data, version }, out);
            }
            Done::Cas(Ok(Cas::Lost(data, version))) => {
                if r.attempts >= MAX_ATTEMPTS {
                    let message = format!(
                        "update of record {} of store '{}' lost the race {MAX_ATTEMPTS} times in a row; try again later",
                        r.key.text, r.store
                    );
                    self.finish_with(id, Event::Failed(message), out);
                } else {
                    // Back off a random number of deliveries, growing with the losses, so
                    // servers racing on one record stop colliding in step.
                    r.state = State::AwaitingFn;
                    r.version = version;
                    r.value = None;
                    let spread = 1u64 << r.attempts.min(4);
                    let due = self.pumps + self.rng.next() % spread;
                    self.retries.push((due, id, data, version));
                }
            }
            Done::Released(_) => {}
        }
    }

    /// The update `id`'s function returned `value` (encoded): try the swap.
    pub fn answer_update(&mut self, id: u64, value: Vec<u8>) {
        let Some(r) = self.requests.get_mut(&id) else { return };
        if r.state != State::AwaitingFn {
            return;
        }
        let value: Arc<[u8]> = value.into();
        r.state = State::InFlight;
        r.value = Some(value.clone());
        let job = Job { id, store: r.store.clone(), key: r.key.db.clone(), op: Op::Cas(value, r.version) };
        self.worker.send(job);
    }

    /// Ends request `id` without a result (an update cancelled, failed in its function, or
    /// whose script retired).
    pub fn finish(&mut self, id: u64) {
        self.complete(id);
    }
}
