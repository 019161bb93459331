//! `arbor serve [PLACE]`: run a place, with its scripts, at 60 Hz in real time, printing a
//! phase summary every few seconds and reporting ticks that overran their 16.7 ms budget.

use crate::TraceArg;
use crate::watch::{POLL_TICKS, ScriptWatcher};
use crate::{place_io, report};
use std::path::PathBuf;
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
    #[command(flatten)]
    trace: TraceArg,
}

/// Runs `arbor serve`.
pub fn run(args: ServeArgs) -> Result<(), String> {
    crate::args::check_trace_path(args.trace.trace.as_deref())?;
    let place = place_io::load_or_example(args.place.as_deref())?;
    let name = place.name;
    let mut watcher = args.watch.then(|| ScriptWatcher::new(place.script_files));
    let (mut sim, host) = crate::run::with_scripts(place.arena)?;
    if args.trace.trace.is_some() {
        sim.profiler_mut().enable_trace();
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
    let mut deadline = start;
    let mut last_summary = start;
    let mut overruns = 0u64;
    let mut window_overruns = 0u64;
    while args.ticks == 0 || sim.ticks() < args.ticks {
        if let Some(w) = &mut watcher
            && sim.ticks() % POLL_TICKS == 0
        {
            for line in w.poll(&mut sim.arena, &mut host.borrow_mut()) {
                println!("{line}");
            }
        }
        let report = sim.step();
        if report.duration > dt {
            overruns += 1;
            window_overruns += 1;
            eprintln!("overrun: tick {} took {:.2} ms", report.tick, report.duration.as_secs_f64() * 1e3);
        }
        deadline += dt;
        let now = Instant::now();
        if now < deadline {
            std::thread::sleep(deadline - now);
        } else if now - deadline > dt * 10 {
            // Far behind (e.g. the process was paused): resynchronise instead of bursting.
            deadline = now;
        }
        if last_summary.elapsed() >= every {
            println!(
                "t={:.1} s tick {}: {} instances, {} overruns in this window",
                start.elapsed().as_secs_f64(),
                sim.ticks(),
                sim.arena.len(),
                window_overruns
            );
            println!("{}", sim.profiler().table());
            window_overruns = 0;
            last_summary = Instant::now();
        }
    }
    println!("stopped after {} ticks, {overruns} overruns", sim.ticks());
    println!("{}", sim.profiler().table());
    print!("{}", report::memory(&sim));
    report::write_trace(&sim, args.trace.trace.as_deref())
}
