//! [`Profiler`]: per-phase timing of every tick, per-tick counters, the spans of the last
//! ticks (always kept, for tracing a slow tick after the fact: [`Profiler::trace_window`]),
//! and an optional whole-run Chrome trace (the JSON "trace event" format that Perfetto and
//! `chrome://tracing` open).
//!
//! Each phase's durations go into an HDR histogram (nanoseconds, 3 significant figures), so
//! p50/p99/max stay accurate over millions of ticks in constant memory. The span ring is
//! fixed in size; the whole-run trace, when on, keeps one span per phase per tick until
//! written.

use crate::phase::{PHASES, Phase};
use crate::span_ring::{Span, SpanRing, TraceWindow};
use hdrhistogram::Histogram;
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// Counters one tick reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickCounters {
    /// Nodes whose world transform was recomputed.
    pub transforms_recomputed: usize,
    /// Awake physics bodies after the step.
    pub awake_bodies: usize,
    /// Parts whose physics is suspended: dynamic bodies in a crowd, anchored parts in a pile,
    /// and parts past the physics body cap (`physics::crowding`).
    pub suspended_bodies: usize,
    /// Events drained at the end of the tick.
    pub events: usize,
    /// Instances destroyed by the engine this tick (lifetimes, fallen parts).
    pub destroyed: usize,
    /// Script entries the wall-clock backstop aborted this tick (work the meter missed).
    pub script_wall_aborts: usize,
}

/// Summary figures of one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseSummary {
    /// Ticks in which the phase ran.
    pub count: u64,
    /// Median duration.
    pub p50: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// Longest.
    pub max: Duration,
    /// Mean.
    pub mean: Duration,
}

/// Per-phase histograms, whole-tick histogram, counter totals and an optional trace.
pub struct Profiler {
    phases: Vec<Histogram<u64>>,
    tick: Histogram<u64>,
    totals: TickCounters,
    last: TickCounters,
    epoch: Instant,
    /// The spans of the last ticks, always kept.
    recent: SpanRing,
    trace: Option<Vec<Span>>,
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000_000, 3).expect("valid histogram bounds")
}

fn nanos(d: Duration) -> u64 {
    (d.as_nanos() as u64).clamp(1, 600_000_000_000)
}

impl Default for Profiler {
    fn default() -> Self {
        Self::new()
    }
}

impl Profiler {
    /// An empty profiler with tracing off.
    pub fn new() -> Self {
        Self {
            phases: PHASES.iter().map(|_| histogram()).collect(),
            tick: histogram(),
            totals: TickCounters::default(),
            last: TickCounters::default(),
            epoch: Instant::now(),
            recent: SpanRing::new(),
            trace: None,
        }
    }

    /// Starts keeping a span per phase per tick for [`write_trace`](Self::write_trace).
    pub fn enable_trace(&mut self) {
        self.trace.get_or_insert_with(Vec::new);
    }

    /// Whether tracing is on.
    pub fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    /// Records that `phase` of `tick` ran from `start` for `duration`.
    pub fn record(&mut self, phase: Phase, tick: u64, start: Instant, duration: Duration) {
        let _ = self.phases[phase as usize].record(nanos(duration));
        let span = Span { phase, tick, start: start.saturating_duration_since(self.epoch), duration };
        self.recent.push(span);
        if let Some(trace) = &mut self.trace {
            trace.push(span);
        }
    }

    /// Records a whole tick's duration and counters.
    pub fn record_tick(&mut self, duration: Duration, counters: TickCounters) {
        let _ = self.tick.record(nanos(duration));
        self.last = counters;
        self.totals.transforms_recomputed += counters.transforms_recomputed;
        self.totals.events += counters.events;
        self.totals.destroyed += counters.destroyed;
        self.totals.script_wall_aborts += counters.script_wall_aborts;
        self.totals.awake_bodies = counters.awake_bodies;
        self.totals.suspended_bodies = counters.suspended_bodies;
    }

    /// How long each phase of the latest tick ran (`None`: it did not run that tick, as
    /// `FallenParts` and `Snapshot` off network ticks), indexed like [`PHASES`].
    pub fn latest_phases(&self) -> [Option<Duration>; PHASES.len()] {
        self.recent.newest_tick()
    }

    /// Summary of `phase`.
    pub fn phase(&self, phase: Phase) -> PhaseSummary {
        summarize(&self.phases[phase as usize])
    }

    /// Summary of whole ticks.
    pub fn ticks(&self) -> PhaseSummary {
        summarize(&self.tick)
    }

    /// Counter totals (awake and suspended bodies: the latest value).
    pub fn totals(&self) -> TickCounters {
        self.totals
    }

    /// The last tick's counters.
    pub fn last(&self) -> TickCounters {
        self.last
    }

    /// Clears every histogram and counter (tracing state is kept).
    pub fn reset(&mut self) {
        self.phases.iter_mut().for_each(Histogram::reset);
        self.tick.reset();
        self.totals = TickCounters::default();
    }

    /// A table of p50/p99/max/mean per phase and for whole ticks, in microseconds.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<16} {:>8} {:>10} {:>10} {:>10} {:>10}",
            "phase", "ticks", "p50 µs", "p99 µs", "max µs", "mean µs"
        );
        let row = |out: &mut String, name: &str, s: PhaseSummary| {
            let us = |d: Duration| d.as_secs_f64() * 1e6;
            let _ = writeln!(
                out,
                "{:<16} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>10.1}",
                name,
                s.count,
                us(s.p50),
                us(s.p99),
                us(s.max),
                us(s.mean)
            );
        };
        for phase in PHASES {
            row(&mut out, phase.name(), self.phase(phase));
        }
        row(&mut out, "whole tick", self.ticks());
        if self.totals.script_wall_aborts > 0 {
            let _ = writeln!(out, "script entries aborted on wall time: {}", self.totals.script_wall_aborts);
        }
        out
    }

    /// Writes the trace as Chrome trace-event JSON (one complete event per phase per tick).
    pub fn write_trace(&self, path: &Path) -> std::io::Result<usize> {
        crate::trace_file::write(path, self.trace.as_deref().unwrap_or(&[]), false)
    }

    /// The kept spans of ticks `first..=last` (the ring holds the last
    /// [`RING_TICKS`](crate::RING_TICKS) ticks), copied out to be written off the tick thread.
    ///
    /// ```
    /// use arbor_sim::{SimConfig, Simulation};
    ///
    /// let mut sim = Simulation::new(arbor_core::Arena::new(), SimConfig::default()).unwrap();
    /// sim.run(10);
    /// let window = sim.profiler().trace_window(5, 9);
    /// assert!(!window.is_empty());
    /// let path = std::env::temp_dir().join(format!("arbor-window-{}.json", std::process::id()));
    /// window.write(&path).unwrap();
    /// # std::fs::remove_file(&path).ok();
    /// ```
    pub fn trace_window(&self, first: u64, last: u64) -> TraceWindow {
        TraceWindow { spans: self.recent.between(first, last) }
    }
}

fn summarize(h: &Histogram<u64>) -> PhaseSummary {
    if h.is_empty() {
        return PhaseSummary::default();
    }
    PhaseSummary {
        count: h.len(),
        p50: Duration::from_nanos(h.value_at_quantile(0.5)),
        p99: Duration::from_nanos(h.value_at_quantile(0.99)),
        max: Duration::from_nanos(h.max()),
        mean: Duration::from_nanos(h.mean() as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_and_trace_file() {
        let mut p = Profiler::new();
        p.enable_trace();
        let t0 = Instant::now();
        for i in 0..100u64 {
            p.record(Phase::Update, i, t0, Duration::from_micros(i + 1));
        }
        let s = p.phase(Phase::Update);
        assert_eq!(s.count, 100);
        assert!(s.p50 >= Duration::from_micros(49) && s.p50 <= Duration::from_micros(51));
        assert!(s.max >= Duration::from_micros(100));
        assert_eq!(p.phase(Phase::Drain).count, 0);
        let path = std::env::temp_dir().join(format!("arbor-trace-{}.json", std::process::id()));
        assert_eq!(p.write_trace(&path).unwrap(), 100);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).ok();
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let events = json["traceEvents"].as_array().unwrap();
        assert_eq!(events.len(), 100);
        assert_eq!(events[3]["name"], "Update");
        assert_eq!(events[3]["ph"], "X");
        assert!(p.table().contains("whole tick"));
    }
}
