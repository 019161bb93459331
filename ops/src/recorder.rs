//! Per-tick recording: the tick and per-phase duration histograms, the tick and overrun
//! counters, and the raw durations of the current second, which become one dashboard point
//! ([`SecondWindow::close`]).
//!
//! This is the only part of the crate that runs every tick, so it does no allocation after
//! the first second and takes no lock but the histograms' own (one observation each).

use crate::history::Percentiles;
use arbor_sim::{PHASES, Phase};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// Bucket bounds of the whole tick, seconds: fine around the 16.7 ms budget.
const TICK_BUCKETS: [f64; 12] =
    [0.0005, 0.001, 0.002, 0.004, 0.006, 0.008, 0.010, 0.0125, 0.0167, 0.025, 0.05, 0.1];
/// Bucket bounds of one phase, seconds.
const PHASE_BUCKETS: [f64; 11] =
    [0.00001, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.004, 0.008, 0.0167, 0.05];

/// The `phase` label.
type PhaseLabel = [(&'static str, &'static str); 1];

/// The per-tick metrics, registered once.
pub(crate) struct TickRecorder {
    tick: Histogram,
    /// One handle per phase, in [`PHASES`] order (looked up once, not per tick).
    phases: Vec<Histogram>,
    ticks: Counter,
    overruns: Counter,
    second: SecondWindow,
}

impl TickRecorder {
    /// Registers the per-tick metrics in `registry`.
    pub(crate) fn register(registry: &mut Registry) -> Self {
        let tick = Histogram::new(TICK_BUCKETS);
        registry.register("arbor_tick_duration_seconds", "Wall time of each tick", tick.clone());
        let family = Family::<PhaseLabel, Histogram>::new_with_constructor(|| Histogram::new(PHASE_BUCKETS));
        registry.register("arbor_phase_duration_seconds", "Wall time of each tick phase", family.clone());
        let phases = PHASES.iter().map(|p| family.get_or_create(&[("phase", p.name())]).clone()).collect();
        let ticks = Counter::default();
        registry.register("arbor_ticks", "Ticks run", ticks.clone());
        let overruns = Counter::default();
        registry.register(
            "arbor_tick_overruns",
            "Ticks that took longer than their budget (1/60 s)",
            overruns.clone(),
        );
        Self { tick, phases, ticks, overruns, second: SecondWindow::default() }
    }

    /// Records one tick that took `duration` (over `budget`: an overrun) with its phases.
    #[inline]
    pub(crate) fn record(
        &mut self,
        duration: Duration,
        budget: Duration,
        phases: &[Option<Duration>; PHASES.len()],
    ) {
        self.tick.observe(duration.as_secs_f64());
        self.ticks.inc();
        if duration > budget {
            self.overruns.inc();
        }
        for (histogram, d) in self.phases.iter().zip(phases) {
            if let Some(d) = d {
                histogram.observe(d.as_secs_f64());
            }
        }
        self.second.push(duration, phases);
    }

    /// Ends the current second: its tick and phase percentiles (and starts the next).
    pub(crate) fn close_second(&mut self) -> SecondSummary {
        self.second.close()
    }
}

/// The durations of the ticks of the current second (milliseconds).
#[derive(Default)]
struct SecondWindow {
    ticks: Vec<f64>,
    phases: [Vec<f64>; PHASES.len()],
}

/// One second of ticks, summarised.
pub(crate) struct SecondSummary {
    /// Ticks in the second.
    pub(crate) ticks: usize,
    /// The whole tick, milliseconds.
    pub(crate) tick: Percentiles,
    /// Each phase that ran, milliseconds, in [`PHASES`] order.
    pub(crate) phases: Vec<(Phase, Percentiles)>,
}

impl SecondWindow {
    fn push(&mut self, duration: Duration, phases: &[Option<Duration>; PHASES.len()]) {
        self.ticks.push(duration.as_secs_f64() * 1e3);
        for (kept, d) in self.phases.iter_mut().zip(phases) {
            if let Some(d) = d {
                kept.push(d.as_secs_f64() * 1e3);
            }
        }
    }

    fn close(&mut self) -> SecondSummary {
        let ticks = self.ticks.len();
        let tick = Percentiles::of(&mut self.ticks);
        let phases = PHASES
            .iter()
            .zip(&mut self.phases)
            .filter(|(_, d)| !d.is_empty())
            .map(|(&p, d)| (p, Percentiles::of(d)))
            .collect();
        self.ticks.clear();
        self.phases.iter_mut().for_each(Vec::clear);
        SecondSummary { ticks, tick, phases }
    }
}
