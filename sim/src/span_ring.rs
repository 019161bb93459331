//! The span ring: the phase spans of the last [`RING_TICKS`] ticks, always kept, so a slow
//! tick can be traced after the fact ([`TraceWindow`]) without tracing the whole run.
//!
//! Invariants: the ring holds at most `RING_TICKS × PHASES.len()` spans and never
//! allocates once full (a new span overwrites the oldest); spans are pushed in the order
//! the phases ran, so reading from the oldest slot gives them in time order.

use crate::phase::{PHASES, Phase};
use std::time::Duration;

/// Ticks of phase spans the ring keeps: four seconds at 60 Hz.
pub const RING_TICKS: u64 = 240;

/// One phase of one tick: when it started (since the profiler's epoch) and how long it ran.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    /// The phase.
    pub(crate) phase: Phase,
    /// The tick it belongs to.
    pub(crate) tick: u64,
    /// Its start, from the profiler's epoch.
    pub(crate) start: Duration,
    /// How long it ran.
    pub(crate) duration: Duration,
}

/// A fixed ring of the latest spans.
pub(crate) struct SpanRing {
    /// The spans; `len() < capacity` until the ring first fills.
    spans: Vec<Span>,
    /// The slot the next span goes to once full (the oldest span's slot).
    next: usize,
}

impl SpanRing {
    fn capacity() -> usize {
        RING_TICKS as usize * PHASES.len()
    }

    /// An empty ring with its whole capacity reserved.
    pub(crate) fn new() -> Self {
        Self { spans: Vec::with_capacity(Self::capacity()), next: 0 }
    }

    /// Keeps `span`, dropping the oldest once full.
    #[inline]
    pub(crate) fn push(&mut self, span: Span) {
        if self.spans.len() < Self::capacity() {
            self.spans.push(span);
        } else {
            self.spans[self.next] = span;
            self.next += 1;
            if self.next == self.spans.len() {
                self.next = 0;
            }
        }
    }

    /// How long each phase of the newest tick in the ring ran (`None`: the phase did not run
    /// that tick), indexed like [`PHASES`]. Reads at most one tick's spans.
    pub(crate) fn newest_tick(&self) -> [Option<Duration>; PHASES.len()] {
        let mut phases = [None; PHASES.len()];
        let n = self.spans.len();
        let newest = (self.next + n).checked_sub(1).map(|i| i % n.max(1));
        let Some(tick) = newest.map(|i| self.spans[i].tick) else { return phases };
        for k in 0..n.min(PHASES.len()) {
            let span = &self.spans[(self.next + n - 1 - k) % n];
            if span.tick != tick {
                break;
            }
            phases[span.phase as usize] = Some(span.duration);
        }
        phases
    }

    /// The kept spans of ticks `first..=last`, oldest first.
    pub(crate) fn between(&self, first: u64, last: u64) -> Vec<Span> {
        let (newer, older) = self.spans.split_at(self.next);
        older.iter().chain(newer).filter(|s| (first..=last).contains(&s.tick)).copied().collect()
    }
}

/// The spans of a window of recent ticks, copied out of the profiler so they can be written
/// off the tick thread ([`write`](Self::write)).
#[derive(Clone, Debug)]
pub struct TraceWindow {
    pub(crate) spans: Vec<Span>,
}

impl TraceWindow {
    /// Spans in the window.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the window holds no span (its ticks were not kept, or have not run).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Writes the window as a Chrome/Perfetto trace: a named process and thread, one
    /// complete event per tick (`tick N`) and one per phase inside it. Returns the phase
    /// spans written.
    pub fn write(&self, path: &std::path::Path) -> std::io::Result<usize> {
        crate::trace_file::write(path, &self.spans, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(tick: u64, phase: Phase) -> Span {
        Span { phase, tick, start: Duration::from_micros(tick * 100), duration: Duration::from_micros(5) }
    }

    #[test]
    fn the_ring_keeps_the_latest_ticks_in_order_and_stops_growing() {
        let mut ring = SpanRing::new();
        let total = RING_TICKS + 10;
        for tick in 0..total {
            for phase in PHASES {
                ring.push(span(tick, phase));
            }
        }
        assert_eq!(ring.spans.len(), SpanRing::capacity(), "full, not grown");
        assert_eq!(ring.spans.capacity(), SpanRing::capacity(), "reserved once");
        let all = ring.between(0, u64::MAX);
        assert_eq!(all.len(), SpanRing::capacity());
        assert_eq!(all.first().unwrap().tick, 10, "the oldest ten ticks were dropped");
        assert_eq!(all.last().unwrap().tick, total - 1);
        assert!(all.windows(2).all(|w| w[0].start <= w[1].start), "oldest first");
        let window = ring.between(100, 102);
        assert_eq!(window.len(), 3 * PHASES.len());
        assert!(window.iter().all(|s| (100..=102).contains(&s.tick)));
        assert!(ring.between(0, 9).is_empty(), "dropped ticks are gone");
    }

    #[test]
    fn the_newest_tick_reads_only_its_own_phases_before_and_after_the_ring_wraps() {
        let mut ring = SpanRing::new();
        assert_eq!(ring.newest_tick(), [None; PHASES.len()], "empty");
        let ran = [Phase::Update, Phase::PhysicsStep, Phase::Drain];
        for tick in 0..RING_TICKS * 2 + 3 {
            let phases: &[Phase] = if tick % 2 == 0 { &PHASES } else { &ran };
            for &phase in phases {
                ring.push(span(tick, phase));
            }
            let newest = ring.newest_tick();
            for phase in PHASES {
                let expected = phases.contains(&phase).then_some(Duration::from_micros(5));
                assert_eq!(newest[phase as usize], expected, "tick {tick}, {phase:?}");
            }
        }
    }
}
