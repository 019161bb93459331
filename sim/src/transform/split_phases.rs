//! Three phases of two halves each under one `rayon::join`: [`three_phases`].
//!
//! The short-list route (`sparse`) on two threads runs three phases — stamping, inner roots
//! and their walks, leaves — each as two halves, and a phase may start only once both
//! halves of the one before are done. One join per phase cost a sixth of a pass on two
//! threads (`docs/perf/transforms.md`); here one join starts two workers; each runs
//! every half of a phase that nobody has claimed yet, its own first, then waits until both
//! halves are done, then goes on to the next phase. A worker that rayon has not started (its
//! thread busy elsewhere) claims nothing, so the one running does every half itself and never
//! waits for it.
//!
//! Invariants: each half is run exactly once, by the worker that claimed it; a worker waits
//! only for halves claimed by a worker that is running them, and halves neither wait nor call
//! into rayon, so no wait can depend on itself; a half's result is published by a
//! `OnceLock::set` (release) and read after `get` (acquire) returns it, so everything a half
//! wrote (cells, marks) is visible to every half of the next phase. If a half panics, the
//! waits see the failure and panic too, and the join passes the first panic on.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// One phase: two halves, each claimed once and its result published once.
struct Phase<T> {
    claimed: [AtomicBool; 2],
    done: [OnceLock<T>; 2],
}

impl<T> Phase<T> {
    fn new() -> Self {
        Self {
            claimed: [AtomicBool::new(false), AtomicBool::new(false)],
            done: [OnceLock::new(), OnceLock::new()],
        }
    }

    /// Runs each half nobody has claimed (`me`'s first), then waits until both are done.
    fn run(&self, me: usize, failed: &AtomicBool, half: impl Fn(usize) -> T) {
        for h in [me, 1 - me] {
            if !self.claimed[h].swap(true, Ordering::AcqRel) {
                let guard = Failed(failed);
                let result = half(h);
                std::mem::forget(guard);
                // The claim makes this the only `set` of `done[h]`.
                let _ = self.done[h].set(result);
            }
        }
        let mut spins = 0u32;
        while self.done.iter().any(|d| d.get().is_none()) {
            assert!(!failed.load(Ordering::Acquire), "the other half of a phase panicked");
            // On a loaded machine the other worker may be descheduled: give the core away
            // rather than spin through a whole time slice.
            spins += 1;
            if spins < 256 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Half `h`'s result (once the phase is done).
    fn get(&self, h: usize) -> &T {
        self.done[h].get().expect("a finished phase")
    }

    fn into_results(self) -> Option<[T; 2]> {
        let [a, b] = self.done;
        Some([a.into_inner()?, b.into_inner()?])
    }
}

/// Sets its flag when dropped during a panic (forgotten otherwise): a half that panics
/// tells the other worker's waits.
struct Failed<'f>(&'f AtomicBool);

impl Drop for Failed<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs `first(h)` for both halves `h` (0 and 1), then `second(h, &first's h)`, then, if
/// `go_on` says so of the second phase's results, `third(h, &first's h)`; on two workers
/// under one `rayon::join` (see the module doc). Returns every phase's results by half
/// (`None` for a third phase not run).
pub(crate) fn three_phases<A, B, C>(
    first: impl Fn(usize) -> A + Sync,
    second: impl Fn(usize, &A) -> B + Sync,
    go_on: impl Fn(&B, &B) -> bool + Sync,
    third: impl Fn(usize, &A) -> C + Sync,
) -> ([A; 2], [B; 2], Option<[C; 2]>)
where
    A: Send + Sync,
    B: Send + Sync,
    C: Send + Sync,
{
    let (a, b, c) = (Phase::new(), Phase::new(), Phase::new());
    let failed = AtomicBool::new(false);
    let work = |me: usize| {
        a.run(me, &failed, &first);
        b.run(me, &failed, |h| second(h, a.get(h)));
        if go_on(b.get(0), b.get(1)) {
            c.run(me, &failed, |h| third(h, a.get(h)));
        }
    };
    rayon::join(|| work(0), || work(1));
    let missing = "every half of a phase run";
    (a.into_results().expect(missing), b.into_results().expect(missing), c.into_results())
}

#[cfg(test)]
mod tests {
    use super::three_phases;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_half_runs_once_in_phase_order() {
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for go in [true, false] {
                let runs = AtomicUsize::new(0);
                let (a, b, c) = pool.install(|| {
                    three_phases(
                        |h| {
                            runs.fetch_add(1, Ordering::Relaxed);
                            h * 10
                        },
                        |h, a| {
                            runs.fetch_add(1, Ordering::Relaxed);
                            a + h + 100
                        },
                        |_, _| go,
                        |h, a| {
                            runs.fetch_add(1, Ordering::Relaxed);
                            a + h + 1000
                        },
                    )
                });
                assert_eq!(a, [0, 10]);
                assert_eq!(b, [100, 111]);
                assert_eq!(c, go.then_some([1000, 1011]));
                assert_eq!(runs.load(Ordering::Relaxed), if go { 6 } else { 4 });
            }
        }
    }

    #[test]
    #[should_panic]
    fn a_panicking_half_is_passed_on() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        pool.install(|| {
            three_phases(
                |h| {
                    assert_eq!(h, 0, "half 1 fails");
                    h
                },
                |h, _| h,
                |_, _| true,
                |h, _| h,
            )
        });
    }
}
