//! The HTTP side: one background thread answering `/metrics` (Prometheus text), `/healthz`,
//! `/readyz`, the dashboard page at `/` and its data at `/api/stats`.
//!
//! Invariants: the thread only reads what the tick thread published ([`Shared`]): the
//! registry's metrics, the latest sample and the history; it never blocks the tick (the
//! locks it takes are held for a copy or an encode). It stops when the server is unblocked
//! ([`Ops`](crate::Ops) does that when dropped).

use crate::history::History;
use prometheus_client::encoding::prometheus_text;
use prometheus_client::registry::Registry;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server};

/// The dashboard page, built into the binary (no network at run time).
const DASHBOARD: &str = include_str!("dashboard.html");

/// `/healthz` fails once no tick has ended for this long.
pub const STALLED_AFTER: Duration = Duration::from_secs(2);

/// What the tick thread publishes for the endpoint.
pub(crate) struct Shared {
    pub(crate) registry: Registry,
    pub(crate) history: Mutex<History>,
    pub(crate) started: Instant,
    /// Milliseconds from `started` to the end of the latest tick; `u64::MAX` before the first.
    pub(crate) last_tick_ms: AtomicU64,
    /// Set once the place is loaded and the socket listens; cleared when draining.
    pub(crate) ready: AtomicBool,
}

impl Shared {
    /// The metrics in Prometheus text format 0.0.4.
    pub(crate) fn scrape(&self) -> String {
        let mut text = String::with_capacity(16 * 1024);
        // Writing into a String cannot fail; a collector error would leave a partial scrape.
        if prometheus_text::encode(&mut text, &self.registry).is_err() {
            text.push_str("# the scrape failed part way\n");
        }
        text
    }

    /// Time since the latest tick ended, `None` before the first.
    fn since_last_tick(&self) -> Option<Duration> {
        let ms = self.last_tick_ms.load(Ordering::Relaxed);
        (ms != u64::MAX).then(|| self.started.elapsed().saturating_sub(Duration::from_millis(ms)))
    }

    /// Whether a tick ended within [`STALLED_AFTER`], and the line that says so.
    fn health(&self) -> (bool, String) {
        match self.since_last_tick() {
            None => (false, "starting: no tick has run yet".to_owned()),
            Some(d) if d > STALLED_AFTER => (false, format!("stalled: no tick for {:.1} s", d.as_secs_f64())),
            Some(d) => (true, format!("ok: the last tick ended {:.3} s ago", d.as_secs_f64())),
        }
    }
}

/// The JSON of `/api/stats`.
#[derive(Serialize)]
struct Stats<'a> {
    ready: bool,
    healthy: bool,
    uptime_s: f64,
    points: Vec<&'a crate::history::DashboardPoint>,
}

/// Answers requests until the server is unblocked.
pub(crate) fn run(server: Arc<Server>, shared: Arc<Shared>) {
    for request in server.incoming_requests() {
        let _ = answer(request, &shared);
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("static header names and values are valid")
}

fn answer(request: Request, shared: &Shared) -> std::io::Result<()> {
    if *request.method() != Method::Get && *request.method() != Method::Head {
        return request.respond(Response::from_string("only GET is served\n").with_status_code(405));
    }
    let path = request.url().split('?').next().unwrap_or("/");
    let (status, content_type, body) = match path {
        "/metrics" => (200, prometheus_text::CONTENT_TYPE, shared.scrape()),
        "/healthz" => {
            let (ok, line) = shared.health();
            (if ok { 200 } else { 503 }, "text/plain; charset=utf-8", line + "\n")
        }
        "/readyz" => {
            let ready = shared.ready.load(Ordering::Relaxed);
            let line = if ready { "ready\n" } else { "not ready: starting or draining\n" };
            (if ready { 200 } else { 503 }, "text/plain; charset=utf-8", line.to_owned())
        }
        "/" => (200, "text/html; charset=utf-8", DASHBOARD.to_owned()),
        "/api/stats" => {
            let history = shared.history.lock().unwrap_or_else(|p| p.into_inner());
            let stats = Stats {
                ready: shared.ready.load(Ordering::Relaxed),
                healthy: shared.health().0,
                uptime_s: shared.started.elapsed().as_secs_f64(),
                points: history.points().collect(),
            };
            let body = serde_json::to_string(&stats).unwrap_or_else(|_| "{}".to_owned());
            (200, "application/json", body)
        }
        _ => (
            404,
            "text/plain; charset=utf-8",
            format!("no page at {path}: try /, /metrics, /healthz or /readyz\n"),
        ),
    };
    let response = Response::from_string(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"));
    request.respond(response)
}
