//! Agones lifecycle for `arbor serve`: the SDK sidecar's REST API, on when the environment
//! variable [`PORT_VARIABLE`] is set (Agones sets it in every game server container) or
//! `--agones` asks for it (then on that variable's port, else [`DEFAULT_PORT`]).
//!
//! What is called when: `Ready` once the place is loaded and the socket listens; `Health`
//! every 2 s while the tick advances; the connected user ids added to and removed from the
//! Counters & Lists list `players`; the GameServer watched (its state kept, `Allocated`
//! announced); `Shutdown` as the very last thing the server does. `--public-addr` (or, with
//! Agones, the GameServer's address and `default` port) is the address connect tokens name.
//!
//! Invariants: the tick thread never makes an HTTP call. It stores its tick count in an
//! atomic and sends requests over a channel to the worker thread (`worker`); the watch
//! stream has its own thread (`watch`). A sidecar that is slow or gone is reported
//! (rate-limited) and retried, never fatal. The only blocking calls are made before the
//! tick starts (the public address, bounded by [`ADDRESS_WAIT`]) and after it stops
//! (`Shutdown`, bounded by [`SHUTDOWN_WAIT`]).

mod complaints;
mod game_server;
mod sdk;
mod watch;
mod worker;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

/// The environment variable Agones sets to the sidecar's HTTP port.
pub const PORT_VARIABLE: &str = "AGONES_SDK_HTTP_PORT";

/// The sidecar's HTTP port when `--agones` is given and [`PORT_VARIABLE`] is not set.
pub const DEFAULT_PORT: u16 = 9358;

/// The longest the server waits for the sidecar to tell it its public address at start.
pub const ADDRESS_WAIT: Duration = Duration::from_secs(3);

/// The longest the server waits at the end for `Shutdown` to be taken.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(2);

/// Options of `arbor serve` for running under an orchestrator.
#[derive(clap::Args, Debug)]
pub struct AgonesArgs {
    /// Talk to the Agones SDK sidecar (on `AGONES_SDK_HTTP_PORT`, else 9358): Ready, Health,
    /// the players list, Shutdown. On by itself when `AGONES_SDK_HTTP_PORT` is set.
    #[arg(long)]
    pub agones: bool,
    /// The address clients reach this server at (a node's IP and host port), which connect
    /// tokens name; default: with Agones, the GameServer's address and `default` port, else
    /// the `--listen` address.
    #[arg(long, value_name = "IP:PORT", requires = "listen")]
    pub public_addr: Option<SocketAddr>,
}

impl AgonesArgs {
    /// The sidecar's port when Agones is on: from [`PORT_VARIABLE`] if set (an error if it is
    /// not a port), else [`DEFAULT_PORT`] with `--agones`, else `None` (off).
    pub fn port(&self) -> Result<Option<u16>, String> {
        match std::env::var(PORT_VARIABLE) {
            Ok(text) if !text.trim().is_empty() => match text.trim().parse::<u16>() {
                Ok(port) if port != 0 => Ok(Some(port)),
                _ => Err(format!("{PORT_VARIABLE}={text:?} is not a port number")),
            },
            _ => Ok(self.agones.then_some(DEFAULT_PORT)),
        }
    }
}

/// The running Agones client: a handle the serve loop calls, cheap on the tick.
pub struct Agones {
    sdk: sdk::Sdk,
    requests: Option<Sender<worker::Request>>,
    ticks: Arc<AtomicU64>,
    watched: Arc<watch::Watched>,
}

impl Agones {
    /// Starts the worker and watch threads if Agones is on (`None` if off). Nothing is sent
    /// until [`ready`](Self::ready).
    pub fn start(args: &AgonesArgs) -> Result<Option<Agones>, String> {
        let Some(port) = args.port()? else { return Ok(None) };
        let sdk = sdk::Sdk::new(port);
        println!("agones: talking to the SDK sidecar at {}", sdk.base());
        let ticks = Arc::new(AtomicU64::new(0));
        let (requests, inbox) = mpsc::channel();
        let worker = worker::Worker::new(sdk.clone(), Arc::clone(&ticks));
        std::thread::Builder::new()
            .name("agones".to_owned())
            .spawn(move || worker.run(inbox))
            .map_err(|e| format!("starting the agones thread: {e}"))?;
        let watched = Arc::new(watch::Watched::default());
        let (watch_sdk, shared) = (sdk.clone(), Arc::clone(&watched));
        std::thread::Builder::new()
            .name("agones-watch".to_owned())
            .spawn(move || watch::run(watch_sdk, shared))
            .map_err(|e| format!("starting the agones watch thread: {e}"))?;
        Ok(Some(Agones { sdk, requests: Some(requests), ticks, watched }))
    }

    /// Asks the sidecar for this GameServer's public address (its `status.address` and
    /// `default` port), trying for at most [`ADDRESS_WAIT`]; `None`, with a warning, when it
    /// is not known by then. Blocks: call it before the tick starts.
    pub fn public_address(&self) -> Option<SocketAddr> {
        let until = Instant::now() + ADDRESS_WAIT;
        let mut last = String::new();
        while Instant::now() < until {
            match self.sdk.game_server() {
                Ok(gs) => match gs.public_address() {
                    Some(addr) => return Some(addr),
                    None => {
                        last = format!(
                            "the GameServer has no usable address yet (address {:?}, ports {:?})",
                            gs.status.address, gs.status.ports
                        )
                    }
                },
                Err(e) => last = e.to_string(),
            }
            std::thread::sleep(
                Duration::from_millis(250).min(until.saturating_duration_since(Instant::now())),
            );
        }
        eprintln!("agones: warning: no public address from the sidecar within {ADDRESS_WAIT:?} ({last})");
        None
    }

    /// Asks for `Ready` (sent, and retried, on the agones thread).
    pub fn ready(&self) {
        self.send(worker::Request::Ready);
    }

    /// Records the tick count after a tick (an atomic store: health pings follow it).
    pub fn ticked(&self, ticks: u64) {
        self.ticks.store(ticks, Ordering::Relaxed);
    }

    /// A user connected: their id joins the players list.
    pub fn joined(&self, user_id: u64) {
        self.send(worker::Request::Joined(user_id));
    }

    /// A user left: their id leaves the players list.
    pub fn left(&self, user_id: u64) {
        self.send(worker::Request::Left(user_id));
    }

    /// Tracks a connection change in the players list.
    pub fn net_event(&self, event: &arbor_net::NetEvent) {
        match event {
            arbor_net::NetEvent::Connected { user_id } => self.joined(*user_id),
            arbor_net::NetEvent::Disconnected { user_id, .. } => self.left(*user_id),
        }
    }

    /// The GameServer's last known state (`Ready`, `Allocated`, `Shutdown`, ...), `None`
    /// before the watch has reported one.
    pub fn state(&self) -> Option<String> {
        self.watched.state.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Sends `Shutdown` (the server is about to exit: Agones then deletes the GameServer),
    /// waiting at most [`SHUTDOWN_WAIT`] for the sidecar to take it.
    pub fn shutdown(mut self) {
        self.finish();
    }

    /// [`shutdown`](Self::shutdown), once.
    fn finish(&mut self) {
        let Some(requests) = self.requests.take() else { return };
        self.watched.stopping.store(true, Ordering::Relaxed);
        if let Some(state) = self.state() {
            println!("agones: sending Shutdown (the GameServer was {state})");
        }
        let (done, heard) = mpsc::channel();
        let deadline = Instant::now() + SHUTDOWN_WAIT;
        if requests.send(worker::Request::Shutdown { deadline, done }).is_err() {
            eprintln!("agones: the agones thread is gone; Shutdown was not sent");
            return;
        }
        if heard.recv_timeout(SHUTDOWN_WAIT + Duration::from_millis(200)).is_err() {
            eprintln!("agones: Shutdown was not sent within {SHUTDOWN_WAIT:?}");
        }
    }

    fn send(&self, request: worker::Request) {
        if let Some(requests) = &self.requests {
            // The worker ends only after Shutdown, which takes the sender: it is alive.
            let _ = requests.send(request);
        }
    }
}

impl Drop for Agones {
    /// A server that stops on an error still tells Agones it is going.
    fn drop(&mut self) {
        self.finish();
    }
}

/// The line saying which address connect tokens must name, when it is not the bound one.
pub fn public_line(public: &[SocketAddr], insecure: bool) -> Option<String> {
    let list = public.iter().map(SocketAddr::to_string).collect::<Vec<_>>().join(", ");
    match (public.is_empty(), insecure) {
        (true, _) => None,
        (false, false) => Some(format!(
            "public address {list} (connect tokens must name it: arbor token --server {})",
            public[0]
        )),
        (false, true) => Some(format!("public address {list} (clients connect there)")),
    }
}

/// The public addresses connect tokens must name, for `NetServer::bind_public`: `--public-addr`,
/// else (with Agones) the GameServer's address, else none (the bound address).
pub fn public_addresses(args: &AgonesArgs, agones: Option<&Agones>) -> Vec<SocketAddr> {
    match (args.public_addr, agones) {
        (Some(addr), _) => vec![addr],
        (None, Some(agones)) => agones.public_address().into_iter().collect(),
        (None, None) => Vec::new(),
    }
}
