//! Slow-tick capture for `arbor serve --spike-traces DIR`: a tick longer than the threshold
//! (`--spike-ms`) has the ticks around it written as a Chrome/Perfetto trace, from the spans
//! the profiler always keeps, so "why did tick 41,233 take 40 ms" has an answer after the
//! fact. How to read one: `docs/operations.md`, "Slow-tick traces".
//!
//! Invariants: at most one trace every [`SPIKE_TRACE_EVERY`] and [`MAX_SPIKE_TRACES`] per run
//! (a server that is slow every tick writes a few files, not thousands); the file is written
//! on a thread of its own, never on the tick; every started write is finished before the
//! server exits ([`SpikeTraces::finish`]).

use arbor_sim::{Simulation, TickReport};
use std::path::PathBuf;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Ticks before the slow one that a trace holds (two seconds).
pub const SPIKE_TICKS_BEFORE: u64 = 120;
/// Ticks after the slow one that a trace holds (half a second); the trace is written once
/// they have run.
pub const SPIKE_TICKS_AFTER: u64 = 30;
/// Least time between two traces.
pub const SPIKE_TRACE_EVERY: Duration = Duration::from_secs(10);
/// Most traces one run writes.
pub const MAX_SPIKE_TRACES: usize = 100;
/// The default threshold: a tick of more than 25 ms (one and a half 60 Hz budgets).
pub const DEFAULT_SPIKE_MS: f64 = 25.0;

/// A tick found slow, waiting for the ticks after it.
struct Pending {
    tick: u64,
    took: Duration,
}

/// The spike watcher of one run.
pub struct SpikeTraces {
    dir: PathBuf,
    threshold: Duration,
    pending: Option<Pending>,
    last_written: Option<Instant>,
    written: usize,
    writers: Vec<JoinHandle<Result<PathBuf, String>>>,
}

impl SpikeTraces {
    /// A watcher writing into `dir` (created if missing) for ticks longer than
    /// `threshold_ms`.
    pub fn new(dir: PathBuf, threshold_ms: f64) -> Result<Self, String> {
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(Self {
            dir,
            threshold: Duration::from_secs_f64(threshold_ms / 1e3),
            pending: None,
            last_written: None,
            written: 0,
            writers: Vec::new(),
        })
    }

    /// Looks at the tick just run; returns a line for the log when a spike is noted or its
    /// trace is started.
    pub fn observe(&mut self, sim: &Simulation, report: &TickReport) -> Option<String> {
        if let Some(p) = &self.pending {
            return (report.tick >= p.tick + SPIKE_TICKS_AFTER).then(|| self.start_write(sim));
        }
        let due = self.last_written.is_none_or(|t| t.elapsed() >= SPIKE_TRACE_EVERY);
        if report.duration > self.threshold && due && self.written < MAX_SPIKE_TRACES {
            self.pending = Some(Pending { tick: report.tick, took: report.duration });
            return Some(format!(
                "spike: tick {} took {:.2} ms; tracing ticks {} to {}",
                report.tick,
                report.duration.as_secs_f64() * 1e3,
                report.tick.saturating_sub(SPIKE_TICKS_BEFORE),
                report.tick + SPIKE_TICKS_AFTER
            ));
        }
        None
    }

    /// Copies the pending spike's window out of the profiler and writes it on a thread.
    fn start_write(&mut self, sim: &Simulation) -> String {
        let p = self.pending.take().expect("a pending spike");
        let window = sim
            .profiler()
            .trace_window(p.tick.saturating_sub(SPIKE_TICKS_BEFORE), p.tick + SPIKE_TICKS_AFTER);
        let ms = p.took.as_secs_f64() * 1e3;
        let path = self.dir.join(format!("spike-tick-{}-{:.0}ms.json", p.tick, ms));
        let target = path.clone();
        self.writers.push(std::thread::spawn(move || {
            window.write(&target).map(|_| target.clone()).map_err(|e| format!("{}: {e}", target.display()))
        }));
        self.last_written = Some(Instant::now());
        self.written += 1;
        format!("spike trace of tick {}: {}", p.tick, path.display())
    }

    /// At the end of the run: writes a spike still waiting for its later ticks (with the
    /// ticks that ran), waits for every write, and returns the log lines of failures.
    pub fn finish(mut self, sim: &Simulation) -> Vec<String> {
        let mut lines = Vec::new();
        if self.pending.is_some() {
            lines.push(self.start_write(sim));
        }
        for writer in self.writers.drain(..) {
            match writer.join() {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => lines.push(format!("spike trace not written: {e}")),
                Err(_) => lines.push("spike trace not written: the writer panicked".to_owned()),
            }
        }
        lines
    }
}
