//! Best-of-N and median timings of the large tree's 1%-dirty transform pass (101,001 nodes,
//! the fixed pseudo-random set of `benches/transform.rs`), ours on 1 and 2 threads and
//! bevy_transform in the same run, interleaved round by round so machine load hits every
//! variant alike. Robust where criterion's means move 2× under load.
//!
//! `cargo run --release -p arbor-benches --example transform_probe [rounds] [passes]`
//! (default 30 rounds of 100 passes; each round keeps its mean per pass, the report gives the
//! best and the median round per variant). With `ours` as the first argument it only runs
//! our pass on one thread in a loop (for `perf` or `cachegrind`).

use arbor_core::{Arena, Class, Id, LocalTransform};
use arbor_sim::{PassMode, WorldTransforms};
use bevy_ecs::change_detection::DetectChangesMut;
use bevy_ecs::prelude::{ChildOf, Entity, IntoScheduleConfigs, Schedule, World};
use bevy_tasks::{ComputeTaskPool, TaskPoolBuilder};
use bevy_transform::components::Transform;
use bevy_transform::systems::{
    StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms, sync_simple_transforms,
};
use glam::{Quat, Vec3};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The large tree: a root, 1,000 children, 10 each, 9 each (node i > 0 has parent
/// `map[i - 1]`).
fn large_tree() -> Vec<usize> {
    let mut map = vec![0; 1_000];
    map.extend((1..=1_000).flat_map(|p| std::iter::repeat_n(p, 10)));
    map.extend((1_001..=11_000).flat_map(|p| std::iter::repeat_n(p, 9)));
    map
}

fn local_of(i: usize) -> (Vec3, Quat) {
    let a = (i % 97) as f32 / 97.0;
    (Vec3::new(a.cos() * 32.0, a.sin() * 32.0, 0.5), Quat::from_rotation_z(a * 0.3).normalize())
}

/// The bench's fixed ~1% (never the root).
fn pick(n: usize) -> Vec<usize> {
    let mix = |i: usize| {
        let mut z = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 31)
    };
    (1..n).filter(|&i| mix(i) % 100 == 0).collect()
}

fn build_arena(map: &[usize]) -> (Arena, Vec<Id>) {
    let n = map.len() + 1;
    let mut inner = vec![false; n];
    for &p in map {
        inner[p] = true;
    }
    let mut arena = Arena::new();
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let parent = if i == 0 { arena.workspace() } else { ids[map[i - 1]] };
        let class = if inner[i] { Class::Model } else { Class::Part };
        let id = arena.create(class, "N", Some(parent)).expect("create");
        let (position, rotation) = local_of(i);
        arena.set_transform(id, LocalTransform { position, rotation }).expect("set");
        ids.push(id);
    }
    arena.drain_events();
    arena.drain_events();
    (arena, ids)
}

struct Bevy {
    world: World,
    schedule: Schedule,
    entities: Vec<Entity>,
}

impl Bevy {
    fn new(map: &[usize]) -> Self {
        ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(2).build());
        let mut world = World::new();
        let mut entities: Vec<Entity> = Vec::with_capacity(map.len() + 1);
        for i in 0..=map.len() {
            let (translation, rotation) = local_of(i);
            let t = Transform { translation, rotation, scale: Vec3::ONE };
            let e = if i == 0 {
                world.spawn(t).id()
            } else {
                world.spawn((t, ChildOf(entities[map[i - 1]]))).id()
            };
            entities.push(e);
        }
        world.insert_resource(StaticTransformOptimizations::default());
        let mut schedule = Schedule::default();
        schedule.add_systems((mark_dirty_trees, propagate_parent_transforms, sync_simple_transforms).chain());
        schedule.run(&mut world);
        schedule.run(&mut world);
        Self { world, schedule, entities }
    }

    fn timed(&mut self, passes: u32, changed: &[usize]) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..passes {
            for &i in changed {
                self.world.get_mut::<Transform>(self.entities[i]).expect("transform").set_changed();
            }
            let start = Instant::now();
            self.schedule.run(&mut self.world);
            total += start.elapsed();
        }
        total
    }
}

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let map = large_tree();
    let n = map.len() + 1;
    let (arena, ids) = build_arena(&map);
    let dirty: Vec<Id> = pick(n).iter().map(|&i| ids[i]).collect();
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

    let rounds: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(30);
    let passes: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let pools = [pool(1), pool(2)];
    let mut bevy = Bevy::new(&map);
    let changed = pick(n);
    let names = ["ours t1", "ours t2", "bevy"];
    let mut samples: [Vec<f64>; 3] = Default::default();
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
        samples[2].push(bevy.timed(bevy_passes, &changed).as_secs_f64() * 1e6 / bevy_passes as f64);
    }
    for s in &mut samples {
        s.sort_by(f64::total_cmp);
    }
    for (name, s) in names.iter().zip(&samples) {
        println!("{name:8} best {:9.2} µs  median {:9.2} µs", s[0], s[s.len() / 2]);
    }
    println!(
        "bevy/ours t2: best {:.0}×, median {:.0}×",
        samples[2][0] / samples[1][0],
        samples[2][samples[2].len() / 2] / samples[1][samples[1].len() / 2]
    );
}
