//! What the always-on span capture costs: `Profiler::record` (the phase's histogram plus the
//! span ring that slow-tick traces are cut from) per span, against a plain histogram record
//! (the profiler before the ring), a push into a preallocated `Vec` of the same 32-byte span
//! (a lower bound for any capture) and an `Instant::now` (what a span's timestamps cost a
//! tracer). Figures: `docs/perf/tick.md`, "Span capture".

use arbor_sim::{Phase, Profiler};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Spans recorded per iteration (a thousand ticks of one phase).
const SPANS: u64 = 1_000;

fn spans(c: &mut Criterion) {
    let mut g = c.benchmark_group("profiler_x1k");
    let start = Instant::now();
    let mut profiler = Profiler::new();
    let mut tick = 0u64;
    g.bench_function("record_span", |b| {
        b.iter(|| {
            for i in 0..SPANS {
                tick += 1;
                profiler.record(Phase::Update, tick, start, Duration::from_nanos(1_000 + i));
            }
        })
    });
    let mut histogram = hdrhistogram::Histogram::<u64>::new_with_bounds(1, 600_000_000_000, 3).unwrap();
    g.bench_function("histogram_only", |b| {
        b.iter(|| {
            for i in 0..SPANS {
                let _ = histogram.record(black_box(1_000 + i));
            }
        })
    });
    let mut plain: Vec<(u64, u64, Duration, Duration)> = Vec::with_capacity(SPANS as usize);
    g.bench_function("vec_push_span", |b| {
        b.iter(|| {
            plain.clear();
            for i in 0..SPANS {
                plain.push(black_box((i, 3, Duration::from_nanos(i), Duration::from_nanos(1_000 + i))));
            }
        })
    });
    g.bench_function("instant_now", |b| {
        b.iter(|| {
            for _ in 0..SPANS {
                black_box(Instant::now());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, spans);
criterion_main!(benches);
