//! [`Pacer`]: keeps a loop at a fixed rate in real time (the server's ticks, the bots'
//! frames), resynchronising instead of bursting when it falls far behind.

use std::time::{Duration, Instant};

/// Sleeps a loop to a fixed period.
pub struct Pacer {
    period: Duration,
    deadline: Instant,
}

impl Pacer {
    /// A pacer of `period`, starting now.
    pub fn new(period: Duration) -> Pacer {
        Pacer { period, deadline: Instant::now() }
    }

    /// Waits for the end of the current period. Far behind (more than ten periods, e.g. the
    /// process was paused), it resynchronises to now instead of running the missed periods
    /// back to back.
    pub fn wait(&mut self) {
        self.deadline += self.period;
        let now = Instant::now();
        if now < self.deadline {
            std::thread::sleep(self.deadline - now);
        } else if now - self.deadline > self.period * 10 {
            self.deadline = now;
        }
    }
}
