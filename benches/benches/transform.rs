//! Criterion benchmarks of the transform pass (`arbor_sim::transform::WorldTransforms::update`) on the
//! hierarchy shapes of bevy#11760, each group holding our pass and its baselines measured
//! in the same run:
//!
//! | shape | nodes | |
//! |---|---|---|
//! | `large` | 101,001 | a root, 1,000 children, 10 each, 9 each (bevy's depth-18 × fan-out-8 tree does not fit) |
//! | `wide` | 250,501 | bevy's `wide_tree`: `gen_tree(3, 500)`, a root, 500 children, 500 each |
//! | `deep` | bevy's `deep_tree`: `gen_non_uniform_tree(25, 2)` | |
//! | `chain` | 2,500 | bevy's `chain`: 2,500 levels |
//! | `stress` | 1,000,000 | `arbor stress --count 1000000`: a root, 90,909 models of 10 parts |
//!
//! Functions in each group (`t1`/`t2`: a local rayon pool of 1 or 2 threads, the timed loop
//! runs inside it with `pool.install`):
//!
//! - `ours/{all,1pct}/{t1,t2}/{simd,scalar}`: `update` with every node dirty (the dirty list
//!   holds every id; a list naming most of the arena takes the pass's whole-world sweep
//!   over the pages in slot order) or 1% of the nodes (a fixed pseudo-random set: the
//!   dirty roots are found and their subtrees walked), `PassMode { parallel: t2, simd }`;
//! - `ours/none`: `update` with an empty dirty list;
//! - `plain/all`: a plain scalar SoA pass written here: nodes in depth order with parent
//!   indices, `world[i] = world[parent[i]] ∘ local[i]`, one thread;
//! - `bevy/{all,1pct,none}`: bevy_transform 0.20's `(mark_dirty_trees,
//!   propagate_parent_transforms, sync_simple_transforms).chain()` with
//!   `StaticTransformOptimizations` on, its `multi_threaded` propagation on a 2-thread
//!   `ComputeTaskPool`; the `Transform`s are marked changed outside the timed region.
//!
//! Group `transform_stress` (the 1M shape) holds `ours/1pct/{t1,t2}` (SIMD), `ours/none`,
//! `bevy/1pct` and `bevy/none` only.
//!
//! Group `write_strategy` (large tree, the root's 1,000 children dirty so every node below
//! them is recomputed by the parallel subtree walk, 2 threads) compares the walk's direct
//! writes through raw pointers with the safe alternative, collect-and-scatter.
//! Group `arena_walk` (large tree) measures the arena reads alone: a depth-first walk that
//! calls `Arena::get` on every child (reading its transform and children), and the same
//! walk also calling `Arena::slot` — the floor under any pass built on the public API.
//!
//! Figures, with their commands and the attempts behind them, are in `docs/perf/transforms.md`.

#[path = "common/transform_fixture.rs"]
mod fixture;

use arbor_core::{Arena, Id};
use arbor_sim::{transform::PassMode, transform::WorldTransforms};
use criterion::{
    BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main, measurement::WallTime,
};
use fixture::{Bevy, Plain, build_arena, large_tree, pick, stress_tree};
use rayon::ThreadPool;
use std::hint::black_box;
use std::time::{Duration, Instant};

// ---- shapes (parent maps: node 0 is the root, node i > 0 has parent `map[i - 1] < i`) ----

/// bevy's `gen_tree`: `depth` levels, `width` children per inner node.
fn gen_tree(depth: u32, width: u32) -> Vec<usize> {
    let inner: usize = (0..depth - 1).map(|i| width.pow(i) as usize).sum();
    (0..inner).flat_map(|i| std::iter::repeat_n(i, width as usize)).collect()
}

/// bevy's `gen_non_uniform_tree`: one side deeper than the other.
fn gen_non_uniform_tree(depth: u32, width: u32) -> Vec<usize> {
    fn add(tree: &mut Vec<usize>, parent: usize, mut depth: u32, width: u32) {
        for _ in 0..width {
            tree.push(parent);
            depth -= 1;
            if depth == 0 {
                return;
            }
            add(tree, tree.len(), depth, width);
        }
    }
    let mut tree = Vec::new();
    add(&mut tree, 0, depth, width);
    tree
}

// ---- ours ----

fn pool(threads: usize) -> ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("rayon pool")
}

/// Times `iters` passes inside `pool` (so the pass's rayon calls start on a pool thread).
fn timed_in(pool: &ThreadPool, iters: u64, mut pass: impl FnMut() + Send) -> Duration {
    pool.install(|| {
        let start = Instant::now();
        for _ in 0..iters {
            pass();
        }
        start.elapsed()
    })
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    g
}

fn shape(c: &mut Criterion, name: &str, map: &[usize]) {
    let n = map.len() + 1;
    let (arena, ids) = build_arena(map);
    let pools = [(1, pool(1)), (2, pool(2))];
    let mut worlds = WorldTransforms::new();
    let everything: Vec<Id> = ids.clone();
    worlds.update(&arena, &everything, PassMode::default());
    let mut g = group(c, &format!("transform_{name}"));
    eprintln!("transform_{name}: {n} nodes");
    for (label, all) in [("all", true), ("1pct", false)] {
        let picked = pick(n, all);
        let dirty: Vec<Id> = picked.iter().map(|&i| ids[i]).collect();
        let stats = worlds.update(&arena, &dirty, PassMode::default());
        eprintln!(
            "  {label}: {} dirty, {} roots, {} recomputed",
            dirty.len(),
            stats.dirty_roots,
            stats.recomputed
        );
        for (threads, pool) in &pools {
            for simd in [true, false] {
                let mode = PassMode { parallel: *threads > 1, simd };
                let id = format!("ours/{label}/t{threads}/{}", if simd { "simd" } else { "scalar" });
                g.bench_function(id, |b| {
                    b.iter_custom(|iters| {
                        timed_in(pool, iters, || {
                            black_box(worlds.update(&arena, black_box(&dirty), mode));
                        })
                    })
                });
            }
        }
    }
    g.bench_function("ours/none", |b| b.iter(|| worlds.update(&arena, black_box(&[]), PassMode::default())));

    let mut plain = Plain::new(map);
    g.bench_function("plain/all", |b| b.iter(|| plain.run()));
    drop(plain);

    let mut bevy = Bevy::new(map);
    for (label, all) in [("all", true), ("1pct", false)] {
        let changed = pick(n, all);
        g.bench_function(format!("bevy/{label}"), |b| b.iter_custom(|iters| bevy.timed(iters, &changed)));
    }
    g.bench_function("bevy/none", |b| b.iter_custom(|iters| bevy.timed(iters, &[])));
    g.finish();
}

/// The stress place's shape at a million nodes (`stress`): our 1% pass on one and two
/// threads against bevy's, and both with nothing dirty. Only the SIMD pass and the sparse
/// cases: building bevy's world of a million entities and each all-dirty pass take seconds.
fn million(c: &mut Criterion) {
    let map = stress_tree();
    let n = map.len() + 1;
    let (arena, ids) = build_arena(&map);
    let pools = [(1, pool(1)), (2, pool(2))];
    let mut worlds = WorldTransforms::new();
    worlds.update(&arena, &ids, PassMode::default());
    let dirty: Vec<Id> = pick(n, false).iter().map(|&i| ids[i]).collect();
    let stats = worlds.update(&arena, &dirty, PassMode::default());
    eprintln!(
        "transform_stress: {n} nodes; 1pct: {} dirty, {} roots, {} recomputed",
        dirty.len(),
        stats.dirty_roots,
        stats.recomputed
    );
    let mut g = group(c, "transform_stress");
    for (threads, pool) in &pools {
        let mode = PassMode { parallel: *threads > 1, simd: true };
        g.bench_function(format!("ours/1pct/t{threads}"), |b| {
            b.iter_custom(|iters| {
                timed_in(pool, iters, || {
                    black_box(worlds.update(&arena, black_box(&dirty), mode));
                })
            })
        });
    }
    g.bench_function("ours/none", |b| b.iter(|| worlds.update(&arena, black_box(&[]), PassMode::default())));
    drop((worlds, arena, ids));
    let mut bevy = Bevy::new(&map);
    let changed = pick(n, false);
    g.bench_function("bevy/1pct", |b| b.iter_custom(|iters| bevy.timed(iters, &changed)));
    g.bench_function("bevy/none", |b| b.iter_custom(|iters| bevy.timed(iters, &[])));
    g.finish();
}

fn shapes(c: &mut Criterion) {
    shape(c, "large", &large_tree());
    shape(c, "wide", &gen_tree(3, 500));
    shape(c, "deep", &gen_non_uniform_tree(25, 2));
    shape(c, "chain", &gen_tree(2_500, 1));
}

fn write_strategy(c: &mut Criterion) {
    let (arena, ids) = build_arena(&large_tree());
    let pool = pool(2);
    let mut worlds = WorldTransforms::new();
    worlds.update(&arena, &ids, PassMode::default());
    let mode = PassMode::default();
    // The root's 1,000 children: every node below the root recomputed, through the dirty
    // subtree walk (too few ids for the whole-world sweep, which always writes directly).
    let dirty = &ids[1..=1_000];
    let mut g = group(c, "transform_write_strategy");
    g.bench_function("direct", |b| {
        b.iter_custom(|iters| {
            timed_in(&pool, iters, || {
                black_box(worlds.update(&arena, dirty, mode));
            })
        })
    });
    g.bench_function("collect_scatter", |b| {
        b.iter_custom(|iters| {
            timed_in(&pool, iters, || {
                black_box(worlds.update_collect_scatter(&arena, dirty, mode));
            })
        })
    });
    g.finish();
}

/// Depth first in pre-order (the pass's order) over the tree, reading each child's
/// transform and children, optionally also its slot; returns a checksum so nothing is
/// optimised away.
fn arena_walk(arena: &Arena, root: Id, with_slot: bool) -> f32 {
    let mut sum = 0.0;
    let mut stack = vec![arena.get(root).expect("root").children()];
    while let Some(kids) = stack.pop() {
        let first = stack.len();
        for id in kids.iter() {
            let node = arena.get(id).expect("child");
            sum += node.transform().position.x;
            if with_slot {
                sum += arena.slot(id).expect("slot").0 as f32;
            }
            let c = node.children();
            if !c.is_empty() {
                stack.push(c);
            }
        }
        stack[first..].reverse();
    }
    sum
}

fn arena_reads(c: &mut Criterion) {
    let (arena, ids) = build_arena(&large_tree());
    let mut g = group(c, "transform_arena_walk");
    g.bench_function("get", |b| b.iter(|| arena_walk(&arena, ids[0], false)));
    g.bench_function("get_and_slot", |b| b.iter(|| arena_walk(&arena, ids[0], true)));
    g.finish();
}

criterion_group!(benches, shapes, million, write_strategy, arena_reads);
criterion_main!(benches);
