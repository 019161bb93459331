//! A fake Agones SDK sidecar for tests: loopback HTTP (tiny_http) that records every call
//! and answers as the real sidecar's REST gateway does, closely enough for `arbor serve`.
//!
//! It keeps a GameServer (state, address, ports) and its `players` list: `POST /ready` makes
//! the state `Ready`, `POST /shutdown` makes it `Shutdown`, [`Sidecar::allocate`] makes it
//! `Allocated`; `players:addValue` of a value already there answers 409 and
//! `players:removeValue` of an absent one 404, as Agones does. `GET /watch/gameserver` streams
//! one `{"result":{GameServer}}` line per change of state (chunked, flushed per line). While
//! told to fail ([`Sidecar::fail`]) it answers every call 503. A sidecar that starts late is
//! [`Sidecar::on_port`] of a [`free_port`] the server was given earlier.

#![allow(dead_code)] // each test binary uses a part of it

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One call the sidecar received.
#[derive(Clone, Debug)]
pub struct Call {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, e.g. `/ready`.
    pub path: String,
    /// The request body.
    pub body: String,
    /// When it arrived.
    pub at: Instant,
    /// The HTTP status it was answered with.
    pub status: u16,
}

impl Call {
    /// `"POST /ready"`.
    pub fn what(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

#[derive(Default)]
struct Shared {
    calls: Mutex<Vec<Call>>,
    failing: AtomicBool,
    stopped: AtomicBool,
    state: Mutex<String>,
    players: Mutex<Vec<String>>,
    /// The GameServer's `status.address` and `default` port.
    address: Mutex<Option<(String, u16)>>,
}

/// A running fake sidecar; stops when dropped.
pub struct Sidecar {
    /// The port it listens on (127.0.0.1).
    pub port: u16,
    shared: Arc<Shared>,
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

/// A loopback TCP port nothing listens on now (for a sidecar that starts later).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Sidecar {
    /// A sidecar on a free port.
    pub fn start() -> Sidecar {
        Sidecar::on_port(0)
    }

    /// A sidecar on `port` (0: any free one).
    pub fn on_port(port: u16) -> Sidecar {
        let server = Arc::new(tiny_http::Server::http(("127.0.0.1", port)).expect("bind the fake sidecar"));
        let port = server.server_addr().to_ip().unwrap().port();
        let shared = Arc::new(Shared { state: Mutex::new("Scheduled".to_owned()), ..Default::default() });
        let (s, sh) = (Arc::clone(&server), Arc::clone(&shared));
        let thread = std::thread::spawn(move || serve(&s, &sh));
        Sidecar { port, shared, server, thread: Some(thread) }
    }

    /// Makes every call fail with 503 (`true`) or answer normally (`false`).
    pub fn fail(&self, failing: bool) {
        self.shared.failing.store(failing, Ordering::SeqCst);
    }

    /// Sets the GameServer's address and `default` port (unset: no address yet).
    pub fn set_address(&self, ip: &str, port: u16) {
        *self.shared.address.lock().unwrap() = Some((ip.to_owned(), port));
    }

    /// Allocates the GameServer (as a GameServerAllocation would).
    pub fn allocate(&self) {
        *self.shared.state.lock().unwrap() = "Allocated".to_owned();
    }

    /// The calls so far.
    pub fn calls(&self) -> Vec<Call> {
        self.shared.calls.lock().unwrap().clone()
    }

    /// The `players` list now.
    pub fn players(&self) -> Vec<String> {
        self.shared.players.lock().unwrap().clone()
    }

    /// Waits until `what` holds of the calls, for at most `limit`; whether it did.
    pub fn wait_for(&self, limit: Duration, what: impl Fn(&[Call]) -> bool) -> bool {
        let until = Instant::now() + limit;
        loop {
            if what(&self.shared.calls.lock().unwrap()) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The GameServer JSON as the gateway writes it (int64 as strings, unread fields present).
fn game_server(shared: &Shared) -> String {
    let state = shared.state.lock().unwrap().clone();
    let players = shared.players.lock().unwrap().clone();
    let (address, ports) = match shared.address.lock().unwrap().clone() {
        Some((ip, port)) => (ip, serde_json::json!([{"name": "default", "port": port}])),
        None => (String::new(), serde_json::json!([])),
    };
    serde_json::json!({
        "object_meta": {"name": "fake-gs", "namespace": "default", "generation": "1",
            "creation_timestamp": "1700000000", "annotations": {}, "labels": {}},
        "spec": {"health": {"disabled": false, "period_seconds": 5, "failure_threshold": 3,
            "initial_delay_seconds": 5}},
        "status": {"state": state, "address": address, "ports": ports, "players": null,
            "counters": {}, "lists": {"players": {"capacity": "100", "values": players}}}
    })
    .to_string()
}

fn serve(server: &tiny_http::Server, shared: &Arc<Shared>) {
    while !shared.stopped.load(Ordering::SeqCst) {
        let Ok(Some(mut request)) = server.recv_timeout(Duration::from_millis(50)) else { continue };
        let method = request.method().to_string();
        let path = request.url().to_owned();
        let mut body = String::new();
        let _ = request.as_reader().read_to_string(&mut body);
        let at = Instant::now();
        let (status, answer) = if shared.failing.load(Ordering::SeqCst) {
            (503, r#"{"code":14,"message":"the fake sidecar is unavailable","details":[]}"#.to_owned())
        } else {
            answer(shared, &method, &path, &body)
        };
        shared.calls.lock().unwrap().push(Call { method, path: path.clone(), body, at, status });
        if status == 200 && path == "/watch/gameserver" {
            let shared = Arc::clone(shared);
            std::thread::spawn(move || watch(request.into_writer(), &shared));
            continue;
        }
        let header = tiny_http::Header::from_bytes("Content-Type", "application/json").unwrap();
        let _ = request
            .respond(tiny_http::Response::from_string(answer).with_status_code(status).with_header(header));
    }
}

fn answer(shared: &Shared, method: &str, path: &str, body: &str) -> (u16, String) {
    let value =
        || serde_json::from_str::<serde_json::Value>(body).ok()?.get("value")?.as_str().map(str::to_owned);
    let list = |values: &[String]| {
        serde_json::json!({"name": "players", "capacity": "100", "values": values}).to_string()
    };
    match (method, path) {
        ("POST", "/ready") => {
            *shared.state.lock().unwrap() = "Ready".to_owned();
            (200, "{}".to_owned())
        }
        ("POST", "/shutdown") => {
            *shared.state.lock().unwrap() = "Shutdown".to_owned();
            (200, "{}".to_owned())
        }
        ("POST", "/health") => (200, "{}".to_owned()),
        ("GET", "/gameserver") | ("GET", "/watch/gameserver") => (200, game_server(shared)),
        ("POST", "/v1beta1/lists/players:addValue") => {
            let Some(v) = value() else { return (400, r#"{"code":3,"message":"no value"}"#.to_owned()) };
            let mut players = shared.players.lock().unwrap();
            if players.contains(&v) {
                return (409, r#"{"code":6,"message":"already exists"}"#.to_owned());
            }
            players.push(v);
            (200, list(&players))
        }
        ("POST", "/v1beta1/lists/players:removeValue") => {
            let Some(v) = value() else { return (400, r#"{"code":3,"message":"no value"}"#.to_owned()) };
            let mut players = shared.players.lock().unwrap();
            let Some(i) = players.iter().position(|p| *p == v) else {
                return (404, r#"{"code":5,"message":"not found"}"#.to_owned());
            };
            players.remove(i);
            (200, list(&players))
        }
        _ => (404, r#"{"code":5,"message":"unknown path"}"#.to_owned()),
    }
}

/// The watch stream: a line now and one per change of state, until the sidecar stops or the
/// client goes.
fn watch(mut out: Box<dyn Write + Send>, shared: &Shared) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    if out.write_all(head.as_bytes()).and_then(|()| out.flush()).is_err() {
        return;
    }
    let mut sent = String::new();
    while !shared.stopped.load(Ordering::SeqCst) {
        let state = shared.state.lock().unwrap().clone();
        if state != sent {
            let line = format!("{{\"result\":{}}}\n", game_server(shared));
            let chunk = format!("{:x}\r\n{line}\r\n", line.len());
            if out.write_all(chunk.as_bytes()).and_then(|()| out.flush()).is_err() {
                return;
            }
            sent = state;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = out.write_all(b"0\r\n\r\n");
}
