//! [`InputPacer`]: keeps the server's queue of this client's commands short but never empty,
//! by running the client's command clock a little fast or slow (time dilation, as in
//! Overwatch's netcode and lightyear's input sync).
//!
//! The server applies one command per tick and says, in every
//! [`CharacterState`](crate::wire::CharacterState), how many were still waiting after the
//! tick's step. A queue that ran dry makes the server repeat the last command (a step the
//! client could not predict); a long one delays the client's moves for everyone else and
//! ends in commands skipped at [`MAX_QUEUED_COMMANDS`](super::MAX_QUEUED_COMMANDS). The pacer
//! smooths the reported depth and turns its distance from [`TARGET_QUEUED`] into a rate for
//! the client's command clock, within ±[`MAX_DILATION`].
//!
//! Invariants: the rate is always within `1 ± MAX_DILATION` and finite; it is exactly 1
//! before the first report and while the smoothed depth is within [`DEAD_BAND`] of the
//! target, so a client whose queue sits where it should runs at real time.

/// Commands the client aims to keep waiting in the server's queue after its step: at least
/// one, so a message a tick late does not make the server repeat a command, and at most two
/// (with [`DEAD_BAND`]), 33 ms of input delay.
pub const TARGET_QUEUED: f32 = 1.5;

/// The largest change of the command clock's rate (±5%: a queue 2 commands short is refilled
/// in under a second, and a player cannot feel the change).
pub const MAX_DILATION: f64 = 0.05;

/// How far the smoothed depth may stray from the target before the rate changes, commands.
pub const DEAD_BAND: f32 = 0.5;

/// The rate's change per command of distance past the dead band (an empty queue asks for
/// the whole [`MAX_DILATION`]).
const GAIN: f64 = 0.04;

/// Weight of a new report in the smoothed depth (about the last 10 reports, a third of a
/// second at 30 states a second).
const SMOOTHING: f32 = 0.1;

/// The client's command clock rate, from the server's reported queue depth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InputPacer {
    /// The smoothed reported depth (`None` before the first report).
    depth: Option<f32>,
}

impl InputPacer {
    /// A pacer with no report yet (rate 1).
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes the server's report of `queued` commands waiting after its step.
    pub fn observe(&mut self, queued: u8) {
        let q = f32::from(queued);
        self.depth = Some(self.depth.map_or(q, |d| d + SMOOTHING * (q - d)));
    }

    /// The smoothed depth of the server's queue, commands (`None` before a report).
    pub fn depth(&self) -> Option<f32> {
        self.depth
    }

    /// The rate to run the command clock at: above 1 while the server's queue is short, below
    /// 1 while it is long, 1 near the target.
    pub fn rate(&self) -> f64 {
        let Some(depth) = self.depth else { return 1.0 };
        let off = TARGET_QUEUED - depth;
        if off.abs() <= DEAD_BAND {
            return 1.0;
        }
        let past = f64::from(off - DEAD_BAND * off.signum());
        1.0 + (GAIN * past).clamp(-MAX_DILATION, MAX_DILATION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn an_empty_queue_speeds_the_clock_a_long_one_slows_it() {
        let mut p = InputPacer::new();
        assert_eq!(p.rate(), 1.0);
        p.observe(0);
        assert!(p.rate() > 1.0);
        for _ in 0..200 {
            p.observe(6);
        }
        assert!(p.rate() < 1.0);
        for i in 0..200 {
            p.observe(1 + (i % 2));
        }
        assert_eq!(p.rate(), 1.0);
    }

    /// One client against a simulated server queue for `ticks` ticks: the client's clock runs
    /// `skew` times the server's (times the pacer's rate if `paced`), loses `lost` steps at
    /// tick 1,000 (a stall it drops; a negative `lost` is a burst, as when the server stalls
    /// instead), and the server reports the depth every second tick.
    /// Returns the pacer and the ticks that left the queue empty (no slack for a late
    /// message: the next tick repeats a command unless one arrives in time) or found it so.
    fn simulate(skew: f64, lost: i32, paced: bool, ticks: u32) -> (InputPacer, u32) {
        let mut pacer = InputPacer::new();
        let (mut queue, mut clock, mut dry) = (2u32, 0.0f64, 0);
        for tick in 0..ticks {
            clock += skew * if paced { pacer.rate() } else { 1.0 };
            if tick == 1_000 {
                clock -= f64::from(lost);
            }
            while clock >= 1.0 {
                clock -= 1.0;
                queue = (queue + 1).min(6);
            }
            queue = queue.saturating_sub(1);
            dry += u32::from(queue == 0);
            if tick % 2 == 1 {
                pacer.observe(queue as u8);
            }
        }
        (pacer, dry)
    }

    /// A paced clock keeps the queue near the target through a skew far larger than real
    /// clocks drift (0.1%, 1,000 ppm) and refills it after a stall; an unpaced one, after the
    /// same stall, leaves it empty for good.
    #[test]
    fn a_paced_clock_holds_the_queue_near_the_target_despite_skew_and_stalls() {
        for skew in [0.999, 0.9995, 1.0, 1.0005, 1.001] {
            let (pacer, dry) = simulate(skew, 4, true, 6_000);
            let depth = pacer.depth().unwrap();
            assert!((depth - TARGET_QUEUED).abs() <= 1.0, "skew {skew}: depth {depth}");
            assert!(dry < 300, "skew {skew}: the queue was empty after {dry} ticks");
        }
        let (_, dry) = simulate(1.0, 4, false, 6_000);
        assert!(dry > 4_000, "unpaced, the queue was empty after only {dry} ticks");
    }

    /// After a burst (the server stalled, then ran its missed ticks as one), a paced clock
    /// drains the queue back to the target; an unpaced one keeps the extra delay for good.
    #[test]
    fn a_paced_clock_drains_a_burst() {
        let (paced, _) = simulate(1.0, -4, true, 6_000);
        let (unpaced, _) = simulate(1.0, -4, false, 6_000);
        let (paced, unpaced) = (paced.depth().unwrap(), unpaced.depth().unwrap());
        assert!((paced - TARGET_QUEUED).abs() <= DEAD_BAND + 0.1, "paced depth {paced}");
        assert!(unpaced >= 4.0, "unpaced depth {unpaced}");
    }

    proptest! {
        #[test]
        fn the_rate_stays_within_the_bound(reports in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut p = InputPacer::new();
            for q in reports {
                p.observe(q);
                let r = p.rate();
                prop_assert!(r.is_finite() && (r - 1.0).abs() <= MAX_DILATION + 1e-12, "{r}");
            }
        }
    }
}
