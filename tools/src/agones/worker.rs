//! The Agones thread: every SDK call but the watch happens here, in the order the serve loop
//! asked for them, so the tick only ever sends a message or stores an atomic.
//!
//! Rules:
//! - `Ready` is sent once asked for, and retried with a growing pause (up to
//!   [`READY_RETRY_MAX`]) until the sidecar takes it.
//! - `Health` is sent every [`HEALTH_EVERY`], and only when the tick count the serve loop
//!   stores has advanced since the last ping: a stalled tick stops the pings, and Agones
//!   marks the server Unhealthy.
//! - Player list updates (`players:addValue`, `players:removeValue`) keep their order; one
//!   that gets no answer is retried [`LIST_ATTEMPTS`] times in all, then dropped with a line.
//!   Adding a value already there (409) and removing one that is absent (404) succeed; other
//!   refusals (no `players` list declared, the list full) are reported once each.
//! - `Shutdown` ends the thread: it is tried until it succeeds or its deadline passes, and
//!   the caller hears which.
//!
//! No failure here panics or stops the thread; failures to reach the sidecar are reported
//! through [`Complaints`].

use super::complaints::Complaints;
use super::sdk::{Failure, Sdk};
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Time between health pings (Agones' default `periodSeconds` is 5; ping well inside it).
pub const HEALTH_EVERY: Duration = Duration::from_secs(2);

/// The first pause before `Ready` is sent again.
const READY_RETRY_MIN: Duration = Duration::from_millis(250);

/// The longest pause between two tries of `Ready`.
pub const READY_RETRY_MAX: Duration = Duration::from_secs(5);

/// Tries of one player list update before it is dropped.
pub const LIST_ATTEMPTS: u32 = 4;

/// The pause before a player list update is tried again.
const LIST_RETRY: Duration = Duration::from_secs(1);

/// Most player list updates waiting; later ones are dropped (with a line) while it is full.
const MAX_QUEUED_LIST_UPDATES: usize = 4096;

/// The pause between two tries of `Shutdown`.
const SHUTDOWN_RETRY: Duration = Duration::from_millis(200);

/// The Counters & Lists list that holds the connected user ids.
pub const PLAYERS_LIST: &str = "players";

/// What the serve loop asks of the thread.
pub enum Request {
    /// Tell Agones the server is ready for players.
    Ready,
    /// A user connected: add their id to the players list.
    Joined(u64),
    /// A user left: remove their id from the players list.
    Left(u64),
    /// Send `Shutdown` before `deadline`, say on `done` whether it was taken, and end.
    Shutdown {
        /// When to give up.
        deadline: Instant,
        /// Hears `true` once the sidecar took it.
        done: Sender<bool>,
    },
}

/// Whether `Ready` is still to be sent.
enum ReadyState {
    /// Not asked for yet.
    NotAsked,
    /// Asked for; next try at the instant, after the pause.
    Due(Instant, Duration),
    /// Taken by the sidecar.
    Sent,
}

/// One player list update.
struct ListUpdate {
    add: bool,
    user: u64,
    attempts: u32,
    due: Instant,
}

/// The thread's state.
pub struct Worker {
    sdk: Sdk,
    ticks: Arc<AtomicU64>,
    complaints: Complaints,
    ready: ReadyState,
    /// Time between health pings ([`HEALTH_EVERY`]).
    health_every: Duration,
    next_health: Instant,
    pinged_at_tick: u64,
    /// Whether the last health period found the tick stalled (said once per stall).
    stalled: bool,
    lists: VecDeque<ListUpdate>,
    /// Refusals already reported (each kind once).
    refusals: BTreeSet<String>,
}

impl Worker {
    /// A worker calling `sdk`, pinging health while `ticks` advances.
    pub fn new(sdk: Sdk, ticks: Arc<AtomicU64>) -> Worker {
        Worker {
            sdk,
            ticks,
            complaints: Complaints::default(),
            ready: ReadyState::NotAsked,
            health_every: HEALTH_EVERY,
            next_health: Instant::now() + HEALTH_EVERY,
            pinged_at_tick: 0,
            stalled: false,
            lists: VecDeque::new(),
            refusals: BTreeSet::new(),
        }
    }

    /// The worker with health pings every `period` instead of [`HEALTH_EVERY`].
    #[cfg(test)]
    fn with_health_every(mut self, period: Duration) -> Worker {
        self.health_every = period;
        self.next_health = Instant::now() + period;
        self
    }

    /// Serves `requests` until `Shutdown` or until the sender is gone.
    pub fn run(mut self, requests: Receiver<Request>) {
        loop {
            let wait = self.next_due().saturating_duration_since(Instant::now());
            match requests.recv_timeout(wait) {
                Ok(Request::Shutdown { deadline, done }) => {
                    let _ = done.send(self.shutdown(deadline));
                    return;
                }
                Ok(request) => self.take(request),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            self.work();
        }
    }

    /// The next instant something is due.
    fn next_due(&self) -> Instant {
        let mut due = self.next_health;
        if let ReadyState::Due(at, _) = self.ready {
            due = due.min(at);
        }
        if let Some(update) = self.lists.front() {
            due = due.min(update.due);
        }
        due
    }

    /// Queues a request (all but `Shutdown`).
    fn take(&mut self, request: Request) {
        let now = Instant::now();
        match request {
            Request::Ready => {
                if matches!(self.ready, ReadyState::NotAsked) {
                    self.ready = ReadyState::Due(now, READY_RETRY_MIN);
                }
            }
            Request::Joined(user) | Request::Left(user) => {
                if self.lists.len() >= MAX_QUEUED_LIST_UPDATES {
                    self.refuse(
                        "queue",
                        format!(
                            "too many player list updates waiting for the sidecar; dropping user {user}'s"
                        ),
                    );
                    return;
                }
                let add = matches!(request, Request::Joined(_));
                self.lists.push_back(ListUpdate { add, user, attempts: 0, due: now });
            }
            Request::Shutdown { .. } => unreachable!("handled by run"),
        }
    }

    /// Does whatever is due now.
    fn work(&mut self) {
        let now = Instant::now();
        if let ReadyState::Due(at, pause) = self.ready
            && at <= now
        {
            match self.sdk.post("/ready", &serde_json::json!({})) {
                Ok(()) => {
                    self.complaints.report_success();
                    println!("agones: Ready (the sidecar at {} took it)", self.sdk.base());
                    self.ready = ReadyState::Sent;
                }
                Err(e) => {
                    self.complaints.report_failure("Ready", &e);
                    self.ready = ReadyState::Due(Instant::now() + pause, (pause * 2).min(READY_RETRY_MAX));
                }
            }
        }
        if self.next_health <= Instant::now() {
            self.health();
        }
        while let Some(update) = self.lists.front()
            && update.due <= Instant::now()
        {
            if !self.list_update() {
                break;
            }
        }
    }

    /// One health period: a ping if the tick advanced since the last one.
    fn health(&mut self) {
        self.next_health += self.health_every;
        let now = Instant::now();
        if self.next_health < now {
            // The thread was held up (a slow call): the next period starts now.
            self.next_health = now + self.health_every;
        }
        let ticks = self.ticks.load(Ordering::Relaxed);
        if ticks <= self.pinged_at_tick {
            if ticks > 0 && !self.stalled {
                eprintln!(
                    "agones: the tick has not advanced in {:.0} s (still at tick {ticks}): health pings stop until it does",
                    self.health_every.as_secs_f64()
                );
                self.stalled = true;
            }
            return;
        }
        if std::mem::take(&mut self.stalled) {
            eprintln!("agones: the tick advances again (tick {ticks}): health pings resume");
        }
        self.pinged_at_tick = ticks;
        match self.sdk.post("/health", &serde_json::json!({})) {
            Ok(()) => self.complaints.report_success(),
            Err(e) => self.complaints.report_failure("Health", &e),
        }
    }

    /// Tries the first player list update; `false` if it is to be tried again later.
    fn list_update(&mut self) -> bool {
        let Some(update) = self.lists.front_mut() else { return true };
        let verb = if update.add { "addValue" } else { "removeValue" };
        let path = format!("/v1beta1/lists/{PLAYERS_LIST}:{verb}");
        let user = update.user;
        update.attempts += 1;
        let result = self.sdk.post(&path, &serde_json::json!({ "value": user.to_string() }));
        let add = update.add;
        match result {
            Ok(()) | Err(Failure::Status(409, _)) if add => {}
            Ok(()) | Err(Failure::Status(404, _)) if !add => {}
            Err(e) if e.is_transient() => {
                self.complaints.report_failure(&format!("players:{verb} {user}"), &e);
                if update.attempts < LIST_ATTEMPTS {
                    update.due = Instant::now() + LIST_RETRY;
                    return false;
                }
                eprintln!(
                    "agones: gave up on players:{verb} for user {user} after {LIST_ATTEMPTS} tries; the players list may be off by one"
                );
                self.lists.pop_front();
                return true;
            }
            Err(Failure::Status(404, e)) => self.refuse(
                "no list",
                format!(
                    "the GameServer has no `{PLAYERS_LIST}` list ({e}): declare `lists: {{{PLAYERS_LIST}: {{capacity: N}}}}` in the Fleet's GameServer spec (and keep the CountsAndLists feature on); player tracking is off until then"
                ),
            ),
            Err(Failure::Status(400, e)) => self.refuse(
                "full",
                format!("the `{PLAYERS_LIST}` list refused user {user} ({e}): is its capacity below --max-clients?"),
            ),
            Err(e) => self.refuse(&format!("{verb} {e}"), format!("players:{verb} for user {user} was refused: {e}")),
            Ok(()) => {}
        }
        self.complaints.report_success();
        self.lists.pop_front();
        true
    }

    /// Reports a definite refusal of kind `kind` the first time it happens.
    fn refuse(&mut self, kind: &str, line: String) {
        if self.refusals.insert(kind.to_owned()) {
            eprintln!("agones: {line}");
        }
    }

    /// Sends `Shutdown` until the sidecar takes it or `deadline` passes.
    fn shutdown(&mut self, deadline: Instant) -> bool {
        loop {
            match self.sdk.post("/shutdown", &serde_json::json!({})) {
                Ok(()) => {
                    self.complaints.report_success();
                    println!("agones: Shutdown (the sidecar took it)");
                    return true;
                }
                Err(e) => {
                    let now = Instant::now();
                    if now + SHUTDOWN_RETRY >= deadline {
                        eprintln!("agones: Shutdown was not taken before its deadline: {e}");
                        return false;
                    }
                    self.complaints.report_failure("Shutdown", &e);
                    std::thread::sleep(SHUTDOWN_RETRY);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A loopback HTTP server that records `METHOD PATH BODY` of every call and answers with
    /// the status `status` gives for it.
    struct Recorder {
        port: u16,
        calls: Arc<Mutex<Vec<String>>>,
    }

    impl Recorder {
        fn start(status: fn(&str) -> u16) -> Recorder {
            let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
            let port = server.server_addr().to_ip().unwrap().port();
            let calls = Arc::new(Mutex::new(Vec::new()));
            let seen = Arc::clone(&calls);
            std::thread::spawn(move || {
                for mut request in server.incoming_requests() {
                    let mut body = String::new();
                    let _ = request.as_reader().read_to_string(&mut body);
                    let body: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
                    let call = format!("{} {} {body}", request.method(), request.url());
                    let code = status(&call);
                    seen.lock().unwrap().push(call);
                    let _ = request.respond(tiny_http::Response::from_string("{}").with_status_code(code));
                }
            });
            Recorder { port, calls }
        }

        fn calls(&self) -> Vec<String> {
            self.calls.lock().unwrap().clone()
        }

        fn count(&self, prefix: &str) -> usize {
            self.calls().iter().filter(|c| c.starts_with(prefix)).count()
        }
    }

    /// A worker on `recorder` pinging every `period`, with its tick counter and request sender.
    fn worker(recorder: &Recorder, period: Duration) -> (Arc<AtomicU64>, Sender<Request>) {
        let ticks = Arc::new(AtomicU64::new(0));
        let worker = Worker::new(Sdk::new(recorder.port), Arc::clone(&ticks)).with_health_every(period);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || worker.run(rx));
        (ticks, tx)
    }

    #[test]
    fn health_pings_stop_while_the_tick_stalls_and_resume_after() {
        let recorder = Recorder::start(|_| 200);
        let period = Duration::from_millis(150);
        let (ticks, _requests) = worker(&recorder, period);
        // No tick yet: no ping.
        std::thread::sleep(period * 3);
        assert_eq!(recorder.count("POST /health"), 0);
        // Ticking: a ping a period.
        let start = Instant::now();
        for t in 1..=20 {
            ticks.store(t, Ordering::Relaxed);
            std::thread::sleep(period / 4);
        }
        let ticking = recorder.count("POST /health");
        let periods = start.elapsed().as_secs_f64() / period.as_secs_f64();
        assert!(ticking >= 3 && ticking as f64 <= periods + 1.0, "{ticking} pings in {periods:.1} periods");
        // Stalled for 5 periods: at most the ping already due.
        std::thread::sleep(period * 5);
        let stalled = recorder.count("POST /health") - ticking;
        assert!(stalled <= 1, "{stalled} pings while stalled");
        // Ticking again: pings again.
        let before = recorder.count("POST /health");
        for t in 21..=40 {
            ticks.store(t, Ordering::Relaxed);
            std::thread::sleep(period / 4);
        }
        assert!(recorder.count("POST /health") - before >= 3);
    }

    #[test]
    fn list_updates_keep_their_order_and_take_409_and_404_as_done() {
        // Adding is answered "already there", removing "absent": both are done, not retried.
        let recorder = Recorder::start(|call| if call.contains(":addValue") { 409 } else { 404 });
        let (_ticks, requests) = worker(&recorder, Duration::from_secs(60));
        requests.send(Request::Joined(7)).unwrap();
        requests.send(Request::Left(7)).unwrap();
        requests.send(Request::Joined(8)).unwrap();
        let (done, heard) = std::sync::mpsc::channel();
        requests.send(Request::Shutdown { deadline: Instant::now() + Duration::from_secs(2), done }).unwrap();
        assert!(!heard.recv_timeout(Duration::from_secs(5)).unwrap(), "404 is no Shutdown");
        let calls = recorder.calls();
        assert_eq!(
            calls[..3],
            [
                r#"POST /v1beta1/lists/players:addValue {"value":"7"}"#,
                r#"POST /v1beta1/lists/players:removeValue {"value":"7"}"#,
                r#"POST /v1beta1/lists/players:addValue {"value":"8"}"#,
            ]
        );
        assert!(calls[3..].iter().all(|c| c.starts_with("POST /shutdown")), "{calls:?}");
    }

    #[test]
    fn unanswered_updates_are_retried_then_dropped_and_ready_is_retried() {
        // The sidecar fails everything with 503 (a transient failure).
        let recorder = Recorder::start(|_| 503);
        let (_ticks, requests) = worker(&recorder, Duration::from_secs(60));
        requests.send(Request::Joined(9)).unwrap();
        requests.send(Request::Ready).unwrap();
        std::thread::sleep(LIST_RETRY * LIST_ATTEMPTS + Duration::from_millis(500));
        assert_eq!(recorder.count("POST /v1beta1/lists/players:addValue"), LIST_ATTEMPTS as usize);
        assert!(recorder.count("POST /ready") >= 3, "Ready is retried: {:?}", recorder.calls());
        drop(requests);
    }
}
