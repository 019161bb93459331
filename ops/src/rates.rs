//! Ticks per second over the last 5 s, 1 min and 15 min, like a load average but exact:
//! a ring of (time, tick count) samples taken once a second, and each rate is the ticks
//! between the newest sample and the one a window earlier (or the oldest kept, early on).
//!
//! Invariant: samples are in time order and span at most the longest window plus one
//! sample, so memory is fixed (about 900 samples).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The windows reported, with their label values.
pub const RATE_WINDOWS: [(&str, Duration); 3] =
    [("5s", Duration::from_secs(5)), ("1m", Duration::from_secs(60)), ("15m", Duration::from_secs(900))];

/// Tick-count samples for [`RATE_WINDOWS`].
#[derive(Debug, Default)]
pub struct TickRates {
    samples: VecDeque<(Instant, u64)>,
}

impl TickRates {
    /// Notes that `ticks` ticks had run by `now` (call about once a second).
    pub fn sample(&mut self, now: Instant, ticks: u64) {
        self.samples.push_back((now, ticks));
        let longest = RATE_WINDOWS[RATE_WINDOWS.len() - 1].1;
        while self.samples.len() > 2 && now.duration_since(self.samples[1].0) >= longest {
            self.samples.pop_front();
        }
    }

    /// Ticks per second over each of [`RATE_WINDOWS`] (0 before two samples exist).
    pub fn rates(&self) -> [f64; RATE_WINDOWS.len()] {
        let Some(&(now, ticks)) = self.samples.back() else { return [0.0; RATE_WINDOWS.len()] };
        RATE_WINDOWS.map(|(_, window)| {
            let from = self
                .samples
                .iter()
                .find(|(t, _)| now.duration_since(*t) <= window)
                .filter(|(t, _)| *t < now)
                .or_else(|| self.samples.front().filter(|(t, _)| *t < now));
            match from {
                Some(&(t, n)) => (ticks - n) as f64 / now.duration_since(t).as_secs_f64(),
                None => 0.0,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_window_sees_only_its_own_ticks_and_memory_stays_bounded() {
        let mut rates = TickRates::default();
        let start = Instant::now();
        assert_eq!(rates.rates(), [0.0; 3]);
        // 20 minutes at 60 Hz, then 10 s at 30 Hz.
        let mut ticks = 0;
        for s in 1..=1200u64 {
            ticks += 60;
            rates.sample(start + Duration::from_secs(s), ticks);
        }
        let [five, minute, quarter] = rates.rates();
        assert!((five - 60.0).abs() < 1e-9 && (minute - 60.0).abs() < 1e-9 && (quarter - 60.0).abs() < 1e-9);
        for s in 1201..=1210u64 {
            ticks += 30;
            rates.sample(start + Duration::from_secs(s), ticks);
        }
        let [five, minute, quarter] = rates.rates();
        assert!((five - 30.0).abs() < 1e-9, "{five}");
        assert!((minute - (50.0 * 60.0 + 10.0 * 30.0) / 60.0).abs() < 1e-9, "{minute}");
        assert!(quarter > minute && quarter < 60.0, "{quarter}");
        assert!(rates.samples.len() <= 902, "{}", rates.samples.len());
    }

    #[test]
    fn early_on_the_rate_is_over_what_was_seen() {
        let mut rates = TickRates::default();
        let start = Instant::now();
        rates.sample(start, 0);
        rates.sample(start + Duration::from_secs(2), 120);
        assert_eq!(rates.rates(), [60.0; 3]);
    }
}
