//! # arbor-ops
//!
//! What operators see of a running server: Prometheus metrics at `/metrics`, liveness at
//! `/healthz` (a tick ended recently), readiness at `/readyz` (loaded, listening, not
//! draining) and a live dashboard at `/` (tick time, phase percentiles, players and
//! bandwidth, one point a second), all on one HTTP port served by a background thread.
//!
//! [`Ops`] is the whole face: the tick thread calls [`Ops::observe`] once per tick. That
//! records the tick and phase histograms (a few atomic operations and one lock per
//! histogram) and, once a second, gathers a [`ServerSample`] (players, clients, scripts,
//! stores, physics) and a [`DashboardPoint`]. Scrapes read only what was published, so a
//! slow scraper never slows the tick.
//!
//! ```no_run
//! # fn demo(sim: &mut arbor_sim::Simulation, host: &arbor_script::ScriptHost) -> Result<(), arbor_ops::OpsError> {
//! let mut ops = arbor_ops::Ops::serve("127.0.0.1:9100".parse().unwrap())?;
//! ops.set_ready(true);
//! loop {
//!     let report = sim.step();
//!     ops.observe(sim, &report, None, host);
//! }
//! # }
//! ```
//!
//! The metric names and what they mean are listed in `docs/operations.md`.

mod endpoint;
mod exposition;
mod history;
pub mod process;
mod rates;
mod recorder;
mod sample;

pub use endpoint::STALLED_AFTER;
pub use history::{DashboardPoint, HISTORY_POINTS, Percentiles};
pub use rates::RATE_WINDOWS;
pub use sample::{ClientSample, SampleGatherer, ServerSample, TOP_SCRIPTS};

use arbor_net::NetServer;
use arbor_script::ScriptHost;
use arbor_sim::{PHASES, Simulation, TickReport};
use endpoint::Shared;
use exposition::SampleCollector;
use history::History;
use prometheus_client::registry::Registry;
use recorder::TickRecorder;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the server's state is gathered and a dashboard point made.
pub const SAMPLE_EVERY: Duration = Duration::from_secs(1);

/// Why the operator endpoint could not start.
#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    /// The HTTP port could not be bound.
    #[error("serving metrics on {addr}: {reason}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// What the socket layer said.
        reason: String,
    },
}

/// The operator endpoint of one server: metrics, health, readiness and the dashboard.
pub struct Ops {
    shared: Arc<Shared>,
    sample: Arc<Mutex<ServerSample>>,
    recorder: TickRecorder,
    gatherer: SampleGatherer,
    last_sample: Instant,
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
    addr: SocketAddr,
}

impl Ops {
    /// Binds `addr` and starts answering on a background thread. Not ready until
    /// [`set_ready`](Self::set_ready).
    pub fn serve(addr: SocketAddr) -> Result<Self, OpsError> {
        let server =
            tiny_http::Server::http(addr).map_err(|e| OpsError::Bind { addr, reason: e.to_string() })?;
        let bound = server.server_addr().to_ip().unwrap_or(addr);
        let mut registry = Registry::default();
        let recorder = TickRecorder::register(&mut registry);
        let collector = SampleCollector::default();
        let sample = Arc::clone(&collector.sample);
        registry.register_collector(Box::new(collector));
        let shared = Arc::new(Shared {
            registry,
            history: Mutex::new(History::default()),
            started: Instant::now(),
            last_tick_ms: AtomicU64::new(u64::MAX),
            ready: AtomicBool::new(false),
        });
        let server = Arc::new(server);
        let thread = {
            let (server, shared) = (Arc::clone(&server), Arc::clone(&shared));
            std::thread::Builder::new()
                .name("arbor-ops".to_owned())
                .spawn(move || endpoint::run(server, shared))
                .map_err(|e| OpsError::Bind { addr, reason: e.to_string() })?
        };
        Ok(Self {
            shared,
            sample,
            recorder,
            gatherer: SampleGatherer::default(),
            last_sample: Instant::now(),
            server,
            thread: Some(thread),
            addr: bound,
        })
    }

    /// The address the endpoint listens on (with the port the system chose for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Says whether the server takes players (`/readyz`): true once loaded and listening,
    /// false again when it drains.
    pub fn set_ready(&self, ready: bool) {
        self.shared.ready.store(ready, Ordering::Relaxed);
    }

    /// Records one tick: call after every [`Simulation::step`]. Once a
    /// [`SAMPLE_EVERY`] it also gathers the server's state for the scrape-time metrics and
    /// the dashboard.
    pub fn observe(
        &mut self,
        sim: &Simulation,
        report: &TickReport,
        net: Option<&NetServer>,
        host: &ScriptHost,
    ) {
        let budget = Duration::from_secs_f64(sim.config().dt);
        self.record_tick(report.duration, budget, &sim.profiler().latest_phases());
        if self.last_sample.elapsed() >= SAMPLE_EVERY {
            self.publish(sim, net, host);
        }
    }

    /// The per-tick half of [`observe`](Self::observe): the histograms, the counters and
    /// the liveness clock.
    #[inline]
    pub fn record_tick(
        &mut self,
        duration: Duration,
        budget: Duration,
        phases: &[Option<Duration>; PHASES.len()],
    ) {
        self.recorder.record(duration, budget, phases);
        let ms = self.shared.started.elapsed().as_millis() as u64;
        self.shared.last_tick_ms.store(ms, Ordering::Relaxed);
    }

    /// The once-a-second half of [`observe`](Self::observe): gathers a [`ServerSample`]
    /// and the dashboard point of the second that ended.
    pub fn publish(&mut self, sim: &Simulation, net: Option<&NetServer>, host: &ScriptHost) {
        self.last_sample = Instant::now();
        let sample = self.gatherer.gather(sim, net, host);
        let second = self.recorder.close_second();
        let point = DashboardPoint {
            t: self.shared.started.elapsed().as_secs_f64(),
            tick: sample.tick,
            ticks: second.ticks,
            tick_ms: second.tick,
            phases: second.phases.into_iter().map(|(p, v)| (p.name(), v)).collect(),
            players: sample.players,
            clients: sample.clients.len(),
            kbit_per_s: sample.clients.iter().map(|c| c.bytes_per_second).sum::<f64>() * 8.0 / 1000.0,
            instances: sample.instances,
        };
        self.shared.history.lock().unwrap_or_else(|p| p.into_inner()).push(point);
        self.publish_sample(sample);
    }

    /// Replaces the sample the scrape-time metrics are read from (for a host that gathers
    /// its own, and for measuring a scrape of a full server).
    pub fn publish_sample(&self, sample: ServerSample) {
        *self.sample.lock().unwrap_or_else(|p| p.into_inner()) = sample;
    }

    /// The text `/metrics` answers now.
    pub fn scrape(&self) -> String {
        self.shared.scrape()
    }
}

impl Drop for Ops {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
