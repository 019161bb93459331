//! `arbor serve [PLACE]`: run a place, with its scripts, at 60 Hz in real time, printing a
//! phase summary every few seconds and reporting ticks that overran their 16.7 ms budget.
//!
//! Each summary, and the end of the run, says how much CPU the server process used per
//! tick (user and system time of all its threads, from Linux's `/proc/self/stat`) beside the
//! wall time per tick, so a run with bots on the same machine shows the server's share.
//! `--stress N` serves the synthetic stress place, with a player spawner unless
//! `--no-spawner` (see `stress`). The host caps (`--max-instances`, ..., `--host-config`)
//! bound what the place may ask for (`host_caps`).

use crate::TraceArg;
use crate::watch::{POLL_TICKS, ScriptWatcher};
use crate::{place_io, report};
use arbor_net::{NetConfig, NetEvent, NetServer, Security, ServerKey};
use std::cell::RefCell;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Options of `arbor serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The place file (JSON or binary); the embedded example place if omitted.
    pub place: Option<PathBuf>,
    /// Stop after this many ticks (0: run until killed).
    #[arg(long, default_value_t = 0)]
    pub ticks: u64,
    /// Seconds between phase summaries.
    #[arg(long, default_value_t = 5.0, value_parser = crate::args::seconds)]
    pub summary_every: f64,
    /// Hot-reload a script when its `sourceFile` is saved (JSON places loaded from a file).
    #[arg(long)]
    pub watch: bool,
    /// Accept clients on this UDP address (e.g. 127.0.0.1:53640).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// Accept clients without connect tokens (local development only).
    #[arg(long, requires = "listen")]
    pub insecure: bool,
    /// The server's private key file, created if missing; `arbor token` signs with it.
    #[arg(long, default_value = "arbor.key")]
    pub key: PathBuf,
    /// Most clients at once.
    #[arg(long, default_value_t = 256)]
    pub max_clients: usize,
    /// Streaming radius in studs (default: the Workspace's `StreamingRadius`, else 1024).
    #[arg(long)]
    pub radius: Option<f32>,
    /// Bytes a client may be sent per network tick (default: the Workspace's
    /// `ReplicationBudget`, else 4096).
    #[arg(long)]
    pub client_budget: Option<usize>,
    /// Serve a synthetic stress place of this many instances instead of a place file.
    #[arg(long, value_parser = crate::args::instance_count, conflicts_with = "place")]
    pub stress: Option<usize>,
    /// With `--stress`: fraction of anchored parts moved every tick.
    #[arg(long, default_value_t = 0.01, value_parser = crate::args::fraction)]
    pub moved: f64,
    /// With `--stress`: leave out the player spawner (a `PlayerJoined` script that gives
    /// every client a walking character), so clients get no characters and their joins wait.
    #[arg(long, requires = "stress")]
    pub no_spawner: bool,
    #[command(flatten)]
    trace: TraceArg,
    /// Write a Chrome/Perfetto trace of the ticks around each slow tick into this folder
    /// (created if missing; at most one every 10 s).
    #[arg(long, value_name = "DIR")]
    pub spike_traces: Option<PathBuf>,
    /// Seconds a graceful stop (SIGTERM or Ctrl-C) may take to let players leave and their
    /// data save before the server gives up on them; a second signal stops at once.
    #[arg(long, value_name = "SECONDS", default_value_t = 25.0, value_parser = crate::args::seconds)]
    pub grace: f64,
    /// Serve Prometheus metrics (`/metrics`), health (`/healthz`, `/readyz`) and a live
    /// dashboard (`/`) over HTTP on this address (e.g. 0.0.0.0:9100).
    #[arg(long, value_name = "ADDR")]
    pub metrics: Option<SocketAddr>,
    /// With `--spike-traces`: a tick longer than this many milliseconds is slow.
    #[arg(long, value_name = "MS", default_value_t = crate::spikes::DEFAULT_SPIKE_MS, value_parser = crate::args::milliseconds, requires = "spike_traces")]
    pub spike_ms: f64,
    #[command(flatten)]
    stores: crate::run::StoreArgs,
    #[command(flatten)]
    saves: crate::saves::SaveArgs,
    #[command(flatten)]
    record: crate::replay::RecordArgs,
    #[command(flatten)]
    caps: crate::host_caps::HostCapArgs,
    #[command(flatten)]
    agones: crate::agones::AgonesArgs,
}

/// Runs `arbor serve`.
pub fn run(args: ServeArgs) -> Result<(), String> {
    crate::args::check_trace_path(args.trace.trace.as_deref())?;
    let caps = args.caps.resolve()?;
    let agones = crate::agones::Agones::start(&args.agones)?;
    let (mut sim, host, name, mut watcher) = match args.stress {
        Some(count) => {
            let spawner = !args.no_spawner;
            let (arena, mover) = crate::stress::synthetic(count, args.moved, spawner)?;
            let (mut sim, host) =
                crate::run::with_scripts_capped(arena, args.stores.config(None)?, None, &caps)?;
            sim.add_hooks(mover);
            let with = if spawner { " with a player spawner" } else { " without a player spawner" };
            (sim, host, format!("a {count}-instance stress place{with}"), None)
        }
        None => {
            let place_path = args.saves.place(args.place.as_deref())?;
            let place = place_io::load_or_example(place_path)?;
            let watcher = args.watch.then(|| ScriptWatcher::new(place.script_files));
            let stores = args.stores.config(place_path)?;
            let (sim, host) = crate::run::with_scripts_capped(place.arena, stores, None, &caps)?;
            (sim, host, place.name, watcher)
        }
    };
    args.saves.prepare(&mut sim, &mut host.borrow_mut())?;
    let stop = crate::drain::StopSignal::install()?;
    let mut drain: Option<crate::drain::Drain> = None;
    let mut paused = false;
    let net = match args.listen {
        Some(addr) => Some(listen(&args, addr, &sim, agones.as_ref())?),
        None => None,
    };
    if let Some(net) = &net {
        sim.add_hooks(Rc::clone(net));
    }
    let tape = args.record.start(&mut sim, &host, args.saves.resume.as_deref())?;
    if args.trace.trace.is_some() {
        sim.profiler_mut().enable_trace();
    }
    let mut spikes = match &args.spike_traces {
        Some(dir) => Some(crate::spikes::SpikeTraces::new(dir.clone(), args.spike_ms)?),
        None => None,
    };
    let mut ops = match args.metrics {
        Some(addr) => Some(serve_metrics(addr)?),
        None => None,
    };
    // Ready once everything that can refuse to start has started.
    if let Some(agones) = &agones {
        agones.ready();
    }
    println!("serving {name}: {} instances at 60 Hz", sim.arena.len());
    if let Some(w) = &watcher {
        println!(
            "watching {} script source file{} for changes",
            w.len(),
            if w.len() == 1 { "" } else { "s" }
        );
    }
    let dt = Duration::from_secs_f64(sim.config().dt);
    let every = Duration::from_secs_f64(args.summary_every.max(0.1));
    let start = Instant::now();
    let mut pacer = crate::pace::Pacer::new(dt);
    let mut last_summary = start;
    let whole_run = CpuWindow::start(sim.ticks());
    let mut window = CpuWindow::start(sim.ticks());
    let mut overruns = 0u64;
    let mut window_overruns = 0u64;
    while args.ticks == 0 || sim.ticks() < args.ticks {
        if stop.requested() && drain.is_none() {
            let started =
                crate::drain::Drain::start(&mut sim, net.as_deref(), Duration::from_secs_f64(args.grace));
            println!("{}", started.begin_line());
            drain = Some(started);
            if let Some(ops) = &ops {
                ops.set_ready(false);
            }
        }
        if let Some(d) = &mut drain {
            if let Some(line) = d.finished(&sim, net.as_deref()) {
                println!("{line}");
                break;
            }
            d.kick_the_rest(&mut sim);
        }
        if let Some(w) = &mut watcher
            && sim.ticks() % POLL_TICKS == 0
        {
            for line in w.poll(&mut sim.arena, &mut host.borrow_mut()) {
                println!("{line}");
            }
        }
        let report = sim.step();
        if let Some(agones) = &agones {
            agones.ticked(sim.ticks());
        }
        if args.saves.paused(&sim, &host.borrow()) {
            paused = true;
            break;
        }
        if let Some(net) = &net {
            for line in net.borrow_mut().take_script_problems() {
                eprintln!("{line}");
            }
            for event in net.borrow_mut().take_events() {
                match &event {
                    NetEvent::Connected { user_id } => println!("user {user_id} connected"),
                    NetEvent::Disconnected { user_id, reason } => println!("user {user_id} left: {reason}"),
                }
                if let Some(agones) = &agones {
                    agones.net_event(&event);
                }
            }
        }
        if let Some(ops) = &mut ops {
            let net = net.as_ref().map(|n| n.borrow());
            ops.observe(&sim, &report, net.as_deref(), &host.borrow());
        }
        if let Some(line) = spikes.as_mut().and_then(|s| s.observe(&sim, &report)) {
            println!("{line}");
        }
        if report.duration > dt {
            overruns += 1;
            window_overruns += 1;
            eprintln!("overrun: tick {} took {:.2} ms", report.tick, report.duration.as_secs_f64() * 1e3);
        }
        pacer.wait();
        if last_summary.elapsed() >= every {
            println!(
                "t={:.1} s tick {}: {} instances, {} overruns in this window",
                start.elapsed().as_secs_f64(),
                sim.ticks(),
                sim.arena.len(),
                window_overruns
            );
            println!("{}", window.line(sim.ticks()));
            println!("{}", sim.profiler().table());
            if let Some(net) = &net {
                println!("{}", net_summary(&net.borrow()));
            }
            window_overruns = 0;
            last_summary = Instant::now();
            window = CpuWindow::start(sim.ticks());
        }
    }
    println!("stopped after {} ticks, {overruns} overruns", sim.ticks());
    for line in spikes.map(|s| s.finish(&sim)).unwrap_or_default() {
        println!("{line}");
    }
    println!("{} over the run", whole_run.line(sim.ticks()));
    println!("{}", sim.profiler().table());
    if let Some(net) = &net {
        let mut net = net.borrow_mut();
        println!("{}", net_summary(&net));
        net.shutdown();
    }
    match &drain {
        Some(d) => {
            for line in host.borrow_mut().shutdown_stores_by(d.store_deadline()).lines() {
                println!("abandoned {line}");
            }
        }
        None => host.borrow_mut().shutdown_stores(),
    }
    if let Some(tape) = tape {
        tape.borrow_mut().finish()?;
    }
    args.saves.finish(&mut sim, &mut host.borrow_mut())?;
    print!("{}", report::memory(&sim));
    report::write_trace(&sim, args.trace.trace.as_deref())?;
    // The very last call: Agones deletes the GameServer once it has it.
    if let Some(agones) = agones {
        agones.shutdown();
    }
    if paused {
        return Err("paused by a behaviour error (see the report above)".to_owned());
    }
    Ok(())
}

/// Starts the operator endpoint (metrics, health, readiness, dashboard), ready at once: the
/// place is loaded and the socket listens by the time it is called.
fn serve_metrics(addr: SocketAddr) -> Result<arbor_ops::Ops, String> {
    let ops = arbor_ops::Ops::serve(addr).map_err(|e| e.to_string())?;
    println!(
        "metrics on http://{0}/metrics (dashboard http://{0}/, health /healthz, readiness /readyz)",
        ops.local_addr()
    );
    ops.set_ready(true);
    Ok(ops)
}

/// Binds the network server: secure with the key file (created if missing) unless
/// `--insecure`, which it says loudly.
fn listen(
    args: &ServeArgs,
    addr: SocketAddr,
    sim: &arbor_sim::Simulation,
    agones: Option<&crate::agones::Agones>,
) -> Result<Rc<RefCell<NetServer>>, String> {
    arbor_net::replication::check_roots(&sim.arena).map_err(|e| e.to_string())?;
    let security = if args.insecure {
        eprintln!("WARNING: --insecure: any client that knows this address can connect as any user id");
        Security::Insecure
    } else {
        let (key, created) =
            ServerKey::load_or_create(&args.key).map_err(|e| format!("{}: {e}", args.key.display()))?;
        if created {
            println!(
                "created the server key {} (keep it secret; `arbor token` signs with it)",
                args.key.display()
            );
        }
        Security::Secure(key)
    };
    let public = crate::agones::public_addresses(&args.agones, agones);
    let config = NetConfig { listen: addr, max_clients: args.max_clients, security };
    let mut net = NetServer::bind_public(config, &public).map_err(|e| format!("listening on {addr}: {e}"))?;
    if let Some(r) = args.radius {
        if !(r.is_finite() && r >= 0.0) {
            return Err("--radius must be a finite number of studs".to_owned());
        }
        net.set_radius(r);
    }
    if let Some(b) = args.client_budget {
        net.set_client_budget(b);
    }
    // Client scripts travel as bytecode compiled here, never as source.
    net.set_script_compiler(Box::new(arbor_script::compile_bytecode));
    println!(
        "listening on {} ({})",
        net.local_addr(),
        if args.insecure {
            "INSECURE: no connect tokens".to_owned()
        } else {
            format!("connect tokens signed with {}", args.key.display())
        }
    );
    if let Some(line) = crate::agones::public_line(&public, args.insecure) {
        println!("{line}");
    }
    Ok(Rc::new(RefCell::new(net)))
}

/// Clients, their bytes and the replication phase's share.
fn net_summary(net: &NetServer) -> String {
    let reports = net.client_reports();
    let stats = net.stats();
    let n = reports.len().max(1) as f64;
    let mean = reports.iter().map(|r| r.bytes_per_second).fold(0.0, |a, b| a + b) / n;
    let max = reports.iter().map(|r| r.bytes_per_second).fold(0.0, f64::max);
    let settled = reports.iter().filter(|r| r.settled).count();
    let (mirror, views) = net.heap_bytes();
    format!(
        "net: {} clients ({settled} settled); sent per client {:.1} kbit/s mean, {:.1} max; replication {:.3} ms per network tick; mirror {}, views {}",
        reports.len(),
        mean * 8.0 / 1000.0,
        max * 8.0 / 1000.0,
        stats.replication.as_secs_f64() * 1e3 / stats.network_ticks.max(1) as f64,
        report::mib(mirror as u64),
        report::mib(views as u64),
    )
}

/// The start of a window of ticks: the wall clock, the process's CPU time and the tick count.
struct CpuWindow {
    wall: Instant,
    cpu: Option<Duration>,
    ticks: u64,
}

impl CpuWindow {
    /// A window that starts now, at tick count `ticks`.
    fn start(ticks: u64) -> CpuWindow {
        CpuWindow { wall: Instant::now(), cpu: arbor_ops::process::cpu_time(), ticks }
    }

    /// The server's CPU time per tick since the start (and its share of one core) beside the
    /// wall time per tick, with `ticks` the tick count now.
    fn line(&self, ticks: u64) -> String {
        let wall = self.wall.elapsed().as_secs_f64();
        let n = ticks.saturating_sub(self.ticks).max(1) as f64;
        let cpu = match (self.cpu, arbor_ops::process::cpu_time()) {
            (Some(then), Some(now)) => {
                let used = now.saturating_sub(then).as_secs_f64();
                format!("{:.2} ms per tick ({:.0}% of a core)", used * 1e3 / n, used / wall.max(1e-9) * 100.0)
            }
            _ => "unknown (no /proc/self/stat)".to_owned(),
        };
        format!("server CPU {cpu}, wall {:.2} ms per tick", wall * 1e3 / n)
    }
}
