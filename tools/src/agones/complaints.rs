//! Rate-limited reports of a sidecar that does not answer, so a sidecar that is slow or gone
//! fills the log with a few lines, not one per call.
//!
//! Rules: the first failure of a run of failures is reported at once; while the run lasts, at
//! most one line per [`REPEAT_EVERY`] follows, counting the failures it summarises; the first
//! success after a run says the sidecar is reachable again. Lines go to stderr, prefixed
//! `agones:`.

use std::time::{Duration, Instant};

/// The least time between two reports of the same run of failures.
pub const REPEAT_EVERY: Duration = Duration::from_secs(60);

/// The state of one thread's reports.
#[derive(Debug, Default)]
pub struct Complaints {
    /// When the current run of failures began.
    since: Option<Instant>,
    /// When the last line was printed.
    last_line: Option<Instant>,
    /// Failures since the last line.
    unreported: u64,
}

impl Complaints {
    /// Records a failure of `what` (`Ready`, `Health`, ...); returns the line to print, if any
    /// is due now.
    pub fn failed(&mut self, what: &str, error: &dyn std::fmt::Display) -> Option<String> {
        let now = Instant::now();
        match (self.since, self.last_line) {
            (None, _) => {
                self.since = Some(now);
                self.last_line = Some(now);
                self.unreported = 0;
                Some(format!(
                    "agones: {what} failed: {error} (retrying; further failures are reported once a minute)"
                ))
            }
            (Some(_), Some(last)) if now.duration_since(last) < REPEAT_EVERY => {
                self.unreported += 1;
                None
            }
            (Some(since), _) => {
                self.last_line = Some(now);
                let n = std::mem::take(&mut self.unreported) + 1;
                Some(format!(
                    "agones: the sidecar has been failing for {:.0} s ({n} more failure{}); last, {what}: {error}",
                    now.duration_since(since).as_secs_f64(),
                    if n == 1 { "" } else { "s" }
                ))
            }
        }
    }

    /// Records a success; returns the "reachable again" line after a run of failures.
    pub fn succeeded(&mut self) -> Option<String> {
        let since = self.since.take()?;
        self.last_line = None;
        self.unreported = 0;
        Some(format!("agones: the sidecar is reachable again (after {:.1} s)", since.elapsed().as_secs_f64()))
    }

    /// [`failed`](Self::failed), printing the line.
    pub fn report_failure(&mut self, what: &str, error: &dyn std::fmt::Display) {
        if let Some(line) = self.failed(what, error) {
            eprintln!("{line}");
        }
    }

    /// [`succeeded`](Self::succeeded), printing the line.
    pub fn report_success(&mut self) {
        if let Some(line) = self.succeeded() {
            eprintln!("{line}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_the_first_failure_then_at_most_once_a_minute() {
        let mut c = Complaints::default();
        assert!(c.succeeded().is_none(), "nothing to recover from");
        let first = c.failed("Ready", &"refused").unwrap();
        assert!(first.starts_with("agones: Ready failed: refused"), "{first}");
        for _ in 0..100 {
            assert!(c.failed("Health", &"refused").is_none());
        }
        // A minute later the run is summarised in one line.
        c.last_line = Some(Instant::now() - REPEAT_EVERY);
        let again = c.failed("Health", &"timed out").unwrap();
        assert!(again.contains("(101 more failures); last, Health: timed out"), "{again}");
        assert!(c.failed("Health", &"timed out").is_none());
        let back = c.succeeded().unwrap();
        assert!(back.starts_with("agones: the sidecar is reachable again"), "{back}");
        assert!(c.succeeded().is_none());
        assert!(c.failed("Ready", &"refused").is_some(), "a new run is reported at once");
    }
}
