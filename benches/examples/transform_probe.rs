//! Best-of-N and median timings of the large tree's transform pass (101,001 nodes): 1% dirty
//! (the fixed pseudo-random set of `benches/transform.rs`) by default, every node dirty with
//! `ALL=1`; ours on 1 and 2 threads, bevy_transform, and with `ALL=1` the plain scalar SoA
//! pass, interleaved round by round so machine load hits every variant alike. Robust where
//! criterion's means move 2× under load.
//!
//! `[ALL=1] cargo run --release -p arbor-benches --example transform_probe [rounds] [passes]`
//! (default 30 rounds of 100 passes; each round keeps its mean per pass, the report gives the
//! best and the median round per variant). With `ours` as the first argument it only runs
//! our pass on one thread in a loop (for `perf` or `cachegrind`); with `idle [passes]`, single
//! passes after a 3 ms pause each (the pool's threads asleep, as between ticks).

#[path = "../benches/common/transform_fixture.rs"]
#[allow(dead_code)]
mod fixture;

use arbor_core::{Arena, Id};
use arbor_sim::{transform::PassMode, transform::WorldTransforms};
use fixture::{Bevy, Plain, build_arena, large_tree, pick};
use std::hint::black_box;
use std::time::Instant;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("rayon pool")
}

/// `passes` passes on the calling thread (a separate function so a profiler can count it
/// alone: `valgrind --tool=callgrind --toggle-collect='*passes_alone*'`).
#[inline(never)]
fn passes_alone(worlds: &mut WorldTransforms, arena: &Arena, dirty: &[Id], passes: u32) {
    let mode = PassMode { parallel: false, simd: std::env::var_os("SCALAR").is_none() };
    for _ in 0..passes {
        black_box(worlds.update(arena, black_box(dirty), mode));
    }
}

/// Single passes with a 3 ms pause before each (so the pool's threads go back to sleep, as
/// between two ticks' transform phases), 1 and 2 threads alternating; prints the best,
/// median and 90th percentile pass.
fn idle_gaps(worlds: &mut WorldTransforms, arena: &Arena, dirty: &[Id], passes: usize) {
    let pools = [pool(1), pool(2)];
    let mut samples: [Vec<f64>; 2] = Default::default();
    for _ in 0..passes {
        for (t, pool) in pools.iter().enumerate() {
            std::thread::sleep(std::time::Duration::from_millis(3));
            let mode = PassMode { parallel: t == 1, simd: true };
            let elapsed = pool.install(|| {
                let start = Instant::now();
                black_box(worlds.update(arena, black_box(dirty), mode));
                start.elapsed()
            });
            samples[t].push(elapsed.as_secs_f64() * 1e6);
        }
    }
    for (t, s) in samples.iter_mut().enumerate() {
        s.sort_by(f64::total_cmp);
        let at = |q: f64| s[((s.len() - 1) as f64 * q) as usize];
        println!(
            "ours t{} after idle  best {:8.2} µs  median {:8.2} µs  p90 {:8.2} µs",
            t + 1,
            s[0],
            at(0.5),
            at(0.9)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let map = large_tree();
    let n = map.len() + 1;
    let (arena, ids) = build_arena(&map);
    let all = std::env::var_os("ALL").is_some();
    let dirty: Vec<Id> = pick(n, all).iter().map(|&i| ids[i]).collect();
    let mut worlds = WorldTransforms::new();
    worlds.update(&arena, &ids, PassMode::default());
    let stats = worlds.update(&arena, &dirty, PassMode::default());
    eprintln!(
        "{n} nodes, {} dirty, {} roots, {} recomputed",
        dirty.len(),
        stats.dirty_roots,
        stats.recomputed
    );

    if args.first().map(String::as_str) == Some("ours") {
        let passes: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
        let start = Instant::now();
        passes_alone(&mut worlds, &arena, &dirty, passes);
        eprintln!("{:.2} µs per pass", start.elapsed().as_secs_f64() * 1e6 / passes as f64);
        return;
    }

    if args.first().map(String::as_str) == Some("idle") {
        idle_gaps(&mut worlds, &arena, &dirty, args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300));
        return;
    }

    let rounds: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(30);
    let passes: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let pools = [pool(1), pool(2)];
    let mut bevy = Bevy::new(&map);
    let changed = pick(n, all);
    let mut plain = Plain::new(&map);
    let names = ["ours t1", "ours t2", "bevy", "plain"];
    let mut samples: [Vec<f64>; 4] = Default::default();
    for _ in 0..rounds {
        for (t, pool) in pools.iter().enumerate() {
            let mode = PassMode { parallel: t == 1, simd: true };
            let elapsed = pool.install(|| {
                let start = Instant::now();
                for _ in 0..passes {
                    black_box(worlds.update(&arena, black_box(&dirty), mode));
                }
                start.elapsed()
            });
            samples[t].push(elapsed.as_secs_f64() * 1e6 / passes as f64);
        }
        let bevy_passes = (passes / 10).max(1);
        samples[2]
            .push(bevy.timed(u64::from(bevy_passes), &changed).as_secs_f64() * 1e6 / bevy_passes as f64);
        if all {
            let start = Instant::now();
            for _ in 0..passes {
                plain.run();
                black_box(&plain);
            }
            samples[3].push(start.elapsed().as_secs_f64() * 1e6 / passes as f64);
        }
    }
    for s in &mut samples {
        s.sort_by(f64::total_cmp);
    }
    for (name, s) in names.iter().zip(&samples).filter(|(_, s)| !s.is_empty()) {
        println!("{name:8} best {:9.2} µs  median {:9.2} µs", s[0], s[s.len() / 2]);
    }
    println!(
        "bevy/ours t2: best {:.0}×, median {:.0}×",
        samples[2][0] / samples[1][0],
        samples[2][samples[2].len() / 2] / samples[1][samples[1].len() / 2]
    );
    if all {
        println!(
            "plain/ours t2: best {:.2}×, median {:.2}×",
            samples[3][0] / samples[1][0],
            samples[3][samples[3].len() / 2] / samples[1][samples[1].len() / 2]
        );
    }
}
