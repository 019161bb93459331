//! The dashboard's data: one [`DashboardPoint`] a second, the last [`HISTORY_POINTS`] of
//! them, served as JSON at `/api/stats` and drawn by the page at `/`.
//!
//! Invariant: points are in time order and at most [`HISTORY_POINTS`] are kept.

use serde::Serialize;
use std::collections::VecDeque;

/// Points kept: five minutes at one a second.
pub const HISTORY_POINTS: usize = 300;

/// Median, 90th percentile and maximum of one second's values, milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Percentiles {
    /// The median.
    pub p50: f64,
    /// The 90th percentile (nearest rank).
    pub p90: f64,
    /// The largest.
    pub max: f64,
}

impl Percentiles {
    /// The percentiles of `values` (sorted in place); all zero when empty.
    pub fn of(values: &mut [f64]) -> Self {
        if values.is_empty() {
            return Self::default();
        }
        values.sort_unstable_by(f64::total_cmp);
        let rank = |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
        Self { p50: rank(0.5), p90: rank(0.9), max: values[values.len() - 1] }
    }
}

/// One second of the server, as the dashboard draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DashboardPoint {
    /// Seconds since the server started.
    pub t: f64,
    /// The tick count at the end of the second.
    pub tick: u64,
    /// Ticks run in the second.
    pub ticks: usize,
    /// The whole tick, milliseconds.
    pub tick_ms: Percentiles,
    /// Each phase that ran in the second: its name and milliseconds.
    pub phases: Vec<(&'static str, Percentiles)>,
    /// Players in session.
    pub players: usize,
    /// Clients connected.
    pub clients: usize,
    /// Kilobits a second sent to all clients together (the transport's measured rate).
    pub kbit_per_s: f64,
    /// Instances in the place.
    pub instances: usize,
}

/// The last [`HISTORY_POINTS`] points.
#[derive(Debug, Default)]
pub struct History {
    points: VecDeque<DashboardPoint>,
}

impl History {
    /// Adds the newest point, dropping the oldest past [`HISTORY_POINTS`].
    pub fn push(&mut self, point: DashboardPoint) {
        if self.points.len() == HISTORY_POINTS {
            self.points.pop_front();
        }
        self.points.push_back(point);
    }

    /// The points, oldest first.
    pub fn points(&self) -> impl Iterator<Item = &DashboardPoint> {
        self.points.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_nearest_rank() {
        let mut values: Vec<f64> = (1..=200).rev().map(f64::from).collect();
        let p = Percentiles::of(&mut values);
        assert_eq!((p.p50, p.p90, p.max), (100.0, 180.0, 200.0));
        assert_eq!(Percentiles::of(&mut [4.0]), Percentiles { p50: 4.0, p90: 4.0, max: 4.0 });
        assert_eq!(Percentiles::of(&mut []), Percentiles::default());
    }

    #[test]
    fn history_keeps_the_newest_points_in_order() {
        let mut history = History::default();
        for tick in 0..HISTORY_POINTS as u64 + 5 {
            let point = DashboardPoint {
                t: tick as f64,
                tick,
                ticks: 60,
                tick_ms: Percentiles::default(),
                phases: Vec::new(),
                players: 0,
                clients: 0,
                kbit_per_s: 0.0,
                instances: 0,
            };
            history.push(point);
        }
        let ticks: Vec<u64> = history.points().map(|p| p.tick).collect();
        assert_eq!(ticks.len(), HISTORY_POINTS);
        assert_eq!((ticks[0], *ticks.last().unwrap()), (5, HISTORY_POINTS as u64 + 4));
    }
}
